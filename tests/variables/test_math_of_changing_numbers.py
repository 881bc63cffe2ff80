"""Functions of ``math`` on a number that changes between calls (issue #16: cosine and
exponential learning-rate schedules) are computed by the graph with the same function
(``symbolic.math_calls.math_call``): one entry for every value, a Python ``float`` result,
libm's value bit for bit, and a domain or range error raised when the graph runs, with
Python's own text (``math.sqrt(-1.0)``: ``ValueError: math domain error``). Each
sequence of calls is compared with plain Python, its compiles counted.
"""

import math

import numpy as np
import pytest
from harness import outcome, same_outcome
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dynamo

W = np.linspace(-1.0, 1.0, 6).astype(np.float32)


def cosine_lr(w, t, T=8, lr_min=1e-3, lr_max=0.1):
    """A cosine-annealing step: ``lr`` a Python float, ``w`` stays float32 (NEP 50)."""
    lr = lr_min + 0.5 * (lr_max - lr_min) * (1 + math.cos(math.pi * t / T))
    return w - lr * w, lr


def _run(fn, calls, backend="eager"):
    """Eager's and the compiled function's outcome of each call, and the compiles."""
    dynamo.reset()
    want = [outcome(fn, args) for args in calls]
    with dynamo.explain(fn, backend=backend) as compiled:
        got = [outcome(compiled, args) for args in calls]
    return want, got, compiled.report.compile_count


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_cosine_schedule_is_one_entry(backend):
    """t = 2..11: the first change makes t an input; then no compile (the old code
    pinned t at ``math.cos``: one entry per step, then eager past the cache limit)."""
    calls = [(W, t) for t in range(2, 12)]
    want, got, compiles = _run(cosine_lr, calls, backend)
    for i, (w, g) in enumerate(zip(want, got)):
        same_outcome(w, g, f"call {i}", rtol=0.0)
        assert type(g[0][1]) is float and g[0][0].dtype == np.float32
    assert compiles <= 2


def one_arg(w, x, fn):
    y = fn(x)
    return w * y, y


def two_args(w, x, fn):
    y = fn(x, 2.0) + fn(3.0, x)
    return w * y, y


ONE = [math.cos, math.sin, math.tan, math.exp, math.expm1, math.log, math.log1p,
       math.log2, math.log10, math.sqrt, math.tanh, math.atan, math.asin, math.acosh,
       math.atanh, math.erf, math.gamma, math.lgamma, math.fabs, math.degrees]
TWO = [math.atan2, math.hypot, math.copysign, math.fmod, math.pow, math.log]
FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 710.0, -1e308, 1e-320]),
                   st.integers(-3, 3), st.integers(-2**1100, 2**1100))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ONE + TWO), st.lists(FLOATS, min_size=3, max_size=6))
@example(math.sqrt, [4.0, 9.0, -1.0, 2.0, float("nan")])     # a domain error at run time
@example(math.exp, [1.0, 2.0, 1000.0, -1000.0])                # a range error at run time
@example(math.log, [2.0, 3.0, 0.0, 2**1100, -0.0])             # a huge int: log of the int
@example(math.cos, [2.0, 3.0, float("inf"), 5, 2**1100])       # int too large for a float
def test_math_of_changing_numbers_equals_eager(fn, xs):
    """Values, ``float`` results, and the very exception (type and text) eager raises,
    for finite, infinite, NaN, signed-zero, int and huge-int arguments."""
    program = two_args if fn in TWO else one_arg
    calls = [(W.astype(np.float64), x, fn) for x in xs]
    want, got, compiles = _run(program, calls)
    for i, (w, g) in enumerate(zip(want, got)):
        same_outcome(w, g, f"{fn.__name__}({xs[i]!r})", rtol=0.0)
    # per type (int, float): a first entry and one for the changing number; one more per
    # value whose trace raises (pinned), and per 0 or 1 (ints: specialized like sizes)
    assert compiles <= 2 * len({type(x) for x in xs}) + \
        sum(isinstance(w[0], Exception) for w in want) + \
        len({(type(x), x) for x in xs if x in (0, 1)})


def exp_schedule(w, g, step, k=0.3):
    lr = 0.1 * np.exp(-k * step) + math.exp(-k * step)   # np.float64 + float
    return w - lr * g, lr, np.exp(step)


def test_np_exp_and_math_exp_of_a_changing_int_keep_their_types():
    """``np.exp`` of a Python number is an ``np.float64`` (of an int too), ``math.exp`` a
    ``float``; NEP 50 then makes the float32 update float64 (a NumPy scalar is strong),
    exactly as eagerly."""
    calls = [(W, W * 0.5, step) for step in range(2, 10)]
    want, got, compiles = _run(exp_schedule, calls)
    for i, (w, g) in enumerate(zip(want, got)):
        same_outcome(w, g, f"call {i}")
    assert type(got[-1][0][1]) is np.float64 and got[-1][0][0].dtype == np.float64
    assert compiles <= 2


def test_the_graph_calls_the_math_function():
    """The captured graph computes ``math.cos`` from the symbol (nothing pinned)."""
    dynamo.reset()
    with dynamo.explain(cosine_lr, backend="eager") as compiled:
        for t in (2, 3, 4):
            compiled(W, t)
    text = str(compiled.report)
    assert "math').cos(" in text and "pinned" not in text
