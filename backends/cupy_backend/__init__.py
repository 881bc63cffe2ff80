"""Backend ``cupy``: a graph becomes a few fused CUDA kernels launched through CuPy.

Eager CuPy launches one kernel per op and streams every intermediate through GPU
memory. This backend plans the graph into steps (:mod:`.fuse`, building on the
shared ``backends.fusion.partition``):

- elementwise chains, with broadcasting and dtype casts, become one ``pointwise``
  kernel (GELU: 8 ops, one read of ``x``, one write);
- a reduction over the last axis with its elementwise prologue and epilogue becomes
  one ``row`` kernel (softmax and layernorm: one block per row, the row kept in
  registers, read once and written once);
- matmul stays a cuBLAS call through ``cupy.matmul``; the elementwise ops after it
  are one kernel;
- views are plain CuPy calls (no GPU work); every other op is a plain CuPy call.

Each kernel is lowered to a small IR (:mod:`.ir`, :mod:`.lower`), generated as
CUDA C (:mod:`.cuda_pointwise`, :mod:`.cuda_row`) with launch shapes from the known
sizes and 16-byte vector accesses where alignment allows (in a graph with symbolic
sizes, :mod:`.sizes`: sizes, counts and strides are kernel parameters, grids and
the vector variant are chosen at each call, one kernel serves every size), compiled
with NVRTC through ``cupy.RawModule`` (cached in memory by source, and on disk by
CuPy), and launched from one generated Python function (:mod:`.host`). The same plan runs on
NumPy (:mod:`.reference`), which is how the CPU tests check it.

Example::

    import cupy, dynamo
    from scripts.models import softmax

    fast = dynamo.compile(softmax, backend="cupy")
    y = fast(cupy.random.rand(8192, 4096, dtype=cupy.float32))   # one row kernel
    print(fast.__wrapped__)                                        # the original

    from dynamo.backends.cupy_backend import compile_graph      # for other backends:
    compiled = compile_graph(graph, example_inputs)      # plan, CUDA, host code
    outputs = compiled(*arrays)                          # GPU work only, no syncs

Without CuPy or a GPU the backend is still listed; a function compiled with it
raises ``CupyUnavailable`` at its first call, saying what is missing and how to
install it.
"""

from ..common import CupyUnavailable, cupy_problem
from .backend import CompiledGraph, compile_graph, cupy_backend, reference_backend
from .runtime import kernel_cache

__all__ = ["CompiledGraph", "CupyUnavailable", "compile_graph", "cupy_backend",
           "cupy_problem", "kernel_cache", "reference_backend"]
