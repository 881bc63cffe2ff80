"""A changing int used as a slice bound (``obs_buf[:size]``) is a size from 1 up, not
pinned at 1 (``sizes.as_size(least=1)``, ``ShapeEnv._slice_bounds_only``): a slice
does not broadcast its bound, and an op that would broadcast (or squeeze) the
result's size at 1 is caught by the fit at other sizes, which pins it there. Issue
#16: a counter from 0 that bounds a slice compiles twice, not three times.

Checked against eager: results, NumPy's own errors (a broadcast that fails at other
sizes), a size of 1 broadcast against another array, ``np.squeeze`` of the slice,
the layout flags of a transposed slice of one row, and other uses of the int as a
size (``np.zeros(n)``), which still pin it at 1.
"""

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo

BUF = np.arange(48.0).reshape(12, 4)


def window_mean(buf, n):
    """The first ``n`` rows, as a replay buffer reads what it holds."""
    head = buf[:n]
    return head.mean(axis=0), head.shape, len(head)


def tail_window(buf, n):
    """``n + 1`` as a stop after a start of 1, and ``n`` as a value too."""
    return buf[1:n + 1].sum(axis=0) * n


@pytest.mark.parametrize("fn", [window_mean, tail_window])
@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_count_from_zero_compiles_twice(fn, backend):
    """n = 0, 1, ..., 11: the first entry (at 0), then one from 1 up."""
    dynamo.reset()
    with dynamo.explain(fn, backend=backend) as f:
        for n in range(12):
            same_outcome(outcome(fn, (BUF, n)), outcome(f, (BUF, n)), f"n={n}")
    assert f.report.compile_count == 2, [str(r) for r in f.report.recompiles]


class Window:
    """A counter kept on the object and written back by the trace."""

    def __init__(self):
        self.buf, self.size = np.zeros((8, 3)), 0

    def push(self, x):
        self.buf[self.size % 8] = x
        self.size = min(self.size + 1, 8)
        return self.buf[:self.size].max(axis=0)


def test_an_attribute_counter_compiles_twice():
    want, got = Window(), Window()
    f = dynamo.explain(got.push, backend="eager")
    with f as push:
        for i in range(12):
            x = np.full(3, float(i))
            same_outcome(outcome(want.push, (x,)), outcome(push, (x,)), f"call {i}")
            assert got.size == want.size
    # at 0, then one entry from 1 up to 7, then one at the cap (``min(size + 1, 8)``
    # takes its other side: a branch). Each runs its graph: ``.max(axis=0)`` of the
    # head (at least one row) cannot raise after the write into ``buf``
    assert push.report.compile_count == 3, [str(r) for r in push.report.recompiles]
    assert not push.report.skipped


def broadcast_head(buf, n, y):
    """At n = 1 the head broadcasts against ``y`` (3 rows); at 2 NumPy raises."""
    return buf[:n] + y


def squeezed_head(buf, n):
    """At n = 1 ``np.squeeze`` drops the dimension."""
    return np.squeeze(buf[:n]) * 2.0


def head_layout(buf, n):
    """At n = 1 the transposed head is C-contiguous too (a size of 1 has any stride)."""
    v = buf[:n].T
    return v.flags.c_contiguous, v.flags.f_contiguous, np.ascontiguousarray(v).strides


def sized_twice(buf, n):
    """``n`` is a slice bound and the length of ``np.zeros``: the latter pins it at 1."""
    return buf[:n].sum(axis=0) + np.zeros(n).sum()


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn, extra", [(broadcast_head, (BUF[:3],)),
                                       (squeezed_head, ()), (head_layout, ()),
                                       (sized_twice, ())])
def test_a_size_of_one_that_matters_is_specialized(fn, extra, backend):
    dynamo.reset()
    f = dynamo.compile(fn, backend=backend)
    for n in (0, 3, 1, 2, 1, 5, 1, 3):
        args = (BUF, n, *extra)
        same_outcome(outcome(fn, args), outcome(f, args), f"{fn.__name__} n={n}")
