"""Values read once, by the next statement, are written into it (``inline.py``).

The generated code must keep eager's order of ops (warnings, ``seterrcall`` calls,
which exception comes first), its lines (the location comments) and its results;
only the names of single-use intermediates go. Each program is compared with plain
NumPy by ``agree`` (results bit for bit, every floating-point report, exceptions).
"""

import io
import logging

import numpy as np
import pytest
from script_modules import load_script
from test_numpy_never_wrong import PATHS, agree, source

import dynamo

# (the loops of scripts/bench_loops.py, which measures them)
_bench = load_script("bench_loops")
prefix_sum, recursion = _bench.prefix_sum, _bench.recursion


def generated(fn, *args) -> str:
    """The source the numpy backend generates for ``fn`` (loop bodies included)."""
    log = logging.getLogger("dynamo.backend")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    old = log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        dynamo.compile(fn, backend="numpy")(*args)
    finally:
        log.removeHandler(handler)
        log.setLevel(old)
    return stream.getvalue()


def test_a_scalar_loop_body_names_no_intermediate():
    x = np.arange(2000.0)
    code = generated(prefix_sum, x.copy())
    assert "x[trip] = ((x[trip]) + (x[(trip - 1)]))" in code.replace("[(trip)]", "[trip]"), \
        code
    body = source(lambda x: x[3] + x[2] * x[1], x)
    assert "getitem" not in body and "multiply" not in body, body


def test_loops_of_numpy_scalars_agree():
    rng = np.random.default_rng(0)
    agree(prefix_sum, rng.random(500))
    agree(recursion, rng.random(300) * 0.1)
    agree(recursion, np.zeros(50))                 # 0 / 0 in every trip: warnings per trip


# ops whose reports (warnings, errcall) would come in another order if the
# generated code evaluated them in another order; in loop bodies, whose code runs
# unguarded where its ops are eager's calls in eager's order (straight-line graphs
# run again op by op on any report)
def sqrt_minus_log(u, v):
    # one line (so one location): log (divide by zero) runs before sqrt (invalid), and
    # the subtraction reads them in the other order: neither may be inlined
    a = np.log(u); b = np.sqrt(v); return b - a  # noqa: E702


def reversed_reads(x):
    out = np.zeros(len(x))
    for i in range(1, len(x)):
        out[i] = sqrt_minus_log(x[i], x[i - 1])   # (an inlined call: a, b die in it)
    return out


def nested_reads(x):
    out = np.zeros(len(x))
    for i in range(1, len(x)):
        out[i] = np.sqrt(x[i - 1]) - np.log(x[i])
    return out


def interleaved_write(x):
    t = 0.0
    for i in range(1, len(x)):
        a = x[i] * 2.0
        x[i] = 7.0              # a is read after the write: it keeps its name
        t = t + a / x[i - 1]
    return t


def read_twice(x):
    t = 0.0
    for i in range(len(x)):
        a = np.log(x[i])
        t = t + a * a + a
    return t


def log_plus_sqrt(u, v):
    a = np.log(u)
    b = np.sqrt(v)
    c = a + b
    return c * 2.0


def across_lines(x):
    t = 0.0
    for i in range(1, len(x)):
        t = t + log_plus_sqrt(x[i], x[i - 1])
    return t


def arrays_with_temporaries(x, y):
    t = x * y
    u = t + 1.0
    return np.exp(u) / (x - y)


def raises_after_a_warning(x, idx):
    t = 0.0
    for i in range(len(x)):
        a = np.log(x[i])
        t = t + a + x[idx + i]      # IndexError after the divide-by-zero warning
    return t


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("fn", [reversed_reads, nested_reads, interleaved_write, read_twice,
                                across_lines])
def test_reports_come_in_eager_order(fn, path):
    # (long enough to be a loop node: config.loop_unroll_limit)
    for values in ([0.0, -1.0, 0.0, 2.0, -3.0], [1.0, 4.0, 2.0], [np.nan, -np.inf, 0.0]):
        x = np.resize(np.array(values), 24)
        agree(fn, x, options=PATHS[path])
        agree(fn, x, options=PATHS[path], errstate={"all": "raise"})
        agree(fn, x, options=PATHS[path], errstate={"all": "call"})


@pytest.mark.parametrize("path", list(PATHS))
def test_array_temporaries_agree(path):
    rng = np.random.default_rng(1)
    for n in (3, 40_000):
        x, y = rng.random(n), rng.random(n)
        y[0] = x[0]                                   # a division by zero
        agree(arrays_with_temporaries, x, y, options=PATHS[path])


def test_an_exception_after_a_warning_is_eager_s():
    x = np.resize(np.array([2.0, 0.0, 1.0, 3.0]), 24)
    agree(raises_after_a_warning, x, 1)
    agree(raises_after_a_warning, x, 0)


def test_a_value_read_out_of_order_keeps_its_name():
    code = generated(reversed_reads, np.resize(np.array([1.0, 4.0, 2.0]), 24))
    assert "log = " in code and "sqrt = " in code, code


def test_a_warning_names_the_line_of_its_op():
    compiled = dynamo.compile(across_lines, backend="numpy")
    with pytest.warns(RuntimeWarning) as caught:
        compiled(np.resize(np.array([-1.0, 0.0]), 24))
    lines = {w.lineno for w in caught}
    first = log_plus_sqrt.__code__.co_firstlineno
    assert lines == {first + 1, first + 2}, lines


def test_long_lines_stay_within_the_parsers_nesting_limit():
    # a sum of 400 terms on one line, and 150 nested calls: written into one another
    # they would nest parentheses past CPython's 200 (inline.MAX_DEPTH)
    scope = {"np": np}
    exec("def long_sum(x):\n    return " +
         " + ".join(f"x[{i % 5}] * {i}.0" for i in range(400)) + "\n", scope)
    exec("def nested(x):\n    return " + "np.tanh(" * 150 + "x" + ")" * 150 + "\n", scope)
    x = np.arange(5.0)
    agree(scope["long_sum"], x)
    agree(scope["nested"], x)
