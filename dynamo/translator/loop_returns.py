"""A loop exit on data with code of its own: ``for ...: A; if <test>: return E; B``
then ``return T`` after the loop, ``if <test>: E; break``, or a ``for ... else: T``, as
one ``while_loop`` node and the exit's code chosen after it (issue #19).

::

    for i in range(max_iter):
        x_new = 0.5 * (x + a / x)                      # A
        if np.max(np.abs(x_new - x)) < tol:            # the exit's test
            return x_new, i + 1                        # E: the exit's code
        x = x_new                                      # B
    return x, max_iter                                 # T: the loop's normal end

Python leaves such a loop one of two ways, the same two as a ``break``'s
(``loop_exits``): at the test, with the state after ``A``, or where the range runs
out, with the state after the last ``B``. So the loop is the ``break``'s node (the
test carried out of it as ``exit_test``, ``B``'s node of at most one trip where the
range ran out), and after it the exit is "leave the node with a flag, then run the
exit's code once": both ``E`` (from the ``break``'s branch, the iterator still on the
stack: its ``POP_TOP`` is ``E``'s) and ``T`` (from the code after the loop's cleanup)
are traced on the state after the nodes, and the last test chooses
(``branch_selects``' join: an array of each way is a ``branch_select``, which returns
the taken way's array itself; a Python int of each, ``i + 1`` with ``i`` the trip
index and ``max_iter``, is an unbacked number, so the glue returns eager's ``int``;
tuples item by item): the value the frame returns where both return, else each local
where the ways meet after the loop (``E; break``: ``T`` is empty; ``for ... else``:
``T`` is the ``else`` block). The last test says which way Python went: the node ends
where it says "leave" or where no item is left, and in the second case it says "go
on" (NaN too: ``nan < tol`` is False). ``B``'s node's results are seen only on
``T``'s way (on ``E``'s it ran no trip), so only ``T``'s reads count for it
(``WhileScope.finish``: ``x = x_new`` is a shift though ``E`` returns ``x_new``).

The same for ``while it < maxit: A; if <test>: return E; B; it += 1`` (the ``while``
counter shape, ``loop_exits.while_exit_code``: no iterator to pop). Where the ways
leave the two Python bools (``converged = True; break``) the value is the last
test's truth, a bool the glue makes (``exit_flags``); a ``print`` in a way (with
``config.defer_prints``) is replayed on the way taken only (``exit_prints``).

Exact where each way is straight code (``exit_code_at``) that only computes
(``branch_selects._check_nodes``: no write, draw, print, loop or warning; the
untaken way's ops run too, under the graph's floating-point guard, which reruns the
frame in Python where one of them reports a condition). A write, a draw or a warning
after the ways meet starts the trace over with the loop refused (``_unrolled``).
Anything else: the node is refused, and the loop breaks at its test, as before.

Example::

    >>> dynamo.explain(newton_sqrt)(np.linspace(0.5, 9, 7)).graph_break_count
    0
"""

from __future__ import annotations

import re

from .. import ops, pyversion
from ..exc import RestartAnalysis, Unsupported
from ..raising import errstate_reports, rerun_on_raise
from ..variables import ArrayVariable
from ..variables.sequences import TupleVariable
from .branch_selects import (
    NotASelect,
    _check_nodes,
    _join,
    _one_value,
    _trace_way,
)
from .exit_prints import ExitState, only_on_ways
from .loop_exits import code_tail
from .loop_facts import NotALoopNode
from .loop_shape_names import unsupported_for_break
from .raising_checks import _flag

_SYMBOLIC = re.compile(r"(constant )?SymInt\([^)]*\)")
# the instructions that end a ``for`` loop's iterator after its ``FOR_ITER``'s exit
_CLEANUP = ("END_FOR", "POP_TOP", "POP_ITER")
_JUMPS = ("JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT")
# the instructions the code before a ``break`` may have, at most (it is traced on
# every call, for both ways; ``branch_selects._check_nodes`` bounds what it computes)
_MAX_EXIT = 200


def loop_end(insts, for_iter) -> int:
    """The first instruction run after the ``for`` loop ``for_iter`` runs out of items,
    with the iterator already gone (3.12+'s ``END_FOR``/``POP_TOP``/``POP_ITER``
    skipped: ``pyversion.FOR_ITER_EXIT_SKIP``)."""
    end = for_iter.target + pyversion.FOR_ITER_EXIT_SKIP
    if not pyversion.FOR_ITER_EXIT_POPS and insts[end].name == "POP_ITER":
        end += 1
    return end


def exit_code_at(insts, brk: int, for_iter) -> tuple[int, int | None] | None:
    """``(end, join)`` where the ``break`` branch at ``brk`` of the ``for`` loop
    ``for_iter`` runs code of its own (``E``) that pops the iterator on its way, and
    the code after the loop's normal end (``T``, from ``end``) is straight code too:
    ``E`` and ``T`` straight code to a ``return`` each (``join`` None); or ``E`` straight
    code, then the iterator's ``POP_TOP`` and a jump forward to ``join``, where ``T``,
    from ``end`` up to ``join``, has no jump (``if converged: beta = new; break``:
    ``T`` is empty; ``for ... else``: ``T`` is the ``else`` block). None for other code
    (a plain ``break``: ``while_shapes._breaks_to_end``).

    >>> # 3.11: 200 LOAD_FAST x_new ... BUILD_TUPLE; SWAP 2; POP_TOP; RETURN_VALUE
    >>> #       224 LOAD_FAST x; LOAD_FAST max_iter; BUILD_TUPLE; RETURN_VALUE
    >>> exit_code_at(insts, index of 200, for_iter) -> (index of 224, None)
    """
    end = loop_end(insts, for_iter)
    if end >= len(insts) or \
            any(insts[i].name not in _CLEANUP for i in range(for_iter.target, end)):
        return None
    exit_code = code_tail(insts, brk)
    if exit_code is not None:
        popped = any(name == "POP_TOP" for name, _ in exit_code)
        return (end, None) if popped and code_tail(insts, end) is not None else None
    for i in range(brk, min(len(insts) - 1, brk + _MAX_EXIT)):
        inst, nxt = insts[i], insts[i + 1]
        if inst.name == "POP_TOP" and nxt.name in _JUMPS and nxt.target is not None \
                and nxt.target >= end and (nxt.target > end or i > brk):
            if _straight(insts[end:nxt.target]):
                return end, nxt.target
            # (3.11's ``for ... else: return a`` then ``return b``: both return)
            if code_tail(insts, end) is not None and code_tail(insts, nxt.target):
                return end, None
            return None
        if inst.target is not None or inst.name.startswith(("RETURN", "RAISE", "RERAISE")):
            return None
    return None


def _straight(insts) -> bool:
    """No jump, ``return`` or ``raise`` among ``insts``, at most ``_MAX_EXIT``."""
    return len(insts) <= _MAX_EXIT and not any(
        i.target is not None or i.name.startswith(("RETURN", "RAISE", "RERAISE"))
        for i in insts)


def run_exit_code(tx, scope, loop) -> int:
    """After the ``break``'s node ``loop`` of ``scope`` (``WhileScope.finish``): trace
    ``E`` from ``scope.after`` and ``T`` from ``scope.ends`` on the state after the
    node, and make the frame's result (``scope.join`` None: ``tx.done`` after), or its
    locals at ``scope.join`` (``E`` then a ``break``; ``T`` the ``else`` block or no
    code), the ones the last test chooses (module docstring). Returns where the trace
    goes on.
    ``NotALoopNode`` where the two cannot be joined."""
    out = tx.output
    if not tx.config.branch_selects or out.writes.warns or out.writes.ops_in_try or \
            not rerun_on_raise(out, loops=True) or errstate_reports(out.graph):
        raise NotALoopNode("the loop runs code at its exit, and its graph cannot run "
                           "the untaken way's code too")
    test = out.graph.call("getitem", (loop, len(scope.slots)), meta={
        "array": scope.cond_meta, **out.current_loc, "kind": ops.get("getitem").kind})
    flag = _flag(ArrayVariable(test, scope.cond_meta))
    if flag is None:
        raise NotALoopNode("the loop's exit test is no number or bool")
    before = set(out.graph.nodes)
    # (``ExitState``: a way may print, on the way taken only: ``exit_prints``)
    with_iterator = without = ExitState.of(tx)
    if scope.for_iter is not None:   # (a ``while`` loop's exit has no iterator to pop)
        iterator = tx.stack.pop()
        without = ExitState.of(tx)
        tx.stack.append(iterator)
    join = scope.join
    error = Unsupported("the value a loop with code at its exit leaves")
    # (both ways' ops run when the graph runs: a later write, draw or warning, which a
    # rerun of the frame could not undo, starts the trace over to break at the test,
    # as after a select, ``branch_selects``)
    restart = _unrolled(tx, scope.inst)
    try:
        exits = _trace_way(tx, with_iterator, scope.after, join)
        # (where each way's prints start and end: ``with_iterator`` may be ``without``)
        first, printed = with_iterator.printed, len(out.side_effects.prints)
        ends = _trace_way(tx, without, scope.ends, join)
        _check_nodes(tx, before)
        # (the loop goes on where the test's truth is ``scope.keep``: the exit's way
        # is the other truth)
        if_true, if_false = (ends, exits) if scope.keep else (exits, ends)
        only_on_ways(tx, flag, [(not scope.keep, first, printed),
                                (scope.keep, printed, len(out.side_effects.prints))],
                     before)
        if join is not None:
            _join(tx, without, flag, if_true, if_false, join, before, error, bools=True)
        else:
            without.restore(tx)
            # (``bools``: ``converged = True`` one way, ``False`` the other: ``exit_flags``)
            tx.result = _joined(tx, flag, if_true.result, if_false.result,
                                {"error": error, "bools": True}, before)
    except NotASelect as e:
        # (the shape's name first: the break's hint is that shape's rewrite)
        shape = unsupported_for_break(tx, scope.inst) or "the loop runs code at its exit"
        # (a trip index is ``SymInt(4099, u0)`` to ``describe``: no name for a user)
        why = _SYMBOLIC.sub("an int the data decides", str(e))
        raise NotALoopNode(f"{shape}; and {why}") from None
    out.writes.checks.append(restart)
    if join is not None:
        return join
    tx.done = True
    return scope.after


def _unrolled(tx, inst):
    """The restart (``WriteGuard.checks``) that makes the next trace leave the loop at
    ``inst`` no node: it breaks at its test, as before."""
    def restart() -> RestartAnalysis:
        try:
            tx.refuse_loop_node(inst, "the code after the loop writes, draws or warns "
                                      "after its exit's code ran on both ways")
        except RestartAnalysis as e:
            return e
        raise AssertionError("refuse_loop_node starts the trace over")
    return restart


def _joined(tx, flag, a, b, merged: dict, before: set):
    """One value of the two ways' results: tuples item by item (``return x, it``), the
    rest as ``branch_selects`` joins them."""
    if isinstance(a, TupleVariable) and type(a) is type(b) and \
            len(a.items) == len(b.items) and a is not b:
        return TupleVariable([_joined(tx, flag, x, y, merged, before)
                              for x, y in zip(a.items, b.items)])
    return _one_value(tx, flag, a, b, merged, before)
