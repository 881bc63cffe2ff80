"""Python's semantics of operators, calls and builtins, compiled vs plain.

Each test runs a function eagerly and compiled (``harness.check``: results, arguments
after the call, printed output, exceptions with their exact message). Objects record
what their methods did in a log of their own (compared with the object's attributes),
so the order and number of calls of a user ``__eq__``/``__hash__`` are compared too;
generators log into a list passed as an argument.
"""

import fractions

import numpy as np
import pytest
from harness import check

import dynamo

X = np.arange(4, dtype=np.float32)


class Eq:
    """Equal to what its value equals; logs every call."""

    def __init__(self, v):
        self.log, self.v = [], v

    def __eq__(self, other):
        self.log.append(("eq", self.v))
        return self.v == (other.v if isinstance(other, Eq) else other)

    def __hash__(self):
        self.log.append(("hash", self.v))
        return hash(self.v)


class SubEq(Eq):
    def __eq__(self, other):
        self.log.append(("subeq", self.v))
        return "sub"   # any object: == returns what the method returns


class Lt:
    """Orders nothing itself (NotImplemented): the other side's reflected method decides."""

    def __init__(self, v):
        self.log, self.v = [], v

    def __lt__(self, other):
        self.log.append(("lt", self.v))
        return NotImplemented


class Gt:
    def __init__(self, v):
        self.log, self.v = [], v

    def __gt__(self, other):
        self.log.append(("gt", self.v))
        return self.v > getattr(other, "v", other)


class Plain:
    """object's comparisons: identity."""


class IntSub(int):
    pass


class IntSubEq(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


# --------------------------------------------------------------------------- ==, !=, <

def eq_one(x, a):
    return x + 1 if a == 1 else x - 1


def test_user_eq_is_called():
    check(eq_one, X, Eq(1), graphs=1, breaks=0)
    check(eq_one, X, Eq(2))


def test_user_eq_side_effect_in_order():
    def f(a):
        a.log.append("before")
        r = a == 1
        a.log.append("after")
        return r
    check(f, Eq(1))


def test_ne_inverts_user_eq():
    check(lambda a: (a != 1, a != 2), Eq(1))


def test_reflected_eq():
    check(lambda a: (1 == a, "x" != a), Eq(1))


def test_subclass_reflected_method_first():
    check(lambda a, b: (a == b, b == a), Eq(1), SubEq(2))


def test_eq_returns_any_object():
    check(lambda a: a == 0, SubEq(1))


def test_not_implemented_tries_reflected_method():
    check(lambda a, b: a < b, Lt(1), Gt(0))


def test_unorderable_raises_python_message():
    check(lambda a, b: a < b, Lt(1), Plain())
    check(lambda a: a >= 1, Plain())


def test_default_eq_is_identity():
    def f(x, a, b):
        return x * 2, a == None, a != None, a == a, a == b, a != b, [a] == [a], a in [1, a]  # noqa: E711
    check(f, X, Plain(), Plain(), graphs=1, breaks=0)


def test_is_on_objects():
    def f(x, a, b):
        return x + 1, a is None, a is not None, None is a, a is b, a is not a
    check(f, X, Plain(), Plain(), graphs=1, breaks=0)


def test_library_and_int_subclass_eq():
    check(lambda a: a == 1, fractions.Fraction(1))
    check(lambda a: (a == 1, 1 == a), fractions.Fraction(1, 2))
    check(lambda a: (a == 5, a == 6, 5 == a), IntSub(5))
    check(lambda a: (a == 5, a == 6, 6 == a), IntSubEq(5))


def test_set_input_eq():
    check(lambda s: (s == {1}, s != {1, 2}, {1} == s), {1})


def test_builtin_mixed_types():
    def f():
        return 1 == 1.0, [1] == (1,), {1} == frozenset({1}), (1, 2) < (1, 3), [1, 2] < [1], \
            {1} < {1, 2}, {"a": 1} == {"a": 1.0}
    check(f)


# --------------------------------------------------------------------------- containers

def test_list_count_index_in_call_eq():

    def f(a):
        return [a].count(1), [0, a, 1].index(1), 1 in [0, a, 2], a in (0, 1), \
            [1, a].count(a)
    check(f, Eq(1))


def test_in_stops_at_first_match():
    check(lambda a, b: 1 in [a, b], Eq(1), Eq(2))


def test_sequences_and_dicts_compare_items():

    def f(a, b):
        return [1, a] == [1, 1], (a, 2) == (1, 3), {"k": a} == {"k": 1}, [a] != [b], \
            [1, a] < [1, b]
    check(f, Eq(1), Gt(2))


def test_dict_views_compare_and_contain():
    def f(d, a):
        return d.keys() == {1, 2}, d.keys() != [1, 2], d.items() == {(1, "x"), (2, a)}, \
            (2, 1) in d.items(), (3, 1) in d.items(), 1 in d.items(), 2 in d.keys(), \
            1 in d.values()
    check(f, {1: "x", 2: Eq(1)}, Eq(1))


def test_user_hash_never_runs_while_tracing():
    def f(a):
        d = {a: 1}
        return d[1], a in {1: 2}, len({a, 1})   # (not d itself: comparing it logs)
    check(f, Eq(1))


def test_max_min_compare_with_user_methods():
    check(lambda a, b, c: (max(a, b, c).v, max([a, b]).v), Gt(1), Gt(3), Gt(2))
    check(lambda: (max([1, -5, 3], key=abs), min("bca"), max([], default=7), min(3, 1, 2)))


def test_callable_asks_the_type():
    def f(a, b, g):
        return callable(a), callable(b), callable(g), callable(lambda: 0), callable([])
    check(f, Plain(), Owner(), plain_fn)


# --------------------------------------------------------------------------- calls

def star(*args, **kwargs):
    return args, kwargs


def test_star_args_keep_middle_positional():
    # the sets make the trace break between *a and 5: the resume function gets the list
    check(lambda a, b: star(*a, 5, *b), {1}, {2})
    check(lambda a, b: star(*a, 5, *b, k=1), [1], {2})
    check(lambda a, b: [*a, 5, *b], {1}, {2})

    def gen_args(log):
        def g():
            log.append("g")
            yield 1
        return star(*g(), 5, *{2})
    check(gen_args, [])


def test_double_star_needs_a_mapping():
    check(lambda x: star(**x), [("a", 1)])
    check(lambda x: star(**x, a=1), [("b", 1)])
    check(lambda x: star(a=1, **x), [1])
    check(lambda x: {**x}, [("a", 1)])
    check(lambda x: {"a": 0, **x}, [("a", 1)])
    check(lambda x: star(a=1, **x), {"a": 2})
    check(lambda x: star(**x), {1: 2})
    check(lambda x: star(**x, b=2), {"a": 1})


class Mapping:
    def keys(self):
        return ["a"]

    def __getitem__(self, key):
        return 1


def test_double_star_of_a_mapping_object():
    check(lambda m: (star(**m), {**m}), Mapping())


def test_star_of_non_iterable_names_the_function():
    check(lambda x: star(*x), 5)
    check(lambda x: star(1, *x), 5)


def plain_fn(x, *, k=1):
    return x


class Owner:
    def method(self, x):
        return x


@pytest.mark.parametrize("args,kwargs", [
    ((), {}), ((1, 2), {}), ((1,), {"y": 2}), ((1,), {"x": 2}), ((1, 2), {"k": 3}),
])
def test_wrong_arguments_raise_plain_python_message(args, kwargs):
    check(plain_fn, *args, kwargs=kwargs)
    check(Owner().method, *args, kwargs=kwargs)
    check(lambda x: x, *args, kwargs=kwargs)


def two(a, b):
    return a + b


def test_wrong_arguments_to_a_callee_name_the_callee():
    # the call breaks the trace and runs eagerly, through the callee's compiled wrapper
    check(lambda x: two(x), 1)
    check(lambda x: two(x, 1, 2), 1)
    check(lambda x: two(x, c=1), 1)
    check(lambda x: two(*x), 1)
    check(lambda x: two(**x), [1])


def test_wrong_arguments_message_text():
    compiled = dynamo.compile(plain_fn, backend="eager")
    with pytest.raises(TypeError, match=r"^plain_fn\(\) missing 1 required positional "
                                        r"argument: 'x'$"):
        compiled()
    with pytest.raises(TypeError, match=r"^plain_fn\(\) got an unexpected keyword "
                                        r"argument 'y'$"):
        compiled(1, y=2)
    method = dynamo.compile(Owner().method, backend="eager")
    with pytest.raises(TypeError, match=r"^Owner\.method\(\) got multiple values for "
                                        r"argument 'x'$"):
        method(1, x=2)


# --------------------------------------------------------------------------- builtins

def counting_gen(log, n):
    for i in range(n):
        log.append(i)
        yield i


def test_any_all_stop_at_first_decisive_item():
    def f(log):
        a = any(v >= 2 for v in counting_gen(log, 6))
        b = all(v < 1 for v in counting_gen(log, 6))
        c = any(counting_gen(log, 0))
        return a, b, c
    check(f, [], graphs=0)


def test_map_with_untraceable_function_keeps_items():
    def f(lst):
        it = iter(lst)
        return list(map(print, it))
    check(f, [1, 2, 3])

    def g(lst):
        it = iter(lst)
        return list(filter(print, it))
    check(g, [1, 2, 3])


def test_map_filter_are_lazy():
    def f(log, lst):
        it = iter(lst)
        m = map(lambda v: log.append(v) or v + 1, it)
        first = next(m)
        return first, list(it), list(m)
    check(f, [], [1, 2, 3])

    def g(log, lst):
        flt = filter(lambda v: log.append(v) or v > 1, lst)
        first = next(flt)
        log.append("between")
        return first, list(flt)
    check(g, [], [1, 2, 3, 0, 5])

    def h(log):
        return list(map(lambda a, b: a + b, counting_gen(log, 3), [10, 20]))
    check(h, [])


def test_map_rebuilt_at_a_break():
    def f(lst):
        m = map(lambda v: v * 2, lst)
        first = next(m)
        print("break")
        return first, list(m)
    check(f, [1, 2, 3])
