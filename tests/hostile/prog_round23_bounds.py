"""Round 23, slices whose bounds are read from arrays (docs/unbacked.md, "Slices with a
bound read from an array"; ``ops.indexing.array_bounded_meta``): ``v[p[0]:p[1]]`` is one
``getitem`` whose length is an unbacked size, and NumPy clamps the bounds when the
graph runs. The programs give bounds that are negative, past the end, reversed, equal,
unsigned, narrow (``int8``), NumPy scalars and 0-d arrays, 0-d *views* (``p[..., 0]``)
of memory the graph writes before or between two slices, Python ints from ``int()``;
two slices of the same bounds on axes of the same or other lengths (the shared size,
``unbacked_results._slice_length_key``), which must broadcast, raise or agree as
eagerly; and what is done with the segment: reductions of an empty one (warnings,
``ValueError``), ``np.diff``, ``np.convolve``, ``reshape``, indexing it, writing
through it, returning it (a view of the argument), its ``len`` and ``shape``.

    >>> def _seg_sum(v, p):
    ...     return v[p[0]:p[1]].sum()      # p = [7, 2]: an empty segment, 0.0
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round23_bounds")
case = reg.case
scenario = reg.scenario

V = np.arange(1.0, 11.0)
A = np.arange(30.0).reshape(10, 3)
B6 = np.arange(6.0) * 10
I64 = np.int64


def bounds(*pairs, dtype=np.int64):
    """Input sets ``(V, p)`` for each pair of bounds."""
    return tuple((V, np.array(p, dtype)) for p in pairs)


NORMAL = bounds([2, 7], [7, 2], [-3, 100], [-100, 3], [4, 4], [0, 10], [-1, -5], [9, 50])


# ------------------------------------------------------------------- one segment

def _seg_sum(v, p):
    return v[p[0]:p[1]].sum()


def _seg_view(v, p):
    return v[p[0]:p[1]]


def _seg_len_shape(v, p):
    s = v[p[0]:p[1]]
    return len(s), s.shape, s.size


def _seg_mean(v, p):
    return v[p[0]:p[1]].mean()


def _seg_max(v, p):
    return v[p[0]:p[1]].max()


def _seg_first(v, p):
    return v[p[0]:p[1]][0]


def _seg_last(v, p):
    return v[p[0]:p[1]][-1]


def _seg_diff(v, p):
    return np.diff(v[p[0]:p[1]], n=3)


def _seg_convolve(v, p):
    return np.convolve(v[p[0]:p[1]], np.ones(3), "valid")


def _seg_reshape(v, p):
    return v[p[0]:p[1]].reshape(-1, 2)


def _seg_zeros_like(v, p):
    s = v[p[0]:p[1]]
    return np.zeros_like(s) + s * 2, np.full(s.shape, 7.0)


def _seg_arange(v, p):
    s = v[p[0]:p[1]]
    return s + np.arange(len(s))


def _seg_cumsum_sort(v, p):
    s = v[p[0]:p[1]]
    return np.sort(-s), np.cumsum(s)


def _start_only(v, p):
    return v[p[0]:].sum(), v[:p[1]].copy()


def _negative_step_breaks(v, p):
    return v[p[0]:p[1]:-1].copy()


def _step_two(v, p):
    return v[p[0]:p[1]:2] * 3


case(_seg_sum, *NORMAL)
case(_seg_view, *NORMAL)
case(_seg_len_shape, *NORMAL)
case(_seg_mean, *bounds([2, 7], [7, 2], [4, 4]))
case(_seg_max, *bounds([2, 7], [7, 2]))
case(_seg_first, *bounds([2, 7], [7, 2], [-3, 100]))
case(_seg_last, *bounds([2, 7], [-1, -5], [9, 50]))
case(_seg_diff, *bounds([2, 9], [2, 4], [7, 2]))
case(_seg_convolve, *bounds([2, 9], [2, 4], [3, 5], [7, 2]))
case(_seg_reshape, *bounds([2, 8], [2, 7], [5, 5]))
case(_seg_zeros_like, *NORMAL[:4])
case(_seg_arange, *NORMAL[:4])
case(_seg_cumsum_sort, *NORMAL[:5])
case(_start_only, *bounds([3, 4], [-2, -20], [50, 0]))
case(_negative_step_breaks, *bounds([7, 2], [2, 7]))
case(_step_two, *bounds([1, 8], [8, 1]))

# ------------------------------------------------------------------- bound dtypes

case(_seg_sum, *bounds([2, 7], [7, 2], [-3, 100], dtype=np.int8), name="seg_sum_int8")
case(_seg_view, *bounds([2, 7], [200, 3], dtype=np.uint8), name="seg_view_uint8")
case(_seg_view, *bounds([2, 7], [2 ** 64 - 1, 3], [3, 2 ** 64 - 1], dtype=np.uint64),
     name="seg_view_uint64_huge")
case(_seg_view, *bounds([2, 7], [-2 ** 62, 2 ** 62], dtype=np.int64), name="seg_view_huge_int64")
case(_seg_sum, *bounds([2, 7], [1, 3], dtype=np.int16), name="seg_sum_int16")
case(_seg_sum, *bounds([True, True], [False, True], dtype=np.bool_), name="seg_sum_bool_bounds")
case(_seg_sum, *bounds([2.0, 7.0], dtype=np.float64), name="seg_sum_float_bounds")
case(_seg_sum, (V, np.array([2, 7], np.int64)), (V, np.array([2, 7], np.int32)),
     (V, np.array([2, 7], np.uint16)), name="seg_sum_dtype_changes")


def _scalar_bounds(v, lo, hi):
    return v[lo:hi] * 2


case(_scalar_bounds, (V, I64(2), I64(6)), (V, np.uint8(9), np.int8(-1)),
     (V, np.int32(-100), np.uint64(3)))
case(_scalar_bounds, (V, np.array(2), np.array(6)), (V, np.array(-2), np.array(99)),
     name="zero_d_array_bounds")
case(_scalar_bounds, (V, np.array(2.0), np.array(6)), name="zero_d_float_bound")
case(_scalar_bounds, (V, np.array([2]), np.array([6])), name="one_element_1d_bounds")


def _bounds_from_reductions(v, w):
    return v[w.argmin():w.argmax()], v[w.min():w.max()].sum()


case(_bounds_from_reductions, (V, np.array([3, 1, 8, 5])), (V, np.array([9, 1, 0, 2])))


def _int_of_count(v, counts):
    n = int(counts[0])
    return v[:n] + 1, v[n:].sum()


case(_int_of_count, (V, np.array([4, 2])), (V, np.array([-3, 2])), (V, np.array([40, 2])))


def _bound_plus_one(v, p):
    return v[p[0] + 1:p[1] - 1].sum(), v[p[0] * 2:].copy()


case(_bound_plus_one, *NORMAL[:5])


def _bound_overflow_int8(v, p):
    return v[p[0] + np.int8(100):].copy()


case(_bound_overflow_int8, *bounds([100, 0], [2, 0], dtype=np.int8))

# ------------------------------------------------------------------- 2-d and both axes


def _rows(a, p):
    return a[p[0]:p[1]].sum(axis=0)


def _cols(a, p):
    return a[:, p[0]:p[1]].copy()


def _block(a, p):
    return a[p[0]:p[1], p[0]:p[1]]


def _rows_and_int(a, p):
    return a[p[0]:p[1], 1] * 2, a[1, p[0]:p[1]]


M = np.arange(30.0).reshape(5, 6)
MB = ((M, np.array([1, 4])), (M, np.array([4, 1])), (M, np.array([-2, 99])),
      (M, np.array([0, 5])))
case(_rows, *MB)
case(_cols, *MB)
case(_block, *MB)
case(_rows_and_int, *MB)

# ------------------------------------------------------------------- two slices, one size


def _two_same(a, b, p):
    return a[p[0]:p[1]] * b[p[0]:p[1]]


def _dot_same(a, b, p):
    return np.dot(a[p[0]:p[1]], b[p[0]:p[1]])


def _rows_times_col(a, b, p):
    return a[p[0]:p[1]] * b[p[0]:p[1], None]


def _different_bounds(a, b, p):
    return a[p[0]:p[1]] + b[p[1]:p[0]]


def _same_bounds_sum(a, b, p):
    return np.sum(a[p[0]:p[1]] * b[p[0]:p[1]]), np.add(a[p[0]:p[1]], b[p[0]:p[1]])


case(_two_same, (V, V * 2, np.array([2, 7])), (V, V * 2, np.array([7, 2])),
     (V, V * 2, np.array([-4, 99])))
case(_two_same, (V, B6, np.array([5, 99])), (V, B6, np.array([2, 4])),
     (V, B6, np.array([3, 8])), name="two_same_other_lengths")
case(_two_same, (V, B6, np.array([5, 8])), (V, B6, np.array([6, 9])),
     name="two_same_other_lengths_one_vs_many")
case(_two_same, (B6, V, np.array([-3, 100])), (B6, V, np.array([-8, 100])),
     name="two_same_negative_start")
case(_dot_same, (V, V[::-1].copy(), np.array([2, 7])), (V, B6, np.array([1, 5])),
     (V, B6, np.array([4, 9])))
case(_rows_times_col, (A, V, np.array([2, 7])), (A, V, np.array([9, 1])),
     (A, B6, np.array([5, 99])))
case(_different_bounds, (V, V, np.array([3, 3])), (V, V, np.array([2, 7])))
case(_same_bounds_sum, (V, V * 3, np.array([1, 9])), (V, B6, np.array([5, 8])))


def s_dynamic_two(r):
    """Two arguments of sizes that vary separately: two symbols, one bound pair."""
    f = r.compile(_two_same)
    for n, m in ((10, 10), (11, 11), (12, 7), (7, 12), (9, 9)):
        r.call(f, np.arange(float(n)), np.arange(float(m)) * 2, np.array([3, 8]))


scenario(s_dynamic_two)

# ------------------------------------------------------------------- bounds that are views


def _view_bound_written_before(v, p):
    lo = p[..., 0]           # a 0-d view of p
    p[0] = 5
    return v[lo:p[1]].sum()


def _view_bound_written_between(a, b, p):
    lo, hi = p[..., 0], p[..., 1]
    x = a[lo:hi]
    p[0] = p[0] + 3           # lo now reads 3 more
    y = b[lo:hi]
    return x.sum(), y.sum(), len(x), len(y)


def _view_bound_written_between_product(a, b, p):
    lo, hi = p[..., 0], p[..., 1]
    x = a[lo:hi]
    p[1] = p[0] + 1
    return x * b[lo:hi]


def _view_bound_inplace_add(a, p):
    lo = p[..., 0]
    x = a[lo:]
    p += 2
    return x.copy(), a[lo:].copy()


def _bound_written_through_alias(a, p, q):
    x = a[p[0]:p[1]]
    q[1] = 0                  # q may be p
    return x * a[p[0]:p[1]]


def _bound_from_segment(v, p):
    s = v[p[0]:p[1]]
    s[...] = 1               # writes v: but not the bounds
    return v[p[0]:p[1]].sum(), v.copy()


def _bounds_in_the_data(v):
    lo, hi = v[..., 0].astype(np.int64), v[..., 1].astype(np.int64)
    v[0] = 4.0
    return v[lo:hi], v[int(v[0]):hi]


def _bounds_view_of_self(p):
    return p[p[0]:p[1]].copy(), p[p[1]:p[0]].copy()


case(_view_bound_written_before, *NORMAL[:4])
case(_view_bound_written_between, (V, V * 2, np.array([2, 7])), (V, B6, np.array([1, 5])),
     (V, B6, np.array([4, 9])))
case(_view_bound_written_between_product, (V, V * 2, np.array([2, 7])),
     (V, V, np.array([2, 3])), (V, B6, np.array([5, 9])))
case(_view_bound_inplace_add, (V, np.array([2, 7])), (V, np.array([-3, 2])))
case(_bound_written_through_alias, (V, np.array([2, 7]), np.array([2, 7])),
     lambda: (lambda p: (V.copy(), p, p))(np.array([2, 7])),
     name="bound_written_through_alias")
case(_bound_from_segment, *NORMAL[:4])
case(_bounds_in_the_data, (np.array([1.0, 6.0, 3.0, 4.0, 5.0, 6.0, 7.0]),),
     (np.array([6.0, 2.0, 3.0, 4.0]),))
case(_bounds_view_of_self, (np.array([1, 4, 9, 2, 3]),), (np.array([4, 1, 0, 5, 6, 7]),))

# ------------------------------------------------------------------- writes through it


def _write_segment(v, p):
    v[p[0]:p[1]] = -1.0
    return v


def _iadd_segment(v, p):
    v[p[0]:p[1]] += v[p[0]:p[1]] * 2
    return v.sum()


def _write_segment_from_other(v, w, p):
    v[p[0]:p[1]] = w[p[0]:p[1]]
    return v


def _segment_view_written(v, p):
    s = v[p[0]:p[1]]
    s *= 10
    return s, v


case(_write_segment, *NORMAL[:5])
case(_iadd_segment, *NORMAL[:5])
case(_write_segment_from_other, (V, B6, np.array([1, 4])), (V, B6, np.array([3, 9])),
     (V, B6, np.array([8, 9])))
case(_segment_view_written, *NORMAL[:5])

# ------------------------------------------------------------------- loops of segments


def _csr_row_sums(data, indptr):
    out = np.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        out[i] = data[indptr[i]:indptr[i + 1]].sum()
    return out


def _csr_matvec(data, indices, indptr, x):
    y = np.zeros(len(indptr) - 1)
    for i in range(len(indptr) - 1):
        lo, hi = indptr[i], indptr[i + 1]
        y[i] = np.dot(data[lo:hi], x[indices[lo:hi]])
    return y


def _segment_max_guarded(data, indptr):
    out = []
    for i in range(len(indptr) - 1):
        seg = data[indptr[i]:indptr[i + 1]]
        out.append(seg.max() if seg.size else -np.inf)
    return out


D = np.arange(1.0, 9.0)
case(_csr_row_sums, (D, np.array([0, 2, 2, 5, 8])), (D, np.array([0, 8, 3, 3, 1])),
     (D, np.array([0, 0, 0, 0, 0])))
case(_csr_matvec, (D, np.array([0, 1, 2, 0, 1, 2, 0, 1]), np.array([0, 3, 3, 8]),
                   np.array([1.0, -1.0, 2.0])),
     (D, np.array([2, 2, 2, 2, 1, 1, 0, 0]), np.array([0, 1, 6, 8]), np.array([3.0, 0.5, 1.0])))
case(_segment_max_guarded, (D, np.array([0, 2, 2, 5, 8])), (D, np.array([0, 0, 9, -1, 8])))


def _delete_segment(v, p):
    return np.concatenate((v[:p[0]], v[p[1]:]))


def _segment_mask(v, p):
    s = v[p[0]:p[1]]
    return s[s > 4], (s > 4).sum()


def _segment_nonzero(v, p):
    s = v[p[0]:p[1]]
    return np.nonzero(s > 3)[0] + p[0]


case(_delete_segment, *NORMAL[:6])
case(_segment_mask, *NORMAL[:5])
case(_segment_nonzero, *bounds([2, 7], [0, 10], [5, 5]))


def _segment_printed(v, p):
    s = v[p[0]:p[1]]
    print("segment", s, len(s))
    return s.sum()


case(_segment_printed, *NORMAL[:4])


def _segment_truth(v, p):
    s = v[p[0]:p[1]]
    if len(s) > 2:
        return s.mean()
    return -1.0


case(_segment_truth, *NORMAL[:5])


# ------------------------------------------------------------------- writes of every kind between

def _between(write):
    def fn(a, b, p):
        lo, hi = p[..., 0], p[..., 1]
        x = a[lo:hi]
        write(p)
        return x * b[lo:hi]
    fn.__name__ = f"_between_{write.__name__.strip('_')}"
    return fn


def _fill(p):
    p.fill(2)


def _copyto(p):
    np.copyto(p, p[::-1].copy())


def _ufunc_out(p):
    np.add(p, 1, out=p)


def _ufunc_positional_out(p):
    np.subtract(p, 1, p)


def _sort(p):
    p.sort()


def _put(p):
    np.put(p, [1], [3])


def _ellipsis(p):
    p[...] = p[::-1].copy()


def _iadd(p):
    p += 1


for _w in (_fill, _copyto, _ufunc_out, _ufunc_positional_out, _sort, _put, _ellipsis, _iadd):
    case(_between(_w), (V, V * 2, np.array([2, 7])), (V, V * 2, np.array([7, 2])),
         (V, B6, np.array([4, 9])), (V, B6, np.array([1, 5])))


def _view_bound_in_listed(v, p):
    lo = p[..., 0]
    lst = [lo, p[1]]
    p[0] = 9
    return np.array(lst), v[lo:p[1]].copy()


def _view_bound_in_max(v, p):
    lo = p[..., 0]
    m = max(lo, 3)
    p[0] = 0
    return v[m:].copy() if not isinstance(m, np.ndarray) else v[int(m):].copy(), m


case(_view_bound_in_listed, *NORMAL[:4])
case(_view_bound_in_max, *NORMAL[:4])
