"""``dynamo.annotate(fn, output=...)(*args)``: run, then write the HTML report.

The annotator compiles ``fn`` into a private compile context (as ``dynamo.explain``
does), watches the call with the recorders, builds the report model and writes one
self-contained HTML file. Calling it again adds the new call to the same report (so a
call with new shapes shows up as a recompile with the guard that failed); after
``calls`` recorded calls it keeps running the compiled function without recording.

Example::

    >>> ann = dynamo.annotate(f, output="f.html", backend="eager", measure=20)
    >>> y = ann(x)              # f's result; f.html is written
    >>> ann.report.graphs[0].op_count
    3
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from dynamo.backends import DEFAULT_BACKEND, bind_options, lookup_backend
from dynamo.guards.type_slots import type_module

from .. import convert, hook
from ..explain import _target

if TYPE_CHECKING:
    from .model import CallInfo, Report, Timing

# The report's modules (recorders, model, collect, page; networkx for the pictures) are
# imported where an Annotator first uses them.

log = logging.getLogger("dynamo.internal")


def annotate(fn, output: str | os.PathLike = "annotate.html", backend=DEFAULT_BACKEND, *,
             calls: int = 1, measure: int = 0, options: dict | None = None,
             layout: str = "auto") -> Annotator:
    """Wrap ``fn`` so that calling it runs it compiled and writes an annotated report.

    ``output``: the HTML file to write (rewritten after each recorded call).
    ``backend``: a backend name or callable, as for ``dynamo.compile`` (default
    ``"auto"``).
    ``calls``: how many calls to record; later calls run compiled, unrecorded.
    ``measure``: when > 0, after the first call, time that many more calls of the
    original and of the compiled function (this runs ``fn`` 2 x measure more times,
    with the same arguments) and show eager vs compiled time per call.
    ``layout``: graph drawing, ``"auto"`` (Graphviz ``dot`` when installed and the graph
    is small enough, else the built-in layered layout), ``"dot"`` or ``"builtin"``.
    """
    if not callable(fn):
        raise TypeError(f"dynamo.annotate expects a function or a callable object, got "
                        f"{type(fn).__name__}")
    if calls < 1 or measure < 0:
        raise ValueError(f"calls must be >= 1 and measure >= 0, got calls={calls}, "
                         f"measure={measure}")
    if layout not in ("auto", "dot", "builtin"):
        raise ValueError(f"layout must be 'auto', 'dot' or 'builtin', got {layout!r}")
    return Annotator(fn, Path(output), backend, calls, measure, options, layout)


class Annotator:
    """The callable ``dynamo.annotate`` returns; ``report`` is the data, ``output`` the file."""

    def __init__(self, fn, output: Path, backend, calls: int, measure: int,
                 options: dict | None, layout: str):
        self.fn, self.output, self.max_calls, self.measure = fn, output, calls, measure
        self.layout = layout
        self.backend_name = backend if isinstance(backend, str) else \
            getattr(backend, "__name__", repr(backend))
        self._backend = lookup_backend(backend)
        self._watch = _Watch(bind_options(self._backend, options))
        self._ctx = hook.CompileContext(self._watch, self.backend_name,
                                        convert_frame=convert.convert_frame)
        from .recorder import Recorders
        self._rec = Recorders()
        self._ctx.records = self._rec.records
        self._calls: list[CallInfo] = []
        self._timing: Timing | None = None
        self._busy = False                     # a recursive call runs unrecorded
        self._wrappers: dict = {}
        self.report: Report | None = None

    def __getattr__(self, name: str):          # stands in for fn in a user's script
        if "fn" not in self.__dict__:
            raise AttributeError(name)
        return getattr(self.__dict__["fn"], name)

    def __call__(self, *args, **kwargs):
        target, call_args = _target(self.fn, args)
        wrapper = self._wrappers.get(target)
        if wrapper is None:
            wrapper = self._wrappers[target] = hook.intercept(target, self._ctx)
        if self._busy or len(self._calls) >= self.max_calls:
            return wrapper(*call_args, **kwargs)
        index, first = len(self._calls), len(self._rec.records)
        start = time.perf_counter()
        self._busy = True
        try:
            with self._rec.recording(index):
                result = wrapper(*call_args, **kwargs)
        except BaseException as e:
            try:
                self._finish(index, args, start, first, f"{type(e).__name__}: {e}")
            except Exception as report_error:  # noqa: BLE001 (the user's error comes first)
                log.warning("dynamo.annotate: could not write %s: %s: %s", self.output,
                            type(report_error).__name__, report_error)
            raise
        finally:
            self._busy = False
        self._finish(index, args, start, first, "")
        if index == 0 and self.measure:
            self._timing = measure_calls(lambda: target(*call_args, **kwargs),
                                         lambda: wrapper(*call_args, **kwargs),
                                         self.measure, args)
            self.write()
        return result

    def _finish(self, index: int, args, start: float, first: int, error: str) -> None:
        from .model import CallInfo
        seconds = time.perf_counter() - start
        self._calls.append(CallInfo(index, [describe_arg(a) for a in args], seconds,
                                    (first, len(self._rec.records)), error))
        self.write()

    def write(self) -> Path:
        """Build the report from what was recorded so far and write the HTML file."""
        from .collect import build_report
        from .page import render
        self.report = build_report(self._rec.records, self._rec, self._calls,
                                   backend=self.backend_name, backend_fn=self._backend,
                                   compiled=self._watch.compiled,
                                   function=_function_of(self.fn), timing=self._timing)
        self.output.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.output.with_name(self.output.name + ".tmp")
        tmp.write_text(render(self.report, layout=self.layout), encoding="utf-8")
        os.replace(tmp, self.output)
        return self.output

    @property
    def records(self) -> list:
        """The frame records, as ``dynamo.explain(fn)(...).records`` would hold them."""
        return list(self._rec.records)

    def __repr__(self) -> str:
        return f"<dynamo annotate {getattr(self.fn, '__qualname__', self.fn)!r} -> " \
               f"{str(self.output)!r}>"


class _Watch:
    """The backend, passed through, remembering what it compiled for each graph (the
    report shows the backend's own kernels and code). Attributes the compiler reads
    (``layout_guards``, ``dynamic_shapes``...) are the backend's."""

    def __init__(self, backend):
        self.backend = backend
        self.compiled: dict[int, object] = {}     # id(graph) -> compiled callable

    def __call__(self, graph, example_inputs):
        fn = self.backend(graph, example_inputs)
        self.compiled[id(graph)] = fn
        return fn

    def __getattr__(self, name: str):
        return getattr(self.__dict__["backend"], name)


def _function_of(fn):
    target, _ = _target(fn, ())
    return target


def describe_arg(a) -> str:
    shape, dtype = getattr(a, "shape", None), getattr(a, "dtype", None)
    if shape is not None and dtype is not None:
        lib = type_module(a).split(".")[0]
        dims = ", ".join(str(d) for d in shape)
        return f"{'' if lib == 'numpy' else lib + ':'}{dtype}[{dims}]"
    if isinstance(a, (list, tuple, dict)):
        return f"{type(a).__name__}[{len(a)}]"
    text = repr(a)
    return text if len(text) <= 40 else text[:37] + "..."


def measure_calls(eager, compiled, n: int, args) -> Timing:
    """Median seconds per call over 5 rounds, eager and compiled interleaved."""
    from .model import Timing
    sync = _synchronizer(args)
    per_round = max(1, n // 5)
    e_times, c_times = [], []
    for _ in range(5):
        for fn, out in ((eager, e_times), (compiled, c_times)):
            t = time.perf_counter()
            for _ in range(per_round):
                fn()
            sync()
            out.append((time.perf_counter() - t) / per_round)
    return Timing(per_round * 5, statistics.median(e_times), statistics.median(c_times))


def _synchronizer(args):
    if any(type_module(a).startswith("cupy") for a in args) and "cupy" in sys.modules:
        cupy = sys.modules["cupy"]
        return lambda: cupy.cuda.Device().synchronize()
    return lambda: None
