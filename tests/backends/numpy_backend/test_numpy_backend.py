"""The ``numpy`` backend against eager NumPy: values, dtypes, views, writes, errors, threads.

``BLOCKED`` options push tiny arrays through the block-wise, threaded path (blocks
of a few hundred bytes, so shapes rarely divide the block size); the default
options take the plain path at these sizes. Tolerances (docs/numpy_backend.md):
elementwise results are bit-identical without strength reduction; with it, and for
reductions over every axis, float32 results agree to ``rtol=1e-5`` (float64 1e-12).
"""

import threading

import models
import numpy as np
import pytest
from dynamo.backends.common import python_function
from dynamo.backends.fusion import SINGLE
from dynamo.backends.numpy_backend import Options, numpy_backend
from harness import check, rand

import dynamo
from dynamo.graph import Graph
from dynamo.ops import ArrayMeta

BLOCKED = {"min_blocked_elements": 0, "min_threaded_elements": 0, "cache_bytes": 2048,
        "min_block_elements": 1,
           "threads": 2, "rerun_on_error": False}
F32 = {"rtol": 1e-5, "atol": 1e-6}
F64 = {"rtol": 1e-12, "atol": 1e-14}

X = rand(37, 23)
V = rand(23, seed=1)
COL = rand(37, 1, seed=2)
F = rand(37, 23, dtype=np.float64, seed=3)
I32 = rand(37, 23, dtype=np.int32, seed=4)
B = rand(37, 23, dtype=np.bool_, seed=5)
POS = rand(37, 23, low=0.1, high=2.0, seed=6)


def traced(fn, *args) -> Graph:
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    dynamo.compile(fn, backend=capture)(*args)
    assert len(graphs) == 1
    return graphs[0]


def compiled_graph(fn, *args, **options):
    """The numpy backend's callable for ``fn``'s graph (to look at its plan and source)."""
    return numpy_backend(traced(fn, *args), args, options=options)


def blockwise(fn, *args, **options) -> list:
    """The block plans of ``fn``'s groups (asserting at least one group is block-wise)."""
    compiled = compiled_graph(fn, *args, **{**BLOCKED, **options})
    plans = [p for _, p in compiled.__dynamo_groups__ if p is not None]
    assert plans, compiled.__dynamo_source__
    return plans


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


PROGRAMS = [
    ("gelu", models.gelu, (X,), F32),
    ("softmax", softmax, (X,), F32),
    ("layernorm", models.layernorm, (X, V, V), F32),
    ("layernorm_f64", models.layernorm, (F, V.astype(np.float64), V), F64),
    ("broadcast_col_row", lambda x, c, v: (x * c + v, np.exp(c) * 2, v - 1), (X, COL, V), {}),
    ("numpy_scalar", lambda x: x * np.float32(3) + x.sum(), (X,), F32),
    # (float sums, means and products over every axis take the plain path, eager's bits:
    # test_numpy_backend_full_sums.py; these combine exactly over blocks)
    ("full_reductions", lambda x: (x.max(), (x * x).max(keepdims=True), x.min(keepdims=True),
                                   (x > 0.5).any(), ((x * 100).astype(np.int32)).sum()),
     (X,), {}),
    ("row_reductions", lambda x: (x.argmax(axis=-1), x.argmin(axis=1), np.ptp(x, axis=-1),
                                  x.var(axis=-1, ddof=1), x.std(axis=1, keepdims=True)),
     (X,), F32),
    ("trailing_axes", lambda x: x.reshape(37, 23, 1) - x.reshape(37, 23, 1).sum(
        axis=(1, 2), keepdims=True), (X,), F32),
    ("bool", lambda b, x: ((b & (x > 0)).any(), b.all(), b.sum(), ~b | (x < 0.5)), (B, X), {}),
    ("int", lambda a: (a * 3 + 1, a // 3, a % 5, (a & 6) ^ 1, a.sum(), np.sum(a, dtype=np.int8),
                       a.max(axis=-1), a ** 3), (I32,), {}),
    ("float64", lambda x: np.sqrt(np.abs(x)) * np.tanh(x) / 4 + x ** 3, (F,), F64),
    ("complex", lambda x: np.exp(1j * x) * (x + 2j), (X,), F32),
    ("where_clip_astype", lambda x: (np.where(x > 0, x, 0.1 * x), np.clip(x, -0.5, 0.5),
                                     (x * 10).astype(np.int16), np.round(x, 2)), (X,), {}),
    ("powers", lambda x: (x ** 2, x ** 0.5, x ** 3, x ** 4, x ** 1, x ** -1, x / 4), (POS,), F32),
    ("float16", lambda x: (x.astype(np.float16) * 2 + 1, x.astype(np.float16).max()), (X,), {}),
]


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("name, fn, args, tol", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_blocked_equals_eager(name, fn, args, tol, threads):
    blockwise(fn, *args, threads=threads)
    check(fn, *args, backend="numpy", graphs=1, breaks=0,
          compile_kwargs={"options": {**BLOCKED, "threads": threads}}, **tol)


@pytest.mark.parametrize("name, fn, args, tol", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_default_options_equal_eager(name, fn, args, tol):
    check(fn, *args, backend="numpy", **tol)


@pytest.mark.parametrize("name, fn, args, tol", [p for p in PROGRAMS if p[0] in (
    "gelu", "softmax", "layernorm", "broadcast_col_row", "int", "complex", "where_clip_astype",
    "row_reductions", "bool")], ids=lambda p: p if isinstance(p, str) else "")
def test_bit_identical_without_strength_reduction(name, fn, args, tol):
    # Blocks run the same ufunc loops on the same values; rows reduce exactly as eager.
    options = {**BLOCKED, "skip_passes": {"strength_reduce"}}
    blockwise(fn, *args, **options)
    check(fn, *args, backend="numpy", compile_kwargs={"options": options})


@pytest.mark.parametrize("shape", [(0,), (0, 5), (5, 0), (1,), (1, 1), (7, 1), (1, 9), (3, 4, 5)])
@pytest.mark.parametrize("fn", [models.gelu, lambda x: x * 2 + x.sum(), softmax],
                         ids=["gelu", "sum", "softmax"])
def test_shapes(shape, fn):
    x = rand(*shape, seed=7)
    check(fn, x, backend="numpy", compile_kwargs={"options": BLOCKED}, **F32)


@pytest.mark.parametrize("name", ["gelu", "softmax", "layernorm", "mlp", "transformer"])
def test_model_suite(name):
    fn, inputs = models.make(name, np)
    check(fn, *inputs, backend="numpy", compile_kwargs={"options": BLOCKED}, **F32)


def test_block_axis_inside_a_row():
    # (3, 5, 40000): rows too long for a block, so blocks cut the last axis
    x = rand(3, 5, 4000, seed=8)
    (plan,) = blockwise(models.gelu, x, cache_bytes=16384, min_block_elements=1)
    assert plan.axis == 2 and plan.nblocks > 15
    check(models.gelu, x, backend="numpy", compile_kwargs={"options": {**BLOCKED,
                                                                       "cache_bytes": 16384}},
          **F32)


def test_rows_stay_whole():
    (plan,) = blockwise(softmax, rand(4, 3000, seed=9))
    assert plan.axis == 0 and plan.block == 1   # a row is larger than the cache budget


# --------------------------------------------------------------------------- aliasing and writes

def test_returned_view_of_an_input_stays_a_view():
    def f(x):
        return x[1:], x * 2, x

    x = X.copy()
    a, b, c = dynamo.compile(f, backend="numpy", options=BLOCKED)(x)
    assert a.base is x and c is x
    check(f, X, backend="numpy", compile_kwargs={"options": BLOCKED})


def test_one_value_returned_twice_is_one_array():
    def f(x):
        y = x * 2 + 1
        return y, y

    a, b = dynamo.compile(f, backend="numpy", options=BLOCKED)(X)
    assert a is b


def test_writes_happen_in_program_order():
    def f(x, o):
        y = x * 2
        x[0] = 5.0
        np.multiply(x, 3, out=o)
        z = o + y
        x **= 2
        return z, x + 1

    check(f, X, np.zeros_like(X), backend="numpy", compile_kwargs={"options": BLOCKED})


def test_non_contiguous_inputs_keep_eager_layout():
    def f(x):
        return np.exp(x) * 2 + 1

    xt = rand(23, 37, seed=10).T
    got = dynamo.compile(f, backend="numpy", options=BLOCKED)(xt)
    want = f(xt)
    assert got.strides == want.strides
    np.testing.assert_array_equal(got, want)


def test_concurrent_calls_from_two_threads():
    fn = dynamo.compile(softmax, backend="numpy", options=BLOCKED)
    inputs = [rand(37, 23, seed=s) for s in range(8)]
    fn(inputs[0])
    results = {}

    def work(i):
        for _ in range(5):
            results[i] = fn(inputs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, x in enumerate(inputs):
        np.testing.assert_allclose(results[i], softmax(x), **F32)


# --------------------------------------------------------------------------- errors

def test_floating_point_errors_are_eagers():
    def f(x):
        return np.log(x) * 2

    x = X.copy()
    x[30, 5] = 0.0
    with np.errstate(divide="raise"):
        check(f, x, backend="numpy", compile_kwargs={"options": {**BLOCKED,
                                                                 "rerun_on_error": True}})


def test_errors_in_pool_threads_reach_the_caller():
    def f(x):
        return np.log(x) * 2

    x = np.abs(X) + 1
    x[-1, -1] = 0.0
    fn = dynamo.compile(f, backend="numpy", options=BLOCKED)
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        fn(x)


def test_warnings_still_warn():
    def f(x):
        return np.log(x - 2) + 1

    with pytest.warns(RuntimeWarning, match="invalid value"):
        dynamo.compile(f, backend="numpy", options=BLOCKED)(X)


def test_bad_options_say_what_is_wrong():
    with pytest.raises(ValueError, match=r"unknown option\(s\).*'thread'"):
        Options.parse({"thread": 2})
    with pytest.raises(ValueError, match="'threads'.*>= 1"):
        Options.parse({"threads": 0})
    with pytest.raises(ValueError, match="cache_fraction"):
        Options.parse({"cache_fraction": 2})
    with pytest.raises(ValueError, match=r"unknown pass\(es\) \['nope'\]"):
        Options.parse({"skip_passes": ["nope"]})
    with pytest.raises(ValueError, match="unknown pass"):   # at compile(), not at the call
        dynamo.compile(models.gelu, backend="numpy", options={"skip_passes": ["nope"]})
    one = Options.parse({"skip_passes": "dce"}).skip_passes   # a name, not its letters
    assert one == frozenset({"dce"})


def test_ndarray_subclasses_run_op_by_op():
    m = np.ma.masked_array(X, mask=X > 0.5)
    fn = numpy_backend(traced(models.gelu, X), [m], options=BLOCKED)
    (got,), want = fn(m), models.gelu(m)
    assert type(got) is np.ma.MaskedArray
    np.testing.assert_array_equal(got.mask, want.mask)
    np.testing.assert_array_equal(got.filled(0), want.filled(0))   # data under the mask is free


def test_refuses_cupy_graphs():
    g = Graph()
    x = g.placeholder("x", {"array": ArrayMeta((3,), np.dtype("f4"), "cupy")})
    g.output((g.call("exp", (x,), meta={"array": ArrayMeta((3,), np.dtype("f4"), "cupy"),
                                        "kind": "elementwise"}),))
    with pytest.raises(TypeError, match="backend='cupy'"):
        numpy_backend(g, [None])


# --------------------------------------------------------------------------- what runs

def test_small_arrays_take_the_plain_path():
    compiled = compiled_graph(models.gelu, rand(1000))
    assert all(p is None for _, p in compiled.__dynamo_groups__)
    assert "_run(" not in compiled.__dynamo_source__
    assert "_power" not in compiled.__dynamo_source__   # x**3 strength-reduced


def test_large_groups_run_block_wise_on_threads():
    x = rand(1 << 20, seed=11)
    compiled = compiled_graph(models.gelu, x, threads=2, min_blocked_elements=1 << 19)
    ((group, plan),) = compiled.__dynamo_groups__
    assert group.kind != SINGLE and plan.threads == 2 and plan.nblocks >= 8
    block_bytes = plan.block * 4 * (2 + len(plan.slots))
    assert block_bytes <= Options().cache_bytes   # the working set fits the L2 budget
    np.testing.assert_allclose(compiled(x)[0], models.gelu(x), **F32)


# --------------------------------------------------------------------------- runtime pieces

@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int64,
                                   np.bool_, np.complex64])
@pytest.mark.parametrize("axis, keepdims", [((1,), True), ((0, 1), False), ((0, 1), True),
                                            ((0,), False)])
def test_mean_exact_is_np_mean(dtype, axis, keepdims):
    from dynamo.backends.numpy_backend.runtime import mean_dtype, mean_exact
    a = (rand(13, 7, dtype=np.float64, seed=12) * 50).astype(dtype)
    count = np.intp(np.prod([a.shape[i] for i in axis]))
    half = a.dtype if a.dtype == np.float16 else None
    got = mean_exact(a, axis, mean_dtype(a.dtype, None), keepdims, count, half)
    want = np.mean(a, axis=axis, keepdims=keepdims)
    assert type(got) is type(want)
    np.testing.assert_array_equal(got, want, strict=True)


@pytest.mark.parametrize("target", ["sum", "prod", "max", "min", "any", "all", "mean"])
@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.bool_, np.float16])
def test_partial_reductions_combine_to_eagers_value(target, dtype):
    from dynamo.backends.numpy_backend.runtime import finish_mean, finish_partial, mean_dtype
    a = (rand(40, 5, dtype=np.float64, seed=13) * 3).astype(dtype)
    blocks = np.array_split(a, 7)
    for keepdims in (False, True):
        want = getattr(np, target)(a, keepdims=keepdims)
        shape = (1, 1) if keepdims else ()
        if target == "mean":
            acc = mean_dtype(a.dtype, None)
            partials = np.array([np.add.reduce(b, None, acc) for b in blocks])
            got = finish_mean(partials, a.size, a.dtype, None, shape, not keepdims)
        else:
            partials = np.array([getattr(np, target)(b) for b in blocks], dtype=want.dtype)
            got = finish_partial(target, partials, shape, not keepdims)
        assert type(got) is type(want) and got.dtype == want.dtype and np.shape(got) == shape
        exact = target in ("max", "min", "any", "all") or a.dtype.kind in "biu"
        if exact:
            np.testing.assert_array_equal(got, want)
        else:   # summation order differs: within float rounding of the sum
            np.testing.assert_allclose(got, want, rtol=1e-2 if dtype == np.float16 else 1e-6)


def jacobi_step(A, B):
    B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return B


@pytest.mark.parametrize("make", [
    lambda a: a, lambda a: np.pad(a, 3)[3:-3, 3:-3], lambda a: a[::-1, ::-1],
    lambda a: np.asfortranarray(a)], ids=["C", "window", "reversed", "F"])
def test_stencils_of_shifted_views_run_blockwise_when_rows_lie_in_c_order(make):
    # A[1:-1, :-2] is not C-contiguous, but its rows lie in C order: blocks of rows
    # are plain views and eager's result is C-ordered too (runtime.row_major)
    A, B = make(rand(40, 50, seed=3)), rand(40, 50, seed=4)
    (plan,) = blockwise(jacobi_step, A, B)
    assert plan.nblocks > 1
    check(jacobi_step, A, B, backend="numpy", compile_kwargs={"options": BLOCKED})


def test_row_major_is_numpys_c_order():
    from dynamo.backends.numpy_backend.runtime import row_major
    A = np.zeros((6, 7, 8))
    yes = [A, A[1:-1, :, :-2], A[::-1], A[:, ::-2, 1:], A[2], A[:, 3], A[None, :, None],
           np.broadcast_to(np.zeros((6, 1)), (6, 5))]
    no = [A.T, A.transpose(1, 0, 2), np.asfortranarray(A[0]), A[:, :, ::4].swapaxes(1, 2)]
    assert all(row_major(x) for x in yes)
    assert not any(row_major(x) for x in no)
    for x in yes:   # NumPy's elementwise result of such an operand is C-contiguous
        assert np.add(x, 1.0).flags.c_contiguous
