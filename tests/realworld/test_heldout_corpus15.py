"""The fifteenth corpus, scientific kernels as public repositories and textbooks write
them, written before any was run (``heldout_corpus15.py`` and
``heldout_corpus15_signal.py``, issue #19): every program gives eager's results on the
numpy backend (values, types, dtypes, printed output, the arguments afterwards,
warnings) on its seeded arguments (those whose values decide a way, a count or a size
also on the first set of ``EDGE_ARGS``: the same shapes, values redrawn), and breaks
exactly as often as recorded here (docs/realworld.md, "A fifteenth corpus").

Measured on first run (3.11 and 3.13): 45 of 54 without a break, 9 breaks, every one
with a hint. Fixed since: an ``elif`` on array data at the end of a loop body whose ways
write into arrays of the graph (``envelope_clip``, ``particles_in_box``:
``translator/select_writes.py``, ``branch_selects._trip_end``): 47 of 54, 7 breaks.
"""

from __future__ import annotations

import heldout_corpus15 as stepping
import heldout_corpus15_signal as signal
import pytest
from rw_check import check_program, heldout_corpus_tests

# (a root finder on Python floats only: no array op, so no graph, and no break)
PYTHON_ONLY = ("adaptive_euler", "newton_sqrt", "bisect_cubic")
PROGRAMS = [p for p in stepping.PROGRAMS + signal.PROGRAMS if p[0] not in PYTHON_ONLY]
EDGE_ARGS = {**stepping.EDGE_ARGS, **signal.EDGE_ARGS}

# Each left for a reason (docs/realworld.md, "A fifteenth corpus"):
EXPECTED_BREAKS: dict[str, int] = {
    # `if lo <= v < hi:` (a chained comparison: two jumps) around `counts[int((v - lo) /
    # width)] += 1` (a write at an index the data decides: no select's write)
    "histogram_by_hand": 1,
    # an `and` of two tests on array data, then `peaks.append(i)` (a list of data length)
    "peak_indices": 1,
    # `dE <= 0 or rng.random() < ...`: a random draw inside the test
    "ising_metropolis": 1,
    "rejection_sample": 1,         # `rng.uniform(-1, 1)` without size=: a Python float
    # `int()` of a float array in arithmetic (`% n`), as an index of an array, a list
    "cell_list_counts": 1,
    "digit_histogram": 1,
    "partial_pivot_rows": 1,       # `if p != k:` of p = k + int(np.argmax(...))
}

# the programs whose values decide a way, a count or a size, called again on a redrawn
# set (CI time: the eager backend and the second set are the break count's)
test_corpus_is_broad, test_heldout_program = heldout_corpus_tests(
    PROGRAMS, EXPECTED_BREAKS, {name: sets[:1] for name, sets in EDGE_ARGS.items()},
    at_least=50, backends=("numpy",))


@pytest.mark.parametrize("name,fn,args", [p for p in stepping.PROGRAMS
                                          if p[0] in PYTHON_ONLY], ids=PYTHON_ONLY)
def test_python_only_program(name, fn, args):
    check_program(fn, [args], backends=("numpy",), breaks=0, graphs=0)
