"""Arithmetic on a Python float the graph computes (``float(loss)``, ``x.item()``,
``x.tolist()`` of a 0-d array) stays in the graph (issue #19,
``dynamo/variables/graph_numbers.py``): one graph, no break, eager's values and exact
Python types on the eager and numpy backends. Where Python reads the number (``if``,
a comparison, ``**``, ``1 / loss``, ``math.log``, ``range``) the graph still breaks,
and the results are still eager's. ``int(x)`` of a 0-d float array is converted after
the graph behind a check that ``x`` is finite (NaN and infinities: eager's error).
"""

from __future__ import annotations

import contextlib
import io
import logging
import math

import numpy as np
import pytest
from harness import check, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")


class Trainer:
    def __init__(self):
        self.history = []
        self.total = 0.0


def train_step(model, w, x, t, lr):
    y = x @ w
    grad = x.T @ (y - t) / len(t)
    loss = float(np.mean((y - t) ** 2))
    model.history.append(loss * 0.5)
    model.total += loss
    return w - lr * loss * grad, loss / len(t)


def scalar_arith(x):
    loss = float(np.mean(x ** 2))
    return loss * 2 + 1.0, loss / 3, -loss, abs(-loss) - 0.5, loss % 3.0, loss // 0.25


def weak_scalar(x):
    s = float(x.sum())
    return x * s, x + s * 2, (s - 1) * x          # a float32 array stays float32


def item_and_tolist(x):
    v = x.max().item()
    m = x.mean().tolist()
    return v + 1, x - v, m * 2, {"gap": v - m}


def snapshot_before_write(x):
    s = float(x.sum())
    x += 1.0
    return x * (s + 0), s * 1


def two_numbers(x, y):
    a, b = float(x.sum()), y.min().item()
    return a * b - b, x * (a + b)


def int_and_bool_arrays(i, m):
    return float(i.sum()) * 0.5, float(m.any()) + 1


def special_values(x):
    s = float(x.max())            # inf, nan: IEEE arithmetic, no exception
    return s * 0.0, s - s, s + 1, x * s


def fstring_of_number(x):
    loss = float(x.sum())
    return f"{loss * 2:.3f} {-loss!r} {loss / 3}"     # formatted by the glue


CASES = [
    (scalar_arith, (np.arange(5, dtype=np.float32),)),
    (weak_scalar, (np.arange(4, dtype=np.float32) / 7,)),
    (item_and_tolist, (np.linspace(0, 1, 7),)),
    (item_and_tolist, (np.arange(6, dtype=np.float32),)),
    (snapshot_before_write, (np.arange(3.0),)),
    (two_numbers, (np.arange(3.0), np.arange(1.0, 4.0))),
    (int_and_bool_arrays, (np.arange(4), np.array([False, True]))),
    (special_values, (np.array([1.0, np.inf]),)),
    (special_values, (np.array([1.0, np.nan]),)),
    (fstring_of_number, (np.array([1.0, 2.5]),)),
    (fstring_of_number, (np.array([1.0, np.inf]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", CASES, ids=[f"{c[0].__name__}{i}" for i, c in
                                                 enumerate(CASES)])
def test_no_break(fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_training_step(backend):
    rng = np.random.default_rng(0)
    args = (Trainer(), rng.normal(size=3), rng.normal(size=(8, 3)), rng.normal(size=8), 0.1)
    check(train_step, *args, graphs=1, breaks=0, backend=backend)


def branch(x):
    loss = float(x.sum()) * 2
    if loss > 1:
        return x
    return -x


def power(x):
    return float(x.sum()) ** 2        # OverflowError for some values: read, a break


def reciprocal(x):
    return 1 / float(x.sum())         # ZeroDivisionError for some values


def log_of(x):
    return math.log(float(x.sum()) + 1)


def formatted(x):
    return str(float(x.sum()) * 2)


def counted(x):
    return list(range(int(float(x.sum()) * 2)))


@pytest.mark.parametrize("fn,args", [
    (branch, (np.arange(3.0),)), (branch, (-np.arange(3.0),)),
    (power, (np.array([1e200]),)), (power, (np.arange(3.0),)),
    (reciprocal, (np.zeros(2),)), (reciprocal, (np.ones(2),)),
    (log_of, (np.arange(3.0),)), (log_of, (np.array([-1.0]),)),
    (formatted, (np.arange(3.0),)), (counted, (np.arange(3.0),)),
])
@pytest.mark.parametrize("backend", BACKENDS)
def test_reading_the_number_breaks(fn, args, backend):
    report = check(fn, *args, backend=backend, breaks=None, graphs=None)
    assert report is None or report.graph_break_count >= 1


def test_reading_the_number_breaks_there():
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(branch, backend="eager")(np.arange(3.0))
    assert report.graph_break_count == 1
    assert "a Python number computed from array data" in str(report)


def triangles(A, log):
    A3 = A @ A @ A
    log.append("counted")
    return int(np.trace(A3) // 6), A3.sum()


def written_then_converted(x, log):
    x += 1                        # a write of an input: the graph cannot rerun
    log.append(1)
    return int(x.sum() / 2)


_A = (np.random.default_rng(0).random((5, 5)) > 0.5).astype(float)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("scale", [1.0, np.nan, np.inf, -np.inf])
def test_int_of_a_float_array(scale, backend):
    """``int(x)`` of a 0-d float array: one graph with a check that ``x`` is finite;
    a NaN raises ValueError and an infinity OverflowError, as eagerly (the frame's
    original code runs: the list is appended once, each warning reported once)."""
    def run(fn):
        return outcome(fn, (_A * scale, []))
    want = run(triangles)
    compiled = dynamo.compile(triangles, backend=backend)
    for call in range(2):
        same_outcome(want, run(compiled), f"call {call + 1}")
    check(triangles, _A * scale, [], graphs=1, breaks=0, backend=backend)


def test_int_of_a_float_array_after_a_write_breaks():
    check(written_then_converted, np.ones(3), [], breaks=1)
    check(written_then_converted, np.array([np.nan]), [], breaks=1)


def long_sum(x):
    t = 0.0
    for i in range(300):                  # unrolled: one expression per trip
        t = t + float(x[i % 3]) * 2
    return t


def test_a_deep_expression_breaks_instead_of_failing(caplog):
    """Past ``scalars._MAX_DEPTH`` operators the number is read (a break: here the
    loop runs as an island): the graph's and glue's code would not compile (Python's
    parser takes 200 nested parentheses), and no frame falls back after an error."""
    with caplog.at_level(logging.WARNING, logger="dynamo.internal"):
        report = check(long_sum, np.arange(3, dtype=np.float32), breaks=None)
    assert report is None
    assert not [r for r in caplog.records if r.name == "dynamo.internal"]
    with contextlib.redirect_stdout(io.StringIO()):
        explained = dynamo.explain(long_sum, backend="eager")(np.arange(3, dtype=np.float32))
    assert "operators deep" in explained.break_reasons[0].reason
