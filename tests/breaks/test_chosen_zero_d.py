"""``max(z, 1.0)`` / ``min(2.5, z)`` of a 0-d array ``z`` from the graph and a Python
number (issue #19): Python returns one of the two objects itself, ``z`` or the float, as
the data decides (NaN: ``max(nan, 1.0)`` is the NaN, ``max(1.0, nan)`` is 1.0). Returned
or stored, the choice is made after the graph on the graph's ``z``
(``ChosenNumberVariable``): one graph, no break, eager's values, types and dtypes, and
the very object ``z`` where it is chosen. Any other use of the result (``is``, ``+=``,
arithmetic) still needs the choice while tracing and breaks, with eager's results.
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from harness import check

import dynamo

BACKENDS = ("eager", "numpy")
INPUTS = (np.arange(1, 5.0), np.arange(-3, 1, dtype=np.float32), np.arange(1, 5),
          np.array([np.nan, 1.0, 2.0, 3.0]), np.zeros(3))


def zero_d(u):
    return u.sum(keepdims=True).reshape(())


def returned(u):
    z = zero_d(u)
    return max(z, 1.0), min(2.5, z), max(z, 100), min(z, 0), max(-1, z)


def stored(u):
    z = zero_d(u)
    return {"hi": max(z, 1.0), "lo": min(1.0, z)}


def scalars_and_nan(u):
    s = u.sum()                                  # a NumPy scalar: as before
    return max(s, np.nan), max(np.nan, s), min(s, 2.0), max(2.0, s)


def identity_read(u):
    z = zero_d(u)
    m = max(z, 1.0)
    return m is z, m


def written_in_place(u):
    z = zero_d(u)
    m = max(z, -1.0)
    m += 1                  # writes z itself where z was chosen
    return z, m


def arithmetic(u):
    z = zero_d(u)
    return u * max(z, 1.0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [returned, stored, scalars_and_nan])
@pytest.mark.parametrize("u", INPUTS, ids=lambda u: f"{u.dtype}-{u[0]}")
def test_choice_of_a_zero_d_array_and_a_number_is_captured(fn, u, backend):
    check(fn, u, graphs=1, breaks=0, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("u", INPUTS[:2], ids=lambda u: str(u.dtype))
def test_the_chosen_object_is_the_zero_d_array_itself(u, backend):
    def f(u):
        z = zero_d(u)
        return z, max(z, -1.0), min(z, 100.0)

    z, hi, lo = dynamo.compile(f, backend=backend)(u)
    want = f(u)
    assert [type(v) for v in (z, hi, lo)] == [type(v) for v in want]
    assert (hi is z) == (want[1] is want[0]) and (lo is z) == (want[2] is want[0])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [identity_read, written_in_place, arithmetic])
def test_other_uses_still_break_with_eager_results(fn, backend):
    for u in INPUTS:
        check(fn, u, backend=backend)
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(fn, backend=backend)(INPUTS[0].copy())
    assert report.graph_break_count == 1
    assert "an array (not a NumPy scalar)" in str(report.break_reasons[0].reason)


def chosen_then_written(u):
    z = u[..., 0]                # a 0-d view of u
    m = max(z, 0.5)              # Python chooses by z's value now
    u[0] = 100.0                 # ... which this write then changes
    return m, z


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_choice_is_made_at_the_call_not_after_a_later_write(backend):
    # (issue #17, round 23: the glue compared z after the graph, by its new value)
    for first in (0.25, 0.75, np.nan):
        u = np.array([first, 2.0])
        want = chosen_then_written(u.copy())
        got = dynamo.compile(chosen_then_written, backend=backend)(u.copy())
        assert type(got[0]) is type(want[0]) and repr(got) == repr(want)
