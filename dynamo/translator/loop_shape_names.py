"""The name of a ``for ... break`` shape that is no ``while_loop`` node, for the
message of the graph break at its test (issue #19: a break says what to change).

``while_loops.for_break_shape`` makes a node of ``for _ in range(n): ...; if <test>:
break`` only where nothing reads the loop variable in the loop and the ``break`` runs
what the loop's normal end runs. Two everyday shapes fail that, and the break's
message names them:

* an index-reading search: ``for i in range(n): if a[i] > thr: break`` (the body
  reads ``i``: each trip's value would be a value of the body graph);
* ``for ... else``: the loop's normal end runs the ``else`` block, which the
  ``break`` skips (what runs after the loop would depend on how it ended).

Example::

    for i in range(a.shape[0]):       # -> "the loop variable 'i' is read in the
        if a[i] > thr:                #     body (an index-reading search: ...)"
            break
    return i
"""

from __future__ import annotations

from .loop_exits import code_tail, names

_READS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_AND_CLEAR",
          "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW",
          "STORE_FAST_LOAD_FAST", "LOAD_CLOSURE", "LOAD_DEREF")
_POPS = ("POP_TOP", "POP_ITER")
_CLEANUP = ("END_FOR", "POP_TOP", "POP_ITER")


def unsupported_for_break(tx, inst) -> str:
    """Why the conditional jump ``inst`` of ``tx``, an ``if <test>: break`` in a
    ``for`` loop, is no ``while_loop`` node, where the shape is one of the two above;
    "" for any other jump (``code_tail``: the code after the loop up to a ``return``,
    which 3.12+ copy to the ``break``). The translator's
    ``loop_shape_name``, so that the break's message (``variables/arrays.py``) asks it
    through ``tx``."""
    insts = tx.info.insts
    if inst is None or inst.target is None or inst.target <= inst.index:
        return ""
    loops = [i for i in insts[:inst.index] if i.name == "FOR_ITER" and
             i.target is not None and i.target > inst.index]
    if not loops:
        return ""
    for_iter = loops[-1]
    fall = inst.index + 1
    while insts[fall].name == "NOT_TAKEN":
        fall += 1
    # (a ``break``: pop the iterator, then leave the loop: a jump past its end, or
    # 3.12+'s copy of the code after it up to a ``return``)
    breaks = [b for b in (inst.target, fall) if insts[b].name in _POPS and (
        insts[b + 1].target is not None and insts[b + 1].target >= for_iter.target or
        code_tail(insts, b + 1) is not None)]
    if not breaks:
        return ""
    store = insts[for_iter.index + 1]
    # (the body up to the test: 3.12+ copy the code after the loop, which may read
    # the variable, to the ``break``)
    if store.name == "STORE_FAST" and any(
            i.name in _READS and store.arg in names(i.arg)
            for i in insts[for_iter.index + 2:inst.index]):
        return (f"the loop variable {store.arg!r} is read in the body (an index-reading "
                "search: for i in range(n): if a[i] > thr: break); only loops that do "
                "not read it are nodes")
    end = for_iter.target
    while end < len(insts) and insts[end].name in _CLEANUP:
        end += 1
    after = insts[breaks[0] + 1]
    if not (after.name in ("JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT") and
            after.target == end or code_tail(insts, breaks[0] + 1) == code_tail(insts, end)
            is not None):
        return ("a for ... else (the else block runs where the range runs out, "
                "which the break skips: what runs after the loop depends on how it "
                "ended, which only the data decides)")
    return ""
