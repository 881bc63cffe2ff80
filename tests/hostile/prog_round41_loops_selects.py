"""Round 41, data-decided writes as selects in loop nodes (select_writes.py): an ``if``
on array data inside a loop too long to unroll writes ``x[i] = ...`` into an array the
graph made, kept as ``x[i] = where(flag, v, x[i])``. Flags from NaN, ``-0.0`` (equal to
0.0), infinities; writes through views that alias the array the other way reads;
writes into inputs (the ``if`` stays a break); int8 / int64 overflow in the taken or
the untaken way; a way that would raise or warn but is not taken (plain code does not
run it); float32 and int8 arrays. Sizes 12, 0, 1, 2, 16, 12.

    >>> def _ffill(x):
    ...     y = x.copy()
    ...     for i in range(1, len(y)):
    ...         if np.isnan(y[i]):
    ...             y[i] = y[i - 1]
    ...     return y
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round41_loops")
SIZES = (12, 0, 1, 2, 16)    # (then 12 again: ``Programs.case`` repeats the first)
NAN, INF = float("nan"), float("inf")


def _data(n, seed=11, specials=(NAN, -0.0, INF, -INF, 0.0)):
    x = np.random.default_rng(seed + n).random(n) * 6 - 3
    for k, s in enumerate(specials):
        if 2 * k + 1 < n:
            x[2 * k + 1] = s
    return x


def _sized(fn, make=None, sizes=SIZES, name=None):
    make = make or (lambda n: (_data(n),))
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


def _ffill(x):
    y = x.copy()
    for i in range(1, len(y)):
        if np.isnan(y[i]):
            y[i] = y[i - 1]
    return y


def _clamp(x):
    y = x.copy()
    for i in range(len(y)):
        if y[i] > 1.0:
            y[i] = 1.0
    return y


def _zero_flag(x):
    """``-0.0 == 0.0``: the flag is True for both; the write keeps the sign it writes."""
    y = x * 1.0
    for i in range(len(y)):
        if y[i] == 0.0:
            y[i] = -y[i]
    return y


def _nan_compare(x):
    """NaN compares False both ways: neither write."""
    y = x + 0.0
    for i in range(len(y)):
        if y[i] < 0.0:
            y[i] = 0.0
        elif y[i] > 2.0:
            y[i] = 2.0
    return y


def _inf_flag(x):
    y = x.copy()
    for i in range(len(y)):
        if np.isinf(y[i]):
            y[i] = np.sign(y[i]) * 1e300
    return y


def _both_ways(x):
    y = x.copy()
    for i in range(len(y)):
        if y[i] >= 0:
            y[i] = y[i] * 2.0
        else:
            y[i] = -1.0
    return y


def _reads_prev_written(x):
    y = np.zeros_like(x)
    for i in range(1, len(x)):
        if x[i] > x[i - 1]:
            y[i] = y[i - 1] + 1.0
        else:
            y[i] = y[i - 1]
    return y


def _view_alias(x):
    """``v`` is ``y[1:]``: a write through it is a write of ``y`` the next trip reads."""
    y = x.copy()
    v = y[1:]
    for i in range(len(v)):
        if y[i] > 0.5:
            v[i] = y[i] * 0.5
    return y


def _reversed_view(x):
    y = x.copy()
    r = y[::-1]
    for i in range(len(y)):
        if r[i] < 0:
            y[i] = r[i]
    return y


def _into_input(x):
    """Writes into the argument itself: not a select (the ``if`` breaks)."""
    for i in range(len(x)):
        if x[i] < 0:
            x[i] = 0.0
    return x.sum()


def _into_input_view(x):
    w = x[::2]
    for i in range(len(w)):
        if w[i] > 1:
            w[i] = 1.0
    return x


def _int8_overflow_taken(x):
    a = (np.nan_to_num(x, posinf=3, neginf=-3) * 40).astype(np.int8)
    for i in range(len(a)):
        if a[i] > 50:
            a[i] = a[i] + np.int8(100)
    return a


def _int8_overflow_untaken(x):
    a = (np.nan_to_num(x, posinf=3, neginf=-3) * 10).astype(np.int8)
    for i in range(len(a)):
        if a[i] > 120:
            a[i] = a[i] * np.int8(2)
    return a


def _int64_wrap(x):
    a = np.nan_to_num(x, posinf=3, neginf=-3).astype(np.int64) + 2 ** 62
    for i in range(len(a)):
        if a[i] > 2 ** 62:
            a[i] = a[i] + a[i]
    return a


def _untaken_raise(x):
    """The way not taken indexes out of bounds: plainly it never runs."""
    y = x.copy()
    for i in range(len(y)):
        if y[i] > 1e308:
            y[i] = y[i + 100]
    return y


def _untaken_int_of_nan(x):
    y = np.nan_to_num(x).copy()
    for i in range(len(y)):
        if np.isnan(y[i]):
            y[i] = int(y[i])
    return y


def _untaken_warn(x):
    y = np.abs(np.nan_to_num(x, posinf=1, neginf=1)) + 1.0
    for i in range(len(y)):
        if y[i] < 0:
            y[i] = np.log(y[i])
    return y


def _taken_warn(x):
    y = x.copy()
    for i in range(len(y)):
        if y[i] < 0:
            y[i] = np.sqrt(y[i])
    return y


def _float32(x):
    y = x.astype(np.float32)
    for i in range(1, len(y)):
        if np.isnan(y[i]):
            y[i] = y[i - 1] * np.float32(0.5)
    return y


def _int8_clamp(x):
    a = (np.nan_to_num(x, posinf=2, neginf=-2) * 30).astype(np.int8)
    for i in range(len(a)):
        if a[i] < -20:
            a[i] = -20
    return a


def _python_int_into_int8(x):
    a = np.zeros(len(x), dtype=np.int8)
    for i in range(len(a)):
        if x[i] > 0:
            a[i] = 127
        else:
            a[i] = -128
    return a


def _store_too_big(x):
    """300 into int8: NumPy raises OverflowError, plainly only where the flag is True."""
    a = np.zeros(len(x), dtype=np.int8)
    for i in range(len(a)):
        if x[i] > 2.5:
            a[i] = 300
    return a


def _count_and_write(x):
    y = x.copy()
    hits = 0
    for i in range(len(y)):
        if y[i] > 0:
            y[i] = 0.0
            hits += 1
    return y, hits


def _two_arrays(x):
    lo, hi = np.zeros_like(x), np.zeros_like(x)
    for i in range(len(x)):
        if x[i] < 0:
            lo[i] = x[i]
        else:
            hi[i] = x[i]
    return lo, hi


def _row_select(A):
    B = A.copy()
    for i in range(B.shape[0]):
        if B[i, 0] > 0:
            B[i] = B[i] * 2.0
    return B


def _mat(n):
    return (np.nan_to_num(_data(n * 3)).reshape(n, 3),)


def _bool_array(x):
    b = np.zeros(len(x), dtype=bool)
    for i in range(len(b)):
        if x[i] > 0:
            b[i] = True
    return b


def _complex(x):
    z = x.astype(np.complex128)
    for i in range(len(z)):
        if z[i].real < 0:
            z[i] = z[i] * 1j
    return z


for _f in (_ffill, _clamp, _zero_flag, _nan_compare, _inf_flag, _both_ways,
           _reads_prev_written, _view_alias, _reversed_view, _into_input, _into_input_view,
           _int8_overflow_taken, _int8_overflow_untaken, _int64_wrap, _untaken_raise,
           _untaken_int_of_nan, _untaken_warn, _taken_warn, _float32, _int8_clamp,
           _python_int_into_int8, _store_too_big, _count_and_write, _two_arrays,
           _bool_array, _complex):
    _sized(_f)
_sized(_row_select, make=_mat)
