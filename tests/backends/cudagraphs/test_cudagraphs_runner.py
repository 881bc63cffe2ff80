"""The runner's state machine, static buffers and output rule, on the host simulation.

``backends.cudagraphs.hostsim.HostDevice`` behaves like a CUDA graph where the runner
can tell: a recording reads its static inputs and writes its static outputs in place
on every launch, and recording leaves garbage (NaN) in the outputs until the first
launch. So a runner that skipped a copy, returned a static buffer, or forgot to
launch gives wrong numbers here as it would on a GPU. Stream ordering is not
simulated (the GPU tests cover it).
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from dynamo.backends.cudagraphs.hostsim import HostDevice, HostStream
from dynamo.backends.cudagraphs.outputs import CaptureRejected
from dynamo.backends.cudagraphs.runner import (
    CAPTURE,
    EAGER,
    REPLAY,
    WARMUP,
    CudaGraphRunner,
    PerShapeRunner,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo


def rng_arrays(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def layer(x, w):
    return (np.tanh(x @ w),)


def kinds(dev):
    return [e[0] for e in dev.events]


def make(fn=layer, **kw):
    dev = kw.pop("device", None) or HostDevice()
    return CudaGraphRunner(fn, fn, dev, name="t", **kw), dev


# --------------------------------------------------------------------------- states

def test_warmup_capture_replay_and_results_equal_eager_with_changing_values():
    run, dev = make()
    x1, x2, x3, x4, w = rng_arrays(0, (3, 4), (3, 4), (3, 4), (3, 4), (4, 5))
    assert run.state == WARMUP
    for x in (x1, x2, x3, x4):
        (y,) = run(x, w)
        np.testing.assert_array_equal(y, layer(x, w)[0])
    assert run.state == REPLAY
    assert kinds(dev).count("run") == 1           # one warm-up
    assert kinds(dev).count("capture") == 1
    assert kinds(dev).count("launch") == 3         # capture call + 2 replays
    assert run.replays == 3


def test_warmup_zero_records_on_the_first_call_and_pins_nothing():
    run, dev = make(warmup=0)
    x, w = rng_arrays(1, (2, 4), (4, 4))
    assert run.state == CAPTURE
    np.testing.assert_array_equal(run(x, w)[0], layer(x, w)[0])
    assert run.state == REPLAY
    assert kinds(dev)[:2] == ["memcpy", "memcpy"]  # both inputs got static buffers


def test_inputs_that_stay_the_same_object_are_captured_in_place():
    run, dev = make()
    x1, x2, x3, w = rng_arrays(2, (3, 4), (3, 4), (3, 4), (4, 4))
    run(x1, w)
    run(x2, w)
    assert run.static_inputs[1] is w               # in place: no buffer for w
    assert run.static_inputs[0] is not x2
    before = kinds(dev).count("memcpy")
    w[...] *= 2                                    # in-place change of a pinned input
    np.testing.assert_array_equal(run(x3, w)[0], layer(x3, w)[0])
    assert kinds(dev).count("memcpy") == before + 1   # only x3 was copied


def test_pin_inputs_false_copies_every_input():
    run, dev = make(pin_inputs=False)
    x1, x2, w = rng_arrays(3, (3, 4), (3, 4), (4, 4))
    run(x1, w)
    run(x2, w)
    assert all(s is not w for s in run.static_inputs)
    n = kinds(dev).count("memcpy")
    run(x1, w)
    assert kinds(dev).count("memcpy") == n + 2


def test_passing_the_static_buffer_back_skips_its_copy():
    run, dev = make()
    x1, x2, w = rng_arrays(4, (3, 4), (3, 4), (4, 4))
    run(x1, w)
    run(x2, w)
    buf = run.static_inputs[0]
    buf[...] = x1                                  # the caller fills the buffer itself
    n = kinds(dev).count("memcpy")
    (y,) = run(buf, w)
    assert kinds(dev).count("memcpy") == n
    assert run.copies_skipped == 1
    np.testing.assert_array_equal(y, layer(x1, w)[0])


def test_a_different_array_where_one_was_captured_in_place_recaptures():
    run, dev = make()
    x1, x2, x3, w, w2 = rng_arrays(5, (3, 4), (3, 4), (3, 4), (4, 4), (4, 4))
    run(x1, w)
    run(x2, w)
    (y,) = run(x3, w2)
    np.testing.assert_array_equal(y, layer(x3, w2)[0])
    assert run.recaptures == 1 and run.state == REPLAY
    assert run.static_inputs[1] is not w2          # now copied, not in place
    assert ("sync", dev.stream) in dev.events      # old recording drained first
    np.testing.assert_array_equal(run(x1, w)[0], layer(x1, w)[0])
    assert run.recaptures == 1                     # copied inputs never recapture


def test_too_many_recaptures_give_up_to_eager():
    def three(a, b, c, d):
        return (a + b + c + d,)

    run, dev = make(three, max_recaptures=1)
    arrs = rng_arrays(6, *[(2,)] * 8)
    run(*arrs[:4])
    run(*arrs[:4])
    run(arrs[0], arrs[4], arrs[2], arrs[3])        # recapture 1: b unpinned
    out = run(arrs[0], arrs[4], arrs[5], arrs[3])  # recapture 2: over the limit
    np.testing.assert_array_equal(out[0], three(arrs[0], arrs[4], arrs[5], arrs[3])[0])
    assert run.state == EAGER and "limit" in run.reason


# --------------------------------------------------------------------------- the output rule

def test_outputs_held_across_calls_are_not_overwritten():
    run, _ = make()
    xs = rng_arrays(7, *[(3, 4)] * 5)
    (w,) = rng_arrays(8, (4, 4))
    held = [run(x, w)[0] for x in xs]
    for x, y in zip(xs, held):
        np.testing.assert_array_equal(y, layer(x, w)[0])
    assert len({id(y) for y in held}) == len(held)


def test_aliasing_between_outputs_and_inputs_is_eagers():
    def f(x):
        y = np.exp(x)
        return y, y.T, y, x[1:], x

    run, _ = make(f)
    for seed in range(4):
        (x,) = rng_arrays(seed, (3, 4))
        y, yt, y_again, xv, x_same = run(x)
        np.testing.assert_array_equal(y, np.exp(x))
        assert np.shares_memory(y, yt) and y_again is y
        assert x_same is x
        assert np.shares_memory(xv, x)
        x[1, 0] = 42.0                              # the view follows the caller's x
        assert xv[0, 0] == 42.0
        y[0, 1] = -7.0                              # and y.T follows y
        assert yt[1, 0] == -7.0


def test_strided_and_reversed_inputs_are_copied_exactly():
    def f(a, b):
        return (a * 2 + b,)

    run, _ = make(f, pin_inputs=False)
    for seed in range(4):
        base_a, base_b = rng_arrays(seed, (6, 8), (8, 6))
        a = base_a[::2, ::-2]            # sliced and reversed
        b = base_b.T[1:4, ::-2]          # transposed view
        np.testing.assert_array_equal(run(a, b)[0], f(a, b)[0])


def test_empty_outputs():
    def f(x):
        return x[:0] * 2, x + 1

    run, _ = make(f)
    for seed in range(3):
        (x,) = rng_arrays(seed, (3, 2))
        e, y = run(x)
        assert e.shape == (0, 2) and e.dtype == x.dtype
        np.testing.assert_array_equal(y, x + 1)


# --------------------------------------------------------------------------- fallbacks

def test_capture_failure_runs_uncaptured_with_the_reason():
    dev = HostDevice(fail_capture=RuntimeError("calling cuBLAS API during stream capture "
                                               "is currently unsupported"))
    run, _ = make(device=dev)
    x1, x2, x3, w = rng_arrays(9, (2, 4), (2, 4), (2, 4), (4, 4))
    run(x1, w)
    np.testing.assert_array_equal(run(x2, w)[0], layer(x2, w)[0])
    np.testing.assert_array_equal(run(x3, w)[0], layer(x3, w)[0])
    assert run.state == EAGER and "cuBLAS" in run.reason
    assert dev.pools_freed == 1 and kinds(dev).count("launch") == 0


def test_audit_problems_reject_the_recording():
    dev = HostDevice(audit_problems=["node 3: memcpy from host memory (64 bytes)"])
    run, _ = make(device=dev)
    x1, x2, w = rng_arrays(10, (2, 4), (2, 4), (4, 4))
    run(x1, w)
    np.testing.assert_array_equal(run(x2, w)[0], layer(x2, w)[0])
    assert run.state == EAGER and "host memory" in run.reason


def test_warmup_failure_runs_eager_which_decides():
    calls = []

    def capture_fn(x):
        raise ValueError("no capture-safe path")

    def eager_fn(x):
        calls.append(1)
        return (x + 1,)

    run = CudaGraphRunner(capture_fn, eager_fn, HostDevice(), name="t")
    (x,) = rng_arrays(11, (3,))
    np.testing.assert_array_equal(run(x)[0], x + 1)
    assert run.state == EAGER and "warm-up failed: ValueError" in run.reason
    run(x)
    assert len(calls) == 2


def test_output_in_memory_the_graph_does_not_own_is_rejected():
    const = np.arange(3.0)

    class Dev(HostDevice):
        def capture(self, *a):
            graph, outs, private = super().capture(*a)
            return graph, outs, set()        # as if the outputs were a constant's memory

    run = CudaGraphRunner(lambda x: (x + const,), lambda x: (x + const,), Dev(), name="t")
    (x,) = rng_arrays(12, (3,))
    run(x)
    np.testing.assert_array_equal(run(x)[0], x + const)
    assert run.state == EAGER and "neither computed nor" in run.reason


def test_non_tuple_results_are_rejected():
    from dynamo.backends.cudagraphs.outputs import OutputPlan
    with pytest.raises(CaptureRejected, match="not a tuple"):
        OutputPlan.analyze(np.ones(2), [], set(), HostDevice())


def test_layout_check_runs_a_mismatching_call_uncaptured():
    def f(a):
        return (a * 3,)

    run, dev = make(f, check_layout=True, pin_inputs=False)
    (base,) = rng_arrays(13, (4, 4))
    run(base.copy())
    run(base.copy())
    launches = kinds(dev).count("launch")
    (y,) = run(base.T)                    # same shape, other strides
    np.testing.assert_array_equal(y, base.T * 3)
    assert kinds(dev).count("launch") == launches and run.state == REPLAY


def test_a_new_stream_waits_for_the_previous_one():
    run, dev = make()
    x, w = rng_arrays(14, (2, 4), (4, 4))
    run(x, w)
    run(x, w)
    first = dev.stream
    dev.stream = HostStream("user")
    run(x, w)
    assert ("join", dev.stream, first) in dev.events


def test_gemm_graphs_open_and_close_their_blas_handle():
    run, dev = make(needs_blas=True, workspace=1 << 20)
    x, w = rng_arrays(15, (2, 4), (4, 4))
    run(x, w)
    run(x, w)
    assert ("open_blas", 1 << 20) in dev.events
    run.close()
    assert ("close_blas",) in dev.events and dev.pools_freed == 1
    np.testing.assert_array_equal(run(x, w)[0], layer(x, w)[0])   # closed: eager


# --------------------------------------------------------------------------- lifetime

def test_recording_is_freed_with_the_runner():
    run, dev = make(needs_blas=True)
    x1, x2, w = rng_arrays(16, (2, 4), (2, 4), (4, 4))
    run(x1, w)
    run(x2, w)
    statics = [weakref.ref(s) for s in run.static_inputs if s is not w]
    assert len(statics) == 1
    ref = weakref.ref(run)
    del run
    gc.collect()
    assert ref() is None
    assert all(s() is None for s in statics)
    assert dev.pools_freed == 1 and ("close_blas",) in dev.events


def _sim_backend(made, **options):
    """The cudagraphs backend's composition (plan, make_runner) on the host simulation."""
    from dynamo.backends.common import python_function
    from dynamo.backends.cudagraphs import parse_options, plan_capture
    from dynamo.backends.cudagraphs.backend import make_runner

    def backend(graph, example_inputs):
        fn = python_function(graph)
        plan = plan_capture(graph)
        if not plan.capturable:
            return fn
        run = make_runner(fn, fn, plan, "sim", parse_options(options), check_layout=False,
                          device=HostDevice())
        made.append(weakref.ref(run))
        return run

    backend.layout_guards = True
    backend.dynamic_shapes = True
    return backend


def test_entries_free_their_recordings_on_reset_and_with_the_function():
    made: list = []

    def f(x, w):
        return np.tanh(x @ w) * 2

    compiled = dynamo.compile(f, backend=_sim_backend(made))
    x, w = rng_arrays(17, (3, 4), (4, 4))
    for _ in range(3):
        np.testing.assert_array_equal(compiled(x, w), f(x, w))
    compiled(x[:2], w)                                     # a new shape: a second entry
    assert len(made) == 2 and made[0]().state == REPLAY
    dynamo.reset()
    gc.collect()
    assert all(r() is None for r in made)

    made.clear()
    compiled = dynamo.compile(f, backend=_sim_backend(made))
    compiled(x, w)
    assert made[0]() is not None
    del compiled
    gc.collect()
    assert made[0]() is None


# --------------------------------------------------------------------------- differential

PROGRAMS = {
    "mlp": lambda x, w: (np.maximum(x @ w, 0).sum(axis=-1),),
    "softmax": lambda x, w: ((lambda e: e / e.sum(-1, keepdims=True))(
        np.exp(x - x.max(-1, keepdims=True))),),
    "multi": lambda x, w: (x.T @ x, (x @ w)[:, ::-1], x[0]),
}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PROGRAMS)), st.lists(st.integers(0, 3), min_size=1,
                                                     max_size=6),
       st.booleans(), st.integers(0, 2))
def test_compiled_runner_equals_eager_on_call_sequences(name, seeds, transposed, warmup):
    fn = PROGRAMS[name]
    run = CudaGraphRunner(fn, fn, HostDevice(), name=name, warmup=warmup)
    (w,) = rng_arrays(99, (5, 5))
    held = []
    for s in seeds:
        (x,) = rng_arrays(s, (5, 5))
        x = x.T if transposed else x
        got = run(x, w)
        want = fn(x, w)
        for g, e in zip(got, want):
            np.testing.assert_array_equal(g, e)
        held.append((got, [e.copy() for e in want]))
    for got, want in held:                      # nothing the caller holds was overwritten
        for g, e in zip(got, want):
            np.testing.assert_array_equal(g, e)


# --------------------------------------------------------------------------- dynamic shapes

def test_a_dynamic_entry_records_once_per_size():
    made: list = []

    def f(x, w):
        return (x.reshape(-1, 2) * 2).sum(0) + np.tanh(x @ w)[:2].sum()

    compiled = dynamo.compile(f, backend=_sim_backend(made))
    (w,) = rng_arrays(20, (4, 3))
    for n in (5, 6, 7, 6, 7, 6, 7, 8):
        (x,) = rng_arrays(n, (n, 4))
        np.testing.assert_allclose(compiled(x, w), f(x, w), rtol=1e-6)
    dynamic = [r() for r in made if isinstance(r(), PerShapeRunner)]
    assert len(dynamic) == 1, made                 # shapes 6, 7, 8 share one dynamic entry
    runners = dynamic[0].runners
    assert len(runners) == 3
    states = {key[0][0][0]: r.state for key, r in runners.items()}
    assert states[6] == REPLAY and states[7] == REPLAY and states[8] == CAPTURE  # warmed up


def test_per_shape_runner_frees_the_least_recently_used_size():
    made = []

    def make(key):
        run = CudaGraphRunner(layer, layer, HostDevice(), name="t")
        made.append(run)
        return run

    run = PerShapeRunner(make, max_sizes=2)
    (w,) = rng_arrays(21, (4, 4))
    for n in (1, 2, 1, 3, 1):
        (x,) = rng_arrays(n, (n, 4))
        np.testing.assert_array_equal(run(x, w)[0], layer(x, w)[0])
    assert run.evicted == 1 and made[1].state == EAGER and made[1].reason == "closed"
    assert sorted(k[0][0][0] for k in run.runners) == [1, 3]
    run.close()
    assert all(r.state == EAGER for r in made)


def test_size_inputs_are_part_of_the_recording():
    def f(x, n):
        return (x[:n] * 2,)

    run, dev = make(f)
    (x,) = rng_arrays(22, (6,))
    run(x, 3)
    run(x, 3)
    np.testing.assert_array_equal(run(x, 3)[0], x[:3] * 2)
    assert run.state == REPLAY
    launches = kinds(dev).count("launch")
    np.testing.assert_array_equal(run(x, 4)[0], x[:4] * 2)     # another value: uncaptured
    assert kinds(dev).count("launch") == launches


def test_compiled_dynamic_programs_equal_eager_through_the_sim_backend():
    made: list = []

    def f(x, w):
        h = np.maximum(x @ w, 0)
        return h / h.sum(axis=-1, keepdims=True).clip(1e-3), x.T

    compiled = dynamo.compile(f, backend=_sim_backend(made, max_sizes=2))
    (w,) = rng_arrays(23, (3, 3))
    held = []
    for n in (4, 5, 6, 5, 6, 7, 4, 5, 6):
        (x,) = rng_arrays(n, (n, 3))
        got = compiled(x, w)
        want = f(x, w)
        for g_, e in zip(got, want):
            np.testing.assert_allclose(g_, e, rtol=1e-6)
        assert got[1].base is x or np.shares_memory(got[1], x)
        held.append((got[0], want[0]))
    for g_, e in held:
        np.testing.assert_allclose(g_, e, rtol=1e-6)


def test_dynamic_programs_with_size_inputs_equal_eager():
    made: list = []
    graphs = []

    def f(x):
        T = x.shape[0]
        return np.arange(T) * x[:, 0] + x.reshape(T, -1).sum(1), x[: T - 1] * 2

    backend = _sim_backend(made)

    def spy(graph, example_inputs):
        graphs.append(graph)
        return backend(graph, example_inputs)

    spy.layout_guards = spy.dynamic_shapes = True
    compiled = dynamo.compile(f, backend=spy)
    for n in (3, 4, 5, 4, 5, 4, 5):
        (x,) = rng_arrays(n, (n, 2))
        for got, want in zip(compiled(x), f(x)):
            np.testing.assert_allclose(got, want, rtol=1e-6)
    assert any(p.meta.get("symbol") for g in graphs for p in g.placeholders), \
        "expected a graph with a size input"
    (dynamic,) = [r() for r in made if isinstance(r(), PerShapeRunner)]
    assert [r.state for r in dynamic.runners.values()] == [REPLAY, REPLAY]


def test_running_out_of_memory_for_static_buffers_runs_uncaptured():
    class Dev(HostDevice):
        def empty_like(self, x):
            raise MemoryError("out of memory allocating 1 GiB")

    run = CudaGraphRunner(layer, layer, Dev(), name="t")
    x1, x2, w = rng_arrays(24, (2, 4), (2, 4), (4, 4))
    run(x1, w)
    np.testing.assert_array_equal(run(x2, w)[0], layer(x2, w)[0])
    assert run.state == EAGER and "MemoryError" in run.reason
