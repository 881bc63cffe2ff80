"""Round 46, values (1 of 2): NumPy scalars as their own snapshots
(``dynamo/variables/snapshots.py``: a NumPy scalar the graph computes is immutable, so
``int(s)`` reads it with no copy; a 0-d array is copied). Here the two are mixed up on
purpose: 0-d arrays that look like scalars (``x[...]``, ``squeeze`` of one element,
``np.asarray`` of a scalar, a 0-d argument), ``x[()]`` (a copy) against ``x[...]`` (a
view), a row of a 2-D array (a view, no scalar), writes after the conversion, in place
ops on a name bound to a scalar, ``np.float32`` against Python floats after the
snapshot (NEP 50), subclasses of ``np.float64``, an object with ``__array_priority__``,
argmin ties and NaN, conversions inside loop nodes whose array is written in the same
trip.

    >>> def _view_then_write(x):
    ...     v = x[...]                # a 0-d *view* of a 0-d array
    ...     k = float(v)
    ...     x[...] = 3.0              # v sees it; k must not
    ...     return k, float(v)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round46_values")
case = reg.case
NAN = float("nan")
INF = float("inf")


def _v(n=5, k=0.0, dtype=np.float64):
    return (np.arange(n) * 0.75 - 1.0 + k).astype(dtype)


# ----------------------------------------------------------------------------- 0-d arrays

def _zero_d_arg_then_write(z, x):
    k = int(z)
    f = float(z)
    z[...] = 5
    return x * k + f, k, f, z


case(_zero_d_arg_then_write, (np.array(2.0), _v()), (np.array(-3.5), _v(7)))


def _view_then_write(z):
    v = z[...]
    k = float(v)
    z[...] = 3.0
    return k, float(v), v


case(_view_then_write, (np.array(1.5),), (np.array(NAN),))


def _unit_read_then_write(z):
    v = z[()]
    k = float(v)
    z[()] = 7.0
    return v, k, z[()], type(v).__name__


case(_unit_read_then_write, (np.array(1.25),), (np.array(-0.0),))


def _squeezed_view(x):
    a = x[1:2].squeeze()
    k = float(a)
    x[1] = 100.0
    return k, a, float(a), a.ndim


case(_squeezed_view, (_v(),), (_v(9),))


def _reshaped_view(x):
    a = x[:1].reshape(())
    k = a.item()
    x[0] = -9.0
    return k, a.item(), a


case(_reshaped_view, (_v(),), (_v(3, 2.0),))


def _asarray_of_scalar(x):
    s = x.sum()
    z = np.asarray(s)
    z[...] = 0.0
    return float(s), z, s


case(_asarray_of_scalar, (_v(),), (_v(6),))


def _sum_keepdims(x):
    s = np.add.reduce(x, keepdims=True)
    k = float(s[0])
    s[0] = -1.0
    return k, s, float(s[0])


case(_sum_keepdims, (_v(),), (_v(8),))


def _zero_d_inplace(z, x):
    k = int(z)
    z += 2
    j = int(z)
    return x[k:j], k, j, z


case(_zero_d_inplace, (np.array(1), _v(8)), (np.array(2), _v(9)))


def _zero_d_from_reduction_out(x):
    out = np.zeros(())
    np.sum(x, out=out)
    k = float(out)
    out += 1.0
    return k, out


case(_zero_d_from_reduction_out, (_v(),), (_v(4, 1.0),))


def _zero_d_masquerading(x, z):
    """A 0-d array where a scalar was: its float read first, then a write to it."""
    t = x * z
    k = float(z)
    z *= 2.0
    return t, k, x * z


case(_zero_d_masquerading, (_v(), np.array(1.5)), (_v(), np.float64(1.5)),
     (_v(), 1.5))


# ----------------------------------------------------------------------------- scalars

def _scalar_item_then_write(x):
    s = x[2]
    k = float(s)
    x[2] = 100.0
    return s, k, x[2], type(s).__name__


case(_scalar_item_then_write, (_v(),), (_v(6, 0.5),))


def _row_is_a_view(x):
    r = x[1]
    k = float(r.sum())
    x[1] = 0.0
    return k, r, float(r.sum())


case(_row_is_a_view, (_v(6).reshape(2, 3),), (_v(12).reshape(3, 4),))


def _sum_then_clear(x):
    s = x.sum()
    k = float(s)
    x[:] = 0
    return k, s, x.sum()


case(_sum_then_clear, (_v(),), (_v(7),))


def _max_item_then_scale(x):
    k = x.max().item()
    x *= 2
    return k, x.max().item(), type(k).__name__


case(_max_item_then_scale, (_v(),), (_v(5, dtype=np.float32),), (_v(5, dtype=np.int32),))


def _scalar_rebound_inplace(x):
    s = x.sum()
    t = s
    s += 1
    return t, s, t is s, float(t)


case(_scalar_rebound_inplace, (_v(),), (_v(4, dtype=np.float32),))


def _scalar_arg_float(x, s):
    return x * (float(s) * 0.5), s, type(s).__name__


case(_scalar_arg_float, (_v(), np.float64(3.0)), (_v(), np.float32(3.0)),
     (_v(), np.int8(-3)))


def _f32_scalar_promotion(x):
    s = x.sum()
    k = float(s)
    a = s * 2.5
    b = k * x
    c = s + np.float64(1e-9)
    return a, type(a).__name__, b, c, type(c).__name__


case(_f32_scalar_promotion, (_v(dtype=np.float32),), (_v(dtype=np.float16),),
     (_v(dtype=np.int16),))


def _f32_scalar_overflow(x):
    s = x.max() * np.float32(1e38)
    k = float(s)
    return s * 10, k * 10, type(s * 10).__name__


case(_f32_scalar_overflow, (_v(dtype=np.float32) + 4,), (_v(dtype=np.float32),))


def _int8_scalar_wraps(x):
    s = x[0]
    k = int(s)
    x[0] += 100
    return s + np.int8(100), k + 100, x


case(_int8_scalar_wraps, (np.array([100, 2, 3], dtype=np.int8),),
     (np.array([-100, 5], dtype=np.int8),))


class F64(np.float64):
    """A subclass of np.float64: its own type must survive the arithmetic it does."""

    def __repr__(self):
        return f"F64({float(self)!r})"


def _subclass_scalar(x, s):
    k = float(s)
    t = s * 2
    return x * s, k, type(t).__name__, type(s).__name__, repr(s)


case(_subclass_scalar, (_v(), F64(2.5)), (_v(), F64(-0.0)))


class Prio:
    """A scalar-like object with ``__array_priority__``: ``x * p`` runs its
    ``__rmul__``."""

    __array_priority__ = 100.0
    __array_ufunc__ = None

    def __init__(self, v):
        self.v = v

    def __rmul__(self, other):
        return ("rmul", float(np.sum(other)) * self.v)

    def __mul__(self, other):
        return ("mul", float(np.sum(other)) * self.v)


def _priority_scalar(x, p):
    return x * p, p * x


case(_priority_scalar, (_v(), Prio(2.0)), (_v(6), Prio(-1.0)))


def _bool_scalar_after_clear(x):
    b = bool(np.any(x > 2))
    c = np.any(x > 2)
    x[:] = 0
    return b, c, type(c).__name__


case(_bool_scalar_after_clear, (_v(),), (_v(3),))


def _complex_scalar(x):
    s = (x * 1j).sum()
    c = complex(s)
    x[:] = 1.0
    return c, s, (x * 1j).sum()


case(_complex_scalar, (_v(),), (_v(2, -0.0),))


def _min_of_signed_zeros(x):
    s = np.min(x)
    k = float(s)
    return k, s, np.copysign(1.0, k), np.argmin(x)


case(_min_of_signed_zeros, (np.array([0.0, -0.0, 1.0]),), (np.array([-0.0, 0.0]),))


def _nan_scalar(x):
    s = np.max(x)
    k = float(s)
    return k != k, s, int(np.argmax(x)), int(np.argmin(x))


case(_nan_scalar, (np.array([1.0, NAN, 3.0]),), (np.array([NAN, NAN]),),
     (np.array([2.0, 1.0]),))


def _dot_then_write(x, y):
    s = x.dot(y)
    k = float(s)
    y[:] = 0.0
    return k, s, x.dot(y)


case(_dot_then_write, (_v(), _v(5, 1.0)), (_v(3), _v(3, 2.0)))


def _python_min_of_scalars(x):
    m = min(x[0], x[1])
    k = max(x[0], x[-1])
    x[0] = 50.0
    return m, k, type(m).__name__


case(_python_min_of_scalars, (_v(),), (np.array([NAN, 1.0, 2.0]),))


def _scalar_as_list_index(x, names):
    u = int(x.argmax())
    x[u] = -INF
    v = int(x.argmax())
    return names[u], names[v], x


case(_scalar_as_list_index, (np.array([3.0, 1.0, 3.0, 2.0]), ["a", "b", "c", "d"]),
     (np.array([1.0, 5.0, 5.0, 5.0]), ["p", "q", "r", "s"]))


def _snapshot_across_break(x, log):
    k = float(x.sum())
    s = x.sum()
    print("between", k)
    log.append(k)
    x[:] = 0.0
    return k, s, float(s)


case(_snapshot_across_break, (_v(), []), (_v(6), []))


def _f16_scalar(x):
    s = x.sum()
    return float(s), s + 1, type(s + 1).__name__, s * 1e5


case(_f16_scalar, (_v(dtype=np.float16),), (_v(7, dtype=np.float16),))


# ----------------------------------------------------------------------------- in loop nodes

def _argmin_assign(X, C):
    sums = np.zeros(C.shape[0])
    for i in range(X.shape[0]):
        u = int(np.argmin(np.abs(C - X[i])))
        sums[u] += X[i]
        C[u] += 0.125
    return sums, C


case(_argmin_assign, (_v(12), np.array([0.0, 1.0, 2.0])),
     (_v(20, 0.5), np.array([1.0, 1.0, -1.0, 5.0])))


def _argmin_ties_select(d):
    order = []
    for _ in range(d.shape[0]):
        u = int(np.argmin(d))
        order.append(u)
        d[u] = INF
    return order, d


case(_argmin_ties_select, (np.array([2.0, 1.0, 1.0, 2.0, 0.5]),),
     (np.array([3.0, 3.0, 3.0]),), (np.array([NAN, 1.0, NAN]),))


def _hist_by_index(idx, w, hist):
    for k in range(idx.shape[0]):
        b = int(idx[k])
        idx[k] = 0
        hist[b] += w[k]
    return hist, idx


case(_hist_by_index, (np.array([1, 2, 1, 3]), _v(4), np.zeros(4)),
     (np.array([0, 0, 3, 3, 2, 1]), _v(6, 1.0), np.zeros(5)))


def _hist_write_through_bin(idx, hist):
    for k in range(idx.shape[0]):
        b = idx[k]
        idx[(k + 1) % idx.shape[0]] = b
        hist[b] += 1
    return hist, idx


case(_hist_write_through_bin, (np.array([1, 2, 0, 3]), np.zeros(4)),
     (np.array([2, 2, 1]), np.zeros(3)))


def _running_argmax_item(x):
    best = []
    for i in range(1, x.shape[0] + 1):
        j = x[:i].argmax()
        best.append(int(j))
        x[j] -= 1.0
    return best, x


case(_running_argmax_item, (np.array([1.0, 3.0, 3.0, 2.0, 5.0]),),
     (np.array([0.0, 0.0, 0.0]),))


def _zero_d_in_loop(x):
    acc = np.zeros(())
    ks = []
    for i in range(x.shape[0]):
        acc += x[i]
        ks.append(float(acc))
    return ks, acc


case(_zero_d_in_loop, (_v(),), (_v(8, 0.5),))


def _scalar_carried_f32(x):
    acc = np.float32(0.0)
    for i in range(x.shape[0]):
        acc = acc + x[i] * 0.1
    return acc, type(acc).__name__, float(acc)


case(_scalar_carried_f32, (_v(6, dtype=np.float32),), (_v(6),), (_v(9, dtype=np.int8),))


def _int_of_scalar_indexes_twice(x, idx):
    out = np.zeros(x.shape[0])
    for k in range(idx.shape[0]):
        u = int(idx[k])
        out[u] = x[u] + out[u]
        x[u] = -x[u]
    return out, x


case(_int_of_scalar_indexes_twice, (_v(), np.array([0, 0, 3, 1])),
     (_v(6), np.array([5, 5, 5])))


# ----------------------------------------------------------------------------- out= of 0-d

def _sum_out_returned(x):
    z = np.zeros(())
    s = np.sum(x, out=z)
    k = float(s)
    z[...] = 9.0
    return k, float(s), s is z


case(_sum_out_returned, (_v(),), (_v(3),))


def _ufunc_out_zero_d(z):
    s = np.add(z, 1.0, out=z)
    k = int(s)
    np.negative(z, out=z)
    return k, int(s), z


case(_ufunc_out_zero_d, (np.array(2.0),), (np.array(-5.0),))


def _max_out_zero_d(x):
    z = np.empty(())
    m = x.max(out=z)
    k = m.item()
    x[:] = 100.0
    z += 1.0
    return k, m, z


case(_max_out_zero_d, (_v(),), (_v(4),))


def _clip_out_zero_d(z):
    c = np.clip(z, 0.0, 1.0, out=z)
    k = float(c)
    z[...] = -7.0
    return k, float(c)


case(_clip_out_zero_d, (np.array(3.0),), (np.array(0.5),))


def _zero_d_ufunc_result_is_scalar(z):
    s = z * 2.0
    k = float(s)
    z[...] = 0.0
    return k, s, type(s).__name__


case(_zero_d_ufunc_result_is_scalar, (np.array(3.0),), (np.array(NAN),))


def _index_with_zero_d_then_write(x, z):
    u = int(z)
    z[...] = 0
    return x[u], x[z], u


case(_index_with_zero_d_then_write, (_v(), np.array(3)), (_v(), np.array(-1)))


def _scalar_ellipsis_is_array(x):
    s = x.sum()
    z = s[...]
    k = float(z)
    z[...] = 5.0
    return k, s, z, float(z), type(z).__name__


case(_scalar_ellipsis_is_array, (_v(),), (_v(3),))


def _copy_of_scalar_is_array(x):
    s = x.max()
    z = np.copy(s)
    w = np.array(s)
    k = int(z)
    z += 1
    w[()] = -1
    return k, s, z, w, int(z)


case(_copy_of_scalar_is_array, (_v(),), (_v(9),))


def _scalar_methods_stay_scalars(x):
    s = x.min()
    a, b, c = s.reshape(()), s.squeeze(), s.T
    return a, b, c, type(a).__name__, type(s[...]).__name__, s.flatten()


case(_scalar_methods_stay_scalars, (_v(),), (_v(2, dtype=np.float32),))


REC = np.dtype([("f", "<f8"), ("n", "<i8")])


def _record_is_a_view(a, i):
    r = a[i]
    k = float(r["f"])
    a["f"][i] = 9.0
    return k, float(r["f"]), r, a


case(_record_is_a_view, (np.array([(1.5, 2), (2.5, 3)], dtype=REC), 0),
     (np.array([(0.5, 1), (-1.0, 4), (3.0, 5)], dtype=REC), 2))


def _record_read_twice(a, i):
    x = a[i]["f"]
    r = a[i]
    r["f"] = -7.0
    return x, a[i]["f"], a[i], type(r).__name__


case(_record_read_twice, (np.array([(1.5, 2), (2.5, 3)], dtype=REC), 1),
     (np.array([(0.5, 1)], dtype=REC), 0))


def _record_in_loop(a):
    s = 0.0
    for i in range(a.shape[0]):
        r = a[i]
        s += r["f"]
        a["f"][i] = s
        s += a[i]["f"]
    return s, a


case(_record_in_loop, (np.array([(1.5, 2), (2.5, 3), (4.0, 1)], dtype=REC),),
     (np.array([(0.5, 1)], dtype=REC),))
