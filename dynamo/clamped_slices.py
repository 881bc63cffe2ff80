"""Constant slices of an axis only the data sizes (issue #19, docs/unbacked.md).

``b = np.flatnonzero(m)`` has an unbacked length ``u0``. ``b[1:]`` is ``u0 - 1`` long
for ``u0 >= 1`` and empty at ``u0 == 0``: no affine size is right at every count, so the
fit refused it ("an op whose result would differ when the size is 0") and the graph
broke. Its length is still a function of ``u0`` alone, which NumPy computes when the
graph runs: here such a slice's dimension is an unbacked size of its own, read off the
result (``DataSize``, as for ``x[lo:hi]`` with array bounds), and two slices whose
lengths are the same function of the same axis length share it, so
``b[1:] - b[:-1]`` (both ``max(u0 - 1, 0)``) needs no check::

    starts = np.flatnonzero(np.diff(lab)) + 1      # u0
    gaps = starts[1:] - starts[:-1]                # u1 = len(starts[1:]) for both

Only slices with constant int bounds and a positive constant step on an axis whose length holds
one unbacked size, and only where the length is not affine in it (``b[:]``, ``b[0:]``
keep ``u0`` and are fitted as before). At ``u0 == 0`` the node gives NumPy's empty
slice, as eagerly: nothing is assumed about the count.

    >>> op, meta = clamped_slices(env, getitem, (b_meta, slice(1, None)), hinted)
    >>> meta.shape          # hinted was (4000,): the fit would take 4001 - 1
    (DataSize(1, nonzero_of=None, measure=('clamped', 'u0', 1, 1, (0, 0, 1, 2, 3))),)
"""

from __future__ import annotations

from dataclasses import replace

from . import ops
from .ops.indexing import sliced_axis
from .symbolic import SymInt, substitute, symbols_in

_SAMPLES = 4   # counts past the largest bound where an affine length must hold
# The key samples every count up to the largest bound: a bound past this (``b[-2**40:]``)
# is left to the fit, as before, where it would take time and memory in the bound
_MAX_BOUND = 1 << 12


def clamped_slices(shape_env, op: ops.OpDef, meta_args: tuple, meta, meta_kwargs=None):
    """``(op, meta)``: for ``x[...]`` with such slices, the op with a rule that marks
    their result dimensions ``DataSize`` at every size the fit tries, and ``meta``
    (the rule's answer at the hints) marked so; else the two as given. ``np.diff``
    too (``_clamped_diff``)."""
    if op.name == "diff":
        return _clamped_diff(shape_env, op, meta_args, meta_kwargs or {}, meta)
    if op.name != "getitem" or len(meta_args) != 2 or \
            not isinstance(meta_args[0], ops.ArrayMeta) or \
            not isinstance(meta, ops.ArrayMeta) or meta_args[0].kind != ops.NUMPY:
        return op, meta
    x, index = meta_args
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, ops.ArrayMeta) or isinstance(p, list) for p in parts):
        return op, meta     # (fancy or masked indexing: their own rules)
    marks = {}
    for j in range(len(parts)):
        key = _clamped_key(shape_env, x, parts, j)
        if key is None:
            continue
        d = _result_dim(op, substitute(meta_args, shape_env.hints), j)
        if d is None:
            return op, meta   # (not plain to read: the fit decides, as before)
        marks[d] = ops.DataSize(j + 1, measure=key)
    if not marks:
        return op, meta
    return _marking(op, meta, marks)


def _marking(op, meta, marks: dict):
    """``(op, meta)`` with the result dimensions in ``marks`` (dimension -> DataSize)
    marked, in the rule's answers at every size the fit tries too."""
    rule = op.meta

    def mark(out):
        shape = list(out.shape)
        for d, size in marks.items():
            shape[d] = size
        return out.with_(shape=tuple(shape))

    def marked(op_, args, kwargs):
        """The rule's answer with the clamped slices' dimensions marked."""
        return mark(rule(op_, args, kwargs))
    return replace(op, meta=marked), mark(meta)


def _clamped_diff(shape_env, op, meta_args: tuple, meta_kwargs: dict, meta):
    """``np.diff(b)`` of ``b = np.flatnonzero(m)`` (run lengths, gaps between events)
    is ``max(u0 - n, 0)`` long along ``axis``: the length of ``b[n:]``, so the same key
    (``np.diff(b) / b[1:]`` needs no check). Only a constant ``n >= 1`` and ``axis``,
    with no ``prepend``/``append`` (with them the length is often affine: the fit)."""
    try:
        params = ops.rules.bind(op, meta_args, meta_kwargs)
    except TypeError:
        return op, meta
    x, n, axis = params.get("a"), params.get("n", 1), params.get("axis", -1)
    if not isinstance(x, ops.ArrayMeta) or x.kind != ops.NUMPY or x.ndim == 0 or \
            not isinstance(meta, ops.ArrayMeta) or type(n) is not int or n < 1 or \
            type(axis) is not int or not -x.ndim <= axis < x.ndim or \
            any(params.get(k) is not None for k in ("prepend", "append")):
        return op, meta
    axis %= x.ndim
    parts = (slice(None),) * axis + (slice(n, None),)
    key = _clamped_key(shape_env, x, parts, axis)
    if key is None:
        return op, meta
    return _marking(op, meta, {axis: ops.DataSize(1, measure=key)})


def _clamped_key(shape_env, x, parts: tuple, j: int):
    """The key of ``parts[j]``'s length where it is a constant slice of an axis of one
    unbacked size whose length is not affine in it, else None. The key names the
    axis's length, the step and the slice's length at every axis length from 0 to
    ``step + 2`` past its bounds: two keys are equal only for one length at every
    count (past the largest bound both grow by one every ``step``, and agree over a
    whole period there)."""
    part = parts[j]
    if not isinstance(part, slice):
        return None
    step = 1 if part.step is None else part.step
    if type(step) is not int or step < 1 or any(
            b is not None and (type(b) is not int) for b in (part.start, part.stop)):
        return None
    axis = sliced_axis(parts, j, x.ndim)
    if axis is None or axis >= x.ndim:
        return None
    length = x.shape[axis]
    if not isinstance(length, SymInt):
        return None
    names = symbols_in(length)
    if len(names) != 1 or not names <= shape_env.unbacked.keys():
        return None
    (name,) = names
    bound = max(abs(b) for b in (part.start, part.stop, 0) if b is not None)
    if bound + step > _MAX_BOUND:
        return None     # (``b[-2**40:]``: 2**40 samples; the fit decides)
    top = bound + step + _SAMPLES
    at = [int(substitute(length, {name: u})) for u in range(top + 1)]
    sizes = [len(range(n)[part]) for n in at]
    slope = sizes[1] - sizes[0]
    if all(s == sizes[0] + slope * u for u, s in enumerate(sizes)):
        return None          # (affine at every count: the fit takes it)
    return ("clamped", length.sym.render(), bound, step,
            tuple(len(range(n)[part]) for n in range(bound + step + 3)))


def _result_dim(op, hinted: tuple, j: int) -> int | None:
    """The result dimension slice ``j`` of the index makes: the one that differs
    between the slice as ``:`` and as ``0:0`` (at the hints, where the axis is long)."""
    x, index = hinted
    parts = index if isinstance(index, tuple) else (index,)

    def shape(sl):
        sub = tuple(sl if k == j else p for k, p in enumerate(parts))
        return op.meta(op, (x, sub if isinstance(index, tuple) else sub[0]), {}).shape
    try:
        full, empty = shape(slice(None)), shape(slice(0, 0))
    except Exception:  # noqa: BLE001 (the rule refuses: leave it to the fit)
        return None
    differ = [d for d, (a, b) in enumerate(zip(full, empty)) if a != b]
    return differ[0] if len(full) == len(empty) and len(differ) == 1 else None
