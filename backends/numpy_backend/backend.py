"""The ``numpy`` backend: optimize, partition, plan, generate, compile.

Example::

    >>> fn = numpy_backend(graph, example_inputs, options={"threads": 2})
    >>> fn(x)                   # -> tuple of output arrays
    >>> print(fn.__dynamo_source__)

A graph of one output (``common.one_output``) compiles to code that returns it bare
(``return divide``, not ``return (divide, )``); the backend's result is that code under
``common.tuple_of_one``, so the glue calls the bare code and every other caller gets
the contract's tuple (issue #16: a cached call builds and unpacks no 1-tuple)::

    >>> fn(x), fn.__dynamo_bare__(x)     # ((divide,), divide)
"""

from __future__ import annotations

import itertools
import logging
import time

import numpy as np

from dynamo.graph import Graph
from dynamo.ops.node_facts import array_meta
from dynamo.source import compile_source

from ..common import one_output, python_function, tuple_of_one
from ..fusion import SINGLE, partition
from ..passes import (
    PIPELINE,
    PIPELINE_FAST_POWERS,
    barrier,
    compile_loop_bodies,
    optimize,
    rerun_on_signal,
    varies_per_trip,
)
from . import scratch
from .codegen import emit_forward
from .flat import flat_plan
from .flat_updates import worth_it
from .loop_code import is_loop_body
from .module import Module
from .options import Options
from .plan import plan_group
from .sizes import PerSize, is_symbolic
from .statements import Guarding

log = logging.getLogger("dynamo.backend")
_counter = itertools.count()


def numpy_backend(graph: Graph, example_inputs, options: dict | None = None):
    """Compile ``graph`` into fused, block-wise NumPy code (see the package docstring);
    a graph of one output into code returning it bare, under ``tuple_of_one``."""
    if one_output(graph):   # the glue calls the code that returns it bare
        return tuple_of_one(numpy_code(graph, example_inputs, options, bare=True))
    return numpy_code(graph, example_inputs, options)


def numpy_code(graph: Graph, example_inputs, options: dict | None = None,
               bare: bool = False):
    """The compiled graph itself: a function (or ``PerSize`` runner) returning the tuple
    of the graph's outputs, or with ``bare`` (a graph of ``one_output``) its one output.
    Tier 1 of the native backend calls this, as the dask backend's chunk kernels do."""
    opts = Options.parse(options)
    kinds = {m.kind for m in map(array_meta, graph.nodes) if m is not None}
    if kinds - {"numpy"}:
        raise TypeError(f"backend 'numpy' runs NumPy arrays, but this graph holds "
                        f"{sorted(kinds - {'numpy'})} arrays; use backend='cupy' or 'eager'")
    if any(isinstance(v, np.ndarray) and type(v) is not np.ndarray for v in example_inputs):
        # masked arrays, matrices...: their own operators and methods decide; blocks,
        # out= buffers and ufunc.reduce would not be theirs
        log.debug("numpy backend: ndarray subclass input, running the graph op by op")
        return python_function(graph, bare=bare)
    if is_symbolic(graph):   # one static compile per size, then size-generic code
        return PerSize(graph,
                       lambda static, inputs: numpy_code(static, inputs, options, bare),
                       lambda: generated_code(graph, opts, bare), bare=bare)
    return generated_code(graph, opts, bare)


def generated_code(graph: Graph, opts: Options, bare: bool = False):
    """The graph's generated function, valid for every size its metas allow.

    With static sizes that is the fused, block-planned code. With symbolic sizes
    (``PerSize``'s size-generic function, a loop body over an array of symbolic size)
    it is the same pipeline: a node whose sizes are symbolic runs by itself as a direct
    NumPy call (``_barrier``: ``varies_per_trip`` sees any symbolic size), reading the
    size symbols it needs as the graph's inputs (``x[(s0 - 1)]``), and every decision
    that needs a number (block plans, row buffers, short sums, a mean's count) is made
    only for static shapes; buffers are lent only between equal symbolic sizes
    (``reuse.same_sizes``). No size is baked into the code. With ``bare`` (a graph of
    ``one_output``) the code returns the output itself, and so does its rerun.
    """
    start = time.perf_counter()
    passes = PIPELINE_FAST_POWERS if opts.fast_powers else PIPELINE
    optimized = optimize(graph, passes, without=opts.skip_passes)
    # a loop node's body: compiled here, once, with the loop inside (a body over
    # symbolic sizes too: its code reads them, as the graph's does), after the passes
    # (hoist_invariants moves a body's invariant ops before its loop)
    optimized = compile_loop_bodies(optimized, lambda body: generated_code(body, opts))
    groups = partition(optimized, whole_rows=True, barrier=_barrier)
    # (a stencil over shifted 2-D slices too small for blocks runs as 1-D passes: flat;
    # a smaller group whose plain path spills the L2 cache runs block-wise after all,
    # but not in a loop body: there its outputs, carried into the next trip, are alive
    # when that trip's group takes its output buffers, so each trip would allocate
    # them anew where the plain path writes them into dead buffers; corpus 8's
    # Brusselator, 20 trips of a 34-op group over (200, 200): 13.2 ms against 8.9)
    spill = not is_loop_body(graph)
    plans = [None if g.kind == SINGLE else
             plan_group(g, opts) or worth_it(flat_plan(g, optimized.outputs, opts))
             or plan_group(g, opts, spilling=spill)
             for g in groups]
    n = next(_counter)
    m = Module()
    # A graph without effects runs again as eager after a floating-point condition
    # the caller would see (and, with rerun_on_error, after any exception); one with
    # effects runs the stretch between two effects again (statements.Guarding).
    # (not a loop body: its trips write what they carry, and run again one by one)
    rerun = m.bind(_Rerun(graph, bare=bare), "rerun") \
        if rerun_on_signal(graph) and not is_loop_body(graph) else None
    emit_forward(m, optimized, groups, plans, f"forward{n}",
                 Guarding(rerun, catch_all=opts.rerun_on_error),
                 recycle=scratch.MIN_BYTES if opts.recycle_outputs else 0, bare=bare)
    src = m.source()
    compile_source(src, f"<dynamo numpy graph {n}>", m.scope, user_lines=True)
    fn = m.scope.pop(f"forward{n}")
    if is_loop_body(graph):
        fn.__dynamo_takes_carried__ = m.scope[f"forward{n}_taking"]
    fn.__dynamo_source__ = src
    fn.__dynamo_groups__ = [(g, p) for g, p in zip(groups, plans)]
    log.debug("numpy backend: %d ops -> %d after passes, %d groups (%d block-wise) in "
              "%.1f ms\n%s", len(graph.call_nodes()), len(optimized.call_nodes()),
              len(groups), sum(p is not None for p in plans),
              (time.perf_counter() - start) * 1e3, src)
    return fn


numpy_backend.dynamic_shapes = True   # symbolic graphs: one static compile per size (.sizes)
numpy_backend.check_options = Options.parse   # bad options fail at dynamo.compile()


def _barrier(node) -> bool:
    """Nodes that run by themselves: effects and odd warnings (``passes.barrier``), and
    in a loop body those that read the index or whose sizes change with it (their
    arguments change per trip)."""
    return barrier(node) or varies_per_trip(node)


class _Rerun:
    """Runs the original graph op by op after the fused code raised.

    The fused code raised FloatingPointError under ``runtime.guard`` (a condition
    the caller's settings make visible: eager warns, calls, prints or raises once
    per op, naming the op, in program order) or, with ``rerun_on_error``, any other
    exception. Eager then gives the caller its own warnings, its exception (type and
    message, not the fused code's) or its result. Generated code calls ``failed``
    in the ``except`` clause and this object after it, so eager's exception is not
    chained to the fused code's.
    """

    def __init__(self, graph: Graph | None, fn=None, bare: bool = False):
        self.graph = graph
        self.fn = fn   # given (without the graph) when the disk cache rebuilds it
        self.bare = bare   # return the one output itself, as the fused code does

    def failed(self, error: Exception) -> None:
        log.debug("fused code raised %s: %s; running the graph op by op",
                  type(error).__name__, error)

    def __call__(self, *args):
        if self.fn is None:
            self.fn = python_function(self.graph, name="rerun", bare=self.bare)
        return self.fn(*args)
