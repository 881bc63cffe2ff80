"""A changing int's ``% k`` or ``// k`` (``k`` a nonzero int constant) used as an index,
stored back or returned is a changing int of its own (``ShapeEnv.new_quotient``): the
call computes it from the frame's values with Python's own operator
(``QuotientSource``), so a ring pointer ``self.ptr = (self.ptr + 1) % self.max_size``
or ``buf[t % 8]`` serves every remainder with one entry, where the result used to be
guarded (one entry per remainder, then eager past the cache limit). Issue #16.

Checked against eager: values and types (an int stays an ``int``), negative values and
divisors (Python's floor semantics), huge ints (past int64: a recompile, then eager's
result), bools (``True % 3``: not an int symbol), NumPy ints (guarded by value), an
index out of bounds (NumPy's ``IndexError`` text) and the state left behind.
"""

import numpy as np
import pytest
from harness import outcome, same_outcome
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dynamo


def _run(fn, calls, backend="eager"):
    """Each call of ``fn`` and of its compiled self gives the same outcome (result or
    exception, printed output, arguments after the call, warnings); the report."""
    dynamo.reset()
    want = [outcome(fn, make()) for make in calls]
    with dynamo.explain(fn, backend=backend) as compiled:
        got = [outcome(compiled, make()) for make in calls]
    for i, (w, g) in enumerate(zip(want, got)):
        same_outcome(w, g, f"call {i}", rtol=0.0)
    return compiled.report


class Ring:
    """SpinningUp's replay buffer pointer: written at ``ptr``, which wraps with ``%``."""

    def __init__(self, n, d, ptr=0):
        self.buf = np.zeros((n, d))
        self.ptr, self.n = ptr, n

    def store(self, x):
        self.buf[self.ptr] = x
        self.ptr = (self.ptr + 1) % self.n
        return self.buf.sum(axis=0)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_ring_pointer_stored_back_compiles_twice(backend):
    """40 stores into an 8-row ring (it wraps five times): the first call, then one
    entry from the first change on (the remainder guard needed one per position)."""
    rows = [np.full(3, float(i)) for i in range(40)]
    want, ring = Ring(8, 3), Ring(8, 3)
    dynamo.reset()
    with dynamo.explain(ring.store, backend=backend) as store:
        for x in rows:
            np.testing.assert_array_equal(store(x), want.store(x))
    assert ring.ptr == want.ptr and type(ring.ptr) is int
    np.testing.assert_array_equal(ring.buf, want.buf)
    assert store.report.compile_count <= 2, [str(r) for r in store.report.recompiles]


def every_use(buf, t, log):
    """The remainder and quotient as an index, returned, stored in a list, in int
    arithmetic, and a later comparison of the quotient (which guards its outcome)."""
    log.append(t % 5)
    r, q = t % -3, t // 7
    out = buf[t % 4] + buf[r]
    big = q > 2
    return out, r, q, q * 3 + 1, big, type(r) is int


INTS = st.one_of(st.integers(-40, 40), st.integers(-2**70, 2**70),
                 st.sampled_from([0, 1, -1, 2**63 - 1, -2**63, 2**63, True, False]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INTS, min_size=2, max_size=8))
@example([2, 5, -7, 2**63 - 1, -2**63, 13, True])
@example([3, 4, np.int64(9), np.int64(-9), 10])
def test_every_use_equals_eager(ts):
    buf = np.arange(4.0) * 10.0
    _run(every_use, [lambda t=t: (buf, t, []) for t in ts])


def counter_index(buf, t):
    return buf[t % 8] * 2.0, (t + 3) // 8


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_counter_modulo_index_compiles_twice(backend):
    buf = np.arange(8.0)
    report = _run(counter_index, [lambda t=t: (buf, t) for t in range(2, 30)], backend)
    assert report.compile_count <= 2, [str(r) for r in report.recompiles]


def short_index(buf, t):
    """``t % 6`` into a 4-row buffer: NumPy raises for remainders 4 and 5."""
    buf[t % 6] = 1.0
    return buf.sum()


def test_an_index_out_of_bounds_raises_numpys_error():
    ts = [2, 3, 4, 5, 6, 7, 11, -1]
    report = _run(short_index, [lambda t=t: (np.zeros(4), t) for t in ts])
    assert report.compile_count <= 2, [str(r) for r in report.recompiles]


class PhaseMemo:
    """A memo keyed by ``len(self.history) % 3``: the list holds floats (array data,
    its length a size), appended each call."""

    def __init__(self):
        self.history, self.memo = [], {}

    def apply(self, x):
        self.history.append(float(x[0]))
        n = len(self.history) % 3
        if n not in self.memo:
            self.memo[n] = x * (n + 1)
        return self.memo[n] + x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_list_lengths_remainder_is_a_changing_int(backend):
    """``len(h) % 3`` of a list of floats (``np.asarray(h).shape[0]``, a size) is a
    changing int computed by the call, as a counter's remainder is: 10 calls compile
    at the first, at the length's first change, and once the key is present (an
    entry per side); guarded by its value, each remainder took an entry of its own
    (5 recompiles). The memo and the history equal eager's after every call."""
    sides = []
    for wrap in (lambda f: f, lambda f: dynamo.explain(f, backend=backend)):
        m = PhaseMemo()
        f = wrap(m.apply)
        with f if hasattr(f, "__enter__") else _Same(f) as g:
            out = [(g(np.arange(4.0) + i), dict(m.memo), list(m.history)) for i in range(10)]
        sides.append((out, g))
    (want, _), (got, compiled) = sides
    for (a, ma, ha), (b, mb, hb) in zip(want, got):
        np.testing.assert_allclose(a, b, rtol=1e-12)
        assert list(ma) == list(mb) and ha == hb
        for k in ma:
            np.testing.assert_array_equal(ma[k], mb[k])
    recompiles = [r for r in compiled.report.recompiles if r.call >= 1]
    assert len(recompiles) == 2, "\n".join(map(str, recompiles))
    assert "not in self.memo" in str(recompiles[-1])


class _Same:
    """A plain callable as the ``with`` block ``dynamo.explain`` gives."""

    def __init__(self, fn):
        self.fn = fn

    def __enter__(self):
        return self.fn

    def __exit__(self, *exc):
        return False
