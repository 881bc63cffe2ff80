"""``super()`` inside a method of a user object: lookups that skip part of the MRO.

``super().name`` reads ``name`` from the classes after ``cls`` in the MRO of the
object's type (``ObjectVariable`` in ``objects.py``): a plain function there becomes a
method bound to the object, ``object.__init__`` a call that does nothing; anything
else is a graph break.

Example::

    >>> class A:
    ...     def f(self): return 1
    >>> class B(A):
    ...     def f(self): return super().f() + 1
    >>> SuperVariable(B, ObjectVariable(B())).getattr(tx, "f")   # A.f bound to the object
"""

from __future__ import annotations

import types

from dynamo.guards.type_slots import dict_of, mro_of

from ..exc import Unsupported
from .base import Variable
from .constant import BuiltinVariable
from .objects import ObjectVariable


class SuperVariable(Variable):
    """``super()`` inside a method: attribute lookups start after ``cls`` in the MRO."""

    def __init__(self, cls: type, obj: Variable):
        self.cls, self.obj = cls, obj

    def getattr(self, tx, name: str) -> Variable:
        from .functions import UserFunctionVariable, UserMethodVariable
        target = self.obj.obj if isinstance(self.obj, ObjectVariable) else None
        mro = mro_of(type(target)) if target is not None else ()
        # (by identity: a metaclass's __eq__ is the program's code)
        at = next((i for i, k in enumerate(mro) if k is self.cls), None)
        if at is None:
            raise Unsupported("super() outside a method of a known object")
        for klass in mro[at + 1:]:
            if name in dict_of(klass):
                value = dict_of(klass)[name]
                if isinstance(value, types.FunctionType):
                    return UserMethodVariable(UserFunctionVariable(value), self.obj)
                if value is object.__init__:
                    return BuiltinVariable(lambda *a, **k: None, pure_method=True)
                raise Unsupported(f"super().{name} of type {type(value).__name__}")
        raise AttributeError(name)
