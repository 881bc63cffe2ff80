"""Whether the truth value of an array that a trace asks for is a loop's exit test
(``while err > tol:``, ``if done: break``), and why that loop is no ``while_loop``
node: the break's message of ``ArrayVariable.truth`` (:mod:`dynamo.variables.arrays`)
says so, with the loop shapes that run as one node.

Example::

    >>> # tracing ``while np.abs(x).max() > tol: ...``, at the POP_JUMP_IF of the test
    >>> _tests_loop_exit(tx)
    True
    >>> _why_no_loop_node(tx)     # the refused while_loop node's reason, or the loop
    ...                           # shape that is no node, or ""
"""

from __future__ import annotations

from ..bytecode.branch_chains import and_chain_step


def _tests_loop_exit(tx) -> bool:
    """Is the instruction being traced a conditional jump that decides whether a loop
    runs again (``while err > tol:``, ``if done: break``)? Inside a loop, one of its two
    ways leaves the loop at once (``_leaves``); in front of a loop (3.11-3.13 test a
    ``while`` condition there too), it jumps past the loop's end from a few
    instructions before its start."""
    inst = tx.current
    if inst is not None and inst.target is None and inst.index + 1 < len(tx.info.insts):
        # the truth was asked by the instruction that makes the bool (a COMPARE_OP with
        # its cast, TO_BOOL): the conditional jump right after it uses it
        after = tx.info.insts[inst.index + 1]
        inst = after if after.name.startswith("POP_JUMP_IF") else None
    if inst is None or inst.target is None:
        return False
    if hasattr(tx, "loop_plan") and tx.loop_plan(inst) is not None:
        return True   # (a refused while_loop node's test: ``or``'s goes on into the loop)
    loops = [r for r in tx.info.regions if r.kind == "loop"]
    for region in loops:
        if any(q.start == region.start and q.end > region.end for q in loops):
            # a jump back to the head of a loop that goes on past it is a `continue`
            # (a comprehension's filter, `if p > 0`), not a loop of its own
            continue
        if inst.index in region:
            if _leaves(tx.info.insts, inst.target, region, inst.index + 1) != \
                    _leaves(tx.info.insts, inst.index + 1, region, inst.target):
                return True
        elif 0 < region.start - inst.index <= _FRONT_TEST and inst.target > region.end:
            return True
    return False


_FRONT_TEST = 8   # instructions of a while condition in front of its loop (a and b)


def _why_no_loop_node(tx) -> str:
    """The reason an attempt at a ``while_loop`` node for the loop whose test ``tx`` is
    at was refused (its break point, ``translator/while_loops.py``), or "" where none was
    made: the break's message names the shape that stays a break."""
    inst = tx.current
    if inst is not None and inst.target is None and inst.index + 1 < len(tx.info.insts):
        inst = tx.info.insts[inst.index + 1]   # (the truth asked just before the jump)
    point = tx.loop_plan(inst) if inst is not None and hasattr(tx, "loop_plan") else None
    if point is None:     # (no attempt: a ``for ... break`` shape that is none)
        return tx.loop_shape_name(inst) if hasattr(tx, "loop_shape_name") else ""
    return point.reason.reason.removeprefix("loop node: ").removeprefix("while loop: ")


def _leaves(insts, start: int, region, other: int) -> bool:
    """Does running from instruction ``start`` (one way of a test whose other way
    starts at ``other``) leave ``region`` at once: it is outside, or a jump out or a
    return, after straight code (``found = i; val = s[i]; print(i); break``, no
    ``raise``: a check; the rest of an ``and`` chain, ``branch_chains``) and popping
    the loop's iterator (``break``; 3.14 pops it with ``POP_ITER`` after the branch's
    ``NOT_TAKEN``)?"""
    i = start
    for _ in range(_STRAIGHT):
        if i >= len(insts) or i not in region:
            return i < len(insts)
        inst = insts[i]
        if inst.target is None and not inst.name.startswith(("RETURN", "RAISE", "RERAISE")):
            i += 1
            continue
        on = and_chain_step(insts, i, other)
        if on is not None:
            i = on
            continue
        return inst.name.startswith("RETURN") or \
            (inst.name.startswith("JUMP") and inst.target is not None and
             inst.target not in region)
    return False


_STRAIGHT = 64   # instructions of a break branch's code (a few statements)
