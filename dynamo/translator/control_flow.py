"""Handlers for jumps, loops and returns.

Jumps on Python values are decided while tracing (the values are guarded), so only
the taken path is traced; short loops are unrolled (``config.max_unroll`` bounds
them), and a long loop over a range becomes one loop node where it can (``loops``).
A jump on array data raises ``Unsupported`` and becomes a graph break, unless it is a
check (``raising_checks``) or an ``if`` that only chooses a value (``branch_selects``).
"""

from __future__ import annotations

import numpy as np

from .. import pyversion
from ..exc import Unsupported
from ..symbolic import SymFloat, SymInt
from ..variables import ArrayVariable, ConstantVariable, IteratorVariable
from ..variables.arrays import DeferredNumberVariable
from ..variables.base import untraced_iteration
from ..variables.iterators import budget_length, take
from ..variables.size_values import SizeTruthVariable
from .branch_selects import SELECTED, truth_or_select
from .break_before import iterable_needs_its_length
from .compared_tests import reason_of, tested
from .counted_whiles import counted_while_node
from .per_trip_lists import HINT as PER_TRIP_HINT
from .per_trip_lists import builds_list_per_trip
from .size_and_or import copied_operand, short_circuit
from .size_chains import chain_jump, chain_or_pop
from .small_trips import largest_trip_op
from .while_loops import while_loop_node

# Unrolled ops past which a loop over small arrays (all under
# ``config.outline_min_elements``) runs as Python instead: each unrolled op is the NumPy
# call the loop makes anyway, and compiling a few thousand costs seconds
# (``check_unroll_budget``; a 300-trip k-means assignment loop of 17 ops a trip took
# 2.5 s to compile and then ran at 0.68x plain).
_SMALL_UNROLL_OPS = 2048


class ControlFlow:
    def check_unroll_budget(self, inst, it: IteratorVariable) -> None:
        """Decide at once whether unrolling a ``for`` loop fits ``config.max_unroll``.

        The loop's length is known (``length_hint``) and so, after its first iteration,
        is what one iteration costs (the backward jumps it took: 1, or more with nested
        loops). Unrolling the rest costs about ``cost * left`` more; when that is over the
        budget the loop breaks here, before it is traced up to the budget only to give
        up (a 2000-step loop spent seconds that way). For a triangular nest the first
        iteration is the longest, so the estimate errs towards not unrolling. A loop
        that may end early (``for i in range(10**9): if i == 3: break``) is left to the
        budget of backward jumps (``jump``): its length says nothing.
        """
        if self.info.loop_may_exit_early(inst.index) or self.may_become_loop_node(inst, it):
            return   # (a loop node is tried at the second FOR_ITER, see loops.py)
        left = budget_length(it, self.config.loop_unroll_limit)   # (a short range: no pin)
        if left is None:
            return
        # what one iteration cost: its backward jumps, and the trips of the loop nodes
        # in it, which an unrolled iteration repeats (each traced and compiled again)
        now = self.backward_jumps
        work, size = now + self.output.loop_trips, len(self.output.graph)
        before = self.loop_progress.get(id(it))
        self.loop_progress[id(it)] = (it, work, size)
        cost = 1 if before is None else max(1, work - before[1])
        if now + cost * left > self.config.max_unroll:
            raise Unsupported(
                f"a loop of {left} more iterations (about {cost * left} unrolled) exceeds "
                f"config.max_unroll ({self.config.max_unroll})",
                "Loops are unrolled into the graph; this one is too long, so it runs as "
                "Python.", hint="raise dynamo.config.max_unroll, or vectorize the loop",
                cause="unroll_budget")
        if before is not None and (size - before[2]) * left > _SMALL_UNROLL_OPS and \
                self.small_trips(before[2]):
            raise Unsupported(
                f"a loop of {left} more iterations would unroll into about "
                f"{(size - before[2]) * left} more ops on small arrays",
                "Unrolled, each op is the same NumPy call the loop makes, and compiling "
                "thousands of them costs seconds; on arrays this small fusing cannot win "
                "that back, so the loop runs as Python.",
                hint="vectorize the loop: one array op over all its trips rather than "
                     "one small op per trip",
                cause="unroll_budget")

    def small_trips(self, start: int) -> bool:
        """The loop's ops work on small arrays: the frame holds none of
        ``config.outline_min_elements`` elements, or the last trip's ops (graph nodes
        from ``start`` on) read and compute fewer than a 64th of that each (frames of a
        long signal: ``translator/small_trips.py``)."""
        large = self.config.outline_min_elements
        return self.largest_array() < large or \
            largest_trip_op(self.output.graph.nodes[start:], large) < large // 64

    def largest_array(self) -> int:
        """The elements of the largest array the frame holds whose size is known (a
        symbolic size counts as large: it may be)."""
        sizes = [v.meta.size for v in self.locals.values() if isinstance(v, ArrayVariable)]
        sizes += [v.size for v in self.unread_args().values() if isinstance(v, np.ndarray)]
        return max((s if type(s) is int else self.config.outline_min_elements
                    for s in sizes), default=0)

    def LOAD_CONST(self, inst):
        self.push(ConstantVariable(inst.arg))

    def LOAD_SMALL_INT(self, inst):  # 3.14: LOAD_CONST of an int in 0..255
        self.push(ConstantVariable(inst.arg))

    def RETURN_VALUE(self, inst):
        self.result = self.pop()
        self.done = True

    def RETURN_CONST(self, inst):  # 3.12
        self.result = ConstantVariable(inst.arg)
        self.done = True

    # ------------------------------------------------------------------ jumps
    def JUMP_FORWARD(self, inst):
        self.jump(inst)

    JUMP_BACKWARD = JUMP_FORWARD
    JUMP_BACKWARD_NO_INTERRUPT = JUMP_FORWARD
    JUMP = JUMP_FORWARD
    JUMP_NO_INTERRUPT = JUMP_FORWARD

    def NOT_TAKEN(self, inst):  # 3.14: marks the fall-through of a conditional jump
        pass

    def jump_if(self, inst, when: bool):
        popped = self.pop()
        value = tested(popped)   # np.array_equal's bool: the graph's 0-d bool
        if while_loop_node(self, inst, value, when):   # a while loop's test on an array
            return
        if counted_while_node(self, inst, value, when):   # ``while k < n``, n a size
            return
        if chain_jump(self, inst, value):   # ``lo <= len(a) <= hi``: one graph bool
            return
        if self.size_and_or(inst, value):   # 3.12+: ``len(a) > 0 and len(b) > 0``
            return
        try:
            taken = value.truth(self) == when
        except Unsupported as e:   # a check stays in the graph where it can, an `if`
            truth = truth_or_select(self, inst, value,   # that chooses a value too
                                    reason_of(popped, e))
            if truth is SELECTED:   # (both ways traced: the trace is at their join)
                return
            taken = truth == when
        if taken:
            self.jump(inst)

    def size_and_or(self, jump, value) -> bool:
        """3.12+: the ``and``/``or`` of a size comparison ``value`` whose copy the
        conditional ``jump`` tests (``COPY 1; POP_JUMP_IF_FALSE; POP_TOP; <b>``): kept
        as the graph's bool where ``size_and_or.short_circuit`` can (the copy and the
        value are popped, the trace goes on after ``<b>``)."""
        if not isinstance(value, SizeTruthVariable) or not self.stack or \
                self.stack[-1] is not value:
            return False
        operand = copied_operand(self, jump)
        if operand is None:
            return False
        self.pop()
        if short_circuit(self, value, operand[0], jump.target, operand[1]):
            return True
        self.push(value)
        return False

    def POP_JUMP_IF_FALSE(self, inst):
        self.jump_if(inst, False)

    def POP_JUMP_IF_TRUE(self, inst):
        self.jump_if(inst, True)

    POP_JUMP_FORWARD_IF_FALSE = POP_JUMP_IF_FALSE      # 3.11
    POP_JUMP_BACKWARD_IF_FALSE = POP_JUMP_IF_FALSE
    POP_JUMP_FORWARD_IF_TRUE = POP_JUMP_IF_TRUE
    POP_JUMP_BACKWARD_IF_TRUE = POP_JUMP_IF_TRUE

    def jump_if_none(self, inst, when: bool):
        value = self.pop()
        if isinstance(value, DeferredNumberVariable) and value.may_be_none:
            # (None or a number, as the data says: BranchChoiceVariable)
            raise value.needed()
        # (a changing number is never None: its type says so, its value stays unpinned;
        # ``v = memo.get(k); if v is None:`` with a float memo)
        is_none = not (isinstance(value, ConstantVariable) and
                       isinstance(value.value, (SymInt, SymFloat))) and \
            value.is_constant() and value.as_python_constant() is None
        if is_none == when:
            self.jump(inst)

    def POP_JUMP_IF_NONE(self, inst):
        self.jump_if_none(inst, True)

    def POP_JUMP_IF_NOT_NONE(self, inst):
        self.jump_if_none(inst, False)

    POP_JUMP_FORWARD_IF_NONE = POP_JUMP_IF_NONE          # 3.11
    POP_JUMP_BACKWARD_IF_NONE = POP_JUMP_IF_NONE
    POP_JUMP_FORWARD_IF_NOT_NONE = POP_JUMP_IF_NOT_NONE
    POP_JUMP_BACKWARD_IF_NOT_NONE = POP_JUMP_IF_NOT_NONE

    def jump_or_pop(self, inst, when: bool):  # 3.11's ``and`` / ``or`` of a value
        try:
            taken = self.stack[-1].truth(self) == when
        except Unsupported:   # ``len(a) > 0 and len(b) > 0``: a bool of the graph
            left = self.pop()
            if chain_or_pop(self, inst, left):   # ``0 < len(a) < m`` as a value
                return
            if short_circuit(self, left, inst.index + 1, inst.target,
                             "or" if when else "and"):
                return
            self.push(left)
            raise
        if taken:
            self.jump(inst)
        else:
            self.pop()

    def JUMP_IF_FALSE_OR_POP(self, inst):  # 3.11
        self.jump_or_pop(inst, False)

    def JUMP_IF_TRUE_OR_POP(self, inst):  # 3.11
        self.jump_or_pop(inst, True)

    # ------------------------------------------------------------------ loops
    def GET_ITER(self, inst):
        try:
            iterable_needs_its_length(self.stack[-1])   # (range(u0): breaks here, before)
            it = self.get_iter(self.pop())
        except Unsupported as e:   # (a list built per trip: say what stays in the graph)
            if builds_list_per_trip(self.info.insts, inst.index):
                e.hint = f"{e.hint}; {PER_TRIP_HINT}"
            raise
        if self.output.loop_scope is not None:
            self.output.loop_scope.note_iterator(it)
        self.push(it)

    def FOR_ITER(self, inst):
        it: IteratorVariable = self.stack[-1]
        if not isinstance(it, IteratorVariable):
            raise untraced_iteration(it)
        if self.loop_node(inst, it):
            return
        self.check_unroll_budget(inst, it)
        item = take(self, it)
        if item is not None:
            self.push(item)
            return
        if pyversion.FOR_ITER_EXIT_POPS:
            self.pop()   # (3.14: POP_ITER pops it)
        self.jump(inst)
        self.ip += pyversion.FOR_ITER_EXIT_SKIP
