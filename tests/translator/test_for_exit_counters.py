"""A counter stepped after a ``for`` loop's exit test on data counts the last trip
where the range runs out (dynamo/translator/while_scope.py ``finish``, issue #17).

::

    k = 0
    for _ in range(n):
        if x.sum() > 100:      # the exit test (array data): a while_loop node
            break
        x = x + 1
        k += 1                 # B: runs once more after the node, where the range ran out
    return x, k                # k was n - 1 there (the extra run of B was not counted)

The node runs ``B`` then the next trip's test; where the range runs out, the trace
runs ``B`` once more as a one-trip node (``loop_exits``' tail), and a counter ``B``
steps must count that trip as a ``while it < maxit`` counter does. Found by the
twelfth corpus's label propagation (``rounds += 1`` after ``if np.array_equal(...):
break``): 19 where Python gives 20.

Each program is compared with Python (value, type, the arguments after the call, twice)
on both CPU backends, with the exit on the first trip, a later one, never (the range
runs out), and with one trip and none; no break where the loop is a node on every
Python (3.12+ copy a ``return`` after the loop to the break, which is no node there).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check

BACKENDS = ("eager", "numpy")


def count_after_test(x, n):
    k = 0
    for _ in range(n):
        if x.sum() > 100:
            break
        x = x + 1
        k += 1
    return x, k


def two_counters_and_index(x, n):
    k, m = 0, 10
    i = -1
    for i in range(n):
        if (x > 50).all():
            break
        x = x * 2.0
        k += 2
        m -= 3
    return x, k, m, i


def counter_with_in_place_write(x, n):
    steps = 0
    for _ in range(n):
        if np.abs(x).max() < 1e-3:
            break
        x *= 0.5
        steps += 1
    return steps


CASES = [
    (count_after_test, (np.zeros(2), 3)),          # runs out
    (count_after_test, (np.full(2, 60.0), 5)),     # exits on the first test
    (count_after_test, (np.full(2, 48.5), 5)),     # exits after two trips
    (count_after_test, (np.zeros(2), 1)),          # one trip, runs out
    (count_after_test, (np.zeros(2), 0)),          # no trip
    (two_counters_and_index, (np.ones(3), 4)),     # runs out
    (two_counters_and_index, (np.ones(3), 9)),     # exits
    (counter_with_in_place_write, (np.ones(4), 5)),
    (counter_with_in_place_write, (np.ones(4), 40)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", CASES, ids=[f"{c[0].__name__}-{i}" for i, c in
                                                 enumerate(CASES)])
def test_counter_after_the_exit_test(fn, args, backend):
    # (3.12+ copy ``return x, k`` to the break: that shape breaks there, correctly)
    check(fn, *args, backend=backend,
          breaks=0 if fn is two_counters_and_index else None)
