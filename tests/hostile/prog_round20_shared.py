"""Round 20, threads and concurrency (continued from ``prog_round20_threads.py``, the
same category): threads that read or write the parts of a shared array the compiled
function never touches while it writes other parts (a stencil's boundary columns, which
a 1-D pass may hold other values in for its run; the other column half; other rows),
and ``Event``/``Lock``/``Barrier``/``Queue`` used inside compiled code: a write made
before ``ev.set()`` or ``lock.release()`` is seen by the thread that waited.

    >>> def _down_inplace(a):       # columns 0 and -1 neither read nor written
    ...     a[1:-1, 1:-1] += 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] - 2 * a[1:-1, 1:-1])
"""

import _thread
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from hostile_check import Programs
from prog_round20_threads import (
    THREADED,
    _axpy,
    _chain,
    _heat_inplace,
    _loop,
    _norms,
    _smooth,
    compiled,
    run_threads,
)

reg = Programs("round20_threads")
scenario = reg.scenario


# --------------------------------------------- a shared array: parts the function leaves

def _down_inplace(a):
    """Along axis 0 only: columns 0 and -1 are neither read nor written. (Three steps a
    call: the passes, not Python, take most of the call, so another thread runs beside
    them.)"""
    for _ in range(3):
        a[1:-1, 1:-1] += 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] - 2 * a[1:-1, 1:-1])


def _five_point_inplace(a, kappa=1.0, dt=0.2):
    """Reads columns 0 and -1, never writes them (a 1-D pass, its gaps those columns)."""
    for _ in range(3):
        lap = a[2:, 1:-1] + a[:-2, 1:-1] + a[1:-1, 2:] + a[1:-1, :-2] - 4.0 * a[1:-1, 1:-1]
        a[1:-1, 1:-1] += kappa * dt * lap


def _even_rows(a):
    a[::2] = a[::2] * 0.5 + 1


def _shared_grid(n=300):
    return np.arange(n * n, dtype=float).reshape(n, n) % 11


def readers(fn, options=None, name=None, look=lambda a: (a[:, 0], a[:, -1]), calls=12):
    """The main thread runs ``fn`` on a shared array ``calls`` times while two threads
    read what ``fn`` never writes (``look(a)``) over and over: they must only ever see
    the values from before."""
    def s(r):
        f = compiled(r, fn, options)

        def drive():
            a = _shared_grid()
            f(a)                             # compiled before the readers start
            want = [v.copy() for v in look(a)]
            done = threading.Event()
            bad = [0, 0]

            def read(k):
                while not done.is_set():
                    if not all(np.array_equal(v, w) for v, w in zip(look(a), want)):
                        bad[k] += 1
            ts = [threading.Thread(target=read, args=(k,)) for k in range(2)]
            for t in ts:
                t.start()
            try:
                for _ in range(calls):
                    f(a)
            finally:
                done.set()
                for t in ts:
                    t.join()
            return bad, a
        r.call(drive)
        r.call(drive)
    s.__name__ = name or "readers" + fn.__name__
    reg.scenario(s)


readers(_down_inplace)
readers(_down_inplace, THREADED, name="readers_down_pool")
readers(_five_point_inplace)
readers(_five_point_inplace, THREADED, name="readers_five_point_pool")
readers(_even_rows, look=lambda a: (a[1::2],))
readers(_heat_inplace, look=lambda a: (a[0], a[-1], a[:, 0], a[:, -1]),
        name="readers_heat_edges")


def writer(fn, options=None, name=None):
    """The main thread runs ``fn`` (which neither reads nor writes columns 0 and -1)
    while another thread keeps writing those columns and reading each write back: it
    always reads what it wrote, and its last write stays."""
    def s(r):
        f = compiled(r, fn, options)

        def drive():
            a = _shared_grid()
            f(a)
            done, lost = threading.Event(), [0]

            def write():
                v = 0.0
                while not done.is_set():
                    v += 1
                    a[:, 0] = v
                    a[:, -1] = -v
                    if not ((a[:, 0] == v).all() and (a[:, -1] == -v).all()):
                        lost[0] += 1
                a[:, 0], a[:, -1] = 0.5, -0.5
            t = threading.Thread(target=write)
            t.start()
            try:
                for _ in range(12):
                    f(a)
            finally:
                done.set()
                t.join()
            return lost, a
        r.call(drive)
        r.call(drive)
    s.__name__ = name or "writer" + fn.__name__
    reg.scenario(s)


writer(_down_inplace)
writer(_down_inplace, THREADED, name="writer_down_pool")


def _halves(options, name):
    """Two threads run an in-place 5-point stencil on the two column halves of one C
    array (each half's rows lie between the other's in memory)."""
    def s(r):
        f = compiled(r, _heat_inplace, options)

        def drive():
            a = _shared_grid(160)
            left, right = a[:, :80], a[:, 80:]
            run_threads(2, lambda k: [f(left if k == 0 else right) for _ in range(5)])
            return a
        r.call(drive)
        r.call(drive)
    s.__name__ = name
    reg.scenario(s)


_halves(None, "column_halves")
_halves(THREADED, "column_halves_pool")


@scenario
def s_row_blocks(r):
    """Four threads each run the stencil in place on their own block of rows."""
    f = compiled(r, _heat_inplace)

    def drive():
        a = _shared_grid(120)
        run_threads(4, lambda k: [f(a[30 * k:30 * k + 30]) for _ in range(4)])
        return a
    r.call(drive)
    r.call(drive)


def _into_row(x, out, k):
    np.multiply(x, k, out=out[k])
    out[k] += 1


@scenario
def s_out_rows(r):
    """Threads write their own row of one output through ``out=``."""
    f = compiled(r, _into_row)

    def drive():
        out = np.zeros((6, 300))
        run_threads(6, lambda k: [f(np.arange(300.0), out, k) for _ in range(3)])
        return out
    r.call(drive)
    r.call(drive)


# ------------------------------------------------ synchronisation inside compiled code

def _ordered(x, out, ev):
    out[:] = x * 2
    ev.set()
    return x + 1


def _behind_lock(x, out, lock):
    out[:] = x * 3
    lock.release()
    return x - 1


def _in_barrier(x, barrier):
    y = x * 2
    barrier.wait()
    return y + 1


def _starts_thread(x):
    out = np.zeros_like(x)
    t = threading.Thread(target=np.multiply, args=(x, 5, out))
    t.start()
    t.join()
    return out + 1


def _puts(x, q):
    q.put(x * 2)
    q.put(x.sum())
    return x


@scenario
def s_write_before_event(r):
    """A write made before ``ev.set()`` is seen by the thread that waited on ``ev``."""
    f = compiled(r, _ordered)

    def drive():
        out, ev = np.zeros(1000), threading.Event()
        seen = []
        t = threading.Thread(target=lambda: (ev.wait(), seen.append(out.copy())))
        t.start()
        got = f(np.arange(1000.0), out, ev)
        t.join()
        return got, seen
    r.call(drive)
    r.call(drive)


@scenario
def s_write_before_release(r):
    f = compiled(r, _behind_lock)

    def drive():
        out, lock = np.zeros(500), threading.Lock()
        lock.acquire()
        seen = []

        def wait():
            with lock:
                seen.append(out.copy())
        t = threading.Thread(target=wait)
        t.start()
        got = f(np.arange(500.0), out, lock)
        t.join()
        return got, seen
    r.call(drive)
    r.call(drive)


@scenario
def s_barrier_inside(r):
    f = compiled(r, _in_barrier)

    def drive():
        b = threading.Barrier(3, timeout=60)
        return run_threads(3, lambda k: f(np.ones(2) * k, b))
    r.call(drive)
    r.call(drive)


@scenario
def s_thread_started_inside(r):
    f = compiled(r, _starts_thread)
    r.call(f, np.arange(4.0))
    r.call(f, np.arange(6.0))


@scenario
def s_queue_between_threads(r):
    f = compiled(r, _puts)

    def drive():
        q = queue.Queue()
        got = run_threads(3, lambda k: f(np.ones(3) * k, q))
        items = []
        while not q.empty():
            items.append(q.get())
        return got, sorted(float(np.sum(v)) for v in items)
    r.call(drive)


@scenario
def s_thread_pool_map(r):
    f = compiled(r, _smooth)

    def drive():
        with ThreadPoolExecutor(4) as ex:
            return list(ex.map(f, [np.arange(10.0) * k for k in range(8)]))
    r.call(drive)
    r.call(drive)


@scenario
def s_first_calls_of_many_functions(r):
    """Four functions compiled and first called at once, one per thread."""
    fs = [compiled(r, fn) for fn in (_axpy, _chain, _loop, _norms)]

    def work(k):
        x = np.linspace(0, 1, 30)
        return fs[k](x, x) if k == 0 else fs[k](x)
    r.call(lambda: run_threads(4, work))


@scenario
def s_raw_thread_reads_edges(r):
    """A reader started with ``_thread.start_new_thread`` (no ``threading.Thread``:
    ``threading.active_count()`` does not count it) reads the boundary columns while
    the main thread runs an in-place stencil: it must only see the values from before."""
    f = compiled(r, _five_point_inplace)

    def drive():
        a = _shared_grid()
        f(a)
        want = a[:, 0].copy(), a[:, -1].copy()
        done, finished, bad = threading.Event(), threading.Event(), [0]
        running = threading.Event()

        def read():
            running.set()
            try:
                while not done.is_set():
                    if not (np.array_equal(a[:, 0], want[0])
                            and np.array_equal(a[:, -1], want[1])):
                        bad[0] += 1
            finally:
                finished.set()
        _thread.start_new_thread(read, ())
        running.wait(60)        # (one not yet running is in no count: runtime.alone)
        try:
            for _ in range(12):
                f(a)
        finally:
            done.set()
            finished.wait(60)
        return bad, a
    r.call(drive)
    r.call(drive)


def _jacobi_into(a, b):
    """Flat passes written straight into ``b``'s window (its gaps: ``b``'s boundary
    columns, which nothing here reads or writes)."""
    for _ in range(3):
        b[1:-1, 1:-1] = 0.25 * (a[2:, 1:-1] + a[:-2, 1:-1] + a[1:-1, 2:] + a[1:-1, :-2])
        a[1:-1, 1:-1] = b[1:-1, 1:-1] * 0.5


@scenario
def s_readers_of_a_direct_write(r):
    f = compiled(r, _jacobi_into)

    def drive():
        a, b = _shared_grid(), _shared_grid() + 1
        f(a, b)
        want = b[:, 0].copy(), b[:, -1].copy()
        done, bad = threading.Event(), [0]

        def read():
            while not done.is_set():
                if not (np.array_equal(b[:, 0], want[0]) and np.array_equal(b[:, -1], want[1])):
                    bad[0] += 1
        t = threading.Thread(target=read)
        t.start()
        try:
            for _ in range(12):
                f(a, b)
        finally:
            done.set()
            t.join()
        return bad, a, b
    r.call(drive)
    r.call(drive)
