"""The optimization pipeline: pure passes ``Graph -> Graph``, applied in this order.

Example::

    >>> optimized = optimize(graph)                      # every pass below
    >>> optimized = optimize(graph, without={"strength_reduce"})
    >>> optimized = optimize(graph, PIPELINE_FAST_POWERS)   # option fast_powers=True
    >>> optimized = optimize(graph, without={"hoist_invariants"})   # loop bodies as traced
"""

from __future__ import annotations

import logging
import time

from dynamo.graph import Graph

from .cse import cse
from .dce import dce
from .dead_carried import drop_dead_carried
from .fold import fold_constants
from .fresh import fresh_copies
from .hoist import hoist_invariants
from .scalar_reads import scalar_reads
from .strength import fast_powers, strength_reduce

log = logging.getLogger("dynamo.backend")

# hoist_invariants first, while loop nodes still hold their body graphs (a backend
# compiles them after the pipeline), so that what it moves out of a body is optimized
# with the code before the loop; dce so later passes see less; fold before strength
# reduction so folded powers are exact; cse after strength reduction so shared squares
# (x**2, x**3) merge; dce last to drop what folding and cse left without readers.
# fresh_copies first: it only drops a copy of an input (np.array of a list the check
# converted), and the passes after it see the input read directly.
# drop_dead_carried after the first dce (which drops the unread getitems of a loop's
# results, so the slots nothing reads after the loop show).
# scalar_reads before cse and the last dce, which drops the copies it leaves unread.
PIPELINE = (fresh_copies, hoist_invariants, dce, drop_dead_carried, fold_constants,
            strength_reduce, scalar_reads, cse, dce)
# The same with float powers as multiplies (not bit-identical: an explicit option).
PIPELINE_FAST_POWERS = (fresh_copies, hoist_invariants, dce, drop_dead_carried, fold_constants,
                        strength_reduce, fast_powers, scalar_reads, cse, dce)


def optimize(graph: Graph, passes=PIPELINE, without=frozenset()) -> Graph:
    """Apply ``passes`` in order, skipping those named in ``without``."""
    names = {p.__name__ for p in passes}
    unknown = set(without) - names
    if unknown:
        raise ValueError(f"unknown pass(es) {sorted(unknown)}; passes: {sorted(names)}")
    for p in passes:
        if p.__name__ in without:
            continue
        t = time.perf_counter()
        before = len(graph)
        graph = p(graph)
        log.debug("pass %s: %d -> %d nodes in %.2f ms", p.__name__, before, len(graph),
                  (time.perf_counter() - t) * 1e3)
    return graph
