"""Round 17, Python ints that change every call, used as slice bounds and steps, as
sizes (``np.zeros``, ``np.arange``, ``reshape``, ``np.full``, ``np.eye``), as
repeat counts, as indices and shifts, and ints that flip between being used as a size
and as a bool; each program meets 0, 1, negative values and values past the array's
length (``2**40``, ``-2**40``) after a first call with an ordinary value, so a
size fitted as symbolic must clamp like Python's slices do.

    >>> def _tail(x, n):
    ...     return x[-n:]        # n == 0 is the whole array, not an empty one
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round17_sizes")

X = np.arange(10.0) - 3.5
M = np.arange(24.0).reshape(4, 6)
SEQ = (3, 4, 5, 0, 1, -1, 11, 2**40, -2**40, -11, 2, 9, 10, -9, -10, True, False)
SMALL = (2, 3, 0, 1, 4, 5, 7, 1, 0, 6)


def ints(name, fn, values=SEQ, x=X):
    """Register: ``fn(x.copy(), n)`` for each ``n`` in ``values``."""
    def s(r):
        f = r.compile(fn)
        for n in values:
            r.call(f, x.copy(), n)
    s.__name__ = name
    reg.scenario(s)


def pairs(name, fn, values, x=X):
    def s(r):
        f = r.compile(fn)
        for a, b in values:
            r.call(f, x.copy(), a, b)
    s.__name__ = name
    reg.scenario(s)


# ------------------------------------------------------------- slice bounds

ints("head", lambda x, n: x[:n] * 2)
ints("tail", lambda x, n: x[-n:] + 1)
ints("from_n", lambda x, n: x[n:].sum())
ints("drop_last_n", lambda x, n: x[:-n].shape)
ints("len_of_slice", lambda x, n: len(x[n:]) - len(x[:n]))
ints("window_n_to_2n", lambda x, n: x[n:2 * n] * x[n:2 * n])
ints("n_minus_one_bound", lambda x, n: x[: n - 1].mean() if n > 1 else x[:0])
ints("slice_bound_2d_rows", lambda x, n: M[n:] @ np.ones(6), x=M)
ints("slice_bound_2d_cols", lambda x, n: x[:, -n:].sum(axis=1), x=M)
ints("slice_assign_head", lambda x, n: (x.__setitem__(slice(None, n), 0.0), x)[1])
ints("slice_then_full", lambda x, n: np.full(x[n:].shape[0], 7.0))
ints("slice_then_arange", lambda x, n: np.arange(len(x[:n])) * 2.0)
ints("diff_of_slice", lambda x, n: np.diff(x[n:]))
ints("slice_sizes_added", lambda x, n: x[:n].size + x[n:].size)
ints("shape_of_neg_slice_as_zeros", lambda x, n: np.zeros(x[-n:].shape))


def _slice_step(x, n):
    return x[::n]


ints("step", _slice_step, (2, 3, 1, -1, -2, 11, -11, 2**40, 0, 4))
ints("reverse_step_from_n", lambda x, n: x[n::-1] if n else x[::-1],
     (3, 4, 0, -1, 9, 10, -11, 2**40))
ints("step_assign", lambda x, n: (x.__setitem__(slice(None, None, n), -1.0), x)[1],
     (2, 3, 1, -1, 5, 11, -3))
pairs("start_stop", lambda x, a, b: x[a:b].copy(),
      [(1, 5), (2, 6), (0, 0), (5, 1), (-3, -1), (-1, -3), (0, 2**40), (-2**40, 3),
       (9, 10), (10, 12), (3, 3)])
pairs("start_step", lambda x, a, s: x[a::s] * 1.0,
      [(1, 2), (2, 3), (0, 1), (-1, -1), (5, -2), (9, 4), (-10, 3), (3, -5)])
pairs("roll_and_slice", lambda x, a, b: np.roll(x, a)[:b],
      [(1, 3), (2, 4), (0, 0), (-1, -1), (11, 2), (-11, 10), (3, 2**40)])


# ------------------------------------------------------------- sizes

ints("zeros_n", lambda x, n: np.zeros(n) + x[:1].sum(), SMALL)
ints("zeros_n_negative_raises", lambda x, n: np.zeros(n), (2, 3, -1, 0, 4))
ints("arange_n", lambda x, n: np.arange(n) * x[0], SMALL)
ints("arange_n_minus_5", lambda x, n: np.arange(n - 5), (7, 8, 3, 5, 6, 0, 9))
ints("arange_start_stop_step", lambda x, n: np.arange(1, 9, n), (2, 3, 1, 7, 9, 20, -1))
ints("ones_n_by_2", lambda x, n: np.ones((n, 2)) @ np.ones(2), SMALL)
ints("eye_n", lambda x, n: np.eye(n).sum() + x[0], SMALL)
ints("reshape_n_rows", lambda x, n: np.arange(12.0).reshape(n, -1), (2, 3, 4, 6, 1, 12, 5))
ints("reshape_neg1_then_n", lambda x, n: x.reshape(-1, n).sum(axis=1),
     (2, 5, 1, 10, 3))
ints("full_n_fill", lambda x, n: np.full(n, float(n)), SMALL)
ints("repeat_n", lambda x, n: np.repeat(x[:3], n), SMALL)
ints("tile_n", lambda x, n: np.tile(x[:2], n), SMALL)
ints("empty_like_sliced_n", lambda x, n: np.zeros_like(x[:n]) + 1, SEQ[:12])
ints("linspace_num_n", lambda x, n: np.linspace(0.0, 1.0, n), SMALL)
ints("linspace_retstep_n", lambda x, n: np.linspace(0.0, x[0], n, retstep=True),
     (5, 6, 1, 2, 0, 3))
ints("n_as_size_and_scale", lambda x, n: np.zeros(n) + n * x[:1], SMALL)
ints("pad_n", lambda x, n: np.pad(x[:3], n), SMALL)
ints("convolve_valid_kernel_n", lambda x, n: np.convolve(x, np.ones(n), "valid"),
     (2, 3, 1, 10, 4, 11))
ints("diff_n", lambda x, n: np.diff(x, n=n), (1, 2, 0, 3, 9, 10, 11))
ints("split_n", lambda x, n: [a.sum() for a in np.array_split(x, n)], (2, 3, 1, 10, 11, 4))


# ------------------------------------------------------------- size or bool

def _size_or_flag(x, n):
    if n:
        return np.zeros(n) + x.sum()
    return x * 2


ints("size_then_flag", _size_or_flag, (3, 4, 0, 5, 0, 1, -0, 2))


def _bool_then_size(x, n):
    y = x * (1 if n else -1)
    return y[:n], np.arange(n)


ints("bool_and_bound", _bool_then_size, (3, 4, 0, 1, -1, 5))


def _flag_times(x, n):
    return x * bool(n) + np.ones(abs(n))


ints("bool_of_n_and_abs_size", _flag_times, (3, 4, 0, -2, 1, -1))


def _n_in_range(x, n):
    acc = x[:1] * 0
    for i in range(n):
        acc = acc + x[i % len(x)]
    return acc


ints("range_trip_n", _n_in_range, (3, 4, 0, 1, 5, 2))


def _index_n(x, n):
    return x[n]


ints("index_n_out_of_range", _index_n, (3, 4, 0, -1, 9, 10, -10, -11, 2**40))


def _shift_by_n(x, n):
    return (np.arange(4) << n), (x.astype(np.int64) >> n)


ints("shift_by_n", _shift_by_n, (1, 2, 0, 3, 63, 64, -1))


def _n_as_axis(x, n):
    return M.sum(axis=n)


ints("n_as_axis", _n_as_axis, (0, 1, -1, -2, 2))


def _kept_max_len(x, n):
    k = max(0, min(n, len(x)))
    return x[:k].copy(), k


ints("clamped_by_hand", _kept_max_len)


def _size_of_empty_mul(x, n):
    return (x[:n] * x[n:2 * n]).shape if 2 * n <= len(x) else None


ints("two_windows_broadcast", _size_of_empty_mul, (2, 3, 0, 1, 5, 4))
