"""The ``numpy`` backend: fused, cache-blocked, multithreaded execution on the CPU.

Eager NumPy makes one full pass over memory per op and allocates a temporary for
each. This backend:

1. optimizes the graph (``backends.passes``: dead code, constant folding, exact
   strength reduction such as integer ``n**3 -> n*n*n``, common subexpressions);
2. partitions it into groups (``backends.fusion.partition(whole_rows=True)``):
   elementwise chains, and chains with their reductions over trailing axes
   (softmax, layernorm) or over every axis;
3. plans each large group (``plan``): blocks sized for the L2 cache, whole rows
   when the group reduces rows, scratch buffers reused op after op;
4. generates Python (``codegen``) that runs each large group block by block with
   ``out=`` into per-thread scratch buffers, writes each output once, and shares
   the blocks among threads (``runtime``; NumPy releases the GIL in its loops).
   Small groups run as plain NumPy calls: no overhead at small sizes; there a dead
   intermediate only this code can see lends its buffer to the next op (``reuse``).

A graph with symbolic sizes gets one static variant of all this per input shapes
(``sizes``), so a function whose sizes vary is traced at most twice.

Results equal eager NumPy bit for bit (but, with the option ``fast_powers=True``,
float powers ``x**3`` round after each multiply; float sums over every axis run as
eager's one call, not per block: ``plan._rounds_per_block``); see
docs/numpy_backend.md for the tested tolerances. Exceptions,
warnings and every other floating-point report are eager's: code that could report
otherwise runs under a guard and, on a report, again op by op (``runtime.guard``).

Example::

    >>> import dynamo, numpy as np
    >>> gelu = dynamo.compile(models.gelu, backend="numpy", options={"threads": 2})
    >>> y = gelu(np.ones(10_000_000, np.float32))
"""

from .backend import numpy_backend
from .options import Options

__all__ = ["Options", "numpy_backend"]
