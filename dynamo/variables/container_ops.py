"""Python's binary operators where a container the translator models takes part:
``+`` and ``*`` of lists and tuples, ``|``, ``&``, ``-`` and ``^`` of sets and dict
views, ``|`` of dicts, and their in-place forms (``+=`` extends a list in place,
``|=`` updates a set or dict in place: every alias sees it).

Example::

    >>> container_binary_op(tx, "add", TupleVariable([a]), TupleVariable([b])).items
    [a, b]
"""

from __future__ import annotations

import operator

from ..exc import Unsupported
from .base import Variable
from .constant import ConstantVariable, check_size
from .dicts import DefaultDictVariable, DictVariable
from .sequences import ListVariable, SequenceVariable, TupleVariable, wrap_constant
from .sets import SetLikeVariable, SetVariable, operand_recipe, real_set_operand

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
    if name in _SET_OPERATORS and (isinstance(a, SetLikeVariable)
                                   or isinstance(b, SetLikeVariable)):
        return _set_operator(tx, name, a, b, inplace)
    if name == "bitwise_or" and isinstance(a, DictVariable):
        if not inplace and (isinstance(a, DefaultDictVariable) or
                            isinstance(b, DefaultDictVariable)):
            # (either side a defaultdict: Python's ``|`` makes a defaultdict)
            raise Unsupported("| of a defaultdict")
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


def _set_operator(tx, name: str, a: Variable, b: Variable, inplace: bool) -> Variable:
    if inplace and hasattr(a, "inplace_or"):   # (a set from outside, unread: unread_sets)
        if name != "bitwise_or":   # (its glue replays adds, discards and updates only)
            raise Unsupported(f"{name}= of a set from outside the trace")
        return a.inplace_or(tx, b)
    real_a, real_b = real_set_operand(tx, a), real_set_operand(tx, b)
    if real_a is None or real_b is None:
        raise Unsupported(f"operator {name} on {a.describe()} and {b.describe()}")
    plain, augmented = _SET_OPERATORS[name]
    fn = augmented if inplace else plain
    result = fn(real_a, real_b)   # TypeError: a break
    operands = (operand_recipe(a, real_a), operand_recipe(b, real_b))
    if isinstance(a, SetVariable) and result is real_a:   # set.__ior__ & co.: in place
        tx.output.side_effects.mutate(a)
        a.record(augmented, operands[1:])
        a.assign(result, real_b)
        return a
    if isinstance(result, frozenset):
        return ConstantVariable(result)
    # (its table is made from a copy of the left operand's: the same call makes it)
    return SetVariable([ConstantVariable(k) for k in result], ("call", fn, operands))


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
