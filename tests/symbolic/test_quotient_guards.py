"""``n // k``, ``n % k`` and ``divmod(n, k)`` of a changing int ``n`` by a constant ``k``
guard the *result* (``L['n'] % 3 == 1``), not ``n`` (issue #16: ``if step % 10 == 0``
in schedulers and loggers, ``gamma ** (epoch // 30)`` in step decay): a counter needs an
entry per remainder or quotient, not per value. Checked against eager with values that
flip the outcome, negatives, 0/1, huge ints, bools and NumPy ints.
"""

import operator

import numpy as np
import pytest
from harness import same
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dynamo
from dynamo.symbolic import Sym, SymInt, recording


def _size(hint, expr="L['n']"):
    return SymInt(hint, Sym.symbol("s0", expr))


@pytest.mark.parametrize("fn, text", [(operator.mod, "%"), (operator.floordiv, "//")])
@pytest.mark.parametrize("n, k", [(13, 10), (-13, 10), (13, -10), (2**70 + 5, 7), (0, 1)])
def test_a_constant_divisor_guards_the_result_not_the_size(fn, text, n, k):
    with recording() as trace:
        got = fn(_size(n), k)
    assert type(got) is int and got == fn(n, k)
    assert trace.pins == set()
    assert trace.decisions == [f"L['n'] {text} {k} == {fn(n, k)}"]
    for m in range(n - abs(k) - 1, n + abs(k) + 2):     # the guard is Python's own
        assert eval(trace.decisions[0], {"L": {"n": m}}) == (fn(m, k) == got), m


def test_an_affine_size_is_parenthesized_and_divmod_guards_both():
    with recording() as trace:
        q, r = divmod(_size(13) * 2 + 1, -4)
    assert (q, r) == divmod(27, -4)
    assert trace.decisions == [f"divmod((2*(L['n']) + 1), -4) == {(q, r)!r}"]
    assert eval(trace.decisions[0], {"L": {"n": 13}})


@pytest.mark.parametrize("k", [0, 2.0, True - 1, np.int64(3)])
def test_other_divisors_pin(k):
    with recording() as trace:
        try:
            _size(13) % k
        except ZeroDivisionError:
            pass
    assert trace.pins == {"s0"} and trace.decisions == []


def test_a_symbolic_divisor_pins_both():
    with recording() as trace:
        _size(13) // SymInt(4, Sym.symbol("s1", "L['k']"))
    assert trace.pins == {"s0", "s1"}


def scheduler(x, step):
    """Control flow and float math over a counter's remainder and quotient."""
    if step % 3 == 0:
        x = x * 2.0
    q, r = divmod(step, -4)
    return x * 0.5 ** (step // 5) + q - r, step % 7


INTS = st.one_of(st.integers(-20, 20), st.integers(-2**80, 2**80), st.booleans(),
                 st.integers(-9, 9).map(np.int64))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INTS, min_size=2, max_size=6))
@example([0, -5116, 5, 6, 2**80])        # an overflow where eager raises, then huge
@example([3, True, np.int64(-9), -1, 0])
def test_counters_divided_by_constants_equal_eager(steps):
    dynamo.reset()
    compiled = dynamo.compile(scheduler, backend="eager")
    x = np.linspace(-1.0, 2.0, 5)
    for step in steps:
        want, got = outcome(scheduler, x.copy(), step), outcome(compiled, x.copy(), step)
        if isinstance(want, Exception):        # 0.5 ** (step // 5) overflows for -5116
            assert type(got) is type(want) and got.args == want.args, (step, got, want)
        else:
            same(want, got, path=f"step={step!r}")


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 (compared)
        return e


def test_a_counter_needs_an_entry_per_outcome_not_per_value():
    """steps 0..29: two entries before the int is dynamic, then one per (step % 3,
    step // 5, step % 7 ...) seen; what is logged names the expression, not the step."""
    def f(x, step):
        if step % 3 == 0:
            x = x * 2.0
        return x

    dynamo.reset()
    with dynamo.explain(f, backend="eager") as g:
        for step in range(30):
            same(f(np.ones(3), step), g(np.ones(3), step))
    report = g.report
    assert report.compile_count <= 5, [str(r) for r in report.recompiles]
    assert any("% 3 ==" in str(r) for r in report.recompiles)
