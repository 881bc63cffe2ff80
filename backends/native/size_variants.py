"""Graphs with symbolic sizes on the native backend: tier 2 per static variant.

A graph whose sizes change between calls (``for i in range(n)`` over ``n = len(x)``
called with several lengths: the frontend traces it once more with symbolic sizes,
docs/dynamic_shapes.md) reaches the backend with ``SymInt`` sizes. The loop-nest
lowering needs numbers (trip counts, pairwise sum plans, buffer sizes), so such a
graph cannot be lowered as it is. Tier 1 (the numpy backend) already runs it as one
static variant per input shapes (``numpy_backend.sizes.PerSize``: the first call of new
shapes runs op by op and builds the graph with that call's sizes); here each static
variant is compiled by the native backend itself, so a variant that stays hot gets its
own ``Tiered``: counted, lowered with its sizes, compiled by Numba in the background
and raced against tier 1 like any static graph. Sizes past ``sizes.GENERIC_AFTER``
variants run tier 1's size-generic code, as on the numpy backend: a size that changes
on every call never waits for (or pays) a Numba compile.

Before (2026-12-07), such a graph stayed in tier 1 whole ("graph stays in tier 1:
symbolic sizes"): a DP table or a pairwise-distance loop called with rows of 200, 300
and 400 ran tier 1's Python-level loop nodes at every size.

Example::

    >>> runner = native_variants(tier1, lambda static, inputs: native_backend(static, inputs))
    >>> runner(np.ones((300, 3)))     # new shapes: op by op, then a Tiered for (300, 3)
    >>> runner.variants[((300, 3),)]  # that variant (the numpy backend's, if not lowered)
"""

from __future__ import annotations

from ..numpy_backend.sizes import PerSize


def native_variants(tier1: PerSize, compile_static) -> PerSize:
    """A ``PerSize`` runner of ``tier1``'s graph whose static variants are
    ``compile_static(static_graph, inputs)`` (the native backend on the variant's
    graph: a ``Tiered``, or tier 1's code where it does not lower) and whose
    size-generic function is ``tier1``'s (the numpy backend's code for the symbolic
    graph). Same ``bare`` as ``tier1``: the callers of the native backend's result
    expect what tier 1 returns."""
    graph = tier1.graph
    # the inputs that are sizes (symbols an array's shape reads): each variant's key
    # holds their values, so in a variant each is one int (not the changing numbers
    # ``tier1.keep`` names, which stay inputs whose value changes: not lowered)
    sizes = [k for k, ph in enumerate(graph.placeholders)
             if "symbol" in ph.meta and ph.meta["symbol"] not in tier1.keep]

    def compile_variant(static, inputs):
        for k in sizes:
            ph = static.placeholders[k]
            if "array" not in ph.meta and type(inputs[k]) is int:
                ph.meta["size_input"] = True    # (lower.py: passed on, never read)
        return compile_static(static, inputs)
    return PerSize(graph, compile_variant, tier1.compile_generic, bare=tier1.bare)
