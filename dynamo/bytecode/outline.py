"""Outlined loop bodies: a ``for`` loop whose body breaks the graph runs as Python, and
its body is a function of its own that dynamo compiles.

When a break happens inside a ``for`` loop, the rest of the loop cannot be one graph
(``frames.py`` makes the loop an *island* that starts at its ``GET_ITER``). Rather than
run the whole island uncompiled, the island's copy of the code keeps the loop's own
``GET_ITER``/``FOR_ITER`` (the iterator is the program's, stepped by the interpreter)
and calls, for each item, a *body function*::

    GET_ITER
    L: FOR_ITER exit
       ___oitem = <item>                              # (in front of the old body)
       tag, values = body(closure, ___oitem, *params, *cells)   # through the hook
       if tag is None: <store values>; JUMP_BACKWARD L     # the body ran to its end
       if tag == 0:    <store values>; pop the iterator; JUMP <after the loop>  # break
       if tag == 1:    pop the iterator; return values[0]                  # return
       (the old body follows, never run)
    exit: ...
       return resume_after_the_loop(...)     # the rest of the frame is compiled too

The body function is a copy of the original code (like a resume function, see
``resume.py``) whose prologue pushes a placeholder for the iterator and the item, and
jumps to the body's first instruction. Each way out of the body is rewritten to return
``(tag, values)``: the jump back to ``FOR_ITER`` (the end of the body, ``continue``),
a jump past the loop (``break``), a ``return``. An exception propagates out of the
body function and then out of the frame, as in plain Python: the loop is the
outermost construct (no ``try`` around it), so nothing in the frame catches it, and
everything earlier iterations wrote is already written.

Which locals cross the call (``LoopPlan``): the body function's parameters are the
locals live at the body's start (read before stored on some path); every exit returns
the locals the body stores that are live where the exit continues. Liveness makes them
bound: a local live at the exit's target but not at the body's start is stored on
every path through the body to that exit. The frame's cells are shared, as a resume
function shares them (``cells.py``): its free variables are the body function's
closure, its cell variables are passed as cells and stay cell variables.

After the loop (its normal end, the target of a ``break``) the frame calls a resume
function, as at any break, where every local that may be read there is bound.

``loop_plan`` says whether a loop fits, or why not (then the island runs as before);
``outlined_loop`` is what ``convert.py`` calls for an island. See docs/loops.md.
"""

from __future__ import annotations

import types
import weakref
from dataclasses import dataclass, field

from bytecode import CellVar, Instr, Label

from .. import logs, pyversion
from ..config import config
from .cells import unrun_make_cells
from .emit import closure_tuple, prologue
from .instructions import CodeInfo, code_name
from .resume import _assemble, _copy, _label_at, _split_super_instructions
from .signature import STAR_FLAGS

ITEM = "___oitem"       # the outer frame's temporary for the loop's item
PARAM = "___stack0"     # the body function's parameter for it (as a resume function's)

log_loops = logs.get("loops")
_NO_ARG = object()

_JUMPS_BACK = ("JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_FORWARD", "JUMP",
               "JUMP_NO_INTERRUPT", "JUMP_ABSOLUTE")
_RETURNS = ("RETURN_VALUE", "RETURN_CONST")
# builtins that see the calling frame's locals
_SEES_THE_FRAME = frozenset({"locals", "vars", "dir", "eval", "exec"})


@dataclass
class Exit:
    """A way out of the body: ``kind`` is "next" (back to FOR_ITER), "break" (a jump
    past the loop to ``target``) or "return"; ``saves`` the locals it hands back."""

    index: int
    kind: str
    target: int | None = None
    saves: tuple[str, ...] = ()
    tag: int | None = None          # None for "next"; else its number in the dispatch
    label_at: int | None = None     # "break": the jump whose label is the target
    keeps_iterator: bool = False    # the iterator is still on the stack at the exit
    const: object = None            # a RETURN_CONST's constant (3.12, 3.13)
    returns_const: bool = False


@dataclass
class LoopPlan:
    """How the loop whose ``FOR_ITER`` is at ``for_iter`` is outlined."""

    for_iter: int
    end: int                         # the body's last instruction (the jump back)
    params: tuple[str, ...]          # locals passed to the body function
    exits: list[Exit] = field(default_factory=list)
    # where the frame goes on after the loop (its normal end, the targets of `break`)
    # and calls a resume function instead of running the rest uncompiled
    resumes: tuple[int, ...] = ()

    @property
    def others(self) -> list[Exit]:
        """The exits other than "next", one per tag, in tag order."""
        return [e for e in self.exits if e.kind != "next"]


def loop_plan(code, get_iter: int, bound: set[str], stack_below: int) -> LoopPlan | str:
    """The plan for outlining the ``for`` loop that starts with ``GET_ITER`` at
    ``get_iter``, or the reason it cannot be outlined.

    ``bound`` are the locals bound when the loop starts (from the trace),
    ``stack_below`` the number of stack items under the iterable."""
    info = CodeInfo.of(code)
    insts = info.insts
    fi = get_iter + 1
    if insts[get_iter].name != "GET_ITER" or fi >= len(insts) or insts[fi].name != "FOR_ITER":
        return "not a for loop"
    if stack_below:
        return "the loop has values under its iterator on the stack"
    hull = info.outermost_region(fi)
    loops = [r for r in info.regions if r.kind == "loop" and r.start == fi]
    if hull is None or not loops or hull.start != fi or hull.end != max(r.end for r in loops):
        return "the loop is inside, or overlaps, another loop or try block"
    end = hull.end
    body = range(fi + 1, end + 1)
    if any(not (end < s or e < fi) for s, e, _ in info.handlers):
        return "the loop body has a try, with or comprehension block"
    exits: list[Exit] = []
    for i in body:
        inst = insts[i]
        if inst.name.startswith(("DELETE_FAST", "YIELD", "SEND", "GET_AWAITABLE")):
            return f"the loop body has {inst.name}"
        if inst.name == "LOAD_GLOBAL" and _global_name(inst.arg) in _SEES_THE_FRAME:
            # the body function's frame holds only the locals that cross the call
            return f"the loop body calls {_global_name(inst.arg)}()"
        if inst.name in _RETURNS:
            exits.append(Exit(i, "return", const=inst.arg,
                              returns_const=inst.name == "RETURN_CONST"))
        elif inst.target is not None and inst.target not in body:
            if inst.target == fi:
                exits.append(Exit(i, "next"))
            elif inst.target > end and _pops_and_leaves(insts, inst.target, end):
                # (3.12+) a jump to a block after the loop that pops the iterator and
                # leaves: `break`, with the iterator still on the stack at the jump
                w = inst.target
                exits.append(Exit(i, "break", insts[w + 1].target, label_at=w + 1,
                                  keeps_iterator=True))
            elif inst.target > end and inst.name in _JUMPS_BACK:
                exits.append(Exit(i, "break", inst.target, label_at=i))   # (3.11)
            else:
                return f"the body leaves the loop by {inst.name}"
    stored = _stored(insts, body)
    params = tuple(sorted(n for n in info.live_at(fi + 1) if n not in _cell_names(code)))
    missing = [n for n in params if n not in bound]
    if missing:
        return f"the body may read {missing[0]!r}, unbound before the loop"
    tag = 0
    for e in exits:
        if e.kind == "return":
            e.tag, tag = tag, tag + 1
            continue
        after = fi if e.kind == "next" else e.target
        e.saves = tuple(sorted(n for n in info.live_at(after) if n in stored))
        if e.kind == "break":
            e.tag, tag = tag, tag + 1
    plan = LoopPlan(fi, end, params, exits)
    plan.resumes = _resume_points(code, info, plan, bound)
    return plan


def _resume_points(code, info, plan: LoopPlan, bound: set[str]) -> tuple[int, ...]:
    """The instructions after the loop where the frame calls a resume function: the
    first one after the loop's normal end (FOR_ITER's exit and the iterator's cleanup)
    and each ``break``'s target, where every local that may be read is bound (one that
    only the body binds may be unbound there: a loop of no iterations; the rest of
    the frame then runs uncompiled, as it would have)."""
    exit_at = info.insts[plan.for_iter].target + pyversion.FOR_ITER_EXIT_SKIP + \
        (0 if pyversion.FOR_ITER_EXIT_POPS else 1)
    points = {exit_at} | {e.target for e in plan.exits if e.kind == "break"}
    cells = _cell_names(code)
    out = []
    for at in sorted(points):
        unbound = sorted(n for n in info.live_at(at) if n not in bound and n not in cells)
        if unbound:
            log_loops.debug("%s: after the loop (instruction %d) runs uncompiled: %r may "
                            "be unbound there", code_name(code), at, unbound[0])
        elif at < len(info.insts):
            out.append(at)
    return tuple(out)


def _pops_and_leaves(insts, at: int, end: int) -> bool:
    """Is the code at ``at`` a block that pops the iterator and jumps past the loop
    (which ends at ``end``)?"""
    return at + 1 < len(insts) and insts[at].name in ("POP_TOP", "POP_ITER") and \
        insts[at + 1].name in _JUMPS_BACK and insts[at + 1].target is not None and \
        insts[at + 1].target > end


def _global_name(arg) -> str:
    return arg[1] if isinstance(arg, tuple) else arg


def _cell_names(code) -> set[str]:
    return set(code.co_cellvars) | set(code.co_freevars)


def _stored(insts, body) -> set[str]:
    """Plain locals some instruction of ``body`` stores."""
    out: set[str] = set()
    for i in body:
        inst = insts[i]
        if inst.name.startswith("STORE_FAST"):
            arg = inst.arg
            names = list(arg) if isinstance(arg, tuple) else [arg]
            out |= {n for n in names[:1 if inst.name == "STORE_FAST_LOAD_FAST" else None]
                    if isinstance(n, str)}
    return out


# ============================================================================ the body

def body_code(code, plan: LoopPlan) -> types.CodeType:
    """The body function of ``plan``'s loop: ``f(___stack0, *plan.params, *cells)``,
    returning ``(tag, values)`` at each exit (see the module doc).

    Made once per code and plan (cached weakly per code): a compile of the same frame
    again (another context, a recompile) gets the same code object, not an equal
    copy. The caches of resume functions are keyed by code objects, which compare
    equal by value: with two equal body functions alive, the resume functions of one
    would be recorded under the other's and forgotten when that one dies."""
    key = (plan.for_iter, plan.params,
           tuple((e.index, e.kind, e.saves, e.tag) for e in plan.exits))
    made = _BODIES.setdefault(code, {})
    hit = made.get(key)
    if hit is None:
        hit = made[key] = _body_code(code, plan)
    return hit


_BODIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _body_code(code, plan: LoopPlan) -> types.CodeType:
    bc, positions = _copy(code)
    start = _label_at(bc, positions, plan.for_iter + 1)
    head = len(prologue(bc))
    # each exit's instruction becomes the return of (tag, values), last first so that
    # the positions of the earlier ones stay right
    for e in sorted(plan.exits, key=lambda e: -e.index):
        pos = positions[e.index]
        old = bc[pos]
        if old.name.startswith("POP_JUMP"):   # a conditional exit: to a block of its own
            block = Label()
            name = old.name.replace("BACKWARD", "FORWARD")
            bc[pos] = Instr(name, block, location=old.location)
            bc.extend([block] + _exit_return(e, old.location))
        else:
            bc[pos:pos + 1] = _exit_return(e, old.location)
    body = _split_super_instructions(bc[head:])
    cellvars, freevars = list(code.co_cellvars), list(code.co_freevars)
    loc = bc[positions[plan.for_iter]].location
    new_prologue: list = []
    if freevars:
        new_prologue.append(Instr("COPY_FREE_VARS", len(freevars)))
    new_prologue += [Instr("RESUME", 0), Instr("LOAD_CONST", None),   # (the iterator)
                     Instr("LOAD_FAST", PARAM), Instr("DELETE_FAST", PARAM),
                     Instr("JUMP_FORWARD", start)]
    new_prologue += unrun_make_cells(cellvars)[1:-1]   # (jumped over already)
    for instr in new_prologue:
        instr.location = loc
    bc[:] = new_prologue + body
    # the cells of the frame's cell variables come last, as cells (see cells.py): they
    # stay cell variables, shared with the frame and its closures
    bc.argnames = [PARAM] + list(plan.params) + cellvars
    bc.argcount = len(bc.argnames)
    bc.posonlyargcount = bc.kwonlyargcount = 0
    bc.flags &= ~STAR_FLAGS
    bc.cellvars, bc.freevars = cellvars, freevars
    bc.name = code.co_name
    bc.qualname = f"{code.co_qualname}_loop_body_L{CodeInfo.of(code).insts[plan.for_iter].lineno}"
    new = _assemble(bc, body)
    CodeInfo.seed(new, bc)
    return new


def _exit_return(e: Exit, loc) -> list[Instr]:
    """Return ``(tag, values)`` from the body function at exit ``e``."""
    def ins(name, arg=_NO_ARG):
        return Instr(name, location=loc) if arg is _NO_ARG else Instr(name, arg, location=loc)

    if e.kind == "return":
        if e.returns_const:
            return [ins("LOAD_CONST", e.tag), ins("LOAD_CONST", (e.const,)),
                    ins("BUILD_TUPLE", 2), ins("RETURN_VALUE")]
        return [ins("BUILD_TUPLE", 1), ins("LOAD_CONST", e.tag), ins("SWAP", 2),
                ins("BUILD_TUPLE", 2), ins("RETURN_VALUE")]
    # the iterator's placeholder, when it is still on the stack
    out = [ins("POP_TOP")] if e.kind == "next" or e.keeps_iterator else []
    out.append(ins("LOAD_CONST", e.tag))
    out += [ins("LOAD_FAST", n) for n in e.saves]
    out += [ins("BUILD_TUPLE", len(e.saves)), ins("BUILD_TUPLE", 2), ins("RETURN_VALUE")]
    return out


# ============================================================================ the loop

def call_body(bc, positions: list[int], code, plan: LoopPlan, caller,
              resume_after=None) -> None:
    """Put the call of the body function and the dispatch of its exits in front of the
    body's first instruction of ``bc`` (the island's copy of ``code``; ``positions``
    maps instruction indices to positions in it). The old body stays, never run.

    ``resume_after(index)`` returns the instructions that end the frame with a call of
    the resume function at instruction ``index`` (the stack empty there); they go in
    front of each of ``plan.resumes``, so the code after the loop is compiled too."""
    if resume_after is not None:
        for at in sorted(plan.resumes, reverse=True):   # (later positions first)
            pos = positions[at]
            bc[pos:pos] = resume_after(at)
    top = _label_at(bc, positions, plan.for_iter)
    first = bc[positions[plan.for_iter + 1]]
    loc = bc[positions[plan.for_iter]].location
    # the labels of the exits' targets, as this copy has them
    targets = {e.index: bc[positions[e.label_at]].arg for e in plan.others
               if e.kind == "break"}

    def ins(name, arg=_NO_ARG):
        return Instr(name, location=loc) if arg is _NO_ARG else Instr(name, arg, location=loc)

    def if_not_none(label):
        out = [ins(_POP_JUMP_IF_NOT_NONE, label)]
        return out + ([ins("NOT_TAKEN")] if pyversion.NOT_TAKEN_AFTER_BRANCH else [])

    def if_false(label):
        out = [ins(pyversion.POP_JUMP_FORWARD_IF_FALSE, label)]
        return out + ([ins("NOT_TAKEN")] if pyversion.NOT_TAKEN_AFTER_BRANCH else [])

    def store(names):
        return [ins("UNPACK_SEQUENCE", len(names))] + [ins("STORE_FAST", n) for n in names]

    nexts = [e for e in plan.exits if e.kind == "next"]
    saves = nexts[0].saves if nexts else ()
    out = [ins("STORE_FAST", ITEM)]
    out += pyversion.load_callable_const(caller, loc)
    out += closure_tuple(code, code.co_freevars)
    # (the item is unbound again at once: the frame must not keep it alive)
    out += [ins("LOAD_FAST", ITEM), ins("DELETE_FAST", ITEM)]
    out += [ins("LOAD_FAST", n) for n in plan.params]
    out += [ins(pyversion.LOAD_CLOSURE, CellVar(n)) for n in code.co_cellvars]
    out += pyversion.call_instrs(2 + len(plan.params) + len(code.co_cellvars), location=loc)
    others = Label()
    out += [ins("UNPACK_SEQUENCE", 2),              # [iterator, values, tag]
            ins("COPY", 1)] + if_not_none(others) + [ins("POP_TOP")]
    out += store(saves) + [ins("JUMP_BACKWARD", top)]
    out.append(others)
    for k, e in enumerate(plan.others):
        skip = Label()
        last = k == len(plan.others) - 1
        if not last:
            out += [ins("COPY", 1), ins("LOAD_CONST", e.tag), ins("IS_OP", 0)] + if_false(skip)
        out.append(ins("POP_TOP"))                   # the tag
        if e.kind == "break":
            out += store(e.saves) + [ins("POP_TOP"), ins("JUMP_FORWARD", targets[e.index])]
        else:   # return: [iterator, (value,)]
            out += [ins("UNPACK_SEQUENCE", 1), ins("SWAP", 2), ins("POP_TOP"),
                    ins("RETURN_VALUE")]
        if not last:
            out.append(skip)
    if not plan.others:
        out.append(ins("POP_TOP"))
        out += [ins("LOAD_CONST", None), ins("RETURN_VALUE")]   # (never reached)
    pos = positions[plan.for_iter + 1]
    assert bc[pos] is first
    bc[pos:pos] = out


_POP_JUMP_IF_NOT_NONE = "POP_JUMP_IF_NOT_NONE" if pyversion.PY312 else \
    "POP_JUMP_FORWARD_IF_NOT_NONE"


def outlined_loop(fn, brk, bound, largest: int, cache_of, resume_after=None):
    """For an island that starts at a ``for`` loop (``brk``, at its ``GET_ITER``): the
    rewrite of the island's code that outlines the loop's body (for ``break_code``),
    or None when the loop does not fit (the reason goes to the ``loops`` log).
    ``bound`` are the frame's locals bound there, ``largest`` the elements of the
    largest array the frame holds there, ``cache_of(code, globals)`` gives
    the hook's cache of the body function (see ``BodyCaller``), ``resume_after``
    makes the call of a resume function after the loop (see ``call_body``)."""
    code = fn.__code__
    plan = loop_plan(code, brk.inst.index, set(bound), len(brk.stack) - 1)
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
    if isinstance(plan, str):
        log_loops.debug("%s: loop body not outlined: %s", code_name(code), plan)
        return None
    caller = BodyCaller(body_code(code, plan), fn.__globals__, cache_of)
    log_loops.debug("%s: loop body outlined as %s", code_name(code), caller.code.co_qualname)
    return lambda bc, positions: call_body(bc, positions, code, plan, caller, resume_after)


class BodyCaller:
    """Called from the loop's bytecode as ``caller(closure, item, *params, *cells)``:
    runs the body function through the hook and returns its ``(tag, values)``.

    It is called once per iteration, so the path is short: the function object is
    made once when the frame has no free variables, and the body's cache (of the hook,
    ``cache_of(code, globals)``) is looked up once and then held by a weak reference
    (this object is a constant of code that the cache's context holds: a strong one
    would keep the context alive forever). ``cache_of`` returns None once the context
    is gone; then the body runs uncompiled."""

    __slots__ = ("code", "fn_globals", "cache_of", "fn", "cache_ref")

    def __init__(self, code, fn_globals: dict, cache_of):
        self.code, self.fn_globals, self.cache_of = code, fn_globals, cache_of
        self.fn = None if code.co_freevars else types.FunctionType(
            code, fn_globals, code.co_name, None, None)
        self.cache_ref = _dead_ref

    def __call__(self, closure, *args):
        fn = self.fn
        if fn is None:
            fn = types.FunctionType(self.code, self.fn_globals, self.code.co_name, None,
                                    closure)
        cache = self.cache_ref()
        if cache is None:
            cache = self.cache_of(self.code, self.fn_globals)
            if cache is None:
                return fn(*args)
            self.cache_ref = weakref.ref(cache)
        return cache.dispatch(fn, *args)

    def __repr__(self) -> str:
        return f"<loop body {self.code.co_qualname}>"


def _dead_ref():
    return None


__all__ = ["BodyCaller", "LoopPlan", "body_code", "call_body", "loop_plan", "outlined_loop"]
