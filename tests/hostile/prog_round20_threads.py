"""Round 20, threads and concurrency: a compiled function called from several threads at
once on private arrays (first calls, and so recompiles for new shapes and dtypes, racing
through a barrier); threads that read or write the parts of a shared array the compiled
function never touches while it writes other parts (a stencil's boundary columns, the
other half of the columns, other rows: a flat pass must not hold other values in them);
counters behind a ``Lock``/``RLock``; ``threading.local`` and ``contextvars`` state read
in compiled code; ``np.seterrcall`` callbacks and ``warnings.showwarning`` called from
worker threads; the numpy backend's own worker threads (``threads=2``) under a different
``np.errstate`` in each calling thread; compiled generators consumed in another thread;
an exception in one thread beside good calls in others; ``Event``/``Barrier`` inside a
compiled function (a write must be visible before ``ev.set()``).

Every program is deterministic plainly: threads only share what they read, or write
under a lock, and what the program records does not depend on the interleaving (lists
are sorted, counters compared at the end).

    >>> def _ordered(x, out, ev):
    ...     out[:] = x * 2          # another thread waits on ev, then reads out
    ...     ev.set()
    ...     return x + 1
"""

import contextvars
import threading
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round20_threads")
scenario = reg.scenario

# the numpy backend's own pool on arrays of any size (the eager backend takes no options)
THREADED = {"threads": 2, "min_threaded_elements": 0}
LOCK = threading.Lock()
RLOCK = threading.RLock()
COUNTER = [0]
LOG: list = []
TL = threading.local()
CV: contextvars.ContextVar = contextvars.ContextVar("scale", default=1.0)
SCALE = 1.0


def compiled(r, fn, options=None):
    """``fn`` compiled, with the numpy backend's ``options`` where the backend takes
    them (``r.compile`` raises ValueError at once for the eager backend)."""
    if options is None or not r.compiled:
        return r.compile(fn)
    try:
        return r.compile(fn, options=options)
    except ValueError:
        return r.compile(fn)


def run_threads(n, work):
    """``work(k)`` in ``n`` threads started behind one barrier (most overlap); what each
    returned, or the exception it raised as (type name, message), by ``k``."""
    start = threading.Barrier(n, timeout=60)
    out = [None] * n

    def body(k):
        start.wait()
        try:
            out[k] = ("ok", work(k))
        except Exception as e:  # noqa: BLE001
            out[k] = ("raised", type(e).__name__, str(e))
    ts = [threading.Thread(target=body, args=(k,), name=f"t{k}") for k in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out


def _reset():
    COUNTER[0] = 0
    LOG.clear()
    TL.__dict__.clear()


def private(fn, make, n=4, reps=3, options=None, name=None):
    """``fn`` called ``reps`` times in each of ``n`` threads at once, each on its own
    arguments ``make(k, i)``; twice, then once in the main thread."""
    def s(r):
        _reset()
        f = compiled(r, fn, options)

        def drive():
            return run_threads(n, lambda k: [f(*make(k, i)) for i in range(reps)])
        r.call(drive)
        r.call(drive)
        r.call(f, *make(0, 0))
    s.__name__ = name or fn.__name__.removeprefix("_")
    reg.scenario(s)


# ------------------------------------------------------------ private arrays per thread

def _axpy(x, y):
    return 2 * x + y * y - 1


def _norms(x):
    return (x * x).sum(), x.mean(), x.max(), np.abs(x).argmin()


def _smooth(x):
    return 0.25 * x[:-2] + 0.5 * x[1:-1] + 0.25 * x[2:]


def _heat_inplace(a, dt=0.1):
    """Three steps of a Laplacian added in place (a 1-D pass over the window, its
    gaps the boundary columns: ``flat_updates.py``)."""
    for _ in range(3):
        lap = a[2:, 1:-1] + a[:-2, 1:-1] + a[1:-1, 2:] + a[1:-1, :-2] - 4.0 * a[1:-1, 1:-1]
        a[1:-1, 1:-1] += dt * lap
    return a


def _chain(x):
    y = np.where(x > 0.5, x * 3, -x)
    return np.clip(np.cumsum(y), -5, 50), y.dtype


def _loop(x):
    for _ in range(5):
        x = x * 0.5 + 1
    return x


def _wrap_int8(x):
    return x * np.int8(3) + np.int8(100)


def _matmul(a, b):
    return a @ b + a.T @ b


def _tally(x):
    counts = {}
    for v in x.tolist():
        counts[v % 3] = counts.get(v % 3, 0) + 1
    return sorted(counts.items()), int(x.sum())


def _vec(k, i, n=200):
    return (np.linspace(-1, 1, n) * (k + 1) + i,)


def _grid(k, i, n=60):
    return (np.arange(n * n, dtype=float).reshape(n, n) % (7 + k) + i,)


private(_axpy, lambda k, i: (np.arange(50.0) * k, np.arange(50.0) + i))
private(_norms, _vec)
private(_smooth, _vec)
private(_smooth, lambda k, i: _vec(k, i, 5000), options=THREADED, name="smooth_pool")
private(_heat_inplace, _grid)
private(_heat_inplace, lambda k, i: _grid(k, i, 120), options=THREADED, name="heat_pool")
private(_chain, _vec)
private(_loop, _vec, options=THREADED)
private(_wrap_int8, lambda k, i: (np.arange(40, dtype=np.int8) + k * i,))
private(_matmul, lambda k, i: (np.eye(6) * (k + 1) + i, np.ones((6, 6)) * k))
private(_tally, lambda k, i: (np.arange(10 * (k + 1) + i),))


def _lap(a):
    """A flat stencil's value returned: a view of the group's recycled 1-D buffer."""
    return a[2:, 1:-1] + a[:-2, 1:-1] + a[1:-1, 2:] + a[1:-1, :-2] - 4.0 * a[1:-1, 1:-1]


def _lap_twice(a):
    b = _lap(a)
    return b, _lap(b * 0.5)


# every thread keeps every result: a buffer recycled under another thread shows
private(_lap, lambda k, i: _grid(k, i, 100), reps=12, name="flat_values_kept")
private(_lap_twice, lambda k, i: _grid(k, i, 100), reps=8)
private(_lap, lambda k, i: _grid(k, i, 100), reps=12, options=THREADED,
        name="flat_values_kept_pool")


# ------------------------------------------------------------------- locks and counters

def _bump(x):
    with LOCK:
        COUNTER[0] += 1
    return x * 2


def _bump_explicit(x):
    LOCK.acquire()
    try:
        COUNTER[0] += 1
        y = x + COUNTER[0] * 0
    finally:
        LOCK.release()
    return y


def _inner_rlock(x):
    with RLOCK:
        COUNTER[0] += 1
        return x - 1


def _bump_reentrant(x):
    with RLOCK:
        y = _inner_rlock(x) * 2
        COUNTER[0] += 10
    return y


def _log_append(x, k):
    LOG.append((k, float(x.sum())))
    return x + k


def _raise_under_lock(x, k):
    with LOCK:
        COUNTER[0] += 1
        if k % 2:
            raise ValueError(f"odd {k}")
    return x * k


def counted(fn, n=4, reps=10, name=None, with_k=False):
    def s(r):
        _reset()
        f = compiled(r, fn)

        def drive():
            got = run_threads(n, lambda k: [f(np.arange(4.0) + k, *((k,) if with_k else ()))
                                            for _ in range(reps)])
            return got, COUNTER[0], sorted(LOG), LOCK.locked()
        r.call(drive)
        r.call(drive)
    s.__name__ = name or fn.__name__.removeprefix("_")
    reg.scenario(s)


counted(_bump)
counted(_bump_explicit)
counted(_bump_reentrant)
counted(_log_append, with_k=True)
counted(_raise_under_lock, reps=1, with_k=True)


def _global_scale(x):
    return x * SCALE


@scenario
def s_global_rebound_under_lock(r):
    """Each thread rebinds a global the function reads and calls it, under one lock."""
    global SCALE
    f = compiled(r, _global_scale)

    def work(k):
        global SCALE
        got = []
        for i in range(4):
            with LOCK:
                SCALE = float(k * 10 + i) if k != 2 else k * 10 + i
                got.append(f(np.arange(3.0)))
        return got
    r.call(lambda: run_threads(4, work))
    SCALE = 7.0                 # which thread rebound it last is up to the scheduler
    r.call(f, np.arange(3.0))


# --------------------------------------------------- thread-local and context variables

def _tl_arg(x, tl):
    return x * getattr(tl, "k", -1.0)


def _tl_global(x):
    if hasattr(TL, "offset"):
        return x + TL.offset
    return x * 0


def _cv_read(x):
    return x * CV.get()


def _thread_name(x):
    return threading.current_thread().name, x + 1


def _by_ident(x, table):
    table[threading.get_ident()] = x.sum()
    return len(table) >= 1


@scenario
def s_local_argument(r):
    """One ``threading.local`` passed to every thread; each sets its own ``k`` (thread 3
    none)."""
    f = compiled(r, _tl_arg)
    tl = threading.local()

    def work(k):
        if k != 3:
            tl.k = float(k)
        return [f(np.arange(3.0)) for _ in range(3)]
    r.call(lambda: run_threads(4, work))
    r.call(f, np.arange(3.0), tl)


@scenario
def s_local_global(r):
    """A module-level ``threading.local`` read by the compiled function."""
    f = compiled(r, _tl_global)

    def work(k):
        if k % 2:
            TL.offset = k * 100.0
        return [f(np.ones(2)) for _ in range(3)]
    r.call(lambda: run_threads(4, work))
    r.call(f, np.ones(2))


@scenario
def s_context_variable(r):
    f = compiled(r, _cv_read)

    def work(k):
        if k:
            CV.set(float(k))
        return [f(np.ones(2)) for _ in range(3)]
    r.call(lambda: run_threads(4, work))
    r.call(f, np.ones(2))


@scenario
def s_current_thread_name(r):
    f = compiled(r, _thread_name)
    r.call(lambda: run_threads(3, lambda k: [f(np.ones(2) * k) for _ in range(2)]))


@scenario
def s_ident_keys(r):
    f = compiled(r, _by_ident)

    def drive():
        table = {}
        got = run_threads(4, lambda k: f(np.ones(3) * k, table))
        return got, sorted(table.values())
    r.call(drive)


# -------------------------------------------- floating-point state and callbacks in threads

def _divide(x, y):
    return x / y, np.log(y)


def _modes(options, name, modes):
    def s(r):
        f = compiled(r, _divide, options)

        def drive():
            calls = {k: [] for k in range(len(modes))}

            def work(k):
                with np.errstate(all=modes[k], call=lambda e, f_, k=k: calls[k].append(e)):
                    got = []
                    for _ in range(3):
                        try:
                            got.append(f(np.arange(3000.0) - 5, np.arange(3000.0) - 7))
                        except FloatingPointError as e:
                            got.append(str(e))
                    return got, np.geterr()
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                got = run_threads(len(modes), work)
            return got, calls, sorted((w.category.__name__, str(w.message)) for w in seen)
        r.call(drive)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


_modes(None, "errstate_per_thread", ["warn", "raise", "ignore", "call"])
_modes(THREADED, "errstate_per_thread_pool", ["warn", "raise", "ignore", "call"])
_modes(THREADED, "errcall_every_thread_pool", ["call", "call", "call"])


@scenario
def s_showwarning_from_threads(r):
    """``warnings.showwarning`` replaced; the warnings come from worker threads."""
    f = compiled(r, _divide, THREADED)

    def drive():
        shown = []
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = lambda m, c, *a, **k: shown.append(
                (threading.current_thread().name, c.__name__, str(m)))
            got = run_threads(3, lambda k: f(np.arange(2000.0) - k, np.arange(2000.0)))
        return got, sorted(shown)
    r.call(drive)


@scenario
def s_errcall_names_its_thread(r):
    """The ``np.seterrcall`` function runs in the calling thread (pool or not)."""
    f = compiled(r, _divide, THREADED)

    def work(k):
        got = []
        with np.errstate(all="call", call=lambda e, _: got.append(
                (threading.current_thread().name, e))):
            f(np.arange(5000.0) - k, np.arange(5000.0) - 2 * k)
        return got
    r.call(lambda: run_threads(3, work))
    r.call(lambda: run_threads(3, work))


@scenario
def s_seterr_in_one_thread(r):
    """``np.seterr(all="raise")`` in one thread leaves the others' state alone (their
    warnings caught in the main thread: ``catch_warnings`` in a thread would race)."""
    f = compiled(r, _divide)

    def work(k):
        if k == 0:
            np.seterr(all="raise")
        try:
            return f(np.ones(3), np.zeros(3)), np.geterr()["divide"]
        except FloatingPointError as e:
            return str(e), np.geterr()["divide"]

    def drive():
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = run_threads(3, work)
        return got, sorted((w.category.__name__, str(w.message)) for w in seen)
    r.call(drive)
    r.call(drive)


# ------------------------------------------------------------------------- generators

def _gen(x):
    for i in range(4):
        yield x * i
    yield x.sum()


def _consume(g):
    out = []
    t = threading.Thread(target=lambda: out.extend(g))
    t.start()
    t.join()
    return out


@scenario
def s_generator_other_thread(r):
    f = compiled(r, _gen)
    r.call(lambda: _consume(f(np.arange(3.0))))
    r.call(lambda: _consume(f(np.arange(4.0))))


@scenario
def s_generator_started_here(r):
    f = compiled(r, _gen)

    def drive():
        g = f(np.arange(3.0))
        first = next(g)
        rest = _consume(g)
        return first, rest, next(g, "done")
    r.call(drive)
    r.call(drive)


@scenario
def s_generator_made_in_thread(r):
    f = compiled(r, _gen)

    def drive():
        box = []
        t = threading.Thread(target=lambda: box.append(f(np.ones(2))))
        t.start()
        t.join()
        return list(box[0])
    r.call(drive)


@scenario
def s_generators_per_thread(r):
    f = compiled(r, _gen)
    r.call(lambda: run_threads(4, lambda k: list(f(np.arange(k + 1.0)))))


# ------------------------------------------------------- recompiles racing in threads

def _shape_sum(x):
    return x.sum(axis=0) * x.shape[0], x.ndim


def racing(make, n, name, reps=3):
    def s(r):
        f = compiled(r, _shape_sum)
        r.call(lambda: run_threads(n, lambda k: [f(make(k)) for _ in range(reps)]))
        r.call(lambda: run_threads(n, lambda k: [f(make(n - 1 - k)) for _ in range(reps)]))
    s.__name__ = name
    reg.scenario(s)


racing(lambda k: np.arange(3.0 + k), 6, "new_shapes_at_once")
racing(lambda k: np.arange(12, dtype=["f4", "f8", "i8", "c16", "i2", "u1"][k]), 6,
       "new_dtypes_at_once")
racing(lambda k: np.ones((2,) * (k + 1)), 4, "new_ndims_at_once")
racing(lambda k: np.arange(2.0 + k), 12, "more_shapes_than_cache")
racing(lambda k: np.arange(20.0).reshape(4, 5)[:, ::k + 1], 4, "strided_views_at_once")


def _python_int(x, k):
    return x[:k] * k, k * 3


@scenario
def s_int_arguments_at_once(r):
    f = compiled(r, _python_int)
    r.call(lambda: run_threads(5, lambda k: [f(np.arange(8.0), k + i) for i in range(3)]))


# ------------------------------------------------------ an exception in one thread only

def _pick(x, i):
    return x[i] * 2


def _checked(x):
    if x.min() < 0:
        raise ValueError(f"negative: {x.min()}")
    return np.sqrt(x)


def _caught(x, i):
    try:
        return x[i]
    except IndexError as e:
        return str(e)


@scenario
def s_index_error_in_one(r):
    f = compiled(r, _pick)
    r.call(lambda: run_threads(4, lambda k: [f(np.arange(5.0), 9 if k == 1 else k)
                                             for _ in range(3)]))
    r.call(f, np.arange(5.0), 2)


@scenario
def s_value_error_in_half(r):
    f = compiled(r, _checked)
    r.call(lambda: run_threads(4, lambda k: f(np.arange(4.0) - k % 2 * 9)))
    r.call(lambda: run_threads(4, lambda k: f(np.arange(4.0) + k)))


@scenario
def s_caught_in_threads(r):
    f = compiled(r, _caught)
    r.call(lambda: run_threads(4, lambda k: [f(np.arange(3.0), k) for _ in range(2)]))
