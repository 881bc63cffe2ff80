"""The cudagraphs backend on a real GPU (marked ``gpu``: skipped without CuPy and a device).

Run on a GPU machine by ``scripts/gpu_check_cudagraphs.sh``. Covers what the CPU
tests cannot: real stream capture, the cuBLAS GEMMs inside it, the graph audit,
replay on the caller's stream, and memory being freed.

Tolerances: elementwise ops and reductions replay CuPy's own kernels, so they match
eager bit for bit; GEMMs use the same cuBLAS routines and settings as CuPy except
stacked products with a broadcast operand (zero batch stride instead of CuPy's pointer
table), so they are compared at rtol 1e-5 (float32).
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from dynamo.backends.cudagraphs.runner import EAGER, REPLAY, CudaGraphRunner, PerShapeRunner
from script_modules import load_script

import dynamo

compile_spy = load_script("bench_cudagraphs").compile_spy

pytestmark = pytest.mark.gpu


@pytest.fixture
def cp():
    import cupy
    return cupy


def runners(made) -> list[CudaGraphRunner]:
    found = []
    for m in made:
        if isinstance(m, PerShapeRunner):
            found += list(m.runners.values())
        elif isinstance(m, CudaGraphRunner):
            found.append(m)
    return found


def record(stream, fn):
    """``fn()`` recorded on ``stream`` as the backend records: (Recording, fn's result)."""
    from cupy_backends.cuda.api import runtime
    from dynamo.backends.cudagraphs.device import Recording
    runtime.streamBeginCapture(stream.ptr, runtime.streamCaptureModeRelaxed)
    try:
        out = fn()
    except BaseException:
        Recording(runtime.streamEndCapture(stream.ptr))
        raise
    return Recording(runtime.streamEndCapture(stream.ptr)), out


def rand(cp, *shape, seed=0, dtype=np.float32):
    return cp.asarray(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def close(cp, got, want, rtol=1e-5, atol=1e-6):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(cp.asnumpy(g), cp.asnumpy(w), rtol=rtol, atol=atol)


# --------------------------------------------------------------------------- the premise

def test_cupy_refuses_its_own_matmul_inside_a_capture(cp):
    """The obstacle this backend works around (if CuPy lifts it, update docs/cudagraphs.md)."""
    a = rand(cp, 8, 8)
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        a @ a
        s.synchronize()
        s.begin_capture()
        try:
            with pytest.raises(Exception, match="capture"):
                a @ a
        finally:
            try:
                s.end_capture()
            except Exception:  # noqa: BLE001 (the refusal may invalidate the capture)
                pass


def test_cupys_low_level_gemm_bindings_refuse_too(cp):
    """Why blas.CublasDirect calls libcublas through ctypes: CuPy's ``sgemm`` binding
    re-sets the handle's stream to the current (recording) one first, and refuses."""
    from cupy_backends.cuda.libs import cublas
    handle = cublas.create()
    a = rand(cp, 4, 4)
    c = cp.empty_like(a)
    one, zero = np.ones((), np.float32), np.zeros((), np.float32)
    s = cp.cuda.Stream(non_blocking=True)
    cublas.setStream(handle, s.ptr)                  # set before recording, as suggested
    with s:
        s.begin_capture()
        try:
            with pytest.raises(NotImplementedError, match="stream capture"):
                cublas.sgemm(handle, 0, 0, 4, 4, 4, one.ctypes.data, a.data.ptr, 4,
                             a.data.ptr, 4, zero.ctypes.data, c.data.ptr, 4)
        finally:
            try:
                s.end_capture()
            except Exception:  # noqa: BLE001
                pass
    cublas.destroy(handle)


def test_our_gemm_records_and_replays_inside_a_capture(cp):
    from dynamo.backends.cudagraphs import blas
    g = blas.Blas()
    s = cp.cuda.Stream(non_blocking=True)
    cases = [((32, 512), (512, 1024)), ((7, 5), (5, 3)), ((4, 16, 8), (4, 8, 16)),
             ((4, 16, 8), (8, 16)), ((5,), (5, 3)), ((3, 5), (5,)), ((2, 1, 3, 4), (1, 3, 4, 2))]
    ins = [(rand(cp, *sa, seed=1), rand(cp, *sb, seed=2)) for sa, sb in cases]
    ins.append((rand(cp, 12, 8, seed=3)[:, ::2], rand(cp, 4, 6, seed=4).T.copy().T))
    ins.append((rand(cp, 6, 6, seed=5, dtype=np.float64),) * 2)
    ins.append((rand(cp, 6, 6, seed=6, dtype=np.float16), rand(cp, 6, 4, seed=7,
                                                                   dtype=np.float16)))
    g.bind(s)
    pool = cp.cuda.MemoryPool()                   # the recording's intermediates live here
    cp.cuda.Device().synchronize()
    with s, blas.active(g):
        for a, b in ins:                          # warm up: kernels compiled, cuBLAS ready
            blas.matmul(a, b)
        s.synchronize()
        with cp.cuda.using_allocator(pool.malloc):
            rec, outs = record(s, lambda: [blas.matmul(a, b) for a, b in ins])
    from dynamo.backends.cudagraphs.audit import audit_graph
    from dynamo.backends.cudagraphs.device import CupyDevice
    assert audit_graph(rec.graph) == []
    rec.instantiate()
    for a, b in ins:                              # new values, same buffers
        a[...] = a * 1.5 + 0.25
        b[...] = b - 0.5
    cp.cuda.Device().synchronize()
    CupyDevice().launch(rec, s)
    s.synchronize()
    for (a, b), got in zip(ins, outs):
        tol = 2e-2 if a.dtype == np.float16 else 1e-5
        close(cp, got, cp.matmul(a, b), rtol=tol, atol=tol)
    g.close()


# --------------------------------------------------------------------------- results

@pytest.mark.parametrize("model", ["mlp", "transformer", "layernorm", "softmax", "gelu"])
def test_models_replay_and_equal_eager_over_changing_inputs(cp, model):
    import models
    fn, inputs = models.make(model, cp)
    compiled, made = compile_spy(fn)
    for seed in range(6):
        x = rand(cp, *inputs[0].shape, seed=seed)
        args = (x,) + tuple(inputs[1:])
        close(cp, compiled(*args), fn(*args), rtol=1e-5, atol=1e-5)
    found = runners(made)
    assert found and all(r.state == REPLAY for r in found), [r.reason for r in found]
    assert all(r.replays == 5 for r in found)
    assert found[0].input_copies == 4          # x each call; the weights are read in place


def test_outputs_held_across_calls_are_not_overwritten(cp):
    import models
    fn, (x0,) = models.make("mlp", cp)
    compiled, _ = compile_spy(fn)
    xs = [rand(cp, *x0.shape, seed=s) for s in range(8)]
    held = [compiled(x) for x in xs]
    cp.cuda.Device().synchronize()
    for x, y in zip(xs, held):
        close(cp, y, fn(x))
    assert len({y.data.ptr for y in held}) == len(held)


def test_shape_changes_make_new_entries_and_each_size_replays(cp):
    def f(x, w):
        return cp.tanh(x @ w) * 2 + 1

    w = rand(cp, 64, 32, seed=1)
    compiled, made = compile_spy(f)
    for n in (16, 16, 16, 24, 24, 24, 40, 40, 40, 24):
        x = rand(cp, n, 64, seed=n)
        close(cp, compiled(x, w), f(x, w))
    assert len(made) == 2                         # the static entry, then one dynamic entry
    assert isinstance(made[1], PerShapeRunner)
    assert [r.state for r in runners(made)] == [REPLAY, REPLAY, REPLAY]


def test_outputs_alias_like_eager(cp):
    def f(x):
        y = cp.exp(x)
        return y, y.T, x[1:], x

    compiled, made = compile_spy(f)
    for seed in range(4):
        x = rand(cp, 4, 5, seed=seed)
        y, yt, xv, x_same = compiled(x)
        close(cp, y, cp.exp(x))
        assert x_same is x and xv.data.ptr == x[1:].data.ptr
        assert yt.data.ptr == y.data.ptr
    assert runners(made)[0].state == REPLAY


def test_weights_captured_in_place_follow_in_place_updates(cp):
    def f(x, w):
        return x @ w

    x1, x2, x3, w = (rand(cp, 8, 8, seed=s) for s in range(4))
    compiled, made = compile_spy(f)
    compiled(x1, w)
    compiled(x2, w)
    (run,) = runners(made)
    assert run.static_inputs[1] is w
    w *= 3
    close(cp, compiled(x3, w), x3 @ w)
    w2 = rand(cp, 8, 8, seed=9)                   # another array: recorded again, copied
    close(cp, compiled(x3, w2), x3 @ w2)
    assert run.recaptures == 1 and run.state == REPLAY


def test_passing_the_static_buffer_back_skips_the_copy(cp):
    def f(x):
        return cp.sin(x) + 1

    compiled, made = compile_spy(f)
    compiled(rand(cp, 1000, seed=1))
    compiled(rand(cp, 1000, seed=2))
    (run,) = runners(made)
    buf = run.static_inputs[0]
    buf[...] = rand(cp, 1000, seed=3)
    close(cp, compiled(buf), cp.sin(buf) + 1)
    assert run.copies_skipped == 1


def test_calls_on_other_streams_are_ordered(cp):
    import models
    fn, (x0,) = models.make("mlp", cp)
    compiled, made = compile_spy(fn)
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(3)]
    results = []
    for i in range(12):
        x = rand(cp, *x0.shape, seed=i)
        cp.cuda.Device().synchronize()            # x was made on the default stream
        with streams[i % 3]:
            results.append((x, compiled(x)))
    cp.cuda.Device().synchronize()
    for x, y in results:
        close(cp, y, fn(x))
    assert runners(made)[0].state == REPLAY


def test_strided_inputs(cp):
    def f(a, b):
        return a * 2 + b

    compiled, made = compile_spy(f)
    for seed in range(4):
        a = rand(cp, 16, 16, seed=seed)[::2, ::-2]
        b = rand(cp, 16, 8, seed=seed + 10).T[:, 1::2]
        close(cp, compiled(a, b), f(a, b))
    assert runners(made)[0].state == REPLAY


# --------------------------------------------------------------------------- fallbacks

def test_refused_graphs_run_uncaptured_and_say_why(cp, caplog):
    dynamo.set_logs("cudagraphs")
    try:
        cases = {
            "host_data": lambda x: x[[0, 2]] * 2,
            "cublas": lambda x: cp.einsum("ij,jk->ik", x, x) + 1,
            "input_mutation": None,
        }

        def mutate(x):
            x += 1
            return x * 2

        cases["input_mutation"] = mutate
        for code, fn in cases.items():
            compiled, made = compile_spy(fn)
            for seed in range(3):
                x = rand(cp, 4, 4, seed=seed)
                x_eager = x.copy()
                close(cp, compiled(x), fn(x_eager))
                close(cp, x, x_eager)                # the same mutation happened
            assert runners(made) == [], code
            assert any(code in [r.code for r in m.capture_plan.reasons] for m in made
                       if getattr(m, "capture_plan", None)), code
    finally:
        dynamo.set_logs()
    assert any("runs uncaptured" in r.getMessage() for r in caplog.records)


def test_a_failed_recording_runs_uncaptured(cp, restored_op_registry):
    def peek(x):                   # reads the device on the host: cannot be recorded
        return x * float(x.sum().get())

    dynamo.register_op(peek, meta="same", name="peek_cg_gpu", cupy=peek)

    def f(x):
        return peek(x) + 1

    compiled, made = compile_spy(f, capture_user_ops=True)
    for seed in range(4):
        x = rand(cp, 16, seed=seed)
        close(cp, compiled(x), peek(x) + 1)
    (run,) = runners(made)
    assert run.state == EAGER and "capture failed" in run.reason


def test_the_audit_rejects_a_recorded_host_copy(cp, restored_op_registry):
    host = cp.cuda.alloc_pinned_memory(64)
    np.frombuffer(host, np.float32, 16)[:] = 1.0

    def add_host(x):               # an H2D copy the planner cannot see
        buf = cp.empty(16, cp.float32)
        cp.cuda.runtime.memcpyAsync(buf.data.ptr, host.ptr, 64,
                                    cp.cuda.runtime.memcpyHostToDevice,
                                    cp.cuda.get_current_stream().ptr)
        return x + buf

    dynamo.register_op(add_host, meta="same", name="add_host_cg_gpu", cupy=add_host)

    def f(x):
        return add_host(x) * 2

    compiled, made = compile_spy(f, capture_user_ops=True)
    for seed in range(3):
        x = rand(cp, 16, seed=seed)
        close(cp, compiled(x), (x + 1) * 2)
    (run,) = runners(made)
    assert run.state == EAGER and "host memory" in run.reason, run.reason


def test_audit_passes_a_clean_recording(cp):
    from dynamo.backends.cudagraphs.audit import audit_graph
    s = cp.cuda.Stream(non_blocking=True)
    x = rand(cp, 256)
    with s:
        cp.exp(x) + x.sum()                       # warm up the kernels recorded below
        cp.exp(x).copy()
        s.synchronize()
        rec, z = record(s, lambda: (cp.exp(x) + x.sum()).copy())
    assert rec.graph and audit_graph(rec.graph) == [] and z is not None


# --------------------------------------------------------------------------- memory

def test_recordings_are_freed_on_reset_and_with_the_function(cp):
    def f(x):
        return cp.tanh(cp.exp(x) * 2 + x) - x

    x = rand(cp, 2048, 2048)                      # 16 MiB per intermediate
    compiled, made = compile_spy(f)
    free_before = cp.cuda.runtime.memGetInfo()[0]
    for _ in range(3):
        compiled(x)
    cp.cuda.Device().synchronize()
    free_captured = cp.cuda.runtime.memGetInfo()[0]
    refs = [weakref.ref(r) for r in runners(made)]
    assert refs and refs[0]().state == REPLAY
    assert free_captured < free_before            # the private pool holds the recording
    made.clear()
    dynamo.reset()
    gc.collect()
    assert all(r() is None for r in refs)
    assert cp.cuda.runtime.memGetInfo()[0] > free_captured + (16 << 20)

    compiled, made = compile_spy(f)
    compiled(x)
    compiled(x)
    refs = [weakref.ref(r) for r in runners(made)]
    made.clear()
    del compiled
    gc.collect()
    assert all(r() is None for r in refs)


# --------------------------------------------------------------------------- combined mode

def test_wrap_records_another_backends_function(cp):
    from dynamo.backends.cudagraphs import blas, wrap
    from dynamo.backends.cudagraphs.backend import CaptureOps, graph_function

    from dynamo.ops import impl_table

    def f(x, w):
        return cp.maximum(x @ w, 0).sum(axis=1)

    x, w = rand(cp, 32, 64, seed=1), rand(cp, 64, 64, seed=2)
    (graph,) = dynamo.explain(f, backend="eager")(x, w).graphs
    fn = graph_function(graph, CaptureOps(impl_table("cupy")), "other")
    run = wrap(fn, graph, [x, w], {"warmup": 1, "tile": 64})
    assert isinstance(run, CudaGraphRunner) and blas is not None
    for seed in range(4):
        x = rand(cp, 32, 64, seed=seed)
        close(cp, run(x, w), (f(x, w),))
    assert run.state == REPLAY, run.reason


@pytest.mark.parametrize("model", ["gelu", "softmax", "layernorm", "mlp", "transformer"])
def test_fused_cupy_backend_with_cudagraphs(cp, model):
    import models
    fn, inputs = models.make(model, cp)
    compiled, made = compile_spy(fn, backend="cupy", cudagraphs=True)
    for seed in range(4):
        x = rand(cp, *inputs[0].shape, seed=seed)
        args = (x,) + tuple(inputs[1:])
        close(cp, compiled(*args), fn(*args), rtol=1e-4, atol=1e-5)
    recorded = runners(made)
    assert recorded, "backend='cupy' with cudagraphs=True did not call backends.cudagraphs.wrap"
    reasons = [r.reason for r in recorded if r.state != REPLAY]
    assert not reasons, (
        f"{model}: {reasons}. If this names CuPy's cuBLAS refusal, the cupy backend's plain "
        "steps call cupy.matmul: bind their `ops` to backends.cudagraphs.backend.CaptureOps"
        "(impl_table('cupy')) so matmul/dot go through backends.cudagraphs.blas")
