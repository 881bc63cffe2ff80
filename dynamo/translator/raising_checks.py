"""A data-dependent jump one of whose ways only raises is a check on the input.

``if np.any(p < 0): raise ValueError(...)``, ``if np.linalg.matrix_rank(X) < d: raise
...`` and ``assert (y >= 0).all()`` break the graph like any jump on array data (which
way runs is data), but they choose no computation: np.where, the hint of a
data-dependent ``if``, cannot express them. ``as_a_check`` gives such a break its own
reason and hint. The truth value is taken at the jump (3.11), at ``TO_BOOL`` or at a
``COMPARE_OP`` that converts to bool (3.13, 3.14): the conditional jump is then the
next instruction.

Example::

    >>> # 3.11: ... COMPARE_OP <; POP_JUMP_FORWARD_IF_FALSE L1; LOAD_GLOBAL ValueError;
    >>> #       ... RAISE_VARARGS 1; L1: ...
    >>> as_a_check(insts, jump, Unsupported("truth value of an array ...",
    ...                                     cause="data_dependent")).reason
    'truth value of an array (data-dependent control flow: a check that raises on some data)'
"""

from __future__ import annotations

from ..exc import Unsupported

# Breaks of a value the data decides, used as a truth value: an array's truth, a bool
# made from array data (np.allclose), a data-dependent size (len(x[x > 0])).
_DATA_CAUSES = ("data_dependent", "array_to_python", "data_dependent_shape")
_ENDS = ("RETURN_VALUE", "RETURN_CONST", "RERAISE")
_PASS = ("NOT_TAKEN", "UNARY_NOT", "TO_BOOL", "NOP", "CACHE")


def _raises_at(insts, start: int) -> bool:
    """Does the straight-line code from ``start`` end in a ``raise`` (the body of ``if
    bad: raise ValueError(...)`` or of an ``assert``), before any jump or return?"""
    for inst in insts[start:start + 64]:
        if inst.name == "RAISE_VARARGS":
            return True
        if inst.target is not None or inst.name in _ENDS:
            return False
    return False


def _conditional_jump(insts, inst):
    """The conditional jump that decides on the value ``inst`` tests: ``inst`` itself,
    or the jump right after it (``TO_BOOL``, ``COMPARE_OP`` with its bool conversion,
    a ``UNARY_NOT`` between)."""
    i = inst.index
    while i < len(insts):
        here = insts[i]
        if here.name.startswith("POP_JUMP") and "NONE" not in here.name:
            return here
        if i > inst.index and here.name not in _PASS:
            return None
        i += 1
    return None


def as_a_check(insts, inst, error: Unsupported) -> Unsupported:
    """``error`` (the break of a data-dependent truth value at ``inst``), or the same
    break named a check where one way of its jump only raises."""
    if error.cause not in _DATA_CAUSES:
        return error
    jump = _conditional_jump(insts, inst)
    if jump is None or not (_raises_at(insts, jump.index + 1) or
                            _raises_at(insts, jump.target)):
        return error
    # (its explanation and hint: dynamo/hints.py, "a check that raises on some data")
    if error.cause == "data_dependent":
        return Unsupported(f"{error.reason.split(' (')[0]} (data-dependent control flow: a "
                           "check that raises on some data)", cause=error.cause)
    # `assert np.allclose(a, b)`, `if len(x[x < 0]): raise ...`: the value's own reason
    return Unsupported(f"{error.reason.splitlines()[0]} (a check that raises on some data)",
                       cause=error.cause)
