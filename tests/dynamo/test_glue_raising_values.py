"""Python numbers the glue or a graph computes that raise for some calls (issue #17).

``o.t += 1; return 2.0 ** o.t`` with ``o.t`` a changing int is one entry for every
``o.t``; at ``o.t == 2000`` the power overflows. Plain Python has stepped ``o.t`` by
then (and an ``except`` around the power sees the error). Each test runs a function
plainly and compiled, with the same sequence of values (the first two make the entry
generic, later ones raise), and compares the result or the exception, and the state of
the objects, call by call, on the eager and numpy backends.
"""

import math

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]


class Holder:
    def __init__(self, t):
        self.t, self.w, self.log = t, np.ones(3), []


def outcome(fn, t):
    """What ``fn(Holder(t), x)`` returns or raises, and the object's state after it."""
    o, x = Holder(t), np.arange(3.0)
    try:
        got = ("value", repr(fn(o, x)))
    except Exception as e:  # noqa: BLE001 (the error is compared)
        got = ("raised", type(e).__name__, str(e))
    state = {k: (v.tolist() if isinstance(v, np.ndarray) else v)
             for k, v in vars(o).items()}
    return got, state


def same_as_plain(fn, backend, ts):
    compiled = dynamo.compile(fn, backend=backend)
    for t in ts:
        assert outcome(compiled, t) == outcome(fn, t), f"o.t = {t}"


def power_after_write(o, x):
    o.t += 1
    return 2.0 ** o.t


def power_into_attribute(o, x):
    o.a = 1
    o.b = 2.0 ** o.t            # (the glue's temporaries came before the writes)
    return x


def power_in_try(o, x):
    o.t += 1
    try:
        return 2.0 ** o.t
    except OverflowError:
        o.caught = True
        return -1.0


def quotient_after_write(o, x):
    o.n = len(o.log) + 1
    o.r = 1.0 / o.t
    return x + 1


def graph_then_power(o, x):
    o.t += 1
    y = x * 2                   # a graph that may be rerun
    return y, 2.0 ** o.t


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [power_after_write, power_into_attribute, power_in_try,
                                graph_then_power], ids=lambda f: f.__name__)
def test_power_that_overflows(fn, backend):
    same_as_plain(fn, backend, [3, 4, 2000, 5, 1500])


@pytest.mark.parametrize("backend", BACKENDS)
def test_division_by_a_changing_zero(backend):
    same_as_plain(quotient_after_write, backend, [3, 4, 0, 2])


def step(o, x):
    o.t += 1
    o.w -= 0.5 ** o.t * x       # a graph that writes an input: it cannot be rerun


def log_step(o, x):
    o.t += 1
    o.w -= math.log(o.t) * x    # ValueError at o.t == 0 (guarded >= 1 where it is)


def step_up(o, x):
    o.t += 1
    o.w -= 2.0 ** o.t * x


@pytest.mark.parametrize("backend", BACKENDS)
def test_graph_that_writes_an_input(backend):
    # 0.5 ** t for t >= 0 never raises (guarded so); a negative t overflows
    same_as_plain(step, backend, [3, 4, -5000, 6])
    same_as_plain(step_up, backend, [3, 4, 2000, 6])
    same_as_plain(log_step, backend, [3, 4, -1, 0, 7])
    # (an optimizer's ``beta ** t`` with t >= 0 cannot raise: the frame keeps its one
    # graph, not sent to run eagerly for it)
    x = np.arange(3.0)
    report = dynamo.explain(step, backend=backend).calls([(Holder(3), x), (Holder(4), x)])
    assert report.graph_count == 1 and report.graph_break_count == 0
    assert [r.graph is not None for r in report.records] == [True]


def divided_then_reciprocal(o, x):
    return x / o.d, 1.0 / o.d          # a graph that warns, then a glue number that raises


def stepped_divided_then_reciprocal(o, x):
    o.t += 1
    return x / o.d, 1.0 / o.d          # the same after a write back: the rerun path


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [divided_then_reciprocal, stepped_divided_then_reciprocal])
def test_a_graph_that_warned_warns_once_when_a_glue_number_raises(fn, backend):
    """``d == 0.0``: the graph's ``x / d`` warns and ``1.0 / d`` raises. With nothing to
    write back the glue raises at once; after a write back the frame reruns, and the
    graph ran under the floating-point guard, so its warning is reported once (by the
    rerun), not once by the graph and again by the rerun."""
    import warnings

    def run(f, d):
        o, x = Holder(1), np.arange(1.0, 4.0)
        o.d = d
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                got = ("value", repr(f(o, x)))
            except ZeroDivisionError as e:
                got = ("raised", str(e))
        return got, o.t, [str(w.message) for w in seen]

    compiled = dynamo.compile(fn, backend=backend)
    for d in (2.0, 3.0, 0.0, 0.0):
        assert run(compiled, d) == run(fn, d), d
