"""The numpy backend's last op writes straight into the array of the ``setitem``
(``B[1:-1, 1:-1] = value``, flat.py) only where eager, meeting a floating-point
condition in that op, would warn and go on (``runtime.eager_goes_on``). Where the
program's way of showing a warning raises, eager stops at the op and ``B`` keeps its
old values: so must the compiled function. Each hostile setting below is one a
program can make: a replaced ``showwarning`` (also before the backend is imported),
``formatwarning``, ``_showwarnmsg``, a ``sys.stderr`` that raises, filters that make
the warning an error by its message alone, or that the C code cannot match without
running the program's code."""

import contextlib
import io
import os
import subprocess
import sys
import warnings

import numpy as np
from dynamo.backends.numpy_backend import runtime

import dynamo


class Shown(Exception):
    pass


def raise_shown(*args, **kwargs):
    raise Shown("the program's hook ran")


class Matcher:
    """A filter's message that is no regular expression: the C code calls its match."""

    def match(self, text):
        raise Shown(f"matched {text!r}")


def overflow_in_last_op(A, B):
    B[1:-1, 1:-1] = (A[1:-1, 1:-1] * 0.5 + A[:-2, 1:-1] * 0.25) * 4.0  # → B (not ASCII)
    return B


def overflowing():
    """188 x 188 windows (over flat.MIN_DIRECT_ELEMENTS): the value meets an overflow."""
    rng = np.random.default_rng(0)
    A, B = rng.uniform(-1, 1, (190, 190)), rng.uniform(-1, 1, (190, 190))
    A[20, 20] = A[21, 20] = 1e308
    return A, B


def outcomes(fn, A, B, calls=3):
    """(what each call raised or None, whether B kept its old values) per call."""
    out = []
    for _ in range(calls):
        target = B.copy()
        try:
            fn(A, target)
            raised = None
        except Exception as e:  # noqa: BLE001 (the outcome is compared)
            raised = (type(e).__name__, str(e))
        out.append((raised, np.array_equal(target, B)))
    return out


@contextlib.contextmanager
def _attr(owner, name, value):
    saved = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, saved)


def _closed():
    s = io.StringIO()
    s.close()
    return s


class RaisingBuffer(io.RawIOBase):
    def writable(self):
        return True

    def write(self, b):
        raise Shown("the program's buffer")


@contextlib.contextmanager
def _error_filter(**kw):
    with warnings.catch_warnings():
        warnings.filterwarnings("error", **kw)
        yield


@contextlib.contextmanager
def _first_filter(item):
    with _attr(warnings, "filters", [item, *warnings.filters]):
        yield


@contextlib.contextmanager
def _no_filter_and(setting):
    with _attr(warnings, "filters", []), setting:
        yield


SETTINGS = {
    "showwarning": lambda: _attr(warnings, "showwarning", raise_shown),
    "formatwarning": lambda: _attr(warnings, "formatwarning", raise_shown),
    "showwarnmsg": lambda: _attr(warnings, "_showwarnmsg", raise_shown),
    "showwarnmsg_impl": lambda: _attr(warnings, "_showwarnmsg_impl", raise_shown),
    "stderr_closed": lambda: _attr(sys, "stderr", _closed()),
    "stderr_ascii_strict": lambda: _attr(sys, "stderr", io.TextIOWrapper(io.BytesIO(),
                                                                          "ascii")),
    "stderr_raising_buffer": lambda: _attr(sys, "stderr", io.TextIOWrapper(
        RaisingBuffer(), "utf-8", "backslashreplace", write_through=True)),
    "error_by_message": lambda: _error_filter(message="overflow"),
    "error_by_module": lambda: _error_filter(module=".*"),
    "message_matcher": lambda: _first_filter(("ignore", Matcher(), Warning, None, 0)),
    "default_action_error": lambda: _no_filter_and(_attr(warnings, "defaultaction", "error")),
}


def check(name: str | None) -> str:
    """Under the setting ``name`` (None: as they are): "same" where the compiled
    function's calls end as eager's (what they raise, whether B kept its values), else
    what differs."""
    A, B = overflowing()
    compiled = dynamo.compile(overflow_in_last_op, backend="numpy")
    with SETTINGS[name]() if name is not None else contextlib.nullcontext():
        token = runtime.guard()
        try:
            goes_on = runtime.eager_goes_on()
        finally:
            runtime.unguard(token)
        plain = outcomes(overflow_in_last_op, A, B)
        got = outcomes(compiled, A, B)
    if plain[0][0] is None:
        return f"eager did not raise: {plain}"
    if goes_on:
        return "eager_goes_on() said yes"
    return "same" if got == plain else f"plain {plain} != compiled {got}"


SCRIPT = """
import sys, warnings
stock = warnings.showwarning
warnings.showwarning = lambda *args: 1 / 0     # replaced before the backend's import
warnings.simplefilter("always")   # shown at every call, so each call raises
assert "dynamo.backends.numpy_backend.runtime" not in sys.modules
sys.path.insert(0, HERE)
import test_direct_write as t
print("before import", t.check(None), sep=": ")
warnings.showwarning = stock
token = t.runtime.guard()
print("stock", "same" if t.runtime.eager_goes_on() else "no direct write", sep=": ")
t.runtime.unguard(token)      # (stderr: a pipe, the process's own)
for name in t.SETTINGS:
    print(name, t.check(name), sep=": ")
"""


def test_where_showing_a_warning_raises_the_target_keeps_its_values():
    """In a process of its own: pytest records warnings (``catch_warnings(record=True)``,
    which shows none, so none of these settings would raise under it), and
    ``showwarning`` is replaced there before the backend is imported (the check
    compares with the warnings module's own original, not with what it was then)."""
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run([sys.executable, "-c", SCRIPT.replace("HERE", repr(here))],
                          capture_output=True, text=True, timeout=300,
                          cwd=os.path.dirname(os.path.dirname(here)))
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == \
        ["before import", "stock", *SETTINGS], lines
    assert all(line.endswith(": same") for line in lines), "\n".join(lines)


def test_the_stock_settings_still_write_straight_into_the_target():
    """Not a check that can never say yes: NumPy's defaults, warnings recorded by
    ``catch_warnings(record=True)`` (as under pytest), a ``StringIO`` stderr."""
    token = runtime.guard()
    try:
        assert runtime.eager_goes_on()
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            assert runtime.eager_goes_on()
            with _attr(sys, "stderr", io.StringIO()):
                assert runtime.eager_goes_on()
    finally:
        runtime.unguard(token)
