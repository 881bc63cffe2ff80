"""The ``cudagraphs`` backend, and ``wrap`` for the fused ``cupy`` backend.

``cudagraphs(graph, example_inputs, options)`` plans the capture (:mod:`.plan`); a
capturable graph gets a :class:`~.runner.CudaGraphRunner` around two versions of
the graph's straight-line CuPy code: one whose ``matmul``/``dot`` go through our
capture-safe GEMM (:mod:`.blas`), recorded; and the plain eager one, the fallback.
A graph that cannot be captured runs as the eager backend would, with the reasons
on the ``cudagraphs`` log channel (``DYNAMO_LOGS=cudagraphs``).

``wrap(compiled_fn, graph, example_inputs, options)`` does the same around another
backend's compiled function: the ``cupy`` backend calls it for
``backend="cupy", options={"cudagraphs": True}``. Its matmuls must call
:func:`backends.cudagraphs.blas.matmul` (which is ``cupy.matmul`` outside a
recording) or the recording fails and the function runs uncaptured.

Options (``dynamo.compile(..., options={...})``):

================  =========  ===========================================================
option            default    meaning
================  =========  ===========================================================
warmup            1          eager calls before recording (0 records on the first call)
pin_inputs        True       capture inputs in place that stay the same array object
capture_user_ops  False      allow ``dynamo.register_op`` functions inside a recording
cublas_workspace  None       bytes of cuBLAS workspace (None: 32 MiB sm_90+, else 4 MiB)
max_recaptures    4          re-recordings (after a pinned input changed) before giving up
max_sizes         8          recordings kept per dynamic-shape entry (one per size seen)
================  =========  ===========================================================

Example::

    >>> f = dynamo.compile(model, backend="cudagraphs")
    >>> y = f(x)      # warm-up;  f(x) again: recorded;  later calls: replayed
"""

from __future__ import annotations

import itertools

from dynamo.backends.common import cupy_problem, graph_kind, python_function, unavailable_error
from dynamo.backends.passes import without_errstate

from dynamo import logs
from dynamo.graph import Graph
from dynamo.ops import CUPY, impl_table
from dynamo.source import compile_source

from . import blas
from .plan import CapturePlan, plan_capture

log = logs.get("cudagraphs")

DEFAULTS = {"warmup": 1, "pin_inputs": True, "capture_user_ops": False,
            "cublas_workspace": None, "max_recaptures": 4, "max_sizes": 8}
_counter = itertools.count()


def cudagraphs(graph: Graph, example_inputs, options: dict | None = None):
    opts = parse_options(options)
    require_gpu()
    if graph_kind(graph) == CUPY:
        graph = without_errstate(graph)  # host state a recording cannot replay; CuPy ignores it
    eager_fn = python_function(graph)
    name = graph_name(graph)
    if graph_kind(graph) != CUPY:
        log.debug("%s runs uncaptured: it computes on NumPy arrays (pass CuPy arrays)", name)
        eager_fn.capture_plan = None
        return eager_fn
    plan = plan_capture(graph, capture_user_ops=opts["capture_user_ops"])
    if not plan.capturable:
        _log_plan(name, plan)
        eager_fn.capture_plan = plan
        return eager_fn
    capture_fn = graph_function(graph, CaptureOps(impl_table(CUPY)), name)
    return make_runner(capture_fn, eager_fn, plan, name, opts, check_layout=False)


cudagraphs.layout_guards = True      # static buffers copy the caller's exact strides
cudagraphs.dynamic_shapes = True     # symbolic entries get one recording per size


def wrap(compiled_fn, graph: Graph, example_inputs, options: dict | None = None):
    """``compiled_fn`` (another backend's callable for ``graph``), recorded and replayed.

    Unknown option keys are ignored (they belong to the calling backend). Returns
    ``compiled_fn`` itself when the graph cannot be captured.
    """
    opts = parse_options({k: v for k, v in (options or {}).items() if k in DEFAULTS})
    require_gpu()
    name = graph_name(graph)
    plan = plan_capture(graph, capture_user_ops=opts["capture_user_ops"])
    if graph_kind(graph) != CUPY or not plan.capturable:
        _log_plan(name, plan)
        return compiled_fn
    return make_runner(compiled_fn, compiled_fn, plan, name, opts, check_layout=True)


def make_runner(capture_fn, eager_fn, plan: CapturePlan, name: str, opts: dict,
                check_layout: bool, device=None):
    """The callable of one entry: a runner, or one runner per size for dynamic graphs."""
    from .runner import CudaGraphRunner, PerShapeRunner
    if device is None:
        from .device import CupyDevice
        device = CupyDevice()

    def one(key=None):
        return CudaGraphRunner(capture_fn, eager_fn, device, name=name, warmup=opts["warmup"],
                               pin_inputs=opts["pin_inputs"],
                               check_layout=check_layout and key is None,
                               needs_blas=bool(plan.gemms), workspace=opts["cublas_workspace"],
                               max_recaptures=opts["max_recaptures"])

    runner = PerShapeRunner(one, opts["max_sizes"], name) if plan.dynamic else one()
    runner.capture_plan = plan
    log.debug("%s will be recorded: %s", name, plan.summary())
    return runner


# --------------------------------------------------------------------------- pieces

class CaptureOps:
    """The op table of recorded code: CuPy's, with matmul/dot through our GEMM."""

    matmul = staticmethod(blas.matmul)
    dot = staticmethod(blas.dot)

    def __init__(self, base):
        self._base = base

    def __getattr__(self, name: str):
        fn = getattr(self._base, name)
        setattr(self, name, fn)
        return fn


def graph_function(graph: Graph, ops, label: str):
    """The graph's printout compiled against the op table ``ops``.

    ``label`` (``graph_name``'s "graph of f (app.py:3)") names the source in tracebacks;
    the function itself gets a plain identifier, ``capture_7``.
    """
    fn_name = f"capture_{next(_counter)}"
    src, consts = graph.python_code(fn_name)

    class Consts:
        pass

    holder = Consts()
    holder.__dict__.update(consts)
    scope = {"ops": ops, "consts": holder}
    compile_source(src, f"<dynamo cudagraphs {fn_name}: {label}>", scope)
    fn = scope.pop(fn_name)
    fn.__dynamo_source__ = src
    return fn


def graph_name(graph: Graph) -> str:
    """``frame@file:line`` of the graph's first op, for logs."""
    for node in graph.call_nodes():
        frame, loc = node.meta.get("frame"), node.meta.get("loc")
        if frame or loc:
            return f"graph of {frame or '?'} ({loc or '?'})"
    return "graph"


def parse_options(options: dict | None) -> dict:
    """The backend's options with defaults; ValueError names unknown keys and bad values."""
    opts = dict(DEFAULTS)
    unknown = sorted(set(options or {}) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"backend 'cudagraphs' got unknown option(s) {unknown}; "
                         f"known: {sorted(DEFAULTS)}")
    opts.update(options or {})
    for key in ("warmup", "max_recaptures", "max_sizes"):
        if not isinstance(opts[key], int) or isinstance(opts[key], bool) or opts[key] < 0:
            raise ValueError(f"option {key!r} must be an int >= 0, got {opts[key]!r}")
    ws = opts["cublas_workspace"]
    if ws is not None and (not isinstance(ws, int) or isinstance(ws, bool) or ws < 0):
        raise ValueError(f"option 'cublas_workspace' must be None or bytes >= 0, got {ws!r}")
    return opts


cudagraphs.check_options = parse_options   # bad options fail at dynamo.compile()


def require_gpu() -> None:
    """Raise ``BackendError`` (``CupyUnavailable``) saying what is missing when CuPy or a
    CUDA device is (the probe shared with the ``cupy`` backend)."""
    problem = cupy_problem()
    if problem is not None:
        raise unavailable_error("cudagraphs", problem) from None


def _log_plan(name: str, plan: CapturePlan) -> None:
    if not log.isEnabledFor(10):
        return
    log.debug("%s runs uncaptured:\n  %s", name,
              "\n  ".join(str(r) for r in plan.reasons) or "it computes on NumPy arrays")
