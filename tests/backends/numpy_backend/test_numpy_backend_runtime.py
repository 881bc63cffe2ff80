"""The ``numpy`` backend's run-time pieces: ufunc settings in pool threads, row buffers,
recycled outputs; and what generated code does with them, against eager NumPy.

Row buffers change how NumPy cuts a ufunc's loop, never a value: an elementwise
result is bit-identical, and reductions (whose sums a buffer does cut) run under the
caller's settings. Recycled outputs are arrays the caller dropped: a result the caller
still reaches, directly or through a view or container, is never written again.
"""

import gc
import sys
import threading
import time
import weakref

import numpy as np
import pytest
from dynamo.backends.numpy_backend import runtime
from dynamo.backends.numpy_backend.runtime import Recycler, ScratchCache, run_blocks
from harness import rand
from test_numpy_backend import compiled_graph

import dynamo

# Blocks of a few rows, two threads: every group of these sizes runs block-wise.
ROWS = {"min_blocked_elements": 0, "min_threaded_elements": 0, "cache_bytes": 16384,
        "min_block_elements": 1,
        "threads": 2, "rerun_on_error": False}


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def centered_half(h):
    # a float16 sum in float32 goes through a buffer, so its value depends on the
    # buffer size (when a row does not fit); the subtraction broadcasts the column
    return (h - h.sum(axis=-1, dtype=np.float32, keepdims=True)) * np.float32(0.5)


def mixed_columns(x, c):
    # an int8 column (cast through a buffer) broadcast over float32 rows
    return np.sqrt(np.abs(x * c + c)) / (x.sum(axis=-1, keepdims=True) + 4)


# --------------------------------------------------------------------------- ufunc settings

def test_pool_threads_run_under_the_callers_settings():
    seen = []

    def block(i, s):
        seen.append((np.getbufsize(), np.geterr()["over"], threading.current_thread().name))
        time.sleep(0.002)          # so that the pool thread surely takes some blocks

    with np.errstate(over="raise"):
        np.setbufsize(4096)
        run_blocks(block, 64, ScratchCache([]), threads=2)
    assert {(b, o) for b, o, _ in seen} == {(4096, "raise")}
    assert len({name for *_, name in seen}) == 2
    assert np.getbufsize() == 8192 and np.geterr()["over"] == "warn"


@pytest.mark.parametrize("threads", [1, 2])
def test_blocks_that_switch_settings_leave_the_callers(threads):
    wide, narrow = runtime.row_buffer(1000)

    def block(i, s):
        runtime.switch_ufunc_state(narrow)
        assert np.getbufsize() == 1008
        if i == 5:
            raise ValueError("block 5")

    with pytest.raises(ValueError, match="block 5"):
        run_blocks(block, 8, ScratchCache([]), threads=threads)
    assert np.getbufsize() == 8192
    run_blocks(lambda i, s: runtime.switch_ufunc_state(narrow), 8, ScratchCache([]), threads)
    assert np.getbufsize() == 8192


def test_row_buffer_never_widens():
    with np.errstate():
        np.setbufsize(512)
        wide, narrow = runtime.row_buffer(1000)     # rows longer than the buffer
        assert narrow is wide


# --------------------------------------------------------------------------- row buffers

@pytest.mark.parametrize("fn, make", [
    (softmax, lambda: (rand(999, 300),)),     # hundreds of blocks: both threads take some
    (softmax, lambda: (rand(999, 300, dtype=np.float64),)),
    (centered_half, lambda: (rand(999, 300, dtype=np.float16, low=-60, high=60),)),
    (mixed_columns, lambda: (rand(999, 300), rand(999, 1, dtype=np.int8, low=-12, high=12))),
], ids=["softmax f32", "softmax f64", "centered f16", "int8 column"])
@pytest.mark.parametrize("bufsize", [8192, 1024, 64])
def test_row_buffers_are_bit_identical(fn, make, bufsize):
    # 64: the caller's buffer is shorter than a row; pool threads must use it too
    # (eager's float16 mean sums per buffer)
    args = make()
    with np.errstate():
        np.setbufsize(bufsize)
        compiled = compiled_graph(fn, *args, **ROWS)
        ((group, plan),) = compiled.__dynamo_groups__
        assert plan.row_buffer == 300 and plan.threads == 2 and plan.nblocks > 4
        assert "_row_buffer(300)" in compiled.__dynamo_source__
        got, want = compiled(*args)[0], fn(*args)
        assert np.getbufsize() == bufsize
    np.testing.assert_array_equal(got, want, strict=True)


def test_reductions_run_under_the_callers_buffer():
    # the float16 sum is the one op here whose value a buffer size changes
    h = rand(61, 300, dtype=np.float16, low=-60, high=60)
    src = compiled_graph(centered_half, h, **ROWS).__dynamo_source__
    body = [line for line in src[src.index("def _block"):src.index("_run(_block")].splitlines()
            if line.strip()]
    switches = [line.strip() for line in body if "_set_ufunc_state" in line]
    assert switches == ["_set_ufunc_state(_narrow)", "_set_ufunc_state(_wide)"], src
    # blocks run one after another: the state a block ends in is the next one's start
    total = next(i for i, line in enumerate(body) if "_add_reduce" in line)
    assert "_narrow" not in "".join(body[:total]) and body[-1].strip().endswith("(_wide)")
    with np.errstate():
        np.setbufsize(256)               # a buffer shorter than a row cuts its sum
        cut = np.add.reduce(h, -1, np.float32, None, True)
    assert not np.array_equal(cut, np.add.reduce(h, -1, np.float32, None, True)), \
        "this input no longer tells the two buffer sizes apart"


def test_short_rows_and_row_blocks_do_without():
    assert compiled_graph(softmax, rand(200, 100), **ROWS).__dynamo_groups__[0][1].row_buffer == 0
    # no broadcast column: nothing to gain
    plans = compiled_graph(lambda x, v: np.tanh(x * v), rand(61, 300), rand(300), **ROWS)
    assert plans.__dynamo_groups__[0][1].row_buffer == 0


# --------------------------------------------------------------------------- recycled outputs

def test_recycler_reuses_only_what_the_caller_dropped():
    r = Recycler((64, 64), np.dtype(np.float32))
    a, b = r.take(), r.take()              # a is alive: two arrays
    assert not np.shares_memory(a, b)
    b_address = b.ctypes.data
    holder, view = [a], b[3:]
    del a, b
    c = r.take()                           # a is in a list, b has a view: a new array
    assert not np.shares_memory(c, holder[0]) and not np.shares_memory(c, view)
    del view                               # now nothing reaches b
    d = r.take()
    assert d.ctypes.data == b_address and not np.shares_memory(d, c)


def test_recycler_gives_back_a_dropped_array_as_it_was_made():
    r = Recycler((8, 8), np.dtype(np.float64))
    a = r.take()
    first = id(a)
    del a
    b = r.take()
    assert id(b) == first
    assert b.shape == (8, 8) and b.dtype == np.float64 and b.flags.owndata and \
        b.flags.c_contiguous and b.flags.writeable


def change_as_a_caller(a: np.ndarray, change: str) -> None:
    """What a caller may do to an (8, 8) float64 array it took: ``reshape`` it in place,
    make it ``readonly`` or give it another ``dtype``; a recycler or scratch site must
    not hand it out again."""
    if change == "reshape":
        a.shape = (64,)
    elif change == "readonly":
        a.flags.writeable = False
    else:
        a.dtype = np.int64


@pytest.mark.filterwarnings("ignore:Setting the:DeprecationWarning")   # NumPy 2.5
@pytest.mark.parametrize("change", ["reshape", "readonly", "dtype"])
def test_recycler_leaves_arrays_the_caller_changed(change):
    r = Recycler((8, 8), np.dtype(np.float64))
    a = r.take()
    change_as_a_caller(a, change)
    changed = id(a)
    del a
    b = r.take()
    assert id(b) != changed and b.shape == (8, 8) and b.dtype == np.float64 and \
        b.flags.writeable


def test_recycler_lets_weak_references_die_at_the_next_take():
    r = Recycler((8, 8), np.dtype(np.float32))
    a = r.take()
    ref = weakref.ref(a)
    finalized = []
    weakref.finalize(a, finalized.append, True)
    del a
    gc.collect()
    assert ref() is not None and not finalized     # the documented delay
    b = r.take()
    assert ref() is None and finalized and b is not None


def test_recycler_keeps_at_most_two():
    r = Recycler((8,), np.dtype(np.float32))
    alive = [r.take() for _ in range(5)]
    assert len(r._issued) == 2 and all(x is y for x, y in zip(r._issued, alive[-2:]))


def test_recycler_never_hands_one_array_to_two_threads():
    r = Recycler((256,), np.dtype(np.int64))
    errors = []

    def work(tag):
        for _ in range(300):
            a = r.take()
            a.fill(tag)
            for _ in range(3):
                if not (a == tag).all():
                    errors.append(tag)
            del a

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def sorted_chain(x):
    t = np.exp(x * 0.5) + 1.0          # a group's output the caller never sees: recycled
    return np.sort(t, axis=-1) * 2.0 - 1.0


def two_outputs(x):
    a = np.exp(x * 0.1) + 1.0
    return a, (a * 2.0 - 1.0)[1:].T, a.sum(axis=-1)    # a view of a group's output, too


def test_compiled_outputs_reuse_only_what_the_caller_never_sees():
    src = compiled_graph(sorted_chain, rand(61, 300), **ROWS).__dynamo_source__
    assert src.count(".take()") == 1, src             # t only: the result is fresh
    fn = dynamo.compile(sorted_chain, backend="numpy", options=ROWS)
    xs = [rand(61, 300, seed=s) for s in range(4)]
    held = [fn(x) for x in xs]                         # each call reuses t's buffer
    for got, x in zip(held, xs):
        np.testing.assert_array_equal(got, sorted_chain(x), strict=True)
    y = xs[0]
    for _ in range(3):                                 # a result passed back in
        expected = sorted_chain(y)
        y = fn(y)
        np.testing.assert_array_equal(y, expected, strict=True)


def _holders(a) -> int:
    return sys.getrefcount(a if a.base is None else a.base)


@pytest.mark.parametrize("program", [softmax, sorted_chain, two_outputs])
def test_returned_outputs_are_held_by_the_caller_alone(program):
    # a recycler holding a returned array: one reference more than eager's
    # (``z.resize`` raised), and a dropped result's weak reference lived on to the next call
    fn = dynamo.compile(program, backend="numpy", options=ROWS)
    xs = [rand(61, 300, seed=s) for s in range(3)]
    for x in xs * 2:
        got, want = fn(x), program(x)
        got, want = (got, want) if isinstance(got, tuple) else ((got,), (want,))
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w, strict=True)
            assert _holders(g) == _holders(w)
        first = got[0]
        dead = weakref.ref(first if first.base is None else first.base)
        del got, g, first
        assert dead() is None                            # as eager's: gone at once
    z = fn(xs[0])
    z = z[0] if isinstance(z, tuple) else z
    z.resize(z.size + 1)                                 # only the caller refers to it


def test_recycling_can_be_turned_off():
    src = compiled_graph(sorted_chain, rand(61, 300), **ROWS).__dynamo_source__
    assert ".take()" in src
    src = compiled_graph(sorted_chain, rand(61, 300), **ROWS,
                         recycle_outputs=False).__dynamo_source__
    assert ".take()" not in src and "_empty((61, 300)" in src
    with pytest.raises(ValueError, match="recycle_outputs.*True or False"):
        dynamo.compile(softmax, backend="numpy", options={"recycle_outputs": 1})


# --------------------------------------------------------------------------- plain path

def scaled_rows(x, c):
    return x / c + 1


def test_plain_path_runs_column_broadcasts_with_a_row_buffer():
    x = rand(64, 1000)
    src = compiled_graph(softmax, x).__dynamo_source__
    assert "_run(" not in src                                   # the plain path
    # subtract and divide, both variants (a try/finally, not ``with``: runtime.raising_of)
    assert src.count("_ufunc_set(_row_buffer(1000)[1])") == 4, src
    np.testing.assert_array_equal(dynamo.compile(softmax, backend="numpy")(x), softmax(x),
                                  strict=True)
    small = compiled_graph(softmax, rand(8, 1000)).__dynamo_source__
    assert "_row_buffer" not in small                # 8000 elements: not worth a switch


def test_plain_path_row_buffer_ends_with_the_op_even_when_it_raises():
    x, c = rand(64, 1000), rand(64, 1)
    assert "_ufunc_set(_row_buffer(1000)[1])" in compiled_graph(scaled_rows, x,
                                                                c).__dynamo_source__
    fn = dynamo.compile(scaled_rows, backend="numpy")
    c[5] = 0.0
    with np.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            fn(x, c)
        assert np.getbufsize() == 8192 and np.geterr()["divide"] == "raise"
    c[5] = 2.0
    np.testing.assert_array_equal(fn(x, c), scaled_rows(x, c), strict=True)


def test_recyclers_no_longer_used_let_go_beyond_the_budget(monkeypatch):
    # a function called with many shapes has one recycler per static variant: those
    # not used lately give their arrays up once all together hold too much
    size = np.dtype(np.float64).itemsize * 64
    monkeypatch.setattr(runtime, "RETAINED_BYTES", 3 * size)
    sites = [Recycler((64,), np.dtype(np.float64)) for _ in range(4)]
    for r in sites:
        r.take()                         # each keeps one dropped array
    assert [r.retained() for r in sites] == [0, size, size, size]
    sites[1].take()                      # a reuse: nothing new, nothing let go
    assert [r.retained() for r in sites] == [0, size, size, size]
    sites[0].take()                      # new: the least recently used (2) lets go
    assert [r.retained() for r in sites] == [size, size, 0, size]
    del sites
    gc.collect()
    last = Recycler((8,), np.dtype(np.float64))
    last.take()                          # a new allocation forgets the dead sites
    assert all(ref() is not None for ref in runtime._RECENT.values())


@pytest.mark.parametrize("kind", ["python", "c only"])
def test_alone_sees_threads_threading_does_not_know(kind):
    # a thread started with _thread (a program's, a library's) is not in
    # threading.active_count(); while it runs, the flat passes must keep off the gaps
    import _thread

    assert runtime.alone()
    before = _thread._count()
    held = _thread.allocate_lock()
    held.acquire()
    # "c only": the thread runs held.acquire itself, no Python frame at all
    target = held.acquire if kind == "c only" else (lambda: held.acquire())
    _thread.start_new_thread(target, ())
    try:
        deadline = time.monotonic() + 10
        while _thread._count() == before and time.monotonic() < deadline:
            time.sleep(0.001)
        assert threading.active_count() == 1 + len(runtime._POOL._queues)
        assert not runtime.alone()
    finally:
        held.release()                      # the thread takes it and ends
        deadline = time.monotonic() + 10
        while _thread._count() > before and time.monotonic() < deadline:
            time.sleep(0.001)               # (gone before the next test asks alone())
