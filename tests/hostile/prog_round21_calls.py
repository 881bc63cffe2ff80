"""Round 21, calls an island makes through one shared wrapper per code object
(``hook.bound_wrapper``, ``island_memo.py``): functions of one code with other closure
cells, globals, defaults or ``__kwdefaults__``, a cell written between calls, keyword-
only parameters, ``*args``/``**kwargs``, ``__defaults__`` replaced (same count, None),
``__code__`` swapped (also by the loop itself), recursion, bound methods of several
instances and of a function shared by two classes, classmethods, staticmethods,
``functools.partial``, a decorator that reads its caller's frame, lambdas made anew on
every pass, bad calls (unknown keywords, too many arguments); and a few tuples of ints
that change between calls (``policy.note_tuple``: most are in ``prog_round21_tuples.py``,
the same category) as Python numbers past int64, list indices, quotients, ``arange``,
``full`` and ``roll`` arguments.

    >>> def _island(x, h):
    ...     while float(np.abs(x).max()) > 0.3:    # runs as Python: an island
    ...         x = h(x)                           # through h's code's one wrapper
    ...     return x
"""

import functools
import math
import sys
import types

import numpy as np
from hostile_check import Programs

reg = Programs("round21_calls")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])


def _island(x, h):
    n = 0
    while float(np.abs(x).max()) > 0.3:
        x = h(x)
        n += 1
    return x, n


def _island2(x, g, h):
    """Two callees of one code, alternately."""
    n = 0
    while float(np.abs(x).max()) > 0.3:
        x = g(x) if n % 2 else h(x)
        n += 1
    return x, n


def _scaler(k):
    def h(v):
        return v * k
    return h


def _island_case(name, *inputs, **kw):
    case(_island, *inputs, name=name, **kw)


_island_case("closures_of_one_code", lambda: (X, _scaler(0.5)), lambda: (X, _scaler(0.25)),
             lambda: (X * 8, _scaler(0.75)))
case(_island2, lambda: (X * 4, _scaler(0.5), _scaler(0.9)), name="two_closures_alternate")


@scenario
def s_cell_written_between_calls(r):
    k = [0.5]

    def h(v):
        return v * k[0]
    f = r.compile(_island)
    r.call(f, X * 4, h)
    k[0] = 0.25
    r.call(f, X * 4, h)


@scenario
def s_cell_rebound_between_calls(r):
    k = 0.5

    def h(v):
        return v * k
    f = r.compile(_island)
    r.call(f, X * 4, h)
    k = 0.125
    r.call(f, X * 4, h)
    r.see("k", k)


K = 0.5


def _global_k(v):
    return v * K


def _other_globals():
    """Same code, another globals dict (K = 0.25 there)."""
    g = dict(globals())
    g["K"] = 0.25
    return types.FunctionType(_global_k.__code__, g, "_global_k")


case(_island2, lambda: (X * 4, _global_k, _other_globals()), name="one_code_two_globals")


@scenario
def s_global_rebound_between_calls(r):
    global K
    K = 0.5
    f = r.compile(_island)
    try:
        r.call(f, X * 4, _global_k)
        K = 0.2
        r.call(f, X * 4, _global_k)
    finally:
        K = 0.5


def _defaulted(v, k=0.5):
    return v * k


def _with_defaults(d):
    def make():
        fn = types.FunctionType(_defaulted.__code__, globals(), "_defaulted", d)
        return X * 4, fn
    return make


case(_island2, lambda: (X * 4, _with_defaults((0.5,))()[1], _with_defaults((0.25,))()[1]),
     name="one_code_two_defaults")


@scenario
def s_defaults_replaced(r):
    def h(v, k=0.5):
        return v * k
    f = r.compile(_island)
    r.call(f, X * 4, h)
    h.__defaults__ = (0.25,)
    r.call(f, X * 4, h)
    h.__defaults__ = None
    r.call(f, X * 4, h)            # TypeError: k missing
    h.__defaults__ = (0.75,)
    r.call(f, X * 4, h)


@scenario
def s_kwdefaults_added(r):
    def h(v, *, k=0.5):
        return v * k
    f = r.compile(_island)
    r.call(f, X * 4, h)
    h.__kwdefaults__ = {"k": 0.25}
    r.call(f, X * 4, h)
    h.__kwdefaults__ = None
    r.call(f, X * 4, h)


def _kw_only(v, *, k=0.5, bias=0.0):
    return v * k + bias


def _island_kw(x, h, kw):
    while float(np.abs(x).max()) > 0.3:
        x = h(x, **kw)
    return x


case(_island_kw, (X, _kw_only, {}), (X, _kw_only, {"k": 0.25}),
     (X, _kw_only, {"k": 0.5, "bias": 0.01}), (X, _kw_only, {"kk": 1}), name="kw_only")


def _varargs(*args, **kwargs):
    v = args[0]
    for a in args[1:]:
        v = v * a
    return v * kwargs.get("k", 1.0)


def _island_varargs(x, h, extra, kw):
    while float(np.abs(x).max()) > 0.3:
        x = h(x, *extra, **kw)
    return x


case(_island_varargs, (X, _varargs, (0.5,), {}), (X, _varargs, (), {"k": 0.5}),
     (X, _varargs, (0.9, 0.9), {"k": 0.9}), name="star_args")


def _a(v):
    return v * 0.5


def _b(v):
    return v * 0.25


@scenario
def s_code_swapped_between_calls(r):
    def h(v):
        return v * 0.5
    f = r.compile(_island)
    r.call(f, X * 4, h)
    h.__code__ = _b.__code__
    r.call(f, X * 4, h)
    h.__code__ = _a.__code__
    r.call(f, X * 4, h)


def _island_swaps(x, h, codes):
    n = 0
    while float(np.abs(x).max()) > 0.3:
        x = h(x)
        h.__code__ = codes[n % 2]
        n += 1
    return x, n


@scenario
def s_code_swapped_by_the_loop(r):
    def h(v):
        return v * 0.5
    f = r.compile(_island_swaps)
    r.call(f, X * 8, h, (_b.__code__, _a.__code__))
    r.call(f, X * 8, h, (_a.__code__, _b.__code__))


def _rec(v, n):
    if n == 0:
        return v
    return _rec(v * 0.5, n - 1) + 0.0


def _island_rec(x, n):
    while float(np.abs(x).max()) > 0.3:
        x = _rec(x, n)
    return x


case(_island_rec, (X * 100, 3), (X * 100, 1), (X * 100, 20), name="recursive_helper")


class Stepper:
    def __init__(self, k):
        self.k, self.calls = k, 0

    def step(self, v):
        self.calls += 1
        return v * self.k

    @classmethod
    def halve(cls, v):
        cls.count = getattr(cls, "count", 0) + 1
        return v * 0.5

    @staticmethod
    def quarter(v):
        return v * 0.25


def _island_methods(x, a, b):
    n = 0
    while float(np.abs(x).max()) > 0.3:
        x = (a if n % 2 else b).step(x)
        n += 1
    return x, a.calls, b.calls


case(_island_methods, lambda: (X * 4, Stepper(0.5), Stepper(0.9)),
     lambda: (X * 4, Stepper(0.9), Stepper(0.9)), name="methods_of_two_instances")


def _same_instance():
    s = Stepper(0.5)
    return X * 4, s, s


case(_island_methods, _same_instance, name="methods_of_one_instance_twice")


class Other:
    calls = 0
    k = 0.3
    step = Stepper.step          # the same function object in two classes


case(_island_methods, lambda: (X * 4, Stepper(0.5), Other()), name="function_shared_by_classes")


@scenario
def s_method_replaced_on_instance(r):
    s = Stepper(0.5)
    f = r.compile(_island_methods)
    r.call(f, X * 4, s, s)
    s.step = lambda v: v * 0.1
    r.call(f, X * 4, s, s)
    del s.step
    r.call(f, X * 4, s, s)


@scenario
def s_method_replaced_on_class(r):
    class S(Stepper):
        pass
    s = S(0.5)
    f = r.compile(_island_methods)
    r.call(f, X * 4, s, s)
    S.step = lambda self, v: v * 0.2
    r.call(f, X * 4, s, s)


def _island_cls(x, c):
    while float(np.abs(x).max()) > 0.3:
        x = c.halve(x)
        x = c.quarter(x) + 0.0
    return x, c.count


@scenario
def s_classmethod_and_staticmethod(r):
    class S(Stepper):
        pass
    f = r.compile(_island_cls)
    r.call(f, X * 40, S)
    r.call(f, X * 40, S(1.0))
    S.count = 100
    r.call(f, X * 40, S)


case(_island, (X, functools.partial(_defaulted, k=0.5)), (X, functools.partial(_defaulted, k=0.25)),
     (X, functools.partial(_kw_only, bias=0.001)), name="partials")


@scenario
def s_partial_keywords_written(r):
    p = functools.partial(_defaulted, k=0.5)
    f = r.compile(_island)
    r.call(f, X * 4, p)
    p.keywords["k"] = 0.125
    r.call(f, X * 4, p)


def _who_calls(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        wrapper.callers.append(sys._getframe(1).f_code.co_name)
        return fn(*args, **kwargs)
    wrapper.callers = []
    return wrapper


@scenario
def s_decorator_reads_caller_frame(r):
    h = _who_calls(_a)
    f = r.compile(_island)
    r.call(f, X * 4, h)
    r.call(f, X * 8, h)
    r.see("callers", h.callers)


def _caller_locals(fn):
    def wrapper(v):
        wrapper.seen.append(sorted(k for k in sys._getframe(1).f_locals if not k.startswith("_")))
        return fn(v)
    wrapper.seen = []
    return wrapper


@scenario
def s_decorator_reads_caller_locals(r):
    h = _caller_locals(_a)
    f = r.compile(_island)
    r.call(f, X * 4, h)
    r.see("seen", h.seen)


def _fresh_lambdas(x):
    n = 0
    while float(np.abs(x).max()) > 0.3:
        k = 0.5 + 0.1 * (n % 3)
        h = lambda v, k=k: v * k   # noqa: E731
        x = h(x)
        n += 1
    return x, n


case(_fresh_lambdas, (X * 4,), (X * 40,), name="fresh_lambda_each_pass")


def _gen_helper(v):
    yield v * 0.5
    yield v * 0.25


def _island_gen(x):
    out = []
    while float(np.abs(x).max()) > 0.3:
        a, b = _gen_helper(x)
        out.append(float(a.sum()))
        x = b
    return x, out


case(_island_gen, (X * 4,), name="generator_helper")


def _raiser(v):
    if float(v.max()) > 5:
        raise ValueError(f"too big: {float(v.max())}")
    return v * 0.5


def _island_catch(x):
    caught = []
    while float(np.abs(x).max()) > 0.3:
        try:
            x = _raiser(x)
        except ValueError as e:
            caught.append(str(e))
            x = x * 0.1
    return x, caught


case(_island_catch, (X,), (X * 100,), name="helper_raises_caught")


@scenario
def s_callable_objects_one_code(r):
    class Mul:
        def __init__(self, k):
            self.k = k

        def __call__(self, v):
            return v * self.k
    f = r.compile(_island2)
    r.call(f, X * 4, Mul(0.5), Mul(0.9))
    Mul.__call__ = lambda self, v: v * 0.1
    r.call(f, X * 4, Mul(0.5), Mul(0.9))


# ------------------------------------------------------------ more callees, more tuples

def _island_h(x, h):
    while float(np.abs(x).max()) > 0.3:
        x = h(x)
    return x


class _Getter:
    def __getattr__(self, name):
        return lambda v: v * 0.5


class _HalvingList(list):
    def half(self, v):
        self.append(1)
        return v * 0.5


case(_island_h, lambda: (X * 4, types.MethodType(lambda s, v: v * s, 0.5)),
     lambda: (X * 4, types.MethodType(Stepper.step, Stepper(0.25))), name="manual_methods")
case(_island_h, lambda: (X * 4, _HalvingList().half), name="list_subclass_method")
case(_island_h, lambda: (X * 4, _Getter().anything), name="getattr_made_lambda")


def _partialmethod_loop(x):
    class C:
        def f(self, v, k):
            return v * k
        g = functools.partialmethod(f, k=0.5)
    c = C()
    while float(np.abs(x).max()) > 0.3:
        x = c.g(x)
    return x


case(_partialmethod_loop, (X * 4,), name="partialmethod")


def _big_items(t, x):
    return (t[0] * t[1], t[0] + t[1], math.prod(t), x[: t[0] % 7], -t[0], t[0] ** 2,
            t[0] // 3, t[0] << 3)


Z = np.arange(10.0)
M = np.arange(12.0).reshape(3, 4)
case(_big_items, ((2, 3), Z), ((2**40, 2**30), Z), ((2**62, 4), Z), ((-2**63, -1), Z),
     name="tuple_items_past_int64")


def _list_indices(t, lst):
    return lst[t[0]], lst[t[1]:t[0]], t[0] == t[1]


L4 = [1, 2, 3, 4]
case(_list_indices, ((1, 2), L4), ((3, 0), L4), ((-1, -3), L4), ((9, 0), L4),
     name="tuple_indexes_a_list")


def _tuple_quotients(t, x):
    return x * t[0] / t[1], t[0] / t[1], np.float32(t[0]) + t[1]


case(_tuple_quotients, ((1, 3), np.ones(2)), ((2**53 + 1, 3), np.ones(2)),
     ((5, 0), np.ones(2)), ((1, 2**64), np.ones(2)), name="tuple_quotients")


def _tuple_ranges(t):
    return np.arange(*t), np.linspace(0, 1, t[0]).sum(), np.eye(*t[:2]).sum()


case(_tuple_ranges, ((3, 7, 2),), ((4, 8, 1),), ((2, 9, 3),), ((0, 1, 1),), ((5, 1, -1),),
     name="tuple_as_arange")


def _tuple_full(t, x):
    return np.full(t, x).sum(), np.empty(t).shape, np.ones(t[::-1]).T.shape


case(_tuple_full, ((2, 3), 1.5), ((3, 2), 2), ((4, 1), True), ((1, 4), np.float32(3)),
     name="tuple_as_full_shape")


def _tuple_rolls(x, t):
    return np.roll(x, t, axis=(0, 1)), np.flip(x, t[0] % 2), np.moveaxis(x, 0, -1).shape


case(_tuple_rolls, (M, (1, 2)), (M, (2, -1)), (M, (0, 0)), (M, (-5, 7)), name="tuple_as_roll")


def _swap_rows(x, t):
    x[t[0]], x[t[1]] = x[t[1]].copy(), x[t[0]].copy()
    return x


case(_swap_rows, (M, (0, 1)), (M, (1, 2)), (M, (2, 2)), (M, (-1, 0)), name="tuple_swaps_rows")


# --------------------------------------------- bad calls through the shared wrapper

def _island_kwargs(x, h, kw):
    n = 0
    while float(np.abs(x).max()) > 0.3 and n < 50:
        x = h(x, **kw)
        n += 1
    return x, n


def _renamed():
    """``_defaulted``'s code under another name and qualified name: the messages of a
    bad call name the function."""
    f = types.FunctionType(_defaulted.__code__, globals(), "other", (0.5,))
    f.__qualname__ = "Other.q"
    return f


case(_island_kwargs, (X, _defaulted, {"k": 0.25}), (X, _defaulted, {"kk": 1}),
     (X, _defaulted, {"v": 1}), lambda: (X, _renamed(), {"kk": 1}),
     lambda: (X, _renamed(), {"k": 0.5}), name="bad_keywords")


def _island_positional(x, h, extra):
    n = 0
    while float(np.abs(x).max()) > 0.3 and n < 50:
        x = h(x, *extra)
        n += 1
    return x, n


class _M:
    def m(self, v, k=0.5):
        return v * k


case(_island_positional, (X, _defaulted, ()), (X, _defaulted, (0.5, 1)),
     lambda: (X, _M().m, (0.5, 2)), lambda: (X, _renamed(), (1, 2)), lambda: (X, _M().m, ()),
     name="too_many_positional")


def _island_unbound(x, s):
    n = 0
    while float(np.abs(x).max()) > 0.3 and n < 50:
        x = _M.m(s, x)
        n += 1
    return x, n


case(_island_unbound, (X, _M()), (X, 5), name="unbound_method_any_self")
