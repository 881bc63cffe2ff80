"""A fresh list of Python numbers read item by item (issue #16,
``DynamicPolicy.items_changed``): once any item differs from an earlier entry's, every
item is a changing number, as a tuple's are (``note_tuple``). A REINFORCE-style
backward loop over a fresh list of rewards (``rewards[t] + gamma * running``) read
``rewards[0]`` first (it changed at the second call), then ``rewards[1]`` changed at
the third: two recompiles, one per item that changed first. Now one. Results equal
plain Python's, and an item that selects code still guards.
"""

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]
REWARDS = [0.0, 1.0, -0.5, 0.5, 1.0, 0.0, -1.0, 0.25, 1.0, 0.5]


def discounted(rewards, values, gamma=0.99):
    out = [0.0] * len(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        out[t] = running
    return np.array(out) - values


def _episodes(n, length=6):
    return [[REWARDS[(3 * i + j) % len(REWARDS)] for j in range(length)] for i in range(n)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_backward_returns_over_a_fresh_list_recompile_once(backend):
    calls = [(r, np.arange(6.0) * i) for i, r in enumerate(_episodes(12))]
    with dynamo.explain(discounted, backend=backend) as f:
        for args in calls:
            same(discounted(*args), f(*args))
    recompiles = [r for r in f.report.recompiles if r.call >= 1]
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


def test_ints_in_a_fresh_list_too():
    """Ints read item by item in a loop over a fresh list: one recompile (this one
    held before too, its items changing together; it keeps ints exact: no float
    arithmetic on them)."""
    def weighted(counts, x):
        total = 0
        for i in range(len(counts)):
            total = total + counts[i] * (i + 1)
        return x * total

    calls = [([i % 3, (i + 1) % 4, i % 5], np.arange(3.0)) for i in range(10)]
    with dynamo.explain(weighted, backend="eager") as f:
        for args in calls:
            same(weighted(*args), f(*args))
    recompiles = [r for r in f.report.recompiles if r.call >= 1]
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


def test_an_item_that_selects_code_still_guards():
    """``if flags[1] > 0``: a branch on a changed item keeps plain Python's results on
    each side (an entry per side, each recompile naming its reason)."""
    def pick(flags, x):
        return x * 2.0 if flags[1] > 0 else x - flags[0]

    calls = [([float(i), (-1.0) ** i], np.arange(3.0)) for i in range(8)]
    with dynamo.explain(pick, backend="eager") as f:
        for args in calls:
            same(pick(*args), f(*args))
    for r in f.report.recompiles:
        assert r.reasons, str(r)
