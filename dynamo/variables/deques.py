"""``collections.deque`` from outside the trace, modelled as lists are
(:mod:`.sequences`): a replay buffer, a moving window, a ``deque(maxlen=n)`` of
rewards kept on ``self`` or passed in.

The deque is *unread* until the trace looks at its items: ``append``, ``appendleft``,
``extend`` and ``extendleft`` are recorded (``ops``) and guard nothing but the type
(and ``maxlen``, which a deque never changes), so a buffer the program only writes
to keeps one entry however it grows. Reads (``len``, iteration, ``sum(d)``, ``d[i]``,
``pop``, ``popleft``, truth) read the real deque as it was when the frame started,
guarded by its length and items as a list's are, and then apply the ops so far in
order, dropping from the far end past ``maxlen`` exactly as ``deque`` does. The glue
replays every op on the real deque after the graph, in program order, with
``deque``'s own methods: the final contents are eager's by construction.

Example::

    def act(self, obs):                       # self.memory = deque(maxlen=5)
        self.memory.append((obs, 1))          # guards type(self.memory) is deque
        return obs * 2                        # glue: self.memory.append((obs, 1))

    def push(self, r):                        # self.rewards = deque(maxlen=3)
        self.rewards.append(r)
        return sum(self.rewards)              # reads: len(self.rewards) == 2 and items

    def smooth(self, x):                      # self.window = deque(maxlen=4)
        self.window.append(x)                 # np.stack: the rows held that the
        return np.mean(self.window, axis=0)   # append keeps, list(d)[-3:], one input
                                              # of symbolic length: 2 compiles in all

Items a ``maxlen`` deque drops while unread are dropped by the replay (the item was
never read, as for a list item set at an index, ``ListVariable._set_unread``); a
known dropped item whose end the program sees is a graph break
(``lifetimes.break_at_drop``).
"""

from __future__ import annotations

import collections
import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynamo.guards import (
    CONSTANT,
    EXPR,
    LENGTH,
    TYPE,
    AsArraySource,
    AttrSource,
    FormSource,
    Guard,
    ItemSource,
    ShapeSource,
    Source,
)

from ..exc import Unsupported
from .base import BoundBuiltinMethod, Variable, program_error
from .constant import ConstantVariable
from .iterators import ItemsIteratorVariable
from .lifetimes import break_at_drop

# the ops that only add items (recorded unread; ``deque_stacks`` stacks them)
WRITES = frozenset({"append", "appendleft", "extend", "extendleft"})
_METHODS = WRITES | {"pop", "popleft", "clear"}

# A deque longer than this is not traced item by item (as a list's ``MAX_TRACED_ITEMS``)
MAX_READ_ITEMS = 1_000


class DequeVariable(Variable):
    """A ``collections.deque`` (exactly that type) read from ``source``."""

    def __init__(self, source, maxlen: int | None, read):
        self.source, self.maxlen = source, maxlen
        self._read = read          # () -> the Variables of the items held, guarded
        self._items: list[Variable] | None = None
        self.ops: list[tuple[str, list[Variable]]] = []   # replayed after the graph
        self.version = 0           # changes at every op (an iterator checks it)
        # () -> (the items held stacked, one input, or None for an empty deque), or
        # False where they are not all ndarrays of one shape (``stacked_deque``)
        self.held = None
        self.held_length = None    # () -> the length held, guarded
        # (keep, side, least) -> the rows held that survive the trace's writes, one
        # input of symbolic length (``_held_rows``); None while its length never changed
        self.held_rows = None
        # the real deque, where its length changed between calls and the source can be
        # read again (``float_windows``: sum(d) computed by the call); else None
        self.live = None
        # (k) -> the length after ``k`` items appended, a changing int, or None
        self.changing_length = None
        self.item_at = None        # (j) -> the item held at ``j`` alone (``_item_alone``)

    @classmethod
    def wrap(cls, tx, value: collections.deque, source, wrap_item,
             rebuildable: bool) -> DequeVariable:
        """The Variable of the deque ``value`` at ``source``: guarded by its type and
        ``maxlen`` now, by its length and items (``wrap_item(item, source)``) where the
        trace reads them. ``rebuildable``: generated code may read a changing number
        from its items (``builder._rebuildable``)."""
        guards = tx.output.guards
        guards.add(Guard(source, TYPE, collections.deque))
        guards.add(Guard(AttrSource(source, "maxlen"), CONSTANT, value.maxlen))

        def read() -> list[Variable]:
            if len(value) > MAX_READ_ITEMS:
                raise Unsupported(f"the items of a deque of {len(value)} items (more "
                                  f"than {MAX_READ_ITEMS})", cause="unsupported_value")
            where = tx.output.location()
            guards.add(Guard(source, LENGTH, len(value),
                             note=_item_by_item_note(where, value)))
            if value.maxlen is not None and len(value) < value.maxlen:   # (filling_deques)
                tx.output.filling_deques[source] = (value.maxlen, len(value),
                                                    _holds_arrays(value), var)
            elif value.maxlen is not None:
                tx.output.full_deques.add(source)
            policy = tx.output.shape_env.dynamic
            if rebuildable and policy.is_changing_length(source, value):
                # a window that slides (rewards appended, the oldest dropped): its
                # numbers move from item to item, so each is a changing number once
                # the length changed, as a tuple's whose items changed
                policy.changed_tuples.add(source)
            return [wrap_item(v, ItemSource(source, i)) for i, v in enumerate(value)]
        var = cls(source, value.maxlen, read)
        var.held = lambda: _held_stack(tx, value, source)
        if rebuildable and tx.output.shape_env.dynamic.is_changing_length(source, value):
            var.held_rows = lambda keep, side, least: _held_rows(tx, value, source, keep,
                                                                 side, least)
            var.live = value
            var.changing_length = lambda k: _changing_length(tx, value, source, k)

            @functools.cache
            def item_at(j: int) -> Variable:   # (its numbers: changing, as read()'s)
                tx.output.shape_env.dynamic.changed_tuples.add(source)
                return wrap_item(value[j], ItemSource(source, j))
            var.item_at = item_at

        def held_length() -> int:
            where = tx.output.location()
            guards.add(Guard(source, LENGTH, len(value),
                             note=f"read at {where}" if where else ""))
            return len(value)
        var.held_length = held_length
        return var

    def describe(self) -> str:
        return "deque"

    def python_type(self) -> type:
        return collections.deque

    def is_unread(self) -> bool:
        return self._items is None

    def read_items(self, tx=None) -> list[Variable]:
        """The items now: the deque held, read and guarded, with the ops applied."""
        if self._items is None:
            items = self._read()
            for name, args in self.ops:
                self._apply(items, name, args)
            self._items = items
        return self._items

    def _apply(self, items: list[Variable], name: str, args: list[Variable]):
        """One op on the modelled items, as ``deque`` does it; returns what it pops."""
        if name in ("append", "extend"):
            for v in args:
                items.append(v)
                if self.maxlen is not None and len(items) > self.maxlen:
                    break_at_drop([items[0]], "a deque")
                    del items[0]
        elif name in ("appendleft", "extendleft"):
            for v in args:
                items.insert(0, v)
                if self.maxlen is not None and len(items) > self.maxlen:
                    break_at_drop([items[-1]], "a deque")
                    del items[-1]
        elif name == "pop":
            return items.pop()
        elif name == "popleft":
            return items.pop(0)
        elif name == "clear":
            break_at_drop(list(items), "a cleared deque")
            items.clear()
        return None

    # ------------------------------------------------------------------ Python
    def getattr(self, tx, name: str) -> Variable:
        if name == "maxlen":
            return ConstantVariable(self.maxlen)   # (guarded when wrapped)
        if name in _METHODS:
            return BoundBuiltinMethod(self, name)
        raise Unsupported(f"deque.{name}")

    def call_method(self, tx, name, args, kwargs):
        if kwargs:
            raise Unsupported(f"deque.{name} with keywords")
        if name not in _METHODS:
            raise Unsupported(f"deque.{name}")
        if name in WRITES:
            if len(args) != 1:
                raise Unsupported(f"deque.{name} with {len(args)} arguments (TypeError)")
            new = [args[0]] if name in ("append", "appendleft") else \
                list(tx.unpack_iterable(args[0]))   # (d.extend(d): a copy, as deque's)
        else:
            if args:
                raise Unsupported(f"deque.{name} with arguments (TypeError)")
            new = []
        if name in ("pop", "popleft") and not self.read_items(tx):
            raise program_error(IndexError("pop from an empty deque"), exact=True)
        tx.output.side_effects.mutate(self)
        self.version += 1
        self.ops.append((name, new))
        if self._items is not None:
            popped = self._apply(self._items, name, new)
            if popped is not None:
                return popped
        return ConstantVariable(None)

    def length(self) -> int:
        """``len(d)``: of an unread deque, its length held (guarded) and the ops' counts,
        with ``maxlen``, leaving the items unread (``if not self.frames:`` before an
        ``np.stack(self.frames)`` of the rows held as one input)."""
        if self._items is not None:
            return len(self._items)
        if self.changing_length is not None and \
                all(name in ("append", "extend") for name, _ in self.ops):
            n = self.changing_length(sum(len(new) for _, new in self.ops))
            if n is not None:
                return n
        n = self.held_length()
        for name, new in self.ops:
            if name in WRITES:
                n += len(new)
                n = n if self.maxlen is None else min(n, self.maxlen)
            elif name in ("pop", "popleft"):   # (they read the items: not here)
                n -= 1
            else:
                n = 0
        return n

    def unpack(self, tx) -> list[Variable]:
        return list(self.read_items(tx))

    def truth(self, tx) -> bool:
        return bool(self.length())

    def getitem(self, tx, index: Variable) -> Variable:
        key = index.as_python_constant() if index.is_constant() else None
        if type(key) is not int:
            raise Unsupported(f"deque index {index.describe()}",
                              "Only a Python int known while tracing indexes a deque "
                              "(a slice raises TypeError).")
        item = self._item_alone(key)
        if item is not None:
            return item
        items = self.read_items(tx)
        if not -len(items) <= key < len(items):
            raise program_error(IndexError("deque index out of range"), exact=True)
        return items[key]

    def _item_alone(self, key: int) -> Variable | None:
        """``d[key]`` of an unread deque whose length changes, after appends only: an
        item appended, or one held read alone (``L['self'].window[1]``), with the
        decisions on the length held that place it (``d[0]`` of a ``maxlen=3`` window
        after one append: ``len(d) >= 2``, then ``window[1]``), not the length."""
        if self.item_at is None or not self.is_unread() or \
                any(name not in ("append", "extend") for name, _ in self.ops):
            return None
        new, m = [v for _, vs in self.ops for v in vs], self.maxlen
        k, n = len(new), self.changing_length(0)
        if n is None or (m is not None and not -m <= key < m):
            return None              # (out of range for any length: read, and raise)
        if m is not None and k >= m:
            return new[k - m:][key]
        if key < 0:
            return new[key] if -key <= k else \
                self.item_at(key + k) if bool(n >= -(key + k)) else None
        if m is not None and bool(n >= m - k):    # full after the appends
            return new[key + k - m] if key + k >= m else self.item_at(key + k - m)
        return self.item_at(key) if bool(n > key) else None

    def make_iterator(self, tx):
        return DequeIteratorVariable(self, tx)

    def as_graph_arg(self, output) -> list:   # np.stack(d): NumPy iterates it, as a list
        return [v.as_graph_arg(output) for v in self.read_items()]

    def as_meta(self) -> list:
        return [v.as_meta() for v in self.read_items()]

    def reconstruct(self, cg) -> str:
        return self.source.expr()    # the same object (the glue replays its ops)

    def replay(self, cg, target: str) -> list[tuple[Any, str]]:
        """The glue's writes: each op on the real deque, in program order."""
        writes = []
        for name, args in self.ops:
            if name in ("append", "appendleft"):
                writes.append((None, f"{target}.{name}({cg.temp(cg.value(args[0]))})"))
            elif name in ("extend", "extendleft"):
                items = ", ".join(cg.value(v) for v in args)
                writes.append((None, f"{target}.{name}({cg.temp(f'[{items}]')})"))
            else:
                writes.append((None, f"{target}.{name}()"))
        return writes


class DequeIteratorVariable(ItemsIteratorVariable):
    """``iter(d)`` of a modelled deque: its items when made; a ``next`` after the deque
    changed is Python's ``RuntimeError: deque mutated during iteration`` (a graph
    break: the code after it raises it)."""

    def __init__(self, deque: DequeVariable, tx):
        super().__init__(deque.read_items(tx), deque)
        self.version = deque.version

    def python_type(self) -> type:
        return type(iter(collections.deque()))

    def next(self, tx) -> Variable | None:
        if self.origin.version != self.version:
            raise Unsupported("a deque changed while iterated (RuntimeError)")
        return super().next(tx)

    def reconstruct(self, cg) -> str:
        if self.origin.version != self.version:
            raise Unsupported("an iterator of a deque that changed since")
        return super().reconstruct(cg)


def _changing_length(tx, value: collections.deque, source, k: int):
    """The length of the deque ``value`` after ``k`` items appended, where its length
    changes between calls: a changing int read from ``len(d)`` (``min(len(d) + k,
    maxlen)`` for a ``maxlen`` deque: the call computes it, so a window that fills
    and then slides needs no decision), guarded only where the trace reads it (``if
    len(d) == d.maxlen`` guards that outcome). None where a trace had to pin it."""
    env = tx.output.shape_env
    if value.maxlen is None or k == 0:
        if FormSource(source, "len({})") in env.dynamic.static:
            return None
        return env.new_length(source, len(value)) + k
    form = FormSource(source, f"min(len({{}}) + {k}, {value.maxlen})")
    if form in env.dynamic.static:
        return None
    return env.new_symbol(form, min(len(value) + k, value.maxlen), "a deque's length",
                          number=True)


def _held_stack(tx, value: collections.deque, source):
    """The deque held when the call starts as one input, ``np.asarray(d)`` made by the
    check (``AsArraySource``): no guard on each item, nor on which items are one
    object (a frame stack filled with one frame 4 times, then one new frame a call).
    Guarded by its length (the composition below is for that length), the items'
    type, and the stack's dtype and shape. None for an empty deque; False where the
    items are not ndarrays of one shape."""
    out = tx.output
    guards = out.guards
    array_source = AsArraySource(source)
    known = out.input_vars.get(array_source)
    if known is not None:
        return known
    if not _stackable(value):
        return False
    where = out.location()
    guards.add(Guard(source, LENGTH, len(value), note=f"read at {where}" if where else ""))
    if not value:
        return None
    array = _stack_of(value)
    if array is None:
        return False
    _guard_item_types(guards, source, value)
    var = out.add_input(array, array_source)
    out.input_vars[array_source] = var
    return var


@dataclass(frozen=True)
class HeldRowsSource(Source):
    """The ``keep`` items at one end of the deque at ``base`` (the last ones for
    ``side`` "right", where ``append`` drops from the other end), as a list: the
    rows held that a ``maxlen`` deque keeps after the trace's appends. All of them
    where there are fewer::

        >>> HeldRowsSource(AttrSource(LocalSource("self"), "window"), 3, "right").name()
        "list(L['self'].window)[-3:]"
    """

    base: Source
    keep: int
    side: str

    def _part(self) -> str:
        return f"[-{self.keep}:]" if self.side == "right" else f"[:{self.keep}]"

    def name(self) -> str:
        return f"list({self.base.name()}){self._part()}"

    def expr(self) -> str:   # (not bare ``list``: a parameter may have that name)
        return f"___builtins.list({self.base.expr()}){self._part()}"


def _held_rows(tx, value: collections.deque, source, keep: int | None, side: str,
               least: int):
    """The rows of the deque ``value`` held when the call starts that survive the
    trace's writes (all, for ``keep`` None; else the ``keep`` at ``side``), stacked by
    the check as one input whose first dimension is symbolic from ``least`` up. No
    guard on the deque's length: a window that fills and then slides is one entry.
    None where there are fewer than ``least`` rows or the length was pinned; False
    where they are not ndarrays of one shape."""
    out = tx.output
    rows_source = source if keep is None else HeldRowsSource(source, keep, side)
    array_source = AsArraySource(rows_source)
    known = out.input_vars.get(array_source)
    if known is not None:
        return known
    part = list(value) if keep is None else \
        list(value)[-keep:] if side == "right" else list(value)[:keep]
    if len(part) < least or ShapeSource(array_source, 0) in out.shape_env.dynamic.static:
        return None
    if not _stackable(value):
        return False
    array = _stack_of(part)
    if array is None:
        return False
    _guard_item_types(out.guards, source, value)
    var = out.add_input(array, array_source, dynamic_dims=(0,), least=least)
    out.input_vars[array_source] = var
    return var


def _stackable(value: collections.deque) -> bool:
    """Items the check can stack as one input: all ndarrays, or all Python floats (a
    window of losses or filter taps: ``np.array(d)`` is their float64 array)."""
    kinds = set(map(type, value))
    return kinds <= {np.ndarray} or kinds == {float}


def _stack_of(rows: list) -> np.ndarray | None:
    """``np.asarray(rows)`` of ndarray rows of one shape, as ``np.stack`` takes them
    (of Python floats: their float64 array); None where it is ragged (np.stack raises
    too, eagerly) or not one more dimension."""
    if rows and type(rows[0]) is float:
        return np.asarray(rows, dtype=np.float64)
    try:
        array = np.asarray(rows)
    except ValueError:
        return None
    return None if array.dtype.hasobject or array.ndim != rows[0].ndim + 1 else array


def _guard_item_types(guards, source, value: collections.deque) -> None:
    """Guard that every item of the deque at ``source`` is an ndarray (or, for a deque
    of floats, a Python float) (the check stacks the rows only after this holds: no
    item's ``__array__`` runs there)."""
    if any(type(v) is float for v in value):
        guards.add(Guard(source, EXPR, f"set(map(type, {source.expr()})) == "
                                       "{___builtins.float}",
                         note="a deque of floats made one input"))
        return
    guards.add(Guard(source, EXPR, f"set(map(type, {source.expr()})) == "
                                   f"{{___modules['numpy'].ndarray}}",
                     note="a deque of arrays stacked as one input"))


def _item_by_item_note(where: str, value: collections.deque) -> str:
    """The note of the length guard of a deque read item by item (a comprehension, a
    ``for`` loop, ``zip``): the recompile log names the line, and, while a ``maxlen``
    deque of arrays fills, why there is an entry per length and what compiles once
    (issue #16): the deque read whole (``np.stack(d)``, ``np.mean(d, axis=0)``: one
    stacked input whose rows are symbolic) or a preallocated ring buffer array.
    (``np.stack(list(d))`` reads it item by item too.)

        >>> _item_by_item_note("agent.py:12", deque([x], maxlen=3))
        'read at agent.py:12; a deque read item by item ...'
    """
    note = f"read at {where}" if where else ""
    if value.maxlen is None or len(value) >= value.maxlen or not _holds_arrays(value):
        return note
    return (f"{note}; a deque read item by item: an entry per length while it fills to "
            f"maxlen={value.maxlen}. To compile once, read the arrays whole "
            f"(np.stack(d) or np.mean(d, axis=0) of the deque itself, not of a "
            f"comprehension or list(d)) or keep a preallocated ring buffer array")


def _holds_arrays(value: collections.deque) -> bool:
    """Does the deque hold an ndarray (or a tuple with one: ``(obs, reward)``)?"""
    return any(type(v) is np.ndarray or type(v) is tuple and
               any(type(i) is np.ndarray for i in v) for v in value)
