"""Comparisons of data-dependent sizes in Python arithmetic, and sizes as divisors and
exponents (issue #19, ``dynamo/variables/size_values.py``, docs/unbacked.md).

``(n > 0) + 1``, ``True * (n > 1)``, ``count += len(seg) > 0``, ``sum(len(s) > 0 for
s in segs)``, ``-(n > 0)``, ``(n > 0) & (m > 0)``: Python computes a bool's arithmetic
as its int's, so the comparison becomes the int the graph computes from it, and the
result has eager's type (a Python int, a float with a float, a bool for ``&``; a NumPy
scalar beside a NumPy scalar). ``n // m`` and ``n % m`` by a size known to be at
least 1 are ints the graph computes, and so is ``n ** 3``. A division by a count that may be 0 (``1.0 /
n``, ``n // m``), ``2.0 ** n`` and ``2 ** n`` (n bits: no float holds it for some
counts) still break (Python raises at that line, or at a float use, for some counts,
inside the program's own ``try``), with a hint that names the line and the rewrite.

Every program runs at 0, 1, 2, 3 and 6 selected elements on the eager and numpy
backends, one compiled object, against eager: values, exceptions, warnings and the
Python types of the result.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome
from test_size_values import BACKENDS, XS

import dynamo


def plus_one(x):
    n = len(x[x > 0])
    return (n > 0) + 1, True * (n > 1), (n > 2) * 3.5, (n > 0) - True, -(n > 1), +(n > 2)


def counted_segments(x):
    count = 0
    for seg in (x[x > 0], x[x > 2], x[x > 5]):
        count += len(seg) > 0
    return count, sum(len(s) > 1 for s in (x[x > 0], x[x > 1]))


def logic_of_counts(x):
    n, m = len(x[x > 0]), len(x[x > 2])
    return (n > 0) & (m > 0), (n > 1) | False, (n > 2) ^ (m > 0)


def beside_numpy_scalars(x):
    n = len(x[x > 0])
    return (n > 0) + np.float32(1.5), np.int8(3) * (n > 1), (n > 0) + x.sum()


def overflowing_numpy_scalars(x):
    # NumPy's scalar path (two scalars of one type) checks overflow and says "scalar"
    # in its warnings; the comparison is a scalar of the other's dtype, as NEP 50 makes
    # eager's Python bool (a 0-d bool array took the ufunc's path: no overflow warning,
    # "divide by zero encountered in divide"; hostile round 26)
    n = len(x[x > 0])
    s = x.sum()
    return (n > 0) + np.int8(127), np.uint8(0) - (n > 1), (n > 0) / (s - s), \
        np.int8(-128) - (n > 2)


def quotients_of_counts(x):
    n, m = len(x[x > 0]), len(x[x > 2])
    return n // max(m, 1), n % (m + 1), 7 // (n + 2), (n > 1) // 1, 1.0 / ((n > 0) + 1)


def powers_of_counts(x):
    n = len(x[x > 0])
    return n ** 3, (n > 1) ** 2, (n > 0) ** 0, x ** n, x ** (n > 1)


PROGRAMS = [(f.__name__, f) for f in (plus_one, counted_segments, logic_of_counts,
                                       beside_numpy_scalars, overflowing_numpy_scalars,
                                       quotients_of_counts,
                                       powers_of_counts)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_one_graph_with_eagers_values_and_types(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(XS[3])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    compiled = dynamo.compile(fn, backend=backend)
    for i, x in enumerate(XS):
        want, got = outcome(fn, [x.copy()]), outcome(compiled, [x.copy()])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


def divide_by_count(x):
    n = len(x[x > 0])
    try:
        return 1.0 / n
    except ZeroDivisionError:
        return -1.0


def quotient_of_counts(x):
    n, m = len(x[x > 0]), len(x[x > 2])
    return n // m


def float_to_a_count(x):
    return 2.0 ** len(x[x > 0])


def int_to_a_count(x):
    n = len(x[x > 0])
    try:
        return 2 ** n * 0.5          # OverflowError past 1024 selected elements
    except OverflowError:
        return -1.0


@pytest.mark.parametrize("fn,line,words", [
    (divide_by_count, "return 1.0 / n", "divide by max(count, 1)"),
    (quotient_of_counts, "return n // m", "divide by max(count, 1)"),
    (float_to_a_count, "return 2.0 ** len(x[x > 0])", "np.power(base, n)"),
    (int_to_a_count, "return 2 ** n * 0.5", "np.power(base, n)")],
    ids=["divide", "floor_divide", "float_power", "int_power"])
def test_what_may_raise_breaks_with_a_hint_naming_the_line(fn, line, words):
    report = dynamo.explain(fn, backend="eager")(XS[3])
    assert report.graph_break_count == 1
    brk = report.break_reasons[0]
    assert line in (brk.hint or "") and words in (brk.hint or ""), brk.hint
    assert "u0" not in (brk.hint or "") + brk.reason
    compiled = dynamo.compile(fn, backend="eager")
    for x in XS:    # (0 selected: ZeroDivisionError, inside the program's try or not)
        same_outcome(outcome(fn, [x]), outcome(compiled, [x]), fn.__name__)
