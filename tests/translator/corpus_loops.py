"""Adversarial loop programs for loop nodes (dynamo/translator/loops.py).

``PROGRAMS`` is a list of ``(name, fn, make_args)`` (or ``pytest.param`` of one, marked
``xfail`` where compiled and plain Python differ: the reason names the cause). Each
``fn`` is a plain module-level function; most loops run more than
``config.loop_unroll_limit`` (8) trips, so that they are tried as loop nodes.
Used by tests/translator/test_loop_corpus.py.
"""

from __future__ import annotations

import numpy as np
import pytest

N = 12   # trips: more than the unroll limit


# the index is a SymInt (an int subclass): an int method it does not override computes
# with its hint, the index of one trip, and records no pin, so the body is wrong


def _xfail(reason: str):
    """A program compiled code gets wrong today (strict: it must fail until fixed)."""
    return pytest.mark.xfail(strict=True, reason=reason)


def _f(*shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(dtype)


def _i(*shape, dtype=np.int64, seed=0, low=-5, high=6):
    return np.random.default_rng(seed).integers(low, high, size=shape).astype(dtype)


# ------------------------------------------------------------------ aliasing and views
def alias_view_tail(x):
    v = x[1:]
    for i in range(N):
        v += 1.0
        x[0] += v[0]
    return x, v


def alias_transpose(x):
    t = x.T
    for i in range(N):
        x[0, 1] += 1.0
        t[0, 1] *= 2.0
    return x, t


def alias_reshape(x):
    r = x.reshape(-1)
    for i in range(N):
        r[i] = i
        x[0, 0] += 0.5
    return x, r


def same_array_two_names(x):
    y = x
    for i in range(N):
        x += 1.0
        y *= 0.5
    return x, y, x is y


def inplace_on_view_of_carried(x):
    for i in range(N):
        w = x[::2]
        w += i
    return x


def view_rebound_each_trip(x):
    for i in range(N):
        x = x[::-1]
        x[0] += 1
    return x


def view_of_carried_kept(x):
    for i in range(N):
        v = x[i % 3:]
        v[0] = i
    return x, v


def transpose_rebound_odd(x):
    for i in range(9):
        x = x.T
        x[0, 1] += 1.0
    return x


def carried_becomes_copy(x):
    for i in range(N):
        x = x.copy()
        x[0] += 1
    return x


def view_temp_read_after(x):
    for i in range(N):
        v = x[1:]
        v *= 1.5
    return v, x


# ------------------------------------------------------------------ swaps and rotations
def rotate3_odd(a, b, c):
    for i in range(9):
        a, b, c = b, c, a
        a[0] += i
    return a, b, c


def rotate3_even(a, b, c):
    for i in range(10):
        a, b, c = c, a, b
        b[1] -= i
    return a, b, c


def rotate3_eleven(a, b, c):
    for i in range(11):
        a, b, c = b, c, a
    return a, b, c


def swap_with_new(a, b):
    for i in range(N):
        a, b = b, a + 1
    return a, b


def rebind_to_constant(x):
    z = np.zeros(3)
    for i in range(N):
        x = z
        x[0] += 1
    return x, z


def rebind_to_pre_loop_array(x, y):
    for i in range(N):
        x = y
    return x, y, x is y


def swap_and_identity(a, b):
    for i in range(N):
        a, b = b, a
    return a, b, a is b


# ------------------------------------------------------------------ counters
def counter_up(x):
    k = 0
    for i in range(N):
        k += 1
        x[i % 1] += k
    return x, k


def counter_down3(x):
    k = 40
    for i in range(N):
        x[k // 40] += 1
        k -= 3
    return x, k


def two_counters(x):
    j, k = 0, 100
    for i in range(N):
        x[j] += k
        j += 1
        k -= 2
    return x, j, k


def counter_as_index_and_after(x):
    k = 2
    for i in range(N):
        x[k] = i
        k += 1
    return x, k, x[k - 1]


def counter_step_changes(x):
    k = 0
    for i in range(N):
        k += i
        x[0] += 1
    return x, k


def counter_float(x):
    k = 0.0
    for i in range(N):
        k += 1
        x[0] += 1
    return x, k


def counter_used_as_float(x):
    k = 0
    for i in range(N):
        x[0] += k * 0.5
        k += 1
    return x, k


def counter_bool_toggle(x):
    flag = False
    for i in range(N):
        flag = not flag
        x[0] += 1
    return x, flag


# ------------------------------------------------------------------ range shapes
def negative_step(x):
    for i in range(20, 0, -2):
        x[i % 7] += i
    return x


def negative_step_index(x):
    for i in range(x.shape[0] - 1, 0, -1):
        x[i] = x[i - 1] * 2
    return x, i


def large_step(x):
    for i in range(0, 100, 9):
        x[i // 9] = i
    return x, i


def reversed_rows(x):
    for i in reversed(range(x.shape[0])):
        x[i] += x[(i + 1) % x.shape[0]]
    return x, i


def range_from_args(x, a, b, s):
    for i in range(a, b, s):
        x[i] *= 2
    return x


def zero_trips(x):
    i = -1
    for i in range(x.shape[0], 3):
        x[i] = 0
    return x, i


def one_trip(x):
    for i in range(1):
        x[i] = 7
    return x, i


def nine_trips(x):
    for i in range(9):
        x[i] = x[i] * i
    return x, i


def index_after_loop_negative(x):
    for i in range(N, -1, -1):
        x[i] += 1
    return x, i


# ------------------------------------------------------------------ exceptions
def index_error_midway(x):
    for i in range(N):
        x[i] = i
    return x


def index_error_counter(x):
    k = 0
    for i in range(N):
        x[k] = i
        k += 2
    return x


def index_error_negative(x):
    for i in range(N):
        x[3 - i] = i
    return x


def raises_in_row_loop(x, y):
    for row in x:
        y[0] += row
        y[1] = y[0] @ row
    return y


def shape_error_midway(x):
    for i in range(N):
        x[0] += x[i:i + 3]
    return x


def zero_division_warning(x, y):
    for i in range(N):
        x[i] = 1.0 / y[i]
    return x


def errstate_in_body(x, y):
    for i in range(N):
        with np.errstate(divide="ignore"):
            x[i] = 1.0 / y[i]
    return x


def errstate_raise_around(x, y):
    with np.errstate(divide="raise"):
        for i in range(N):
            x[i] = 1.0 / y[i]
    return x


def int_overflow(x):
    for i in range(N):
        x *= 7
    return x


def int_overflow_scalar(x):
    s = np.int8(1)
    for i in range(N):
        s = s * np.int8(3) + x[0]
    return s


# ------------------------------------------------------------------ dtypes
def promote_int8_index(x):
    for i in range(N):
        x = x * i
    return x


def promote_int8_index_accum(x):
    t = x
    for i in range(N):
        t = x * i + t
    return t


def promote_uint8_index(x):
    out = np.zeros(3, np.int64)
    for i in range(N):
        out += x * i
    return out


def promote_float32_index(x):
    for i in range(N):
        x = x * i + 1
    return x


def store_index_int(x):
    for i in range(N):
        x[i] = i
    return x


def store_index_bool(x):
    for i in range(N):
        x[i] = i
    return x


def store_index_uint8_wrap(x):
    for i in range(250, 262):
        x[i - 250] = np.uint8(i % 256)
    return x


def store_neg_into_uint(x):
    for i in range(N):
        x[i] = i - 5
    return x


def mixed_dtype_carries(a, b, c):
    for i in range(N):
        a += 1
        b += 0.5
        c ^= True
    return a, b, c


def accum_python_int_to_array(x):
    s = 0
    for i in range(N):
        s = s + x[i]
    return s


def accum_python_float_to_array(x):
    s = 0.0
    for i in range(N):
        s += x[i] * 2
    return s


def accum_float32_scalar(x):
    s = np.float32(0)
    for i in range(N):
        s = s + x[i]
    return s


def accum_0d(x):
    s = np.array(0.0)
    for i in range(N):
        s += x[i]
    return s


def accum_0d_rebound(x):
    s = np.array(0, np.int32)
    for i in range(N):
        s = s + x[i]
    return s


def accum_becomes_float64(x):
    s = np.zeros(2, np.float32)
    for i in range(N):
        s = s + x[i] * 1.0
    return s


def accum_int_to_float(x):
    s = np.zeros(2, np.int64)
    for i in range(N):
        s = s / 2 + x[i]
    return s


def numpy_scalar_index_mul(x):
    s = np.float32(1.5)
    for i in range(N):
        x[i] = s * i
    return x


# ------------------------------------------------------------------ control flow
def for_else_index(x):
    for i in range(N):
        x[i] += 1
    else:
        x[0] = i
    return x


def continue_every_trip(x):
    for i in range(N):
        x[i] += 1
        continue
    return x


def continue_conditional(x):
    for i in range(N):
        if x[0] > 100:
            continue
        x[i] += 1
    return x


def nested_inner_outer(x):
    for i in range(N):
        for j in range(3):
            x[i, j] += i * j
    return x


def nested_long_inner(x):
    for i in range(3):
        for j in range(N):
            x[i, j] = x[i, j - 1] + 1
    return x, i, j


def nested_triangular(x):
    for i in range(N):
        for j in range(i):
            x[i] += x[j]
    return x


class Stepper:
    def __init__(self):
        self.count = 0

    def run(self, x):
        for i in range(N):
            x[i] += i
        return x


def _helper_loop(x, n):
    for i in range(n):
        x = x * 0.5 + i
    return x


def loop_in_helper(x):
    return _helper_loop(x, N) + _helper_loop(x, 10)


def loop_in_method(s, x):
    return s.run(x), s.count


def rows_loop(x):
    out = np.zeros(x.shape[1])
    for row in x:
        out = out * 0.5 + row
    return out, row


def rows_of_transpose(x):
    out = np.zeros(x.shape[0])
    for col in x.T:
        out += col
        col[0] = 0
    return out, x


def rows_write_row(x):
    for row in x:
        row *= 2
        row[0] = row[1]
    return x


def rows_of_int_array_promote(x):
    acc = np.zeros(3, np.int8)
    for row in x:
        acc = acc + row
    return acc


# ------------------------------------------------------------------ Python state
def appends(x):
    out = []
    for i in range(N):
        out.append(x[i] * 2)
    return out


class Box:
    pass


def attribute_writes(x, b):
    for i in range(N):
        b.last = x[i]
        b.n = i
    return b


COUNTER = [0]
GLOBAL_SUM = 0


def global_writes(x):
    global GLOBAL_SUM
    for i in range(N):
        GLOBAL_SUM = i
        x[i] += 1
    return x, GLOBAL_SUM


def prints_each(x):
    for i in range(N):
        print(i, x[i])
    return x


def dict_writes(x):
    d = {}
    for i in range(N):
        d["last"] = x[i]
    return d


def generator_in_body(x):
    g = iter(range(100))
    for i in range(N):
        x[i] += next(g)
    return x


def closure_read(x):
    c = 2.5

    def scale(v):
        return v * c
    for i in range(N):
        x[i] = scale(x[i])
    return x


def closure_array_read(x):
    y = np.arange(3.0)

    def add(v):
        return v + y
    for i in range(N):
        x = add(x)
    return x


def closure_rebound(x):
    c = 0

    def bump():
        nonlocal c
        c += 1
    for i in range(N):
        bump()
        x[0] += 1
    return x, c


def random_in_body(x, rng):
    for i in range(N):
        x[i] += rng.random()
    return x


def random_array_in_body(x, rng):
    for i in range(N):
        x = x + rng.standard_normal(3)
    return x


def global_random_state(x):
    for i in range(N):
        x[i] = np.random.default_rng(i).random()
    return x


def list_of_arrays_in_body(x):
    arrs = [np.zeros(3), np.ones(3)]
    for i in range(N):
        arrs[0] += x[i]
    return arrs


def tuple_accumulator(x):
    acc = (np.zeros(3), np.zeros(3))
    for i in range(N):
        acc = (acc[1] + x[i], acc[0])
    return acc


def free_array_written_through_object(x, b):
    for i in range(N):
        b.arr[i % 3] += x[i]
    return b


def read_index_float(x):
    for i in range(N):
        x[i] = float(i) / 2
    return x


def index_in_slice_moving(x):
    out = np.zeros(3)
    for i in range(N):
        out += x[i:i + 3]
    return out


def slice_negative_bound(x):
    out = np.zeros(2)
    for i in range(N):
        out += x[i - 2:i]
    return out


def index_negative_wraps(x):
    for i in range(N):
        x[i - 3] += 1
    return x


def index_as_shape(x):
    out = 0
    for i in range(N):
        out = out + np.zeros(i % 1 + 2).sum()
    return out, x


def loop_var_shadowed(x):
    i = 100
    for i in range(N):
        x[i] += 1
    return x, i


def loop_over_range_object(x, r):
    for i in r:
        x[i] += 1
    return x


def len_of_array_in_body(x):
    for i in range(N):
        x[i] = len(x) - i
    return x


def empty_rows(x):
    out = np.ones(3)
    for row in x:
        out += row
    return out


# ------------------------------------------------------------------ the index as an int
def index_rlshift(x):
    for i in range(N):
        x[i] = 1 << i
    return x


def index_rand(x):
    for i in range(N):
        x[i] = 3 & i
    return x


def index_ror(x):
    for i in range(N):
        x[i] = 3 | i
    return x


def index_rxor(x):
    for i in range(N):
        x[i] = 3 ^ i
    return x


def index_invert(x):
    for i in range(N):
        x[i] = ~i
    return x


def index_bit_length(x):
    for i in range(N):
        x[i] = i.bit_length()
    return x


def index_real(x):
    for i in range(N):
        x[i] = i.real
    return x


def index_conjugate(x):
    for i in range(N):
        x[i] = i.conjugate()
    return x


def index_numerator(x):
    for i in range(N):
        x[i] = i.numerator
    return x


def index_to_bytes(x):
    for i in range(N):
        x[i] = i.to_bytes(2, "little")[0]
    return x


def index_true_divide(x):
    for i in range(N):
        x[i] = i / 2
    return x


def index_temp_float_after(x):
    for i in range(N):
        x[0] += 1
        t = i / 2
    return x, t


def index_temp_invert_after(x):
    for i in range(N):
        x[0] += 1
        t = ~i
    return x, t


def counter_rlshift(x):
    k = 0
    for i in range(N):
        x[i] = 1 << k
        k += 1
    return x, k


# ------------------------------------------------------------------ NEP 50 overflow by the index
def index_mul_int8_overflows(x):
    for i in range(120, 135):
        x[0] = x[1] * i
    return x


def index_add_uint8_negative(x):
    for i in range(5, -7, -1):
        x[0] = x[1] + i
    return x


def index_store_int8_overflows(x):
    for i in range(120, 135):
        x[i - 120] = i
    return x


def index_full_int8_overflows(x):
    for i in range(120, 135):
        x[i - 120] = np.full(1, i, dtype=np.int8)[0]
    return x


def index_scalar_int8_overflows(x):
    s = x[0]
    for i in range(120, 135):
        x[1] = s + i
    return x


# ------------------------------------------------------------------ rows and rebinding
def rows_of_rebound_array(x):
    acc = np.zeros(3)
    for row in x:
        acc = acc + row
        x = x * 2
    return acc, x


def rows_of_rebound_array_swap(x, y):
    acc = np.zeros(3)
    for row in x:
        acc = acc + row
        x, y = y, x
    return acc, x, y


def rows_of_view_of_carried(x):
    for row in x[::-1]:
        x += row
    return x


def rows_1d_scalars(x):
    acc = 0.0
    for v in x:
        acc = acc + v
    return acc, v, type(v).__name__


def rows_1d_int8_sum(x):
    acc = np.int8(0)
    for v in x:
        acc = acc + v
    return acc


def rows_1d_last_used(x):
    for v in x:
        x[0] += 1
    return v


# ------------------------------------------------------------------ aliasing through objects
def closure_view_of_carried(x):
    v = x[:2]

    def get():
        return v
    for i in range(N):
        x[2] += get().sum()
    return x


def object_view_of_carried(x, b):
    b.v = x[:2]
    for i in range(N):
        x[2] += b.v.sum()
    return x


def object_same_as_carried(x, b):
    b.arr = x
    for i in range(N):
        x[2] += b.arr[1] * 2
        x[1] += 1
    return x


def list_view_read_after(x):
    views = [x[1:]]
    for i in range(N):
        x += 1
    return views[0].sum(), x


def list_view_invariant_read(x):
    views = [x[::2]]
    for i in range(N):
        x[1] = np.exp(views[0]).sum()
        x[0] += 0.125
    return x


def global_array_alias(x):
    GLOBAL_ARR[:] = 0
    for i in range(N):
        GLOBAL_ARR[0] += GLOBAL_VIEW[1] + 1
        GLOBAL_ARR[1] += 1
    return x + GLOBAL_ARR


GLOBAL_ARR = np.zeros(3)
GLOBAL_VIEW = GLOBAL_ARR[:]


def free_view_reduced(x):
    w = x.reshape(2, -1)
    for i in range(N):
        x[0] = w.sum() * 0.5
    return x


# ------------------------------------------------------------------ iterators from outside
def consume_outer_iterator(x):
    it = iter(range(20))
    next(it)
    for i in it:
        x[i % 1 + i - i] += 1
    return x, list(it)


def exception_mid_loop_state(x, m):
    for i in range(N):
        x[i] = i
        y = np.linalg.inv(m[i])
    return x, y


def rows_of_array_rebound_to_other(x, y):
    acc = np.zeros(3)
    for row in x:
        acc = acc + row
        x = y
    return acc, x


def _bump_all(x):
    for i in range(N):
        x[i % 1 + i - i] += 1
    return x.sum()


def stack_view_across_helper_loop(x):
    return x[:2] + _bump_all(x)


def stack_view_across_helper_loop_exp(x):
    return np.exp(x[:2]) * _bump_all(x)


def zero_division_short_loop(x, y):
    for i in range(4):
        x[i] = 1.0 / y[i]
    return x



# ------------------------------------------------------------------ more corners
def huge_range(x):
    for i in range(2**63, 2**63 + N):
        x[i - 2**63] = (i - 2**63) * 2
    return x, i


def huge_range_scalar(x):
    for i in range(2**62, 2**62 + N):
        x[0] = x[0] + (i - 2**62)
    return x, i


def huge_index_value(x):
    for i in range(2**70, 2**70 + N):
        x[i - 2**70] = 1.0 * (i - 2**70)
    return x, i - 2**70


def fib_int8(x):
    for i in range(2, N):
        x[i] = x[i - 1] + x[i - 2]
    return x


def counter_slice(x):
    k = 0
    for i in range(N):
        x[k:k + 2] += 1
        k += 1
    return x, k


def temp_from_counter(x):
    k = 3
    for i in range(N):
        j = k * 2
        x[i] = j
        k += 1
    return x, j, k


def diag_write(x):
    for i in range(N):
        x[i, i] = i
        x[i, -i - 1] = -i
    return x


def roll_by_index(x):
    out = np.zeros(3)
    for i in range(N):
        out += np.roll(x, i) * i
    return out


def fancy_index(x):
    for i in range(N - 1):
        x[[i, i + 1]] += 1
    return x


def rows_then_index(x):
    for i in range(N):
        x[i] = x[i][::-1]
    return x


def step_three_reverse_rows(x):
    acc = np.zeros(2)
    for i in range(x.shape[0] - 1, -1, -3):
        acc = acc * 2 + x[i]
    return acc, i


def carried_fortran(x):
    for i in range(N):
        x = x * 2 + 1
    return x, x.flags.f_contiguous


def bool_carried_not(x):
    for i in range(N):
        x = ~x
    return x


def int_floor_div_zero(x, y):
    for i in range(N):
        x[i] = x[i] // y[i]
    return x


def nan_store(x):
    for i in range(N):
        x[i] = np.nan
    return x


def inplace_out(x, y):
    for i in range(N):
        np.add(x, y, out=x)
    return x


def inplace_out_alias(x):
    for i in range(N):
        np.add(x[:-1], x[1:], out=x[1:])
    return x


def matmul_accum(a, m):
    for i in range(N):
        a = a @ m
    return a


def trips_from_arg(x, n):
    for i in range(n):
        x[i] += n
    return x


# ------------------------------------------------------------------ slices that grow
def grow_mean_from_empty(x):
    out = np.zeros(N)
    for i in range(N):
        out[i] = x[:i].mean()              # trip 0: "Mean of empty slice", nan
    return out


def grow_mean_to_empty(x):
    out = np.zeros(N)
    for i in range(N):
        out[i] = x[i + 1:].mean(axis=0).sum()   # the last trip: "Mean of empty slice"
    return out


def grow_inv_singular_at_k(x, a):
    for i in range(1, N):
        x[i] = np.linalg.inv(a[:i, :i]).sum()   # singular from i = 6 on
    return x


def grow_int8_overflow(x):
    t = np.zeros(1, dtype=np.int8)
    for i in range(1, N):
        t = t + x[:i].sum(dtype=np.int8)
    return t


def grow_len_of_slice(x):
    t = 0.0
    for i in range(1, N):
        t = t + len(x[:i]) * x[i]          # the size as a Python int: unrolled
    return t


def grow_inplace_prefix(x):
    for i in range(1, N):
        x[:i] += x[i]
    return x


def grow_overlapping_copy(x):
    n = x.shape[0]
    for i in range(1, N):
        x[i:] = x[:n - i]
    return x


def grow_reversed_view(x):
    t = np.zeros(3)
    for i in range(3, N):
        t = t + x[i::-1][:3] * x[:i][::-1][:3]
    return t


def grow_float32(x):
    t = np.float32(0)
    for i in range(1, N):
        t = t + x[:i].sum() * np.float32(0.5)
    return t


def grow_cumsum_tail(x):
    out = np.zeros(N)
    for i in range(1, N):
        out[i] = np.cumsum(x[:i])[-1] - x[:i].sum()
    return out


def grow_to_empty_max(x):
    out = np.zeros(N)
    for i in range(N):
        out[i] = x[i + 1:].max()           # the last trip's slice is empty: ValueError
    return out


def grow_column_and_row(a):
    for i in range(1, N):
        a[i, :i] = a[:i, i] * 0.5
    return a


def grow_broadcast_against_one(x):
    t = np.zeros(N)
    for i in range(1, N):
        t[:i] = t[:i] + x[i - 1:i]          # (i,) + (1,)
    return t


# ------------------------------------------------------------------ the list
PROGRAMS = [
    ("grow_mean_from_empty", grow_mean_from_empty, lambda: (_f(N),)),
    ("grow_mean_to_empty", grow_mean_to_empty, lambda: (_f(N, 3),)),
    ("grow_inv_singular_at_k", grow_inv_singular_at_k,
     lambda: (_f(N), np.where(np.arange(N) < 5, 1.0, 0.0)[:, None] * np.eye(N) + 0.0)),
    ("grow_int8_overflow", grow_int8_overflow, lambda: (_i(N, dtype=np.int8, low=60, high=120),)),
    ("grow_len_of_slice", grow_len_of_slice, lambda: (_f(N),)),
    ("grow_inplace_prefix", grow_inplace_prefix, lambda: (_f(N),)),
    ("grow_overlapping_copy", grow_overlapping_copy, lambda: (_f(N + 3),)),
    ("grow_reversed_view", grow_reversed_view, lambda: (_f(N),)),
    ("grow_float32", grow_float32, lambda: (_f(N, dtype=np.float32),)),
    ("grow_cumsum_tail", grow_cumsum_tail, lambda: (_f(N),)),
    ("grow_to_empty_max", grow_to_empty_max, lambda: (_f(N),)),
    ("grow_column_and_row", grow_column_and_row, lambda: (_f(N, N),)),
    ("grow_broadcast_against_one", grow_broadcast_against_one, lambda: (_f(N),)),
    ("alias_view_tail", alias_view_tail, lambda: (_f(14),)),
    ("alias_transpose", alias_transpose, lambda: (_f(3, 3),)),
    ("alias_reshape", alias_reshape, lambda: (_f(4, 4),)),
    ("same_array_two_names", same_array_two_names, lambda: (_f(3),)),
    ("inplace_on_view_of_carried", inplace_on_view_of_carried, lambda: (_f(7),)),
    ("view_rebound_each_trip", view_rebound_each_trip, lambda: (_f(5),)),
    ("view_of_carried_kept", view_of_carried_kept, lambda: (_f(6),)),
    ("transpose_rebound_odd", transpose_rebound_odd, lambda: (_f(3, 3),)),
    ("carried_becomes_copy", carried_becomes_copy, lambda: (_f(3),)),
    ("view_temp_read_after", view_temp_read_after, lambda: (_f(4),)),
    ("rotate3_odd", rotate3_odd, lambda: (_f(3), _f(3, seed=1), _f(3, seed=2))),
    ("rotate3_even", rotate3_even, lambda: (_f(3), _f(3, seed=1), _f(3, seed=2))),
    ("rotate3_eleven", rotate3_eleven, lambda: (_f(3), _f(3, seed=1), _f(3, seed=2))),
    ("swap_with_new", swap_with_new, lambda: (_f(3), _f(3, seed=1))),
    ("rebind_to_constant", rebind_to_constant, lambda: (_f(3),)),
    ("rebind_to_pre_loop_array", rebind_to_pre_loop_array, lambda: (_f(3), _f(3, seed=1))),
    ("swap_and_identity", swap_and_identity, lambda: (_f(3), _f(3, seed=1))),
    ("counter_up", counter_up, lambda: (_f(3),)),
    ("counter_down3", counter_down3, lambda: (_f(3),)),
    ("two_counters", two_counters, lambda: (_f(N),)),
    ("counter_as_index_and_after", counter_as_index_and_after, lambda: (_f(N + 2),)),
    ("counter_step_changes", counter_step_changes, lambda: (_f(3),)),
    ("counter_float", counter_float, lambda: (_f(3),)),
    ("counter_used_as_float", counter_used_as_float, lambda: (_f(3),)),
    ("counter_bool_toggle", counter_bool_toggle, lambda: (_f(3),)),
    ("negative_step", negative_step, lambda: (_f(7),)),
    ("negative_step_index", negative_step_index, lambda: (_f(N),)),
    ("large_step", large_step, lambda: (_f(N),)),
    ("reversed_rows", reversed_rows, lambda: (_f(N, 2),)),
    ("range_from_args", range_from_args, lambda: (_f(30), 2, 27, 2)),
    ("range_from_args_negative", range_from_args, lambda: (_f(30), 25, -1, -2)),
    ("zero_trips", zero_trips, lambda: (_f(N),)),
    ("one_trip", one_trip, lambda: (_f(3),)),
    ("nine_trips", nine_trips, lambda: (_f(9),)),
    ("index_after_loop_negative", index_after_loop_negative, lambda: (_f(N + 1),)),
    ("index_error_midway", index_error_midway, lambda: (_f(10),)),
    ("index_error_counter", index_error_counter, lambda: (_f(N),)),
    ("index_error_negative", index_error_negative, lambda: (_f(5),)),
    ("raises_in_row_loop", raises_in_row_loop, lambda: (_f(N, 3), _f(2, 3))),
    ("shape_error_midway", shape_error_midway, lambda: (_f(N),)),
    ("zero_division_warning", zero_division_warning,
     lambda: (_f(N), np.where(np.arange(N) % 4 == 0, 0.0, 1.0))),
    ("errstate_in_body", errstate_in_body,
     lambda: (_f(N), np.where(np.arange(N) % 4 == 0, 0.0, 1.0))),
    ("errstate_raise_around", errstate_raise_around,
     lambda: (_f(N), np.where(np.arange(N) == 5, 0.0, 1.0))),
    ("int_overflow", int_overflow, lambda: (_i(3, dtype=np.int8),)),
    ("int_overflow_scalar", int_overflow_scalar, lambda: (_i(3, dtype=np.int8),)),
    ("promote_int8_index", promote_int8_index, lambda: (_i(3, dtype=np.int8),)),
    ("promote_int8_index_accum", promote_int8_index_accum, lambda: (_i(3, dtype=np.int8),)),
    ("promote_uint8_index", promote_uint8_index, lambda: (_i(3, dtype=np.uint8, low=0),)),
    ("promote_float32_index", promote_float32_index, lambda: (_f(3, dtype=np.float32),)),
    ("store_index_int", store_index_int, lambda: (np.zeros(N, np.int16),)),
    ("store_index_bool", store_index_bool, lambda: (np.zeros(N, bool),)),
    ("store_index_uint8_wrap", store_index_uint8_wrap, lambda: (np.zeros(N, np.uint8),)),
    ("store_neg_into_uint", store_neg_into_uint, lambda: (np.zeros(N, np.uint8),)),
    ("mixed_dtype_carries", mixed_dtype_carries,
     lambda: (np.zeros(2, np.int8), np.zeros(2, np.float32), np.zeros(2, bool))),
    ("accum_python_int_to_array", accum_python_int_to_array, lambda: (_i(N, 2),)),
    ("accum_python_float_to_array", accum_python_float_to_array, lambda: (_f(N, 2),)),
    ("accum_float32_scalar", accum_float32_scalar, lambda: (_f(N, dtype=np.float32),)),
    ("accum_0d", accum_0d, lambda: (_f(N),)),
    ("accum_0d_rebound", accum_0d_rebound, lambda: (_i(N, dtype=np.int8),)),
    ("accum_becomes_float64", accum_becomes_float64, lambda: (_f(N, 2, dtype=np.float32),)),
    ("accum_int_to_float", accum_int_to_float, lambda: (_i(N, 2),)),
    ("numpy_scalar_index_mul", numpy_scalar_index_mul, lambda: (np.zeros(N, np.float32),)),
    ("for_else_index", for_else_index, lambda: (_f(N),)),
    ("continue_every_trip", continue_every_trip, lambda: (_f(N),)),
    ("continue_conditional", continue_conditional, lambda: (_f(N),)),
    ("nested_inner_outer", nested_inner_outer, lambda: (_f(N, 3),)),
    ("nested_long_inner", nested_long_inner, lambda: (_f(3, N),)),
    ("nested_triangular", nested_triangular, lambda: (_f(N),)),
    ("loop_in_helper", loop_in_helper, lambda: (_f(3),)),
    ("loop_in_method", loop_in_method, lambda: (Stepper(), _f(N))),
    ("rows_loop", rows_loop, lambda: (_f(N, 3),)),
    ("rows_of_transpose", rows_of_transpose, lambda: (_f(3, N),)),
    ("rows_write_row", rows_write_row, lambda: (_f(N, 3),)),
    ("rows_of_int_array_promote", rows_of_int_array_promote,
     lambda: (_i(N, 3, dtype=np.int16, low=100, high=120),)),
    ("appends", appends, lambda: (_f(N),)),
    ("attribute_writes", attribute_writes, lambda: (_f(N), Box())),
    ("global_writes", global_writes, lambda: (_f(N),)),
    ("prints_each", prints_each, lambda: (_f(N),)),
    ("dict_writes", dict_writes, lambda: (_f(N),)),
    ("generator_in_body", generator_in_body, lambda: (_f(N),)),
    ("closure_read", closure_read, lambda: (_f(N),)),
    ("closure_array_read", closure_array_read, lambda: (_f(3),)),
    ("closure_rebound", closure_rebound, lambda: (_f(3),)),
    ("random_in_body", random_in_body, lambda: (_f(N), np.random.default_rng(1))),
    ("random_array_in_body", random_array_in_body,
     lambda: (_f(3), np.random.default_rng(2))),
    ("global_random_state", global_random_state, lambda: (_f(N),)),
    ("list_of_arrays_in_body", list_of_arrays_in_body, lambda: (_f(N, 3),)),
    ("tuple_accumulator", tuple_accumulator, lambda: (_f(N, 3),)),
    ("free_array_written_through_object", free_array_written_through_object,
     lambda: (_f(N), _box_with_array())),
    ("read_index_float", read_index_float, lambda: (_f(N),)),
    ("index_in_slice_moving", index_in_slice_moving, lambda: (_f(N + 2),)),
    ("slice_negative_bound", slice_negative_bound, lambda: (_f(N),)),
    ("index_negative_wraps", index_negative_wraps, lambda: (_f(N),)),
    ("index_as_shape", index_as_shape, lambda: (_f(3),)),
    ("loop_var_shadowed", loop_var_shadowed, lambda: (_f(N),)),
    ("loop_over_range_object", loop_over_range_object, lambda: (_f(N), range(1, N, 1))),
    ("len_of_array_in_body", len_of_array_in_body, lambda: (_f(N),)),
    ("empty_rows", empty_rows, lambda: (np.zeros((0, 3)),)),
    ("index_rlshift", index_rlshift, lambda: (np.zeros(N),)),
    ("index_rand", index_rand, lambda: (np.zeros(N),)),
    ("index_ror", index_ror, lambda: (np.zeros(N),)),
    ("index_rxor", index_rxor, lambda: (np.zeros(N),)),
    ("index_invert", index_invert, lambda: (np.zeros(N),)),
    ("index_bit_length", index_bit_length, lambda: (np.zeros(N),)),
    ("index_real", index_real, lambda: (np.zeros(N),)),
    ("index_conjugate", index_conjugate, lambda: (np.zeros(N),)),
    ("index_numerator", index_numerator, lambda: (np.zeros(N),)),
    ("index_to_bytes", index_to_bytes, lambda: (np.zeros(N),)),
    ("index_true_divide", index_true_divide, lambda: (np.zeros(N),)),
    ("index_temp_float_after", index_temp_float_after, lambda: (np.zeros(N),)),
    ("index_temp_invert_after", index_temp_invert_after, lambda: (np.zeros(N),)),
    ("counter_rlshift", counter_rlshift, lambda: (np.zeros(N),)),
    ("index_mul_int8_overflows", index_mul_int8_overflows,
     lambda: (np.array([0, 1], np.int8),)),
    ("index_add_uint8_negative", index_add_uint8_negative,
     lambda: (np.array([0, 9], np.uint8),)),
    ("index_store_int8_overflows", index_store_int8_overflows, lambda: (np.zeros(15, np.int8),)),
    ("index_full_int8_overflows", index_full_int8_overflows, lambda: (np.zeros(15, np.int8),)),
    ("index_scalar_int8_overflows", index_scalar_int8_overflows,
     lambda: (np.array([0, 1], np.int8),)),
    ("rows_of_rebound_array", rows_of_rebound_array, lambda: (_f(N, 3),)),
    ("rows_of_rebound_array_swap", rows_of_rebound_array_swap,
     lambda: (_f(N, 3), _f(N, 3, seed=1))),
    ("rows_of_view_of_carried", rows_of_view_of_carried, lambda: (_f(N, 3),)),
    ("rows_1d_scalars", rows_1d_scalars, lambda: (_f(N),)),
    ("rows_1d_int8_sum", rows_1d_int8_sum, lambda: (_i(N, dtype=np.int8, low=100, high=120),)),
    ("rows_1d_last_used", rows_1d_last_used, lambda: (_f(N),)),
    ("closure_view_of_carried", closure_view_of_carried, lambda: (_f(5),)),
    ("object_view_of_carried", object_view_of_carried, lambda: (_f(5), Box())),
    ("object_same_as_carried", object_same_as_carried, lambda: (_f(5), Box())),
    ("list_view_read_after", list_view_read_after, lambda: (_f(5),)),
    ("list_view_invariant_read", list_view_invariant_read, lambda: (_f(5),)),
    ("global_array_alias", global_array_alias, lambda: (_f(3),)),
    ("free_view_reduced", free_view_reduced, lambda: (_f(6),)),
    ("consume_outer_iterator", consume_outer_iterator, lambda: (_f(N),)),
    ("exception_mid_loop_state", exception_mid_loop_state,
     lambda: (_f(N), np.stack([np.eye(2) * (i != 9) for i in range(N)]))),
    ("rows_of_array_rebound_to_other", rows_of_array_rebound_to_other,
     lambda: (_f(N, 3), _f(N, 3, seed=1))),
    ("stack_view_across_helper_loop", stack_view_across_helper_loop, lambda: (_f(N),)),
    ("stack_view_across_helper_loop_exp", stack_view_across_helper_loop_exp,
     lambda: (_f(N),)),
    ("zero_division_short_loop", zero_division_short_loop, lambda: (_f(4), np.zeros(4))),
    ("huge_range", huge_range, lambda: (np.zeros(N),)),
    ("huge_range_scalar", huge_range_scalar, lambda: (np.zeros(2, np.int64),)),
    ("huge_index_value", huge_index_value, lambda: (np.zeros(N),)),
    ("fib_int8", fib_int8, lambda: (np.array([1, 1] + [0] * 10, np.int8),)),
    ("counter_slice", counter_slice, lambda: (np.zeros(N + 1),)),
    ("temp_from_counter", temp_from_counter, lambda: (np.zeros(N),)),
    ("diag_write", diag_write, lambda: (np.zeros((N, N)),)),
    ("roll_by_index", roll_by_index, lambda: (np.arange(3.0),)),
    ("fancy_index", fancy_index, lambda: (np.zeros(N),)),
    ("rows_then_index", rows_then_index, lambda: (np.arange(N * 3.0).reshape(N, 3),)),
    ("step_three_reverse_rows", step_three_reverse_rows,
     lambda: (np.arange(N * 2.0).reshape(N, 2),)),
    ("carried_fortran", carried_fortran, lambda: (np.asfortranarray(np.ones((3, 3))),)),
    ("bool_carried_not", bool_carried_not, lambda: (np.array([True, False]),)),
    ("int_floor_div_zero", int_floor_div_zero, lambda: (np.arange(N), np.arange(N) % 3)),
    ("nan_store", nan_store, lambda: (np.zeros(N),)),
    ("inplace_out", inplace_out, lambda: (np.zeros(3), np.ones(3))),
    ("inplace_out_alias", inplace_out_alias, lambda: (np.ones(N),)),
    ("matmul_accum", matmul_accum, lambda: (np.ones(2), np.eye(2) * 1.5)),
    ("trips_from_arg", trips_from_arg, lambda: (np.zeros(N), N)),
]


def _box_with_array():
    b = Box()
    b.arr = np.zeros(3)
    return b
