"""Turn one frame into a cache entry: trace, compile the graph, generate code and guards.

``convert_frame`` runs the translator over the frame's bytecode. It ends in one of
three ways:

- the trace reaches RETURN: the glue (calling the compiled graph) replaces the frame;
- the trace hits a graph break: the frame becomes bytecode that runs the graph so
  far, the unsupported instruction, and a resume function (:mod:`dynamo.bytecode.resume`);
- the frame cannot be traced at all: ``SkipFrame``, and the hook runs it eagerly.

A trace may start over (``RestartAnalysis``) when it learns where it must break;
the break points it learned are kept for the next attempt.

Example::

    >>> entry = convert_frame(f, (x,), None, ctx, previous=[])
    >>> entry.check(x, None), entry.run(x, None)
    (True, <the result of f(x)>)
"""

from __future__ import annotations

import builtins
import inspect
import sys
import time
import types
import weakref
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial

import numpy as np

from dynamo.backends import is_builtin
from dynamo.guards import ARRAY, CONSTANT, LENGTH, CheckFunction, shared_reads
from dynamo.ops.signals import may_signal

from . import hook, listeners, logs, ops, pyversion, reentry
from .bytecode.caller_frames import (
    FRAME_READER,
    READS_ALL,
    calls_caller_reader,
    found_reading,
    reach,
    reader_within,
    reads_caller_frame_of,
)
from .bytecode.instructions import code_name, frame_params, reads_its_locals
from .bytecode.outline import outlined_loop
from .bytecode.resume import (
    ResumeCaller,
    boxed_code,
    break_code,
    is_resume_code,
    original_code,
    resume_at,
    resume_code,
    run_break_code,
    stack_loads,
)
from .codegen import GlueCodegen
from .config import config
from .exc import BackendError, RerunEagerly, RestartAnalysis, SkipFrame, Unsupported
from .graph import Graph, Node
from .ops.errstate import OPS as ERRSTATE_OPS
from .ops.errstate import has_errstate, restoring
from .output_graph import PYTHON_EFFECTS, OutputGraph
from .reach_guards import guard_reach
from .skipfiles import is_skipped
from .symbolic import DynamicPolicy, not_recording, recording
from .translator import GraphBreak, InstructionTranslator
from .translator.frames import restart_point
from .tree import tree_leaves
from .variables import NULL, ArrayVariable
from .variables.iterators import GENERATOR_CLEANUP
from .variables.lifetimes import held_object, may_end_visibly

log_breaks = logs.get("graph_breaks")
log_graph = logs.get("graph")
log_guards = logs.get("guards")
log_bytecode = logs.get("bytecode")
log_loops = logs.get("loops")

_seen_breaks: Counter = Counter()
_break_frames: dict[tuple, set] = {}   # a logged break -> the frames that reported it


_warned_python = False


def _unsupported_python(ctx):
    """On a CPython whose bytecode dynamo does not know: say so once, run eagerly."""
    global _warned_python
    hint = (f"Use CPython {pyversion.SUPPORTED_VERSIONS} to compile; on this version the "
            "code runs uncompiled.")
    if ctx.fullgraph:
        raise Unsupported(pyversion.UNSUPPORTED_REASON, hint=hint, cause="python_version")
    if not _warned_python:
        _warned_python = True
        log_breaks.warning("dynamo: %s. Compiled functions run their original code. %s",
                           pyversion.UNSUPPORTED_REASON, hint)
    raise SkipFrame(pyversion.UNSUPPORTED_REASON)


@dataclass
class BreakRecord:
    reason: str
    explanation: str
    hint: str
    cause: str
    filename: str
    lineno: int | None
    source_line: str
    frame: str

    def __str__(self) -> str:
        text = f"{self.reason}\n  at {self.filename}:{self.lineno} in {self.frame}"
        if self.source_line:
            text += f"\n      {self.source_line}"
        if self.explanation:
            text += f"\n  why: {self.explanation}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


@dataclass
class FrameRecord:
    """What compiling one frame produced (read by ``dynamo.explain``)."""

    code: types.CodeType
    graph: Graph | None = None
    breaks: list[BreakRecord] = field(default_factory=list)
    guards: list = field(default_factory=list)
    check_source: str = ""
    glue_source: str = ""
    compile_time: float = 0.0
    restarts: int = 0
    skipped: str | None = None
    symbols: dict = field(default_factory=dict)      # symbol -> the size it stands for
    static_dims: set = field(default_factory=set)    # sizes a trace had to specialize
    phases: dict = field(default_factory=dict)       # "trace"/"finish"/"guards" -> CPU s

    @property
    def op_count(self) -> int:
        return len(self.graph.call_nodes()) if self.graph is not None else 0


class FrameRunner:
    """Runs the rewritten bytecode of a frame that breaks, with the caller's closure."""

    def __init__(self, code: types.CodeType, fn_globals: dict, origin=None):
        self.code, self.fn_globals, self.origin = code, fn_globals, origin
        self.key = id(origin)   # (reentry.state.codes; origin lives as long)
        # made once where there is no closure (a function per call otherwise: an
        # outlined loop body and its resume functions run once per trip)
        self.plain = None if code.co_freevars else \
            types.FunctionType(code, fn_globals, code.co_name, None, None)

    def function(self, closure) -> types.FunctionType:
        """The function of the new code with the caller's ``closure``."""
        if closure is None and self.plain is not None:
            return self.plain
        return types.FunctionType(self.code, self.fn_globals, self.code.co_name, None, closure)

    def __call__(self, *args):
        # (runs the resume functions the frame returns: see resume.run_break_code)
        # A call of the same code under this one (a recursion through the compiled
        # function) runs its original code, one frame a level (dynamo/reentry.py).
        codes, key = reentry.state.codes, self.key
        if key in codes:
            raise RerunEagerly()   # (nothing ran yet: the hook runs the original)
        codes.add(key)
        try:
            return run_break_code(self.function(args[-1]), args[:-1], self.origin)
        finally:
            codes.discard(key)


class BoxedFrameRunner(FrameRunner):
    """A ``FrameRunner`` of a resume function: its arguments come in one list, which
    the frame's new code empties (``hook.run_boxed``, ``emit.unbox``)."""

    def __call__(self, box, closure):
        return run_break_code(self.function(closure), (box,), self.origin)


def convert_frame(fn: types.FunctionType, args: tuple, closure, ctx, previous=()):
    """The cache entry for a call of ``fn`` with flattened ``args``; raises
    ``SkipFrame`` when the frame must run eagerly. Compile listeners hear
    ``on_frame_start`` and ``on_frame_end`` around it (see :mod:`dynamo.listeners`)."""
    if not (listeners.of("on_frame_start") or listeners.of("on_frame_end")):
        return _convert(fn, args, closure, ctx, previous)
    listeners.emit("on_frame_start", fn, ctx)
    try:
        return _convert(fn, args, closure, ctx, previous)
    finally:
        listeners.emit("on_frame_end", fn, ctx)


def _convert(fn: types.FunctionType, args: tuple, closure, ctx, previous):
    translators: list = []
    try:
        return _trace_and_build(fn, args, closure, ctx, previous, translators)
    finally:
        # The translators sit in reference cycles (Variables and the closures that read
        # their values lazily) until the cyclic GC runs: the call's arguments must not
        # live on in them (``__del__`` of an object a resume function was passed, a
        # generator's ``finally``, the memory of the traced call's arrays; see also
        # OutputGraph.release).
        for tx in translators:
            _drop_values(tx)


def _drop_values(tx) -> None:
    """Empty what a finished root translator and its OutputGraph hold of the frame:
    arguments, locals, cells, stack, the objects it changed (Variables that hold the
    real objects they were made from). The glue is generated by then."""
    for table in (tx.args, tx.locals, tx.cells):
        table.clear()
    tx.stack.clear()
    tx.output.release()
    tx.output.side_effects.mutated.clear()
    tx.output.side_effects.globals.clear()


def _trace_and_build(fn: types.FunctionType, args: tuple, closure, ctx, previous,
                     translators: list):
    if not pyversion.SUPPORTED:
        _unsupported_python(ctx)
    code = fn.__code__
    start = time.perf_counter()
    params = frame_params(code)
    arg_values = dict(zip(code.co_varnames[:len(params)], args))
    record = FrameRecord(code)
    break_points: dict = {}
    dynamic = _dynamic_policy(ctx, previous)
    for attempt in range(config.max_restarts + 1):
        dynamic.new_trace()
        output = OutputGraph(fn.__globals__, config,
                             layout_guards=getattr(ctx.backend, "layout_guards", False),
                             dynamic=dynamic)
        with recording() as output.shape_env.trace:
            try:
                with _phase(record, "trace"):
                    tx = InstructionTranslator(code, output, arg_values, fn.__globals__,
                                               closure, break_points)
                    translators.append(tx)
                    tx.run()
            except RestartAnalysis as restart:
                point = restart_point(restart)
                if point.kind in ("unroll", "counters"):
                    log_loops.debug("%s: %s", code_name(code), point.reason.reason)
                elif ctx.fullgraph:
                    raise _for_user(point.reason) from None
                if point.reason.cause == FRAME_READER:
                    _skip_whole_frame(point.reason, code, record, ctx, start)
                break_points[point.key] = point
                record.restarts = attempt + 1
                continue
            except GraphBreak as brk:
                listeners.emit("on_break", tx, brk)
                if ctx.fullgraph:
                    raise _for_user(brk.point.reason) from None
                if brk.point.reason.cause in (GENERATOR_CLEANUP, FRAME_READER):
                    _skip_whole_frame(brk.point.reason, code, record, ctx, start)
                reader = _reader_after_break(fn, tx, arg_values)
                if reader is not None:
                    _skip_whole_frame(reader, code, record, ctx, start)
                # the verdict holds while what it looked at does (issue #17
                # frame-reader-made-later)
                guard_reach(fn, output, arg_values)
                entry = _or_skip(partial(_compile_break, fn, tx, brk, output, ctx, params,
                                         record, arg_values), record, ctx, start)
            except Unsupported as e:
                if ctx.fullgraph:
                    raise _for_user(e) from None
                _skip_whole_frame(e, code, record, ctx, start)
            else:
                entry = _or_skip(partial(_compile_return, fn, tx, output, ctx, params, record),
                                 record, ctx, start)
        break
    else:
        raise SkipFrame(f"the trace restarted more than {config.max_restarts} times")
    record.symbols = {name: src.name() for name, src in output.shape_env.symbols.items()}
    record.static_dims = output.shape_env.pinned_sizes()
    _save(ctx, record, start)
    output.release()
    return entry


def _reader_after_break(fn, tx, arg_values: dict) -> Unsupported | None:
    """Why the frame must run uncompiled, or None: a function within its reach (an
    argument, a local, a global it names, one level into each:
    ``caller_frames.reader_within``) reads two or more frames above its own, and the
    code after the break, which runs in a resume function or an island (frames that
    dynamo's call), may call it: it would see dynamo's frames where plain Python shows
    the program's, on this call already (issue #17 ``frame-reader-after-break``,
    ``frame-reader-in-island``). Found before the first graph runs, so the frame entry
    runs the whole frame in the program's own frame; the code is marked a reader
    (``found_reading``) and its next calls are plain.

    Example: ``def f(x, o): y = x * 3; print(y); return o.read(y)`` with ``o.read``
    reading ``sys._getframe(2)``: ``f`` runs uncompiled, one ``graph_breaks`` line."""
    values = list(arg_values.values())
    values += [held_object(v) for v in dict.values(tx.locals)]
    levels, why = reader_within(fn, values, skip=is_skipped)
    if levels < 2:
        return None
    up = "every frame" if levels >= READS_ALL else f"{levels} frames"
    found_reading(original_code(fn.__code__), levels - 1,
                  f"it may call {why}, which reads {up} up, after a graph break")
    return Unsupported(f"it may call {why}, which reads {up} up, after a graph break",
                       "Called by the resume function or island that runs the rest of "
                       "the frame, it would see dynamo's frames where Python shows the "
                       "program's; the function runs uncompiled.", cause=FRAME_READER)


def _skip_whole_frame(e: Unsupported, code, record, ctx, start):
    """Run the frame eagerly (now and later): log and record why, raise ``SkipFrame``.

    Besides what cannot be traced at all, this is where a frame goes that calls a
    function reading frames above the compiled one (``FRAME_READER``, known only while
    tracing: an argument, an attribute; ``TranslatorBase._check_frame_reader``), and
    a frame that creates a
    generator with a ``yield`` inside ``try``/``with`` (``GENERATOR_CLEANUP``): the
    generator is a real object, and dropping it (``del g``, rebinding, leaving a
    ``for`` loop early) must run its ``finally`` at once. At a graph break, the frame
    and each resume function still hold the values they passed on (the arguments of
    the next resume function), so the generator would live until the call ends."""
    _log_break(e, code, whole_frame=True)
    record.skipped = e.reason
    record.breaks.append(_break_record(e, code))
    _save(ctx, record, start)
    raise SkipFrame(e.reason) from None


@contextmanager
def _phase(record: FrameRecord, name: str):
    """Adds the CPU seconds the block takes in this thread to ``record.phases[name]``
    (for benchmarks: CPU time, so other processes on the machine do not count)."""
    start = time.thread_time()
    try:
        yield
    finally:
        record.phases[name] = record.phases.get(name, 0.0) + time.thread_time() - start


def _or_skip(compile_fn, record, ctx, start):
    """Generate the code; a frame that cannot be rebuilt is recorded as skipped."""
    try:
        return compile_fn()
    except SkipFrame as skip:
        record.skipped = str(skip)
        _save(ctx, record, start)
        raise


def _dynamic_policy(ctx, previous) -> DynamicPolicy:
    """Symbolic sizes for this trace: every size (dynamic=True), none (False), or the
    ones that changed since an earlier entry (None, with config.automatic_dynamic)."""
    mode = ctx.dynamic
    if mode is None and not config.automatic_dynamic:
        mode = False
    if not getattr(ctx.backend, "dynamic_shapes", False):
        mode = False   # the backend takes static shapes only (it did not opt in)
    specs: dict = {}
    ints: dict = {}
    lengths: dict = {}
    static: set = set()
    for rec in previous or ():
        if rec is None:
            continue
        static |= getattr(rec, "static_dims", set())
        for g in rec.guards:
            if g.kind == ARRAY:
                specs.setdefault(g.source, []).append(g.expected)
            elif g.kind == CONSTANT and type(g.expected) in (int, float):
                ints.setdefault(g.source, set()).add(g.expected)
            elif g.kind == LENGTH:
                lengths.setdefault(g.source, set()).add(g.expected)
    policy = DynamicPolicy(mode, specs, ints)
    # sizes only the data decides (x[mask]) stay in the graph for a backend that takes
    # symbolic sizes, whatever ``dynamic=`` says of the inputs' sizes
    policy.unbacked = bool(getattr(ctx.backend, "dynamic_shapes", False))
    policy.previous_lengths = lengths
    policy.static |= static
    return policy


def _save(ctx, record: FrameRecord, start: float) -> None:
    record.compile_time = time.perf_counter() - start
    if ctx.records is not None:
        ctx.records.append(record)
    listeners.emit("on_compile", record, ctx)


def _compile_return(fn, tx, output, ctx, params, record) -> hook.CacheEntry:
    cg = GlueCodegen(output, params, fn.__code__.co_name)
    result = _codegen(cg, lambda: cg.value(tx.result))
    with _phase(record, "finish"):
        glue = _finish(fn, cg, result, output, ctx, record,
                       boxed=is_resume_code(fn.__code__))
    return hook.CacheEntry(_check(fn, output, params, record), glue, record)


def _compile_break(fn, tx, brk: GraphBreak, output, ctx, params, record,
                   arg_values: dict) -> hook.CacheEntry:
    code = fn.__code__
    e = brk.point.reason
    _log_break(e, code, island=brk.point.kind == "island")
    record.breaks.append(_break_record(e, code))
    unread = tx.unread_args()
    bound = [n for n in code.co_varnames
             if (n in tx.locals or n in unread) and n not in code.co_cellvars]
    if brk.point.kind == "island":   # the rest of the frame runs here: keep every local
        live = bound
    elif reads_its_locals(code) or calls_caller_reader(
            fn, [*arg_values.values(), *(held_object(v) for v in dict.values(tx.locals))]):
        # locals(), eval(), or a callee's sys._getframe(1).f_locals: every bound local
        # is the program's (the callee sees the resume function's frame as this one)
        live = bound
    else:
        # ("before": the resume function starts at the breaking instruction itself)
        targets = [brk.inst.index + (brk.point.kind != "before")]
        if brk.inst.target is not None:
            targets.append(brk.inst.target)
        read = set().union(*(tx.info.live_at(t) for t in targets))
        # a local read again, or one that plain Python still holds (until it is
        # rebound or the function returns) and whose end the program can see, now or
        # after the breaking instruction takes a weak reference to it
        live = [n for n in bound
                if n in read or may_end_visibly(tx.locals.get(n, unread.get(n)))]
    # the breaking instruction is a `del`: the frame gets the local back to delete it
    # (at this point, for real: see translator/names.py drop_local), not to pass it on
    deleted = brk.inst.arg if brk.inst.name == "DELETE_FAST" else None
    live = [n for n in live if n != deleted]
    restore = [n for n in live if n in tx.locals] + \
        ([deleted] if deleted in tx.locals else [])
    # arguments the trace deleted: the frame still holds them
    unbound = [n for n in code.co_varnames[:len(params)]
               if n not in bound and n not in code.co_cellvars]
    restore_vars = [tx.locals[n] for n in restore]
    for name in code.co_cellvars:
        cell = tx.cells[name]
        # (a cell passed in, a resume function's, is the caller's: the glue writes it
        # back as it writes any cell from before the trace)
        if cell.value is not None and cell.source is None:
            restore.append(name)
            restore_vars.append(cell.value)
    callee = _callee_slots(brk)

    def holds(name, value) -> bool:
        """The frame's plain local ``name`` is bound to ``value`` at the break, and
        ``value`` is no callable the glue wraps (``___intercept``)."""
        return name not in code.co_cellvars and name not in code.co_freevars and \
            dict.get(tx.locals, name) is value and not any(value is c for c in callee)

    # values the original pushed from a local go onto the stack from that local, the
    # way the original pushed them (3.14 borrows): the frame binds the local at the
    # break even where it is dead after it (plain Python holds it there too)
    loads = stack_loads(code, brk, holds)
    for load in loads:
        if load is not None and load[0] not in restore:
            restore.append(load[0])
            restore_vars.append(tx.locals[load[0]])
    stack_values = [v for v, load in zip(brk.stack, loads) if v is not NULL and load is None]
    cg = GlueCodegen(output, params, code.co_name)
    run, intercept = _weak_hooks(ctx)
    cache_of = partial(_cache_of, weakref.ref(ctx))
    cg.scope["___intercept"] = intercept

    def values():
        exprs = []
        for var in stack_values:
            expr = cg.value(var)
            if any(var is c for c in callee):   # the callee runs as its own compiled frame
                expr = f"___intercept({expr})"
            exprs.append(expr)
        exprs += [cg.value(v) for v in restore_vars]
        return "(" + "".join(f"{x}, " for x in exprs) + ")"

    result = _codegen(cg, values)
    with _phase(record, "finish"):
        glue = _finish(fn, cg, result, output, ctx, record)

    def make_resume(target: int, layout: tuple, names: tuple | None = None):
        rcode = resume_code(code, target, layout, tuple(live if names is None else names))
        log_bytecode.debug("%s", _LazyDis(rcode, title="resume function"))
        return ResumeCaller(rcode, fn.__globals__, run, cache_of)

    def resume_after(target: int, bound_by_the_loop: tuple, below: int = 0):
        """Return from the frame through the resume function at ``target``, after an
        outlined loop: it takes the ``below`` values under the loop on the stack, the
        locals bound before the loop and those the loop's body bound (``outline.py``)."""
        names = tuple(n for n in code.co_varnames if n in live or n in bound_by_the_loop)
        return resume_at(code, target, list(names), partial(make_resume, names=names),
                         brk.inst.instr.location, below)

    boxed = is_resume_code(code)
    # a loop whose body breaks: its body becomes a compiled function of its own
    outline = outlined_loop(fn, brk, bound, _largest_array(tx, brk), cache_of, run,
                            resume_after) \
        if brk.point.kind == "island" else None
    try:
        new_code = break_code(code, brk, glue, len(stack_values), restore, live, make_resume,
                              cg.scope["___intercept"], unbound,
                              partial(_c_code_now, fn.__globals__,
                                      _fixed_local_types(tx, brk, code)), boxed=boxed,
                              outline=outline, loads=loads)
    except Unsupported as err:
        raise SkipFrame(err.reason) from None
    log_bytecode.debug("%s", _LazyDis(code, new_code))
    if not boxed and outline is None and not callee and \
            _plain_island(brk, output, new_code, intercept):
        return hook.CacheEntry(_check(fn, output, params, record), runs_original, record)
    _BREAK_ORIGIN[new_code] = code
    runner = (BoxedFrameRunner if boxed else FrameRunner)(new_code, fn.__globals__, code)
    return hook.CacheEntry(_check(fn, output, params, record), runner, record)


def _plain_island(brk: GraphBreak, output, new_code, intercept) -> bool:
    """The frame's break code would do nothing but what its original code does: the
    graph before the island holds no op, the trace changed no object from outside it,
    and the island calls nothing through the hook (every call site's callee is C code,
    ``emit.intercept_calls``). Then the entry runs the original code, in the program's
    own frame where a frame entry called it (``runs_original``): a per-element loop
    ``for v in x: if v > thr: ...`` at a function's start pays its guards and no
    glue, runner or second frame (about 2 us a call). The code before the island is
    Python on values its guards fix, so it computes again what the trace found."""
    return brk.point.kind == "island" and not output.graph.call_nodes() and \
        not output.side_effects and not any(c is intercept for c in new_code.co_consts)


def runs_original(*args):
    """An entry's ``run`` that hands the call to the frame's original code
    (``_plain_island``): the dispatcher calls ``original`` itself for it
    (``dispatch.dispatcher``); called otherwise, it asks for that by raising."""
    raise RerunEagerly()


runs_original.runs_original = True


def _largest_array(tx, brk: GraphBreak) -> int:
    """The elements of the largest array the frame holds (locals, arguments not read
    yet, the stack) at a break: what an outlined loop body could fuse
    (``config.outline_min_elements``)."""
    traced = [*tx.locals.values(), *brk.stack]
    sizes = [int(v.meta.size) for v in traced if isinstance(v, ArrayVariable)]
    sizes += [v.size for v in tx.unread_args().values() if isinstance(v, np.ndarray)]
    return max(sizes, default=0)


def _cache_of(ctx_ref, code, fn_globals):
    """The hook's cache of ``code`` in the context ``ctx_ref`` refers to (weakly, see
    ``_weak_hooks``), None once it is gone: how resume functions and outlined loop
    bodies are called (``resume.BoxedCaller``)."""
    ctx = ctx_ref()
    return None if ctx is None else ctx.cache_for(code, fn_globals)


def _callee_slots(brk: GraphBreak) -> list:
    """The callable being called when the break is a call (it runs through the hook).

    Of the two slots under the arguments, the callable is the one that is not NULL, or
    the first when both are set: then the second is ``self``, an argument (a decorator
    call ``deco(f)`` is laid out as ``deco, f``) that must reach the callee as it is."""
    if brk.inst.name not in ("CALL", "CALL_KW", "CALL_FUNCTION_EX") or \
            brk.point.kind == "before":   # (the resume function makes the call)
        return []
    from . import pyversion
    pops = pyversion.stack_pops(brk.inst.name, brk.inst.arg) or 0
    base = len(brk.stack) - pops
    first, second = brk.stack[base:base + 2]
    return [second if first is NULL else first]


def _weak_hooks(ctx):
    """``run(f, box)`` (a resume function, its arguments in a list) and ``intercept(f)``
    bound to ``ctx`` by a weak reference.

    They end up in the constants of generated code (the glue's scope, the frame's new
    bytecode), which ``ctx``'s own cache holds. Code objects are invisible to the
    garbage collector, so a strong reference back to ``ctx`` would make a cycle that is
    never freed (every compiled and dropped function would leak its entries). While
    such code runs, ``ctx`` is alive (its dispatcher is on the stack); if not, the
    function runs eagerly."""
    ref = weakref.ref(ctx)

    def run(f, box):   # (a resume function: its arguments come in a list)
        live = ref()
        if live is None:
            return types.FunctionType(boxed_code(hook.flat_code(f.__code__)), f.__globals__,
                                      f.__name__, None, f.__closure__)(box)
        return hook.run_boxed(f, box, live, boxed_code)

    def intercept(f):
        kind = type(f)
        if kind in _C_CALLABLES:
            return f   # ``x.sum`` of an expression, a ufunc: no call to decide it
        if kind is types.FunctionType:
            # library code (``np.eye``, ``np.linspace``: NumPy's Python functions)
            # runs as called and reads no frame of ours (``_runs_as_called``,
            # ``_reads_above_caller``): decided here with one cached look-up, not five
            # calls and a frame walk (about 1 us: a Kalman filter that runs as Python
            # calls ``np.eye`` every trip, and ran at 0.86x plain Python for it)
            if is_skipped(f.__code__):
                return f
        elif kind is types.MethodType:
            func = f.__func__
            if _c_code(func) or type(func) is types.FunctionType and is_skipped(func.__code__):
                return f   # a C function bound as a method (Cython's: ``rng.random``)
        elif _c_code(f):
            return f   # a builtin, a ufunc, a C method: the common case, kept to one call
        live = ref()
        if live is None or _calls_itself(f, sys._getframe(1)):
            return f
        out = intercept_callable(f, live)
        if out is f or type(out) is types.MethodType and \
                out.__func__ is getattr(f, "__func__", None):   # called as it is:
            _reads_above_caller(f, sys._getframe(1))   # a reader (or library code)
        return out
    return run, intercept


# the code of a frame that breaks -> the code it was made from (the function's, or a
# resume function's), which lives as long as its function anyway: an entry goes with
# the break code, that is with its cache entry (``_reads_above_caller`` looks it up)
_BREAK_ORIGIN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _reads_above_caller(f, frame) -> None:
    """``f``, called from ``frame`` (code at a break, an island), is user code that
    reads two or more frames up: what it reads above ``frame`` is dynamo's (the
    frame is called by ``run_break_code``), where plain Python shows the program's.
    The trace did not see the call (it was made from code that runs uncompiled, or
    ``f`` could not be inlined): the function ``frame`` runs the code of is marked a
    reader now (``caller_frames.found_reading``), so that its next calls are plain.

    Example: ``o.read(y)`` in the loop after a ``sys._getframe()`` call (an island),
    where ``read`` reads ``sys._getframe(2)``. (A callable an island loads from a
    local is not routed through ``intercept``: it is never seen.)"""
    fn = f.__func__ if type(f) is types.MethodType else f
    if type(fn) is not types.FunctionType:
        fn = inspect.getattr_static(type(f), "__call__", None)
        if type(fn) is not types.FunctionType:
            return
    code = fn.__code__
    if is_skipped(code):
        return
    levels, why = reach(code, fn)
    if levels >= 2:
        up = "every frame" if levels >= READS_ALL else f"{levels} frames"
        code_of = _BREAK_ORIGIN.get(frame.f_code, frame.f_code)
        found_reading(original_code(code_of), levels - 1,
                      f"it calls {code.co_qualname}(), which reads {up} up ({why})")


def _calls_itself(f, frame) -> bool:
    """``f`` is a function whose code the caller is running: the code at a break or a
    resume function (a copy of ``f``'s code) calls ``f`` again, itself or through the
    glue (``frame`` and the two frames below it are looked at). A recursive call runs
    as called, uncompiled, and so does the rest of the recursion: through the hook
    each level would take five Python frames instead of one, and a recursion that
    plain Python finishes would hit ``sys.getrecursionlimit()`` a fifth of the way
    down (RecursionError)."""
    fn = f.__func__ if type(f) is types.MethodType else f
    if type(fn) is not types.FunctionType:   # (no getattr: a user object's may run code)
        return False
    code = fn.__code__
    for _ in range(3):
        if frame is None:
            return False
        caller = frame.f_code
        if caller.co_firstlineno == code.co_firstlineno and \
                caller.co_name == code.co_name and caller.co_filename == code.co_filename:
            return True
        frame = frame.f_back
    return False


def _fixed_local_types(tx, brk: GraphBreak, code) -> dict:
    """The types of the plain locals that keep their value through an island: bound at
    the break and stored by no instruction reachable from it (``rng`` and ``times`` in
    ``for ...: t += rng.exponential(1.0 / total); times.append(t)``)."""
    if brk.point.kind != "island":
        return {}
    stored = tx.info.names_stored_from(brk.inst.index)
    out = {}
    for name, var in tx.locals.items():
        if name in stored or name in code.co_cellvars or name in code.co_freevars:
            continue
        try:
            out[name] = var.python_type()
        except Unsupported:
            pass
    for name, value in tx.unread_args().items():
        if name not in stored and name not in out:
            out[name] = type(value)
    return out


def _c_code_now(fn_globals: dict, local_types: dict, chain: tuple,
                local: bool = False) -> bool:
    """The global ``chain[0]`` (then its module attributes ``chain[1:]``) is, as the
    island is built, a callable that ``intercept_callable`` passes through unchanged:
    a builtin, a ufunc, a C method, or a library's Python function (``np.eye``,
    ``is_skipped``: it runs as called). Only modules' own ``__dict__`` are read (no
    ``__getattr__``, no import side effects). With ``local``, ``chain`` is a local
    and a method name: the local's type (``local_types``, which the island never
    rebinds) is a C type whose method of that name is C code (``_c_method``)."""
    if local:
        kind = local_types.get(chain[0])
        return kind is not None and _c_method(kind, chain[1])
    value = fn_globals.get(chain[0], _NOT_FOUND)
    if value is _NOT_FOUND:
        value = vars(builtins).get(chain[0], _NOT_FOUND)
    for name in chain[1:]:
        if type(value) is not types.ModuleType:
            return False
        value = vars(value).get(name, _NOT_FOUND)
    if type(value) is types.FunctionType:
        return is_skipped(value.__code__)
    return value is not _NOT_FOUND and callable(value) and _c_code(value)


_NOT_FOUND = object()


def _c_method(kind: type, name: str) -> bool:
    """``obj.name(...)`` of any ``obj`` of the type ``kind`` calls C code: ``kind`` is
    fixed (no class statement made it: its attributes cannot be reassigned), its
    instances have no ``__dict__`` that could shadow the method, and the method found
    on the class (read statically, running no code) is a C callable, not a property or
    a Python function. ``list.append``, ``Generator.random``, ``ndarray.copy``."""
    if not kind.__flags__ & _IMMUTABLE_TYPE or kind.__dictoffset__ or \
            inspect.getattr_static(kind, "__getattr__", None) is not None:
        return False
    attr = inspect.getattr_static(kind, name, None)
    return attr is not None and callable(attr) and _c_code(attr) and \
        not isinstance(attr, (property, staticmethod, classmethod))


def _c_code(f) -> bool:
    """``f`` is no function or method, and its type is defined in C: calling it runs no
    user Python code (``intercept_callable`` would return it unchanged)."""
    kind = type(f)
    if kind is types.FunctionType or kind is types.MethodType:
        return False
    flags = kind.__flags__
    return not flags & _HEAP_TYPE or bool(flags & _IMMUTABLE_TYPE) and _fixed_c_callable(kind)


@cache
def _fixed_c_callable(kind: type) -> bool:
    """An immutable heap type (made by an extension, such as Cython's
    ``cython_function_or_method``: ``Generator.random``) whose ``__call__`` is C code.
    Cached: such a type's attributes cannot be reassigned."""
    return not isinstance(inspect.getattr_static(kind, "__call__", None), types.FunctionType)


def intercept_callable(f, ctx):
    """``f`` made to run through the frame hook when it is user Python code.

    This runs before every call made from code that runs uncompiled (an eager island,
    the code after a break), so what is not user code passes straight through: a
    builtin, a ufunc, a C method, any object of a type defined in C.
    """
    kind = type(f)
    if kind is types.FunctionType:
        return f if _runs_as_called(f) else hook.intercept(f, ctx)
    if kind is types.MethodType:
        if isinstance(f.__func__, types.FunctionType):
            return types.MethodType(intercept_callable(f.__func__, ctx), f.__self__)
        return f
    if not kind.__flags__ & _HEAP_TYPE:   # a C type: its __call__ is C code, and fixed
        return f
    if isinstance(f, types.FunctionType):   # a subclass of function
        return f if _runs_as_called(f) else hook.intercept(f, ctx)
    call = inspect.getattr_static(kind, "__call__", None)
    if isinstance(call, types.FunctionType) and not _runs_as_called(call):
        return types.MethodType(hook.intercept(call, ctx), f)
    return f


def _runs_as_called(fn) -> bool:
    """The function ``fn`` is called as the program calls it, not through the hook:
    library code, and code that reads its caller's frame (``sys._getframe(1)``,
    ``warnings.warn(..., stacklevel=2)``, or a call of a function that reads two
    frames up): called directly from the code at a break or in an island, its
    ``f_back`` is the program's frame there (which has the original's file, lines and
    globals), where through the hook it would be one of dynamo's
    (``bytecode/caller_frames.py``). It runs uncompiled."""
    return is_skipped(fn.__code__) or reads_caller_frame_of(fn) is not None


# the C callables an island's calls load most (a bound C method such as ``x.sum`` of an
# expression, a ufunc, NumPy's C dispatchers such as ``np.argmin``): ``_c_code`` is
# True for them; the hook's ``intercept`` tests these first, without a call
# (minus the Python function types, should a NumPy ever make its dispatchers Python
# functions again: those must take the checks below)
_C_CALLABLES = frozenset({types.BuiltinFunctionType, np.ufunc, type(np.argmin)}) - \
    {types.FunctionType, types.MethodType}
_HEAP_TYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE: a class made by a class statement or type()
_IMMUTABLE_TYPE = 1 << 8   # Py_TPFLAGS_IMMUTABLETYPE: C and extension types (3.10+)


def _codegen(cg, build) -> str:
    try:
        return build()
    except Unsupported as e:
        raise SkipFrame(f"cannot rebuild the frame's values: {e.reason}") from None


def _finish(fn, cg: GlueCodegen, result: str, output: OutputGraph, ctx, record,
            boxed: bool = False):
    _codegen(cg, cg.side_effects)
    graph = output.graph
    graph.output(tuple(cg.out_nodes))
    graph_fn, inputs, reads = None, [], {}
    if graph.call_nodes():
        example = [output.example_inputs[n] for n in graph.placeholders]
        try:
            # the trace is over: a backend's comparisons of symbolic sizes (it groups
            # ops by shape) are no guards of the entry, and an unbacked size's made-up
            # hint is no answer (a backend keeps such sizes out of its static plans)
            with not_recording():
                graph_fn = ctx.backend(graph, example)
        except BackendError:
            raise
        except Exception as e:  # noqa: BLE001
            raise BackendError(
                f"backend {ctx.backend_name!r} failed to compile a graph of "
                f"{len(graph.call_nodes())} ops from {code_name(fn.__code__)}: "
                f"{type(e).__name__}: {e}. Try backend='eager' to check the graph, or "
                f"report the graph printed with DYNAMO_LOGS=graph.") from e
        graph_fn = _checked(graph_fn, len(cg.out_nodes), ctx)
        if has_errstate(graph):   # leave a `with np.errstate` the graph raised inside
            graph_fn = restoring(graph_fn)
        sources = [n.meta["source"] for n in graph.placeholders]
        inputs, reads = shared_reads([src.expr() for src in sources], sources, "___")
        record.graph = graph
        listeners.emit("on_graph", graph, ctx)
        log_graph.debug("graph of %s (%s:%d), %d ops:\n%s", code_name(fn.__code__),
                        fn.__code__.co_filename, fn.__code__.co_firstlineno,
                        len(graph.call_nodes()), graph)
    try:
        plan = on_raise(output) if graph_fn is not None else OnRaise(False, False)
    except Unsupported as e:   # the graph cannot raise exactly: the frame runs eagerly
        _log_break(e, fn.__code__, whole_frame=True)
        record.breaks.append(_break_record(e, fn.__code__))
        raise SkipFrame(e.reason) from None
    glue = cg.finish(result, graph_fn, inputs, rerun=plan.rerun, guard=plan.guard,
                     eager_if_raising=plan.eager_if_raising, boxed=boxed,
                     reads={name: src.expr() for src, name in reads.items()})
    # the dispatcher hands over what its guards computed of these (dispatch.handed_reads)
    glue.__dynamo_reads__ = reads
    record.glue_source = glue.__dynamo_source__
    return glue


@dataclass(frozen=True)
class OnRaise:
    """What the glue does about an exception of its graph (see ``on_raise``)."""

    rerun: bool   # it becomes RerunEagerly: the hook runs the frame's original code
    guard: bool   # the graph runs with every visible floating-point condition raising
    # (a graph that is not rerun) the frame runs eagerly instead of the graph when the
    # caller's settings make a floating-point condition raise (``np.seterr``)
    eager_if_raising: bool = False


def on_raise(output: OutputGraph) -> OnRaise:
    """How a graph that raises while it runs stays exact (``Unsupported`` if it cannot).

    A graph raises at some op (``np.linalg.inv`` of a singular matrix, ``x[idx]`` out
    of bounds, an op inside ``np.errstate(invalid="raise")``). Plain Python would have
    made, by then, the Python effects traced before that op (``log.append``, attribute
    writes: the glue replays them only *after* the graph) and reported the
    floating-point conditions of the ops before it (warnings).

    - A graph that may be rerun (``rerun_on_raise``) reruns: the frame's original code
      makes the effects and raises the program's own exception. If the graph holds an
      op that may raise for its values (``raising_nodes``), it runs under NumPy's
      floating-point *guard* (visible conditions raise, see
      ``dynamo.ops.errstate.raising``): a graph that would warn before raising
      then raises at its first warning, before reporting anything, and the rerun
      reports each warning once.
    - An ``np.errstate`` block inside the graph that makes conditions warn (or call,
      print, log) sets its own settings over the guard; such a graph is not rerun
      (its warnings are reported once) unless an op of it is inside the program's own
      ``try`` (the handler must see the exception: the rerun is how it does).
    - A graph that is not rerun and may raise at an op traced after Python effects
      cannot be exact (the effects would be lost): ``Unsupported``, and the frame runs
      eagerly.
    - A graph with an op that may warn at Python level (``WriteGuard.warns``: "Mean of
      empty slice", issued by NumPy's Python code, which no ufunc setting turns into an
      exception) is not rerun: the rerun would warn again. Such an op also signals
      floating-point conditions (the 0/0 of that mean), which the caller's settings may
      make raise (``np.seterr(all="raise")``) after its warning and after Python
      effects the glue replays later: when they do, the frame runs eagerly, decided
      before the graph runs (``eager_if_raising``).
    """
    rerun = rerun_on_raise(output)
    warns = output.writes.warns
    raising = raising_nodes(output.graph)
    if not raising:
        return OnRaise(rerun, False, warns)
    if rerun and not _errstate_reports(output.graph):
        return OnRaise(True, _reports_fp(output.graph))
    if rerun and output.writes.ops_in_try:
        return OnRaise(True, False)
    late = [n for n in raising if n.meta.get(PYTHON_EFFECTS, output.side_effects.pending())]
    if late:
        where = f" at {late[0].meta['loc']}" if late[0].meta.get("loc") else ""
        raise Unsupported(f"the op {late[0].target}{where} may raise after Python objects "
                          f"were changed, in a graph that cannot be rerun",
                          "The graph writes an input, draws random numbers or reports "
                          "warnings of its own, so it cannot run again; the changes "
                          "(replayed after the graph) would be lost when it raises. The "
                          "frame runs eagerly.", cause="raise_after_effects")
    return OnRaise(False, False, warns)


_INDEXING = frozenset({"getitem", "setitem", "flat_getitem", "flat_setitem"})


def raising_nodes(graph: Graph) -> list:
    """The nodes of ``graph`` that may raise for the *values* of their arguments (the
    trace checked shapes and dtypes): ops NumPy documents as raising
    (``extras["raises"]``: ``np.linalg.inv``, random draws with array parameters...),
    ops that raise for some count of a size the data decides (``node.meta["may_raise"]``:
    ``x[m].max()`` of an empty selection, see docs/unbacked.md), indexing with an index
    computed in the graph, every floating-point op inside an
    ``np.errstate`` block that makes a condition raise, ops that may warn at Python level
    (``node.meta["warns"]``: a warnings filter "error" raises there), and loops whose
    body holds one.
    (Raising conditions set globally, ``np.seterr(all="raise")``, are not seen here.)"""
    fp_raise = any(n.target == "errstate_enter" and "raise" in n.kwargs.values()
                   for n in graph.call_nodes())
    found = []
    for node in graph.call_nodes():
        if node.target in ERRSTATE_OPS:
            continue
        op = ops.REGISTRY.get(node.target)
        bodies = [a for a in node.args if isinstance(a, Graph)]
        if op is None or op.extras.get("raises") or node.meta.get("may_raise") or \
                node.meta.get("warns") or \
                (fp_raise and op.kind != ops.VIEW) \
                or any(raising_nodes(b) for b in bodies):
            found.append(node)
        elif node.target in _INDEXING and any(
                isinstance(a, Node) for a in tree_leaves((node.args[1:], node.kwargs))) \
                and not _full_mask_getitem(node):
            found.append(node)
    return found


def _full_mask_getitem(node: Node) -> bool:
    """``x[m]`` with ``m`` a boolean array of ``x``'s own shape (``x[x > 0]``): it selects
    and never raises, whatever the data."""
    if node.target != "getitem" or len(node.args) != 2 or node.kwargs:
        return False
    x, m = node.args
    if not (isinstance(x, Node) and isinstance(m, Node)):
        return False
    xm, mm = x.meta.get("array"), m.meta.get("array")
    return isinstance(xm, ops.ArrayMeta) and isinstance(mm, ops.ArrayMeta) and \
        mm.dtype == np.bool_ and tuple(mm.shape) == tuple(xm.shape)


def _reports_fp(graph: Graph) -> bool:
    """May an op of ``graph`` report a floating-point condition (warn, call the
    ``np.seterrcall`` function...)? Only then is the guard worth its cost (about 0.2 us
    a call): a graph of integer arithmetic without division, comparisons of ints and
    gathers (``wte[ids]``, whose only error is an ``IndexError``) reports none, and
    when it raises the rerun repeats nothing (``dynamo.ops.signals.may_signal``)."""
    return any(may_signal(n) and n.meta.get("kind") != ops.VIEW for n in graph.call_nodes())


def _errstate_reports(graph: Graph) -> bool:
    """Does an ``np.errstate`` block of ``graph`` make a condition warn, call a function,
    print or log (settings that override the floating-point guard)?"""
    return any(n.target == "errstate_enter" and
               any(v not in ("ignore", "raise") for v in n.kwargs.values())
               for n in graph.call_nodes())


def rerun_on_raise(output: OutputGraph) -> bool:
    """Whether the frame's original code may run in place of a graph that raised.

    It may when the graph left the program's state as it found it: it wrote into no
    input array, drew no random numbers and held no op that may have warned at Python
    level (``WriteGuard.warns``: the rerun would warn again; an ``np.errstate`` block
    restores the settings itself when the graph raises). The rerun then makes the Python effects
    the glue had not replayed yet and raises the program's own exception, where its
    own ``try/except`` sees it (``log.append(...); np.linalg.inv(singular)``).
    """
    if output.writes_inputs or output.writes.warns:
        return False
    for node in output.graph.call_nodes():
        op = ops.REGISTRY.get(node.target)
        if op is None or op.random or (op.effect and not node.target.startswith("errstate")):
            return False
    return True


def _checked(graph_fn, n_outputs: int, ctx):
    """``graph_fn`` as a backend returned it, checked against the backend contract: a
    callable returning a tuple (or list) of ``n_outputs`` values. A user's backend's
    results are checked on every call, so a wrong one is a clear ``BackendError``, not
    a ``NameError`` or ``IndexError`` deep in generated code."""
    name = ctx.backend_name
    if not callable(graph_fn):
        raise BackendError(f"backend {name!r} returned {type(graph_fn).__name__} "
                           f"{graph_fn!r:.40}, not a callable; a backend returns a "
                           f"function(*arrays) -> tuple of the graph's outputs")
    if is_builtin(ctx.backend):
        return graph_fn

    def checked(*args):
        out = graph_fn(*args)
        if type(out) not in (tuple, list) or len(out) != n_outputs:
            got = f"{len(out)} values" if type(out) in (tuple, list) else \
                f"{type(out).__name__} {out!r:.40}"
            raise BackendError(f"backend {name!r}: the compiled graph returned {got}; "
                               f"it must return a tuple of {n_outputs} output(s)")
        return out
    return checked


def _check(fn, output: OutputGraph, params, record) -> CheckFunction:
    output.shape_env.add_guards()
    guards = output.guards.ordered()
    with _phase(record, "guards"):
        check = CheckFunction(guards, params, fn.__code__.co_name, fn.__globals__,
                              has_closure=True)
    record.guards = guards
    record.check_source = check.source
    log_guards.debug("guards of %s:\n%s", code_name(fn.__code__), check.explained())
    return check


def _for_user(e: Unsupported) -> Unsupported:
    """``e`` to raise under ``fullgraph=True``, without the translator's frames: what the
    user needs is the program's line (in the message) and their own calls."""
    return e.with_traceback(None)


def _break_record(e: Unsupported, code) -> BreakRecord:
    filename, lineno, line = e.location or (code.co_filename, None, "")
    return BreakRecord(e.reason, e.explanation, e.hint, e.cause, filename, lineno, line,
                       code_name(code))


def _log_break(e: Unsupported, code, whole_frame: bool = False, island: bool = False):
    if not log_breaks.isEnabledFor(10):
        return
    rec = _break_record(e, code)
    key = (rec.filename, rec.lineno, rec.reason)
    frames = _break_frames.setdefault(key, set())
    frame = (code.co_filename, code.co_qualname)
    if frames and frame not in frames:
        # the same break seen again from another frame: a caller that inlined the
        # callee broke at the call, then the callee's own compile breaks at the line
        frames.add(frame)
        return
    frames.add(frame)
    _seen_breaks[key] += 1
    n = _seen_breaks[key]
    if n > 1:
        log_breaks.debug("graph break again (%d times): %s at %s:%s", n, rec.reason,
                         rec.filename, rec.lineno)
        return
    what = "frame runs eagerly" if whole_frame else (
        "the enclosing loop/try block runs eagerly" if island else "graph break")
    log_breaks.debug("%s: %s", what, rec)


class _LazyDis:
    """Formats bytecode only if the bytecode channel is on: the original and the
    rewritten code of a frame, or one code object under a title."""

    def __init__(self, original, new=None, title: str | None = None):
        self.original, self.new, self.title = original, new, title

    def __str__(self) -> str:
        import dis
        import io
        out = io.StringIO()
        if self.title:
            out.write(f"{self.title} {self.original.co_qualname}:\n")
            dis.dis(self.original, file=out)
            return out.getvalue()
        out.write(f"original bytecode of {self.original.co_qualname}:\n")
        dis.dis(self.original, file=out)
        out.write(f"\nrewritten bytecode of {self.new.co_qualname}:\n")
        dis.dis(self.new, file=out)
        return out.getvalue()
