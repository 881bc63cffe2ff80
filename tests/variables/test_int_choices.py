"""``min(n, k)`` / ``max(0, n - w)`` of a changing int used as an index or stored as an
attribute: a changing int the call computes with Python's builtin
(``variables/int_choices.py``), so one entry serves both sides of ``k`` where a
decision on which argument wins made two (issue #16). Checked against plain Python
over many calls: values, dtypes, Python's and NumPy's errors (an index out of bounds),
the state left; the recompiles after the first call counted by ``dynamo.explain``.
"""

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

X = np.arange(20.0).reshape(10, 2)


def clamped_row(x, n):
    return x[min(n, 7)] * 2.0


def trailing_row(x, n):
    return x[max(0, n - 4)] + 1.0


def window_slice(x, n):     # two bounds of one int: still decided (no regression)
    return x[max(0, n - 4):n].sum(axis=0)


class Filler:
    """A buffer's fill count stored back clamped, then used as an index."""

    def __init__(self):
        self.size, self.buf = 0, np.zeros((6, 2))

    def add(self, v):
        self.size = min(self.size + 1, 6)
        self.buf[self.size - 1] = v
        return self.buf[: 6].sum()


def _recompiles(fn, calls, backend):
    dynamo.reset()
    with dynamo.explain(fn, backend=backend) as f:
        for i, args in enumerate(calls):
            same_outcome(outcome(fn, args), outcome(f, args), f"call {i}", rtol=0.0)
    return [r for r in f.report.recompiles if r.call >= 1]


NS = [1, 2, 3, 5, 7, 8, 9, 12, 40, 6, -3, -11]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [clamped_row, trailing_row], ids=lambda f: f.__name__)
def test_a_clamped_index_keeps_one_entry(fn, backend):
    """Both sides of the clamp, and indices out of bounds (NumPy's IndexError, from
    the same entry)."""
    recompiles = _recompiles(fn, [(X, n) for n in NS], backend)
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_window_slice_is_still_two_entries(backend):
    recompiles = _recompiles(window_slice, [(X, n) for n in NS[:7]], backend)
    assert len(recompiles) <= 2, "\n".join(map(str, recompiles))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_clamped_count_stored_back(backend):
    """No regression (it kept one entry before ``int_choices`` too): the clamped
    count is stored, then an index."""
    want, got = Filler(), Filler()
    dynamo.reset()
    with dynamo.explain(got.add, backend=backend) as f:
        for i in range(12):
            v = np.array([i, -i], dtype=float)
            same_outcome(outcome(want.add, (v,)), outcome(f, (v,)), f"call {i}", rtol=0.0)
            assert got.size == want.size and type(got.size) is int
            np.testing.assert_array_equal(got.buf, want.buf)
    recompiles = [r for r in f.report.recompiles if r.call >= 1]
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))
