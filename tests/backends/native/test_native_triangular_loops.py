"""Tier 2 on triangular inner loops (dynamo/translator/triangular_loops.py): a loop
node whose trip count follows the enclosing loop's trip is lowered to ``for trip in
range(<expression of the enclosing trip variable>)`` inside the outer loop
(backends/native/loops.py ``trip_expression``), running no trip where the expression
is 0 or below, as Python's empty range. Each program runs eagerly and with tier 2
forced (its second call), bit for bit (tests/backends/native/tier_runs.py), and its
kernel holds such a loop; before, the trip count was no int and the graph stayed in
tier 1 ("fori_loop with a compiled body or symbolic trip count"). No kernel calls back
into Python (``objmode``): a float accumulator's ``np.float64(0.0)`` is a literal.

Each case costs one Numba compile (about 1-4 s of CPU on a loaded 2-core machine).
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("numba")

from corpus_nested_loops import PROGRAMS  # noqa: E402
from kernel_sources import kernel_sources  # noqa: E402
from tier_runs import same_in_tier_two  # noqa: E402

# forward and back substitution, Cholesky (three levels), a count of -1 at i = 0
# (range(1, i)), counts that reach 0 and stay there (range(i, 3)), a step of -1, an
# outer step of 2, a Python float accumulator (carried as np.float64)
TRIANGULAR = ("forward_sub_loops", "back_sub_loops", "cholesky_by_hand", "from_one_to_i",
              "shrinking_to_empty", "down_to_zero", "stepped_outer", "triangular_lower")
CASES = [p for p in PROGRAMS if p[0] in TRIANGULAR]


@pytest.mark.parametrize("name, fn, make_args, nested", CASES, ids=[p[0] for p in CASES])
def test_triangular_node_is_a_loop_over_an_expression(name, fn, make_args, nested):
    sources = kernel_sources(fn, *make_args())
    assert sources and all(isinstance(s, str) for s in sources), sources
    kernel = "".join(s.split("def kernel", 1)[1] for s in sources)
    # an inner loop whose count reads the outer loop's trip variable
    assert re.search(r"^ +for (trip\d+) in range\(\(.*\btrip\d+\b", kernel, re.M), kernel
    assert "prange" not in kernel
    # no call back into Python per trip (the float accumulator's np.float64(0.0) too)
    assert "objmode(" not in kernel, kernel
    same_in_tier_two(fn, *make_args())
