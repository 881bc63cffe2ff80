"""``np.ndindex(*shape)`` of a static shape: the index tuples a loop steps through.

``for i, j in np.ndindex(*a.shape):`` is the scientist's double loop. With Python-int
sizes known while tracing, the iterator is the tuples of C order (Python ints, as
NumPy's own), produced lazily by position; the loop unrolls like ``range`` loops do
(``config.max_unroll``). The glue rebuilds it, where it escapes or a break stops the
loop part way, as a real ``np.ndindex`` moved to the same position. A symbolic size
(a dimension marked dynamic) or an array argument is not handled here (the call breaks
as before: "np.ndindex is not in the op registry").

Example::

    >>> it = NdindexVariable((2, 3))
    >>> [it.next(tx).as_python_constant() for _ in range(4)]
    [(0, 0), (0, 1), (0, 2), (1, 0)]
"""

from __future__ import annotations

import math

import numpy as np

from .base import Variable
from .iterators import SequenceIteratorVariable, advanced
from .sequences import wrap_constant


class NdindexVariable(SequenceIteratorVariable):
    """``np.ndindex(*shape)``: the index into its C-order tuples, as an iterator."""

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape
        super().__init__(wrap_constant(()))

    def python_type(self) -> type:
        return np.ndindex

    def _len(self) -> int:
        return math.prod(self.shape)

    def _item(self, i: int) -> Variable:
        return wrap_constant(tuple(int(k) for k in np.unravel_index(i, self.shape))
                             if self.shape else ())

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: f"{cg.const(advanced)}({cg.const(np.ndindex)}"
                                          f"(*{cg.const(v.shape)}), {v.index}, {v.done})")


def ndindex_of(args: list[Variable], kwargs: dict) -> Variable | None:
    """``np.ndindex(2, 3)`` or ``np.ndindex((2, 3))`` of Python ints, else None."""
    if kwargs or not all(a.is_constant() for a in args):
        return None
    values = [a.as_python_constant() for a in args]
    shape = tuple(values[0]) if len(values) == 1 and isinstance(values[0], tuple) \
        else tuple(values)
    if not all(type(d) is int and d >= 0 for d in shape):
        return None
    return NdindexVariable(shape)
