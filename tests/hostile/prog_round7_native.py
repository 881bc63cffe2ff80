"""Round 7, the native tier's new lowerings (docs/native.md): creation ops, ``np.roll``,
integer ``//``, ``%`` and shifts with zero and negative divisors and the int8/uint64
extremes, reductions over one axis with NaN, ``-0.0`` and empty axes. Each program
runs compiled with ``backend="native"`` and tier 2 forced from the second call
(``after_calls=1, background=False, prefer="native"``) on either harness backend, three
calls per input set, and must match plain Python bit for bit."""

import copy

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round7_native")
NATIVE = {"after_calls": 1, "background": False, "prefer": "native"}


def native(fn, *inputs, calls: int = 3, options: dict | None = None):
    """``fn`` compiled for the native tier (plain in the reference run), called
    ``calls`` times with each input set (deep-copied per call)."""
    def s(r):
        f = dynamo.compile(fn, backend="native", options={**NATIVE, **(options or {})}) \
            if r.compiled else fn
        for spec in inputs:
            for _ in range(calls):
                r.call(f, *copy.deepcopy(spec))
    s.__name__ = fn.__name__.removeprefix("_")
    reg.scenario(s)


F = np.array([1.5, -0.0, 0.0, -2.5, np.inf, 3.0, -7.25, 8.0])
FN = np.array([1.5, np.nan, 0.0, -2.5, 4.0, 3.0, -7.25, 8.0])
M = np.arange(12.0).reshape(3, 4) - 5.5
I8 = np.array([-128, -1, 0, 1, 127, 5, -7, 100], dtype=np.int8)
U64 = np.array([0, 1, 2 ** 64 - 1, 2 ** 63, 7, 3, 2 ** 32, 5], dtype=np.uint64)
I64 = np.array([-2 ** 63, -1, 0, 1, 2 ** 63 - 1, 5, -7, 100], dtype=np.int64)


# ============================================================ creation

def _zeros_plus(x):
    return np.zeros(x.shape) + x * 2


native(_zeros_plus, (F[:4].copy(),), (M,))


def _zeros_like_int(x):
    z = np.zeros_like(x)
    return z + x, z.dtype


native(_zeros_like_int, (I8,), (U64,))


def _ones_like_fortran(x):
    return np.ones_like(x) * x + 1.0


native(_ones_like_fortran, (M,), (np.asfortranarray(M),))


def _full_value_cast(x):
    return np.full(x.shape, 300, dtype=x.dtype) if x.dtype.kind != "i" else x + 1


native(_full_value_cast, (np.ones(4, np.uint16),), (np.ones(3, np.float32),))


def _full_like_nan(x):
    return np.full_like(x, np.nan) + x


native(_full_like_nan, (M,))


def _full_like_int_from_float(x):
    return np.full_like(x, 2.75) * x


native(_full_like_int_from_float, (I64,), (I8,))


def _empty_then_filled(x):
    e = np.empty_like(x)
    e[...] = x * 2
    return e + 1


native(_empty_then_filled, (M,), (F,))


def _full_scalar_of_graph(x):
    s = x.max()
    return np.full(x.shape, s) - x


native(_full_scalar_of_graph, (M,), (FN,))


# ============================================================ np.roll

def _roll_1d(x):
    return np.roll(x, 3) + x


native(_roll_1d, (F,), (I8,))


def _roll_negative_and_big(x):
    return np.roll(x, -2) * 2 + np.roll(x, 17)


native(_roll_negative_and_big, (M[0].copy(),), (F,))


def _roll_axis(x):
    return np.roll(x, 1, axis=0) - np.roll(x, -1, axis=1)


native(_roll_axis, (M,), (np.asfortranarray(M),), (M[:, ::-1],))


def _roll_2d_flat(x):
    return np.roll(x, 5) + 0.5


native(_roll_2d_flat, (M,))


def _roll_empty_and_one(x):
    return np.roll(x, 2) * 3


native(_roll_empty_and_one, (np.zeros(0),), (np.ones(1),))


def _roll_tuple_axes(x):
    return np.roll(x, (1, -1), axis=(0, 1)) + x


native(_roll_tuple_axes, (M,))


def _roll_in_place_overlap(x):
    x[:] = np.roll(x, 1) + 1
    return x


native(_roll_in_place_overlap, (F[:4].copy(),), (M[0].copy(),))


# ============================================================ integer //, %, shifts

def _floordiv_mod_int8(x, y):
    return x // y, x % y


native(_floordiv_mod_int8, (I8, np.array([3, -3, 7, -1, 2, -128, 1, 9], np.int8)),
       (I8, np.array([0, 1, 1, 1, 1, 1, 1, 1], np.int8)),
       (I8, np.full(8, -1, np.int8)))


def _floordiv_scalar_divisor(x, d):
    return x // d + x % d


native(_floordiv_scalar_divisor, (I64, 3), (I64, -3), (I64, 0), (I64, -1), (I8, 7))


def _uint64_floordiv_mod(x, y):
    return x // y, x % y


native(_uint64_floordiv_mod, (U64, np.array([1, 2, 3, 2 ** 64 - 1, 5, 6, 7, 8], np.uint64)),
       (U64, np.array([1, 0, 3, 4, 5, 6, 7, 8], np.uint64)))


def _mod_negative_divisor(x):
    return x % -5, x // -5, (-x) % 5


native(_mod_negative_divisor, (I64,), (I8,))


def _int_min_floordiv_minus_one(x):
    return x // np.int64(-1)


native(_int_min_floordiv_minus_one, (I64,), (np.array([1, 2, 3], np.int64),))


def _shifts(x, s):
    return x << s, x >> s


native(_shifts, (I64, np.array([0, 1, 63, 64, 65, 2, 3, 100], np.int64)),
       (I8, np.array([0, 1, 7, 8, 9, 2, 3, 100], np.int8)),
       (U64, np.array([0, 1, 63, 64, 65, 2, 3, 100], np.uint64)))


def _shifts_negative_count(x, s):
    return x << s, x >> s


native(_shifts_negative_count, (I64, np.array([-1, -2, -63, -64, -65, 0, 1, 2], np.int64)),
       (I8, np.array([-1, -8, -9, 0, 1, 2, 3, -100], np.int8)))


def _shift_scalar(x):
    return (x << 3) >> 1, x >> 70


native(_shift_scalar, (I8,), (U64,), (I64,))


def _mixed_int_dtypes(x, y):
    return x // y, x % y, x << (y & 7)


native(_mixed_int_dtypes, (I8, np.array([1, 2, 3, 4, 5, 6, 7, 8], np.uint8)),
       (I8, np.array([1, -2, 3, -4, 5, -6, 7, -8], np.int64)))


def _int_bool_divisor(x, b):
    return x // b


native(_int_bool_divisor, (I64, np.ones(8, bool)), (I64, np.array([True, False] * 4)))


def _floordiv_float_stays(x, y):
    return x // y, x % y


native(_floordiv_float_stays, (F, np.array([2.0, -0.0, 0.0, 3.0, 1.0, -2.0, np.inf, 0.5])))


# ============================================================ reductions over one axis

def _sum_axis0_nan(x):
    return x.sum(axis=0), x.sum(axis=1)


native(_sum_axis0_nan, (M,), (np.where(M > 3, np.nan, M),), (np.zeros((0, 4)),),
       (np.zeros((3, 0)),))


def _max_min_neg_zero(x):
    return x.max(axis=1), x.min(axis=0), x.max()


native(_max_min_neg_zero, (np.array([[0.0, -0.0], [-0.0, -0.0], [-0.0, 0.0]]),),
       (np.array([[-0.0] * 20, [0.0] * 20]),), (np.where(M > 3, np.nan, M),))


def _max_empty_axis(x):
    return x.max(axis=1)


native(_max_empty_axis, (np.zeros((3, 0)),), (M,))


def _mean_empty_axis(x):
    return x.mean(axis=0)


native(_mean_empty_axis, (np.zeros((0, 4)),), (M,))


def _prod_axis_int_overflow(x):
    return x.prod(axis=0), x.sum(axis=-1)


native(_prod_axis_int_overflow, (np.full((5, 3), 100, np.int8),), (np.full((40, 2), 2 ** 40),))


def _sum_keepdims_neg_zero(x):
    return x.sum(axis=1, keepdims=True) - x


native(_sum_keepdims_neg_zero, (np.full((2, 3), -0.0),), (M,))


def _reduction_float32_long_row(x):
    return x.sum(axis=1), x.max(axis=1)


native(_reduction_float32_long_row,
       (np.linspace(-1, 1, 3 * 1000, dtype=np.float32).reshape(3, 1000),))


def _softmax_rows(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


native(_softmax_rows, (M,), (np.where(M > 3, np.nan, M),), (np.full((2, 3), -np.inf),))


def _argmax_axis(x):
    return x.argmax(axis=1), x.any(axis=0), x.all(axis=1)


# (compiled anew each time, not loaded from the disk cache: Numba warns while it compiles)
native(_argmax_axis, (M,), (np.where(M > 3, np.nan, M),), options={"cache": False})


def _loop_dead_temp_native(x):
    for _ in range(12):
        d = x * 0.5
        x = x + d * 0.01
    return x


native(_loop_dead_temp_native, (M,), (np.zeros((0, 3)),))


def _while_in_native(x):
    s = x.sum()
    while s > 1.0:
        x = x * 0.5
        s = np.abs(x).sum()
    return x


native(_while_in_native, (M,))


NZ = np.full((3, 20), -0.0)


def _sum_rows_of_negative_zero(x):
    return x.sum(axis=1), x.sum(axis=0), x.sum(), x.mean(axis=1)


native(_sum_rows_of_negative_zero, (NZ,), (NZ.T.copy(),), (np.full((2, 200), -0.0),))


def _prod_of_negative_zero(x):
    return x.prod(axis=1), x.prod(axis=0)


native(_prod_of_negative_zero, (NZ,), (np.array([[-0.0, 1.0], [-1.0, -0.0]]),))


def _max_all_nan_rows(x):
    return x.max(axis=1), x.min(axis=1), x.max(axis=0)


native(_max_all_nan_rows, (np.full((3, 20), np.nan),),
       (np.array([[np.inf, -np.inf, np.nan], [np.inf, 1.0, -np.inf]]),))


def _reductions_fortran_input(x):
    return x.sum(axis=0) + x.max(axis=1).sum()


native(_reductions_fortran_input, (np.asfortranarray(M),), (M[:, ::-1],), (M[::2],))


def _int_sums_promote(x):
    return x.sum(axis=0), x.sum(axis=1), x.prod(axis=1), x.max(axis=0)


native(_int_sums_promote, (np.full((4, 20), 100, np.int8),),
       (np.full((4, 20), 2 ** 63, np.uint64),), (np.ones((4, 20), bool),))


def _written_input_then_flagged(x):
    x *= 2.0
    return np.log(x) + 1.0


native(_written_input_then_flagged, (M.copy(),), (np.abs(M) + 1.0,))


def _written_input_inf_then_flagged(x):
    x += 1.0
    y = x * 1e308
    return y - y


native(_written_input_inf_then_flagged, (np.abs(M) + 1.0,), (np.zeros((2, 2)),))


def _roll_shift_argument(x, k):
    return np.roll(x, k) * 2


native(_roll_shift_argument, (F[:5].copy(), 2), (F[:5].copy(), -7), (I8, 0))


def _creation_dtype_mix(x):
    return np.zeros((2, x.shape[0]), dtype=np.int8) + x, np.ones(x.shape, dtype=bool) + x


native(_creation_dtype_mix, (I8,), (F,), (U64,))


def _int8_extremes_arith(x):
    return -x, x * x, x - np.int8(1), abs(x), x // x


native(_int8_extremes_arith, (I8,), (np.array([-128, 127], np.int8),))


def _uint64_minus_and_shift(x):
    return x - np.uint64(1), (x >> np.uint64(63)) << np.uint64(1), x % np.uint64(2 ** 63 + 1)


native(_uint64_minus_and_shift, (U64,))


def _mod_zero_int_warns(x):
    return x % (x - x), np.fmod(x, 3)


native(_mod_zero_int_warns, (I64,), (I8,))
