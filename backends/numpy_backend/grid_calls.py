"""``np.meshgrid``, ``np.cross``, ``np.triu``/``np.tril``, ``np.split``/``np.array_split``
as the C calls they end in.

These are Python functions of NumPy's whose own code is most of a call on small
arrays: ``np.meshgrid`` reshapes each input, sets ``.shape`` for ``indexing='xy'``,
calls ``np.broadcast_arrays`` (Python) and copies each view; ``np.cross`` converts,
normalizes three axes, moves axes, promotes, casts and indexes with ``...`` before its
nine ufunc calls; ``np.triu`` builds its ``np.tri`` mask on every call;
``np.split`` swaps axes twice per piece to slice them. A graph fixes
the shapes, dtypes and literal arguments when it is compiled, so generated code makes
those decisions once and keeps per call only the same copies and ufunc calls, on the
same operands in the same order: NumPy's result bit for bit (values, dtype, shape,
layout, its warnings from the same ufuncs). Per call, best of 5 x 5,000 calls by
``time.process_time`` at load 7-15 (scripts/bench_wrappers.py, docs/benchmarks.md):
``np.meshgrid`` of 64 and 48 points 21-24 -> 4.4-4.7 us, ``np.cross`` of (100, 3)
vectors 26-31 -> 7-12 us, ``np.triu`` 32x32 8-11 -> 2.1-2.3 us, ``np.split`` in 4
10.7-12.5 -> 0.6 us.

For ``gx, gy = np.meshgrid(x, y)`` of a (64,) ``x`` and a (48,) ``y``::

    >>> meshgrid_form(m, params, name_of)
    '_meshgrid_copies((x, y, ), _meshgrid_shapes, (48, 64), False)'

where ``_meshgrid_shapes`` is ``((1, 64), (48, 1))``: the shape NumPy gives each input
before broadcasting. Only ndarrays of static shape and literal keywords take these
forms (``np.cross`` only with 3-vectors on both sides, NumPy 2.4/2.5: 2-vectors warn
``DeprecationWarning`` from NumPy's frame, an error in 2.5); anything else stays
NumPy's own call, which also raises NumPy's errors for bad arguments.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from dynamo import npversion
from dynamo.graph import Node
from dynamo.ops.node_facts import array_meta

from .plan import static_shape

# ``np.cross``'s body was read against this NumPy (``cross3``; npversion.CHECKED)
CROSS_CHECKED = npversion.NUMPY in npversion.CHECKED

# the largest np.tri mask triu/tril bind as a constant (bytes; one per element)
MAX_MASK = 1 << 20

_empty, _multiply = np.empty, np.multiply


def _array(value) -> bool:
    """An ndarray value of the graph with a static shape (any number of dimensions)."""
    meta = array_meta(value) if isinstance(value, Node) else None
    return meta is not None and not meta.scalar and meta.kind == "numpy" and \
        static_shape(meta.shape)


# --------------------------------------------------------------------------- meshgrid

def meshgrid_copies(xs: tuple, shapes: tuple, full: tuple | None, sparse: bool) -> tuple:
    """``np.meshgrid(*xs, copy=True)``'s result: each input reshaped to its planned
    shape, then a C-ordered copy, broadcast to ``full`` unless ``sparse`` (what
    ``broadcast_arrays(...)`` and ``x.copy()`` give)."""
    if sparse:
        return tuple(x.reshape(s).copy() for x, s in zip(xs, shapes))
    out = []
    for x, s in zip(xs, shapes):
        grid = _empty(full, x.dtype)
        grid[...] = x.reshape(s)
        out.append(grid)
    return tuple(out)


def meshgrid_plan(sizes: list, indexing: str) -> tuple:
    """Each input's shape before broadcasting and the full grid's shape, as
    ``np.meshgrid`` derives them (numpy/lib/_function_base_impl.py)::

        >>> meshgrid_plan([64, 48], "xy")
        (((1, 64), (48, 1)), (48, 64))
    """
    ndim = len(sizes)
    shapes = [tuple(n if j == i else 1 for j in range(ndim)) for i, n in enumerate(sizes)]
    if indexing == "xy" and ndim > 1:   # the first two axes swap
        shapes[0] = (1, sizes[0]) + shapes[0][2:]
        shapes[1] = (sizes[1], 1) + shapes[1][2:]
    full = tuple(max(s[j] for s in shapes) if all(s[j] for s in shapes) else 0
                 for j in range(ndim))
    return tuple(shapes), full


def meshgrid_form(m, params: dict, name_of) -> str | None:
    xs, kw = params["xi"], params["kwargs"]
    if not xs or not all(_array(x) for x in xs) or set(kw) - {"copy", "sparse", "indexing"}:
        return None
    copy, sparse, indexing = kw.get("copy", True), kw.get("sparse", False), \
        kw.get("indexing", "xy")
    if copy is not True or type(sparse) is not bool or indexing not in ("xy", "ij") or \
            type(indexing) is not str:
        return None
    sizes = [int(np.prod(array_meta(x).shape)) for x in xs]
    shapes, full = meshgrid_plan(sizes, indexing)
    fn = m.bind(meshgrid_copies, "meshgrid_copies")
    args = "".join(f"{name_of(x)}, " for x in xs)
    return f"{fn}(({args}), {m.bind(shapes, 'meshgrid_shapes')}, {full!r}, {sparse})"


def meshgrid_signature(*xi, **kwargs):
    return {"xi": xi, "kwargs": kwargs}


# --------------------------------------------------------------------------- cross

def cross3(a, b, dtype, cast_a: bool, cast_b: bool, shape: tuple, index_a: tuple,
           index_b: tuple, perm: tuple):
    """``np.cross`` of 3-vectors after its argument checks (numpy/_core/numeric.py):
    the same ``astype`` casts, the same nine ufunc calls on the same views, the same
    ``moveaxis`` of the result (a transpose by ``perm``). ``index_a[k]`` picks component
    ``k`` of ``a`` where NumPy's ``moveaxis(a, axisa, -1)[..., k]`` does. (An operand
    already of ``dtype`` is not copied: NumPy's copy is only read.)"""
    if cast_a:
        a = a.astype(dtype)
    if cast_b:
        b = b.astype(dtype)
    cp = _empty(shape, dtype)
    a0, a1, a2 = a[index_a[0]], a[index_a[1]], a[index_a[2]]
    b0, b1, b2 = b[index_b[0]], b[index_b[1]], b[index_b[2]]
    cp0, cp1, cp2 = cp[..., 0], cp[..., 1], cp[..., 2]
    _multiply(a1, b2, out=cp0)
    tmp = _multiply(a2, b1, out=...)
    cp0 -= tmp
    _multiply(a2, b0, out=cp1)
    _multiply(a0, b2, out=tmp)
    cp1 -= tmp
    _multiply(a0, b1, out=cp2)
    _multiply(a1, b0, out=tmp)
    cp2 -= tmp
    return cp.transpose(perm)


def cross_plan(shape_a: tuple, shape_b: tuple, axisa: int, axisb: int, axisc: int):
    """(result shape before the move, component indices of ``a`` and ``b``, the
    transpose ``moveaxis(cp, -1, axisc)`` is), or None where NumPy would raise::

        >>> cross_plan((5, 3), (5, 3), -1, -1, -1)
        ((5, 3), ((slice(None), 0, Ellipsis), ...), (...), (0, 1))
    """
    try:
        axisa = normalize_axis_index(axisa, len(shape_a))
        axisb = normalize_axis_index(axisb, len(shape_b))
        if shape_a[axisa] != 3 or shape_b[axisb] != 3:
            return None
        rest = np.broadcast_shapes(shape_a[:axisa] + shape_a[axisa + 1:],
                                   shape_b[:axisb] + shape_b[axisb + 1:])
        ndim = len(rest) + 1
        axisc = normalize_axis_index(axisc, ndim)
    except (ValueError, TypeError, np.exceptions.AxisError):
        return None
    def picks(axis):   # noqa: E306 (the component along ``axis``, a view even of a 1-D)
        return tuple((slice(None),) * axis + (k, Ellipsis) for k in range(3))
    order = list(range(ndim - 1))
    order.insert(axisc, ndim - 1)
    return rest + (3,), picks(axisa), picks(axisb), tuple(order)


def cross_form(m, params: dict, name_of) -> str | None:
    a, b = params["a"], params["b"]
    axes = [params[k] for k in ("axisa", "axisb", "axisc", "axis")]
    if not CROSS_CHECKED or not _array(a) or not _array(b) or \
            not all(v is None or type(v) is int for v in axes):
        return None
    axisa, axisb, axisc, axis = axes
    if axis is not None:
        axisa = axisb = axisc = axis
    if None in (axisa, axisb, axisc):
        return None
    ma, mb = array_meta(a), array_meta(b)
    if ma.ndim < 1 or mb.ndim < 1 or ma.dtype.kind not in "iufc" or \
            mb.dtype.kind not in "iufc":
        return None
    plan = cross_plan(tuple(ma.shape), tuple(mb.shape), axisa, axisb, axisc)
    if plan is None:
        return None
    dtype = np.promote_types(ma.dtype, mb.dtype)
    shape, index_a, index_b, perm = plan
    fn = m.bind(cross3, "cross3")
    return (f"{fn}({name_of(a)}, {name_of(b)}, {m.bind(dtype, 'cross_dtype')}, "
            f"{ma.dtype != dtype}, {mb.dtype != dtype}, {shape!r}, "
            f"{m.bind(index_a, 'cross_index')}, {m.bind(index_b, 'cross_index')}, {perm!r})")


def cross_signature(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    return {"a": a, "b": b, "axisa": axisa, "axisb": axisb, "axisc": axisc, "axis": axis}


# --------------------------------------------------------------------------- triu/tril

def triangle_form(upper: bool):
    """``np.triu``/``np.tril`` of an ndarray of 2 or more dimensions and a literal
    ``k``: ``where`` with the ``tri`` mask and the ``zeros(1, dtype)`` NumPy builds
    per call, built once (bound constants, read only)."""
    def form(m, params: dict, name_of) -> str | None:
        a, k = params["m"], params["k"]
        if not _array(a) or type(k) is not int or array_meta(a).ndim < 2:
            return None
        meta = array_meta(a)
        n, cols = meta.shape[-2:]
        if n * cols > MAX_MASK or meta.dtype.kind not in "biufcmM":
            return None
        mask = np.tri(n, cols, k=k - 1 if upper else k, dtype=bool)
        mask.flags.writeable = False
        zero = np.zeros(1, meta.dtype)
        zero.flags.writeable = False
        where, mask, zero = m.bind(np.where, "where"), m.bind(mask, "tri_mask"), \
            m.bind(zero, "tri_zero")
        x = name_of(a)
        return f"{where}({mask}, {zero}, {x})" if upper else f"{where}({mask}, {x}, {zero})"
    return form


def triangle_signature(m, k=0):
    return {"m": m, "k": k}


# --------------------------------------------------------------------------- split

# the most pieces a split is written out for (one slice each in the source)
MAX_PIECES = 64


def split_points(n: int, sections, even: bool) -> list | None:
    """Where ``np.split``/``np.array_split`` cut an axis of length ``n``
    (numpy/lib/_shape_base_impl.py), or None where NumPy raises::

        >>> split_points(10, 3, False), split_points(8, [3, 5, 10], True)
        ([0, 4, 7, 10], [0, 3, 5, 10, 8])
    """
    if isinstance(sections, (tuple, list)):
        return [0, *sections, n]
    if sections <= 0 or even and n % sections:
        return None
    each, extras = divmod(n, sections)
    sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
    return [int(p) for p in np.cumsum(sizes)]


def split_form(even: bool):
    """``np.split``/``np.array_split`` of an ndarray with literal sections and axis:
    the list of slices they return (``swapaxes(swapaxes(a, axis, 0)[st:end], axis, 0)``
    is the view ``a[:, ..., st:end]``: the same shape, strides and base)."""
    def form(m, params: dict, name_of) -> str | None:
        a, sections, axis = params["ary"], params["indices_or_sections"], params["axis"]
        if not _array(a) or type(axis) is not int or not _sections(sections):
            return None
        meta = array_meta(a)
        try:
            axis = normalize_axis_index(axis, meta.ndim)
        except (np.exceptions.AxisError, TypeError):
            return None
        points = split_points(meta.shape[axis], sections, even)
        if points is None or len(points) - 1 > MAX_PIECES:
            return None
        x, before = name_of(a), ":, " * axis
        pieces = [f"{x}[{before}{st}:{end}]" for st, end in zip(points, points[1:])]
        return f"[{', '.join(pieces)}]"
    return form


def _sections(value) -> bool:
    """A literal int, or a tuple/list of literal ints."""
    if isinstance(value, (tuple, list)):
        return all(type(v) is int for v in value)
    return type(value) is int


def split_signature(ary, indices_or_sections, axis=0):
    return {"ary": ary, "indices_or_sections": indices_or_sections, "axis": axis}
