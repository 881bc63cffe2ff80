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

import logging
import sys
import threading
import types
import weakref
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .shown import shown
from .sources import Source
from .type_slots import module_of, module_of_value, name_of, qualname_of

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
    """What an ARRAY guard expects: class, dtype, shape (None entries are dynamic).

    The layout fields are None unless something relied on them: ``strides`` or
    ``contiguity`` (``(c_contiguous, f_contiguous)``) when the backend declares
    ``layout_guards``, ``writeable`` when the trace writes into the array.
    """

    cls: type
    dtype: np.dtype
    shape: tuple
    strides: tuple | None = None     # set only when the backend or the trace needs layout
    writeable: bool | None = None    # set only when the trace writes into the array
    device: int | None = None        # CuPy device id
    contiguity: tuple | None = None  # (c_contiguous, f_contiguous), a looser layout guard

    def describe(self) -> str:
        dims = ", ".join("*" if d is None else str(d) for d in self.shape)
        text = f"{module_of(self.cls).split('.')[0]}.{name_of(self.cls)} {self.dtype}[{dims}]"
        if self.strides is not None:
            text += f" strides={self.strides}"
        if self.contiguity is not None:
            text += " " + _contiguity_words(self.contiguity)
        if self.writeable is not None:
            text += " writeable" if self.writeable else " read-only"
        if self.device is not None:
            text += f" device={self.device}"
        return text

    def merge(self, other: ArraySpec) -> ArraySpec:
        """Both facts at once: the layout fields one of them pins are kept.

        Two specs of one source always describe the same traced value, so class,
        dtype and shape agree; anything else is a bug in whoever built them.
        """
        if (self.cls, self.dtype, self.shape) != (other.cls, other.dtype, other.shape):
            raise ValueError(f"conflicting array guards: {self.describe()} and "
                             f"{other.describe()}")
        pick = lambda a, b: a if a is not None else b
        return replace(self, strides=pick(self.strides, other.strides),
                       writeable=pick(self.writeable, other.writeable),
                       device=pick(self.device, other.device),
                       contiguity=pick(self.contiguity, other.contiguity))


def _contiguity_words(flags: tuple) -> str:
    c, f = flags
    return {(True, True): "C and F contiguous", (True, False): "C contiguous",
            (False, True): "F contiguous", (False, False): "not contiguous"}[(c, f)]


class _Dead:
    """What a weakly held guard value reads as once the object is gone."""

    def __repr__(self) -> str:
        return "<an object that no longer exists>"


DEAD = _Dead()


class Guard:
    """One fact about the value behind ``source``.

    ID and TYPE guards on user objects (functions, classes, instances) hold them
    weakly: a cached entry must not keep a model, its class or its helpers alive.
    Once such an object is gone, ``expected`` is ``DEAD`` and the guard fails.
    """

    __slots__ = ("source", "kind", "_expected", "_weak", "note", "_key")

    def __init__(self, source: Source, kind: str, expected: Any, note: str = ""):
        self.source, self.kind, self.note = source, kind, note
        self._weak = False
        self._expected = expected
        if kind in (ID, TYPE) and not keeps_alive_safely(expected):
            try:
                self._expected, self._weak = weakref.ref(expected), True
            except TypeError:
                pass  # no weak references (e.g. __slots__ without __weakref__): kept
        self._key = self._make_key(expected)

    @property
    def expected(self) -> Any:
        if self._weak:
            value = self._expected()
            return DEAD if value is None else value
        return self._expected

    def _make_key(self, exp: Any) -> tuple:
        if self.kind == ARRAY:
            return (self.source, ARRAY)
        if self.kind in (ID, TYPE):
            exp = id(exp)
        elif self.kind == CONSTANT:
            exp = _constant_key(exp)
        return (self.source, self.kind, exp)

    def key(self) -> tuple:
        """Guards with equal keys are one guard. ARRAY guards key on the source alone:
        facts about one array merge into one spec (see ``ArraySpec.merge``)."""
        return self._key

    def __repr__(self) -> str:
        return f"Guard({self.describe()})"

    def describe(self) -> str:
        if self.kind == ARRAY:
            return f"{self.source.name()}: {self.expected.describe()}"
        builtin = getattr(self.source, "builtin", None)   # a BuiltinSource's name
        if self.kind == ID and builtin is not None and \
                getattr(self.expected, "__name__", None) == builtin:
            return f"{builtin} is the builtin {builtin}"
        if self.kind == ID:
            return f"{self.source.name()} is {_obj_name(self.expected)}"
        if self.kind == TYPE:
            return f"type({self.source.name()}) is {_obj_name(self.expected)}"
        if self.kind == LENGTH:
            return f"len({self.source.name()}) == {self.expected}"
        if self.kind == DICT_KEYS:
            return f"keys({self.source.name()}) == {list(self.expected)}"
        if self.kind == NOT_PRESENT:
            name = builtin or self.source.name()
            return f"{name} is not shadowed by a global (the builtin {name} is used)"
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
            if typed(value) == typed(exp):
                return None
            if type(exp) is tuple and len(value) == len(exp) > 20:   # the item that differs
                i = next(i for i, (a, b) in enumerate(zip(exp, value)) if typed(a) != typed(b))
                name, exp, value = f"{name}[{i}]", exp[i], value[i]
            return f"{name}: expected {shown(exp)}, got {shown(value)}"
        if self.kind == LENGTH:
            n = len(value)
            return None if n == exp else f"len({name}): expected {exp}, got {n}"
        if self.kind == DICT_KEYS:
            keys = tuple(value)   # (typed: 1, 1.0, True, and 0.0, -0.0 are one key to ==)
            return None if typed(keys) == typed(tuple(exp)) else \
                f"{name} keys: expected {list(exp)}, got {list(keys)}"
        if self.kind == ARRAY:
            return _array_failure(name, exp, value)
        return None

    def holds(self, value: Any) -> bool:
        return self.failure(value) is None


def typed(value: Any) -> Any:
    """``value`` with the type of every part spelled out, for exact constant guards.

    ``==`` says 1 == 1.0 == True, 0.0 == -0.0, slice(1, 2) == slice(1, 2.0) and
    nan != nan; a trace that specialised on one of them may be wrong for another
    (``1 / x``, ``np.float32(n)``, printing). ``typed`` tells them apart::

        >>> typed(0.0) == typed(-0.0), typed((1, 2)) == typed((1, 2.0))
        (False, False)
    """
    t = type(value)
    if t is tuple:
        return (tuple, *map(typed, value))
    if t is slice or t is range:
        return (t, typed(value.start), typed(value.stop), typed(value.step))
    if t is float and (value != value or value == 0.0):
        return (float, repr(value))  # nan equals itself here; -0.0 differs from 0.0
    if t is complex:
        return (complex, typed(value.real), typed(value.imag))
    if isinstance(value, (np.floating, np.complexfloating)):
        # np.float32(-0.0) == np.float32(0.0) too (``x + fi.eps`` keeps the sign of a
        # -0.0 element only for -0.0): the Python float's key of each part
        return (t, typed(float(value.real)), typed(float(value.imag))) \
            if isinstance(value, np.complexfloating) else (t, typed(float(value)))
    return (t, value)


def plain_numbers(value: Any) -> type | None:
    """``int`` for a tuple of at least two Python ints, ``float`` for one of nonzero,
    non-NaN Python floats, else None: where ``==`` of the tuple is exact once each item's
    type is the expected one (no 1 == 1.0, no -0.0 == 0.0, no NaN), so a CONSTANT guard
    on it compares in C loops, not ``typed`` item by item (a 100,000-item tuple taken
    as one input: ``dynamo.variables.builder``)::

        >>> plain_numbers((1, 2)), plain_numbers((0.5, 2.0)), plain_numbers((0.0, 1.0))
        (<class 'int'>, <class 'float'>, None)
    """
    if type(value) is not tuple or len(value) < 2:
        return None
    kind = type(value[0])
    if kind not in (int, float) or any(type(v) is not kind for v in value):
        return None
    if kind is float and (0.0 in value or any(v != v for v in value)):
        return None
    return kind


def equal_is_not_same(value: Any) -> bool:
    """A NumPy float or complex scalar that ``==`` does not tell from another value:
    0.0 (-0.0 equals it), NaN (equals nothing), a complex (``1-0j == 1+0j``). Its CONSTANT
    guard compares ``typed`` keys.

        >>> equal_is_not_same(np.float32(0.0)), equal_is_not_same(np.float32(0.5))
        (True, False)
    """
    if isinstance(value, np.complexfloating):
        return True
    return isinstance(value, np.floating) and bool(value == 0 or value != value)


def _constant_key(value: Any) -> Any:
    """A CONSTANT guard's expected value as a key: ``typed`` (0.0 and -0.0 differ, NaN
    is one key), not ``repr``, which raises for an int of more than 4300 digits (issue
    #17, round 23); an unhashable one (a slice on 3.11 is hashed through ``typed``) by
    its identity."""
    key = typed(value)
    try:
        hash(key)
    except TypeError:
        return (type(value), id(value))
    return key


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
    if exp.contiguity is not None:
        got = (bool(value.flags.c_contiguous), bool(value.flags.f_contiguous))
        if got != tuple(exp.contiguity):
            return f"{name} layout: expected {_contiguity_words(exp.contiguity)}, " \
                   f"got {_contiguity_words(got)}"
    # (NPY_ARRAY_WRITEABLE of flags.num: flags.writeable of a broadcast view warns)
    if exp.writeable is not None and bool(value.flags.num & 1024) != exp.writeable:
        return f"{name} writeable: expected {exp.writeable}, got {not exp.writeable}"
    if exp.device is not None and value.device.id != exp.device:
        return f"{name} device: expected {exp.device}, got {value.device.id}"
    return None


# Objects whose name attributes are C slots or their own entries: reading them runs no
# program code. Any other object may answer ``__qualname__`` or ``name`` from its
# ``__getattr__``, a property or its metaclass, and the words of a guard are made when
# the cache is full (hook._log_full), where no program code may run (issue #17, round 23)
_NAMED_BY_SLOTS = (types.FunctionType, types.BuiltinFunctionType, np.ufunc)
_NAMED_BY_NAME = (logging.Logger, threading.Thread)


def _obj_name(obj: Any) -> str:
    """An object in a guard's words, read without running the program's code::

        >>> _obj_name(np.add), _obj_name(np.ndarray), _obj_name(3)
        ('numpy.add', 'numpy.ndarray', '3')
    """
    if obj is DEAD:
        return repr(DEAD)
    if type(obj) in (int, float, complex, bool, str, bytes, type(None)):
        return repr(obj)[:60]    # np.pi guarded by identity: its value says more
    if isinstance(obj, types.ModuleType):
        return f"module {_module_name(obj)}"
    if isinstance(obj, type):    # (from its type slots: a metaclass may answer __name__)
        name, mod = qualname_of(obj), module_of(obj)
    elif type(obj) in _NAMED_BY_SLOTS:
        name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
        mod = getattr(obj, "__module__", None)
    else:
        name = mod = None
    if isinstance(name, str):
        return f"{mod}.{name}" if isinstance(mod, str) and mod != "builtins" else name
    kind = name_of(type(obj))
    if type(obj) in _NAMED_BY_NAME and isinstance(obj.name, str):   # a Logger, a Thread
        return f"<{kind} {obj.name!r} at {id(obj):#x}>"
    return f"<{kind} object at {id(obj):#x}>"


def _module_name(module: types.ModuleType) -> str:
    """A module's own ``__name__`` entry (a module subclass may define a property)."""
    name = module.__dict__.get("__name__") if type(module) is types.ModuleType else None
    return name if isinstance(name, str) else f"<{qualname_of(type(module))}>"


# --------------------------------------------------------------------------- references

_STRONG_MODULES = ("builtins", "numpy", "cupy", "cupyx", "math", "operator", "functools",
                   "itertools", "collections", "typing", "types")


def keeps_alive_safely(obj: Any) -> bool:
    """Objects a guard may hold strongly: library objects that never die, and classes
    their module holds by their qualified name (``held_by_its_module``)."""
    # (by the type: isinstance reads obj.__class__, which a program's class may answer;
    # a class's module from its own entry: a metaclass property named __module__ may raise)
    kind = type(obj)
    if issubclass(kind, types.ModuleType):
        return True
    if issubclass(kind, type) and held_by_its_module(obj):
        return True
    if issubclass(kind, np.ufunc | np.dtype):
        return True
    mod = module_of_value(obj) if issubclass(kind, (type, types.FunctionType,
                                                    types.BuiltinFunctionType)) \
        else module_of(kind)
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


def held_by_its_module(cls: type) -> bool:
    """Whether ``cls`` is what its module (in ``sys.modules``) holds under its
    qualified name: a class statement at the top of a module, or nested in such a
    class (``Outer.Inner``), never one made in a function (``<locals>``).

    Such a class lives as long as its module, which is to the end of the process, so
    a guard may hold it strongly: ``type(self) is ___c2`` instead of the weak
    reference's ``type(self) is ___c2()``, a call less (about 170 instructions a
    check, callgrind, CPython 3.11). What a strong reference adds is only after the
    module let it go (``importlib.reload``, ``del module.Cls``), and only as long as
    the cache entry lives. A class made per call, in a function, stays weak: an entry
    must not keep it alive. Reads the module's and classes' ``__dict__`` only (no
    module ``__getattr__`` or metaclass runs).

    Example::

        >>> held_by_its_module(collections.OrderedDict)
        True
        >>> def f():
        ...     class Local: pass
        ...     return Local
        >>> held_by_its_module(f())
        False
    """
    # (type's own slots: a metaclass property named __module__ may raise)
    qualname, module_name = qualname_of(cls), module_of(cls)
    if not isinstance(qualname, str) or not module_name or "<locals>" in qualname:
        return False
    found: Any = sys.modules.get(module_name)
    for part in qualname.split("."):
        try:
            found = vars(found).get(part) if found is not None else None
        except TypeError:   # no __dict__
            return False
    return found is cls
