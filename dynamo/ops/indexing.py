"""Indexing: ``x[index]`` and ``x[index] = value`` with NumPy's rules.

Supported in the graph: basic slicing (steps, negatives), ``None``/``np.newaxis``,
``...``, integer scalars (Python ints, NumPy integers, traced 0-d integer arrays),
integer arrays and lists (fancy indexing, including NumPy's placement of the
broadcast index dimensions), constant boolean lists, traced boolean masks, and for
*setitem* a boolean array mask with a scalar value or one value per selected element
(``x[x > 0] = 0``, ``x[m] = x[m] ** 2``: the written array keeps its shape; NumPy
checks the count when the graph runs). A traced boolean mask in ``x[mask]`` makes a
result whose size is the number of True elements, which only the data decides: an
unbacked size (``masked_meta``, docs/unbacked.md). A slice whose start or stop is a
traced 0-d integer array (``v[p[0]:p[1]]``) and whose step is 1 has an unbacked length
too (``array_bounded_meta``); other array bounds are a graph break.

The result shape comes from indexing a zero-strided ghost that has one extra,
empty, last dimension: NumPy does all its checks (too many indices, bounds of
integer constants, broadcasting of index arrays) and places the dimensions, but the
result is empty, so no element is copied whatever the index. (NumPy still walks
integer index arrays, which are ghosts too: about a millisecond per million
indices, the only tracing cost here that grows with the data.)

Example::

    >>> op = get("getitem")
    >>> x = ArrayMeta((5, 6, 7), np.dtype("f4"))
    >>> op.meta(op, (x, (ArrayMeta((2, 3), np.dtype("i8")), slice(None), [1, 2, 3])), {})
    ArrayMeta(shape=(2, 3, 6), dtype=dtype('float32'), kind='numpy', scalar=False)
"""

from __future__ import annotations

import math

import numpy as np

from . import rules
from .meta import DASK, NUMPY, ArrayMeta, DataSize, ghost
from .registry import MUTATION, OPAQUE, VIEW, OpDef, register
from .rules import MetaError


def _components(index) -> tuple:
    return index if isinstance(index, tuple) else (index,)


def _check_index(index) -> None:
    for part in _components(index):
        if isinstance(part, slice) and not _array_bounded(part):
            rules.static(part, "a slice bound")
        for m in rules.metas_in(part):
            if m.dtype.kind not in "iub":
                raise IndexError("arrays used as indices must be of integer (or boolean) "
                                 "type")


def _is_mask(part) -> bool:
    return isinstance(part, ArrayMeta) and part.dtype == np.bool_


def masked_meta(x: ArrayMeta, index) -> ArrayMeta:
    """The meta of ``x[index]`` where the index holds traced boolean masks: each mask of
    ``k`` dimensions selects its True elements, as ``k`` index arrays of one length
    that only the data decides (NumPy's rule), so that dimension of the result is a
    ``DataSize`` (an unbacked size).

    The shape comes from ``index_meta`` with each mask replaced by ``k`` zero index
    arrays of a made-up length (and the dimensions it covers by 1, so zeros are in
    bounds), run at two lengths: the dimensions that follow the length are the count.
    Where the other index arrays broadcast with one length and not another (``x[m,
    [0, 1]]``: only for counts of 1 or 2) it cannot say: ``MetaError``."""
    parts = list(_components(index))
    if x.kind == DASK:
        raise MetaError("a boolean mask of a dask array: its size depends on the data")
    if x.scalar:
        raise MetaError("a boolean mask of a NumPy scalar")
    zero_d = [p for p in parts if _is_mask(p) and p.ndim == 0]
    if zero_d and len(parts) == 1:
        # x[c] of a 0-d c: a new first dimension of length 1 (c True) or 0 (False)
        return ArrayMeta((DataSize(nonzero_of=1), *x.shape), x.dtype, x.kind, False)
    if zero_d and sum(_is_mask(p) for p in parts) > 1:
        raise MetaError("a 0-d boolean mask together with another mask")
    if any(isinstance(p, (list, np.ndarray)) and np.asarray(p).dtype == np.bool_
           for p in parts):
        raise MetaError("a traced boolean mask together with a constant one")
    fixed = sum(0 if p is None or p is Ellipsis else p.ndim if _is_mask(p) else 1
                for p in parts)
    shape, at = list(x.shape), 0
    for p in parts:
        if p is Ellipsis:
            at += max(len(x.shape) - fixed, 0)
        elif _is_mask(p) and p.ndim == 0:
            # NumPy indexes a new axis of length 1 with [0] (True) or [] (False): an
            # index array of the count's length, broadcast with the other index arrays
            shape.insert(at, 1)
            at += 1
        elif _is_mask(p):
            covered = tuple(shape[at:at + p.ndim])
            if covered != tuple(p.shape):
                raise IndexError(f"boolean index did not match indexed array: the mask has "
                                 f"shape {p.shape}, the dimensions it indexes {covered}")
            shape[at:at + p.ndim] = [1] * p.ndim
            at += p.ndim
        elif p is not None:
            at += 1
    flat = x.with_(shape=tuple(shape))

    def with_length(n: int) -> tuple:
        sub = []
        for p in parts:
            if _is_mask(p):
                sub += [ArrayMeta((n,), np.dtype(np.intp), p.kind)] * max(p.ndim, 1)
            else:
                sub.append(p)
        return index_meta(flat, tuple(sub)).shape

    if zero_d:
        return _zero_d_masked(x, parts, with_length)
    try:
        one, other = with_length(2), with_length(3)
    except Exception as e:  # noqa: BLE001
        try:
            with_length(1)
        except Exception:  # noqa: BLE001 (NumPy raises for every count: its own error)
            raise e from None
        raise MetaError("a boolean mask together with index arrays that broadcast with "
                        "some counts only") from None
    # one mask: the count is its number of True elements (the index arrays beside it
    # broadcast with any count: they have one element); it is the mask's ArrayMeta
    # after x's in the call (x, index)
    at = [j for j, p in enumerate(parts) if _is_mask(p)]
    of = 1 + len(rules.metas_in(parts[:at[0]])) if len(at) == 1 else None
    sizes = tuple(DataSize(nonzero_of=of) if a != b else a for a, b in zip(one, other))
    return ArrayMeta(sizes, x.dtype, x.kind, False)


def _zero_d_masked(x: ArrayMeta, parts: tuple, with_length) -> ArrayMeta:
    """``x[..., c, 0]`` with a 0-d mask ``c`` among other indices: its count is 0 or 1,
    so the shape is NumPy's for those two counts (``with_length``). Where they agree it
    is static; the dimensions where they differ are the count (an unbacked size); where
    NumPy takes one count only (``x[c, [0, 1]]``: only a True ``c`` broadcasts) it is
    that count's, and for the other NumPy raises its IndexError when the graph runs, as
    eagerly (indexing with a traced index may raise: ``raising.raising_nodes``); where
    it takes neither it raises NumPy's error now."""
    shapes, errors = {}, []
    for n in (0, 1):
        try:
            shapes[n] = with_length(n)
        except Exception as e:  # noqa: BLE001 (NumPy's own error for this count)
            errors.append(e)
    if not shapes:
        raise errors[0]
    if len(shapes) == 1:
        return ArrayMeta(tuple(shapes.popitem()[1]), x.dtype, x.kind, False)
    of = 1 + len(rules.metas_in(parts[:[_is_mask(p) for p in parts].index(True)]))
    sizes = tuple(DataSize(nonzero_of=of) if a != b else a
                  for a, b in zip(shapes[0], shapes[1]))
    return ArrayMeta(sizes, x.dtype, x.kind, False)


def _array_bounded(part) -> bool:
    """A slice whose start or stop is a traced 0-d integer array (``v[p[0]:p[1]]``,
    ``x[idx[i]:idx[i + 1]]``) and whose step is 1 or None: its length is an unbacked
    size (``array_bounded_meta``). A float or boolean bound, an array of more
    dimensions or another step stays a graph break (eagerly NumPy raises or slices)."""
    if not isinstance(part, slice) or not rules.metas_in(part):
        return False
    if part.step is not None and (isinstance(part.step, ArrayMeta) or part.step != 1 or
                                  type(part.step) is bool):
        return False
    return all(b is None or
               isinstance(b, ArrayMeta) and b.ndim == 0 and b.dtype.kind in "iu" or
               not rules.metas_in(b) and isinstance(b, (int, np.integer)) and
               type(b) is not bool
               for b in (part.start, part.stop))


# the words of rules.static's break, which dynamo/hints.py explains
_BOUND_BREAK = "a slice bound is an array: the result's shape depends on its data"


def array_bounded_meta(x: ArrayMeta, index) -> ArrayMeta:
    """The meta of ``x[lo:hi]`` (among other indices) where ``lo`` or ``hi`` is a traced
    0-d integer array: NumPy clamps the bounds as Python slices do (negatives count
    from the end, past the end is the end, start > stop is empty), so the length is
    only known when the graph runs: an unbacked size, one per slice; the mark's
    ``measure`` names the axis it cuts, so slices of the same bounds on axes of one
    length share one size (``unbacked_results._slice_length_key``).

    Which result dimension the slice makes is found by indexing with the slice as
    ``:`` and as ``0:0``: the dimensions that differ are its (where ``x``'s dimension
    is 0, both are 0 and so is the slice, whatever its bounds).

        >>> x = ArrayMeta((10, 3), np.dtype("f8")); lo = ArrayMeta((), np.dtype("i8"))
        >>> array_bounded_meta(x, (slice(lo, None), 1)).shape
        (DataSize(1, nonzero_of=None, measure=('slice', 0, 0)),)
    """
    if x.kind != NUMPY or any(m.kind != NUMPY for m in rules.metas_in(index)):
        # (CuPy would read a device bound back to the host; dask does not clamp lazily)
        raise MetaError(f"{_BOUND_BREAK} (a {x.kind} array)")
    parts = _components(index)
    if any(_is_mask(p) for p in parts):   # (its count would name the wrong argument)
        raise MetaError(f"{_BOUND_BREAK} (beside a boolean mask)")
    bounded = [j for j, p in enumerate(parts) if _array_bounded(p)]

    def with_slices(empty: int | None) -> tuple:
        sub = tuple((slice(0, 0) if j == empty else slice(None)) if j in bounded else p
                    for j, p in enumerate(parts))
        return index_meta(x, sub if isinstance(index, tuple) else sub[0]).shape

    full = with_slices(None)
    shape = list(full)
    key = 1   # one size per slice
    for j in bounded:
        for d, (a, b) in enumerate(zip(full, with_slices(j))):
            if a != b:
                # the slice's length is its bounds clamped to x's axis: marks naming the
                # same bounds and an axis of one length are one size (unbacked_results)
                shape[d] = DataSize(key, measure=("slice", j, sliced_axis(parts, j, x.ndim)))
        key += 1
    dtype = index_meta(x, tuple(slice(None) if j in bounded else p
                                for j, p in enumerate(parts))).dtype
    return ArrayMeta(tuple(shape), dtype, x.kind, False)


def sliced_axis(parts: tuple, j: int, ndim: int) -> int | None:
    """The axis of ``x`` that the slice ``parts[j]`` of ``x[parts]`` cuts, or None
    where it is not plain to read (a constant boolean list of more than one dimension
    takes several axes): then the slice's length is a size of its own.

        >>> lo = ArrayMeta((), np.dtype("i8"))
        >>> sliced_axis((None, 0, Ellipsis, slice(lo, None), 1), 3, 5)
        3
    """
    def takes(p) -> int | None:   # how many of x's axes one index part consumes
        if p is None:
            return 0
        if isinstance(p, (bool, np.bool_)):
            return None  # (x[True, lo:hi] adds an axis and takes none)
        if isinstance(p, (slice, int, np.integer, ArrayMeta)):
            return 1     # (a boolean ArrayMeta beside a bounded slice is refused)
        if isinstance(p, list) and np.asarray(p).dtype != np.bool_:
            return 1     # an integer list: one axis, however nested
        return None
    counts = [None if p is Ellipsis else takes(p) for p in parts]
    if any(c is None for k, c in enumerate(counts) if parts[k] is not Ellipsis):
        return None
    before = sum(c for c in counts[:j] if c is not None)
    if any(p is Ellipsis for p in parts[:j]):
        before += ndim - sum(c for c in counts if c is not None)
    return before


def index_meta(x: ArrayMeta, index) -> ArrayMeta:
    """The meta of ``x[index]``."""
    _check_index(index)
    if any(_array_bounded(p) for p in _components(index)):
        if x.scalar:
            raise MetaError(f"{_BOUND_BREAK} (of a NumPy scalar)")
        return array_bounded_meta(x, index)
    if any(_is_mask(p) for p in _components(index)):
        return masked_meta(x, index)
    sub = rules.substitute(_components(index), ghost)
    if x.scalar:
        value = rules.run_quietly(lambda: ghost(x)[sub if isinstance(index, tuple) else sub[0]])
        return rules.result_meta(value, np.shape(value), x.kind)
    wide = ghost(x.with_(shape=x.shape + (0,)))
    shape = rules.run_quietly(lambda: wide[sub + (slice(None),)]).shape[:-1]
    if shape == ():  # one element: ask the real ghost whether NumPy gives a scalar
        value = rules.run_quietly(lambda: ghost(x)[sub])
        return rules.result_meta(value, (), x.kind)
    dtype = rules.run_quietly(lambda: wide[sub + (slice(None),)]).dtype
    return ArrayMeta(tuple(shape), dtype, x.kind, False)


def getitem(x, index):
    return x[index]


def getitem_rule(op, args, kwargs) -> ArrayMeta:
    x, index = args
    if kwargs or not isinstance(x, ArrayMeta):
        raise MetaError("getitem of a non-array")
    return index_meta(x, index)


def setitem(x, index, value):
    x[index] = value
    return x


def _mask_target(x: ArrayMeta, index) -> tuple | None:
    """For ``x[mask] = v`` with a traced boolean mask: the shape of one selected row."""
    parts = _components(index)
    if len(parts) != 1 or not isinstance(parts[0], ArrayMeta) or parts[0].dtype != np.bool_:
        return None
    mask = parts[0]
    if mask.ndim == 0 and x.ndim > 0:   # x[c] = v of a 0-d c: (0 or 1,) + x.shape
        return tuple(x.shape)
    if mask.shape != x.shape[:mask.ndim] or mask.ndim == 0:
        raise MetaError("boolean mask whose shape differs from the array's")
    return x.shape[mask.ndim:]


def _value_shape(value) -> tuple:
    if isinstance(value, ArrayMeta):
        return value.shape
    return rules.shape_of(value)


def _fits_empty_fancy(index, vshape: tuple, target: tuple) -> bool:
    """NumPy's fancy-index assignment into an *empty* selection accepts extra leading
    value dimensions of any size (``x[[]] = np.zeros((2, 0))``); basic indexing and
    non-empty selections only drop leading 1s (``rules.fits``).

    Where the value's trailing dimensions equal the selection's, that holds. Where they
    only broadcast to it, NumPy's answer depends on which of them the fancy index made
    (``x[[]] = np.zeros((0, 1))`` raises for a 1-d ``x``, ``np.zeros((2, 0, 1))`` fits
    ``x[[]]`` of a ``(2, 3)`` ``x``): not modelled, so the rule gives up (a break)."""
    fancy = any(isinstance(p, list) or isinstance(p, ArrayMeta) and p.ndim > 0
                for p in _components(index))
    if not fancy or math.prod(target) != 0 or len(vshape) <= len(target):
        return False
    tail = tuple(vshape[len(vshape) - len(target):])
    if tail == tuple(target):
        return True
    try:
        broadcasts = np.broadcast_shapes(tail, tuple(target)) == tuple(target)
    except ValueError:
        return False
    if broadcasts:
        raise MetaError("an assignment into an empty fancy selection of a value with "
                        "extra dimensions that only broadcast to it")
    return False


def _counted_as_given(target: tuple, vshape: tuple) -> tuple:
    """The selection's shape with each dimension a mask counts (``x[m, 1:] = v``: a
    ``DataSize``) taken as the value's length there: a value of one element per True
    element, or of one that broadcasts, fits here, and NumPy checks the count against
    the value when the graph runs (indexing with a traced index may raise there)."""
    if not any(isinstance(d, DataSize) for d in target):
        return target
    lead = len(target) - len(vshape)
    return tuple((vshape[d - lead] if d >= lead else 1) if isinstance(n, DataSize) else n
                 for d, n in enumerate(target))


def _check_full_constant_mask(x: ArrayMeta, index, vshape: tuple) -> None:
    """``x[mask] = v`` with a constant boolean mask as deep as ``x`` takes NumPy's mask
    path, which takes only a 0-d or 1-d value (``np.ones(4)[[False] * 4] =
    np.zeros((1, 0))`` raises although the value would broadcast)."""
    parts = _components(index)
    if len(parts) != 1 or not isinstance(parts[0], (list, np.ndarray)):
        return
    mask = np.asarray(parts[0])
    if mask.dtype == np.bool_ and mask.ndim == len(x.shape) and len(vshape) > 1:
        raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or "
                        f"1-dimensional input, input has {len(vshape)} dimensions")


def setitem_rule(op, args, kwargs) -> ArrayMeta:
    """``x[index] = value``: the value broadcasts to the selection; returns ``x``."""
    x, index, value = args
    if x.scalar:
        raise TypeError(f"'{x.dtype.type.__name__}' object does not support item assignment")
    vshape = _value_shape(value)
    row = _mask_target(x, index)
    if row is not None:  # x[mask] = v selects (number of True elements,) + row
        if not row and len(vshape) > 1:
            raise TypeError(f"NumPy boolean array indexing assignment requires a 0 or "
                            f"1-dimensional input, input has {len(vshape)} dimensions")
        while len(vshape) > len(row) and vshape[0] == 1:
            vshape = vshape[1:]
        if len(vshape) > len(row):   # one value per True element: NumPy checks the
            lead, vshape = vshape[0], vshape[1:]   # count when the graph runs (a
            mask = _components(index)[0]           # raising node), unless it is 0
            if mask.size == 0 and lead > 1:
                raise ValueError(f"NumPy boolean array indexing assignment cannot assign "
                                 f"{lead} input values to the 0 output values where the "
                                 f"mask is true")
        if len(vshape) > len(row) or np.broadcast_shapes(vshape, row) != row:
            raise MetaError("boolean mask assignment of an array value that does not "
                            "broadcast to the selected rows")
    else:
        _check_full_constant_mask(x, index, vshape)
        selected = index_meta(x, index)
        target = _counted_as_given(selected.shape, vshape)
        if selected.scalar and vshape:  # one element: NumPy's answer depends on the dtype
            raise MetaError("a sequence assigned to one element (NumPy raises, or for a "
                            "bool array converts it with bool())")
        if not isinstance(value, ArrayMeta) and len(vshape) > len(target):
            raise ValueError("setting an array element with a sequence: a list value may "
                             "not have more dimensions than the selection")
        if not rules.fits(vshape, target) and not _fits_empty_fancy(index, vshape, target):
            raise ValueError(f"could not broadcast input array from shape {vshape} into "
                             f"shape {target}")
    _check_assigned(x, value)
    return x


def _check_assigned(x: ArrayMeta, value) -> None:
    """What NumPy would refuse or warn about when ``value`` is written into ``x``."""
    if isinstance(value, ArrayMeta):
        if value.dtype.kind == "c" and x.dtype.kind != "c":
            raise MetaError("assigning complex values to a real array warns in NumPy")
    else:  # a constant: NumPy's conversion errors (NaN to int, out of bounds) happen here
        rules.static(value, "an assigned sequence holding arrays")
        holder = np.empty(np.shape(value), dtype=x.dtype)
        rules.run_quietly(holder.__setitem__, Ellipsis, value)


register(OpDef("getitem", getitem, getitem_rule, VIEW,
               doc="x[index]: a view for basic indices, a copy for fancy ones"))
register(OpDef("setitem", setitem, setitem_rule, MUTATION, doc="x[index] = value"))


# --------------------------------------------------------------------------- x.flat


def flat_index_shape(size: int, index) -> tuple | None:
    """The shape of ``x.flat[index]`` (None: one element, a NumPy scalar)."""
    if isinstance(index, ArrayMeta):
        if index.dtype.kind not in "iu":
            raise MetaError("x.flat with a non-integer array index")
        if size == 0 and index.size:
            raise IndexError("index out of bounds for size 0")
        return None if index.ndim == 0 else index.shape
    if isinstance(index, slice):
        return (len(range(size)[rules.static(index, "a slice bound")]),)
    if index is Ellipsis:
        return (size,)
    if isinstance(index, (int, np.integer)) and not isinstance(index, (bool, np.bool_)):
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of bounds for size {size}")
        return None
    if isinstance(index, list) and all(isinstance(i, (int, np.integer)) and
                                       not isinstance(i, bool) for i in index):
        if any(not -size <= i < size for i in index):
            raise IndexError(f"index out of bounds for size {size}")
        return (len(index),)
    raise MetaError(f"x.flat[{index!r}]: only integers, slices, integer lists and arrays")


def flat_getitem(x, index):
    return x.flat[index]


def flat_getitem_rule(op, args, kwargs) -> ArrayMeta:
    x, index = args
    if x.scalar:
        raise MetaError("x.flat of a NumPy scalar")
    shape = flat_index_shape(x.size, index)
    if shape is None:
        return ArrayMeta((), x.dtype, x.kind, x.kind == "numpy")
    return ArrayMeta(tuple(shape), x.dtype, x.kind, False)


def flat_setitem(x, index, value):
    x.flat[index] = value
    return x


def flat_setitem_rule(op, args, kwargs) -> ArrayMeta:
    """``x.flat[index] = value``: values are repeated or cut to fit, as NumPy does."""
    x, index, value = args
    one = flat_getitem_rule(op, (x, index), {}).shape == ()
    if one and rules.shape_of(value) != ():
        raise MetaError("a sequence assigned to one element of x.flat")
    _check_assigned(x, value)
    return x


register(OpDef("flat_getitem", flat_getitem, flat_getitem_rule, OPAQUE,
               doc="x.flat[index]: a copy (one element: a NumPy scalar)"))
register(OpDef("flat_setitem", flat_setitem, flat_setitem_rule, MUTATION,
               doc="x.flat[index] = value (values repeat to fill the selection)"))
