"""``dynamo.explain(fn)(*args)``: run once, report graphs, breaks, guards, compile time.

It compiles into a private context that is dropped afterwards, so no compiled state
is left behind.

Example::

    >>> report = dynamo.explain(f)(x)
    >>> report.graph_count, report.graph_break_count
    (2, 1)
    >>> print(report)
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field

from dynamo.backends import bind_options, lookup_backend

from . import hook
from .api import entry_function
from .bytecode.instructions import code_name
from .convert import BreakRecord, FrameRecord, convert_frame


@dataclass
class ExplainOutput:
    records: list[FrameRecord] = field(default_factory=list)
    result: object = None
    exception: BaseException | None = None   # what the call raised, if it raised
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (frame, why) run eagerly

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
        return len(self.break_reasons)

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
        lines += [f"Graphs: {self.graph_count}",
                 f"Graph breaks: {self.graph_break_count}",
                 f"Ops per graph: {self.ops_per_graph}",
                 f"Compile time: {self.compile_time * 1e3:.1f} ms"]
        if self.skipped:
            lines.append("Frames that ran uncompiled:")
            lines += [f"  {where}: {why}" for where, why in self.skipped]
        if self.break_reasons:
            lines.append("Break reasons:")
            for i, b in enumerate(self.break_reasons, 1):
                lines.append(f"  {i}. " + str(b).replace("\n", "\n     "))
        for i, r in enumerate(r for r in self.records if r.graph is not None):
            lines.append(f"Graph {i} ({code_name(r.code)}, {r.op_count} ops):")
            lines += ["  " + ln for ln in str(r.graph).splitlines()]
        if self.guards:
            lines.append("Guards:")
            for r in self.records:
                if r.guards:
                    lines.append(f"  {code_name(r.code)}:")
                    lines += [f"    {g.describe()}" for g in r.guards]
            lines.append("Guard check functions (generated):")
            for src in self.check_sources:
                lines += ["  " + ln for ln in src.rstrip().splitlines()]
        return "\n".join(lines)


def explain(fn, backend="eager", **compile_kwargs):
    """``explain(fn)(*args, **kwargs)`` -> ExplainOutput (and the call's result)."""
    compiler = lookup_backend(backend)

    def run(*args, **kwargs) -> ExplainOutput:
        ctx = hook.CompileContext(bind_options(compiler, compile_kwargs.get("options")),
                                  str(backend), compile_kwargs.get("fullgraph", False),
                                  compile_kwargs.get("dynamic"), convert_frame=convert_frame)
        ctx.records = []
        target, call_args = _target(fn, args)
        wrapper = hook.intercept(target, ctx)
        out = ExplainOutput(ctx.records)
        try:
            out.result = wrapper(*call_args, **kwargs)
        except Exception as e:  # noqa: BLE001 (reported, like the graphs)
            out.exception = e
        finally:
            out.skipped = [(c.where, c.skip_reason) for c in ctx.caches.values()
                           if c.skip_reason is not None]
            ctx.reset()
        return out

    return run


def _target(fn, args):
    if isinstance(fn, types.FunctionType):
        return fn, args
    if hasattr(fn, "_orig_mod"):
        fn = fn._orig_mod
    if hasattr(fn, "_orig_fn"):
        return fn._orig_fn, args
    if isinstance(fn, types.MethodType):
        return fn.__func__, (fn.__self__, *args)
    return entry_function(fn), (fn, *args)
