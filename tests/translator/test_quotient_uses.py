"""``n % k`` and ``n // k`` of a changing int by a constant, where the next instruction
alone uses the result (``translator/quotients.py``, issue #16): a comparison with an
int constant guards its *outcome* (``if step % 10 == 0``: two entries, not ten), and
float arithmetic computes the quotient in the graph (``gamma ** (epoch // 3)``: no
guard). Any other use still guards the result (``symbolic.sizes._quotient``). Checked
against eager over negatives, zero, huge ints and negative divisors (Python's floor
division and modulo), with the compiles counted.
"""

import numpy as np
import pytest
from harness import outcome, same_outcome
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dynamo

X = np.linspace(-1.0, 2.0, 5)


def _run(fn, calls, backend="eager"):
    dynamo.reset()
    want = [outcome(fn, args) for args in calls]
    with dynamo.explain(fn, backend=backend) as compiled:
        got = [outcome(compiled, args) for args in calls]
    for i, (w, g) in enumerate(zip(want, got)):
        same_outcome(w, g, f"call {i} {calls[i][1:]!r}", rtol=0.0)
    return compiled.report


def every_tenth(x, step):
    if step % 10 == 0:
        x = x * 2.0
    return x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_remainder_compared_guards_the_outcome(backend):
    """steps 2..41: one entry for step % 10 == 0 and one for != 0 after the first
    change (the old guard, one entry per remainder, would need ten and then run eagerly
    past the cache limit)."""
    report = _run(every_tenth, [(X, step) for step in range(2, 42)], backend)
    assert report.compile_count <= 3, [str(r) for r in report.recompiles]
    assert any("% 10 == 0" in str(r) for r in report.recompiles)


def step_decay(x, epoch, lr0=0.1, gamma=0.5, step_size=3):
    lr = lr0 * gamma ** (epoch // step_size)
    return x * lr, lr, (epoch // 4) * 0.25, 0.5 * (epoch % 7)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_quotient_in_float_arithmetic_is_computed_by_the_graph(backend):
    """epochs 2..29: no guard on the quotient, so one entry after the first change."""
    report = _run(step_decay, [(X, epoch) for epoch in range(2, 30)], backend)
    assert report.compile_count <= 2, [str(r) for r in report.recompiles]


def every_kind(x, n, k, log):
    """Each pattern, with a divisor ``k`` that is a guarded constant; a float divided
    by a zero quotient raises after ``log`` was appended to, as eagerly."""
    log.append(n)
    if n % k == 0:
        x = x + 1.0
    if 1 != n // k:                  # the constant on the left
        x = x * 3.0
    if n % k >= 2:
        x = x - 1.0
    y = 1.5 ** (n // k) if n // k < 60 else 0.0
    return x * (n // k * 1.0), y, (n % k) - 0.5, n // k, x[n % k % 5], 2.0 / (n // k)


INTS = st.one_of(st.integers(-30, 30), st.integers(-2**70, 2**70),
                 st.sampled_from([0, 1, -1, 2**63, -2**63, 10**308, 10**309]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([3, -4, 1, 7]), st.lists(INTS, min_size=2, max_size=7))
@example(3, [2, 5, 8, 10**309, -7, 0])     # float(n // k) overflows: eager's OverflowError
@example(-4, [13, -13, 2**70, 4, 1, 0, -4])
def test_quotient_uses_equal_eager(k, ns):
    """Values, types and exceptions as eagerly, for every use: compared (both sides),
    in float arithmetic, returned and used as an index (those still guard the value)."""
    _run(every_kind, [(X, n, k, []) for n in ns])


def test_an_index_is_computed_by_the_call():
    """``x[step % 3]``: the remainder is a changing int of its own, read from
    ``step % 3`` when the call runs (``ShapeEnv.new_quotient``), not one entry per
    remainder (tests/symbolic/test_quotient_values.py)."""
    def pick(x, step):
        return x[step % 3] * 2.0

    report = _run(pick, [(X, step) for step in range(2, 14)])
    assert not any("% 3 ==" in str(r) for r in report.recompiles)
    assert report.compile_count <= 2


def test_a_size_quotient_still_guards_the_value():
    """``x[:len(x) // 2]``: a size's quotient (not a changing int) guards its value."""
    def half(x):
        return x[:len(x) // 2] * 2.0

    report = _run(half, [(np.arange(float(n)),) for n in range(4, 12)])
    assert any("// 2 ==" in str(r) for r in report.recompiles)
