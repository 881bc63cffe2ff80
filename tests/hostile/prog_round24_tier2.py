"""Round 24, the native tier's new lowerings (``backends/native/outs.py``,
``gathers.py``): elementwise ops with ``out=`` stored in place (the out an input, a
view, overlapping an operand shifted or reversed, of another dtype, in a loop),
index-array gathers (negative indices, out of bounds -> NumPy's IndexError, an index
array aliasing the data or written before the gather, views and strided bases, 2-D
``P[rows, cols]``, ``W[idx, 3]``, uint and int8 index arrays), and 0-d copies. Each
program is compiled with ``backend="native"`` (tier 2 from the second call, as
tests/backends/test_native_outs.py forces it) or ``backend="auto"``; calls after the
second reach tier 2 with hostile values.

    >>> def _gather(x, idx):
    ...     return x[idx] * 2.0
"""

import numpy as np
from hostile_check import TIER2, Programs

reg = Programs("round24_tier2")
RNG = np.random.default_rng(24)
X = RNG.standard_normal(40)
X2 = RNG.standard_normal((8, 5))
I_OK = np.array([0, 3, 39, 7, 7])
I_NEG = np.array([-1, -40, 5, -7, 0])
I_HIGH = np.array([0, 40, 2, 1, 3])
I_LOW = np.array([0, -41, 2, 1, 3])


# ------------------------------------------------------------ gathers

def _gather(x, idx):
    return x[idx] * 2.0


def _gather_sum(x, idx):
    return x[idx].sum() + x[0]


def _gather_2d_rows(a, idx):
    return a[idx] + 1.0


def _gather_pairs(a, rows, cols):
    return a[rows, cols] - 0.5


def _gather_row_then_int(a, idx):
    return a[idx, 3] * a[idx, 0]


def _gather_then_write_source(x, idx):
    g = x[idx]
    x[:] = -1.0
    return g + x[:5]


def _gather_written_index(x, idx):
    idx[0] = idx[1]
    return x[idx] + 0.0


def _gather_index_from_data(x, idx):
    j = (np.abs(x[:5]) * 10).astype(np.int64)
    return x[j] + x[idx]


def _gather_strided_base(x, idx):
    return x[::2][idx] * 3.0


def _gather_int8_index(x, idx):
    return x[idx.astype(np.int8)] + 1.0


def _gather_uint_index(x, idx):
    return x[idx.astype(np.uint32)] + 1.0


def _gather_into_out(x, idx):
    out = np.empty(len(idx))
    np.multiply(x[idx], 2.0, out=out)
    return out


def _gather_of_int_data(x, idx):
    d = (x * 100).astype(np.int32)
    return d[idx] + np.int32(1)


def _cross_entropy(p, y):
    q = np.abs(p) + 0.1
    return -np.log(q[np.arange(len(y)), y]).mean()


def _gather_in_loop(x, idx):
    acc = np.zeros(len(idx))
    for k in range(3):
        acc = acc + x[idx] * k
    return acc


reg.tiers("gather", _gather, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_NEG.copy()), lambda: (X.copy(), I_HIGH.copy()),
      lambda: (X.copy(), I_LOW.copy()))
reg.tiers("gather_sum", _gather_sum, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_HIGH.copy()), lambda: (X.copy(), I_NEG.copy()))
reg.tiers("gather_2d_rows", _gather_2d_rows, lambda: (X2.copy(), np.array([0, 7, -8, 2])),
      lambda: (X2.copy(), np.array([0, 8, 1, 1])), lambda: (X2.copy(), np.array([-9, 0, 1, 1])))
reg.tiers("gather_pairs", _gather_pairs,
      lambda: (X2.copy(), np.array([0, 7, 3]), np.array([4, 0, -1])),
      lambda: (X2.copy(), np.array([0, 7, 3]), np.array([5, 0, 1])),
      lambda: (X2.copy(), np.array([0, 8, 3]), np.array([4, 0, 1])),
      lambda: (X2.copy(), np.array([-8, 0, 3]), np.array([-5, 0, 1])))
reg.tiers("gather_row_then_int", _gather_row_then_int, lambda: (X2.copy(), np.array([1, 2, -1])),
      lambda: (X2.copy(), np.array([1, 8, 0])))
reg.tiers("gather_then_write_source", _gather_then_write_source,
      lambda: (X.copy(), I_OK.copy()), lambda: (X.copy(), I_NEG.copy()),
      lambda: (X.copy(), I_HIGH.copy()))
reg.tiers("gather_written_index", _gather_written_index, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), np.array([0, 99, 1, 2, 3])), lambda: (X.copy(), np.array([99, 1, 1, 1, 1])))
reg.tiers("gather_index_from_data", _gather_index_from_data, lambda: (X.copy(), I_OK.copy()),
      lambda: (X * 10.0, I_OK.copy()), lambda: (X.copy(), I_HIGH.copy()))
reg.tiers("gather_strided_base", _gather_strided_base, lambda: (X.copy(), np.array([0, 19, -20])),
      lambda: (X.copy(), np.array([0, 20])), lambda: (X.copy(), np.array([-21, 0])))
reg.tiers("gather_int8_index", _gather_int8_index, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_NEG.copy()), lambda: (X.copy(), I_HIGH.copy()))
reg.tiers("gather_uint_index", _gather_uint_index, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_HIGH.copy()), lambda: (X.copy(), np.array([0, 1, 2, 3, 4])))
reg.tiers("gather_into_out", _gather_into_out, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_HIGH.copy()), lambda: (X.copy(), I_NEG.copy()))
reg.tiers("gather_of_int_data", _gather_of_int_data, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_LOW.copy()))
reg.tiers("cross_entropy", _cross_entropy, lambda: (X2.copy(), np.array([0, 1, 2, 3, 4, 0, 1, 2])),
      lambda: (X2.copy(), np.array([0, 1, 2, 3, 5, 0, 1, 2])),
      lambda: (X2.copy(), np.array([0, -1, 2, 3, -5, 0, 1, 2])))
reg.tiers("gather_in_loop", _gather_in_loop, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_HIGH.copy()))


# ------------------------------------------------------------ out= stores

def _out_is_input(x, y):
    np.add(x, y, out=x)
    np.multiply(x, 0.5, out=x)
    return x


def _out_shifted(x, y):
    np.add(x[1:], x[:-1], out=x[1:])
    return x


def _out_reversed(x, y):
    np.subtract(x, y, out=x[::-1])
    return x


def _out_other_input(x, y):
    np.multiply(x, x, out=y)
    return y.sum(), x[0]


def _out_aliased_inputs(x, y):
    np.add(x, y, out=y)
    return x, y


def _out_view_2d(a, b):
    np.add(a[1:, :], a[:-1, :], out=b[1:, :])
    b[0] *= 0.25
    return b


def _out_int8_wrap(x, y):
    a = (x * 50).astype(np.int8)
    np.add(a, a, out=a)
    return a


def _out_float32_from_float64(x, y):
    o = np.zeros(len(x), np.float32)
    np.add(x, y, out=o)
    return o


def _out_int_from_float(x, y):
    o = np.zeros(len(x), np.int64)
    try:
        np.add(x, y, out=o)
    except Exception as e:   # noqa: BLE001
        return type(e).__name__
    return o


def _out_then_read(x, y):
    t = x * 2.0
    np.add(t, y, out=t)
    return t, t.sum(), x


def _out_in_loop(u, v):
    for _ in range(4):
        u += 0.1 * (v - u)
        np.multiply(v, 0.9, out=v)
    return u, v


def _out_sqrt_negative(x, y):
    np.sqrt(x, out=x)
    return x


def _out_divide_zero(x, y):
    np.divide(x, y, out=x)
    return x


def _zero_d_copy(x, y):
    z = np.array(x.sum())
    w = z.copy()
    z += 1.0
    return w, z, x[3].copy()


def _out_returned_kept(x, y):
    np.add(x, y, out=x)
    return x[:4]


def _zeros_at(k):
    def make():
        y = np.random.default_rng(k).standard_normal(40)   # (the same in every run)
        y[k] = 0.0
        return X.copy(), y
    return make


reg.tiers("out_is_input", _out_is_input, lambda: (X.copy(), X[::-1].copy()),
      lambda: (np.full(40, np.inf), np.full(40, -np.inf)))
reg.tiers("out_shifted", _out_shifted, lambda: (X.copy(), X.copy()),
      lambda: (np.arange(40.0), X.copy()))
reg.tiers("out_reversed", _out_reversed, lambda: (X.copy(), X.copy()),
      lambda: (np.arange(40.0), np.ones(40)))
reg.tiers("out_other_input", _out_other_input, lambda: (X.copy(), np.zeros(40)),
      lambda: (lambda a: (a, a))(X.copy()))
reg.tiers("out_aliased_inputs", _out_aliased_inputs, lambda: (X.copy(), np.ones(40)),
      lambda: (lambda a: (a, a))(X.copy()), lambda: (lambda a: (a[:40], a[40:]))(np.arange(80.0)))
reg.tiers("out_view_2d", _out_view_2d, lambda: (X2.copy(), X2.copy() * 0),
      lambda: (lambda a: (a, a))(X2.copy()))
reg.tiers("out_int8_wrap", _out_int8_wrap, lambda: (X.copy(), X.copy()),
      lambda: (X * 3.0, X.copy()))
reg.tiers("out_float32_from_float64", _out_float32_from_float64, lambda: (X.copy(), X.copy()),
      lambda: (X * 1e300, X * 1e300))
reg.tiers("out_int_from_float", _out_int_from_float, lambda: (X.copy(), X.copy()))
reg.tiers("out_then_read", _out_then_read, lambda: (X.copy(), X.copy()),
      lambda: (np.full(40, np.nan), X.copy()))
reg.tiers("out_in_loop", _out_in_loop, lambda: (X.copy(), X[::-1].copy()),
      lambda: (lambda a: (a, a))(X.copy()))
reg.tiers("out_sqrt_negative", _out_sqrt_negative, lambda: (np.abs(X), X.copy()),
      lambda: (X.copy(), X.copy()))
reg.tiers("out_divide_zero", _out_divide_zero, lambda: (X.copy(), np.ones(40)), _zeros_at(3),
      _zeros_at(39))
reg.tiers("zero_d_copy", _zero_d_copy, lambda: (X.copy(), X.copy()),
      lambda: (np.full(40, np.nan), X.copy()))


def s_out_returned_kept_native(r):
    """A view of an input written in place, returned and kept: later calls must not
    write into it."""
    f = r.compile_on(_out_returned_kept, "native", options=TIER2)
    first = r.call(f, X.copy(), X.copy())
    second = r.call(f, X.copy(), X.copy())
    third = r.call(f, X.copy() * 2, X.copy())
    r.see("kept", (first, second, third))


reg.scenario(s_out_returned_kept_native)


# ------------------------------------------------------------ more gathers and copies

def _gather_2d_index(x, idx):
    return x[idx.reshape(2, 2)] + 0.5


def _gather_self_index(x, idx):
    k = (np.abs(x) * 7).astype(np.int64) % 40
    return x[k[idx]] - k[:3]


def _gather_index_is_data(x, idx):
    v = idx.copy()
    return v[v % 4] * 2


def _gather_then_out(x, idx):
    g = x[idx]
    np.add(g, 1.0, out=g)
    return g, x[:4]


def _gather_float32(x, idx):
    return x.astype(np.float32)[idx] * np.float32(3.0)


def _gather_empty_index(x, idx):
    return x[idx[:0]] + 1.0, x[idx].size


def _zero_d_copies(x, idx):
    z = np.array(x[idx[0]])
    c = np.copy(z)
    d = z[()]
    z *= 2.0
    return z, c, d, type(d).__name__


def _zero_d_into_out(x, idx):
    z = np.zeros(())
    np.add(x[idx].sum(), 1.0, out=z)
    return z, z.ndim


reg.tiers("gather_2d_index", _gather_2d_index, lambda: (X.copy(), np.array([0, -1, 5, 39])),
      lambda: (X.copy(), np.array([0, -1, 40, 3])))
reg.tiers("gather_self_index", _gather_self_index, lambda: (X.copy(), np.array([0, 1, 2])),
      lambda: (X.copy(), np.array([0, -1, 40])))
reg.tiers("gather_index_is_data", _gather_index_is_data, lambda: (X.copy(), np.array([1, 2, 3, 0])),
      lambda: (X.copy(), np.array([-1, -2, -3, -5])))
reg.tiers("gather_then_out", _gather_then_out, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_NEG.copy()), lambda: (X.copy(), I_HIGH.copy()))
reg.tiers("gather_float32", _gather_float32, lambda: (X.copy(), I_OK.copy()),
      lambda: (X * 1e39, I_OK.copy()))
reg.tiers("gather_empty_index", _gather_empty_index, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_HIGH.copy()))
reg.tiers("zero_d_copies", _zero_d_copies, lambda: (X.copy(), I_OK.copy()),
      lambda: (X.copy(), I_HIGH.copy()))
reg.tiers("zero_d_into_out", _zero_d_into_out, lambda: (X.copy(), I_OK.copy()),
      lambda: (np.full(40, np.inf), I_OK.copy()))
