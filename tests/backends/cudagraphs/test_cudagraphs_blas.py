"""The capture-safe GEMM (backends.cudagraphs.blas) on the CPU, against a cuBLAS emulator.

``Blas`` runs here on NumPy arrays; its cuBLAS calls go to ``EmulatedCublas``, which
does what the real routines do with the arguments they get: reads column-major
operands from the raw addresses with the leading dimensions and batch strides
given, reads alpha and beta from host addresses in the scalar type cuBLAS uses for
that compute type, rejects leading dimensions cuBLAS would reject, and writes C
through its address. So the row-major trick, every operand layout rule, the copies,
the 1-d and broadcast cases and the output shapes are checked against NumPy.
The same code runs on the GPU with CuPy and real cuBLAS in the gpu tests.
"""

from __future__ import annotations

import ctypes
import sys

import numpy as np
import pytest
from dynamo.backends.cudagraphs import blas, cublas_direct
from dynamo.backends.cudagraphs.blas import COMPUTE_TYPE_DEFAULT, Blas, GemmUnsupported
from hypothesis import given, settings
from hypothesis import strategies as st

CUDA = {0: np.float32, 1: np.float64, 2: np.float16, 4: np.complex64, 5: np.complex128}


class EmulatedCublas:
    CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_COMPUTE_32F_FAST_TF32 = 68, 69, 77
    CUBLAS_COMPUTE_64F, CUBLAS_COMPUTE_64F_PEDANTIC = 70, 71
    CUBLAS_GEMM_DEFAULT, CUBLAS_GEMM_DEFAULT_TENSOR_OP = -1, 99

    def __init__(self):
        self.calls: list[tuple] = []

    def gemmEx(self, handle, ta, tb, m, n, k, alpha, A, atype, lda, B, btype, ldb, beta, C,
               ctype, ldc, compute, algo):
        self.calls.append(("gemmEx", compute, algo))
        self._gemm(ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1,
                   CUDA[ctype], compute)

    def gemmStridedBatchedEx(self, handle, ta, tb, m, n, k, alpha, A, atype, lda, sa, B,
                             btype, ldb, sb, beta, C, ctype, ldc, sc, count, compute, algo):
        self.calls.append(("gemmStridedBatchedEx", compute, algo))
        assert sc >= m * n or count == 1
        self._gemm(ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, count,
                   CUDA[ctype], compute)

    def _scalar_type(self, dtype, compute):
        if compute in (68, 69, 77):
            return np.complex64 if np.dtype(dtype).kind == "c" else np.float32
        if compute in (70, 71):
            return np.complex128 if np.dtype(dtype).kind == "c" else np.float64
        return CUDA[compute]                       # legacy: compute given as a data type

    def _gemm(self, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, count,
              dtype, compute):
        scalar = self._scalar_type(dtype, compute)
        one, zero = _read(alpha, scalar, (1, 1), 1)[0, 0], _read(beta, scalar, (1, 1), 1)[0, 0]
        assert one == 1 and zero == 0
        a_rows, a_cols = (k, m) if ta else (m, k)
        b_rows, b_cols = (n, k) if tb else (k, n)
        for name, ld, rows in (("lda", lda, a_rows), ("ldb", ldb, b_rows), ("ldc", ldc, m)):
            if ld < max(1, rows):
                raise ValueError(f"CUBLAS_STATUS_INVALID_VALUE: {name}={ld} < {rows}")
        isz = np.dtype(dtype).itemsize
        for i in range(count):
            a = _read(A + i * sa * isz, dtype, (a_rows, a_cols), lda).astype(np.complex128)
            b = _read(B + i * sb * isz, dtype, (b_rows, b_cols), ldb).astype(np.complex128)
            c = (a.T if ta else a) @ (b.T if tb else b)
            out = _read(C + i * sc * isz, dtype, (m, n), ldc)
            out[...] = c if np.dtype(dtype).kind == "c" else c.real


def _read(addr: int, dtype, shape, ld):
    """The column-major (rows, cols) matrix with leading dimension ``ld`` at ``addr``."""
    rows, cols = shape
    isz = np.dtype(dtype).itemsize
    extent = ((cols - 1) * ld + rows) * isz
    raw = (ctypes.c_char * extent).from_address(addr)
    return np.ndarray((rows, cols), dtype, buffer=raw, strides=(isz, ld * isz))


class HostBlas(Blas):
    """``Blas`` on NumPy with the emulator: no GPU, same code."""

    def __init__(self, cc: int = 90):
        self.xp, self.cublas, self.cc = np, EmulatedCublas(), cc
        self.handle, self.workspace, self.workspace_size, self._scalars = 1, None, 0, {}

    @staticmethod
    def ptr(x) -> int:
        return x.ctypes.data

    def compute_kind(self, dtype) -> int:
        return COMPUTE_TYPE_DEFAULT

    @staticmethod
    def copy_into(c, out) -> None:
        np.copyto(out, c, casting="unsafe")

    @staticmethod
    def cuda_dtype(dtype) -> int:
        return {v: k for k, v in CUDA.items()}[dtype.type]


def layout(x: np.ndarray, how: str) -> np.ndarray:
    """``x``'s values in another memory layout."""
    if how == "c":
        return np.ascontiguousarray(x)
    if how == "f":
        return np.asfortranarray(x)
    if how == "padded":                   # rows inside a wider buffer
        wide = np.zeros(x.shape[:-1] + (x.shape[-1] + 3,), x.dtype)
        wide[..., : x.shape[-1]] = x
        return wide[..., : x.shape[-1]]
    if how == "stepped":                  # every other column of a buffer
        wide = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
        wide[..., ::2] = x
        return wide[..., ::2]
    if how == "reversed":
        return np.ascontiguousarray(x[..., ::-1])[..., ::-1]
    raise ValueError(how)


LAYOUTS = ["c", "f", "padded", "stepped", "reversed"]


def values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def check(a, b, dtype, **kw):
    g = HostBlas()
    got = g.matmul(a, b, **kw)
    want = np.matmul(a.astype(np.complex128), b.astype(np.complex128))
    if np.dtype(dtype).kind != "c":
        want = want.real
    assert got.shape == np.matmul(a, b).shape and got.dtype == np.matmul(a, b).dtype
    tol = {"e": 2e-2, "f": 1e-5, "F": 1e-5}.get(np.dtype(dtype).char, 1e-12)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1, a.shape[-1]))
    return g.cublas.calls


# --------------------------------------------------------------------------- 2-d

@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.integers(1, 5), st.sampled_from(LAYOUTS),
       st.sampled_from(LAYOUTS), st.sampled_from(["f", "d", "F", "D", "e"]),
       st.integers(0, 99))
def test_2d_products_in_every_layout(m, k, n, la, lb, dtype, seed):
    a = layout(values((m, k), dtype, seed), la)
    b = layout(values((k, n), dtype, seed + 1), lb)
    calls = check(a, b, dtype)
    if m == 1 and n == 1:
        assert calls == []                       # CuPy reduces these: no cuBLAS
    else:
        assert [c[0] for c in calls] == ["gemmEx"]


def test_2d_compute_types_and_algorithms_follow_cupy():
    a, b = values((4, 3), "f", 0), values((3, 5), "f", 1)
    assert check(a, b, "f") == [("gemmEx", 68, 99)]          # COMPUTE_32F, tensor-op algo
    assert check(a.astype("d"), b.astype("d"), "d") == [("gemmEx", 70, 99)]
    g = HostBlas(cc=75)
    g.matmul(a, b)
    assert g.cublas.calls == [("gemmEx", 68, -1)]             # pre-Ampere: default algo


@pytest.mark.parametrize("shapes", [((3,), (3, 4)), ((4, 3), (3,)), ((3,), (3,)),
                                    ((1, 3), (3, 1))])
def test_vectors(shapes):
    a, b = values(shapes[0], "f", 2), values(shapes[1], "f", 3)
    check(a, b, "f")


def test_mixed_dtypes_promote_as_numpy():
    a, b = values((3, 4), "f", 4), values((4, 2), "d", 5)
    check(a, b, "d")


def test_out_argument_is_filled_and_returned():
    a, b = values((3, 4), "f", 6), values((4, 2), "f", 7)
    out = np.full((3, 2), np.nan, np.float32)
    got = HostBlas().matmul(a, b, out=out)
    assert got is out
    np.testing.assert_allclose(out, a @ b, rtol=1e-5)


def test_integer_and_empty_products_go_to_the_library_without_cublas():
    g = HostBlas()
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    np.testing.assert_array_equal(g.matmul(a, a.T), a @ a.T)
    assert g.matmul(np.ones((0, 3), "f"), np.ones((3, 2), "f")).shape == (0, 2)
    assert g.cublas.calls == []


def test_int8_has_no_capture_safe_path():
    a = np.ones((2, 2), np.int8)
    with pytest.raises(GemmUnsupported, match="int8"):
        HostBlas().matmul(a, a)


# --------------------------------------------------------------------------- batched

@pytest.mark.parametrize("sa, sb", [
    ((2, 3, 4), (2, 4, 5)),          # plain batch
    ((2, 3, 4), (4, 5)),             # b broadcast over the batch: stride 0
    ((3, 4), (2, 4, 5)),             # a broadcast
    ((2, 1, 3, 4), (1, 3, 4, 5)),    # both partly broadcast: materialized
    ((4,), (2, 4, 5)),               # vector @ stack
    ((2, 3, 4), (4,)),               # stack @ vector
    ((2, 2, 3, 4), (2, 2, 4, 1)),
])
@pytest.mark.parametrize("dtype", ["f", "d", "F", "e"])
def test_batched_products(sa, sb, dtype):
    a, b = values(sa, dtype, 8), values(sb, dtype, 9)
    calls = check(a, b, dtype)
    assert [c[0] for c in calls] == ["gemmStridedBatchedEx"]


def test_batched_operands_in_any_layout_are_made_contiguous():
    a = values((3, 5, 4), "f", 10).transpose(0, 2, 1)          # (3, 4, 5), not contiguous
    b = layout(values((3, 5, 2), "f", 11), "stepped")
    check(a, b, "f")


def test_batched_compute_types_are_what_cupys_data_types_map_to():
    a, b = values((2, 3, 4), "f", 12), values((2, 4, 5), "f", 13)
    assert check(a, b, "f") == [("gemmStridedBatchedEx", 68, -1)]   # CUDA_R_32F -> 32F
    d = values((2, 3, 4), "d", 12), values((2, 4, 5), "d", 13)
    assert check(*d, "d") == [("gemmStridedBatchedEx", 70, -1)]     # CUDA_R_64F -> 64F
    h = values((2, 3, 4), "e", 12), values((2, 4, 5), "e", 13)
    assert check(*h, "e") == [("gemmStridedBatchedEx", 68, -1)]     # half: COMPUTE_32F


def test_attention_shapes_of_the_transformer_block():
    # q @ k^T and softmax(att) @ v, with q, k, v sliced out of one qkv matrix
    qkv = values((16, 3 * 32), "f", 14)
    q = qkv[:, :32].reshape(16, 4, 8).transpose(1, 0, 2)
    k = qkv[:, 32:64].reshape(16, 4, 8).transpose(1, 0, 2)
    check(q, k.transpose(0, 2, 1), "f")
    check(values((4, 16, 16), "f", 15), k, "f")


# --------------------------------------------------------------------------- entry points

def test_module_functions_use_the_active_handle():
    g = HostBlas()
    a, b = values((3, 4), "f", 16), values((4, 2), "f", 17)
    with blas.active(g):
        np.testing.assert_allclose(blas.matmul(a, b), a @ b, rtol=1e-5)
        np.testing.assert_allclose(blas.dot(a, b), a @ b, rtol=1e-5)
        with pytest.raises(GemmUnsupported, match="tensordot"):
            blas.dot(np.ones((2, 2, 2), "f"), np.ones((2, 2), "f"))
        with pytest.raises(GemmUnsupported, match="axes"):
            blas.matmul(a, b, axes=[(0, 1), (0, 1), (0, 1)])
    assert len(g.cublas.calls) == 2
    assert getattr(blas._local, "blas", None) is None


def test_operand_rule_matches_cupy_for_size_one_axes():
    # F-contiguous first, then C; leading dimensions never below the row count
    assert blas.operand((3, 1), (4, 4), 4, 0) == (False, 0, 3)
    assert blas.operand((1, 3), (12, 4), 4, 0) == (False, 0, 1)      # also F-contiguous
    assert blas.operand((3, 4), (32, 8), 4, 1) == (True, 1, 0)


def test_loaded_libraries_are_found_by_file_name():
    assert cublas_direct._loaded_libraries("libc.so") or cublas_direct._loaded_libraries("libc-")
    assert cublas_direct._loaded_libraries("no-such-library-cg") == []


# --------------------------------------------------------------------------- ctypes bindings

class _Fn:
    def __init__(self, status=0):
        self.status, self.calls = status, []

    def __call__(self, *args):
        self.calls.append(args)
        return self.status


class _Lib:
    def __init__(self, status=0, workspace=True):
        self.cublasGemmEx = _Fn(status)
        self.cublasGemmStridedBatchedEx = _Fn(status)
        if workspace:
            self.cublasSetWorkspace_v2 = _Fn(status)


def test_direct_bindings_declare_the_prototypes_and_pass_arguments_through():
    lib = _Lib()
    direct = cublas_direct.CublasDirect(lib)
    assert len(lib.cublasGemmEx.argtypes) == 19
    assert len(lib.cublasGemmStridedBatchedEx.argtypes) == 23
    assert lib.cublasGemmStridedBatchedEx.argtypes[10] is ctypes.c_longlong
    args = (1, 0, 0, 2, 3, 4, 5, 6, 0, 2, 7, 0, 4, 8, 9, 0, 2, 68, -1)
    direct.gemmEx(*args)
    assert lib.cublasGemmEx.calls == [args]
    direct.setWorkspace(1, 2, 3)
    assert lib.cublasSetWorkspace_v2.calls == [(1, 2, 3)]


def test_direct_bindings_raise_on_a_bad_status_and_tolerate_no_workspace_setter():
    direct = cublas_direct.CublasDirect(_Lib(status=7, workspace=False))
    with pytest.raises(cublas_direct.CublasStatusError, match="cublasGemmEx returned cuBLAS status 7"):
        direct.gemmEx(*range(19))
    direct.setWorkspace(1, 2, 3)                 # no setter: cuBLAS keeps its own workspace


C_TYPES = {
    "GEMM_EX": ("cublasGemmEx", [
        "cublasHandle_t", "cublasOperation_t", "cublasOperation_t", "int", "int", "int",
        "const void*", "const void*", "cudaDataType", "int", "const void*", "cudaDataType",
        "int", "const void*", "void*", "cudaDataType", "int", "cublasComputeType_t",
        "cublasGemmAlgo_t"]),
    "GEMM_STRIDED_BATCHED_EX": ("cublasGemmStridedBatchedEx", [
        "cublasHandle_t", "cublasOperation_t", "cublasOperation_t", "int", "int", "int",
        "const void*", "const void*", "cudaDataType", "int", "long long int", "const void*",
        "cudaDataType", "int", "long long int", "const void*", "void*", "cudaDataType", "int",
        "long long int", "int", "cublasComputeType_t", "cublasGemmAlgo_t"]),
    "SET_WORKSPACE": ("cublasSetWorkspace_v2", ["cublasHandle_t", "void*", "size_t"]),
}
KIND_OF_C = {"cublasHandle_t": "handle", "cublasOperation_t": "op", "int": "int",
             "const void*": "ptr", "void*": "ptr", "cudaDataType": "dtype",
             "cublasComputeType_t": "compute", "cublasGemmAlgo_t": "algo",
             "long long int": "int64", "size_t": "size"}


def _cublas_include_dirs() -> list[str]:
    import glob
    import os
    import site
    found = []
    roots = [os.environ.get("CUBLAS_INCLUDE", "")] + [
        d for p in site.getsitepackages() + sys.path
        for d in glob.glob(os.path.join(p, "nvidia", "*", "include"))]
    roots += glob.glob("/usr/local/cuda*/include") + ["/usr/include"]
    for r in roots:
        if r and os.path.exists(os.path.join(r, "cublas_api.h")):
            found.append(r)
    return found


def test_ctypes_kinds_follow_the_c_prototypes():
    for attr, (_, c_types) in C_TYPES.items():
        assert tuple(KIND_OF_C[c] for c in c_types) == getattr(cublas_direct.CublasDirect, attr), attr


def test_c_prototypes_match_cublas_api_h(tmp_path):
    """Compile the prototypes above against the installed header (needs gcc and
    cublas_api.h, e.g. from the nvidia-cublas wheel; CUBLAS_INCLUDE points at it)."""
    import shutil
    import subprocess
    dirs = _cublas_include_dirs()
    if not dirs or shutil.which("gcc") is None:
        pytest.skip("no cublas_api.h or gcc here (pip install nvidia-cublas, or set "
                    "CUBLAS_INCLUDE)")
    lines = ["#include <cublas_api.h>"]
    for i, (name, c_types) in enumerate(C_TYPES.values()):
        lines.append(f"typedef cublasStatus_t (*t{i})({', '.join(c_types)});")
        lines.append(f"static t{i} p{i} = {name};")
    for c in ("cublasOperation_t", "cudaDataType", "cublasComputeType_t", "cublasGemmAlgo_t"):
        lines.append(f'_Static_assert(sizeof({c}) == sizeof(int), "{c}");')
    lines.append("int main(void) { return (p0 == 0) + (p1 == 0) + (p2 == 0); }")
    src = tmp_path / "proto.c"
    src.write_text("\n".join(lines) + "\n")
    includes = [f"-I{d}" for d in dirs] + [f"-I{d}" for d in ("/usr/local/cuda/include",)]
    done = subprocess.run(["gcc", "-fsyntax-only", "-Werror", *includes, str(src)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
