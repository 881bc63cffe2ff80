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
from .handlers import catching, transparent, unwind_table
from .patch import WORK
from .signature import Params


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


def _rejoins(insts, inst: Inst) -> bool:
    """Is ``inst`` no loop's jump back, but the jump from a block the compiler put after
    the function's end (3.12+: an ``except`` handler) back to the code it falls into?
    CPython makes that jump ``JUMP_BACKWARD_NO_INTERRUPT``, as it does the jump back of
    a ``yield from``/``await`` loop (to its ``SEND``), which is a loop. Taken for a
    loop, it would make the code after every ``try`` a loop, run eagerly at a break."""
    return inst.name == "JUMP_BACKWARD_NO_INTERRUPT" and insts[inst.target].name != "SEND"


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
    # (CodeInfo of the original, instructions in front): a resume function made by
    # patching the original (see ``resumed``), whose analyses are the original's
    origin: tuple | None = field(default=None, repr=False)
    flow: dict = field(default_factory=dict, repr=False)   # _flow_sets's, per kind
    # handler target -> (stack depth, push lasti): how CPython unwinds to it (the
    # exception table's entry; the translator's symbolic raise, translator/exceptions)
    unwind: dict = field(default_factory=dict, repr=False)
    _joins: frozenset | None = field(default=None, repr=False)   # joins()'s, once
    # the local a zero-argument ``super()`` reads (the frame's first local: the
    # function's first argument), where the code may call it; a resume function
    # keeps it live and in its first slot (``super_self``)
    super_self: str | None = None

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
    def resumed(cls, code, original, head: list[Instr], target: int,
                bc: Bytecode) -> None:
        """Record the reading of ``code``, a resume function made from ``original`` by
        putting the instructions ``head`` in front (``dynamo.bytecode.patch``), whose
        last jumps to ``original``'s instruction ``target``.

        Nothing of the copy is read: its instructions are the original's, shifted by
        ``len(head)`` and made on demand (``_ShiftedInsts``), so a resume function
        costs the translator only the instructions it walks, and the analyses
        (``names_read_from``, ``live_at``) are the original's, computed once.
        ``bc`` has the attributes of ``code`` and its first instructions."""
        base = cls.of(original)
        shift = len(head)
        insts = [Inst(i, instr.name, instr.arg, instr, lineno=original.co_firstlineno)
                 for i, instr in enumerate(head)]
        insts[-1].target = target + shift
        entry = 0
        while insts[entry].name in ("COPY_FREE_VARS", "RESUME"):
            entry += 1
        _CACHE[code] = cls(
            code.co_filename, bc, _ShiftedInsts(insts, base.insts), [],
            [Region(r.start + shift, r.end + shift, r.kind) for r in base.regions],
            entry, [(s + shift, e + shift, h + shift) for s, e, h in base.handlers],
            _Shifted(base.catching, shift), origin=(base, shift),
            unwind={h + shift: v for h, v in base.unwind.items()})

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
                   if i.target is not None and i.target <= i.index and not _rejoins(insts, i)]
        handlers = [(start, end, labels[handler]) for start, end, handler in try_spans]
        for start, end, handler in handlers:
            if not transparent(insts, handler):
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
        return cls(code.co_filename, bc, insts, bc_index, regions, entry, handlers,
                   catching(insts, handlers),
                   unwind=unwind_table(code), super_self=super_self(code))

    def handler_of(self, index: int) -> tuple[int, int, bool] | None:
        """Where an exception raised at instruction ``index`` goes: (the handler's
        index, the stack depth to cut to, whether the instruction's offset is pushed),
        from the innermost exception-table entry around it; None when it leaves."""
        spans = [(start, handler) for start, end, handler in self.handlers
                 if start <= index <= end]
        if not spans:
            return None
        handler = max(spans)[1]
        depth, lasti = self.unwind[handler]
        return handler, depth, lasti

    def joins(self) -> frozenset[int]:
        """Instructions that may run after another than the one before them: jump
        targets and exception handlers (and where a resume function's prologue jumps
        into the original). From one of them to the next, code runs in a straight
        line. Computed once per code (a resume function made by patching shifts the
        original's)."""
        if self._joins is None:
            if self.origin is not None:
                base, shift = self.origin
                head = [i.target for i in self.insts.head if i.target is not None]
                self._joins = frozenset([j + shift for j in base.joins()] + head)
            else:
                self._joins = frozenset([i.target for i in self.insts if i.target is not None]
                                        + [handler for _, _, handler in self.handlers])
        return self._joins

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
        to it; a load of a name not stored there reads the previous iteration's. A
        name some pass does not store (``if x[i] > 0: last = x[i]``, never read in the
        body) keeps the previous iteration's value through that pass: it is no name
        written first, though no load reads it (the next trip's value is the old one
        where the ``if`` is false).
        """
        loops = [r for r in self.regions if r.kind == "loop" and r.start == for_iter]
        if not loops:
            return set()
        return self.written_first_in(range(for_iter + 1, max(r.end for r in loops) + 1),
                                     for_iter)

    def written_first_in(self, body: range, head: int) -> set[str]:
        """``written_first`` of the loop whose passes run the instructions ``body``
        from its first, the next pass starting where a pass reaches ``head`` (a ``for``
        loop's ``FOR_ITER``; a counted ``while``'s test, translator/counted_whiles.py)."""
        stored: dict[int, frozenset | None] = {i: None for i in body}   # None: unreached
        stored[body.start] = frozenset()
        read_first: set[str] = set()
        written: set[str] = set()
        repeated: dict[int, frozenset] = {}   # a jump back to the loop's head: stored
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
                    elif j == head:   # (the next iteration starts from here)
                        repeated[i] = here
        every_pass = frozenset.intersection(*repeated.values()) if repeated else written
        return (written & every_pass) - read_first

    def names_read_from(self, start: int) -> set[str]:
        """Local names that instructions reachable from ``start`` may read.

        A resume function's own ``___stack`` arguments, say, are read by no
        instruction after the break. (See ``live_at`` for the names whose *current*
        value may be read.)
        """
        return set(self._flow("read", start))

    def live_at(self, start: int) -> set[str]:
        """Locals live at ``start``: some path from it reads the local before storing
        it again. A dead local (``o = None`` next, or never read again) need not be
        kept: its value is unreachable to the program, as in plain Python, where the
        frame's slot is overwritten before anyone looks."""
        return set(self._flow("live", start))

    def names_stored_from(self, start: int) -> set[str]:
        """Local names that instructions reachable from ``start`` may store: a local
        not among them keeps, from ``start`` on, the value it has there (an island's
        ``rng`` made before its loop is the same Generator on every trip)."""
        return set(self._flow("stored", start))

    def _flow(self, kind: str, start: int) -> frozenset:
        """The ``kind`` set at instruction ``start``, from the table computed once per
        code (for a resume function made by patching: the original's table)."""
        if self.origin is not None:
            base, shift = self.origin
            if start >= shift:
                return base._flow(kind, start - shift)
        table = self.flow.get(kind)
        if table is None:
            table = self.flow[kind] = _flow_sets(self, kill=kind == "live",
                                                 stores=kind == "stored")
        return table[start] if 0 <= start < len(table) else frozenset()

    def source_line(self, lineno: int | None) -> str:
        if lineno is None:
            return ""
        return linecache.getline(self.filename, lineno).strip()


def _flow_sets(info: CodeInfo, kill: bool, stores: bool = False) -> list[frozenset]:
    """For each instruction, the locals that some path from it reads: before any store
    of them (``kill``, liveness) or anywhere; with ``stores``, those it stores. One
    backward fixpoint over the whole code, exception handlers included as successors of
    the instructions they cover."""
    insts = info.insts
    n = len(insts)
    succs: list[list[int]] = []
    raises: list[list[int]] = [[] for _ in range(n)]
    for start, end, handler in info.handlers:
        for i in range(start, min(end, n - 1) + 1):
            raises[i].append(handler)
    effects: list[list[tuple[bool, str]]] = []   # (is a store, name), in order
    for inst in insts:
        nexts = [] if inst.name in _NO_FALLTHROUGH else [inst.index + 1]
        if inst.target is not None:
            nexts.append(inst.target)
        succs.append([j for j in nexts if j < n])
        names = _local_names(inst)
        if info.super_self is not None and loads_super(inst):
            effects.append([(False, info.super_self)])   # super() reads the first local
        elif inst.name in ("STORE_FAST_LOAD_FAST",):
            effects.append([(True, names[0]), (False, names[1])])
        elif inst.name.startswith("STORE_FAST"):
            effects.append([(True, name) for name in names])
        elif inst.name.startswith(("LOAD_FAST", "DELETE_FAST")):
            effects.append([(False, name) for name in names])
        else:
            effects.append([])
    sets = [frozenset()] * n
    changed = True
    while changed:
        changed = False
        for i in range(n - 1, -1, -1):
            here = set().union(*(sets[j] for j in succs[i]))
            for is_store, name in reversed(effects[i]):
                if is_store is stores:
                    here.add(name)
                elif kill:
                    here.discard(name)
            here.update(*(sets[h] for h in raises[i]))   # a raise before the store
            if here != sets[i]:
                sets[i] = frozenset(here)
                changed = True
    return sets


class _ShiftedInsts:
    """The instructions of a resume function made by patching (``CodeInfo.resumed``):
    its own ``head``, then those of the original, shifted, each made when first asked
    for. The original's cells are the resume function's cells too (passed in, see
    ``cells.py``), so instructions keep their arguments; its prologue instructions are
    NOPs (the head did their work), but for the MAKE_CELLs, which stay (jumped over)."""

    def __init__(self, head: list[Inst], base: list[Inst]):
        self.head, self.base = head, base
        self.made: dict[int, Inst] = {}
        self.original_head = 0
        while self.original_head < len(base) and base[self.original_head].name in (
                "MAKE_CELL", "COPY_FREE_VARS", "RESUME", "NOP"):
            self.original_head += 1

    def __len__(self) -> int:
        return len(self.head) + len(self.base)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if i < len(self.head):
            return self.head[i]
        hit = self.made.get(i)
        if hit is None:
            hit = self.made[i] = self._make(i)
        return hit

    def _make(self, i: int) -> Inst:
        WORK["shifted"] += 1
        shift = len(self.head)
        old = self.base[i - shift]
        if old.index < self.original_head and old.name != "MAKE_CELL":
            instr = Instr("NOP", location=old.instr.location)
            return Inst(i, "NOP", None, instr, lineno=old.lineno)
        target = None if old.target is None else old.target + shift
        return Inst(i, old.name, old.arg, old.instr, target, old.lineno)


class _Shifted:
    """A set of instruction indices of the original, seen from a resume function."""

    def __init__(self, base, shift: int):
        self.base, self.shift = base, shift

    def __contains__(self, index) -> bool:
        return index - self.shift in self.base


def super_self(code) -> str | None:
    """The first argument, which a zero-argument ``super()`` in ``code`` reads from the
    frame's first local slot; None where the code cannot call it (no ``__class__``
    cell, no ``super`` name, no argument)."""
    if "__class__" in code.co_freevars and "super" in code.co_names and code.co_argcount:
        return code.co_varnames[0]
    return None


def loads_super(inst: Inst) -> bool:
    """``inst`` loads the builtin ``super`` (a zero-argument call may follow). The name
    is looked at first: another instruction's tuple argument (3.11's ``KW_NAMES``
    of ``super().m(k, last=v)``: one name) is no ``(push_null, name)`` pair."""
    if inst.name not in ("LOAD_GLOBAL", "LOAD_NAME"):
        return False
    arg = inst.arg[1] if isinstance(inst.arg, tuple) else inst.arg
    return arg == "super"


def _local_names(inst: Inst) -> list[str]:
    """The local names an instruction's argument holds (two for the 3.13 pairs)."""
    args = inst.arg if isinstance(inst.arg, tuple) else (inst.arg,)
    return [getattr(a, "name", a) for a in args]


_NO_FALLTHROUGH = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE", "JUMP_FORWARD",
                   "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT"}


# Names through which code reads its own frame's locals: the builtins that do with no
# namespace passed, and the frame objects' own ways in (``sys._getframe().f_locals``,
# ``inspect.currentframe()``, ``e.__traceback__.tb_frame``)
_LOCALS_READERS = frozenset({"locals", "vars", "dir", "eval", "exec",
                             "_getframe", "currentframe", "f_locals", "tb_frame"})


def reads_its_locals(code) -> bool:
    """``code`` names a way to read its frame's locals (``locals()``, ``eval``,
    ``sys._getframe().f_locals``):
    every bound local is then the program's, dead or not (a break passes them all; a
    loop node keeps each temporary's last value)."""
    return not _LOCALS_READERS.isdisjoint(code.co_names)


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


def function_name(code) -> str:
    """The program's function that ``code`` is, or resumes: ``code_name`` without where
    a resume function resumes (the caller of a helper is ``f``, whichever part of ``f``
    made the call).

        >>> function_name(resume_code)
        'f'
    """
    name = code.co_qualname
    found = _RESUME_NAME.fullmatch(name)
    return name if found is None else found.group(1)


_RESUME_NAME = re.compile(r"(.+?)((?:_resume_at_L\d+)+)")


def frame_params(code) -> list[str]:
    """The frame's arguments in frame order (positional, keyword-only, *args, **kwargs),
    as parameters of generated code."""
    from dynamo.guards import param_name

    return [param_name(v) for v in Params.of(code).frame_order]


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
