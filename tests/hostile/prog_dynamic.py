"""Dynamic sizes: one compiled function called with sizes 10, 11 (the second miss makes
the size symbolic), then 2, 0, 1, 3 and 10 again, through slices that clamp (``x[-5:]``,
``x[:-3]``), sizes computed from the length (``np.arange(len(x) - 5)``), ops whose output
size depends on the input size (``np.diff(x, n=3)``, ``np.convolve(x, k, 'valid')``) and
ops that fail for small sizes (a negative dimension, an empty ``max``)."""

import numpy as np
from hostile_check import Programs

reg = Programs("dynamic")

SIZES = (10, 11, 2, 0, 1, 3, 10)
K3 = np.array([1.0, -2.0, 0.5])


def _vec(n, dtype=np.float64):
    return (np.linspace(-1, 2, n).astype(dtype),)


def sized(fn, *, sizes=SIZES, make=_vec, extra=()):
    """``fn`` called once per size of ``sizes`` (in that order), plain and compiled."""
    reg.case(fn, *[(lambda n=n: make(n) + tuple(extra)) for n in sizes], calls=1)


def _rows(n):
    return (np.arange(n * 3, dtype=np.float64).reshape(n, 3) - 4,)


def _last5(x):
    return x[-5:]


sized(_last5)


def _but_last3(x):
    return x[:-3]


sized(_but_last3)


def _from3(x):
    return x[3:], x[3:].shape


sized(_from3)


def _middle(x):
    return x[2:-2], x[-5:-2], x[5:], x[:5]


sized(_middle)


def _neg_len_slice(x):
    return x[-(len(x) - 1):], x[-len(x):], x[:-len(x)], x[len(x):]


sized(_neg_len_slice)


def _step_slices(x):
    return x[::2], x[1::2], x[::-3], x[-2::-2]


sized(_step_slices)


def _odd_even_diff(x):
    return x[1::2] - x[::2]


sized(_odd_even_diff)


def _arange_len_minus5(x):
    return np.arange(len(x) - 5), np.arange(len(x) - 5, dtype=np.float32)


sized(_arange_len_minus5)


def _arange_step(x):
    return np.arange(0, len(x), 3), np.arange(len(x), 0, -2)


sized(_arange_step)


def _diff3(x):
    return np.diff(x, n=3), np.diff(x)


sized(_diff3)


def _convolve_valid(x):
    return np.convolve(x, K3, "valid")


sized(_convolve_valid)


def _convolve_same_full(x):
    return np.convolve(x, K3, "same"), np.convolve(x, K3)


sized(_convolve_same_full)


def _zeros_of_slice_shape(x):
    return np.zeros(x[3:].shape), np.ones(x[:-3].shape[0]), np.empty_like(x[5:]).shape


sized(_zeros_of_slice_shape)


def _zeros_negative(x):
    return np.zeros(len(x) - 3)


sized(_zeros_negative)


def _empty_clamped(x):
    return np.zeros(max(0, len(x) - 3)), np.full(min(len(x), 4), 2.0)


sized(_empty_clamped)


def _reshape_pairs(x):
    return x.reshape(-1, 2)


sized(_reshape_pairs)


def _reshape_trimmed(x):
    n = len(x) // 3 * 3
    return x[:n].reshape(-1, 3)


sized(_reshape_trimmed)


def _middle_element(x):
    return x[len(x) // 2]


sized(_middle_element)


def _last_element(x):
    return x[-1], x[len(x) - 1]


sized(_last_element)


def _max_min(x):
    return x.max() - x.min()


sized(_max_min)


def _mean_std(x):
    return x.mean(), x.std(), np.median(x)


sized(_mean_std)


def _mean_by_len(x):
    return x.sum() / len(x), x / len(x)


sized(_mean_by_len)


def _cumsum_last(x):
    return np.cumsum(x)[-1]


sized(_cumsum_last)


def _split_halves(x):
    return np.split(x, 2)


sized(_split_halves)


def _array_split3(x):
    return np.array_split(x, 3)


sized(_array_split3)


def _outer_and_pairwise(x):
    return np.outer(x, x).shape, (x[:, None] - x[None, :]).sum(), x @ x


sized(_outer_and_pairwise)


def _pad_roll_tile(x):
    return np.pad(x, 2), np.roll(x, 3), np.tile(x, 2), np.repeat(x, 2)


sized(_pad_roll_tile)


def _pad_to_multiple(x):
    return np.pad(x, (0, (4 - len(x) % 4) % 4))


sized(_pad_to_multiple)


def _linspace_eye(x):
    return np.linspace(0, 1, len(x)), np.eye(len(x)).sum(), np.tri(len(x)).shape


sized(_linspace_eye)


def _python_loop_over_len(x):
    total = 0.0
    for i in range(len(x)):
        total += x[i] * i
    return total


sized(_python_loop_over_len, sizes=(10, 11, 2, 0, 1, 3))


def _loop_over_rows(x):
    out = []
    for row in x:
        out.append(row * 2)
    return out


sized(_loop_over_rows, sizes=(4, 5, 2, 0, 1))


def _sort_topk(x):
    return np.sort(x)[:3], np.argsort(x)[-2:], np.partition(x, 1)[:1] if len(x) > 1 else x


sized(_sort_topk)


def _percentile(x):
    return np.percentile(x, 50), np.quantile(x, [0.25, 0.75])


sized(_percentile)


def _interp_trapz(x):
    return np.interp(0.5, np.linspace(0, 1, len(x)), x), np.trapezoid(x)


sized(_interp_trapz)


def _stack_shifted(x):
    return np.stack([x[:-1], x[1:]])


sized(_stack_shifted)


def _size_as_float(x):
    return x * (x.size * 0.5), x / np.sqrt(max(len(x), 1)), float(len(x)) ** 0.5


sized(_size_as_float)


def _size_branch(x):
    if len(x) > 5:
        return x[:5] * 2
    if len(x) == 0:
        return "empty"
    return x[::-1]


sized(_size_branch)


def _size_in_string(x):
    return f"n={len(x)}", str(x.shape), repr(x.size)


sized(_size_in_string)


def _resize(x):
    return np.resize(x, 4), np.resize(x, (2, 3)) if len(x) else None


sized(_resize)


def _histogram(x):
    return np.histogram(x, bins=3) if len(x) else "skip"


sized(_histogram)


def _slice_assign_clamped(x):
    y = np.zeros(6)
    y[:len(x)] = x[:6]
    return y


sized(_slice_assign_clamped)


def _slice_assign_mismatch(x):
    y = np.zeros(6)
    y[:] = x[:6]
    return y


sized(_slice_assign_mismatch)


def _cumprod_trailing(x):
    return np.cumprod(x[-3:]), x[-3:].prod()


sized(_cumprod_trailing)


def _argmax_index(x):
    i = np.argmax(x)
    return x[i:], i


sized(_argmax_index)


def _rows_mean(x):
    return x.mean(axis=0), x.max(axis=1), x.T @ x, x[-2:]


sized(_rows_mean, make=_rows, sizes=(10, 11, 2, 0, 1, 3))


def _rows_max_axis0(x):
    return x.max(axis=0)


sized(_rows_max_axis0, make=_rows, sizes=(10, 11, 2, 0, 1))


def _rows_norm(x):
    return np.linalg.norm(x, axis=1), np.linalg.norm(x)


sized(_rows_norm, make=_rows, sizes=(10, 11, 2, 0, 1))


def _rows_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


sized(_rows_softmax, make=_rows, sizes=(10, 11, 2, 0, 1))


def _rows_reshape_flat(x):
    return x.reshape(-1), x.reshape(len(x), -1), x.reshape(-1, 3)[1:]


sized(_rows_reshape_flat, make=_rows, sizes=(10, 11, 2, 0, 1))


def _int_size_arg(x, n):
    return x[:n], x[n:], np.full(n, 1.0), np.arange(n) * x[0] if len(x) else n


reg.case(_int_size_arg, *[(np.linspace(0, 1, 8), n) for n in (3, 4, 0, 8, 1, 9, -2)],
         calls=1)


def _int_size_index(x, n):
    return x[n]


reg.case(_int_size_index, *[(np.linspace(0, 1, 8), n) for n in (3, 4, 7, 8, -1, -9)],
         calls=1)


def _sizes_interact(a, b):
    return a[:len(b)] + b[:len(a)]


reg.case(_sizes_interact, *[(np.ones(n), np.arange(m, dtype=float))
                             for n, m in ((4, 4), (5, 6), (3, 2), (0, 2), (2, 0))],
         calls=1)


def _broadcast_sizes(a, b):
    return a[:, None] * b[None, :], (a + b) if len(a) == len(b) else None


reg.case(_broadcast_sizes, *[(np.ones(n), np.arange(m, dtype=float))
                              for n, m in ((4, 4), (5, 6), (1, 6), (0, 0), (3, 1))],
         calls=1)


def _sizes_broadcast_error(a, b):
    return a + b


reg.case(_sizes_broadcast_error, *[(np.ones(n), np.ones(m))
                                    for n, m in ((4, 4), (5, 5), (5, 1), (5, 3), (1, 0))],
         calls=1)
