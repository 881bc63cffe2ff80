"""Round 7, arrays: the ``fresh_copies`` pass (``np.array(xs)`` of a list the guards
already converted: the list mutated afterwards, the array mutated, ``is`` checks,
subclasses of list, lists of 0-d arrays, of ``np.float32``, of bools, big ints,
nested lists) and the numpy backend's flat stencil pass (overlapping in/out views,
Fortran-ordered and negative-stride arrays, one-row and one-column arrays,
``errstate`` around it, integer arrays, conditions met only in the boundary
columns)."""

import numpy as np
from hostile_check import Programs

reg = Programs("round7_arrays")
case, scenario = reg.case, reg.scenario

XS = [1.0, 2.5, -3.0, 4.0, 0.5, 6.0, 7.0, -8.0]
# other items and another length: from the second list on, a list is one array input
# (guards.AsArraySource), which is when fresh_copies drops np.array(xs)
XS2 = [2.0 * v + 1.0 for v in XS]
XS3 = XS[:5]
A = np.linspace(-1.0, 1.0, 8)


class MyList(list):
    pass


class LoudList(list):
    def __iter__(self):
        print("iter")
        return super().__iter__()

    def __len__(self):
        print("len")
        return super().__len__()


# ============================================================ fresh_copies

def _array_of_list_times(xs, a):
    return a * np.array(xs)


case(_array_of_list_times, (XS, A), (XS2, A), (XS[:4] + [9.0, 9.0, 9.0, 9.0], A))


def _array_of_list_returned(xs):
    return np.array(xs)


case(_array_of_list_returned, (XS,), ([1, 2, 3],), ([True, False],))


def _array_returned_then_mutated_by_caller(r):
    xs = list(XS)
    f = r.compile(_array_of_list_returned)
    y = r.call(f, xs)
    y[0] = 100.0
    r.see("list after", xs)
    xs[1] = 5.0
    z = r.call(f, xs)
    z[2] = -1.0
    r.see("list after 2", xs)
    xs[2] = 6.0
    w = r.call(f, xs)
    r.see("third shares", np.shares_memory(w, z))
    r.see("second result", z)
    r.see("shares", np.shares_memory(y, z))


scenario(_array_returned_then_mutated_by_caller)


def _list_mutated_after_copy(xs, a):
    y = np.array(xs)
    xs[0] = 999.0
    return y * a, xs


case(_list_mutated_after_copy, (XS, A), (XS2, A))


def _list_appended_after_copy(xs, a):
    y = np.array(xs)
    xs.append(1.0)
    return y + a, len(xs)


case(_list_appended_after_copy, (XS, A), (XS2, A))


def _array_mutated_list_unchanged(xs):
    y = np.array(xs)
    y[1] = -1.0
    return y, xs


case(_array_mutated_list_unchanged, (XS,), (XS2,), (XS3,))


def _two_copies_one_mutated(xs):
    a = np.array(xs)
    b = np.array(xs)
    a[0] = 42.0
    return a, b


case(_two_copies_one_mutated, (XS,), (XS2,), (XS3,))


def _copy_and_asarray(xs):
    a = np.asarray(xs)
    b = np.array(xs)
    b *= 2
    return a, b


case(_copy_and_asarray, (XS,), (XS2,), (XS3,))


def _copy_is_checks(xs):
    a = np.array(xs)
    b = np.array(a)
    return a is b, np.shares_memory(a, b), a is xs, b


case(_copy_is_checks, (XS,), (XS2,), (XS3,))


def _copy_of_copy_mutated(xs):
    a = np.array(xs)
    b = np.array(a)
    b[0] = 7.0
    return a, b


case(_copy_of_copy_mutated, (XS,), (XS2,), (XS3,))


def _copy_returned_twice(xs):
    a = np.array(xs)
    return a, a


case(_copy_returned_twice, (XS,), (XS2,), (XS3,))


def _copy_view_returned(xs):
    a = np.array(xs)
    return a[1:], a


case(_copy_view_returned, (XS,), (XS2,), (XS3,))


def _copy_reshaped(xs):
    return np.array(xs).reshape(2, -1)


case(_copy_reshaped, (XS,), (XS2,), (XS3,))


def _copy_inplace_add(xs, a):
    y = np.array(xs)
    y += a
    return y


case(_copy_inplace_add, (XS, A), (XS2, A))


def _copy_with_dtype(xs):
    return np.array(xs, dtype=np.float32) * 2


case(_copy_with_dtype, (XS,), (XS2,), (XS3,))


def _copy_ndmin(xs):
    return np.array(xs, ndmin=2) + 1


case(_copy_ndmin, (XS,), (XS2,), (XS3,))


def _subclass_of_list(xs):
    return np.array(xs) * 2, type(xs).__name__


case(_subclass_of_list, (MyList(XS),), (XS,), (XS2,), (XS3,))


def _loud_subclass(xs):
    return np.array(xs) * 2


case(_loud_subclass, lambda: (LoudList(XS),), lambda: (LoudList(XS2),),
     lambda: (LoudList(XS3),))


def _list_of_0d_arrays(xs):
    return np.array(xs) * 2


case(_list_of_0d_arrays, (XS,), (XS2,), lambda: ([np.array(v) for v in XS],),
     lambda: ([np.array(1.0), np.array(2.0)],))


def _list_of_float32(xs):
    y = np.array(xs)
    return y, y.dtype, y * np.float32(3)


case(_list_of_float32, lambda: ([np.float32(v) for v in XS],), (XS,), (XS2,), (XS3,))


def _list_mixed_float32_float(xs):
    return np.array(xs) + 1


case(_list_mixed_float32_float, lambda: ([np.float32(1.5), 2.0, np.float32(3.0)],))


def _list_of_bools(xs):
    y = np.array(xs)
    return y, ~y


case(_list_of_bools, ([True, False, True],), ([1, 0, 1],))


def _list_of_big_ints(xs):
    return np.array(xs) + 1


case(_list_of_big_ints, ([2 ** 62, 2 ** 62],), ([2 ** 63, 1],), ([2 ** 70],), ([-1, 2 ** 63],))


def _list_of_mixed_int_float(xs):
    return np.array(xs) * 2


case(_list_of_mixed_int_float, ([1, 2.5, 3],), ([1, 2, 3],))


def _nested_list(xs):
    return np.array(xs) + 0.5


case(_nested_list, ([[1.0, 2.0], [3.0, 4.0]],), ([[1.0, 2.0], [3.0]],))


def _empty_list(xs):
    return np.array(xs) * 2, np.array(xs).dtype


case(_empty_list, ([],), ([1.0],))


def _list_with_nan_inf(xs):
    y = np.array(xs)
    return y * 0.0, np.isnan(y)


case(_list_with_nan_inf, ([np.nan, np.inf, -0.0, 1.0],), ([1.0, -0.0, np.nan, 2.0],))


def _list_of_complex(xs):
    return np.array(xs) * 2


case(_list_of_complex, ([1 + 2j, 3.0],))


def _tuple_instead_of_list(xs):
    return np.array(xs) * 2


case(_tuple_instead_of_list, ((1.0, 2.0, 3.0),), ([1.0, 2.0, 3.0],))


def _list_changes_length_between_calls(xs, a):
    return np.array(xs) * a[: len(xs)]


case(_list_changes_length_between_calls, (XS, A), (XS[:3], A), (XS[:1], A))


def _list_global_mutated(a):
    return np.array(GLOBAL_XS) * a


GLOBAL_XS = list(XS)


def _global_list_mutated_between_calls(r):
    f = r.compile(_list_global_mutated)
    r.call(f, A)
    GLOBAL_XS[0] = -100.0
    r.call(f, A)
    GLOBAL_XS.append(1.0)
    r.call(f, A)
    GLOBAL_XS[:] = list(XS)


scenario(_global_list_mutated_between_calls)


def _list_element_changed_by_caller(r):
    xs = list(XS)
    f = r.compile(_array_of_list_times)
    r.call(f, xs, A)
    xs[3] = 1e300
    r.call(f, xs, A)
    xs[3] = "s"
    r.call(f, xs, A)


scenario(_list_element_changed_by_caller)


def _same_list_twice(xs, ys):
    a = np.array(xs)
    b = np.array(ys)
    a[0] = -1
    return a, b, xs is ys


def _same_list_passed_twice(r):
    xs = list(XS)
    f = r.compile(_same_list_twice)
    r.call(f, xs, xs)
    xs[0] = 3.0
    r.call(f, xs, list(xs))
    xs[1] = 4.0
    r.call(f, xs, xs)
    r.call(f, xs, xs[:5])


scenario(_same_list_passed_twice)


def _copy_sorted_inplace(xs):
    y = np.array(xs)
    y.sort()
    return y, xs


case(_copy_sorted_inplace, (XS,), (XS2,), (XS3,))


def _copy_out_argument(xs, a):
    y = np.array(xs)
    np.add(a, 1.0, out=y)
    return y, a


case(_copy_out_argument, (XS, A), (XS2, A))


def _copy_flags_writeable(xs):
    y = np.array(xs)
    return y.flags.writeable, y.flags.owndata, y.base is None


case(_copy_flags_writeable, (XS,), (XS2,), (XS3,))


# ============================================================ the flat stencil pass

G = np.linspace(0.0, 1.0, 20 * 24).reshape(20, 24)


def _stencil(a, b):
    b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                           + a[1:-1, :-2] + a[1:-1, 2:])
    return b


case(_stencil, lambda: (G.copy(), G.copy()), lambda: (G.copy(), np.zeros_like(G)))


def _stencil_in_place(a):
    a[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                           + a[1:-1, :-2] + a[1:-1, 2:])
    return a


case(_stencil_in_place, lambda: (G.copy(),))


def _stencil_out_shifted_view_of_in(a):
    b = a[1:, 1:]
    b[1:-1, 1:-1] = 0.25 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 2:])
    return a


case(_stencil_out_shifted_view_of_in, lambda: (G.copy(),))


def _stencil_fortran(a, b):
    b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                           + a[1:-1, :-2] + a[1:-1, 2:])
    return b


case(_stencil_fortran, lambda: (G.copy(), G.copy()),
     lambda: (np.asfortranarray(G), np.asfortranarray(G)),
     lambda: (np.asfortranarray(G), G.copy()))


def _stencil_negative_strides(a, b):
    b[1:-1, 1:-1] = 0.5 * (a[1:-1, 1:-1] - a[:-2, 1:-1] + a[2:, 1:-1] * a[1:-1, 2:])
    return b


case(_stencil_negative_strides, lambda: (G.copy(), G.copy()),
     lambda: (G[::-1].copy()[::-1], G.copy()), lambda: (G[::-1, ::-1], G.copy()[:, ::-1]))


def _stencil_strided_rows(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + a[:-2, 1:-1] * a[2:, 1:-1]
    return b


case(_stencil_strided_rows, lambda: (G.copy(), G.copy()),
     lambda: (np.linspace(0, 1, 40 * 24).reshape(40, 24)[::2], G.copy()),
     lambda: (np.linspace(0, 1, 20 * 48).reshape(20, 48)[:, ::2], G.copy()))


def _stencil_one_row(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] * 2.0
    return b


case(_stencil_one_row, lambda: (np.linspace(0, 1, 3 * 40).reshape(3, 40),) * 2,
     lambda: (np.linspace(0, 1, 2 * 40).reshape(2, 40),) * 2,
     lambda: (np.linspace(0, 1, 40).reshape(1, 40), np.zeros((1, 40))))


def _stencil_one_column(a, b):
    b[1:-1, :] = a[1:-1, :] + a[:-2, :] * a[2:, :] - 1.0
    return b


case(_stencil_one_column, lambda: (np.linspace(0, 1, 40).reshape(40, 1), np.zeros((40, 1))),
     lambda: (np.linspace(0, 1, 40).reshape(40, 1), np.ones((40, 1))))


def _stencil_int(a, b):
    b[1:-1, 1:-1] = (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                     + a[1:-1, :-2] + a[1:-1, 2:]) // 5
    return b


case(_stencil_int, lambda: (np.arange(20 * 24).reshape(20, 24),) * 2,
     lambda: (np.arange(20 * 24, dtype=np.int8).reshape(20, 24), np.zeros((20, 24), np.int8)))


def _stencil_int_divide_by_gap_zero(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] // a[1:-1, 2:] + a[1:-1, :-2] % a[2:, 1:-1]
    return b


def _int_grid_zero_border():
    a = np.arange(1, 20 * 24 + 1).reshape(20, 24)
    a[:, 0] = 0
    a[:, -1] = 0
    return a, np.zeros_like(a)


case(_stencil_int_divide_by_gap_zero, _int_grid_zero_border)


def _stencil_int_power_negative_gap(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] ** a[1:-1, 2:] + a[:-2, 1:-1]
    return b


def _int_grid_negative_border():
    a = np.ones((20, 24), dtype=np.int64) * 2
    a[:, 0] = -1
    a[:, -1] = -1
    return a, np.zeros_like(a)


case(_stencil_int_power_negative_gap, _int_grid_negative_border)


def _float_grid_big_border():
    a = G.copy()
    a[:, 0] = 1e308
    a[:, -1] = 1e308
    return (a, np.zeros_like(a))


def _stencil_overflow_in_gap(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] * 10.0 + a[1:-1, 2:] * 0.5
    return b


case(_stencil_overflow_in_gap, _float_grid_big_border)


def _stencil_overflow_in_gap_errstate_raise(a, b):
    with np.errstate(over="raise"):
        b[1:-1, 1:-1] = a[1:-1, 1:-1] * 10.0 + a[1:-1, 2:] * 0.5
    return b


case(_stencil_overflow_in_gap_errstate_raise, _float_grid_big_border)


def _stencil_overflow_errstate_raise_caught(a, b):
    try:
        with np.errstate(all="raise"):
            b[1:-1, 1:-1] = a[1:-1, 1:-1] * 10.0 + a[1:-1, :-2] * 0.5
    except FloatingPointError as e:
        return "fp", str(e)
    return b


case(_stencil_overflow_errstate_raise_caught, _float_grid_big_border)


def _stencil_invalid_in_gap_errstate(a, b):
    with np.errstate(invalid="raise"):
        b[1:-1, 1:-1] = (a[1:-1, 1:-1] - a[1:-1, 2:]) * (a[1:-1, :-2] + 1.0)
    return b


def _float_grid_inf_border():
    a = G.copy()
    a[:, 0] = np.inf
    a[:, -1] = np.inf
    return (a, np.zeros_like(a))


case(_stencil_invalid_in_gap_errstate, _float_grid_inf_border)


def _stencil_seterr_global(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] * 10.0 + a[1:-1, 2:] * 0.5
    return b


def _stencil_under_global_seterr(r):
    f = r.compile(_stencil_seterr_global)
    old = np.seterr(over="raise")
    try:
        r.call(f, *_float_grid_big_border())
        r.call(f, G.copy(), G.copy())
        r.call(f, *_float_grid_big_border())
    finally:
        np.seterr(**old)


scenario(_stencil_under_global_seterr)


def _stencil_nan_in_border(a, b):
    b[1:-1, 1:-1] = np.sqrt(a[1:-1, 1:-1]) + np.sqrt(a[1:-1, :-2] + 1.0)
    return b


def _float_grid_negative_border():
    a = G.copy()
    a[:, 0] = -5.0
    a[:, -1] = -5.0
    return (a, np.zeros_like(a))


case(_stencil_nan_in_border, _float_grid_negative_border)


def _stencil_float32(a, b):
    b[1:-1, 1:-1] = np.float32(0.25) * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2]
                                         + a[1:-1, 2:])
    return b


case(_stencil_float32, lambda: (G.astype(np.float32), G.astype(np.float32)),
     lambda: (G.astype(np.float32), G.copy()))


def _stencil_mixed_dtypes(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + a[:-2, 1:-1] * 0.5
    return b


case(_stencil_mixed_dtypes, lambda: (np.arange(480).reshape(20, 24), G.copy()),
     lambda: (G.copy(), np.zeros((20, 24), np.int64)))


def _stencil_result_also_returned(a):
    c = a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
    b = np.zeros_like(a)
    b[1:-1, 1:-1] = c
    return b, c


case(_stencil_result_also_returned, lambda: (G.copy(),))


def _stencil_two_stores(a):
    b = np.zeros_like(a)
    c = a[1:-1, 1:-1] * 2.0 + a[:-2, 1:-1]
    b[1:-1, 1:-1] = c
    a[1:-1, 1:-1] = c
    return a, b


case(_stencil_two_stores, lambda: (G.copy(),))


def _stencil_loop(a):
    b = a.copy()
    for _ in range(12):
        b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        a, b = b, a
    return a


case(_stencil_loop, lambda: (G.copy(),), lambda: (np.asfortranarray(G),))


def _stencil_shape_changes(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] - a[:-2, 1:-1] + a[1:-1, 2:]
    return b


case(_stencil_shape_changes, lambda: (G.copy(), G.copy()),
     lambda: (np.ones((5, 30)), np.zeros((5, 30))),
     lambda: (np.ones((64, 17)), np.zeros((64, 17))),
     lambda: (np.ones((2, 2)), np.zeros((2, 2))))


def _stencil_non_contiguous_out(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + a[:-2, 1:-1] * a[2:, 1:-1]
    return b


case(_stencil_non_contiguous_out, lambda: (G.copy(), np.zeros((20, 48))[:, ::2]),
     lambda: (G.copy(), np.zeros((24, 20)).T))


def _stencil_readonly_input(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + a[:-2, 1:-1] * a[2:, 1:-1]
    return b


def _readonly_grid():
    a = G.copy()
    a.flags.writeable = False
    return a, G.copy()


case(_stencil_readonly_input, _readonly_grid, lambda: (G.copy(), _readonly_grid()[0]))


def _stencil_out_is_transpose_of_in(a):
    b = a.T
    b[1:-1, 1:-1] = a[1:-1, 1:-1] + a[:-2, 1:-1] * 0.5 + a[2:, 1:-1] * 0.25
    return a


case(_stencil_out_is_transpose_of_in, lambda: (np.linspace(0, 1, 400).reshape(20, 20),))


def _float_grid_zero_border():
    a = G.copy() + 1.0
    a[:, 0] = 0.0
    a[:, -1] = 0.0
    return a, np.zeros_like(a)


def _stencil_divide_by_gap_zero(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] / a[1:-1, 2:] + a[1:-1, :-2] / a[1:-1, 1:-1]
    return b


case(_stencil_divide_by_gap_zero, _float_grid_zero_border,
     lambda: (G.copy() + 1.0, np.zeros_like(G)))


def _stencil_under_errcall(r):
    f = r.compile(_stencil_divide_by_gap_zero)
    calls = []
    old_call = np.seterrcall(lambda kind, flag: calls.append(kind))
    old = np.seterr(all="call")
    try:
        r.call(f, *_float_grid_zero_border())
        r.see("callbacks", list(calls))
        a = G.copy() + 1.0
        a[5, 0] = 0.0
        a[5, 3] = 0.0
        r.call(f, a, np.zeros_like(a))
        r.see("callbacks", list(calls))
    finally:
        np.seterr(**old)
        np.seterrcall(old_call)


scenario(_stencil_under_errcall)


class _Log:
    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)


def _stencil_under_seterr_log(r):
    f = r.compile(_stencil_divide_by_gap_zero)
    log = _Log()
    old_call = np.seterrcall(log)
    old = np.seterr(all="log")
    try:
        r.call(f, *_float_grid_zero_border())
        r.see("logged", list(log.lines))
        a = G.copy() + 1.0
        a[5, 3] = 0.0
        r.call(f, a, np.zeros_like(a))
        r.see("logged", list(log.lines))
    finally:
        np.seterr(**old)
        np.seterrcall(old_call)


scenario(_stencil_under_seterr_log)


def _stencil_underflow_raise(a, b):
    with np.errstate(under="raise"):
        b[1:-1, 1:-1] = a[1:-1, 1:-1] * 1e-300 * a[1:-1, 2:]
    return b


def _float_grid_tiny_border():
    a = G.copy() + 1.0
    a[:, 0] = 1e-300
    a[:, -1] = 1e-300
    return a, np.zeros_like(a)


case(_stencil_underflow_raise, _float_grid_tiny_border)


def _stencil_int_overflow_gap(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] * a[1:-1, 2:] + a[:-2, 1:-1]
    return b


def _int8_grid_big_border():
    a = np.ones((20, 24), dtype=np.int8)
    a[:, 0] = 127
    a[:, -1] = 127
    return a, np.zeros_like(a)


case(_stencil_int_overflow_gap, _int8_grid_big_border)


def _stencil_bool_ops(a, b):
    b[1:-1, 1:-1] = (a[1:-1, 1:-1] > 0.5) & (a[:-2, 1:-1] < 0.9) | (a[1:-1, 2:] == 0.25)
    return b


case(_stencil_bool_ops, lambda: (G.copy(), np.zeros((20, 24), bool)))


def _stencil_value_used_after(a):
    b = np.zeros_like(a)
    c = a[1:-1, 1:-1] * 2.0 + a[:-2, 1:-1]
    b[1:-1, 1:-1] = c
    return b, c.sum(), c[0, :3]


case(_stencil_value_used_after, lambda: (G.copy(),))
