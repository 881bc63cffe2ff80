"""Members of a block-wise group whose values are the same in every block run once,
before the blocks (``plan.block_invariant``, ``groups._emit_block``).

Min-max rescaling of columns, ``(x - lo) / np.where(span > 0, span, 1.0)`` with
``span = hi - lo`` a row of column statistics, ran ``hi - lo``, ``span > 0`` and
``np.where`` again in each of its 98 blocks (corpus 5, (50000, 32) float64: about 300
NumPy calls of 32 elements a call). Eager runs them once; now so does the group.
"""

import numpy as np
from harness import rand
from test_numpy_backend import BLOCKED, blockwise
from test_numpy_backend_inplace import differential

# (the blocks of BLOCKED hold a few hundred bytes: many blocks, two threads)
X = rand(61, 19, dtype=np.float64, seed=11)
W = rand(19, dtype=np.float64, seed=12)


def minmax_columns(x):
    lo, hi = x.min(axis=0), x.max(axis=0)
    span = hi - lo
    return (x - lo) / np.where(span > 0, span, 1.0)


def scaled_rows(x, w, k):
    # an invariant chain over an argument row and a Python float, one invariant
    # member read by another, and an invariant output (written once by a block)
    s = np.sqrt(w * w + k)
    return x * s - 1.0, s * 2.0


def _sources(fn, *args):
    (plan,) = blockwise(fn, *args)
    return [n.name for n in plan.hoisted]


def test_column_statistics_run_once_before_the_blocks():
    assert _sources(minmax_columns, X) == ["subtract", "greater", "where"]
    constant = X.copy()
    constant[:, 3] = 0.5                  # a constant column: span 0, divided by 1.0
    for x in (X, constant):
        differential(minmax_columns, x, options=BLOCKED, layouts=("C", "F", "strided"))


def test_invariant_chains_and_outputs():
    # s * 2.0 is an output: the block writes it (once), so it is not hoisted
    assert _sources(scaled_rows, X, W, 0.5) == ["multiply", "add", "sqrt"]
    differential(scaled_rows, X, W, 0.5, options=BLOCKED, layouts=("C", "F"))
    differential(scaled_rows, X, W, 0.5, options={**BLOCKED, "threads": 1})


def test_invariant_members_warn_as_eager_does():
    # log(0) and a negative square root in the row: eager's warnings, once each
    w = W.copy()
    w[2], w[5] = 0.0, -1.0
    differential(lambda x, w: x * np.log(w) + np.sqrt(w), X, w, options=BLOCKED)
