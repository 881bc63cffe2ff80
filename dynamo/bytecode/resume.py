"""Resume functions, and the bytecode of a frame that stops at a graph break.

A resume function is a copy of the original code with a new prologue: it takes the
stack items and live locals as arguments, pushes the stack back, and jumps to the
instruction where execution continues::

    def forward_resume_at_L14(___stack0, x, h):     # (a copy of forward's bytecode)
        PUSH_NULL; LOAD_FAST ___stack0; JUMP_FORWARD <instruction after the break>
        ...

The frame that breaks returns a ``Resume`` (``return caller(...)``, its last act), and
the frame runner calls the resume function after that frame has returned
(``run_break_code``): N breaks run one after another, not N calls deep. The call goes
through the frame hook, so the resume function is traced and compiled in turn, with
its own guards and cache.

It is made by patching the original's bytes (``patch.py``: a few array operations per
resume function; the translator reads it through the original's ``CodeInfo``, shifted)
and, where that cannot be done, by re-assembling a copy with ``bytecode``
(``_assembled``). Cells and free variables are passed as the cell objects
themselves, so ``nonlocal`` writes and inner functions keep sharing them: the
original's free variables as the resume function's closure, its cell variables as
its last parameters, which stay cell variables (``cells.py``: an empty one raises
UnboundLocalError, as in the original, not the NameError of a free variable).

Every resume function copies the *original* code: at a break in a resume function,
the next one continues the original at the matching instruction (``_original_at``),
so N breaks make N resume functions of one level, cached per (code, instruction,
stack layout, live locals). Its ``co_name`` is the original's (what tracebacks and
``f_code.co_name`` show); its ``co_qualname`` says where it resumes.

Example::

    >>> code = resume_code(f.__code__, target=12, layout=(False, True, False), live=("x",))
    >>> code.co_name, code.co_qualname
    ('f', 'f_resume_at_L7')
"""

from __future__ import annotations

import threading
import types
import weakref
from typing import Any

from bytecode import Bytecode, Instr, Label
from bytecode.instr import InstrLocation

from ..code_keyed import CodeKeyed, CodeSet
from .cells import unrun_make_cells
from .copies import assemble, copy, label_at, split_super_instructions
from .drop_order import drops_at_return
from .emit import (
    box_name,
    prologue,
    unbox,
)
from .instructions import CodeInfo
from .patch import WORK, CodeTemplate, resume_bytes
from .signature import STAR_FLAGS

# (all three by identity, not by value: two equal codes, from two ``exec`` of one
# source, would share a weak dict's entry or set's slot, and lose it when the first
# dies; ``code_keyed.CodeSet``)
# code object -> {(target, layout, live): resume code}; weak, so resume functions die
# with the function they continue
_RESUME_CACHE = CodeKeyed()
# resume code -> (weak reference to the code it continues, for each of its instructions
# the index of the original instruction it copies, or None; or, for a resume function
# made by patching, the number of instructions in front of the original's); weak both
# ways, so neither keeps the other alive
_ORIGIN = CodeKeyed()
# the codes resume_code made (``is_resume_code``)
_RESUME_CODES = CodeSet()


def resume_code(code, target: int, layout: tuple[bool, ...], live: tuple[str, ...]):
    """The code of a function that continues ``code`` at instruction ``target``.

    ``layout`` has one entry per stack slot: True for a NULL, False for a value
    (passed as ``___stack{i}``); ``live`` are the locals passed after the stack items,
    and the cells of ``code``'s cell variables come last.

    When ``code`` is itself a resume function, the new one continues the *original*
    code at the matching instruction: a function with N breaks gets N resume functions
    that are each one copy of the original (linear work), not copies of copies (each a
    re-analysis of a longer code, and a name that grows with every break).
    """
    code, target = _original_at(code, target)
    key = (target, layout, live)
    hit = _RESUME_CACHE.setdefault(code, {}).get(key)
    if hit is not None:
        return hit
    new = _patched(code, target, layout, live)
    if new is None:
        new = _assembled(code, target, layout, live)
    _RESUME_CACHE[code][key] = new
    _RESUME_CODES.add(new)
    return new


def _qualname(code, target: int) -> str:
    """The program sees co_name (tracebacks, frame.f_code.co_name, the function's
    __name__): it is the original's. co_qualname says where it resumes (the logs,
    dynamo.explain, dynamo.annotate's code_key)."""
    return f"{code.co_qualname}_resume_at_L{CodeInfo.of(code).insts[target].lineno}"


def _patched(code, target: int, layout: tuple[bool, ...], live: tuple[str, ...]):
    """The resume function made by patching ``code``'s bytes (``patch.py``: linear
    work per break), or None where that cannot be done (then ``_assembled``)."""
    template = CodeTemplate.of(code)
    if template is None:
        return None
    made = resume_bytes(code, template, target, layout, live, _qualname(code, target))
    if made is None:
        return None
    new, shift = made
    # the instructions in front, as the translator reads them (names, not slots)
    values = [f"___stack{i}" for i in range(sum(1 for is_null in layout if not is_null))]
    head: list[Any] = []
    if new.co_freevars:
        head.append(Instr("COPY_FREE_VARS", len(new.co_freevars)))
    head.append(Instr("RESUME", 0))
    k = 0
    for is_null in layout:
        head.append(Instr("PUSH_NULL") if is_null else Instr("LOAD_FAST", values[k]))
        k += not is_null
    head += [Instr("DELETE_FAST", name) for name in values]
    head.append(Instr("JUMP_FORWARD", Label()))
    assert len(head) == shift
    for instr in head:
        instr.location = InstrLocation(code.co_firstlineno, None, None, None)
    bc = Bytecode(head[:2] if new.co_freevars else head[:1])
    bc.argcount, bc.posonlyargcount, bc.kwonlyargcount = new.co_argcount, 0, 0
    bc.argnames = list(new.co_varnames[:new.co_argcount])
    bc.flags, bc.first_lineno = new.co_flags, new.co_firstlineno
    bc.name, bc.qualname, bc.filename = new.co_name, new.co_qualname, new.co_filename
    bc.cellvars, bc.freevars = list(new.co_cellvars), list(new.co_freevars)
    CodeInfo.resumed(new, code, head, target, bc)
    _ORIGIN[new] = (weakref.ref(code), shift)
    return new


def _assembled(code, target: int, layout: tuple[bool, ...], live: tuple[str, ...]):
    """The resume function re-assembled with ``bytecode`` from a copy of ``code``."""
    WORK["assembled"] += 1
    bc, positions = copy(code)
    label = label_at(bc, positions, target)
    head = len(prologue(bc))
    # The body keeps the MAKE_CELLs after the prologue: an inlined comprehension
    # (3.12+) gives its cell variable a fresh cell in the slot each time it runs.
    original_body = list(bc[head:])
    body = split_super_instructions(bc[head:])
    cellvars, freevars = list(code.co_cellvars), list(code.co_freevars)
    values = [f"___stack{i}" for i in range(sum(1 for is_null in layout if not is_null))]
    new_prologue: list[Any] = []
    if freevars:
        new_prologue.append(Instr("COPY_FREE_VARS", len(freevars)))
    new_prologue.append(Instr("RESUME", 0))
    k = 0
    for is_null in layout:
        if is_null:
            new_prologue.append(Instr("PUSH_NULL"))
        else:
            new_prologue.append(Instr("LOAD_FAST", f"___stack{k}"))
            k += 1
    # the program's locals() and dir() must not show the parameters that carried
    # the stack
    new_prologue += [Instr("DELETE_FAST", name) for name in values]
    new_prologue.append(Instr("JUMP_FORWARD", label))
    new_prologue += unrun_make_cells(cellvars)[1:-1]   # (jumped over already)
    for instr in new_prologue:   # where CPython puts a prologue: the `def` line
        instr.location = InstrLocation(code.co_firstlineno, None, None, None)
    bc[:] = new_prologue + body
    bc.argnames = values + list(live) + cellvars   # the cells are passed as cells
    bc.argcount = len(bc.argnames)
    bc.posonlyargcount = bc.kwonlyargcount = 0
    bc.flags &= ~STAR_FLAGS
    bc.cellvars = cellvars
    bc.freevars = freevars
    bc.name = code.co_name
    bc.qualname = _qualname(code, target)
    # the prologue pushes the stack the original had at the target: the original's
    # stack size covers it (split super-instructions push no more than the pair did)
    new = assemble(bc, body, stacksize=max(code.co_stacksize, len(layout)))
    CodeInfo.seed(new, bc)   # the translator reads it next: no need to parse it back
    # (its first local is no argument of the original: super() reads the original's)
    CodeInfo.of(new).super_self = CodeInfo.of(code).super_self
    origin_of = _instruction_origins(bc[:head], original_body, body)
    _ORIGIN[new] = (weakref.ref(code), [None] * len(new_prologue) + origin_of)
    return new


def _instruction_origins(head: list, original: list, body: list) -> list[int | None]:
    """For each instruction of ``body`` (``original`` with its super-instructions
    split), the index in the original code of the instruction it comes from, or None
    where no break resumes to that instruction alone (the second half of a split
    pair). ``head`` is the original prologue before ``original``."""
    index = sum(1 for item in head if isinstance(item, Instr))
    instrs = [item for item in body if isinstance(item, Instr)]
    out: list[int | None] = []
    j = 0
    for item in original:
        if not isinstance(item, Instr):
            continue
        if instrs[j] is item:
            out.append(index)
            j += 1
        else:                  # the two halves of a split super-instruction
            out += [index, None]
            j += 2
        index += 1
    return out


def _original_at(code, target: int):
    """(original code, instruction index in it) for instruction ``target`` of ``code``:
    the code a resume function copies, or ``code`` itself when it is no resume function
    (or the instruction has no counterpart, which the resume function then copies)."""
    origin = _ORIGIN.get(code)
    if origin is None:
        return code, target
    original, origin_of = origin[0](), origin[1]
    if isinstance(origin_of, int):   # patched: the original shifted by a prologue
        at = target - origin_of
        return (code, target) if original is None or at < 0 else (original, at)
    if original is None or len(origin_of) != len(CodeInfo.of(code).insts) or \
            not 0 <= target < len(origin_of) or origin_of[target] is None:
        return code, target
    return original, origin_of[target]


def original_code(code):
    """The user code that resume function ``code`` continues (``code`` itself when it is
    not a resume function)."""
    origin = _ORIGIN.get(code)
    original = origin[0]() if origin is not None else None
    return code if original is None else original


def is_resume_code(code) -> bool:
    """``code`` is a resume function's (made by ``resume_code``), or another that
    ``takes_a_box``: it is called with its arguments in one list (``Resume.run``,
    ``hook.run_boxed``)."""
    return code in _RESUME_CODES


def takes_a_box(code) -> None:
    """Mark generated ``code`` as called with its arguments in one list, as a resume
    function is (an outlined loop body, ``outline.py``): its compiled entries and its
    uncompiled runs take them from the list (``emit.unbox``)."""
    _RESUME_CODES.add(code)


class BoxedCaller:
    """Runs functions of generated ``code`` through the hook with their arguments in a
    list (``hook.run_boxed``): a resume function, once per break, and an outlined loop
    body (``outline.py``), once per trip. The path is kept short:

    - the function object is made once where ``code`` has no free variables;
    - the hook's cache of ``code`` (``cache_of(code, globals)``, None once the compile
      context is gone) is looked up once and then held by a weak reference (this
      object is a constant of code that the cache's context holds: a strong one would
      keep the context alive forever), and its dispatcher is called directly;
    - until the cache takes lists (its first call) and once the context is gone,
      ``run(fn, box)`` runs it (compiles it, or runs it uncompiled)."""

    def __init__(self, code, fn_globals: dict, run, cache_of=None):
        self.code, self.fn_globals, self.run, self.cache_of = code, fn_globals, run, cache_of
        self.plain = None if code.co_freevars else types.FunctionType(
            code, fn_globals, code.co_name, None, None)
        self.cache_ref = _dead_ref

    def function(self, closure) -> types.FunctionType:
        """The function of ``code`` with the frame's cells ``closure``."""
        if closure is None and self.plain is not None:
            return self.plain
        return types.FunctionType(self.code, self.fn_globals, self.code.co_name, None,
                                  closure)

    def dispatch(self, fn, box: list):
        """Run ``fn`` through the hook with the arguments in ``box``."""
        cache = self.cache_ref()
        if cache is None:
            cache = self.cache_of(self.code, self.fn_globals) if self.cache_of else None
            if cache is None or cache.boxed is None:
                return self.run(fn, box)
            self.cache_ref = weakref.ref(cache)
        return cache.dispatch(fn, box)


def _dead_ref():
    return None


class ResumeCaller(BoxedCaller):
    """Called from generated bytecode as ``return caller(cells, *args)``, the last act of
    a frame that breaks: returns a ``Resume``, which ``run_break_code`` runs once that
    frame has returned."""

    def __call__(self, closure, *args):
        return Resume(self, closure, list(args))

    def __repr__(self) -> str:
        return f"<resume {self.code.co_qualname}>"


class Resume:
    """A call of a resume function that the frame runner makes, not the frame that
    breaks (a trampoline): the frame returns first, so the resume functions of a
    function with N breaks run one after another, not N calls deep (each call through
    the hook is several Python frames: a few hundred breaks would pass the recursion
    limit), and the locals the frame does not pass on (dead at the break) are freed
    there rather than held until the last resume function returns.

    ``args`` is a list, handed to the resume function as it is (``hook.run_boxed``):
    the resume function empties it once it has its locals."""

    __slots__ = ("caller", "closure", "args")

    def __init__(self, caller: ResumeCaller, closure, args: list):
        self.caller, self.closure, self.args = caller, closure, args

    def run(self):
        """Build the resume function with the frame's cells as its closure and run it
        through the hook; a frame runner of its code returns its own ``Resume`` here
        rather than running it (``run_break_code``)."""
        caller, closure, box = self.caller, self.closure, self.args
        self.caller = self.closure = self.args = None
        fn = caller.function(closure)
        expected_resume.expected = caller.code
        try:
            return caller.dispatch(fn, box)
        finally:
            expected_resume.expected = None


# the code a ``Resume.run`` is about to run (``.expected``), per thread; read by
# ``run_break_code`` and by the dispatchers that paste it (``break_entry.dispatch_lines``)
expected_resume = threading.local()


def boxed_code(code) -> types.CodeType:
    """``code`` (flat positional parameters) taking them in one list instead
    (``emit.unbox``): how a resume function that runs uncompiled is called. ``code``
    is the resume function's (or an outlined body's) own code object, flat as made,
    not a copy: what it continues is looked up by identity (``original_code``)."""
    bc, _ = copy(code)
    head = len(prologue(bc))
    params = code.co_varnames[:code.co_argcount]
    loc = InstrLocation(code.co_firstlineno, None, None, None)
    original = original_code(code)
    # (its slots are the resume function's: see drop_order.py)
    body = drops_at_return(list(bc[head:]), code, original)
    box = box_name(params, CodeInfo.of(original).super_self)
    bc[:] = list(bc[:head]) + unbox(params, loc, box) + body
    bc.argnames, bc.argcount = [box], 1
    bc.posonlyargcount = bc.kwonlyargcount = 0
    bc.flags &= ~STAR_FLAGS
    # (+1: the None each return's drops push above the returned value)
    return assemble(bc, body, stacksize=max(code.co_stacksize + 1, len(params), 4))


def run_break_code(fn, args: tuple, origin):
    """Run ``fn`` (the new code of a frame of ``origin`` that breaks) with ``args``, then
    the resume functions it returns (``Resume``), one after another, until one returns
    the function's result.

    When this frame is itself the resume function that a ``Resume.run`` below us is
    calling, its ``Resume`` goes back to that loop instead, so the depth stays the same
    however many breaks there are."""
    nested = origin is not None and getattr(expected_resume, "expected", None) is origin
    if nested:
        expected_resume.expected = None   # consumed: a call the resume function makes isn't
    result = fn(*args)
    if nested:
        return result
    while type(result) is Resume:
        result = result.run()
    return result


__all__ = ["BoxedCaller", "Resume", "ResumeCaller", "boxed_code", "is_resume_code",
           "resume_code", "run_break_code", "takes_a_box"]
