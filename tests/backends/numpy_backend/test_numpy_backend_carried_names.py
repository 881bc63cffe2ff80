"""A loop node's body as the numpy backend writes it: values that are a carried value
itself print under its name (``carried_names.py``, issue #15), a flag tested once is
written into its ``if``, and an array a way computes runs inside that way's branch
(``select_code.py``). The generated code is checked, and every result is bit for bit
eager's (values, dtypes, the arrays written in place)."""

import logging
import warnings

import numpy as np
import pytest

import dynamo


def reflect(x, lo, hi):
    x = x.copy()
    for i in range(len(x)):
        if x[i] > hi:
            x[i] = 2 * hi - x[i]
        elif x[i] < lo:
            x[i] = 2 * lo - x[i]
    return x


def running_min(x):
    out = np.empty_like(x)
    m = x[0]
    for i in range(len(x)):
        if x[i] < m:
            m = x[i]
        out[i] = m
    return out


def count_above(x, t):
    counts = np.zeros(2, dtype=np.int64)
    for i in range(len(x)):
        if x[i] > t:
            counts[0] += 1
        else:
            counts[1] += 1
    return counts


def quasi_newton(x, iters):
    n = x.shape[0]
    h = np.eye(n)
    for _ in range(iters):
        p = -h @ x
        s = 0.1 * p
        y = s * 2.0 + 0.01
        sy = s @ y
        if sy > 1e-10:
            h = h + np.outer(s, s) / sy
        x = x + s
    return x, h


def running_argmin(d):
    best = d[0]
    arg = 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg


def write_input(x, y):
    """Writes into its input ``x`` in place, twice a trip, then reads it."""
    for i in range(1, len(x)):
        x[i] = x[i] + y[i]
        x[i - 1] = x[i] * 0.5
    return x.sum()


def write_then_swap(a, b):
    """A written array handed over to the other slot: the swap keeps its names."""
    for i in range(len(a)):
        a[i] = a[i] + 1.0
        a, b = b, a
    return a, b


def body_sources(caplog, fn, *args) -> str:
    """The generated code of the loop bodies compiling ``fn`` makes."""
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        caplog.clear()
        dynamo.compile(fn, backend="numpy")(*args)
    return "\n".join(r.getMessage() for r in caplog.records if "_taking(" in r.getMessage())


def test_a_picked_ints_first_trip_chooses_without_where(caplog):
    """The first trip's ``int(where(flag, 1, 0))`` of a picked index chooses the
    operand (scalar_select.py): no ``np.where`` per call."""
    dynamo.reset()
    d = np.cos(np.arange(40.0) * 0.7) * np.arange(40.0)
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        caplog.clear()
        got = dynamo.compile(running_argmin, backend="numpy")(d)
    src = "\n".join(r.getMessage() for r in caplog.records if "def forward" in r.getMessage())
    assert "_sym_number(" in src and "_where(" not in src, src
    assert _same(got, running_argmin(d))


def _loop_lines(src: str) -> list[str]:
    """The statements of the generated loop (comments left out)."""
    lines = src.split("\n")
    start = next(k for k, ln in enumerate(lines) if "for trip in range(" in ln)
    end = next(k for k in range(start, len(lines)) if lines[k].strip().startswith("return"))
    return [ln.strip() for ln in lines[start + 1:end] if not ln.strip().startswith("#")]


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return all(_same(g, w) for g, w in zip(got, want, strict=True))
    return type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype \
        and np.array_equal(got, want, equal_nan=True)


def test_writes_into_a_carried_array_print_as_its_name(caplog):
    dynamo.reset()
    body = _loop_lines(body_sources(caplog, reflect, np.linspace(-2, 2, 30), -1.0, 1.0))
    # (x[i], read by both tests and both writes, read once: passes/cse.py; 2.0 - x[i]
    # of a float64 scalar subtracts float64 scalars: typed_constants.py)
    assert body == ["getitem = x[(trip)]", "if (getitem > 1.0):",
                    "x[(trip)] = (_float64_2_0 - getitem)", "else:", "if (getitem < -1.0):",
                    "x[(trip)] = (_float64__2_0 - getitem)"], body


def test_a_choice_read_after_its_if_reads_the_slot(caplog):
    dynamo.reset()
    body = _loop_lines(body_sources(caplog, running_min, np.cos(np.arange(30.0))))
    assert body == ["getitem = x[(trip)]", "if (getitem < m):", "m = getitem",
                    "out[(trip)] = m"], body


def test_a_flag_of_two_stores_is_tested_in_the_if(caplog):
    dynamo.reset()
    body = _loop_lines(body_sources(caplog, count_above, np.sin(np.arange(30.0)), 0.2))
    assert body == ["if ((x[(trip)]) > 0.2):", "counts[0] = ((counts[0]) + 1)", "else:",
                    "counts[1] = ((counts[1]) + 1)"], body


def test_an_array_a_way_computes_runs_in_its_branch(caplog):
    dynamo.reset()
    body = _loop_lines(body_sources(caplog, quasi_newton, np.linspace(-1.0, 1.0, 8), 12))
    at = next(k for k, ln in enumerate(body) if ln.startswith("if "))
    # (the outer product, its quotient and the sum: only on trips that take the way)
    assert body[at + 1].startswith("h = _add(h, ") and "_divide(" in body[at + 1], body
    assert not any("_divide(" in ln for ln in body[:at]), body


@pytest.mark.parametrize("fn, make", [
    (reflect, lambda n: (np.linspace(-2, 2, n), -1.0, 1.0)),
    (reflect, lambda n: (np.linspace(-2, 2, n).astype(np.float32), -1.0, 1.0)),
    (running_min, lambda n: (np.cos(np.arange(float(n))) * np.arange(n),)),
    (count_above, lambda n: (np.sin(np.arange(float(n))), 0.2)),
    (quasi_newton, lambda n: (np.linspace(-1.0, 1.0, 8), n)),
    (write_then_swap, lambda n: (np.arange(float(n)), -np.arange(float(n)))),
    (running_argmin, lambda n: (np.cos(np.arange(float(n)) * 0.7) * np.arange(n),)),
    (running_argmin, lambda n: (np.arange(float(n))[::-1].copy(),)),
])
@pytest.mark.parametrize("n", [1, 2, 3, 17])
def test_results_are_eager_bit_for_bit(fn, make, n):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend="numpy")
    for _ in range(2):
        want_args, got_args = make(n), make(n)
        want = fn(*want_args)
        got = compiled(*got_args)
        assert _same(got, want), (fn.__name__, n, got, want)
        for g, w in zip(got_args, want_args):   # (the arrays written in place)
            assert _same(g, w), (fn.__name__, n)


@pytest.mark.parametrize("n", [2, 3, 17])
def test_writes_into_an_input_in_place(caplog, n):
    dynamo.reset()
    y = np.arange(float(n))
    if n > 3:   # (a loop node: shorter loops are unrolled)
        src = body_sources(caplog, write_input, np.linspace(0.0, 1.0, n), y)
        assert "setitem" not in "\n".join(_loop_lines(src)), src
    x, xc = np.linspace(0.0, 1.0, n), np.linspace(0.0, 1.0, n)
    want = write_input(x, y)
    got = dynamo.compile(write_input, backend="numpy")(xc, y)
    assert _same(got, want) and _same(xc, x)



def divide_when_nonzero(x, w):
    """A way's array that warns where it is not taken (a division by zero)."""
    total = w.copy()
    for i in range(len(x)):
        if x[i] != 0.0:
            total = total / x[i]
    return total


@pytest.mark.parametrize("xs", [[0.0] * 12, [0.5, 0.0, 4.0, -1.0, 0.0, 2.0] * 2])
def test_a_way_s_array_runs_and_warns_only_where_taken(caplog, xs):
    dynamo.reset()
    x, w = np.array(xs), np.linspace(0.5, 2.0, 4)
    body = _loop_lines(body_sources(caplog, divide_when_nonzero, x, w))
    assert body == ["getitem = x[(trip)]", "if (getitem != 0.0):",
                    "total = _divide(total, getitem)"], body
    dynamo.reset()
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = divide_when_nonzero(x, w)
    compiled = dynamo.compile(divide_when_nonzero, backend="numpy")
    for _ in range(2):
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = compiled(x, w)
        assert _same(got, want) and [str(a.message) for a in got_w] == \
            [str(a.message) for a in want_w] == []


def sqrt_when_positive(x, w):
    """A way of several array ops, each writing into the last one's dead buffer."""
    total = np.zeros_like(w)
    for i in range(len(x)):
        if x[i] > 0:
            total = total + np.sqrt(w * x[i] - 1.0)
    return total


@pytest.mark.parametrize("xs", [[-1.0] * 12, [0.5, -2.0, 4.0, -1.0, 0.01, 3.0] * 2])
def test_a_way_s_buffer_chain_moves_whole(caplog, xs):
    dynamo.reset()
    x, w = np.array(xs), np.linspace(0.5, 2.0, 4)
    body = _loop_lines(body_sources(caplog, sqrt_when_positive, x, w))
    at = next(k for k, ln in enumerate(body) if ln.startswith("if "))
    assert body[at + 1:] == [
        "multiply = _multiply(w, getitem)",
        "subtract = _subtract(multiply, _float64_1_0, multiply)",
        "sqrt = _sqrt(subtract, subtract)", "total = _add(total, sqrt, sqrt)",
        "del multiply, subtract, sqrt"], body
    dynamo.reset()
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = sqrt_when_positive(x, w)
    compiled = dynamo.compile(sqrt_when_positive, backend="numpy")
    for _ in range(2):
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = compiled(x, w)
        assert _same(got, want) and [str(a.message) for a in got_w] == \
            [str(a.message) for a in want_w]
