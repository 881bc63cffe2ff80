"""A size that grows on every call compiles a few static variants, not one a call.

The numpy backend runs a symbolic graph through one static variant per input sizes
(``sizes.PerSize``), each compiled on its size's first call (milliseconds). A list
appended to and concatenated on every call (issue #15's ``rank_tracker_growing_pool``,
stateful corpus 11) has a new size on every call: it compiled ``GENERIC_AFTER`` (4)
variants, one a call, before size-generic code, so calls 2-5 each paid a compile
(the corpus's median call 790 us against 7.5 us plain). Now after ``UNREUSED_AFTER``
(2) variants in a row that no call ran again, new sizes run the size-generic code,
and that switch is logged and counted with the variants (``explain``'s
``size_generic``). Sizes that recur (a last partial batch) still get their variants::

    for x in xs:            # x.shape[0] = 1, 2, 3, ..., 10
        f(x)                # 2 static variants (sizes 2, 3), then generic code
"""

import numpy as np
import pytest
from dynamo.backends.numpy_backend import sizes
from harness import same

import dynamo


class RankTracker:
    def __init__(self):
        self.scores = []

    def rank(self, s):
        self.scores.append(s)
        pool = np.sort(np.concatenate(self.scores))
        return np.searchsorted(pool, s) / pool.shape[0]


XS = [np.random.default_rng(i).standard_normal(6) for i in range(10)]


def test_a_growing_list_compiles_two_variants_then_generic_code():
    ex = dynamo.explain(RankTracker().rank, backend="numpy").calls([(x,) for x in XS])
    plain = RankTracker()
    expected = [plain.rank(x) for x in XS]
    got = RankTracker()
    f = dynamo.compile(got.rank, backend="numpy")
    for x, want in zip(XS, expected):
        out = f(x)
        same(out, want)
        assert out.dtype == want.dtype and out.shape == want.shape
    assert len(got.scores) == len(plain.scores) == 10
    # pools of 6 (the static trace), 12 (the symbolic trace, and its variant), 18 (a
    # variant), then one size-generic function for 24 ... 60 (before: 4 variants,
    # 12 ... 30, one compile a call)
    assert len(ex.size_variants) == 2 == sizes.UNREUSED_AFTER, ex.size_variants
    assert len(ex.size_generic) == 1, ex.size_generic
    assert "a growing size" in ex.size_generic[0]
    assert len(ex.recompiles) == 1       # the frame: traced twice only


@pytest.mark.parametrize("order", ["batches", "alternating"])
def test_sizes_that_recur_keep_their_static_variants(order):
    """A function traced for batches of 64 rows whose last batch has 17, epoch after
    epoch: 17's variant, then 64's (the symbolic entry comes first, so 64 misses it
    once), both run again: no size-generic code."""
    def f(x):
        return x * 2.0 + x.sum(axis=0)

    rng = np.random.default_rng(3)
    if order == "batches":
        rows = ([64] * 3 + [17]) * 3
    else:
        rows = [64, 17, 64, 17, 40, 64, 40, 17]
    calls = [(rng.standard_normal((n, 4)),) for n in rows]
    ex = dynamo.explain(f, backend="numpy").calls(calls)
    fast = dynamo.compile(f, backend="numpy")
    for (x,) in calls:
        same(fast(x), f(x))
    assert ex.size_generic == [], ex.size_generic
    assert len(ex.size_variants) == len(set(rows)), ex.size_variants
