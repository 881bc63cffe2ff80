"""Tier 2 on stepped triangular inner loops (translator/triangular_loops.py
``stepped_count``): the outer body's ``sym_int`` (the quotient ``(start - stop) //
step`` of its trip) is an int64 variable of the kernel, and the inner node runs
``for trip in range((-q))`` (backends/native/loops.py ``sym_int``); before, such a
graph stayed in tier 1 ("op 'sym_int' is not lowered"). Each program runs eagerly and
with tier 2 forced, bit for bit (tier_runs.py), with no call back into Python.

One program, one Numba compile (about 2-4 s of CPU on a loaded 2-core machine): a step
of -2 (a negative divisor; tests/translator/test_stepped_loop_nodes.py has the others).
Counts whose ints leave int64 (a step of 2**63, a start of ``i * 2**61``) stay in tier
1, where they are Python ints (``loops._fits_int64``; hostile round 39: tier 2 ran other
trip counts).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("numba")

from corpus_stepped_loops import PROGRAMS  # noqa: E402
from kernel_sources import kernel_sources  # noqa: E402
from tier_runs import same_in_tier_two, tier_two_results  # noqa: E402

CASES = [p for p in PROGRAMS if p[0] == "backward_by_two"]


@pytest.mark.parametrize("name, fn, make_args", CASES, ids=[p[0] for p in CASES])
def test_stepped_node_is_a_loop_over_a_quotient(name, fn, make_args):
    args = make_args(21, np.float64)
    sources = kernel_sources(fn, *args)
    assert sources and all(isinstance(s, str) for s in sources), sources
    kernel = "".join(s.split("def kernel", 1)[1] for s in sources)
    quotient = re.search(r"^ +(q\d+) = .*\btrip\d+\b.*//", kernel, re.M)
    assert quotient, kernel
    assert re.search(rf"^ +for trip\d+ in range\(\(-{quotient[1]}\)\):", kernel, re.M), kernel
    assert "objmode(" not in kernel, kernel
    same_in_tier_two(fn, *args)


def past_int64_step(x, y):
    # range(i, n, 2**63): one trip each; the quotient's divisor is no int64 (hostile
    # round 39: tier 2's kernel typed it otherwise and ran no trip past the first row)
    n = x.shape[0]
    for i in range(n):
        for j in range(i, n, 2**63):
            y[i] = y[i] + x[j]
    return y


def wide_start_count(y):
    # range(i * 2**61, -1, -2**62): i // 2 + 1 trips; 8 * 2**61 wraps in int64 (tier 2
    # ran 1 trip for 5 at i = 8: the quotient of a wrapped start)
    n = y.shape[0]
    for i in range(n):
        for j in range(i * 2**61, -1, -2**62):
            y[i] = y[i] + 1.0
    return y


@pytest.mark.parametrize("fn, args", [(past_int64_step, (np.arange(1.0, 12.0), np.zeros(11))),
                                      (wide_start_count, (np.zeros(11),))],
                         ids=["step_past_int64", "start_past_int64"])
def test_counts_past_int64_stay_python_ints(fn, args):
    want, got, _ = tier_two_results(fn, *args)
    np.testing.assert_array_equal(got[0], want[0], strict=True)
