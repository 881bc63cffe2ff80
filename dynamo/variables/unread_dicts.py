"""A dict from outside the trace read lazily, by the keys the trace touches: a memo table
or a log keyed by a step counter (``self.cache[self.step] = y``, ``if k not in self.m``)
is guarded only on those keys (``(L['self'].step + 1) not in L['self'].cache``), not on
its whole key set, which changes every call.

``d[k]``, ``d[k] = v``, ``del d[k]``, ``k in d``, ``d.get(k)``, ``d.setdefault(k, v)`` and
``d.pop(k[, v])`` leave the dict unread. ``k`` is a constant, a changing int (a
``SymInt`` over the frame's values: the step counter itself, not its value) or a tuple
of changing ints and constants (``self.log[(epoch, "loss")]``). A key read
is guarded present or absent (a decision of the call, ``EXPR``), its value read from
``L['self'].cache[L['self'].step]`` alone; a write needs no guard at all: the glue replays
``d[k] = v`` and ``del d[k]`` after the graph, in program order, which gives the dict the
layout the program would (a new key last; an old key keeps its place). Two keys the trace
cannot tell apart by their form (two symbols, a symbol and an int constant) are guarded
distinct, or equal where they are equal at this call (then one key).

``len(d)`` and its truth are its length when the call started (a changing int once it
changed between calls, as a list's) plus the keys the trace added, less those it removed.
Anything else (iteration, ``items()``, ``popitem``, a copy) reads the dict whole as
before (``DictVariable``: guarded by its keys in order), the changing keys pinned, the
trace's writes so far replayed on what it read.

Example::

    class Log:
        def record(self, x, loss):
            self.step += 1
            self.log[self.step] = loss   # guards nothing on self.log but its type;
            return x * loss              # glue: ___t = L['self'].step + 1; log[___t] = loss
"""

from __future__ import annotations

import collections
import weakref
from dataclasses import dataclass
from typing import Any

from dynamo.guards import (
    DICT_KEYS,
    EXPR,
    LENGTH,
    Guard,
    IndexedItemSource,
    ItemSource,
    Source,
    StoredItemSource,
)

from ..symbolic import SymFloat, SymInt
from ..symbolic.scalars import Expr
from ..symbolic.sizes import Sym
from .base import Variable
from .constant import ConstantVariable
from .dicts import DefaultDictVariable, DictVariable, DictViewVariable
from .first_key_iterators import FirstKeyIteratorVariable
from .iterators import DictIteratorVariable
from .lifetimes import break_at_drop
from .sequences import TupleVariable
from .sets import const_key, spelled_key

_NUMBER_KEYS = (int, float, bool, complex)
_FORMS = (Sym, Expr)   # a changing int's affine form, a changing float's expression


@dataclass(frozen=True)
class SymKey:
    """A key holding changing ints, by its form: one changing int (``step + 1``), or a
    tuple of changing ints and constants (``(epoch, "loss")``, ``is_tuple``); ``parts``
    holds a ``Sym`` per changing int and the constants as they are. Two keys of one form
    are the same key at every call; two forms of one changing int (``step``, ``step +
    1``) differ at every call."""

    parts: tuple
    is_tuple: bool = False

    @property
    def symbols(self) -> set:
        return {n for p in self.parts if isinstance(p, _FORMS) for n in p.symbols}

    def text(self, render=None) -> str:
        """The key as an expression over the frame's values (``render``: a name map for
        people instead)."""
        items = [(f"({p.runtime()})" if render is None else p.render(render))
                 if isinstance(p, _FORMS) else repr(p) for p in self.parts]
        if not self.is_tuple:
            return items[0]
        return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


def _form(tx, index) -> SymKey | None:
    """``index`` as a ``SymKey`` where it holds changing ints of the frame (outside a
    loop node's body, whose trips are not the call's), else None (a constant key)."""
    if tx.output.loop_scope is not None:
        return None
    symbols = tx.output.shape_env.symbols
    value = index.value if isinstance(index, ConstantVariable) else None
    if type(value) in (SymInt, SymFloat):
        return SymKey((value.sym,)) if _keyed(value, symbols) else None
    if isinstance(index, TupleVariable) and all(map(_part, index.items)):
        value = tuple(map(_part_value, index.items))
    if type(value) is not tuple or not any(type(v) in (SymInt, SymFloat) for v in value):
        return None
    if not all(_keyed(v, symbols) if type(v) in (SymInt, SymFloat) else spelled_key(v)
               for v in value):
        return None
    return SymKey(tuple(v.sym if type(v) in (SymInt, SymFloat) else v for v in value), True)


def _part(var) -> bool:
    """Can ``var`` be a part of a tuple key's form: a constant (a changing number
    included), or a tuple of constants holding no changing number (``x.shape`` of a
    static shape in ``(x.shape, k)``: the guard spells it by ``repr``, as a constant)."""
    if isinstance(var, ConstantVariable):
        return True
    return isinstance(var, TupleVariable) and var.is_constant() and \
        not any(type(v) in (SymInt, SymFloat) for v in _flat(var.as_python_constant()))


def _flat(value):
    """The leaves of nested tuples."""
    if type(value) is not tuple:
        return [value]
    return [leaf for v in value for leaf in _flat(v)]


def _part_value(var):
    """A tuple key's part at this call: the constant (a changing number as it is)."""
    return var.value if isinstance(var, ConstantVariable) else var.as_python_constant()


def _keyed(value, symbols) -> bool:
    """Can a guard spell the changing number ``value`` as a key, from the frame's own
    values? A changing int of the frame's symbols; a changing float computed from them
    by Python arithmetic (``round(loss, 1)``, ``n + 1.0``: ``Expr.runtime``) that cannot
    raise (a guard that raises would fail the entry, not raise the program's error)."""
    if type(value) is SymFloat and value.sym.raises:
        return False
    return value.sym.symbols <= symbols.keys()


def _hint(index):
    """A key Variable's value at this call."""
    value = index.value if isinstance(index, ConstantVariable) else \
        tuple(map(_part_value, index.items))
    if type(value) is tuple:
        return tuple(_plain(v) for v in value)
    return _plain(value)


def _plain(value):
    """A changing number's value at this call (a plain int or float)."""
    if type(value) is SymInt:
        return int.__int__(value)
    return float.__float__(value) if type(value) is SymFloat else value


class UnreadDictVariable(DictVariable):
    """A dict from outside the trace whose key set is unread (see the module). ``live``
    is the real dict, ``wrap(tx, value, source)`` the builder's (a value read)."""

    item_source = ItemSource   # (a defaultdict's: StoredItemSource, see below)
    KEYS = "dict keys"         # what its guards' notes call the keys (a set's: elements)

    def __init__(self, tx, live: dict, source: Source, wrap):
        DictVariable.__init__(self, {}, source)
        self._unread = True   # (a flag, not a bound method: that would be a cycle)
        # (the translator weakly: a Variable that held it would make a cycle, and the
        # objects it read would outlive the call, their ``__del__`` late)
        self._tx, self._live, self._wrap = weakref.ref(tx), live, wrap
        self._view: dict[Any, Variable | None] = {}   # key -> value now, None: absent
        self._keys: dict[Any, ConstantVariable] = {}  # key -> the key's Variable
        self._alias: dict[Any, Any] = {}   # key -> the key touched before it equals
        self._start: dict[Any, bool] = {}  # key -> held when the call started (guarded)
        self._length = None                # len() when the call started, once read
        self._first: dict[Any, Variable] = {}         # real key -> the value read there
        self._ops: list[tuple[str, ConstantVariable, Variable | None]] = []

    # ------------------------------------------------------------------ whole reads
    @property
    def items(self) -> dict:
        if self._unread:
            items = self._read_whole()   # (first: a read that raises leaves it unread)
            self._unread, self._items = False, items
            for op, key_var, value in self._ops:   # (a changing key is pinned here)
                key = const_key(key_var)
                if op == "set":
                    self.store(key, value)
                else:
                    self.remove(key)
            self._ops = []
        return self._items

    @items.setter
    def items(self, value: dict) -> None:
        self._unread, self._items = False, value

    def is_unread(self) -> bool:
        return self._unread

    def _read_whole(self) -> dict:
        """The real dict's items, guarded by its keys in order, the values the trace
        already read reused (one Variable per object)."""
        tx = self._tx()
        tx.output.guards.add(Guard(self.source, DICT_KEYS, tuple(self._live),
                                   note=f"read at {tx.output.location()}"))
        return {k: self._first[k] if k in self._first else
                self._wrap(tx, v, self.item_source(self.source, k))
                for k, v in self._live.items()}

    def describe(self) -> str:
        return "dict (keys unread)" if self.is_unread() else super().describe()

    # ------------------------------------------------------------------ keys
    def _key(self, tx, index) -> Any:
        """The key's identity while unread: a constant, or a ``SymKey`` (the first key
        touched that is equal to it at this call, guarded so); None where the dict is
        read whole (a key that generated code cannot spell: ``np.float32(2.0)``)."""
        self._tx = weakref.ref(tx)
        key = _form(tx, index)
        if key is None:
            key = const_key(index)
            if not spelled_key(key):
                return None   # (a guard spells the key: read the dict whole)
        key = self._alias.get(key, key)
        if key in self._view:
            return key
        self._keys.setdefault(key, index)
        for other in self._view:
            if self._same(tx, key, other):
                self._alias[key] = other
                return other
        return key

    def _same(self, tx, key, other) -> bool:
        """Are ``key`` and ``other`` the same key at this call? Guarded (``==`` or
        ``!=``) where their forms do not decide it, so the entry holds while they
        stay so: ``self.d[i]`` and ``self.d[j]`` meet at one call, not at every call."""
        if not isinstance(key, SymKey) and not isinstance(other, SymKey):
            return False   # (two constants: the dict's own equality, in ``_view``)
        if isinstance(key, SymKey) and isinstance(other, SymKey) and not key.is_tuple and \
                not other.is_tuple and isinstance(key.parts[0], Sym) and \
                isinstance(other.parts[0], Sym) and key.parts[0].terms == other.parts[0].terms:
            return False   # step and step + 1: never equal (one form: one key)
        a, b = self._hint(key), self._hint(other)
        same = a == b
        if not same and not (isinstance(a, _NUMBER_KEYS) and isinstance(b, _NUMBER_KEYS)) and \
                not (type(a) is tuple and type(b) is tuple and len(a) == len(b)):
            return False   # an int never equals a str or a tuple, nor tuples of two lengths
        self._guard(tx, f"{self._text(key)} {'==' if same else '!='} {self._text(other)}",
                    [key, other], f"{self.KEYS} that are the same" if same else
                    f"{self.KEYS} that differ")
        return same

    def _hint(self, key):
        """The key's value at this call."""
        return _hint(self._keys[key]) if isinstance(key, SymKey) else key

    def _text(self, key) -> str:
        return key.text() if isinstance(key, SymKey) else repr(key)

    def _guard(self, tx, text: str, keys, why: str) -> None:
        env = tx.output.shape_env
        sources = [self.source] + [env.symbols[n] for k in keys if isinstance(k, SymKey)
                                   for n in k.symbols]
        on = max(sources, key=lambda s: s.depth())   # (after the guards of each part)
        tx.output.guards.add(Guard(on, EXPR, text, note=f"{why}, at {tx.output.location()}"))

    def _look(self, tx, key, index) -> Variable | None:
        """The value under ``key`` now (None: absent); a first look guards its presence
        and reads the value alone."""
        if key in self._view:
            return self._view[key]
        present = self._held(tx, key)
        real = self._hint(key)
        value = None
        if present:
            value = self._first.get(real)
            if value is None:
                value = self._first[real] = self._wrap(tx, self._live[real],
                                                            self._at(tx, key))
        self._view[key] = value
        return value

    def _held(self, tx, key) -> bool:
        """Did the dict hold ``key`` when the call started? Guarded so, once."""
        if key not in self._start:
            present = self._start[key] = self._hint(key) in self._live
            self._guard(tx, f"{self._text(key)} {'in' if present else 'not in'} "
                            f"{self.source.expr()}", [key], "a dict key looked up")
        return self._start[key]

    def length(self, tx):
        """``len(d)`` while unread: its length when the call started (a changing int
        read from ``len(L['self'].buf)`` where an earlier entry guarded another length,
        else guarded by its value) plus the keys the trace added, less those it
        removed (each key touched guarded present or absent at the start). None in a
        loop node's body (read whole)."""
        if not self.is_unread() or tx.output.loop_scope is not None:
            return None
        self._tx = weakref.ref(tx)
        env = tx.output.shape_env
        if self._length is None:
            if env.dynamic.is_changing_length(self.source, self._live):
                self._length = env.new_length(self.source, len(self._live))
            else:
                self._length = len(self._live)
                tx.output.guards.add(Guard(self.source, LENGTH, len(self._live),
                                           note=f"read at {tx.output.location()}"))
        return self._length + sum((now is not None) - self._held(tx, key)
                                  for key, now in self._view.items())

    def truth(self, tx) -> bool:
        n = self.length(tx)
        return super().truth(tx) if n is None else bool(n != 0)

    def _at(self, tx, key) -> Source:
        if not isinstance(key, SymKey):
            return self.item_source(self.source, key)
        env = tx.output.shape_env
        bases = [env.symbols[n] for n in key.symbols]
        return IndexedItemSource(self.source, key.text(),
                                 key.text({n: env.symbols[n].name() for n in key.symbols}),
                                 max(b.depth() for b in bases))

    def _write(self, tx, key, index, value: Variable | None) -> None:
        """``d[key] = value`` (``value`` None: ``del d[key]``, the key present)."""
        if key in self._view:
            old = self._view[key]
        else:   # a blind write: no guard (the old value, if any, only for its end)
            old = self._live.get(self._hint(key))
        break_at_drop([old], f"a dict entry {self._text(key)}")
        tx.output.side_effects.mutate(self)
        self._view[key] = value
        self._ops.append(("set" if value is not None else "delete", index, value))

    # ------------------------------------------------------------------ operations
    def contains_key(self, tx, item) -> bool | None:
        if not self.is_unread() or (key := self._key(tx, item)) is None:
            return None
        return self._look(tx, key, item) is not None

    def getitem(self, tx, index):
        if self.is_unread() and (key := self._key(tx, index)) is not None:
            value = self._look(tx, key, index)
            if value is not None:
                return value
        return super().getitem(tx, index)   # (absent: read whole, Python's KeyError)

    def setitem(self, tx, index, value) -> None:
        if self.is_unread() and (key := self._key(tx, index)) is not None:
            return self._write(tx, key, index, value)
        return super().setitem(tx, index, value)

    def delitem(self, tx, index) -> None:
        if self.is_unread() and (key := self._key(tx, index)) is not None and \
                self._look(tx, key, index) is not None:
            return self._write(tx, key, index, None)
        return super().delitem(tx, index)

    def call_method(self, tx, name, args, kwargs):
        if name in ("get", "setdefault", "pop") and not kwargs and 1 <= len(args) <= 2 and \
                self.is_unread() and (key := self._key(tx, args[0])) is not None:
            value = self._look(tx, key, args[0])
            default = args[1] if len(args) > 1 else ConstantVariable(None)
            if name == "get":
                return default if value is None else value
            if name == "setdefault":
                if value is None:
                    self._write(tx, key, args[0], default)
                return self._view[key]
            if value is not None:
                self._write(tx, key, args[0], None)
                return value
            if len(args) > 1:
                return default
        if name == "values" and not args and not kwargs and self.is_unread():
            return DictViewVariable(self, name)   # (a live view: read when it is read)
        return super().call_method(tx, name, args, kwargs)

    def appended_values(self, tx) -> tuple | None:
        """``d.values()`` while unread where the trace only added keys the dict did not
        hold when the call started (each guarded absent), each once: (the values held
        at the start, in order; the Variables added, in order): the view Python sees
        then, without reading the keys (``max(self.best.values())`` after
        ``self.best[self.epoch] = loss``, see ``float_windows``). None otherwise: a key
        the trace overwrote keeps its place, one it deleted leaves (read whole)."""
        if not self.is_unread() or tx.output.loop_scope is not None:
            return None
        keys = []
        for op, index, _ in self._ops:
            key = self._key(tx, index)
            if op != "set" or key is None or key in keys:
                return None
            keys.append(key)
        if any(self._held(tx, key) for key in keys):
            return None
        return list(self._live.values()), [self._view[key] for key in keys]

    def key_iterator(self) -> Variable:
        """``iter(d)``: lazy while unread (``first_key_iterators``)."""
        if self.is_unread():
            return FirstKeyIteratorVariable(self)
        return DictIteratorVariable(self, "keys")

    def first_key(self, tx) -> Variable | None:
        """``next(iter(d))`` while unread (an LRU's eviction, ``del d[next(iter(d))]``):
        the dict's first key at the call's start, an int read as a changing int from
        ``next(iter(L['self'].cache))`` (guarded an int, so the dict not empty), where
        the trace has not deleted that key (a write keeps a key's place; an insert goes
        last). The key's ``_same`` guards against the keys touched tell which it is.
        None where the dict is read whole instead: empty or its first key no int at
        this call, that key deleted by the trace, in a loop node's body, or an
        OrderedDict's key moved by the trace (``move_to_end(k, last=False)`` makes ``k``
        first; ``move_to_end`` of the first key makes the next one first)."""
        from dynamo.guards import FormSource

        if not self.is_unread() or tx.output.loop_scope is not None or not self._live:
            return None
        if any(op == "move_to_end" for op, _, _ in self._ops):
            return None   # (a move may change which key is first: read whole, a break)
        real = next(iter(self._live))
        if type(real) is not int:
            return None
        env = tx.output.shape_env
        source = FormSource(self.source, "next(iter({}))")
        tx.output.guards.add(Guard(source, EXPR, f"type(next(iter({self.source.expr()}), "
                                                 f"None)) is int",
                                   note=f"a dict's first key, at {tx.output.location()}"))
        index = ConstantVariable(env.new_symbol(source, real, "a dict's first key",
                                                number=True))
        key = self._key(tx, index)
        if any(op == "delete" and self._key(tx, var) == key for op, var, _ in self._ops):
            return None   # (deleted, maybe put back last: the next key is first)
        return index

    def write_back(self) -> list:
        """Unread: the trace's writes in program order, each key a Variable (the glue
        computes a changing one from the frame's values); else ``DictVariable``'s."""
        if not self.is_unread():
            return super().write_back()
        return list(self._ops)

class UnreadDefaultDictVariable(UnreadDictVariable, DefaultDictVariable):
    """A ``collections.defaultdict`` read by the keys the trace touches (a counter
    ``self.counts[k] += 1`` keyed by a changing int): ``d[k]`` of a key guarded absent
    calls the default factory in the trace and writes its result, as ``__missing__``
    does; a present key's value is read as stored (``d.get(k)``: no check inserts a
    key). The rest as ``UnreadDictVariable``, read whole as ``DefaultDictVariable``."""

    item_source = StoredItemSource

    def __init__(self, tx, live: collections.defaultdict, source: Source, wrap, factory):
        UnreadDictVariable.__init__(self, tx, live, source, wrap)
        self._factory, self._factory_var = factory, None

    def describe(self) -> str:
        return "defaultdict (keys unread)" if self.is_unread() else \
            DefaultDictVariable.describe(self)

    def getitem(self, tx, index):
        if self.is_unread() and (key := self._key(tx, index)) is not None:
            value = self._look(tx, key, index)
            if value is not None:
                return value
            factory = self.factory()
            if not (factory.is_constant() and factory.as_python_constant() is None):
                value = tx.call_function(factory, [], {})
                self._write(tx, key, index, value)
                return value
        return DefaultDictVariable.getitem(self, tx, index)   # (read whole)


__all__ = ["SymKey", "UnreadDefaultDictVariable", "UnreadDictVariable"]
