"""What kind of value the builder (``builder._wrap``) has in hand, where ``type(value)``
alone does not say: questions asked of a real value from outside the trace before it
gets its Variable. Each reads the value's class through ``guards.type_slots`` (not
through the value's own attributes, which could run program code) and runs no code of
the program.

Example::

    >>> import types; bound_builtin_method([].append), bound_builtin_method(len)
    (True, False)
    >>> class Proxy:
    ...     def __getattribute__(self, name): return 0
    >>> own_getattribute(Proxy()), own_getattribute(object())
    (True, False)
"""

from __future__ import annotations

import types
from typing import Any

from dynamo.guards.type_slots import dict_of, flags_of, module_of, mro_of

from .. import ops


def bound_builtin_method(value: Any) -> bool:
    """A method of C code bound to an object (``lst.append``, ``x.sum``), as opposed to
    a builtin function (``len``: bound to its module) or one of NumPy's own objects
    (``np.add.reduce``, which is guarded by identity)."""
    if not isinstance(value, types.BuiltinMethodType):   # (first: reading __self__ of
        return False                                     # a user object runs its code)
    owner = value.__self__
    return owner is not None and not isinstance(owner, (types.ModuleType, type)) and \
        not ops.is_array_library_object(value) and \
        getattr(type(owner), value.__name__, None) is not None and \
        value.__name__ not in getattr(owner, "__dict__", {})


def compiled_function(value: Any):
    """The original function of a ``dynamo.compile``d function (inlined like any other).

    Such an object's class (``dynamo.api.OptimizedFunction``) carries the marker
    ``__dynamo_compiled__ = True`` in its own namespace: a subclass, or an object that
    merely has the attribute, is not one. (A marker, not an import: ``api`` sits at the
    top of the frontend, the Variables at the bottom.)"""
    return value._dynamo_fn if dict_of(type(value)).get("__dynamo_compiled__") is True else None


def own_getattribute(value: Any) -> bool:
    """``value``'s class (a class statement's) defines ``__getattribute__``, which then
    runs for every attribute read of it, ``__class__`` included (``isinstance`` reads
    that when the type alone does not decide), or one of its classes has a
    ``__class__`` of its own (a property: round 12, issue #17), or a ``__dict__`` of its
    own other than the slot CPython makes (a property the guards would run on each read
    of the instance's namespace: round 45). Not a ``dynamo.compile``d function,
    whose ``__getattribute__`` and ``__dict__`` run no program code (it reads
    ``f.__call__`` from the function's ``__dict__``: ``dynamo.api.OptimizedFunction``)."""
    cls = type(value)
    if not flags_of(cls) & HEAP_TYPE:
        return False
    heap = [k for k in mro_of(cls) if type.__dict__["__flags__"].__get__(k) & HEAP_TYPE]
    # (a class of its own named __class__, a property, answers isinstance the same way)
    return any("__class__" in dict_of(k) for k in heap) or (
        type(type.__getattribute__(cls, "__getattribute__")) is types.FunctionType or
        any(type(dict_of(k).get("__dict__", _SLOT)) is not types.GetSetDescriptorType
            for k in heap)) and compiled_function(value) is None


_SLOT = object.__dict__["__class__"]   # (a getset descriptor: what an absent entry counts as)
HEAP_TYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class made by a class statement or type()


def is_plain_object(value: Any) -> bool:
    cls = type(value)
    return module_of(cls).split(".")[0] not in ("builtins", "numpy", "cupy", "cupyx")


COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})


def comprehension_of_this_frame(tx, fn: types.FunctionType) -> bool:
    """``fn`` is a comprehension's or generator expression's function (no program
    code can name it, compare it or set its attributes) whose every closure cell is a
    cell of the frame being traced (``[x[y == c] for c in u]`` after a break at
    ``GET_ITER``).

    Such a function is made anew on each call, so it is guarded by what decides it
    (``UserFunctionVariable(made_per_call=True)``: type, code, globals, and each cell
    being the frame's cell), not by identity."""
    return (fn.__code__.co_name in COMPREHENSIONS and not fn.__defaults__ and
            not fn.__kwdefaults__ and not vars(fn) and
            all(id(c) in tx.output.input_cells for c in fn.__closure__ or ()))
