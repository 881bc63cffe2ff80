"""Round 33, ``np.std``/``np.var`` of ``deque(maxlen=k)`` windows with ``ddof`` (round
32 had ddof 0 and 1 on one axis): ddof 0, 1, 2 and ddof at or above the number of rows
while the window fills (eager's "Degrees of freedom <= 0" warning, inf and nan), over
axis 0, axis 1, all axes and ``keepdims``, int and float32 rows, ``dtype=`` given, the
methods of ``np.asarray(window)``, ``nanstd``/``nanvar``, a ddof that changes between
calls, and windows that are cleared or replaced.

    >>> def _var(h, x):
    ...     h.window.append(x)
    ...     return np.var(h.window, axis=0, ddof=2)
"""

import collections

import numpy as np
from hostile_check import Programs

reg = Programs("round33_stats")

deque = collections.deque
ROW = np.array([1.0, -2.0, 3.5, 0.25])


class Holder:
    def __init__(self, d, ddof=0):
        self.window, self.ddof = d, ddof


def _std(ddof, axis):
    def fn(h, x):
        h.window.append(x)
        return np.std(h.window, axis=axis, ddof=ddof)
    fn.__name__ = f"_std_d{ddof}_a{axis}"
    return fn


def _var(ddof, axis):
    def fn(h, x):
        h.window.append(x)
        return np.var(h.window, axis=axis, ddof=ddof)
    fn.__name__ = f"_var_d{ddof}_a{axis}"
    return fn


def _std_keepdims(h, x):
    h.window.append(x)
    return np.std(h.window, axis=0, ddof=1, keepdims=True), np.var(h.window, keepdims=True)


def _var_dtype(h, x):
    h.window.append(x)
    return np.var(h.window, axis=0, ddof=1, dtype=np.float32)


def _asarray_methods(h, x):
    h.window.append(x)
    a = np.asarray(h.window)
    return a.std(axis=0, ddof=2), a.var(axis=1, ddof=1)


def _nanstd(h, x):
    h.window.append(np.where(x > 2, np.nan, x))
    return np.nanstd(h.window, axis=0, ddof=1), np.nanvar(h.window, ddof=2)


def _changing_ddof(h, x):
    h.window.append(x)
    h.ddof = (h.ddof + 1) % 4
    return np.std(h.window, axis=0, ddof=h.ddof), h.ddof


def _std_then_clear(h, x):
    h.window.append(x)
    s = np.var(h.window, axis=0, ddof=1)
    if len(h.window) == h.window.maxlen:
        h.window.clear()
    return s


def _replaced(h, x):
    h.window.append(x)
    if len(h.window) == 2:
        h.window = deque(h.window, maxlen=4)
    return np.std(h.window, axis=0, ddof=1), np.var(h.window, ddof=1)


def _std_of_scaled(h, x):
    h.window.append(x * 2 - 1)
    return np.std(h.window, axis=0, ddof=1) / (np.mean(h.window, axis=0) + 10)


def _rows(kind, k):
    if kind == "float":
        return ROW * (k + 1) - k
    if kind == "f32":
        return (ROW * (k % 3) + k).astype(np.float32)
    if kind == "ints":
        return np.array([k, -k, 2 * k, k * k])
    if kind == "same":       # equal rows: a variance of exactly 0
        return ROW.copy()
    raise ValueError(kind)


def _program(fn, kind, maxlen):
    def scenario(r):
        f = r.compile(fn)
        h = Holder(deque(maxlen=maxlen))
        for k in range(6):
            r.call(f, h, _rows(kind, k))
            r.see("window", list(h.window))
    reg._add(f"{fn.__name__.removeprefix('_')}_{kind}_{maxlen}", scenario, "")


for _ddof in (0, 1, 2, 3):
    for _axis in (0, None):
        _program(_std(_ddof, _axis), "float", 3)
        _program(_var(_ddof, _axis), "ints" if _ddof % 2 else "f32", 4)
for _ddof in (1, 2):
    _program(_std(_ddof, 1), "float", 3)
    _program(_var(_ddof, 1), "same", 2)
for _fn in (_std_keepdims, _var_dtype, _asarray_methods, _nanstd, _changing_ddof,
            _std_then_clear, _replaced, _std_of_scaled):
    _program(_fn, "float", 3)
    _program(_fn, "ints", 2)
    _program(_fn, "f32", 4)


def _ddof_from_attr(h, x):
    h.window.append(x)
    return np.var(h.window, axis=0, ddof=h.ddof), np.std(h.window, ddof=h.ddof)


for _name, _ddofs in (("ddof_float", [0.5, 1.5, 0.5, 2.5, 1.0]),
                      ("ddof_negative", [-1, 0, -2, 1, -1]),
                      ("ddof_len", [1, 2, 3, 3, 3]),
                      ("ddof_numpy_int", [np.int64(1), np.int8(0), 2, np.uint8(1), 1])):
    def _scenario(r, ddofs=_ddofs):
        f = r.compile(_ddof_from_attr)
        h = Holder(deque(maxlen=3))
        for k, d in enumerate(ddofs):
            h.ddof = d
            r.call(f, h, _rows("float", k))
            r.see("window", list(h.window))
    reg._add(_name, _scenario, "")
