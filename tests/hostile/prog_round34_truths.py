"""Round 34, the truth of a data-dependent size as the graph's bool ``u0 != 0``
(``size_values.size_flag``, ``translator/branch_selects.py``): ``a if len(m) else b``,
``if seg.size:``, ``not len(idx)``, where the way not taken would raise (an empty
``max``, ``kept[0]``, a Python ``1 / len(kept)``), warn (a mean of nothing, a divide
by zero), print, append or return a Python float; nested truths, truths in ``for``
loops and comprehensions, in ``try``, ``and``/``or`` of them, truths of 2-D
selections, ``np.nonzero``/``np.flatnonzero``/``np.unique`` sizes, NaN inputs, int and
bool and float32 dtypes, and counts that change between calls.

    >>> def _pick(x):
    ...     kept = x[x > 0]
    ...     return kept.max() if kept.size else x.min()
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round34_truths")

INPUTS = [
    (np.array([-1.0, -2.0, -3.0, -4.0]),),
    (np.array([1.0, -2.0, -3.0, -4.0]),),
    (np.array([1.0, 2.0, 3.0, 4.0]),),
    (np.array([np.nan, -1.0, np.nan, 2.0]),),
    (np.array([-1, 5, -3, 0], dtype=np.int64),),
    (np.array([0.5, -0.0, 0.0, 2.5], dtype=np.float32),),
    (np.array([], dtype=np.float64),),
    (np.array([-1.0, -2.0, -3.0, -4.0]),),
]
LOG = []


def _max_or_min(x):
    kept = x[x > 0]
    return kept.max() if kept.size else x.min() if x.size else -1.0


def _first_or_zero(x):
    kept = x[x > 0]
    return kept[0] * 2 if len(kept) else x * 0


def _python_divide(x):
    kept = x[x > 0]
    return x / len(kept) if len(kept) else x


def _mean_or_zeros(x):
    kept = x[x > 0]
    return np.full(x.shape, kept.mean()) if kept.size else np.zeros_like(x)


def _mean_float(x):
    kept = x[x > 0]
    return kept.mean() if len(kept) else 0.0


def _not_len(x):
    idx = np.nonzero(x > 0)[0]
    return x * 2 if not len(idx) else x[idx[-1]] + x


def _if_else_raise(x):
    seg = x[x > 1]
    if seg.size:
        y = seg.max() + x
    else:
        raise ValueError("no element above 1")
    return y


def _if_print(x):
    seg = x[x > 1]
    if seg.size:
        print("kept", seg.size)
        y = x - 1
    else:
        y = x * 3
    return y


def _if_append(x):
    seg = x[x > 1]
    if len(seg):
        LOG.append("some")
    return x * 2


def _nested(x):
    a = x[x > 0]
    b = x[x < 0]
    if len(a):
        if len(b):
            return a.sum() - b.sum() + x
        return a.max() + x
    return b.min() + x if len(b) else x


def _and_or(x):
    a = x[x > 0]
    b = x[x < -2]
    if len(a) and len(b):
        return x * 2
    return x - 1 if len(a) or len(b) else x + 1


def _in_for(x):
    acc = x * 0
    for t in (0.0, 1.0, 3.0):
        kept = x[x > t]
        acc = acc + (kept.max() if kept.size else -t)
    return acc


def _in_comprehension(x):
    return [float(x[x > t].sum()) if len(x[x > t]) else None for t in (0, 1, 2)]


def _in_try(x):
    kept = x[x > 0]
    try:
        y = kept.max() if kept.size else x[10]
    except IndexError:
        y = -x
    return y


def _while_shrinks(x):
    kept = x[x > 0]
    n = 0
    while kept.size and n < 5:
        kept = kept[1:]
        n += 1
    return n, kept


def _unique_truth(x):
    u = np.unique(x[x > 0])
    return u.min() * x if len(u) else x


def _flatnonzero_truth(x):
    i = np.flatnonzero(x > 0)
    return x[i[0]:] if i.size else x[:0]


def _two_d(x):
    m = x.reshape(2, -1) if x.size % 2 == 0 and x.size else x.reshape(1, -1)
    kept = m[m > 0]
    return m / kept.max() if kept.size else m


def _bool_of_size(x):
    kept = x[x > 0]
    return bool(kept.size), bool(len(kept)), not kept.size


def _divide_warn(x):
    kept = x[x > 0]
    return x / kept.size if kept.size else x / kept.size


def _np_divide_zero(x):
    kept = x[x > 0]
    n = np.float64(len(kept))
    return x / n if len(kept) else np.divide(x, n)


def _errstate_raise(x):
    kept = x[x > 0]
    with np.errstate(all="raise"):
        return x / len(kept) if len(kept) else x / np.float64(len(kept))


def _dtype_differs(x):
    kept = x[x > 0]
    return x.astype(np.int32) if kept.size else x * 0.5


def _shape_differs(x):
    kept = x[x > 0]
    return kept * 2 if kept.size else x[:1]


def _returns_input(x):
    kept = x[x > 0]
    return x if kept.size else kept


def _inplace_either(x):
    kept = x[x > 0]
    if kept.size:
        x *= 2
    else:
        x -= 1
    return x


def _write_other(x, out=None):
    kept = x[x > 0]
    out = np.zeros(4)
    if len(kept):
        out[0] = kept[-1]
    return out


def _count_as_int(x):
    kept = x[x > 0]
    n = len(kept) if len(kept) else -1
    return n, x * n


def _truth_twice(x):
    kept = x[x > 0]
    a = x * 2 if kept.size else x
    b = a + 1 if kept.size else a - 1
    return a, b


def _truth_of_diff(x):
    kept = x[x > 0]
    d = np.diff(kept)
    return d.max() if d.size else kept.sum()


def _truth_then_index(x):
    kept = x[x > 0]
    return kept[len(kept) - 1] if len(kept) else np.float64(-1)


def _chained(x):
    kept = x[x > 0]
    return x * 2 if 0 < len(kept) < 3 else x if not len(kept) else -x


def _negative_index(x):
    kept = x[x > 0]
    return kept[-2] if len(kept) > 1 else (kept[-1] if len(kept) else x.sum())


def _argmax_guarded(x):
    kept = x[x > 0]
    return np.argmax(kept) if kept.size else np.intp(-1)


def _percentile_guarded(x):
    kept = x[x > 0]
    return np.percentile(kept, 50) if kept.size else np.nan


def _sort_first(x):
    kept = np.sort(x[x > 0])
    return kept[:2].sum() if len(kept) else x.sum()


def _bincount_truth(x):
    k = x[x > 0].astype(np.int64)
    b = np.bincount(k) if len(k) else np.zeros(1, np.int64)
    return b, b.size


def _nan_kept(x):
    kept = x[np.isnan(x)]
    return x * 0 if kept.size else x


def _cumsum_last(x):
    kept = x[x > 0]
    c = np.cumsum(kept)
    return c[-1] if c.size else 0


def _global_log(x):
    kept = x[x > 0]
    LOG.append(len(kept))
    return x * 2 if kept.size else x


def _kept_returned(x):
    kept = x[x > 0]
    return (kept, x) if len(kept) else (x, kept)


def _empty_sum_as_fallback(x):
    kept = x[x > 0]
    return kept.sum() / kept.size if kept.size else kept.sum()


FNS = (_max_or_min, _first_or_zero, _python_divide, _mean_or_zeros, _mean_float,
       _not_len, _if_else_raise, _if_print, _if_append, _nested, _and_or, _in_for,
       _in_comprehension, _in_try, _while_shrinks, _unique_truth, _flatnonzero_truth,
       _two_d, _bool_of_size, _divide_warn, _np_divide_zero, _errstate_raise,
       _dtype_differs, _shape_differs, _returns_input, _inplace_either, _write_other,
       _count_as_int, _truth_twice, _truth_of_diff, _truth_then_index, _chained,
       _negative_index, _argmax_guarded, _percentile_guarded, _sort_first,
       _bincount_truth, _nan_kept, _cumsum_last, _global_log, _kept_returned,
       _empty_sum_as_fallback)


for _fn in FNS:
    reg.case(_fn, *INPUTS, calls=1, setup=LOG.clear, watch=lambda: list(LOG))
