"""Round 43, code objects by identity (``dynamo/code_keyed.py``: caches, resume
functions and marks keyed by the code object itself, never by its value; two ``exec``
of one source make equal code objects): one source ``exec``'d per dtype and per
module-globals dict (each with its own ``SCALE``), lambdas made in a loop, functions
re-created by a factory (closures over different values, default arguments), each
with a graph break (a ``print``) so each has resume functions; compiled, called,
dropped (``del``, the ``exec`` namespace cleared, ``gc.collect(1)``), and made again
from the same source in one process; a function whose ``__code__`` is replaced by an
equal code of another source's ``exec``; closures of one code whose cells are rebound
after the first call; equal codes with other defaults, and ``__defaults__`` replaced;
``dynamo.reset()`` between.

    >>> for k in range(6):
    ...     ns = {"np": np, "SCALE": float(k)}
    ...     exec(SOURCE, ns)                  # six equal code objects
    ...     f = r.compile(ns["scaled"])
    ...     r.call(f, X)                      # each reads its own SCALE after the break
"""

import gc

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round43_state")

SOURCE = '''
def scaled(x):
    y = x * SCALE
    print("after", SCALE)
    return y + SCALE, y.dtype
'''

LOOP_SOURCE = '''
def looped(x):
    s = x[0] * 0
    for i in range(len(x)):
        s = s + x[i] * SCALE
        if i == 2:
            print("mid", s)
    return s
'''

TYPED_SOURCE = '''
def typed(x):
    y = x.astype(DT) + 1
    print("dt", y.dtype)
    return y * 2
'''


def _x(n=6, dtype=np.float64):
    return (np.arange(n) - 2).astype(dtype)


def _fresh(source, name, **glob):
    ns = {"np": np, **glob}
    exec(source, ns)
    return ns[name]


def _drop(fn):
    """Break the cycle function -> its ``exec`` namespace -> function, so the young
    collection frees the code object (a full one scans the whole session)."""
    fn.__globals__.clear()


def _exec_per_scale(r, source=SOURCE, name="scaled", drop=False, reset=False):
    for k in range(3):
        g = _fresh(source, name, SCALE=float(k) - 1.5)
        f = r.compile(g)
        r.call(f, _x())
        r.call(f, _x(8))
        if drop:
            _drop(g)
            del f, g
            gc.collect(1)   # (young objects only: a full collection scans the session)
        if reset and r.compiled:
            dynamo.reset()


@reg.scenario
def s_exec_per_scale(r):
    _exec_per_scale(r)


@reg.scenario
def s_exec_per_scale_dropped(r):
    _exec_per_scale(r, drop=True)


@reg.scenario
def s_exec_per_scale_reset(r):
    _exec_per_scale(r, reset=True)


@reg.scenario
def s_exec_loop_per_scale(r):
    _exec_per_scale(r, LOOP_SOURCE, "looped")


@reg.scenario
def s_exec_loop_dropped(r):
    _exec_per_scale(r, LOOP_SOURCE, "looped", drop=True)


@reg.scenario
def s_exec_per_dtype(r):
    for dt in (np.float64, np.float32, np.int8, np.int64, np.uint8, np.float64):
        f = r.compile(_fresh(TYPED_SOURCE, "typed", DT=dt))
        r.call(f, _x())
        r.call(f, _x(3, np.int16))


@reg.scenario
def s_all_kept_then_called_again(r):
    """Every function kept: calls in turn after all were compiled."""
    fs = [r.compile(_fresh(SOURCE, "scaled", SCALE=float(k))) for k in range(5)]
    for f in fs + fs[::-1]:
        r.call(f, _x())


@reg.scenario
def s_all_kept_loops(r):
    fs = [r.compile(_fresh(LOOP_SOURCE, "looped", SCALE=float(k) * 0.5)) for k in range(4)]
    for n in (6, 12, 6):
        for f in fs:
            r.call(f, _x(n))


def _lambdas(r, drop):
    for k in range(3 if drop else 4):
        g = lambda x, k=k: (x * k, print("k", k), x + k)[::2]   # noqa: E731
        f = r.compile(g)
        r.call(f, _x())
        r.call(f, _x(4))
        if drop:
            del f, g
            gc.collect(1)   # (young objects only: a full collection scans the session)


@reg.scenario
def s_lambdas_in_loop(r):
    _lambdas(r, drop=False)


@reg.scenario
def s_lambdas_in_loop_dropped(r):
    _lambdas(r, drop=True)


def _factory(scale, offset=0.0):
    def made(x):
        y = x * scale
        print("made", scale)
        return y + offset
    return made


@reg.scenario
def s_factory_closures(r):
    fs = [r.compile(_factory(float(k), offset=-float(k))) for k in range(5)]
    for f in fs:
        r.call(f, _x())
    for f in reversed(fs):
        r.call(f, _x(9))


@reg.scenario
def s_factory_dropped_and_remade(r):
    for round_ in range(2):
        for k in range(3):
            f = r.compile(_factory(float(k + round_)))
            r.call(f, _x())
            del f
        gc.collect(1)   # (young objects only: a full collection scans the session)


def _factory_loop(scale):
    def made(x):
        s = 0.0
        for i in range(len(x)):
            s = s + x[i] * scale
            if i == 1:
                print("one", s)
        return s
    return made


@reg.scenario
def s_factory_loops(r):
    fs = [r.compile(_factory_loop(float(k) - 1.0)) for k in range(4)]
    for n in (12, 3, 12):
        for f in fs:
            r.call(f, _x(n))


@reg.scenario
def s_factory_defaults_replaced(r):
    f0 = _factory(2.0)
    f = r.compile(f0)
    r.call(f, _x())
    g0 = _factory(5.0)
    g = r.compile(g0)
    r.call(g, _x())
    r.call(f, _x())


@reg.scenario
def s_code_swapped_equal(r):
    """``__code__`` replaced by an equal code object of another ``exec`` (other
    globals stay with the function)."""
    a = _fresh(SOURCE, "scaled", SCALE=1.0)
    b = _fresh(SOURCE, "scaled", SCALE=3.0)
    f = r.compile(a)
    r.call(f, _x())
    r.patch(a, "__code__", b.__code__)
    r.call(f, _x())
    g = r.compile(b)
    r.call(g, _x())
    r.call(f, _x(5))


@reg.scenario
def s_same_code_two_globals_interleaved(r):
    ns1 = {"np": np, "SCALE": 2.0}
    ns2 = {"np": np, "SCALE": -2.0}
    exec(SOURCE, ns1)
    exec(SOURCE, ns2)
    f1, f2 = r.compile(ns1["scaled"]), r.compile(ns2["scaled"])
    for n in (4, 4, 7):
        r.call(f1, _x(n))
        r.call(f2, _x(n))
    ns1["SCALE"] = 10.0
    r.call(f1, _x())
    r.call(f2, _x())


@reg.scenario
def s_one_function_object_many_compiles(r):
    """One function compiled again and again (wrappers dropped in between)."""
    g = _fresh(SOURCE, "scaled", SCALE=0.5)
    for n in (3, 4, 3, 5):
        f = r.compile(g)
        r.call(f, _x(n))
        del f


@reg.scenario
def s_many_sources_one_name(r):
    """Twelve functions of one name from one source, kept in a dict, called out of order."""
    fs = {k: r.compile(_fresh(SOURCE, "scaled", SCALE=float(k))) for k in range(12)}
    for k in (11, 0, 5, 11, 3):
        r.call(fs[k], _x())


@reg.scenario
def s_exec_in_function_scope(r):
    """Functions exec'd into locals of a helper (globals shared, closures differ)."""
    def make(k):
        ns = {}
        exec(f"def h(x, k={k}):\n    y = x + k\n    print('h', k)\n    return y * k\n",
             globals(), ns)
        return ns["h"]
    for k in (1, 2, 1, 3):
        f = r.compile(make(k))
        r.call(f, _x())


def _factory_cell(scale):
    """A compiled function and a setter of its cell (``nonlocal``): one code for all."""
    def made(x):
        y = x * scale
        print("mid")
        return y + scale

    def set_(v):
        nonlocal scale
        scale = v
    return made, set_


@reg.scenario
def s_cell_changed_after_compile(r):
    """Two closures of one code; each one's cell rebound between calls (a float, an
    ``np.float32``, an int): the resume functions read their own cell."""
    a, set_a = _factory_cell(2.0)
    b, set_b = _factory_cell(3.0)
    fa, fb = r.compile(a), r.compile(b)
    x = np.arange(4.0)
    r.call(fa, x)
    r.call(fb, x)
    set_a(-1.0)
    r.call(fa, x)
    r.call(fb, x)
    set_b(np.float32(5.0))
    r.call(fa, x)
    r.call(fb, x)
    set_b(7)
    r.call(fb, x)


DEFAULT_SOURCE = '''
def g(x, k=K):
    y = x + k
    print("g")
    for i in range(len(x)):
        y[i] = y[i] * k
        if i == 1:
            print("trip")
    return y
'''


@reg.scenario
def s_defaults_differ_same_code(r):
    """Four equal codes whose defaults differ (1, 2.5, -0.0, 3), each with a break
    before a loop and one inside it, called in turn and back."""
    fs = [r.compile(_fresh(DEFAULT_SOURCE, "g", K=k)) for k in (1, 2.5, -0.0, 3)]
    for f in fs + fs[::-1]:
        r.call(f, np.arange(5.0))


@reg.scenario
def s_defaults_replaced(r):
    g = _fresh(DEFAULT_SOURCE, "g", K=1)
    f = r.compile(g)
    r.call(f, np.arange(5.0))
    r.patch(g, "__defaults__", (4.0,))
    r.call(f, np.arange(5.0))
    f2 = r.compile(_fresh(DEFAULT_SOURCE, "g", K=9))
    r.call(f2, np.arange(5.0))
    r.call(f, np.arange(5.0))


@reg.scenario
def s_lambdas_same_code_interleaved(r):
    """Three lambdas of one code (a default each) kept and called in turn."""
    made = [lambda x, k=k: (print("l", k), x * k)[1] for k in range(3)]
    fs = [r.compile(g) for g in made]
    for n in (3, 3, 6):
        for f in fs:
            r.call(f, np.arange(float(n)))
