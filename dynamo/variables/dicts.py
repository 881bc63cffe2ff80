"""Dicts with constant keys, and their live views (``d.keys()``, ``d.values()``,
``d.items()``).

A dict is mutable: one Variable per runtime object, mutated in place by the
translator (every alias sees it). When it came from outside the trace (it has a
source), the translator records it as mutated and the glue replays the changes to
its layout on the real dict after the graph ran (``DictVariable.write_back``, see
:mod:`dynamo.codegen`). A view made before ``d[k] = v`` sees the new key, as in Python.

Example::

    >>> d = DictVariable({"a": ConstantVariable(1)})
    >>> DictViewVariable(d, "keys").real()
    dict_keys(['a'])
"""

from __future__ import annotations

import collections
from typing import Any

from ..exc import Unsupported
from .base import BoundBuiltinMethod, Variable, program_error
from .constant import ConstantVariable, compares_in_c
from .sequences import TupleVariable
from .sets import SetLikeVariable, const_key, real_set_operand


class DictViewVariable(SetLikeVariable):
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

    def length(self, tx):
        """``len(d)`` without reading the whole dict, or None: see ``unread_dicts``."""
        return None

    def contains_key(self, tx, item: Variable) -> bool | None:
        """``item in d`` without reading the whole dict, or None (read it): see
        ``unread_dicts``."""
        return None

    def getitem(self, tx, index: Variable) -> Variable:
        key = const_key(index)
        if key not in self.items:
            raise program_error(KeyError(key), exact=True)   # Python's own
        return self.items[key]

    def setitem(self, tx, index: Variable, value: Variable) -> None:
        key = const_key(index)
        tx.break_at_drop([self.items.get(key)], f"a dict entry {key!r}")
        tx.output.side_effects.mutate(self)
        self.store(key, value)

    def delitem(self, tx, index: Variable) -> None:
        key = const_key(index)
        if key not in self.items:
            raise Unsupported(f"del of a missing dict key {key!r}")
        tx.break_at_drop([self.items[key]], f"a dict entry {key!r}")
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
        if name == "clear":
            tx.break_at_drop(list(items.values()), "a cleared dict")
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
        if cg.holds_itself(self):   # (d["me"] = d): made empty, filled once it exists
            return cg.mutable(self, lambda v: "{}", lambda temp: self.fill(cg, temp))
        return cg.mutable(self, build)

    def fill(self, cg, temp: str) -> None:
        """The glue's stores of the items into the rebuilt dict ``temp``, in order."""
        for k, v in self.items.items():
            cg.lines.append(f"{temp}[{cg.const(k)}] = {cg.value(v)}")



class DefaultDictVariable(DictVariable):
    """A ``collections.defaultdict`` (exactly that type): a dict whose ``d[key]`` of a
    missing key calls its default factory with no arguments, stores the result under
    the key and returns it (``defaultdict.__missing__``), so ``d[k].append(v)`` and
    ``d[k] += v`` trace as Python runs them: the factory only on a miss, the new key
    last in the order, a factory that raises raising there, and ``None`` as factory a
    ``KeyError``. ``get``, ``in``, ``setdefault``, ``pop`` never call it (as in Python).

    ``factory`` is a callable that returns the factory's Variable when the trace first
    needs it (a dict from outside the trace wraps ``d.default_factory`` then, guarded
    by identity: an entry that never misses does not guard it).

    Example::

        >>> d = DefaultDictVariable({}, lambda: list_builtin)    # defaultdict(list)
        >>> d.getitem(tx, ConstantVariable("loss"))               # calls list()
        ListVariable([])
        >>> list(d.items)
        ['loss']
    """

    def __init__(self, items: dict[Any, Variable], factory, source=None):
        super().__init__(items, source)
        self._factory = factory
        self._factory_var: Variable | None = None

    def factory(self) -> Variable:
        if self._factory_var is None:
            self._factory_var = self._factory()
        return self._factory_var

    def describe(self) -> str:
        return f"defaultdict of {len(self.items)}"

    def python_type(self) -> type:
        return collections.defaultdict

    def getitem(self, tx, index: Variable) -> Variable:
        key = const_key(index)
        if key in self.items:
            return self.items[key]
        factory = self.factory()
        if factory.is_constant() and factory.as_python_constant() is None:
            raise program_error(KeyError(key), exact=True)   # Python's own
        value = tx.call_function(factory, [], {})
        # (``self[key] = value`` after the call: a factory that stored the key itself
        # sees its value replaced, as in ``defaultdict.__missing__``)
        tx.output.side_effects.mutate(self)
        self.store(key, value)
        return value

    def getattr(self, tx, name: str) -> Variable:
        if name == "default_factory":
            return self.factory()
        return super().getattr(tx, name)

    def call_method(self, tx, name, args, kwargs):
        if name == "copy" and not args and not kwargs:   # defaultdict(factory, d)
            return DefaultDictVariable(dict(self.items), self.factory)
        return super().call_method(tx, name, args, kwargs)

    def reconstruct(self, cg) -> str:
        def build(var):
            items = ", ".join(f"{cg.const(k)}: {cg.value(v)}" for k, v in var.items.items())
            return f"__import__('collections').defaultdict({cg.value(var.factory())}, " \
                   f"{{{items}}})"
        if cg.holds_itself(self):   # made empty (its factory first), filled once it exists
            return cg.mutable(self, lambda v: "__import__('collections').defaultdict("
                              f"{cg.value(v.factory())})", lambda temp: self.fill(cg, temp))
        return cg.mutable(self, build)
