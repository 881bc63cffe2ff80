"""``np.zeros_like``, ``ones_like``, ``full_like`` and ``empty_like`` filled in a given buffer.

They have no ``out=``, so each allocates a fresh array on every call. NumPy itself
runs ``res = np.empty_like(x)`` and then ``np.copyto(res, v, casting="unsafe")`` with
``v`` 0, 1 or the fill value (nothing for ``empty_like``, whose contents are
unspecified). Generated code makes the same copy into the buffer of a dead operand
of the same shape and dtype (``reuse.donors``), with the graph's metadata::

    def ramp(x):                           # x: (200000,) float64
        t = x * 2.0
        z = np.full_like(t, -1)            # full_like = multiply     (t dies here)
        ...                                # _copyto(full_like, -1, casting="unsafe")

Only without ``order``, ``subok`` or ``shape`` (so the result is laid out as ``x``, in C
order under ``reuse.c_ordered``'s entry checks) and for arrays of numbers. A fill value
that is an array broadcasts into the buffer as into NumPy's own ``empty_like``.

Not into a buffer kept across calls (``reuse.recycled``): one was tried, and it made
the Harris response of corpus 7 slower (1.19-1.30x plain's speed -> 1.03-1.13x, two
runs each): every kept buffer is one more 2 MiB out of the cache, where malloc hands
eager's fresh array back hot and, once its mmap threshold has risen, without page
faults.

``np.where(c, a, b)`` was tried the same way (``np.copyto(out, b)``, then
``np.copyto(out, a, where=c)``): exact, but NumPy's masked copy is slower than
``np.where`` on a random mask, 0.88 against 0.69 ms for 200,000 float64 and 12.5
against 8.3 ms for 1,000,000 (docs/benchmarks.md, 2026-12-05): it keeps allocating.

    >>> from dynamo.graph import Graph
    >>> like_into_buffer(Graph().placeholder("x"))
    False
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops.node_facts import array_meta

# what NumPy copies into its empty_like (None: nothing)
FILLS = {"zeros_like": "0", "ones_like": "1", "empty_like": None, "full_like": None}


def like_into_buffer(node: Node) -> bool:
    """``np.zeros_like(x)``-like, of numbers, without ``order``/``subok``/``shape``."""
    if node.op != CALL or node.target not in FILLS:
        return False
    positional = 2 if node.target == "full_like" else 1
    result = array_meta(node)
    return (len(node.args) == positional and set(node.kwargs) <= {"dtype"}
            and result is not None and not result.scalar and result.kind == "numpy"
            and result.dtype.kind in "biufc")


def like_into(m, node: Node, name_of, out: str) -> str:
    """``np.full_like(x, v)`` into ``out``, as NumPy fills its ``empty_like``::

        full_like = _scratch0.take()
        _copyto(full_like, v, casting="unsafe")
    """
    fill = m.fmt(node.args[1], name_of) if node.target == "full_like" else \
        FILLS[node.target]
    if fill is None:      # empty_like: whatever the buffer holds
        return f"{node.name} = {out}"
    copyto = m.bind(np.copyto, "copyto")
    return f"{node.name} = {out}\n{copyto}({node.name}, {fill}, casting=\"unsafe\")"
