"""``np.take_along_axis`` and ``np.expand_dims`` as the indexing they end in.

``np.take_along_axis(arr, indices, axis)`` normalizes the axis, checks the index dtype
and builds, on every call, one ``np.arange(n).reshape(...)`` per other axis of ``arr``
before its one fancy index ``arr[fancy_index]``; ``np.expand_dims`` normalizes its axes
and derives the new shape before its one ``a.reshape(shape)``. For an ``arr`` of static
shape the aranges and the shape are fixed when the graph is compiled: generated code
binds them once (read-only constants) and keeps per call the same fancy index or
reshape, so the result is NumPy's bit for bit (values, dtype, strides; a view where
NumPy's is). ``np.take_along_axis`` of a (32, 32) array 10.1-10.7 -> 5.3-6.1 us,
``np.expand_dims`` 2.7-3.0 -> 0.3 us (best of 5 x 5,000 calls, ``time.process_time``
at load 7-15, scripts/bench_wrappers.py).

For ``np.take_along_axis(logp, y, axis=1)`` of a (64, 10) ``logp`` and a (64, 1) ``y``::

    >>> take_along_axis_form(m, params, name_of)
    'logp[_along_axis_0, y]'

where ``_along_axis_0`` is ``np.arange(64).reshape(-1, 1)``. ``axis=None``, an index
array of another dtype kind or number of dimensions (NumPy's errors) and anything of a
shape not known at compile time stay NumPy's own call.
"""

from __future__ import annotations

import inspect

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from dynamo.graph import Node
from dynamo.ops.node_facts import array_meta

from .plan import static_shape

# the most elements of all the aranges one take_along_axis binds as constants
MAX_ARANGE = 1 << 16

# np.take_along_axis's default axis (-1 since NumPy 2.3; none before: axis is required)
_TAKE_AXIS = inspect.signature(np.take_along_axis).parameters["axis"].default


def _array(value, static: bool) -> bool:
    """An ndarray value of the graph (of a static shape where ``static``)."""
    meta = array_meta(value) if isinstance(value, Node) else None
    return meta is not None and not meta.scalar and meta.kind == "numpy" and \
        (not static or static_shape(meta.shape))


def along_axis_aranges(shape: tuple, axis: int) -> list:
    """The aranges ``_make_along_axis_idx`` builds for an ``arr`` of ``shape``: one per
    axis but ``axis``, shaped to broadcast along its own axis (None at ``axis``)::

        >>> along_axis_aranges((2, 3), 1)
        [array([[0], [1]]), None]
    """
    ones = (1,) * len(shape)
    return [None if dim == axis else np.arange(n).reshape(ones[:dim] + (-1,) + ones[dim + 1:])
            for dim, n in enumerate(shape)]


def take_along_axis_form(m, params: dict, name_of) -> str | None:
    arr, indices, axis = params["arr"], params["indices"], params["axis"]
    if axis is inspect.Parameter.empty or type(axis) is not int or \
            not _array(arr, True) or not _array(indices, False):
        return None
    shape, index = array_meta(arr).shape, array_meta(indices)
    if index.dtype.kind not in "iu" or len(index.shape) != len(shape) or \
            sum(shape) > MAX_ARANGE:
        return None
    try:
        axis = normalize_axis_index(axis, len(shape))
    except np.exceptions.AxisError:
        return None
    parts = []
    for i, ar in enumerate(along_axis_aranges(tuple(shape), axis)):
        if ar is None:
            parts.append(name_of(indices))
        else:
            ar.flags.writeable = False
            parts.append(m.bind(ar, f"along_axis_{i}"))
    return f"{name_of(arr)}[{', '.join(parts)}]"


def take_along_axis_signature(arr, indices, axis=_TAKE_AXIS):
    return {"arr": arr, "indices": indices, "axis": axis}


def expand_dims_form(m, params: dict, name_of) -> str | None:
    """``np.expand_dims(a, axis)``: ``a.reshape(shape)`` with NumPy's new shape."""
    a, axis = params["a"], params["axis"]
    if not _array(a, True) or not (type(axis) is int or isinstance(axis, (tuple, list))
                                    and all(type(v) is int for v in axis)):
        return None
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    shape = array_meta(a).shape
    try:
        axes = normalize_axis_tuple(axes, len(axes) + len(shape))
    except (np.exceptions.AxisError, ValueError):
        return None
    rest = iter(shape)
    new = tuple(1 if ax in axes else next(rest) for ax in range(len(axes) + len(shape)))
    return f"{name_of(a)}.reshape({new!r})"


def expand_dims_signature(a, axis):
    return {"a": a, "axis": axis}
