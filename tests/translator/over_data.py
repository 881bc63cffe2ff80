"""A program over data drawn by hypothesis, eager against compiled: the property the
loops-over-data rounds of issue #19 share (test_data_trip_nodes.py,
test_search_loops.py).

``make_args(rng, n, k)`` draws ``n`` samples of ``k`` classes; the examples always run
no sample (no trip), one sample (one trip), one class, and six classes. One compiled
function is called with every draw in turn: results, dtypes, exceptions and their
messages, arguments after the call, printed output and warnings are Python's
(``harness.same_outcome``).

Example::

    >>> compiled = dynamo.compile(best_split, backend="numpy")
    >>> same_over_data("best_split", best_split, compiled, make_args, max_examples=6)
"""

from __future__ import annotations

import copy

import numpy as np
from harness import outcome, same_outcome
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st


def same_over_data(name, fn, compiled, make_args, max_examples: int) -> None:
    """``compiled`` and ``fn`` give the same outcome on each draw (see the module)."""

    @settings(max_examples=max_examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(n=st.integers(0, 30), k=st.integers(1, 6), seed=st.integers(0, 2 ** 16))
    @example(n=0, k=3, seed=0)     # no sample: no trip (and no class after the loop)
    @example(n=1, k=3, seed=1)     # one sample: one trip
    @example(n=25, k=1, seed=2)    # one class; searches found early or never
    @example(n=30, k=6, seed=3)
    def check(n, k, seed):
        args = make_args(np.random.default_rng(seed), n, k)
        want = outcome(fn, copy.deepcopy(args))
        got = outcome(compiled, copy.deepcopy(args))
        same_outcome(want, got, f"{name} n={n} k={k} seed={seed}")

    check()
