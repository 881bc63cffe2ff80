"""A guard's stored value in words, without running the program's code: the one helper
for the guards in words (``dynamo.guard_words``) and the check function's
``explained()`` (``# where ___c3 = ...`` on the ``guards`` log).

Both are made whenever that log is on, so they must not call a program object's
``__repr__`` (it may print, count its calls, raise or be slow: issue #17), nor a
metaclass's ``__qualname__`` or ``__module__``. A value is shown by its repr only where
that repr is the interpreter's or NumPy's own code, a class by its type slots, any other
object by its class::

    >>> class Loud:
    ...     def __repr__(self):
    ...         raise RuntimeError("the program's code ran")
    >>> shown((1, "a")), shown(int), shown(Loud()).startswith("<Loud object at 0x")
    ("(1, 'a')", 'int', True)

(This module lives in ``guards``, which imports nothing of dynamo's, and reads NumPy's
types by their module name rather than importing it.)
"""

from __future__ import annotations

import types
import weakref

from .type_slots import module_of, mro_of, name_of, qualname_of

# values whose repr is the interpreter's own code
_OWN_REPR = frozenset({int, float, complex, bool, str, bytes, type(None), slice, range,
                       types.FunctionType, types.BuiltinFunctionType})
_LONGEST = 100


def shown(value) -> str:
    """``value`` short (at most 100 characters): a module or a module's namespace by
    name, a class by its type slots, a number, a string, a function or a NumPy dtype or
    scalar by its repr, a tuple of those item by item, any other object by its class.
    An identity guard's weak reference shows what it refers to."""
    if isinstance(value, weakref.ref):   # identity guards hold objects weakly
        value = value()
    if isinstance(value, types.ModuleType):
        name = value.__dict__.get("__name__") if type(value) is types.ModuleType else None
        return f"module {name}"
    if type(value) is dict and isinstance(value.get("__name__"), str):
        return f"the namespace of {value['__name__']}"
    if isinstance(value, type):
        return class_name(value)
    try:
        text = _own_repr(value)
    except Exception:  # noqa: BLE001 (an int of 5000 digits: ValueError)
        text = None
    if text is None:
        text = f"<{name_of(type(value))} object at {id(value):#x}>"
    return text if len(text) <= _LONGEST else text[:_LONGEST - 3] + "..."


def class_name(cls) -> str:
    """A class by its type slots (its metaclass may answer ``__qualname__`` itself)."""
    if isinstance(cls, weakref.ref):
        cls = cls()
    if not isinstance(cls, type):
        return shown(cls)
    mod, name = module_of(cls), qualname_of(cls)
    return name if mod in (None, "builtins") else f"{mod}.{name}"


def _own_repr(value) -> str | None:
    """``repr(value)`` where it runs no program code, else None."""
    if type(value) is tuple:
        parts = [_own_repr(v) for v in value[:20]]
        if None in parts:
            return None
        more = ", ..." if len(value) > 20 else ("," if len(value) == 1 else "")
        return f"({', '.join(parts)}{more})"
    if type(value) in _OWN_REPR or _numpy_own(type(value)):
        return repr(value)
    return None


def _numpy_own(cls: type) -> bool:
    """A NumPy scalar (not a structured one, whose fields may hold objects), dtype or
    ufunc class (read by its type slots)."""
    mod = module_of(cls)
    if mod == "numpy.dtypes" or (mod == "numpy" and name_of(cls) in ("dtype", "ufunc")):
        return True
    return mod == "numpy" and name_of(cls) != "void" and any(
        name_of(c) == "generic" and module_of(c) == "numpy" for c in mro_of(cls))
