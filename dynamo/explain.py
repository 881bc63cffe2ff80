"""``dynamo.explain(fn)(*args)``: run once, report graphs, breaks, guards, compile time.

``dynamo.explain(fn).calls([args1, args2, ...])`` runs it once per argument tuple, with
one cache across the calls, and reports also every recompile with its reasons (the
guards the call broke, and the lines that specialized them) and the numpy backend's
static size variants.

It compiles into a private context that is dropped afterwards, so no compiled state
is left behind.

Example::

    >>> report = dynamo.explain(f)(x)
    >>> report.graph_count, report.graph_break_count
    (2, 1)
    >>> report = dynamo.explain(adam_step).calls([(g, m, t) for t in range(1, 5)])
    >>> report.compile_count, report.recompiles[0].reasons
    (2, ["L['t']: expected 1, got 2 (read at adam.py:3: return m / (1 - 0.9 ** t))"])
    >>> print(report)
    >>> with dynamo.explain(adam_step) as e:     # calls made by the program's own loop
    ...     for t in range(1, 5):
    ...         m = e(g, m, t)
    >>> e.report.recompile_count
    1
"""

from __future__ import annotations

import logging
import threading
import types
from contextlib import contextmanager
from dataclasses import dataclass, field

from dynamo.backends import DEFAULT_BACKEND, bind_options, lookup_backend

from . import hook
from .api import entry_function
from .bytecode.caller_frames import reads_caller_frame_of
from .bytecode.instructions import code_name
from .convert import convert_frame
from .frame_records import BreakRecord, FrameRecord
from .guard_words import guard_lines
from .interrupt_locks import new_lock, under_lock
from .logs import SIZE_VARIANT


@dataclass
class Recompile:
    """A call that no cached entry fitted: which call (0-based), of which frame, and why
    (one line per entry: the first guard it broke, with the line that made it)."""

    call: int
    where: str
    reasons: list[str]

    def __str__(self) -> str:
        return f"call {self.call}: {self.where}\n" + "\n".join(f"  {r}" for r in self.reasons)


@dataclass
class ExplainOutput:
    records: list[FrameRecord] = field(default_factory=list)
    result: object = None
    exception: BaseException | None = None   # what the call raised, if it raised
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (frame, why) run eagerly
    calls: int = 1
    results: list = field(default_factory=list)      # per call: its result (or None)
    exceptions: list = field(default_factory=list)   # per call: what it raised (or None)
    recompiles: list[Recompile] = field(default_factory=list)
    size_variants: list[str] = field(default_factory=list)  # a backend's, in words
    # a backend's switch to size-generic code past its static variants (no variant)
    size_generic: list[str] = field(default_factory=list)
    cache_limit: list[str] = field(default_factory=list)    # the cache-limit warnings

    @property
    def compile_count(self) -> int:
        """Frames compiled (or found uncompilable) over all the calls."""
        return len(self.records)

    @property
    def recompile_count(self) -> int:
        return len(self.recompiles)

    @property
    def graphs(self) -> list:
        return [r.graph for r in self.records if r.graph is not None]

    @property
    def graph_count(self) -> int:
        return len(self.graphs)

    @property
    def break_reasons(self) -> list[BreakRecord]:
        return [b for r in self.records for b in r.breaks]

    @property
    def graph_break_count(self) -> int:
        """Break records: a break in a helper counts once per frame it ends a graph in
        (``break_sites`` counts it once)."""
        return len(self.break_reasons)

    @property
    def break_sites(self) -> list[tuple[BreakRecord, list[str]]]:
        """Each break once, in the order first met: (its first record, the frames whose
        graphs it ended). ``check``'s ``assert`` reached from ``top`` through ``mid`` is
        one site with the frames ``['top', 'mid', 'check']``."""
        sites: dict[tuple, tuple[BreakRecord, list[str]]] = {}
        for b in self.break_reasons:
            first, frames = sites.setdefault(b.site, (b, []))
            if b.frame not in frames:
                frames.append(b.frame)
        return list(sites.values())

    @property
    def ops_per_graph(self) -> list[int]:
        return [len(g.call_nodes()) for g in self.graphs]

    @property
    def guards(self) -> list:
        return [g for r in self.records for g in r.guards]

    @property
    def check_sources(self) -> list[str]:
        return [r.check_source for r in self.records if r.check_source]

    @property
    def compile_time(self) -> float:
        return sum(r.compile_time for r in self.records)

    def __str__(self) -> str:
        lines = [] if self.exception is None else [
            f"The call raised {type(self.exception).__name__}: {self.exception}"]
        if self.calls > 1:
            lines.append(f"Calls: {self.calls}, compiles: {self.compile_count}, recompiles: "
                         f"{self.recompile_count}, numpy size variants: "
                         f"{len(self.size_variants)}")
            for r in self.recompiles:
                lines += ["Recompile at " + str(r).replace("\n", "\n  ")]
            lines += [f"Size variant: {v}" for v in self.size_variants]
            lines += [f"Size-generic code: {v}" for v in self.size_generic]
            lines += [f"Cache limit: {w}" for w in self.cache_limit]
        lines += [f"Graphs: {self.graph_count}",
                 f"Graph breaks: {self.graph_break_count}" + (
                     f" (at {_places(len(self.break_sites))})"
                     if len(self.break_sites) != self.graph_break_count else ""),
                 f"Ops per graph: {self.ops_per_graph}",
                 f"Compile time: {self.compile_time * 1e3:.1f} ms"]
        if self.skipped:
            lines.append("Frames that ran uncompiled:")
            lines += [f"  {where}: {why}" for where, why in self.skipped]
        if self.break_reasons:
            lines.append("Break reasons:")
            for i, (b, frames) in enumerate(self.break_sites, 1):   # (each place once)
                lines.append(f"  {i}. " + b.describe(frames).replace("\n", "\n     "))
        for i, r in enumerate(r for r in self.records if r.graph is not None):
            lines.append(f"Graph {i} ({code_name(r.code)}, {r.op_count} ops):")
            lines += ["  " + ln for ln in str(r.graph).splitlines()]
        if self.guards:
            # in the program's names, values inline (``guard_words``); the generated
            # check functions, in generated code's names, are ``check_sources``
            lines.append("Guards:")
            for r in self.records:
                if r.guards:
                    lines.append(f"  {code_name(r.code)}:")
                    lines += [f"    {line}" for line in guard_lines(r.guards, r.code)]
        return "\n".join(lines)


def _places(n: int) -> str:
    return "1 place" if n == 1 else f"{n} places"


class Explainer:
    """``explain(fn)``: call it like ``fn`` (one call), or ``.calls([...])`` (several)."""

    def __init__(self, fn, backend, compile_kwargs):
        self.fn, self.backend, self.compile_kwargs = fn, backend, compile_kwargs
        self.compiler = lookup_backend(backend)

    def __call__(self, *args, **kwargs) -> ExplainOutput:
        return self._run([(args, kwargs)])

    def calls(self, calls) -> ExplainOutput:
        """Run ``fn`` once per item of ``calls`` (a tuple of positional arguments, or an
        ``(args, kwargs)`` pair given as ``dynamo.explain.Call(args, kwargs)``), sharing
        one cache, and report every recompile with its reasons."""
        return self._run([(c.args, c.kwargs) if isinstance(c, Call) else
                          (tuple(c) if isinstance(c, tuple) else (c,), {}) for c in calls])

    def _run(self, calls) -> ExplainOutput:
        session = _Session(self)
        try:
            for args, kwargs in calls:
                session.call(args, kwargs)
        finally:
            out = session.close()
        return out

    def __enter__(self) -> Recorder:
        """``with dynamo.explain(f) as e: e(a); e(b)``: ``e`` calls ``f`` compiled (its
        results and exceptions are the program's), all calls in one cache; after the
        block, ``e.report`` is the ExplainOutput over them (``.calls`` in a block, for
        calls made by code that takes a function). ``f`` itself is not changed."""
        self._recorder = Recorder(_Session(self))
        return self._recorder

    def __exit__(self, *exc_info) -> None:
        recorder, self._recorder = self._recorder, None
        recorder.report = recorder._session.close()


class Recorder:
    """The function of ``with dynamo.explain(f) as e`` (``Explainer.__enter__``)."""

    def __init__(self, session: _Session):
        self._session = session
        self.report: ExplainOutput | None = None   # set when the block ends

    def __call__(self, *args, **kwargs):
        if self.report is not None:
            raise RuntimeError("explain: the with block has ended; call the function "
                               "itself, or explain it again")
        result, exception = self._session.call(args, kwargs)
        if exception is not None:
            raise exception
        return result

    def __str__(self) -> str:
        return "<explain: calls still running>" if self.report is None else str(self.report)


class _Session:
    """One explain run: a private compile context, its calls, and the recompile log
    (``Explainer._run``; a ``with`` block's ``Recorder``)."""

    def __init__(self, explainer: Explainer):
        kw = explainer.compile_kwargs
        self.fn = explainer.fn
        self.ctx = hook.CompileContext(bind_options(explainer.compiler, kw.get("options")),
                                       str(explainer.backend), kw.get("fullgraph", False),
                                       kw.get("dynamic"), convert_frame=convert_frame)
        self.ctx.records = []
        self.out = ExplainOutput(self.ctx.records, calls=0)
        self.wrapper = None
        self.as_called: list[tuple[str, str]] = []   # (function, why) run uncompiled
        self._log = _recompile_log()
        self.log = self._log.__enter__()

    def call(self, args: tuple, kwargs: dict):
        """Run one call; (result, None) or (None, what it raised)."""
        target, call_args = _target(self.fn, args)
        if self.wrapper is None:
            self.wrapper = self._wrapper(target)
        self.log.call = self.out.calls
        self.out.calls += 1
        try:
            result, exception = self.wrapper(*call_args, **kwargs), None
        except Exception as e:  # noqa: BLE001 (reported, like the graphs)
            result, exception = None, e
        self.out.results.append(result)
        self.out.exceptions.append(exception)
        return result, exception

    def _wrapper(self, target):
        """What runs ``target``: the frame hook, or ``target`` itself when it reads its
        caller's frame (as ``dynamo.compile`` does: ``compiled_calls.hooked_call``),
        reported among the frames run eagerly. (Its caller is then explain's own frame, as a call
        through any Python wrapper would make it.)"""
        why = None if self.ctx.fullgraph else reads_caller_frame_of(target)
        if why is None:
            return hook.intercept(target, self.ctx)
        self.as_called.append((code_name(target.__code__),
                               f"it reads its caller's frame ({why}): it runs uncompiled"))
        return target

    def close(self) -> ExplainOutput:
        """Stop collecting, drop the compiled state, and return the report."""
        out, log = self.out, self.log
        self._log.__exit__(None, None, None)
        out.recompiles, out.size_variants = log.recompiles, log.variants
        out.size_generic = log.generic
        out.cache_limit = log.warnings
        out.skipped = self.as_called + [(c.where, c.skip_reason)
                                        for c in self.ctx.caches.values()
                                        if c.skip_reason is not None]
        self.ctx.reset()
        if out.results:
            out.result, out.exception = out.results[-1], out.exceptions[-1]
        return out


@dataclass
class Call:
    """One call for ``explain(fn).calls``, with keyword arguments."""

    args: tuple = ()
    kwargs: dict = field(default_factory=dict)


class _RecompileLog(logging.Handler):
    """Collects the ``recompiles`` channel while ``explain`` runs its calls: the records
    of its own thread only (explains in other threads collect theirs)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.thread = threading.get_ident()
        self.call = 0
        self.recompiles: list[Recompile] = []
        self.variants: list[str] = []
        self.generic: list[str] = []
        self.warnings: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread:
            return
        text = record.getMessage()
        if text.startswith("recompiling "):
            head, *reasons = text.splitlines()
            where = head[len("recompiling "):].split(": no cached entry")[0]
            self.recompiles.append(Recompile(self.call, where, [r.strip() for r in reasons]))
        elif getattr(record, SIZE_VARIANT, None) is not None:   # a backend's, by sizes
            # (the switch to size-generic code compiles no variant: the annotate page
            # does not count it either)
            variant = getattr(record, SIZE_VARIANT)
            (self.generic if variant.generic else self.variants).append(
                f"call {self.call}: {text}")
        elif record.levelno >= logging.WARNING:
            self.warnings.append(text)


# The collecting handlers now (explains running, in any thread), and the channel's own
# level and propagation, saved by the first to start and put back by the last to end:
# each saving and restoring its own let two explains in two threads leave the channel
# switched on for good (the second saved the first's DEBUG)
_collecting: list[_RecompileLog] = []
_saved: list = []
_lock = new_lock()


def _start(logger: logging.Logger, handler: _RecompileLog) -> None:
    if not _collecting:
        _saved[:] = [logger.level, logger.propagate]
        if not logger.isEnabledFor(logging.DEBUG):   # collected, not printed
            logger.setLevel(logging.DEBUG)
            logger.propagate = False
    _collecting.append(handler)
    logger.addHandler(handler)


def _stop(logger: logging.Logger, handler: _RecompileLog) -> None:
    logger.removeHandler(handler)
    _collecting.remove(handler)
    if not _collecting:
        logger.setLevel(_saved[0])
        logger.propagate = _saved[1]


@contextmanager
def _recompile_log():
    logger = logging.getLogger("dynamo.recompiles")
    handler = _RecompileLog()
    under_lock(_lock, _start, logger, handler)
    try:
        yield handler
    finally:
        under_lock(_lock, _stop, logger, handler)


def explain(fn, backend=DEFAULT_BACKEND, **compile_kwargs) -> Explainer:
    """``explain(fn)(*args, **kwargs)`` -> ExplainOutput (and the call's result);
    ``explain(fn).calls([args1, args2, ...])`` -> one ExplainOutput over several calls.
    ``backend`` as for ``dynamo.compile`` (default ``"auto"``)."""
    return Explainer(fn, backend, compile_kwargs)


def _target(fn, args):
    if isinstance(fn, types.FunctionType):
        return fn, args
    if hasattr(fn, "_orig_mod"):
        fn = fn._orig_mod
    if hasattr(fn, "_dynamo_fn"):
        return fn._dynamo_fn, args
    if isinstance(fn, types.MethodType):
        return fn.__func__, (fn.__self__, *args)
    return entry_function(fn), (fn, *args)
