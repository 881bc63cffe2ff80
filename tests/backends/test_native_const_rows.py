"""Tier 2 stores a constant sequence by a basic index (``backends/native/const_rows.py``):
``pop[0] = prey0, pred0`` of constants (kernel_programs.lotka_volterra, sir_euler),
each element cast as NumPy casts it into the target's dtype (float -> int truncation,
bool, float32 rounding, ``-0.0``, NaN, complex), broadcast over the store's shape,
into new arrays and into inputs; against eager (values, dtypes, the arguments
afterwards). What NumPy raises or warns about in the cast stays in tier 1, which
raises as eager. Before, every such store was refused ("a constant sequence ...").

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.const_rows import constant_element  # noqa: E402
from dynamo.backends.native.emitter import _Emitter  # noqa: E402
from dynamo.backends.native.lower import Unsupported  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from kernel_sources import LoweringRecorder  # noqa: E402
from test_native import check_native, compiled  # noqa: E402 (needs numba)

import dynamo  # noqa: E402


def _lowering(fn, *args):
    """(the lowering of ``fn``'s one graph: its source or the Unsupported it raised,
    the exception the eager call raised or None)."""
    recorder = LoweringRecorder()
    try:
        dynamo.compile(fn, backend=recorder)(*args)
        raised = None
    except Exception as e:  # noqa: BLE001
        raised = e
    assert len(recorder.got) == 1, recorder.got
    return recorder.got[0], raised


def test_lotka_volterra_row_of_constants_runs_in_tier2():
    def lotka(x):
        pop = np.zeros((50, 2))
        pop[0] = 10.0, 5.0
        for k in range(49):
            a, b = pop[k, 0], pop[k, 1]
            pop[k + 1, 0] = a + 0.01 * (1.1 * a - x[0] * a * b)
            pop[k + 1, 1] = b + 0.01 * (x[1] * a * b - 0.4 * b)
        return pop
    check_native(lotka, np.array([0.4, 0.1]))


def test_casts_as_numpy_casts_them():
    """float -> int16 truncates toward zero (10.7 -> 10, -5.9 -> -5), a bool is 1, a
    broadcast row fills two rows; the kernel's constants are NumPy's own cast."""
    def f(x):
        pop = np.zeros((3, 2), np.int16)
        pop[0] = 10.7, -5.9
        pop[1:] = (True, 3)
        return pop * x[0]
    check_native(f, np.array([1.5, 2.0]))
    source, _ = _lowering(f, np.array([1.5, 2.0]))
    assert "if i" in source   # picked by the index, not refused


def test_float32_rounding_underflow_negative_zero_nan_and_broadcast_columns():
    def f(x):
        a = np.ones((40, 3), np.float32)
        a[:, :] = (0.1, -0.0, 1e-300)       # one row, broadcast down 40
        b = np.zeros((2, 3))
        b[1] = [np.nan, -0.0, 2.5]          # (a NaN computed with would flag the call)
        return a * x[0], b
    x = np.array([1.0, 0.0])
    check_native(f, x)
    c, made = compiled(f)
    c(x)
    got, want = c(x), f(x)
    assert made[0].native_calls == 1
    for g, w in zip(got, want):   # (assert_array_equal takes -0.0 for 0.0)
        assert (np.signbit(g) == np.signbit(w)).all()
    source, _ = _lowering(f, x)
    assert "== 1" in source and "== 3" not in source   # the columns tested, not the rows


def test_complex_and_bool_targets():
    def f(x):
        z = np.zeros((2, 2), np.complex128)
        z[0] = 1, 2j
        m = np.zeros(3, np.bool_)
        m[:] = 0, 2.5, -1
        return z * x[0], m & (x[:3] > 0)
    check_native(f, np.array([2.0, 1.0, 3.0]))


def test_a_store_into_an_input_row():
    """The input's row is written (and backed up: saves.py) as eager writes it."""
    def f(x):
        x[1] = 2.0, 3.0
        return x * 2.0
    check_native(f, np.arange(8.0).reshape(4, 2))


@pytest.mark.parametrize("dtype, value, error", [
    ("int64", (float("nan"), 1.0), ValueError),   # cannot convert float NaN to integer
    ("int8", (300, 1), OverflowError),           # Python integer 300 out of bounds
    ("float32", (1e300, 1.0), RuntimeWarning),    # overflow encountered in cast
    ("float64", ("1", 2.0), None),                # not a number: refused before NumPy
])
def test_what_numpy_refuses_to_cast_is_unsupported(dtype, value, error):
    """The cast is NumPy's own, warnings as errors: what it raises or warns about is
    Unsupported (the graph stays in tier 1; the tracer breaks the graph at such a store
    anyway: its constant store raises while traced)."""
    if error is not None:
        with pytest.raises(error), warnings.catch_warnings():
            warnings.simplefilter("error")
            np.zeros(2, dtype)[:] = value
    with pytest.raises(Unsupported, match="constant sequence"):
        constant_element(value, (2,), np.dtype(dtype), _Emitter(1 << 14), ["i0"])

    def f(x):
        a = np.zeros(2, dtype)
        a[:] = value
        return a + x
    if error is not None and error is not RuntimeWarning:
        c, _ = compiled(f)
        for _ in range(2):
            with pytest.raises(error):
                c(np.zeros(2, dtype))


def test_too_many_elements_to_pick_from_stay_in_tier1():
    def f(x):
        a = np.zeros(17)
        a[:] = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0,
                14.0, 15.0, 16.0)
        return a * x[0]
    source, _ = _lowering(f, np.ones(2))
    assert "17 elements to pick from" in str(source)
    made = check_native(f, np.ones(2), native=False)
    assert made and not any(isinstance(m, Tiered) for m in made)
