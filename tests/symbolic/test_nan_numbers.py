"""A NaN argument never becomes a changing number: its identity is what ``k in items``
and ``items.index(k)`` look at (NaN != NaN), and a changing number has none.

Found by the hostile suite (round 9, ``float_in_list_identity``) once resume functions
of one frame shared their changing numbers (``sibling_numbers``): ``k`` came into the
resume function after ``items.index(k)`` as a changing float, and ``k in items`` folded
to False where Python finds the very object ``items[0]``.
"""
import numpy as np
import pytest

import dynamo

NAN = float("nan")


def index_then_contains(x, items, k):
    return x * items.index(k), k in items


def count_nans(x, items, k):
    return x + items.count(k), [v is k for v in items]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [index_then_contains, count_nans], ids=lambda f: f.__name__)
def test_a_nan_found_by_identity_after_other_values(fn, backend):
    dynamo.reset()
    f = dynamo.compile(fn, backend=backend)
    x = np.array([1.5, -2.0, 0.0, 4.0])
    calls = [([NAN, 1.5], 1.5), ([NAN, float("nan")], NAN), ([2.5, NAN], NAN),
             ([NAN, float("nan")], NAN), ([1.0, 2.0], 2.0)]
    for items, k in calls:
        got, want = f(x.copy(), items, k), fn(x.copy(), items, k)
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1] == want[1], (items, k)
