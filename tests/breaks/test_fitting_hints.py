"""Breaks whose hint used to send the user the wrong way, found on corpus 14 and the
stateful corpora 10-14 (issue #19, "every break has a hint that fits it";
scripts/break_hint_table.py lists them): ``lst.sort(key=...)`` (read as an attribute
"read before the compiled call"), ``heapq``/``bisect`` calls and ``math.*`` of array
elements (told to "compute it before calling the compiled function"), ``next()`` of a
generator kept in an attribute (said to raise TypeError), ``collections.Counter``
(told to "index lists, tuples, dicts"). And ``math.erf`` of a 0-d float per element
(Tauchen's normal CDF), kept in the graph: ``translator/math_of_arrays.py``.
"""

from __future__ import annotations

import collections
import heapq
import itertools
import math

import numpy as np

import dynamo

OUTSIDE = "before calling the compiled function"
X = np.array([3.0, 1.0, 2.0, 1.0])


def _breaks(fn, *args):
    """(the one distinct break's record, or None) after checking fn's result is eager's."""
    want = fn(*args)
    report = dynamo.explain(fn, backend="eager")(*args)
    assert repr(report.result) == repr(want)
    sites = {b.site: b for b in report.break_reasons}
    assert len(sites) <= 1, [b.reason for b in sites.values()]
    return next(iter(sites.values()), None)


def sort_by_key(x):
    cand = [(i, float(x[i])) for i in range(len(x))]
    cand.sort(key=lambda b: b[1])
    return [i for i, _ in cand]


def sort_constants(x):
    cand = [(2, 0.5), (0, 0.25), (1, 0.5), (3, 0.25)]
    cand.sort()
    rev = [3, 1, 2, 1]
    rev.sort(reverse=True)
    return x * cand[0][0] + rev[0]


def test_list_sort_with_a_key_says_how_to_keep_the_sort():
    b = _breaks(sort_by_key, X)
    assert b.reason.startswith("list.sort() with key=")
    assert "np.argsort(keys" in b.hint and "read the attribute" not in b.hint


def test_list_sort_of_constants_is_traced():
    assert _breaks(sort_constants, X) is None


def heap_of_events(x):
    heap = []
    for i in range(len(x)):
        heapq.heappush(heap, (float(i), i))
    return x * heapq.heappop(heap)[1]


def test_heapq_call_hint_fits():
    b = _breaks(heap_of_events, X)
    assert b.reason == "call to heapq.heappush() with these arguments"
    assert OUTSIDE not in b.hint and "dynamo.compile(step)" in b.hint


class Schedule:
    def __init__(self):
        self.lrs = (0.1 * 0.9 ** i for i in itertools.count())

    def update(self, w):
        return w * next(self.lrs)


def test_next_of_a_kept_generator_is_no_type_error():
    want, got = Schedule(), Schedule()
    report = dynamo.explain(got.update, backend="eager")(X)
    assert repr(report.result) == repr(want.update(X))
    (b,) = {b.site: b for b in report.break_reasons}.values()
    assert b.reason == "next() of a generator object (not traced)"
    assert "TypeError" not in b.reason + b.explanation and "self.t" in b.hint


def gamma_of_element(x):
    return math.gamma(x[0]) + x


def test_math_of_an_element_hint_fits():
    b = _breaks(gamma_of_element, X)
    assert b.reason == "math.gamma() of array data"
    assert OUTSIDE not in b.hint and "whole array" in b.hint


def count_words(c, words):
    for w in words:
        c[w] += 1
    return sorted(c.items())


def test_counter_hint_says_plain_dict():
    words = ["a", "b", "a"]
    want = count_words(collections.Counter(), words)
    report = dynamo.explain(count_words, backend="eager")(collections.Counter(), words)
    assert report.result == want
    (b,) = {b.site: b for b in report.break_reasons}.values()
    assert b.reason == "subscript of Counter object" and "d.get(k, 0) + 1" in b.hint


def normal_cdf_table(y, rho, sigma):
    """Tauchen's transition matrix: math.erf of a 0-d float per element."""
    n = len(y)
    step = y[1] - y[0]
    P = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            hi = (y[j] - rho * y[i] + step / 2) / sigma
            P[i, j] = 0.5 * (1 + math.erf(hi / math.sqrt(2))) - math.erfc(-hi)
    return P


def test_math_erf_per_element_stays_in_the_graph():
    y = np.linspace(-1.0, 1.0, 5)
    y[2] = np.nan      # (erf of NaN is NaN: a total function, no check)
    want = normal_cdf_table(y, 0.9, 0.1)
    report = dynamo.explain(normal_cdf_table, backend="eager")(y, 0.9, 0.1)
    assert report.graph_break_count == 0
    got = dynamo.compile(normal_cdf_table, backend="eager")(y, 0.9, 0.1)
    np.testing.assert_array_equal(got, want)      # bit for bit: libm's erf itself
