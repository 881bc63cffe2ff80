"""A ``deque(maxlen=n)`` of arrays that each call appends to and then reads item by
item (a comprehension, a generator, ``zip``) compiles at most twice (issue #16): the
entry made while it fills runs the original code (``dynamo/filling_deques.py``), the
call that finds it full compiles the entry of every later call. Results, the deque's
items and their identity are eager's on every call, on both CPU backends.

Example::

    >>> w = Window(); f = dynamo.explain(w.mean_of_items)
    >>> f.calls([(x,) for x in XS]).compile_count     # 5 before: one per length
    2
"""

import collections
import logging

import numpy as np
import pytest

import dynamo

XS = [np.linspace(-1.0, 1.0, 5) * (i + 1) + i for i in range(10)]
W = (0.4, 0.3, 0.2, 0.1)


class Window:
    def __init__(self, maxlen=4):
        self.buf = collections.deque(maxlen=maxlen)

    def mean_of_items(self, x):
        self.buf.append(x)
        return np.mean([b for b in self.buf], axis=0)

    def generator_sum(self, x):
        self.buf.append(x)
        return sum(b * 0.5 for b in self.buf)

    def weighted_left(self, x):
        self.buf.appendleft(x)
        parts = [b * w for b, w in zip(self.buf, W)]
        return sum(parts) / sum(W[:len(parts)])

    def tuples(self, x, r):
        self.buf.append((x, r))
        rs = [rr for _, rr in self.buf]
        return np.stack([o for o, _ in self.buf]).mean(axis=0) * (sum(rs) / len(rs))

    def sometimes(self, x, keep):
        if keep:
            self.buf.append(x)
        return sum(b * 0.5 for b in self.buf) + x


def _same_state(plain, traced):
    assert len(plain.buf) == len(traced.buf)
    for a, b in zip(plain.buf, traced.buf):
        a, b = (a, b) if type(a) is not tuple else (a[0], b[0])
        np.testing.assert_array_equal(a, b)


def _run(method, calls, backend, reset_at=None):
    """Each call on a plain and a compiled window; their results and windows compared.
    The compiled window's items are the very arrays the calls passed (identity)."""
    plain, traced = Window(), Window()
    dynamo.reset()
    with dynamo.explain(getattr(traced, method), backend=backend) as f:
        for i, args in enumerate(calls):
            if i == reset_at:
                plain.buf.clear(), traced.buf.clear()
            want, got = getattr(plain, method)(*args), f(*args)
            assert type(got) is type(want)
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype
            _same_state(plain, traced)
            held = [v[0] if type(v) is tuple else v for v in traced.buf]
            assert all(any(h is a[0] for a in calls) for h in held)
    return f.report


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("method", ["mean_of_items", "generator_sum", "weighted_left"])
def test_a_filling_deque_read_item_by_item_compiles_at_most_twice(method, backend):
    report = _run(method, [(x,) for x in XS], backend)
    assert report.compile_count <= 2
    assert all("filling to maxlen=4" in "".join(r.reasons) for r in report.recompiles)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_deque_of_tuples_and_float_rewards(backend):
    report = _run("tuples", [(x, 0.1 * i + 0.05) for i, x in enumerate(XS)], backend)
    assert report.compile_count <= 3     # (the reward's first change may add one)


def test_a_refill_after_clear_runs_the_same_entry():
    report = _run("mean_of_items", [(x,) for x in XS] * 2, "eager", reset_at=10)
    assert report.compile_count <= 2


def test_a_deque_that_does_not_fill_gives_its_entry_up(caplog):
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    calls = [(x, i < 2) for i, x in enumerate(XS)]     # two appends, then none
    report = _run("sometimes", calls, "eager")
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "did not fill to maxlen" in text
    # the filling entry, then the entry of the length it stays at
    assert report.compile_count == 2
    assert len(report.records[-1].guards) > 3 and report.records[-1].graph is not None


def test_fullgraph_keeps_an_entry_per_length():
    plain, traced = Window(), Window()
    dynamo.reset()
    with dynamo.explain(traced.mean_of_items, backend="eager", fullgraph=True) as f:
        for x in XS[:6]:
            np.testing.assert_array_equal(f(x), plain.mean_of_items(x))
    assert f.report.compile_count == 5
