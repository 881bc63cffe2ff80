"""Tuples, lists and slices whose items are known while tracing (named tuples:
:mod:`.named_tuples`; their iterators: :mod:`.iterators`).

A list is mutable: one Variable per runtime object, mutated in place by the
translator (``s *= 2`` too, see :mod:`.container_ops`: every alias sees it). When a
list came from outside the trace (it has a source), the translator records it as
mutated and the glue code writes its final contents back after the graph ran (see
:mod:`dynamo.codegen`).

Example::

    >>> t = TupleVariable([ConstantVariable(1), ConstantVariable(2)])
    >>> t.as_python_constant()
    (1, 2)
"""

from __future__ import annotations

import operator
import sys
from typing import Any

from ..exc import Unsupported
from ..symbolic import SymInt
from .base import BoundBuiltinMethod, Variable, program_error
from .constant import ConstantVariable, is_pure_constant
from .list_sort import sort_list


def wrap_constant(value: Any) -> Variable:
    """The Variable of a value computed while tracing: a ConstantVariable, or a
    TupleVariable of them for a tuple that is not a pure constant as a whole.
    (Here, not in :mod:`.constant`, which sits below the containers.)"""
    if isinstance(value, tuple) and not is_pure_constant(value):
        return TupleVariable([wrap_constant(v) for v in value])
    if not is_pure_constant(value):
        raise Unsupported(f"value of type {type(value).__name__} is not a constant")
    return ConstantVariable(value)



def _index_error(kind: type, length: int, key: int) -> IndexError:
    """The IndexError ``seq[key]`` raises for a ``kind`` (tuple, list) of ``length``
    items, taken from Python itself: its message names the kind."""
    try:
        kind(range(length))[key]
    except IndexError as e:
        return e
    raise AssertionError(f"{kind.__name__}[{key}] of {length} items did not raise")

class SequenceVariable(Variable):
    kind: type = tuple

    def __init__(self, items: list[Variable], source=None):
        self.items = list(items)
        self.source = source

    def describe(self) -> str:
        return f"{self.kind.__name__} of {len(self.items)}"

    def python_type(self) -> type:
        return self.kind

    def is_constant(self) -> bool:
        return self.kind is tuple and all(i.is_constant() for i in self.items)

    def as_python_constant(self) -> Any:
        return self.kind(i.as_python_constant() for i in self.items)

    def truth(self, tx) -> bool:
        return bool(self.items)

    def unpack(self, tx) -> list[Variable]:
        return list(self.items)

    def getitem(self, tx, index: Variable) -> Variable:
        key = index.as_python_constant()
        if isinstance(key, slice):
            return type(self)(self.items[key])
        try:
            return self.items[key]
        except TypeError as e:
            raise Unsupported(f"{self.kind.__name__} index {key!r}") from e
        except IndexError:   # Python's own: a break, or the program's `except`
            raise program_error(_index_error(self.kind, len(self.items), key),
                                exact=True) from None

    def reconstruct(self, cg) -> str:
        if self.kind is tuple and self.source is not None:   # the same tuple object
            return self.source.expr()
        if self.kind is tuple and not self.is_constant():
            # one tuple the trace made, reached twice (``t, [t]``; ``box.append(t)``):
            # built once, as a list is, so ``r[0] is r[1][0]`` holds (round 45)
            return cg.mutable(self, lambda v: SequenceVariable._written(v, cg))
        return self._written(cg)

    def _written(self, cg) -> str:
        """The display that builds it, its items' expressions inside."""
        inner = ", ".join(cg.value(i) for i in self.items)
        if self.kind is tuple:
            return f"({inner},)" if len(self.items) == 1 else f"({inner})"
        return f"[{inner}]"


class TupleVariable(SequenceVariable):
    kind = tuple

    def as_graph_arg(self, output) -> tuple:   # a named tuple too: ops take plain tuples
        return tuple(v.as_graph_arg(output) for v in self.items)

    def as_meta(self) -> tuple:
        return tuple(v.as_meta() for v in self.items)

    def getattr(self, tx, name: str) -> Variable:
        if name in ("count", "index"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if kwargs:
            raise Unsupported(f"tuple.{name} with keywords (TypeError)")
        if name == "index":
            return ConstantVariable(_index_of(tx, self.items, args))
        if name == "count" and len(args) == 1:
            return ConstantVariable(_count(tx, self.items, args[0]))
        return super().call_method(tx, name, args, kwargs)


def _index_of(tx, items: list[Variable], args: list[Variable]) -> int:
    """``seq.index(value[, start[, stop]])`` of a list or tuple, as CPython runs it:
    ``start`` and ``stop`` count from the end when negative, and the items compare with
    ``==`` (``tx.same_value``: identity first), each read when it is reached, since an
    ``__eq__`` may change the list."""
    if not 1 <= len(args) <= 3:
        raise Unsupported("index() with the wrong number of arguments (TypeError)")
    value, n = args[0], len(items)
    bounds = [operator.index(a.as_python_constant()) for a in args[1:]]
    start, stop = (bounds + [0, sys.maxsize][len(bounds):])[:2]
    start = max(start + n, 0) if start < 0 else start
    stop = max(stop + n, 0) if stop < 0 else stop
    i = start
    while i < stop and i < len(items):
        if tx.same_value(items[i], value):
            return i
        i += 1
    raise Unsupported("index() of a value that is not there (raises ValueError)")


def _count(tx, items: list[Variable], value: Variable) -> int:
    """``seq.count(value)``: how many items ``==`` it (identity first), read live."""
    found = i = 0
    while i < len(items):
        found += tx.same_value(items[i], value)
        i += 1
    return found

class ListVariable(SequenceVariable):
    """A list. One read from outside the trace may be *unread*: made by ``unread(source,
    read)``, it reads (and guards) the real list only when the trace first looks at its
    items; until then ``append`` and ``extend`` collect the new items in ``appended``,
    and the glue writes them back with one ``extend``. So a list the program only appends
    to (a layer keeping its inputs, a log) is guarded by its type alone, not by a length
    that grows every call::

        def forward(self, x):
            self.X.append(x)          # guards type(self.X) is list; glue: self.X.extend([x])
            return np.tanh(x)

    A list whose length changed between calls also has its length as a changing int
    while unread (``length``), and an item set at an int index in bounds is kept in
    ``edits`` and replayed by the glue in program order (``_set_unread``): a replay
    buffer's ``if len(memory) < capacity: memory.append(None)`` and ``memory[position]
    = t`` guard the comparison and the bounds, not the length or the items.
    """

    kind = list
    _read = None      # unread: () -> the Variables of the real list's items, guarded
    # unread, a list of Python ints that changes between calls: () -> the ArrayVariable
    # of np.asarray(list) with a symbolic length, or None (see builder._list_data)
    data = None
    # unread, a list whose length changed between calls: () -> its length when the
    # frame started, a changing int (``ShapeEnv.new_length``: guarded only where read)
    length = None
    # unread: items set at an index (``memory[position] = t``), replayed after the
    # appends made before each: (len(appended) then, index Variable, value Variable)
    edits: tuple | list = ()
    # unread, a list of ndarrays whose length changed between calls: (least) -> the
    # ArrayVariable of np.asarray(list) (its items stacked), rows symbolic from
    # ``least`` up, or None (see ``stacked_lists``)
    rows = None
    # unread, a list whose length changed between calls (of ints used as data too):
    # (k) -> the Variable of the real list's item ``value[k]`` for a negative ``k``,
    # read from ``L[k]`` alone, and () -> the length held, a changing int (``_from_end``)
    item_from_end = held_length = None
    # unread, from a rebuildable source: (i) -> the Variable of the item at a changing
    # int ``i``, read from ``L[i]`` alone (``builder._item_at``), or None
    item_at = None
    # unread, from a rebuildable source, whose length or items changed: the real list
    # (``float_windows``: ``sum(losses)`` computed by the call), else None
    live = None
    # unread, a list whose length changed between calls: (self, tx, index) -> ``lst[-k:]`` as
    # a list whose held items are read alone, or None (``list_windows``)
    window = None
    # unread, from a rebuildable source, whose length did not change: () -> its length,
    # guarded (``LENGTH``), for the bounds of an item set (a ring buffer ``buf =
    # [None] * 4`` written at ``buf[self.pos]``: ``_set_unread``)
    fixed_length = None
    # unread, from a rebuildable source: () -> whether an item's end is visible now
    # (``builder._visible_ends``: then an item set of a list of fixed length reads the
    # items, ``_set_unread``)
    visible_ends = None
    # unread, from a rebuildable source, of fixed length, its items ndarrays: (least) ->
    # the ArrayVariable of np.asarray(list), or None (a ring of arrays: ``ring_rows``)
    ring_rows = None
    # unread, its items all Python ints or floats: no array to find in it (a loop node
    # looks for arrays without reading it: ``reached_carries.reach_arrays``)
    numbers_only = False

    def truth(self, tx) -> bool:
        """``if self.hist:`` of an unread list whose length changed between calls: the
        decision ``len(L['self'].hist) != 0`` (a changing int's truth), not the length
        nor the items, so ``self.hist[-1] if self.hist else x`` keeps one entry as the
        list grows; True once the trace appended to it. In a loop node's body the
        items are read, as before (its trips are not the call's start)."""
        length = self.held_length if self.length is None else self.length
        if not self.is_unread() or length is None or tx.output.loop_scope is not None:
            return super().truth(tx)
        return bool(self.appended) or bool(length())

    def as_data(self):
        """The real list as array data (an input of symbolic length), while the trace
        has neither read its items nor appended to it; else None."""
        if self.data is None or not self.is_unread() or self.appended:
            return None
        return self.data()

    def symbolic_len(self):
        """``len(list)`` as a symbolic int while the items are unread, else None: the
        length of the data array (a list of ints), or the list's changing length."""
        if not self.is_unread():
            return None
        if self.data is not None:
            array = self.data()
            return None if array is None else array.meta.shape[0] + len(self.appended)
        if self.length is not None:
            return self.length() + len(self.appended)
        return None

    def __init__(self, items: list[Variable], source=None):
        super().__init__(items, source)
        # the items the real list held when read (a list from outside the trace), so
        # the glue can keep them and append the rest (``kept_prefix``)
        self.read_items = tuple(self.items) if source is not None else None

    def kept_prefix(self) -> int | None:
        """How many items the real list keeps as they were, when the trace only
        appended after reading them (``log.append(v); n = len(log)``), else None. The
        glue then writes ``log.extend(new)``, not ``log[:] = all``: the same list in one
        thread, and no other thread's append lost between the read and the write
        (``list.extend`` is one step under the GIL, as ``list.append`` is in eager)."""
        kept = self.read_items
        if self.is_unread() or kept is None or len(self._items) < len(kept) or \
                any(a is not b for a, b in zip(self._items, kept)):
            return None
        return len(kept)

    @classmethod
    def unread(cls, source, read) -> ListVariable:
        var = cls([], source)
        var._read, var.appended = read, []
        return var

    def is_unread(self) -> bool:
        return self._read is not None

    @property
    def items(self) -> list[Variable]:
        if self._read is not None:
            # (read first: a read that raises, a list too long to trace item by item,
            # leaves the list unread, its appends kept for the glue's write at the break)
            items, done = self._read(), 0
            self._read, self.read_items = None, tuple(items)
            for at, index, value in self.edits:   # (in bounds: decided when set)
                items.extend(self.appended[done:at])
                done = at
                items[index.as_python_constant()] = value
            self._items = items + self.appended[done:]
            self.appended, self.edits = [], ()
        return self._items

    @items.setter
    def items(self, value: list[Variable]) -> None:
        self._read, self._items = None, value

    _opened = False   # as_graph_arg/as_meta in progress (a list met inside itself)

    def as_graph_arg(self, output) -> list:
        return self._each(lambda v: v.as_graph_arg(output))

    def as_meta(self) -> list:
        return self._each(lambda v: v.as_meta())

    def _each(self, fn) -> list:
        """``fn`` of each item: an op's argument as plain values. A list that holds
        itself (``log.append(log); np.array(log)``) is no argument the graph can take
        (it recursed without end, an internal error): NumPy sees it when the call runs."""
        if self._opened:
            raise Unsupported("a list that holds itself as an op's argument")
        self._opened = True
        try:
            return [fn(v) for v in self.items]
        finally:
            self._opened = False

    def getattr(self, tx, name: str) -> Variable:
        if name in ("append", "extend", "pop", "insert", "index", "count", "reverse", "copy",
                    "clear", "remove", "sort"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "sort":
            return sort_list(tx, self, args, dict(kwargs))
        if kwargs:
            raise Unsupported(f"list.{name} with keywords")
        if self.is_unread() and name in ("append", "extend") and len(args) == 1:
            new = [args[0]] if name == "append" else tx.unpack_iterable(args[0])
            tx.output.side_effects.mutate(self)
            # (extend of the list itself read it: then the items are real by now)
            (self.appended if self.is_unread() else self.items).extend(new)
            return ConstantVariable(None)
        items = self.items
        if name == "index":
            return ConstantVariable(_index_of(tx, items, args))
        if name == "count" and len(args) == 1:
            return ConstantVariable(_count(tx, items, args[0]))
        if name == "remove" and len(args) == 1:
            i = _index_of(tx, items, args)
            tx.break_at_drop([items[i]], "a list")
            tx.output.side_effects.mutate(self)
            del items[i]
            return ConstantVariable(None)
        if name == "copy":
            return ListVariable(list(items))
        if name == "pop":   # an empty list, an index past the end: Python's own IndexError,
            try:            # raised before any change (a break, or the program's `except`)
                list(items).pop(args[0].as_python_constant() if args else -1)
            except IndexError as e:   # list.pop's own message: exact
                raise program_error(e, exact=True) from None
        if name == "clear":
            tx.break_at_drop(list(items), "a cleared list")
        tx.output.side_effects.mutate(self)
        if name == "append":
            items.append(args[0])
        elif name == "extend":
            items.extend(tx.unpack_iterable(args[0]))
        elif name == "insert":
            items.insert(args[0].as_python_constant(), args[1])
        elif name == "pop":
            return items.pop(args[0].as_python_constant() if args else -1)
        elif name == "reverse":
            items.reverse()
        elif name == "clear":
            items.clear()
        else:
            raise Unsupported(f"list.{name}")
        return ConstantVariable(None)

    def getitem(self, tx, index: Variable) -> Variable:
        window = None if self.window is None else self.window(self, tx, index)
        if window is not None:
            return window
        item = self._from_end(index)
        if item is None and self.item_at is not None and self.is_unread() and \
                not self.edits and not self.appended and \
                isinstance(index, ConstantVariable) and type(index.value) is SymInt:
            item = self.item_at(index.value)    # ``lrs[self.i]``: that item alone
        return item if item is not None else super().getitem(tx, index)

    def _from_end(self, index: Variable) -> Variable | None:
        """``lst[-k]`` (a negative int constant) of an unread list whose length is a
        changing int, leaving it unread: an item appended in the trace is that
        Variable; one the list held is read from ``L['self'].tokens[-1]`` alone,
        guarded as any value read there (an int that changes is a number) with the
        bound ``len(L['self'].tokens) >= 1`` as a decision, not the length. A decoder
        that appends a token each call and embeds the last one (``EMB[tokens[-1]]``)
        keeps one entry. Out of bounds (or with items set at an index), the items are
        read, as before, and Python raises its ``IndexError``."""
        if not self.is_unread() or self.item_from_end is None or self.edits or \
                not isinstance(index, ConstantVariable) or type(index.value) is not int \
                or index.value >= 0:
            return None
        key = index.value
        if -key <= len(self.appended):
            return self.appended[key]
        held = key + len(self.appended)          # from the end of the list held
        if not bool(self.held_length() >= -held):
            return None
        return self.item_from_end(held)

    def setitem(self, tx, index: Variable, value: Variable) -> None:
        if self._set_unread(index):
            tx.output.side_effects.mutate(self)
            self.edits = [*self.edits, (len(self.appended), index, value)]
            return
        key = index.as_python_constant()
        old = self.items[key]
        tx.break_at_drop(old if isinstance(key, slice) else [old], "a list")
        tx.output.side_effects.mutate(self)
        if isinstance(key, slice):
            self.items[key] = tx.unpack_iterable(value)
        else:
            self.items[key] = value

    def _set_unread(self, index: Variable) -> bool:
        """Can ``list[index] = value`` leave the items unread? Where the list's length
        is a changing int (``length``), or one that did not change (``fixed_length``,
        guarded: a ring buffer ``[None] * 4``), and the index an int (a changing one or
        a constant; not a bool, not a NumPy int) in bounds: the bounds are guarded as a
        decision (``-len(L['m']) <= L['pos'] < len(L['m'])``, so the write cannot raise),
        and the glue sets the item after the graph (a replay buffer's ``memory[position]
        = t`` with a list that grows to its capacity: no guard on its length or items).
        Of a list of fixed length, not where an item's end is visible now
        (``visible_ends``): the glue's store would drop it after the graph, where the
        program's store ran its ``__del__`` (a list whose length changed as well:
        ``o.items[0] = v`` dropping an item with a ``__del__`` read by the rest of the
        call). Out of bounds, the items are read and Python raises its ``IndexError``."""
        if not self.is_unread() or self.length is None and self.fixed_length is None or \
                self.data is not None or not isinstance(index, ConstantVariable):
            return False
        key = index.value
        if type(key) is not int and not isinstance(key, SymInt):
            return False
        if self.visible_ends is None or self.visible_ends():
            return False   # (read: an old item's end the program sees, ``break_at_drop``)
        n = self.symbolic_len() if self.length is not None else \
            self.fixed_length() + len(self.appended)
        return bool(-n <= key) and bool(key < n)

    def delitem(self, tx, index: Variable) -> None:
        key = index.as_python_constant()
        old = self.items[key]
        tx.break_at_drop(old if isinstance(key, slice) else [old], "a list")
        tx.output.side_effects.mutate(self)
        del self.items[key]

    def reconstruct(self, cg) -> str:
        if cg.holds_itself(self):   # (log.append(log)): made empty, filled once it exists
            return cg.mutable(self, lambda v: "[]", lambda temp: cg.lines.append(
                f"{temp}.extend([{', '.join(cg.value(i) for i in self.items)}])"))
        return cg.mutable(self, lambda v: SequenceVariable.reconstruct(v, cg))


class SliceVariable(Variable):
    def __init__(self, start: Variable, stop: Variable, step: Variable):
        self.parts = (start, stop, step)

    def is_constant(self) -> bool:
        return all(p.is_constant() for p in self.parts)

    def as_python_constant(self) -> Any:
        return slice(*(p.as_python_constant() for p in self.parts))

    def as_graph_arg(self, output) -> slice:
        return slice(*(p.as_graph_arg(output) for p in self.parts))

    def as_meta(self) -> slice:
        return slice(*(p.as_meta() for p in self.parts))

    def python_type(self) -> type:
        return slice

    def describe(self) -> str:
        return "slice"

    def reconstruct(self, cg) -> str:
        """A slice made in the trace and live at a break (3.11's ``BUILD_SLICE`` of
        ``y[p[0]:p[1]:2]`` before the ``BINARY_SUBSCR`` that breaks): the builtin
        ``slice`` (bound by the glue, not looked up by name) called on its parts."""
        return f"{cg.const(slice)}({', '.join(cg.value(p) for p in self.parts)})"

