"""Tuples, lists, dicts and sets whose structure is known while tracing (their
iterators: :mod:`.iterators`).

Lists, dicts and sets are mutable: one Variable per runtime object, mutated in
place by the translator (``s *= 2`` and ``s |= t`` too: every alias sees it). When
such a container came from outside the trace (it has a source), the translator
records it as mutated and the glue code writes its final contents back after the
graph ran (see :mod:`dynamo.codegen`).

Dict views (``d.keys()``) are live views of their DictVariable.

Example::

    >>> t = TupleVariable([ConstantVariable(1), ConstantVariable(2)])
    >>> t.as_python_constant()
    (1, 2)
"""

from __future__ import annotations

import operator
import sys
from typing import Any

from ..exc import Unsupported
from .base import BoundBuiltinMethod, Variable, program_error
from .constant import (
    ConstantVariable,
    check_size,
    compares_in_c,
    is_pure_constant,
)


def wrap_constant(value: Any) -> Variable:
    """The Variable of a value computed while tracing: a ConstantVariable, or a
    TupleVariable of them for a tuple that is not a pure constant as a whole.
    (Here, not in :mod:`.constant`, which sits below the containers.)"""
    if isinstance(value, tuple) and not is_pure_constant(value):
        return TupleVariable([wrap_constant(v) for v in value])
    if not is_pure_constant(value):
        raise Unsupported(f"value of type {type(value).__name__} is not a constant")
    return ConstantVariable(value)


def const_key(var: Variable) -> Any:
    """A dict key or set element must be a hashable Python constant while tracing."""
    if not var.is_constant():
        raise Unsupported(f"{var.describe()} used as a dict key or set element")
    key = var.as_python_constant()
    if not compares_in_c(key):   # a user __hash__/__eq__ must not run while tracing
        raise Unsupported(f"{var.describe()} used as a dict key or set element: it hashes "
                          "or compares in Python code")
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
        if self.kind is tuple and self.source is not None:   # the same tuple object
            return self.source.expr()
        inner = ", ".join(cg.value(i) for i in self.items)
        if self.kind is tuple:
            return f"({inner},)" if len(self.items) == 1 else f"({inner})"
        return f"[{inner}]"


class TupleVariable(SequenceVariable):
    kind = tuple

    def as_graph_arg(self, output) -> tuple:   # a named tuple too: ops take plain tuples
        return tuple(v.as_graph_arg(output) for v in self.items)

    def as_meta(self) -> tuple:
        return tuple(v.as_meta() for v in self.items)

    def getattr(self, tx, name: str) -> Variable:
        if name in ("count", "index"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if kwargs:
            raise Unsupported(f"tuple.{name} with keywords (TypeError)")
        if name == "index":
            return ConstantVariable(_index_of(tx, self.items, args))
        if name == "count" and len(args) == 1:
            return ConstantVariable(_count(tx, self.items, args[0]))
        return super().call_method(tx, name, args, kwargs)


def _index_of(tx, items: list[Variable], args: list[Variable]) -> int:
    """``seq.index(value[, start[, stop]])`` of a list or tuple, as CPython runs it:
    ``start`` and ``stop`` count from the end when negative, and the items compare with
    ``==`` (``tx.same_value``: identity first), each read when it is reached, since an
    ``__eq__`` may change the list."""
    if not 1 <= len(args) <= 3:
        raise Unsupported("index() with the wrong number of arguments (TypeError)")
    value, n = args[0], len(items)
    bounds = [operator.index(a.as_python_constant()) for a in args[1:]]
    start, stop = (bounds + [0, sys.maxsize][len(bounds):])[:2]
    start = max(start + n, 0) if start < 0 else start
    stop = max(stop + n, 0) if stop < 0 else stop
    i = start
    while i < stop and i < len(items):
        if tx.same_value(items[i], value):
            return i
        i += 1
    raise Unsupported("index() of a value that is not there (raises ValueError)")


def _count(tx, items: list[Variable], value: Variable) -> int:
    """``seq.count(value)``: how many items ``==`` it (identity first), read live."""
    found = i = 0
    while i < len(items):
        found += tx.same_value(items[i], value)
        i += 1
    return found


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
        if self.source is not None:   # the same object
            return self.source.expr()
        return f"{cg.const(self.cls)}({', '.join(cg.value(i) for i in self.items)})"


class ListVariable(SequenceVariable):
    """A list. One read from outside the trace may be *unread*: made by ``unread(source,
    read)``, it reads (and guards) the real list only when the trace first looks at its
    items; until then ``append`` and ``extend`` collect the new items in ``appended``,
    and the glue writes them back with one ``extend``. So a list the program only appends
    to (a layer keeping its inputs, a log) is guarded by its type alone, not by a length
    that grows every call::

        def forward(self, x):
            self.X.append(x)          # guards type(self.X) is list; glue: self.X.extend([x])
            return np.tanh(x)
    """

    kind = list
    _read = None      # unread: () -> the Variables of the real list's items, guarded
    # unread, a list of Python ints that changes between calls: () -> the ArrayVariable
    # of np.asarray(list) with a symbolic length, or None (see builder._list_data)
    data = None

    def as_data(self):
        """The real list as array data (an input of symbolic length), while the trace
        has neither read its items nor appended to it; else None."""
        if self.data is None or not self.is_unread() or self.appended:
            return None
        return self.data()

    def symbolic_len(self):
        """``len(list)`` as a symbolic int while the items are unread, else None."""
        if self.data is None or not self.is_unread():
            return None
        array = self.data()
        return None if array is None else array.meta.shape[0] + len(self.appended)

    @classmethod
    def unread(cls, source, read) -> ListVariable:
        var = cls([], source)
        var._read, var.appended = read, []
        return var

    def is_unread(self) -> bool:
        return self._read is not None

    @property
    def items(self) -> list[Variable]:
        if self._read is not None:
            read, self._read = self._read, None
            self._items = read() + self.appended
            self.appended = []
        return self._items

    @items.setter
    def items(self, value: list[Variable]) -> None:
        self._read, self._items = None, value

    def as_graph_arg(self, output) -> list:
        return [v.as_graph_arg(output) for v in self.items]

    def as_meta(self) -> list:
        return [v.as_meta() for v in self.items]

    def getattr(self, tx, name: str) -> Variable:
        if name in ("append", "extend", "pop", "insert", "index", "count", "reverse", "copy",
                    "clear", "remove"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if kwargs:
            raise Unsupported(f"list.{name} with keywords")
        if self.is_unread() and name in ("append", "extend") and len(args) == 1:
            new = [args[0]] if name == "append" else tx.unpack_iterable(args[0])
            tx.output.side_effects.mutate(self)
            # (extend of the list itself read it: then the items are real by now)
            (self.appended if self.is_unread() else self.items).extend(new)
            return ConstantVariable(None)
        items = self.items
        if name == "index":
            return ConstantVariable(_index_of(tx, items, args))
        if name == "count" and len(args) == 1:
            return ConstantVariable(_count(tx, items, args[0]))
        if name == "remove" and len(args) == 1:
            i = _index_of(tx, items, args)
            tx.output.side_effects.mutate(self)
            del items[i]
            return ConstantVariable(None)
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


class DictViewVariable(Variable):
    """``d.keys()``, ``d.values()`` or ``d.items()`` (``kind``): a live view of the dict
    Variable ``dict``, as in Python: a view made before ``d[k] = v`` sees the new key.
    Keys and items views are also sets (``d.keys() & {1}``, ``d.keys() == {1, 3}``).

    Example::

        >>> view = DictViewVariable(d, "keys")
        >>> view.python_type()
        <class 'dict_keys'>
    """

    TYPES = {"keys": type({}.keys()), "values": type({}.values()), "items": type({}.items())}

    def __init__(self, dict_var: DictVariable, kind: str):
        self.dict, self.kind = dict_var, kind

    def describe(self) -> str:
        return f"{self.python_type().__name__} of {len(self.dict.items)}"

    def python_type(self) -> type:
        return self.TYPES[self.kind]

    @property
    def items(self) -> list[Variable]:
        """The view's elements now, in the dict's order."""
        d = self.dict.items
        if self.kind == "keys":
            return [ConstantVariable(k) for k in d]
        if self.kind == "values":
            return list(d.values())
        return [TupleVariable([ConstantVariable(k), v]) for k, v in d.items()]

    def truth(self, tx) -> bool:
        return bool(self.dict.items)

    def unpack(self, tx) -> list[Variable]:
        return self.items

    def real(self):
        """The same view of a real dict with the same keys and, for items, values (which
        must then be constants that compare in C); None where there is no such dict.
        Set operations and comparisons run on it, so they are CPython's own."""
        if self.kind == "keys":
            return dict.fromkeys(self.dict.items).keys()
        if self.kind == "items" and all(v.is_constant() and compares_in_c(v.as_python_constant())
                                        for v in self.dict.items.values()):
            return {k: v.as_python_constant() for k, v in self.dict.items.items()}.items()
        return None

    def getattr(self, tx, name: str) -> Variable:
        if name == "isdisjoint" and self.kind != "values":
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "isdisjoint" and len(args) == 1 and not kwargs:
            view, other = self.real(), real_set_operand(tx, args[0])
            if view is not None and other is not None:
                return ConstantVariable(view.isdisjoint(other))
            raise Unsupported(f"{self.python_type().__name__}.isdisjoint of non-constants")
        return super().call_method(tx, name, args, kwargs)

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: f"{cg.value(v.dict)}.{v.kind}()")


class DictVariable(Variable):
    """A dict with constant keys. ``removals`` counts keys removed, so that an iterator
    can tell that the dict changed without changing size.

    Every change goes through ``store``, ``remove``, ``pop_last`` and ``clear_all``,
    which also log the changes to the dict's layout (its hash table), in order: the
    glue replays them on a dict from outside the trace (``write_back``)."""

    def __init__(self, items: dict[Any, Variable], source=None):
        self.items = dict(items)
        self.source = source
        self.removals = 0
        # ("insert", key), ("delete", key), ("popitem", None), ("clear", None)
        self.layout_ops: list[tuple[str, Any]] = []
        self.assigned: set = set()   # keys whose value the trace set

    # ------------------------------------------------------------------ changes
    def store(self, key, value: Variable) -> None:
        """``d[key] = value``."""
        if key not in self.items:
            self.layout_ops.append(("insert", key))
        self.assigned.add(key)
        self.items[key] = value

    def remove(self, key) -> Variable:
        """``del d[key]`` (the key is there); returns its value."""
        self.layout_ops.append(("delete", key))
        self.removals += 1
        return self.items.pop(key)

    def pop_last(self) -> tuple[Any, Variable]:
        """``d.popitem()`` (the dict is not empty)."""
        self.layout_ops.append(("popitem", None))
        self.removals += 1
        return self.items.popitem()

    def clear_all(self) -> None:
        """``d.clear()`` (which shrinks the table even of an empty dict)."""
        self.layout_ops.append(("clear", None))
        self.removals += bool(self.items)
        self.items.clear()

    def write_back(self) -> list[tuple[str, Any, Variable | None]]:
        """How the glue makes a dict from outside the trace what the trace made it:
        ``(op, key, value)`` with op "set" (``d[key] = value``; value None: ``None``),
        "delete", "popitem" or "clear".

        The changes to its layout are replayed in the program's order, not the final
        contents rebuilt (``clear()`` then ``update()``): the hash table ends up as
        the program's would (``sys.getsizeof``; ``popitem()`` of an instance dict
        that shares its keys with its class makes it a dict of its own). An insert
        puts in the key's final value, or None where the key is removed again later
        (only its place in the table counts); then the keys that only changed value
        get their final values, which moves nothing."""
        last = {key: i for i, (op, key) in enumerate(self.layout_ops) if op == "insert"}
        out: list[tuple[str, Any, Variable | None]] = []
        for i, (op, key) in enumerate(self.layout_ops):
            if op == "insert":
                survives = last[key] == i and key in self.items
                out.append(("set", key, self.items[key] if survives else None))
            else:
                out.append((op, key, None))
        out += [("set", key, self.items[key]) for key in self.assigned
                if key in self.items and key not in last]
        return out

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
            raise program_error(KeyError(key))   # Python's own (a break, or its `except`)
        return self.items[key]

    def setitem(self, tx, index: Variable, value: Variable) -> None:
        tx.output.side_effects.mutate(self)
        self.store(const_key(index), value)

    def delitem(self, tx, index: Variable) -> None:
        key = const_key(index)
        if key not in self.items:
            raise Unsupported(f"del of a missing dict key {key!r}")
        tx.output.side_effects.mutate(self)
        self.remove(key)

    def getattr(self, tx, name: str) -> Variable:
        if name in ("keys", "values", "items", "get", "setdefault", "update", "pop", "copy",
                    "clear", "popitem"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        items = self.items
        if name in ("keys", "values", "items") and not args and not kwargs:
            return DictViewVariable(self, name)
        if name == "get":
            key = const_key(args[0])
            return items.get(key, args[1] if len(args) > 1 else ConstantVariable(None))
        if name == "copy":
            return DictVariable(dict(items))
        tx.output.side_effects.mutate(self)
        if name == "setdefault":
            key = const_key(args[0])
            if key not in items:
                self.store(key, args[1] if len(args) > 1 else ConstantVariable(None))
            return items[key]
        if name == "update":
            for src in args:
                for k, v in tx.dict_items(src).items():
                    self.store(k, v)
            for k, v in kwargs.items():
                self.store(k, v)
            return ConstantVariable(None)
        if name == "pop":
            key = const_key(args[0])
            if key in items:
                return self.remove(key)
            if len(args) > 1:
                return args[1]
            raise Unsupported(f"dict.pop of a missing key {key!r} (raises KeyError)")
        if name == "clear":
            self.clear_all()
            return ConstantVariable(None)
        if name == "popitem" and not args and not kwargs:
            if not items:
                raise Unsupported("popitem of an empty dict (raises KeyError)")
            key, value = self.pop_last()
            return TupleVariable([ConstantVariable(key), value])
        raise Unsupported(f"dict.{name}")

    def reconstruct(self, cg) -> str:
        def build(var):
            return "{" + ", ".join(f"{cg.const(k)}: {cg.value(v)}"
                                   for k, v in var.items.items()) + "}"
        return cg.mutable(self, build)


def build_set(keys) -> set:
    """A set made by adding ``keys`` one by one, as ``{a, b, c}`` and ``set(list)`` make
    it: the glue rebuilds sets this way, and the trace iterates a set in this set's
    order, so that both see the same order."""
    out = set()
    for k in keys:
        out.add(k)
    return out


class SetVariable(Variable):
    """A set of constants (sets of arrays hash by identity: not supported).

    ``items`` maps each element to its Variable, in the order the elements were added;
    ``removals`` counts removals, so that an iterator can tell that the set changed
    without changing size (CPython's order then depends on its hash table).
    """

    def __init__(self, items: list[Variable]):
        self.items: dict[Any, Variable] = {}
        self.removals = 0
        for v in items:
            self.items.setdefault(const_key(v), v)

    def python_type(self) -> type:
        return set

    def describe(self) -> str:
        return f"set of {len(self.items)}"

    def truth(self, tx) -> bool:
        return bool(self.items)

    def real(self) -> set:
        """A real set with the same elements, in the same order (see ``build_set``)."""
        return build_set(self.items)

    def ordered_keys(self) -> list:
        """The elements in the order iterating the set gives them."""
        return list(self.real())

    def unpack(self, tx) -> list[Variable]:
        return [self.items[k] for k in self.ordered_keys()]

    def add(self, var: Variable) -> None:
        self.items.setdefault(const_key(var), var)

    def discard(self, key) -> None:
        if key in self.items:
            del self.items[key]
            self.removals += 1

    def assign(self, result: set, *sources) -> None:
        """Make the elements those of ``result`` (an in-place operation's result): the
        ones kept stay in place; new ones are added in the order they come in
        ``sources`` (the operands they were added from), as the operation added them."""
        for key in [k for k in self.items if k not in result]:
            self.discard(key)
        for source in [*sources, result]:
            for key in source:
                if key in result:
                    self.items.setdefault(key, ConstantVariable(key))

    def getattr(self, tx, name: str) -> Variable:
        if name in _SET_METHODS:
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if kwargs:
            raise Unsupported(f"set.{name} with keywords")
        if name == "add":
            tx.output.side_effects.mutate(self)
            self.add(args[0])
            return ConstantVariable(None)
        if name in ("discard", "remove"):
            key = const_key(args[0])
            if key not in self.items and name == "remove":
                raise Unsupported("set.remove of a missing element (KeyError)")
            tx.output.side_effects.mutate(self)
            self.discard(key)
            return ConstantVariable(None)
        if name == "clear":
            tx.output.side_effects.mutate(self)
            self.assign(set())
            return ConstantVariable(None)
        others = []
        for a in args:
            other = real_set_operand(tx, a)
            if other is None:
                other = [const_key(v) for v in tx.unpack_iterable(a)]
            others.append(other)
        real = self.real()
        result = getattr(real, name)(*others)   # CPython's own method, on constants
        if name in _SET_UPDATES:
            tx.output.side_effects.mutate(self)
            self.assign(real, *others)
            return ConstantVariable(None)
        if isinstance(result, set):
            return SetVariable([ConstantVariable(k) for k in result])
        return ConstantVariable(result)

    def contains(self, var: Variable) -> bool:
        return const_key(var) in self.items

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: f"{cg.const(build_set)}("
                                          f"{cg.const(tuple(v.items))})")


_SET_UPDATES = {"update", "intersection_update", "difference_update",
                "symmetric_difference_update"}
_SET_METHODS = {"add", "discard", "remove", "clear", "union", "intersection",
                "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
                "copy"} | _SET_UPDATES


class SliceVariable(Variable):
    def __init__(self, start: Variable, stop: Variable, step: Variable):
        self.parts = (start, stop, step)

    def is_constant(self) -> bool:
        return all(p.is_constant() for p in self.parts)

    def as_python_constant(self) -> Any:
        return slice(*(p.as_python_constant() for p in self.parts))

    def as_graph_arg(self, output) -> slice:
        return slice(*(p.as_graph_arg(output) for p in self.parts))

    def as_meta(self) -> slice:
        return slice(*(p.as_meta() for p in self.parts))

    def python_type(self) -> type:
        return slice

    def describe(self) -> str:
        return "slice"


# ============================================================================ operators

_SET_OPERATORS = {"bitwise_or": (operator.or_, operator.ior),
                  "bitwise_and": (operator.and_, operator.iand),
                  "subtract": (operator.sub, operator.isub),
                  "bitwise_xor": (operator.xor, operator.ixor)}
_TUPLE_OPERATORS = ("__add__", "__radd__", "__mul__", "__rmul__", "__iadd__", "__imul__")


def container_binary_op(tx, name: str, a: Variable, b: Variable,
                        inplace: bool = False) -> Variable | None:
    """``a <op> b``, or ``a <op>= b`` with ``inplace``, where a list, tuple, dict, set or
    dict view the translator models takes part, as Python computes it: ``+=`` and
    ``*=`` change a list in place (every alias sees it), ``|=`` and co. change a set in
    place, ``t + ()`` is ``t``. None where no such container takes part."""
    setlike = (SetVariable, DictViewVariable)
    if name in _SET_OPERATORS and (isinstance(a, setlike) or isinstance(b, setlike)):
        return _set_operator(tx, name, a, b, inplace)
    if name == "bitwise_or" and isinstance(a, DictVariable):
        if inplace:   # dict.__ior__ is update: any mapping or iterable of pairs
            items = tx.dict_items(b)
            tx.output.side_effects.mutate(a)
            for k, v in items.items():
                a.store(k, v)
            return a
        if isinstance(b, DictVariable):
            return DictVariable({**a.items, **b.items})
        return None
    if isinstance(a, SequenceVariable) or isinstance(b, SequenceVariable):
        return _sequence_operator(tx, name, a, b, inplace)
    return None


def real_set_operand(tx, var: Variable):
    """The real value of a set operator's operand made of constants that compare in C
    (a set, a frozenset, a dict view, a list or tuple), so that the operator runs as
    CPython's own code on it; None where the translator has no such value."""
    if isinstance(var, (SetVariable, DictViewVariable)):
        return var.real()
    if isinstance(var, SequenceVariable):
        if not all(i.is_constant() and compares_in_c(i.as_python_constant())
                   for i in var.items):
            return None
        return var.kind(i.as_python_constant() for i in var.items)
    if var.is_constant() and compares_in_c(var.as_python_constant()):
        return var.as_python_constant()
    return None


def _set_operator(tx, name: str, a: Variable, b: Variable, inplace: bool) -> Variable:
    real_a, real_b = real_set_operand(tx, a), real_set_operand(tx, b)
    if real_a is None or real_b is None:
        raise Unsupported(f"operator {name} on {a.describe()} and {b.describe()}")
    plain, augmented = _SET_OPERATORS[name]
    result = (augmented if inplace else plain)(real_a, real_b)   # TypeError: a break
    if isinstance(a, SetVariable) and result is real_a:   # set.__ior__ & co.: in place
        tx.output.side_effects.mutate(a)
        a.assign(result, real_b)
        return a
    if isinstance(result, frozenset):
        return ConstantVariable(result)
    return SetVariable([ConstantVariable(k) for k in result])


def _tuple_items(var: Variable) -> list[Variable] | None:
    """The items of a tuple operand whose ``+`` and ``*`` are tuple's own."""
    if isinstance(var, TupleVariable):
        cls = var.python_type()
    elif isinstance(var, ConstantVariable) and isinstance(var.value, tuple):
        cls = type(var.value)
    else:
        return None
    if any(getattr(cls, m, None) is not getattr(tuple, m, None) for m in _TUPLE_OPERATORS):
        return None   # a named tuple class with an operator of its own
    return var.items if isinstance(var, TupleVariable) else \
        [wrap_constant(v) for v in var.value]


def _exact_tuple(var: Variable) -> bool:
    """A tuple that ``t + ()`` and ``t * 1`` give back as it is (CPython does, for exact
    tuples)."""
    return type(var) is TupleVariable or (isinstance(var, ConstantVariable)
                                          and type(var.value) is tuple)


def _sequence_operator(tx, name: str, a: Variable, b: Variable,
                       inplace: bool) -> Variable | None:
    if name == "add":
        if isinstance(a, ListVariable):
            if inplace:   # list.__iadd__ is extend: any iterable, the same list
                items = tx.unpack_iterable(b)
                tx.output.side_effects.mutate(a)
                a.items.extend(items)
                return a
            if isinstance(b, ListVariable):
                check_size(len(a.items) + len(b.items), "a list")
                return ListVariable(a.items + b.items)
            return None
        xs, ys = _tuple_items(a), _tuple_items(b)
        if xs is None or ys is None:
            return None
        if not ys and _exact_tuple(a):
            return a
        if not xs and _exact_tuple(b):
            return b
        check_size(len(xs) + len(ys), "a tuple")
        return TupleVariable(xs + ys)
    if name == "multiply":
        seq, count = (a, b) if isinstance(a, SequenceVariable) else (b, a)
        if not count.is_constant() or isinstance(count, SequenceVariable):
            return None
        n = max(operator.index(count.as_python_constant()), 0)   # TypeError: a break
        if isinstance(seq, ListVariable):
            check_size(len(seq.items) * n, "a list")
            if inplace and seq is a:   # list.__imul__ repeats the list in place
                tx.output.side_effects.mutate(a)
                a.items[:] = a.items * n
                return a
            return ListVariable(seq.items * n)
        items = _tuple_items(seq)
        if items is None:
            return None
        if n == 1 and _exact_tuple(seq):
            return seq
        check_size(len(items) * n, "a tuple")
        return TupleVariable(items * n)
    return None
