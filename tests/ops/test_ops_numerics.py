"""polyval, polyfit, convolve, correlate and interp agree with NumPy over shapes (0-d
and 0-size included), dtypes, constant and traced operands and modes; compiled programs
equal eager ones; polyfit(full=True) breaks and says why."""

import numpy as np
import pytest
from harness import check, rand
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import DTYPES, agree, arrays

NUM = [d for d in DTYPES if d.kind != "b"]
REAL = [d for d in NUM if d.kind != "c"]


@given(p=st.one_of(arrays(NUM, max_dims=2, max_side=3), st.lists(st.sampled_from([1, -0.5, 2]),
                                                                   max_size=3)),
       x=st.one_of(arrays(NUM, max_dims=3, max_side=3), st.sampled_from([2.0, 3, 1j])))
@settings(max_examples=150, deadline=None)
def test_polyval(p, x):
    agree(np.polyval, p, x)


@given(n=st.integers(0, 5), k=st.sampled_from([None, 0, 1, 2]), deg=st.integers(-1, 3),
       dtype=st.sampled_from([np.dtype(t) for t in ("f8", "f4", "i4", "c16")]),
       weighted=st.booleans())
@settings(max_examples=100, deadline=None)
def test_polyfit(n, k, deg, dtype, weighted):
    x = np.linspace(0, 1, n).astype(dtype)
    y = np.ones((n,) if k is None else (n, k), dtype)
    w = np.ones(n) if weighted else None
    agree(np.polyfit, x, y, deg, w=w)
    assert agree(np.polyfit, x, y, max(deg, 0), full=True, may_break=True) in ("break",
                                                                               "raised")


@given(a=arrays(NUM, max_dims=2, max_side=4),
       v=st.one_of(arrays(NUM, max_dims=2, max_side=4), st.lists(st.integers(-2, 2), max_size=3)),
       mode=st.sampled_from(["full", "same", "valid", "v", "Same", 0, 1, 2, "bogus", 3]))
@settings(max_examples=150, deadline=None)
def test_convolve_correlate(a, v, mode):
    agree(np.convolve, a, v, mode=mode)
    agree(np.correlate, a, v, mode=mode)
    agree(np.convolve, a, v)
    agree(np.correlate, v, a)


@given(x=st.one_of(arrays(REAL, max_dims=3, max_side=3), st.sampled_from([2.5, 0])),
       xp=arrays(REAL, max_dims=2, max_side=4).map(lambda a: np.sort(a, None).reshape(a.shape)),
       fp=arrays(NUM, max_dims=2, max_side=4),
       extra=st.sampled_from([{}, {"left": 0.0, "right": 1.0}, {"period": 2.0},
                              {"left": np.float32(1)}, {"period": 0}]))
@settings(max_examples=150, deadline=None)
def test_interp(x, xp, fp, extra):
    agree(np.interp, x, xp, fp, **extra)
    agree(np.interp, x, xp, fp[:xp.size] if fp.ndim == 1 else fp, **extra)


# --------------------------------------------------------------------------- compiled

X = np.linspace(-1, 1, 12)
Y = 0.5 * X ** 3 - X + 0.1


def fit_eval(x, y, degree=3):
    coeffs = np.polyfit(x, y, degree)
    return coeffs, np.polyval(coeffs, x), np.polyval([1.0, -2.0, 0.5], x)


def smooth(x, k=(0.25, 0.5, 0.25)):
    k = np.asarray(k)
    return (np.convolve(x, k, mode="same"), np.convolve(x, k), np.correlate(x, k),
            np.correlate(x, x, "full"), np.interp(x * 0.5, x, x ** 2),
            np.interp(0.3, x, x, left=0.0, right=1.0))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_compiled_equals_eager(backend):
    check(fit_eval, X, Y, graphs=1, breaks=0, backend=backend)
    check(smooth, X, graphs=1, breaks=0, backend=backend)
    check(smooth, rand(7, dtype=np.float32), graphs=1, breaks=0, backend=backend)
