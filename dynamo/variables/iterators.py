"""Iterators whose position is known while tracing, and inlined generators.

Iterators keep what CPython's keep: an index into a list, tuple, string or range (lazy:
``iter(range(10**9))`` is one int), a dict's or set's size at creation (a change raises
RuntimeError); at a graph break the glue rebuilds each as the same builtin iterator at
the same position (``iterator_at``, ``advanced``). A generator of user code is inlined
lazily: each ``next()`` runs its translator to the next ``yield``.

Example::

    >>> it = get_iterator(tx, ListVariable([ConstantVariable(1)]))
    >>> take(tx, it).as_python_constant(), take(tx, it)
    (1, None)
"""

from __future__ import annotations

import dis
import sys
import types

from dynamo.guards.type_slots import qualname_of

from ..exc import Unsupported
from ..symbolic import SymInt
from ..symbolic.number_decisions import hint
from .base import Variable
from .constant import (
    MAX_ITEMS,
    ConstantVariable,
    SymRangeVariable,
    check_size,
    constant_len,
)
from .dicts import DictVariable, DictViewVariable
from .named_tuples import NamedTupleVariable
from .sequences import ListVariable, SequenceVariable, TupleVariable, wrap_constant
from .sets import SetVariable


def take(tx, it: IteratorVariable) -> Variable | None:
    """``next(it)``, None when exhausted. Taking an item changes the iterator: that is
    recorded, so that should the instruction break after this, the trace starts over and
    breaks before it, with the iterator rebuilt as it was (not short of this item)."""
    tx.output.side_effects.mutate(it)
    return it.next(tx)


def iterator_at(it, state, done: bool):
    """A builtin iterator moved with ``__setstate__`` to ``state`` (the index of its next
    item), then run out when ``done``: how the glue rebuilds an iterator of a list, a
    tuple, a string or a range that the trace advanced. A list iterator that has run out
    lets go of its list, so it stays exhausted when the list grows: running it out once
    gives the same."""
    it.__setstate__(state)
    if done:
        next(it, None)
    return it


def advanced(it, n: int, done: bool):
    """``it`` after ``n`` calls of ``next``, or run out when ``done``: how the glue
    rebuilds an iterator without ``__setstate__`` (of a dict, a set, a frozenset)."""
    for _ in range(n):
        next(it)
    if done:
        for _ in it:
            pass
    return it


def get_iterator(tx, var: Variable) -> IteratorVariable:
    """``iter(var)``: an iterator Variable of the type Python's ``iter`` returns.

    Lists, tuples, strings and ranges are read by index, lazily (``iter(range(10**9))``
    holds an index, not a billion items); dicts and sets check, as CPython does, that
    they do not change size while iterated.
    """
    if isinstance(var, IteratorVariable):
        return var
    if isinstance(var, NamedTupleVariable) and var.cls.__iter__ is not tuple.__iter__:
        raise Unsupported(f"iter() of a {qualname_of(var.cls)} with its own __iter__")
    if isinstance(var, SymRangeVariable) and (var.bounds[2] in (1, -1) or
                                              _follows_loop_indices(tx, var.bounds)):
        return SymRangeIteratorVariable(var)
    if isinstance(var, (ListVariable, TupleVariable)) or _indexable_constant(var):
        return SequenceIteratorVariable(var)
    if isinstance(var, DictVariable):
        lazy = getattr(var, "key_iterator", None)   # (from outside, keys unread)
        return lazy() if lazy is not None else DictIteratorVariable(var, "keys")
    if isinstance(var, DictViewVariable):
        return DictIteratorVariable(var.dict, var.kind)
    if isinstance(var, SetVariable):
        return SetIteratorVariable(var)
    make = getattr(var, "make_iterator", None)   # an array: lazily, row by row
    if make is not None:
        return make(tx)
    return ItemsIteratorVariable(tx.unpack_iterable(var), var)


def _follows_loop_indices(tx, bounds) -> bool:
    """A range of another constant step whose bounds read the indices of loop nodes
    being traced and nothing else symbolic (``range(i, n, 2)`` in a loop node's body):
    its iterator steps without reading them, so that the loop may be a triangular node
    (``translator/triangular_loops.py``); any other such range is read as before."""
    scope = getattr(getattr(tx, "output", None), "loop_scope", None)
    if scope is None:
        return False
    read = set().union(*(b.sym.symbols for b in bounds if isinstance(b, SymInt)))
    return bool(read) and read <= scope.index_symbols()


def reversed_iterator(tx, var: Variable) -> IteratorVariable:
    """``reversed(var)``, lazily, of the type Python's ``reversed`` returns."""
    if isinstance(var, DictVariable):
        return DictIteratorVariable(var, "keys", reverse=True)
    if isinstance(var, DictViewVariable):
        return DictIteratorVariable(var.dict, var.kind, reverse=True)
    if isinstance(var, (ListVariable, TupleVariable)) or _indexable_constant(var):
        if isinstance(var, NamedTupleVariable) and hasattr(var.cls, "__reversed__"):
            raise Unsupported(f"reversed() of a {qualname_of(var.cls)} with __reversed__")
        return SequenceIteratorVariable(var, reverse=True)
    raise Unsupported(f"reversed() of {var.describe()}",
                      "Python reverses it (or raises TypeError) when the program runs.")


def _indexable_constant(var: Variable) -> bool:
    """A constant string, bytes, tuple or range: iterated by index, as Python does."""
    return isinstance(var, ConstantVariable) and isinstance(var.value, (str, bytes, tuple,
                                                                        range))


class IteratorVariable(Variable):
    """Base of the iterators the translator steps through while tracing.

    ``next(tx)`` returns the next item, or None when the iterator is exhausted; it
    raises ``Unsupported`` where Python would raise (a dict that changed size). Callers
    go through ``take``, which records the change of state.
    """

    def describe(self) -> str:
        return "iterator"

    def next(self, tx) -> Variable | None:
        raise NotImplementedError

    def truth(self, tx) -> bool:
        return True   # iterators have no __len__ or __bool__

    def length_hint(self) -> int | None:
        """How many items are left, when known without taking them."""
        return None

    def unpack(self, tx) -> list[Variable]:
        left = self.length_hint()
        if left is not None:
            check_size(left, f"unpacking a {self.describe()}")
        out = []
        while (item := take(tx, self)) is not None:
            out.append(item)
            if len(out) > MAX_ITEMS:
                check_size(len(out), f"unpacking a {self.describe()}")
        return out


class SequenceIteratorVariable(IteratorVariable):
    """``iter(seq)`` or ``reversed(seq)`` of a list, a tuple, or a constant string, bytes,
    tuple or range: an index into the sequence, as CPython's own iterators keep.

    A list is read live, so items appended while iterating are seen; once an iterator
    has run out it stays so (CPython drops the sequence), even if the list grows. The
    glue rebuilds it as the same builtin iterator, moved to the same index.

    Example::

        >>> it = SequenceIteratorVariable(ConstantVariable(range(10**9)))
        >>> it.next(tx), it.index        # nothing materialised
        (constant 0, 1)
    """

    def __init__(self, seq: Variable, reverse: bool = False):
        self.seq, self.reverse, self.done = seq, reverse, False
        self.index = self._len() - 1 if reverse else 0   # CPython's it_index

    def describe(self) -> str:
        return f"{self.python_type().__name__}"

    def _sample(self):
        """A value of the sequence's type, to ask Python for its iterator type."""
        if isinstance(self.seq, ConstantVariable):
            return self.seq.value
        return [] if isinstance(self.seq, ListVariable) else ()

    def python_type(self) -> type:
        sample = self._sample()
        return type(reversed(sample) if self.reverse else iter(sample))

    def _len(self) -> int:
        if isinstance(self.seq, SequenceVariable):
            return len(self.seq.items)
        return constant_len(self.seq.value)

    def _item(self, i: int) -> Variable:
        if isinstance(self.seq, SequenceVariable):
            return self.seq.items[i]
        return wrap_constant(self.seq.value[i])

    def next(self, tx) -> Variable | None:
        if not self.done and 0 <= self.index < self._len():
            item = self._item(self.index)
            self.index += -1 if self.reverse else 1
            return item
        self.done = True
        return None

    def length_hint(self) -> int:
        if self.done:
            return 0
        return max(0, self.index + 1 if self.reverse else self._len() - self.index)

    def _state(self) -> int:
        """The argument of the real iterator's ``__setstate__`` for this position."""
        if self.reverse and isinstance(self.seq, ConstantVariable) and \
                isinstance(self.seq.value, range):
            # reversed(range) is a range iterator over the reversed range: it counts up
            return sys.maxsize if self.done else self._len() - 1 - self.index
        if self.done:
            return -1 if self.reverse else sys.maxsize
        return self.index

    def reconstruct(self, cg) -> str:
        seq = self.seq
        if isinstance(seq, ListVariable) and id(seq) in cg.output.side_effects.mutated \
                and not self.done and (self.reverse or self.index > 0):
            # the glue builds this iterator before it writes the list's new items back
            raise Unsupported("an iterator part way through a list from outside that "
                              "the trace changed escapes the traced region")
        if not self.done and self.index > self._len() - self.reverse:
            # the list shrank under it: __setstate__ would clip the index to the list
            raise Unsupported("an iterator past the end of its list escapes the traced "
                              "region")
        make = cg.const(reversed if self.reverse else iter)

        def build(v):
            return (f"{cg.const(iterator_at)}({make}({cg.value(v.seq)}), {v._state()}, "
                    f"{v.done})")
        return cg.mutable(self, build)


def budget_length(it, short: int) -> int | None:
    """How many items ``it`` has left, for ``config.max_unroll``'s estimate only. Of a
    short range whose start changes too (``SymRangeIteratorVariable``, at most
    ``short`` items: ``config.loop_unroll_limit``) it is the count in this call, read
    without pinning the bounds: each unrolled trip records its own decision
    (``start + k < stop``), so the entry holds for this count only however the
    estimate was read, while a pin would also fix ``start``: a range carried over a
    break (``break_ranges``) of one item, ``range(16, 17)``, was an entry per start.
    A longer range is pinned as before: its per-trip decisions would only send a loop
    node's attempt into a split that cannot succeed (an LU nest traced 2.5x the steps).
    (``range(T)``: the pin of ``T`` is the count, one guard rather than one per trip.)

    Example: ``range(s0, s1)`` at s0 = 16, s1 = 17: 1, no guard on s0."""
    if isinstance(it, SymRangeIteratorVariable) and not it.done and it.step in (1, -1) \
            and isinstance(it.start, SymInt) and it.start.sym.symbols:
        left = max(0, hint(it.left()))
        if left <= short:
            return left
    return it.length_hint()


class SymRangeIteratorVariable(SequenceIteratorVariable):
    """``iter(range(T))`` where a bound is a symbolic int (an int argument that changes
    between calls, a size) and the step 1 or -1: it steps without reading the bounds,
    so a loop over it can become a loop node whose trip count is the symbolic
    ``T - 1`` (``translator/loops.py``). Each item taken records the decision that
    the range went on (a guard ``T > k``); any other use (its length, the glue
    rebuilding it at a graph break) reads the range as ``SequenceIteratorVariable``
    does, pinning the bounds.

    Example::

        >>> it = SymRangeIteratorVariable(SymRangeVariable((0, T, 1)))   # T = SymInt(40, s0)
        >>> it.next(tx), it.left()         # records "s0 > 0"
        (constant 0, SymInt(39, s0 - 1))
    """

    def __init__(self, seq: SymRangeVariable):
        super().__init__(seq)
        self.start, self.stop, self.step = seq.bounds

    def _len(self) -> int:
        return constant_len(self.seq.value)   # pins the bounds

    def length_hint(self) -> int:
        # (bounds a constant apart, ``range(i + 1, n)`` at ``i = n - 1`` in a loop's
        # first trip: that many items for every size, read without a pin)
        left = self.left() if not self.done and self.step in (1, -1) else None
        if left is not None and not isinstance(left, SymInt):
            return max(0, left)
        return super().length_hint()

    def span(self):
        """How far the items left reach, in units of 1: ``stop - first`` counting up,
        ``first - stop`` counting down (an int or an affine SymInt); some are left
        exactly where it is positive."""
        first = self.start + self.step * self.index
        return self.stop - first if self.step > 0 else first - self.stop

    def left(self):
        """How many items are left: an int or a SymInt (no pin). Of a step other than
        1 or -1 that is ``ceil(span / |step|)``, no affine expression: the quotient
        guards its value (``SymInt.__floordiv__``), as a plain int's use would."""
        span = self.span()
        return span if self.step in (1, -1) else -(-span // abs(self.step))

    def next(self, tx) -> Variable | None:
        if not self.done and self.span() > 0:   # (a recorded decision, not a pin)
            item = ConstantVariable(self.start + self.step * self.index)
            self.index += 1
            return item
        self.done = True
        return None


class DictIteratorVariable(IteratorVariable):
    """An iterator over a dict's keys, values or items (``kind``), or reversed.

    As in CPython, a dict that changed size since the iterator was made raises
    RuntimeError at the next ``next()`` (here: a graph break, then Python raises it).
    A dict whose keys changed without a change of size (a key deleted, another added)
    is iterated by CPython in an order that depends on its hash table: a break too.
    """

    _SAMPLES = {"keys": {}.keys(), "values": {}.values(), "items": {}.items()}

    def __init__(self, dict_var: DictVariable, kind: str, reverse: bool = False):
        self.dict, self.kind, self.reverse = dict_var, kind, reverse
        # While the size is the same and no key was removed, no key was added either:
        # the keys are these, in this order.
        self.keys = list(reversed(dict_var.items) if reverse else dict_var.items)
        self.removals = dict_var.removals
        self.index, self.done = 0, False

    def describe(self) -> str:
        return self.python_type().__name__

    def python_type(self) -> type:
        view = self._SAMPLES[self.kind]
        return type(reversed(view) if self.reverse else iter(view))

    def _check_unchanged(self) -> None:
        _check_unchanged(self.dict, self.keys, self.removals, "dictionary", "keys")

    def next(self, tx) -> Variable | None:
        if self.done:
            return None
        self._check_unchanged()
        if self.index >= len(self.keys):
            self.done = True   # CPython lets go of the dict: it stays exhausted
            return None
        key = self.keys[self.index]
        self.index += 1
        value = self.dict.items[key]
        if self.kind == "keys":
            return ConstantVariable(key)
        if self.kind == "values":
            return value
        return TupleVariable([ConstantVariable(key), value])

    def length_hint(self) -> int:
        return 0 if self.done else max(0, len(self.keys) - self.index)

    def reconstruct(self, cg) -> str:
        if not self.done:
            self._check_unchanged()
            if id(self.dict) in cg.output.side_effects.mutated:
                # the glue builds this iterator before it writes the dict's new items back
                raise Unsupported("an iterator part way through a dict from outside that "
                                  "the trace changed escapes the traced region")

        def build(v):
            view = f"{cg.value(v.dict)}.{v.kind}()"
            make = cg.const(reversed if v.reverse else iter)
            return f"{cg.const(advanced)}({make}({view}), {v.index}, {v.done})"
        return cg.mutable(self, build)


def _check_unchanged(container, keys: list, removals: int, noun: str, what: str) -> None:
    """A dict's or set's iterator, as CPython's: a size change raises RuntimeError (a
    break, then Python raises it); a removal then re-insertion changes an order that
    CPython's hash table decides (a break)."""
    if len(container.items) != len(keys):
        raise Unsupported(f"{noun} changed size during iteration (RuntimeError)",
                          "Python raises it when the program runs.", cause="python_error")
    if container.removals != removals:
        raise Unsupported(f"{noun.lower()} {what} changed during iteration",
                          "CPython's order then depends on its hash table.")


class SetIteratorVariable(IteratorVariable):
    """An iterator over a set, in the set's order; like CPython's, it raises RuntimeError
    when the set changed size since it was made (a graph break, then Python raises)."""

    def __init__(self, set_var: SetVariable):
        self.set = set_var
        self.keys = set_var.ordered_keys()
        self.removals = set_var.removals
        self.index, self.done = 0, False

    def python_type(self) -> type:
        return type(iter(set()))

    def _check_unchanged(self) -> None:
        _check_unchanged(self.set, self.keys, self.removals, "Set", "elements")

    def next(self, tx) -> Variable | None:
        if self.done:
            return None
        self._check_unchanged()
        if self.index >= len(self.keys):
            self.done = True
            return None
        key = self.keys[self.index]
        self.index += 1
        return self.set.items[key]

    def length_hint(self) -> int:
        return 0 if self.done else max(0, len(self.keys) - self.index)

    def reconstruct(self, cg) -> str:
        if not self.done:
            self._check_unchanged()
        return cg.mutable(self, lambda v: f"{cg.const(advanced)}({cg.const(iter)}("
                                          f"{cg.value(v.set)}), {v.index}, {v.done})")


class ItemsIteratorVariable(IteratorVariable):
    """An iterator over items the translator took out of ``origin`` when it was made
    (the rows of an array, a frozenset's elements). The glue rebuilds it as
    ``iter(origin)`` moved past the items taken."""

    def __init__(self, items: list[Variable], origin: Variable | None = None):
        self.items, self.origin, self.index = list(items), origin, 0

    def python_type(self) -> type:
        if self.origin is not None and self.origin.is_constant():
            return type(iter(self.origin.as_python_constant()))
        return super().python_type()

    def next(self, tx) -> Variable | None:
        if self.index >= len(self.items):
            return None
        self.index += 1
        return self.items[self.index - 1]

    def length_hint(self) -> int:
        return len(self.items) - self.index

    def reconstruct(self, cg) -> str:
        if self.origin is None:
            raise Unsupported("an iterator with no Python equivalent escapes the traced "
                              "region")
        done = self.index >= len(self.items)
        return cg.mutable(self, lambda v: f"{cg.const(advanced)}({cg.const(iter)}("
                                          f"{cg.value(v.origin)}), {v.index}, {done})")


class ZipVariable(IteratorVariable):
    """``zip(*iterators, strict=...)``, lazy: each ``next()`` takes one item of each
    iterator in order, as CPython's zip does (an iterator before a shorter one has
    already given up an item when the zip stops)."""

    def __init__(self, iterators: list[IteratorVariable], strict: bool):
        self.iterators, self.strict = iterators, strict

    def python_type(self) -> type:
        return zip

    def next(self, tx) -> Variable | None:
        if not self.iterators:
            return None
        items = []
        for i, it in enumerate(self.iterators):
            item = take(tx, it)
            if item is None:
                if self.strict and (i > 0 or any(take(tx, rest) is not None
                                                 for rest in self.iterators[1:])):
                    raise Unsupported("zip(strict=True) of unequal lengths (ValueError)",
                                      "Python raises it when the program runs.",
                                      cause="python_error")
                return None
            items.append(item)
        return TupleVariable(items)

    def length_hint(self) -> int | None:
        hints = [it.length_hint() for it in self.iterators]
        return None if None in hints or not hints else min(hints)

    def reconstruct(self, cg) -> str:
        def build(v):
            its = "".join(f"{cg.value(i)}, " for i in v.iterators)
            return f"{cg.const(zip)}({its}strict={v.strict})"
        return cg.mutable(self, build)


class EnumerateVariable(IteratorVariable):
    """``enumerate(iterator, start)``, lazy: a count and the iterator, as in CPython."""

    def __init__(self, iterator: IteratorVariable, count: int):
        self.iterator, self.count = iterator, count

    def python_type(self) -> type:
        return enumerate

    def next(self, tx) -> Variable | None:
        item = take(tx, self.iterator)
        if item is None:
            return None
        self.count += 1
        return TupleVariable([ConstantVariable(self.count - 1), item])

    def length_hint(self) -> int | None:
        return self.iterator.length_hint()

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: f"{cg.const(enumerate)}({cg.value(v.iterator)}, "
                                          f"{cg.const(v.count)})")


# The cause of the break at the creation of a generator whose yields lie inside a
# try/with block: its frame runs eagerly (see dynamo/convert.py, _skip_whole_frame).
GENERATOR_CLEANUP = "generator_cleanup"


class GeneratorVariable(IteratorVariable):
    """A generator of user code, inlined lazily: each ``next()`` runs its translator
    to the next ``yield``, so side effects happen in the same order as in Python."""

    def __init__(self, translator):
        if yields_inside_try(translator.code):
            raise Unsupported(
                f"a generator with a yield inside try/finally or with "
                f"({translator.code.co_qualname})",
                "Closing it (when it is dropped half-way) runs its finally/__exit__ at "
                "that yield; an inlined generator is never a real object to close, so "
                "it runs as Python.", cause=GENERATOR_CLEANUP)
        self.tx, self.started = translator, False

    def describe(self) -> str:
        return f"generator {self.tx.code.co_qualname}"

    def python_type(self) -> type:
        return types.GeneratorType

    def next(self, tx=None) -> Variable | None:
        tx = self.tx
        if tx.done:
            return None
        if self.started:
            tx.push(ConstantVariable(None))  # the value next() sends into the yield
        self.started = True
        tx.suspended = False
        tx.run()
        return None if tx.done else tx.yielded

    def reconstruct(self, cg) -> str:
        raise Unsupported("a generator escapes the traced region")


def yields_inside_try(code) -> bool:
    """Whether a ``yield`` of ``code`` lies in a ``try``/``with`` block: there a
    ``close()`` (GeneratorExit at the yield) runs the program's handlers. User handlers
    start with PUSH_EXC_INFO; the compiler's own (a generator's StopIteration wrapper,
    an inlined comprehension's cleanup) do not."""
    bc = dis.Bytecode(code)
    insts = {i.offset: i for i in bc}
    regions = [(e.start, e.end) for e in bc.exception_entries
               if insts[e.target].opname == "PUSH_EXC_INFO"]
    return any(start <= i.offset < end for i in bc if i.opname == "YIELD_VALUE"
               for start, end in regions)
