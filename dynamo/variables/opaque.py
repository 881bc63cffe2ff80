"""Values the translator does not model: passed around and rebuilt, never used.

An ``OpaqueVariable`` stands for an object of a kind the translator has no model of
(a file, a lock, an exception caught from the caller...): it can be stored, passed and
rebuilt from its source, but reading what it holds is a graph break. An
``OpaqueMethodVariable`` is a method implemented in C, read from a user object
(``ObjectVariable`` in ``objects.py``): calling it is a graph break.

Example::

    >>> v = OpaqueVariable(threading.Lock(), LocalSource("lock"))
    >>> v.describe()                # the name graph-break messages use
    'lock object'
"""

from __future__ import annotations

from typing import Any

from dynamo.guards.type_slots import qualname_of

from ..exc import Unsupported
from .base import Variable
from .class_facts import may_have_own


class OpaqueMethodVariable(Variable):
    """A method implemented in C (``sys.stdout.write``): calling it is a graph break."""

    def __init__(self, obj: Variable, name: str, qualname: str):
        self.obj, self.name, self.qualname = obj, name, qualname

    def describe(self) -> str:
        return f"method {self.qualname}"

    def call(self, tx, args, kwargs) -> Variable:
        raise Unsupported(f"call to {self.qualname}() (implemented in C)",
                          "The translator cannot see inside C code; it runs eagerly.",
                          hint="move the call out of hot code to keep one graph",
                          cause="unsupported_call")

    def reconstruct(self, cg) -> str:
        return f"{cg.value(self.obj)}.{self.name}"


class OpaqueVariable(Variable):
    """A value the translator does not model (an exception, a file, a lock...): it can
    be passed around and rebuilt from its source, but using it is a graph break."""

    def __init__(self, value: Any, source=None):
        self.value, self.source = value, source

    def describe(self) -> str:
        return f"{qualname_of(type(self.value))} object"

    def python_type(self) -> type:
        return type(self.value)

    def getattr(self, tx, name: str) -> Variable:
        # The class lacking ``name`` says nothing of the object's own ``__dict__`` (set
        # later, too) or of a ``__getattr__``/``__getattribute__`` of its class:
        # ``getattr(o, "calls", 0)`` would keep the 0 for every later call.
        if may_have_own(type(self.value)):
            raise Unsupported(f"attribute {name!r} of {self.describe()}")
        return super().getattr(tx, name)
