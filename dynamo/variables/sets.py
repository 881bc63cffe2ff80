"""Sets of constants, and what sets and the set-like dict views share: the hashable
constant that is a set's element or a dict's key (``const_key``), the order a set
iterates in (``build_set``), and the real value a set operator runs on
(``real_set_operand``: set operators run as CPython's own code on constants).

A set is mutable: one Variable per runtime object, mutated in place by the translator
(``s |= t`` too, see :mod:`.container_ops`: every alias sees it), written back by the
glue when it came from outside the trace (see :mod:`dynamo.codegen`).

The order a set iterates in is its hash table's, which depends on how the set was
made, not only on what it holds: ``a | b`` copies ``a``'s table, a merge of a set
resizes first, a discarded element leaves a dummy that a later add may probe past.
Adding the elements one by one to a new set gives another order for those (issue
#17, round 38: ``list({a, "q1"} | {b, "q3"})`` of strings differed). So a set made in
the trace keeps its *recipe* (``SetVariable.recipe``): how the program made it (its
first elements added one by one, or the set operation that made it, over its
operands' recipes) and the in-place operations since, in order. The trace iterates
the set that recipe makes (``real``), and the glue makes it the same way
(``build_recipe``): the same operations on the same tables give the same order.

Example::

    >>> s = SetVariable([ConstantVariable(3), ConstantVariable(1)])
    >>> s.real()
    {1, 3}
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from typing import Any

from .. import hash_order
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


def build_recipe(recipe: tuple):
    """The real set (or operand) ``recipe`` describes, made by the operations the
    program made it with (``SetVariable.recipe``): ``("items", keys)`` adds ``keys``
    one by one to a new set; ``("value", v)`` is ``v`` itself (a constant operand);
    ``("call", fn, args)`` is ``fn(*args)`` (``operator.or_``, ``set.union``, ``set``)
    of the arguments' recipes; ``("set", base, ops)`` is ``base``'s set with each
    ``(fn, args)`` of ``ops`` applied in order (``set.add``, ``set.discard``,
    ``operator.isub``...).

        >>> build_recipe(("call", operator.or_, (("items", (8, 0)), ("items", (16,)))))
        {8, 0, 16}
    """
    kind = recipe[0]
    if kind == "items":
        return build_set(recipe[1])
    if kind == "value":
        return recipe[1]
    if kind == "call":
        return recipe[1](*[build_recipe(a) for a in recipe[2]])
    out = build_recipe(recipe[1])
    for fn, args in recipe[2]:
        result = fn(out, *[build_recipe(a) for a in args])
        if result is not None and result is not out:   # (never: in-place operators)
            raise AssertionError(f"{fn} made a new set")
    return out


def _set_like(it: Variable) -> bool:
    """A set, frozenset or dict view: what ``merged_operand`` merges whole."""
    return isinstance(it, SetLikeVariable) or \
        (isinstance(it, ConstantVariable) and isinstance(it.value, (set, frozenset)))


def set_elements(it: Variable) -> list | None:
    """The elements of a set or of a frozenset constant (in no particular order), or
    None for anything else."""
    if isinstance(it, SetVariable):
        return list(it.items)
    if isinstance(it, ConstantVariable) and type(it.value) is frozenset:
        return list(it.value)
    return None


def merged_operand(tx, it: Variable):
    """The real value ``set(it)``, ``{*it}`` and ``s.update(it)`` merge whole where
    CPython does (a set, a frozenset, an exact dict: the table is resized first, then
    read in its order), None where they add ``it``'s elements one by one."""
    if _set_like(it):
        real = real_set_operand(tx, it)
        return real if isinstance(real, (set, frozenset)) else None
    if not isinstance(it, ConstantVariable) and it.python_type() is dict and \
            isinstance(it.items, dict):
        return dict.fromkeys(it.items)   # (an exact dict: its keys, in order)
    return None


def operand_recipe(var: Variable, real) -> tuple:
    """The recipe of a set operation's operand: a set's own (its order decides where
    the operation puts the elements), else its real value (``real_set_operand``)."""
    recipe = getattr(var, "recipe", None)
    return recipe() if recipe is not None else ("value", real)


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

    _made: tuple | None = None   # how the program made it (None: its items one by one)
    _history: list | None = None   # the in-place operations since, in order (``recipe``)

    def __init__(self, items: list[Variable], made: tuple | None = None):
        self.items: dict[Any, Variable] = {}
        self.removals = 0
        for v in items:
            self.items.setdefault(const_key(v), v)
        self._made = made

    def recipe(self) -> tuple:
        """How to make this set, table and all (see the module and ``build_recipe``)."""
        made = self._made if self._made is not None else ("items", tuple(self.items))
        return ("set", made, tuple(self._history)) if self._history else made

    def record(self, fn, args: list[tuple]) -> None:
        """``fn(self, *args)`` (recipes) is about to change the set: keep it, after the
        elements it was made with (``recipe``)."""
        if self._made is None:
            self._made = ("items", tuple(self.items))
        if self._history is None:
            self._history = []
        self._history.append((fn, tuple(args)))

    def restart(self) -> None:
        """The set was cleared: CPython gives it a new empty table, as ``set()``'s."""
        self._made, self._history = ("items", ()), None

    def python_type(self) -> type:
        return set

    def describe(self) -> str:
        return f"set of {len(self.items)}"

    def truth(self, tx) -> bool:
        return bool(self.items)

    def real(self) -> set:
        """A real set with the same elements, in the same order: made as the program
        made it (``recipe``)."""
        return build_recipe(self.recipe())

    def ordered_keys(self) -> list:
        """The elements in the order iterating the set gives them (an order another
        process may not share: ``hash_order``)."""
        keys = list(self.real())
        hash_order.note_order(keys, "iterating a set")
        return keys

    def unpack(self, tx) -> list[Variable]:
        return [self.items[k] for k in self.ordered_keys()]

    def add(self, var: Variable) -> None:
        key = const_key(var)
        self.record(set.add, [("value", key)])
        self.items.setdefault(key, var)

    def merge(self, tx, other: Variable) -> None:
        """``{*a, *other}``'s ``SET_UPDATE``: ``other`` merged as CPython merges it
        (``merged_operand``: whole, or element by element)."""
        with hash_order.order_free() if _set_like(other) else nullcontext():
            items = tx.unpack_iterable(other)   # (merged whole: in no order of its own)
        real = merged_operand(tx, other)
        if real is None:
            for v in items:
                self.add(v)
            return
        keys = [const_key(v) for v in items]
        self.record(set.update, [operand_recipe(other, real)])
        for key, v in zip(keys, items):
            self.items.setdefault(key, v)

    def discard(self, key) -> None:
        if key in self.items:
            self.record(set.discard, [("value", key)])
            del self.items[key]
            self.removals += 1

    def assign(self, result: set, *sources) -> None:
        """Make the elements those of ``result`` (an in-place operation's result): the
        ones kept stay in place; new ones are added in the order they come in
        ``sources`` (the operands they were added from), as the operation added them."""
        for key in [k for k in self.items if k not in result]:
            del self.items[key]   # (the operation itself is recorded: ``record``)
            self.removals += 1
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
            self.restart()
            return ConstantVariable(None)
        others, recipes = [], []
        for a in args:
            other = real_set_operand(tx, a)
            if other is None:
                other = [const_key(v) for v in tx.unpack_iterable(a)]
                recipes.append(("value", other))
            else:
                recipes.append(operand_recipe(a, other))
            others.append(other)
        real = self.real()
        result = getattr(real, name)(*others)   # CPython's own method, on constants
        if name in _SET_UPDATES:
            tx.output.side_effects.mutate(self)
            self.record(getattr(set, name), recipes)
            self.assign(real, *others)
            return ConstantVariable(None)
        if isinstance(result, set):   # (made from a copy of this set's table: its recipe)
            return SetVariable([ConstantVariable(k) for k in result],
                               ("call", getattr(set, name), (self.recipe(), *recipes)))
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
        return cg.mutable(self, lambda v: f"{cg.const(build_recipe)}("
                                          f"{cg.const(v.recipe())})")


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

