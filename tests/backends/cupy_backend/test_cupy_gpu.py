"""The cupy backend's real kernels against CuPy eager, on the GPU (marked ``gpu``).

Each test runs a program eagerly on CuPy arrays and compiled with ``backend="cupy"``
and compares dtypes, shapes and values: float32 within rtol 1e-5 for elementwise
programs and 1e-4 for reductions, float64 within 1e-12 / 1e-10, integers and
booleans exactly. Programs cover the CPU corpus (test_cupy_reference.PROGRAMS), random
shapes around the vector width and the block size, broadcasting, dtypes, views with
other strides (transposed, sliced, reversed, broadcast, misaligned), mutation, a
CUDA-graph capture of the compiled function (it must not synchronize), and the
kernel cache. Run them with ``scripts/gpu_check.sh`` on the GPU machine.

Every test that is not about the device itself also runs on the CPU (``[reference]``):
NumPy arrays, the same plans and launch shapes, kernels evaluated from their IR, and
the CUDA of every plan compiled for sm_90 at the end; so the test code and the launch
arithmetic at these sizes are checked before any GPU run.
"""

import numpy as np
import pytest
from dynamo.backends.cupy_backend import compile_graph, cupy_backend
from dynamo.backends.cupy_backend.compile_check import check_kernels, compiler
from test_cupy_reference import PROGRAMS, gelu, layernorm, softmax

import dynamo

SOURCES = []    # KernelCode of the [reference] runs, compiled by the last test


class Env:
    """The array library and backend one run of a test uses.

    ``backend`` records every graph it compiles and every exception: dynamo falls back
    to eager when a backend raises, which would make a broken compile pass a test.
    """

    def __init__(self, kind: str):
        self.kind = kind
        self.compiled: list = []
        self.errors: list = []
        if kind == "gpu":
            self.xp = pytest.importorskip("cupy")
            self.ndarray, self.asnumpy = self.xp.ndarray, self.xp.asnumpy
        else:
            self.xp, self.ndarray, self.asnumpy = np, np.ndarray, np.asarray
        device = "cupy" if kind == "gpu" else "reference"

        def backend(graph, example_inputs, options=None):
            try:
                if device == "cupy" and (options or {}).get("cudagraphs"):
                    return cupy_backend(graph, example_inputs, options)
                compiled = compile_graph(graph, example_inputs, options, device=device)
            except Exception as e:
                self.errors.append(e)
                raise
            self.compiled.append(compiled)
            if device == "reference":
                SOURCES.extend(compiled.codes)
            return compiled.fn

        backend.layout_guards = True
        self.backend = backend

    def check_compiled(self, start: int) -> None:
        assert not self.errors, f"the backend raised: {self.errors!r}"
        assert len(self.compiled) > start, "no graph reached the backend"

REDUCING = ("sum", "mean", "max", "min", "var", "std", "softmax", "layernorm", "logsumexp",
            "row", "matmul", "full_reduction", "norm")


@pytest.fixture(params=["reference", pytest.param("gpu", marks=pytest.mark.gpu)])
def cp(request):
    return Env(request.param)


@pytest.fixture
def gpu():
    return Env("gpu")


def tolerance(dtype, reducing: bool):
    if dtype == np.float64:
        return (1e-10, 1e-12) if reducing else (1e-12, 1e-14)
    if dtype == np.float32:
        return (1e-4, 1e-5) if reducing else (1e-5, 1e-6)
    return 0.0, 0.0


def same(cp, expected, got, reducing: bool, label: str = "result"):
    if isinstance(expected, (tuple, list)):
        assert type(got) is type(expected) and len(got) == len(expected), label
        for i, (e, g) in enumerate(zip(expected, got)):
            same(cp, e, g, reducing, f"{label}[{i}]")
        return
    assert type(got) is type(expected), f"{label}: {type(got)} != {type(expected)}"
    if not isinstance(expected, cp.ndarray):
        assert got == expected, label
        return
    assert got.dtype == expected.dtype, f"{label}: dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape, f"{label}: shape {got.shape} != {expected.shape}"
    rtol, atol = tolerance(expected.dtype, reducing)
    e, g = cp.asnumpy(expected), cp.asnumpy(got)
    if reducing and rtol and e.size:
        # a sum's rounding error scales with its terms, not with its result: an element
        # that cancels to -0.14 between terms near 100 differs by ~2 ulp of 100 (3e-5)
        # when the sum runs in another order. The result's largest value stands in for
        # the terms' size.
        atol *= max(1.0, float(np.nanmax(np.abs(np.where(np.isfinite(e), e, 0)))))
    if rtol:
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=label)
    else:
        np.testing.assert_array_equal(g, e, err_msg=label)


def compare(cp, fn, *args, reducing=None, options=None):
    """fn eager on CuPy vs compiled; returns the compiled function."""
    if reducing is None:
        name = getattr(fn, "__name__", "")
        reducing = any(r in name for r in REDUCING)
    expected = fn(*args)
    start = len(cp.compiled)
    compiled = dynamo.compile(fn, backend=cp.backend, options=options)
    for _ in range(2):                      # traced call, then the cached entry
        same(cp, expected, compiled(*args), reducing)
    cp.check_compiled(start)
    return compiled


def to_device(cp, args):
    return tuple(cp.xp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_corpus_on_the_gpu(cp, name, fn, args):
    reducing = any(r in name for r in REDUCING)
    with np.errstate(all="ignore"):
        compare(cp, fn, *to_device(cp, args), reducing=reducing)


COLS = [1, 2, 3, 5, 31, 32, 33, 100, 127, 128, 1000, 4096, 5000, 40000]


@pytest.mark.parametrize("cols", COLS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_row_kernels_at_many_widths(cp, cols, dtype):
    rng = np.random.default_rng(cols)
    rows = 64 if cols < 40000 else 70
    x = cp.xp.asarray(rng.standard_normal((rows, cols)).astype(dtype) * 3)
    g = cp.xp.asarray(rng.standard_normal(cols).astype(dtype))
    b = cp.xp.asarray(rng.standard_normal(cols).astype(dtype))
    compare(cp, softmax, x, reducing=True)
    compare(cp, layernorm, x, g, b, reducing=True)
    compare(cp, lambda x: (x.sum(-1), x.max(-1), x.var(-1, keepdims=True)), x, reducing=True)


@pytest.mark.parametrize("n", [1, 3, 4, 5, 1023, 1024, 1025, (1 << 20) + 3])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int8", "uint8", "int64"])
def test_pointwise_sizes_and_dtypes(cp, n, dtype):
    rng = np.random.default_rng(n)
    x = cp.xp.asarray((rng.standard_normal(n) * 50).astype(dtype))
    if np.dtype(dtype).kind == "f":
        compare(cp, gelu, x)
        compare(cp, lambda x: np.where(x > 0, np.sqrt(np.abs(x)), x * 0.5) - x ** 2, x)
    else:
        compare(cp, lambda x: (x * 3 + 7, -x, np.abs(x), x > 2, (x & 5) | 2), x)


def test_random_broadcasting(cp):
    rng = np.random.default_rng(0)
    for trial in range(12):
        r, c = int(rng.integers(1, 40)), int(rng.integers(1, 300))
        shapes = [(r, c), (c,), (r, 1), (1, c), ()]
        a = cp.xp.asarray(rng.standard_normal(shapes[trial % 5]).astype(np.float32))
        b = cp.xp.asarray(rng.standard_normal(shapes[(trial + 2) % 5]).astype(np.float32))
        x = cp.xp.asarray(rng.standard_normal((r, c)).astype(np.float32))
        compare(cp, lambda x, a, b: np.tanh(x * a + b) - np.maximum(a, b), x, a, b)
        compare(cp, lambda x, a: softmax(x + a), x, a, reducing=True)


def test_mixed_dtypes(cp):
    rng = np.random.default_rng(1)
    f = cp.xp.asarray(rng.standard_normal((33, 65)).astype(np.float32))
    d = cp.xp.asarray(rng.standard_normal((33, 65)))
    i = cp.xp.asarray(rng.integers(-9, 9, (33, 65)).astype(np.int32))
    bo = cp.xp.asarray(rng.random((33, 65)) > 0.5)
    compare(cp, lambda f, d, i, b: (f + d, f * i, i / 3, b * f, (f > 0) & b,
                                    (f * 10).astype(np.int32) + i), f, d, i, bo)


def test_strided_views(cp):
    rng = np.random.default_rng(2)
    base = cp.xp.asarray(rng.standard_normal((256, 300)).astype(np.float32))
    row = cp.xp.asarray(rng.standard_normal(300).astype(np.float32))
    views = [base.T, base[:, ::3], base[::-1], base[10:200, 7:290], base[::2, ::2],
             cp.xp.broadcast_to(row, (256, 300)), base.reshape(-1)[1:].reshape(-1, 1)[:, 0]]
    for v in views:
        compare(cp, lambda x: np.exp(x) * 2 - x, v)
        if v.ndim == 2:
            compare(cp, softmax, v, reducing=True)


def test_misaligned_input_uses_scalar_variant(cp):
    x = cp.xp.arange(1 << 16, dtype=cp.xp.float32)[1:]      # 4 bytes past the allocation
    fn = compare(cp, lambda x: x * 0.5 + 1, x)
    assert fn is not None


def test_mutation_order(cp):
    def f(x, y):
        a = x * 2
        x[0] = 5.0
        b = x + a
        y *= 3
        return a, b, y + 1

    rng = np.random.default_rng(3)
    x0, y0 = (rng.standard_normal((4, 8)).astype(np.float32) for _ in range(2))
    xe, ye, xc, yc = (cp.xp.array(a) for a in (x0, y0, x0, y0))     # four copies
    expected = f(xe, ye)
    start = len(cp.compiled)
    got = dynamo.compile(f, backend=cp.backend)(xc, yc)
    cp.check_compiled(start)
    same(cp, expected, got, False)
    same(cp, (xe, ye), (xc, yc), False, "arguments after the call")


def test_matmul_epilogue(cp):
    rng = np.random.default_rng(4)
    x = cp.xp.asarray(rng.standard_normal((64, 128)).astype(np.float32))
    w = cp.xp.asarray(rng.standard_normal((128, 96)).astype(np.float32))
    compare(cp, lambda x, w: np.maximum(x @ w + 1.0, 0), x, w, reducing=True)
    compare(cp, lambda x, w: softmax(x @ w), x, w, reducing=True)


@pytest.mark.gpu
def test_backend_by_name(gpu):
    """``backend="cupy"`` through the registry: fused kernels, and the plan is attached."""
    cp = gpu.xp
    x = cp.asarray(np.random.default_rng(9).standard_normal((256, 512)).astype(np.float32))
    w = cp.asarray(np.random.default_rng(10).standard_normal((512, 128)).astype(np.float32))
    made = []

    def spy(graph, example_inputs, options=None):
        fn = cupy_backend(graph, example_inputs, options)
        made.append(fn)
        return fn

    spy.layout_guards = True
    f = lambda x, w: softmax(gelu(x @ w) + 1.0)  # noqa: E731
    expected = f(x, w)
    got = dynamo.compile(f, backend="cupy")(x, w)
    same(gpu, expected, got, True)
    same(gpu, expected, dynamo.compile(f, backend=spy)(x, w), True)
    (fn,) = made
    kinds = [s.kind for s in fn.compiled.plan.steps]
    assert kinds == ["call", "kernel"] and "extern \"C\"" in fn.compiled.cuda_source


@pytest.mark.gpu
def test_on_a_side_stream(gpu):
    cp = gpu
    x = cp.xp.asarray(np.random.default_rng(5).standard_normal((128, 256)).astype(np.float32))
    stream = cp.xp.cuda.Stream(non_blocking=True)
    fn = dynamo.compile(softmax, backend=cp.backend)
    fn(x)
    with stream:
        got = fn(x)
        expected = softmax(x)
    stream.synchronize()
    same(cp, expected, got, True)


@pytest.mark.gpu
def test_compiled_graph_can_be_captured(gpu):
    cp = gpu
    """The compiled function only enqueues GPU work: a stream capture of it succeeds."""
    x = cp.xp.asarray(np.random.default_rng(6).standard_normal((512, 1024)).astype(np.float32))
    fn = dynamo.compile(lambda x: softmax(gelu(x)), backend=cp.backend)
    expected = softmax(gelu(x))
    stream = cp.xp.cuda.Stream(non_blocking=True)
    with stream:
        fn(x)                         # warm: compile, and pool blocks for the outputs
        stream.synchronize()
        stream.begin_capture()
        try:
            (out,) = (fn(x),)
        finally:
            graph = stream.end_capture()
        graph.launch(stream)
        stream.synchronize()
    same(cp, expected, out, True)


@pytest.mark.gpu
def test_kernel_cache_hits_after_reset(gpu):
    cp = gpu
    from dynamo.backends.cupy_backend import kernel_cache
    x = cp.xp.ones((64, 257), cp.xp.float32)
    compare(cp, softmax, x, reducing=True)
    hits = kernel_cache.hits
    dynamo.reset()
    compare(cp, softmax, x, reducing=True)
    assert kernel_cache.hits > hits


def test_decode_loop_with_dynamic_sizes(cp):
    """Sequence lengths 5..40 through a transformer block with symbolic sizes: two
    compiles (static at 5, symbolic from 6 on), and on the GPU no module is compiled
    or loaded after the symbolic one: its kernels take every length as parameters."""
    import types

    from dynamo.backends.cupy_backend import kernel_cache
    from test_cupy_sizes import decoder_block as numpy_block
    # the same block with its np.* calls on the inputs' library (its mask comes from
    # np.arange, and CuPy refuses to add a NumPy array to a CuPy one)
    decoder_block = types.FunctionType(numpy_block.__code__,
                                       {**numpy_block.__globals__, "np": cp.xp})
    cp.backend.layout_guards = cupy_backend.layout_guards
    cp.backend.dynamic_shapes = cupy_backend.dynamic_shapes
    rng = np.random.default_rng(11)
    shapes = [(16,), (16,), (16, 48), (16, 16), (16, 64), (64, 16)]
    weights = to_device(cp, [rng.standard_normal(s).astype(np.float32) for s in shapes])
    compiled = dynamo.compile(decoder_block, backend=cp.backend)
    modules = None
    for T in range(5, 41):
        x = cp.xp.asarray(rng.standard_normal((T, 16)).astype(np.float32))
        same(cp, decoder_block(x, *weights), compiled(x, *weights), reducing=True)
        if T == 6:
            modules = (len(kernel_cache), kernel_cache.misses)
    cp.check_compiled(0)
    assert len(cp.compiled) == 2
    assert all(k.symbolic for k in cp.compiled[-1].plan.kernels)
    if cp.kind == "gpu":
        assert (len(kernel_cache), kernel_cache.misses) == modules


def test_tuning_options_give_the_same_results(cp):
    x = cp.xp.asarray(np.random.default_rng(7).standard_normal(100_003).astype(np.float32))
    for options in ({"threads": 128, "ilp": 4}, {"threads": 1024, "ilp": 1}):
        dynamo.reset()
        compare(cp, gelu, x, options=options)
    y = cp.xp.asarray(np.random.default_rng(8).standard_normal((300, 3000)).astype(np.float32))
    for options in ({"row_elems": 4}, {"row_cache": 8}, {"row_elems": 64}):
        dynamo.reset()
        compare(cp, softmax, y, reducing=True, options=options)


@pytest.mark.skipif(compiler() is None, reason="needs NVRTC (CuPy) or nvcc to compile CUDA")
def test_reference_runs_generated_cuda_that_compiles():
    """Last in the file: the CUDA of every plan the [reference] runs made compiles."""
    if not SOURCES:
        pytest.skip("no [reference] run in this pytest run (-m gpu)")
    check_kernels(SOURCES)


@pytest.mark.gpu
def test_auto_gives_cupy_graphs_to_the_cupy_backend(gpu, caplog):
    """backend="auto" compiles a graph on CuPy arrays with the cupy backend (since its
    GPU checks passed); a transposed view of the same shape is a new entry through the
    layout guards auto takes from the cupy backend, and equals eager too."""
    import logging
    x = gpu.xp.asarray(np.random.default_rng(5).standard_normal((64, 64)).astype(np.float32))
    f = dynamo.compile(softmax, backend="auto")
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        same(gpu, softmax(x), f(x), reducing=True)
        same(gpu, softmax(x.T), f(x.T), reducing=True)
    picked = [r.getMessage() for r in caplog.records if "backend auto" in r.getMessage()]
    assert picked and all(m.endswith("-> 'cupy'") for m in picked), picked
