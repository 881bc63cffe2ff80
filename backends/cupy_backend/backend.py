"""The ``cupy`` backend, and ``compile_graph``: the entry point other backends build on.

``compile_graph(graph, example_inputs, options)`` plans the fusion, generates CUDA
and host code, compiles the module and returns a ``CompiledGraph``: calling it runs
the graph on CuPy's current stream and returns a tuple of new CuPy arrays. It only
enqueues GPU work: kernel launches, cuBLAS calls through ``cupy.matmul``, and
allocations from CuPy's memory pool (``cupy.empty``); it never synchronizes or
reads device memory on the host. ``CompiledGraph.library_calls`` lists the steps
that are plain CuPy calls (matmul among them), for a caller that captures the work
into a CUDA graph (``backends.cudagraphs``) and must treat cuBLAS specially.

With ``device="reference"`` the same plan and host code run on NumPy, with kernels
evaluated from their IR: the CPU tests' reference executor (:mod:`.reference`).

Options (``dynamo.compile(fn, backend="cupy", options={...})``): the tuning knobs of
:class:`.launch.Tuning` (``threads``, ``ilp``, ``row_elems``, ``row_cache``,
``max_blocks``), and ``cudagraphs=True`` to hand the compiled graph to
``backends.cudagraphs.wrap`` (the CUDA Graphs backend's combined mode; its own
options, such as ``warmup``, pass through). There, matmul and dot go through
``backends.cudagraphs.blas`` (capture-safe cuBLAS; ``cupy.matmul`` outside a
recording).

Example::

    >>> compiled = compile_graph(graph, [x])
    >>> print(compiled.plan)                     # which ops became which kernels
    >>> print(compiled.cuda_source)              # the generated CUDA C
    >>> y, = compiled(x)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from dynamo.backends.common import (
    CupyUnavailable,
    cupy_problem,
    graph_kind,
    python_function,
    unavailable_error,
)
from dynamo.backends.passes import compile_loop_bodies, without_errstate

from dynamo.graph import Graph
from dynamo.ops import CUPY, NUMPY, impl_table
from dynamo.symbolic import not_recording

from .codegen import KernelCode, kernel_code, module_source
from .fuse import Plan, make_plan
from .host import bind, host_source
from .launch import Tuning

log = logging.getLogger("dynamo.backend")

BACKEND_OPTIONS = ("cudagraphs",)


@dataclass
class CompiledGraph:
    fn: object                 # the host function: fn(*arrays) -> tuple of arrays
    plan: Plan
    codes: list                # KernelCode per kernel step
    cuda_source: str           # the module's CUDA C ("" without kernels)
    host_source: str           # the host function's Python source
    device: object

    def __call__(self, *arrays):
        return self.fn(*arrays)

    @property
    def library_calls(self) -> list:
        return [s.nodes[0] for s in self.plan.steps if s.kind == "call"]


def split_options(options: dict | None) -> tuple[Tuning, dict]:
    """(kernel tuning, the other options). Unknown keys are an error unless
    ``cudagraphs=True``, where they belong to ``backends.cudagraphs.wrap``."""
    options = dict(options or {})
    rest = {k: options.pop(k) for k in list(options)
            if k not in Tuning.__dataclass_fields__}
    if not rest.get("cudagraphs"):
        unknown = sorted(set(rest) - set(BACKEND_OPTIONS))
        if unknown:
            raise ValueError(f"unknown cupy backend option(s) {unknown}; known: "
                             f"{sorted([*BACKEND_OPTIONS, *Tuning.__dataclass_fields__])}")
    return Tuning.from_options(options), rest


class OpsWith:
    """An op table with a few ops replaced (the cudagraphs GEMM for matmul and dot)."""

    def __init__(self, base, **overrides):
        self._base = base
        self.__dict__.update(overrides)

    def __getattr__(self, name: str):
        return getattr(self._base, name)


def compile_graph(graph: Graph, example_inputs, options: dict | None = None,
                  device: str = "cupy", ops=None) -> CompiledGraph:
    """Plan, generate and compile ``graph``; see the module docstring.

    ``ops`` replaces CuPy's op table for the plain calls (``OpsWith(...)``).
    """
    tuning, _ = split_options(options)
    # a loop node's body runs op by op, as the eager backend runs it (loop nodes are
    # made for NumPy arrays only: here on the reference device)
    graph = compile_loop_bodies(graph, lambda body: python_function(body))
    with not_recording():
        # The shared partition compares shapes, which are SymInts in a symbolic graph:
        # it only proposes groups (at the hints), so its comparisons must not become
        # guards of the entry; lower() judges with the symbolic sizes (see .sizes).
        plan = make_plan(graph, example_inputs)
    codes: list[KernelCode] = [kernel_code(k, tuning) for k in plan.kernels]
    cuda = module_source(codes) if codes else ""
    src, consts = host_source(plan, {id(c.kernel): c for c in codes}, "forward")
    if device == "cupy":
        from .runtime import cupy_device
        dev = cupy_device(codes, cuda)
        if ops is not None:
            dev.ops = ops
    elif device == "reference":
        from .reference import reference_device
        dev = reference_device(codes)
    else:
        raise ValueError(f"device must be 'cupy' or 'reference', got {device!r}")
    fn = bind(src, consts, "forward", dev)
    log.debug("cupy backend plan:\n%s\nhost code:\n%s", plan, src)
    return CompiledGraph(fn, plan, codes, cuda, src, dev)


def _raiser(error: Exception):
    def unavailable(*args):
        raise error
    return unavailable


def cupy_backend(graph: Graph, example_inputs, options: dict | None = None):
    """Fused CUDA kernels through CuPy (see the package docstring)."""
    try:
        split_options(options)
    except (ValueError, TypeError) as e:
        return _raiser(ValueError(f"backend 'cupy': {e}"))
    problem = cupy_problem()
    if problem is not None:
        return _raiser(unavailable_error("cupy", problem))
    if graph_kind(graph) == NUMPY:
        log.info("backend 'cupy': a graph of NumPy arrays runs eagerly on the CPU; pass "
                 "CuPy arrays (cupy.asarray(x)) to run it on the GPU")
        return python_function(graph, NUMPY)
    graph = without_errstate(graph)     # CuPy kernels never consult np.errstate
    if (options or {}).get("cudagraphs"):
        try:
            from dynamo.backends.cudagraphs import blas, wrap
        except ImportError as e:
            return _raiser(ValueError(f"backend 'cupy': options cudagraphs=True needs the "
                                      f"cudagraphs backend ({e})"))
        # matmul/dot through the capture-safe GEMM (cupy.matmul outside a recording)
        ops = OpsWith(impl_table(CUPY), matmul=blas.matmul, dot=blas.dot)
        compiled = compile_graph(graph, example_inputs, options, ops=ops)
        return wrap(compiled, graph, example_inputs, options)
    compiled = compile_graph(graph, example_inputs, options)
    compiled.fn.compiled = compiled
    return compiled.fn


# Guarded strides, except a contiguous input with a symbolic size: its strides follow
# from the sizes (the kernels take them as parameters; the host checks them per call).
cupy_backend.layout_guards = "dynamic-contiguity"
cupy_backend.dynamic_shapes = True   # sizes become kernel parameters (see .sizes)
cupy_backend.check_options = split_options   # bad options fail at dynamo.compile()


def reference_backend(graph: Graph, example_inputs, options: dict | None = None):
    """The cupy backend's plan executed on NumPy (CPU tests, debugging the fusion)."""
    compiled = compile_graph(graph, example_inputs, options, device="reference")
    compiled.fn.compiled = compiled
    return compiled.fn


reference_backend.layout_guards = "dynamic-contiguity"
reference_backend.dynamic_shapes = True

__all__ = ["CompiledGraph", "CupyUnavailable", "compile_graph", "cupy_backend",
           "reference_backend"]
