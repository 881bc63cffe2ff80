"""An elementwise op writes into the dead result of a one-axis FFT (``reuse.fresh_transform``),
as NumPy itself reuses the temporary of ``np.fft.rfft(x, n) * H``, and every result
still equals eager's (values, dtype, shape, strides), with the arguments unchanged.

Corpus 8's FFT convolution and overlap-add allocated a new complex array for the
product where plain NumPy wrote it into the transform's temporary::

    rfft = _rfft(X, 2048, axis=1)
    multiply = _multiply(rfft, (_rfft(k, 2048)), rfft)     # before: a fresh array
"""

import re

import numpy as np
import pytest
from harness import rand
from test_numpy_backend import compiled_graph
from test_numpy_backend_inplace import differential


def convolve_rows(X, k):
    n = X.shape[1] + k.shape[0] - 1
    Y = np.fft.irfft(np.fft.rfft(X, 256, axis=1) * np.fft.rfft(k, 256), 256, axis=1)
    return Y[:, :n]


def convolve_columns(X, k):
    # along axis 0: the transform's result is C-ordered as its input (NumPy 2, K order)
    F = np.fft.rfft(X, 128, axis=0) * np.fft.rfft(k, 128)[:, None]
    return np.fft.irfft(F, 128, axis=0)


def overlap_add(x, h):
    H = np.fft.rfft(h, 128)
    y = np.zeros(x.shape[0] + h.shape[0] - 1)
    for start in range(0, x.shape[0], 64):
        yb = np.fft.irfft(np.fft.rfft(x[start:start + 64], 128) * H, 128)
        end = min(start + 128, y.shape[0])
        y[start:end] += yb[:end - start]
    return y


def windowed_power(x, w):
    # a full complex FFT, then a real inverse scaled: both results written into
    return np.abs(np.fft.fft(x * w)) ** 2, np.fft.ifft(np.fft.fft(x) * 0.5).real * 2.0


def promoted(x32, h):
    # complex64 transform times complex128: a complex128 result, written into the
    # complex128 transform only
    return np.fft.irfft(np.fft.rfft(x32, 64) * np.fft.rfft(h, 64), 64)


def kept(x, h):
    # the transform is returned too: the product may not write into it
    R = np.fft.rfft(x, 64)
    return R * np.fft.rfft(h, 64), R


def donated(src: str) -> set[str]:
    """Names of transform results that a later op writes into (``out=`` by position
    or keyword)."""
    names = set()
    for line in src.splitlines():
        m = re.match(r"\s*\w+ = _\w+\((.*?),? (?:out=)?((?:i?r?fft|i?hfft)\w*)\)$", line)
        if m and m[2] in re.findall(r"\w+", m[1]):
            names.add(m[2])
    return names


X = rand(32, 200).astype(np.float64)
K = rand(31, seed=1).astype(np.float64)
CASES = [
    ("convolve_rows", convolve_rows, (X, K)),
    ("convolve_columns", convolve_columns, (rand(100, 24, seed=2).astype(np.float64), K)),
    ("overlap_add", overlap_add, (rand(640, seed=3).astype(np.float64), K)),
    ("windowed_power", windowed_power, (rand(512, seed=4).astype(np.float64),
                                        np.hanning(512))),
]


@pytest.mark.parametrize("name,fn,args", CASES, ids=[c[0] for c in CASES])
def test_an_op_writes_into_a_dead_transform(name, fn, args):
    src = compiled_graph(fn, *args).__dynamo_source__
    assert donated(src), src      # fails before the change: a fresh array per product
    differential(fn, *args, rtol=1e-12, atol=1e-12)
    if args[0].ndim == 2:         # other layouts: the variant without 2-D donors
        differential(fn, *args, rtol=1e-12, atol=1e-12, layouts=("F", "strided"))


def test_no_donor_of_another_dtype_or_a_returned_transform():
    x32, h = rand(50, seed=5), rand(9, seed=6).astype(np.float64)
    src = compiled_graph(promoted, x32, h).__dynamo_source__
    assert "rfft" not in donated(src), src       # x32's complex64 transform
    assert "rfft_1" in donated(src), src         # h's complex128 one, of the product's dtype
    differential(promoted, x32, h, rtol=1e-6, atol=1e-6)
    x = x32.astype(np.float64)
    src = compiled_graph(kept, x, h).__dynamo_source__
    assert "rfft" not in donated(src), src
    differential(kept, x, h, rtol=1e-12, atol=1e-12)
