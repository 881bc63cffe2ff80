"""Round 10, calls made from islands and from the code after a graph break, which now
pass library Python functions straight through (``dynamo/break_calls.py``: ``_weak_hooks``'
``intercept``, ``_C_CALLABLES``, ``_c_code_now``): NumPy's Python functions
(``np.eye``, ``np.ones``, ``np.full``, ``np.identity``) and its dispatchers monkeypatched
with user functions before the first call or between calls (and put back), user
functions named like NumPy's or marked ``__module__ = "numpy"``, ``functools.partial``
objects, bound methods, callable objects, ``np.vectorize`` and its user subclasses,
compiled functions, and recursion through the island (the compiled function itself, and
a helper) deeper than dynamo's frames would allow five times over. Every island here is
a loop with a ``print`` (a graph break) inside, so its calls run uncompiled."""

import functools
import sys
import types

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round10_islands")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 3.5, 0.25])
CALLS = []


def _counting(name, result):
    """A user function that records its calls and returns ``result(*args)``."""
    def fn(*args, **kwargs):
        CALLS.append((name, len(args), sorted(kwargs)))
        return result(*args, **kwargs)
    fn.__name__ = name
    return fn


def _reset():
    CALLS.clear()


def _calls():
    return list(CALLS)


# ============================================================ NumPy's functions patched

def _eye_in_island(x, n):
    acc = x.sum()
    for i in range(n):
        print("trip", i)
        acc = acc + np.eye(2)[0, 0] * i
    return acc


def _ones_in_island(x, n):
    out = []
    for i in range(n):
        print("trip", i)
        out.append(np.ones(i + 1).sum() + x[0])
    return out


def _full_in_island(x, n):
    t = x * 2
    for i in range(n):
        print(i)
        t = t + np.full(t.shape, float(i))
    return t


def _identity_in_island(x, n):
    total = 0.0
    for i in range(n):
        print(i)
        total += float(np.identity(3).trace()) + float(x[i % x.size])
    return total


def _dispatcher_in_island(x, n):
    t = x + 1
    for i in range(n):
        print(i)
        t = np.clip(t, -1.0, 2.0) + np.outer(t, t)[0]
    return t


ISLAND_FNS = {"eye": (_eye_in_island, lambda *a, **k: np.zeros((2, 2)) + 7),
              "ones": (_ones_in_island, lambda n, *a, **k: np.arange(float(n))),
              "full": (_full_in_island, lambda shape, v, *a, **k: np.zeros(shape) - v),
              "identity": (_identity_in_island, lambda n, *a, **k: np.ones((n, n))),
              "clip": (_dispatcher_in_island, lambda a, lo, hi: a * 0 + lo)}


def _patched_scenarios():
    for name, (fn, repl) in ISLAND_FNS.items():
        def before(r, name=name, fn=fn, repl=repl):
            _reset()
            r.patch(np, name, _counting(name, repl))
            f = r.compile(fn)
            r.call(f, X.copy(), 3)
            r.call(f, X.copy(), 2)
            r.see("calls", _calls())

        def between(r, name=name, fn=fn, repl=repl):
            _reset()
            f = r.compile(fn)
            r.call(f, X.copy(), 3)
            r.call(f, X.copy(), 3)
            r.patch(np, name, _counting(name, repl))
            r.call(f, X.copy(), 3)
            r.see("calls", _calls())

        def back_and_forth(r, name=name, fn=fn, repl=repl):
            _reset()
            original = getattr(np, name)
            f = r.compile(fn)
            r.call(f, X.copy(), 2)
            r.patch(np, name, _counting(name, repl))
            r.call(f, X.copy(), 2)
            setattr(np, name, original)
            r.call(f, X.copy(), 2)
            setattr(np, name, _counting(name + "2", repl))
            r.call(f, X.copy(), 4)
            r.see("calls", _calls())

        def raising(r, name=name, fn=fn):
            def boom(*a, **k):
                raise RuntimeError(f"patched {name} refuses")
            f = r.compile(fn)
            r.call(f, X.copy(), 2)
            r.patch(np, name, boom)
            r.call(f, X.copy(), 2)
            r.call(f, X.copy(), 0)

        for kind, s in (("before", before), ("between", between),
                        ("back_and_forth", back_and_forth), ("raising", raising)):
            s.__name__ = f"{name}_patched_{kind}"
            scenario(s)


_patched_scenarios()


def _reader(*args, **kwargs):
    """A patched np.eye that reads its caller's frame, as a logging helper might."""
    caller = sys._getframe(1)
    CALLS.append((caller.f_code.co_name, sorted(k for k in caller.f_locals
                                                if not k.startswith("."))))
    return np.zeros((2, 2))


@scenario
def s_eye_patched_with_frame_reader(r):
    _reset()
    f = r.compile(_eye_in_island)
    r.call(f, X.copy(), 2)
    r.patch(np, "eye", _reader)
    r.call(f, X.copy(), 2)
    r.see("calls", _calls())


@scenario
def s_eye_patched_with_frame_reader_first(r):
    _reset()
    r.patch(np, "eye", _reader)
    f = r.compile(_eye_in_island)
    r.call(f, X.copy(), 2)
    r.call(f, X.copy(), 3)
    r.see("calls", _calls())


def _alias_global_eye(x, n):
    acc = x * 0
    for i in range(n):
        print(i)
        acc = acc + EYE(4)[i % 4]
    return acc


EYE = np.eye


@scenario
def s_global_alias_rebound(r):
    _reset()
    r.patch(globals(), "EYE", np.eye)
    f = r.compile(_alias_global_eye)
    r.call(f, X.copy(), 3)
    r.patch(globals(), "EYE", _counting("EYE", lambda n: np.ones((n, n))))
    r.call(f, X.copy(), 3)
    r.patch(globals(), "EYE", np.identity)
    r.call(f, X.copy(), 3)
    r.see("calls", _calls())


@scenario
def s_global_alias_user_then_library(r):
    _reset()
    r.patch(globals(), "EYE", _counting("EYE", lambda n: np.ones((n, n)) * 3))
    f = r.compile(_alias_global_eye)
    r.call(f, X.copy(), 2)
    r.patch(globals(), "EYE", np.eye)
    r.call(f, X.copy(), 2)
    r.see("calls", _calls())


@scenario
def s_global_alias_deleted(r):
    r.patch(globals(), "EYE", np.eye)
    f = r.compile(_alias_global_eye)
    r.call(f, X.copy(), 2)
    del globals()["EYE"]
    r.call(f, X.copy(), 2)
    globals()["EYE"] = np.eye


# ============================================================ user functions named like NumPy's

def eye(n):
    CALLS.append(("user eye", n))
    return np.full((n, n), 2.0)


def linspace(a, b, n):
    CALLS.append(("user linspace", n))
    return np.arange(n) * (b - a)


def _user_named_like_numpy(x, n):
    acc = x.copy()
    for i in range(n):
        print(i)
        acc = acc + eye(4)[0] + linspace(0.0, 1.0, 4)
    return acc


case(_user_named_like_numpy, (X, 2), (X, 0), setup=_reset, watch=_calls)


def _numpy_module_marked(n):
    CALLS.append(("marked", n))
    return np.ones(n) * 5


_numpy_module_marked.__module__ = "numpy"
_numpy_module_marked.__qualname__ = "eye"


def _calls_marked(x, n):
    acc = x * 1
    for i in range(n):
        print(i)
        acc = acc + _numpy_module_marked(4)
    return acc


case(_calls_marked, (X, 2), (X, 3), setup=_reset, watch=_calls)


def _calls_borrowed_code(x, n):
    acc = x * 1
    for i in range(n):
        print(i)
        acc = acc + BORROWED(4)[1]
    return acc


BORROWED = types.FunctionType(np.eye.__code__, {**np.eye.__globals__}, "borrowed",
                              np.eye.__defaults__)
case(_calls_borrowed_code, (X, 2), (X, 1))


def _library_calling_user(x, n):
    rows = []
    for i in range(n):
        print(i)
        rows.append(np.fromfunction(lambda a, b: a * 10 + b + x[0] + i, (2, 3)))  # noqa: B023
    return rows


case(_library_calling_user, (X, 2), (X, 3))


def _apply_along_axis_user(x, n):
    m = np.stack([x, x * 2])
    out = []
    for i in range(n):
        print(i)
        out.append(np.apply_along_axis(lambda row: row.sum() * (i + 1), 1, m))  # noqa: B023
    return out


case(_apply_along_axis_user, (X, 2))


def _vectorized(x, n):
    v = np.vectorize(lambda a: a * 2 if a > 0 else -a)
    acc = []
    for i in range(n):
        print(i)
        acc.append(v(x + i))
    return acc


case(_vectorized, (X, 2))


class Vec(np.vectorize):
    def __call__(self, *args, **kwargs):
        CALLS.append(("Vec", len(args)))
        return super().__call__(*args, **kwargs) + 100


def _vectorize_subclass(x, n):
    v = Vec(lambda a: a * 3)
    acc = []
    for i in range(n):
        print(i)
        acc.append(v(x))
    return acc


case(_vectorize_subclass, (X, 2), setup=_reset, watch=_calls)


# ============================================================ partials, methods, objects

PART = functools.partial(np.full, (3,))
PART_USER = functools.partial(linspace, 0.0)


def _partials(x, n):
    acc = []
    for i in range(n):
        print(i)
        acc.append(PART(float(i)) + PART_USER(2.0, 3))
    return acc


case(_partials, (X, 2), (X, 0), setup=_reset, watch=_calls)


@scenario
def s_partial_rebound(r):
    _reset()
    r.patch(globals(), "PART", functools.partial(np.full, (3,)))
    f = r.compile(_partials)
    r.call(f, X.copy(), 2)
    r.patch(globals(), "PART", functools.partial(_counting("p", lambda s, v: np.ones(s) * v),
                                                 (3,)))
    r.call(f, X.copy(), 2)
    r.see("calls", _calls())


def _partial_local(x, n):
    p = functools.partial(np.eye, 3, k=1)
    q = functools.partial(eye)
    acc = []
    for i in range(n):
        print(i)
        acc.append(p()[0] + q(3)[0] + x[:3])
    return acc


case(_partial_local, (X, 2), setup=_reset, watch=_calls)


class Scaler:
    def __init__(self, k):
        self.k = k
        self.seen = 0

    def apply(self, v):
        self.seen += 1
        return v * self.k

    def __call__(self, v):
        self.seen += 10
        return v + self.k


def _bound_methods(x, o, n):
    m = o.apply
    acc = x.copy()
    for i in range(n):
        print(i)
        acc = m(acc) + o(acc)
    return acc, o.seen


case(_bound_methods, (X, Scaler(2.0), 2), (X, Scaler(-1.0), 3))


@scenario
def s_method_replaced_on_class(r):
    f = r.compile(_bound_methods)
    r.call(f, X.copy(), Scaler(2.0), 2)
    r.patch(Scaler, "apply", lambda self, v: v - self.k)
    r.call(f, X.copy(), Scaler(2.0), 2)
    r.patch(Scaler, "__call__", lambda self, v: v * 0)
    r.call(f, X.copy(), Scaler(2.0), 2)


@scenario
def s_method_replaced_on_instance(r):
    f = r.compile(_bound_methods)
    o = Scaler(3.0)
    r.call(f, X.copy(), o, 2)
    o.apply = lambda v: v * 100
    r.call(f, X.copy(), o, 2)
    o.__call__ = lambda v: v * 1000   # (an instance __call__ is never called)
    r.call(f, X.copy(), o, 2)


def _callable_from_list(x, fns, n):
    acc = x.copy()
    for i in range(n):
        print(i)
        for g in fns:
            acc = g(acc)
    return acc


case(_callable_from_list, lambda: (X.copy(), [np.negative, np.abs, Scaler(1.5),
                                              functools.partial(np.add, 1.0),
                                              Scaler(2.0).apply, np.sort, np.cumsum], 2))


class ListCallable(list):
    def __call__(self, v):
        self.append(float(v.sum()))
        return v * len(self)


def _c_subclass_callable(x, g, n):
    acc = x.copy()
    for i in range(n):
        print(i)
        acc = g(acc)
    return acc, list(g)


case(_c_subclass_callable, lambda: (X.copy(), ListCallable([1]), 3))


def _static_and_class_methods(x, n):
    acc = x.copy()
    for i in range(n):
        print(i)
        acc = Helpers.twice(acc) + Helpers.make(i)
    return acc


class Helpers:
    @staticmethod
    def twice(v):
        return v * 2

    @classmethod
    def make(cls, i):
        return np.full(4, float(i)) + len(cls.__name__)


case(_static_and_class_methods, (X, 2))


@scenario
def s_staticmethod_replaced(r):
    f = r.compile(_static_and_class_methods)
    r.call(f, X.copy(), 2)
    r.patch(Helpers, "twice", staticmethod(lambda v: v * -3))
    r.call(f, X.copy(), 2)


def _compiled_in_island(x, n):
    acc = x.copy()
    for i in range(n):
        print(i)
        acc = INNER(acc) + i
    return acc


def _inner(v):
    return np.sin(v) * 2 + np.eye(4)[0]


INNER = dynamo.compile(_inner, backend="eager")


case(_compiled_in_island, (X, 3))


def _generator_in_island(x, n):
    def gen(k):
        for j in range(k):
            yield np.eye(2)[0, 0] * j
    acc = x * 0
    for i in range(n):
        print(i)
        acc = acc + sum(gen(i + 1))
    return acc


case(_generator_in_island, (X, 3))


# ============================================================ recursion through islands

def _recurse(x, depth):
    if depth == 0:
        return x
    for _ in range(1):
        print(depth) if depth % 100 == 0 else None
    return _recurse(x + 1, depth - 1)


@scenario
def s_self_recursion_deep(r):
    """A compiled function that calls itself (through its global name) from its own
    island, 300 levels down."""
    f = r.compile(_recurse)
    r.patch(globals(), "_recurse", f)
    r.call(f, X.copy(), 3)
    r.call(f, X.copy(), 300)


def _helper_rec(v, d):
    if d == 0:
        return v
    return _helper_rec(np.abs(v) + np.eye(1)[0, 0], d - 1)


def _calls_deep_helper(x, n):
    out = []
    for i in range(n):
        print(i)
        out.append(_helper_rec(x, 400))
    return out


case(_calls_deep_helper, (X, 2))


def _near_limit(x):
    acc = x
    for i in range(1):
        print(i)
        acc = _fill_stack(acc)
    return acc


def _fill_stack(v):
    """Recurse until 40 frames are left below the recursion limit: dynamo's frames
    under an island must be fewer than that."""
    depth, f = 0, sys._getframe()
    while f is not None:
        depth, f = depth + 1, f.f_back
    return _plain_rec(v, sys.getrecursionlimit() - depth - 40)


def _plain_rec(v, d):
    return v if d <= 0 else _plain_rec(v, d - 1)


case(_near_limit, (X,))


def _mutual_a(v, d):
    return v if d <= 0 else _mutual_b(v * 2, d - 1)


def _mutual_b(v, d):
    for _ in range(1):
        if d % 50 == 0:
            print(d)
    return _mutual_a(v - 1, d - 1)


@scenario
def s_mutual_recursion_compiled(r):
    a = r.compile(_mutual_a)
    r.patch(globals(), "_mutual_a", a)
    r.call(a, X.copy(), 4)
    r.call(a, X.copy(), 201)


def _recursion_error(x):
    for i in range(1):
        print(i)
        try:
            _infinite(x)
        except RecursionError as e:
            return "caught", type(e).__name__
    return "no"


def _infinite(v):
    return _infinite(v + 1)


case(_recursion_error, (X,))


# ============================================================ locals an island keeps

def _times_appended(x, n):
    rng = np.random.default_rng(0)
    times = []
    t = 0.0
    for i in range(n):
        print(end="")
        t += rng.exponential(1.0)
        times.append(t)
        if i == 1:
            times = ListCallable([-1.0])
    return times, t, x


case(_times_appended, (X, 3), (X, 1))


def _local_deleted_in_island(x, n):
    acc = []
    for i in range(n):
        print(i)
        acc.append(i)
        if i == 1:
            del acc
            acc = [100]
    return acc


case(_local_deleted_in_island, (X, 3))


def _local_rebound_by_exec(x, n):
    out = []
    for i in range(n):
        print(i)
        out.append(np.eye(2)[0, 0] + i)
    ns = {"out": out}
    exec("out.append(-1)", ns)
    return out


case(_local_rebound_by_exec, (X, 2))


def _method_of_global_rebound(x, n):
    for i in range(n):
        print(i)
        SINK.append(float(x[i % 4]))
    return len(SINK)


SINK = []


@scenario
def s_sink_rebound(r):
    r.patch(globals(), "SINK", [])
    f = r.compile(_method_of_global_rebound)
    r.call(f, X.copy(), 2)
    r.patch(globals(), "SINK", ListCallable([]))
    r.call(f, X.copy(), 2)
    r.see("sink", list(SINK))


def _same_code_globals_a(x):
    print("g")
    return [v * FACTOR for v in x.tolist()]


FACTOR = 2.0


@scenario
def s_same_code_other_globals(r):
    """One code object with two globals dicts: the comprehension (a function called at
    the break on 3.11) reads FACTOR from each."""
    other = types.FunctionType(_same_code_globals_a.__code__,
                               {**globals(), "FACTOR": -5.0}, "other")
    fa = r.compile(_same_code_globals_a)
    fb = r.compile(other)
    for f in (fa, fb, fa, fb):
        r.call(f, X.copy())


def _draws_around_break(x, g):
    a = x + g.random(x.shape)
    print("break")
    b = a * g.standard_normal(x.shape)
    return a, b


case(_draws_around_break, lambda: (X.copy(), np.random.default_rng(3)),
     lambda: (np.array([np.nan, 1.0]), np.random.default_rng(3)))


def _draws_in_island(x, g, n):
    acc = x.copy()
    for i in range(n):
        print(i)
        acc = acc + g.normal(size=x.shape)
        if i == 1:
            g.normal(0.0, -1.0)
    return acc


case(_draws_in_island, lambda: (X.copy(), np.random.default_rng(4), 1),
     lambda: (X.copy(), np.random.default_rng(4), 3))
