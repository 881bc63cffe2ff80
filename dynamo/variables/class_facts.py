"""Facts about classes, read from their own namespaces: nothing of the program's runs.

What ``ObjectVariable`` and ``ClassVariable`` (``objects.py``) decide on before they
read an attribute or model a construction: where a name lives in a class's MRO
(``class_entry``), whether it is a data descriptor, whether a metaclass of the
program's could answer a class attribute, whether ``klass(...)`` is plain
``object.__new__`` and ``__init__`` (``modelled_class``), and whether a class's
attributes are a library's, never changing (``library_class``), and whether an
exception class is built by BaseException alone (``plain_exception_class``).

Example::

    >>> class Meta(type):
    ...     factor = property(lambda cls: 2)
    >>> class C(metaclass=Meta):
    ...     pass
    >>> program_metaclass_answers(C, "factor"), modelled_class(C)
    ('Meta', None)
"""

from __future__ import annotations

import inspect
import sys
import types

from dynamo.guards.guards import held_by_its_module
from dynamo.guards.type_slots import (
    defines,
    dict_of,
    dict_offset_of,
    flags_of,
    is_builtin_class,
    module_of,
    mro_of,
    qualname_of,
)

LIBRARY_MODULES = ("numpy", "cupy", "cupyx", "math", "cmath", "operator")
HEAP_TYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class made by a class statement or type()


def library_class(cls: type) -> bool:
    """A class of builtins or of a library whose attributes never change (read as
    library values, unguarded): a C type of theirs, or a Python class its module holds
    under its name. A class statement of the program's that says ``__module__ =
    "numpy"`` in its body is neither (round 14, ``fake-library-module``)."""
    if module_of(cls).split(".")[0] not in LIBRARY_MODULES + ("builtins",):
        return False
    return not type.__dict__["__flags__"].__get__(cls) & HEAP_TYPE or \
        held_by_its_module(cls)


def program_metaclass_answers(cls: type, name: str) -> str | None:
    """The name of ``cls``'s metaclass where reading ``cls.name`` may run its code: a
    metaclass of the program's (a class statement's, not the standard library's
    ``ABCMeta``, ``EnumType``) with an entry named ``name`` (a property), its own
    ``__getattribute__``, or a ``__getattr__`` where the class lacks ``name``. Read
    from the classes' own namespaces: nothing of the program's runs.

        >>> class Meta(type):
        ...     factor = property(lambda cls: 2)
        >>> class C(metaclass=Meta):
        ...     pass
        >>> program_metaclass_answers(C, "factor"), program_metaclass_answers(C, "x")
        ('Meta', None)
    """
    meta = type(cls)
    if meta is type:
        return None
    for k in mro_of(meta):
        if k is type or k is object or not type.__dict__["__flags__"].__get__(k) & HEAP_TYPE \
                or standard_library(module_of(k)):
            continue
        own = dict_of(k)
        if name in own or "__getattribute__" in own or (
                "__getattr__" in own and class_entry(cls, name) is None):
            return qualname_of(meta)
    return None


def program_descriptor(cls: type, name: str) -> str | None:
    """The class of ``cls``'s entry ``name`` where that entry is a descriptor whose
    ``__get__`` is the program's own code (a class statement's, not a builtin's nor
    the standard library's), or None. Reading ``cls.name`` runs that ``__get__``
    (``__get__(None, cls)``): code that may count or answer differently on each read,
    which neither the trace nor the guards may run in the program's stead (round 45,
    issue #17). Read from the namespaces: nothing of the program's runs.

        >>> class Loud:
        ...     def __get__(self, obj, owner=None):
        ...         return 2.0
        >>> class C:
        ...     w = Loud()
        ...     v = property(lambda self: 1)
        >>> program_descriptor(C, "w"), program_descriptor(C, "v")
        ('Loud', None)
    """
    kind = type(class_entry(cls, name))
    for k in mro_of(kind):
        if "__get__" in dict_of(k):
            user = flags_of(k) & HEAP_TYPE and not standard_library(module_of(k))
            return qualname_of(kind) if user else None
    return None


_MODULE_DICT = types.ModuleType.__dict__["__dict__"].__get__   # (no code of a subclass's)


def module_code_answers(module, name: str) -> str | None:
    """What of the program's would run to read ``module.name``, or None: the module's
    own ``__getattr__`` (PEP 562) where its namespace lacks ``name``, or the module's
    class where it is a ``ModuleType`` subclass of the program's that has an entry
    ``name`` (a property) or its own ``__getattribute__``/``__getattr__``. Such a read
    runs on every access, so neither the trace nor the guards may make it for the
    program (round 45, issue #17).

        >>> import types
        >>> m = types.ModuleType("lazy")
        >>> m.__getattr__ = lambda name: 2.0
        >>> m.w = 1.0
        >>> module_code_answers(m, "scale"), module_code_answers(m, "w")
        ("lazy's __getattr__", None)
    """
    own = _MODULE_DICT(module)
    if name not in own and "__getattr__" in own:
        return f"{module.__name__}'s __getattr__"
    kind = type(module)
    if kind is types.ModuleType or standard_library(module_of(kind)):
        return None
    for k in mro_of(kind):
        if k is types.ModuleType or k is object:
            continue
        if name in dict_of(k) or "__getattribute__" in dict_of(k) or \
                "__getattr__" in dict_of(k) and name not in own:
            return f"its class {qualname_of(kind)}"
    return None


def standard_library(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def modelled_class(klass: type) -> str | None:
    """Why ``klass(...)`` cannot be modelled as ``NewObjectVariable`` does, or None."""
    if type(klass).__call__ is not type.__call__:
        return "its metaclass defines __call__"
    for base in mro_of(klass)[:-1]:
        if is_builtin_class(base) or not isinstance(dict_of(base), types.MappingProxyType):
            return f"it derives from {qualname_of(base)}"
        if dict_of(base).get("__slots__", ()):   # (abc.ABC's empty __slots__ is fine)
            return "it has __slots__"
    if mro_of(klass)[-1] is not object:
        return "its bases are not plain classes"
    for name in ("__new__", "__setattr__", "__getattribute__", "__delattr__"):
        if inspect.getattr_static(klass, name) is not inspect.getattr_static(object, name):
            return f"it defines {name}"
    if defines(klass, "__del__"):
        return "it defines __del__"
    return None


C_METHODS = (types.MethodDescriptorType, types.WrapperDescriptorType,
              types.BuiltinFunctionType, types.ClassMethodDescriptorType)
# class attributes an instance read resolves on the class itself (not through the
# instance's source): methods, static and class methods
READ_FROM_CLASS = (types.FunctionType, staticmethod, classmethod, *C_METHODS)


def class_entry(cls: type, name: str):
    """``name`` in the namespaces of ``cls``'s MRO (None where absent), read without
    the metaclass's help."""
    for k in mro_of(cls):
        own = dict_of(k)
        if name in own:
            return own[name]
    return None


def data_descriptor(value) -> bool:
    """A class attribute that wins over an instance's entry of its name (``property``,
    a slot, anything whose type has ``__set__`` or ``__delete__``)."""
    kind = type(value)
    return hasattr(kind, "__set__") or hasattr(kind, "__delete__")


def may_have_own(cls: type) -> bool:
    """Whether an object of ``cls`` may have an attribute its class lacks: one in its
    ``__dict__``, or one its ``__getattr__`` or own ``__getattribute__`` answers.

    Example: ``may_have_own(tuple)`` is False; a class statement's class (its objects
    have a ``__dict__``) gives True."""
    return bool(dict_offset_of(cls)) or defines(cls, "__getattr__") or \
        any(flags_of(k) & HEAP_TYPE and "__getattribute__" in dict_of(k)
            for k in mro_of(cls))


# What a builtin exception class may define beyond BaseException and still be built
# by BaseException's own __new__/__init__ (store ``args``, accept anything). Classes
# with more (OSError's errno, StopIteration's value, ImportError's name...) have their
# own constructors: they map arguments, check them, or return another class.
_PLAIN_BUILTIN_NAMES = {"__doc__", "__init__", "__new__", "__str__"}


def plain_exception_class(cls: type) -> bool:
    """Whether ``cls(*args)`` is BaseException's construction and nothing else: it
    cannot fail, runs no Python code and returns an instance of exactly ``cls``, so the
    glue may build it after the graph with the same result."""
    if type(cls) is not type:   # a metaclass may define __call__
        return False
    for klass in mro_of(cls):
        if klass is BaseException or klass is object:
            continue
        names = set(dict_of(klass))
        if is_builtin_class(klass):
            if names - _PLAIN_BUILTIN_NAMES:
                return False
        elif names & {"__new__", "__init__"}:
            return False
    return True
