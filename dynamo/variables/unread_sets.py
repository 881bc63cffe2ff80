"""A set (or frozenset) from outside the trace read lazily, by the elements the trace
touches: a dedupe or visit log (``self.seen.add(key)``, ``if key in self.seen``) is
guarded only on those elements (``(L['i']) in L['self'].seen``), not on its whole
contents, which change every call.

``s.add(k)``, ``s.discard(k)``, ``s.update(list_or_set)``, ``s |= {...}`` and
``s.clear()`` are only written: no guard; the glue replays them after the graph, in
program order (``___t.add(L['i'])``), so the set ends as eager's, its iteration order
too (the same adds in the same order). ``k in s`` guards ``k`` present or absent at the
call's start (once per key: a later test of the same key sees the trace's own writes);
``s.remove(k)`` looks ``k`` up the same way. ``len(s)`` and ``if s:`` are its length at
the start (a changing int once it changed between calls, as a dict's) plus the
elements the trace added, less those it removed, each of those guarded present or
absent at the start. After ``s.clear()`` the trace knows the set whole (empty, then its
own adds). The keys are those of ``unread_dicts`` (constants, changing ints, tuples of
them: the element's form, not its value). Anything else (iteration, ``sorted(s)``,
``s - t``, ``s.copy()``) reads the set whole: a graph break, as before, since the
order a set from outside iterates in depends on its history, which the trace does not
know.

Example::

    class Seen:
        def visit(self, x, i):
            w = 1.0
            if i not in self.seen:      # guards (L['i']) not in L['self'].seen
                self.seen.add(i)        # glue: ___t = L['self'].seen; ___t.add(L['i'])
                w = 2.0
            return x * w
"""

from __future__ import annotations

from dynamo.guards import Source

from ..exc import Unsupported
from .base import Variable
from .constant import ConstantVariable
from .sequences import SequenceVariable
from .set_displays import SetDisplayVariable
from .sets import SetVariable, build_recipe, build_set, const_key
from .unread_dicts import UnreadDictVariable

_PRESENT = ConstantVariable(True)   # (a set's "value" under a key it holds)
_WRITES = {"add", "discard", "remove", "update", "clear"}


class _Members(UnreadDictVariable):
    """The keys an ``UnreadSetVariable`` touched: ``UnreadDictVariable``'s bookkeeping
    (key forms, presence guards, the length) with presence as the only value."""

    KEYS = "set elements"

    def __init__(self, tx, live, source: Source):
        UnreadDictVariable.__init__(self, tx, live, source, None)

    def _look(self, tx, key, index):
        if key not in self._view:
            self._view[key] = _PRESENT if self._held(tx, key) else None
        return self._view[key]

    def _held(self, tx, key) -> bool:
        if key not in self._start:
            present = self._start[key] = self._hint(key) in self._live
            self._guard(tx, f"{self._text(key)} {'in' if present else 'not in'} "
                            f"{self.source.expr()}", [key], "a set element looked up")
        return self._start[key]

    def key(self, tx, index):
        """``index``'s key (``_key``), or a break where a guard cannot spell it."""
        key = self._key(tx, index)
        if key is None:
            raise Unsupported(f"{index.describe()} as the element of a set from outside "
                              "the trace (a guard cannot spell it)")
        return key


class UnreadSetVariable(SetVariable):
    """A set or frozenset from outside the trace whose contents are unread (see the
    module). ``ops`` holds the writes the glue replays, in program order."""

    def __init__(self, tx, live: set | frozenset, source: Source):
        self.source = source
        self.removals = 0
        self.frozen = type(live) is frozenset
        self._book = _Members(tx, live, source)
        self._known: dict | None = None   # after clear(): the elements (key -> Variable)
        self.ops: list[tuple[str, object]] = []

    # ------------------------------------------------------------------ whole reads
    @property
    def items(self) -> dict:
        if self._known is not None:   # (cleared in the trace: known whole)
            return self._known
        raise Unsupported(f"a set from outside the trace read whole ({self.source.name()}): "
                          "its order depends on its history")

    @items.setter
    def items(self, value: dict) -> None:
        self._known = value

    def python_type(self) -> type:
        return frozenset if self.frozen else set

    def describe(self) -> str:
        if self._known is not None:
            return f"set of {len(self._known)}"
        return f"{self.python_type().__name__} (elements unread)"

    # ------------------------------------------------------------------ reads
    def contains_key(self, tx, item) -> bool | None:
        """``item in s``: guarded present or absent at the start, once per key."""
        if self._known is not None:
            return const_key(item) in self._known
        return self._book._look(tx, self._book.key(tx, item), item) is not None

    def length(self, tx):
        """``len(s)`` without reading the elements (``_Members.length``); None in a loop
        node's body (then read whole: a break)."""
        if self._known is not None:
            return len(self._known)
        return self._book.length(tx)

    def truth(self, tx) -> bool:
        n = self.length(tx)
        if n is None:
            raise Unsupported("the truth of a set from outside the trace in a loop node")
        return bool(n != 0)

    # ------------------------------------------------------------------ writes
    def _write(self, tx, op: str, items: list[Variable], merged: tuple | None = None) -> None:
        """Record ``op`` of ``items`` (add or discard each), with no guard. Every key is
        made before anything changes, so that a break leaves the set as it was. Once
        cleared (known whole) the set keeps its recipe (``SetVariable.record``): each
        add or discard, or the one update that ``merged`` (its operand's recipe) is."""
        if self._known is not None:
            keys = [const_key(v) for v in items]
            if merged is not None:
                self.record(set.update, [merged])
            for key in keys:
                if merged is None:
                    self.record(set.add if op == "add" else set.discard, [("value", key)])
        else:
            keys = [self._book.key(tx, v) for v in items]
        tx.output.side_effects.mutate(self)
        for key, var in zip(keys, items):
            if self._known is not None and op == "add":
                self._known.setdefault(key, var)
            elif self._known is not None:
                self._known.pop(key, None)
            else:
                self._book._view[key] = _PRESENT if op == "add" else None
        if op == "discard":
            self.removals += 1

    def update_from(self, tx, other: Variable) -> None:
        """``s.update(other)`` / ``s |= other``: ``other``'s elements added in its order,
        replayed as one ``update`` of the same order (a list or tuple; a set made in the
        trace, rebuilt as it was built; a frozenset constant)."""
        if isinstance(other, SequenceVariable):
            items = list(other.items)
            self._write(tx, "add", items)
            self.ops.append(("update", items))
            return
        if isinstance(other, SetDisplayVariable) and other.pending is not None and \
                self._known is None:   # (known whole: its recipe needs the elements)
            items = list(other.pending)   # ({i, i + 1}: unhashed, rebuilt by the glue)
            self._write(tx, "add", items)
            self.ops.append(("update_set", items))
            return
        if type(other) in (SetVariable, SetDisplayVariable):
            # (merged in its table's order: made by its recipe, as the program made it)
            recipe = other.recipe()
            items = [other.items[k] for k in build_recipe(recipe)]
            self._write(tx, "add", items, merged=recipe)
            self.ops.append(("update_recipe", recipe))
            return
        if isinstance(other, ConstantVariable) and type(other.value) is frozenset:
            items = [ConstantVariable(k) for k in other.value]
            self._write(tx, "add", items, merged=("value", other.value))
            self.ops.append(("update_const", other.value))
            return
        raise Unsupported(f"a set from outside the trace updated from {other.describe()}")

    def getattr(self, tx, name: str) -> Variable:
        if self.frozen and name in _WRITES:
            raise Unsupported(f"frozenset.{name}")
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if self.frozen or kwargs:
            raise Unsupported(f"{self.python_type().__name__}.{name} of one from outside "
                              "the trace")
        if name in ("add", "discard") and len(args) == 1:
            self._write(tx, name, args)
            self.ops.append((name, args[0]))
            return ConstantVariable(None)
        if name == "remove" and len(args) == 1:
            if not self.contains_key(tx, args[0]):
                raise Unsupported("set.remove of a missing element (KeyError)")
            self._write(tx, "discard", args)
            self.ops.append(("discard", args[0]))
            return ConstantVariable(None)
        if name == "update":
            for other in args:
                self.update_from(tx, other)
            return ConstantVariable(None)
        if name == "clear" and not args:
            tx.output.side_effects.mutate(self)
            self._known = {}
            self.restart()   # (a new empty table: its recipe starts again)
            self.removals += 1
            self.ops.append(("clear", None))
            return ConstantVariable(None)
        if name.endswith("_update"):   # (the glue replays adds, discards, updates only)
            raise Unsupported(f"set.{name} of a set from outside the trace")
        return super().call_method(tx, name, args, kwargs)   # (a whole read: a break)

    def inplace_or(self, tx, other: Variable) -> Variable:
        """``s |= other``: ``update_from``; the set itself is the result (a frozenset's
        ``|=`` makes a new one: read whole, a break)."""
        if self.frozen:
            raise Unsupported("|= of a frozenset from outside the trace")
        self.update_from(tx, other)
        return self

    def replay(self, cg, target: str) -> list[tuple[None, str]]:
        """The glue's writes: each op on the real set, in program order."""
        writes = []
        for op, arg in self.ops:
            if op in ("add", "discard"):
                writes.append((None, f"{target}.{op}({cg.temp(cg.value(arg))})"))
            elif op == "update":
                items = "".join(f"{cg.value(v)}, " for v in arg)
                writes.append((None, f"{target}.update({cg.temp(f'({items})')})"))
            elif op == "update_set":
                items = "".join(f"{cg.value(v)}, " for v in arg)
                made = cg.temp(f"{cg.const(build_set)}(({items}))")
                writes.append((None, f"{target}.update({made})"))
            elif op == "update_recipe":   # (a set made in the trace, as it was made)
                made = cg.temp(f"{cg.const(build_recipe)}({cg.const(arg)})")
                writes.append((None, f"{target}.update({made})"))
            elif op == "update_const":
                writes.append((None, f"{target}.update({cg.const(arg)})"))
            else:
                writes.append((None, f"{target}.clear()"))
        return writes


__all__ = ["UnreadSetVariable"]
