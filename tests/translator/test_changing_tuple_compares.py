"""A tuple of changing ints compared with a constant tuple (``self.pos == (1, 3)``, a
position kept between calls) compares item by item, each ``==`` a decision guarded
on its outcome, not a pin of every item: an entry per side of the comparison, not
one per position (``translator/compare.py``, ``_folds_compared``). Issue #16.
Checked against eager for ``==``, ``!=``, ``<`` and ``in`` a tuple of tuples; hashing
such a tuple (``pos in visited``, a set) still reads its value (equal to eager).
"""

import numpy as np
import pytest
from harness import same

import dynamo

XS = [np.random.default_rng(1700 + i).standard_normal(3) for i in range(10)]


class Walker:
    """Moves one column per call on a 4-wide torus; four ways of testing the position."""

    def __init__(self, test):
        self.pos, self.test, self.seen = (1, 0), test, set()

    def step(self, x):
        r, c = self.pos
        self.pos = (r, (c + 1) % 4)
        if self.test == "eq":
            hit = self.pos == (1, 3)
        elif self.test == "ne":
            hit = self.pos != (1, 2)
        elif self.test == "lt":
            hit = self.pos < (1, 2)
        elif self.test == "in":
            hit = self.pos in ((1, 1), (1, 3))
        else:                                  # hashed: the value is needed
            hit = self.pos in self.seen
            self.seen.add(self.pos)
        return x * (2.0 if hit else 1.0)


def _run(test, backend="eager"):
    want, got = Walker(test), Walker(test)
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for x in XS:
            same(want.step(x), f(x))
            assert (want.pos, want.seen) == (got.pos, got.seen)
    return f.report


@pytest.mark.parametrize("test,compiles", [("eq", 3), ("ne", 3), ("in", 3), ("lt", 4)])
def test_a_moving_position_compared_with_constants_keeps_an_entry_per_side(test, compiles):
    """The first call (constants), the position's first change, then one entry per
    outcome of the item comparisons: 3 compiles over 10 calls for ``==``, ``!=`` and
    ``in`` (4 before: an entry per position until the position repeats), 4 for ``<``
    (less, equal or greater at the item that decides)."""
    report = _run(test)
    assert report.compile_count <= compiles, [str(r) for r in report.recompiles]


def test_a_position_hashed_into_a_set_still_equals_eager():
    _run("set")
