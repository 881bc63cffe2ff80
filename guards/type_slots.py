"""What a class says about itself, read from its type slots, never by running its
metaclass's code.

``cls.__module__`` asks the metaclass first: a metaclass property named ``__module__``
(or ``__name__``, ``__qualname__``, ``__mro__``, ``__dict__``) runs there, and may raise,
count its reads or lie. CPython itself never asks it: attribute lookup walks the
``tp_mro`` slot, ``repr(cls)`` reads the class's own ``__module__`` entry. Dynamo looks
at the classes of every value it traces (is this NumPy's? a builtin? the program's?),
so it reads them the same way, through ``type``'s own slot descriptors (issue #17,
round 12: ``metaclass-module-property``).

This module lives in ``guards``, the package every other one may import, so that the
guards and the rest of dynamo read classes one way.

    >>> class Meta(type):
    ...     @property
    ...     def __module__(cls):
    ...         raise RuntimeError("the program's code ran")
    >>> class C(metaclass=Meta):
    ...     pass
    >>> C.__module__
    Traceback (most recent call last):
    RuntimeError: the program's code ran
    >>> module_of(C) == __name__, name_of(C), mro_of(C) == (C, object)
    (True, 'C', True)
    >>> type_module(C()) == __name__, module_of(int), module_of_value(C) == __name__
    (True, 'builtins', True)
"""

from __future__ import annotations

from typing import Any

_MODULE = type.__dict__["__module__"].__get__
_NAME = type.__dict__["__name__"].__get__
_QUALNAME = type.__dict__["__qualname__"].__get__
_MRO = type.__dict__["__mro__"].__get__
_DICT = type.__dict__["__dict__"].__get__
_FLAGS = type.__dict__["__flags__"].__get__
_WEAKREF_OFFSET = type.__dict__["__weakrefoffset__"].__get__
_DICT_OFFSET = type.__dict__["__dictoffset__"].__get__


def module_of(cls: type) -> str:
    """The class's own ``__module__`` entry (for a C type, the part of its name before
    the last dot); "" where it has none, or one that is not a string (a class body may
    set ``__module__ = 5``), so that callers may ``.split`` and ``.startswith`` it."""
    try:
        module = _MODULE(cls)
    except AttributeError:   # a class whose namespace lost its __module__ (del C.__module__)
        return ""
    return module if type(module) is str else ""


def type_module(value: Any) -> str:
    """``module_of(type(value))``: where the class of ``value`` was defined."""
    return module_of(type(value))


def module_of_value(value: Any) -> str:
    """``getattr(value, "__module__", None) or ""`` of any value (a function, a ufunc,
    an object), but a class's read from its own entry (``module_of``); "" where it has
    none that is a string. ``issubclass(type(value), type)``, not ``isinstance``:
    that would read ``value.__class__``, which a class of the program may answer."""
    if issubclass(type(value), type):
        return module_of(value)
    module = getattr(value, "__module__", None)
    return module if type(module) is str else ""


def name_of(cls: type) -> str:
    """The class's ``__name__`` slot (what ``repr`` and error messages show)."""
    return _NAME(cls)


def qualname_of(cls: type) -> str:
    """The class's ``__qualname__`` slot."""
    return _QUALNAME(cls)


def mro_of(cls: type) -> tuple:
    """The class's ``tp_mro``: the order attribute lookup really walks (a metaclass's
    ``mro()`` has already been applied to it; a ``__mro__`` property is not asked)."""
    return _MRO(cls) or ()


def dict_of(cls: type):
    """The class's own namespace (a read-only view), as ``vars(cls)`` gives it unless a
    metaclass answers ``__dict__`` itself."""
    return _DICT(cls)


def flags_of(cls: type) -> int:
    """The class's ``tp_flags`` (``Py_TPFLAGS_HEAPTYPE``: a class statement's...)."""
    return _FLAGS(cls)


def weakref_offset_of(cls: type) -> int:
    """Nonzero where instances of ``cls`` can be weakly referenced."""
    return _WEAKREF_OFFSET(cls)


def dict_offset_of(cls: type) -> int:
    """Nonzero where instances of ``cls`` have a ``__dict__``."""
    return _DICT_OFFSET(cls)


def defines(cls: type, name: str) -> bool:
    """Whether a class of ``cls``'s MRO has ``name`` in its own namespace: where
    CPython finds a slot method (``__del__``, ``__call__``), never asking a metaclass's
    ``__getattr__``."""
    return any(name in _DICT(k) for k in mro_of(cls))


def is_builtin_class(cls: type) -> bool:
    """A class of the ``builtins`` module (``int``, ``range``, ``zip``...)."""
    return module_of(cls) == "builtins"


def instance_dict(value: Any):
    """``value``'s own ``__dict__``, read by CPython's slot for it, or None where it has
    none or its class's ``__dict__`` entry is something else (a property of the
    program's, which ``object.__getattribute__(value, "__dict__")`` would run: round 45,
    issue #17)::

        >>> class C:
        ...     pass
        >>> c = C(); c.w = 1
        >>> instance_dict(c), instance_dict(3)
        ({'w': 1}, None)
    """
    for k in _MRO(type(value)):
        entry = _DICT(k).get("__dict__")
        if entry is None:
            continue
        if type(entry) is not _GETSET and type(entry) is not _MEMBER:
            return None
        try:
            return entry.__get__(value)
        except (AttributeError, TypeError):
            return None
    return None


_GETSET = type(type.__dict__["__dict__"])
_MEMBER = type(type.__dict__["__dictoffset__"])
