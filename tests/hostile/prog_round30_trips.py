"""Round 30, loops whose trip count only the data decides, run as loop nodes
(``translator/data_trips.py``): ``for j in range(k)`` with ``k = len(np.unique(..))``,
``np.bincount(..).shape[0]`` or ``len(x[x > 0])``, at ``k`` = 0, 1 and many, where
the body does what a loop node may not model: raise at some trip (IndexError,
ZeroDivisionError of Python ints, FloatingPointError under ``errstate``), warn at
every trip ("Mean of empty slice": the counts must be eager's), write into the arrays
passed in (their state after a raise mid-loop), the loop variable read after the
loop, nested loops, ``range(k, 0, -1)``, ``range(a, k)`` with ``a > k``.

    >>> def _raise_at_trip(X, labels):
    ...     k = len(np.unique(labels))
    ...     out = np.zeros(2)
    ...     for j in range(k):
    ...         out[j] = X[labels == j].sum()     # IndexError at the third trip
    ...     return out
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round30_trips")

_RNG = np.random.default_rng(30)
_X = _RNG.normal(size=(9, 2))


def _labels(*v):
    return np.array(v, dtype=np.int64)


# (X, labels): no sample, one class, three classes, gaps (bincount counts 5), many
INPUTS = (
    (_X[:0].copy(), _labels()),
    (_X[:3].copy(), _labels(0, 0, 0)),
    (_X[:4].copy(), _labels(0, 1, 2, 1)),
    (_X[:3].copy(), _labels(0, 2, 4)),
    (_X.copy(), _labels(0, 1, 2, 3, 4, 5, 6, 0, 1)),
)

# --------------------------------------------------------------------- counts


def _unique_count(labels):
    return len(np.unique(labels))


def _bincount_count(labels):
    return np.bincount(labels).shape[0]


def _positive_count(labels):
    return len(labels[labels > 0])


COUNTS = {"unique": _unique_count, "bincount": _bincount_count,
          "positive": _positive_count}


# --------------------------------------------------------------------- bodies

def _raise_at_trip(X, labels, count):
    k = count(labels)
    out = np.zeros(2)
    for j in range(k):
        out[j] = X[labels == j].sum()
    return out


def _raise_caught(X, labels, count):
    k = count(labels)
    out = np.zeros(2)
    try:
        for j in range(k):
            out[j] = X[labels == j].sum()
    except IndexError as e:
        return str(e), out
    return out


def _int_zero_division(X, labels, count):
    k = count(labels)
    acc = 0
    for j in range(k):
        acc += 6 // (2 - j)
    return acc


def _int_zero_division_caught(X, labels, count):
    k = count(labels)
    acc = np.zeros(2)
    try:
        for j in range(k):
            acc += X[0] * (6 // (2 - j)) if len(X) else 0
    except ZeroDivisionError as e:
        return str(e), acc
    return acc


def _errstate_raise(X, labels, count):
    k = count(labels)
    out = np.ones(k)
    with np.errstate(divide="raise", invalid="raise"):
        for j in range(k):
            out[j] = 1.0 / (labels == j).sum()
    return out


def _errstate_caught(X, labels, count):
    k = count(labels)
    out = np.ones(k)
    try:
        with np.errstate(divide="raise"):
            for j in range(k):
                out[j] = np.float64(1.0) / (labels == j).sum()
    except FloatingPointError as e:
        return str(e), out
    return out


def _mean_warns(X, labels, count):
    k = count(labels)
    centers = np.zeros((k, X.shape[1]))
    for j in range(k):
        centers[j] = X[labels == j].mean(0)
    return centers


def _mean_warns_twice(X, labels, count):
    k = count(labels)
    out = np.zeros(k)
    for j in range(k):
        out[j] = X[labels == j, 0].mean() + X[labels == j, 1].mean()
    return out


def _write_arg(X, labels, count):
    k = count(labels)
    for j in range(k):
        X[j] = j
    return X.sum()


def _write_arg_then_raise(X, labels, count):
    k = count(labels)
    for j in range(k):
        X[j, 0] = -1.0
        labels[j] = labels[j] + 10
    return X[k + 100]


def _write_arg_raise_mid(X, labels, count):
    k = count(labels)
    for j in range(k):
        X[j, 1] = 7.0
        X[j, 0] = X[3 - j, 0]
    return X


def _loop_var_after(X, labels, count):
    k = count(labels)
    j = -1
    acc = np.zeros(2)
    for j in range(k):
        acc = acc + j
    return acc, j


def _temporary_after(X, labels, count):
    k = count(labels)
    t = np.zeros(2)
    for j in range(k):
        t = X[labels == j].sum(0)
    return t


def _nested(X, labels, count):
    k = count(labels)
    m = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            m[i, j] = ((labels == i) & (np.roll(labels, 1) == j)).sum()
    return m


def _nested_inner_const(X, labels, count):
    k = count(labels)
    m = np.zeros((k, 2))
    for i in range(k):
        for c in range(2):
            m[i, c] = X[labels == i, c].sum()
    return m


def _reverse_range(X, labels, count):
    k = count(labels)
    out = np.zeros(k + 1)
    for j in range(k, 0, -1):
        out[j] = out[j - 1] + j
    return out


def _range_from_three(X, labels, count):
    k = count(labels)
    acc = np.zeros(2)
    for j in range(3, k):
        acc += X[labels == j].sum(0)
    return acc


def _range_from_three_index(X, labels, count):
    k = count(labels)
    acc = np.zeros(max(k, 1))
    for j in range(3, k):
        acc[j] = j
    return acc


def _cumulative(X, labels, count):
    k = count(labels)
    out = np.zeros(k)
    for j in range(1, k):
        out[j] = out[j - 1] + (labels == j).sum()
    return out


def _float_state(X, labels, count):
    k = count(labels)
    total = 0.0
    for j in range(k):
        total += float((labels == j).sum())
    return total


def _int_dtype(X, labels, count):
    k = count(labels)
    c = np.zeros(k, np.int32)
    for j in range(k):
        c[j] = (labels == j).sum()
    return c


def _print_per_trip(X, labels, count):
    k = count(labels)
    for j in range(k):
        print("trip", j)
    return X.sum()


def _divide_by_count(X, labels, count):
    k = count(labels)
    s = X.sum(0)
    for j in range(k):
        s = s / (labels == j).sum()
    return s


def _break_at_trip(X, labels, count):
    k = count(labels)
    acc = np.zeros(2)
    for j in range(k):
        if j == 2:
            break
        acc += X[labels == j].sum(0)
    return acc


def _invalid_raise_mean(X, labels, count):
    k = count(labels)
    centers = np.zeros((k, X.shape[1]))
    with np.errstate(invalid="raise"):
        for j in range(k):
            centers[j] = X[labels == j].mean(0)     # empty class: FloatingPointError
    return centers


def _invalid_raise_mean_caught(X, labels, count):
    try:
        return _invalid_raise_mean(X, labels, count)
    except FloatingPointError as e:
        return str(e)


def _divide_warn_per_trip(X, labels, count):
    k = count(labels)
    out = np.zeros(k)
    for j in range(k):
        out[j] = 1.0 / np.float64((labels == j).sum())   # a warning at each gap
    return out


def _errstate_ignore_per_trip(X, labels, count):
    k = count(labels)
    out = np.zeros(k)
    with np.errstate(all="ignore"):
        for j in range(k):
            out[j] = X[labels == j, 0].mean() / 0.0
    return out


def _errstate_call_per_trip(X, labels, count):
    seen = []
    k = count(labels)
    out = np.zeros(k)
    with np.errstate(divide="call", call=lambda kind, flag: seen.append(kind)):
        for j in range(k):
            out[j] = 1.0 / np.float64((labels == j).sum())
    return out, seen


def _int_counts_from_two(X, labels, count):
    k = count(labels)
    c = np.zeros(k + 1, np.int64)
    for j in range(2, k):
        c[j] = c[j - 1] + (labels == j).sum() * 2
    return c


def _carried_two(X, labels, count):
    k = count(labels)
    lo, hi = np.full(2, np.inf), np.full(2, -np.inf)
    for j in range(k):
        m = X[labels == j].sum(0)
        lo = np.minimum(lo, m)
        hi = np.maximum(hi, m)
    return lo, hi


def _weights_by_count(X, labels, count):
    k = count(labels)
    w = np.ones(k) / max(k, 1)
    for j in range(k):
        w[j] = w[j] * (labels == j).mean()
    return w


BODIES = (_raise_at_trip, _raise_caught, _int_zero_division, _int_zero_division_caught,
          _errstate_raise, _errstate_caught, _mean_warns, _mean_warns_twice, _write_arg,
          _write_arg_then_raise, _write_arg_raise_mid, _loop_var_after, _temporary_after,
          _nested, _nested_inner_const, _reverse_range, _range_from_three,
          _range_from_three_index, _cumulative, _float_state, _int_dtype,
          _print_per_trip, _divide_by_count, _break_at_trip, _invalid_raise_mean,
          _invalid_raise_mean_caught, _divide_warn_per_trip, _errstate_ignore_per_trip,
          _errstate_call_per_trip, _int_counts_from_two, _carried_two, _weights_by_count)


def _bind(body, count):
    def fn(X, labels):
        return body(X, labels, count)
    fn.__name__ = fn.__qualname__ = body.__name__.lstrip("_") + "_" + count.__name__
    return fn


# every body with the unique count; the ones about counts with all three
for _body in BODIES:
    reg.case(_bind(_body, _unique_count), *INPUTS,
             name=_body.__name__.lstrip("_") + "_unique")
for _body in (_raise_at_trip, _errstate_raise, _mean_warns, _write_arg_then_raise,
              _loop_var_after, _nested, _reverse_range, _range_from_three,
              _cumulative, _int_zero_division, _invalid_raise_mean, _divide_warn_per_trip,
              _carried_two):
    for _name in ("bincount", "positive"):
        reg.case(_bind(_body, COUNTS[_name]), *INPUTS,
                 name=_body.__name__.lstrip("_") + "_" + _name)
