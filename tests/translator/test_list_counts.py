"""A histogram by hand into a Python list (``counts[int(v) % n] += 1``) breaks at the
``int()`` of array data; the break's hint names the graph's way to count
(``np.bincount``, ``np.add.at``: ``dynamo/translator/list_counts.py``). Another
``int()`` of array data keeps the table's hint only. Results are eager's."""

import numpy as np

import dynamo
from dynamo.translator.list_counts import HINT


def histogram(x, n):
    counts = [0] * n
    for i in range(len(x)):
        counts[int(x[i]) % n] += 1
    return counts


def other_int(x, n):
    out = [0] * n
    k = int(x[0]) % n           # (no ``+=`` into the list on this line)
    out[k] = 1
    return out


_X = np.abs(np.random.default_rng(0).standard_normal(20)) * 10


def test_a_histogram_into_a_list_has_the_bincount_hint():
    report = dynamo.explain(histogram)(_X, 4)
    assert report.graph_break_count == 1, report
    hint = report.break_reasons[0].hint
    assert HINT in hint and "np.bincount" in hint and "np.add.at" in hint, hint
    assert dynamo.compile(histogram)(_X, 4) == histogram(_X, 4)


def test_another_int_of_data_has_no_such_hint():
    report = dynamo.explain(other_int)(_X, 4)
    assert report.graph_break_count >= 1 and \
        all(HINT not in b.hint for b in report.break_reasons), report
    assert dynamo.compile(other_int)(_X, 4) == other_int(_X, 4)
