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
that raised it runs in tier 1 instead (``tier2_calls.py``), which warns or raises as eager.

Anything else raises ``Unsupported`` with the reason: that graph stays in tier 1.

Modules: ``ops.py`` (what each op lowers to, dtypes, casts, the generated code's helpers),
``values.py`` (what a value is while lowered: array, view, scalar, inlined node),
``emitter.py`` (source lines, names, constants, row groups), ``block.py`` (the walk over a
graph's nodes) with its methods by kind of node: ``elementwise.py``, ``nests.py``,
``stencils.py`` (views and stores; ``const_rows.py``: a constant sequence stored),
``gathers.py``/``scatters.py`` (index arrays and masks), ``sym_slices.py`` (slices with
run-time bounds), ``reductions.py``, ``scans.py`` (cumsum, cumprod, diff),
``loops.py``, ``calls.py`` (ops NumPy computes, called from the kernel) and ``draws.py``
(random draws, the same way).
This module has the entry point ``lower`` and the result ``Kernel``.

Example::

    >>> kernel = lower(graph)
    >>> print(kernel.source)
    def kernel(p0, p1):
        _bad = np.zeros(1, np.bool_)
        ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dynamo.graph import Graph, Node

from .block import _Block
from .buffer_slots import assign_slots
from .calls import CALL_PRELUDE
from .dots import DOT_PRELUDE
from .draws import GENERATOR_PRELUDE, is_generator_input
from .emitter import SEQ_FLAG, _Emitter, lift_allocations
from .objmode_outline import outline_objmode
from .ops import PRELUDE, Unsupported, _meta
from .row_buffers import contract_rows
from .saves import SAVE_PRELUDE, free_inputs, input_saver
from .values import Arr, Lazy, Obj, Scal

__all__ = ["Kernel", "Unsupported", "lower"]


@dataclass
class Kernel:
    """The lowering of one graph."""

    source: str                    # the module: PRELUDE, constants, ``def kernel``
    consts: dict                   # name -> NumPy scalar, module globals of the source
    outputs: list                  # per graph output: ("input", k) or ("result", j, meta)
    writes: list                   # inputs the kernel may write: after the graph's
                                   # inputs it takes _b<k>, _s<k> for each (saves.py)
    fresh_ndim: int                # most dimensions (of size > 1) of a fresh array output
    parallel: bool
    nparams: int = 0               # the kernel's parameters (the graph's inputs)
    scalar_params: tuple = ()      # which of them are scalars (the others are arrays)
    buffers: tuple = ()            # emitter.Buffer: new arrays passed in after the savers
    calls_numpy: bool = False      # some op is called through NumPy (calls.py)
    ordered_inputs: bool = False   # runs only for inputs with C-ordered strides, and
    contiguous_inputs: tuple = ()  # these inputs C-contiguous (NumPy's sum order:
                                   # reductions._need_numpy_order)
    generators: tuple = ()         # inputs that are Generators the kernel draws from,
    global_draws: bool = False     # and whether it draws from np.random's global state:
                                   # saved before each call, restored on undo (draws.py)
    free_writes: tuple = ()        # positions in ``writes`` of inputs whose old contents
                                   # no call reads: no backup while a rerun in tier 1
                                   # cannot stop early (saves.free_inputs)
    nopython_draws: bool = False   # some draws made by Numba's Generator methods, under
                                   # the input Generators' locks (nopython_draws.py);
    fallback: Kernel | None = None  # the graph with every draw a NumPy call, compiled
                                    # where Numba's draws are not NumPy's


def lower(graph: Graph, parallel_min: int = 1 << 14, nopython: bool = True) -> Kernel:
    """The kernel source for ``graph`` (see the module docstring); Unsupported if any
    op, dtype, shape or value use has no exact lowering. ``nopython=False``: every
    draw a NumPy call (draws.py), none made by Numba (nopython_draws.py)."""
    if any("symbol" in n.meta for n in graph.placeholders):
        raise Unsupported("symbolic sizes")
    em = _Emitter(parallel_min)
    em.nopython_draws = nopython
    env: dict[Node, Any] = {}
    params, scalars = [], []
    generators = []
    for k, ph in enumerate(graph.placeholders):
        name = f"p{k}"
        params.append(name)
        if is_generator_input(ph.meta):
            env[ph] = Obj(name)
            generators.append(k)
            continue
        if ph.meta.get("size_input"):
            # a size of a static variant (size_variants.py), an int its key fixes: the
            # kernel only passes it on (a loop's free input), Numba types it as int64
            env[ph] = Obj(name)
            continue
        if "object" in ph.meta:
            raise Unsupported(f"{ph.name}: a {ph.meta['object'].__name__} input (a kernel "
                              "cannot take one)")
        meta = _meta(ph)
        if meta.scalar:
            env[ph] = Scal(name, meta.dtype)
            scalars.append(k)
        elif meta.ndim == 0:
            raise Unsupported("0-d array input")
        else:
            em.input_savers[k] = input_saver(k, meta.shape)
            env[ph] = Arr(name, meta.shape, meta.dtype, name, input=k,
                          save=em.input_savers[k])
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
        if isinstance(v, Obj):
            raise Unsupported("a Generator made in the graph is an output")
        if isinstance(v, Arr) and v.input is not None:
            outputs.append(("input", v.input))
            continue
        if isinstance(v, Arr) and v.fresh:
            fresh_ndim = max(fresh_ndim, sum(d > 1 for d in v.shape))
        elif not isinstance(v, Scal):
            raise Unsupported(f"output {o.name} is a view or a loop's array")
        meta = _meta(o)
        if isinstance(v, Scal) and not meta.scalar and meta.ndim != 0:
            raise Unsupported("a scalar where the graph returns an array")
        if id(v) not in seen:
            seen[id(v)] = len(results)
            results.append(v.name)
        outputs.append(("result", seen[id(v)], meta))
    em.line(f"return (_bad[0] | {SEQ_FLAG}, {''.join(r + ', ' for r in results)})")
    lines = _drop_unused_companions(em.lines, em.companions)
    # the inputs the kernel may write (directly, or through a loop's carried arrays):
    # each gets a backup and its state as two more parameters (saves.py)
    text = "\n".join(lines)
    writes = [k for k, saver in sorted(em.input_savers.items())
              if re.search(rf"\b{saver.backup}\b", text)]
    savers = [name for k in writes for name in (em.input_savers[k].backup,
                                                 em.input_savers[k].state)]
    # large new arrays come from the caller, after the savers (emitter.LIFT_MIN_BYTES)
    lines = contract_rows(lines, results)    # row-local intermediates: a row each
    lines, buffers = lift_allocations(lines, results)
    buffers = assign_slots(lines, buffers)   # dead intermediates' memory reused
    text = "\n".join(lines)
    free = free_inputs(writes, em.stores, em.whole_saved, lines)
    names = params + savers + [b.name for b in buffers]
    head = f"def kernel({', '.join(names)}):"
    # (peak memory: objmode_outline.py; not in parallel kernels: see there why)
    lines, outlined = (lines, "") if em.parallel else outline_objmode(lines, names)
    text = "\n".join(lines)
    prelude = PRELUDE + SAVE_PRELUDE + (CALL_PRELUDE if em.uses_npcall else "") + \
        (DOT_PRELUDE if em.uses_blas_dot else "") + \
        (GENERATOR_PRELUDE if em.makes_generators else "") + outlined
    source = prelude + "\n\n" + head + "\n" + text + "\n"
    kernel = Kernel(source, em.consts, outputs, writes, fresh_ndim, em.parallel,
                    len(params), tuple(scalars), tuple(buffers), em.uses_npcall,
                    em.ordered_inputs, tuple(sorted(em.contiguous_inputs)),
                    tuple(generators), em.global_draws, tuple(writes.index(k) for k in free))
    if em.drew_nopython:
        kernel.nopython_draws = True
        kernel.fallback = lower(graph, parallel_min, nopython=False)
    return kernel


def _drop_unused_companions(lines: list, companions: list) -> list:
    """``lines`` without the companion backups (saves.py) of carried arrays that no
    store writes through: a loop that only reads an input it carries (the scalar
    recursion) then takes no backup of it and pays nothing per call for one."""
    companions = list(companions)
    while True:
        text = "\n".join(lines)
        unused = {c for c in companions if len(re.findall(rf"\b{c}\b", text)) == 1}
        if not unused:
            return lines
        lines = [line for line in lines
                 if line.strip().split(",")[0] not in unused]
        companions = [c for c in companions if c not in unused]
