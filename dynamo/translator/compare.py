"""Rich comparisons (``==``, ``<``, ...) and membership (``in``), as CPython computes them.

``a == b`` is not identity: CPython calls ``type(a).__eq__(a, b)``, then ``b``'s reflected
method (first, when ``type(b)`` is a proper subclass of ``type(a)``), and falls back to
identity only when both return ``NotImplemented``. The translator follows the same
protocol, one method at a time:

- constants whose comparison runs only C code (ints, strings, tuples of them...) fold at
  trace time;
- a method written in Python (a user ``__eq__``) is inlined, so its side effects happen in
  program order, and its result is whatever it returns;
- ``object``'s methods are identity (``__ne__`` inverts ``__eq__``);
- lists, tuples, dicts and sets the translator models compare item by item, as their C
  methods do (identity first, then ``==``);
- anything else (a C method of a type the translator does not model, on a value that is
  not a constant) is a graph break: Python compares for real, at its place in the program.

No user ``__eq__`` or ``__hash__`` runs at trace time outside an inlined call.

Example::

    >>> rich_compare(tx, "equal", ObjectVariable(c), ConstantVariable(1))   # inlines C.__eq__
"""

from __future__ import annotations

import contextlib
import threading
import types

from dynamo.guards import AttrSource
from dynamo.guards.type_slots import dict_of, flags_of, mro_of, qualname_of

from ..exc import Unsupported
from ..symbolic import SymFloat, SymInt
from ..variables import (
    ArrayVariable,
    ConstantVariable,
    DictVariable,
    DictViewVariable,
    IteratorVariable,
    ListVariable,
    SetVariable,
    TupleVariable,
    UserFunctionVariable,
    Variable,
    wrap_constant,
)
from ..variables.arrays import DeferredNumberVariable
from ..variables.constant import (
    BINARY,
    compared_exactly,
    compares_in_c,
    operands,
    operator_on_constants,
    raw,
)
from ..variables.conversions import needs_deferred_value
from ..variables.iterators import take
from ..variables.objects import TypeSource
from ..variables.sets import real_set_operand
from ..variables.size_values import size_operator
from .number_compares import number_compare

DUNDER = {"less": "__lt__", "less_equal": "__le__", "equal": "__eq__",
          "not_equal": "__ne__", "greater": "__gt__", "greater_equal": "__ge__"}
SWAPPED = {"less": "greater", "less_equal": "greater_equal", "equal": "equal",
           "not_equal": "not_equal", "greater": "less", "greater_equal": "less_equal"}
SYMBOL = {"less": "<", "less_equal": "<=", "equal": "==", "not_equal": "!=",
          "greater": ">", "greater_equal": ">="}

# Builtin types whose comparison methods (in C) the translator follows, and the types of
# the other operand each one accepts: for any other type it returns NotImplemented.
_KEYS, _ITEMS = type({}.keys()), type({}.items())
_SET_LIKE = (set, frozenset, _KEYS, _ITEMS)
_C_OPERANDS = {int: int, float: (int, float), complex: (int, float, complex), str: str,
               bytes: bytes, tuple: tuple, list: list, dict: dict, set: (set, frozenset),
               frozenset: (set, frozenset), range: range, slice: slice,
               _KEYS: _SET_LIKE, _ITEMS: _SET_LIKE}
_IMMUTABLE_TYPE = 1 << 8   # Py_TPFLAGS_IMMUTABLETYPE: builtin types cannot change
# Types whose comparison methods are object's: identity. (NoneType has methods of its
# own on some versions; they answer exactly as object's do.)
_IDENTITY_OWNERS = (object, type(None))


def _not_implemented() -> Variable:
    return ConstantVariable(NotImplemented)


def _is_not_implemented(var: Variable) -> bool:
    return isinstance(var, ConstantVariable) and var.value is NotImplemented


def folds(var: Variable) -> bool:
    """A constant whose comparisons and hash run only C code: compared at trace time."""
    if not var.is_constant():
        return False
    return compares_in_c(raw(var))


def _folds_compared(a: Variable, b: Variable) -> bool:
    """Does ``a == b`` (or ``<``...) fold as one comparison of two constants? Not where
    a tuple holds a changing int (``self.pos`` of ``(r, c)`` that move): folding reads,
    and so pins, every item's value, an entry per position; the tuples compare item by
    item instead (``_compare_sequences``), each item's ``==`` a decision guarded on its
    outcome (``self.pos == (3, 3)``: an entry per side, not per position). Hashing such
    a tuple (``pos in visited``) still needs its value: ``folds`` alone decides there."""
    return not _holds_changing_ints(a) and not _holds_changing_ints(b) and \
        folds(a) and folds(b)   # (first: ``folds`` of such a tuple pins its items)


def _holds_changing_ints(var: Variable) -> bool:
    """A tuple the translator models with a changing int among its items (nested)."""
    return isinstance(var, TupleVariable) and any(
        (isinstance(i, ConstantVariable) and isinstance(i.value, SymInt))
        or _holds_changing_ints(i) for i in var.items)


def _type(var: Variable) -> type:
    """The runtime type of ``var`` (a symbolic size is an int, a changing float a float:
    ``draw < self.eps`` compares by ``float``'s methods, not ``SymFloat``'s)."""
    if isinstance(var, ConstantVariable):
        return int if isinstance(var.value, SymInt) else \
            float if isinstance(var.value, SymFloat) else type(var.value)
    return var.python_type()


def _items(var: Variable) -> list[Variable] | None:
    """The items (live, for a list) of a list or tuple the translator models exactly."""
    if isinstance(var, (ListVariable, TupleVariable)):
        return var.items
    if isinstance(var, ConstantVariable) and isinstance(var.value, tuple):
        return [wrap_constant(v) for v in var.value]
    return None


def _keys(var: Variable) -> set | None:
    """The elements of a set the translator models (constants: hashed in C)."""
    if isinstance(var, SetVariable):
        return set(var.items)
    if isinstance(var, ConstantVariable) and isinstance(var.value, frozenset):
        return set(var.value)
    return None


# --------------------------------------------------------------------------- comparisons

def rich_compare(tx, op: str, a: Variable, b: Variable) -> Variable:
    """``a <op> b`` (``op`` is ``"equal"``, ``"less"``...), CPython's do_richcompare."""
    if isinstance(a, ArrayVariable) or isinstance(b, ArrayVariable):
        return tx.binary_op(op, a, b)
    sized = size_operator(tx, op, a, b)   # len(kept) > 0: a bool the graph computes
    if sized is not None:
        return sized
    if _folds_compared(a, b):
        return operator_on_constants(tx, op, [a, b])   # folded, if it cannot warn
    compared = number_compare(tx, op, a, b)   # rng.random() < eps: a graph op
    if compared is not None:
        return compared
    ta, tb = _type(a), _type(b)
    reflected_first = ta is not tb and issubclass(tb, ta)
    if reflected_first:
        result = _call_method(tx, SWAPPED[op], b, a)
        if not _is_not_implemented(result):
            return result
    result = _call_method(tx, op, a, b)
    if not _is_not_implemented(result):
        return result
    if not reflected_first:
        result = _call_method(tx, SWAPPED[op], b, a)
        if not _is_not_implemented(result):
            return result
    if op in ("equal", "not_equal"):
        return ConstantVariable(identical(tx, a, b) == (op == "equal"))
    raise TypeError(f"'{SYMBOL[op]}' not supported between instances of "
                    f"{ta.__name__!r} and {tb.__name__!r}")


def compare_bool(tx, a: Variable, b: Variable) -> bool:
    """``a is b or bool(a == b)``: how containers compare items (PyObject_RichCompareBool)."""
    if a is b:
        return True
    if _folds_compared(a, b):
        exact = compared_exactly("equal", raw(a), raw(b))   # (an int with a float)
        return raw(a) is raw(b) or bool(exact if exact is not None else
                                        BINARY["equal"](*operands(a, b)))
    if _holds_changing_ints(a) or _holds_changing_ints(b):
        # (identity would read the items' values; one object's items are pairwise
        # identical, so comparing them item by item says what identity would)
        return rich_compare(tx, "equal", a, b).truth(tx)
    try:
        if identical(tx, a, b):
            return True
    except Unsupported:
        # Two tuples whose identity is not known (a tuple may be shared): were they one
        # object, their items would be pairwise identical, so == says the same.
        if _items(a) is None or _items(b) is None:
            raise
    return rich_compare(tx, "equal", a, b).truth(tx)


def identical(tx, a: Variable, b: Variable) -> bool:
    """``a is b``. Values of different types are never one object (``obj is None``)."""
    if a is b:
        return True
    for v, other in ((a, b), (b, a)):
        # min(c, s) is c itself or s itself, as the data decides (and x.item() may be
        # a cached small int or bool): only the running program knows which object it
        # is. A number is never None (``if lr is None``) without the value, unless
        # one way of an ``if`` gave None (``BranchChoiceVariable.may_be_none``).
        if isinstance(v, DeferredNumberVariable):
            if isinstance(other, ConstantVariable) and other.value is None and \
                    not v.may_be_none:
                return False
            raise v.needed()
    try:
        if _type(a) is not _type(b):
            return False
    except Unsupported:   # a type the translator does not know: ask is_same_object
        pass
    return tx.is_same_object(a, b)


def _call_method(tx, op: str, x: Variable, y: Variable) -> Variable:
    """``type(x).__op__(x, y)``: the method found on the type, as CPython calls it."""
    cls = _type(x)
    name = DUNDER[op]
    owner = next(k for k in mro_of(cls) if name in dict_of(k))
    method = dict_of(owner)[name]
    _guard_method(tx, x, cls, name, method)
    if isinstance(method, types.FunctionType):   # user code: inlined, in program order
        source = _method_source(x, cls, name)
        return tx.call_function(UserFunctionVariable(method, source), [x, y], {})
    if any(owner is k for k in _IDENTITY_OWNERS):   # (not `in`: a metaclass's __eq__)
        return _object_method(tx, op, x, y)
    if type(owner) is type and owner in _C_OPERANDS and method is dict_of(owner).get(name):
        return _builtin_method(tx, op, owner, x, y)
    raise Unsupported(f"comparison {SYMBOL[op]} by {qualname_of(cls)}.{name}",
                      "The translator does not model this comparison method; Python runs "
                      "it when the program runs.", cause="unsupported_call")


def _method_source(x: Variable, cls: type, name: str):
    if x.source is None or flags_of(cls) & _IMMUTABLE_TYPE:
        return None
    return AttrSource(TypeSource(x.source), name)


def _guard_method(tx, x: Variable, cls: type, name: str, method) -> None:
    """A user class can gain or lose a comparison method: guard the one used."""
    source = _method_source(x, cls, name)
    if source is not None:
        tx.guard_identity(source, method)


def _object_method(tx, op: str, x: Variable, y: Variable) -> Variable:
    """``object.__eq__`` is identity; ``object.__ne__`` inverts ``type(x).__eq__``."""
    if op == "equal":
        return ConstantVariable(True) if identical(tx, x, y) else _not_implemented()
    if op == "not_equal":
        result = _call_method(tx, "equal", x, y)
        if _is_not_implemented(result):
            return result
        return ConstantVariable(not result.truth(tx))
    return _not_implemented()


def _builtin_method(tx, op: str, owner: type, x: Variable, y: Variable) -> Variable:
    """The C comparison of a builtin type, where the translator knows the operands."""
    if not issubclass(_type(y), _C_OPERANDS[owner]):
        return _not_implemented()   # the C code checks the other operand's type first
    xs, ys = _items(x), _items(y)
    if owner in (list, tuple) and xs is not None and ys is not None:
        with _comparing(x, y):
            return _compare_sequences(tx, op, xs, ys)
    if owner is dict and isinstance(x, DictVariable) and isinstance(y, DictVariable):
        with _comparing(x, y):
            return _compare_dicts(tx, op, x, y)
    if owner in _SET_LIKE:   # sets and set-like views of constants: CPython's own code
        real_x, real_y = real_set_operand(tx, x), real_set_operand(tx, y)
        if real_x is not None and real_y is not None:
            return ConstantVariable(getattr(owner, DUNDER[op])(real_x, real_y))
    needs_deferred_value(x, y)   # float(x) > 0: the conversion's own break
    raise Unsupported(f"comparison {SYMBOL[op]} of {x.describe()} and {y.describe()}",
                      "Python compares these values when the program runs.")


_OPEN = threading.local()   # .pairs: (id(x), id(y)) of the comparisons in progress


@contextlib.contextmanager
def _comparing(x: Variable, y: Variable):
    """Compare the containers ``x`` and ``y`` item by item. Met again inside their own
    comparison (``a == b`` of two lists that each hold themselves), Python recurses until
    it raises RecursionError; so did the translator (an internal error): now the
    comparison runs when the program runs, and raises there."""
    pairs = _OPEN.__dict__.setdefault("pairs", set())
    key = (id(x), id(y))
    if key in pairs:
        raise Unsupported("comparing containers that hold themselves (RecursionError)")
    pairs.add(key)
    try:
        yield
    finally:
        pairs.discard(key)


def _compare_sequences(tx, op: str, xs: list, ys: list) -> Variable:
    """list_richcompare / tuple_richcompare: the first items that differ decide."""
    if len(xs) != len(ys) and op in ("equal", "not_equal"):
        return ConstantVariable(op == "not_equal")
    i = 0
    while i < len(xs) and i < len(ys):   # a user __eq__ may change a list: read it live
        if not compare_bool(tx, xs[i], ys[i]):
            break
        i += 1
    if i >= len(xs) or i >= len(ys):
        return ConstantVariable(BINARY[op](len(xs), len(ys)))
    if op in ("equal", "not_equal"):
        return ConstantVariable(op == "not_equal")
    return rich_compare(tx, op, xs[i], ys[i])


def _compare_dicts(tx, op: str, x: DictVariable, y: DictVariable) -> Variable:
    """dict_richcompare: same keys (constants), values compared in ``x``'s order."""
    if op not in ("equal", "not_equal"):
        return _not_implemented()
    same = len(x.items) == len(y.items) and all(
        key in y.items and compare_bool(tx, value, y.items[key])
        for key, value in list(x.items.items()))
    return ConstantVariable(same == (op == "equal"))


# --------------------------------------------------------------------------- membership

def contains(tx, container: Variable, item: Variable) -> bool:
    """``item in container`` (PySequence_Contains), stopping at the first match."""
    if isinstance(container, ArrayVariable):
        raise Unsupported("`in` on an array compares data", cause="data_dependent")
    if isinstance(container, (DictVariable, SetVariable)) and \
            (found := container.contains_key(tx, item)) is not None:
        return found   # (read by the keys the trace touches: unread_dicts, unread_sets)
    keys = container.items if isinstance(container, DictVariable) else _keys(container)
    if keys is not None:   # hashes item, then compares it with a key of the same hash
        if not folds(item):
            raise Unsupported(f"`in` of {item.describe()} in a dict or set",
                              "Hashing it needs its value or runs its __hash__; Python "
                              "looks it up when the program runs.")
        return item.as_python_constant() in keys
    if isinstance(container, DictViewVariable):
        return _view_contains(tx, container, item)
    items = _items(container)
    if items is not None:
        i = 0
        while i < len(items):   # the list is read live: an __eq__ may change it
            if compare_bool(tx, items[i], item):
                return True
            i += 1
        return False
    if isinstance(container, ConstantVariable) and folds(container) and folds(item):
        return item.as_python_constant() in container.as_python_constant()
    if isinstance(container, IteratorVariable):   # consumed up to the match, as Python does
        while (value := take(tx, container)) is not None:
            if compare_bool(tx, value, item):
                return True
        return False
    method = _python_method(container, "__contains__")
    if method is not None:
        cls = _type(container)
        _guard_method(tx, container, cls, "__contains__", method)
        fn = UserFunctionVariable(method, _method_source(container, cls, "__contains__"))
        return tx.call_function(fn, [container, item], {}).truth(tx)
    raise Unsupported(f"`in` on {container.describe()}")


def _view_contains(tx, view: DictViewVariable, item: Variable) -> bool:
    """``item in d.keys()`` looks the key up; ``in d.items()`` looks up a pair's key and
    compares the value found with the pair's; ``in d.values()`` compares each value."""
    if view.kind == "keys":
        return contains(tx, view.dict, item)
    if view.kind == "values":
        return contains(tx, ListVariable(view.items), item)
    pair = _items(item)
    if pair is None:
        if _type(item) is tuple:
            raise Unsupported("`in` of a tuple of unknown items in a dict's items")
        return False   # not a tuple: never an item
    if len(pair) != 2:
        return False
    if not contains(tx, view.dict, pair[0]):
        return False
    return compare_bool(tx, view.dict.items[pair[0].as_python_constant()], pair[1])


def _python_method(var: Variable, name: str):
    """The method ``name`` of ``var``'s type when it is a Python function, else None."""
    try:
        cls = _type(var)
    except Unsupported:
        return None
    owner = next((k for k in mro_of(cls) if name in dict_of(k)), None)
    method = dict_of(owner)[name] if owner is not None else None
    return method if isinstance(method, types.FunctionType) else None
