"""Breaks that resume *at* the breaking instruction: loops over a length only the
data decides.

``for c in np.unique(y)`` needs the number of classes at its ``GET_ITER`` (and
``enumerate(classes)``, ``zip``, ``list`` at their call), which the trace cannot read:
it is an unbacked size (docs/unbacked.md). A plain break runs that instruction in the
glue and resumes after it, with the real Python iterator on the stack, which the
resumed frame cannot trace (one or two more breaks, "iteration over a Python
iterator", and the loop runs as Python). Resuming at the instruction instead hands
the resumed frame the array itself, as an input: its length is then an input's,
read and guarded like any other, and the loop is traced there (unrolled, or a loop
node).

Where it applies (``resumes_before``): the instruction changed nothing before it
broke (the caller's ``dirty`` test), it needed an unbacked size's value
(``data_dependent_shape``), and one of its operands holds that size. The last
condition also ends any chain of such breaks: the resumed frame's operands are its
inputs, whose sizes are backed, so the same instruction there never resumes before
itself again (``np.split(x, idx)``, whose pieces' sizes only the data decides,
breaks there the plain way).

Example::

    >>> resumes_before(get_iter, [ArrayVariable(unique_node, int64[u0])], (), error)
    True
"""

from __future__ import annotations

from ..symbolic.fit import symbols_in
from ..symbolic.sizes import concrete, is_unbacked
from ..tree import tree_leaves
from ..variables import ArrayVariable, ConstantVariable
from ..variables.constant import BuiltinVariable, SymRangeVariable
from ..variables.sequences import SequenceVariable

# the instructions that take such an array and may need its length; a 3.11/3.12 CALL
# with keyword names (``enumerate(classes, start=1)``: held by the KW_NAMES before it)
# resumes at that KW_NAMES, which the resumed frame runs again (``resume_index``;
# 3.13's CALL_KW has them on the stack)
_TAKES_AN_ITERABLE = ("GET_ITER", "CALL", "CALL_KW")
# what 3.11 puts between a KW_NAMES and its CALL (none of it touches the stack)
_BETWEEN_KW_NAMES_AND_CALL = frozenset({"PRECALL", "CACHE", "EXTENDED_ARG", "NOP"})
# the builtins called with such an array that the resumed frame iterates as the trace
# iterates an input (any other call, ``max(u, key=f)``, may break there again: it
# runs in the glue, as before)
_ITERATING_BUILTINS = frozenset({enumerate, zip, list, tuple, map, filter, dict, set,
                                 frozenset, sorted, sum, range, len})


def resumes_before(inst, stack: list, kw_names: tuple, error, insts=()) -> bool:
    """Whether the break of ``inst`` (``error``: its ``Unsupported``) resumes at
    ``inst`` itself (or at the KW_NAMES that gives its keyword names: ``resume_index``,
    ``insts`` the code's instructions), with ``stack`` as it was before it ran."""
    if error.cause != "data_dependent_shape" or inst.name not in _TAKES_AN_ITERABLE or \
            inst.name == "CALL" and kw_names and \
            resume_index(inst, insts) == inst.index or not stack:
        return False
    operands = stack[-_operand_count(inst, stack):]
    if inst.name != "GET_ITER" and not _iterating_builtin(operands):
        return False
    return any(_holds_unbacked(v) for v in operands)


def iterable_needs_its_length(value) -> None:
    """At ``GET_ITER``: a range whose bounds only the data decide (``for i in
    range(len(np.unique(y)))``) breaks here, where nothing has run yet, so the resumed
    frame starts at this ``GET_ITER`` with the range as its input; iterating it in
    the trace would need the count at the loop's first ``FOR_ITER`` instead, inside
    the loop, and the whole loop would run as Python (an island). Where the loop can
    be a loop node of that many trips, ``data_trips.DataTripLoops.GET_ITER`` makes the
    iterator instead: this is reached once that attempt is refused.

    Example::

        >>> iterable_needs_its_length(SymRangeVariable((0, SymInt(4, u0), 1)))
        Unsupported: a data-dependent size (...) used as a Python value: ...
    """
    if isinstance(value, SymRangeVariable) and _holds_unbacked(value):
        concrete(value.bounds)   # (raises: an unbacked size has no value to pin)


def resume_index(inst, insts) -> int:
    """Where the resumed frame of a "before" break of ``inst`` starts: ``inst``
    itself, or, for a 3.11/3.12 CALL with keyword names, the KW_NAMES that set them
    (with the same stack: nothing between them touches it), so the call gets its
    keywords again; ``inst.index`` where no such KW_NAMES is found.

    Example (3.11, ``enumerate(classes, start=1)``)::

        >>> resume_index(insts[24], insts)     # KW_NAMES, PRECALL, CALL
        22
    """
    if inst.name != "CALL":
        return inst.index
    i = inst.index - 1
    while i >= 0 and insts[i].name in _BETWEEN_KW_NAMES_AND_CALL:
        i -= 1
    return i if i >= 0 and insts[i].name == "KW_NAMES" else inst.index


def _iterating_builtin(operands: list) -> bool:
    """The callable of a call's operands (the first two slots: callable and NULL or
    self, in either order) is one of ``_ITERATING_BUILTINS``."""
    return any(isinstance(v, BuiltinVariable) and not v.pure_method and
               v.fn in _ITERATING_BUILTINS for v in operands[:2])


def _operand_count(inst, stack: list) -> int:
    """How many values of the stack ``inst`` takes (all of them where unknown)."""
    from .. import pyversion

    pops = pyversion.stack_pops(inst.name, inst.arg)
    return len(stack) if pops is None else min(pops, len(stack))


def _holds_unbacked(value) -> bool:
    """An array with a size only the data decides, an int that is one, or a list or
    tuple of such (``np.concatenate([x[m], y])``)."""
    if isinstance(value, SymRangeVariable):   # (its ``value`` would pin the bounds)
        return any(is_unbacked(name) for name in symbols_in(value.bounds))
    if isinstance(value, SequenceVariable):
        return any(_holds_unbacked(v) for v in value.items)
    if isinstance(value, ArrayVariable):
        found = symbols_in(value.meta)
    elif isinstance(value, ConstantVariable):
        found = symbols_in(tree_leaves(value.value))
    else:
        return False
    return any(is_unbacked(name) for name in found)
