"""Round 21, memory the numpy backend lends or holds back: the gaps of a flat pass's
target and ``runtime.alone()`` against threads started in odd ways (``threading``,
``_thread``, ``concurrent.futures``, a ``Timer``, a daemon, a ``Thread`` subclass,
a thread started inside the compiled function); buffers lent by written arrays
(``reuse.py _written_alone``) and dead intermediates whose array the program can still
reach (a view, a list, an attribute, a weak reference, a closure, returned twice); and
``cse`` values recomputed across copying ops (``np.median``, ``percentile``, ``sort``,
``partition``), also where such an op writes its input (``overwrite_input=True``,
``x.sort()``, ``x.partition``).

    >>> def _lap_written(v):
    ...     lap = np.zeros_like(v)
    ...     lap[1:-1] = v[2:] - 2 * v[1:-1] + v[:-2]    # lap lends its buffer ...
    ...     return v + 0.1 * lap                         # ... to the product
"""

import _thread
import gc
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from hostile_check import Programs

reg = Programs("round21_lent")
case = reg.case
scenario = reg.scenario


def grid(n=200, m=200):
    return (np.sin(np.arange(n * m) * 0.37) * 10).reshape(n, m)


def _heat(a):
    for _ in range(3):
        lap = a[2:, 1:-1] + a[:-2, 1:-1] + a[1:-1, 2:] + a[1:-1, :-2] - 4.0 * a[1:-1, 1:-1]
        a[1:-1, 1:-1] += 0.1 * lap
    return a


def _jac_into(a, b):
    for _ in range(3):
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                               + a[1:-1, :-2] + a[1:-1, 2:])
    return b


# ------------------------------------------------------ threads beside the gap writes

def _edges(a):
    return a[:, 0].copy(), a[:, -1].copy()


def watched(fn, start, name, make=lambda: (grid(),), calls=8):
    """``start(a, look)`` starts a thread in its own way that compares ``look()`` (the
    columns ``fn`` never writes) with their values before, until told to stop; the
    main thread calls ``fn`` meanwhile. The count of differing reads must be 0."""
    def s(r):
        f = r.compile(fn)

        def drive():
            args = make()
            a = args[-1]
            f(*args)
            want = _edges(a)
            stop, bad, running = threading.Event(), [0], threading.Event()

            def look():
                running.set()
                while not stop.is_set():
                    if not all(np.array_equal(x, y) for x, y in zip(_edges(a), want)):
                        bad[0] += 1
            finish = start(look)
            running.wait(30)
            try:
                for _ in range(calls):
                    f(*args)
            finally:
                stop.set()
                finish()
            return bad, a
        r.call(drive)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


def _by_threading(look, daemon=False):
    t = threading.Thread(target=look, daemon=daemon)
    t.start()
    return t.join


def _by_raw_thread(look):
    done = threading.Lock()
    done.acquire()

    def body():
        try:
            look()
        finally:
            done.release()
    _thread.start_new_thread(body, ())
    return lambda: (done.acquire(), done.release())


def _by_pool(look):
    ex = ThreadPoolExecutor(1)
    fut = ex.submit(look)
    return lambda: (fut.result(), ex.shutdown())


def _by_timer(look):
    t = threading.Timer(0.0, look)
    t.start()
    return t.join


class _Looker(threading.Thread):
    def __init__(self, look):
        super().__init__(name="looker")
        self.look = look

    def run(self):
        self.look()


def _by_subclass(look):
    t = _Looker(look)
    t.start()
    return t.join


for _how, _start in (("threading", _by_threading),
                     ("daemon", lambda look: _by_threading(look, True)),
                     ("raw_thread", _by_raw_thread), ("pool", _by_pool),
                     ("timer", _by_timer), ("subclass", _by_subclass)):
    watched(_heat, _start, f"update_watched_by_{_how}")
    watched(_jac_into, _start, f"direct_watched_by_{_how}",
            make=lambda: (grid(), grid()))


def _heat_with_thread(a, look, out):
    """The compiled function starts the reader itself, then writes."""
    t = threading.Thread(target=look, args=(a, out))
    t.start()
    _heat(a)
    t.join()
    return a


def _look_edges(a, out):
    want = _edges(a)
    for _ in range(2000):
        if not all(np.array_equal(x, y) for x, y in zip(_edges(a), want)):
            out.append("changed")
            return


@scenario
def s_thread_started_inside(r):
    f = r.compile(_heat_with_thread)
    for _ in range(3):
        out = []
        r.call(f, grid(), _look_edges, out)
        r.see("out", out)


def _heat_with_raw_thread(a, out):
    done = threading.Lock()
    done.acquire()

    def body():
        _look_edges(a, out)
        done.release()
    _thread.start_new_thread(body, ())
    _heat(a)
    done.acquire()
    return a


@scenario
def s_raw_thread_started_inside(r):
    f = r.compile(_heat_with_raw_thread)
    for _ in range(3):
        out = []
        r.call(f, grid(), out)
        r.see("out", out)


def _heat_in_pool(a, b):
    with ThreadPoolExecutor(2) as ex:
        fa = ex.submit(_heat, a)
        fb = ex.submit(_edges, a)
        return fa.result(), fb.result()[0].shape


case(_heat_in_pool, lambda: (grid(), None), name="pool_inside_the_function")


@scenario
def s_thread_finished_before(r):
    """A thread that ran and was joined before the calls: alone again."""
    f = r.compile(_heat)
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    r.call(f, grid())
    unstarted = threading.Thread(target=lambda: None)   # made, never started
    r.call(f, grid())
    r.see("alive", unstarted.is_alive())


# ------------------------------------------------------------- buffers lent by writes

def _lap_written(v):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - 2 * v[1:-1] + v[:-2]
    return v + 0.1 * lap


V = np.cos(np.arange(3000) * 0.3)
case(_lap_written, (V,), (V[::2],), name="written_lends")


def _lap_view_returned(v):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - 2 * v[1:-1] + v[:-2]
    inner = lap[1:-1]
    return v + 0.1 * lap, inner


case(_lap_view_returned, (V,), name="written_view_returned")


def _lap_view_before(v):
    lap = np.zeros_like(v)
    head = lap[:10]
    lap[1:-1] = v[2:] - 2 * v[1:-1] + v[:-2]
    return v * lap, head


case(_lap_view_before, (V,), name="written_view_taken_before")


def _lap_twice(v):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - v[:-2]
    w = v + lap
    return w, lap, lap


case(_lap_twice, (V,), name="written_returned_twice")


def _lap_in_list(v, keep):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - v[:-2]
    keep.append(lap)
    return v * 2 + lap


case(_lap_in_list, (V, []), name="written_stored_in_list")


class Box:
    pass


def _lap_in_attr(v, box):
    lap = np.ones_like(v)
    lap[::2] = v[1::2] * 3
    box.lap = lap
    return lap * v


case(_lap_in_attr, (V, Box()), name="written_stored_in_attribute")


def _lap_weakref(v, refs):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - v[:-2]
    refs.append(weakref.ref(lap))
    return v - lap


@scenario
def s_written_weakref(r):
    f = r.compile(_lap_weakref)
    for _ in range(3):
        refs = []
        r.call(f, V.copy(), refs)
        gc.collect()
        r.see("dead", [w() is None for w in refs])


def _lap_closure(v):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - v[:-2]
    w = v * 2 + lap
    return w, (lambda: lap.sum())


@scenario
def s_written_closure(r):
    f = r.compile(_lap_closure)
    for _ in range(2):
        w, get = r.call(f, V.copy())
        r.see("closure sum", get())


def _chain_written(v):
    a = np.zeros_like(v)
    a[0] = a[1]
    a[-1] = a[-2]
    a[1:-1] = v[1:-1] * 2
    a[0] = a[1]
    return a * 0.5 + v


case(_chain_written, (V,), name="written_chain")


def _written_scalar_read(v):
    a = np.zeros_like(v)
    a[1:] = v[:-1]
    s = a[5]
    a[5] = -1.0
    return a + s, s


case(_written_scalar_read, (V,), name="written_scalar_read_before")


def _written_global(v):
    global KEPT
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - v[:-2]
    KEPT = lap
    return lap * 3 + 1


KEPT = None


@scenario
def s_written_stored_in_global(r):
    global KEPT
    KEPT = None
    f = r.compile(_written_global)
    r.call(f, V.copy())
    r.see("KEPT", KEPT)
    r.call(f, V[::-1].copy())
    r.see("KEPT", KEPT)


def _written_int(v):
    a = np.zeros(v.shape, np.int64)
    a[1:] = (v[:-1] * 100).astype(np.int64)
    return a * 3 + 7, a.dtype


case(_written_int, (V,), name="written_int")


def _written_in_dict(v):
    d = {}
    lap = np.zeros_like(v)
    d["lap"] = lap
    lap[2:] = v[:-2]
    return v + lap, d


case(_written_in_dict, (V,), name="written_in_dict_before")


def _dead_exp_seen(v, keep):
    e = np.exp(v)
    keep.append(e[:3])
    return e * 2 + 1


case(_dead_exp_seen, (V, []), name="dead_intermediate_viewed")


def _dead_in_generator(v):
    e = np.exp(v)
    g = (x for x in e[:3])
    return e * 2 + 1, list(g)


case(_dead_in_generator, (V,), name="dead_intermediate_in_generator")


def _donor_inplace_then_read(v):
    a = v * 2
    a += 1
    b = a * 3
    return b, a


case(_donor_inplace_then_read, (V,), name="donor_written_returned")


# ---------------------------------------------------------------------- cse, copying ops

BIG = np.sin(np.arange(40_000) * 0.7)


def _robust_z(x):
    med = np.median(x)
    mad = np.median(np.abs(x - med))
    return (x - med) / mad


case(_robust_z, (BIG,), (BIG[::2],), name="cse_robust_z")


def _median_overwrites(x):
    d = x - 1.0
    m = np.median(x, overwrite_input=True)
    return x - 1.0, d, m


case(_median_overwrites, (BIG,), name="cse_median_overwrite_input")


def _median_overwrites_value(x):
    d = x * 2.0
    m = np.median(d, overwrite_input=True)
    return x * 2.0 - m, d


case(_median_overwrites_value, (BIG,), name="cse_median_overwrites_the_value")


def _sort_between(x):
    a = x + 1.0
    x.sort()
    b = x + 1.0
    return a, b


case(_sort_between, (BIG,), name="cse_across_sort_in_place")


def _partition_between(x):
    a = x * 3.0
    x.partition(100)
    return a - x * 3.0


case(_partition_between, (BIG,), name="cse_across_partition_in_place")


def _two_sorts(x):
    s1 = np.sort(x)
    s2 = np.sort(x)
    s1[0] = 99.0
    return s1, s2


case(_two_sorts, (BIG,), name="cse_two_sorts_stay_two")


def _two_partitions(x):
    p = np.partition(x, 7)
    q = np.partition(x, 7)
    p[7] = -5.0
    return p[7], q[7], p is q


case(_two_partitions, (BIG,), name="cse_two_partitions")


def _percentiles(x):
    c = x - x.mean()
    lo, hi = np.percentile(c, [5, 95])
    c2 = x - x.mean()
    return np.clip(c2, lo, hi), np.percentile(x - x.mean(), 50, method="nearest")


case(_percentiles, (BIG,), name="cse_percentile")


def _quantile_out(x, out):
    c = x * 0.5
    np.quantile(c, [0.25, 0.75], out=out)
    return x * 0.5 + out[0], out


case(_quantile_out, (BIG, np.zeros(2)), name="cse_quantile_out")


def _median_of_view(x):
    c = x * 2.0
    m = np.median(c[::2])
    c[::2] = m
    return c, x * 2.0


case(_median_of_view, (BIG,), name="cse_write_after_median")


def _median_nan(x):
    d = x + 1.0
    m = np.median(d)
    return (x + 1.0) - m


def _with_nan(x):
    y = x.copy()
    y[123] = np.nan
    return (y,)


case(_median_nan, lambda: _with_nan(BIG), name="cse_median_nan")


def _argsort_between(x):
    a = np.abs(x) * 2
    idx = np.argsort(a, kind="stable")
    b = np.abs(x) * 2
    return b[idx[:5]], a is b


case(_argsort_between, (BIG,), name="cse_argsort")


# ------------------------------------------- written arrays lent in other layouts

def _lent_fortran_new(v):
    lap = np.zeros((50, 60), order="F")
    lap[1:-1] = v[2:] - v[:-2]
    return lap * 2 + v


def _lent_like(v):
    lap = np.zeros_like(v)           # order K: Fortran when v is
    lap[1:-1] = v[2:] - v[:-2]
    return lap * 2 + 1


def _lent_like_times(v, w):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - v[:-2]
    return lap * w


def _lent_copy(v):
    lap = np.copy(v)                 # order K as well
    lap[1:-1] = 0.0
    return lap * 3 - 1


def _lent_copy_f(v):
    lap = v.copy(order="F")
    lap[0] = lap[1]
    return np.exp(lap)


def _lent_full_f(v):
    lap = np.full((50, 60), 2.0, order="F")
    lap[:, 1:] = v[:, :-1]
    return np.sqrt(lap) + v.T.T


def _lent_float32(v):
    lap = np.zeros_like(v, dtype=np.float32)
    lap[1:-1] = v[2:] - v[:-2]
    return lap * 2.0


def _lent_int(v):
    lap = np.zeros((50, 60), dtype=np.int64)
    lap[1:-1] = v[2:] > v[:-2]
    return lap * 2, lap / 2


def _lent_chain_scalar(v):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - v[:-2]
    lap[0] = lap[1]
    s = lap[2, 3]
    lap[-1] = lap[-2]
    return lap * s


W = np.sin(np.arange(3000.0)).reshape(50, 60)
WF = np.asfortranarray(W)
for _fn in (_lent_fortran_new, _lent_like, _lent_copy, _lent_copy_f, _lent_full_f,
            _lent_float32, _lent_int, _lent_chain_scalar):
    case(_fn, (W,), (WF,), (W[::-1],), (WF[:, ::-1],), name=_fn.__name__[1:])
case(_lent_like_times, (W, W), (WF, W), (W, WF), (WF, WF), (W, W[0]), (WF, W[:, :1]),
     name="lent_like_times")
