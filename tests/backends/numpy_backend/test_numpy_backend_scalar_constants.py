"""Python float constants with NumPy scalar operands, written as scalars of their
dtype (``typed_constants.py``, task p62/w2, issue #15): a loop node's trip
``y[i] = 0.1 * x[i] + 0.9 * y[i - 1]`` multiplies two float64 scalars rather than
converting ``0.1`` again on every trip. The results are plain Python's bit for bit,
with its types and warnings, on NaN, inf, -0.0, float16/32/64 and int inputs.
"""

import logging
import warnings

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome
from script_modules import load_script

import dynamo

bench = load_script("bench_small_loop_nodes")


def _loop_source(caplog, fn, *args) -> str:
    dynamo.reset()
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dynamo.compile(fn, backend="numpy")(*args)
    bodies = [r.getMessage() for r in caplog.records if "_taking(" in r.getMessage()]
    assert bodies, "no loop node"
    return "\n".join(b[b.index("for trip in"):] for b in bodies)


def test_an_ema_trip_multiplies_float64_scalars(caplog):
    x, y, a = bench.PROGRAMS[12][2]()
    src = _loop_source(caplog, bench.ema, x, y, a)
    assert "(_float64_0_1 * (x[(trip)]))" in src, src
    assert "(_float64_0_9 * (y[(trip - 1)]))" in src, src
    assert "(0.1 *" not in src and "(0.9 *" not in src, src


def test_float32_scalars_get_float32_constants(caplog):
    x = np.random.default_rng(0).random(64).astype(np.float32)
    src = _loop_source(caplog, bench.ema, x, np.zeros_like(x), 0.25)
    assert "_float32_0_25 *" in src and "_float32_0_75 *" in src, src


def test_integer_scalars_keep_python_floats(caplog):
    x = np.arange(64)
    src = _loop_source(caplog, bench.ema, x, np.zeros(64), 0.25)
    assert "(0.25 * (x[(trip)]))" in src, src   # (int64 * 0.25 is a float64 multiply)


# ------------------------------------------------------------------ results, bit for bit
def ema(x, y, a):
    for i in range(1, x.shape[0]):
        y[i] = a * x[i] + (1.0 - a) * y[i - 1]
    return y


def shifted(x, y):
    """Every operator with a constant on either side, a division by zero and an
    overflow among them (``1e300 * x[i]`` overflows float32 too: the constant stays
    a Python float there, as typed_scalar decides)."""
    for i in range(1, x.shape[0]):
        y[i] = (x[i] - 0.5) / 0.25 + 2.0 * y[i - 1] - 3.0 / x[i] + (1.5 - x[i]) * 1e300
    return y


def decayed_sum(x):
    """A carried Python float that becomes the elements' scalar type after one trip."""
    s = 0.0
    for i in range(x.shape[0]):
        s = s * 0.9 + x[i] / 4.0
    return s


def _inputs(dtype, n=40, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-50, 50, n).astype(dtype)
    x = (rng.standard_normal(n) * 1e3).astype(dtype)
    x[[3, 9, 17, 30]] = [np.nan, np.inf, -0.0, -np.inf]
    x[21] = 0.0
    return x


def _bits(value):
    """The bytes of every array and NumPy scalar in ``value`` (-0.0 and NaN payloads
    apart), with its types."""
    if isinstance(value, (tuple, list)):
        return [_bits(v) for v in value]
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype, np.asarray(value).tobytes()
    return repr(value)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64,
                                   np.int32])
@pytest.mark.parametrize("fn", [ema, shifted, decayed_sum], ids=lambda f: f.__name__)
def test_results_match_plain_bit_for_bit(fn, dtype):
    x = _inputs(dtype)
    args = (x,) if fn is decayed_sum else \
        (x, np.zeros(x.shape, np.float64 if x.dtype.kind in "iu" else x.dtype))
    if fn is ema:
        args += (0.3,)
    want = outcome(fn, tuple(np.copy(a) if isinstance(a, np.ndarray) else a
                             for a in args))
    dynamo.reset()
    compiled = dynamo.compile(fn, backend="numpy")
    for call in range(2):
        got = outcome(compiled, tuple(np.copy(a) if isinstance(a, np.ndarray) else a
                                      for a in args))
        same_outcome(want, got, f"{fn.__name__} {np.dtype(dtype)} call {call + 1}",
                     rtol=0.0)
        assert nested_types(got[0]) == nested_types(want[0])
        assert _bits(got[0]) == _bits(want[0])
        assert _bits(got[2]) == _bits(want[2])   # (the arguments after the call)
