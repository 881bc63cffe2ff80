"""Backend ``cudagraphs``: record a graph's GPU work once, replay it with one launch.

Small models are bound by launch overhead: eager CuPy spends most of each call in
Python and in one kernel launch per op. This backend records the CuPy calls of a
graph into a CUDA graph on the first calls of each guard entry and then replays it:
one ``cudaGraphLaunch`` per call, plus one copy per changed input and one per
output.

The pipeline, one module each::

    plan.plan_capture(graph)        pure: capturable?  which reasons not (logged)
    backend.cudagraphs(...)         the backend; wrap(...) for the fused cupy backend
    runner.CudaGraphRunner          WARMUP -> CAPTURE -> REPLAY  (or EAGER, with reason)
      outputs.OutputPlan            the output rule: fresh arrays, eager's aliasing
      layout.span                   one memcpy moves any strided input
      blas.Blas                     matmul/dot on our own cuBLAS handle and workspace
      cublas_direct.CublasDirect    cublasGemmEx & co. through ctypes (CuPy's refuse)
      audit.audit_graph             no host copies or host code in a recording
      device.CupyDevice             CuPy streams, pools, capture (hostsim: CPU tests)

Worked example (on a machine with a GPU)::

    >>> import cupy as cp, numpy as np, dynamo
    >>> def mlp(x, w1, w2):
    ...     return np.maximum(x @ w1, 0) @ w2
    >>> f = dynamo.compile(mlp, backend="cudagraphs")
    >>> x, w1, w2 = (cp.random.rand(*s, dtype=cp.float32) for s in [(32, 64), (64, 64),
    ...                                                             (64, 8)])
    >>> y = f(x, w1, w2)       # warm-up: runs the CuPy calls once
    >>> y = f(x + 1, w1, w2)   # records (w1, w2: same objects -> read in place)
    >>> y = f(x + 2, w1, w2)   # replays: copy x, launch, copy y out
    >>> cp.allclose(y, mlp(x + 2, w1, w2))
    array(True)

This package imports without CuPy; compiling with it raises ``BackendError`` naming
what is missing. See docs/cudagraphs.md for the rules and the measurements.
"""

from . import blas
from .backend import cudagraphs, parse_options, require_gpu, wrap
from .plan import CapturePlan, Reason, plan_capture

__all__ = ["CapturePlan", "Reason", "blas", "cudagraphs", "parse_options", "plan_capture",
           "require_gpu", "wrap"]
