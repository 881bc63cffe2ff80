"""Loops: ``for`` loops that a compiler turning loops into loop nodes (docs/loops.md) or
outlining their bodies (dynamo/bytecode/outline.py) must get exactly right.

Carried NumPy scalars of every dtype (float16/float32 stay what they are, int8/uint8
wrap with their warnings, bool, complex) mixed with Python ints and floats (NEP 50);
carried arrays that swap, alias each other or views of an input, or change dtype or
shape in a trip; overlapping reads and writes; negative and non-unit steps; ranges over
sizes that change between calls (0, 1, 2 and many); ``for``/``else``, ``break`` and
``continue``; the index after the loop; ``enumerate``, ``zip``, rows, generators;
nested and triangular loops; helpers, closures and methods in the body; Python state
written per trip and an exception at trip k (earlier trips stay visible); warnings per
trip, ``np.seterrcall`` and ``np.errstate``; huge ranges with an early break; ``print``
over large arrays (outlined bodies); ``del`` of a carried name; a loop variable that
shadows the array it iterates. Most loops run more than ``config.loop_unroll_limit`` (8)
trips, so that they are tried as loop nodes. tests/translator/corpus_loops.py has the
single-call programs; these are called several times, with changing sizes and values.
"""

import warnings

import numpy as np
from hostile_check import Args, Programs

reg = Programs("loops")
case, scenario = reg.case, reg.scenario

N = 12                                  # trips: more than the unroll limit
BIG = 40000                             # elements: loops over these are outlined


def _f(*shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, size=shape).astype(dtype)


def _i(*shape, dtype=np.int64, seed=0, low=-5, high=6):
    return np.random.default_rng(seed).integers(low, high, size=shape).astype(dtype)


class Box:
    def __init__(self):
        self.n = 0
        self.items = []


# -- carried NumPy scalars of every dtype ------------------------------------------------

def _f16_scalar_sum(x):
    s = np.float16(0)
    for i in range(len(x)):
        s = s + x[i]
    return s


case(_f16_scalar_sum, (np.linspace(0, 100, 20).astype(np.float16),),
     (np.full(N, 6000, np.float16),))


def _f32_scalar_times_python_float(x):
    s = np.float32(1)
    for i in range(N):
        s = s * 1.1 + x
    return s, type(s)


case(_f32_scalar_times_python_float, (0.5,), (np.float32(0.25),), (np.float64(0.25),))


def _f32_scalar_plus_index(x):
    s = x[0]
    for i in range(N):
        s = s + i
        s = s / 3
    return s


case(_f32_scalar_plus_index, (np.ones(3, np.float32),), (np.ones(3, np.float16),))


def _int8_scalar_wraps(x):
    s = np.int8(100)
    for i in range(N):
        s = s + x
    return s


case(_int8_scalar_wraps, (np.int8(10),), (np.int8(-30),), (3,))


def _uint8_scalar_wraps_down(x):
    s = np.uint8(5)
    for i in range(N):
        s -= x
    return s


case(_uint8_scalar_wraps_down, (np.uint8(1),), (np.uint8(2),))


def _int8_array_wraps_silently(x):
    for i in range(N):
        x = x * 3 + 1
    return x


case(_int8_array_wraps_silently, (np.array([1, -1, 50, 127], np.int8),),
     (np.array([0, 2], np.uint8),))


def _bool_scalar_xor(x):
    b = np.bool_(False)
    for i in range(len(x)):
        b = b ^ (x[i] > 0)
    return b, type(b)


case(_bool_scalar_xor, (_f(N),), (_f(15, seed=3),))


def _bool_array_carried(x):
    m = x > 0
    for i in range(N):
        m = m | (x > i / N)
        m = ~m
    return m


case(_bool_array_carried, (_f(6),))


def _complex64_scalar_rotate(z):
    for i in range(N):
        z = z * 1j + 0.5
    return z, type(z)


case(_complex64_scalar_rotate, (np.complex64(1 + 1j),), (np.complex128(1),), (1 + 0j,))


def _complex_array_phase(x):
    z = np.ones(x.shape, np.complex64)
    for i in range(N):
        z = z * np.exp(1j * x)
    return z


case(_complex_array_phase, (_f(4, dtype=np.float32),), (_f(4),))


def _int64_scalar_times_python_float(x):
    s = x[0]
    for i in range(N):
        s = s * 1.5
    return s, type(s)


case(_int64_scalar_times_python_float, (np.arange(3),), (np.arange(3, dtype=np.uint8),))


def _python_int_plus_int32_overflows(x):
    s = 0
    for i in range(len(x)):
        s = s + x[i]
    return s, type(s)


case(_python_int_plus_int32_overflows, (np.full(N, 2 ** 29, np.int32),),
     (np.full(N, 2 ** 60, np.int64),), (np.arange(N, dtype=np.int16),))


def _python_float_plus_float32(x):
    s = 0.0
    for i in range(len(x)):
        s += x[i]
    return s, type(s)


case(_python_float_plus_float32, (np.full(N, 0.1, np.float32),), (np.full(N, 0.1),))


def _float32_acc_float64_item(x, y):
    s = np.float32(0)
    for i in range(N):
        s = s + x[i] * y
    return s, type(s)


case(_float32_acc_float64_item, (_f(N, dtype=np.float32), 2.0),
     (_f(N, dtype=np.float32), np.float64(2.0)), (_f(N), np.float32(2.0)))


def _uint8_array_plus_big_python_int(x):
    for i in range(N):
        x = x + (250 + i)
    return x


case(_uint8_array_plus_big_python_int, (np.zeros(3, np.uint8),), (np.zeros(3, np.int16),))


def _float16_array_overflows_at_k(x):
    for i in range(N):
        x = x * 4
    return x


case(_float16_array_overflows_at_k, (np.array([1.0, 100.0, -3.0], np.float16),))


def _python_float_acc_exact(x):
    s = 0.0
    for i in range(20):
        s = s + 0.1
        x = x + s
    return x, s


case(_python_float_acc_exact, (np.zeros(2),))


def _builtin_max_changes_type(x):
    m = -1
    for i in range(len(x)):
        m = max(m, x[i])
    return m, type(m)


case(_builtin_max_changes_type, (np.full(N, -5.0),), (_f(N),), (np.arange(N, dtype=np.int8),))


def _zero_d_carried(x):
    a = np.array(1.0, dtype=x.dtype)
    for i in range(N):
        a = a * x + 1
    return a, type(a)


case(_zero_d_carried, (np.float32(0.5),), (np.array(0.5),))


def _zero_d_inplace(x):
    a = np.zeros((), x.dtype)
    for i in range(len(x)):
        a += x[i]
    return a


case(_zero_d_inplace, (_f(N),), (np.arange(N, dtype=np.int8) * 20,))


# -- carried arrays that swap, alias, are views ------------------------------------------

def _swap_trips_from_arg(a, b, t):
    for i in range(t):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a, b = b, a
    return a, b


case(_swap_trips_from_arg, (_f(8), np.zeros(8), 9), (_f(8), np.zeros(8), 10),
     (_f(8), np.zeros(8), 13), (_f(8), np.zeros(8), 0))


def _same_array_twice(a, b):
    for i in range(N):
        a[1:] += b[:-1] * 0.5
    return a, b


case(_same_array_twice, lambda: (lambda x: (x, x))(np.arange(6.0)),
     lambda: (np.arange(6.0), np.ones(6)))


def _overlapping_views_of_input(x):
    a = x[:-1]
    b = x[1:]
    for i in range(N):
        a += b
    return x


case(_overlapping_views_of_input, (np.arange(5.0),))


def _view_kept_of_carried(a):
    v = a[::2]
    for i in range(N):
        a += 1
        v *= 2
    return a, v


case(_view_kept_of_carried, (np.zeros(6),))


def _carried_and_its_alias(x):
    b = x
    for i in range(N):
        b = x
        x = x + 1
    return x, b, b is x


case(_carried_and_its_alias, (np.zeros(3),))


def _alias_rebound_to_other_each_trip(a, b):
    c = a
    for i in range(N):
        c[0] += 1
        c = b if c is a else a
    return a, b, c is a


case(_alias_rebound_to_other_each_trip, (np.zeros(2), np.zeros(2)))


def _write_through_view_index(x):
    v = x[2:]
    for i in range(N):
        v[i] = v[i] + x[i]
    return x


case(_write_through_view_index, (np.arange(N + 2.0),))


def _propagate_forward(x):
    for i in range(1, len(x)):
        x[i] = x[i - 1]
    return x


case(_propagate_forward, (np.arange(N, dtype=np.float64),), (np.arange(20),), (np.zeros(1),))


def _swap_adjacent_slices(x):
    for i in range(1, len(x)):
        x[i - 1:i + 1] = x[i - 1:i + 1][::-1]
    return x


case(_swap_adjacent_slices, (np.arange(N, dtype=np.float64),), (np.arange(15),))


def _overlapping_slice_add(x):
    for i in range(len(x) - 1):
        x[i:i + 2] += x[i]
    return x


case(_overlapping_slice_add, (np.ones(N),), (np.ones(10, np.int8),))


def _shift_whole_array_each_trip(x):
    for i in range(N):
        x[1:] = x[:-1]
        x[0] = i
    return x


case(_shift_whole_array_each_trip, (np.zeros(5),), (np.zeros(15, np.int32),))


def _transpose_each_trip(a):
    for i in range(N + 1):
        a = a.T + 1
    return a


case(_transpose_each_trip, (np.zeros((2, 3)),), (np.zeros((3, 3)),))


def _dtype_changes_first_trip(a):
    for i in range(N):
        a = a + 0.5
    return a


case(_dtype_changes_first_trip, (np.arange(3),), (np.arange(3, dtype=np.float32),))


def _dtype_changes_mid_loop(a):
    for i in range(N):
        if i == 6:
            a = a.astype(np.float32)
        a = a * 3
    return a


case(_dtype_changes_mid_loop, (np.arange(3, dtype=np.int8),))


def _shape_grows(a):
    for i in range(N):
        a = np.append(a, a[-1] * 2)
    return a


case(_shape_grows, (np.ones(1),), (np.ones(3, np.int8),))


def _shape_shrinks_to_empty(a):
    for i in range(N):
        a = a[1:] + 1
    return a, a.shape


case(_shape_shrinks_to_empty, (np.arange(15.0),), (np.arange(12.0),), (np.arange(5.0),))


def _reverse_view_each_trip(a, t):
    for i in range(t):
        a = a[::-1]
        a[0] += 1
    return a


case(_reverse_view_each_trip, (np.zeros(4), 11), (np.zeros(4), 12))


def _rebind_to_input_view(x):
    a = x.copy()
    for i in range(N):
        a = x[1:] if i % 2 else x[:-1]
        a += 1
    return x, a


case(_rebind_to_input_view, (np.zeros(5),))


def _results_share_memory(x):
    out = x
    for i in range(N):
        out = out[:]
        out += 1
    return out, x


case(_results_share_memory, (np.zeros(3),))


def _inplace_ufunc_out_other(x, y):
    for i in range(N):
        np.add(x, y, out=y)
        np.multiply(y, 0.5, out=x)
    return x, y


case(_inplace_ufunc_out_other, (np.ones(3), np.ones(3)),
     lambda: (lambda z: (z, z))(np.ones(3)))


def _fortran_carried_rebound(a):
    for i in range(N):
        a = a * 2 + a.T
    return a


case(_fortran_carried_rebound, (np.asfortranarray(np.arange(9.0).reshape(3, 3)),))


def _readonly_input_written(x):
    for i in range(N):
        x[i % 3] = i
    return x


def _readonly():
    a = np.zeros(3)
    a.flags.writeable = False
    return (a,)


case(_readonly_input_written, _readonly, (np.zeros(3),))


# -- ranges: steps, sizes that change, zero trips ----------------------------------------

def _step_minus_two(x):
    for i in range(len(x) - 1, -1, -2):
        x[i] = x[i] * 2 + i
    return x


case(_step_minus_two, (np.ones(N),), (np.ones(13),), (np.ones(1),), (np.ones(0),))


def _step_three(x):
    for i in range(1, len(x), 3):
        x[i] += x[i - 1]
    return x, i


case(_step_three, (np.ones(30),), (np.ones(31),), (np.ones(32),), (np.ones(2),))


def _index_all_sizes(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        y[i] = x[i] * i
    return y


case(_index_all_sizes, (np.ones(0),), (np.ones(1),), (np.ones(2),), (np.ones(9),),
     (np.ones(20),), (np.ones(33),), calls=1)


def _prefix_sum_all_sizes(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x


case(_prefix_sum_all_sizes, (np.ones(10),), (np.ones(0),), (np.ones(1),), (np.ones(2),),
     (np.ones(11),), (np.arange(50.0),), calls=1)


def _backward_sweep_all_sizes(x):
    for i in range(len(x) - 2, -1, -1):
        x[i] = x[i] - 0.5 * x[i + 1]
    return x


case(_backward_sweep_all_sizes, (np.ones(12),), (np.ones(1),), (np.ones(2),),
     (np.ones(20),), (np.ones(0),), calls=1)


def _index_unbound_after_zero_trips(x, n):
    for i in range(n):
        x = x + i
    return x, i


case(_index_unbound_after_zero_trips, (np.zeros(2), N), (np.zeros(2), 0), (np.zeros(2), 1))


def _trips_symbolic_many(x, t):
    for i in range(t):
        x = x * 0.5 + i
    return x


case(_trips_symbolic_many, (np.ones(3), 0), (np.ones(3), 1), (np.ones(3), 2),
     (np.ones(3), 9), (np.ones(3), 10), (np.ones(3), 25), (np.ones(3), 8), calls=1)


def _trips_down_symbolic(x, t):
    for i in range(t, 0, -1):
        x = x + i
    return x, i


case(_trips_down_symbolic, (np.ones(2), 12), (np.ones(2), 20), (np.ones(2), 31),
     (np.ones(2), 1), calls=1)


def _range_negative_start(x):
    for i in range(-5, 7):
        x[i] += i
    return x


case(_range_negative_start, (np.zeros(8),), (np.zeros(7),))


def _range_from_numpy_int(x, n):
    for i in range(n):
        x = x + i
    return x, i, type(i)


case(_range_from_numpy_int, (np.zeros(2), np.int64(12)), (np.zeros(2), np.uint8(10)))


def _range_bound_changes_in_body(x):
    n = len(x)
    for i in range(n):
        n = n - 1
        x[n] += i
    return x, n


case(_range_bound_changes_in_body, (np.zeros(N),))


def _reversed_range(x):
    for i in reversed(range(len(x))):
        x[i] = x[i - 1] + 1
    return x


case(_reversed_range, (np.zeros(N),), (np.zeros(3),))


def _loop_var_rebound_in_body(x):
    for i in range(N):
        i = i * 2
        x[i % len(x)] += i
    return x, i


case(_loop_var_rebound_in_body, (np.zeros(5),))


def _range_step_from_arg(x, s):
    for i in range(0, len(x), s):
        x[i] = i
    return x


case(_range_step_from_arg, (np.zeros(30), 2), (np.zeros(30), 3), (np.zeros(30), -1),
     calls=1)


def _range_step_zero(x, s):
    for i in range(0, 10, s):
        x = x + i
    return x


case(_range_step_zero, (np.zeros(2), 1), (np.zeros(2), 0))


def _huge_range_break_on_index(x):
    for i in range(10 ** 9):
        x = x + 1
        if i == 20:
            break
    return x, i


case(_huge_range_break_on_index, (np.zeros(3),))


def _huge_range_break_on_value(x):
    for i in range(10 ** 9):
        x = x * 1.5
        if x.sum() > 1000:
            break
    return x, i


case(_huge_range_break_on_value, (np.ones(3),), (np.full(3, 100.0),))


def _huge_range_index_as_value(x):
    for i in range(10 ** 12, 10 ** 12 + N):
        x = x + i
    return x


case(_huge_range_index_as_value, (np.zeros(2),), (np.zeros(2, np.float32),),
     (np.zeros(2, np.int32),))


# -- for/else, break, continue -------------------------------------------------------------

def _for_else_python_break(x, k):
    for i in range(N):
        x[i] = i
        if i == k:
            break
    else:
        x[0] = -1
    return x, i


case(_for_else_python_break, (np.zeros(N), 5), (np.zeros(N), 99), (np.zeros(N), 0))


def _break_on_numpy_comparison(x):
    for i in range(len(x)):
        if x[i] > 0:
            break
        x[i] = 7
    return x, i


case(_break_on_numpy_comparison, (np.array([-1.0] * 10 + [1.0, -1.0]),),
     (np.full(N, -1.0),), (np.array([1.0] + [-1.0] * 11),))


def _break_on_nan_comparison(x):
    acc = 0.0
    for i in range(len(x)):
        if not x[i] < 10:
            break
        acc = acc + x[i]
    return acc, i


case(_break_on_nan_comparison, (np.array([1.0] * 10 + [np.nan, 3.0]),),
     (np.ones(N),))


def _continue_python_condition(x):
    for i in range(20):
        if i % 3 == 0:
            continue
        x = x + i
    return x


case(_continue_python_condition, (np.zeros(2),))


def _continue_on_numpy(x):
    s = np.zeros(())
    for i in range(len(x)):
        if x[i] < 0:
            continue
        s = s + x[i]
    return s


case(_continue_on_numpy, (_f(N),), (_f(N, seed=5),))


def _for_else_no_break_returns(x):
    for i in range(N):
        x = x + 1
    else:
        return x, "else", i
    return None


case(_for_else_no_break_returns, (np.zeros(2),))


def _return_inside_loop(x):
    for i in range(len(x)):
        if x[i] == 3:
            return i, x
        x[i] = -x[i]
    return None, x


case(_return_inside_loop, (np.arange(N),), (np.arange(2),))


def _break_on_any(x):
    acc = x.copy()
    for i in range(N):
        acc = acc * 2 - 1
        if (acc > 50).any():
            break
    return acc, i


case(_break_on_any, (np.array([1.5, 0.9]),), (np.array([1.0, 1.0]),))


def _bool_of_array_in_condition(x):
    for i in range(N):
        if x[i:i + 2]:
            x[i] = 5
    return x


case(_bool_of_array_in_condition, (np.zeros(N),))


# -- enumerate, zip, rows, generators -------------------------------------------------------

def _enumerate_rows_start(m):
    out = np.zeros(len(m))
    for k, row in enumerate(m, start=5):
        out[k - 5] = row.sum() * k
    return out


case(_enumerate_rows_start, (np.arange(36.0).reshape(N, 3),), (np.zeros((0, 3)),))


def _zip_unequal(a, b):
    s = np.zeros(a.shape[1:])
    for x, y in zip(a, b):
        s = s + x * y
    return s


case(_zip_unequal, (np.ones((N, 2)), np.ones((9, 2))), (np.ones((10, 2)), np.ones((15, 2))))


def _zip_strict_raises(a, b):
    s = np.zeros(())
    for x, y in zip(a, b, strict=True):
        s = s + x * y
    return s


case(_zip_strict_raises, (np.ones(N), np.ones(N)), (np.ones(N), np.ones(N + 1)))


def _rows_modified_through_view(m):
    for row in m:
        row *= 2
        row += row[0]
    return m


case(_rows_modified_through_view, (np.arange(30.0).reshape(10, 3),))


def _rows_see_later_writes(m):
    for i, row in enumerate(m):
        if i + 1 < len(m):
            m[i + 1] += row
    return m


case(_rows_see_later_writes, (np.ones((N, 2)),))


def _iterate_1d_scalars(x):
    s = 0
    for v in x:
        s = s * 2 + v
    return s, type(s)


case(_iterate_1d_scalars, (np.arange(N, dtype=np.uint8),), (np.arange(N, dtype=np.float16),))


def _iterate_transpose_rows(m):
    out = []
    for col in m.T:
        out.append(col * 1)
    return np.stack(out), out[0].flags.c_contiguous


case(_iterate_transpose_rows, (np.arange(36.0).reshape(3, N),))


def _iterate_list_of_arrays(xs):
    acc = xs[0] * 0
    for a in xs:
        acc = acc + a
        a[0] = -1
    return acc, xs


case(_iterate_list_of_arrays, lambda: ([np.ones(2) * k for k in range(N)],))


def _generator_consumed_by_next(x):
    g = (v * 2 for v in x)
    acc = 0.0
    for i in range(N):
        acc = acc + next(g)
    return acc


case(_generator_consumed_by_next, (np.ones(N),), (np.ones(5),))


def _generator_feeds_loop(x):
    acc = np.zeros(x.shape[1:])
    for r in (row * 2 for row in x):
        acc = acc + r
    return acc


case(_generator_feeds_loop, (np.ones((N, 2)),))


def _iterator_partly_consumed(x):
    it = iter(x)
    first = next(it)
    acc = first * 0
    for row in it:
        acc = acc + row
    return acc, first


case(_iterator_partly_consumed, (np.arange(24.0).reshape(N, 2),))


def _zip_huge_range(m):
    acc = 0.0
    for i, row in zip(range(10 ** 9), m):
        acc = acc + row.sum() * i
    return acc, i


case(_zip_huge_range, (np.ones((N, 3)),))


def _ndindex_loop(m):
    out = np.zeros_like(m)
    for idx in np.ndindex(*m.shape):
        out[idx] = m[idx] * sum(idx)
    return out


case(_ndindex_loop, (np.arange(12.0).reshape(3, 4),))


def _dict_of_arrays_loop(d):
    acc = 0.0
    for k, v in d.items():
        acc = acc + v * len(k)
        v += 1
    return acc, d


case(_dict_of_arrays_loop, lambda: ({f"k{'x' * i}": np.ones(2) * i for i in range(N)},))


def _list_grows_while_iterated(x):
    items = [x]
    for a in items:
        if len(items) < N:
            items.append(a * 2)
    return items[-1], len(items)


case(_list_grows_while_iterated, (np.ones(2),))


def _loop_var_shadows_array(x):
    for x in x:  # noqa: B020 (the point of the program)
        x = x * 2
    return x


case(_loop_var_shadows_array, (np.arange(36.0).reshape(N, 3),), (np.arange(N),))


# -- nested loops ---------------------------------------------------------------------------

def _triangular_lower_fill(a):
    n = len(a)
    for i in range(n):
        for j in range(i):
            a[i, j] = a[j, i] + i - j
    return a


case(_triangular_lower_fill, (np.ones((N, N)),), (np.ones((3, 3)),), (np.ones((0, 0)),))


def _dependent_bounds_upper(a):
    n = len(a)
    s = 0.0
    for i in range(n):
        for j in range(i, n):
            s = s + a[i, j]
    return s


case(_dependent_bounds_upper, (np.arange(100.0).reshape(10, 10),), (np.eye(2),))


def _doolittle_lu(a):
    n = len(a)
    L = np.eye(n)
    U = np.zeros((n, n))
    for i in range(n):
        for k in range(i, n):
            U[i, k] = a[i, k] - L[i, :i] @ U[:i, k]
        for k in range(i + 1, n):
            L[k, i] = (a[k, i] - L[k, :i] @ U[:i, i]) / U[i, i]
    return L, U


def _spd(n):
    return lambda: (np.eye(n) * n + np.ones((n, n)),)


case(_doolittle_lu, _spd(10), _spd(4), _spd(11), calls=1)


def _gauss_seidel(a, b):
    x = np.zeros_like(b)
    for sweep in range(10):
        for i in range(len(b)):
            x[i] = (b[i] - a[i, :i] @ x[:i] - a[i, i + 1:] @ x[i + 1:]) / a[i, i]
    return x


case(_gauss_seidel, (np.eye(N) * 4 + 0.1, np.arange(N, dtype=float)),
     (np.eye(3) * 4 + 0.1, np.ones(3)))


def _inner_break(a):
    counts = np.zeros(len(a), np.int64)
    for i in range(len(a)):
        for j in range(a.shape[1]):
            if a[i, j] < 0:
                break
            counts[i] += 1
    return counts


case(_inner_break, (_f(N, 10),), (_f(3, 10, seed=4),))


def _inner_zero_trips_first(x):
    for i in range(N):
        for j in range(i):
            x[j] += 1
    return x, i


case(_inner_zero_trips_first, (np.zeros(N),))


def _nested_index_names_reused(x):
    for i in range(N):
        for i in range(3):
            x[i] += 1
    return x, i


case(_nested_index_names_reused, (np.zeros(4),))


# -- helpers, closures, methods in the body --------------------------------------------------

def _bump(a, i):
    a[i] += i
    return a[i]


def _helper_mutates(x):
    s = 0.0
    for i in range(len(x)):
        s = s + _bump(x, i)
    return x, s


case(_helper_mutates, (np.zeros(N),))


def _closure_nonlocal_counter(x):
    count = 0

    def step(a):
        nonlocal count
        count += 1
        return a * 2 - count

    for i in range(N):
        x = step(x)
    return x, count


case(_closure_nonlocal_counter, (np.ones(2),))


class Stepper:
    def __init__(self, k):
        self.k = k
        self.calls = 0

    def step(self, a):
        self.calls += 1
        return a * self.k + self.calls


def _method_with_state(s, x):
    for i in range(N):
        x = s.step(x)
    return x


case(_method_with_state, lambda: (Stepper(0.5), np.zeros(2)),
     lambda: (Stepper(2), np.zeros(2, np.int32)))


def _lambda_default_captures_index(x):
    fs = []
    for i in range(N):
        fs.append(lambda a, i=i: a + i)
        x = fs[-1](x)
    return x, [f(0) for f in fs]


case(_lambda_default_captures_index, (np.zeros(2),))


def _late_binding_closures(x):
    fs = []
    for i in range(N):
        fs.append(lambda a: a + i)  # noqa: B023 (late binding on purpose)
    return [f(x) for f in fs]


case(_late_binding_closures, (np.zeros(1),))


def _helper_prints(a, i):
    print("trip", i)
    return a + 1


def _helper_with_break(x):
    for i in range(N):
        x = _helper_prints(x, i) * 1.5
    return x


case(_helper_with_break, (np.zeros(3),))


def _recursive(a, n):
    return a if n == 0 else _recursive(a * 0.5 + 1, n - 1)


def _body_calls_recursive(x):
    for i in range(N):
        x = _recursive(x, 3) + i
    return x


case(_body_calls_recursive, (np.zeros(2),))


def _helper_with_own_loop(a):
    for j in range(10):
        a = a * 0.9 + j
    return a


def _nested_loop_in_helper(x):
    for i in range(N):
        x = _helper_with_own_loop(x) - i
    return x


case(_nested_loop_in_helper, (np.zeros(2),))


# -- Python state in the body; an exception at trip k ---------------------------------------

def _append_then_index_error(x, log):
    for i in range(len(x)):
        log.append(float(x[i]))
        x[i] = x[i + 1]
    return x


case(_append_then_index_error, (np.arange(N, dtype=float), []))


def _index_error_at_last_trip_writes_kept(x):
    for i in range(len(x)):
        x[i] = x[i + 1] * 2
    return x


case(_index_error_at_last_trip_writes_kept, (np.arange(N, dtype=float),),
     (np.arange(3, dtype=float),))


def _attribute_per_trip_then_raise(x, o):
    for i in range(N):
        o.n = i
        o.items.append(i)
        x = x + 1
        if i == 7:
            raise ValueError(f"trip {i}", x.sum())
    return x


case(_attribute_per_trip_then_raise, lambda: (np.zeros(2), Box()))


TRIPS = []
G = 1.0


def _reset_globals():
    global G
    TRIPS.clear()
    G = 1.0


def _global_write_then_raise(x):
    global G
    for i in range(N):
        G = G * 2
        TRIPS.append(i)
        x = x / (i - 9)
    return x


case(_global_write_then_raise, (np.ones(2),), setup=_reset_globals,
     watch=lambda: (G, list(TRIPS)))


def _global_read_changed_by_body(x):
    global G
    for i in range(N):
        x = x + G
        G = G + 1
    return x


case(_global_read_changed_by_body, (np.zeros(2),), setup=_reset_globals, watch=lambda: G)


GA = np.zeros(3)


def _global_array_rebound_in_body(x):
    global GA
    for i in range(N):
        GA = GA + x
        x = x * 0.5
    return x, GA


def _reset_ga():
    global GA
    GA = np.zeros(3)


case(_global_array_rebound_in_body, (np.ones(3),), setup=_reset_ga, watch=lambda: GA)


def _dict_write_then_key_error(x, d):
    for i in range(N):
        d[i] = x[i] * 2
        x[i] = d[i - 1] if i else 0
    return x


case(_dict_write_then_key_error, (np.arange(N, dtype=float), {}),
     (np.arange(N, dtype=float), {k: -1.0 for k in range(-1, N)}))


def _singular_inverse_at_k(ms):
    acc = np.eye(2)
    seen = []
    for i in range(len(ms)):
        seen.append(i)
        acc = acc @ np.linalg.inv(ms[i])
    return acc, seen


def _stack_singular_at(k):
    return lambda: (np.stack([np.eye(2) * (2.0 if i != k else 0.0) for i in range(N)]),)


case(_singular_inverse_at_k, _stack_singular_at(9), _stack_singular_at(99),
     _stack_singular_at(0))


def _singular_inverse_progress_visible(ms, out):
    for i in range(len(ms)):
        out[i] = np.linalg.inv(ms[i]).sum()
    return out


case(_singular_inverse_progress_visible,
     lambda: (np.stack([np.eye(2) * (i != 10) for i in range(N)]), np.zeros(N)))


def _fp_error_at_trip_k(x, out):
    with np.errstate(all="raise"):
        for i in range(len(x)):
            out[i] = 1.0 / x[i]
    return out


case(_fp_error_at_trip_k, (np.array([1.0] * 9 + [0.0, 1.0, 1.0]), np.zeros(N)),
     (np.ones(N), np.zeros(N)))


def _fp_error_array_op_at_k(x):
    acc = x.copy()
    with np.errstate(over="raise"):
        for i in range(N):
            acc = acc * 1e30
    return acc


case(_fp_error_array_op_at_k, (np.ones(2),), (np.full(2, 1e-300),))


def _python_zero_division_at_k(x):
    for i in range(N):
        x = x + 1 // (i - 7)
    return x


case(_python_zero_division_at_k, (np.zeros(2),))


def _caught_inside_loop(x):
    errors = 0
    for i in range(N):
        try:
            x[i] = x[i + 9]
        except IndexError:
            errors += 1
    return x, errors


case(_caught_inside_loop, (np.arange(N, dtype=float),))


def _caught_outside_loop(x):
    try:
        for i in range(len(x) + 3):
            x[i] = i * 2
    except IndexError as e:
        return x, i, str(e)
    return x, i, None


case(_caught_outside_loop, (np.zeros(N),), (np.zeros(2),))


def _shape_error_at_k(x):
    acc = np.zeros(3)
    for i in range(N):
        acc = acc + x[i:i + 3]
    return acc


case(_shape_error_at_k, (np.arange(N + 2, dtype=float),), (np.arange(N, dtype=float),))


def _overflow_error_python_int_at_k(x):
    for i in range(N):
        x = x + (250 + i) % 300
        x = x // 2
    return x


case(_overflow_error_python_int_at_k, (np.zeros(2, np.uint8),))


def _assert_in_body(x):
    for i in range(N):
        x = x - 0.25
        assert x.min() > 0, ("negative at", i)
    return x


case(_assert_in_body, (np.full(2, 10.0),), (np.full(2, 2.0),))


def _stop_iteration_from_next(x):
    it = iter(range(5))
    for i in range(N):
        x = x + next(it)
    return x


case(_stop_iteration_from_next, (np.zeros(2),))


# -- warnings, errstate, seterrcall ---------------------------------------------------------

def _log_zero_some_trips(x):
    out = np.zeros_like(x)
    for i in range(len(x)):
        out[i] = np.log(x[i])
    return out


case(_log_zero_some_trips, (np.array([1.0, 0.0, 2.0, 0.0, 3.0, -1.0] * 2),))


def _divide_warning_array_trips(x):
    acc = np.zeros_like(x)
    for i in range(N):
        acc = acc + 1 / (x - i)
    return acc


case(_divide_warning_array_trips, (np.array([3.0, 5.0, 0.5]),))


def _warning_each_trip_python(x):
    for i in range(N):
        x = x + 1
        warnings.warn(f"trip {i}", UserWarning, stacklevel=1)
    return x


case(_warning_each_trip_python, (np.zeros(2),))


def _warning_on_some_trips_numpy_cond(x):
    for i in range(len(x)):
        if x[i] < 0:
            warnings.warn(f"negative at {i}", stacklevel=1)
        x[i] = abs(x[i])
    return x


case(_warning_on_some_trips_numpy_cond, (_f(N),))


def _errstate_ignore_around_loop(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(N):
            x = x / (x - x) + np.log(x * 0)
    return x


case(_errstate_ignore_around_loop, (np.ones(2),))


def _errstate_inside_body_alternating(x):
    for i in range(N):
        with np.errstate(divide="ignore" if i % 2 else "warn"):
            x = x + np.log(x * 0)
    return x


case(_errstate_inside_body_alternating, (np.ones(2),))


def _seterr_in_body(x):
    old = np.seterr(divide="ignore")
    for i in range(N):
        if i == 5:
            np.seterr(divide="warn")
        x = x + 1 / (x * 0)
    np.seterr(**old)
    return x


case(_seterr_in_body, (np.ones(2),))


def _seterr_left_changed(x):
    for i in range(N):
        np.seterr(over="ignore" if i % 2 else "warn")
        x = x * 1e200
    return x


case(_seterr_left_changed, (np.ones(2),))


@scenario
def s_seterrcall_counts(r):
    """Each trip's division by zero calls the callback once, in order."""
    calls = []

    def cb(kind, flag):
        calls.append((kind, flag))

    def f(x):
        with np.errstate(divide="call"):
            for i in range(N):
                x = x + 1 / (x * (i % 3))
        return x

    old = np.seterrcall(cb)
    try:
        g = r.compile(f)
        r.call(g, np.ones(2))
        r.see("calls", list(calls))
        r.call(g, np.ones(2))
        r.see("calls", list(calls))
    finally:
        np.seterrcall(old)


@scenario
def s_seterrcall_raises(r):
    """A callback that raises at the third call stops the loop there."""
    calls = []

    def cb(kind, flag):
        calls.append(kind)
        if len(calls) % 3 == 0:
            raise RuntimeError(f"callback {len(calls)}")

    def f(x, out):
        with np.errstate(invalid="call"):
            for i in range(N):
                out[i] = np.sqrt(x[i])
        return out

    old = np.seterrcall(cb)
    try:
        g = r.compile(f)
        r.call(g, np.array([-1.0, 1.0] * 6), np.zeros(N))
        r.see("calls", list(calls))
        r.call(g, np.array([-1.0, 1.0] * 6), np.zeros(N))
        r.see("calls", list(calls))
    finally:
        np.seterrcall(old)


def _float32_overflow_warning_trips(x):
    for i in range(N):
        x = x * np.float32(1e10)
    return x


case(_float32_overflow_warning_trips, (np.ones(2, np.float32),))


def _scalar_int_overflow_warning_order(x):
    s = np.int16(30000)
    out = []
    for i in range(N):
        s = s + x
        out.append(int(s))
    return out


case(_scalar_int_overflow_warning_order, (np.int16(1000),))


# -- outlined bodies: large arrays ----------------------------------------------------------

def _print_in_big_loop(x):
    for i in range(N):
        x = np.tanh(x) * 1.01 + 0.5
        print(i, float(x[0]))
        x = x - np.sin(x)
    return x


case(_print_in_big_loop, (np.linspace(-1, 1, BIG),), (np.linspace(-1, 1, 5),))


def _data_dependent_if_big(x):
    for i in range(N):
        if x[i] > 0:
            x = x * 0.5
        else:
            x = x + 1
    return x


case(_data_dependent_if_big, (np.linspace(-1, 1, BIG),), (np.linspace(-1, 1, 20),))


def _print_then_exception_big(x, log):
    for i in range(N):
        x = x + 1
        log.append(i)
        print("trip", i)
        if i == 8:
            raise KeyError(i)
    return x


case(_print_then_exception_big, (np.zeros(BIG), []))


def _print_then_index_error_big(x, out):
    for i in range(len(out) + 1):
        print(i)
        out[i] = x[i] + x.sum()
    return out


case(_print_then_index_error_big, (np.ones(BIG), np.zeros(N)))


def _print_and_break_big(x):
    for i in range(100):
        x = x * 1.5
        print(i)
        if x[0] > 50:
            break
    else:
        return None
    return x, i


case(_print_and_break_big, (np.ones(BIG),), (np.full(BIG, 60.0),))


def _print_and_continue_big(x):
    for i in range(N):
        if i % 2:
            continue
        print(i)
        x = x + i
    return x, i


case(_print_and_continue_big, (np.zeros(BIG),))


def _print_return_in_body_big(x):
    for i in range(N):
        print(i)
        x = x - 1
        if x[0] < -5:
            return "early", x
    return "late", x


case(_print_return_in_body_big, (np.zeros(BIG),), (np.full(BIG, 10.0),))


def _print_index_after_zero_trips_big(x, n):
    for i in range(n):
        print(i)
        x = x + 1
    return x, i


case(_print_index_after_zero_trips_big, (np.zeros(BIG), N), (np.zeros(BIG), 0))


def _print_closure_in_body_big(x):
    fs = []
    for i in range(N):
        print(i)
        fs.append(lambda: i)  # noqa: B023 (late binding on purpose)
        x = x + 1
    return x, [f() for f in fs]


case(_print_closure_in_body_big, (np.zeros(BIG),))


def _print_nonlocal_in_body_big(x):
    total = 0

    def add(v):
        nonlocal total
        total += v

    for i in range(N):
        print(i)
        add(i)
        x = x + total
    return x, total


case(_print_nonlocal_in_body_big, (np.zeros(BIG),))


def _print_swap_big(a, b):
    for i in range(N + 1):
        print(i)
        b[:] = a * 0.5
        a, b = b, a
    return a, b


case(_print_swap_big, (np.ones(BIG), np.zeros(BIG)))


def _print_generator_big(x):
    g = (k * 2 for k in range(N))
    for v in g:
        print(v)
        x = x + v
    return x


case(_print_generator_big, (np.zeros(BIG),))


def _print_nested_big(x):
    for i in range(N):
        for j in range(3):
            print(i, j)
            x[j] += i
    return x


case(_print_nested_big, (np.zeros(BIG),))


def _print_warnings_big(x):
    for i in range(N):
        print(i)
        x = x / (x - 1.0)
    return x


case(_print_warnings_big, (np.ones(BIG),))


def _print_inplace_view_big(x):
    v = x[1:]
    for i in range(N):
        print(i)
        v += x[:-1]
    return x


case(_print_inplace_view_big, (np.ones(BIG),))


def _small_and_big_alternate(x):
    for i in range(N):
        x = x * 0.5 + i
        if x.sum() > 1e9:
            print("big")
    return x


case(_small_and_big_alternate, (np.ones(4),), (np.ones(BIG) * 1e5,), (np.ones(BIG),))


def _rows_of_big_with_print(m):
    acc = np.zeros(m.shape[1])
    for row in m:
        print(float(row[0]))
        acc = acc + row
    return acc


case(_rows_of_big_with_print, (np.arange(N * BIG, dtype=float).reshape(N, BIG),))


# -- del, locals, misc ---------------------------------------------------------------------

def _del_carried_name(x):
    acc = x
    for i in range(N):
        t = acc * 2
        del acc
        acc = t - 1
    return acc


case(_del_carried_name, (np.ones(2),))


def _del_then_unbound_at_trip(x):
    acc = x
    for i in range(N):
        if i == 9:
            del acc
        acc = acc + 1
    return acc


case(_del_then_unbound_at_trip, (np.ones(2),))


def _del_index_in_body(x):
    for i in range(N):
        x = x + i
        del i
    return x


case(_del_index_in_body, (np.zeros(2),))


def _del_index_then_read_after(x):
    for i in range(N):
        x = x + i
        del i
    return x, i  # noqa: F821 (unbound: the last trip deleted it)


case(_del_index_then_read_after, (np.zeros(2),))


def _del_big_outlined(x):
    tmp = x
    for i in range(N):
        print(i)
        tmp = tmp + 1
        del tmp
        tmp = x * i
    return tmp


case(_del_big_outlined, (np.ones(BIG),))


def _locals_in_body(x):
    seen = []
    for i in range(N):
        x = x + 1
        seen.append(sorted(k for k in locals() if not k.startswith("_")))
    return x, seen[-1]


case(_locals_in_body, (np.zeros(2),))


def _int_counter_and_slice(x):
    k = 0
    for i in range(N):
        x[k:k + 2] += 1
        k += 2
    return x, k


case(_int_counter_and_slice, (np.zeros(2 * N + 1),), (np.zeros(2 * N - 3),))


def _random_generator_in_body(x, rng):
    for i in range(N):
        x = x + rng.standard_normal(x.shape)
    return x, rng.integers(1000)


case(_random_generator_in_body, lambda: (np.zeros(3), np.random.default_rng(7)))


def _in_place_python_list_of_scalars(x):
    vals = [0.0] * len(x)
    for i in range(len(x)):
        vals[i] = x[i] * 2
    return vals


case(_in_place_python_list_of_scalars, (np.arange(N, dtype=np.float32),))


def _tuple_unpack_carried(x, y):
    for i in range(N):
        x, y = y + 1, x * 2
    return x, y


case(_tuple_unpack_carried, (np.zeros(2), np.ones(2)),
     (np.zeros(2, np.int8), np.ones(2, np.int8)))


def _carried_mixed_python_and_array(x):
    s = 0
    for i in range(N):
        s = s + i
        x = x * 0.5 + s
    return x, s


case(_carried_mixed_python_and_array, (np.zeros(2),))


def _item_and_float_in_body(x):
    total = 0.0
    for i in range(len(x)):
        total += float(x[i]) * x[i].item()
    return total


case(_item_and_float_in_body, (np.arange(N, dtype=np.float32) * 0.1,))


def _index_in_fstring(x):
    names = []
    for i in range(N):
        names.append(f"v{i}")
        x[i] = len(names)
    return x, names[-1]


case(_index_in_fstring, (np.zeros(N),))


def _while_loop_counter(x):
    i = 0
    while i < N:
        x[i] = x[i - 1] + 1
        i += 1
    return x, i


case(_while_loop_counter, (np.zeros(N),))


def _loop_kwargs_default_array(x, acc=None):
    if acc is None:
        acc = np.zeros_like(x)
    for i in range(N):
        acc += x * i
    return acc


case(_loop_kwargs_default_array, (np.ones(2),), Args(np.ones(2), acc=np.ones(2)))


def _object_array_loop(x):
    for i in range(len(x)):
        x[i] = [i] if i % 2 else str(i)
    return x


case(_object_array_loop, (np.empty(N, dtype=object),))


def _structured_field_loop(x):
    for i in range(len(x)):
        x["a"][i] = x["b"][i] * i
    return x


case(_structured_field_loop,
     (np.zeros(N, dtype=[("a", np.float32), ("b", np.int16)]),))


def _string_join_in_loop(x):
    s = ""
    for i in range(N):
        s += str(int(x[i] > 0))
    return s


case(_string_join_in_loop, (_f(N),), (_f(N, seed=9),))


def _integer_power_in_loop(x):
    for i in range(N):
        x = x ** 2 % 1000003
    return x


case(_integer_power_in_loop, (np.array([3, 7], np.int64),), (np.array([3, 7], np.int32),))


def _negative_zero_carried(x):
    for i in range(N):
        x = x * -1.0
        x = x + 0.0
    return x


case(_negative_zero_carried, (np.array([0.0, -0.0]),))


def _nan_propagates_from_trip(x):
    for i in range(N):
        x = np.maximum(x, x[i % len(x)])
    return x


case(_nan_propagates_from_trip, (np.array([1.0, np.nan, 2.0]),))


# -- loop nodes: dependences a vectorizer would get wrong ----------------------------------

def _reverse_in_place_by_index(x):
    n = len(x)
    for i in range(n):
        x[i] = x[n - 1 - i]
    return x


case(_reverse_in_place_by_index, (np.arange(N, dtype=float),), (np.arange(13),),
     (np.arange(20.0),), (np.arange(2.0),))


def _recurrence_forward(x):
    for i in range(len(x) - 1):
        x[i + 1] = x[i] * 2 - x[i + 1]
    return x


case(_recurrence_forward, (np.arange(N, dtype=float),), (np.arange(N, dtype=np.int8),))


def _anti_dependence(x):
    for i in range(len(x) - 1):
        x[i] = x[i + 1] + x[i]
    return x


case(_anti_dependence, (np.arange(N, dtype=float),), (np.arange(15.0),))


def _wraparound_first_read(x):
    for i in range(len(x)):
        x[i] = x[i - 1] + 1
    return x


case(_wraparound_first_read, (np.arange(N, dtype=float),), (np.arange(10.0),),
     (np.arange(11.0),), (np.arange(1.0),), calls=1)


def _double_index_write(x):
    for i in range(len(x) // 2):
        x[2 * i] = x[i] + 1
    return x


case(_double_index_write, (np.arange(2 * N, dtype=float),), (np.arange(25.0),))


def _linear_recurrence(a, b):
    y = np.zeros_like(b)
    for i in range(1, len(b)):
        y[i] = y[i - 1] * a[i] + b[i]
    return y


case(_linear_recurrence, (_f(N), _f(N, seed=1)), (_f(20, seed=2), _f(20, seed=3)),
     (_f(30, seed=2), _f(30, seed=3)))


def _diagonal_chain(m):
    for i in range(1, len(m)):
        m[i, i] = m[i - 1, i - 1] * 2 + m[i, i - 1]
    return m


case(_diagonal_chain, (np.ones((N, N)),), (np.ones((10, 10), np.float32),))


def _column_chain(m):
    for j in range(1, m.shape[1]):
        m[:, j] = m[:, j - 1] * 0.5 + m[:, j]
    return m


case(_column_chain, (np.ones((3, N)),), (np.asfortranarray(np.ones((3, 15))),))


def _self_add_int8(x):
    for i in range(len(x)):
        x[i] += x[i]
        x[i] += x[i - 1]
    return x


case(_self_add_int8, (np.arange(N, dtype=np.int8) * 10,), (np.arange(N, dtype=np.uint8) * 20,))


def _y_shorter_than_x(x, y):
    for i in range(len(x)):
        y[i] = x[i] * 2
    return y


case(_y_shorter_than_x, (np.ones(10), np.zeros(10)), (np.ones(11), np.zeros(11)),
     (np.ones(12), np.zeros(12)), (np.ones(13), np.zeros(5)), (np.ones(14), np.zeros(20)),
     calls=1)


def _read_past_end_symbolic(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = x[i + 1] - x[i]
    return out


case(_read_past_end_symbolic, (np.ones(10),), (np.ones(11),), (np.ones(12),), calls=1)


def _sizes_shrink_after_symbolic(x):
    for i in range(1, len(x)):
        x[i] = x[i] + x[i - 1] * 0.5
    return x


case(_sizes_shrink_after_symbolic, (np.ones(10),), (np.ones(11),), (np.ones(12),),
     (np.ones(2),), (np.ones(1),), (np.ones(0),), (np.ones(3),), (np.ones(9),), calls=1)


def _slice_minus_index(x):
    s = 0.0
    for i in range(N):
        s = s + x[:-i].sum()
    return s


case(_slice_minus_index, (np.arange(20.0),))


def _slice_from_minus_index(x):
    acc = np.zeros(())
    for i in range(N):
        acc = acc + x[-i:].sum()
    return acc


case(_slice_from_minus_index, (np.arange(20.0),), (np.arange(N, dtype=float),))


def _index_floor_div(x):
    for i in range(N):
        x[i // 2] += i
    return x


case(_index_floor_div, (np.zeros(N),))


def _index_power_sign(x):
    for i in range(N):
        x = x + (-1) ** i * 0.5 ** i
    return x


case(_index_power_sign, (np.zeros(2),), (np.zeros(2, np.float32),))


def _index_squared_into_int8(x):
    for i in range(N):
        x = x + i * i
    return x


case(_index_squared_into_int8, (np.zeros(2, np.int8),), (np.zeros(2, np.int16),))


def _index_into_uint16_overflow(x):
    for i in range(65530, 65545):
        x = x + i
    return x


case(_index_into_uint16_overflow, (np.zeros(2, np.uint16),), (np.zeros(2, np.uint32),))


def _index_float32_stays(x):
    for i in range(N):
        x = x * 0.5 + i
    return x


case(_index_float32_stays, (np.ones(3, np.float32),), (np.ones(3, np.float16),))


# -- loop nodes: layout, identity, temporaries ---------------------------------------------

def _layout_alternates(a):
    for i in range(N + 1):
        a = a.T * 2
    return a, a.flags.c_contiguous, a.flags.f_contiguous


case(_layout_alternates, (np.arange(9.0).reshape(3, 3),), (np.ones((4, 4), np.float32),))


def _layout_from_reversed_view(a):
    for i in range(N):
        a = a[:, ::-1] * 2 + 1
    return a


case(_layout_from_reversed_view, (np.arange(6.0).reshape(2, 3),),
     (np.asfortranarray(np.arange(6.0).reshape(2, 3)),))


def _temp_of_last_trip(x):
    acc = np.zeros_like(x)
    for i in range(N):
        t = x * i
        acc = acc + t
    return acc, t


case(_temp_of_last_trip, (np.ones(2),))


def _last_row_view_after(m):
    for row in m:
        row += 1
    row[0] = -5
    return m, row


case(_last_row_view_after, (np.zeros((N, 3)),))


def _inplace_returns_input(x, y):
    for i in range(N):
        x += y
        y *= 0.5
    return x, y


case(_inplace_returns_input, (np.zeros(3), np.ones(3)))


def _fresh_result_each_call(x):
    acc = np.zeros(3)
    for i in range(N):
        acc = acc * 0.5 + x
    return acc


case(_fresh_result_each_call, (np.ones(3),), (np.full(3, 2.0),), calls=3)


def _iterate_then_rebind(m):
    for row in m:
        m = m * 2
        row[0] = 9
    return m


case(_iterate_then_rebind, (np.ones((N, 2)),))


def _zero_rows_in_place_ahead(m):
    for i, row in enumerate(m):
        if i + 1 < len(m):
            m[i + 1:] = row * 0.5
    return m


case(_zero_rows_in_place_ahead, (np.arange(24.0).reshape(N, 2),))


def _methods_in_place(x):
    for i in range(N):
        x.sort()
        x[0] = 100 - i
    return x


case(_methods_in_place, (np.arange(5.0),))


def _fill_each_trip(x):
    for i in range(N):
        x.fill(i)
        x[0] += 1
    return x


case(_fill_each_trip, (np.zeros(3),), (np.zeros(3, np.uint8),))


def _cumsum_out_self(x):
    for i in range(N):
        np.cumsum(x, out=x)
        x /= x[-1]
    return x


case(_cumsum_out_self, (np.ones(4),))


def _add_at_in_loop(x, idx):
    for i in range(N):
        np.add.at(x, idx, i)
    return x


case(_add_at_in_loop, (np.zeros(3), np.array([0, 0, 2])))


def _shape_attribute_in_loop(x):
    for i in range(N):
        x.shape = (2, -1) if i % 2 else (-1,)
        x += 1
    return x


case(_shape_attribute_in_loop, (np.zeros(4),))


def _loop_var_was_array(x):
    i = np.zeros(3)
    for i in range(N):
        x = x + i
    return x, i


case(_loop_var_was_array, (np.zeros(2),))


# -- loop nodes: errors and warnings that a fused body could reorder -------------------------

def _raise_which_first(a, c):
    with np.errstate(all="raise"):
        for i in range(N):
            a = a * 1e100 + (c - c) / c
    return a


case(_raise_which_first, (np.ones(2), np.ones(2)), (np.ones(2), np.zeros(2)),
     (np.full(2, 1e10), np.ones(2)))


def _warning_order_in_trip(x):
    acc = np.zeros_like(x)
    for i in range(N):
        acc = acc + np.log(x * 0) + (x * 0) / (x * 0) + np.exp(x * 1000)
    return acc


case(_warning_order_in_trip, (np.ones(2),))


def _invariant_warning_each_trip(x, y):
    acc = np.zeros_like(x)
    for i in range(N):
        acc = acc + np.log(y) + x
    return acc


case(_invariant_warning_each_trip, (np.ones(2), np.zeros(2)), (np.ones(2), np.ones(2)))


def _invariant_raise_under_errstate(x, y):
    acc = x.copy()
    with np.errstate(divide="raise"):
        for i in range(N):
            acc = acc + 1.0 / y
    return acc


case(_invariant_raise_under_errstate, (np.ones(2), np.ones(2)), (np.ones(2), np.zeros(2)))


def _sqrt_invalid_raise_at_k(x, out):
    with np.errstate(invalid="raise"):
        for i in range(len(x)):
            out[i] = np.sqrt(x[i]) + out[i - 1]
    return out


case(_sqrt_invalid_raise_at_k, (np.array([1.0] * 9 + [-1.0, 1.0, 1.0]), np.zeros(N)),
     (np.ones(N), np.zeros(N)))


def _solve_singular_at_k(ms, b):
    out = np.zeros((len(ms), 2))
    for i in range(len(ms)):
        out[i] = np.linalg.solve(ms[i], b)
    return out


case(_solve_singular_at_k,
     lambda: (np.stack([np.eye(2) * (i != 10) + np.diag([0, 1.0]) * (i == 10)
                        for i in range(N)]), np.ones(2)))


class _LogSink:
    def __init__(self):
        self.lines = []

    def write(self, msg):
        self.lines.append(msg)


@scenario
def s_errstate_log_mode(r):
    """errstate(all="log") writes one line per trip to the seterrcall object."""
    sink = _LogSink()

    def f(x):
        with np.errstate(all="log"):
            for i in range(N):
                x = x / (x * (i % 2))
        return x

    old = np.seterrcall(sink)
    try:
        g = r.compile(f)
        r.call(g, np.ones(2))
        r.see("log", list(sink.lines))
    finally:
        np.seterrcall(old)


GX = np.ones(2)


@scenario
def s_global_array_rebound_between_calls(r):
    """The body reads a module global array that is rebound between calls."""
    def f(x):
        for i in range(N):
            x = x * 0.5 + GX
        return x

    r.patch(globals(), "GX", np.ones(2))
    g = r.compile(f)
    r.call(g, np.zeros(2))
    r.patch(globals(), "GX", np.full(2, 3.0))
    r.call(g, np.zeros(2))
    r.patch(globals(), "GX", np.full(3, 2.0))
    r.call(g, np.zeros(2))


@scenario
def s_global_array_mutated_between_calls(r):
    """The body reads a module global array that is written in place between calls."""
    def f(x):
        for i in range(1, len(x)):
            x[i] = x[i - 1] + GX[i]
        return x

    r.patch(globals(), "GX", np.ones(N))
    g = r.compile(f)
    r.call(g, np.zeros(N))
    GX[5] = 100.0
    r.call(g, np.zeros(N))
    GX[:] = -1
    r.call(g, np.zeros(N))


@scenario
def s_closure_array_mutated_between_calls(r):
    """The body reads a closure's array that the caller writes between calls."""
    w = np.ones(3)

    def f(x):
        for i in range(N):
            x = x * w + 1
        return x

    g = r.compile(f)
    r.call(g, np.zeros(3))
    w[1] = 0.5
    r.call(g, np.zeros(3))
    w[:] = 2
    r.call(g, np.zeros(3))


@scenario
def s_object_attribute_changes_between_calls(r):
    """The trip count and a factor come from an object's attributes."""
    class Cfg:
        steps = 10
        k = 0.5

    def f(c, x):
        for i in range(c.steps):
            x = x * c.k + i
        return x

    c = Cfg()
    g = r.compile(f)
    r.call(g, c, np.ones(2))
    c.steps = 11
    r.call(g, c, np.ones(2))
    c.k = 2
    r.call(g, c, np.ones(2))
    c.steps = 3
    r.call(g, c, np.ones(2))
    c.steps = 30
    r.call(g, c, np.ones(2))


@scenario
def s_trip_count_sequence(r):
    """One function called with trip counts that grow, shrink, hit 0 and the limit."""
    def f(a, b, t):
        for i in range(t):
            b[:] = a * 0.5 + i
            a, b = b, a
        return a, b, a is b

    g = r.compile(f)
    for t in (12, 20, 31, 8, 9, 0, 1, 45, 12, 13):
        r.call(g, np.ones(3), np.zeros(3), t)


# -- loop nodes over large arrays: overlap, blocking, rounding ------------------------------

def _big_shift_overlap(x):
    for i in range(N):
        x[1:] = x[:-1] * 0.5 + 1
    return x


case(_big_shift_overlap, (np.linspace(0, 1, BIG),))


def _big_shift_inplace_add(x):
    for i in range(N):
        x[1:] += x[:-1]
        x *= 0.25
    return x


case(_big_shift_inplace_add, (np.linspace(0, 1, BIG),))


def _big_reverse_assign(x):
    for i in range(N):
        x[:] = x[::-1] * 2 - x
    return x


case(_big_reverse_assign, (np.linspace(0, 1, BIG),))


def _big_out_overlap(x):
    for i in range(N):
        np.add(x[:-1], 1.0, out=x[1:])
    return x


case(_big_out_overlap, (np.zeros(BIG),))


def _big_float32_sum_carried(x):
    s = np.float32(0)
    for i in range(N):
        s = s + (x * i).sum()
    return s, type(s)


case(_big_float32_sum_carried, (np.linspace(0, 1, BIG, dtype=np.float32),))


def _big_float32_mean_and_dot(x):
    acc = np.zeros((), np.float32)
    for i in range(N):
        acc = acc + x.mean() + x @ x * 1e-6
        x = x * np.float32(1.01)
    return acc, x


case(_big_float32_mean_and_dot, (np.linspace(-1, 1, BIG, dtype=np.float32),))


def _float16_chain_rounding(x):
    for i in range(N):
        x = (x * 1.1 + 0.3) * 0.9 - 0.2
    return x


case(_float16_chain_rounding, (np.linspace(-1, 1, 50).astype(np.float16),),
     (np.linspace(-1, 1, BIG).astype(np.float16),))


def _float32_chain_rounding(x, y):
    for i in range(N):
        x = x * y + y * y - x / 3
    return x


case(_float32_chain_rounding, (np.linspace(-1, 1, BIG, dtype=np.float32),
                               np.linspace(1, 2, BIG, dtype=np.float32)),
     (np.linspace(-1, 1, 7, dtype=np.float32), np.linspace(1, 2, 7, dtype=np.float32)))


def _big_stencil_two_buffers(a, b):
    for t in range(N):
        b[1:-1] = (a[:-2] + a[1:-1] + a[2:]) / 3
        a[1:-1] = (b[:-2] + b[1:-1] + b[2:]) / 3
    return a, b


case(_big_stencil_two_buffers, (np.linspace(0, 1, BIG) ** 2, np.zeros(BIG)))


def _big_index_recurrence_prefix(x):
    for i in range(1, 40):
        x[i * 1000:(i + 1) * 1000] += x[(i - 1) * 1000:i * 1000]
    return x


case(_big_index_recurrence_prefix, (np.ones(BIG),))


def _big_where_nan(x):
    for i in range(N):
        x = np.where(x > 0.5, np.nan, x * 1.2)
    return x, np.isnan(x).sum()


case(_big_where_nan, (np.linspace(0, 1, BIG),))


# -- loop nodes: values that are not plain arrays ---------------------------------------------

def _matrix_subclass_carried(m, a):
    for i in range(N):
        m = m * a * 0.5
    return m, type(m)


def _matrices():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix(np.eye(2)), np.matrix([[1.0, 1.0], [0.0, 1.0]])


case(_matrix_subclass_carried, _matrices)


def _masked_array_carried(x):
    for i in range(N):
        x = x * 2 + 1
    return x, type(x), np.ma.getmaskarray(x)


case(_masked_array_carried, lambda: (np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]),))


class Tagged(np.ndarray):
    """An ndarray subclass that counts its ufunc calls."""

    calls = 0

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        Tagged.calls += 1
        inputs = tuple(np.asarray(v) if isinstance(v, Tagged) else v for v in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs).view(Tagged)


def _subclass_ufunc_hook(x):
    for i in range(N):
        x = x * 0.5 + i
    return x, type(x)


def _reset_tagged():
    Tagged.calls = 0


case(_subclass_ufunc_hook, lambda: (np.ones(3).view(Tagged),), setup=_reset_tagged,
     watch=lambda: Tagged.calls)


def _datetime_carried(t):
    for i in range(N):
        t = t + np.timedelta64(i, "D")
    return t


case(_datetime_carried, (np.array(["2024-02-27", "2024-12-30"], dtype="datetime64[D]"),))


def _string_array_loop(s):
    for i in range(N):
        s = np.char.add(s, "ab")
    return s


case(_string_array_loop, (np.array(["x", "yy"]),))


def _int_array_nan_store(x):
    for i in range(N):
        x[i] = i / 2 if i < 9 else np.nan
    return x


case(_int_array_nan_store, (np.zeros(N, np.int64),))


def _broadcast_view_written(x):
    v = np.broadcast_to(x, (3, len(x)))
    for i in range(N):
        v = v + 1
        x = x + 1
    return v, x


case(_broadcast_view_written, (np.zeros(4),))


class Counted:
    def __init__(self):
        self.reads = 0

    @property
    def scale(self):
        self.reads += 1
        return 0.5 + self.reads


def _property_read_per_trip(o, x):
    for i in range(N):
        x = x * o.scale
    return x, o.reads


case(_property_read_per_trip, lambda: (Counted(), np.ones(2)))


class Weird:
    def __init__(self):
        self.log = []

    def __radd__(self, other):
        self.log.append(type(other).__name__)
        return other + len(self.log)


def _dunder_in_body(o, x):
    for i in range(N):
        x = x + o
    return x, o.log


case(_dunder_in_body, lambda: (Weird(), np.ones(2)))


class GetAttr:
    def __init__(self):
        self.misses = 0

    def __getattr__(self, name):
        self.misses += 1
        return float(self.misses)


def _getattr_per_trip(o, x):
    for i in range(N):
        x = x + o.anything
    return x, o.misses


case(_getattr_per_trip, lambda: (GetAttr(), np.zeros(2)))


def _list_input_floats(xs, y):
    s = 0.0
    for i in range(len(xs)):
        s = s + xs[i] * y[i]
    return s, type(s)


case(_list_input_floats, ([0.5] * N, np.ones(N)), ([1, 2, 3] * 4, np.ones(N, np.int8)))


def _tuple_of_arrays_index(ts):
    acc = np.zeros(2)
    for i in range(len(ts)):
        acc = acc + ts[i]
    return acc


case(_tuple_of_arrays_index, lambda: (tuple(np.ones(2) * k for k in range(N)),))


def _self_attr_in_method_loop(s, x):
    return s.run(x)


class Model:
    def __init__(self):
        self.w = np.full(3, 0.5)
        self.steps = N

    def run(self, x):
        for i in range(self.steps):
            x = x * self.w + i
        self.w = self.w + 1
        return x


case(_self_attr_in_method_loop, lambda: (Model(), np.ones(3)), calls=1)


@scenario
def s_method_loop_state_across_calls(r):
    """A method whose loop reads self.w, rebinds it after the loop, over several calls."""
    m = Model()
    f = r.compile(_self_attr_in_method_loop)
    for _ in range(4):
        r.call(f, m, np.ones(3))
        r.see("w", m.w)
    m.steps = 3
    r.call(f, m, np.ones(3))
    m.w = np.ones(3, np.float32)
    r.call(f, m, np.ones(3, np.float32))


def _generator_function_with_loop(x):
    def gen(a):
        for i in range(N):
            a = a * 0.5 + i
        yield a
        for i in range(N):
            a[i % 3] += 1
            yield a.copy()
    return [v for v in gen(x)]


case(_generator_function_with_loop, (np.zeros(3),))


def _yield_in_loop_body(x):
    def gen(a):
        for i in range(N):
            a = a + i
            yield a
    out = []
    for v in gen(x):
        out.append(v.sum())
    return out


case(_yield_in_loop_body, (np.zeros(2),))


def _global_seed_in_loop(x):
    for i in range(N):
        np.random.seed(i)
        x = x + np.random.random(x.shape)
    return x, np.random.random()


case(_global_seed_in_loop, (np.zeros(3),))


def _loop_in_lambda_and_comprehension(x):
    out = [np.sum([x[i] * j for j in range(3)]) for i in range(len(x))]
    return out


case(_loop_in_lambda_and_comprehension, (np.arange(N, dtype=float),))


def _loop_over_set_and_sorted(x, keys):
    for k in sorted(keys):
        x = x * 0.5 + k
    return x


case(_loop_over_set_and_sorted, (np.zeros(2), {3, 1, 2, 9, 7, 5, 4, 6, 8, 0}))


def _loop_over_string(x, s):
    for ch in s:
        x = x + ord(ch)
    return x


case(_loop_over_string, (np.zeros(2, np.int8), "abcdefghijkl"), (np.zeros(2), "zz"))


# -- symbolic sizes and trip counts: guards the loop needs ---------------------------------

def _trips_past_array_end(x, t):
    for i in range(t):
        x[i] = i
    return x


case(_trips_past_array_end, (np.zeros(20), 10), (np.zeros(20), 12), (np.zeros(20), 15),
     (np.zeros(20), 25), (np.zeros(20), 20), (np.zeros(20), 9), calls=1)


def _range_goes_negative(x):
    for i in range(len(x) - 10):
        x[i + 10] += x[i]
    return x


case(_range_goes_negative, (np.ones(20),), (np.ones(21),), (np.ones(22),), (np.ones(5),),
     (np.ones(10),), (np.ones(11),), (np.ones(30),), calls=1)


def _trips_from_two_sizes(x, y):
    for i in range(len(x) - len(y)):
        x[i] = x[i] + y[i % len(y)] if len(y) else x[i]
    return x


case(_trips_from_two_sizes, (np.ones(20), np.ones(3)), (np.ones(21), np.ones(4)),
     (np.ones(22), np.ones(5)), (np.ones(5), np.ones(9)), calls=1)


def _start_from_other_size(x, y):
    for i in range(len(y), len(x)):
        x[i] = x[i - len(y)] * 2
    return x


case(_start_from_other_size, (np.ones(20), np.ones(3)), (np.ones(21), np.ones(4)),
     (np.ones(22), np.ones(5)), (np.ones(9), np.ones(12)), (np.ones(30), np.ones(1)),
     calls=1)


def _counter_step_two_symbolic(x):
    k = 0
    for i in range(len(x) // 2):
        x[k] += x[k + 1]
        k += 2
    return x, k


case(_counter_step_two_symbolic, (np.ones(20),), (np.ones(21),), (np.ones(22),),
     (np.ones(3),), (np.ones(1),), calls=1)


def _mirror_index_symbolic(x):
    n = len(x)
    for i in range(n):
        x[n - 1 - i] += x[i] * 0.5
    return x


case(_mirror_index_symbolic, (np.arange(12.0),), (np.arange(13.0),), (np.arange(14.0),),
     (np.arange(1.0),), calls=1)


def _index_after_used_in_python(x, t):
    for i in range(t):
        x = x + 1
    return x, i * 2, str(i), i > 10


case(_index_after_used_in_python, (np.zeros(2), 12), (np.zeros(2), 13), (np.zeros(2), 14),
     (np.zeros(2), 10), calls=1)


def _negative_range_symbolic(x, t):
    for i in range(-t, 0):
        x[i] += i
    return x


case(_negative_range_symbolic, (np.zeros(20), 10), (np.zeros(20), 11), (np.zeros(20), 12),
     (np.zeros(20), 25), calls=1)


def _column_loop_symbolic(m):
    for j in range(1, m.shape[1]):
        m[:, j] += m[:, j - 1]
    return m


case(_column_loop_symbolic, (np.ones((3, 10)),), (np.ones((4, 11)),), (np.ones((2, 12)),),
     (np.ones((0, 12)),), (np.ones((3, 1)),), calls=1)


# -- outlined bodies: exits, targets, frames --------------------------------------------------

class Base:
    def step(self, x, i):
        return x * 0.5 + i


class Child(Base):
    def step(self, x, i):
        return super().step(x, i) + 1

    def run(self, x):
        for i in range(N):
            print("step", i)
            x = super().step(x, i) - self.step(x, i) * 0.1
        return x


def _super_in_outlined_body(o, x):
    return o.run(x)


case(_super_in_outlined_body, lambda: (Child(), np.ones(BIG)), lambda: (Child(), np.ones(4)))


def _iterator_rest_after_break_big(x):
    it = iter(range(100))
    for k in it:
        print(k)
        x = x + k
        if k == 9:
            break
    return x, list(it)[:3], next(it)


case(_iterator_rest_after_break_big, (np.zeros(BIG),), (np.zeros(3),))


def _loop_in_except_big(x):
    try:
        raise KeyError("first")
    except KeyError:
        for i in range(N):
            print(i)
            x = x + i
            if i == 10:
                raise ValueError("in loop")
    return x


case(_loop_in_except_big, (np.zeros(BIG),), (np.zeros(2),))


def _subscript_target_big(x):
    for x[0] in range(N):
        print(x[0])
        x[1:] += x[0]
    return x


case(_subscript_target_big, (np.zeros(BIG),), (np.zeros(5),))


def _subscript_target_loop_node(x):
    for x[0] in range(N):
        x[1:] += x[0]
    return x


case(_subscript_target_loop_node, (np.zeros(5),), (np.zeros(5, np.int8),))


def _attribute_target(o, x):
    for o.n in range(N):
        x = x + o.n
    return x, o.n


case(_attribute_target, lambda: (Box(), np.zeros(2)))


def _attribute_target_big(o, x):
    for o.n in range(N):
        print(o.n)
        x = x + o.n
    return x, o.n


case(_attribute_target_big, lambda: (Box(), np.zeros(BIG)))


def _star_target_rows(m):
    acc = np.zeros(())
    for first, *rest in m:
        acc = acc + first * len(rest) + sum(rest)
    return acc


case(_star_target_rows, (np.arange(36.0).reshape(N, 3),))


def _nested_tuple_target_big(a, b):
    for i, (u, v) in enumerate(zip(a, b)):
        if i % 5 == 0:
            print(i)
        a[i] = u * v + i
    return a


case(_nested_tuple_target_big, (np.ones(BIG), np.full(BIG, 2.0)))


def _global_name_as_loop_var_big(x):
    global LOOPVAR
    for LOOPVAR in range(N):
        print(LOOPVAR)
        x = x + LOOPVAR
    return x


LOOPVAR = -1


def _reset_loopvar():
    global LOOPVAR
    LOOPVAR = -1


case(_global_name_as_loop_var_big, (np.zeros(BIG),), setup=_reset_loopvar,
     watch=lambda: LOOPVAR)


def _iterable_rebound_in_body_big(x):
    xs = list(range(N))
    for v in xs:
        print(v)
        xs = [0]
        x = x + v
    return x, xs


case(_iterable_rebound_in_body_big, (np.zeros(BIG),))


def _list_appended_while_iterated_big(x):
    xs = [1, 2, 3]
    for v in xs:
        print(v)
        if len(xs) < N:
            xs.append(v * 2)
        x = x + v
    return x, xs


case(_list_appended_while_iterated_big, (np.zeros(BIG),))


def _prev_defined_some_trips_big(x):
    for i in range(N):
        print(i)
        if i == 3:
            prev = x.copy()
        x = x + 1
    return x - prev


case(_prev_defined_some_trips_big, (np.zeros(BIG),))


def _prev_unbound_raises_big(x):
    for i in range(N):
        print(i)
        if i > 3:
            x = x + prev  # noqa: F821 (unbound until trip 6: the point)
        if i == 6:
            prev = x.copy()  # noqa: F841 (read by later trips)
    return x


case(_prev_unbound_raises_big, (np.zeros(BIG),))


def _data_dependent_break_for_else_big(x):
    for i in range(N):
        if x[i] > 0.9:
            break
        x = x * 1.1
    else:
        x = -x
    return x, i


case(_data_dependent_break_for_else_big, (np.linspace(0, 1, BIG),),
     (np.linspace(0.5, 1, BIG)[::-1].copy(),))


def _outlined_body_swaps_and_raises_big(a, b, log):
    for i in range(N):
        print(i)
        log.append(i)
        b[:] = a + 1
        a, b = b, a
        if i == 9:
            raise RuntimeError(a[0], b[0])
    return a, b


case(_outlined_body_swaps_and_raises_big, (np.zeros(BIG), np.zeros(BIG), []))


def _outlined_warnings_once_per_trip_big(x):
    for i in range(N):
        if x[0] > -1:
            x = x + np.log(x * 0)
        print(i)
    return x


case(_outlined_warnings_once_per_trip_big, (np.ones(BIG),))


def _outlined_errstate_inside_big(x):
    for i in range(N):
        print(i)
        with np.errstate(divide="ignore"):
            x = x / (x * 0)
    return x


case(_outlined_errstate_inside_big, (np.ones(BIG),))


def _outlined_nested_outer_print_big(x):
    for i in range(N):
        print(i)
        for j in range(10):
            x = x * 0.9 + j
    return x


case(_outlined_nested_outer_print_big, (np.ones(BIG),))


def _outlined_returns_generator_state_big(x):
    g = (k for k in range(100))
    for i in range(N):
        print(i)
        x = x + next(g)
    return x, next(g)


case(_outlined_returns_generator_state_big, (np.zeros(BIG),))


# -- loop nodes: the index through Python functions (non-affine, clamped, converted) ---------

_INDEX_FUNCTIONS = {
    "abs": lambda i: abs(i - 6),
    "min": lambda i: min(i, 5),
    "max": lambda i: max(i, 5),
    "neg": lambda i: -i,
    "mod": lambda i: i % 5,
    "floordiv_neg": lambda i: (i - 7) // 3,
    "and": lambda i: i & 3,
    "shift": lambda i: i >> 1,
    "round": lambda i: round(i / 2),
    "int_of_float": lambda i: int(i * 0.5),
    "pow": lambda i: pow(i, 2) % 12,
    "divmod": lambda i: divmod(i, 4)[1],
    "np_int64": lambda i: np.int64(i) % 7,
    "bool_and": lambda i: i and 1,
    "conditional": lambda i: 0 if i > 6 else i,
    "index_dunder": lambda i: i.__index__(),
    "len_str": lambda i: len(str(i)),
    "hash": lambda i: hash(i) % 4,
    "sum_range": lambda i: sum(range(i)) % 12,
}


def _index_function_program(name, g):
    def write(x):
        for i in range(N):
            x[g(i)] += 1
        return x

    def add(y):
        for i in range(N):
            y = y + g(i)
        return y

    write.__name__ = f"index_fn_{name}_write"
    add.__name__ = f"index_fn_{name}_add"
    case(write, (np.zeros(N),))
    case(add, (np.zeros(2),), (np.zeros(2, np.int8),))


for _name, _g in _INDEX_FUNCTIONS.items():
    _index_function_program(_name, _g)


def _index_to_numpy_scalars(x):
    for i in range(250, 262):
        x = x + np.uint8(i)
    return x


case(_index_to_numpy_scalars, (np.zeros(2, np.uint8),), (np.zeros(2),))


def _index_negated_into_uint8(x):
    for i in range(N):
        x[i] = -i
    return x


case(_index_negated_into_uint8, (np.zeros(N, np.uint8),), (np.zeros(N, np.int8),))


def _index_to_float16(x):
    for i in range(65500, 65512):
        x = x + np.float16(i)
    return x


case(_index_to_float16, (np.zeros(2, np.float16),))


def _arange_of_index(x):
    acc = np.zeros(())
    for i in range(N):
        acc = acc + np.arange(i).sum() * x[i]
    return acc


case(_arange_of_index, (np.ones(N),))


def _linspace_of_index(x):
    for i in range(N):
        x = x + np.linspace(0, 1, i + 2)[-2]
    return x


case(_linspace_of_index, (np.zeros(2),))


def _full_and_array_of_index(x):
    for i in range(N):
        x = x + np.full(2, i) + np.array([i, -i]) + np.array(i, dtype=np.int8)
    return x, x.dtype


case(_full_and_array_of_index, (np.zeros(2, np.int8),), (np.zeros(2, np.float32),))


def _reshape_by_index(x):
    for i in range(1, N):
        x = x.reshape(i, -1).reshape(-1) + 1
    return x


case(_reshape_by_index, (np.zeros(24),), (np.zeros(N * 2),))


def _prefix_clamped_past_end(x):
    s = 0.0
    for i in range(len(x) + 3):
        s = s + x[:i].sum()
    return s


case(_prefix_clamped_past_end, (np.ones(10),), (np.ones(11),), (np.ones(12),), calls=1)


def _index_in_tuple_membership(x):
    for i in range(N):
        if i in (3, 7):
            x[i] = -1
        x[i] += 1
    return x


case(_index_in_tuple_membership, (np.zeros(N),))


def _index_walrus(x):
    for i in range(N):
        if (j := i * 2) > 10:
            x[i] = j
    return x, j


case(_index_walrus, (np.zeros(N),))


def _index_match(x):
    for i in range(N):
        match i:
            case 0:
                x[i] = -1
            case 5 | 6:
                x[i] = 5
            case _:
                x[i] = x[i - 1] + 1
    return x


case(_index_match, (np.zeros(N),))


# -- outlined bodies: more frames and exits -----------------------------------------------

def _cell_read_by_closure_made_before_big(x):
    acc = x

    def get():
        return acc[0]

    seen = []
    for i in range(N):
        print(i)
        acc = acc + 1
        seen.append(get())
    return seen


case(_cell_read_by_closure_made_before_big, (np.zeros(BIG),))


def _varargs_kwargs_big(*args, **kwargs):
    x = args[0]
    for i in range(N):
        print(i, kwargs["tag"])
        x = x * kwargs["k"] + args[1]
    return x


case(_varargs_kwargs_big, Args(np.ones(BIG), 1.0, tag="t", k=0.5))


def _kwonly_defaults_big(x, *, k=0.5, steps=N):
    for i in range(steps):
        print(i)
        x = x * k
    return x


case(_kwonly_defaults_big, (np.ones(BIG),), Args(np.ones(BIG), k=2.0, steps=3))


def _stop_iteration_in_outlined_body_big(x):
    it = iter(range(5))
    for i in range(N):
        print(i)
        x = x + next(it)
    return x


case(_stop_iteration_in_outlined_body_big, (np.zeros(BIG),))


class NoisyIter:
    def __init__(self, n):
        self.n = n
        self.k = 0

    def __iter__(self):
        return self

    def __next__(self):
        print("next", self.k)
        if self.k >= self.n:
            raise StopIteration
        self.k += 1
        if self.k == 9:
            raise ValueError("item 9")
        return self.k


def _custom_iterator_big(x, n):
    it = NoisyIter(n)
    for v in it:
        print("body", v)
        x = x + v
    return x, it.k


case(_custom_iterator_big, (np.zeros(BIG), 5), (np.zeros(BIG), 20))


def _generator_raises_at_k_big(x):
    def gen():
        for k in range(N):
            if k == 7:
                raise LookupError(k)
            yield k

    for v in gen():
        print(v)
        x = x + v
    return x


case(_generator_raises_at_k_big, (np.zeros(BIG),), (np.zeros(3),))


def _helper_loop_outlined_inlined_big(x):
    return _helper_print_loop(x) + 1


def _helper_print_loop(a):
    for i in range(N):
        print("helper", i)
        a = a * 0.5 + i
    return a


case(_helper_loop_outlined_inlined_big, (np.ones(BIG),))


def _for_else_return_big(x):
    for i in range(N):
        print(i)
        if x[i] > 100:
            return "found", i
        x = x + 1
    else:
        return "else", x
    return "unreachable"


case(_for_else_return_big, (np.zeros(BIG),), (np.full(BIG, 95.0),))


def _rows_rebound_in_body_big(m):
    acc = 0.0
    for row in m:
        print(float(row[0]))
        m = m * 2
        acc = acc + row.sum()
    return acc, m


case(_rows_rebound_in_body_big, (np.ones((N, 4000)),))


def _zip_strict_outlined_big(a, b):
    s = 0.0
    for u, v in zip(a, b, strict=True):
        print(float(u[0]))
        s = s + (u * v).sum()
    return s


case(_zip_strict_outlined_big, (np.ones((N, 4000)), np.ones((N + 1, 4000))),
     (np.ones((N, 4000)), np.ones((N, 4000))))


def _class_cell_in_loop_big(o, x):
    return o.go(x)


class UsesClassCell:
    def go(self, x):
        for i in range(N):
            print(__class__.__name__, i)
            x = x + 1
        return x


case(_class_cell_in_loop_big, lambda: (UsesClassCell(), np.zeros(BIG)))


def _super_in_loop_node(o, x):
    return o.run_quiet(x)


class QuietChild(Base):
    def run_quiet(self, x):
        for i in range(N):
            x = super().step(x, i)
        return x


case(_super_in_loop_node, lambda: (QuietChild(), np.ones(3)))


# -- loop nodes: writes through closures, globals, objects, views that may be copies ---------

def _closure_array_written_in_body(x):
    w = np.zeros(N)

    def bump(i):
        w[i] += i

    for i in range(N):
        bump(i)
        x = x + w[i]
    return x, w


case(_closure_array_written_in_body, (np.zeros(2),))


GW = np.zeros(N)


def _global_array_written_in_place(x):
    for i in range(N):
        GW[i] = x[i] * 2
        x[i] = GW[i - 1]
    return x


def _reset_gw():
    GW[:] = 0


case(_global_array_written_in_place, (np.arange(N, dtype=float),), setup=_reset_gw,
     watch=lambda: GW.copy())


class Holder:
    def __init__(self):
        self.buf = np.zeros(N)


def _attribute_array_written(h, x):
    for i in range(N):
        h.buf[i] = x[i] + h.buf[i - 1]
    return h.buf.sum()


case(_attribute_array_written, lambda: (Holder(), np.ones(N)))


def _free_reverse_view_of_carried(x, y):
    for i in range(1, N):
        x[i] = y[i - 1] + 1
    return x


case(_free_reverse_view_of_carried, lambda: (lambda a: (a, a[::-1]))(np.arange(N, dtype=float)),
     lambda: (np.arange(N, dtype=float), np.arange(N, dtype=float)))


def _inplace_add_reversed_self(x):
    for i in range(N):
        x += x[::-1]
        x *= 0.5
    return x


case(_inplace_add_reversed_self, (np.arange(7.0),))


def _ravel_view_or_copy(x):
    for i in range(N):
        x.ravel()[i] = i + 1
    return x


case(_ravel_view_or_copy, (np.zeros((3, 4)),), (np.asfortranarray(np.zeros((3, 4))),),
     (np.zeros((4, 6))[:, ::2],))


def _reshape_view_or_copy(x):
    for i in range(N):
        x.reshape(-1)[i] = -i
    return x


case(_reshape_view_or_copy, (np.zeros((3, 4)),), (np.zeros((4, 3)).T,))


def _flatten_is_copy(x):
    for i in range(N):
        x.flatten()[i] = 99
        x.flat[i] = x.flat[i - 1] + 1
    return x


case(_flatten_is_copy, (np.zeros((3, 4)),), (np.asfortranarray(np.zeros((3, 4))),))


def _transposed_view_column_write(x):
    for i in range(N):
        x.T[i] = i
    return x


case(_transposed_view_column_write, (np.zeros((3, N)),))


def _real_imag_view_write(z):
    for i in range(N):
        z.real[i] = i
        z.imag[i] = z.real[i - 1]
    return z


case(_real_imag_view_write, (np.zeros(N, np.complex128),))


def _fancy_duplicate_inplace(x):
    for i in range(N):
        x[[i, i, 0]] += 1
    return x


case(_fancy_duplicate_inplace, (np.zeros(N),))


def _fancy_read_is_copy(x):
    for i in range(N):
        v = x[[i]]
        v[0] = -1
        x[i] += v[0] + 2
    return x


case(_fancy_read_is_copy, (np.zeros(N),))


def _newaxis_ellipsis_index(m):
    for i in range(N):
        m[..., i] = m[None, :, i - 1][0] + 1
    return m


case(_newaxis_ellipsis_index, (np.zeros((2, N)),))


def _mask_write_by_index(x):
    for i in range(N):
        x[x > i] -= 1
    return x


case(_mask_write_by_index, (np.arange(20.0),))


def _mask_sum_by_index(x):
    acc = 0.0
    for i in range(N):
        acc = acc + x[x > i].sum() + np.count_nonzero(x < i)
    return acc


case(_mask_sum_by_index, (np.arange(20.0),))


def _setflags_at_trip_k(x):
    for i in range(N):
        x[i] = i
        if i == 7:
            x.setflags(write=False)
    return x


case(_setflags_at_trip_k, (np.zeros(N),))


def _put_and_copyto(x, y):
    for i in range(N):
        np.put(x, i, y[i] * 2)
        np.copyto(y, x, where=x > i)
    return x, y


case(_put_and_copyto, (np.zeros(N), np.arange(N, dtype=float)))


def _out_into_reversed_self(x):
    for i in range(N):
        np.multiply(x, 0.5, out=x[::-1])
        x[0] += 1
    return x


case(_out_into_reversed_self, (np.arange(5.0),))


def _zero_d_free_input_inplace(x, c):
    for i in range(N):
        c += 1
        x = x + c
    return x, c


case(_zero_d_free_input_inplace, (np.zeros(2), np.zeros(())), (np.zeros(2), np.zeros((), np.int8)))


def _object_dtype_accumulate(x):
    s = 0
    for i in range(len(x)):
        s = s + x[i]
    return s, type(s)


case(_object_dtype_accumulate, lambda: (np.array([1, 2.5, 3, 10 ** 20] * 3, dtype=object),))


def _swap_three_symbolic(a, b, c, t):
    for i in range(t):
        c[:] = a + b
        a, b, c = b, c, a
    return a, b, c


case(_swap_three_symbolic, (np.ones(2), np.zeros(2), np.zeros(2), 10),
     (np.ones(2), np.zeros(2), np.zeros(2), 11), (np.ones(2), np.zeros(2), np.zeros(2), 12),
     (np.ones(2), np.zeros(2), np.zeros(2), 13), calls=1)


# -- loop nodes: index expressions that cross zero, and many sizes (per-size variants) ------

_MANY = (10, 11, 12, 13, 14, 15, 16, 17, 30, 9, 3, 2, 1, 0)


def _sizes(make):
    return [(lambda n=n: make(n)) for n in _MANY]


def _index_crosses_zero(x):
    for i in range(N):
        x[i - 5] = x[i - 6] + i
    return x


case(_index_crosses_zero, (np.zeros(N),), (np.zeros(20),), (np.zeros(7),))


def _slice_wraps_first_trips(x):
    acc = np.zeros(())
    for i in range(N):
        acc = acc + x[i - 3:i].sum()
    return acc


case(_slice_wraps_first_trips, (np.arange(20.0),), (np.arange(N, dtype=float),))


def _odd_positions(x):
    for i in range(len(x) // 2):
        x[2 * i + 1] = x[2 * i] - x[2 * i + 1]
    return x


case(_odd_positions, *_sizes(lambda n: (np.arange(n, dtype=float),)), calls=1)


def _from_the_end(x):
    for i in range(len(x)):
        x[-i - 1] += x[-i] * 0.5
    return x


case(_from_the_end, *_sizes(lambda n: (np.arange(n, dtype=float),)), calls=1)


def _anti_diagonal(m):
    n = len(m)
    for i in range(n):
        m[i, n - 1 - i] = m[i - 1, n - i - 2] + 1 if i else 1
    return m


case(_anti_diagonal, (np.zeros((N, N)),))


def _anti_diagonal_no_branch(m):
    n = len(m)
    for i in range(1, n):
        m[i, n - 1 - i] = m[i - 1, n - i] + 1
    return m


case(_anti_diagonal_no_branch, *_sizes(lambda n: (np.zeros((n, n)),)), calls=1)


def _forward_substitution_many(L, b):
    n = len(b)
    x = np.zeros(n)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def _lower(n):
    return (np.tril(np.ones((n, n))) + np.eye(n) * n, np.arange(n, dtype=float))


case(_forward_substitution_many, *_sizes(_lower), calls=1)


def _back_substitution_many(U, b):
    n = len(b)
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x, i if n else None


def _upper(n):
    return (np.triu(np.ones((n, n))) + np.eye(n) * n, np.arange(n, dtype=float))


case(_back_substitution_many, *_sizes(_upper), calls=1)


def _cholesky_many(a):
    n = len(a)
    L = np.zeros_like(a)
    for j in range(n):
        L[j, j] = np.sqrt(a[j, j] - L[j, :j] @ L[j, :j])
        for i in range(j + 1, n):
            L[i, j] = (a[i, j] - L[i, :j] @ L[j, :j]) / L[j, j]
    return L


case(_cholesky_many, *[(lambda n=n: (np.eye(n) * n + np.ones((n, n)),))
                       for n in (10, 11, 12, 13, 3, 0, 14)], calls=1)


def _cholesky_not_spd(a):
    n = len(a)
    L = np.zeros_like(a)
    for j in range(n):
        L[j, j] = np.sqrt(a[j, j] - L[j, :j] @ L[j, :j])
        for i in range(j + 1, n):
            L[i, j] = (a[i, j] - L[i, :j] @ L[j, :j]) / L[j, j]
    return L


case(_cholesky_not_spd, (np.eye(10) - 0.5,), (np.ones((N, N)),))


def _running_max_many(x):
    m = np.empty_like(x)
    if len(x):
        m[0] = x[0]
    for i in range(1, len(x)):
        m[i] = max(m[i - 1], x[i])
    return m


case(_running_max_many, *_sizes(lambda n: (np.sin(np.arange(n, dtype=float)),)), calls=1)


def _prefix_many_dtypes(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x


case(_prefix_many_dtypes, *[(lambda n=n, d=d: (np.arange(n).astype(d),))
                            for n, d in ((10, np.int8), (11, np.int8), (12, np.int8),
                                         (13, np.float32), (14, np.float32), (30, np.int8),
                                         (31, np.uint8), (9, np.int8), (40, np.float16))],
     calls=1)


def _stencil_many(x):
    y = np.zeros_like(x)
    for i in range(1, len(x) - 1):
        y[i] = x[i - 1] - 2 * x[i] + x[i + 1]
    return y


case(_stencil_many, *_sizes(lambda n: (np.arange(n, dtype=float) ** 2,)), calls=1)


def _trips_and_sizes_both(x, t):
    for i in range(t):
        x[i % 1 + i] += x[i - 1]
    return x


case(_trips_and_sizes_both, *[(lambda n=n, t=t: (np.ones(n), t))
                              for n, t in ((20, 10), (21, 11), (22, 12), (23, 13), (24, 24),
                                           (30, 9), (12, 13), (40, 0))], calls=1)


def _index_symbolic_trips_float32(x, t):
    for i in range(t):
        x[i] = x[i - 1] * 0.5 + i
    return x


case(_index_symbolic_trips_float32, *[(lambda n=n: (np.ones(40, np.float32), n))
                                      for n in (10, 11, 12, 13, 14, 15, 40, 41)], calls=1)


# -- loop variables that are NumPy scalars (strong types under NEP 50) -----------------------

def _iterate_arange_int64(x):
    for i in np.arange(N):
        x = x + i
    return x, x.dtype, type(i)


case(_iterate_arange_int64, (np.zeros(2, np.int8),), (np.zeros(2, np.float32),))


def _iterate_arange_uint8_index(x):
    for i in np.arange(N, dtype=np.uint8):
        x[i] = x[i - 1] + i
    return x


case(_iterate_arange_uint8_index, (np.zeros(N, np.int8),), (np.zeros(N),))


def _iterate_linspace_float64(x):
    for t in np.linspace(0, 1, N):
        x = x + t
    return x, x.dtype


case(_iterate_linspace_float64, (np.zeros(2, np.float32),), (np.zeros(2, np.float16),))


def _iterate_float32_values(x, ts):
    for t in ts:
        x = x * 0.5 + t
    return x


case(_iterate_float32_values, (np.zeros(2), np.linspace(0, 1, N, dtype=np.float32)),
     (np.zeros(2, np.float16), np.linspace(0, 1, N, dtype=np.float32)))


def _range_object_argument(x, r):
    for i in r:
        x[i] += i
    return x


case(_range_object_argument, (np.zeros(30), range(1, 20, 3)), (np.zeros(30), range(20, 1, -3)),
     (np.zeros(30), range(0)), (np.zeros(30), range(29, -1, -1)), calls=1)


def _python_int_grows_past_int64(x):
    k = 1
    for i in range(N):
        k = k * 1000 + 1
        x = x + k
    return x


case(_python_int_grows_past_int64, (np.zeros(2),), (np.zeros(2, np.int64),))


# -- identity of carried arrays -------------------------------------------------------------

def _out_keeps_identity(x):
    y = x
    for i in range(N):
        y = np.add(y, 1, out=y)
    return y, y is x


case(_out_keeps_identity, (np.zeros(3),))


def _ellipsis_view_each_trip(x):
    for i in range(N):
        x = x[...]
        x += 1
    return x


case(_ellipsis_view_each_trip, (np.zeros(3),))


def _asarray_and_astype_no_copy(x):
    for i in range(N):
        x = np.asarray(x)
        x = x.astype(x.dtype, copy=False)
        x += 1
    return x


case(_asarray_and_astype_no_copy, (np.zeros(3),))


def _ascontiguous_first_trip(x):
    for i in range(N):
        x = np.ascontiguousarray(x)
        x[0, 0] += 1
    return x


case(_ascontiguous_first_trip, (np.asfortranarray(np.zeros((3, 3))),), (np.zeros((3, 3)),))


def _reshape_same_shape_view(x):
    for i in range(N):
        x = x.reshape(x.shape)
        x[i % 2] += 1
    return x


case(_reshape_same_shape_view, (np.zeros(3),))


def _iadd_dunder(x):
    for i in range(N):
        x = x.__iadd__(1)
    return x


case(_iadd_dunder, (np.zeros(3),), (np.zeros(3, np.int8),))


# -- loop nodes: what a trip wrote before it raised ---------------------------------------

def _write_then_raise_in_trip(z, out, out2):
    with np.errstate(divide="raise"):
        for i in range(len(z)):
            out[i] = i
            out2[i] = 1.0 / z[i]
    return out, out2


def _zeros_at(k):
    return lambda: (np.array([1.0] * k + [0.0] + [1.0] * (N - k - 1)), np.zeros(N), np.zeros(N))


case(_write_then_raise_in_trip, _zeros_at(9), _zeros_at(0), _zeros_at(N - 1))


def _raise_then_write_in_trip(z, out, out2):
    with np.errstate(divide="raise"):
        for i in range(len(z)):
            t = 1.0 / z[i]
            out[i] = i
            out2[i] = t
    return out, out2


case(_raise_then_write_in_trip, _zeros_at(9), _zeros_at(0), _zeros_at(N - 1))


def _inplace_accumulate_then_raise(z, acc):
    with np.errstate(divide="raise"):
        for i in range(len(z)):
            acc += i
            acc *= 1.0 / z[i]
    return acc


case(_inplace_accumulate_then_raise,
     lambda: (np.array([1.0] * 9 + [0.0, 1.0, 1.0]), np.zeros(2)),
     lambda: (np.ones(N), np.zeros(2)))


def _warning_as_error_at_k(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for i in range(N):
            x = x + 1 / (x - i)
    return x


case(_warning_as_error_at_k, (np.array([0.5, 9.0]),), (np.array([0.5, 0.25]),))


def _warning_filter_once_in_loop(x):
    with warnings.catch_warnings():
        warnings.simplefilter("once")
        for i in range(N):
            x = x + np.log(x * 0)
    return x


case(_warning_filter_once_in_loop, (np.ones(2),))


def _errstate_return_from_inside(x):
    with np.errstate(all="ignore"):
        for i in range(N):
            x = x / (x * 0)
            if i == 9:
                return x, np.geterr()["divide"]
    return None


case(_errstate_return_from_inside, (np.ones(2),))


def _errstate_break_big(x):
    with np.errstate(divide="ignore"):
        for i in range(N):
            print(i)
            x = x / (x * 0)
            if x[0] > 0:
                break
    return x, np.geterr()["divide"]


case(_errstate_break_big, (np.ones(BIG),), (-np.ones(BIG),))


def _raise_mid_body_with_two_carried(a, b, z):
    with np.errstate(invalid="raise"):
        for i in range(N):
            a = a + 1
            b = b + np.sqrt(z[i])
            a = a * 2
    return a, b


case(_raise_mid_body_with_two_carried, (np.zeros(2), np.zeros(2), np.array([1.0] * 7 + [-1.0] * 5)))


# -- loop nodes: a write whose source overlaps it (NumPy copies first) ---------------------

def _planes_transposed_in_place(cube):
    for plane in cube:
        plane[:] = plane.T
    return cube


case(_planes_transposed_in_place, (np.arange(N * 9.0).reshape(N, 3, 3),))


def _transpose_assign_each_trip(m):
    for i in range(N):
        m[:] = m.T
        m[0, i % 3] += i
    return m


case(_transpose_assign_each_trip, (np.arange(9.0).reshape(3, 3),))


def _iadd_transpose_each_trip(m):
    for i in range(N):
        m += m.T
        m *= 0.25
    return m


case(_iadd_transpose_each_trip, (np.arange(16.0).reshape(4, 4),),
     (np.arange(40000.0).reshape(200, 200),))


def _row_from_column(m):
    for i in range(len(m)):
        m[i, :] = m[:, i] * 2
    return m


case(_row_from_column, (np.arange(N * N, dtype=float).reshape(N, N),))


def _reverse_copy_plain(x):
    for i in range(N):
        x[:] = x[::-1]
        x[0] += 1
    return x


case(_reverse_copy_plain, (np.arange(5.0),), (np.arange(float(BIG)),))


def _shifted_self_assign_big(x):
    for i in range(N):
        x[:-1] = x[1:]
        x[-1] = i
    return x


case(_shifted_self_assign_big, (np.arange(float(BIG)),))


def _matmul_into_operand(a, b):
    for i in range(N):
        np.matmul(a, b, out=a)
        a /= a.max()
    return a


case(_matmul_into_operand, (np.arange(9.0).reshape(3, 3) + 1, np.eye(3) + 0.5))


# -- compiled calls inside loops, finalizers per trip ----------------------------------------

def _recursive_with_loop(x, n):
    for i in range(N):
        x = x * 0.5 + n
    return _recursive_with_loop(x, n - 1) if n > 0 else x


case(_recursive_with_loop, (np.ones(2), 3), (np.ones(2), 0))


@scenario
def s_compiled_call_in_loop_body(r):
    """A loop whose body calls another compiled function."""
    def inner(a, i):
        return a * 0.5 + i

    def outer(x):
        for i in range(N):
            x = g_inner(x, i)
        return x

    g_inner = r.compile(inner)
    g = r.compile(outer)
    r.call(g, np.ones(3))
    r.call(g, np.ones(3, np.float32))
    r.call(g_inner, np.ones(3), 2)


class Noisy:
    def __init__(self, tag, log):
        self.tag, self.log = tag, log

    def __del__(self):
        self.log.append(("del", self.tag))


def _finalizer_each_trip_small(x, log):
    for i in range(N):
        n = Noisy(i, log)
        log.append(("made", i))
        x = x + n.tag
    del n
    return x


case(_finalizer_each_trip_small, (np.zeros(2), []))


def _finalizer_each_trip_print_small(x, log):
    for i in range(N):
        n = Noisy(i, log)
        print(i)
        x = x + n.tag
    return x, len(log)


case(_finalizer_each_trip_print_small, (np.zeros(2), []))
