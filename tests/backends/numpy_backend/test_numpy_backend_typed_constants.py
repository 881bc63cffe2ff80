"""Python float constants of arithmetic ufuncs as scalars of the array's dtype
(``typed_constants.py``): the same results as eager, bit for bit, with the same
warnings, and the conversion left to NumPy wherever it could differ."""

import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend.typed_constants import typed_scalar
from test_numpy_backend import compiled_graph

import dynamo


def adam(g, m):
    m = 0.9 * m + 0.1 * g
    return m / 0.25 - np.maximum(m, 1e-3) + (2.5 - m)


def scaled(x, c):
    return x * c


def test_constants_are_bound_as_the_arrays_scalars():
    g = np.random.default_rng(0).standard_normal(4096).astype(np.float32)
    src = compiled_graph(adam, g, np.zeros(4096, np.float32)).__dynamo_source__
    # (m / 0.25 is m * 4.0: strength_reduce)
    for name in ("_float32_0_9", "_float32_0_1", "_float32_4_0", "_float32_0_001",
                 "_float32_2_5"):
        assert name in src, src
    assert "0.9," not in src and "(0.9" not in src


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.longdouble])
def test_results_equal_eager_bit_for_bit(dtype):
    rng = np.random.default_rng(1)
    g, m = (rng.standard_normal(1000) * 50).astype(dtype), rng.random(1000).astype(dtype)
    fn = dynamo.compile(adam, backend="numpy")
    for _ in range(3):
        np.testing.assert_array_equal(fn(g, m), adam(g, m), strict=True)


@pytest.mark.parametrize("dtype, value", [
    (np.float16, 1e5),        # overflows float16: NumPy's conversion warns
    (np.float32, 1e39),
    (np.float32, 1e-45),      # a subnormal float32
    (np.float16, 1e-8),       # underflows to 0
])
def test_constants_that_do_not_convert_cleanly_stay_python_floats(dtype, value):
    assert typed_scalar(value, np.dtype(dtype)) is None
    x = np.linspace(-2, 2, 300).astype(dtype)
    src = compiled_graph(lambda x: x * value, x).__dynamo_source__
    assert "_float" not in src.split("def ", 1)[1], src
    fn = dynamo.compile(lambda x: x * value, backend="numpy")
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = fn(x)
    with warnings.catch_warnings(record=True) as want:
        warnings.simplefilter("always")
        expected = x * value
    np.testing.assert_array_equal(out, expected, strict=True)
    assert [str(w.message) for w in got] == [str(w.message) for w in want]


def test_integer_and_scalar_operands_keep_python_floats():
    ints = np.arange(300, dtype=np.int32)
    assert "_float" not in compiled_graph(lambda x: x * 0.5, ints).__dynamo_source__
    np.testing.assert_array_equal(dynamo.compile(lambda x: x * 0.5, backend="numpy")(ints),
                                  ints * 0.5, strict=True)
