"""Random programs through the ``numpy`` backend, compared with eager NumPy.

Hypothesis writes small straight-line NumPy functions (elementwise ops, powers,
broadcast operands, reductions over rows and over everything), picks shapes
(including 0 and sizes that do not divide the block), a dtype, a block size and a
thread count, and checks the compiled function against eager with the stated
tolerance. Without strength reduction and without reductions over every axis, the
results must be bit-identical.
"""

import textwrap
from unittest import mock

import numpy as np
from dynamo.backends.common import python_function
from dynamo.backends.fusion import partition
from dynamo.backends.numpy_backend import plan
from dynamo.backends.passes import optimize
from fusion_invariants import check_invariants
from harness import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dynamo

# Every op is well conditioned (sqrt only of values >= 1), so a rounding difference
# upstream (a summation order, a strength-reduced power) stays a rounding difference.
FLOAT_UNARY = ["np.tanh({0})", "np.sin({0})", "np.abs({0})", "(-{0})",
               "np.sqrt(np.abs({0}) + 1.0)", "({0} ** 2)", "np.clip({0} ** 3, -8.0, 8.0)",
               "np.exp(np.tanh({0}))", "np.maximum({0}, 0)", "({0} * 0.5)", "({0} / 4)",
               "({0} / 3.0)", "((np.abs({0}) + 1.0) ** 0.5)", "np.clip({0} ** 4, -8.0, 8.0)",
               "({0} + 1.0)"]
FLOAT_BINARY = ["({0} + {1})", "({0} - {1})", "({0} * {1})", "np.maximum({0}, {1})",
                "np.minimum({0}, {1})", "({0} / (np.abs({1}) + 1))",
                "np.where({0} > {1}, {0}, {1})"]
INT_UNARY = ["({0} * 3)", "({0} // 3)", "({0} % 5)", "np.abs({0})", "({0} ** 2)",
             "({0} ** 3)", "({0} & 6)", "(-{0})", "({0} + 7)"]
INT_BINARY = ["({0} + {1})", "({0} - {1})", "({0} * {1})", "np.maximum({0}, {1})",
              "({0} | {1})", "({0} ^ {1})"]
ROW = ["{0}.sum(axis=-1, keepdims=True)", "{0}.max(axis=-1, keepdims=True)",
       "{0}.mean(axis=-1, keepdims=True)", "np.min({0}, axis=-1, keepdims=True)"]
FULL = ["{0}.sum()", "np.max({0})", "np.mean({0})", "{0}.min()"]
INT_ROW = ["{0}.sum(axis=-1, keepdims=True)", "{0}.max(axis=-1, keepdims=True)"]
INT_FULL = ["{0}.sum()", "np.max({0})"]


@st.composite
def programs(draw, full_reductions=True, powers=True, dtypes=(np.float32, np.float64, np.int32)):
    """(source of ``def prog(a, b)``, dtype, shape of a, shape of b)."""
    dtype = draw(st.sampled_from(dtypes))
    # without full reductions every value keeps ndim >= 2: a row reduction of a 1-d
    # value would reduce everything (and may sum in another order)
    ndim = draw(st.integers(1 if full_reductions else 2, 3))
    shape = tuple(draw(st.lists(st.integers(0, 23), min_size=ndim, max_size=ndim)))
    b_shapes = [shape, shape[:-1] + (1,)] + ([shape[-1:], ()] if full_reductions else [])
    b_shape = draw(st.sampled_from(b_shapes))
    is_int = dtype == np.int32
    unary = INT_UNARY if is_int else FLOAT_UNARY
    if not powers:
        unary = [u for u in unary if "** 3" not in u and "** 4" not in u]
    binary = INT_BINARY if is_int else FLOAT_BINARY
    row, full = (INT_ROW, INT_FULL) if is_int else (ROW, FULL)
    values, lines = ["a", "b"], []
    for i in range(draw(st.integers(1, 8))):
        kinds = ["unary", "binary", "binary", "row"] + (["full"] if full_reductions else [])
        kind = draw(st.sampled_from(kinds))
        x = draw(st.sampled_from(values[-3:] if i else ["a"]))
        if kind == "unary":
            expr = draw(st.sampled_from(unary)).format(x)
        elif kind == "binary":
            expr = draw(st.sampled_from(binary)).format(x, draw(st.sampled_from(values)))
        else:
            expr = draw(st.sampled_from(row if kind == "row" else full)).format(x)
        lines.append(f"t{i} = {expr}")
        values.append(f"t{i}")
    out = draw(st.lists(st.sampled_from(values[2:]), min_size=0, max_size=2))
    returned = list(dict.fromkeys([values[-1], *out]))
    src = "def prog(a, b):\n" + textwrap.indent("\n".join(lines), "    ") + \
        f"\n    return ({', '.join(returned)},)\n"
    return src, dtype, shape, b_shape


def build(src: str):
    scope = {"np": np}
    exec(compile(src, "<random program>", "exec"), scope)
    return scope["prog"]


def inputs(dtype, shape, b_shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.int32:
        return (rng.integers(-20, 21, shape).astype(dtype),
                rng.integers(-20, 21, b_shape).astype(dtype))
    return rng.uniform(-2, 2, shape).astype(dtype), rng.uniform(-2, 2, b_shape).astype(dtype)


def tolerance(fn, args, dtype) -> dict:
    if dtype == np.int32:
        return {}
    try:
        with np.errstate(all="ignore"):
            out = fn(*[a.copy() for a in args])
    except Exception:  # noqa: BLE001 (check() compares the exceptions)
        return {}
    finite = [np.abs(o[np.isfinite(o)]).max() for o in out if np.size(o) and np.isfinite(o).any()]
    scale = max([1.0, *map(float, finite)])
    eps = 1e-4 if dtype == np.float32 else 1e-10
    return {"rtol": eps, "atol": eps * scale}


OPTIONS = st.fixed_dictionaries({
    "threads": st.integers(1, 3),
    "cache_bytes": st.sampled_from([256, 1024, 8192]),
    "min_block_elements": st.sampled_from([1, 1 << 14]),
    "min_blocked_elements": st.sampled_from([0, 0, 1 << 30]),   # block-wise or plain
    "blocked_working_set": st.just(0.0),   # 1 << 30 above: plain even with tiny caches
    "min_threaded_elements": st.just(0),
    "rerun_on_error": st.just(False),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), OPTIONS, st.integers(0, 2**16))
def test_random_programs(program, options, seed):
    src, dtype, shape, b_shape = program
    fn = build(src)
    args = inputs(dtype, shape, b_shape, seed)
    with np.errstate(all="ignore"):
        dynamo.reset()
        check(fn, *args, backend="numpy", compile_kwargs={"options": options},
              **tolerance(fn, args, dtype))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(full_reductions=False, dtypes=(np.float16, np.float32, np.float64, np.int32)),
       OPTIONS, st.integers(0, 2**16), st.booleans())
def test_random_programs_bit_identical(program, options, seed, row_buffers):
    # row_buffers: every op or group that broadcasts a column runs with a ufunc buffer
    # of one row, however small (runtime.row_buffer; by default only rows >= 256 do,
    # and on the plain path only ops of >= 8192 elements)
    src, dtype, shape, b_shape = program
    fn = build(src)
    args = inputs(dtype, shape, b_shape, seed)
    least = (1, 1) if row_buffers else (plan.MIN_ROW_BUFFER, plan.MIN_PLAIN_ROW_BUFFER)
    with np.errstate(all="ignore"), \
            mock.patch.multiple(plan, MIN_ROW_BUFFER=least[0], MIN_PLAIN_ROW_BUFFER=least[1]):
        dynamo.reset()
        check(fn, *args, backend="numpy",
              compile_kwargs={"options": {**options, "skip_passes": ["strength_reduce"]}})


@settings(max_examples=30, deadline=None)
@given(programs(), st.booleans())
def test_random_partitions_keep_their_invariants(program, whole_rows):
    src, dtype, shape, b_shape = program
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    with np.errstate(all="ignore"):
        dynamo.reset()
        try:
            dynamo.compile(build(src), backend=capture)(*inputs(dtype, shape, b_shape, 0))
        except Exception:  # noqa: BLE001 (the program's own error: its graphs still count)
            pass
    for graph in graphs:
        graph = optimize(graph)
        check_invariants(graph, partition(graph, whole_rows=whole_rows), whole_rows)
