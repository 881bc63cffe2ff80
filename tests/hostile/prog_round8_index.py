"""Round 8, the loop index used as a number inside ``fori_loop`` bodies (docs/loops.md,
"The index as a number"): ``0.1 * t``, ``1 / (1 + k * t)``, ``0.99 ** t``,
``float(t) * dt``, ``abs(t - c)`` against float32/float16/int8/complex arrays (NEP 50:
a Python float keeps a float32 array float32, a NumPy float64 does not), ranges with
negative steps, empty and one-trip ranges, starts beyond int64, Python-int math that
overflows int64 (``2 ** t``, ``t * 10 ** 18``), the index read after the loop, nested
loops reading both indices, shift registers ``u_prev, u = u, u_next``, and trips that
raise or warn."""

import numpy as np
from hostile_check import Programs

reg = Programs("round8_index")
case, scenario = reg.case, reg.scenario

F64 = np.linspace(-1.0, 1.0, 6)
F32 = np.linspace(-1.0, 1.0, 6, dtype=np.float32)
F16 = np.linspace(-1.0, 1.0, 6, dtype=np.float16)
I8 = np.array([-128, -3, 0, 5, 100, 127], dtype=np.int8)
C128 = np.array([1 + 2j, -0.5j, 3.0, 0j, -1 - 1j, 2 + 0.5j])
C64 = C128.astype(np.complex64)


# ============================================================ NEP 50 with the index

def _scale_by_float_of_index(x):
    y = x.copy()
    for t in range(12):
        y = y + 0.1 * t
    return y, y.dtype


case(_scale_by_float_of_index, (F64,), (F32,), (F16,))


def _schedule_inverse(x):
    w = x.copy()
    for t in range(15):
        lr = 1 / (1 + 0.5 * t)
        w = w - lr * w * 0.1
    return w, lr


case(_schedule_inverse, (F64,), (F32,), (F16,))


def _decay_power(x):
    y = x.copy()
    for t in range(20):
        y = y * 0.99 ** t
    return y


case(_decay_power, (F64,), (F32,), (C64,))


def _float_of_index_times_dt(x, dt):
    u = x.copy()
    for t in range(16):
        u = u + np.sin(u) * float(t) * dt
    return u


case(_float_of_index_times_dt, (F64, 0.01), (F32, 0.01), (F16, 0.25))


def _abs_distance_to_center(x):
    acc = np.zeros_like(x)
    for t in range(13):
        acc = acc + x * abs(t - 6)
    return acc, acc.dtype


case(_abs_distance_to_center, (F64,), (F32,), (I8,), (C64,))


def _int_index_times_int8(x):
    # t is a Python int: NEP 50 keeps int8 and wraps (no warning for array ops)
    y = x.copy()
    for t in range(11):
        y = y + t
    return y


case(_int_index_times_int8, (I8,), (np.array([120, -120], dtype=np.int8),))


def _int_index_out_of_int8_range(x):
    # t * 50 reaches 500, which int8 cannot hold as a Python int operand: OverflowError
    y = x.copy()
    try:
        for t in range(12):
            y = y + t * 50
    except OverflowError as e:
        return "overflow", str(e), y
    return y


case(_int_index_out_of_int8_range, (I8,))


def _complex_phase(x):
    z = x.copy()
    for t in range(10):
        z = z * (1 + 0.01j * t)
    return z, z.dtype


case(_complex_phase, (C128,), (C64,), (F32,))


def _numpy_float64_of_index(x):
    # np.float64(t): a NumPy scalar, which makes a float32 array float64
    y = x.copy()
    for t in range(10):
        y = y + np.float64(t) * 0.5
    return y, y.dtype


case(_numpy_float64_of_index, (F32,), (F64,))


def _float32_scalar_times_index(x):
    y = x.copy()
    for t in range(10):
        y = y + np.float32(0.5) * t
    return y, y.dtype


case(_float32_scalar_times_index, (F16,), (F32,))


def _index_divided_true(x):
    y = x.copy()
    for t in range(1, 12):
        y = y + t / 3
    return y, t / 3


case(_index_divided_true, (F32,), (I8.astype(np.float16),))


def _np_sin_of_index(x):
    y = x.copy()
    for t in range(14):
        y = y + np.sin(0.3 * t)
    return y, y.dtype


case(_np_sin_of_index, (F32,), (F64,))


# ============================================================ ranges: steps, empty, huge

def _negative_step(x):
    y = x.copy()
    for t in range(20, 0, -2):
        y = y * 0.5 + 0.01 * t
    return y, t


case(_negative_step, (F64,), (F32,))


def _negative_step_reaching_negative(x):
    y = x.copy()
    for t in range(5, -15, -1):
        y = y + 1.0 / (0.5 + abs(t))
    return y, t


case(_negative_step_reaching_negative, (F64,))


def _zero_step(x):
    y = x.copy()
    try:
        for t in range(0, 10, 0):
            y = y + t
    except ValueError as e:
        return "zero step", str(e)
    return y


case(_zero_step, (F64,))


def _empty_range_index_unbound(x, n):
    y = x.copy()
    for t in range(n):
        y = y + 0.5 * t
    try:
        return y, t
    except UnboundLocalError as e:
        return y, "unbound", type(e).__name__


case(_empty_range_index_unbound, (F64, 12), (F64, 0), (F64, 1), (F64, 30))


def _index_keeps_earlier_value(x, n):
    t = -7
    y = x.copy()
    for t in range(n):
        y = y + 0.25 * t
    return y, t


case(_index_keeps_earlier_value, (F64, 0), (F64, 15), (F64, 9))


def _start_beyond_int64(x):
    y = x.copy()
    base = 10 ** 20
    for t in range(base, base + 12):
        y = y + (t - base) * 0.5
    return y, t


case(_start_beyond_int64, (F64,))


def _float_of_huge_index(x):
    y = x.copy()
    for t in range(2 ** 62, 2 ** 62 + 10):
        y = y + float(t) * 1e-18
    return y, t


case(_float_of_huge_index, (F64,), (F32,))


def _index_times_1e18_overflows_int64(x):
    # t * 10**18 passes 2**63 at t = 10: Python ints grow, the float is exact enough
    y = x.copy()
    for t in range(14):
        y = y + float(t * 10 ** 18) * 1e-18
    return y, t * 10 ** 18


case(_index_times_1e18_overflows_int64, (F64,))


def _index_times_1e18_into_array(x):
    # an int past int64 meets an int64 array: OverflowError at that trip
    y = x.astype(np.int64)
    try:
        for t in range(14):
            y = y + t * 10 ** 18
    except OverflowError as e:
        return "overflow", str(e), y
    return y


case(_index_times_1e18_into_array, (np.array([1, 2, 3]),))


def _two_to_the_index(x):
    y = x.copy()
    for t in range(70):
        y = y + 2 ** t * 1e-20
    return y


case(_two_to_the_index, (F64,))


def _two_to_the_index_int_array(x):
    y = x.copy()
    try:
        for t in range(70):
            y = y + 2 ** t
    except OverflowError as e:
        return "overflow", str(e), y
    return y


case(_two_to_the_index_int_array, (np.zeros(3, dtype=np.int64),),
     (np.zeros(3, dtype=np.uint64),))


def _index_squared_float(x):
    y = x.copy()
    for t in range(12):
        y = y + 1e-3 * t * t
    return y


case(_index_squared_float, (F32,), (F64,))


def _huge_range_broken_early(x):
    y = x.copy()
    for t in range(10 ** 15):
        y = y * 0.5 + 0.001 * t
        if t == 11:
            break
    return y, t


case(_huge_range_broken_early, (F64,))


# ============================================================ after the loop, nesting

def _index_after_loop_float(x):
    for t in range(17):
        x = x + 0.5
    return x, t, 0.1 * t, type(t).__name__


case(_index_after_loop_float, (F64,), (F32,))


def _float_temp_after_loop(x):
    lr = 1.0
    for t in range(25):
        lr = 0.5 / (1.0 + 0.1 * t)
        x = x - lr * x
    return x, lr


case(_float_temp_after_loop, (F64,), (F32,))


def _float_temp_raises_at_end(x):
    r = 0.0
    try:
        for t in range(20):
            r = 1.0 / (t - 19)
            x = x + r
    except ZeroDivisionError as e:
        return "zde", str(e), x, r
    return x, r


case(_float_temp_raises_at_end, (F64,))


def _float_temp_raises_mid(x, log):
    try:
        for t in range(20):
            x = x + 1.0 / (t - 12)
            log.append(t) if t > 100 else None
    except ZeroDivisionError as e:
        log.append(str(e))
    return x


case(_float_temp_raises_mid, (F64, []))


def _nested_both_indices(x):
    y = x.copy()
    for i in range(10):
        for j in range(9):
            y = y + 0.01 * i - 0.001 * j
    return y, i, j


case(_nested_both_indices, (F64,), (F32,))


def _nested_inner_uses_outer_product(x):
    y = x.copy()
    for i in range(9):
        for j in range(10):
            y = y * (1.0 + 1e-3 * (i * j - 20))
    return y


case(_nested_inner_uses_outer_product, (F64,), (F16,))


def _nested_inner_range_of_outer(x):
    y = x.copy()
    for i in range(12):
        for j in range(i):
            y = y + 0.1 * (i - j)
    return y


case(_nested_inner_range_of_outer, (F64,))


def _shift_register(x):
    u_prev = x.copy()
    u = x * 1.01
    for t in range(30):
        u_next = 2.0 * u - u_prev + 1e-3 * t * np.roll(u, 1)
        u_prev, u = u, u_next
    return u, u_prev


case(_shift_register, (F64,), (F32,))


def _shift_register_three(x):
    a, b, c = x.copy(), x + 1.0, x + 2.0
    for t in range(21):
        nxt = (a + b + c) / 3.0 + 0.01 * t
        a, b, c = b, c, nxt
    return a, b, c


case(_shift_register_three, (F64,), (F32,))


def _shift_register_aliasing_input(x):
    u_prev = x
    u = x
    for t in range(12):
        u_next = u + 0.5 * (u - u_prev) + 0.1 * t
        u_prev, u = u, u_next
    return u, u_prev is x, u is x


case(_shift_register_aliasing_input, (F64,))


def _shift_register_in_place(x):
    u_prev = x.copy()
    u = x.copy()
    for t in range(11):
        u_next = u + 0.1 * t
        u_prev[:] = u
        u, u_next = u_next, u
    return u, u_prev, u_next


case(_shift_register_in_place, (F64,))


def _index_in_setitem_value(x):
    out = np.zeros((12,) + x.shape, dtype=x.dtype)
    for t in range(12):
        out[t] = x * (0.5 * t)
    return out


case(_index_in_setitem_value, (F32,), (F16,), (C64,))


def _index_warns_per_trip(x):
    y = x.copy()
    for t in range(10):
        y = y + np.log(x * (t - 4.0))
    return y


case(_index_warns_per_trip, (np.array([1.0, 2.0]),))


def _index_float_division_by_zero_numpy(x):
    y = x.copy()
    for t in range(10):
        y = y + x / (0.5 * t - 2.0)
    return y


case(_index_float_division_by_zero_numpy, (np.array([1.0, -1.0, 0.0]),))


def _print_index_float(x):
    for t in range(9):
        x = x + 0.1 * t
    print("last", t, 0.1 * t)
    return x


case(_print_index_float, (F64,))


def _bool_index_arithmetic(x):
    y = x.copy()
    for t in range(10):
        y = y + (t > 4) * 0.5 + True * t
    return y


case(_bool_index_arithmetic, (F64,))


def _index_minus_float_abs_complex(x):
    y = x.copy()
    for t in range(11):
        y = y + abs(complex(t, -3))
    return y


case(_index_minus_float_abs_complex, (F32,), (F64,))


def _float16_overflow_of_weak_float(x):
    # 1e4 * t passes float16's largest value (65504) at t = 7: inf, with a warning
    y = x.copy()
    for t in range(12):
        y = y + 1e4 * t
    return y


case(_float16_overflow_of_weak_float, (F16,), (F32,))


def _uint8_plus_negative_index_expr(x):
    # a negative Python int does not fit uint8: OverflowError at the first trip
    y = x.copy()
    try:
        for t in range(12):
            y = y + (t - 5)
    except OverflowError as e:
        return "overflow", str(e), y
    return y


case(_uint8_plus_negative_index_expr, (np.array([0, 200, 255], dtype=np.uint8),),
     (I8,))


def _divide_by_index_first_trip(x):
    y = x.copy()
    try:
        for t in range(12):
            y = y + 1 / t
    except ZeroDivisionError as e:
        return "zde", str(e), y
    return y


case(_divide_by_index_first_trip, (F64,))


def _index_mod_float(x):
    y = x.copy()
    for t in range(14):
        y = y + (0.7 * t) % 1.0 - (-0.3 * t) // 1.0
    return y


case(_index_mod_float, (F64,), (F32,))


def _complex_of_index(x):
    z = x.astype(np.complex64)
    for t in range(10):
        z = z + complex(0.5 * t, -t) * 1j
    return z, z.dtype


case(_complex_of_index, (F32,), (C128,))


def _index_sizes_after_loop(x):
    for t in range(11):
        x = x + 0.5 * t
    return np.zeros(t), x[:t], x[t % x.shape[0]]


case(_index_sizes_after_loop, (F64,), (np.arange(20.0),))


def _index_over_symbolic_length(x):
    acc = np.zeros_like(x)
    for t in range(x.shape[0]):
        acc = acc + 0.01 * t * x
    return acc, t


case(_index_over_symbolic_length, (np.arange(12.0),), (np.arange(20.0),), (np.arange(9.0),),
     (np.arange(31.0),))


def _index_counts_down_symbolic(x, n):
    y = x.copy()
    for t in range(n, 0, -1):
        y = y * (1.0 - 1.0 / (t + 1))
    return y


case(_index_counts_down_symbolic, (F64, 12), (F64, 20), (F64, 9), (F64, 0), (F64, 33))
