"""Round 36, ``np.cumsum``/``np.cumprod``/``np.diff`` inside loops (lowered as loops by
``backends/native/scans.py`` on the native tier and "auto"; eager and numpy too): int8,
uint8, int16 and bool inputs (NumPy promotes to int64 unless ``dtype=`` says int8, which
then wraps), ``dtype=`` float32/int8, ``axis=0``/``1`` of 2-d rows, ``n=2``/``3``
differences of rows shorter than ``n`` (empty results), NaN and inf in the middle,
0-length rows and F-ordered inputs, written into preallocated outputs or carried.

    >>> def _row_cumsum(A):
    ...     out = np.empty(A.shape, dtype=np.result_type(A, np.int64) if A.dtype.kind in "bi"
    ...                    else A.dtype)
    ...     for i in range(A.shape[0]):
    ...         out[i] = np.cumsum(A[i])
    ...     return out
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round36_scans")
NAN, INF = math.nan, math.inf


# ---------------------------------------------------------------- the traced functions
def _row_cumsum(A):
    out = []
    for i in range(A.shape[0]):
        out.append(np.cumsum(A[i]))
    return out


def _row_cumsum_into(A):
    out = np.zeros(A.shape)
    for i in range(A.shape[0]):
        out[i] = np.cumsum(A[i])
    return out


def _row_cumsum_int8(A):
    out = np.zeros(A.shape, dtype=np.int8)
    for i in range(A.shape[0]):
        out[i] = np.cumsum(A[i], dtype=np.int8)
    return out


def _row_cumprod(A):
    out = np.zeros(A.shape)
    for i in range(A.shape[0]):
        out[i] = np.cumprod(A[i])
    return out


def _row_cumprod_int16(A):
    acc = np.zeros(A.shape[1], dtype=np.int16)
    for i in range(A.shape[0]):
        acc = acc + np.cumprod(A[i], dtype=np.int16)
    return acc


def _row_cumsum_f32(A):
    s = 0.0
    for i in range(A.shape[0]):
        s = s + np.cumsum(A[i], dtype=np.float32)[-1:].sum()
    return s


def _axis0_in_loop(A):             # A is 3-d: a 2-d slab per trip, scanned down axis 0
    out = np.zeros(A.shape)
    for k in range(A.shape[0]):
        out[k] = np.cumsum(A[k], axis=0)
    return out


def _axis1_in_loop(A):
    out = np.zeros(A.shape)
    for k in range(A.shape[0]):
        out[k] = np.cumprod(A[k], axis=1)
    return out


def _diff_rows(A):
    out = []
    for i in range(A.shape[0]):
        out.append(np.diff(A[i]))
    return out


def _diff_n2_into(A):
    m = max(A.shape[1] - 2, 0)
    out = np.zeros((A.shape[0], m))
    for i in range(A.shape[0]):
        out[i] = np.diff(A[i], n=2)
    return out


def _diff_n3(A):
    total = 0.0
    for i in range(A.shape[0]):
        total = total + np.diff(A[i], n=3).sum()
    return total


def _diff_axis0(A):
    out = np.zeros((A.shape[0], max(A.shape[1] - 1, 0), A.shape[2]))
    for k in range(A.shape[0]):
        out[k] = np.diff(A[k], axis=0)
    return out


def _carried_cumsum(A):            # the scan of the previous trip's result
    v = A[0].astype(np.float64)
    for i in range(1, A.shape[0]):
        v = np.cumsum(v + A[i]) * 0.5
    return v


def _carried_diff_then_sum(A):
    acc = np.zeros(A.shape[1] - 1 if A.shape[1] else 0)
    for i in range(A.shape[0]):
        acc += np.diff(A[i])
    return acc


def _scan_then_index(A):           # reads one item of the scan per trip
    out = np.zeros(A.shape[0])
    for i in range(A.shape[0]):
        c = np.cumsum(A[i])
        out[i] = c[-1] if c.size else -1.0
    return out


def _running_max_of_cumsum(A):
    best = -INF
    for i in range(A.shape[0]):
        best = max(best, float(np.cumsum(A[i]).max(initial=-INF)))
    return best


def _bool_cumsum(A):
    out = []
    for i in range(A.shape[0]):
        out.append(np.cumsum(A[i] > 0))
    return out


def _diff_bool(A):                 # diff of bool rows is xor (bool result)
    out = []
    for i in range(A.shape[0]):
        out.append(np.diff(A[i] > 0))
    return out


ROW_FNS = (_row_cumsum, _row_cumsum_into, _row_cumsum_int8, _row_cumprod, _row_cumprod_int16,
           _row_cumsum_f32, _diff_rows, _diff_n2_into, _diff_n3, _carried_cumsum,
           _carried_diff_then_sum, _scan_then_index, _running_max_of_cumsum, _bool_cumsum,
           _diff_bool)
SLAB_FNS = (_axis0_in_loop, _axis1_in_loop, _diff_axis0)


def _rows(n, m, dtype, seed, special=()):
    rng = np.random.default_rng(seed)
    a = rng.choice([-3, -1, 0, 1, 2, 5, 9], size=(n, m)).astype(np.float64)
    for (i, j), v in special:
        if i < n and j < m:
            a[i, j] = v
    return a.astype(dtype) if dtype is not np.float64 else a


ROW_SETS = {
    "float": [(_rows(12, 5, np.float64, 0),), (_rows(11, 2, np.float64, 1),),
              (_rows(13, 7, np.float64, 2),), (_rows(10, 3, np.float64, 3),)],
    "nan_mid": [(_rows(12, 5, np.float64, 4, [((1, 2), NAN)]),),
                (_rows(11, 6, np.float64, 5, [((0, 3), INF), ((1, 1), -INF)]),),
                (_rows(12, 4, np.float64, 6, [((2, 0), NAN)]),)],
    "int8": [(np.full((12, 6), 100, np.int8),), (_rows(11, 4, np.int8, 7),),
             (np.full((13, 5), -128, np.int8),)],
    "uint8_bool": [(np.full((11, 5), 250, np.uint8),), (_rows(12, 3, np.float64, 8) > 0,),
                   (_rows(11, 4, np.uint8, 9),)],
    "short_rows": [(_rows(12, 4, np.float64, 10),), (_rows(12, 1, np.float64, 11),),
                   (np.zeros((11, 0)),), (_rows(12, 2, np.float64, 12),)],
    "fortran": [(np.asfortranarray(_rows(13, 5, np.float64, 13)),),
                (_rows(14, 4, np.float64, 14).T,), (_rows(12, 8, np.float64, 15)[:, ::2],)],
}

for _i, _fn in enumerate(ROW_FNS):
    for _j, (_sname, _sets) in enumerate(ROW_SETS.items()):
        if (_i + _j) % 2:
            continue                 # half the (fn, inputs) pairs (CI time)
        reg.case(_fn, *_sets, calls=1, name=f"{_fn.__name__[1:]}_{_sname}")


def _slab(k, n, m, dtype, seed, nan=False):
    rng = np.random.default_rng(seed)
    a = rng.choice([-2.0, 0.5, 1.0, 3.0], size=(k, n, m))
    if nan and a.size:
        a.flat[a.size // 2] = NAN
    return a.astype(dtype)


SLAB_SETS = {
    "float": [(_slab(10, 3, 4, np.float64, 0),), (_slab(11, 1, 5, np.float64, 1),),
              (_slab(10, 4, 2, np.float64, 2, nan=True),)],
    "ints": [(_slab(10, 3, 4, np.int8, 3) * 60,), (_slab(10, 2, 3, np.int16, 4),),
             (_slab(9, 0, 3, np.int8, 5),)],
    "fortran": [(np.asfortranarray(_slab(10, 3, 4, np.float64, 6)),),
                (_slab(4, 3, 12, np.float64, 7).transpose(2, 1, 0),)],
}
for _fn in SLAB_FNS:
    for _sname, _sets in SLAB_SETS.items():
        reg.case(_fn, *_sets, calls=1, name=f"{_fn.__name__[1:]}_{_sname}")


# ---------------------------------------------------------------- native tier and auto
def _make(*arrays):
    return lambda: tuple(a.copy() for a in arrays)


for _fn, _base, _hostile in (
        (_row_cumsum_into, _rows(12, 5, np.float64, 20),
         (_rows(11, 5, np.float64, 21, [((1, 2), NAN)]), np.zeros((11, 0)),
          np.asfortranarray(_rows(13, 5, np.float64, 22)))),
        (_row_cumsum_int8, np.full((12, 6), 100, np.int8),
         (_rows(11, 3, np.int8, 23), np.full((11, 4), -128, np.int8))),
        (_row_cumprod_int16, _rows(12, 4, np.int16, 24) * 50,
         (np.full((11, 3), 300, np.int16), _rows(10, 0, np.int16, 25))),
        (_diff_n2_into, _rows(12, 5, np.float64, 26),
         (_rows(12, 2, np.float64, 27), _rows(12, 1, np.float64, 28),
          _rows(11, 6, np.float64, 29, [((0, 3), INF)]))),
        (_carried_cumsum, _rows(13, 3, np.float64, 30),
         (_rows(10, 3, np.float64, 31), _rows(12, 3, np.int8, 32))),
        (_scan_then_index, _rows(12, 4, np.float64, 33),
         (np.zeros((12, 0)), _rows(11, 4, np.uint8, 34))),
        (_carried_diff_then_sum, _rows(12, 4, np.float64, 35),
         (_rows(12, 1, np.float64, 36), _rows(11, 5, np.int8, 37) * 50)),
        (_axis0_in_loop, _slab(10, 3, 4, np.float64, 38),
         (_slab(10, 1, 4, np.float64, 39, nan=True), _slab(10, 3, 4, np.int8, 40) * 60))):
    reg.tiers(_fn.__name__[1:], _fn, _make(_base), *[_make(h) for h in _hostile])


# ---------------------------------------------------------------- other arguments
def _cumsum_out(A):                # out= a buffer the loop reuses
    buf = np.zeros(A.shape[1])
    acc = np.zeros(A.shape[1])
    for i in range(A.shape[0]):
        np.cumsum(A[i], out=buf)
        acc += buf
    return acc, buf


def _diff_prepend_append(A):
    out = np.zeros(A.shape)
    for i in range(A.shape[0]):
        out[i] = np.diff(A[i], prepend=0.5) - np.diff(A[i], append=A[i, :1])
    return out


def _diff_n0(A):                   # n=0 returns the row itself: a write goes to A
    same = []
    for i in range(A.shape[0]):
        d = np.diff(A[i], n=0)
        same.append(d is A[i])
        if d.size:
            d[0] = -1.0
    return same, A


def _diff_negative_n(A):
    s = 0.0
    for i in range(A.shape[0]):
        try:
            s += np.diff(A[i], n=-1).sum()
        except ValueError as e:
            return str(e)
    return s


def _cumsum_dtype_bool(A):
    out = []
    for i in range(A.shape[0]):
        out.append(np.cumsum(A[i], dtype=bool))
    return out


def _methods(A):
    out = np.zeros(A.shape)
    for i in range(A.shape[0]):
        out[i] = A[i].cumsum() - A[i].cumprod()
    return out


def _negative_axes(A):
    out = np.zeros(A.shape)
    for k in range(A.shape[0]):
        out[k] = np.cumsum(A[k], axis=-2) + np.diff(A[k], axis=-1, prepend=0.0)
    return out


def _float16_rows(A):              # float16 sums overflow to inf
    out = np.zeros(A.shape, np.float16)
    for i in range(A.shape[0]):
        out[i] = np.cumsum(A[i].astype(np.float16))
    return out


for _fn in (_cumsum_out, _diff_prepend_append, _diff_n0, _diff_negative_n,
            _cumsum_dtype_bool, _methods, _float16_rows):
    reg.case(_fn, (_rows(12, 5, np.float64, 50),), (_rows(10, 1, np.float64, 51),),
             (np.full((11, 4), 30000.0),), (_rows(11, 6, np.float64, 52, [((2, 2), NAN)]),),
             calls=1, name=f"{_fn.__name__[1:]}_rows")
reg.case(_negative_axes, *SLAB_SETS["float"], calls=1, name="negative_axes_slabs")
