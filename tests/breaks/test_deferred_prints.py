"""``print(...)`` in traced code is replayed by the glue after the graph (issue #19,
``dynamo/translator/deferred_prints.py``, ``dynamo.config.defer_prints``): one graph, no break, and the same text on
the same stream as eagerly, in order with the program's other prints, its warnings
(a graph that would warn after a print raises under NumPy's floating-point guard and
the frame's original code runs instead), and its exceptions (printed once). Where
that cannot be exact (a write of an input after the print, a ``file=``, a ``try``
block, a ``sys.stdout`` whose ``write`` is Python code) the print is a break as
before, and the output is still eager's.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings

import numpy as np
import pytest
from harness import check

import dynamo

BACKENDS = ("eager", "numpy")


@pytest.fixture(autouse=True)
def defer_prints():
    """``dynamo.config.defer_prints`` on (off by default for now)."""
    dynamo.config.defer_prints = True
    try:
        yield
    finally:
        dynamo.config.defer_prints = False


def test_off_by_default_a_print_is_a_break():
    dynamo.config.defer_prints = False
    with contextlib.redirect_stdout(io.StringIO()):
        explained = dynamo.explain(report, backend="eager")(np.arange(3.0), 1)
    assert explained.graph_break_count == 3   # (its three prints)


def report(x, i):
    y = x * 2
    loss = np.mean(y)
    print(f"step {i}: loss {loss:.4f}")
    print("x", x.shape, [1, 2.5], None, y.dtype, sep="|", end="!\n")
    print()
    return y


def arrays(x):
    y = x + 1
    print(y, y.astype(np.float32)[0], y.sum() > 0, y.reshape(-1, 1))
    print(float(y.sum()), y.sum().item(), float(y.sum()) * 2, end="")
    y += 1                          # (a later write: the printed text is the snapshot's)
    return y


def between_effects(x, log):
    log.append("before")
    print("a", 1, 2.5, True, flush=True)
    log.append("after")
    z = x * 3
    print("z", z)
    return z


def helper(v):
    print("in helper", v.shape)
    return v * 2


def through_a_helper(x):
    return helper(x) + helper(x + 1)


def unrolled(x):
    for i in range(3):
        print("trip", i)
        x = x + i
    return x


CASES = [
    (report, (np.arange(3.0), 4)),
    (arrays, (np.arange(4.0).reshape(2, 2),)),
    (arrays, (np.array([1.5, np.nan], dtype=np.float32),)),
    (between_effects, (np.arange(3.0), [])),
    (through_a_helper, (np.ones((2, 2)),)),
    (unrolled, (np.zeros(2),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", CASES, ids=[f"{c[0].__name__}{i}" for i, c in
                                                 enumerate(CASES)])
def test_print_is_replayed(fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend)


def log_after_print(x):
    print("computing")
    return np.log(x)                # RuntimeWarning for 0: after the print, as eagerly


def inverse_after_print(a, log):
    log.append(1)
    print("inverting")
    return np.linalg.inv(a)         # LinAlgError for a singular matrix


def together(fn, *args, backend="eager"):
    """stdout and stderr in one stream (a terminal), and the result."""
    out = io.StringIO()

    def show(message, category, filename, lineno, file=None, line=None):
        out.write(warnings.formatwarning(message, category, filename, lineno, line))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), \
            warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show     # (pytest records warnings otherwise)
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001
            result = f"{type(e).__name__}: {e}"
    text = out.getvalue()
    if not isinstance(result, str):
        result = repr(result)
    return result, text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([1.0, 2.0]), np.array([0.0, 2.0])])
def test_warning_after_a_print_comes_after_it(x, backend):
    compiled = dynamo.compile(log_after_print, backend=backend)
    want = together(log_after_print, x.copy())
    assert want[1].startswith("computing\n") and ("RuntimeWarning" in want[1]) == (0 in x)
    for _ in range(3):
        assert together(compiled, x.copy()) == want
    check(log_after_print, x, graphs=1, breaks=0, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("a", [np.eye(2) * 2, np.zeros((2, 2))])
def test_a_graph_that_raises_after_a_print_prints_once(a, backend):
    compiled = dynamo.compile(inverse_after_print, backend=backend)
    for _ in range(3):
        want_log, got_log = [], []
        want = together(inverse_after_print, a.copy(), want_log)
        assert together(compiled, a.copy(), got_log) == want
        assert got_log == want_log
    check(inverse_after_print, a, [], graphs=1, breaks=0, backend=backend)


def write_after_print(x):
    print("writing")
    x += 1                          # an input written after the print: the print breaks
    return x


def write_before_print(x):
    x += 1
    print("written")
    return x * 2


def to_stderr(x):
    print("err", file=sys.stderr)
    return x + 1


def in_try(x):
    try:
        print("trying")
        return x + 1
    except ValueError:
        return x


@pytest.mark.parametrize("fn", [write_after_print, write_before_print, to_stderr, in_try])
def test_prints_that_stay_breaks(fn):
    report = check(fn, np.arange(3.0), breaks=None)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        report = dynamo.explain(fn, backend="eager")(np.arange(3.0))
    assert report.graph_break_count >= 1
    assert any("print" in b.reason for b in report.break_reasons)


class PythonStdout:
    """A stdout whose ``write`` is Python code (it could read the program's state)."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def flush(self):
        pass


def test_a_python_stdout_keeps_the_break():
    compiled = dynamo.compile(report, backend="eager")
    x = np.arange(3.0)
    with contextlib.redirect_stdout(io.StringIO()) as buf:
        compiled(x, 1)                      # deferred: guarded on the type of stdout
    want = PythonStdout()
    with contextlib.redirect_stdout(want):
        report(x, 1)
    got = PythonStdout()
    with contextlib.redirect_stdout(got):
        compiled(x, 1)
    assert got.parts == want.parts and buf.getvalue() == "".join(want.parts)
    with contextlib.redirect_stdout(PythonStdout()):
        explained = dynamo.explain(report, backend="eager")(x, 1)
    assert explained.graph_break_count >= 1


def print_then_append(x, out):
    print("step", x.sum(), "é")
    out.append(1)
    return x * 2


def _closed():
    buf = io.StringIO()
    buf.close()
    return buf


def _ascii():
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("make", [_closed, _ascii], ids=["closed", "ascii"])
def test_a_print_that_raises_comes_before_the_effects_after_it(make, backend):
    """A ``sys.stdout`` that is closed, or cannot encode a text, makes the print raise
    before ``out.append(1)`` plainly; replayed after the write-back it came after it
    (round 22, ``_writes_cleanly``: such a print is a break). The first call is on an
    open UTF stdout (deferred), the next ones on the other: the guard sees the change."""
    compiled = dynamo.compile(print_then_append, backend=backend)
    x = np.arange(3.0)
    with contextlib.redirect_stdout(io.StringIO()) as buf:
        compiled(x, [])
    assert buf.getvalue() == "step 3.0 é\n"
    for _ in range(2):
        seen = []
        for fn in (print_then_append, compiled):
            out = []
            with contextlib.redirect_stdout(make()):
                with pytest.raises((ValueError, UnicodeEncodeError)) as info:
                    fn(x, out)
            seen.append((type(info.value), out))
        assert seen[0] == seen[1] and seen[0][1] == []
