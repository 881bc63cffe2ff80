"""The thirteenth corpus, everyday NumPy of kinds the earlier corpora lack, written
before any was run (``heldout_corpus13.py``, issue #19): every program gives eager's
results on the numpy backend (values, types, dtypes, printed output, the
arguments afterwards, warnings) on its seeded arguments (those whose values decide a
way, a size or a text also on the first set of ``EDGE_ARGS``: the same shapes, values
redrawn), and breaks exactly as often as
recorded here (docs/realworld.md, "A thirteenth corpus").

Measured before this corpus's fixes (3.11): 53 of 64 without a break, 16 breaks. Fixed
since: an ``if`` choosing a NumPy scalar or a Python number (``tp / d if d > 0 else
0.0``: ``BranchChoiceVariable``), ``str(v)`` / ``format(v, spec)`` of traced values
made by the glue, as f-strings are, and ``names[i]`` of a list of texts at an index the
graph computes (``translator/picked_items.py``). Since corpus 14: a counter kept per
element (``count_large_int``: ``if int(v) > limit: total += 1``) is one graph
(``translator/number_selects.py``).
"""

from __future__ import annotations

from heldout_corpus13 import EDGE_ARGS, PROGRAMS
from rw_check import heldout_corpus_tests

# Each left for a reason (docs/realworld.md, "A thirteenth corpus"):
EXPECTED_BREAKS: dict[str, int] = {
    # `[f(v) for v in xs if v > 0]`: a condition on the data per element
    # (3.11: once, the comprehension frame's repeat is not reported, issue #19)
    "positives_squared": 1,
    "nonzero_columns": 1,
    "bucket_counts_int": 1,        # `counts[int(v) % n] += 1`: a list index from the data
    "early_stop_index": 1,         # a loop that returns at a data-dependent step
}


# the programs whose values decide a way, a size or a text, called again on a redrawn set
_REDRAWN = ("precision_recall", "safe_divide_ratio", "f1_from_counts", "top_k_report",
            "argmax_per_row_labels", "round_and_format", "nan_row_filter",
            "fill_nan_column_means", "zscore_outliers", "interpolate_gaps", "weighted_stats",
            "most_common_label", "confusion_matrix", "format_row_summary")

# each program on the numpy backend, on its arguments (and those on one redrawn set; CI
# time: the eager backend and every set are the break count's, docs/realworld.md)
test_corpus_is_broad, test_heldout_program = heldout_corpus_tests(
    PROGRAMS, EXPECTED_BREAKS, {name: EDGE_ARGS[name][:1] for name in _REDRAWN},
    at_least=60, backends=("numpy",))
