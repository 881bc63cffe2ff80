"""Two sizes computed from array data are two sizes (``dynamo/ops/computed_shapes.py``,
``stand_ins``: one stand-in per expression, issue #17 round 36): ``np.zeros(int(a.sum()))``
and ``np.ones(int(a.max()) + 1)`` are equal for some data and not for other data, so a
later op or Python code that depends on the two lengths (their comparison, the length
of their concatenation, a loop over it) must see the values, not one made-up size.

The eager and numpy backends run each op on the real values, so a wrong size shows
only where the program reads it back: with one stand-in for every computed count,
``len(z1) == len(z2)`` came out True and a loop over a concatenation ran past its end.

    >>> def two_lengths_equal(a):
    ...     z1, z2 = np.zeros(int(a.sum())), np.ones(int(a.max()) + 1)
    ...     return z1.shape == z2.shape            # [3, 0, 0]: False (3 vs 4)
"""

import numpy as np
import pytest
from harness import check


def two_lengths_equal(a):
    z1 = np.zeros(int(a.sum()))
    z2 = np.ones(int(a.max()) + 1)
    return z1.shape == z2.shape, len(z1) - len(z2), z1.size


def concat_lengths(a):
    z = np.concatenate([np.zeros(int(a.sum())), np.ones(int(a.max()))])
    return z, z.shape


def loop_over_total(a):
    # (the loop's trip count is the concatenation's length: one size too few or many
    # and it stops early or indexes past the end)
    z = np.concatenate([np.zeros(int(a.sum())), np.ones(int(a.max()))])
    t = 0.0
    for k in range(len(z)):
        t += z[k] + k
    return t


# sums and maxima equal ([1, 2, 0]: 3 and 3) and apart ([3, 0, 0]: 3 and 4, 3 and 3)
COUNTS = [[1, 2, 0], [3, 0, 0], [2, 2], [1, 4, 2], [0, 0]]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("program", [two_lengths_equal, concat_lengths, loop_over_total])
def test_two_computed_sizes_stay_apart(program, backend):
    for counts in COUNTS:
        check(program, np.array(counts), backend=backend)
