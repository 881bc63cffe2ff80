"""Tuples, lists, dicts, sets and iterators whose structure is known while tracing.

Lists, dicts and sets are mutable: one Variable per runtime object, mutated in
place by the translator. When such a container came from outside the trace
(it has a source), the translator records it as mutated and the glue code writes
its final contents back after the graph ran (see :mod:`dynamo.codegen`).

Example::

    >>> t = TupleVariable([ConstantVariable(1), ConstantVariable(2)])
    >>> t.as_python_constant()
    (1, 2)
"""

from __future__ import annotations

from typing import Any

from ..exc import Unsupported
from .base import Variable
from .constant import ConstantVariable


def const_key(var: Variable) -> Any:
    """A dict key or set element must be a hashable Python constant while tracing."""
    if not var.is_constant():
        raise Unsupported(f"{var.describe()} used as a dict key or set element")
    key = var.as_python_constant()
    hash(key)
    return key


class SequenceVariable(Variable):
    kind: type = tuple

    def __init__(self, items: list[Variable], source=None):
        self.items = list(items)
        self.source = source

    def describe(self) -> str:
        return f"{self.kind.__name__} of {len(self.items)}"

    def python_type(self) -> type:
        return self.kind

    def is_constant(self) -> bool:
        return self.kind is tuple and all(i.is_constant() for i in self.items)

    def as_python_constant(self) -> Any:
        return self.kind(i.as_python_constant() for i in self.items)

    def truth(self, tx) -> bool:
        return bool(self.items)

    def unpack(self, tx) -> list[Variable]:
        return list(self.items)

    def getitem(self, tx, index: Variable) -> Variable:
        key = index.as_python_constant()
        if isinstance(key, slice):
            return type(self)(self.items[key])
        try:
            return self.items[key]
        except TypeError as e:
            raise Unsupported(f"{self.kind.__name__} index {key!r}") from e

    def reconstruct(self, cg) -> str:
        inner = ", ".join(cg.value(i) for i in self.items)
        if self.kind is tuple:
            return f"({inner},)" if len(self.items) == 1 else f"({inner})"
        return f"[{inner}]"


class TupleVariable(SequenceVariable):
    kind = tuple

    def getattr(self, tx, name: str) -> Variable:
        if name in ("count", "index"):
            from .functions import BoundBuiltinMethod
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "index":
            return ConstantVariable(_index_of(tx, self.items, args[0]))
        if name == "count":
            return ConstantVariable(sum(1 for i in self.items if tx.same_value(i, args[0])))
        return super().call_method(tx, name, args, kwargs)


def _index_of(tx, items, value) -> int:
    for i, item in enumerate(items):
        if tx.same_value(item, value):
            return i
    raise Unsupported("list.index of a value that is not there (raises ValueError)")


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

    def __init__(self, items: list[Variable], cls: type, source=None):
        super().__init__(items, source)
        self.cls = cls

    @classmethod
    def construct(cls, nt: type, args: list[Variable], kwargs: dict[str, Variable]
                  ) -> NamedTupleVariable:
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
        return cls([values[f] for f in fields], nt)

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
            from .functions import BoundBuiltinMethod
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "_asdict" and not args and not kwargs:
            return DictVariable(dict(zip(self.cls._fields, self.items)))
        if name == "_replace" and not args:
            fields = dict(zip(self.cls._fields, self.items))
            if not set(kwargs) <= set(fields):
                raise Unsupported(f"{self.cls.__qualname__}._replace of unknown fields")
            return NamedTupleVariable(list({**fields, **kwargs}.values()), self.cls)
        return super().call_method(tx, name, args, kwargs)

    def getitem(self, tx, index: Variable) -> Variable:
        if isinstance(index.as_python_constant(), slice):   # a slice is a plain tuple
            return TupleVariable(self.items).getitem(tx, index)
        return super().getitem(tx, index)

    def reconstruct(self, cg) -> str:
        return f"{cg.const(self.cls)}({', '.join(cg.value(i) for i in self.items)})"


class ListVariable(SequenceVariable):
    kind = list

    def getattr(self, tx, name: str) -> Variable:
        from .functions import BoundBuiltinMethod
        if name in ("append", "extend", "pop", "insert", "index", "count", "reverse", "copy",
                    "clear", "remove"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if kwargs:
            raise Unsupported(f"list.{name} with keywords")
        items = self.items
        if name == "index":
            return ConstantVariable(_index_of(tx, items, args[0]))
        if name == "count":
            return ConstantVariable(sum(1 for i in items if tx.same_value(i, args[0])))
        if name == "copy":
            return ListVariable(list(items))
        tx.output.side_effects.mutate(self)
        if name == "append":
            items.append(args[0])
        elif name == "extend":
            items.extend(tx.unpack_iterable(args[0]))
        elif name == "insert":
            items.insert(args[0].as_python_constant(), args[1])
        elif name == "pop":
            if not items:
                raise Unsupported("pop from an empty list (raises IndexError)")
            return items.pop(args[0].as_python_constant() if args else -1)
        elif name == "reverse":
            items.reverse()
        elif name == "clear":
            items.clear()
        elif name == "remove":
            items.pop(_index_of(tx, items, args[0]))
        else:
            raise Unsupported(f"list.{name}")
        return ConstantVariable(None)

    def setitem(self, tx, index: Variable, value: Variable) -> None:
        key = index.as_python_constant()
        tx.output.side_effects.mutate(self)
        if isinstance(key, slice):
            self.items[key] = tx.unpack_iterable(value)
        else:
            self.items[key] = value

    def delitem(self, tx, index: Variable) -> None:
        tx.output.side_effects.mutate(self)
        del self.items[index.as_python_constant()]

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: SequenceVariable.reconstruct(v, cg))


class DictViewVariable(TupleVariable):
    """``d.keys()``, ``d.values()``, ``d.items()``: iterable, not rebuilt after a graph."""

    def describe(self) -> str:
        return "dict view"

    def reconstruct(self, cg) -> str:
        raise Unsupported("a dict view (keys/values/items) escapes the traced region")


class DictVariable(Variable):
    def __init__(self, items: dict[Any, Variable], source=None):
        self.items = dict(items)
        self.source = source

    def describe(self) -> str:
        return f"dict of {len(self.items)}"

    def python_type(self) -> type:
        return dict

    def truth(self, tx) -> bool:
        return bool(self.items)

    def unpack(self, tx) -> list[Variable]:
        return [ConstantVariable(k) for k in self.items]

    def getitem(self, tx, index: Variable) -> Variable:
        key = const_key(index)
        if key not in self.items:
            raise Unsupported(f"missing dict key {key!r} (raises KeyError)")
        return self.items[key]

    def setitem(self, tx, index: Variable, value: Variable) -> None:
        tx.output.side_effects.mutate(self)
        self.items[const_key(index)] = value

    def delitem(self, tx, index: Variable) -> None:
        key = const_key(index)
        if key not in self.items:
            raise Unsupported(f"del of a missing dict key {key!r}")
        tx.output.side_effects.mutate(self)
        del self.items[key]

    def getattr(self, tx, name: str) -> Variable:
        from .functions import BoundBuiltinMethod
        if name in ("keys", "values", "items", "get", "setdefault", "update", "pop", "copy",
                    "clear", "popitem"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        items = self.items
        if name == "keys":
            return DictViewVariable([ConstantVariable(k) for k in items])
        if name == "values":
            return DictViewVariable(list(items.values()))
        if name == "items":
            return DictViewVariable([TupleVariable([ConstantVariable(k), v])
                                     for k, v in items.items()])
        if name == "get":
            key = const_key(args[0])
            return items.get(key, args[1] if len(args) > 1 else ConstantVariable(None))
        if name == "copy":
            return DictVariable(dict(items))
        tx.output.side_effects.mutate(self)
        if name == "setdefault":
            key = const_key(args[0])
            return items.setdefault(key, args[1] if len(args) > 1 else ConstantVariable(None))
        if name == "update":
            for src in args:
                items.update(tx.dict_items(src))
            for k, v in kwargs.items():
                items[k] = v
            return ConstantVariable(None)
        if name == "pop":
            key = const_key(args[0])
            if key in items:
                return items.pop(key)
            if len(args) > 1:
                return args[1]
            raise Unsupported(f"dict.pop of a missing key {key!r} (raises KeyError)")
        if name == "clear":
            items.clear()
            return ConstantVariable(None)
        raise Unsupported(f"dict.{name}")

    def reconstruct(self, cg) -> str:
        def build(var):
            return "{" + ", ".join(f"{cg.const(k)}: {cg.value(v)}"
                                   for k, v in var.items.items()) + "}"
        return cg.mutable(self, build)


class SetVariable(Variable):
    """A set of constants (sets of arrays hash by identity: not supported)."""

    def __init__(self, items: list[Variable]):
        self.items: dict[Any, Variable] = {}
        for v in items:
            self.items.setdefault(const_key(v), v)

    def python_type(self) -> type:
        return set

    def describe(self) -> str:
        return f"set of {len(self.items)}"

    def truth(self, tx) -> bool:
        return bool(self.items)

    def unpack(self, tx) -> list[Variable]:
        return [ConstantVariable(k) for k in set(self.items)]

    def add(self, var: Variable) -> None:
        self.items.setdefault(const_key(var), var)

    def getattr(self, tx, name: str) -> Variable:
        from .functions import BoundBuiltinMethod
        if name in _SET_METHODS:
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if kwargs:
            raise Unsupported(f"set.{name} with keywords")
        if name in ("add", "discard", "remove", "clear", "update"):
            if name == "add":
                self.add(args[0])
            elif name in ("discard", "remove"):
                key = const_key(args[0])
                if key not in self.items and name == "remove":
                    raise Unsupported("set.remove of a missing element (KeyError)")
                self.items.pop(key, None)
            elif name == "clear":
                self.items.clear()
            else:
                for a in args:
                    for v in tx.unpack_iterable(a):
                        self.add(v)
            return ConstantVariable(None)
        values = set(self.items)
        others = [{const_key(v) for v in tx.unpack_iterable(a)} for a in args]
        result = getattr(values, name)(*others)
        if isinstance(result, set):
            return SetVariable([ConstantVariable(k) for k in result])
        return ConstantVariable(result)

    def binary_op(self, name: str, other: Variable) -> Variable:
        ops_ = {"bitwise_or": "union", "bitwise_and": "intersection",
                "subtract": "difference", "bitwise_xor": "symmetric_difference"}
        if name not in ops_ or not isinstance(other, SetVariable):
            raise Unsupported(f"operator {name} on a set")
        result = getattr(set(self.items), ops_[name])(set(other.items))
        return SetVariable([ConstantVariable(k) for k in result])

    def contains(self, var: Variable) -> bool:
        return const_key(var) in self.items

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: "{" + ", ".join(cg.const(k) for k in v.items)
                          + "}" if v.items else "set()")


_SET_METHODS = {"add", "discard", "remove", "clear", "update", "union", "intersection",
                "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
                "copy"}


class IteratorVariable(Variable):
    """A for-loop's iterator, unrolled: its items were known when the loop began.

    Iterating a list reads the list live, as Python does, so appends during the loop
    are seen.
    """

    def __init__(self, items: list[Variable] | None = None, live: ListVariable | None = None):
        self.items, self.live, self.pos = items, live, 0

    def describe(self) -> str:
        return "iterator"

    def next(self) -> Variable | None:
        seq = self.live.items if self.live is not None else self.items
        if self.pos >= len(seq):
            return None
        self.pos += 1
        return seq[self.pos - 1]

    def unpack(self, tx) -> list[Variable]:
        seq = self.live.items if self.live is not None else self.items
        rest = seq[self.pos:]
        self.pos = len(seq)
        return list(rest)

    def reconstruct(self, cg) -> str:
        if self.live is not None:   # a list iterator must keep reading the live list
            return cg.mutable(self, lambda v: f"___iter_at({cg.value(v.live)}, {v.pos})")
        rest = "".join(f"{cg.value(v)}, " for v in self.items[self.pos:])
        return cg.mutable(self, lambda v: f"iter(({rest}))")


class GeneratorVariable(IteratorVariable):
    """A generator of user code, inlined lazily: each ``next()`` runs its translator
    to the next ``yield``, so side effects happen in the same order as in Python."""

    def __init__(self, translator):
        super().__init__([])
        self.tx, self.started = translator, False

    def describe(self) -> str:
        return f"generator {self.tx.code.co_qualname}"

    def next(self) -> Variable | None:
        tx = self.tx
        if tx.done:
            return None
        if self.started:
            tx.push(ConstantVariable(None))  # the value next() sends into the yield
        self.started = True
        tx.suspended = False
        tx.run()
        return None if tx.done else tx.yielded

    def unpack(self, tx) -> list[Variable]:
        out = []
        while (item := self.next()) is not None:
            out.append(item)
        return out

    def reconstruct(self, cg) -> str:
        raise Unsupported("a generator escapes the traced region")


class SliceVariable(Variable):
    def __init__(self, start: Variable, stop: Variable, step: Variable):
        self.parts = (start, stop, step)

    def is_constant(self) -> bool:
        return all(p.is_constant() for p in self.parts)

    def as_python_constant(self) -> Any:
        return slice(*(p.as_python_constant() for p in self.parts))

    def python_type(self) -> type:
        return slice

    def describe(self) -> str:
        return "slice"
