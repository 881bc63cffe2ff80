"""``np.zeros_like``-like calls are filled in a dead operand's buffer (``like_fill.py``),
as ufuncs write with ``out=``, and every result still
equals eager's (values, dtype, shape, strides, warnings, exceptions), call after call,
with the caller's earlier results left alone. ``np.where`` keeps allocating (its
masked copy into a buffer is slower than ``np.where``: like_fill.py).

Before, each allocated a fresh array on every call (issue #15). Into a buffer kept
across calls they do not go (slower: like_fill.py).
"""

import warnings

import numpy as np
import pytest
from test_numpy_backend_out_calls import assert_same, compiled_source

import dynamo

N = 200_000          # 1.6 MB of float64: over scratch.MIN_BYTES


def zero_halo(v):
    lap = np.zeros_like(v)
    lap[1:-1] = v[2:] - 2 * v[1:-1] + v[:-2]
    return v + 0.1 * lap


def likes(x, f):
    a = np.ones_like(x, dtype=np.complex64)
    b = np.full_like(x, f)                       # f: a row, broadcast into the result
    c = np.empty_like(x)
    c[...] = 2.0
    return a * b + c


def like_of_dead(x):
    t = x * 2.0
    z = np.full_like(t, -1)                      # t dies here: filled in its buffer
    z[::3] = x[::3]
    return z


def fill_like_other(x, y):
    v = y * 2.0                                  # dead at full_like: lends its buffer
    return np.full_like(x, v)                    # laid out as x (F-ordered x: F order)


def int_fill(k, v=100):
    z = np.full_like(k + 1, v)       # into the dead int8 k + 1: 300 raises OverflowError
    z[1:] = k[:-1]
    return z + 1


def selects(x, y):
    d = x - y
    return np.where(d > 0, x, d) * 2.0


def rng_data(seed, n=N):
    rng = np.random.default_rng(seed)
    x, y = rng.random(n), rng.random(n)
    x[::97] = np.nan
    return x, y


def test_likes_of_live_values_allocate_as_eager():
    # no dead operand to fill: NumPy's own call (a kept buffer was slower: like_fill.py)
    x = rng_data(3)[0].reshape(400, 500)
    for fn, args in ((zero_halo, (x,)), (likes, (x, x[0]))):
        src = compiled_source(fn, *args)
        assert "_copyto(" not in src and "_like = _scratch" not in src, src


def test_a_like_fills_the_dead_value_it_copies_the_shape_of():
    src = compiled_source(like_of_dead, rng_data(4)[0])
    assert "full_like = multiply\n" in src, src
    assert '_copyto(full_like, -1, casting="unsafe")' in src, src


def test_np_where_keeps_allocating():
    src = compiled_source(selects, *rng_data(5))
    assert "_where(" in src and "_copyto(" not in src, src


def _cases():
    x, y = rng_data(6)
    X = x.reshape(400, 500)
    k = (np.arange(8 * N) % 100).astype(np.int8)      # 1.6 MB of int8
    return [
        (zero_halo, (x,)),
        (zero_halo, (X,)),
        (zero_halo, (np.asfortranarray(X),)),
        (zero_halo, (X[:, ::2],)),
        (zero_halo, (x[:0],)),
        (likes, (X, X[0])),
        (likes, (np.asfortranarray(X), X[0])),
        (likes, (X[::2, ::2], X[0, ::2])),
        (like_of_dead, (x,)),
        (like_of_dead, (X,)),
        (int_fill, (k,)),
        (fill_like_other, (X, X * 3)),
        (fill_like_other, (np.asfortranarray(X), X * 3)),
        (fill_like_other, (np.asfortranarray(X), np.asfortranarray(X * 3))),
        (selects, (x, y)),
    ]


@pytest.mark.parametrize("case", range(len(_cases())))
def test_results_equal_eager_call_after_call(case):
    fn, args = _cases()[case]
    compiled = dynamo.compile(fn, backend="numpy")
    kept = []
    for scale in (1, 2, 1):
        now = tuple(a * scale if a.dtype.kind == "f" else a for a in args)
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = fn(*now)
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = compiled(*now)
        assert_same(got, want)
        assert [(w.category, str(w.message)) for w in got_w] == \
            [(w.category, str(w.message)) for w in want_w]
        kept.append((got, want))
    for got, want in kept:        # nothing the caller held was written again
        assert_same(got, want)


def test_a_fill_that_does_not_broadcast_raises_as_eager():
    def bad(x, f):
        return np.full_like(x, f) + 1.0
    x = rng_data(7)[0]
    with pytest.raises(ValueError) as want:
        bad(x, x[:10])
    with pytest.raises(ValueError) as got:
        dynamo.compile(bad, backend="numpy")(x, x[:10])
    assert str(got.value) == str(want.value)


def test_a_fill_out_of_the_dtype_range_raises_as_eager():
    k = (np.arange(8 * N) % 100).astype(np.int8)
    assert "_copyto(full_like, " in compiled_source(int_fill, k, 100)
    with pytest.raises(OverflowError) as want:
        int_fill(k, 300)
    with pytest.raises(OverflowError) as got:
        dynamo.compile(int_fill, backend="numpy")(k, 300)
    assert str(got.value) == str(want.value)
