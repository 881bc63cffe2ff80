"""Instances of named tuple classes (``collections.namedtuple``, ``typing.NamedTuple``):
tuples whose items are also fields.

Example::

    >>> Point = collections.namedtuple("Point", "x y")
    >>> is_namedtuple_class(Point)
    True
"""

from __future__ import annotations

from typing import Any

from ..exc import Unsupported
from .base import BoundBuiltinMethod, Variable
from .constant import ConstantVariable
from .dicts import DictVariable
from .sequences import TupleVariable


def is_namedtuple_class(cls: Any) -> bool:
    """A class made by ``collections.namedtuple`` or ``typing.NamedTuple``: a tuple whose
    items are also fields (``p.x`` is ``p[0]``), built from them in order. Subclasses of
    one (which may add ``__init__``, ``__new__`` or attribute hooks) are not."""
    return (isinstance(cls, type) and issubclass(cls, tuple) and "_fields" in vars(cls)
            and "__new__" in vars(cls) and cls.__getattribute__ is tuple.__getattribute__
            and not hasattr(cls, "__getattr__"))


class NamedTupleVariable(TupleVariable):
    """An instance of a named tuple class (``Summary(mean=m, std=s)``, ``np.linalg.eigh``'s
    ``EighResult``): a tuple whose fields also read by name, rebuilt as the same class
    after the graph.

    Example::

        >>> Point = collections.namedtuple("Point", "x y")
        >>> p = NamedTupleVariable.construct(Point, [x_var], {"y": y_var})
        >>> p.getattr(tx, "y") is y_var
        True
    """

    def __init__(self, items: list[Variable], cls: type, source=None, class_source=None):
        super().__init__(items, source)
        self.cls = cls
        # where the class was read (``P(1, 2)`` of a global ``P``): ``type(p).tag`` is
        # read and guarded through it (``builtins._type``, round 22)
        self.class_source = class_source

    @classmethod
    def construct(cls, nt: type, args: list[Variable], kwargs: dict[str, Variable],
                  class_source=None) -> NamedTupleVariable:
        """``nt(*args, **kwargs)``, with the class's defaults; a call that would raise
        TypeError is a break, so that eager Python raises it."""
        fields = nt._fields
        values = dict(zip(fields, args))
        for name, value in kwargs.items():
            if name in values or name not in fields:
                raise Unsupported(f"{nt.__qualname__}() with a bad argument {name!r}")
            values[name] = value
        for name, default in nt._field_defaults.items():
            values.setdefault(name, ConstantVariable(default))
        if len(args) > len(fields) or len(values) != len(fields):
            raise Unsupported(f"{nt.__qualname__}() with the wrong number of arguments")
        return cls([values[f] for f in fields], nt, class_source=class_source)

    def describe(self) -> str:
        return f"{self.cls.__qualname__} of {len(self.items)}"

    def python_type(self) -> type:
        return self.cls

    def as_python_constant(self) -> Any:
        return self.cls(*(i.as_python_constant() for i in self.items))

    def getattr(self, tx, name: str) -> Variable:
        if name in self.cls._fields:
            return self.items[self.cls._fields.index(name)]
        if name == "_fields":
            return ConstantVariable(self.cls._fields)
        if name in ("_asdict", "_replace"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "_asdict" and not args and not kwargs:
            return DictVariable(dict(zip(self.cls._fields, self.items)))
        if name == "_replace" and not args:
            fields = dict(zip(self.cls._fields, self.items))
            if not set(kwargs) <= set(fields):
                raise Unsupported(f"{self.cls.__qualname__}._replace of unknown fields")
            return NamedTupleVariable(list({**fields, **kwargs}.values()), self.cls,
                                      class_source=self.class_source)
        return super().call_method(tx, name, args, kwargs)

    def getitem(self, tx, index: Variable) -> Variable:
        if isinstance(index.as_python_constant(), slice):   # a slice is a plain tuple
            return TupleVariable(self.items).getitem(tx, index)
        return super().getitem(tx, index)

    def reconstruct(self, cg) -> str:
        if self.source is not None:   # the same object
            return self.source.expr()
        return f"{cg.const(self.cls)}({', '.join(cg.value(i) for i in self.items)})"

