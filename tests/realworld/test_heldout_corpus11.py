"""The eleventh corpus, everyday NumPy whose sizes the data decides, written before any
was run (``heldout_corpus11.py``, issue #19): every program gives eager's results on the
eager and numpy backends (values, dtypes, printed output, the arguments afterwards,
warnings) on its seeded arguments and on the edge sets of ``EDGE_ARGS`` (empty and
all-true masks, one class: sizes of 0 and of everything, served by the same entry where
the shapes agree), and breaks exactly as often as recorded here (docs/realworld.md,
"An eleventh corpus").

Measured at f3f67f9 before this corpus's fixes: 30 of 50 without a break, 21 breaks on
3.11 (20 on 3.13). Fixed since: a shape made of ``int()`` of a graph array
(``int(labels.max()) + 1`` in ``np.zeros``/``np.eye``/``np.arange``: ``ops/computed_shapes.py``,
6 programs), ``np.diff`` of a data-dependent length (``clamped_slices``, 3) and
``np.repeat`` by an array of counts (``ops/shaping.py``, 2): 41 of 50, 10 breaks (3.11).
Then two data-dependent sizes equal in fact, checked when the graph runs
(``dynamo/equal_sizes.py``, 5 programs): 46 of 50, 5 breaks (3.11).
"""

from __future__ import annotations

from heldout_corpus11 import EDGE_ARGS, PROGRAMS
from rw_check import heldout_corpus_tests

# Each left for a reason a size cannot be proven (docs/realworld.md):
EXPECTED_BREAKS: dict[str, int] = {
    # (ends - starts of two np.flatnonzero results, edges[1::2] - edges[::2] and
    # np.zeros(n) / np.bincount(ids, minlength=n) no longer break: the sizes are checked
    # equal when the graph runs, dynamo/equal_sizes.py)
    # zip(starts, ends) is checked the same way; then int() of each row in the loop
    # node's body needs the value as a Python int
    "run_pairs": 1,
    # `... if np.any(labels == k) else ...` per class (before 3.12 the comprehension
    # is a function of its own, whose repeat of the break is not reported)
    "kmeans_step": 1,
    "lloyd_max_quantizer": 1,   # (the same condition, in a loop)
    "masked_fill_rows": 1,      # `... if mask.any() else 0.0`: a branch on the data
}


# each program on the eager and numpy backends, on its arguments and edge sets, and the
# corpus's breadth (the tests shared with the other held-out corpus of edge sets)
test_corpus_is_broad, test_heldout_program = heldout_corpus_tests(
    PROGRAMS, EXPECTED_BREAKS, EDGE_ARGS, at_least=40)
