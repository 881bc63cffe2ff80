"""The cupy backend's fusion plan, run by the NumPy reference executor, equals eager.

Every program goes through the whole pipeline (trace, plan, kernel IR, generated host
code) with the kernels evaluated from their IR on NumPy, and the harness compares
values, dtypes, shapes and mutated arguments with eager NumPy. Elementwise kernels
reproduce NumPy bit for bit; row reductions too, since they lower to NumPy's own
algorithm (the tests say so by using no tolerance). Every generated CUDA module is
also compiled for sm_90 (see test_cupy_codegen.py for the compiler).
"""

import importlib.util
import math
import os
import textwrap

import numpy as np
import pytest
from dynamo.backends.cupy_backend import compile_graph
from dynamo.backends.cupy_backend.compile_check import check_kernels, compiler
from harness import check, rand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dynamo

X = rand(4, 8)
Y = rand(4, 8, seed=1)
V = rand(8, seed=3)
COL = rand(4, 1, seed=4)
W = rand(8, 16, seed=2)
F64 = rand(4, 8, dtype=np.float64, seed=5)
I32 = rand(4, 8, dtype=np.int32, seed=6)
I8 = rand(4, 8, dtype=np.int8, seed=7)
U8 = rand(4, 8, dtype=np.uint8, seed=8, low=0.0)
B = rand(4, 8, dtype=np.bool_, seed=9)
NAN = np.array([[np.nan, 1.0, -np.inf, np.inf], [0.0, -0.0, np.nan, 2.0]], np.float32)
BIG = rand(64, 100, seed=10)
X3 = rand(2, 3, 16, seed=11)

COMPILED = []   # every CompiledGraph the tests made: their CUDA is compiled at the end


def backend(graph, example_inputs, options=None):
    compiled = compile_graph(graph, example_inputs, options, device="reference")
    COMPILED.append(compiled)
    return compiled.fn


backend.layout_guards = True


def run(fn, *args, **kw):
    """Differential check; returns the plans of the graphs compiled for it."""
    start = len(COMPILED)
    check(fn, *args, backend=backend, graphs=kw.pop("graphs", None), **kw)
    assert len(COMPILED) > start, "no graph reached the backend"
    return [c.plan for c in COMPILED[start:]]


def kinds(plans):
    return [s.kernel.kind if s.kind == "kernel" else s.nodes[0].target
            for p in plans for s in p.steps]


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm(x, g, b):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * g + b


def layernorm_var(x, g, b):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * g + b


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


PROGRAMS = [
    ("gelu", gelu, (X,)),
    ("gelu_f64", gelu, (F64,)),
    ("arith_scalars", lambda x, y: (x - y) * y / (x + 3.0) - 2 ** 0.5, (X, Y)),
    ("broadcast_row", lambda x, v: x * v + v, (X, V)),
    ("broadcast_col", lambda x, c: x - c * 2, (X, COL)),
    ("broadcast_outer", lambda c, v: c * v, (COL, V)),
    ("compare_where", lambda x, y: np.where(x > y, x, y * 0.5), (X, Y)),
    ("where_scalar", lambda x: np.where(x > 0, x, 0.0), (X,)),
    ("compare_outputs", lambda x, y: (x < y, x == y, x >= 0.5), (X, Y)),
    ("max_min_nan", lambda x: (np.maximum(x, 0.5), np.minimum(x, 0.5), np.fmax(x, 0.5)), (NAN,)),
    ("classify", lambda x: (np.isnan(x), np.isinf(x), np.isfinite(x), np.signbit(x)), (NAN,)),
    ("unary", lambda x: np.exp(x) + np.log1p(np.abs(x)) + np.sin(x) * np.cos(x) - np.sqrt(x * x),
     (X,)),
    ("more_unary", lambda x: np.arctan2(x, 0.5) + np.hypot(x, 2.0) + np.floor(x * 3) +
     np.ceil(x) + np.trunc(x * 5) + np.rint(x * 7) + np.cbrt(x) + np.expm1(x), (X,)),
    ("sign_abs_neg", lambda x, a: (np.sign(x), np.abs(a), -a, np.sign(a), -x), (NAN, I32)),
    ("pow_family", lambda x: (x ** 2, x ** 3, abs(x) ** 0.5, x ** -1, abs(x) ** 2.5,
                              np.power(x, 2), np.square(x)), (X,)),
    ("pow_array", lambda x, y: abs(x) ** y, (X, Y)),
    ("int_arith", lambda a: (a * 3 + 7, a - 100, a * a * a), (I32,)),
    ("int8_wrap", lambda a: (a * 100, a + 127, -a), (I8,)),
    ("uint8_wrap", lambda a: (a - 10, a * 30), (U8,)),
    ("int_to_float", lambda a: a / 3 + 0.5, (I32,)),
    ("int_compare_float", lambda a: a < 2.5, (I32,)),
    ("bool_ops", lambda b, c: (b & c, b | c, ~b, np.logical_xor(b, c), b + c, b * c),
     (B, B[::-1].copy())),
    ("bool_times_float", lambda b, x: b * x, (B, X)),
    ("bitwise_int", lambda a: (a & 3) | (a ^ 5), (I32,)),
    ("mixed_precision", lambda x, y: x + y, (X, F64)),
    ("astype_chain", lambda x: (x * 10).astype(np.int32).astype(np.float64) / 3, (X,)),
    ("astype_bool", lambda x: (x > 0).astype(np.float32) * x, (X,)),
    ("clip", lambda x: (np.clip(x, -0.5, 0.5), np.clip(x, 0, None), x.clip(None, 0.2)), (NAN,)),
    ("clip_not_fused", lambda x, y: (np.clip(x, 0.5, -0.5), np.clip(x, y, 0.5),
                                      np.clip(x, np.nan, 1.0)), (NAN, NAN[::-1].copy())),
    ("compare_out_of_range", lambda u, a: (u < -1, u == 300, a > 200, (u + 1) != -5),
     (U8, I8)),
    ("compare_int64_uint64", lambda a, b: (a < b, a == b),
     (rand(4, 8, dtype=np.int64, seed=14), rand(4, 8, dtype=np.uint64, seed=15, low=0.0))),
    ("copy", lambda x: (x + 1).copy() * 2, (X,)),
    ("softmax", softmax, (X,)),
    ("softmax_big", softmax, (BIG,)),
    ("softmax_3d", softmax, (X3,)),
    ("softmax_nan", softmax, (NAN,)),
    ("layernorm", layernorm, (BIG, rand(100, seed=12), rand(100, seed=13))),
    ("layernorm_var", layernorm_var, (X, V, V)),
    ("logsumexp", lambda x: np.log(np.exp(x - x.max(-1, keepdims=True)).sum(-1)) +
     x.max(-1), (X,)),
    ("row_norm_flat", lambda x: np.sqrt((x * x).sum(axis=-1)), (X,)),
    ("row_stats", lambda x: (x.sum(-1), x.mean(-1, keepdims=True), x.std(-1), x.var(1, ddof=1),
                             x.min(axis=1), np.max(x, axis=-1)), (X,)),
    ("row_int", lambda a: (a.sum(-1), a.mean(-1), a.max(-1), a.var(-1)), (I32,)),
    ("row_bool_sum", lambda b: b.sum(-1, keepdims=True) * 2, (B,)),
    ("row_1d", lambda v: v - v.max(), (V,)),
    ("row_and_outputs", lambda x: (x - x.mean(-1, keepdims=True), x.mean(-1, keepdims=True)),
     (X,)),
    ("row_axis0_not_fused", lambda x: x - x.mean(axis=0), (X,)),
    ("full_reduction", lambda x: x / x.sum(), (X,)),
    ("matmul_epilogue", lambda x, w: np.maximum(x @ w + 1.0, 0), (X, W)),
    ("matmul_softmax", lambda x, w: softmax(x @ w), (X, W)),
    ("view_inside", lambda x: (x.reshape(8, 4) * 2).T + 1, (X,)),
    ("transpose_input", lambda x: np.exp(x.T) * 2, (X,)),
    ("slice_input", lambda x: np.tanh(x[:, ::2]) + x[:, 1::2], (X,)),
    ("reversed", lambda x: x[::-1] * x, (X,)),
    ("inner_outputs", lambda x: (x * 2, x * 2 + 1, np.exp(x * 2)), (X,)),
    ("same_output_twice", lambda x: (x + 1, x + 1), (X,)),
    ("return_input", lambda x: (x, x * 2), (X,)),
    ("zero_size", lambda x: x * 2 + 1, (np.zeros((0, 3), np.float32),)),
    ("size_one_dims", lambda x: np.exp(x) * 2, (rand(1, 5, 1),)),
    ("rank0_array", lambda s, x: x * s + s, (np.array(2.5, np.float32), X)),
]


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program(name, fn, args):
    run(fn, *args)


def test_kernels_formed_for_the_models():
    assert kinds(run(gelu, X)) == ["pointwise"]
    assert kinds(run(softmax, BIG)) == ["row"]
    assert kinds(run(layernorm, BIG, V[:4].repeat(25), V[:4].repeat(25))) == ["row"]
    assert kinds(run(lambda x, w: np.maximum(x @ w + 1.0, 0), X, W)) == ["matmul", "pointwise"]
    assert kinds(run(lambda x, w: softmax(x @ w + 1.0), X, W)) == ["matmul", "row"]


def run_strided(fn, *args):
    """Like ``run`` for pure functions of non-contiguous inputs (the harness deep-copies
    its arguments, and a deep copy is contiguous)."""
    start = len(COMPILED)
    expected = fn(*args)
    got = dynamo.compile(fn, backend=backend)(*args)
    assert len(COMPILED) > start, "nothing was compiled"
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype and e.shape == g.shape
        np.testing.assert_array_equal(e, g)
    return [c.plan for c in COMPILED[start:]]


STRIDED = [
    ("every_third_column", lambda x: np.exp(x) * 2, (BIG[:, ::3],)),
    ("transposed", lambda x, y: x * 2 + y, (BIG.T, rand(100, 64, seed=20))),
    ("reversed_rows", lambda x: np.tanh(x) - 1, (BIG[::-1],)),
    ("broadcast_view", lambda x, y: x + y, (np.broadcast_to(V, (4, 8)), X)),
    ("softmax_of_view", softmax, (BIG[:, 10:90],)),
    ("softmax_transposed", softmax, (BIG.T,)),
    ("layernorm_strided", layernorm, (BIG[::2, ::2], V[:4].repeat(25)[::2],
                                      rand(50, seed=21))),
    ("offset_view", lambda x: x * 3 + 1, (rand(1001, seed=22)[1:],)),
]


@pytest.mark.parametrize("name,fn,args", STRIDED, ids=[p[0] for p in STRIDED])
def test_strided_inputs(name, fn, args):
    run_strided(fn, *args)


def test_non_contiguous_input_gets_its_own_strides():
    plans = run_strided(lambda x: np.exp(x) * 2, BIG[:, ::3])
    (step,) = plans[0].steps
    assert step.kernel.loads[0].strides == (100, 3)


def test_misaligned_view_uses_the_scalar_variant():
    x = rand(1001, seed=22)[1:]       # 4 bytes past a 16-byte boundary
    run_strided(lambda x: x * 3 + 1, x)
    launches = COMPILED[-1].device.kernels
    assert {name[-1]: fn.calls for name, fn in launches.items()} == {"s": 1, "v": 0}
    aligned = rand(1000, seed=22)
    run_strided(lambda x: x * 3 + 1, aligned)
    launches = COMPILED[-1].device.kernels
    assert {name[-1]: fn.calls for name, fn in launches.items()} == {"s": 0, "v": 1}


def test_mutation_keeps_program_order():
    def f(x, y):
        a = x * 2
        x[0] = 5.0          # a was computed before: must not see the 5
        b = x + a           # after: must see it
        y *= 3              # out= on an input
        return a, b, y + 1

    plans = run(f, rand(4, 8), rand(4, 8, seed=1))
    ops = kinds(plans)
    assert ops.index("setitem") > ops.index("pointwise")


def test_mutated_intermediate_is_materialised():
    def f(x):
        y = x + 1
        y[1] = 0.0
        return y * 2

    run(f, X)


def test_layout_mismatch_falls_back_to_plain_calls():
    """The plan guesses a view's layout; when CuPy-like code disagrees, the ops run eagerly."""
    def f(x):
        return np.exp(x.reshape(8, 4)) + 1

    x = rand(4, 8)
    graph_holder = []

    def capture(graph, example_inputs):
        graph_holder.append((graph, example_inputs))
        return backend(graph, example_inputs)

    capture.layout_guards = True
    dynamo.compile(f, backend=capture)(x)
    compiled = COMPILED[-1]
    (step,) = [s for s in compiled.plan.steps if s.kind == "kernel"]
    # Pretend the reshape returned a copy with other strides: the check must catch it.
    fake = compiled.device
    real_reshape = fake.ops.reshape
    try:
        fake.ops.reshape = lambda a, shape: np.asfortranarray(real_reshape(a, shape))
        (got,) = compiled.fn(x)
    finally:
        fake.ops.reshape = real_reshape
    np.testing.assert_array_equal(got, f(x))
    assert fake.mismatches == [step.kernel.name]


@st.composite
def elementwise_programs(draw):
    """Random elementwise/row programs over inputs of broadcastable shapes and dtypes."""
    dtype = draw(st.sampled_from(["float32", "float64", "int32", "int64", "int8"]))
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(2, 9))
    shapes = draw(st.lists(st.sampled_from([(rows, cols), (cols,), (rows, 1), ()]),
                           min_size=1, max_size=3))
    names = [f"a{i}" for i in range(len(shapes))]
    values = ["a0"] + names[1:]
    lines = []
    unary = ["np.abs({})", "-{}", "np.maximum({}, 1)", "({} * 3)", "({} - 2)"]
    if dtype.startswith("float"):
        unary += ["np.tanh({})", "np.exp({} * 0.1)", "np.sqrt(np.abs({}))", "({} ** 2)",
                  "np.where({0} > 0, {0}, 0.5)", "({} / 3.0)"]
    binary = ["({} + {})", "({} * {})", "({} - {})", "np.minimum({}, {})",
              "np.where({} > {}, 1, 2)"]
    for i in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            expr = draw(st.sampled_from(unary)).format(draw(st.sampled_from(values)))
        else:
            expr = draw(st.sampled_from(binary)).format(draw(st.sampled_from(values)),
                                                        draw(st.sampled_from(values)))
        lines.append(f"v{i} = {expr}")
        values.append(f"v{i}")
    last = values[-1]
    if draw(st.booleans()) and shapes[0] == (rows, cols):
        red = draw(st.sampled_from(["sum", "max", "mean"]))
        lines.append(f"r = ({last} * a0).{red}(axis=-1, keepdims=True)")
        lines.append(f"out = {last} - r")
        last = "out"
    src = f"def prog({', '.join(names)}):\n" + textwrap.indent("\n".join(lines), "    ") + \
        f"\n    return {last}, {values[-1]}\n"
    scope = {"np": np}
    exec(src, scope)
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    args = [(rng.standard_normal(s) * 4).astype(dtype) for s in shapes]
    return src, scope["prog"], args


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(elementwise_programs())
def test_random_programs(program):
    src, fn, args = program
    dynamo.reset()
    with np.errstate(all="ignore"):
        try:
            run(fn, *args)
        except AssertionError as e:
            raise AssertionError(f"{e}\n{src}") from None


def _straight_line_corpus():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "dynamo", "test_straight_line.py")
    spec = importlib.util.spec_from_file_location("straight_line_corpus", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PROGRAMS


@pytest.mark.parametrize("name,fn,args", _straight_line_corpus(),
                         ids=[p[0] for p in _straight_line_corpus()])
def test_straight_line_corpus(name, fn, args):
    """The spine's program corpus, through the cupy plan."""
    with np.errstate(all="ignore"):
        run(fn, *args)


@pytest.mark.skipif(compiler() is None, reason="needs NVRTC (CuPy) or nvcc to compile CUDA")
def test_every_generated_module_compiles_for_sm90():
    """Runs last in this file: compiles the CUDA of every plan the tests above made."""
    codes = [code for c in COMPILED for code in c.codes]
    assert len({code.name for code in codes}) > 50
    check_kernels(codes)


def test_reference_checks_are_live():
    """The reference executor refuses a wrong dtype in the IR (it checks, not trusts)."""
    run(lambda x: np.exp(x) + 1, X)
    compiled = COMPILED[-1]
    (step,) = compiled.plan.steps
    step.kernel.body[0].dtype = np.dtype("float64")
    with pytest.raises(AssertionError, match="NumPy gives float32"):
        compiled.fn(X)
    assert math.isfinite(1.0)
