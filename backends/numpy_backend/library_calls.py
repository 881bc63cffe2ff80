"""NumPy functions written in Python, called in generated code by their last step.

``np.roll``, ``np.stack`` and ``np.outer`` are Python functions of NumPy's: each call
re-derives, from its arguments, what the graph already fixed when it was compiled
(the axis normalized, the shapes compared, the slices of a roll built, ``itertools.
product`` over them) and then runs one or two C calls. Generated code calls those C
calls directly, with the decisions made once at compile time: the same copies or the
same ufunc over the same operands, so the result is NumPy's bit for bit (its dtype,
its layout: ``np.empty_like`` as ``np.roll`` does). A roll of a (150, 150) array
took 11.5 us through ``np.roll`` and 6.0 us this way (best of 5 x 2,000 calls,
``time.process_time``); a Jacobi step of four rolls does four of them.

For a ``roll`` node of a (128, 128) float64 ``u`` by ``1`` along axis 0::

    >>> fast_form(m, node, name_of)
    '_roll_copies(u, _roll_plan)'

where ``_roll_plan`` is ``(((slice(1, None), slice(None)), (slice(None, -1), ...)), ...)``:
the (result index, source index) pairs ``np.roll`` itself would copy, in its order.

Only ndarrays of static shape with literal shifts and axes take these forms; anything
else (a symbolic size, a shift computed at run time, ``axis=None``) stays NumPy's own
call, which also raises NumPy's errors for bad arguments.
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from dynamo import ops
from dynamo.graph import Node
from dynamo.ops.node_facts import array_meta

from .plan import static_shape


def fast_form(m, node: Node, name_of) -> str | None:
    """Source for ``node`` by the C calls its NumPy function ends in, or None."""
    form = _FORMS.get(node.target)
    if form is None or ops.get(node.target).impl is not _IMPLS[node.target]:
        return None
    try:
        params = _SIGNATURES[node.target](*node.args, **node.kwargs)
    except TypeError:   # arguments NumPy would reject: let it say so
        return None
    return form(m, params, name_of)


def roll_copies(a: np.ndarray, plan) -> np.ndarray:
    """``np.roll``'s last step: a new array like ``a``, filled by the planned copies."""
    result = np.empty_like(a)
    for res_index, arr_index in plan:
        result[res_index] = a[arr_index]
    return result


def roll_plan(shape: tuple, shift, axis) -> tuple:
    """The (result index, source index) pairs ``np.roll(a, shift, axis)`` copies for an
    ``a`` of ``shape``, in its order (numpy/_core/numeric.py, ``roll``).

        >>> roll_plan((4,), 1, 0)     # result[1:] = a[:-1]; result[:1] = a[-1:]
        (((slice(1, None, None),), (slice(None, -1, None),)),
         ((slice(None, 1, None),), (slice(-1, None, None),)))
    """
    axes = normalize_axis_tuple(axis, len(shape), allow_duplicate=True)
    broadcasted = np.broadcast(shift, axes)
    if broadcasted.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(len(shape)), 0)
    for sh, ax in broadcasted:
        shifts[ax] += int(sh)
    rolls = [((slice(None), slice(None)),)] * len(shape)
    for ax, offset in shifts.items():
        offset %= shape[ax] or 1
        if offset:
            rolls[ax] = ((slice(None, -offset), slice(offset, None)),
                         (slice(-offset, None), slice(None, offset)))
    plan = []
    for indices in itertools.product(*rolls):
        arr_index, res_index = zip(*indices)
        plan.append((res_index, arr_index))
    return tuple(plan)


def _array(value) -> bool:
    """An ndarray value of the graph with a static shape of one or more dimensions."""
    meta = array_meta(value) if isinstance(value, Node) else None
    return meta is not None and not meta.scalar and meta.kind == "numpy" and \
        len(meta.shape) > 0 and static_shape(meta.shape)


def _ints(value) -> bool:
    """A literal int or a tuple/list of them (not a value computed at run time)."""
    if isinstance(value, (tuple, list)):
        return all(type(v) is int for v in value)
    return type(value) is int


def _roll(m, params: dict, name_of) -> str | None:
    a, shift, axis = params["a"], params["shift"], params["axis"]
    if not _array(a) or axis is None or not _ints(shift) or not _ints(axis):
        return None
    try:
        plan = roll_plan(array_meta(a).shape, shift, axis)
    except (ValueError, TypeError, np.exceptions.AxisError):
        return None
    fn = m.bind(roll_copies, "roll_copies")
    return f"{fn}({name_of(a)}, {m.bind(plan, 'roll_plan')})"


def _stack(m, params: dict, name_of) -> str | None:
    arrays, axis = params["arrays"], params["axis"]
    if params["out"] is not None or not isinstance(arrays, (tuple, list)) or not arrays \
            or not all(_array(x) for x in arrays) or type(axis) is not int:
        return None
    shapes = {array_meta(x).shape for x in arrays}
    if len(shapes) != 1:
        return None
    ndim = len(next(iter(shapes))) + 1
    try:
        axis = normalize_axis_index(axis, ndim)
    except np.exceptions.AxisError:
        return None
    if params["dtype"] is not None and not isinstance(params["dtype"], (type, np.dtype)):
        return None
    if type(params["casting"]) is not str:
        return None
    index = ":, " * axis + "None"
    members = "".join(f"{name_of(x)}[{index}], " for x in arrays)
    fn = m.bind(np.concatenate, "concatenate")
    return (f"{fn}(({members}), axis={axis}, dtype={m.fmt(params['dtype'], name_of)}, "
            f"casting={params['casting']!r})")


def _outer(m, params: dict, name_of) -> str | None:
    a, b = params["a"], params["b"]
    if params["out"] is not None or not _array(a) or not _array(b):
        return None
    fn = m.bind(np.multiply, "multiply")
    return f"{fn}({name_of(a)}.ravel()[:, None], {name_of(b)}.ravel()[None, :])"


def _stack_signature(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return {"arrays": arrays, "axis": axis, "out": out, "dtype": dtype, "casting": casting}


_FORMS = {"roll": _roll, "stack": _stack, "outer": _outer}
# the NumPy function each form is the last step of (another implementation: no form)
_IMPLS = {"roll": np.roll, "stack": np.stack, "outer": np.outer}
_SIGNATURES = {
    "roll": lambda a, shift, axis=None: {"a": a, "shift": shift, "axis": axis},
    "stack": _stack_signature,
    "outer": lambda a, b, out=None: {"a": a, "b": b, "out": out},
}
