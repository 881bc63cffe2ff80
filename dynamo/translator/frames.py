"""The two translators: the frame being compiled, and a user function inlined into it.

When a handler raises ``Unsupported`` in the root frame, the root decides what the
break means:

- inside a loop or a ``try``/``with`` region: restart the trace and break where it
  entered the region (its start, or a resume function's entry point inside it)
  instead, so the rest of the region runs eagerly (an *island*); on 3.14 the test at
  the top of a ``while`` loop, on its first pass, is the exception (see
  ``_first_while_test``);
- after the failed instruction changed the graph or Python state (an inlined callee
  broke halfway): restart the trace and break before that instruction;
- otherwise: stop here with a ``GraphBreak`` that carries the stack as it was.

Example::

    >>> tx = InstructionTranslator(code, output, {"x": x}, fn_globals, closure, {})
    >>> tx.run()      # returns at RETURN_VALUE; tx.result is the return value
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from dynamo.guards import ClosureSource, LocalSource, PassedCellSource

from .. import pyversion
from ..bytecode.cells import passed_cells
from ..bytecode.instructions import Inst, Region, function_name
from ..exc import RestartAnalysis, Unsupported
from ..variables import CellVariable, Variable, wrap
from ..variables.builtins import FRAME_CAPTURE
from .base import ASYNC_FLAGS, TranslatorBase
from .break_before import resume_index, resumes_before
from .calls import Calls
from .containers import Containers
from .control_flow import ControlFlow
from .data_trips import DataTripLoops
from .exceptions import Exceptions
from .index_splits import IndexSplits
from .list_counts import hint_list_counts
from .loops import LoopNodes
from .names import Names
from .operators import Operators
from .stack_ops import StackOps
from .triangular_loops import TriangularLoops


class Handlers(StackOps, Names, Operators, Calls, DataTripLoops, ControlFlow, IndexSplits,
               TriangularLoops, LoopNodes, Containers, Exceptions):
    """Every opcode handler, one method per opcode."""

    def inliner(self, code, local_vars, cells, fn_globals) -> InliningTranslator:
        return InliningTranslator(code, self.output, local_vars, cells, fn_globals,
                                  parent=self)

    def loop_plan(self, inst) -> BreakPoint | None:
        root = self
        while root.parent is not None:
            root = root.parent
        return root.break_points.get((self.code, inst.index))

    def keeps_temporaries(self) -> bool:
        """Every loop node of this frame hands back its temporaries' last values (an
        island after it shows them: ``InstructionTranslator.step``)."""
        return self.parent is None and KEEP_TEMPORARIES in self.break_points

    def drop_temporary(self, name: str, before=None) -> None:
        """A loop node hands back no value of the local ``name`` (dead after the loop:
        ``loops.dead_after``): the trace's local goes back to ``before`` (None: it is
        unbound). In the root frame it is remembered (``dropped``): where that frame
        then shows every local to the program (an island), the value is stale."""
        if before is None:
            before = UNBOUND
            self.locals.pop(name, None)
        else:
            self.locals[name] = before
        if self.parent is None:
            self.dropped[name] = before

    def refuse_loop_node(self, inst, reason: str, counters: dict | None = None,
                         kind: str | None = None, peel: int | None = None) -> None:
        """Start the trace over: with the loop at ``inst`` unrolled, or (``counters``)
        tried again as a loop node with those locals as counters (``kind`` "rows":
        those lists as stacked rows, ``per_trip_lists``), after ``peel`` unrolled trips
        (None: as many as an earlier attempt asked for, ``BreakPoint.peel``)."""
        kind = kind or ("unroll" if counters is None else "counters")
        if peel is None:
            plan = self.loop_plan(inst)
            peel = 1 if plan is None else plan.peel
        raise RestartAnalysis("a loop that is not a loop node") from _Restart(BreakPoint(
            inst.index, kind, Unsupported(f"loop node: {reason}"), self.code, counters,
            peel))


# The key of the break point that makes every loop node of the frame hand back the
# last values of its temporaries (``loops.dead_after`` says none is dead).
KEEP_TEMPORARIES = -1


class _Unbound:
    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = _Unbound()


@dataclass
class BreakPoint:
    index: int
    kind: str            # "instruction": run it eagerly and resume; "island": run the rest;
    #                      "before": resume at it (the GET_ITER or CALL that needed an
    #                      unbacked length: the resumed frame reads it off its input);
    #                      no break, what to do with a loop (FOR_ITER) in the next trace:
    #                      "unroll" it ("unroll nested": where it is in another loop
    #                      node's body only), or make a loop node with "counters" (loops.py),
    #                      or with "rows" (in ``counters``: lists, per_trip_lists.py);
    #                      "keep" (at KEEP_TEMPORARIES): loop nodes keep every temporary
    reason: Unsupported
    code: object = None  # of the loop (the root's, or an inlined function's)
    counters: dict | None = None   # "counters": local name -> its step per trip
    # a loop node's trips unrolled before the node (loops.py: 1, or more where a
    # carried local's type settles later, ``loop_facts.SettlingCarry``)
    peel: int = 1

    def __post_init__(self):
        _forget_frames(self.reason)

    @property
    def key(self):
        """Its key among the trace's break points: the root frame's instruction index,
        or (code, index) for a loop (which may be in an inlined function)."""
        return (self.code, self.index) if self.code is not None else self.index


class GraphBreak(Exception):  # noqa: N818 (control flow)
    """The root trace stops before ``inst``; ``stack`` is the stack at that point."""

    def __init__(self, inst: Inst, stack: list[Variable], kw_names: tuple, point: BreakPoint):
        super().__init__(point.reason.reason)
        self.inst, self.stack, self.kw_names, self.point = inst, stack, kw_names, point


class InliningTranslator(Handlers, TranslatorBase):
    def unread_args(self) -> dict:
        """None: an inlined call's arguments are traced values, bound as locals."""
        return {}

    def step(self) -> None:
        try:
            super().step()
        except Unsupported as e:
            _locate(e, self)
            e.inlined = True
            raise


class InstructionTranslator(Handlers, TranslatorBase):
    """The root frame. ``args`` are the real argument values, wrapped when first read."""

    def __init__(self, code, output, args: dict, fn_globals: dict, closure: tuple | None,
                 break_points: dict[int, BreakPoint]):
        if code.co_flags & (inspect.CO_GENERATOR | ASYNC_FLAGS):
            raise Unsupported("generators and coroutines are not compiled as frames",
                              "Their frames suspend and resume, which a graph cannot do; "
                              "generators called from compiled code are inlined.",
                              cause="generator")
        cells: dict[str, CellVariable] = {}
        passed = passed_cells(code)
        for j, name in enumerate(code.co_cellvars):
            if name in passed:   # a resume function's: the caller's cell itself
                cells[name] = _input_cell(args[name], PassedCellSource(name), output)
                continue
            cells[name] = self._arg_cell(name, args) if name in args else CellVariable()
            cells[name].frame_index = j
        for i, name in enumerate(code.co_freevars):
            cells[name] = _input_cell(closure[i], ClosureSource(name, i), output)
        super().__init__(code, output, {}, cells, fn_globals)
        self.args = {k: v for k, v in args.items() if k not in code.co_cellvars}
        self.break_points = break_points
        self.visited: dict[int, None] = {}   # instructions run, in the order first run
        # the instruction where the exception being handled by the trace entered this
        # frame (translator/exceptions.py), until its handler is left
        self.raise_origin: int | None = None
        # local -> what the trace holds since a loop node dropped its last trip's value
        # (``drop_temporary``), until the trace binds it again
        self.dropped: dict[str, Variable | object] = {}

    def _arg_cell(self, name, args) -> CellVariable:
        value, source = args[name], LocalSource(name)
        return CellVariable(read=lambda tx: wrap(tx, value, source), arg_source=source)

    def load_local(self, name: str):
        if name not in self.locals and name in self.args:
            self.locals[name] = wrap(self, self.args.pop(name), LocalSource(name))
        return super().load_local(name)

    def _stale_temporaries(self) -> list[str]:
        """The locals whose last trip's value a loop node dropped, not bound since."""
        return [name for name, before in self.dropped.items()
                if dict.get(self.locals, name, UNBOUND) is before]   # (not a read)

    def check_restart(self, code, index: int, reason: Unsupported):
        """(break point, restart): the data check at ``index`` of ``code`` as the graph
        break it was, and the restart that makes the next trace break there
        (``translator/raising_checks.py``, raised when an op the rerun of a failed check
        could not undo follows the check)."""
        point = BreakPoint(index, "check", reason, code=("data_check", code))

        def restart() -> RestartAnalysis:
            exc = RestartAnalysis("an op after a data check that a rerun cannot undo")
            exc.__cause__ = _Restart(point)   # (convert.py reads it: restart_point)
            return exc
        return point, restart

    def unread_args(self) -> dict:
        """Arguments the trace never read: still in the frame, untouched."""
        return {k: v for k, v in self.args.items() if k not in self.locals}

    def step(self) -> None:
        inst = self.info.insts[self.ip]
        point = self.break_points.get(inst.index)
        if point is not None:
            if point.kind == "island" and self._stale_temporaries():
                # the island's code runs in this frame with every local bound, where a
                # callee may read them (``sys._getframe(1).f_locals``): the loops before
                # it must hand back their temporaries' last values (the reason is
                # the island's: that break is what the user sees)
                raise RestartAnalysis("loop temporaries shown by an island") from \
                    _Restart(BreakPoint(KEEP_TEMPORARIES, "keep", point.reason))
            raise GraphBreak(inst, list(self.stack), self.kw_names, point)
        self.visited[inst.index] = None
        stack, kw_names = list(self.stack), self.kw_names
        before = (len(self.output.graph), self.output.side_effects.version)
        try:
            super().step()
        except Unsupported as e:
            _locate(e, self)
            hint_list_counts(e, self.info.insts, inst.index, stack)   # (counts[int(v)] += 1)
            region = self.info.outermost_region(inst.index)
            if self.raise_origin is not None:
                # a break while the trace handles an exception it raised: the frame
                # cannot resume inside the handler (the exception and its state are
                # the trace's), so the whole `try` where it was raised runs eagerly
                region = self.info.outermost_region(self.raise_origin)
            if region is not None and not _first_while_test(self, region, inst.index):
                start = _island_start(self, region)
                raise RestartAnalysis("break inside a loop or try block") from \
                    _Restart(BreakPoint(start, "island", e))
            if e.cause == FRAME_CAPTURE:   # the program gets this very frame: the rest of
                # the function runs in it (not in resume functions, other frames)
                raise RestartAnalysis("a frame object of the running code") from \
                    _Restart(BreakPoint(inst.index, "island", e))
            dirty = getattr(e, "inlined", False) or \
                before != (len(self.output.graph), self.output.side_effects.version)
            if dirty:
                raise RestartAnalysis("break inside a call") from \
                    _Restart(BreakPoint(inst.index, "instruction", e))
            # ``for c in np.unique(y)``: resume *at* the instruction, so the resumed
            # frame reads the length off its input and traces the loop (break_before)
            if resumes_before(inst, stack, kw_names, e, self.info.insts):
                raise GraphBreak(inst, stack, kw_names, BreakPoint(
                    resume_index(inst, self.info.insts), "before", e)) from e
            raise GraphBreak(inst, stack, kw_names, BreakPoint(inst.index, "instruction",
                                                               e)) from e


class _Restart(Exception):  # noqa: N818 (carries the break point of a RestartAnalysis)
    def __init__(self, point: BreakPoint):
        super().__init__(point.reason.reason)
        self.point = point


def restart_point(exc: RestartAnalysis) -> BreakPoint:
    return exc.__cause__.point


def _island_start(tx, region: Region) -> int:
    """Where the trace entered ``region``, so where its island starts: the region's start
    (a for loop's GET_ITER), or the entry point of a resume function that begins inside
    the region (after a while loop's first test, see ``_first_while_test``)."""
    insts = tx.info.insts
    start = region.start
    if insts[start].name == "FOR_ITER" and start > 0 and insts[start - 1].name == "GET_ITER":
        start -= 1
    start = _comprehension_start(tx.info, start)
    return next(i for i in tx.visited if i == start or i in region)


def _comprehension_start(info, index: int) -> int:
    """Where the inlined comprehension (3.12+) that contains ``index`` begins, or
    ``index`` when there is none.

    An inlined comprehension saves the frame's slots of its variables on the stack
    (``LOAD_FAST_AND_CLEAR``, and ``MAKE_CELL`` gives a cell variable a fresh cell),
    then its exception-table range begins (after one ``SWAP``) and puts them back when
    it ends or raises. Inside it, a slot holds the comprehension's value or cell, not
    the frame's, a state the break code cannot rebuild: an island that would begin
    inside (at the comprehension's loop) begins at its first save instead."""
    insts = info.insts
    for start, end, _ in info.handlers:
        if not start <= index <= end or start < 2 or insts[start - 1].name != "SWAP":
            continue
        first = start - 1
        while first > 0 and insts[first - 1].name in ("LOAD_FAST_AND_CLEAR", "MAKE_CELL"):
            first -= 1
        if first < start - 1 and insts[first].name == "LOAD_FAST_AND_CLEAR":
            return first
    return index


def _first_while_test(tx, region: Region, index: int) -> bool:
    """Whether instruction ``index`` is part of the test at the top of a while loop on
    the loop's first pass, on a Python that keeps that test inside the loop
    (``pyversion.WHILE_TEST_IN_LOOP``). 3.11-3.13 run that first test in front of the
    loop, so there it breaks as a single instruction and the loop is resumed; treated
    the same way here, a loop whose condition depends on array data still gets the
    graph before it."""
    if not pyversion.WHILE_TEST_IN_LOOP or region.kind != "loop":
        return False
    insts = tx.info.insts
    top = insts[region.start]
    if top.name == "FOR_ITER" or any(i.lineno != top.lineno
                                      for i in insts[region.start:index + 1]):
        return False   # a for loop, or past the line of the `while` test
    return not any(i.target == region.start and i.index in tx.visited
                   for i in insts[index:region.end + 1])   # not yet gone round


def _forget_frames(e: BaseException) -> None:
    """Drop the tracebacks of ``e`` and of the exceptions it chains to.

    A break point's reason outlives the trace that raised it (the next trace's break
    points, the logs); its traceback must not. It holds the translator's frames and,
    through their ``f_back``, the frames of the call being compiled, with the program's
    arguments in their locals: a reference cycle (``_trace_and_build``'s break points,
    the reason, its frames) that keeps those values alive, and counted by
    ``sys.getrefcount``, until the cyclic GC runs, while the compiled code runs."""
    todo, seen = [e], set()
    while todo:
        exc = todo.pop()
        if exc is not None and id(exc) not in seen:
            seen.add(id(exc))
            exc.__traceback__ = None
            todo += [exc.__cause__, exc.__context__]


def _input_cell(cell, source, output) -> CellVariable:
    """The CellVariable of a cell that existed before the trace (a free variable, or a
    cell passed in), its contents read at ``source`` when first used."""
    var = CellVariable(source=source, read=_reader(cell, source))
    # a callee that closes over the same cell must see the same CellVariable
    output.input_cells[id(cell)] = (cell, var)
    return var


def _reader(cell, source):
    def read(tx):
        try:
            value = cell.cell_contents
        except ValueError:
            raise Unsupported("free variable referenced before assignment") from None
        return wrap(tx, value, source)
    return read


def _locate(e: Unsupported, tx) -> None:
    """Where ``e`` happened: the innermost translator (an inlined helper's) sets the
    line and its function; each one it passes through on the way out (the helper's
    callers) adds its call, so a message says ``in helper (called from f at line 9)``,
    not the compiled frame's name with the helper's line."""
    if tx.current is None:
        return
    lineno = tx.current.lineno
    if e.location is None:
        e.location = (tx.code.co_filename, lineno, tx.info.source_line(lineno))
        e.function, e.callers = function_name(tx.code), []
    elif e.function is not None:
        call = (function_name(tx.code), lineno)
        if call not in e.callers:   # (a reason raised again, at the same place)
            e.callers.append(call)
