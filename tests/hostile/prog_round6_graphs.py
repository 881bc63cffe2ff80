"""Round 6, graphs: programs whose work is mostly graph ops, where a backend's fusion,
blocking or threading could change bits: large float32 sums and cumulative sums,
NEP 50 scalar promotion, reductions with ``where=``/``keepdims``/``dtype=``,
``np.add.at`` and duplicate fancy-index writes, order of ``ravel``/``reshape`` on
non-contiguous views, ``np.round`` half to even, ``clip`` with crossed bounds, NaN in
sorts and arg-reductions, integer division of negatives: each must be bit-exact."""

import numpy as np
from hostile_check import Programs

reg = Programs("round6_graphs")
case, scenario = reg.case, reg.scenario

rng = np.random.default_rng(6)
BIG32 = rng.standard_normal(200_003).astype(np.float32)
BIG64 = rng.standard_normal(300_001)
MAT = rng.standard_normal((301, 257))
INTS = np.array([-7, -1, 0, 1, 7, 8], dtype=np.int64)
X = np.array([1.0, -2.0, 3.0, 0.5])
NANS = np.array([3.0, np.nan, 1.0, np.nan, -2.0])


# ============================================================================ summation order

def _sum_float32_large(a):
    return a.sum(), np.sum(a * 2), (a + 1).sum(dtype=np.float32)


case(_sum_float32_large, (BIG32,))


def _mean_var_large(a):
    return a.mean(), a.var(), a.std(ddof=1)


case(_mean_var_large, (BIG32,), (BIG64,))


def _cumsum_large(a):
    return np.cumsum(a * 0.5), np.cumprod(a[:50] + 1)


case(_cumsum_large, (BIG64,), (BIG32,))


def _fused_chain_large(a):
    return np.sqrt(np.abs(a)) * np.exp(-a * a) + np.sin(a) / (1 + a * a)


case(_fused_chain_large, (BIG64,), (BIG32,))


def _sum_axis_matrix(m):
    return m.sum(axis=0), m.sum(axis=1), (m * m).sum(), m.T.sum(axis=0)


case(_sum_axis_matrix, (MAT,), (MAT.astype(np.float32),))


def _dot_large(a):
    return a @ a, np.dot(a[:1000], a[1:1001])


case(_dot_large, (BIG64,), (BIG32,))


def _norm_large(a):
    return np.linalg.norm(a), np.hypot(a[:-1], a[1:]).max()


case(_norm_large, (BIG64,))


def _matmul_chain(m):
    return (m @ m.T) @ m[:, :3]


case(_matmul_chain, (MAT,))


def _reduce_after_inplace(a):
    b = a.copy()
    b *= 3
    b -= b.mean()
    return b.sum(), b.max()


case(_reduce_after_inplace, (BIG64,))


def _where_reduction(a):
    return np.sum(a, where=a > 0), np.max(a, where=a < 0, initial=-np.inf)


case(_where_reduction, (BIG64,), (X,))


def _keepdims_dtype(m):
    return m.sum(axis=1, keepdims=True), m.astype(np.int8).sum(axis=0, dtype=np.int8)


case(_keepdims_dtype, (MAT * 10,))


def _logsumexp(a):
    m = a.max()
    return m + np.log(np.exp(a - m).sum())


case(_logsumexp, (BIG64,), (X,))


# ============================================================================ scalar promotion

def _nep50_float32_python_float(a):
    s = a[0]
    return s * 3.0, (s * 3.0).dtype, a * 1e40, (a * np.float64(2)).dtype


case(_nep50_float32_python_float, (BIG32[:8],))


def _nep50_int_python_int(a):
    b = a.astype(np.int16)
    return b + 1, (b + 1).dtype, b * 1000, (b[0] + 1).dtype


case(_nep50_int_python_int, (INTS,))


def _uint_minus_int(a):
    u = a.astype(np.uint32)
    return u - 1, (u - np.int64(1)).dtype, u[0] - 1


case(_uint_minus_int, (np.array([0, 5], dtype=np.int64),))


def _bool_sum_and_mean(a):
    b = a > 0
    return b.sum(), b.mean(), b.sum().dtype, np.count_nonzero(b)


case(_bool_sum_and_mean, (BIG64,))


def _int_mean_is_float(a):
    return a.mean(), a.mean().dtype, (a // 2).mean(), np.median(a)


case(_int_mean_is_float, (INTS,))


def _int8_cumsum_dtype(a):
    b = a.astype(np.int8)
    return np.cumsum(b), np.cumsum(b).dtype, b.sum().dtype, np.add.reduce(b).dtype


case(_int8_cumsum_dtype, (INTS * 20,))


def _float16_sum(a):
    h = a[:2000].astype(np.float16)
    return h.sum(), h.mean(), (h * h).sum(dtype=np.float32)


case(_float16_sum, (BIG32,))


def _complex64_ops(a):
    z = (a[:100] + 1j * a[100:200]).astype(np.complex64)
    return z.sum(), np.abs(z).max(), (z * z.conj()).real.sum()


case(_complex64_ops, (BIG32,))


# ============================================================================ scatter, order

def _add_at_duplicates(a, idx):
    out = np.zeros(5)
    np.add.at(out, idx, a[:len(idx)])
    return out


case(_add_at_duplicates, (X, np.array([0, 0, 3, 0])))


def _fancy_assign_duplicates(a, idx):
    out = np.zeros(5)
    out[idx] = a[:len(idx)]
    out[idx] += 1
    return out


case(_fancy_assign_duplicates, (X, np.array([1, 1, 4, 1])))


def _put_and_take_modes(a):
    b = a.copy()
    np.put(b, [0, 9], [10, 20], mode="wrap")
    return b, np.take(a, [5, -7], mode="clip"), np.take(a, [5, -1], mode="wrap")


case(_put_and_take_modes, (X,))


def _ravel_orders_of_view(m):
    v = m[::2, 1::3]
    return v.ravel(), v.ravel(order="F"), v.reshape(-1, order="F"), v.flatten("A")


case(_ravel_orders_of_view, (MAT[:9, :10],))


def _reshape_noncontiguous_copy(m):
    v = m.T
    r = v.reshape(-1)
    r[0] = 99.0
    return m[0, 0], r.base is None, np.shares_memory(r, m)


case(_reshape_noncontiguous_copy, (MAT[:4, :5].copy(),))


def _fortran_order_result(m):
    f = np.asfortranarray(m)
    g = f * 2 + 1
    return g.flags.f_contiguous, g.flags.c_contiguous, g


case(_fortran_order_result, (MAT[:3, :4],))


def _negative_strides_result(a):
    r = a[::-1] * 2
    return r, r.strides[0] > 0


case(_negative_strides_result, (X,))


def _inplace_on_overlapping_slices(a):
    b = a.copy()
    b[1:] = b[:-1] * 2
    c = a.copy()
    c[:-1] += c[1:]
    return b, c


case(_inplace_on_overlapping_slices, (X,), (BIG64[:1000],))


# ============================================================================ rounding, NaN

def _round_half_even(a):
    return np.round(a), np.round(a, 1), np.rint(a), np.around(a * 10, -1)


case(_round_half_even, (np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.25, 0.35]),))


def _clip_crossed_bounds(a):
    return np.clip(a, 1.0, -1.0), np.clip(a, None, 0.5), np.clip(a.astype(int), 0, 1)


case(_clip_crossed_bounds, (X,))


def _nan_sort_and_arg(a):
    return np.sort(a), np.argsort(a), np.argmax(a), np.argmin(a), np.nanargmax(a)


case(_nan_sort_and_arg, (NANS,))


def _nan_min_max_propagate(a):
    return a.max(), np.fmax.reduce(a), np.nanmax(a), np.maximum(a, 0.0)


case(_nan_min_max_propagate, (NANS,))


def _argmax_ties_first(a):
    b = np.array([1.0, 3.0, 3.0, 2.0, 3.0])
    return np.argmax(b), np.argmax(a), np.argmin(np.abs(a) * 0)


case(_argmax_ties_first, (X,))


def _negative_integer_division(a):
    return a // 3, a % 3, np.fmod(a, 3), np.divmod(a, -3), -7 // 2


case(_negative_integer_division, (INTS,))


def _float_floor_div_mod_signs(a):
    return a // -1.5, a % -1.5, np.remainder(-0.0, 1.0), np.floor_divide(-0.0, 1.0)


case(_float_floor_div_mod_signs, (X,))


def _signed_zero_ops(a):
    z = a * 0
    return z, -z, np.abs(-z), np.sign(-z), np.copysign(1.0, -z), 1 / (-z + 0)


case(_signed_zero_ops, (X,))


def _inf_arithmetic(a):
    inf = a / 0
    return inf - inf, inf * 0, np.exp(inf), np.arctan(inf)


case(_inf_arithmetic, (X,))


def _power_edge_cases(a):
    return a ** 0, a ** 0.5, (-a) ** 0.5, np.float64(-8.0) ** (1 / 3), 0.0 ** -1.0 \
        if False else np.power(a, -1)


case(_power_edge_cases, (X,))


def _integer_power_overflow(a):
    return a ** 40, np.power(a, 3), a ** np.int64(2)


case(_integer_power_overflow, (INTS,))


def _unique_counts(a):
    return np.unique(np.round(a[:500]), return_counts=True), np.unique(NANS)


case(_unique_counts, (BIG64,))


def _searchsorted_nan(a):
    s = np.sort(a)
    return np.searchsorted(s, [np.nan, 0.0, 3.0])


case(_searchsorted_nan, (NANS,))


def _histogram_edges(a):
    return np.histogram(a, bins=7), np.histogram(a, bins=[-1, 0, 1], density=True)


case(_histogram_edges, (BIG64,))


def _percentile_methods(a):
    return np.percentile(a, [10, 50, 90]), np.quantile(a, 0.3, method="nearest")


case(_percentile_methods, (BIG64,), (X,))


def _cross_and_outer(a):
    return np.cross(a[:3], a[1:4]), np.outer(a, a).sum(axis=1)


case(_cross_and_outer, (X,))


def _einsum_paths(m):
    return np.einsum("ij,ij->i", m, m), np.einsum("ij->j", m), np.einsum("ii", m[:5, :5])


case(_einsum_paths, (MAT,))


def _tensordot_axes(m):
    return np.tensordot(m[:4, :3], m[:3, :2], axes=1), np.kron(m[:2, :2], np.eye(2))


case(_tensordot_axes, (MAT,))


def _diff_gradient(a):
    return np.diff(a, n=2), np.gradient(a), np.ediff1d(a, to_begin=-1)


case(_diff_gradient, (X,), (BIG64[:1000],))


def _where_three_arg_dtype(a):
    return np.where(a > 0, a, 0), np.where(a > 0, 1, 0).dtype, np.where(a > 0, 1.5, -1)


case(_where_three_arg_dtype, (X,), (INTS,))


def _select_piecewise(a):
    return np.select([a < 0, a > 1], [-a, a * 2], default=7), \
        np.piecewise(a, [a < 0, a >= 0], [lambda v: -v, lambda v: v ** 2])


case(_select_piecewise, (X,))


def _astype_float_to_int_edge(a):
    b = np.array([1e20, -1e20, np.nan, 2.7, -2.7])
    with np.errstate(invalid="ignore"):
        return b.astype(np.int32)[3:], b[3:].astype(np.int64), a.astype(np.uint8)


case(_astype_float_to_int_edge, (X * 100,))


# ============================================================================ effects then a raise

def _inplace_then_index_error(a, i):
    a += 1
    a *= 2
    return a[i]


case(_inplace_then_index_error, (X.copy(), 1), (X.copy(), 10))


def _setitem_then_linalg_error(m):
    m[0, 0] = 5.0
    return np.linalg.inv(m)


case(_setitem_then_linalg_error, (np.ones((2, 2)),), (np.eye(2),))


def _out_write_then_raise(a):
    np.multiply(a, 3, out=a)
    return np.linalg.cholesky(-np.eye(2))


case(_out_write_then_raise, (X.copy(),))


def _two_args_mutated_then_raise(a, b, i):
    a[0] = -1
    b[:] = a.sum()
    return b[i]


case(_two_args_mutated_then_raise, (X.copy(), X.copy(), 99), (X.copy(), X.copy(), 0))


def _mutation_under_errstate_raise(a):
    a[1] = 0.0
    with np.errstate(divide="raise"):
        try:
            return 1.0 / a
        except FloatingPointError as e:
            a[2] = -1.0
            return str(e)


case(_mutation_under_errstate_raise, (X.copy(),))


def _list_append_then_graph_raise(a, log):
    log.append(float(a.sum()))
    a[0] = 7.0
    log.append(a[1:].reshape(5))
    return log


case(_list_append_then_graph_raise, (X.copy(), []))


def _view_mutation_then_raise(a):
    v = a[1:3]
    v[:] = 0
    return a[[0, 4]]


case(_view_mutation_then_raise, (X.copy(),))


def _random_draw_then_raise(a, seed):
    g = np.random.default_rng(seed)
    r = g.random(4)
    a[:] = r
    return a[9], g.random()


case(_random_draw_then_raise, (X.copy(), 3))


def _warn_then_raise(a):
    b = np.log(a)
    return b[100]


case(_warn_then_raise, (X.copy(),))


def _raise_caught_then_continue(a, log):
    a += 1
    try:
        a[9]
    except IndexError:
        log.append("caught")
    a *= 10
    return a, log


case(_raise_caught_then_continue, (X.copy(), []))


def _aliasing_args_inplace(a, b):
    a += b
    b += a
    return a, b


@scenario
def s_aliasing_args_inplace(r):
    f = r.compile(_aliasing_args_inplace)
    base = X.copy()
    r.call(f, base, base)
    r.see("base", base)
    r.call(f, base[:2], base[2:])
    r.see("base", base)
    r.call(f, base[:3], base[1:])
    r.see("base", base)


def _same_array_out_and_in_reduction(a):
    np.cumsum(a, out=a)
    np.maximum.accumulate(a, out=a)
    return a


case(_same_array_out_and_in_reduction, (X.copy(),), (BIG64[:2000].copy(),))


def _sort_inplace_arg(a):
    a.sort()
    a[:] = a[::-1]
    return a.argsort()


case(_sort_inplace_arg, (X.copy(),))


def _resize_refcheck(a):
    b = a.copy()
    try:
        b.resize(8, refcheck=True)
    except ValueError as e:
        return str(e)
    return b


case(_resize_refcheck, (X.copy(),))


def _fill_and_itemset(a):
    b = a.copy()
    b.fill(3)
    b.flat[2] = 9
    return b, a


case(_fill_and_itemset, (X,))


# ============================================================================ sizes that change
# Two sizes make the sizes symbolic; the later, smaller ones must not reuse a formula
# that only holds for large sizes (slices clamp, splits round).

SIZES = tuple((np.arange(float(n)) - 2.5,) for n in (10, 11, 12, 3, 2, 1, 0, 7))


def _half_slices(x):
    n = len(x)
    return x[n // 2:], x[:-(n // 3) or None], x[n - 4:], x[-4:n]


case(_half_slices, *SIZES, calls=1)


def _step_slices(x):
    return x[::3], x[1::-2], x[-2::-3], x[len(x):0:-1]


case(_step_slices, *SIZES, calls=1)


def _array_split_uneven(x):
    parts = np.array_split(x, 3)
    return [p.shape for p in parts], [p.sum() for p in parts]


case(_array_split_uneven, *SIZES, calls=1)


def _split_even_or_raise(x):
    try:
        return [p.sum() for p in np.split(x, 2)]
    except ValueError as e:
        return str(e)


case(_split_even_or_raise, *SIZES, calls=1)


def _reshape_pairs_or_raise(x):
    try:
        return x.reshape(-1, 2).sum(axis=1)
    except ValueError as e:
        return str(e)


case(_reshape_pairs_or_raise, *SIZES, calls=1)


def _roll_big_shift(x):
    return np.roll(x, 13), np.roll(x, -len(x) - 1)


case(_roll_big_shift, *SIZES, calls=1)


def _pad_and_trim(x):
    p = np.pad(x, (2, 1), mode="edge") if len(x) else np.pad(x, (2, 1))
    return p, p[2:-1]


case(_pad_and_trim, *SIZES, calls=1)


def _convolve_modes(x):
    k = np.array([1.0, 2.0, 1.0])
    try:
        return np.convolve(x, k, "valid"), np.convolve(x, k, "same")
    except ValueError as e:
        return str(e)


case(_convolve_modes, *SIZES, calls=1)


def _windowed_mean_len(x):
    w = 4
    out = np.zeros(max(len(x) - w + 1, 0))
    for i in range(len(out)):
        out[i] = x[i:i + w].mean()
    return out


case(_windowed_mean_len, *SIZES, calls=1)


def _arange_from_len(x):
    return np.arange(len(x) - 5), np.linspace(0, 1, len(x)), np.zeros(len(x[3:]))


case(_arange_from_len, *SIZES, calls=1)


def _diff_n3(x):
    return np.diff(x, n=3), np.diff(x, n=3).shape


case(_diff_n3, *SIZES, calls=1)


def _mean_of_maybe_empty(x):
    with np.errstate(invalid="ignore"):
        return x[5:].mean(), x[5:].sum(), np.max(x, initial=-1.0)


case(_mean_of_maybe_empty, *SIZES, calls=1)


def _index_from_len(x):
    try:
        return x[len(x) // 2], x[-1]
    except IndexError as e:
        return str(e)


case(_index_from_len, *SIZES, calls=1)


def _concat_with_slices(x):
    return np.concatenate([x[3:], x[:3]]), np.hstack([x[-2:], x[:-2]])


case(_concat_with_slices, *SIZES, calls=1)


def _outer_of_slices(x):
    a = x[1:]
    return np.outer(a, x[:-1]).shape, (a[:, None] - a[None, :]).sum()


case(_outer_of_slices, *SIZES, calls=1)
