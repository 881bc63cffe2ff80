"""Round 44, warmed dispatchers and frame entries (``dispatch.warmed``,
``frame_entries._warm``: on 3.11 a new dispatcher, and a new frame entry's template,
is called ``pyversion.WARMUP_CALLS`` times with ``dispatch.WARMING`` before the
program's first call through it; nothing on 3.12+). The first ten calls of a fresh
compile, each with effects that must happen exactly once per call (a print, an append,
a global counter, ``np.random`` draws, a warning, an attribute written); recompiles on
every one of those calls (a new shape, dtype or argument type each time: a new
dispatcher each), exceptions raised on calls 1, 2 and 8, parameters named like the
dispatcher's own locals (``___fn``, ``___warming``, ``___closure``, ``___entry``),
functions with defaults, keyword-only parameters, ``*args``, closures, methods and
callable objects; arguments whose ``__eq__``, ``__hash__``, ``__len__`` or
``__getattribute__`` count their calls (warming reads no argument); the dispatcher's
sentinel ``dispatch.WARMING`` passed by the program as an argument and as the hidden
keyword; and a native tier with a disk cache (``cache_dir``) whose files are cut short
or filled with garbage before a fresh compile loads them.

    >>> f = r.compile(counted)
    >>> for k in range(10):
    ...     r.call(f, X)          # each call prints once and appends once
"""

import os
import shutil
import tempfile
import warnings

import numpy as np
from hostile_check import TIER2, Args, Programs

import dynamo
from dynamo import dispatch

reg = Programs("round44_state")
LOG = []
COUNT = [0]


def _reset():
    LOG.clear()
    COUNT[0] = 0


def _x(n=4, dtype=np.float64):
    return (np.arange(n) * 0.5 - 1.0).astype(dtype)


def case(fn, *sets, calls=10, name=None, setup=_reset, watch=lambda: (list(LOG), COUNT[0])):
    reg.case(fn, *sets, calls=calls, name=name, setup=setup, watch=watch)


# ----------------------------------------------------------------------------- effects

def _prints(x):
    print("call", x.shape)
    return x * 2


case(_prints, (_x(),))


def _appends_global(x):
    LOG.append(x.shape[0])
    COUNT[0] += 1
    return x + COUNT[0]


case(_appends_global, (_x(),))


def _appends_then_break(x):
    LOG.append("before")
    y = x * 2
    print("break", y.sum())
    LOG.append("after")
    return y


case(_appends_then_break, (_x(),))


def _draws(x):
    return x + np.random.rand(x.shape[0])


def _seeded():
    _reset()
    np.random.seed(4)


case(_draws, (_x(),), setup=_seeded)


def _warns(x):
    warnings.warn("called", stacklevel=1)
    return x - 1


case(_warns, (_x(),))


class _Obj:
    def __init__(self):
        self.n = 0


def _writes_attr(o, x):
    o.n += 1
    return x * o.n


def s_writes_attr(r):
    o = _Obj()
    f = r.compile(_writes_attr)
    for _ in range(10):
        r.call(f, o, _x())
    r.see("o.n", o.n)


reg.scenario(s_writes_attr)


# ----------------------------------------------------------------------------- recompiles

def _shaped(x):
    LOG.append(x.shape)
    return x.sum() * 2


case(_shaped, *[(_x(n),) for n in (1, 2, 3, 5, 8, 13, 21, 4, 6, 7)], calls=1,
     name="recompile_every_call_shape")
case(_shaped, *[(_x(4, dt),) for dt in (np.float64, np.float32, np.int8, np.int64, np.uint8,
                                        np.float16, np.int16, np.complex128, np.bool_)],
     calls=1, name="recompile_every_call_dtype")


def _typed(v):
    LOG.append(type(v).__name__)
    return v * 2


case(_typed, (1,), (2.5,), (np.float32(1.5),), (True,), (_x(),), ([1, 2],), ((1,),),
     ("ab",), (np.int8(3),), (None,), calls=1, name="recompile_every_call_type")


# ----------------------------------------------------------------------------- raising

def _raises_on(x, k):
    LOG.append(k)
    if k in (0, 1, 7):
        raise ValueError(f"call {k}")
    return x * k


def s_raises_during_warm_calls(r):
    _reset()
    f = r.compile(_raises_on)
    for k in range(10):
        r.call(f, _x(), k)
    r.see("log", list(LOG))


reg.scenario(s_raises_during_warm_calls)


def _raises_graph(x, i):
    LOG.append(i)
    return x[i]


def s_index_error_first_calls(r):
    _reset()
    f = r.compile(_raises_graph)
    for i in (9, 0, 9, 1, -9, 2, 3, 9, 0, 1):
        r.call(f, _x(), i)
    r.see("log", list(LOG))


reg.scenario(s_index_error_first_calls)


# ----------------------------------------------------------------------------- signatures

def _dunder_names(___fn, ___warming, ___closure, ___cache):
    return ___fn * 2 + ___warming, ___closure, ___cache


case(_dunder_names, (_x(), 1.0, "c", None), (_x(3), 2.0, None, "k"), calls=5)


def _entry_name(x, ___entry=None):
    return x * 2, ___entry


case(_entry_name, (_x(),), (_x(), 5), calls=5)


def _defaults(x, k=2.0, *, m=3.0):
    return x * k + m


case(_defaults, (_x(),), calls=10)


def _kwonly(x, *, m):
    LOG.append(m)
    return x * m


case(_kwonly, Args(_x(), m=2.0), Args(_x(3), m=-1.0), calls=5)


def _star(*xs):
    LOG.append(len(xs))
    return sum(x.sum() for x in xs)


case(_star, (_x(),), (_x(), _x()), (), calls=4)


def _make_closure(k):
    def inner(x):
        LOG.append(k)
        return x * k
    return inner


case(_make_closure(3.0), (_x(),), name="closure")


class _Model:
    def __init__(self):
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return x * self.calls

    def method(self, x):
        self.calls += 2
        return x + self.calls


def s_method_and_callable(r):
    m = _Model()
    f = r.compile(m)
    g = r.compile(m.method)
    for _ in range(10):
        r.call(f, _x())
        r.call(g, _x())
    r.see("calls", m.calls)


reg.scenario(s_method_and_callable)


# ----------------------------------------------------------------------------- spies

class _Spy:
    def __init__(self):
        self.eq = self.hash = self.len = 0

    def __eq__(self, other):
        self.eq += 1
        return self is other

    def __hash__(self):
        self.hash += 1
        return 7

    def __len__(self):
        self.len += 1
        return 3


def _takes_spy(s, x):
    return x * 2, len(s)


def s_spy_counts(r):
    s = _Spy()
    f = r.compile(_takes_spy)
    for _ in range(10):
        r.call(f, s, _x())
    r.see("counts", (s.eq, s.hash, s.len))


reg.scenario(s_spy_counts)


class _Reads:
    def __init__(self):
        object.__setattr__(self, "reads", [])
        object.__setattr__(self, "v", 2.0)

    def __getattribute__(self, name):
        if name != "reads":
            object.__getattribute__(self, "reads").append(name)
        return object.__getattribute__(self, name)


def _reads_attr(o, x):
    return x * o.v


def s_getattribute_counts(r):
    o = _Reads()
    f = r.compile(_reads_attr)
    for _ in range(10):
        r.call(f, o, _x())
    r.see("reads", list(o.reads))


reg.scenario(s_getattribute_counts)


# ----------------------------------------------------------------------------- the sentinel

def _passes_through(v, x):
    return v, x * 2


def s_warming_as_argument(r):
    """The program passes dynamo's own sentinel as an argument (``___fn`` is tested,
    not an argument)."""
    f = r.compile(_passes_through)
    for _ in range(10):
        r.call(f, dispatch.WARMING, _x())
        r.call(f, None, _x())


reg.scenario(s_warming_as_argument)


def _two_args(x, y):
    return x + y


def s_warming_as_hidden_keyword(r):
    """``___entry=WARMING``: plain Python raises TypeError (no such parameter)."""
    f = r.compile(_two_args)
    for _ in range(3):
        r.call(f, _x(), _x())
    for _ in range(3):
        r.call(f, _x(), _x(), ___entry=dispatch.WARMING)
        r.call(f, _x(), _x(), ___entry=None)
    r.call(f, _x(), _x())


reg.scenario(s_warming_as_hidden_keyword)


# ----------------------------------------------------------------------------- native cache

def _kernel(x):
    return np.sqrt(np.abs(x)) * 2.0 - x


def _mangle(cache_dir, how):
    for root, _, files in os.walk(cache_dir):
        for name in files:
            path = os.path.join(root, name)
            size = os.path.getsize(path)
            with open(path, "r+b") as fh:
                if how == "cut":
                    fh.truncate(size // 2)
                else:
                    fh.write(b"\x00garbage\xff" * max(1, size // 10))


def _native_cache(r, how):
    cache_dir = tempfile.mkdtemp(prefix="dynamo-r44-")
    try:
        options = {**TIER2, "cache_dir": cache_dir}
        f = r.compile_on(_kernel, "native", options=options)
        for n in (64, 64, 65):
            r.call(f, _x(n))
        if r.compiled:
            dynamo.reset()
            _mangle(cache_dir, how)
        g = r.compile_on(_kernel, "native", options=options)
        for n in (64, 64, 65, 64):
            r.call(g, _x(n))
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)


def _cache_cut_native(r):
    _native_cache(r, "cut")


def _cache_garbage_native(r):
    _native_cache(r, "garbage")


reg._add("cache_cut_native", _cache_cut_native, "disk cache files cut to half",
         own_backend=True)
reg._add("cache_garbage_native", _cache_garbage_native, "disk cache files overwritten",
         own_backend=True)
