"""Round 47, loops (2 of 2): values copied out of arrays inside loop nodes, then the
array (or the copy) written. A NumPy scalar ``X[i]`` of a 1-D ``X`` is a copy of what
``X`` held (``backends/passes/scalar_reads.py`` reads it as itself, never again from
``X``); ``np.copy(X[i])`` is a 0-d *array* that the trip then writes (through
``c[...]``, ``c[()] = v``, ``c.fill``, ``out=c``, ``c += v``) and reads back as
``c[()]``, where the pass must keep the copy; Python numbers (``float(X[i])``,
``X[i].item()``, ``int(np.argmin(d))``) read before the array is written; dicts and
lists the trip makes (``{"a": X[i]}``, rebuilt every trip, written, read back) and
objects whose attributes the loop reads through a property, a class attribute or the
instance (``dynamo/made_dicts.py``: reading an attribute must not skip the getter).

    >>> def _copy_written_through_view(X, Y):
    ...     for i in range(14):
    ...         c = np.copy(X[i])      # a 0-d array
    ...         v = c[...]
    ...         v += 1.0               # c changes, X does not
    ...         Y[i] = c[()] - X[i]    # 1.0
    ...     return X, Y
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round47_loops")
case = reg.case
NAN = float("nan")


def _v(n=18, k=0.0):
    return np.arange(n, dtype=np.float64) * 0.5 - 2.0 + k


def _i(n=18, k=0):
    return (np.arange(n, dtype=np.int64) * 7 + k) % 11


# ----------------------------------------------------------------------------- 0-d copies

def _copy_written_through_view(X, Y):
    for i in range(14):
        c = np.copy(X[i])
        v = c[...]
        v += 1.0
        Y[i] = c[()] - X[i]
    return X, Y


case(_copy_written_through_view, (_v(), np.zeros(18)), (_v(15, NAN), np.ones(15)))


def _copy_setitem_unit(X, Y):
    for i in range(13):
        c = np.copy(X[i])
        c[()] = X[i + 1] * 2.0
        Y[i] = c[()] + X[i]
    return X, Y


case(_copy_setitem_unit, (_v(), np.zeros(18)), (_v(14, 1.0), np.zeros(14)))


def _copy_filled(X, Y):
    for i in range(12):
        c = np.copy(X[i])
        c.fill(-7.0)
        Y[i] = c[()] * X[i]
    return X, Y


case(_copy_filled, (_v(), np.zeros(18)), (_v(13, -0.0), np.ones(13)))


def _copy_out(X, Y):
    for i in range(12):
        c = np.copy(X[i])
        np.multiply(c, 3.0, out=c)
        Y[i] = c[()] - X[i]
    return X, Y


case(_copy_out, (_v(), np.zeros(18)), (_v(12, 2.0), np.zeros(12)))


def _copy_iadd(X, Y):
    for i in range(12):
        c = np.copy(X[i])
        c += Y[i]
        Y[i] = c[()]
    return X, Y


case(_copy_iadd, (_v(), _v(k=1.0)), (_v(14), np.ones(14)))


def _copy_then_source_written(X, Y):
    for i in range(13):
        c = np.copy(X[i])
        X[i] = -1.0
        Y[i] = c[()] + X[i]
    return X, Y


case(_copy_then_source_written, (_v(), np.zeros(18)), (_v(15, 3.0), np.zeros(15)))


def _copy_viewed_kept(X, out):
    for i in range(12):
        c = np.copy(X[i])
        r = c.reshape(1)
        r[0] = X[i] * 4.0
        out[i] = c[()] + r[0]
    return X, out


case(_copy_viewed_kept, (_v(), np.zeros(18)), (_v(12, 1.0), np.zeros(12)))


def _scalar_arg_copied(X, s):
    for i in range(12):
        c = np.copy(s)
        c[...] = X[i]
        X[i] = c[()] + s
    return X


case(_scalar_arg_copied, (_v(), np.float64(0.5)), (_v(13), np.float64(-2.0)))


def _int_copy_index(X, idx, out):
    for i in range(12):
        c = np.copy(idx[i])
        c[()] = (c + 1) % 11
        out[i] = X[c[()]] - X[idx[i]]
    return out


case(_int_copy_index, (_v(), _i(), np.zeros(18)), (_v(14), _i(14, 3), np.zeros(14)))


# ----------------------------------------------------------------------------- scalars then writes

def _scalar_before_write(X, Y):
    for i in range(14):
        s = X[i]
        X[i] = s * 2.0 + 1.0
        Y[i] = s - X[i]
    return X, Y


case(_scalar_before_write, (_v(), np.zeros(18)), (_v(15, NAN), np.zeros(15)))


def _float_before_write(X, Y):
    for i in range(14):
        s = float(X[i])
        X[i:i + 2] = 0.25
        Y[i] = s + X[i] + X[i + 1]
    return X, Y


case(_float_before_write, (_v(), np.zeros(18)), (_v(16, -0.0), np.zeros(16)))


def _item_before_write(X, Y):
    for i in range(13):
        s = X[i].item()
        X[i] += 10.0
        Y[i] = X[i] - s
    return X, Y


case(_item_before_write, (_v(), np.zeros(18)), (_v(14, 2.5), np.zeros(14)))


def _argmin_then_masked(D, out):
    for i in range(10):
        u = int(np.argmin(D[i]))
        D[i, u] = 100.0
        v = int(np.argmin(D[i]))
        out[i] = D[i, u] - D[i, v]
    return D, out


def _d(r=10, c=4, k=0):
    return ((np.arange(r * c, dtype=np.float64).reshape(r, c) * 5 + k) % 7) - 3.0


case(_argmin_then_masked, (_d(), np.zeros(10)), (_d(12, 3, 2), np.zeros(12)))


def _zero_d_row_view(M, out):
    for i in range(11):
        z = M[i, 0:1].reshape(())
        s = float(z)
        M[i] = M[i] + 1.0
        out[i] = s + z - M[i, 0]
    return M, out


case(_zero_d_row_view, (np.arange(55.0).reshape(11, 5), np.zeros(11)),
     (np.arange(36.0).reshape(12, 3) - 6.0, np.zeros(12)))


def _scalar_carried(X):
    prev = X[0]
    for i in range(1, 15):
        cur = X[i]
        X[i] = prev + cur
        prev = cur
    return X, prev


case(_scalar_carried, (_v(),), (_v(16, 1.0),))


def _python_number_counter(X, Y):
    k = 3
    for i in range(12):
        Y[i] = X[i] * k
        k += 2
        X[i] = k
    return X, Y, k


case(_python_number_counter, (_v(), np.zeros(18)), (_v(13), np.ones(13)))


# ----------------------------------------------------------------------------- made in the trip

def _dict_made_in_trip(X, Y):
    for i in range(1, 14):
        d = {"a": X[i], "b": X[i - 1]}
        d["a"] = d["a"] * 2.0
        X[i] = d["a"] + d["b"]
        Y[i] = d["a"] - X[i]
    return X, Y


case(_dict_made_in_trip, (_v(), np.zeros(18)), (_v(15, 1.0), np.ones(15)))


def _dict_of_views(X, Y):
    for i in range(13):
        d = {"w": X[i:i + 2], "s": X[i]}
        d["w"][0] = d["s"] + 3.0
        Y[i] = d["s"] - X[i]
    return X, Y


case(_dict_of_views, (_v(), np.zeros(18)), (_v(14, -1.0), np.zeros(14)))


def _pair(a, b):
    d = {"a": a, "b": b}
    d["a"] = d["a"] * 2.0
    d["c"] = d.get("c", 0.5) + d["b"]
    return d["a"] + d["c"], len(d)


def _dict_made_by_helper(X, Y):
    for i in range(1, 14):
        t, n = _pair(X[i], X[i - 1])
        X[i] = t
        Y[i] = t * n - X[i - 1]
    return X, Y


case(_dict_made_by_helper, (_v(), np.zeros(18)), (_v(15, 1.0), np.ones(15)))


def _dict_dropped_at_trip_end(X, Y):
    for i in range(1, 14):
        d = {"a": X[i], "w": X[i - 1:i + 1]}
        d["w"][1] = d["a"] * 3.0
        Y[i] = d["a"] + X[i]
        d = None
    return X, Y, d


case(_dict_dropped_at_trip_end, (_v(), np.zeros(18)), (_v(14, -2.0), np.zeros(14)))


def _dict_rebound_key(X, Y):
    for i in range(12):
        d = {"x": X[i]}
        d["x"] = X[i + 1]
        d["y"] = d["x"] * 0.5
        Y[i] = d["x"] + d["y"] + len(d)
    return X, Y


case(_dict_rebound_key, (_v(), np.zeros(18)), (_v(13), np.zeros(13)))


def _list_made_in_trip(X, Y):
    for i in range(12):
        parts = [X[i], X[i + 1]]
        parts[0] = parts[1] * 2.0
        X[i + 1] = parts[0]
        Y[i] = parts[1] + X[i + 1]
    return X, Y


case(_list_made_in_trip, (_v(), np.zeros(18)), (_v(13, 0.5), np.zeros(13)))


def _tuple_swap_in_trip(X, Y):
    for i in range(12):
        a, b = X[i], Y[i]
        X[i], Y[i] = b * 2.0, a - b
    return X, Y


case(_tuple_swap_in_trip, (_v(), _v(k=3.0)), (_v(12), _v(12, -1.0)))


# ----------------------------------------------------------------------------- attributes

class Scaled:
    gain = 2.0

    def __init__(self, w):
        self.w = w
        self.reads = 0

    @property
    def scale(self):
        self.reads += 1
        return self.gain * 0.5


def _property_in_loop(o, X):
    for i in range(12):
        X[i] = X[i] * o.scale + o.w[i]
    return X, o.reads


def _scaled(g=None):
    o = Scaled(_v(k=1.0))
    if g is not None:
        o.gain = g
    return (o, _v())


case(_property_in_loop, _scaled, lambda: _scaled(3.0))


class Shadowed:
    scale = 1.5

    def __init__(self, w):
        self.w = w


def _class_attribute_in_loop(o, X):
    for i in range(12):
        X[i] = X[i] * o.scale + o.w[i]
    return X


def _shadowed_set_later(k):
    if k == 2:
        Shadowed.scale = 4.0
    if k == 4:
        Shadowed.scale = 1.5


case(_class_attribute_in_loop, lambda: (Shadowed(_v()), _v()), lambda: (Shadowed(_v(14)), _v(14)),
     between=_shadowed_set_later, setup=lambda: setattr(Shadowed, "scale", 1.5))


def _instance_shadow(o, X):
    for i in range(12):
        X[i] = X[i] * o.scale
    return X


def _shadow_instance():
    o = Shadowed(_v())
    o.scale = -1.0
    return (o, _v())


case(_instance_shadow, lambda: (Shadowed(_v()), _v()), _shadow_instance)


class Counting:
    def __init__(self):
        self.n = 0

    @property
    def step(self):
        self.n += 1
        return float(self.n)


def _counting_property_before_loop(o, X):
    s = o.step
    for i in range(12):
        X[i] = X[i] + s
    return X, o.step, o.n


case(_counting_property_before_loop, lambda: (Counting(), _v()), lambda: (Counting(), _v(13)))
