"""Shapes made of ints the graph computes from array data (issue #19):
``k = int(labels.max()) + 1; np.zeros((k, d))``, ``np.zeros(int(counts.sum()))``,
``np.arange(int(x.sum()))``, ``np.eye(int(y.max()) + 1)``.

``int()`` of a 0-d integer array of the graph is an *unbacked int* (``ui0``,
``variables/graph_numbers.py``): arithmetic on it stays in the graph, but a shape
made of it used to pin it, which is a graph break (``ShapeEnv`` "a shape (the length
of an op's result)"). Yet NumPy reads such a size only when it runs, as it reads a
0-d integer array given as a size (``np.zeros((n, labels.max() + 1))``, modelled as an
unbacked size whose value is the array's: ``data_sizes.valued_shape``). So for the
ops whose rules take such a size, the rule is shown a 0-d int64 array in place of the
int (``stand_ins``), and the dimension becomes an unbacked size read off the result
when needed; the graph itself still passes NumPy the Python int (the ``SymArg``
expression, ``int(snapshot) + 1``), so values, dtypes and errors are eager's: a
negative size raises NumPy's ``ValueError`` when the graph runs (the node is marked
``may_raise``), one past int64 NumPy's own error.

Only the size arguments listed in ``_SIZE_ARGUMENT`` qualify, and only ints that hold
an unbacked int symbol; sizes read off arrays (``u0``) and ints of the caller
(``s0``) are fitted as before. Every other use of the int still breaks.

Example::

    >>> k = SymInt(4099, Sym.symbol("ui0", "ui0")) + 1
    >>> stand_ins("zeros", ((k, 3),), {})
    (((StandIn(shape=(), dtype=dtype('int64'), ..., expression='ui0 + 1'), 3),), {})
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..symbolic import SymInt
from .meta import NUMPY, ArrayMeta

# op name -> (position, keyword) of its size argument: a shape (an int or a sequence
# of ints) for the creation ops, ``stop`` alone for arange, ``N`` for eye
_SIZE_ARGUMENT = {"zeros": (0, "shape"), "ones": (0, "shape"), "empty": (0, "shape"),
                  "full": (0, "shape"), "arange": (0, "stop"), "eye": (0, "N"),
                  "identity": (0, "n")}


@dataclass(frozen=True)
class StandIn(ArrayMeta):
    """What the rule sees in place of the int: a 0-d int64 value of the graph, which
    remembers the int's expression (``ui0 + 1``): two sizes read from one expression
    are one (``unbacked_results``: ``np.zeros((k, d)) / np.ones(k)[:, None]``), since
    the graph computes it once from one snapshot."""
    expression: str = field(default="", compare=False)


def _stand_in(expression: str) -> StandIn:
    # (a new object each time: ``valued_shape`` tells sizes apart by identity)
    return StandIn((), np.dtype(np.int64), NUMPY, True, expression)


def is_computed_int(value) -> bool:
    """Is ``value`` an int the graph computes from array data (it holds a ``ui``
    symbol: ``int(y.max()) + 1``)?"""
    return isinstance(value, SymInt) and any(s.startswith("ui") for s in value.sym.symbols)


def stand_ins(op_name: str, meta_args: tuple, meta_kwargs: dict) -> tuple[tuple, dict]:
    """The rule's arguments with each computed int of the op's size argument replaced
    by a 0-d int64 ArrayMeta (one object per expression, so ``np.zeros((k, k))`` has
    one size); the call unchanged for other ops, or when there is none."""
    where = _SIZE_ARGUMENT.get(op_name)
    if where is None:
        return meta_args, meta_kwargs
    at, name = where
    if len(meta_args) > at:
        size, put = meta_args[at], lambda v: (*meta_args[:at], v, *meta_args[at + 1:])
    elif name in meta_kwargs:
        size, put = meta_kwargs[name], None
    else:
        return meta_args, meta_kwargs
    stand_in: dict[str, ArrayMeta] = {}   # one per expression: (k, k) is one size

    def replaced(d):
        if not is_computed_int(d):
            return d
        text = d.sym.render()
        return stand_in.setdefault(text, _stand_in(text))
    if isinstance(size, (tuple, list)) and op_name not in ("arange", "eye", "identity"):
        new = type(size)(replaced(d) for d in size)
    else:
        new = replaced(size)
    if not stand_in:
        return meta_args, meta_kwargs
    if put is not None:
        return put(new), meta_kwargs
    return meta_args, {**meta_kwargs, name: new}


__all__ = ["StandIn", "is_computed_int", "stand_ins"]
