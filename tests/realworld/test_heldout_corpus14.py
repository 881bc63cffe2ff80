"""The fourteenth corpus, everyday NumPy as public repositories write it, written before
any was run (``heldout_corpus14.py``, issue #19): every program gives eager's results on
the numpy backend (values, types, dtypes, printed output, the arguments afterwards,
warnings) on its seeded arguments (those whose values decide a way, a size, a text or
a count also on the first set of ``EDGE_ARGS``: the same shapes, values redrawn), and
breaks exactly as often as recorded here (docs/realworld.md, "A fourteenth corpus").

Measured before this corpus's fix (3.11): 42 of 56 without a break, 17 breaks (3.13:
42 of 56, 14). Fixed since: a Python number an ``if`` on array data chooses, a counter
kept per element (``if float(v) > limit: total += 1``, ``for a, b in zip(y, p): if a ==
b: correct += 1``: ``translator/number_selects.py``).
"""

from __future__ import annotations

from heldout_corpus14 import EDGE_ARGS, PROGRAMS
from rw_check import heldout_corpus_tests

# Each left for a reason (docs/realworld.md, "A fourteenth corpus"):
EXPECTED_BREAKS: dict[str, int] = {
    # a condition on the data per element: the list's (dict's) length is data (3.11:
    # once, the comprehension frame's repeat is not reported, issue #19)
    "positive_values": 1,
    "large_groups": 1,
    "count_rows_with_positive_max": 1,    # `sum(1 for r in rows if r.max() > 0)`
    "top_k_accuracy": 1,   # `labels[i] in topk[i]` per row
    # (a way that writes into an array of the graph, `if np.isnan(x[i]): x[i] = x[i -
    # 1]`, is a select since translator/select_writes.py: forward_fill,
    # log_transform_skewed)
    # `if precision + recall == 0:` of two scalar-or-float choices
    "f1_score_binary": 1,
    # a `return` inside a loop, at a step the data decides: an index-reading search
    # (`converge_mean`'s `if abs(new - m) < tol: return new` is a while_loop node since
    # translator/loop_returns.py)
    "first_above": 1,
    "histogram_to_text": 1,       # `"#" * int(width * c / top)`: a text of data length
    "bucket_by_value": 1,         # `buckets[int(v) % n] += 1`: a list index from the data
    # (distance_to_centroid's `math.sqrt(float(d.var()))` is one graph since
    # translator/math_of_arrays.py, task t6)
}

# the programs whose values decide a way, a size, a text or a count, called again on a
# redrawn set
_REDRAWN = ("drop_duplicate_rows", "forward_fill", "positive_values", "mape",
            "f1_score_binary", "count_correct_loop", "top_k_accuracy", "clamp_per_element",
            "first_above", "large_groups", "count_rows_with_positive_max",
            "mean_of_ratio", "log_transform_skewed", "bucket_by_value", "histogram_to_text",
            "count_missing_per_column", "run_length_encode")

# each program on the numpy backend, on its arguments (and those on one redrawn set; CI
# time: the eager backend and every set are the break count's, docs/realworld.md)
test_corpus_is_broad, test_heldout_program = heldout_corpus_tests(
    PROGRAMS, EXPECTED_BREAKS, {name: EDGE_ARGS[name][:1] for name in _REDRAWN},
    at_least=50, backends=("numpy",))
