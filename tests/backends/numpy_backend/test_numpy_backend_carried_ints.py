"""A loop node's picked Python int (issue #19: ``translator/picked_numbers.py``) run as a
Python int in the numpy backend's loop (``carried_ints.py``), choices on carried values
written into their names, choices on one flag in one ``if`` (``carried_choices.py``);
a value an ``if`` keeps through the trips where it is false carried by the loop
(``Instructions.written_first``). Results bit for bit eager's, with eager's types, at
0, 1, 2 and more trips, with NaNs."""

import logging

import numpy as np
import pytest

import dynamo


def running_argmin(d):
    best = d[0]
    arg = 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg


def count_above(r, t):
    count = 0
    for i in range(len(r)):
        if r[i] > t:
            count += 1
    return count


def count_down(r):
    count = 7
    for i in range(len(r)):
        if r[i] > 0:
            count -= 2
    return count


def last_positive(x):
    last = x[0]
    for i in range(len(x)):
        if x[i] > 0:
            last = x[i]
    return last


def previous_min(x):
    """``old`` is the carried ``m`` read after the ``if`` rebinds ``m``: the ``if`` may
    not write ``m`` before ``out[i] = old`` reads it."""
    out = np.empty_like(x)
    m = x[0]
    for i in range(len(x)):
        old = m
        if x[i] < m:
            m = x[i]
        out[i] = old
    return out, m


def body_sources(caplog, fn, *args) -> str:
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        caplog.clear()
        dynamo.compile(fn, backend="numpy")(*args)
    return "\n".join(r.getMessage() for r in caplog.records if "_taking(" in r.getMessage())


def _data(n: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal(n)
    x[::7] = np.nan
    return x


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return all(_same(g, w) for g, w in zip(got, want, strict=True))
    return type(got) is type(want) and np.array_equal(got, want, equal_nan=True) and \
        getattr(got, "dtype", None) == getattr(want, "dtype", None)


def test_a_counter_and_an_index_are_python_ints_in_the_loop(caplog):
    dynamo.reset()
    src = body_sources(caplog, count_above, _data(300), 0.5)
    assert "count = int(count)" in src and "count = (count + 1)" in src, src
    assert "_int64(count)" in src and "else:" not in src, src
    dynamo.reset()
    src = body_sources(caplog, running_argmin, _data(300))
    assert "_scalar_cast" not in src and "arg = (trip)" in src, src
    # (the two choices on one flag: one ``if``, the flag written into it)
    assert src.count("if ") == 1 and "else:" not in src and "scalar_less" not in src, src


@pytest.mark.parametrize("fn", [running_argmin, count_above, count_down, last_positive,
                                previous_min])
def test_results_and_types_are_eagers(fn):
    dynamo.reset()
    extra = (0.5,) if fn is count_above else ()
    compiled = dynamo.compile(fn, backend="numpy")
    # (300 and 301: a loop node, then one over a symbolic size, run at 1-4 elements too)
    for n in (300, 301, 1, 2, 3, 4, 50):
        for x in (_data(n, n), np.full(n, np.nan), -np.abs(_data(n, 1)), np.arange(n, 0, -1.0)):
            if fn is last_positive and n > 5:
                x = x.copy()
                x[n // 2], x[-1] = 2.0, -1.0   # (the last positive is not the last one)
            want = fn(x.copy(), *extra)
            got = compiled(x.copy(), *extra)
            assert _same(got, want), (fn.__name__, n, got, want)


def test_a_value_an_if_keeps_is_carried(caplog):
    """``last = x[i]`` under an ``if``, never read in the body: the trips where the
    ``if`` is false keep the previous trip's value, so the loop node carries it (the
    body's graph read the first trip's value: the numpy backend raised ``KeyError:
    branch_select``)."""
    dynamo.reset()
    x = -np.abs(_data(30))
    x[5] = 2.0
    src = body_sources(caplog, last_positive, x)
    assert "for trip in range(" in src, src
    for backend in ("numpy", "eager"):
        dynamo.reset()
        assert dynamo.compile(last_positive, backend=backend)(x) == 2.0
        assert dynamo.explain(last_positive)(x).graph_break_count == 0


def count_in_range(x, lo, hi):
    count = 0
    for i in range(len(x)):
        if lo <= x[i] < hi:
            count += 1
    return count


def count_both(x):
    """The program's own ``&``, whose second operand divides: computed on every trip,
    its warning too (``1.0 / 0.0``), so it stays an ``&``."""
    count = 0
    for i in range(len(x)):
        if (x[i] > -1.0) & (1.0 / x[i] > 2.0):
            count += 1
    return count


def test_a_chained_comparison_short_circuits(caplog):
    """``lo <= x[i] < hi`` (the graph's ``&`` of the two links, short_circuit.py): the
    second link is tested where the first holds, as in the program."""
    dynamo.reset()
    x = _data(300)
    src = body_sources(caplog, count_in_range, x, -0.5, 0.5)
    assert " and " in src and " & " not in src, src


def test_a_chained_comparison_equals_eager():
    compiled = dynamo.compile(count_in_range, backend="numpy")
    for n in (300, 301, 2, 3):
        x = _data(n, n)
        assert _same(compiled(x, -0.5, 0.5), count_in_range(x, -0.5, 0.5))


def test_an_and_that_divides_keeps_both_operands(caplog):
    dynamo.reset()
    x = _data(300)
    x[5] = 0.0
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        src = body_sources(caplog, count_both, x)
    assert "for trip in range(" in src and " & " in src and " and " not in src, src
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        want = count_both(x)
    with pytest.warns(RuntimeWarning, match="divide by zero"):
        got = dynamo.compile(count_both, backend="numpy")(x)
    assert _same(got, want)
