"""CUDA generation of the cupy backend, checked without a GPU.

Every op template compiles for sm_90 with every dtype it accepts; literals are
exact; no fast-math; launch shapes and vector widths follow from the sizes; the
kernels of the three benchmark models have the structure the speed targets need.
"""

import re
import struct

import numpy as np
import pytest
from dynamo.backends.cupy_backend.codegen import COMPILE_OPTIONS, kernel_code, module_source
from dynamo.backends.cupy_backend.compile_check import CompileError, check_compiles, compiler
from dynamo.backends.cupy_backend.cuda_prelude import PRELUDE
from dynamo.backends.cupy_backend.cuda_types import FUSIBLE_DTYPES, ctype, literal
from dynamo.backends.cupy_backend.fuse import make_plan
from dynamo.backends.cupy_backend.launch import Tuning, row_threads
from dynamo.backends.cupy_backend.layout import coalesce, contiguous_strides
from dynamo.backends.cupy_backend.scalar_ops import SCALAR_OPS, loop_dtypes
from models import gelu, layernorm, softmax

import dynamo

needs_compiler = pytest.mark.skipif(compiler() is None,
                                    reason="needs NVRTC (CuPy) or nvcc to compile CUDA")
DTYPES = sorted(FUSIBLE_DTYPES, key=str)


def _float_of(lit: str, dtype) -> np.ndarray:
    """The value a generated float literal denotes."""
    m = re.search(r"0x([0-9a-f]{16})ULL", lit)
    if m:
        bits = struct.unpack("<d", struct.pack("<Q", int(m.group(1), 16)))[0]
        with np.errstate(all="ignore"):
            return np.asarray(bits).astype(dtype)
    m = re.fullmatch(r"\(\((float|double)\)(.+)\)", lit)
    return np.asarray(float(m.group(2)), dtype)


@pytest.mark.parametrize("value", [0.1, 1 / 3, 1e-45, -0.0, 3.4e38, 1e300, float("nan"),
                                   float("inf"), float("-inf"), 0.7978845608])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_literals_are_exact(value, dtype):
    with np.errstate(all="ignore"):
        want = np.asarray(value).astype(dtype)
    got = _float_of(literal(value, dtype), dtype)
    assert got.tobytes() == want.tobytes()


def test_integer_literals():
    assert literal(-(1 << 63), "int64") == "(-9223372036854775807LL - 1)"
    assert literal((1 << 64) - 1, "uint64") == "((unsigned long long)18446744073709551615ULL)"
    assert literal(-128, "int8") == "((signed char)-128LL)"
    assert literal(True, "bool") == "true"
    assert literal(3.9, "int32") == "((int)3LL)"        # NumPy's conversion: truncation


def _op_cases():
    """(op, input dtypes, output dtype) for every op and dtype the table fuses."""
    cases = []
    for name, op in sorted(SCALAR_OPS.items()):
        if name in ("cast", "where"):
            continue
        nin = getattr(np, name).nin if isinstance(getattr(np, name, None), np.ufunc) else 2
        for d in DTYPES:
            try:
                ins, out = loop_dtypes(name, [d] * nin)
            except (KeyError, TypeError, ValueError):
                continue
            consts = (None, 3) if name in ("pow", "power") else (None,) * nin
            if op.emit([f"a{i}" for i in range(nin)], ins, out, consts) is not None:
                cases.append((name, ins, out, consts))
    for d in DTYPES:
        cases.append(("where", (np.dtype(bool), d, d), d, (None,) * 3))
        for e in DTYPES:
            cases.append(("cast", (d,), e, (None,)))
    return cases


def test_op_table_covers_the_common_ops():
    names = {c[0] for c in _op_cases()}
    for must in ("add", "multiply", "divide", "exp", "tanh", "maximum", "where", "less",
                 "sqrt", "pow", "cast", "logical_and", "absolute"):
        assert must in names


@needs_compiler
def test_every_op_template_compiles_for_every_dtype():
    funcs = []
    for i, (name, ins, out, consts) in enumerate(_op_cases()):
        params = ", ".join(f"{ctype(d)} a{k}" for k, d in enumerate(ins))
        expr = SCALAR_OPS[name].emit([f"a{k}" for k in range(len(ins))], ins, out, consts)
        funcs.append(f"__device__ {ctype(out)} f{i}({params}) {{ return ({ctype(out)})({expr}); }}")
    check_compiles([PRELUDE + "\n".join(funcs)])


@needs_compiler
def test_a_broken_source_is_reported():
    with pytest.raises(CompileError, match="dyn_nonsense"):
        check_compiles(['extern "C" __global__ void k() { dyn_nonsense(); }'])


def test_no_fast_math():
    assert not any("fast" in o or "ftz" in o or "prec" in o for o in COMPILE_OPTIONS)
    intrinsic = re.compile(r"\b__(expf|exp10f|logf|log2f|log10f|sinf|cosf|tanf|powf|fdividef|"
                           r"tanhf|saturatef|frcp_\w+|fsqrt_\w+|fdiv_\w+|fmul_\w+)\b")
    for model in MODELS:
        assert not intrinsic.search(_module(*model))


def test_coalesce():
    assert contiguous_strides((2, 3, 4)) == (12, 4, 1)
    assert coalesce((2, 3, 4), [(12, 4, 1), (0, 0, 1)]) == ((6, 4), [(4, 1), (0, 1)])
    assert coalesce((2, 3, 4), [(12, 4, 1)]) == ((24,), [(1,)])
    assert coalesce((4, 1, 5), [(5, 5, 1), (1, 0, 0)]) == ((4, 5), [(5, 1), (1, 0)])
    assert coalesce((), []) == ((1,), [])
    assert coalesce((8, 1), [(1, 0)], keep_last=True) == ((8, 1), [(1, 0)])
    assert coalesce((2, 3, 4), [(12, 4, 1)], keep_last=True) == ((6, 4), [(4, 1)])


def test_row_threads():
    t = Tuning()
    assert row_threads(4096, 4, t) == 256
    assert row_threads(100, 4, t) == 32
    assert row_threads(1 << 20, 4, t) == 1024


def test_tuning_options_are_checked():
    assert Tuning.from_options({"threads": 128, "ilp": 4}).ilp == 4
    with pytest.raises(ValueError, match="unknown cupy backend tuning option"):
        Tuning.from_options({"thread": 128})
    with pytest.raises(ValueError, match="multiple of 32"):
        Tuning.from_options({"threads": 100})


# ---------------------------------------------------------------- the benchmark models

MODELS = [(gelu, [(1 << 26,)]), (softmax, [(8192, 4096)]),
          (layernorm, [(8192, 4096), (4096,), (4096,)])]


def _plan(fn, shapes):
    """The plan for float32 inputs of these (large) shapes; np.empty touches no memory."""
    got = []

    def record(graph, example_inputs):
        got.append(make_plan(graph, example_inputs))
        return lambda *a: tuple(np.zeros(o.meta["array"].shape, o.meta["array"].dtype)
                                for o in graph.outputs)

    record.layout_guards = True
    dynamo.compile(fn, backend=record)(*[np.empty(s, np.float32) for s in shapes])
    (plan,) = got
    return plan


def _module(fn, shapes):
    plan = _plan(fn, shapes)
    return module_source([kernel_code(k, Tuning()) for k in plan.kernels])


def test_gelu_is_one_vectorized_kernel():
    (kernel,) = _plan(gelu, [(1 << 26,)]).kernels
    launch = kernel_code(kernel, Tuning()).launches["v"]
    assert kernel.kind == "pointwise" and len(kernel.nodes) == 8
    assert (launch.vec, launch.per_thread, launch.block, launch.grid) == (4, 2, (256,), (32768,))
    assert launch.aligned == (0, 1)


@pytest.mark.parametrize("fn,shapes", MODELS[1:], ids=["softmax", "layernorm"])
def test_row_models_read_x_once(fn, shapes):
    (kernel,) = _plan(fn, shapes).kernels
    code = kernel_code(kernel, Tuning())
    launch = code.launches["v"]
    assert kernel.kind == "row" and (launch.grid, launch.block) == ((8192,), (256,))
    assert (launch.vec, launch.per_thread) == (4, 4)
    x = next(ld.name for ld in kernel.loads if kernel.inputs[ld.input].node.name == "x")
    assert x in launch.cached                    # the row stays in registers
    assert len(launch.cached) == 2               # and the value used after a reduction too
    src = code.source.split(launch.name)[1]
    assert src.count("reinterpret_cast<const dyn_vec<float, 4>*>(p0") == 1   # one read of x


@needs_compiler
def test_model_kernels_compile():
    check_compiles([_module(*m) for m in MODELS])


def test_broadcast_inputs_are_vectorized():
    """A bias (C,) and a column (R, 1) added to a matrix: 16-byte accesses, one per vector."""
    plan = _plan(lambda x, b, c: (x + b) * c, [(64, 1024), (1024,), (64, 1)])
    (kernel,) = plan.kernels
    code = kernel_code(kernel, Tuning())
    launch = code.launches["v"]
    assert launch.vec == 4 and launch.aligned == (0, 1, 3)     # x, b, the output
    src = code.source.split(launch.name)[1]
    assert src.count("reinterpret_cast<const dyn_vec<float, 4>*>") == 2
    assert "b_in2[u] = p2[off_in2];" in src                       # the column: one load


def test_odd_inner_size_is_not_vectorized():
    (kernel,) = _plan(lambda x, b: x + b, [(64, 1023), (1023,)]).kernels
    assert set(kernel_code(kernel, Tuning()).launches) == {"s"}
