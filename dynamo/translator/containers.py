"""Handlers that build and take apart tuples, lists, dicts, sets, strings and slices."""

from __future__ import annotations

from .. import hash_order
from ..exc import Unsupported
from ..variables import (
    ConstantVariable,
    DictVariable,
    ListVariable,
    SequenceVariable,
    SliceVariable,
    TupleVariable,
)
from ..variables.base import program_error
from ..variables.formatted import changing_number, join_parts
from ..variables.formatted import format_value as deferred_format
from ..variables.graph_numbers import is_graph_number
from ..variables.objects import ExceptionVariable
from ..variables.set_displays import set_display
from ..variables.sets import const_key
from ..variables.trip_rows import TripRowsVariable


class Containers:
    def BUILD_TUPLE(self, inst):
        self.push(TupleVariable(self.popn(inst.arg)))

    def BUILD_LIST(self, inst):
        self.push(ListVariable(self.popn(inst.arg)))

    def BUILD_SET(self, inst):
        self.push(set_display(self.popn(inst.arg)))   # (changing numbers: unhashed)

    def BUILD_MAP(self, inst):
        items = self.popn(2 * inst.arg)
        self.push(DictVariable({const_key(k): v for k, v in zip(items[::2], items[1::2])}))

    def BUILD_CONST_KEY_MAP(self, inst):
        keys = self.pop().as_python_constant()
        values = self.popn(inst.arg)
        self.push(DictVariable(dict(zip(keys, values))))

    def BUILD_SLICE(self, inst):
        parts = self.popn(inst.arg)
        if len(parts) == 2:
            parts.append(ConstantVariable(None))
        self.push(SliceVariable(*parts))

    def BUILD_STRING(self, inst):
        self.push(join_parts(self.popn(inst.arg)))   # formatted pieces: by the glue

    # The target of LIST_APPEND, SET_ADD, MAP_ADD and their *_EXTEND/UPDATE/MERGE forms is
    # usually a fresh container; after a graph break it is a resume function's argument
    # (`f(*a, 5, *b)` resumed between `*a` and `5`): a container from outside, whose
    # changes must be recorded to be written back, like any other mutation.
    def changed(self, depth: int) -> None:
        """Record the change of the container ``depth`` deep in the stack."""
        self.output.side_effects.mutate(self.stack[-depth])

    def LIST_APPEND(self, inst):
        value = self.pop()
        if isinstance(self.stack[-inst.arg], TripRowsVariable):
            # (a comprehension's list as a loop node's rows: translator/per_trip_lists)
            self.stack[-inst.arg].call_method(self, "append", [value], {})
            return
        self.stack[-inst.arg].items.append(value)
        self.changed(inst.arg)

    def LIST_EXTEND(self, inst):
        items = self.unpack_iterable(self.pop())
        self.stack[-inst.arg].items.extend(items)
        self.changed(inst.arg)

    def LIST_TO_TUPLE(self, inst):  # 3.11
        self.push(TupleVariable(self.pop().items))

    def SET_ADD(self, inst):
        value = self.pop()
        self.stack[-inst.arg].add(value)
        self.changed(inst.arg)

    def SET_UPDATE(self, inst):
        other, target = self.pop(), self.stack[-inst.arg]
        if hasattr(target, "merge"):   # (a set, a frozenset merged whole: sets.py)
            target.merge(self, other)
        else:
            for v in self.unpack_iterable(other):
                target.add(v)
        self.changed(inst.arg)

    # (a dict changes through ``store``, which logs it for ``write_back``: a dict from
    # outside, resumed after a break, ``{"n": 1, **{f"p{q}": ...}}``, gets the items)
    def MAP_ADD(self, inst):
        value = self.pop()
        key = self.pop()
        self.stack[-inst.arg].store(const_key(key), value)
        self.changed(inst.arg)

    def mapping_items(self, value) -> dict:
        """The items of ``{**value}`` or ``f(**value)``: a dict's. Any other object is read
        through its ``keys()`` and ``[]`` (user code), or is not a mapping (TypeError):
        Python does either when the program runs."""
        if not isinstance(value, DictVariable):
            raise Unsupported(f"** of {value.describe()} (not a dict)",
                              "Python reads a mapping's keys() and items, or raises "
                              "TypeError, when the program runs.")
        return dict(value.items)

    def DICT_UPDATE(self, inst):
        new = self.mapping_items(self.pop())
        target = self.stack[-inst.arg]
        for k, v in new.items():
            target.store(k, v)
        self.changed(inst.arg)

    def DICT_MERGE(self, inst):
        new = self.mapping_items(self.pop())
        target = self.stack[-inst.arg]
        dup = set(target.items) & set(new)
        if dup:
            raise Unsupported(f"keyword argument repeated: {sorted(dup)} (TypeError)")
        for k, v in new.items():
            target.store(k, v)
        self.changed(inst.arg)

    def UNPACK_SEQUENCE(self, inst):
        seq = self.pop()
        items = self.unpack_iterable(seq)
        if len(items) != inst.arg and (isinstance(seq, SequenceVariable) or seq.is_constant()):
            # Python's own ValueError, before any effect: a break, or the program's
            # `except` (its message is not read: translator/exceptions.py)
            raise program_error(ValueError(f"unpacking {len(items)} values into {inst.arg}"))
        if len(items) != inst.arg:
            raise Unsupported(f"unpacking {len(items)} values into {inst.arg} (ValueError)")
        for item in reversed(items):
            self.push(item)

    def UNPACK_EX(self, inst):
        before, after = inst.arg & 0xFF, inst.arg >> 8
        items = self.unpack_iterable(self.pop())
        if len(items) < before + after:
            raise Unsupported("not enough values to unpack (ValueError)")
        rest = items[before:len(items) - after]
        out = items[:before] + [ListVariable(rest)] + items[len(items) - after:]
        for item in reversed(out):
            self.push(item)

    # ------------------------------------------------------------------ f-strings
    def format_value(self, value, spec: str, conversion: str | None):
        if isinstance(value, ExceptionVariable):   # `except E as e: f"failed: {e}"`
            return value.formatted(spec, conversion)
        if not value.is_constant() or is_graph_number(value) or changing_number(value):
            # formatted by the glue, or the f-string's break
            return deferred_format(self, value, spec, conversion)
        v = value.as_python_constant()
        hash_order.note_value(v, "formatting a frozenset")   # (its text shows its order)
        if conversion == "s":
            v = str(v)
        elif conversion == "r":
            v = repr(v)
        elif conversion == "a":
            v = ascii(v)
        return ConstantVariable(format(v, spec))

    def FORMAT_VALUE(self, inst):  # 3.11, 3.12
        flags = inst.arg if isinstance(inst.arg, int) else 0
        spec = self.pop().as_python_constant() if flags & 0x04 else ""
        conversion = {1: "s", 2: "r", 3: "a"}.get(flags & 0x03)
        self.push(self.format_value(self.pop(), spec, conversion))

    def FORMAT_SIMPLE(self, inst):  # 3.13
        self.push(self.format_value(self.pop(), "", None))

    def FORMAT_WITH_SPEC(self, inst):  # 3.13
        spec = self.pop().as_python_constant()
        self.push(self.format_value(self.pop(), spec, None))

    def CONVERT_VALUE(self, inst):  # 3.13
        value = self.pop()
        conversion = {1: "s", 2: "r", 3: "a"}[int(inst.arg)]
        self.push(self.format_value(value, "", conversion))
