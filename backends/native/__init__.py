"""Tier 2 for NumPy graphs: loop nests compiled by Numba (``backend="native"``).

``lower(graph)`` turns a graph into the Python source of loop nests (``lower.py``);
``Tiered`` serves a graph from tier 1 (the numpy backend) until it is hot, compiles
tier 2 in a background thread, times both on the first real calls and keeps the faster
(``tier.py``); ``native_backend`` ties them together (``backend.py``, which needs Numba:
``pip install arraydynamo[native]``). See docs/native.md.
"""

from .lower import Kernel, Unsupported, lower

__all__ = ["Kernel", "Unsupported", "lower"]
