"""Guard kinds: each fact a trace relied on, about the value behind one Source.

A guard renders into two parts of the generated check function (see
:mod:`guards.check`): cheap identity tests (``type(x) is ndarray``) chained with
``and``, and (expression, expected value) pairs that all go into one tuple compared
with one stored tuple. When a call misses, ``Guard.failure`` explains in words why:
``L['x'] shape[0]: expected 3, got 4``.

Example::

    >>> g = Guard(LocalSource("n"), CONSTANT, 3)
    >>> g.failure(4)
    "L['n']: expected 3, got 4"
"""

from __future__ import annotations

import math
import types
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from .sources import Source

TYPE = "TYPE_MATCH"          # type(value) is T
ID = "ID_MATCH"              # value is obj (functions, modules, classes, user objects)
CONSTANT = "CONSTANT_MATCH"  # type and value of a Python scalar, string, tuple of those
ARRAY = "ARRAY_MATCH"        # array library, dtype, shape (None = any size), layout
LENGTH = "LENGTH_MATCH"      # len(value) == n for lists, tuples and dicts the trace unpacked
DICT_KEYS = "DICT_KEYS"      # the keys of a dict, in order
NOT_PRESENT = "NOT_PRESENT"  # a global name is absent (the trace used the builtin)
EXPR = "EXPR"                # a boolean expression over sources (relations between sizes)

# Cheapest and most selective first (see guards.check).
ORDER = {ID: 0, TYPE: 1, NOT_PRESENT: 2, LENGTH: 3, DICT_KEYS: 4, CONSTANT: 5, ARRAY: 6,
         EXPR: 7}


@dataclass(frozen=True)
class ArraySpec:
    """What an ARRAY guard expects: class, dtype, shape (None entries are dynamic)."""

    cls: type
    dtype: np.dtype
    shape: tuple
    strides: tuple | None = None     # set only when the backend or the trace needs layout
    writeable: bool | None = None    # set only when the trace writes into the array
    device: int | None = None        # CuPy device id

    def describe(self) -> str:
        dims = ", ".join("*" if d is None else str(d) for d in self.shape)
        return f"{self.cls.__module__.split('.')[0]}.{self.cls.__name__} {self.dtype}[{dims}]"


@dataclass(frozen=True, eq=False)
class Guard:
    source: Source
    kind: str
    expected: Any
    note: str = ""  # for EXPR guards: why the trace needed the relation

    def key(self) -> tuple:
        exp = self.expected
        if self.kind in (ID, TYPE):
            exp = id(exp)
        elif self.kind == CONSTANT:
            exp = (type(exp), repr(exp))
        return (self.source, self.kind, exp)

    def describe(self) -> str:
        if self.kind == ARRAY:
            return f"{self.source.name()}: {self.expected.describe()}"
        if self.kind == ID:
            return f"{self.source.name()} is {_obj_name(self.expected)}"
        if self.kind == TYPE:
            return f"type({self.source.name()}) is {_obj_name(self.expected)}"
        if self.kind == LENGTH:
            return f"len({self.source.name()}) == {self.expected}"
        if self.kind == DICT_KEYS:
            return f"keys({self.source.name()}) == {list(self.expected)}"
        if self.kind == NOT_PRESENT:
            return f"{self.source.name()} is not defined (the builtin is used)"
        if self.kind == EXPR:
            return f"{self.expected}" + (f"  ({self.note})" if self.note else "")
        return f"{self.source.name()} == {self.expected!r}"

    # ------------------------------------------------------------------ failure words
    def failure(self, value: Any) -> str | None:
        """Why ``value`` (the current value of the source) breaks this guard, or None."""
        name, exp = self.source.name(), self.expected
        if self.kind == ID:
            return None if value is exp else \
                f"{name}: expected {_obj_name(exp)}, got {_obj_name(value)}"
        if self.kind == TYPE:
            return None if type(value) is exp else \
                f"{name}: expected type {_obj_name(exp)}, got {_obj_name(type(value))}"
        if self.kind == CONSTANT:
            if type(value) is not type(exp):
                return f"{name}: expected type {type(exp).__name__}, " \
                       f"got {type(value).__name__}"
            return None if _same_constant(value, exp) else \
                f"{name}: expected {exp!r}, got {value!r}"
        if self.kind == LENGTH:
            n = len(value)
            return None if n == exp else f"len({name}): expected {exp}, got {n}"
        if self.kind == DICT_KEYS:
            keys = tuple(value)
            return None if keys == exp else f"{name} keys: expected {list(exp)}, got {list(keys)}"
        if self.kind == ARRAY:
            return _array_failure(name, exp, value)
        return None

    def holds(self, value: Any) -> bool:
        return self.failure(value) is None


def _same_constant(a, b) -> bool:
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(type(x) is type(y) and _same_constant(x, y)
                                        for x, y in zip(a, b))
    return a == b


def _array_failure(name: str, exp: ArraySpec, value: Any) -> str | None:
    if type(value) is not exp.cls:
        return f"{name}: expected {_obj_name(exp.cls)}, got {_obj_name(type(value))}"
    if value.dtype != exp.dtype:
        return f"{name} dtype: expected {exp.dtype}, got {value.dtype}"
    if value.ndim != len(exp.shape):
        return f"{name} ndim: expected {len(exp.shape)}, got {value.ndim}"
    for i, (want, got) in enumerate(zip(exp.shape, value.shape)):
        if want is not None and want != got:
            return f"{name} shape[{i}]: expected {want}, got {got}"
    if exp.strides is not None and tuple(value.strides) != exp.strides:
        return f"{name} strides: expected {exp.strides}, got {tuple(value.strides)}"
    if exp.writeable is not None and value.flags.writeable != exp.writeable:
        return f"{name} writeable: expected {exp.writeable}, got {value.flags.writeable}"
    if exp.device is not None and value.device.id != exp.device:
        return f"{name} device: expected {exp.device}, got {value.device.id}"
    return None


def _obj_name(obj: Any) -> str:
    if isinstance(obj, types.ModuleType):
        return f"module {obj.__name__}"
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if name is not None:
        mod = getattr(obj, "__module__", None)
        return f"{mod}.{name}" if mod and mod != "builtins" else str(name)
    return f"<{type(obj).__name__} object at {id(obj):#x}>"


# --------------------------------------------------------------------------- references

_STRONG_MODULES = ("builtins", "numpy", "cupy", "cupyx", "math", "operator", "functools",
                   "itertools", "collections", "typing", "types")


def keeps_alive_safely(obj: Any) -> bool:
    """Objects a guard may hold strongly: library objects that never die."""
    if isinstance(obj, types.ModuleType):
        return True
    mod = getattr(obj, "__module__", None) if isinstance(obj, (type, types.FunctionType,
                                                              types.BuiltinFunctionType)) \
        else type(obj).__module__
    if isinstance(obj, np.ufunc | np.dtype):
        return True
    return bool(mod) and mod.split(".")[0] in _STRONG_MODULES


def reference(obj: Any):
    """(expression suffix, value) to reach ``obj`` from generated code without
    keeping user objects alive: a weakref called at check time, or the object."""
    if keeps_alive_safely(obj):
        return "", obj
    try:
        return "()", weakref.ref(obj)
    except TypeError:
        return "", obj
