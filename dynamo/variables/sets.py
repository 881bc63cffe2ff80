"""Sets of constants, and what sets and the set-like dict views share: the hashable
constant that is a set's element or a dict's key (``const_key``), the order a set
iterates in (``build_set``), and the real value a set operator runs on
(``real_set_operand``: set operators run as CPython's own code on constants).

A set is mutable: one Variable per runtime object, mutated in place by the translator
(``s |= t`` too, see :mod:`.container_ops`: every alias sees it), written back by the
glue when it came from outside the trace (see :mod:`dynamo.codegen`).

Example::

    >>> s = SetVariable([ConstantVariable(3), ConstantVariable(1)])
    >>> s.real()
    {1, 3}
"""

from __future__ import annotations

import math
from typing import Any

from ..exc import Unsupported
from .base import BoundBuiltinMethod, Variable
from .constant import ConstantVariable, compares_in_c
from .sequences import SequenceVariable


def spelled_key(key: Any) -> bool:
    """Whether ``repr(key)`` in generated code finds the same dict entry (``ItemSource``
    writes its key by ``repr``): not ``nan`` (found only by identity), ``inf`` or a
    NumPy scalar (no such name there), nor an int too long to print::

        >>> spelled_key("lr"), spelled_key(float("nan")), spelled_key((1, 2.5))
        (True, False, True)
    """
    if type(key) in (str, bytes, bool, type(None)):
        return True
    if type(key) is int:
        return key.bit_length() < 4000
    if type(key) is float:
        return math.isfinite(key)
    if type(key) is tuple:
        return all(spelled_key(k) for k in key)
    return False


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


def build_set(keys) -> set:
    """A set made by adding ``keys`` one by one, as ``{a, b, c}`` and ``set(list)`` make
    it: the glue rebuilds sets this way, and the trace iterates a set in this set's
    order, so that both see the same order."""
    out = set()
    for k in keys:
        out.add(k)
    return out


class SetLikeVariable(Variable):
    """A Variable that is a set to Python's set operators: a set (``SetVariable``) or a
    dict view (``dicts.DictViewVariable``). ``real()`` gives a real value with the same
    elements, on which the operators run as CPython's own code (``real_set_operand``);
    None where there is none (a values view, an items view of arrays).

    (A base class here, so that the operators recognise dict views without this
    module importing the dicts, which sit above it.)"""

    def real(self):
        """A real set, frozenset or dict view with the same elements, or None."""
        raise NotImplementedError


class SetVariable(SetLikeVariable):
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

    def contains_key(self, tx, item) -> bool | None:
        """``item in s`` without reading the set whole, or None: see ``unread_sets``."""
        return None

    def length(self, tx):
        """``len(s)`` without reading the set whole, or None: see ``unread_sets``."""
        return None

    def reconstruct(self, cg) -> str:
        return cg.mutable(self, lambda v: f"{cg.const(build_set)}("
                                          f"{cg.const(tuple(v.items))})")


_SET_UPDATES = {"update", "intersection_update", "difference_update",
                "symmetric_difference_update"}
_SET_METHODS = {"add", "discard", "remove", "clear", "union", "intersection",
                "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
                "copy"} | _SET_UPDATES


def real_set_operand(tx, var: Variable):
    """The real value of a set operator's operand made of constants that compare in C
    (a set, a frozenset, a dict view, a list or tuple), so that the operator runs as
    CPython's own code on it; None where the translator has no such value."""
    if isinstance(var, SetLikeVariable):
        return var.real()
    if isinstance(var, SequenceVariable):
        if not all(i.is_constant() and compares_in_c(i.as_python_constant())
                   for i in var.items):
            return None
        return var.kind(i.as_python_constant() for i in var.items)
    if var.is_constant() and compares_in_c(var.as_python_constant()):
        return var.as_python_constant()
    return None

