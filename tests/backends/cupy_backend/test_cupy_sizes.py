"""Symbolic sizes in the cupy backend: one compiled kernel serves every size.

The backend declares ``dynamic_shapes``: a graph with symbolic sizes reaches it, and
its kernels take the sizes, counts and strides that depend on symbols as parameters
(``backends/cupy_backend/sizes.py``); grids and the choice of the vectorized variant
are made by the host code at each call. These tests run the whole pipeline with the
NumPy reference executor (which evaluates each launch with the parameters the host
passed, and checks grid, alignment and the vector conditions), compare with NumPy
exactly, and compile every generated module for sm_90.
"""

import numpy as np
import pytest
from dynamo.backends.cupy_backend import compile_graph, cupy_backend
from dynamo.backends.cupy_backend.compile_check import check_kernels, compiler
from dynamo.backends.cupy_backend.layout import coalesce, contiguous_strides
from dynamo.backends.cupy_backend.sizes import RuntimeStride, Size, dim, mul, prod, symbol_names
from harness import rand, same
from test_cupy_reference import PROGRAMS, STRIDED, gelu, layernorm, softmax

import dynamo
from dynamo.symbolic import Sym, SymInt

COMPILED = []   # every CompiledGraph made here; their CUDA is compiled by the last test


def backend(graph, example_inputs, options=None):
    """``backend="cupy"`` with the NumPy reference executor in place of the GPU."""
    compiled = compile_graph(graph, example_inputs, options, device="reference")
    COMPILED.append(compiled)
    return compiled.fn


backend.layout_guards = cupy_backend.layout_guards
backend.dynamic_shapes = cupy_backend.dynamic_shapes


def compiled_by(fn, calls, dynamic=None):
    """Run ``fn`` compiled on each argument tuple; each result must equal NumPy's
    exactly. Returns the CompiledGraphs made for these calls."""
    start = len(COMPILED)
    c = dynamo.compile(fn, backend=backend, dynamic=dynamic)
    for args in calls:
        with np.errstate(all="ignore"):
            same(fn(*args), c(*args))
    return COMPILED[start:]


def launches(compiled) -> dict:
    """``{kernel name: {variant: calls}}`` of one CompiledGraph."""
    out: dict = {}
    for name, launch in compiled.device.kernels.items():
        out.setdefault(name[:-2], {})[name[-1]] = launch.calls
    return out


def decoder_block(x, ln_g, ln_b, w_qkv, w_o, w_1, w_2):
    """One pre-norm transformer block over a sequence that grows by one token."""
    T, C = x.shape
    h = layernorm(x, ln_g, ln_b)
    qkv = h @ w_qkv
    q, k, v = qkv[:, :C], qkv[:, C:2 * C], qkv[:, 2 * C:]
    i = np.arange(T)
    mask = np.where(i[:, None] >= i[None, :], 0.0, -1e9).astype(x.dtype)
    att = softmax(q @ k.T * 0.25 + mask)
    x = x + (att @ v) @ w_o
    return x + gelu(layernorm(x, ln_g, ln_b) @ w_1) @ w_2


def test_the_backend_takes_symbolic_graphs():
    assert cupy_backend.dynamic_shapes is True
    assert cupy_backend.layout_guards == "dynamic-contiguity"


def test_decode_loop_compiles_at_most_twice():
    C = 16
    weights = [rand(C, seed=1), rand(C, seed=2), rand(C, 3 * C, seed=3), rand(C, C, seed=4),
               rand(C, 4 * C, seed=5), rand(4 * C, C, seed=6)]
    made = compiled_by(decoder_block, [(rand(T, C, seed=T), *weights) for T in range(5, 41)])
    assert len(made) == 2                       # static at 5, symbolic from 6 on
    symbolic = made[-1]
    assert symbolic.device.mismatches == []
    kinds = [k.kind for k in symbolic.plan.kernels]
    assert kinds == ["row", "row", "row", "pointwise", "pointwise"], symbolic.plan
    assert all(k.symbolic for k in symbolic.plan.kernels)
    # every kernel of the symbolic entry ran at each of the 35 sizes, none fell back
    counts = launches(symbolic)
    assert all(sum(v.values()) == 35 for v in counts.values()), counts
    # softmax over (T, T): the generic row kernel; its 16-byte variant when T % 4 == 0
    att = symbolic.codes[1]
    assert att.launches["s"].per_thread == 0 and not att.launches["s"].cached
    assert counts[att.name] == {"s": 26, "v": 9}      # T = 8, 12, ..., 40


def test_same_cuda_for_every_size():
    """Traced at two sizes, a symbolic graph gives the same module (the kernel cache
    key): nothing in the CUDA text depends on the size seen while tracing."""
    programs = [(gelu, lambda n: (rand(n, 24),)),
                (softmax, lambda n: (rand(n, n + 3),)),
                (layernorm, lambda n: (rand(n, 40), rand(40, seed=1), rand(40, seed=2)))]
    for fn, args in programs:
        dynamo.reset()
        static = [compiled_by(fn, [args(n)], dynamic=False)[0].cuda_source for n in (7, 33)]
        # the element count of GELU and softmax's row length are literals in static
        # kernels; a static row kernel over (n, 40) does not depend on n at all
        assert (static[0] == static[1]) == (fn is layernorm)
        sources = []
        for n in (7, 33):
            dynamo.reset()
            (compiled,) = compiled_by(fn, [args(n)], dynamic=True)
            assert all(k.symbolic for k in compiled.plan.kernels)
            sources.append((compiled.cuda_source, [c.name for c in compiled.codes]))
        assert sources[0] == sources[1], fn.__name__


def test_row_length_and_row_count_symbolic():
    shapes = [(3, 5), (4, 8), (6, 9), (2, 12), (5, 2), (9, 64)]
    xs = [rand(*s, seed=i) for i, s in enumerate(shapes)]
    made = compiled_by(softmax, [(x,) for x in xs], dynamic=True)
    assert len(made) == 1                        # contiguous inputs: guarded by flags only
    (counts,) = launches(made[0]).values()
    assert counts == {"s": 3, "v": 3}            # 16-byte variant when cols % 4 == 0
    stats = lambda x: (x.var(-1, ddof=1), x.mean(-1), x.std(-1, keepdims=True),  # noqa: E731
                       x.max(-1))
    assert len(compiled_by(stats, [(x,) for x in xs], dynamic=True)) == 1
    ln = [(x, rand(x.shape[1], seed=1), rand(x.shape[1], seed=2)) for x in xs]
    assert len(compiled_by(layernorm, ln, dynamic=True)) == 1


def test_pointwise_with_broadcast_and_symbolic_strides():
    def f(x, col, row):
        return np.tanh(x * row + col) * 2, (x > 0).astype(np.float64) - x

    calls = [(rand(r, c, seed=r), rand(r, 1, seed=1), rand(c, seed=2))
             for r, c in [(3, 8), (5, 7), (4, 12), (2, 3)]]
    (made,) = compiled_by(f, calls, dynamic=True)
    assert all(k.symbolic for k in made.plan.kernels)
    assert made.device.mismatches == []


def test_views_of_symbolic_arrays_pass_their_strides():
    """A view's strides inside a symbolic graph are read from the array at each call."""
    programs = [lambda x: np.exp(x[:, ::2]) + x[:, 1::2],
                lambda x: x.T * 2 + 1,
                lambda x: x[::-1] * x,
                lambda x: softmax(x[:, 1:])]
    for fn in programs:     # x[:, ::2] pins the row length (a step slice divides it)
        dynamo.reset()
        calls = [(rand(r, c, seed=c),) for r, c in [(4, 6), (5, 10), (7, 4)]]
        made = compiled_by(fn, calls, dynamic=True)
        assert all(m.device.mismatches == [] for m in made)
        assert any(isinstance(s, RuntimeStride) for k in made[-1].plan.kernels
                   for ld in k.loads for s in ld.strides)


def test_non_contiguous_input_keeps_its_strides():
    x = rand(20, 30)
    calls = [(x[:n, ::3],) for n in (5, 6, 7)]
    made = compiled_by(lambda v: np.exp(v) * 2, calls)
    assert made[-1].device.mismatches == []


@pytest.mark.filterwarnings("ignore:Degrees of freedom")
def test_sizes_that_reach_zero_at_run_time():
    """A symbolic dimension such as ``s0 - 2`` is 0 at ``s0 == 2`` (where the slice rule
    does not already give that size its own entry): a row kernel with no row or no
    column runs NumPy's reduction instead (an empty max raises as in NumPy)."""
    rows = lambda x: x[2:].max(-1) + 1  # noqa: E731
    cols = lambda x: (x[:, 2:].sum(-1), x[:, 1:].var(-1, ddof=1))  # noqa: E731
    for fn in (rows, cols):
        dynamo.reset()
        made = compiled_by(fn, [(rand(5, 6),), (rand(2, 2),), (rand(3, 4),)], dynamic=True)
        assert any(k.symbolic and k.kind == "row" for m in made for k in m.plan.kernels)
    dynamo.reset()
    empty_max = dynamo.compile(lambda x: x[:, 2:].max(-1), backend=backend, dynamic=True)
    empty_max(rand(4, 5))
    with pytest.raises(ValueError, match="zero-size array"):
        empty_max(rand(4, 2))


def test_layout_of_a_library_result_is_checked_at_run_time():
    """The plan predicts a matmul result is contiguous; the host checks the strides
    against the sizes of this call, and runs the ops as plain calls on a mismatch."""
    def f(x, w):
        return np.exp(x @ w) + 1

    (made,) = compiled_by(f, [(rand(5, 8), rand(8, 6)), (rand(7, 8), rand(8, 6))],
                          dynamic=True)
    assert "matmul.strides" in made.host_source
    ops = made.device.ops
    real = ops.matmul
    try:
        ops.matmul = lambda a, b: np.asfortranarray(real(a, b))
        x, w = rand(9, 8), rand(8, 6)
        assert [p.name for p in made.plan.graph.placeholders] == ["x", "w"]
        same(made.fn(x, w), (f(x, w),))
    finally:
        ops.matmul = real
    assert made.device.mismatches == [made.codes[0].name]


@pytest.mark.parametrize("name,fn,args", PROGRAMS + STRIDED,
                         ids=[p[0] for p in PROGRAMS + STRIDED])
def test_corpus_with_every_size_symbolic(name, fn, args):
    """The reference corpus with ``dynamic=True``: every dimension of 2 or more is a
    symbol, so the kernels get their sizes and strides from the host code. Programs of
    one contiguous array run again at other sizes (its values repeated), where the
    program itself accepts them (``x.reshape(8, 4)`` does not)."""
    calls = [args]
    if len(args) == 1 and isinstance(args[0], np.ndarray) and args[0].flags.c_contiguous:
        for grow in (3, 8):
            shape = [d + grow if d >= 2 else d for d in args[0].shape]
            try:
                with np.errstate(all="ignore"):
                    fn(np.resize(args[0], shape))
            except ValueError:
                continue
            calls.append((np.resize(args[0], shape),))
    made = compiled_by(fn, calls, dynamic=True)
    assert all(m.device.mismatches == [] for m in made)


def test_sizes_arithmetic():
    T = SymInt(6, Sym.symbol("s0", "x.shape[0]"))
    n = mul(dim(T), 8)
    assert (n.hint, n.python({"s0": "x.shape[0]"})) == (48, "8 * (x.shape[0])")
    assert contiguous_strides((dim(T), 4, 2)) == (8, 2, 1)
    assert contiguous_strides((4, dim(T))) == (dim(T), 1)
    # contiguous (T, C) coalesces into one dimension of T*C elements, a broadcast
    # column does not
    C = dim(SymInt(5, Sym.symbol("s1", "x.shape[1]")))
    shape, acc = coalesce((dim(T), C), [(C, 1), contiguous_strides((dim(T), C))])
    assert shape == (prod((dim(T), C)),) and acc == [(1,), (1,)]
    shape, acc = coalesce((dim(T), C), [(1, 0), contiguous_strides((dim(T), C))])
    assert shape == (dim(T), C)
    assert dim(T).positive and not Size(1, (T.sym - Sym((), 2),), 4).positive


def test_symbol_names_come_from_placeholders():
    seen = []

    def grab(graph, example_inputs):
        seen.append(symbol_names(graph))
        return backend(graph, example_inputs)

    grab.layout_guards, grab.dynamic_shapes = backend.layout_guards, True
    c = dynamo.compile(lambda x: np.arange(x.shape[0]) + x[:, 0], backend=grab, dynamic=True)
    c(rand(5, 3))
    assert seen == [{"s0": "s0", "s1": "x.shape[1]"}]


def test_compile_graph_outside_a_trace():
    """``compile_graph`` on a symbolic graph needs no trace (another backend, such as
    cudagraphs, may call it later), and what it makes serves other sizes."""
    graphs = []

    def keep(graph, example_inputs):
        graphs.append((graph, example_inputs))
        return backend(graph, example_inputs)

    keep.layout_guards, keep.dynamic_shapes = backend.layout_guards, True
    dynamo.compile(layernorm, backend=keep, dynamic=True)(rand(6, 16), rand(16), rand(16))
    graph, example = graphs[-1]
    compiled = compile_graph(graph, example, device="reference")
    x, g, b = rand(9, 12), rand(12, seed=1), rand(12, seed=2)
    same(compiled.fn(x, g, b), (layernorm(x, g, b),))


@pytest.mark.skipif(compiler() is None, reason="needs NVRTC (CuPy) or nvcc to compile CUDA")
def test_every_symbolic_module_compiles_for_sm90():
    """Last in this file: the CUDA of every plan above compiles."""
    codes = [code for c in COMPILED for code in c.codes]
    assert any(code.kernel.symbolic for code in codes)
    check_kernels(codes)
