"""``and`` chains in the bytecode of a loop's test, for the messages of its break.

``if x[t - 1] < level and x[t] >= level: t_cross = t; break`` is two conditional
jumps: where the first test fails, the loop goes on; where it holds, the second test
runs, and where that one fails the loop goes on the same way. Whether the *first*
jump decides the loop's exit is then read through the second: one of its ways goes
where the first test's other way goes (``and_chain_step``), and its remaining way is
the ``break`` branch. (3.11 jumps both to one ``JUMP_BACKWARD``; 3.14 puts a
``NOT_TAKEN; JUMP_BACKWARD`` after each, to the same loop head: ``destination``.)

Example (3.11)::

    92  POP_JUMP_FORWARD_IF_FALSE  to 126     # x[t - 1] < level
    94  ... x[t] >= level
    116 POP_JUMP_FORWARD_IF_FALSE  to 126     # and_chain_step(insts, 116, 126) -> 118
    118 LOAD_FAST t; STORE_FAST t_cross; POP_TOP; JUMP_FORWARD (the break)
    126 JUMP_BACKWARD to 60
"""

from __future__ import annotations

_PASSING = ("NOP", "NOT_TAKEN")
_JUMPS = ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP", "JUMP_NO_INTERRUPT",
          "JUMP_BACKWARD_NO_INTERRUPT")


def destination(insts, i: int) -> int:
    """Where running from instruction ``i`` gets to past instructions that do nothing
    and unconditional jumps (a few of them)."""
    for _ in range(8):
        if i >= len(insts):
            break
        inst = insts[i]
        if inst.name in _PASSING:
            i += 1
        elif inst.name in _JUMPS and inst.target is not None:
            i = inst.target
        else:
            break
    return i


def and_chain_step(insts, at: int, other: int) -> int | None:
    """Where the conditional jump at ``at``, met on one way of a test whose other way
    starts at ``other``, goes on where it is part of an ``and`` chain: one of its ways
    goes where ``other`` goes, and the other, forward, is the way on. None for any
    other instruction or jump.

    >>> # 3.11 (above): and_chain_step(insts, 116, 126) -> 118
    """
    inst = insts[at]
    if not inst.name.startswith("POP_JUMP") or inst.target is None:
        return None
    goal = destination(insts, other)
    if destination(insts, inst.target) == goal:
        return at + 1
    if destination(insts, at + 1) == goal and inst.target > at:
        return inst.target
    return None
