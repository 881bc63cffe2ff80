"""Python numbers a trace guards by value and also writes back with another value: the
entry it builds would fail that guard on the very next call, so the trace starts over
with those numbers as changing (symbolic) ones.

A number becomes symbolic once an earlier entry guarded another value at its source
(``DynamicPolicy.is_dynamic_number``). State the frame updates itself (a loss scale that
doubles every few steps, a step counter, a decaying epsilon) is known to change before
any other call: the trace has just written the new value. Waiting for the next call to
learn it costs one recompile per branch the program takes before the value first
changes (``loss_scaler_growth`` in ``tests/realworld/stateful_programs.py``: 4
recompiles, 2 with this).

Example::

    class Scaler:
        def unscale(self, g):
            out = g / self.scale            # guarded: self.scale == 1024.0
            self.steps += 1                 # written back: 1 (guarded 0)
            if self.steps % 3 == 0:
                self.scale *= 2.0           # written back: 2048.0
            return out

The first trace of the call with ``steps == 2`` writes ``scale = 2048.0`` where it
guarded ``1024.0`` and ``steps = 3`` where it guarded ``2``; it starts over with both as
symbolic numbers (``previous_numbers``), so that one entry serves every later call that
takes the branch. Only plain ints and floats (not bools) count, written as known
constants or computed from a changing number (``self.avg = 0.95 * self.avg + 0.05 *
reward`` once ``reward`` is symbolic: compared at this call's value); a number a
trace must use as a plain value is pinned (``policy.static``) and stays a constant,
as before.
"""

from __future__ import annotations

from dynamo.guards import (
    CONSTANT,
    AttrSource,
    ClosureSource,
    GlobalSource,
    ItemSource,
    PassedCellSource,
)

from .scalars import SymFloat
from .sizes import SymInt

NUMBER_TYPES = (int, float)


def _writes(output):
    """(source, written Variable) for each attribute of an outside object, each item
    set in a dict or list from outside (at a constant key or index), each closure cell
    and each global the trace wrote. ``st["step"] += 1`` in a per-parameter state
    dict, ``nonlocal n; n += 1`` and ``self.counts[0] += 1`` step their number as
    ``self.t += 1`` does."""
    for var in output.side_effects.mutated.values():
        pending = getattr(var, "pending", None)
        source = getattr(var, "source", None)
        if source is None:
            continue
        if isinstance(pending, dict):
            for name, value in pending.items():
                yield AttrSource(source, name), value
        if isinstance(source, (ClosureSource, PassedCellSource)):
            if getattr(var, "value", None) is not None:   # (a cell: read where it is)
                yield source, var.value
        elif callable(getattr(var, "store", None)) and hasattr(var, "layout_ops"):
            yield from _dict_writes(var, source)
        elif getattr(var, "kind", None) is list and callable(getattr(var, "is_unread", None)):
            yield from _list_writes(var, source)
    for name, value in output.side_effects.globals.items():
        yield GlobalSource(name), value


def _constant_key(key):
    """A key or index as the constant it is (a ConstantVariable's value, or the key
    itself), or None where it changes (a symbol) or is no plain constant."""
    key = getattr(key, "value", key)
    return key if type(key) in (int, str) else None


def _dict_writes(var, source):
    """``d[key] = value`` of a dict from outside, in the trace's order (the last one
    per key counts: ``self_invalidating`` keeps the last)."""
    item_source = getattr(var, "item_source", ItemSource)
    for op, key, value in var.write_back():
        key = _constant_key(key)
        if op == "set" and key is not None and value is not None:
            yield item_source(source, key), value


def _list_writes(var, source):
    """The items of a list from outside the trace: each item read whole, by its index
    (an item that moved, ``pop(0)``, only makes its number changing: no harm), or
    each item set at a constant index while the list is unread."""
    if var.is_unread():
        for _, index, value in var.edits:
            index = _constant_key(index)
            if index is not None:
                yield ItemSource(source, index), value
        return
    for i, value in enumerate(var.items):
        yield ItemSource(source, i), value


def self_invalidating(output) -> dict:
    """source -> (the guarded value, the new value), for each number the trace guarded
    by value (CONSTANT) and writes back as another constant of the same type.

    >>> self_invalidating(output)            # after tracing ``self.n += 1`` with n == 0
    {AttrSource(base=LocalSource(local='self'), attr='n'): (0, 1)}
    """
    guarded = {g.source: g.expected for g in output.guards
               if g.kind == CONSTANT and type(g.expected) in NUMBER_TYPES}
    if not guarded:
        return {}
    found = {}
    for source, var in _writes(output):
        if source not in guarded or not var.is_constant():
            continue
        value = _hint(getattr(var, "value", None))
        if type(value) is type(guarded[source]) and value != guarded[source]:
            found[source] = (guarded[source], value)
    return found


def _hint(value):
    """A number the trace knows, or the value at this call of one computed from a
    changing number (``self.avg = 0.95 * self.avg + 0.05 * reward``, ``reward`` a
    symbol: the written ``avg`` changes whenever ``reward`` does), read without
    pinning it."""
    if isinstance(value, SymFloat):
        return float.__float__(value)
    if isinstance(value, SymInt):
        return int.__int__(value)
    return value


def previous_numbers(policy, output) -> bool:
    """Record the numbers ``output`` writes back with new values as values an earlier
    entry guarded (so the next trace makes them symbolic); True when one was new and
    would now be symbolic (the trace should start over)."""
    restart = False
    for source, (now, new) in self_invalidating(output).items():
        seen = policy.previous_ints.setdefault(source, set())
        if new in seen:
            continue
        seen.add(new)
        restart = restart or policy.is_dynamic_number(source, now)
    return restart


def changing_sources(env) -> set:
    """The sources a finished trace read as changing numbers (a symbolic int used as a
    value, a symbolic float), kept with its entry: a later trace of the frame reads
    them as changing too (``DynamicPolicy.is_dynamic_number``), where their value
    alone would look constant to it. A best loss written only when it improves::

        if loss < self.best:        # an entry where it improved: best symbolic
            self.best = loss
        ...                         # the entry of a call where it did not: best was
                                    # guarded == 0.8 (one more entry when it improves)

    >>> changing_sources(output.shape_env)
    {AttrSource(base=LocalSource(local='self'), attr='best')}
    """
    trace = env.trace
    names = set(getattr(trace, "numbers", {}) or {})
    names |= {name for name, hint in env.hints.items() if type(hint) is float}
    return {env.symbols[name] for name in names if name in env.symbols}
