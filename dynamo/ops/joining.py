"""Joining and splitting: ``concatenate``, ``stack``, ``hstack``/``vstack``/``dstack``/
``column_stack``, and ``split``/``array_split``/``hsplit``/``vsplit``/``dsplit``.

Joins take a list or tuple of arrays (Python sequences of numbers are allowed as
members, as NumPy converts them); the result's shape is NumPy's formula and its
dtype comes from joining ``min(d, 1)`` probes with the real ``dtype=``/``casting=``.
Splits return a Python list of views, one ArrayMeta per piece: the translator turns
it into a list of arrays, so ``a, b = np.split(x, 2)`` and ``parts[0]`` both work.

Example::

    >>> op = get("array_split")
    >>> [m.shape for m in op.meta(op, (ArrayMeta((7, 2), np.dtype("f4")), 3), {})]
    [(3, 2), (2, 2), (2, 2)]
"""

from __future__ import annotations

import math
import operator

import numpy as np

from . import rules
from .listed import holds_arrays, listed_meta
from .meta import ArrayMeta, probe
from .registry import OPAQUE, VIEW, OpDef, register
from .rules import MetaError


class _Const(ArrayMeta):
    """A member that is a Python value; ``value`` is what the probe call passes."""

    value: object = None


def _members(seq) -> list[ArrayMeta]:
    """The arrays being joined, as metas (Python values become the arrays NumPy makes)."""
    if isinstance(seq, ArrayMeta) or not isinstance(seq, (list, tuple)):
        raise MetaError("joining an array's rows (pass a list or tuple of arrays)")
    out = []
    for item in seq:
        if isinstance(item, ArrayMeta):
            out.append(item)
            continue
        if holds_arrays(item):   # [u[0]]: NumPy converts it, as np.asarray (listed.py)
            out.append(listed_meta(item, "a member"))
            continue
        value = np.asarray(rules.static(item, "a member"))
        m = _Const(value.shape, value.dtype, "const")
        # A Python scalar stays itself (np.concatenate treats it as weak, NEP 50); a
        # sequence becomes the array NumPy makes of it, shrunk like the probes.
        object.__setattr__(m, "value", item if value.ndim == 0 else
                           value[tuple(slice(0, 1) for _ in value.shape)])
        out.append(m)
    return out


def _probe(m: ArrayMeta):
    if isinstance(m, _Const):
        return m.value
    return probe(m.with_(scalar=False), keep_ndim=True)


def _atleast(shape: tuple, nd: int) -> tuple:
    """The shape ``np.atleast_{1,2,3}d`` gives (1-d and 2-d rows go in the middle)."""
    if len(shape) >= nd:
        return shape
    if nd == 1:
        return (1,)
    if nd == 2:
        return (1,) + shape if len(shape) == 1 else (1, 1)
    return {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}[len(shape)]


def concat_shape(shapes: list[tuple], axis) -> tuple:
    if not shapes:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        return (sum(math.prod(s) for s in shapes),)
    nd = len(shapes[0])
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = rules.axis_index(axis, nd)
    for s in shapes[1:]:
        if len(s) != nd:
            raise ValueError("all the input arrays must have same number of dimensions")
        if any(s[i] != shapes[0][i] for i in range(nd) if i != ax):
            raise ValueError("all the input array dimensions except for the concatenation "
                             "axis must match exactly")
    out = list(shapes[0])
    out[ax] = sum(s[ax] for s in shapes)
    return tuple(out)


def _joined(op, members, shape, kwargs) -> ArrayMeta:
    kinds = {m.kind for m in members} - {"const"}
    if len(kinds) > 1:
        raise TypeError(f"mixed array libraries in one call: {sorted(kinds)}")
    rules.static(kwargs, f"{op.name}'s keywords")
    value = rules.run_quietly(op.impl, [_probe(m) for m in members], **kwargs)
    return ArrayMeta(shape, value.dtype, kinds.pop() if kinds else "numpy", False)


def concatenate_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    if params.pop("out", None) is not None:
        raise MetaError("concatenate(out=)")
    members = _members(params.pop("arrays"))
    shape = concat_shape([m.shape for m in members], params.get("axis", 0))
    return _joined(op, members, shape, params)


def stack_rule(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    if params.pop("out", None) is not None:
        raise MetaError("stack(out=)")
    members = _members(params.pop("arrays"))
    if not members:
        raise ValueError("need at least one array to stack")
    if len({m.shape for m in members}) != 1:
        raise ValueError("all input arrays must have the same shape")
    base = members[0].shape
    ax = rules.axis_index(params.get("axis", 0), len(base) + 1)
    return _joined(op, members, base[:ax] + (len(members),) + base[ax:], params)


def _stacker(nd: int, axis_of):
    """hstack/vstack/dstack/column_stack: atleast_nd each member, then concatenate."""
    def rule(op, args, kwargs) -> ArrayMeta:
        params = rules.bind(op, args, kwargs)
        members = _members(params.pop("tup"))
        shapes = [_atleast(m.shape, nd) if nd != "column" else
                  ((m.size, 1) if len(m.shape) < 2 else m.shape) for m in members]
        if not shapes:
            raise ValueError("need at least one array to concatenate")
        shape = concat_shape(shapes, axis_of(shapes))
        return _joined(op, members, shape, params)
    return rule


register(OpDef("concatenate", np.concatenate, concatenate_rule, OPAQUE),
         functions=[np.concatenate])
register(OpDef("stack", np.stack, stack_rule, OPAQUE), functions=[np.stack])
register(OpDef("hstack", np.hstack, _stacker(1, lambda s: 0 if len(s[0]) == 1 else 1),
               OPAQUE), functions=[np.hstack])
register(OpDef("vstack", np.vstack, _stacker(2, lambda s: 0), OPAQUE), functions=[np.vstack])
register(OpDef("dstack", np.dstack, _stacker(3, lambda s: 2), OPAQUE), functions=[np.dstack])
register(OpDef("column_stack", np.column_stack, _stacker("column", lambda s: 1), OPAQUE),
         functions=[np.column_stack])

# --------------------------------------------------------------------------- splitting


def split_sizes(n: int, sections, even: bool) -> list[int]:
    """The length of every piece along the split axis."""
    rules.static(sections, "indices_or_sections")
    try:
        count = operator.index(sections)
    except TypeError:
        points = [0] + [operator.index(i) for i in sections] + [n]
        return [len(range(n)[a:b]) for a, b in zip(points, points[1:])]
    if count <= 0:
        raise ValueError("number sections must be larger than 0.")
    if even and n % count:
        raise ValueError("array split does not result in an equal division")
    each, extra = divmod(n, count)
    return [each + 1] * extra + [each] * (count - extra)


def _splitter(even: bool, fixed_axis=None):
    def rule(op, args, kwargs) -> list[ArrayMeta]:
        params = rules.bind(op, args, kwargs)
        a = rules.first_array(params, "ary")
        if fixed_axis is None:
            axis = rules.axis_index(params.get("axis", 0), a.ndim)
        else:
            axis = fixed_axis(a.ndim)
        sizes = split_sizes(a.shape[axis], params["indices_or_sections"], even)
        return [a.with_(shape=a.shape[:axis] + (s,) + a.shape[axis + 1:], scalar=False)
                for s in sizes]
    return rule


def _needs(nd: int, axis: int, name: str):
    def axis_of(ndim: int) -> int:
        if ndim < nd:
            raise ValueError(f"{name} only works on arrays of {nd} or more dimensions")
        return axis
    return axis_of


def _hsplit_axis(ndim: int) -> int:
    if ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return 1 if ndim > 1 else 0


register(OpDef("split", np.split, _splitter(True), VIEW), functions=[np.split])
register(OpDef("array_split", np.array_split, _splitter(False), VIEW),
         functions=[np.array_split])
register(OpDef("hsplit", np.hsplit, _splitter(True, _hsplit_axis), VIEW),
         functions=[np.hsplit])
register(OpDef("vsplit", np.vsplit, _splitter(True, _needs(2, 0, "vsplit")), VIEW),
         functions=[np.vsplit])
register(OpDef("dsplit", np.dsplit, _splitter(True, _needs(3, 2, "dsplit")), VIEW),
         functions=[np.dsplit])
