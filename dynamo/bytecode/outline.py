"""Outlined loop bodies: a ``for`` or ``while`` loop whose body breaks the graph runs as
Python, and its body is a function of its own that dynamo compiles.

When a break happens inside a loop, the rest of the loop cannot be one graph
(``frames.py`` makes the loop an *island* that starts where the trace entered it: a
``for`` loop's ``GET_ITER``, a ``while`` loop's test or first body instruction). Rather
than run the whole island uncompiled, the island's copy of the code keeps the loop's
own control (a ``for`` loop's ``GET_ITER``/``FOR_ITER``, stepped by the interpreter; a
``while`` loop's test) and calls, for each trip, a *body function*::

    GET_ITER                                (a while loop: its test, as it was)
    L: FOR_ITER exit
       ___oitem = <item>                              # (in front of the old body)
       tag, values = body(closure, [___oitem, *reads, *moved, *cells])  # the hook
       <store the moved locals from values>
       if tag is None: JUMP_BACKWARD L                  # the body ran to its end
       if tag == 0:    pop the iterator; JUMP <after the loop>             # break
       if tag == 1:    pop the iterator; return <the value>                # return
       (the old body follows, never run)
    exit: ...
       return resume_after_the_loop(...)     # the rest of the frame is compiled too

The body function is a copy of the original code (like a resume function, see
``resume.py``) whose prologue pushes a placeholder for the iterator and the item (a
``for`` loop), and jumps to the body's first instruction. Each way out of the body is
rewritten to return ``(tag, values)``: a jump back to the loop's control (the end of
the body, ``continue``), a jump past the loop (``break``), a ``return``, and a
``while`` body falling into the test at the bottom. An exception propagates out of the
body function and then out of the frame, as in plain Python: the loop is the
outermost construct (no ``try`` around it), so nothing in the frame catches it, and
everything earlier trips wrote is already written. A ``try``/``with`` block wholly
inside the body stays in the body function (on 3.12+ with its handlers, which the
compiler put after the function's end): what it catches is caught there.

Which locals cross the call (``LoopPlan``), and when objects die: the body gets its
arguments in one list that it empties once it has bound them (``hook.run_boxed``, as a
resume function), so no frame of the call holds them. A local the body stores is
*moved*: the frame unbinds it as it puts it in the list, and every exit hands it back.
So while the body runs, the body function's slot is the only binding, and a store
there frees the previous trip's object at the store, as in plain Python (``a =
Noisy(i)`` frees ``Noisy(i - 1)`` before the line after it runs). A moved local that
may be unbound before the loop holds the marker ``UNBOUND`` in the frame until the
body binds it (a marker, not a value the program can read: the body never reads such a
local before it stores it, else the loop is not outlined); where the frame leaves the
loop, a marker that is still there is unbound again (``_after_the_loop``). The other
locals the body reads (``reads``) are passed as copies. The frame's cells are shared,
as a resume function shares them (``cells.py``): its free variables are the body
function's closure, its cell variables are passed as cells and stay cell variables.

After the loop (its normal end, the target of a ``break``) the frame calls a resume
function, as at any break, with every local bound there, those the body bound too, so
the code after the loop is compiled and nothing the loop bound dies early; where a
local the body binds is still unbound (a loop of no trips) the rest of the frame runs
uncompiled, as it would have. An inner loop that breaks the graph inside a body
function is outlined in turn, and what is under it on the stack (the outer loop's
iterator placeholder) goes to that resume function as its stack: the rest of the
outer body after the inner loop is compiled too, and its ways out are the body
function's (returns of ``(tag, values)``).

``outline_plan.loop_plan`` says whether a loop fits, or why not (then the island runs
as before); ``outlined_loop`` is what ``break_entry.py`` calls for an island. See
docs/loops.md.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass

from bytecode import CellVar, Instr, Label

from .. import pyversion
from ..code_keyed import CodeKeyed
from ..config import config
from .cells import unrun_make_cells
from .copies import assemble, copy, label_at, split_super_instructions
from .emit import closure_tuple, prologue
from .instructions import CodeInfo, code_name
from .outline_plan import Exit, LoopPlan, log_loops, loop_plan
from .resume import BoxedCaller, takes_a_box
from .signature import STAR_FLAGS

ITEM = "___oitem"       # the outer frame's temporary for the loop's item
PARAM = "___stack0"     # the body function's parameter for it (as a resume function's)

_NO_ARG = object()


class _Unbound:
    """The marker of a moved local that the body has not bound yet (see the module
    doc): it is never left in a slot the program reads."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unbound local>"


UNBOUND = _Unbound()


# ============================================================================ the body

def body_code(code, plan: LoopPlan) -> types.CodeType:
    """The body function of ``plan``'s loop, taking ``[___stack0 (a for loop's item),
    *plan.reads, *plan.moved, *cells]`` in one list and returning ``(tag, values)`` at
    each exit (see the module doc).

    Made once per code and plan (cached weakly per code): a compile of the same frame
    again (another context, a recompile) gets the same code object, not an equal
    copy. The caches of resume functions are keyed by code objects, which compare
    equal by value: with two equal body functions alive, the resume functions of one
    would be recorded under the other's and forgotten when that one dies."""
    key = (plan.kind, plan.entry, plan.end, plan.reads, plan.moved,
           tuple((e.index, e.kind, e.target, e.tag, e.falls) for e in plan.exits))
    made = _BODIES.setdefault(code, {})
    hit = made.get(key)
    if hit is None:
        hit = made[key] = _body_code(code, plan)
    return hit


# (by identity: equal codes of two ``exec`` of one source would share a weak dict's entry)
_BODIES = CodeKeyed()


def _body_code(code, plan: LoopPlan) -> types.CodeType:
    bc, positions = copy(code)
    if plan.kind == "while":
        # the test stays in the frame: here it is dead code, but its jump back would
        # still make the body look like a loop to the translator (a break in it, an
        # island again). A while loop's test leaves the stack as it found it.
        for i in range(plan.hull[0], plan.hull[1] + 1):
            if i not in plan.body:
                bc[positions[i]] = Instr("NOP", location=bc[positions[i]].location)
    start = label_at(bc, positions, plan.entry)
    head = len(prologue(bc))
    # each exit's instruction becomes the return of (tag, values), last first so that
    # the positions of the earlier ones stay right; a body that falls into the test
    # at the bottom returns in front of it
    for e in sorted(plan.exits, key=lambda e: (-e.index, not e.falls)):
        old = bc[positions[e.index]]
        if e.falls:
            pos = positions[e.index + 1]
            bc[pos:pos] = _exit_return(plan, e, old.location)
        elif old.name.startswith("POP_JUMP") or old.name == "FOR_ITER":
            # a conditional exit, to a block of its own: the instruction must still run
            # (3.11: an inner `for` loop that ends a while body leaves, exhausted, by its
            # FOR_ITER straight into the test at the bottom; replaced by the return, the
            # inner loop ran no trip)
            block = Label()
            name = old.name.replace("BACKWARD", "FORWARD")
            bc[positions[e.index]] = Instr(name, block, location=old.location)
            bc.extend([block] + _exit_return(plan, e, old.location))
        else:
            pos = positions[e.index]
            bc[pos:pos + 1] = _exit_return(plan, e, old.location)
    body = split_super_instructions(bc[head:])
    cellvars, freevars = list(code.co_cellvars), list(code.co_freevars)
    loc = bc[positions[plan.entry]].location
    new_prologue: list = []
    if freevars:
        new_prologue.append(Instr("COPY_FREE_VARS", len(freevars)))
    new_prologue.append(Instr("RESUME", 0))
    # placeholders of what is under the loop on the stack, never read: the body
    # leaves it as it finds it, but for a `return` (which pops it first)
    new_prologue += [Instr("LOAD_CONST", None) for _ in range(plan.below)]
    if plan.kind == "for":   # the iterator's placeholder and the item
        new_prologue += [Instr("LOAD_CONST", None), Instr("LOAD_FAST", PARAM),
                         Instr("DELETE_FAST", PARAM)]
    new_prologue.append(Instr("JUMP_FORWARD", start))
    new_prologue += unrun_make_cells(cellvars)[1:-1]   # (jumped over already)
    for instr in new_prologue:
        instr.location = loc
    bc[:] = new_prologue + body
    # the cells of the frame's cell variables come last, as cells (see cells.py): they
    # stay cell variables, shared with the frame and its closures
    bc.argnames = ([PARAM] if plan.kind == "for" else []) + list(plan.reads) + \
        list(plan.moved) + cellvars
    bc.argcount = len(bc.argnames)
    bc.posonlyargcount = bc.kwonlyargcount = 0
    bc.flags &= ~STAR_FLAGS
    bc.cellvars, bc.freevars = cellvars, freevars
    bc.name = code.co_name
    line = CodeInfo.of(code).insts[plan.hull[0]].lineno
    bc.qualname = f"{code.co_qualname}_loop_body_L{line}"
    new = assemble(bc, body)
    CodeInfo.seed(new, bc)
    # (its first local is no argument of the original: super() reads the original's)
    CodeInfo.of(new).super_self = CodeInfo.of(code).super_self
    takes_a_box(new)   # called with its arguments in one list (see the module doc)
    return new


def _exit_return(plan: LoopPlan, e: Exit, loc) -> list[Instr]:
    """Return ``(tag, values)`` from the body function at exit ``e``: ``values`` are
    the moved locals, and for a ``return`` ``(moved, value)``."""
    def ins(name, arg=_NO_ARG):
        return Instr(name, location=loc) if arg is _NO_ARG else Instr(name, arg, location=loc)

    moved = [ins("LOAD_FAST", n) for n in plan.moved] + [ins("BUILD_TUPLE", len(plan.moved))]
    if e.kind == "return":
        value = [ins("LOAD_CONST", e.const)] if e.returns_const else []
        return value + moved + [ins("SWAP", 2), ins("BUILD_TUPLE", 2), ins("LOAD_CONST", e.tag),
                                ins("SWAP", 2), ins("BUILD_TUPLE", 2), ins("RETURN_VALUE")]
    # the placeholders under the loop, and the iterator's when it is still there
    pops = plan.below + (plan.kind == "for" and (e.kind == "next" or e.keeps_iterator))
    out = [ins("POP_TOP") for _ in range(pops)]
    return out + [ins("LOAD_CONST", e.tag)] + moved + [ins("BUILD_TUPLE", 2),
                                                       ins("RETURN_VALUE")]


# ============================================================================ the loop

def call_body(bc, positions: list[int], code, plan: LoopPlan, caller,
              resume_after=None) -> list[Instr]:
    """Put the call of the body function and the dispatch of its exits in front of the
    body's first instruction of ``bc`` (the island's copy of ``code``; ``positions``
    maps instruction indices to positions in it), and ``_after_the_loop`` where the
    frame leaves the loop. The old body stays, never run. Returns the instructions
    the island runs once, as it starts: the markers of the ``fresh`` locals.

    ``resume_after(index, names, below, stored)`` returns the instructions that end
    the frame with a call of the resume function at instruction ``index`` that takes
    the ``below`` values on the stack there (what is under the loop) and the locals
    ``names`` (``stored``: those the body stores)."""
    loc = bc[positions[plan.entry]].location

    def ins(name, arg=_NO_ARG):
        return Instr(name, location=loc) if arg is _NO_ARG else Instr(name, arg, location=loc)

    def if_false(label):
        out = [ins(pyversion.POP_JUMP_FORWARD_IF_FALSE, label)]
        return out + ([ins("NOT_TAKEN")] if pyversion.NOT_TAKEN_AFTER_BRANCH else [])

    # the labels the dispatch jumps to: back into the loop's control, and the blocks
    # in front of the places after the loop (inserted last: positions shift)
    labels = {e.target: label_at(bc, positions, e.target) for e in plan.exits
              if e.kind == "next"}
    leave = {at: Label() for at in plan.after}

    def store(names):
        return [ins("UNPACK_SEQUENCE", len(names))] + [ins("STORE_FAST", n) for n in names]

    def jump(target):
        if target in leave:
            return [ins("JUMP_FORWARD", leave[target])]
        return [ins("JUMP_BACKWARD" if target <= plan.entry else "JUMP_FORWARD",
                    labels[target])]

    is_for = plan.kind == "for"
    out = [ins("STORE_FAST", ITEM)] if is_for else []
    out += pyversion.load_callable_const(caller, loc)
    out += closure_tuple(code, code.co_freevars)
    # the item is unbound again at once (the frame must not keep it alive), and each
    # moved local is unbound as it goes into the list
    out += [ins("LOAD_FAST", ITEM), ins("DELETE_FAST", ITEM)] if is_for else []
    out += [ins("LOAD_FAST", n) for n in plan.reads]
    for n in plan.moved:
        out += [ins("LOAD_FAST", n), ins("DELETE_FAST", n)]
    out += [ins(pyversion.LOAD_CLOSURE, CellVar(n)) for n in code.co_cellvars]
    out.append(ins("BUILD_LIST", is_for + len(plan.reads) + len(plan.moved) +
                   len(code.co_cellvars)))
    out += pyversion.call_instrs(2, location=loc)
    others = Label()
    out += [ins("UNPACK_SEQUENCE", 2),              # [values, tag]
            ins("COPY", 1), ins(_POP_JUMP_IF_NOT_NONE, others)]
    if pyversion.NOT_TAKEN_AFTER_BRANCH:
        out.append(ins("NOT_TAKEN"))
    out.append(ins("POP_TOP"))
    main = [e for e in plan.exits if e.tag is None]
    if main:
        out += store(plan.moved) + jump(main[0].target)
    else:
        out += [ins("POP_TOP"), ins("LOAD_CONST", None), ins("RETURN_VALUE")]   # (never)
    out.append(others)
    tagged = plan.tags()
    for k, e in enumerate(tagged):
        skip = Label()
        last = k == len(tagged) - 1
        if not last:
            out += [ins("COPY", 1), ins("LOAD_CONST", e.tag), ins("IS_OP", 0)] + if_false(skip)
        out.append(ins("POP_TOP"))                   # the tag
        if e.kind == "return":                       # [values]: ((moved...), value)
            out += [ins("UNPACK_SEQUENCE", 2)] + store(plan.moved)
            for _ in range(plan.below + is_for):   # the iterator, what is under the loop
                out += [ins("SWAP", 2), ins("POP_TOP")]
            out.append(ins("RETURN_VALUE"))
        else:
            out += store(plan.moved)
            if is_for and e.kind == "break":
                out.append(ins("POP_TOP"))               # the iterator
            out += jump(e.target)
        if not last:
            out.append(skip)
    if not tagged:
        out += [ins("POP_TOP"), ins("LOAD_CONST", None), ins("RETURN_VALUE")]   # (never)
    # the loop's own control leaves it through the blocks after the loop too
    first, last = plan.hull
    for i in range(first, last + 1):
        if i not in plan.body:
            instr = bc[positions[i]]
            target = CodeInfo.of(code).insts[i].target
            if target in leave:   # (a 3.11 FOR_ITER, a while loop's test)
                instr.arg = leave[target]
    # (later positions first, so that the earlier ones stay right)
    blocks = [(positions[at], _after_the_loop(plan, at, leave[at], resume_after, ins,
                                              if_false)) for at in plan.after]
    blocks.append((positions[plan.entry], out))
    for pos, block in sorted(blocks, key=lambda b: -b[0]):
        if block is not out:   # in front of the labels there: the loop's ways out only
            while pos > 0 and isinstance(bc[pos - 1], Label):
                pos -= 1
        bc[pos:pos] = block
    return [x for n in plan.fresh for x in (ins("LOAD_CONST", UNBOUND), ins("STORE_FAST", n))]


def _after_the_loop(plan: LoopPlan, at: int, label: Label, resume_after, ins,
                    if_false) -> list:
    """Where the frame leaves the loop to go on at ``at`` (labelled ``label``, in front
    of the original code there, which other code jumps to without it): call the
    resume function at ``at`` with the locals bound before the loop and those the body
    bound; where one of those is still unbound (its marker), unbind it and run on."""
    out: list = [label]
    cleanup = Label()
    if plan.after[at] and resume_after is not None:
        for n in plan.fresh:
            out += [ins("LOAD_FAST", n), ins("LOAD_CONST", UNBOUND), ins("IS_OP", 1)] + \
                if_false(cleanup)
        out += resume_after(at, plan.fresh, plan.below, plan.moved)
    out.append(cleanup)
    for n in plan.fresh:
        skip = Label()
        out += [ins("LOAD_FAST", n), ins("LOAD_CONST", UNBOUND), ins("IS_OP", 0)] + \
            if_false(skip) + [ins("DELETE_FAST", n), skip]
    return out


# An outlined trip pays a dispatch, guards and glue (about 3-6 us); a loop whose trips
# have fewer than ``outline_min_elements // 64`` (512) elements of its largest array
# each works per trip on rows or elements, where that cost is often more than the
# trip's work: such a loop runs as plain Python first (then the trial times both)
_SHARE_DIVISOR = 64

_POP_JUMP_IF_NOT_NONE = "POP_JUMP_IF_NOT_NONE" if pyversion.PY312 else \
    "POP_JUMP_FORWARD_IF_NOT_NONE"


@dataclass(frozen=True)
class Outline:
    """A loop ``outlined_loop`` can outline: ``rewrite(bc, positions)`` outlines it
    (for ``break_code``); ``plain_first``: why the static rule runs it as plain Python
    first (``outline_trial.py`` then times both ways), or None (outlined first);
    ``body``: the body function's code."""

    rewrite: Callable
    plain_first: str | None = None
    body: types.CodeType | None = None


def outlined_loop(fn, brk, bound, largest: int, cache_of, run, resume_after=None,
                  trips: int | None = None) -> Outline | None:
    """For an island that starts at a loop (``brk``: a ``for`` loop's ``GET_ITER``, or
    a ``while`` loop's start): the ``Outline`` whose rewrite of the island's code
    outlines the loop's body (for ``break_code``), or None when the loop does not fit
    or cannot pay (the reason goes to the ``loops`` log). ``bound`` are the frame's
    locals bound there, ``largest`` the elements of the largest array the frame holds
    there, ``cache_of(code, globals)`` gives the hook's cache of the body function and
    ``run(fn, box)`` runs it through the hook (see ``BodyCaller``), ``resume_after``
    makes the call of a resume function after the loop (see ``call_body``), ``trips``
    the trips of a ``for`` loop over a ``range`` (None: not known)."""
    code = fn.__code__
    plan = loop_plan(code, brk.inst.index, set(bound),
                     len(brk.stack) - (brk.inst.name == "GET_ITER"))
    plain_first = None
    if brk.point.reason.cause == "unroll_budget":
        # the body is one graph, the loop only too long to unroll: as plain Python it
        # runs at Python speed, outlined it would pay a dispatch per iteration
        plan = "the loop is only too long to unroll"
    elif largest < config.outline_min_elements:
        # each outlined trip pays a dispatch, guards and glue: on small arrays the
        # body's graphs cannot win that back, and plain Python is faster
        plan = (f"its arrays are small (at most {largest} elements, "
                f"config.outline_min_elements is {config.outline_min_elements}): it runs as "
                "plain Python, at Python's speed")
    elif trips and largest < trips * (config.outline_min_elements // _SHARE_DIVISOR):
        # a loop of one trip per element or row of its largest array (`for i in
        # range(len(x)): if x[i] > hi: x[i] = hi`, 10**5 trips): each trip's graph works
        # on a few elements, and its dispatch costs 30x what plain Python spends on them;
        # but so do 1000 time steps over 10**5 elements, which outlined win 1.4x: the
        # rule only picks the first way, the trial times both (outline_trial.py)
        plain_first = (f"its {trips} trips share its largest array ({largest} elements), "
                       f"about {largest // trips} elements a trip (under "
                       f"config.outline_min_elements // {_SHARE_DIVISOR})")
    if isinstance(plan, str):
        log_loops.debug("%s: loop body not outlined: %s", code_name(code), plan)
        return None
    if plain_first is not None and config.outline_trial_calls == 0:
        log_loops.debug("%s: loop body not outlined: %s: it runs as plain Python, at "
                        "Python's speed", code_name(code), plain_first)
        return None
    caller = BodyCaller(body_code(code, plan), fn.__globals__, run, cache_of)
    log_loops.debug("%s: loop body outlined as %s%s", code_name(code), caller.code.co_qualname,
                    "" if not config.outline_trial_calls else
                    f"; the first calls run it as plain Python ({plain_first}), then both "
                    "ways are timed" if plain_first else "; plain Python is timed against it")
    return Outline(lambda bc, positions: call_body(bc, positions, code, plan, caller,
                                                   resume_after), plain_first, caller.code)


class BodyCaller(BoxedCaller):
    """Called from the loop's bytecode as ``caller(closure, box)``, the arguments in
    the list ``box``, once per trip: runs the body function through the hook
    (``BoxedCaller``) and returns its ``(tag, values)``."""

    def __call__(self, closure, box):
        return self.dispatch(self.function(closure), box)

    def __repr__(self) -> str:
        return f"<loop body {self.code.co_qualname}>"


__all__ = ["UNBOUND", "BodyCaller", "LoopPlan", "Outline", "body_code", "call_body",
           "loop_plan", "outlined_loop"]
