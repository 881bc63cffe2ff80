"""Dask arrays in, dask arrays out: compiled functions on ``dask.array`` arguments.

Every program runs twice on the same dask arrays: compiled (``backend="numpy"``,
which hands dask inputs to the dask backend) and plain (NumPy calls that dask
implements). The results must be the same: type, dtype, shape, chunks and values
(exactly). See ``docs/distributed.md``.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

import dynamo
from dynamo import listeners

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")


@pytest.fixture(autouse=True)
def _fresh():
    dynamo.reset()
    yield
    dynamo.reset()


class Compiles:
    """A compile listener: the frames whose compile completed with an entry."""

    def __init__(self):
        self.records = []

    def on_compile(self, record, ctx):
        if record.skipped is None:
            self.records.append(record)


def same(got, want, path="result"):
    """``got`` is ``want``: a dask array of the same chunks, dtype and values; or the
    same Python or NumPy value."""
    if isinstance(want, da.Array):
        assert type(got) is da.Array, f"{path}: {type(got).__name__}, not a dask array"
        assert got.dtype == want.dtype, f"{path}: dtype {got.dtype} != {want.dtype}"
        assert got.chunks == want.chunks, f"{path}: chunks {got.chunks} != {want.chunks}"
        got, want = dask.compute(got, want, scheduler="threads")
        same(got, want, path)
    elif isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            same(g, w, f"{path}[{i}]")
    elif isinstance(want, (np.ndarray, np.generic)):
        assert type(got) is type(want), f"{path}: {type(got)} != {type(want)}"
        np.testing.assert_array_equal(got, want, err_msg=path, strict=True)
    else:
        assert type(got) is type(want) and got == want, f"{path}: {got!r} != {want!r}"


def check(fn, *args, backend="numpy", fused=None):
    """Compiled ``fn`` gives what plain ``fn`` gives on these arguments; ``fused``: whether
    the lowered graph holds the chunk kernels of fused groups (layers named dynamo-...)."""
    want = fn(*args)
    got = dynamo.compile(fn, backend=backend)(*args)
    same(got, want)
    if fused is not None:
        outs = [got] if isinstance(got, da.Array) else \
            [g for g in got if isinstance(g, da.Array)]
        layers = {name for g in outs for name in g.dask.layers}
        assert any(n.startswith("dynamo-") for n in layers) == fused, sorted(layers)
    return got


def rand(shape, chunks, dtype=np.float32, seed=0):
    data = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return da.from_array(data, chunks=chunks)


X = (64, 48)
XC = (16, 24)


# --------------------------------------------------------------------------- programs

def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm(x, gamma, beta):
    mu = x.mean(axis=-1, keepdims=True)
    d = x - mu
    var = (d * d).mean(axis=-1, keepdims=True)
    return d / np.sqrt(var + 1e-5) * gamma + beta


def chain(x, gamma, beta):
    return layernorm(softmax(gelu(x)), gamma, beta)


ELEMENTWISE = [
    lambda x: np.exp(x) * 2.0 + np.sin(x),
    lambda x: np.sqrt(np.abs(x)) - 1.5 * x * x,
    lambda x: np.where(x > 0, x, 0.1 * x) + 1.0,
    lambda x: np.clip(x * 3.0, -1.0, 1.0) - x,
    lambda x: (x.astype(np.float64) * 2.0 + 1.0) / 3.0,
    lambda x: np.maximum(x, 0.0) * np.minimum(x, 0.5) + x ** 2,
    lambda x: (x > 0.5) & (x < 1.5),
    gelu,
]


@pytest.mark.parametrize("fn", ELEMENTWISE, ids=range(len(ELEMENTWISE)))
def test_elementwise_chains_fuse_into_one_task_per_chunk(fn):
    check(fn, rand(X, XC), fused=True)


REDUCTIONS = [
    lambda x: x.sum(),
    lambda x: x.sum(axis=0),
    lambda x: np.sum(x * 2.0, axis=1, keepdims=True),
    lambda x: x.mean(axis=-1),
    lambda x: (x + 1.0).max(axis=0, keepdims=True) - x.min(),
    lambda x: np.std(x, axis=0),
    lambda x: np.var(x * x, axis=1, ddof=1),
    lambda x: x.argmax(axis=1),
    lambda x: np.prod(x * 0.5 + 1.0, axis=0),
    lambda x: x - x.mean(),
    lambda x: (x - x.mean()) * 2.0 + np.exp(x.max(axis=0)),      # 0-d and 1-d dask inputs
    lambda x: (np.abs(x) > 1.0).any(axis=1),
]


@pytest.mark.parametrize("fn", REDUCTIONS, ids=range(len(REDUCTIONS)))
def test_reductions_are_dasks_own(fn):
    check(fn, rand(X, XC))


def test_softmax_layernorm_gelu_and_their_chain():
    x = rand(X, XC)
    gamma = np.linspace(0.5, 1.5, X[1]).astype(np.float32)
    beta = np.linspace(-0.1, 0.1, X[1]).astype(np.float32)
    check(softmax, x, fused=True)
    check(layernorm, x, gamma, beta, fused=True)
    check(chain, x, gamma, beta, fused=True)


# chunks that hold whole rows (the last axis one chunk wide)
ROWS = (16, 48)


def layer_kinds(y) -> set[str]:
    """The kinds of ``y``'s dask layers: ``dynamo`` for chunk kernels, else dask's name
    without its token (``max``, ``mean_agg-aggregate``...)."""
    return {"dynamo" if name.startswith("dynamo-") else name.rsplit("-", 1)[0]
            for name in y.dask.layers}


def test_whole_rows_make_the_chain_one_task_per_chunk():
    x = rand(X, ROWS)
    gamma = np.linspace(0.5, 1.5, X[1]).astype(np.float32)
    beta = np.linspace(-0.1, 0.1, X[1]).astype(np.float32)
    for fn, args in [(softmax, (x,)), (layernorm, (x, gamma, beta)), (chain, (x, gamma, beta))]:
        got = check(fn, *args)
        # the input, the weights, and one kernel: no reduction of dask's
        assert layer_kinds(got) <= {"dynamo", "array"}, (fn.__name__, layer_kinds(got))
        assert sum(name.startswith("dynamo-") for name in got.dask.layers) == 1


def test_rows_split_across_chunks_use_dasks_tree_reductions():
    x = rand(X, XC)                 # the last axis in two chunks
    got = check(softmax, x, fused=True)
    assert {"max", "sum"} <= {k.split("-")[0] for k in layer_kinds(got)}, layer_kinds(got)
    # chunks unified by dask split the rows too: the other array's chunks count
    got = check(lambda x, y: softmax(x * y), x := rand(X, ROWS), rand(X, (32, 12), seed=3))
    assert "max" in {k.split("-")[0] for k in layer_kinds(got)}


ROW_REDUCTIONS = [
    lambda x: np.sum(x * 2.0, axis=1, keepdims=True),          # a reduction as the output
    lambda x: (x * 2.0 + 1.0).mean(axis=-1),                    # without keepdims
    lambda x: (np.abs(x) + 0.5).prod(axis=1),
    lambda x: (x > 0.5).any(axis=-1, keepdims=True) | (x < -2.0),
    lambda x: (x * x).max(axis=1, keepdims=True) - np.exp(x).min(axis=1, keepdims=True),
    lambda x: (x * 3.0).astype(np.int32).sum(axis=1, keepdims=True) * x,
    lambda x: np.mean(x * 2.0, axis=-1, dtype=np.float64),
    lambda x: (softmax(x), softmax(x) * 2.0 + 1.0),             # two outputs of one group
    lambda x: (x - x.mean(axis=-1, keepdims=True)) / (x.sum(axis=-1, keepdims=True) + 100.0),
]


@pytest.mark.parametrize("fn", ROW_REDUCTIONS, ids=range(len(ROW_REDUCTIONS)))
def test_row_reductions_fused_with_whole_rows_equal_dasks(fn):
    got = check(fn, rand(X, ROWS))
    outs = got if isinstance(got, tuple) else (got,)
    assert all(layer_kinds(y) <= {"dynamo", "array"} for y in outs), \
        [layer_kinds(y) for y in outs]
    check(fn, rand(X, XC))          # rows split: dask's reductions, the same values


def test_row_kernels_of_three_dimensions_and_integers():
    x = rand((12, 10, 8), (5, 10, 8))
    got = check(lambda x: x / np.exp(x).sum(axis=(1, 2), keepdims=True), x)
    assert layer_kinds(got) <= {"dynamo", "array"}
    got = check(lambda x: (x * 2.0).max(axis=-1) + 1.0, rand((12, 10, 8), (5, 4, 8)))
    i = da.arange(64 * 48, chunks=500, dtype=np.int32).reshape(X).rechunk(ROWS)
    check(lambda i: (i % 7 - 3).mean(axis=1, keepdims=True) * (i % 5), i)
    check(lambda i: (i * 3 + 1).sum(axis=-1) // 2, i)


def test_row_kernels_with_numpy_arrays_chunked_as_dask_chunks_them():
    w = np.random.default_rng(6).standard_normal(X).astype(np.float32)
    for x in (rand(X, ROWS), rand(X, XC)):
        check(lambda x, w: x * (w / np.exp(w).sum(axis=-1, keepdims=True)), x, w)
        check(lambda x, w: softmax(x * w), x, w)
        # reductions of NumPy values only stay NumPy
        check(lambda x, w: (np.exp(x) * 2.0, w / w.sum(axis=-1, keepdims=True)), x, w)


def test_reductions_dask_computes_its_own_way_stay_dasks():
    x = rand(X, ROWS)
    # var, std, argmax: dask's algorithms; a float16 mean: dask sums in float16
    for fn in [lambda x: np.var(x * 2.0, axis=1), lambda x: (x + 1.0).std(axis=-1),
               lambda x: (x * 2.0).argmax(axis=1) + 1,
               lambda x: (x.astype(np.float16) * 2).mean(axis=-1, keepdims=True) + 1]:
        got = check(fn, x)
        assert layer_kinds(got) - {"dynamo", "array"}, layer_kinds(got)
    check(lambda x: (x * 2.0).sum() + 1.0, x)                   # a whole-array reduction


SHAPING = [
    lambda x: x.T,
    lambda x: np.transpose(x) * 2.0 + 1.0,
    lambda x: x.reshape(-1),
    lambda x: (x + 1.0).reshape(16, 4, 48),
    lambda x: x[2:40, 1],
    lambda x: x[::2, :10] * 3.0 - 1.0,
    lambda x: x[None, ..., 0],
    lambda x: x[-1],
    lambda x: np.swapaxes(x[:, :, None], 0, 2),
    lambda x: np.concatenate([x, x * 2.0], axis=0),
    lambda x: np.stack([x, x + 1.0]),
    lambda x: np.cumsum(x, axis=0),
    lambda x: np.diff(x, axis=1),
    lambda x: x.ravel()[:5],
    lambda x: np.squeeze(x[:1]),
    lambda x: np.expand_dims(x, 1).sum(axis=0),
]


@pytest.mark.parametrize("fn", SHAPING, ids=range(len(SHAPING)))
def test_reshape_transpose_indexing_and_the_rest_are_dasks_functions(fn):
    check(fn, rand(X, XC))


def test_matmul():
    x = rand(X, XC)
    w = np.random.default_rng(1).standard_normal((X[1], 8)).astype(np.float32)
    check(lambda x, w: x @ w, x, w)
    check(lambda x: x @ x.T, x)
    check(lambda x, w: np.tanh(np.matmul(x * 2.0, w) + 1.0) * 0.5, x, w, fused=True)
    check(lambda x, w: np.dot(x, w), x, w)
    check(lambda x, y: np.einsum("ij,kj->ik", x, y), x, rand((10, 48), (5, 24), seed=3))


def test_three_dimensions_chunked_along_each():
    x = rand((12, 10, 8), (5, 4, 3))
    check(gelu, x, fused=True)
    check(softmax, x, fused=True)
    check(lambda x: np.exp(x).sum(axis=(0, 2)) * 2.0, x)


def test_mixing_dask_and_numpy_arrays_works_as_dask_does():
    x = rand(X, XC)
    full = np.random.default_rng(2).standard_normal(X).astype(np.float32)
    column = np.arange(X[0], dtype=np.float32)[:, None]
    zero_d = np.array(2.0, dtype=np.float32)
    check(lambda x, a: np.exp(x) * a + a, x, full, fused=True)
    check(lambda x, c: (x - c) * (x + c), x, column, fused=True)
    check(lambda x, z: (x * z + 1.0) * z, x, zero_d, fused=True)
    check(lambda x, s: x * s + s * 2.0, x, np.float64(3.0), fused=True)
    check(lambda a, x: np.tanh(a * 2.0) + x, full, x)
    # a computation on NumPy values only stays NumPy, fused or not
    check(lambda x, a: (a * 2.0 + 1.0, np.exp(x) * 2.0 - 1.0), x, full)


def test_two_dask_arrays_of_different_chunks_are_unified_as_dask_does():
    x = rand(X, XC)
    y = rand(X, (32, 12), seed=5)
    check(lambda x, y: np.exp(x) * y + x, x, y, fused=True)
    check(lambda x, y: np.exp(x) * y[0] + 1.0, x, y, fused=True)


def test_dtypes_follow_numpys_promotion_as_dask_does():
    x = rand(X, XC)
    i = da.arange(X[0] * X[1], chunks=500, dtype=np.int32).reshape(X)
    check(lambda x, i: x * i + 1, x, i, fused=True)
    check(lambda i: (i * 3 + 1) // 2 % 7, i, fused=True)
    check(lambda x: (x * 2).astype(np.int16) + np.int16(3), x, fused=True)
    check(lambda x: np.float64(2.0) * x + 1.0, x, fused=True)


def test_the_function_sees_a_dask_array_and_its_chunks():
    def f(x):
        return type(x).__name__, isinstance(x, da.Array), x.chunks, x.numblocks, np.exp(x)

    got = check(f, rand(X, XC))
    assert got[:4] == ("Array", True, ((16,) * 4, (24, 24)), (4, 2))


def test_the_trace_answers_as_dask_does_for_values_made_from_dask_arrays():
    def f(x, w):
        y = x + 1.0
        s = x.sum()                 # a 0-d dask array, not a NumPy scalar
        a = np.asarray(x[:2])       # computed: a NumPy array
        mixed = x * w               # dask wraps the NumPy array
        return (type(y).__name__, isinstance(y, np.ndarray), type(s).__name__,
                type(a).__name__, type(mixed).__name__, type(w * 2.0).__name__,
                a * 2.0, s * 2.0, np.ascontiguousarray(x[:1]), np.array(x[0]) + 1.0)

    got = check(f, rand(X, XC), np.ones(X[1], np.float32))
    assert got[:6] == ("Array", False, "Array", "ndarray", "Array", "ndarray")


def test_graph_breaks_run_the_rest_on_dask():
    def f(x):
        y = np.exp(x) * 2.0 + 1.0
        if y.sum() > 0:             # data-dependent: a graph break; dask computes it
            y = y - 1.0
        print("between")            # a break
        return np.tanh(y) * 0.5 + y

    check(f, rand(X, XC))


def test_a_write_into_a_dask_input_runs_as_dask_runs_it():
    def f(x):
        x[0] = 5.0                  # dask's __setitem__: a new graph for x
        x += 1.0                    # no __iadd__: x is rebound
        return x * 2.0

    want_in, got_in = rand(X, XC), rand(X, XC)
    want = f(want_in)
    got = dynamo.compile(f, backend="numpy")(got_in)
    same(got, want)
    same(got_in, want_in)


def test_a_write_into_a_value_made_inside_runs_op_by_op_as_dask_does():
    def f(x):
        y = np.exp(x) * 2.0
        np.add(y, 1.0, out=y)       # dask's out=: y gets the new graph
        return y, np.tanh(y) + 1.0

    check(f, rand(X, XC), fused=False)


def test_symbolic_sizes_run_op_by_op_on_dask():
    f = dynamo.compile(lambda x, n: (x * n + 1.0)[:n], backend="numpy", dynamic=True)
    x = rand(X, XC)
    for n in (5, 7, 9):
        same(f(x, n), (x * n + 1.0)[:n])


def test_unknown_chunk_sizes_are_not_traced_and_run_as_written():
    x = rand(X, XC)
    y = x[x > 0]                    # chunks of unknown size (nan)
    f = dynamo.compile(lambda y: np.exp(y) * 2.0 + 1.0, backend="numpy")
    got, want = f(y), np.exp(y) * 2.0 + 1.0
    assert type(got) is da.Array and np.isnan(got.shape[0])
    np.testing.assert_array_equal(got.compute(), want.compute(), strict=True)


def test_the_same_dask_array_twice_is_one_input():
    x = rand(X, XC)
    check(lambda a, b: np.exp(a) * b + a, x, x, fused=True)
    check(lambda a, b: np.exp(a) * b + a, x, rand(X, XC, seed=4), fused=True)


def test_compiled_once_for_new_arrays_of_the_same_chunks():
    f = dynamo.compile(chain, backend="numpy")
    gamma, beta = np.ones(X[1], np.float32), np.zeros(X[1], np.float32)
    with listeners.listening(Compiles()) as compiles:
        for seed in range(3):
            x = rand(X, XC, seed=seed)
            same(f(x, gamma, beta), chain(x, gamma, beta))
    assert len(compiles.records) == 1


def test_other_chunks_or_dtype_recompile_with_their_own_guard():
    f = dynamo.compile(gelu, backend="numpy")
    with listeners.listening(Compiles()) as compiles:
        same(f(rand(X, XC)), gelu(rand(X, XC)))
        same(f(rand(X, (32, 48))), gelu(rand(X, (32, 48))))          # other chunks
        same(f(rand(X, XC, np.float64)), gelu(rand(X, XC, np.float64)))  # other dtype
        same(f(rand(X, XC)), gelu(rand(X, XC)))                       # the first again
    assert len(compiles.records) == 3
    guards = [g.describe() for g in compiles.records[0].guards]
    assert "L['x']: dask.Array float32[64, 48]" in guards
    assert "L['x'].chunks == ((16, 16, 16, 16), (24, 24))" in guards


def test_a_guard_failure_names_the_chunks():
    f = dynamo.compile(gelu, backend="numpy")
    f(rand(X, XC))
    with listeners.listening(Compiles()) as compiles:
        f(rand(X, (32, 48)))
    (guard,) = [g for g in compiles.records[0].guards if "chunks" in g.describe()]
    assert guard.failure(((16,) * 4, (24, 24))) == \
        "L['x'].chunks: expected ((32, 32), (48,)), got ((16, 16, 16, 16), (24, 24))"


def test_numpy_inputs_after_dask_inputs_get_their_own_entry():
    f = dynamo.compile(gelu, backend="numpy")
    x = rand(X, XC)
    same(f(x), gelu(x))
    a = x.compute()
    same(f(a), gelu(a))


def test_backend_names():
    x = rand(X, XC)
    check(gelu, x, backend="dask", fused=True)
    check(gelu, x, backend="eager", fused=False)     # the graph's NumPy calls, on dask
    with pytest.raises(ValueError, match="unknown option"):
        dynamo.compile(gelu, backend="dask", options={"thread": 1})


def test_numpy_backend_options_reach_the_chunk_kernels():
    x = rand(X, XC)
    options = {"threads": 4, "skip_passes": ["strength_reduce"]}
    got = dynamo.compile(gelu, backend="numpy", options=options)(x)
    same(got, gelu(x))


def test_chunk_kernels_compile_once_per_chunk_shape_and_pickle():
    x = rand((10, 7), (4, 7))                  # chunks of 4, 4 and 2 rows
    y = dynamo.compile(gelu, backend="numpy")(x)
    kernels = {getattr(task, "func", None) for task in dict(y.__dask_graph__()).values()}
    same(y, gelu(x))
    (kernel,) = [k for k in kernels if type(k).__name__ == "ChunkKernel"]
    assert len(kernel._compiled) == 2          # (4, 7) and (2, 7)
    copy = pickle.loads(pickle.dumps(kernel))
    chunk = np.ones((3, 7), np.float32)
    np.testing.assert_array_equal(copy(chunk), gelu(chunk), strict=True)


def test_process_scheduler_runs_the_kernels_in_its_workers():
    x, rows = rand(X, XC), rand(X, ROWS)                    # a row kernel too
    gamma, beta = np.ones(X[1], np.float32), np.zeros(X[1], np.float32)
    y = dynamo.compile(gelu, backend="numpy")(x)
    z = dynamo.compile(chain, backend="numpy")(rows, gamma, beta)
    with dask.config.set(scheduler="processes", num_workers=2):
        got = dask.compute(y, z)
    want = dask.compute(gelu(x), chain(rows, gamma, beta), scheduler="threads")
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w, strict=True)


def test_without_dask_imported_nothing_imports_it():
    code = ("import sys, numpy as np, dynamo\n"
            "f = dynamo.compile(lambda x: np.exp(x) * 2.0 + 1.0)\n"
            "f(np.ones(1000, np.float32))\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'dask'], 'dask'\n")
    subprocess.run([sys.executable, "-c", code], check=True)
