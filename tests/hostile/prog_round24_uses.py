"""Round 24, more uses of data-dependent counts (``dynamo/variables/size_values.py``,
see ``prog_round24_counts``): comparisons kept as data (``len(kept) > 2`` returned,
appended, stored in a dict, times an array or an int8 array, chained, negated, as a
dict key), counts after a graph break, in loops and segment means, stored in globals,
dicts and attributes, used as slice bounds, indices, ``np.round``/``np.roll``
arguments; attributes of a count (``n.bit_length()``, ``n.real``, ``n.__class__``),
formats, list repetition, ``np.nonzero``/``np.unique`` lengths, powers of arrays by a
count (NumPy's fast paths for ``** 2``, ``** 0.5``, ``** -1``).

    >>> def _truth_returned(x):
    ...     kept = x[x > 0]
    ...     return len(kept) > 2, len(kept) == 0
"""

import numpy as np
from hostile_check import Programs
from prog_round24_counts import (
    MASKS,
    MASKS_BIG,
    P_EMPTY,
    V4,
    VI,
    VI8,
    X_NONE,
    X_ONE,
    P,
    V,
    X,
    _floor_mod_pow,
    _mean_size,
)

reg = Programs("round24_uses")
case = reg.case
scenario = reg.scenario


def _kept(x):
    return x[x > 0]


def _brk():
    """A call the tracer does not follow (it reads the calling frame): a graph break."""
    import sys
    return sys._getframe(1).f_lineno > 0


# ------------------------------------------------------------ comparisons as data

def _truth_returned(x):
    kept = _kept(x)
    return len(kept) > 2, len(kept) == 0, len(kept) != 1, len(kept) <= 3


def _truth_type(x):
    kept = _kept(x)
    t = len(kept) > 2
    return type(t).__name__, t is True, t


def _truth_appended(x):
    kept = _kept(x)
    flags = []
    flags.append(len(kept) > 2)
    flags.append(kept.size == 0)
    return flags


def _truth_in_dict(x):
    kept = _kept(x)
    return {"many": len(kept) > 2, "none": not len(kept)}


def _truth_times_array(x):
    kept = _kept(x)
    return x * (len(kept) > 2), x + (len(kept) == 0), np.where(len(kept) > 1, x, -x)


def _truth_with_int8(x):
    kept = _kept(x)
    return VI8 + (len(kept) > 2), VI8 * (len(kept) == 0)


def _truth_arith(x):
    kept = _kept(x)
    return (len(kept) > 2) + 1, (len(kept) > 2) * 2.5, -(len(kept) == 0)


def _truth_bitops(x):
    kept = _kept(x)
    n = len(kept)
    return (n > 2) & (n < 5), (n > 2) | (n == 0), (n > 1) ^ True


def _truth_of_two_counts(x):
    a = _kept(x)
    b = x[x < 0]
    return len(a) > len(b), len(a) == len(b), max(len(a), len(b)) >= 3


def _truth_chain(x):
    n = len(_kept(x))
    return 0 < n < 4


def _truth_in(x):
    n = len(_kept(x))
    return n in (1, 3), n // 2 in [0, 1]


def _truth_branch(x):
    n = len(_kept(x))
    return "many" if n > 2 else "few"


def _truth_not(x):
    n = len(_kept(x))
    return not (n > 2), not n


def _truth_np_array(x):
    n = len(_kept(x))
    return np.array(n > 2), np.asarray([n > 2, n == 0])


def _truth_float_compare(x):
    kept = _kept(x)
    return len(kept) > 2.5, len(kept) == 3.0, kept.size < np.float64(1.5)


def _truth_sum(x):
    kept = _kept(x)
    return sum([len(kept) > 0, len(kept) > 1, len(kept) > 2])


for _fn in (_truth_returned, _truth_type, _truth_appended, _truth_in_dict,
            _truth_times_array, _truth_with_int8, _truth_arith, _truth_bitops,
            _truth_of_two_counts, _truth_chain, _truth_in, _truth_branch, _truth_not,
            _truth_np_array, _truth_float_compare, _truth_sum):
    case(_fn, *MASKS)


# ------------------------------------------------------------ breaks, loops, state

def _after_break(x):
    n = len(_kept(x))
    m = max(n, 1)
    _brk()
    return n // 2, m, x.sum() / m


def _truth_after_break(x):
    t = len(_kept(x)) > 2
    _brk()
    return t, type(t).__name__


def _count_in_loop(v, p):
    out = []
    for k in range(len(p) - 1):
        seg = v[p[k]:p[k + 1]]
        out.append((seg.sum() / max(seg.size, 1), len(seg) // 2, len(seg) > 1))
    return out


def _segment_means(v, offsets):
    means = np.zeros(len(offsets) - 1)
    for k in range(len(offsets) - 1):
        seg = v[offsets[k]:offsets[k + 1]]
        means[k] = seg.sum() / max(seg.size, 1)
    return means


def _count_in_while(x):
    n = len(_kept(x))
    steps = 0
    while n > 1:
        n = n // 2
        steps += 1
    return steps, n


def _count_range(x):
    n = len(_kept(x))
    return [i * 2 for i in range(max(n, 1))]


def _count_shape(x):
    n = len(_kept(x))
    return np.zeros(n // 2).shape, np.ones((max(n, 1), 2)).sum()


def _count_stored(x, box):
    kept = _kept(x)
    box["n"] = max(len(kept), 1)
    box["half"] = len(kept) // 2
    box["big"] = len(kept) > 2
    return box["n"] * 2


def _count_global(x):
    global LAST
    LAST = (len(_kept(x)) % 3, len(_kept(x)) > 1)
    return x.sum()


LAST = None


def _count_attr(x, o):
    o.n = len(_kept(x)) // 2
    o.t = len(_kept(x)) == 0
    return o


class _Box:
    pass


def _count_slice(x):
    kept = _kept(x)
    h = len(kept) // 2
    return kept[:h], kept[h:], x[:max(len(kept), 1)]


def _count_index(x):
    kept = _kept(x)
    try:
        return x[len(kept) // 2], x[-(len(kept) % 3) - 1]
    except IndexError as e:
        return str(e)


def _count_setitem(x):
    z = np.zeros(4)
    kept = _kept(x)
    try:
        z[:len(kept)] = kept
    except ValueError as e:
        return str(e)
    return z


def _count_as_arg(x):
    kept = _kept(x)
    return np.round(x, len(kept) % 3), np.roll(x, len(kept) // 2)


def _count_zero_length_ops(x):
    kept = _kept(x)
    n = len(kept)
    return kept.sum() / max(n, 1), kept.max(initial=-1.0) * (n > 0), n * kept.mean() \
        if n else 0.0


case(_after_break, *MASKS)
case(_truth_after_break, *MASKS)
case(_count_in_loop, (V, np.array([0, 3, 3, 9, 12])), (V, np.array([4, 4, 4])),
     (V, np.array([0, 12])))
case(_segment_means, (V, np.array([0, 3, 3, 9, 12])), (V4, np.array([2, 2, 5])),
     (V, np.array([11, 12])))
case(_count_in_while, *MASKS_BIG)
case(_count_range, *MASKS)
case(_count_shape, *MASKS)
case(_count_stored, (X, {}), (X_NONE, {"n": -1}), (X_ONE, {}))
case(_count_global, *MASKS, watch=lambda: LAST)
case(_count_attr, (X, _Box()), (X_NONE, _Box()), (X_ONE, _Box()))
case(_count_slice, *MASKS)
case(_count_index, *MASKS)
case(_count_setitem, (X,), (X_NONE,), (X_ONE,), (np.array([1.0, 2.0, 3.0, 4.0, 5.0]),))
case(_count_as_arg, *MASKS)
case(_count_zero_length_ops, *MASKS)


def s_counts_change_on_one_entry(r):
    """One entry, counts 0, 1, 2, 5, 0: each result is eager's (no guard on the count)."""
    f = r.compile(_floor_mod_pow)
    for stop in (5, 6, 7, 10, 5, 2):
        r.call(f, V.copy(), np.array([5, stop]))


def s_returned_count_kept(r):
    """Returned counts are Python ints that later calls do not change."""
    f = r.compile(_mean_size)
    first = r.call(f, V.copy(), P.copy())
    r.call(f, V.copy(), P_EMPTY.copy())
    r.see("first", first)


scenario(s_counts_change_on_one_entry)
scenario(s_returned_count_kept)


# ------------------------------------------------------------ more uses of a count

def _type_checks(x):
    n = len(_kept(x))
    m = max(n, 1)
    return type(n) is int, type(m) is int, isinstance(n // 2, bool), m.__class__.__name__


def _int_methods(x):
    n = len(_kept(x))
    return n.bit_length(), (n // 2).real, n.numerator, (n % 3).conjugate()


def _formats(x):
    n = len(_kept(x))
    return "%d/%s" % (n // 2, max(n, 1)), format(n % 3, "05d"), f"{n ** 2:>6}"  # noqa: UP031


def _list_repeat(x):
    n = len(_kept(x))
    return [0] * (n // 2), "ab" * (n % 3)


def _np_max_mixed(x):
    n = len(_kept(x))
    return max(n, np.int64(2)), max(n, np.float64(0.5)), min(n // 2, np.int8(1))


def _array_power_of_count(x):
    n = len(_kept(x))
    return x ** (n % 3), x ** (n / 2), np.abs(x) ** (n // 2 - 1)


def _int_array_negative_power(x):
    n = len(_kept(x))
    try:
        return VI[:4] ** (n % 3 - 1)
    except ValueError as e:
        return str(e)


def _float32_times_huge(x):
    n = len(_kept(x))
    return V4[:3] * (n + 1) ** 9


def _truth_conversions(x):
    t = len(_kept(x)) > 2
    return int(t), float(t), t + t, str(t)


def _truth_key(x):
    t = len(_kept(x)) > 2
    return {t: "a"}, [t, True].count(True)


def _truth_list_array(x):
    n = len(_kept(x))
    a = np.array([n > 2, True, n == 0])
    return a, a.dtype


def _count_of_nonzero(x):
    nz = np.nonzero(x > 0)[0]
    return len(nz) // 2, nz.size % 2, max(len(nz), 1), len(nz) > 0


def _count_of_unique(x):
    u = np.unique(np.round(x))
    return len(u) // 2, len(u) ** 2, x.sum() / max(len(u), 1)


def _count_through_helper(x):
    def half(k):
        return k // 2, isinstance(k, int)
    return half(len(_kept(x)))


def _scalar_division_by_zero(x):
    n = len(_kept(x))
    return np.float64(n) / 0.0, np.float32(n // 2) / np.float32(0)


def _count_to_numpy_int_ops(x):
    n = len(_kept(x))
    return np.int64(n) // 2, np.int64(n % 3) ** 2, np.uint8(max(n, 1)) - np.uint8(2)


for _fn in (_type_checks, _int_methods, _formats, _list_repeat, _np_max_mixed,
            _array_power_of_count, _int_array_negative_power, _float32_times_huge,
            _truth_conversions, _truth_key, _truth_list_array, _count_of_nonzero,
            _count_of_unique, _count_through_helper, _scalar_division_by_zero,
            _count_to_numpy_int_ops):
    case(_fn, *MASKS)


def _int_attributes(x):
    n = len(_kept(x))
    return n.real, n.imag, n.numerator, n.denominator, (n // 2).real


def _int_class(x):
    n = len(_kept(x))
    return n.__class__, (max(n, 1)).__class__.__name__, type(n % 3)


case(_int_attributes, *MASKS)
case(_int_class, *MASKS)
