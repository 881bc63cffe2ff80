"""Round 24, the lighter cached-call path (``dynamo/glue.py``): a graph of one result
hands back the value itself (``__dynamo_bare__``), inputs whose sizes the guards pin
skip the size lookup (``mark_fixed_inputs``), and ``*args``/``**kwargs`` get no type
guard (Python makes them a tuple and a dict whatever the caller passes). Hostile
callers: subclasses of tuple, dict and list passed through ``*args``/``**kwargs``
(``f(*T(...))``, ``f(**D(...))``, a mapping with its own ``keys``), functions whose
``__defaults__``/``__kwdefaults__`` change between calls, a user backend that wraps
eager (and returns a list, or the value of a one-result graph), results that are the
input itself or a view of it, sizes that change under a pinned entry.

    >>> def _star(*args):
    ...     return args[0] * 2.0, type(args).__name__
"""

import collections
import copy

import numpy as np
from hostile_check import Args, Programs

import dynamo

reg = Programs("round24_cached")
case = reg.case
scenario = reg.scenario

X = np.linspace(-1.0, 2.0, 6)
Y = np.linspace(3.0, 4.0, 6)
X7 = np.linspace(-1.0, 2.0, 7)


class T(tuple):
    def __getitem__(self, k):
        return "T item"


class D(dict):
    def __getitem__(self, k):
        return "D item"

    def keys(self):
        return ["x"]


class L(list):
    def __iter__(self):
        return iter([np.ones(6)])


class Keys:
    """A mapping that is not a dict: ``f(**m)`` calls its keys and __getitem__."""

    def __init__(self, d):
        self.d = d

    def keys(self):
        return list(self.d)

    def __getitem__(self, k):
        return self.d[k]


def _star(*args):
    return args[0] * 2.0, type(args).__name__, len(args)


def _star_one(*args):
    return args[0] + 1.0


def _kw(**kw):
    return kw["x"] * 2.0, type(kw).__name__, sorted(kw)


def _kw_one(**kw):
    return kw["x"] - 1.0


def _mixed(x, *args, k=1.0, **kw):
    return x * k + sum(args) + kw.get("z", 0.0), type(args).__name__, type(kw).__name__


def _star_mutated(*args):
    args = args + (1.0,)
    return args[0] * args[-1], type(args).__name__


def _kw_mutated(**kw):
    kw["extra"] = 1
    return kw["x"] * 2.0, list(kw)


for fn in (_star, _star_one):
    case(fn, lambda: T((X.copy(), Y.copy())), name=f"{fn.__name__[1:]}_plain_tuple")
    case(fn, lambda: T(T((X.copy(), Y.copy()))), name=f"{fn.__name__[1:]}_tuple_subclass")
    case(fn, lambda: tuple(L([X.copy()])), name=f"{fn.__name__[1:]}_list_subclass")
    case(fn, lambda: (X.copy(),), lambda: T((X7.copy(), 1)), lambda: (Y.copy(), 2, 3),
         name=f"{fn.__name__[1:]}_changing")
for fn in (_kw, _kw_one):
    case(fn, lambda: Args(**D(x=X.copy())), name=f"{fn.__name__[1:]}_dict_subclass")
    case(fn, lambda: Args(**Keys({"x": X.copy(), "y": 1})), name=f"{fn.__name__[1:]}_keys")
    case(fn, lambda: Args(x=X.copy()), lambda: Args(**collections.OrderedDict(x=X7.copy())),
         lambda: Args(**collections.defaultdict(int, x=Y.copy())),
         name=f"{fn.__name__[1:]}_changing")
case(_mixed, lambda: Args(X.copy(), *T((1.0, 2.0)), **D(k=2.0, z=3.0)),
     lambda: Args(X.copy(), 1.0, k=3.0), lambda: Args(X7.copy(), *L([]), **Keys({"z": 1.0})))
case(_star_mutated, lambda: T((X.copy(), 2.0)), lambda: (Y.copy(),))
case(_kw_mutated, lambda: Args(**D(x=X.copy())), lambda: Args(x=Y.copy(), y=1))


def s_star_direct_call(r):
    """The compiled function called as ``f(*t)`` and ``f(**d)`` directly, with
    subclasses whose ``__iter__``/``keys`` run code."""
    f = r.compile(_star)
    g = r.compile(_kw)
    for _ in range(2):
        r.see("star", f(*T((X.copy(), 1.0))))
        r.see("kw", g(**D(x=X.copy())))
        r.see("iter", f(*L([0])))
        r.see("keys", g(**Keys({"x": Y.copy()})))


scenario(s_star_direct_call)


# ------------------------------------------------------------ defaults changing

def _with_default(x, scale=2.0):
    return x * scale


def _with_kwdefault(x, *, scale=2.0, shift=0.0):
    return x * scale + shift


def _with_mutable_default(x, acc=[]):   # noqa: B006 (the hostile part)
    acc.append(len(acc))
    return x * len(acc)


def _default_array(x, w=np.ones(6)):   # noqa: B008
    return x * w


def _star_default(x, *args, scale=3.0):
    return x * scale, args


def _defaults_scenario(fn, attr, values):
    def s(r):
        saved = getattr(fn, attr)
        setattr(fn, attr, copy.deepcopy(saved))   # (each run starts from fresh defaults)
        f = r.compile(fn)
        try:
            r.call(f, X.copy())
            r.call(f, X.copy())
            for v in values:
                setattr(fn, attr, copy.deepcopy(v))
                r.call(f, X.copy())
                r.call(f, X7.copy())
        finally:
            setattr(fn, attr, saved)
    s.__name__ = f"{fn.__name__[1:]}_{attr.strip('_')}"
    scenario(s)


_defaults_scenario(_with_default, "__defaults__", [(3.0,), (np.float32(2.0),), (X,), (None,)])
_defaults_scenario(_with_kwdefault, "__kwdefaults__",
                   [{"scale": 5.0, "shift": 1.0}, {"scale": 5.0}, None,
                    {"scale": 5, "shift": True}])
_defaults_scenario(_with_mutable_default, "__defaults__", [([1, 2],), ([],)])
_defaults_scenario(_default_array, "__defaults__", [(np.zeros(6),), (np.ones(7),),
                                                    (np.ones(6, np.float32),)])
_defaults_scenario(_star_default, "__kwdefaults__", [{"scale": 0.5}, {"scale": -1}])


def s_default_array_mutated(r):
    """The default array itself written between calls (same object, new values)."""
    f = r.compile(_default_array)
    r.call(f, X.copy())
    _default_array.__defaults__[0][...] = 4.0
    try:
        r.call(f, X.copy())
        r.call(f, X.copy())
    finally:
        _default_array.__defaults__[0][...] = 1.0


scenario(s_default_array_mutated)


# ------------------------------------------------------------ one-result graphs

def _returns_input(x):
    return x


def _returns_view(x):
    return x[1:]


def _returns_sum(x):
    return x.sum()


def _returns_scalar_product(x, y):
    return np.dot(x, y)


def _returns_one_array(x, y):
    return x * y + 1.0


def _returns_written_input(x):
    x += 1.0
    return x


def _returns_list_of_one(x):
    return [x * 2.0]


def _returns_tuple_of_one(x):
    return (x * 2.0,)


def _returns_int_of_graph(x):
    return int(x.argmax())


def _returns_float_of_graph(x):
    return float(x.max())


def _returns_same_twice(x):
    y = x * 2.0
    return y, y


def _returns_bool_array(x):
    return x > 0


def _returns_zero_d(x):
    return np.asarray(x.sum())


def _returns_none_after_write(x):
    x[0] = x.sum()


def _returns_raise(x):
    return np.linalg.inv(x.reshape(2, 3))


for fn in (_returns_input, _returns_view, _returns_sum, _returns_written_input,
           _returns_list_of_one, _returns_tuple_of_one, _returns_int_of_graph,
           _returns_float_of_graph, _returns_same_twice, _returns_bool_array,
           _returns_zero_d, _returns_none_after_write, _returns_raise):
    case(fn, (X,), (X7,), (X.astype(np.float32),), (np.arange(6),))
case(_returns_scalar_product, (X, Y), (X7, X7), (X, Y.astype(np.float32)))
case(_returns_one_array, (X, Y), (X7, X7), (X, 2.0), (X.astype(np.float32), 2))


# ------------------------------------------------------------ user backends

def _wrapping(kind):
    from dynamo.backends.eager import eager

    def backend(graph, example_inputs):
        fn = eager(graph, example_inputs)
        if kind == "plain":
            return fn
        if kind == "list":
            return lambda *a: list(fn(*a))
        if kind == "bare":    # a user function with the builtin's attribute name
            def run(*a):
                return fn(*a)
            run.__dynamo_bare__ = lambda *a: "not the value"
            return run
        if kind == "generator":
            return lambda *a: tuple(v for v in fn(*a))
        raise ValueError(kind)
    return backend


def _user_backend_scenario(kind, fn, inputs):
    def s(r):
        f = dynamo.compile(fn, backend=_wrapping(kind)) if r.compiled else fn
        for args in inputs + inputs[:1]:
            r.call(f, *[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    s.__name__ = f"user_backend_{kind}{fn.__name__}"
    scenario(s)


for _kind in ("plain", "list", "bare", "generator"):
    for _fn in (_returns_sum, _returns_one_array, _returns_input, _returns_same_twice):
        _user_backend_scenario(_kind, _fn, [(X, Y), (X7, X7)] if _fn is _returns_one_array
                               else [(X,), (X7,)])


# ------------------------------------------------------------ pinned sizes

def _pinned_by_list(a, xs):
    return a * np.array(xs)


def _pinned_by_static(a, b):
    return a + b[:len(a)]


case(_pinned_by_list, (np.ones(4), [1.0, 2.0, 3.0, 4.0]), (np.ones(4), [1.0, 2.0, 3.0]),
     (np.ones(5), [1.0] * 5), (np.ones(4), [1, 2, 3, 4]))
case(_pinned_by_static, (np.ones(4), np.arange(6.0)), (np.ones(5), np.arange(6.0)),
     (np.ones(4), np.arange(3.0)), (np.ones(7), np.arange(9.0)))


# ------------------------------------------------------------ *args across a break

def _opaque():
    import sys
    return sys._getframe(1).f_lineno > 0    # (a call the tracer does not follow: a break)


def _star_after_break(*args):
    y = args[0] * 2.0
    _opaque()
    return y + args[-1], type(args).__name__, len(args)


def _star_rebound(*args):
    args = T(args)
    _opaque()
    return args[0], type(args).__name__


def _kw_rebound(**kw):
    kw = D(kw)
    _opaque()
    return kw["x"], type(kw).__name__


def _star_in_closure(*args):
    def inner():
        return args[0] * 2.0
    return inner(), type(args).__name__


case(_star_after_break, lambda: T((X.copy(), 1.0)), lambda: (X7.copy(), 2.0, 3.0),
     lambda: tuple(L([1.0])))
case(_star_rebound, lambda: T((X.copy(), 1.0)), lambda: (X7.copy(),))
case(_kw_rebound, lambda: Args(**D(x=X.copy())), lambda: Args(x=Y.copy()))
case(_star_in_closure, lambda: T((X.copy(),)), lambda: (X7.copy(), 1))
