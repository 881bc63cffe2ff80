"""Values the generated glue rebuilds, and the generated sources themselves.

Each test runs a function plainly and compiled (``dynamo.explain`` for the traced call,
then a compiled function twice: trace and cache hit) and compares exactly: type, value,
sign of zero, NaN-ness, and identity where the program can see it (``is``). Most
functions graph-break (``brk()``) so that the glue has to rebuild their values.

Four classes: values written into the glue's source (``inf``, ``complex(-0.0, 1)``,
huge ints), identity (``tuple(t) is t``, an argument comes back as itself, equal
strings stay two objects), functions and exceptions made in the trace (``__name__``,
``__qualname__``, annotations, attributes, decorators at a break, exception classes
with their own constructors), and ``linecache`` (generated sources leave it with
their code).
"""

import gc
import linecache
import math
import traceback

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo import pyversion, source
from dynamo.codegen import literal


def brk():
    """A graph break (a call of print): the glue rebuilds what is live here."""
    print("", end="")


def exact(a, b, path="result"):
    """``a`` and ``b`` are the same value: type, sign of zero, NaN-ness, recursively."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, (tuple, list)):
        assert len(a) == len(b), f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            exact(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{path}: keys {list(a)} != {list(b)}"
        for k in a:
            exact(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, complex):
        exact(a.real, b.real, f"{path}.real")
        exact(a.imag, b.imag, f"{path}.imag")
    elif isinstance(a, float):
        if math.isnan(a):
            assert math.isnan(b), f"{path}: {a!r} != {b!r}"
        else:
            assert a == b and math.copysign(1, a) == math.copysign(1, b), \
                f"{path}: {a!r} != {b!r}"
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def compiled_results(fn, *args):
    """The results of three compiled calls (traced by explain, traced, cached); asserts
    that every frame was compiled (none fell back to running eagerly)."""
    report = dynamo.explain(fn, backend="eager")(*args)
    assert report.exception is None, report.exception
    assert not report.skipped, report.skipped
    compiled = dynamo.compile(fn, backend="eager")
    return [report.result, compiled(*args), compiled(*args)]


def same_as_plain(fn, *args):
    expected = fn(*args)
    for got in compiled_results(fn, *args):
        exact(expected, got)
    return expected


# ============================================================================ values

SPECIAL = [float("inf"), float("-inf"), float("nan"), -0.0, 0.0,
           complex(-0.0, 1.0), complex(0.0, -0.0), complex(-0.0, -0.0),
           complex(1.0, float("inf")), complex(float("inf"), 0.0),
           complex(float("nan"), -0.0), complex(-0.0, float("-inf")), 1e308, 5e-324]


@pytest.mark.parametrize("value", SPECIAL, ids=repr)
def test_special_numbers_survive_a_break(value):
    def f():
        v = VALUE   # noqa: F821 (set below: a global constant the trace reads)
        w = -v
        brk()
        return v, w, (v, w), [v]

    f.__globals__["VALUE"] = value
    try:
        same_as_plain(f)
    finally:
        del f.__globals__["VALUE"]


def test_numbers_made_in_the_trace_survive_a_break():
    def f():
        inf = float("inf")
        values = (complex(-0.0, 1.0), inf, -inf, complex(1.0, inf), -0.0 * 1,
                  complex(-0.0, -0.0), inf - inf)
        brk()
        return values, values[0]

    same_as_plain(f)


def test_negated_imaginary_literals():   # CPython test_complex.test_negated_imaginary_literal
    def f():
        z0, z1, z2 = -0j, -7j, -1e1000j
        brk()
        return z0, z1, z2

    same_as_plain(f)


def test_huge_int():
    def through_break():
        big = 10 ** 4000    # slow to write and to parse as a literal
        brk()
        return big, -big

    def straight():
        return 10 ** 5000   # past the int -> str digit limit: no literal at all

    same_as_plain(through_break)
    same_as_plain(straight)


def test_literal_only_for_values_it_gives_back():
    for value in (None, True, False, ..., 0, -5, 256, ()):
        text = literal(value)
        assert text is not None and eval(text) is value
    for value in (257, -6, 1.5, float("inf"), -0.0, complex(-0.0, 1), "x", "", b"",
                  (1, 2), 10 ** 5000, np.float32(1)):
        assert literal(value) is None, value


# ============================================================================ identity

T = (1, 2, [3])


def test_tuple_of_a_tuple_is_the_tuple():
    def f(t):
        u = tuple(t)
        brk()
        return u is t, u

    expected = f(T)
    for got in compiled_results(f, T):
        assert got[0] is expected[0] is True
        assert got[1] is T


def test_tuple_argument_comes_back_as_itself():
    def through_break(t):
        brk()
        return t

    def straight(t):
        return t

    for fn in (through_break, straight):
        for got in compiled_results(fn, T):
            assert got is T


def test_constant_tuple_of_the_code_is_the_same_object():
    def f():
        t = (1, 2.5, "a b")
        brk()
        return t

    for got in compiled_results(f):
        assert got is f()


def test_string_argument_comes_back_as_itself():
    def f(s):
        brk()
        return s

    compiled = dynamo.compile(f, backend="eager")
    for _ in range(3):
        s = "".join(["many ", "words"])   # equal to the last one, another object
        assert compiled(s) is s


def test_equal_strings_built_at_runtime_stay_two_objects():
    def f(s):
        a = s + "!"
        b = s + "!"
        brk()
        return a, b, a is b

    expected = f("hey")
    for got in compiled_results(f, "hey"):
        assert got[2] is expected[2] is False
        assert (got[0] is got[1]) is (expected[0] is expected[1])


def test_one_object_referenced_twice_is_rebuilt_once():
    def f():
        e = ValueError("x")
        pair = [e, e]
        brk()
        return pair, e

    for got in compiled_results(f):
        assert got[0][0] is got[0][1] is got[1]


# ============================================================================ functions

def attributes(fn):
    return (fn.__name__, fn.__qualname__, fn.__doc__, fn.__module__, fn.__annotations__,
            fn.__defaults__, fn.__kwdefaults__, dict(fn.__dict__))


def test_function_made_in_the_trace_keeps_its_attributes():
    def outer():
        def inner(x: int, y: "str" = "a", *, z: float = 1.0) -> list:
            "the doc"
            return [x, y, z]

        lam = lambda q=2: q   # noqa: E731
        brk()
        return attributes(inner), attributes(lam), inner(1)

    same_as_plain(outer)


def test_function_made_in_the_trace_without_a_break():
    def outer():
        def inner(x: int) -> int:
            "doc"
            return x
        return inner

    expected = attributes(outer())
    for got in compiled_results(outer):
        exact(expected, attributes(got))


def test_annotations_that_read_locals():   # 3.14: an __annotate__ closure over T
    def outer():
        T = int

        def inner(x: T) -> T:
            return x
        brk()
        return inner.__annotations__

    same_as_plain(outer)


def test_attributes_assigned_in_the_trace():
    def outer():
        def inner():
            return 1
        inner.calls = 0
        inner.__name__ = "renamed"
        inner.__qualname__ = "Some.renamed"
        inner.__doc__ = "new doc"
        inner.me = inner
        name = inner.__name__
        brk()
        return attributes(inner), inner.me is inner, name

    expected = outer()
    for got in compiled_results(outer):
        exact(expected[0][:-1], got[0][:-1])
        assert list(got[0][-1]) == ["calls", "me"]
        assert got[1] is True and got[2] == "renamed"


def test_a_bad_name_assignment_still_raises():
    def outer():
        def inner():
            return 1
        inner.__name__ = 3
        return inner

    check(outer)


def test_reading_a_renamed_function_name_is_guarded():
    def helper():
        return 1

    def f():
        return helper.__name__

    compiled = dynamo.compile(f, backend="eager")
    assert compiled() == "helper"
    helper.__name__ = "other"
    assert compiled() == "other"


SEEN = []


def breaking_decorator(fn):
    print("decorating", end="")   # a graph break inside the decorator
    SEEN.append(fn)
    return fn


def plain_decorator(fn):
    SEEN.append(fn)
    return fn


def test_a_decorator_at_a_break_gets_the_users_function():
    def outer():
        @breaking_decorator
        @plain_decorator
        def f(x):
            return x
        return f

    SEEN.clear()
    compiled = dynamo.compile(outer, backend="eager")
    result = compiled()
    assert len(SEEN) == 2
    assert SEEN[0] is SEEN[1] is result
    assert result.__qualname__ == "test_a_decorator_at_a_break_gets_the_users_function." \
                                   "<locals>.outer.<locals>.f"


def memoize(func):    # CPython test_decorators
    saved = {}

    def call(*args):
        try:
            return saved[args]
        except KeyError:
            res = func(*args)
            saved[args] = res
            return res
    call.__name__ = func.__name__
    return call


def countcalls(counts):
    def decorate(func):
        func_name = func.__name__
        counts[func_name] = 0

        def call(*args, **kwds):
            counts[func_name] += 1
            return func(*args, **kwds)
        call.__name__ = func_name
        return call
    return decorate


def test_memoize():
    def f():
        counts = {}

        @memoize
        @countcalls(counts)
        def double(x):
            return x * 2
        return double.__name__, double.__qualname__, double(2), double(2), double(3), counts

    same_as_plain(f)


@pytest.mark.skipif(not pyversion.PY312, reason="type parameter syntax (PEP 695)")
def test_type_params():
    scope = {"brk": brk}
    exec("def outer():\n"
         "    def f[T](x: T) -> T:\n"
         "        return x\n"
         "    brk()\n"
         "    return f.__type_params__[0].__name__, f.__name__, f.__qualname__\n", scope)
    same_as_plain(scope["outer"])


# ============================================================================ exceptions

class Noisy(Exception):
    def __init__(self, x):
        print("init", x)
        self.x = x
        super().__init__(x)


def test_exception_with_its_own_init_runs_it_in_program_order():
    def f(a):
        print("before")
        e = Noisy(a)
        print("after")
        return e.x, e.args

    check(f, 3)


def test_exception_class_chosen_by_the_constructor():
    def f():
        g = BaseExceptionGroup("eg", [ValueError(1)])   # an ExceptionGroup
        o = OSError(2, "missing")                        # a FileNotFoundError
        brk()
        return type(g), type(o), o.errno

    same_as_plain(f)


def test_exception_attribute_store():
    def f():
        e = KeyError("k")
        e.note = 1
        brk()
        return e.note, type(e), e.args

    same_as_plain(f)


# ============================================================================ glue order

class Box:
    pass


def box():
    b = Box()
    b.t, b.l = (1, [2]), [1, 2]
    return b


def test_a_result_is_read_before_the_writes_back():
    def f(b):
        old = b.t
        b.t = (9,)
        return old

    eager_box, compiled_box = box(), box()
    old_t = compiled_box.t
    assert f(eager_box) == (1, [2])
    assert dynamo.compile(f, backend="eager")(compiled_box) is old_t and compiled_box.t == (9,)


@pytest.mark.parametrize("with_break", [False, True])
def test_a_mutation_through_an_alias_after_the_path_moved(with_break):
    def f(b):
        old = b.l
        b.l = [5]
        old.append(1)
        if with_break:
            brk()
        return old

    check(f, box())


def test_a_parameter_named_like_a_builtin():
    class Obj:
        def m(self):
            return 1

    def f(o, type, getattr, iter, setattr):
        m = o.m
        brk()
        return m(), type, getattr, iter, setattr

    assert same_as_plain(f, Obj(), 1, 2, 3, 4) == (1, 1, 2, 3, 4)


# ============================================================================ linecache

def test_compile_source_lines_live_as_long_as_the_code():
    scope = {}
    name = source.compile_source("def g(x):\n    return 1 / x\n", "<dynamo test g>", scope)
    g = scope.pop("g")
    assert linecache.getline(name, 2) == "    return 1 / x\n"
    try:
        g(0)
    except ZeroDivisionError:
        text = traceback.format_exc()
    assert "return 1 / x" in text
    again = source.compile_source("def h():\n    pass\n", "<dynamo test g>", {})
    assert again != name       # a name in use gets a suffix
    del g
    assert name not in linecache.cache


def test_a_traceback_through_glue_shows_its_lines():
    def f(x):
        y = x * 2
        brk()
        return y

    compiled = dynamo.compile(f, backend="eager")
    compiled(np.ones(2))
    glue = [k for k in linecache.cache if k.startswith("<dynamo glue ___glue_f_")]
    assert glue and all(linecache.getline(k, 1).startswith("def ___glue_f_") for k in glue)


def generated_entries() -> int:
    return sum(1 for k in list(linecache.cache) if k.startswith("<dynamo"))


def make_closure(k):
    def f(x):
        y = x + k
        brk()
        return y * 2
    return f


# Compiled-and-dropped functions leave linecache and the registered sources bounded:
# tests/hostile/test_memory.py.


def test_reset_releases_the_sources_of_dropped_entries():
    def new_glue(before):
        return [k for k in linecache.cache if k.startswith("<dynamo glue") and k not in before]

    before = set(linecache.cache)
    compiled = dynamo.compile(make_closure(1), backend="eager")
    compiled(np.ones(3))
    glue = new_glue(before)
    gc.collect()
    assert glue and all(k in linecache.cache for k in glue)   # alive: kept
    dynamo.reset()     # the entries go, and with them their glue's lines
    gc.collect()       # (a trace's exceptions hold its frames in a cycle until then)
    assert not [k for k in linecache.cache if k in glue]
    compiled(np.ones(3))    # and it compiles again, with lines
    assert new_glue(before)


def test_numpy_backend_sizes_leave_linecache_bounded():
    def f(x):
        return np.exp(x) * 2 + 1

    gc.collect()
    before = generated_entries()
    for n in range(2, 60):
        compiled = dynamo.compile(f, backend="numpy")
        compiled(np.ones(n))
        del compiled
    gc.collect()
    assert generated_entries() - before <= 10
