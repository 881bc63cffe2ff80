"""Changing ints used as indices (``buf[ptr] = obs``, ``grid[i, j]``): graph inputs whose
bounds NumPy checks when the graph runs, not values the entry is guarded on.

An integer index selects one position along an axis: the result's shape, dtype and
scalar-ness are the same for every position in bounds, and a position out of bounds
raises NumPy's own ``IndexError`` ("index 16 is out of bounds for axis 0 with size
16"). So the fit of ``x[i]`` (``fit.symbolic_shape``) need not move ``i``: it fits the
rule with each such index at a position that is in bounds wherever the hint is (0, or
-1 for a negative hint), and the graph passes the index as a value. The op is then
one that may raise for its values (``node.meta["may_raise"]``, see
``raising.raising_nodes``): a graph that raises there is rerun as the frame's own code,
or raises NumPy's error itself when nothing before it needs replaying.

Only an int that is a component of the index (``x[i]``, ``x[i, 1:]``, ``x[..., i]``)
or an item of a list of ints in it (``table[[i, j, k]]``: the result's shape is the
list's length), and whose symbols are none of ``x``'s sizes, is taken so:
``x[len(x) - 1]`` is in bounds for every length and keeps the plain fit (no run-time
check needed), and an int inside a slice changes the result's shape.

Example::

    >>> i = SymInt(5, Sym.symbol("s0", "L['i']"))
    >>> x = ArrayMeta((16, 4), np.dtype("f8"))
    >>> value_blind("setitem", (x, i, v), classes)
    ((x, 0, v), frozenset({'s0'}))
"""

from __future__ import annotations

from .fit import substitute, symbols_in
from .sizes import SymInt, is_unbacked

INDEXING_OPS = frozenset({"getitem", "setitem"})

RAISES = "an index out of bounds (NumPy checks it when the graph runs)"


def _at_hint(v: SymInt) -> int:
    """A position in bounds wherever the hint is: 0 for a hint >= 0 (the axis has at
    least hint + 1 >= 1 elements), -1 for a negative one (at least -hint >= 1)."""
    return 0 if int(v) >= 0 else -1


def value_blind(op_name: str, meta_args: tuple, classes, hints=None) -> tuple | None:
    """``(meta_args with each blind int index at a fixed position, its symbols)``, or
    None when the op is no indexing op or has no such index.

    ``classes`` are the trace's classes of equal symbols (``SymbolClasses``): an index
    whose symbol is in a class with one of ``x``'s sizes is not blind, nor one whose
    symbol has the hint of one of them (``hints``: symbol -> value at this call): the
    plain fit may find them equal (``U[i, i + 1:]`` with ``i`` from ``len(b)`` and a
    square ``U`` of that size: ``fit``'s coupled sizes), which a blind index would hide."""
    if op_name not in INDEXING_OPS or len(meta_args) < 2:
        return None
    x, index = meta_args[0], meta_args[1]
    shape_symbols = symbols_in(getattr(x, "shape", ()))
    shape_reps = {classes.find(s) for s in shape_symbols}
    hints = hints or {}
    shape_hints = {hints[s] for s in shape_symbols if s in hints}

    def blind(v) -> bool:
        return isinstance(v, SymInt) and \
            not any(is_unbacked(s) for s in v.sym.symbols) and \
            not {classes.find(s) for s in v.sym.symbols} & shape_reps and \
            not {hints.get(s) for s in v.sym.symbols} & shape_hints

    def int_list(p) -> bool:   # x[[i, j]]: a fancy index, one position per item
        return isinstance(p, list) and any(blind(v) for v in p) and \
            all(type(v) is int or blind(v) for v in p)

    parts = index if isinstance(index, tuple) else (index,)
    found = [v for p in parts for v in (p if int_list(p) else [p]) if blind(v)]
    if not found:
        return None
    fixed = tuple(_at_hint(p) if blind(p) else
                  [_at_hint(v) if blind(v) else v for v in p] if int_list(p) else p
                  for p in parts)
    new_index = fixed if isinstance(index, tuple) else fixed[0]
    return (x, new_index, *meta_args[2:]), frozenset().union(*(v.sym.symbols for v in found))


def meta_out_of_bounds(op, meta_args, meta_kwargs, hints: dict, classes, error):
    """The meta of ``x[i]`` (or ``x[i] = v``) whose rule raised ``error`` at this call's
    values, where only a changing int index is out of bounds (``buf[ptr]`` with ``ptr``
    past the end this time): the rule's answer at a position in bounds, so the entry
    serves every value and NumPy raises its own ``IndexError`` when the graph runs
    (the fit marks the op, ``value_blind``). None when the error is another one, or
    remains with every such index in bounds (``x[i, 7]`` of a 5-column ``x``)."""
    if not isinstance(error, IndexError):
        return None
    blind = value_blind(op.name, meta_args, classes, hints)
    if blind is None:
        return None
    try:
        return op.meta(op, *substitute((blind[0], meta_kwargs), hints))
    except Exception:  # noqa: BLE001 (NumPy raises for another reason: the caller's error)
        return None


def guard_in_bounds(op_name: str, meta_args: tuple, classes, hints=None) -> tuple | None:
    """``value_blind``'s answer where the graph must not raise at the index (Python
    effects traced before it, ``self.n += 1; return x[self.n % 4]``, would be lost):
    each blind index is guarded in bounds of its axis instead (``-4 <= i < 4``, two
    comparisons the entry records), so one entry serves every position in bounds and
    a position out of bounds fails the guard (the next trace raises eager's
    ``IndexError`` there). A list of ints along an axis of static length
    (``EMB[ids]``, ``ids`` read item by item by ``seen.extend(ids)`` before it) is
    guarded item by item so. None, for the plain fit (which pins), where an index is
    not a plain component along an axis of static length (``x[..., i]``, two lists,
    ``x[i]`` of a symbolic length) or is out of bounds now.

    Example: ``x[i]`` of a 4-element ``x`` with ``i`` at 2 records ``i >= -4`` and
    ``i < 4`` and fits as ``x[0]``."""
    blind = value_blind(op_name, meta_args, classes, hints)
    if blind is None:
        return None
    x, index = meta_args[0], meta_args[1]
    parts = index if isinstance(index, tuple) else (index,)
    shape = getattr(x, "shape", None)
    if shape is None or len(parts) > len(shape):
        return None
    checks = []
    lists = [p for p in parts if isinstance(p, list)]
    for axis, p in enumerate(parts):
        # a list of ints (``EMB[ids]`` with ids' items changing ints): each item along
        # this axis; the result's shape is the list's length whatever the values (one
        # list only: the plain fit keeps two, which NumPy broadcasts together)
        items = p if isinstance(p, list) and len(lists) == 1 else [p]
        if any(isinstance(v, SymInt) and v.sym.symbols & blind[1] for v in items):
            n = shape[axis]
            if type(n) is not int or any(
                    not (type(v) is int or isinstance(v, SymInt)) or
                    not -n <= int.__int__(v) < n for v in items):
                return None
            checks.extend((v, n) for v in items if isinstance(v, SymInt))
        elif not (type(p) is int or isinstance(p, slice) and
                  not symbols_in((p.start, p.stop, p.step))):
            return None      # (an Ellipsis, None, a list or array: no axis to name)
    for p, n in checks:     # (each comparison of the symbols is a guard of the entry)
        if not (p >= -n and p < n):
            return None
    return blind
