"""Capture-safe GEMMs: ``matmul`` and ``dot`` on a cuBLAS handle and workspace of our own.

CuPy refuses cuBLAS inside a stream capture: ``cupy_backends.cuda.libs.cublas.setStream``
raises ("calling cuBLAS API during stream capture is currently unsupported") when its
stream records, and *every* GEMM binding there (``sgemm``, ``gemmEx``, ...) first calls
``_setStream(handle)`` with the current stream, so calling CuPy's low-level bindings
while recording fails the same way. cuBLAS itself records fine. So a ``Blas`` owns a
handle whose stream is set *before* recording (``bind``), with a workspace of its own
(32 MiB on Hopper and later, 4 MiB before, the sizes cuBLAS recommends), and calls
``cublasGemmEx``/``cublasGemmStridedBatchedEx`` of the loaded libcublas through ctypes
(:class:`~.cublas_direct.CublasDirect`), which leaves the handle's stream alone.

Row-major through column-major cuBLAS: ``C = A @ B`` is ``C^T = B^T A^T``, and a
row-major matrix read column-major is its own transpose, so cuBLAS gets ``B`` as its
first operand and ``A`` as its second, untransposed. The operand rules below mirror
CuPy's own ``dot``/``matmul`` (same copies, same routines, same compute types), so
results match CuPy eager up to cuBLAS choosing another kernel: 2-d products use
``cublasGemmEx``, stacked ones ``cublasGemmStridedBatchedEx`` with a zero batch stride
for an operand broadcast over the batch (CuPy builds pointer tables there instead).
Integer products and the cases CuPy computes with a reduction (vector . vector,
empty operands) go to CuPy itself: those paths launch plain kernels.

``matmul``/``dot`` here are what captured code calls: inside ``active(blas)`` they
use that handle, outside they are ``cupy.matmul``/``cupy.dot``. The fused ``cupy``
backend calls the same functions so its graphs capture too.

Example::

    >>> g = Blas()
    >>> g.bind(stream)
    >>> with active(g):
    ...     c = matmul(a, b)        # legal inside stream.begin_capture()
"""

from __future__ import annotations

import contextlib
import threading

from .cublas_direct import CublasDirect, GemmUnsupported
from .layout import is_c_contiguous, is_f_contiguous

_local = threading.local()
_MiB = 1 << 20
# CuPy's compute-type settings (cupy._core._routines_linalg.COMPUTE_TYPE_*)
COMPUTE_TYPE_DEFAULT, COMPUTE_TYPE_PEDANTIC, COMPUTE_TYPE_TF32 = 1, 2, 7


# --------------------------------------------------------------------------- entry points

@contextlib.contextmanager
def active(blas):
    """Inside the block, ``matmul``/``dot`` run on ``blas`` (per thread)."""
    previous = getattr(_local, "blas", None)
    _local.blas = blas
    try:
        yield
    finally:
        _local.blas = previous


def matmul(a, b, out=None, **kwargs):
    blas = getattr(_local, "blas", None)
    if blas is None:
        import cupy
        return cupy.matmul(a, b, out=out, **kwargs)
    if kwargs:
        raise GemmUnsupported(f"matmul with {sorted(kwargs)} has no capture-safe path")
    return blas.matmul(a, b, out)


def dot(a, b, out=None):
    blas = getattr(_local, "blas", None)
    if blas is None:
        import cupy
        return cupy.dot(a, b, out=out)
    if a.ndim > 2 or b.ndim > 2:
        raise GemmUnsupported("dot of arrays with more than 2 dimensions (a tensordot)")
    if a.ndim == 0 or b.ndim == 0:
        import cupy
        return cupy.dot(a, b, out=out)          # a product, no cuBLAS
    return blas.matmul(a, b, out)


# --------------------------------------------------------------------------- planning (pure)

def operand(shape, strides, itemsize: int, trans: int) -> tuple[bool, int, int]:
    """CuPy's ``_mat_to_cublas_contiguous`` for a 2-d operand: (copy first?, op, ld).

    An F-contiguous matrix is used as stored; a C-contiguous one transposed; any
    other layout is copied to C order first (then call again).
    """
    rows, cols = shape
    if is_f_contiguous(shape, strides, itemsize):
        return False, trans, max(strides[1] // itemsize, rows, 1)
    if not is_c_contiguous(shape, strides, itemsize):
        return True, trans, 0
    return False, 1 - trans, max(strides[0] // itemsize, cols, 1)


def gemm_2d(a, b):
    """Operands and leading dimensions for a row-major ``a (M, K) @ b (K, N)``.

    Returns ``(at, b, transa, transb, lda, ldb)`` for the call
    ``gemm(transb, transa, N, M, K, b, ldb, at, lda, C, ldc=N)``; ``at`` is ``a.T``
    (copied when its layout needs it). Works on NumPy arrays too (the CPU tests).
    """
    at = a.T
    copy, transa, lda = operand(at.shape, at.strides, at.itemsize, 0)
    if copy:
        at = at.copy()
        _, transa, lda = operand(at.shape, at.strides, at.itemsize, 0)
    copy, transb, ldb = operand(b.shape, b.strides, b.itemsize, 1)
    if copy:
        b = b.copy()
        _, transb, ldb = operand(b.shape, b.strides, b.itemsize, 1)
    return at, b, transa, transb, lda, ldb


def gemm_batched(a, b, xp):
    """Operands of a stacked ``a (..., M, K) @ b (..., K, N)`` (both at least 3-d after
    CuPy's 1-d promotion), as ``(a, b, batch_shape, stride_a, stride_b)`` in elements.

    Both are made C-contiguous (as CuPy does); an operand broadcast over the whole
    batch gets stride 0; a partly broadcast one is materialized.
    """
    ndim = max(a.ndim, b.ndim)
    a = a.reshape((1,) * (ndim - a.ndim) + a.shape)
    b = b.reshape((1,) * (ndim - b.ndim) + b.shape)
    batch = tuple(max(x, y) if 0 not in (x, y) else 0 for x, y in zip(a.shape[:-2],
                                                                      b.shape[:-2]))
    strides = []
    operands = []
    for x in (a, b):
        x = xp.ascontiguousarray(x)
        if x.shape[:-2] == batch:
            stride = x.shape[-2] * x.shape[-1]
        elif all(d == 1 for d in x.shape[:-2]):
            stride = 0
        else:
            x = xp.ascontiguousarray(xp.broadcast_to(x, batch + x.shape[-2:]))
            stride = x.shape[-2] * x.shape[-1]
        operands.append(x)
        strides.append(stride)
    return operands[0], operands[1], batch, strides[0], strides[1]


# --------------------------------------------------------------------------- the handle

class Blas:
    """A cuBLAS handle and workspace of our own, for GEMMs inside a stream capture.

    The array library (``xp``), the cuBLAS bindings and the pointer of an array are
    attributes, so the CPU tests can run every method on NumPy arrays against a
    cuBLAS emulator that reads memory through the addresses passed (see
    tests/backends/cudagraphs/test_cudagraphs_blas.py).
    """

    def __init__(self, workspace: int | None = None):
        import cupy
        from cupy_backends.cuda.libs import cublas
        self.xp, self._cupy_cublas = cupy, cublas
        self.cc = int(cupy.cuda.Device().compute_capability)
        size = workspace if workspace is not None else (32 if self.cc >= 90 else 4) * _MiB
        self.workspace_size = int(size)
        self.handle = cublas.create()              # also loads libcublas for CublasDirect
        self.cublas = CublasDirect()
        self.workspace = cupy.cuda.alloc(self.workspace_size) if self.workspace_size else None
        self._scalars: dict = {}

    @staticmethod
    def ptr(x) -> int:
        return x.data.ptr

    def bind(self, stream) -> None:
        """Issue GEMMs on ``stream`` with our workspace. Call before recording starts."""
        self._cupy_cublas.setStream(self.handle, stream.ptr)   # resets the workspace too
        if self.workspace is not None:
            self.cublas.setWorkspace(self.handle, self.workspace.ptr, self.workspace_size)

    def close(self) -> None:
        if self.handle:
            self._cupy_cublas.destroy(self.handle)
            self.handle = 0
        self.workspace = None

    # ------------------------------------------------------------- products
    def matmul(self, a, b, out=None):
        cupy = self.xp
        if a.ndim == 0 or b.ndim == 0:
            return cupy.matmul(a, b, out=out)          # raises as CuPy does
        dtype = cupy.result_type(a.dtype, b.dtype)
        if dtype.kind in "biu" and dtype.char != "b":
            return cupy.matmul(a, b, out=out)          # CuPy's integer kernels
        if dtype.char not in "efdFD":
            raise GemmUnsupported(f"matmul of {dtype} arrays")
        if a.size == 0 or b.size == 0:
            return cupy.matmul(a, b, out=out)          # zeros, no cuBLAS
        if max(a.ndim, b.ndim) <= 2:
            return self._gemm_2d(a, b, dtype, out)
        return self._gemm_batched(a, b, dtype, out)

    def _gemm_2d(self, a, b, dtype, out):
        cupy, cublas, ptr = self.xp, self.cublas, self.ptr
        ret_shape = (a.shape[0],) * (a.ndim == 2) + (b.shape[-1],) * (b.ndim == 2)
        a2 = a.reshape(1, a.size) if a.ndim == 1 else a
        b2 = b.reshape(b.size, 1) if b.ndim == 1 else b
        M, K = a2.shape
        N = b2.shape[1]
        if M == 1 and N == 1:
            return cupy.matmul(a, b, out=out)          # CuPy reduces: no cuBLAS
        a2 = a2.astype(dtype, copy=False)
        b2 = b2.astype(dtype, copy=False)
        at, b2, transa, transb, lda, ldb = gemm_2d(a2, b2)
        c = cupy.empty(ret_shape, dtype)
        compute, algo = self._types_2d(dtype)
        one, zero = self._one_zero(dtype, compute)
        cdt = self.cuda_dtype(dtype)
        cublas.gemmEx(self.handle, transb, transa, N, M, K, one, ptr(b2), cdt, ldb,
                      ptr(at), cdt, lda, zero, ptr(c), cdt, N, compute, algo)
        return self._into(c, out)

    def _gemm_batched(self, a, b, dtype, out):
        cupy, cublas, ptr = self.xp, self.cublas, self.ptr
        ret_dtype = dtype
        if dtype.char == "e" and min(a.ndim, b.ndim) < 2:
            dtype = cupy.dtype("f")                    # CuPy computes these in float32
        a_vec, b_vec = a.ndim == 1, b.ndim == 1
        a3 = a.reshape(1, a.size) if a_vec else a
        b3 = b.reshape(b.size, 1) if b_vec else b
        a3, b3, batch, stride_a, stride_b = gemm_batched(a3.astype(dtype, copy=False),
                                                         b3.astype(dtype, copy=False), cupy)
        M, K = a3.shape[-2:]
        N = b3.shape[-1]
        count = 1
        for d in batch:
            count *= d
        out_shape = batch + (() if a_vec else (M,)) + (() if b_vec else (N,))
        c = cupy.empty(out_shape, dtype)
        if count:
            cdt = self.cuda_dtype(dtype)
            # CuPy passes the data type as compute type (the C++ overload maps it to these
            # for the default math mode); the C entry point takes the compute type itself
            compute = cublas.CUBLAS_COMPUTE_64F if dtype.char in "dD" else \
                cublas.CUBLAS_COMPUTE_32F
            one, zero = self._one_zero(dtype, compute)
            cublas.gemmStridedBatchedEx(
                self.handle, 0, 0, N, M, K, one, ptr(b3), cdt, N, stride_b,
                ptr(a3), cdt, K, stride_a, zero, ptr(c), cdt, N, M * N, count,
                compute, cublas.CUBLAS_GEMM_DEFAULT)
        if ret_dtype != dtype:
            c = c.astype(ret_dtype)
        return self._into(c, out)

    # ------------------------------------------------------------- numeric settings
    def compute_kind(self, dtype) -> int:
        """CuPy's compute-type setting for ``dtype`` (``CUPY_TF32``, ``set_compute_type``)."""
        from cupy._core import _routines_linalg as rl
        return rl.get_compute_type(dtype)

    def _types_2d(self, dtype) -> tuple[int, int]:
        """Compute type and algorithm as CuPy's ``tensordot_core_v11`` picks them."""
        cublas = self.cublas
        kind = self.compute_kind(dtype)
        if dtype.char in "efF":
            compute = {COMPUTE_TYPE_PEDANTIC: cublas.CUBLAS_COMPUTE_32F_PEDANTIC,
                       COMPUTE_TYPE_TF32: cublas.CUBLAS_COMPUTE_32F_FAST_TF32
                       if dtype.char in "fF" else cublas.CUBLAS_COMPUTE_32F
                       }.get(kind, cublas.CUBLAS_COMPUTE_32F)
        else:
            compute = cublas.CUBLAS_COMPUTE_64F_PEDANTIC if kind == COMPUTE_TYPE_PEDANTIC \
                else cublas.CUBLAS_COMPUTE_64F
        tensor = self.cc >= 80 or (self.cc >= 70 and dtype.char == "e")
        return compute, (cublas.CUBLAS_GEMM_DEFAULT_TENSOR_OP if tensor
                         else cublas.CUBLAS_GEMM_DEFAULT)

    def _one_zero(self, dtype, compute) -> tuple[int, int]:
        """Host addresses of alpha = 1 and beta = 0 in the scalar type cuBLAS reads."""
        import numpy as np
        wide = compute in (self.cublas.CUBLAS_COMPUTE_64F,
                           self.cublas.CUBLAS_COMPUTE_64F_PEDANTIC) or dtype.char in "dD"
        complex_ = dtype.char in "FD"
        scalar = {(False, False): np.float32, (True, False): np.float64,
                  (False, True): np.complex64, (True, True): np.complex128}[(wide, complex_)]
        if scalar not in self._scalars:     # kept alive: cuBLAS reads them at call time
            self._scalars[scalar] = (np.ones((), scalar), np.zeros((), scalar))
        one, zero = self._scalars[scalar]
        return one.ctypes.data, zero.ctypes.data

    def _into(self, c, out):
        if out is None:
            return c
        self.copy_into(c, out)
        return out

    @staticmethod
    def copy_into(c, out) -> None:
        """Fill ``out`` with ``c`` as CuPy's matmul does (``elementwise_copy``)."""
        from cupy._core._routines_linalg import elementwise_copy
        elementwise_copy(c, out)

    @staticmethod
    def cuda_dtype(dtype) -> int:
        from cupy.cuda import runtime
        return {"e": runtime.CUDA_R_16F, "f": runtime.CUDA_R_32F, "d": runtime.CUDA_R_64F,
                "F": runtime.CUDA_C_32F, "D": runtime.CUDA_C_64F}[dtype.char]
