"""A NumPy scalar type called on a changing Python number (issue #16):
``np.float32(self.n) * x`` used to pin ``self.n`` and recompile on every call; the cast
is now a node on the graph input's value (``variables/number_casts.py``), with eager's
type, rounding and ``OverflowError``. Each program runs against eager with its state
compared after every call (``check_stateful_program``), on both CPU backends.

Example::

    class Counter:
        def scale(self, x):
            self.n += 1
            return np.float32(self.n) * x     # at most one recompile over 8 calls
"""

import numpy as np
import pytest
from rw_check import BACKENDS
from stateful_programs import NUMBER, registrar
from test_stateful_programs import _measured, check_stateful_program

X = np.random.default_rng(91).standard_normal(5)
X32 = X.astype(np.float32)
PROGRAMS: list = []


program = registrar(PROGRAMS, why=NUMBER)


class Counter:
    def __init__(self, n=0, t=0.5):
        self.n, self.t = n, t

    def float32_scale(self, x):
        self.n += 1
        return np.float32(self.n) * x

    def float64_of_float(self, x):
        self.t *= 0.9
        return np.float64(self.t) * x, np.float32(self.t)

    def int_types(self, x):
        self.n += 3
        return np.int32(self.n) * x, np.int64(2 * self.n - 1), np.uint16(self.n)

    def builtin_float(self, x):
        self.n += 1
        return float(self.n) * x, np.complex64(self.n) + x

    def int8_overflow(self, x):
        self.n += 1
        return np.int8(self.n) * x


def _calls(f, owner, n, x):
    """``n`` calls, each result (or the error eager raised) with the state after it."""
    out = []
    for _ in range(n):
        try:
            got = f(x)
        except OverflowError as e:
            got = f"OverflowError: {e}"
        out.append((got, owner.n, owner.t))
    return out


@program(recompiles=1)
def float32_of_int_counter(wrap):
    c = Counter()
    return _calls(wrap(c.float32_scale), c, 8, X32)


@program(recompiles=1)
def float64_of_float_attribute(wrap):
    c = Counter()
    return _calls(wrap(c.float64_of_float), c, 8, X32)


@program(recompiles=1)
def int_types_of_int_counter(wrap):
    c = Counter()
    return _calls(wrap(c.int_types), c, 8, X32)


@program(recompiles=1)
def builtin_float_and_complex_of_counter(wrap):
    c = Counter()
    return _calls(wrap(c.builtin_float), c, 8, X32)


@program(recompiles=4)
def int8_of_counter_past_its_range(wrap):
    # 124..131: np.int8 raises OverflowError from 128 on, as eagerly (NumPy 2); the
    # range guard (self.n <= 127) fails there, and each raising value is its own entry
    c = Counter(n=123)
    return _calls(wrap(c.int8_overflow), c, 8, X)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_number_cast(prog, backend):
    check_stateful_program(prog, backend)


IN_RANGE = [p for p in PROGRAMS if p.name != "int8_of_counter_past_its_range"]


@pytest.mark.parametrize("prog", IN_RANGE, ids=[p.name for p in IN_RANGE])
def test_cast_is_compiled_whole(prog):
    """One graph per entry, no break and no frame run eagerly: a cast that the graph
    could not hold (or an op taken to warn of its own) would pass the recompile count
    by running uncompiled."""
    _, report = _measured(prog, "eager")
    assert report.graph_break_count == 0, [b.reason for r in report.records for b in r.breaks]
    assert not report.skipped, report.skipped
    assert report.graph_count == report.compile_count


def test_float32_of_large_int_rounds_as_eagerly():
    """2**24 + 1 is not a float32: the graph casts the very int, as NumPy does."""
    import dynamo

    def scaled(x, k):
        return np.float32(k) * x, np.float32(k)

    f = dynamo.compile(scaled, backend="eager")
    for k in (3, 4, 2 ** 24 + 1, 2 ** 24 + 3):
        got, want = f(X32, k), scaled(X32, k)
        assert type(got[1]) is type(want[1]) and got[1] == want[1]
        np.testing.assert_array_equal(got[0], want[0])
        assert got[0].dtype == want[0].dtype
