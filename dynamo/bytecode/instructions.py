"""A code object as a flat list of instructions the translator can walk by index.

``CodeInfo.of(code)`` reads the code with the ``bytecode`` library once (cached per
code object) and records, for each instruction, its jump target as an index, its
line, and which loop and ``try`` regions contain it. Codegen copies the original
``bytecode.Bytecode`` and finds instructions in it through ``bc_index``.

Example::

    >>> info = CodeInfo.of(f.__code__)
    >>> [i.name for i in info.insts[:3]]
    ['RESUME', 'LOAD_FAST', 'LOAD_CONST']
"""

from __future__ import annotations

import linecache
import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from bytecode import Bytecode, Instr, Label, TryBegin, TryEnd

from .. import pyversion
from .signature import Params

# Exception handlers that only restore locals and re-raise (3.12 inlined
# comprehensions): tracing through their region is safe.
_TRANSPARENT_HANDLER_OPS = {"SWAP", "POP_TOP", "STORE_FAST", "RERAISE", "COPY", "NOP",
                            "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST", "LOAD_FAST",
                            "LOAD_FAST_AND_CLEAR"}


@dataclass
class Inst:
    index: int
    name: str
    arg: Any
    instr: Instr
    target: int | None = None     # jump target, as an instruction index
    lineno: int | None = None

    def __repr__(self) -> str:
        arg = "" if self.arg is None else f" {self.arg!r}"
        return f"{self.index}: {self.name}{arg}"


@dataclass
class Region:
    start: int
    end: int                       # inclusive
    kind: str                      # "loop" or "try"

    def __contains__(self, index: int) -> bool:
        return self.start <= index <= self.end


@dataclass
class CodeInfo:
    filename: str                                # (not the code: the cache is weak on it)
    bytecode: Bytecode
    insts: list[Inst]
    bc_index: list[int]                         # position of insts[i] in `bytecode`
    regions: list[Region] = field(default_factory=list)
    entry: int = 0                               # first instruction after the prologue
    handlers: list[tuple[int, int, int]] = field(default_factory=list)  # start, end, target
    catching: frozenset = frozenset()   # instructions an except/finally handler covers
    early_exits: dict = field(default_factory=dict, repr=False)   # loop_may_exit_early's

    @classmethod
    def of(cls, code) -> CodeInfo:
        hit = _CACHE.get(code)
        if hit is None:
            hit = _CACHE[code] = cls._read(code)
        return hit

    @classmethod
    def seed(cls, code, bc: Bytecode) -> None:
        """Record ``bc`` as the reading of ``code``, which was just assembled from it
        (a resume function, see dynamo.bytecode.resume): its first ``of`` need not parse the
        code again. ``bc`` must not be changed afterwards."""
        if code not in _CACHE:
            _CACHE[code] = cls._read(code, bc)

    @classmethod
    def _read(cls, code, bc: Bytecode | None = None) -> CodeInfo:
        if bc is None:
            bc = Bytecode.from_code(code)
        insts: list[Inst] = []
        bc_index: list[int] = []
        labels: dict[Label, int] = {}
        try_stack: list[tuple[TryBegin, int]] = []
        try_spans: list[tuple[int, int, Label]] = []
        for pos, item in enumerate(bc):
            if isinstance(item, Label):
                labels[item] = len(insts)
            elif isinstance(item, TryBegin):
                try_stack.append((item, len(insts)))
            elif isinstance(item, TryEnd):
                begin, start = next(t for t in reversed(try_stack) if t[0] is item.entry)
                try_stack.remove((begin, start))
                if len(insts) > start:
                    try_spans.append((start, len(insts) - 1, begin.target))
            elif isinstance(item, Instr):
                lineno = item.location.lineno if item.location is not None else None
                insts.append(Inst(len(insts), item.name, item.arg, item, lineno=lineno))
                bc_index.append(pos)
        for inst in insts:
            if isinstance(inst.arg, Label):
                inst.target = labels[inst.arg]
        regions = [Region(i.target, i.index, "loop") for i in insts
                   if i.target is not None and i.target <= i.index]
        handlers = [(start, end, labels[handler]) for start, end, handler in try_spans]
        for start, end, handler in handlers:
            if not _transparent(insts, handler):
                # a `with` block begins at the instructions that enter the context
                n = len(pyversion.WITH_ENTER)
                if tuple(i.name for i in insts[max(start - n, 0):start]) == \
                        pyversion.WITH_ENTER:
                    start -= n
                regions.append(Region(start, end, "try"))
        entry = 0
        while entry < len(insts) and insts[entry].name in ("MAKE_CELL", "COPY_FREE_VARS",
                                                            "RESUME", "NOP"):
            entry += 1
        catching = frozenset(i for start, end, handler in handlers
                             if not _transparent(insts, handler) and
                             not _exits_with(insts, handler)
                             for i in range(start, end + 1))
        return cls(code.co_filename, bc, insts, bc_index, regions, entry, handlers, catching)

    def outermost_region(self, index: int) -> Region | None:
        """The largest loop or try region that contains instruction ``index``."""
        hits = [r for r in self.regions if index in r]
        if not hits:
            return None
        start = min(r.start for r in hits)
        end = max(r.end for r in hits)
        # Regions overlapping the hull belong to the same construct: grow to a fixpoint.
        grown = True
        while grown:
            grown = False
            for r in self.regions:
                if r.start <= end and r.end >= start and (r.start < start or r.end > end):
                    start, end, grown = min(start, r.start), max(end, r.end), True
        kind = "try" if any(r.kind == "try" for r in hits) else "loop"
        return Region(start, end, kind)

    def loop_may_exit_early(self, for_iter: int) -> bool:
        """Can the ``for`` loop whose ``FOR_ITER`` is at ``for_iter`` end before its
        iterator runs out (a ``break``, ``return`` or ``raise`` in its body)?

        The body is the loop region the backward jump to ``FOR_ITER`` closes; leaving
        it other than through ``FOR_ITER`` itself is an early exit. Without a region
        (no backward jump found) the answer is yes: nothing is known.
        """
        if for_iter not in self.early_exits:
            self.early_exits[for_iter] = self._exits_early(for_iter)
        return self.early_exits[for_iter]

    def _exits_early(self, for_iter: int) -> bool:
        loops = [r for r in self.regions if r.kind == "loop" and r.start == for_iter]
        if not loops:
            return True
        body = range(for_iter + 1, max(r.end for r in loops) + 1)
        for i in body:
            inst = self.insts[i]
            if inst.name.startswith(("RETURN_", "RAISE_", "RERAISE")):
                return True
            if inst.target is not None and inst.target not in body and \
                    inst.target != for_iter:
                return True
        return False

    def written_first(self, for_iter: int) -> set[str]:
        """Locals that every pass through the body of the ``for`` loop at ``for_iter``
        stores before it reads them (the loop variable, ``xi = x[i]``): their values
        never pass from one iteration to the next.

        A forward "definitely stored" analysis over the body's instructions: a name
        is stored at an instruction when it is on every path from the body's start
        to it; a load of a name not stored there reads the previous iteration's.
        """
        loops = [r for r in self.regions if r.kind == "loop" and r.start == for_iter]
        if not loops:
            return set()
        end = max(r.end for r in loops)
        body = range(for_iter + 1, end + 1)
        stored: dict[int, frozenset | None] = {i: None for i in body}   # None: unreached
        stored[for_iter + 1] = frozenset()
        read_first: set[str] = set()
        written: set[str] = set()
        changed = True
        while changed:
            changed = False
            for i in body:
                here = stored[i]
                if here is None:
                    continue
                inst = self.insts[i]
                names = _local_names(inst)
                if inst.name.startswith(("LOAD_FAST", "DELETE_FAST")):
                    read_first |= {n for n in names if n not in here}
                if inst.name.startswith("STORE_FAST"):
                    stores = names[:1] if inst.name == "STORE_FAST_LOAD_FAST" else names
                    written |= set(stores)
                    here = here | set(stores)
                    if inst.name == "STORE_FAST_LOAD_FAST":
                        read_first |= {n for n in names[1:] if n not in here}
                nexts = [] if inst.name in _NO_FALLTHROUGH else [i + 1]
                if inst.target is not None:
                    nexts.append(inst.target)
                for j in nexts:
                    if j in body:
                        merged = here if stored[j] is None else stored[j] & here
                        if merged != stored[j]:
                            stored[j], changed = merged, True
        return written - read_first

    def names_read_from(self, start: int) -> set[str]:
        """Local names that instructions reachable from ``start`` may read.

        Used to pass only live locals to a resume function: a local nobody reads after
        the break (a resume function's own ``___stack`` arguments, say) is dropped.
        """
        seen, todo, names = set(), [start], set()
        while todo:
            i = todo.pop()
            if i in seen or i >= len(self.insts):
                continue
            seen.add(i)
            inst = self.insts[i]
            if inst.name.startswith(("LOAD_FAST", "DELETE_FAST", "STORE_FAST_LOAD_FAST")):
                arg = inst.arg if isinstance(inst.arg, tuple) else (inst.arg,)
                names.update(getattr(a, "name", a) for a in arg)
            if inst.target is not None:
                todo.append(inst.target)
            if inst.name not in _NO_FALLTHROUGH:
                todo.append(i + 1)
            todo += [h for s, e, h in self.handlers if s <= i <= e]
        return names

    def source_line(self, lineno: int | None) -> str:
        if lineno is None:
            return ""
        return linecache.getline(self.filename, lineno).strip()


def _local_names(inst: Inst) -> list[str]:
    """The local names an instruction's argument holds (two for the 3.13 pairs)."""
    args = inst.arg if isinstance(inst.arg, tuple) else (inst.arg,)
    return [getattr(a, "name", a) for a in args]


_NO_FALLTHROUGH = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE", "JUMP_FORWARD",
                   "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT"}


def code_name(code) -> str:
    """How messages name a code object: its qualified name, and for a resume function
    (``f_resume_at_L6``, see ``resume.py``) the function and where it resumes.

        >>> code_name(resume_code)
        'f, after the break at line 6'
    """
    name = code.co_qualname
    found = _RESUME_NAME.fullmatch(name)
    if found is None:
        return name
    line = found.group(2).rsplit("L", 1)[1]
    return f"{found.group(1)}, after the break at line {line}"


_RESUME_NAME = re.compile(r"(.+?)((?:_resume_at_L\d+)+)")


def frame_params(code) -> list[str]:
    """The frame's arguments in frame order (positional, keyword-only, *args, **kwargs),
    as parameters of generated code."""
    from dynamo.guards import param_name

    return [param_name(v) for v in Params.of(code).frame_order]


def _exits_with(insts: list[Inst], handler: int) -> bool:
    """The handler of a ``with`` block: it calls ``__exit__`` (which, for the only
    context manager traced, ``np.errstate``, restores its settings and lets the
    exception through) rather than testing the exception itself."""
    return any(inst.name == "WITH_EXCEPT_START" for inst in insts[handler:handler + 4])


def _transparent(insts: list[Inst], handler: int) -> bool:
    for inst in insts[handler:handler + 12]:
        if inst.name not in _TRANSPARENT_HANDLER_OPS:
            return False
        if inst.name == "RERAISE":
            return True
    return False


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
