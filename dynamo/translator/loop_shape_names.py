"""The name of a ``for ... break`` shape that is no ``while_loop`` node, for the
message of the graph break at its test (issue #19: a break says what to change).

``while_loops.for_break_shape`` makes a node of ``for _ in range(n): ...; if <test>:
break`` only where nothing reads the loop variable in the loop and the ``break`` runs
what the loop's normal end runs, and the ``break`` is alone in its branch. Five
everyday shapes fail that, and the break's message names them:

* an index-reading search: ``for i in range(n): if a[i] > thr: break`` (the body
  reads ``i``: each trip's value would be a value of the body graph);
* ``for ... else``: the loop's normal end runs the ``else`` block, which the
  ``break`` skips (what runs after the loop would depend on how it ended);
* a ``break`` branch that assigns locals first (``if c: converged = True; break``):
  after the loop such a local holds the branch's value where the loop broke and its
  value from before where the range ran out, a Python value only the data decides;
* a ``break`` branch that runs other code first (``print(...)``, ``val = s[i]``);
* a ``return`` inside the loop (``for i, v in enumerate(x): if v > thr: return i``):
  where the function ends only the data decides (named apart from ``for ... else``,
  whose shape it shares in the bytecode: a way out that skips the loop's normal end).

The test may be an ``and`` chain (``if x[t - 1] < c and x[t] >= c: ...; break``,
``bytecode.branch_chains``). Each shape has a hint (``shape_hint``) with the rewrite
that keeps the loop in the graph: the search as ``np.argmax`` of the test, the flag
computed from the state after the loop, the branch's code moved after the loop.

Example::

    for i in range(a.shape[0]):       # -> "the loop variable 'i' is read in the
        if a[i] > thr:                #     body (an index-reading search: ...)"
            break
    return i
"""

from __future__ import annotations

from ..bytecode.branch_chains import and_chain_step
from .loop_exits import code_tail, names, stored_in
from .while_counters import while_shape_hint

_READS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_AND_CLEAR",
          "LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW",
          "STORE_FAST_LOAD_FAST", "LOAD_CLOSURE", "LOAD_DEREF")
_POPS = ("POP_TOP", "POP_ITER")
_CLEANUP = ("END_FOR", "POP_TOP", "POP_ITER")
# what a plain ``break`` branch does before it pops the iterator (``found = i``, ``a, b
# = i, x``): loads of locals and constants, stores of locals
_ON_THE_WAY_OUT = frozenset({
    "NOP", "NOT_TAKEN", "SWAP", "LOAD_CONST", "LOAD_SMALL_INT", "LOAD_FAST",
    "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_LOAD_FAST",
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW", "STORE_FAST", "STORE_FAST_STORE_FAST",
    "STORE_FAST_LOAD_FAST"})
_JUMPS = ("JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT", "JUMP_BACKWARD")
_ENDS = ("RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE")
_SEARCH = "the loop variable "
_RUNS = "the break branch runs code "
_ASSIGNS = "the break branch assigns "
_ELSE = "a for ... else "
_RETURNS = "the loop returns from inside "


def unsupported_for_break(tx, inst) -> str:
    """Why the conditional jump ``inst`` of ``tx``, an ``if <test>: break`` in a
    ``for`` loop, is no ``while_loop`` node, where the shape is one of those above;
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
    # 3.12+'s copy of the code after it up to a ``return``, which starts with no pop:
    # a pop before the iterator's is an expression statement's, ``print(i)``)
    def leaves(at: int) -> bool:
        return insts[at].target is not None and insts[at].target >= for_iter.target \
            and insts[at].name in _JUMPS or insts[at].name not in _POPS and \
            code_tail(insts, at) is not None

    breaks = [found for found in (_break_pop(insts, inst.target, leaves, fall),
                                  _break_pop(insts, fall, leaves, inst.target)) if found]
    if not breaks:
        return ""
    (brk, pop, plain), store = breaks[0], insts[for_iter.index + 1]
    # (the body up to the test, and the rest of an ``and`` chain up to the branch:
    # 3.12+ copy the code after the loop, which may read the variable, to the
    # ``break``)
    if store.name == "STORE_FAST" and any(
            i.name in _READS and store.arg in names(i.arg)
            for i in insts[for_iter.index + 2:max(inst.index, brk)]):
        return (f"{_SEARCH}{store.arg!r} is read in the body (an index-reading "
                "search: for i in range(n): if a[i] > thr: break); only loops that do "
                "not read it are nodes")
    end = for_iter.target
    while end < len(insts) and insts[end].name in _CLEANUP:
        end += 1
    after = insts[pop + 1]
    if not (after.name in ("JUMP_FORWARD", "JUMP", "JUMP_NO_INTERRUPT") and
            after.target == end or code_tail(insts, pop + 1) == code_tail(insts, end)
            is not None):
        line = _early_return_line(insts, pop + 1, end)
        if line is not None:
            return (f"{_RETURNS}(return at line {line}): where the function ends, "
                    "inside the loop or after it, only the data decides")
        return (_ELSE + "(the else block runs where the range runs out, "
                "which the break skips: what runs after the loop depends on how it "
                "ended, which only the data decides)")
    assigned = ", ".join(map(repr, sorted(stored_in(insts, brk, pop))))
    if not plain:
        return (_RUNS + "before it leaves the loop" + (f" (and assigns {assigned})"
                                                        if assigned else "") +
                ": code that runs only where the loop broke, which only the data decides")
    if assigned:
        return (_ASSIGNS + assigned + " before it leaves the "
                "loop (after the loop the value it gives where the loop broke, the "
                "value from before where the range ran out: a Python value only the "
                "data decides)")
    return ""


def _early_return_line(insts, start: int, end: int) -> int | None:
    """The line of the ``return`` statement that the way out at ``start`` is, where it
    is one written inside the loop (``for i, v in enumerate(x): if v > thr: return
    i``); None where it is no ``return`` or one the compiler copied from after the loop
    (3.12+ copy the code after the loop up to its ``return`` to a ``break``: those
    instructions carry the lines after the loop, ``end``'s or later)."""
    tail, after = code_tail(insts, start), insts[end].lineno if end < len(insts) else None
    if tail is None or after is None:
        return None
    ret = next(i for i in insts[start:] if i.name in _ENDS)
    line = ret.lineno if ret.lineno is not None else insts[start].lineno
    return line if line is not None and line < after else None


def _break_pop(insts, start: int, leaves, other: int) -> tuple[int, int, bool] | None:
    """``(branch, pop, plain)`` where a ``break`` branch from ``start`` (one way of a
    test whose other way starts at ``other``; the rest of an ``and`` chain first:
    ``branch_chains``, the branch's own code from ``branch``) runs straight code (no
    jump, no ``return`` or ``raise``) up to the iterator's pop at ``pop``, after which
    it leaves the loop (``leaves(pop + 1)``); ``plain``: that code only assigns locals
    from locals and constants (``found = i``). None for other code.

    >>> # 3.11: 90 LOAD_FAST i; 92 STORE_FAST found; 94 POP_TOP; 96 JUMP_FORWARD
    >>> # _break_pop(insts, index of 90, leaves, other) -> (90, index of 94, True)
    """
    plain, branch, j = True, start, start
    for _ in range(64):
        if j + 1 >= len(insts):
            return None
        inst = insts[j]
        if inst.name in _POPS and leaves(j + 1):
            return branch, j, plain
        on = and_chain_step(insts, j, other) if inst.target is not None else None
        if on is not None:
            plain, branch, j = True, on, on
            continue
        if inst.target is not None or inst.name in _ENDS:
            return None
        plain = plain and inst.name in _ON_THE_WAY_OUT
        j += 1
    return None


def shape_hint(why: str) -> str:
    """The rewrite that keeps a ``for ... break`` of the shape ``why`` (a reason of
    ``unsupported_for_break``) in the graph; "" for other reasons.

    >>> shape_hint("the break branch assigns 'converged' before ...")[:24]
    'set the value after the '
    """
    if why.startswith(_SEARCH) and "index-reading search" in why:
        return ("a first-match search needs no loop: with c = a > thr (a not empty: "
                "np.argmax of nothing raises), found = np.where(c.any(), np.argmax(c), "
                "-1) stays in the graph (a 0-d array; int(found) where Python needs an "
                "int); else accept the graph break (the loop runs as Python)")
    if why.startswith(_ASSIGNS):
        return ("set the value after the loop from the loop's state (converged = "
                "err < tol, a 0-d array), not in the break branch: then the loop is one "
                "while_loop node (docs/loops.md); else accept the graph break")
    if why.startswith(_RUNS):
        return ("move that code after the loop, computed there from the loop's state, "
                "so that the break is alone in its branch: then the loop is one "
                "while_loop node (docs/loops.md; a print or a test on data moved after "
                "it still breaks there, once); else accept the graph break")
    if why.startswith(_RETURNS):
        return ("let the loop run on and choose the result after it: a first-match "
                "search needs no loop (c = x > thr; i = np.where(c.any(), np.argmax(c), "
                "-1), a 0-d array), and a convergence loop may end with `done = err < "
                "tol; x = new; if done: break` and return after the loop (one "
                "while_loop node, docs/loops.md); else accept the graph break (the "
                "loop runs as Python)")
    if why.startswith(_ELSE):
        return ("drop the else block and compute what it decides after the loop from "
                "the loop's state (docs/loops.md); else accept the graph break")
    # (a ``while`` loop's counter read in the body, a float carried: ``while_counters``)
    return while_shape_hint(why)
