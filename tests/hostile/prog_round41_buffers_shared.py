"""Round 41, buffers kept from one call to the next and shared across graphs (the numpy
backend's ``scratch.py`` sites, ``flat_direct.py``'s gap buffers, ``Module.bind_shared``:
one holder per shape and dtype for the process): two compiled functions of one shape
called in turn, results kept by the caller (in a list, an attribute, a global, a
dict, as a view, a memoryview, behind a weak reference) while more calls run (every
earlier result is recorded again at the end: it must not change), results passed
back in as inputs and as ``out=``, re-entrancy (a compiled function's callback calls
another compiled function of the same shape between its temporaries), outputs that
are views of an intermediate, flat stencils writing ``B[1:-1, 1:-1]`` where ``B`` is
``A``, a view of ``A``, a kept result, read-only, non-contiguous, and 8 threads
calling two compiled functions that share holders. Arrays of 1.2 MB (past
``scratch.MIN_BYTES``) and 200x200 windows (past ``MIN_DIRECT_ELEMENTS``).

    >>> def _chain(x, y):
    ...     a = np.exp(x)                      # fresh, 1.2 MB: a scratch site
    ...     b = a * y
    ...     return b + a
"""

import functools
import threading
import weakref

import numpy as np
from hostile_check import Programs

reg = Programs("round41_buffers")
SHAPE = (256, 600)          # 1.2 MB of float64


def _x(seed=0, shape=SHAPE, dtype=np.float64):
    """A fresh array (``astype`` copies) of the draws for ``seed``; the draws of the
    seeds used most are made once (a draw of 1.2 MB costs 17 times the copy)."""
    return _draws(seed, shape).astype(dtype)


@functools.lru_cache(maxsize=12)
def _draws(seed, shape):
    d = np.random.default_rng(seed).random(shape) - 0.25
    d.flags.writeable = False
    return d


def _chain(x, y):
    a = np.exp(x)
    b = a * y
    return b + a


def _chain2(x, y):
    a = np.sin(x)
    b = a - y
    return b * a


def _view_out(x, y):
    a = np.exp(x) * y
    return a[::2, 1:]


def _two_outs(x, y):
    a = np.exp(x) + y
    b = a * 2.0
    return a, b


def _reduce_after(x, y):
    a = np.exp(x) * y
    return (a + 1.0).sum(), a


def _in_place(x, y):
    a = np.exp(x)
    a *= y
    a += 1.0
    return a


# ---- results kept by the caller ------------------------------------------------------

def _keep_list(fns):
    def scenario(r):
        fs = [r.compile(fn) for fn in fns]
        kept = []
        for k in range(4):
            f = fs[k % len(fs)]
            kept.append(r.call(f, _x(k), _x(k + 10)))
        r.see("kept", kept)
    return scenario


for _name, _fns in (("keep_chain", (_chain,)), ("keep_chain_chain2", (_chain, _chain2)),
                    ("keep_view_out", (_view_out, _chain)),
                    ("keep_two_outs", (_two_outs, _chain2)),
                    ("keep_reduce_after", (_reduce_after, _chain)),
                    ("keep_in_place", (_in_place, _chain))):
    reg._add(_name, _keep_list(_fns), "")


def _feed_back(fn):
    def scenario(r):
        f = r.compile(fn)
        y = _x(1)
        out = r.call(f, _x(0), y)
        out = out[0] if isinstance(out, tuple) else out
        for _ in range(3):
            src = np.clip(out, -5, 5) if out.shape == SHAPE else _x(2)
            out = r.call(f, src, out if out.shape == SHAPE else y)
            out = out[0] if isinstance(out, tuple) else out
    return scenario


for _fn in (_chain, _chain2, _in_place, _two_outs, _view_out):
    reg._add(f"feed_back_{_fn.__name__[1:]}", _feed_back(_fn), "")


def _out_is_kept(x, y, out):
    a = np.exp(x)
    np.multiply(a, y, out=out)
    return out


def s_out_is_an_earlier_result(r):
    f = r.compile(_chain)
    g = r.compile(_out_is_kept)
    a = r.call(f, _x(0), _x(1))
    b = r.call(g, _x(2), _x(3), a)
    r.call(f, _x(4), b)
    r.call(g, a, _x(5), a)


reg.scenario(s_out_is_an_earlier_result)


class _Box:
    pass


def s_kept_in_attribute_global_dict(r):
    f, g = r.compile(_chain), r.compile(_chain2)
    box, d = _Box(), {}
    box.v = r.call(f, _x(0), _x(1))
    d["v"] = r.call(g, _x(2), _x(3))
    _G["v"] = r.call(f, _x(4), _x(5))
    r.call(g, _x(6), _x(7))
    r.call(f, _x(8), _x(9))
    r.see("box", box.v)
    r.see("dict", d)
    r.see("global", _G["v"])
    _G.clear()


_G = {}
reg.scenario(s_kept_in_attribute_global_dict)


def s_memoryview_and_weakref(r):
    f = r.compile(_chain)
    a = r.call(f, _x(0), _x(1))
    m = memoryview(a) if a is not None else None
    w = weakref.ref(a) if a is not None else None
    del a
    b = r.call(f, _x(2), _x(3))
    r.see("memoryview", None if m is None else np.asarray(m))
    r.see("weakref alive", None if w is None else w() is not None)
    c = r.call(f, _x(4), _x(5))
    r.see("b and c share", None if b is None or c is None else np.shares_memory(b, c))


reg.scenario(s_memoryview_and_weakref)


def s_dropped_then_new_result(r):
    """A result dropped at once: the next call may reuse its buffer, but never one the
    caller still holds (a view of it)."""
    f = r.compile(_chain)
    v = r.call(f, _x(0), _x(1))
    view = v[3:5, :4] if v is not None else None
    del v
    for k in range(4):
        r.call(f, _x(k + 2), _x(k + 3))
    r.see("view", view)


reg.scenario(s_dropped_then_new_result)


# ---- re-entrancy ---------------------------------------------------------------------

def _with_callback(x, y, cb):
    a = np.exp(x)
    b = a * y
    c = cb(b)                 # a break: a compiled function of the same shape runs
    return a + b + c


def s_reentrant_callback(r):
    g = r.compile(_chain)
    f = r.compile(_with_callback)
    seen = []

    def cb(b):
        out = g(b * 0.5, b)
        seen.append(float(out[0, 0]))
        return out
    r.call(f, _x(0), _x(1), cb)
    r.call(f, _x(2), _x(3), cb)
    r.see("seen", seen)


reg.scenario(s_reentrant_callback)


def s_reentrant_self(r):
    """The callback calls the very function it is called from (depth 2)."""
    holder = {}

    def cb(b):
        if holder.get("depth", 0) >= 1:
            return b * 0.0
        holder["depth"] = 1
        try:
            return holder["f"](b * 0.1, b, cb)
        finally:
            holder["depth"] = 0
    holder["f"] = r.compile(_with_callback)
    r.call(holder["f"], _x(0), _x(1), cb)
    r.call(holder["f"], _x(2), _x(3), cb)


reg.scenario(s_reentrant_self)


def s_callback_keeps_intermediate(r):
    f = r.compile(_with_callback)
    kept = []

    def cb(b):
        kept.append(b)
        return b
    r.call(f, _x(0), _x(1), cb)
    r.call(f, _x(2), _x(3), cb)
    r.call(f, _x(4), _x(5), cb)
    r.see("kept", kept)


reg.scenario(s_callback_keeps_intermediate)


# ---- flat stencils writing straight into a window -------------------------------------

def _jacobi(A, B):
    B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return B


def _jacobi_new(A):
    B = A.copy()
    B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return B


def _jacobi_steps(A, k):
    B = A.copy()
    for _ in range(k):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A


def _g(seed=0, n=200):
    return _x(seed, (n, n))


reg.case(_jacobi, lambda: (_g(0), _g(1)), lambda: (_g(2), _g(3)), name="jacobi_fresh")


def _same(seed):
    a = _g(seed)
    return (a, a)


reg.case(_jacobi, lambda: _same(0), lambda: _same(1), name="jacobi_b_is_a")


def _b_view_of_a(seed):
    a = _x(seed, (201, 200))
    return (a[1:], a[:-1])


reg.case(_jacobi, lambda: _b_view_of_a(0), lambda: (_g(4), _g(5)), lambda: _b_view_of_a(2),
         name="jacobi_b_view_of_a")


def _b_strided(seed):
    return (_g(seed), _x(seed + 1, (200, 400))[:, ::2])


reg.case(_jacobi, lambda: _b_strided(0), lambda: (_g(6), _g(7)), lambda: _b_strided(3),
         name="jacobi_b_strided")


def _b_readonly(seed):
    b = _g(seed + 1)
    b.flags.writeable = False
    return (_g(seed), b)


reg.case(_jacobi, lambda: (_g(0), _g(1)), lambda: _b_readonly(4), lambda: (_g(2), _g(3)),
         name="jacobi_b_readonly")


def _b_fortran(seed):
    return (_g(seed), np.asfortranarray(_g(seed + 1)))


reg.case(_jacobi, lambda: (_g(0), _g(1)), lambda: _b_fortran(4), name="jacobi_b_fortran")


def _b_float32(seed):
    return (_g(seed), _g(seed + 1).astype(np.float32))


reg.case(_jacobi, lambda: (_g(0), _g(1)), lambda: _b_float32(2), name="jacobi_b_float32")


def _nan_in_a(seed):
    a = _g(seed)
    a[50, 50] = np.nan
    a[60, 60] = np.inf
    return (a, _g(seed + 1))


reg.case(_jacobi, lambda: (_g(0), _g(1)), lambda: _nan_in_a(2), name="jacobi_nan_inf")


def s_jacobi_result_kept(r):
    """The result (``B`` itself) is fed as the next call's ``A`` and ``B``."""
    f = r.compile(_jacobi)
    a, b = _g(0), _g(1)
    out = r.call(f, a, b)
    out2 = r.call(f, out, _g(2))
    r.call(f, out2, out)
    r.call(f, out, out)


reg.scenario(s_jacobi_result_kept)


def s_jacobi_two_graphs_share_gaps(r):
    f, g = r.compile(_jacobi), r.compile(_jacobi_new)
    kept = []
    for k in range(4):
        kept.append(r.call(f, _g(k), _g(k + 1)))
        kept.append(r.call(g, _g(k + 2)))
    r.see("kept", kept)


reg.scenario(s_jacobi_two_graphs_share_gaps)


reg.case(_jacobi_new, lambda: (_g(0),), lambda: (_g(1, 201),), lambda: (_g(2, 50),),
         name="jacobi_new_sizes")
reg.case(_jacobi_steps, lambda: (_g(0), 3), lambda: (_g(1), 4), lambda: (_g(2), 0),
         lambda: (_g(3), 1), name="jacobi_steps")


def _errstate_jacobi(A, B):
    with np.errstate(over="raise"):
        B[1:-1, 1:-1] = 1e308 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return B


reg.case(_errstate_jacobi, lambda: (_g(0) * 1e-320, _g(1)), lambda: (_g(2), _g(3)),
         name="jacobi_raises_keeps_b")


# ---- threads -------------------------------------------------------------------------

def _threads(fns, calls=2, nthreads=8, keep=True):
    def scenario(r):
        fs = [r.compile(fn) for fn in fns]

        def run_all():
            results = [None] * nthreads
            errors = []

            def worker(t):
                try:
                    mine = []
                    for k in range(calls):
                        f = fs[(t + k) % len(fs)]
                        out = f(_x(t * 31 + k), _x(t * 17 + k + 1))
                        mine.append(out if keep else float(np.asarray(out[0]).ravel()[0]))
                    results[t] = mine
                except Exception as e:  # noqa: BLE001
                    errors.append(repr(e))
            threads = [threading.Thread(target=worker, args=(t,)) for t in range(nthreads)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            return results, errors
        r.call(run_all)
    return scenario


for _name, _fns in (("threads_chain_chain2", (_chain, _chain2)),
                    ("threads_view_out", (_view_out, _chain)),
                    ("threads_two_outs", (_two_outs, _in_place)),
                    ("threads_reduce", (_reduce_after, _chain2))):
    reg._add(_name, _threads(_fns), "")
reg._add("threads_dropped_results", _threads((_chain, _chain2), calls=3, keep=False), "")


def _jacobi_threads(r):
    f = r.compile(_jacobi)

    def run_all():
        results = [None] * 8

        def worker(t):
            out = []
            for k in range(2):
                out.append(f(_g(t * 7 + k), _g(t * 7 + k + 100)))
            results[t] = out
        threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return results
    r.call(run_all)


reg._add("threads_jacobi", _jacobi_threads, "")


def _shared_input_threads(r):
    """8 threads, one shared input array, each keeping its results."""
    f, g = r.compile(_chain), r.compile(_chain2)
    x, y = _x(0), _x(1)

    def run_all():
        results = [None] * 8

        def worker(t):
            results[t] = [(f if (t + k) % 2 else g)(x, y) for k in range(2)]
        threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return results
    r.call(run_all)


reg._add("threads_shared_input", _shared_input_threads, "")


# ---- dtypes and shapes that share one holder -----------------------------------------

def _mixed(r):
    f, g = r.compile(_chain), r.compile(_chain2)
    kept = []
    for k, (shape, dtype) in enumerate(((SHAPE, np.float64), ((600, 256), np.float64),
                                        (SHAPE, np.float32), ((512, 600), np.float32),
                                        (SHAPE, np.float64))):
        kept.append(r.call(f, _x(k, shape, dtype), _x(k + 1, shape, dtype)))
        kept.append(r.call(g, _x(k + 2, shape, dtype), kept[-1]))
    r.see("kept", kept)


reg._add("mixed_shapes_dtypes", _mixed, "")


def _small_then_big(r):
    f = r.compile(_chain)
    kept = [r.call(f, _x(k, (n, 600)), _x(k + 1, (n, 600)))
            for k, n in enumerate((4, 256, 2, 256, 300, 256))]
    r.see("kept", kept)


reg._add("small_then_big", _small_then_big, "")


def _transposed(r):
    f = r.compile(_chain)
    a = _x(0, (600, 256)).T
    r.call(f, a, _x(1))
    r.call(f, _x(2), a)
    r.call(f, a, a)


reg._add("transposed_inputs", _transposed, "")


def _exception_mid(x, y):
    a = np.exp(x)
    b = a * y
    return b[10 ** 6]


def _exception_then_call(r):
    f, g = r.compile(_exception_mid), r.compile(_chain)
    kept = []
    for k in range(3):
        r.call(f, _x(k), _x(k + 1))
        kept.append(r.call(g, _x(k + 2), _x(k + 3)))
    r.see("kept", kept)


reg._add("exception_then_call", _exception_then_call, "")


def _warns(x, y):
    a = np.log(x)          # negative entries: invalid value warning
    b = a * y
    return b + a


reg.case(_warns, lambda: (_x(0), _x(1)), lambda: (_x(2), _x(3)), name="warning_chain")


def _returns_input_op(x, y):
    a = np.exp(x)
    np.add(a, y, out=y)
    return y, a


reg.case(_returns_input_op, lambda: (_x(0), _x(1)), lambda: (_x(2), _x(3)),
         name="out_into_input")
