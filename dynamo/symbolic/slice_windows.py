"""Windows of an array between two changing ints, ``x[i:j]`` (issue #19, window sums).

``x[i:j]`` has ``j - i`` elements wherever ``0 <= i <= j <= len(x)``: an affine size.
The fit (``fit.symbolic_shape``) moves one symbol at a time, far (17, 42) and near (3,
7, 1, 2): each move alone leaves that region (``i`` past ``j``, ``j`` past the end),
where NumPy clamps, so it found no affine size, or one valid only in a relation
between ``i`` and ``j``, and pinned ``i``. In an outlined loop body (``for j in
range(i + 1, n): print(...); s += x[i:j].sum()``) the resume function then compiled
once per ``i`` until ``config.cache_size_limit``.

Here such a slice is required in that region instead, each bound compared once (the
comparisons are decisions the entry records, as ``indices.guard_in_bounds`` does for
an integer position): ``i >= 0``, ``j <= len(x)`` and the length's class, ``j - i >=
2``, or ``== 1`` / ``== 0`` (sizes 0 and 1 are specialized, as every size is: the
result's dimension is then the constant). The op is fitted with ``:`` in the slice's
place, and that dimension of the result is then the length.

Only ``x[start:stop]`` (step 1) of a ``getitem`` whose start is a changing int and
whose length is one too (``x[:n]`` and ``x[k:k + 3]`` keep their own fits), along an
axis the index names (ints and slices only), and where the window is in that region
at this call: else None, and the plain fit, as before.

Example::

    >>> window_fit(env, getitem, (x_meta, slice(i, j)), meta)   # i = 2, j = 5, len 7
    ArrayMeta(shape=(SymInt(3, s1 - s0),), ...)   # decided: s0 >= 0, s1 <= 7, s1 - s0 >= 2
"""

from __future__ import annotations

from .fit import substitute, symbols_in
from .sizes import SymInt, is_unbacked


def _windows(index, shape) -> list | None:
    """``(axis, start, stop)`` of each window of ``index`` on ``shape``; None where the
    index has anything but ints and slices, or no window."""
    parts = index if isinstance(index, tuple) else (index,)
    if len(parts) > len(shape):
        return None
    found = []
    for axis, p in enumerate(parts):
        if isinstance(p, slice) and p.step in (None, 1) and isinstance(p.start, SymInt) \
                and isinstance(p.stop - p.start if p.stop is not None else None, SymInt):
            found.append((axis, p.start, p.stop))
        elif not (type(p) is int or isinstance(p, slice) and
                  not symbols_in((p.start, p.stop, p.step))):
            return None
    return found or None


def window_fit(shape_env, op, meta_args, meta_kwargs, meta):
    """The result of ``x[... i:j ...]`` whose windows are in bounds (decided), or None
    (``op`` no getitem, no window, a bound only the data decides, or a window out of
    that region at this call)."""
    if op.name != "getitem" or meta_kwargs or len(meta_args) != 2 or \
            not hasattr(meta_args[0], "shape"):
        return None
    x, index = meta_args
    windows = _windows(index, x.shape)
    if windows is None or any(is_unbacked(s) for s in symbols_in(windows)):
        return None
    parts = index if isinstance(index, tuple) else (index,)
    for axis, start, stop in windows:   # (at this call's values: nothing recorded)
        if not 0 <= int(start) <= int(stop) <= int(x.shape[axis]):
            return None
    lengths = {}
    for axis, start, stop in windows:   # (each comparison is a guard of the entry)
        length = stop - start
        small = int(length) if int(length) < 2 else None
        if not (start >= 0 and stop <= x.shape[axis] and
                (length >= 2 if small is None else length == small)):
            return None
        lengths[axis] = _own_size(shape_env, length) if small is None else small
    whole = tuple(slice(None) if axis in lengths else p for axis, p in enumerate(parts))
    args = [x, whole if isinstance(index, tuple) else whole[0]]
    fitted = shape_env.fit(op, args, meta_kwargs,
                           op.meta(op, *substitute((args, meta_kwargs), shape_env.hints)))
    # the result's dimensions: one per slice of the index, then x's others
    dims = [axis for axis, p in enumerate(parts) if isinstance(p, slice)]
    shape = list(fitted.shape)
    for axis, length in lengths.items():
        shape[dims.index(axis)] = length
    return fitted.with_(shape=tuple(shape))


def _own_size(shape_env, length: SymInt) -> SymInt:
    """``length`` (``j - i``) as a size of its own, read from ``(L['j'] - L['i'])``
    when the call starts (a ``FormSource``, as ``ShapeEnv.new_quotient``'s): the ops
    on the window are fitted by moving it alone. Moved as ``j - i``, each of ``i`` and
    ``j`` alone takes the length below 0, where the ops' rules raise: ``x[i:j].sum()``
    pinned ``i`` ("an op whose shape rule holds only for this size"). ``length``
    itself where it has one symbol, or one with no source the call can read."""
    from dynamo.guards import FormSource

    names = length.sym.symbols
    if len(names) < 2 or not all(n in shape_env.symbols for n in names):
        return length
    text = length.sym.runtime().replace("{", "{{").replace("}", "}}")
    source = FormSource(shape_env.symbols[min(names)], text)   # (no ``{}``: all of it)
    return shape_env.new_symbol(source, int(length), "the length of a window x[i:j]")


__all__ = ["window_fit"]
