"""Round 25, the native tier's newest lowerings with hostile values
(``backends/native/scatters.py``, ``sym_slices.py``, ``gathers.py``): stores through
index arrays ``x[idx] = v`` and ``x[idx] += v`` (repeated, negative, out of bounds,
bool, empty, int8/uint8 index arrays, 2-D pairs), one-value mask stores
(``x[x > 0] = 0.0``, a one-element array, NaN into an int array), slices whose bounds
are run-time integers (``x[:n]``, ``x[i:i + k]`` with ``n`` negative, 0 or past the
end, in loop nodes), gathers into int8/uint8/float16/bool/complex arrays, stores that
cast (complex into float, float into bool or int), values overlapping the target,
integer overflow that wraps, shifts by 64 or more, ``INT_MIN // -1``, NaN and -0.0 in
``max``/``min`` and special values through remainders, hypot, powers and logs (with
their warnings). Each program is compiled with ``backend="native"`` (tier 2
from the second call, as prog_round24_tier2 forces it) and with ``backend="auto"``;
calls after the second reach tier 2 with the hostile values.

    >>> def _set_last_wins(x, idx, v):
    ...     x[idx] = v                 # a repeated index: the last write wins
    ...     return x
"""

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round25_scatters")
RNG = np.random.default_rng(25)
X = RNG.standard_normal(40)
X2 = RNG.standard_normal((6, 5))
V = RNG.standard_normal(5)
I_OK = np.array([0, 3, 39, 7, 8])
I_REP = np.array([3, 3, -37, 3, 0])       # 3 and -37 are one element
I_NEG = np.array([-1, -40, 5, -7, 0])
I_HIGH = np.array([0, 40, 2, 1, 3])
I_LOW = np.array([0, -41, 2, 1, 3])
A8 = RNG.integers(-128, 128, 40).astype(np.int8)
A8[:4] = (-128, 127, -1, 0)
U8 = A8.view(np.uint8).copy()
A16 = RNG.integers(-30000, 30000, 40).astype(np.int16)
A32 = RNG.integers(-2**31, 2**31, 40).astype(np.int32)
H = (X * 1e4).astype(np.float16)
H_BIG = np.full(40, 60000.0, np.float16)
C = X + 1j * X[::-1]


def _xi(idx):
    return lambda: (X.copy(), np.array(idx), V.copy())


OK, REP, NEG, HIGH, LOW = (_xi(i) for i in (I_OK, I_REP, I_NEG, I_HIGH, I_LOW))


def _ai(a, idx):
    return lambda: (np.array(a), np.array(idx), V.copy())


# ------------------------------------------------------------ scatters

def _set_last_wins(x, idx, v):
    x[idx] = v
    return x


def _set_scalar(x, idx, v):
    x[idx] = 2.5
    return x.sum()


def _add_repeated(x, idx, v):
    x[idx] += v
    return x


def _sub_into_copy(x, idx, v):
    y = x * 2.0
    y[idx] -= v
    return y, x[:3]


def _set_then_read(x, idx, v):
    y = x + 0.0
    y[idx] = v * 10.0
    return y[idx], y.max()


def _set_in_try(x, idx, v):
    try:
        x[idx] = v
    except IndexError as e:
        return "caught", str(e), x[:5]
    return x[:5]


def _add_in_try(x, idx, v):
    y = x.copy()
    try:
        y[idx] += v
    except IndexError:
        return -1.0
    return y.sum()


def _set_int8_index(x, idx, v):
    x[idx.astype(np.int8)] = v
    return x


def _set_uint8_index(x, idx, v):
    y = x * 1.0
    y[(idx % 40).astype(np.uint8)] = v
    return y


def _set_int32_index_add(x, idx, v):
    x[idx.astype(np.int32)] += 1.0
    return x


def _set_empty_index(x, idx, v):
    x[idx[:0]] = 5.0
    x[idx[:0]] += v[:0]
    return x, x[idx[:0]].shape


def _set_bool_array_index(x, idx, v):
    m = np.zeros(40, bool)
    m[idx % 40] = True
    x[m] = -1.0
    return x, m.sum()


def _set_2d_pairs(a, idx, v):
    rows = idx % 6
    cols = idx % 5
    a[rows, cols] = v
    a[rows] += 1.0
    return a


def _set_int8_wrap(a, idx, v):
    a[idx] += np.int8(100)
    return a


def _set_uint8_from_int(a, idx, v):
    b = np.zeros(40, np.uint8)
    b[idx] = a[idx].astype(np.int64) * 3
    return b


def _set_float16(x, idx, v):
    h = x.astype(np.float16)
    h[idx] = v * 1e5
    return h


def _set_bool_target(x, idx, v):
    b = x > 0
    b[idx] = v > 0
    return b


def _set_complex_target(x, idx, v):
    c = x.astype(np.complex128)
    c[idx] += 1j * v
    return c


def _set_int_from_float(x, idx, v):
    a = np.arange(40)
    a[idx] = v * 3.0
    return a


def _set_int64_wrap(a, idx, v):
    b = a.astype(np.int64) * 2**61
    b[idx] += b[idx] * 4
    return b


def _set_bool_from_ints(a, idx, v):
    b = np.zeros(40, bool)
    b[idx] = a[idx]
    return b


def _set_nan_into_int(x, idx, v):
    a = np.arange(40)
    try:
        a[idx] = v / 0.0 * 0.0
    except ValueError as e:
        return str(e)
    return a


def _scatter_in_loop(x, idx, v):
    acc = np.zeros(40)
    for k in range(3):
        acc[idx] += v * k
    return acc


def _scatter_self_values(x, idx, v):
    x[idx] = x[idx[::-1]]
    return x


reg.tiers("set_last_wins", _set_last_wins, OK, REP, NEG, HIGH, LOW)
reg.tiers("set_scalar", _set_scalar, OK, REP, HIGH)
reg.tiers("add_repeated", _add_repeated, OK, REP, NEG, LOW)
reg.tiers("sub_into_copy", _sub_into_copy, OK, REP, HIGH)
reg.tiers("set_then_read", _set_then_read, OK, REP, NEG)
reg.tiers("set_in_try", _set_in_try, OK, HIGH, LOW, REP)
reg.tiers("add_in_try", _add_in_try, OK, HIGH, REP)
reg.tiers("set_int8_index", _set_int8_index, OK, NEG, HIGH)
reg.tiers("set_uint8_index", _set_uint8_index, OK, NEG, REP)
reg.tiers("set_int32_index_add", _set_int32_index_add, OK, REP, LOW)
reg.tiers("set_empty_index", _set_empty_index, OK, HIGH)
reg.tiers("set_bool_array_index", _set_bool_array_index, OK, REP, NEG)
reg.tiers("set_2d_pairs", _set_2d_pairs, lambda: (X2.copy(), I_OK.copy(), V.copy()),
      lambda: (X2.copy(), I_REP.copy(), V.copy()), lambda: (X2.copy(), I_NEG.copy(), V.copy()))
reg.tiers("set_int8_wrap", _set_int8_wrap, _ai(A8, I_OK), _ai(A8, I_REP), _ai(A8, I_NEG),
      _ai(A8, I_HIGH))
reg.tiers("set_uint8_from_int", _set_uint8_from_int, _ai(A8, I_OK), _ai(A8, I_REP),
      _ai(U8, I_NEG))
reg.tiers("set_int64_wrap", _set_int64_wrap, _ai(A8, I_OK), _ai(A8, I_REP))
reg.tiers("set_bool_from_ints", _set_bool_from_ints, _ai(A8, I_OK), _ai(A16, I_REP),
      _ai(A8, I_LOW))
reg.tiers("set_float16", _set_float16, OK, REP)
reg.tiers("set_bool_target", _set_bool_target, OK, REP, HIGH)
reg.tiers("set_complex_target", _set_complex_target, OK, REP, NEG)
reg.tiers("set_int_from_float", _set_int_from_float, OK, REP)
reg.tiers("set_nan_into_int", _set_nan_into_int, OK)
reg.tiers("scatter_in_loop", _scatter_in_loop, OK, REP, HIGH)
reg.tiers("scatter_self_values", _scatter_self_values, OK, REP)


# ------------------------------------------------------------ mask stores

def _mask_zero(x, idx, v):
    x[x > 0] = 0.0
    return x


def _mask_one_element_array(x, idx, v):
    x[x < 0] = v[:1]
    return x


def _mask_add(x, idx, v):
    x[x > 0.5] += 1.0
    return x, x.sum()


def _mask_nan_compare(x, idx, v):
    y = x / (x > 0)          # NaN/inf where x <= 0 (warnings as eager)
    y[~(y < 1.0)] = -2.0
    return y


def _mask_int8(a, idx, v):
    a[a < 0] = -128
    a[a > 20] = 127
    return a


def _mask_uint8_negative(a, idx, v):
    b = a.view(np.uint8)
    try:
        b[b > 200] = -1
    except OverflowError as e:
        return str(e)
    return b


def _mask_float16_value(x, idx, v):
    h = x.astype(np.float16)
    h[h > 1] = 70000.0
    return h


def _mask_nan_into_int(a, idx, v):
    try:
        a[a > 0] = np.nan
    except ValueError as e:
        return str(e)
    return a


def _mask_all_false(x, idx, v):
    x[x > 100] = 1.0
    return x


def _mask_complex(x, idx, v):
    c = x * (1 + 1j)
    c[x > 0] = 1j
    return c


def _mask_written_then_read(x, idx, v):
    m = x > 0
    x[m] = -x[m]
    return x, m


reg.tiers("mask_zero", _mask_zero, OK, lambda: (-np.abs(X), I_OK.copy(), V.copy()),
      lambda: (np.full(40, np.nan), I_OK.copy(), V.copy()))
reg.tiers("mask_one_element_array", _mask_one_element_array, OK,
      lambda: (np.abs(X), I_OK.copy(), V.copy()))
reg.tiers("mask_add", _mask_add, OK, lambda: (np.full(40, np.inf), I_OK.copy(), V.copy()))
reg.tiers("mask_nan_compare", _mask_nan_compare, OK, lambda: (np.zeros(40), I_OK.copy(), V.copy()))
reg.tiers("mask_int8", _mask_int8, _ai(A8, I_OK), _ai(A8 // 2, I_OK), _ai(A8 * 0, I_OK))
reg.tiers("mask_uint8_negative", _mask_uint8_negative, _ai(A8, I_OK), _ai(A8 * 0, I_OK))
reg.tiers("mask_float16_value", _mask_float16_value, OK, lambda: (X * 0.0, I_OK.copy(), V.copy()))
reg.tiers("mask_nan_into_int", _mask_nan_into_int, _ai(A16, I_OK),
      _ai(-np.abs(A16), I_OK))
reg.tiers("mask_all_false", _mask_all_false, OK, lambda: (X * 1000.0, I_OK.copy(), V.copy()))
reg.tiers("mask_complex", _mask_complex, OK, lambda: (-X, I_OK.copy(), V.copy()))
reg.tiers("mask_written_then_read", _mask_written_then_read, OK,
      lambda: (np.full(40, -0.0), I_OK.copy(), V.copy()))


# ------------------------------------------------------------ run-time-bound slices

# A loop of more trips than the translator unrolls is one loop node; its index in a
# slice's bounds is a run-time integer of the kernel (sym_slices.py). ``lo`` moves the
# windows off either end: short or empty windows (eager: a broadcast ValueError, or a
# shorter sum).

def _slide_add(x, lo):
    out = np.zeros(4)
    for k in range(lo, lo + 30):
        out = out + x[k:k + 4]
    return out


def _slide_add_try(x, lo):
    out = np.zeros(4)
    try:
        for k in range(lo, lo + 30):
            out = out + x[k:k + 4] * 0.5
    except ValueError as e:
        return "caught", str(e)
    return out


def _slide_sum(x, lo):
    acc = 0.0
    for k in range(lo, lo + 30):
        acc += x[k:k + 5].sum()
    return acc


def _slide_max(x, lo):
    acc = np.zeros(())
    for k in range(lo, lo + 30):
        acc = np.maximum(acc, x[k:k + 3].max(initial=-np.inf))
    return acc


def _slide_head(x, lo):
    acc = 0.0
    for n in range(lo, lo + 20):
        acc = acc + x[:n].sum()
    return acc


def _slide_2d(a, lo):
    acc = np.zeros(2)
    for k in range(lo, lo + 12):
        acc = acc + a[k:k + 2, 1:3].sum(axis=0)
    return acc


def _slide_step(x, lo):
    out = np.zeros(3)
    for k in range(lo, lo + 30):
        out = out + x[k:k + 9:3]
    return out


def _slide_reversed(x, lo):
    out = np.zeros(4)
    for k in range(lo, lo + 30):
        out = out + x[k - 4:k][::-1]
    return out


def _slide_int8(a, lo):
    out = np.zeros(4, np.int8)
    for k in range(lo, lo + 30):
        out = out + a[k:k + 4]
    return out


def _slide_write_after(x, lo):
    y = x.copy()
    for k in range(lo, lo + 30):
        y[k + 1:k + 3] = y[k:k + 2] * 0.5
    return y


def _slid(lo, base=None):
    return lambda: ((X if base is None else base).copy(), lo)


X40_2 = RNG.standard_normal((40, 4))

reg.tiers("slide_add", _slide_add, _slid(0), _slid(-10), _slid(20), _slid(-3))
reg.tiers("slide_add_try", _slide_add_try, _slid(0), _slid(-10), _slid(20), _slid(8))
reg.tiers("slide_sum", _slide_sum, _slid(0), _slid(-10), _slid(20), _slid(-60))
reg.tiers("slide_max", _slide_max, _slid(0), _slid(-10), _slid(20), _slid(60))
reg.tiers("slide_head", _slide_head, _slid(1), _slid(-10), _slid(30), _slid(0))
reg.tiers("slide_2d", _slide_2d, _slid(0, X40_2), _slid(-5, X40_2), _slid(35, X40_2))
reg.tiers("slide_step", _slide_step, _slid(0), _slid(-9), _slid(20))
reg.tiers("slide_reversed", _slide_reversed, _slid(4), _slid(0), _slid(15))
reg.tiers("slide_int8", _slide_int8, _slid(0, A8), _slid(-10, A8), _slid(20, A8))
reg.tiers("slide_write_after", _slide_write_after, _slid(0), _slid(-10), _slid(20))


# ------------------------------------------------------------ gathers of small dtypes

def _gather_int8_sum(a, idx, v):
    g = a[idx]
    return g + g, g * np.int8(3), g.sum(), g.dtype


def _gather_uint8_sub(u, idx, v):
    g = u[idx]
    return g - np.uint8(200), g.max(), g + 250


def _gather_float16(h, idx, v):
    return h[idx] * np.float16(4.0), h[idx].sum()


def _gather_bool(x, idx, v):
    b = x > 0
    g = b[idx]
    return g & ~g[::-1], g.sum(), g.any()


def _gather_complex(c, idx, v):
    g = c[idx]
    return g * g, np.abs(g).max(), g.real + g.imag


def _gather_int16_overflow(a, idx, v):
    return a[idx] * np.int16(100), a[idx] + a[idx]


def _gather_int32_min(a, idx, v):
    g = a[idx]
    return np.abs(g), -g, g // np.int32(-1)


reg.tiers("gather_int8_sum", _gather_int8_sum, _ai(A8, I_OK), _ai(A8, I_NEG), _ai(A8, I_HIGH))
reg.tiers("gather_uint8_sub", _gather_uint8_sub, _ai(U8, I_OK), _ai(U8, I_REP), _ai(U8, I_LOW))
reg.tiers("gather_float16", _gather_float16, _ai(H, I_OK), _ai(H_BIG, I_OK))
reg.tiers("gather_bool", _gather_bool, OK, REP, HIGH)
reg.tiers("gather_complex", _gather_complex, _ai(C, I_OK), _ai(C, I_NEG),
      _ai(np.full(40, np.nan + 1j), I_OK))
reg.tiers("gather_int16_overflow", _gather_int16_overflow, _ai(A16, I_OK), _ai(A16, I_REP))
reg.tiers("gather_int32_min", _gather_int32_min, _ai(A32, I_OK),
      _ai(np.full(40, -2**31, np.int32), I_OK), _ai(A32, I_HIGH))


# ------------------------------------------------------------ wraps and NaN extremes

def _int_wrap(a, idx, v):
    return a * np.int32(7), a + a, -a, np.abs(a)


def _int_floor_div_zero(a, idx, v):
    return a // (a % 3), a % (a % 2)


def _uint_underflow(u, idx, v):
    return u - np.uint8(5), (u - 5).dtype, u + 250


def _int8_sum_wrap(a, idx, v):
    return a.sum(dtype=np.int8), a.cumsum(dtype=np.int8)[-1], a.sum()


def _nan_max_min(x, idx, v):
    return x.max(), x.min(), np.maximum(x, 0.0), np.fmin(x, 0.0)


def _nan_argmax(x, idx, v):
    return x.argmax(), x.argmin(), x[:5].max()


def _max_empty(x, idx, v):
    try:
        return x[idx[:0]].max()
    except ValueError as e:
        return str(e)


def _max_signed_zero(x, idx, v):
    z = x * 0.0
    return z.max(), z.min(), np.maximum(z, -z), np.minimum(-z, z)


def _nan_running_max(x, idx, v):
    m = x[0]
    for k in range(1, 6):
        m = np.maximum(m, x[k])
    return m, x[:6].max()


def _nan_loop_max(x, idx, v):
    m = np.full((), -np.inf)
    for k in range(40):
        m = np.maximum(m, x[k])
    return m, np.fmax.reduce(x)


def _NANS():
    y = X.copy()
    y[[2, 7]] = np.nan
    return y, I_OK.copy(), V.copy()


def _ALL_NAN():
    return np.full(40, np.nan), I_OK.copy(), V.copy()


reg.tiers("int_wrap", _int_wrap, _ai(A32, I_OK), _ai(A32 // 3, I_OK))
reg.tiers("int_floor_div_zero", _int_floor_div_zero, _ai(A16, I_OK), _ai(A16 * 0, I_OK))
reg.tiers("uint_underflow", _uint_underflow, _ai(U8, I_OK), _ai(U8 * 0, I_OK))
reg.tiers("int8_sum_wrap", _int8_sum_wrap, _ai(A8, I_OK), _ai(np.full(40, 127, np.int8), I_OK))
reg.tiers("nan_max_min", _nan_max_min, OK, _NANS, _ALL_NAN)
reg.tiers("nan_argmax", _nan_argmax, OK, _NANS, _ALL_NAN)
reg.tiers("max_empty", _max_empty, OK, HIGH)
reg.tiers("max_signed_zero", _max_signed_zero, OK, lambda: (-np.abs(X), I_OK.copy(), V.copy()))
reg.tiers("nan_running_max", _nan_running_max, OK, _NANS, _ALL_NAN)
reg.tiers("nan_loop_max", _nan_loop_max, OK, _NANS, _ALL_NAN)


# ------------------------------------------------------------ stores that cast, warn or overlap

def _complex_into_float(x, idx, v):
    c = x + 1j * x[::-1]
    x[idx] = c[idx]          # ComplexWarning, as eager, on every call
    return x


def _complex_mask_into_float(x, idx, v):
    c = x + 1j
    x[x > 0.5] = c[0]
    return x


def _float_into_bool(x, idx, v):
    b = x > 100
    b[idx] = x[idx] - 1.0
    return b


def _float_add_into_int(a, idx, v):
    try:
        a[idx] += v
    except TypeError as e:   # UFuncTypeError: same_kind casting
        return type(e).__name__
    return a


def _int_floordiv_zero_store(a, idx, v):
    a[idx] //= a[idx] - a[idx]
    return a


def _int_mod_zero_mask(a, idx, v):
    a[a > 2] %= 0
    return a


def _value_is_own_slice(x, idx, v):
    x[idx] = x[5:10]          # the value overlaps the target
    return x


def _value_is_own_reversed(x, idx, v):
    x[idx] = x[::-1][:5] * 1.0
    return x


def _add_own_view(x, idx, v):
    x[idx] += x[2:7]
    return x


def _index_from_target(a, idx, v):
    i = a[:3] % 40
    a[i] = 7
    return a


def _store_overflow_warns(x, idx, v):
    x[idx] = x[:5] * 1e308
    return x


def _store_divide_warns(x, idx, v):
    x[idx] = 1.0 / x[:5]
    return x


def _store_2d_index(x, idx, v):
    try:
        x[idx.reshape(5, 1)] = v
    except ValueError as e:
        return str(e)
    return x


def _store_huge_index(x, idx, v):
    try:
        x[idx * 2**58] = 3.0
    except IndexError as e:
        return str(e)
    return x


def _store_layouts(a, idx, v):
    a[idx % 4, idx % 5] = 9.0
    a[idx % 4] += 1.0
    return a


A45 = RNG.standard_normal((4, 5))
A810 = RNG.standard_normal((8, 10))
reg.tiers("complex_into_float", _complex_into_float, OK, REP, HIGH)
reg.tiers("complex_mask_into_float", _complex_mask_into_float, OK, _ALL_NAN)
reg.tiers("float_into_bool", _float_into_bool, OK, _NANS, REP)
reg.tiers("float_add_into_int", _float_add_into_int, _ai(A16, I_OK), _ai(A16, I_REP))
reg.tiers("int_floordiv_zero_store", _int_floordiv_zero_store, _ai(A16, I_OK), _ai(A16, I_REP),
      _ai(A16, I_HIGH))
reg.tiers("int_mod_zero_mask", _int_mod_zero_mask, _ai(A16, I_OK), _ai(A16 * 0, I_OK))
reg.tiers("value_is_own_slice", _value_is_own_slice, OK, lambda: (X.copy(), np.arange(5, 10), V),
      lambda: (X.copy(), np.array([9, 5, 0, 1, 9]), V), lambda: (X.copy(), np.array([5, 5, 6, 6, 7]), V))
reg.tiers("value_is_own_reversed", _value_is_own_reversed, OK,
      lambda: (X.copy(), np.array([39, 38, 37, 36, 35]), V), REP)
reg.tiers("add_own_view", _add_own_view, OK, lambda: (X.copy(), np.arange(2, 7), V),
      lambda: (X.copy(), np.full(5, 3), V))
reg.tiers("index_from_target", _index_from_target, _ai(np.arange(40), I_OK),
      _ai(np.arange(40)[::-1], I_OK), _ai(A16, I_OK))
reg.tiers("store_overflow_warns", _store_overflow_warns, OK, REP, HIGH)
reg.tiers("store_divide_warns", _store_divide_warns, lambda: (X + 5.0, I_OK.copy(), V),
      lambda: (X * 0.0, I_REP.copy(), V))
reg.tiers("store_2d_index", _store_2d_index, OK, REP)
reg.tiers("store_huge_index", _store_huge_index, lambda: (X.copy(), I_OK * 0, V),
      lambda: (X.copy(), I_OK.copy(), V), lambda: (X.copy(), -I_OK, V))
reg.tiers("store_layouts", _store_layouts, lambda: (A45.copy(), I_OK.copy(), V),
      lambda: (np.asfortranarray(A45), I_REP.copy(), V),
      lambda: (A810.copy()[::2, ::2], I_NEG.copy(), V),
      lambda: (A45.T.copy().T, I_OK.copy(), V))


# ------------------------------------------------------------ masks passed in, sizes that change

def _mask_input(x, m):
    x[m] = 0.5
    return x


def _mask_input_add(x, m):
    x[m] += 1.0
    return x


def _scatter_sizes(x, idx):
    x[idx] = 1.0
    return x


def _gather_sizes(x, idx):
    return x[idx] + 1.0


def _mask_2d(a, m):
    a[m] = -1.0
    return a


M = np.arange(40) % 3 == 0
E = np.array([], np.int64)
reg.tiers("mask_input", _mask_input, lambda: (X.copy(), M.copy()), lambda: (X.copy(), ~M),
      lambda: (X.copy(), M & False), lambda: (X.copy(), M[:39]), lambda: (X.copy(), M | True))
reg.tiers("mask_input_add", _mask_input_add, lambda: (X.copy(), M.copy()),
      lambda: (X.copy(), M & False), lambda: (X.copy(), np.r_[M, True]))
reg.tiers("scatter_sizes", _scatter_sizes, lambda: (X.copy(), I_OK.copy()),
      lambda: (X[:0].copy(), E), lambda: (X[:0].copy(), np.array([0])),
      lambda: (X[:1].copy(), np.array([-1, 0])), lambda: (X[:1].copy(), np.array([-2])))
reg.tiers("gather_sizes", _gather_sizes, lambda: (X.copy(), I_OK.copy()),
      lambda: (X[:0].copy(), E), lambda: (X[:0].copy(), np.array([0])),
      lambda: (X[:1].copy(), np.array([-1, 0])), lambda: (X[:1].copy(), np.array([1])))
reg.tiers("mask_2d", _mask_2d, lambda: (X2.copy(), X2 > 0), lambda: (X2.copy(), X2 > 100),
      lambda: (X2.copy(), np.ones((6, 5), bool)), lambda: (X2.copy(), (X2 > 0)[:, :4]))
reg.tiers("mask_rows", _mask_2d, lambda: (X2.copy(), X2[:, 0] > 0),
      lambda: (X2.copy(), np.zeros(6, bool)), lambda: (X2.copy(), np.zeros(5, bool)))


# ------------------------------------------------------------ special values, elementwise

# Values where C, LLVM and NumPy could each answer differently: shifts by the width or
# more (LLVM: poison; NumPy: 0 or -1), negative integer powers (NumPy: ValueError),
# INT_MIN // -1, remainders and floor divisions by +-0, +-inf and NaN, hypot(inf, nan),
# signed zeros through copysign/arctan2/round, and the warnings each gives.

S = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.5, -2.5, 0.5, 1e308, -1e-320])
T = np.array([np.inf, -np.inf, 0.0, -0.0, np.nan, 1.0, -1.0, 2.0, -3.0, 0.5, 1e-308, 7.0])
AI = np.arange(-6, 6).astype(np.int64)
SH = np.array([0, 1, 63, 64, 65, 100, 3, 2, 1, 62, 70, 0], np.int64)
IM = np.array([np.iinfo(np.int64).min, -7, 7, 0, 5, -5], np.int64)


def _shifts(a, s):
    return a << s, a >> s, np.left_shift(a, s), np.right_shift(a, s)


def _int_pow(a, s):
    try:
        return a ** s
    except ValueError as e:
        return str(e)


def _float_mods(x, y):
    return np.remainder(x, y), np.fmod(x, y), np.floor_divide(x, y), x % y, x // y


def _hypot_atan2(x, y):
    return np.hypot(x, y), np.arctan2(x, y), np.copysign(x, y)


def _rounding(x, y):
    return np.round(x), np.rint(x), np.trunc(x), np.sign(x), np.floor(x), np.ceil(x)


def _powers(x, y):
    return np.power(x, y), x ** 2, x ** 0.5, x ** -1, np.sqrt(x), np.cbrt(x)


def _minmax_pairs(x, y):
    return np.maximum(x, y), np.minimum(x, y), np.fmax(x, y), np.fmin(x, y), np.clip(x, -1.0, y)


def _int_divs(a, b):
    return a // b, a % b, np.fmod(a, b)


def _logs(x, y):
    return np.log(x), np.log1p(x), np.expm1(x), np.exp(x), np.log2(x), np.log10(x)


def _pair(a, b):
    return lambda: (np.array(a), np.array(b))


reg.tiers("shifts", _shifts, _pair(AI, np.arange(12) % 4), _pair(AI, SH),
      _pair(AI.astype(np.int8), SH.astype(np.int8)))
reg.tiers("int_pow", _int_pow, _pair(AI, np.arange(12) % 3), _pair(AI, np.arange(12) - 3),
      _pair(AI.astype(np.uint8), np.full(12, 9, np.uint8)))
reg.tiers("float_mods", _float_mods, _pair(S, T), _pair(T, S), _pair(-S, T))
reg.tiers("hypot_atan2", _hypot_atan2, _pair(S, T), _pair(T, S))
reg.tiers("rounding", _rounding, _pair(S, T), _pair(S * 1.5, T))
reg.tiers("powers", _powers, _pair(S, T), _pair(T, S))
reg.tiers("minmax_pairs", _minmax_pairs, _pair(S, T), _pair(T, S))
reg.tiers("int_divs", _int_divs, _pair(IM, [-1, 2, -2, 1, 0, 3]), _pair(IM, [1, 0, 0, -1, -1, -1]),
      _pair(IM.astype(np.int8), np.array([-1, 2, -2, 1, 0, 3], np.int8)))
reg.tiers("logs", _logs, _pair(S, T), _pair(-S, T))


# ------------------------------------------------------------ during the race of the tiers

# The default ``prefer="measure"``: after the compile, calls alternate tier 1 and tier 2
# (the trial), then the faster runs; hostile values land on either tier, 14 calls.

MEASURE = {"after_calls": 1, "background": False}


def _raced(name, fn, *makers):
    def s(r):
        f = dynamo.compile(fn, backend="native", options=MEASURE) if r.compiled else fn
        for k in range(14):
            r.call(f, *makers[k % len(makers)]())
    s.__name__ = f"{name}_raced"
    reg.scenario(s)


_raced("set_last_wins", _set_last_wins, OK, HIGH, REP, NEG, LOW)
_raced("add_repeated", _add_repeated, OK, REP, HIGH)
_raced("set_in_try", _set_in_try, OK, HIGH, REP)
_raced("slide_add_try", _slide_add_try, _slid(0), _slid(-10), _slid(20))
_raced("slide_sum", _slide_sum, _slid(0), _slid(-10), _slid(20))
_raced("mask_zero", _mask_zero, OK, _NANS, _ALL_NAN)
_raced("int_divs", _int_divs, _pair(IM, [-1, 2, -2, 1, 0, 3]), _pair(IM, [1, 2, 3, 4, 5, 6]))
_raced("store_divide_warns", _store_divide_warns, lambda: (X + 5.0, I_OK.copy(), V),
       lambda: (X * 0.0, I_REP.copy(), V))
