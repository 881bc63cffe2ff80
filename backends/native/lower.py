"""Lower a graph to the Python source of loop nests that Numba compiles (tier 2).

One graph becomes one function ``kernel(*inputs) -> (flag, *results)``:

- an elementwise node with one user is *inlined* into that user's loop nest (a chain
  ``0.25 * (a + b + c)`` is one nest with one store); a node with several users, a
  graph output, or one a loop reads is *materialized*: ``np.empty`` and a nest;
- a reduction along the last axis or over every axis is an accumulation (sums with
  eight accumulators, as NumPy's pairwise sum starts; max/min with NumPy's NaN rule);
- ``getitem`` with integers and constant slices is a *view*: reads through it are the
  base array at shifted indices (``A[1:-1, :-2]`` reads ``A[i + 1, j]``);
- ``setitem`` with such an index is a nest that stores into the base array;
- ``fori_loop`` is a ``for`` loop around its body's statements.

The outer loop of a nest is ``prange`` when the nest is large (no nest carries a
dependency from one outer index to the next: values that read what they write are
materialized first). Every value keeps its NumPy dtype: operands are cast to the
ufunc's loop dtypes (``ufunc.resolve_dtypes``, NEP 50 weak Python scalars) and the
result to the node's dtype, so integers wrap as NumPy's do.

Floating-point reports: NumPy warns when an op makes a NaN from operands without one,
or an infinity from finite operands. A kernel flags every NaN or infinity that could
hide such a report: ops that keep one in their result (``+ - *``, ``sqrt``...) pass the
check on to their result (``Elementwise.settle``), other ops check their operands, and
every value is checked before it is stored; the kernel returns the flag, and a call
that raised it runs in tier 1 instead (``tier.py``), which warns or raises as eager.

Anything else raises ``Unsupported`` with the reason: that graph stays in tier 1.

Modules: ``ops.py`` (what each op lowers to, dtypes, casts, the generated code's helpers),
``values.py`` (what a value is while lowered: array, view, scalar, inlined node),
``emitter.py`` (source lines, names, constants, row groups), ``block.py`` (the walk over a
graph's nodes) with its methods by kind of node: ``elementwise.py``, ``nests.py``,
``stencils.py`` (views and stores), ``reductions.py``, ``loops.py``. This module has the
entry point ``lower`` and the result ``Kernel``.

Example::

    >>> kernel = lower(graph)
    >>> print(kernel.source)
    def kernel(p0, p1):
        _bad = np.zeros(1, np.bool_)
        ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dynamo.graph import CALL, Graph, Node

from .block import _Block
from .emitter import SEQ_FLAG, _Emitter
from .ops import PRELUDE, Unsupported, _meta
from .values import Arr, Lazy, Scal

__all__ = ["Kernel", "Unsupported", "lower"]


@dataclass
class Kernel:
    """The lowering of one graph."""

    source: str                    # the module: PRELUDE, constants, ``def kernel``
    consts: dict                   # name -> NumPy scalar, module globals of the source
    outputs: list                  # per graph output: ("input", k) or ("result", j, meta)
    writes: list                   # indices of inputs the kernel writes into
    fresh_ndim: int                # most dimensions (of size > 1) of a fresh array output
    parallel: bool
    nparams: int = 0               # the kernel's parameters (the graph's inputs)


def lower(graph: Graph, parallel_min: int = 1 << 14) -> Kernel:
    """The kernel source for ``graph`` (see the module docstring); Unsupported if any
    op, dtype, shape or value use has no exact lowering."""
    if any("symbol" in n.meta for n in graph.placeholders):
        raise Unsupported("symbolic sizes")
    em = _Emitter(parallel_min)
    env: dict[Node, Any] = {}
    params = []
    for k, ph in enumerate(graph.placeholders):
        meta = _meta(ph)
        name = f"p{k}"
        params.append(name)
        if meta.scalar:
            env[ph] = Scal(name, meta.dtype)
        elif meta.ndim == 0:
            raise Unsupported("0-d array input")
        else:
            env[ph] = Arr(name, meta.shape, meta.dtype, name, input=k)
    em.line("_bad = np.zeros(1, np.bool_)")   # set by prange rows (docs: emitter.SEQ_FLAG)
    em.line(f"{SEQ_FLAG} = False")
    block = _Block(em, graph, env)
    block.run()
    out_node = graph.output_node
    results, outputs, fresh_ndim = [], [], 0
    seen: dict[int, int] = {}
    for o in (out_node.args[0] if out_node is not None else ()):
        if not isinstance(o, Node):
            raise Unsupported("a constant output")
        v = block.env[o]
        if isinstance(v, Lazy):
            v = block.force(o)
        if isinstance(v, Arr) and v.input is not None:
            outputs.append(("input", v.input))
            continue
        if isinstance(v, Arr) and v.fresh:
            fresh_ndim = max(fresh_ndim, sum(d > 1 for d in v.shape))
        elif not isinstance(v, Scal):
            raise Unsupported(f"output {o.name} is a view or a loop's array")
        meta = _meta(o)
        if isinstance(v, Scal) and not meta.scalar:
            raise Unsupported("a scalar where the graph returns an array")
        if id(v) not in seen:
            seen[id(v)] = len(results)
            results.append(v.name)
        outputs.append(("result", seen[id(v)], meta))
    em.line(f"return (_bad[0] | {SEQ_FLAG}, {''.join(r + ', ' for r in results)})")
    writes = sorted({v.input for n, v in block.env.items()
                     if isinstance(n, Node) and n.op == CALL and n.target == "setitem"
                     and isinstance(v, Arr) and v.input is not None})
    if _writes_in_loops(block.env):
        writes = list(range(len(params)))   # a loop's writes: back up every input array
    head = f"def kernel({', '.join(params)}):"
    source = PRELUDE + "\n\n" + head + "\n" + "\n".join(em.lines) + "\n"
    return Kernel(source, em.consts, outputs, writes, fresh_ndim, em.parallel, len(params))


def _writes_in_loops(env: dict) -> bool:
    """Whether a loop node writes into arrays (then which inputs it writes is only
    known by the loop's carried keys; the caller backs up every input array)."""
    return any(isinstance(n, Node) and n.op == CALL and n.target == "fori_loop" and
               _body_writes(n.args[0]) for n in env)


def _body_writes(body: Graph) -> bool:
    return any(n.op == CALL and n.target == "setitem" for n in body.nodes)
