"""Which loops can be outlined, and how (``outline.py``): the plan of a loop whose
body becomes a function of its own.

``loop_plan`` reads the loop's bytecode: where its body is (for a ``for`` loop, what
control reaches from the body's first instruction without leaving the loop, with the
handlers of its try/with blocks; for a ``while`` loop, what lies between its test and
its jump back), its ways out (``Exit``: back to the loop's control, past the loop, a
``return``), which locals cross the call (read, moved, fresh), and where the frame goes
on after the loop. It says why not where the loop does not fit. See docs/loops.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import logs, pyversion
from .instructions import CodeInfo, code_name, loads_super

log_loops = logs.get("loops")

_JUMPS = ("JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_FORWARD", "JUMP",
          "JUMP_NO_INTERRUPT", "JUMP_ABSOLUTE")
_RETURNS = ("RETURN_VALUE", "RETURN_CONST")
_RAISES = ("RAISE_VARARGS", "RERAISE")
# builtins that see the calling frame's locals
_SEES_THE_FRAME = frozenset({"locals", "vars", "dir", "eval", "exec"})


@dataclass
class Exit:
    """A way out of the body: ``kind`` is "next" (back to the loop's control, at
    ``target``: a ``for`` loop's FOR_ITER, a ``while`` loop's test or its body's
    start), "break" (a jump past the loop to ``target``) or "return"; ``tag`` its
    number in the frame's dispatch (None: the common way round, tested first)."""

    index: int
    kind: str
    target: int | None = None
    tag: int | None = None
    label_at: int | None = None     # a for loop's "break": the jump whose label is the target
    keeps_iterator: bool = False    # the iterator is still on the stack at the exit
    falls: bool = False             # a while body's last instruction, falling into the test
    const: object = None            # a RETURN_CONST's constant (3.12, 3.13)
    returns_const: bool = False


@dataclass
class LoopPlan:
    """How the loop whose island starts at ``start`` is outlined."""

    kind: str                        # "for" or "while"
    start: int                       # where the island enters the loop
    entry: int                       # the body's first instruction
    end: int                         # the body's last instruction
    reads: tuple[str, ...]           # locals passed to the body function as copies
    moved: tuple[str, ...]           # locals the body stores: moved in, handed back
    fresh: tuple[str, ...] = ()      # moved locals that may be unbound at the start
    below: int = 0                   # values on the stack under the loop (an outer
    #                                  loop's iterator, in the body of that loop)
    exits: list[Exit] = field(default_factory=list)
    # where the frame goes on after the loop (its normal end, the targets of `break`),
    # each with whether it calls a resume function there (else the rest runs uncompiled)
    after: dict[int, bool] = field(default_factory=dict)
    hull: tuple[int, int] = (0, 0)   # the loop's instructions (first, last)
    # the body's instructions: ``entry..end``, and on 3.12+ the handlers of its
    # try/with blocks that the compiler put after the function's end (see ``_for_body``)
    body: frozenset[int] = frozenset()

    def tags(self) -> list[Exit]:
        """One exit per tag other than None, in tag order."""
        seen: dict[int, Exit] = {}
        for e in self.exits:
            if e.tag is not None:
                seen.setdefault(e.tag, e)
        return [seen[t] for t in sorted(seen)]


def loop_plan(code, start: int, bound: set[str], stack_below: int) -> LoopPlan | str:
    """The plan for outlining the loop whose island starts at instruction ``start``
    (a ``for`` loop's ``GET_ITER``, or the start of a ``while`` loop), or the reason it
    cannot be outlined.

    ``bound`` are the locals bound when the loop starts (from the trace),
    ``stack_below`` the number of stack items under the iterable (or on the stack at
    a while loop's start)."""
    info = CodeInfo.of(code)
    insts = info.insts
    if insts[start].name == "GET_ITER":
        plan = _for_plan(info, start, stack_below)
        if not isinstance(plan, str):
            plan.below = stack_below
    else:
        plan = _while_plan(info, start, stack_below)
    if isinstance(plan, str):
        return plan
    first, last = plan.hull
    body = plan.body
    why = _blocks_misfit(info, plan)
    if why is not None:
        return why
    everything = sorted(set(range(first, last + 1)) | body)
    scratch = _handler_names(insts, everything)
    for i in everything:
        inst = insts[i]
        if inst.name.startswith(("DELETE_FAST", "YIELD", "SEND", "GET_AWAITABLE")) and \
                not (inst.name == "DELETE_FAST" and inst.arg in scratch):
            return f"the loop has {inst.name}"
        if i in body and inst.name == "LOAD_GLOBAL" and \
                _global_name(inst.arg) in _SEES_THE_FRAME:
            # the body function's frame holds only the locals that cross the call
            return f"the loop body calls {_global_name(inst.arg)}()"
    if any(i.target is not None and i.target in body and i.target != plan.entry and
           i.index not in body for i in insts):
        return "code outside the loop's body jumps into it"
    # a while loop's test may bind locals first (`while (v := f()) > 0:`)
    bound = bound | _stored_first(insts, plan.start, plan.entry)
    cells = _cell_names(code)
    live = info.live_at(plan.entry)
    # an `except ... as e` name is the body function's own: the body never reads it
    # before it binds it, and its handler unbinds it again
    held = sorted(n for n in scratch if n in bound or n in live)
    if held:
        return f"the body's `except ... as {held[0]}` unbinds a local read outside it"
    stored = _stored(insts, body) - cells - scratch
    # (a local the body does not read may be live for the code after the loop, which
    # reads it in the frame, as plain Python would)
    missing = sorted(n for n in live & _read(insts, body, info.super_self)
                     if n not in bound and n not in cells)
    if missing:
        return f"the body may read {missing[0]!r}, unbound before the loop"
    plan.moved = tuple(sorted(stored))
    plan.fresh = tuple(n for n in plan.moved if n not in bound)
    plan.reads = tuple(sorted(n for n in live & _read(insts, body, info.super_self)
                              if n not in stored and n not in cells))
    _number(plan)
    plan.after = _after_points(code, info, plan, bound)
    return plan


def _handler_names(insts, indices) -> set[str]:
    """The locals that the instructions at ``indices`` bind only as the name of an
    ``except ... as name`` clause: bound where the handler matched, and unbound
    (``name = None; del name``) wherever the handler ends."""
    def binds_the_exception(i: int) -> bool:
        return any(insts[j].name == "CHECK_EXC_MATCH" for j in range(max(i - 3, 0), i))

    def cleans_up(i: int) -> bool:   # the `name = None` of `name = None; del name`
        return i + 1 < len(insts) and insts[i + 1].name == "DELETE_FAST" and \
            insts[i + 1].arg == insts[i].arg and insts[i - 1].name == "LOAD_CONST" and \
            insts[i - 1].arg is None

    deleted = {insts[i].arg for i in indices if insts[i].name == "DELETE_FAST"}
    out = set()
    for name in deleted:
        stores = [i for i in indices if insts[i].name.startswith("STORE_FAST") and
                  name in _names(insts[i])]
        deletes = [i for i in indices if insts[i].name == "DELETE_FAST" and
                   insts[i].arg == name]
        if all(insts[i].name == "STORE_FAST" and (binds_the_exception(i) or cleans_up(i))
               for i in stores) and all(cleans_up(i - 1) for i in deletes):
            out.add(name)
    return out


def _blocks_misfit(info, plan: LoopPlan) -> str | None:
    """Why the ``try``/``with`` blocks that overlap the loop do not fit in its body
    function (None: they fit).

    A block wholly inside the body (its range and its handler) stays in the body
    function's copy of the code, so an exception the block catches is caught there,
    as in plain Python, and one it does not catch leaves the body function and the
    frame (the loop is the outermost construct). The exits stay outside the blocks
    (where CPython puts them: after the block's cleanup), so no return of ``(tag,
    values)`` is under a handler. An inlined comprehension (3.12+) is a block too: its
    variable's slot is saved on the stack and put back, never a plain local that the
    body could move in and hand back."""
    first, last = plan.hull
    body = plan.body
    exits = [e.index for e in plan.exits]
    for start, end, target in info.handlers:
        covered = range(start, end + 1)
        if (last < start or end < first) and not any(i in body for i in covered):
            continue
        if not all(i in body for i in covered) or target not in body:
            return "a try, with or comprehension block reaches out of the loop's body"
        if any(start <= i <= end for i in exits):
            return "the body leaves the loop inside a try or with block"
    if any(info.insts[i].name == "LOAD_FAST_AND_CLEAR" for i in set(range(first, last + 1)) | body):
        return "the loop has an inlined comprehension"
    return None


def _for_plan(info, get_iter: int, below: int) -> LoopPlan | str:
    """The body and exits of the ``for`` loop whose ``GET_ITER`` is at ``get_iter``, with
    ``below`` values under the iterable on the stack."""
    insts = info.insts
    fi = get_iter + 1
    if fi >= len(insts) or insts[fi].name != "FOR_ITER":
        return "not a for loop"
    hull = info.outermost_region(fi)
    loops = [r for r in info.regions if r.kind == "loop" and r.start == fi]
    if hull is None or not loops or hull.start != fi:
        return "the loop is inside, or overlaps, another loop or try block"
    end = hull.end
    body = _for_body(info, fi, end, below)
    if isinstance(body, str):
        return body
    plan = LoopPlan("for", get_iter, fi + 1, max(body), (), (), hull=(fi, end),
                    body=frozenset(body))
    for i in sorted(body):
        inst = insts[i]
        t = inst.target
        if inst.name in _RETURNS:
            plan.exits.append(Exit(i, "return", const=inst.arg,
                                   returns_const=inst.name == "RETURN_CONST"))
        elif t is not None and t not in body:
            if t == fi:
                plan.exits.append(Exit(i, "next", fi))
            elif _pops_and_leaves(insts, t, end):
                # (3.12+) a jump to a block after the loop that pops the iterator and
                # leaves: `break`, with the iterator still on the stack at the jump
                plan.exits.append(Exit(i, "break", insts[t + 1].target, label_at=t + 1,
                                       keeps_iterator=True))
            elif body[i] == 0 and inst.name in _JUMPS:
                plan.exits.append(Exit(i, "break", t, label_at=i))   # (3.11)
            else:
                return f"the body leaves the loop by {inst.name}"
        elif _falls_through(inst) and i + 1 not in body:
            return "the body falls out of the loop"
    return plan


def _for_body(info, fi: int, end: int, below: int) -> dict[int, int] | str:
    """The body of the ``for`` loop whose ``FOR_ITER`` is at ``fi`` (whose loop region
    ends at ``end``, with ``below`` values under its iterator on the stack): each
    instruction that control reaches from the body's first one without leaving the
    loop, with its stack depth over what is under the loop (1: the iterator), or why
    the body cannot be told.

    Control follows jumps, falls through and goes to the handlers of the body's
    try/with blocks. It leaves the loop at a jump back to ``FOR_ITER``, at a jump to
    a block that pops the iterator and jumps past the loop (3.12+ ``break``), and at a
    jump with the iterator popped already (3.11 ``break``, depth 0). So the body is
    no range: 3.12+ put the handlers of its try/with blocks after the function's end,
    3.14 a nested loop's body after the jump back to ``FOR_ITER``, and the hull of
    such a loop may cover the code after it (reached from ``FOR_ITER``'s exit only)."""
    insts = info.insts
    depth = {fi + 1: 2}      # the iterator and the item
    todo = [fi + 1]
    while todo:
        i = todo.pop()
        inst = insts[i]
        edges = []
        try:
            if inst.name not in _RETURNS and inst.name not in _RAISES:
                if inst.target is not None:
                    edges.append((inst.target, inst.instr.stack_effect(jump=True), True))
                if _falls_through(inst):
                    edges.append((i + 1, inst.instr.stack_effect(jump=False), False))
        except (ValueError, TypeError):
            return "a stack depth in the body is unknown"
        handler = info.handler_of(i)
        if handler is not None:
            # (the exception table's depths are the frame's; the loop's iterator is at
            # the depth of the loop's FOR_ITER, one over what is under the loop)
            edges.append((handler[0], None, False))
        for t, effect, jumps in edges:
            if t == fi or (jumps and _pops_and_leaves(insts, t, end)):
                continue
            d = depth[i] + effect if effect is not None else None
            if jumps and d == 0:
                continue                          # a break (3.11): past the loop
            if d is None:
                d = _handler_depth(info, t, below)
                if d is None:
                    return "a try or with block around the loop"
            if t in depth:
                if depth[t] != d:
                    return "the body's stack depths disagree"
                continue
            if t >= len(insts) or d < 0:
                return "the body's stack depths disagree"
            depth[t] = d
            todo.append(t)
    return depth


def _handler_depth(info, handler: int, below: int) -> int | None:
    """The stack depth at ``handler`` over a loop that has ``below`` values under its
    iterator: CPython cuts the stack to the exception table's depth, then pushes the
    offset (``lasti``) where asked, and the exception. None: not over the loop."""
    depth, lasti = info.unwind[handler]
    d = depth + lasti + 1 - below
    return d if d > 1 else None


def _while_plan(info, start: int, stack: int) -> LoopPlan | str:
    """The body and exits of the ``while`` loop whose island starts at ``start``, with
    ``stack`` values on the stack (an outer loop's iterator under the loop; on 3.14,
    values of the test, in a resume function that enters the loop in its test after
    it broke the graph on the loop's first pass).

    The loop's test stays in the frame: on 3.14 it is at the top of the loop (the
    instructions of the ``while`` line the loop starts with); 3.11-3.13 test in front
    of the loop and again at its bottom (the instructions of the ``while`` line the
    loop ends with, which jump back to the body's start), and a ``continue`` jumps to a
    copy of the test at the top that the loop then starts with. The body is what is
    in between, entered only at its first instruction, with nothing on the stack
    there and where it leaves (``_depths``). Whatever runs in the frame runs as plain
    Python: where the test ends is a matter of speed, not of meaning."""
    insts = info.insts
    hull = info.outermost_region(start)
    if hull is None or hull.kind != "loop":
        return "the loop is inside, or overlaps, another loop or try block"
    first, last = hull.start, hull.end
    back = insts[last]
    if back.target is None or back.target > last or back.target < first:
        return "the loop does not end with its jump back"
    if back.target > first:      # 3.11-3.13, `continue`: the loop starts with the test
        entry = back.target
    elif pyversion.WHILE_TEST_IN_LOOP:   # 3.14: the test is the loop's first line
        entry = first
        while entry <= last and insts[entry].lineno == insts[first].lineno:
            entry += 1
    else:
        entry = first
    end = last
    if not pyversion.WHILE_TEST_IN_LOOP:   # the test at the bottom stays in the frame
        while end >= entry and insts[end].lineno == back.lineno:
            end -= 1
    if end < entry:
        return "the loop has no body apart from its test"
    if not first <= start <= entry:
        return "the island starts inside the loop's body"
    # (depths from the loop's start; ``below`` values are under it)
    depths = _depths(insts, first, last)
    below = stack - depths.get(start, stack + 1) if depths is not None else -1
    if below < 0 or depths.get(entry) != 0:
        return "the loop's test leaves values on the stack"
    plan = LoopPlan("while", start, entry, end, (), (), hull=(first, last), below=below,
                    body=frozenset(range(entry, end + 1)))
    body = range(entry, end + 1)
    for i in range(first, last + 1):   # a single entry: nothing jumps into the body
        t = insts[i].target
        if t is not None and entry < t <= end and i not in body:
            return "the loop's test jumps into its body"
    for i in body:
        inst = insts[i]
        if inst.name in _RETURNS:
            plan.exits.append(Exit(i, "return", const=inst.arg,
                                   returns_const=inst.name == "RETURN_CONST"))
            continue
        t = inst.target
        if t is not None and not entry < t <= end:
            if depths.get(t) != 0:
                return "the body leaves with values on the stack"
            plan.exits.append(Exit(i, "next" if first <= t <= last else "break", t))
    if _falls_through(insts[end]):
        if depths.get(end + 1) != 0:
            return "the body leaves with values on the stack"
        kind = "next" if end + 1 <= last else "break"
        plan.exits.append(Exit(end, kind, end + 1, falls=True))
    return plan


def _number(plan: LoopPlan) -> None:
    """Give each exit its tag: one per place the frame goes on (exits to the same
    place share it), None for the way round that ends the body (tested first)."""
    nexts = [e for e in plan.exits if e.kind == "next"]
    main = max(nexts, key=lambda e: e.index).target if nexts else None
    tags: dict[tuple, int] = {}
    for e in plan.exits:
        if e.kind == "next" and e.target == main:
            e.tag = None
            continue
        key = (e.kind, e.target if e.kind != "return" else e.index, e.keeps_iterator)
        e.tag = tags.setdefault(key, len(tags))


def _depths(insts, first: int, last: int) -> dict[int, int] | None:
    """The stack depth at each instruction that control reaches from ``first`` (at
    depth 0) without leaving ``first..last``, and at the instructions outside it that
    it jumps or falls to; None where two paths disagree or a depth is unknown."""
    depth = {first: 0}
    todo = [first]
    while todo:
        i = todo.pop()
        inst = insts[i]
        if inst.name in _RETURNS or inst.name in _RAISES:
            continue
        try:
            nexts = []
            if inst.target is not None:
                nexts.append((inst.target, inst.instr.stack_effect(jump=True)))
            if _falls_through(inst):
                nexts.append((i + 1, inst.instr.stack_effect(jump=False)))
        except (ValueError, TypeError):
            return None
        for j, effect in nexts:
            d = depth[i] + effect
            if j in depth:
                if depth[j] != d:
                    return None
                continue
            depth[j] = d
            if first <= j <= last:
                todo.append(j)
    return depth


def _falls_through(inst) -> bool:
    return inst.name not in _JUMPS and inst.name not in _RETURNS and \
        inst.name not in _RAISES


def _after_points(code, info, plan: LoopPlan, bound: set[str]) -> dict[int, bool]:
    """The instructions after the loop where the frame goes on (the first one after a
    for loop's normal end, past FOR_ITER's exit and the iterator's cleanup; every
    place outside the loop its test or its body jumps to), each with whether the frame
    can call a resume function there: every local that may be read there is bound
    before the loop or bound by the body (checked as the frame gets there: see
    ``_after_the_loop``)."""
    insts = info.insts
    first, last = plan.hull
    if plan.kind == "for":
        exit_at = insts[first].target + pyversion.FOR_ITER_EXIT_SKIP + \
            (0 if pyversion.FOR_ITER_EXIT_POPS else 1)
        points = {exit_at}
    else:
        points = {insts[i].target for i in range(first, last + 1)
                  if insts[i].target is not None and not first <= insts[i].target <= last}
        if _falls_through(insts[last]):
            points.add(last + 1)
    points |= {e.target for e in plan.exits if e.kind == "break"}
    known = bound | set(plan.fresh) | _cell_names(code)
    out = {}
    for at in sorted(points):
        if at >= len(insts):
            continue
        unbound = sorted(n for n in info.live_at(at) if n not in known)
        if unbound:
            log_loops.debug("%s: after the loop (instruction %d) runs uncompiled: %r may "
                            "be unbound there", code_name(code), at, unbound[0])
        # (what is under the loop, ``plan.below`` values: an outer loop's iterator, or
        # its placeholder in an outlined body, goes to the resume function as its stack)
        out[at] = not unbound
    return out


def _pops_and_leaves(insts, at: int, end: int) -> bool:
    """Is the code at ``at`` a block that pops the iterator and jumps past the loop
    (which ends at ``end``)?"""
    return at + 1 < len(insts) and insts[at].name in ("POP_TOP", "POP_ITER") and \
        insts[at + 1].name in _JUMPS and insts[at + 1].target is not None and \
        insts[at + 1].target > end


def _global_name(arg) -> str:
    return arg[1] if isinstance(arg, tuple) else arg


def _cell_names(code) -> set[str]:
    return set(code.co_cellvars) | set(code.co_freevars)


def _names(inst) -> list[str]:
    arg = inst.arg
    return [n for n in (list(arg) if isinstance(arg, tuple) else [arg]) if isinstance(n, str)]


def _stored_first(insts, start: int, stop: int) -> set[str]:
    """Plain locals that the code from ``start`` stores before its first jump (or
    ``stop``): every path from ``start`` runs those stores."""
    out: set[str] = set()
    for i in range(start, stop):
        if insts[i].target is not None:
            break
        out |= _stored(insts, [i])
    return out


def _stored(insts, body) -> set[str]:
    """Plain locals some instruction of ``body`` stores."""
    out: set[str] = set()
    for i in body:
        inst = insts[i]
        if inst.name.startswith("STORE_FAST"):
            names = _names(inst)
            out |= set(names[:1] if inst.name == "STORE_FAST_LOAD_FAST" else names)
    return out


def _read(insts, body, super_self: str | None = None) -> set[str]:
    """Plain locals some instruction of ``body`` loads (a zero-argument ``super()``
    reads ``super_self``, the first argument: ``CodeInfo.super_self``)."""
    out: set[str] = set()
    for i in body:
        inst = insts[i]
        if inst.name.startswith("LOAD_FAST"):
            out |= set(_names(inst))
        elif inst.name == "STORE_FAST_LOAD_FAST":
            out |= set(_names(inst)[1:])
        elif super_self is not None and loads_super(inst):
            out.add(super_self)
    return out


__all__ = ["Exit", "LoopPlan", "loop_plan"]
