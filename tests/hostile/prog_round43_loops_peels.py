"""Round 43, loop-node peel retries and delay lines (``loop_facts.SettlingCarry``,
``loops.MAX_PEEL``): ``x2, x1 = x1, x[i]`` chains of 1 to 5 taps from Python floats
and ints, taps that start as ``None``, carried values whose type settles only after
several trips (a Python int that becomes a float, a NumPy int; ``np.float32`` that
becomes ``np.float64``; a float that becomes a 0-d array; ``True`` that becomes an
``np.bool_``; a string that becomes a NumPy bool; an int that becomes a row), delay
lines in nested loops (no peel there), over float32, int8, uint8 (``x1 - x2`` wraps,
with NumPy's scalar overflow warning) and bool data, sizes below, at and past the peel
count (0 to 7 trips), NaN and -0.0 in the data.

    >>> def _fir3(x):
    ...     y = np.zeros_like(x)
    ...     x2 = x1 = 0.0
    ...     for i in range(len(x)):
    ...         y[i] = x[i] + 0.5 * x1 - 0.25 * x2
    ...         x2, x1 = x1, x[i]
    ...     return y
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round43_loops")
NAN = float("nan")
SIZES = (9, 0, 1, 2, 3, 5, 7)


def _data(n, seed=3, dtype=np.float64):
    x = np.random.default_rng(seed + n).random(n) * 4 - 2
    if n > 3:
        x[3] = -0.0
    if n > 5:
        x[5] = NAN
    return x.astype(dtype)


def _sized(fn, make=None, sizes=SIZES, name=None):
    make = make or (lambda n: (_data(n),))
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


def _tap1(x):
    y = np.zeros_like(x)
    x1 = 0.0
    for i in range(len(x)):
        y[i] = x[i] - x1
        x1 = x[i]
    return y, x1


def _tap2(x):
    y = np.zeros_like(x)
    x2 = x1 = 0.0
    for i in range(len(x)):
        y[i] = x[i] + 0.5 * x1 - 0.25 * x2
        x2, x1 = x1, x[i]
    return y, x2, x1


def _tap3(x):
    y = np.zeros_like(x)
    x3 = x2 = x1 = 0.0
    for i in range(len(x)):
        y[i] = x[i] + x1 + x2 + x3
        x3, x2, x1 = x2, x1, x[i]
    return y, x3


def _tap4(x):
    y = np.zeros_like(x)
    x4 = x3 = x2 = x1 = 0.0
    for i in range(len(x)):
        y[i] = x[i] * 2.0 - x4 + x2
        x4, x3, x2, x1 = x3, x2, x1, x[i]
    return y, (x4, x3, x2, x1)


def _tap5(x):
    """One tap more than ``MAX_PEEL`` trips settle: the loop unrolls (or breaks)."""
    y = np.zeros_like(x)
    x5 = x4 = x3 = x2 = x1 = 0.0
    for i in range(len(x)):
        y[i] = x[i] + x5 - x1
        x5, x4, x3, x2, x1 = x4, x3, x2, x1, x[i]
    return y, x5


def _tap2_int_start(x):
    """Taps start as Python ints 0 (an int, then a NumPy float of the data)."""
    y = np.zeros_like(x)
    x2 = x1 = 0
    for i in range(len(x)):
        y[i] = x1 - x2
        x2, x1 = x1, x[i]
    return y, type(x2).__name__, type(x1).__name__


def _tap2_none_start(x):
    y = np.zeros_like(x)
    x2 = x1 = None
    for i in range(len(x)):
        if x2 is not None:
            y[i] = x[i] + x2
        x2, x1 = x1, x[i]
    return y, x2 is None


def _tap2_mixed_start(x):
    y = np.zeros_like(x)
    x2, x1 = 1, 2.5
    for i in range(len(x)):
        y[i] = x[i] * x1 + x2
        x2, x1 = x1, x[i]
    return y, x2, x1


def _tap2_scalar_sum(x):
    """Three carried values, two of them taps, one an accumulator of both."""
    s = 0
    x2 = x1 = 0
    for i in range(len(x)):
        s = s + x[i] * x2 - x1
        x2, x1 = x1, x[i]
    return s, type(s).__name__


def _f32_to_f64(x):
    """``acc`` starts ``np.float32``; ``acc + x[i]`` of float64 data is float64."""
    acc = np.float32(0.5)
    for i in range(len(x)):
        acc = acc + x[i]
    return acc, type(acc).__name__


def _f32_data_f64_tap(x):
    """float32 data into a tap that starts as a Python float (float32 after a trip)."""
    y = np.zeros(len(x))
    x2 = x1 = 0.0
    for i in range(len(x)):
        y[i] = x1 * 3 + x2
        x2, x1 = x1, x[i]
    return y, type(x2).__name__


def _int_then_numpy_int(a):
    """A Python int count that becomes a NumPy int after the first add of an element."""
    c = 0
    for i in range(len(a)):
        c = c + a[i]
    return c, type(c).__name__


def _int_then_float(x):
    """An int that becomes a float at the second trip only (``t / 2`` after ``t += 1``)."""
    t = 0
    prev = 0
    for i in range(len(x)):
        prev, t = t, t / 2 + x[i]
    return prev, t, type(prev).__name__


def _float_then_array(x):
    m = 0.0
    m2 = 0.0
    for i in range(x.shape[0]):
        m2, m = m, m + x[i:i + 1]
    return m2, m


def _i8_taps(a):
    """int8 taps: ``x1 - x2`` wraps (eager's NumPy scalars)."""
    y = np.zeros(len(a), dtype=np.int8)
    x2 = x1 = np.int8(0)
    for i in range(len(a)):
        y[i] = a[i] - x1 - x2
        x2, x1 = x1, a[i]
    return y, x2, x1


def _bool_taps(b):
    y = np.zeros(len(b), dtype=np.int64)
    b2 = b1 = False
    for i in range(len(b)):
        y[i] = b[i] + b1 + b2
        b2, b1 = b1, b[i]
    return y, b2, b1


def _nested_delay(m):
    """A delay line in the inner loop of a nested loop (no peel inside another node)."""
    out = np.zeros_like(m)
    for r in range(m.shape[0]):
        x2 = x1 = 0.0
        for c in range(m.shape[1]):
            out[r, c] = m[r, c] + x1 - x2
            x2, x1 = x1, m[r, c]
    return out


def _outer_delay(m):
    """The delay line in the outer loop (rows): taps are rows after the first trips."""
    out = np.zeros_like(m)
    r2 = r1 = 0.0
    for r in range(m.shape[0]):
        out[r] = m[r] + r1 - r2 * 0.5
        r2, r1 = r1, m[r]
    return out, r2


def _delay_with_break(x):
    y = np.zeros_like(x)
    x2 = x1 = 0.0
    for i in range(len(x)):
        if x[i] > 1.5:
            break
        y[i] = x1 + x2
        x2, x1 = x1, x[i]
    return y, x2, x1


def _delay_reversed(x):
    y = np.zeros_like(x)
    x2 = x1 = 0.0
    for i in range(len(x) - 1, -1, -1):
        y[i] = x[i] - x2
        x2, x1 = x1, x[i]
    return y, x1


def _delay_iir(x):
    """A biquad: both input and output taps."""
    y = np.zeros_like(x)
    x2 = x1 = y2 = y1 = 0.0
    for i in range(len(x)):
        y0 = 0.2 * x[i] + 0.3 * x1 + 0.1 * x2 + 0.5 * y1 - 0.25 * y2
        y[i] = y0
        x2, x1 = x1, x[i]
        y2, y1 = y1, y0
    return y, y1, y2


def _delay_settles_then_sign(x):
    """-0.0 starts: ``x1 * 0.0`` keeps the sign of the tap."""
    y = np.zeros_like(x)
    x2 = x1 = -0.0
    for i in range(len(x)):
        y[i] = x1 * 0.0 + x2 * 0.0
        x2, x1 = x1, x[i]
    return y, x2


def _swap_delay(x):
    """``a, b = b, a`` each trip (a period of two), fed from the data every third."""
    a, b = 0.0, 1
    for i in range(len(x)):
        a, b = b, a
        if i % 3 == 0:
            a = x[i]
    return a, b, type(b).__name__


def _tap_by_index(x):
    """The taps are indices (Python ints): a delay of the loop variable."""
    y = np.zeros_like(x)
    i2 = i1 = -1
    for i in range(len(x)):
        if i2 >= 0:
            y[i] = x[i2] + x[i1]
        i2, i1 = i1, i
    return y, i2, i1


for fn in (_tap1, _tap2, _tap3, _tap4, _tap5, _tap2_int_start, _tap2_none_start,
           _tap2_mixed_start, _tap2_scalar_sum, _f32_to_f64, _int_then_float,
           _float_then_array, _delay_with_break, _delay_reversed, _delay_iir,
           _delay_settles_then_sign, _swap_delay, _tap_by_index):
    _sized(fn)
_sized(_tap3, make=lambda n: (_data(n, dtype=np.float32),), name="tap3_f32")
_sized(_tap4, make=lambda n: (_data(n, seed=11),), sizes=(12, 4, 5, 16, 3), name="tap4_sizes")
_sized(_f32_data_f64_tap, make=lambda n: (_data(n, dtype=np.float32),))
_sized(_f32_to_f64, make=lambda n: (_data(n, dtype=np.float32),), name="f32_to_f32")
_sized(_int_then_numpy_int,
       make=lambda n: (np.random.default_rng(n).integers(-5, 5, n),))
_sized(_int_then_numpy_int, name="int_then_u8_wraps",
       make=lambda n: (np.full(n, 200, dtype=np.uint8),))
_sized(_i8_taps, make=lambda n: (np.random.default_rng(n).integers(-128, 128, n)
                                 .astype(np.int8),))
_sized(_bool_taps, make=lambda n: (np.random.default_rng(n).random(n) > 0.5,))
_sized(_nested_delay, make=lambda n: (_data(n * 3).reshape(n, 3),), sizes=(4, 0, 1, 6))
_sized(_outer_delay, make=lambda n: (_data(n * 2).reshape(n, 2),), sizes=(5, 1, 2, 3, 7))


def _u8_taps(a):
    y = np.zeros(len(a), dtype=np.int64)
    x2 = x1 = 0
    for i in range(len(a)):
        y[i] = x1 - x2
        x2, x1 = x1, a[i]
    return y, x2, x1

def _i8_acc_taps(a):
    s = 0
    x1 = 0
    for i in range(len(a)):
        s = s + a[i] * x1
        x1 = a[i]
    return s, type(s).__name__

def _f32_taps_f64_data(x):
    y = np.zeros_like(x)
    x2 = x1 = np.float32(0.1)
    for i in range(len(x)):
        y[i] = x1 + x2
        x2, x1 = x1, x[i]
    return y, type(x2).__name__

def _int_tap_to_float_later(x):
    y = np.zeros_like(x)
    x3 = x2 = x1 = 1
    for i in range(len(x)):
        y[i] = x3 // 1
        x3, x2, x1 = x2, x1, x[i]
    return y, x3

def _tap_bool_to_int(b):
    c = 0
    p2 = p1 = True
    for i in range(len(b)):
        c = c + (p1 and p2)
        p2, p1 = p1, b[i]
    return c

def _tap_str(x):
    lab = []
    p1 = p2 = "start"
    for i in range(len(x)):
        lab.append(p2)
        p2, p1 = p1, x[i] > 0
    return lab

def _tap_2d_row(m):
    out = np.zeros_like(m)
    r2 = r1 = 0
    for r in range(m.shape[0]):
        out[r] = r1 - r2
        r2, r1 = r1, m[r] * 2
    return out

def _peel_int_pow(x):
    p = 1
    for i in range(len(x)):
        p = p * 3 if i < 2 else p * x[i]
    return p

def _settle_after_if(x):
    m = 0
    for i in range(len(x)):
        if x[i] > 1.0:
            m = x[i]
        m = m * 1
    return m, type(m).__name__


def _u8(n):
    return (np.random.default_rng(n).integers(0, 256, n).astype(np.uint8),)


_sized(_u8_taps, make=_u8)
_sized(_i8_acc_taps, make=lambda n: (np.random.default_rng(n).integers(-128, 128, n)
                                     .astype(np.int8),))
_sized(_f32_taps_f64_data)
_sized(_int_tap_to_float_later)
_sized(_tap_bool_to_int, make=lambda n: (np.random.default_rng(n).random(n) > 0.3,))
_sized(_tap_str)
_sized(_tap_2d_row, make=lambda n: (np.arange(n * 3.0).reshape(n, 3),))
_sized(_peel_int_pow, make=lambda n: (np.arange(n).astype(np.int64) + 1,))
_sized(_settle_after_if)
