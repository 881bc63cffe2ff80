"""Round 32, chained comparisons of data-dependent sizes (``translator/size_chains.py``:
``lo <= len(kept) <= hi`` kept in the graph as the ``&`` of its links) whose right
operand Python evaluates only when the first link holds: a callee that appends to a
list or prints, ``next`` of an iterator, a property that counts its reads, a quotient
that raises, an object whose ``__gt__``/``__lt__`` is its own (logs, returns a
non-bool, raises); links that mix sizes and floats (NaN, ``0.5 < n``), longer chains,
chains in ``if``/``while``/ternaries/``return``; and ``enumerate`` over arrays whose
length the data decides (``translator/data_trips.enumerate_data_trips``: ``for i, c in
enumerate(np.unique(y))``) with ``break``/``continue``/``else``, ``start=``, nested,
the index read after the loop, the enumerate bound to a name first.

    >>> def _chain_callee(x, y, log):
    ...     n, m = _sizes(x, y)
    ...     return 0 < n <= _logged(log, m)     # log grows only where 0 < n
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round32_chains")

_RNG = np.random.default_rng(3232)
_V = _RNG.normal(size=8)

# (x, y, log): counts of x > 0 and y > 0: (0, 0), (1, 0), (0, 3), (3, 5), (8, 8)
INPUTS = (
    (-np.abs(_V), -np.abs(_V[:5]), []),
    (np.array([-1.0, 2.0, -3.0]), -np.abs(_V[:4]), []),
    (-np.abs(_V[:6]), np.array([1.0, -1.0, 2.0, 3.0]), []),
    (np.array([0.4, -1.0, 0.7, 2.0]), np.abs(_V[:5]), []),
    (np.abs(_V) + 0.1, np.abs(_V) + 1.0, []),
)


def _sizes(x, y):
    return len(x[x > 0]), len(y[y > 0])


def _logged(log, v):
    log.append(v)
    return v


def _printed(v):
    print("right operand", v)
    return v


class Counting:
    reads = 0

    @property
    def bound(self):
        Counting.reads += 1
        return 4


class Weird:
    """Its own comparisons: log, and answer a non-bool."""

    def __init__(self, log):
        self.log = log

    def __gt__(self, other):
        self.log.append(("gt", other))
        return "yes" if other < 3 else ""

    def __lt__(self, other):
        self.log.append(("lt", other))
        return 1

    def __ge__(self, other):
        raise TypeError(f"no >= with {other!r}")


# --------------------------------------------------------------------- right operands

def _chain_callee(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n <= _logged(log, m)


def _chain_callee_if(x, y, log):
    n, m = _sizes(x, y)
    if 1 <= n < _logged(log, 4):
        return x.sum()
    return -1.0


def _chain_print(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n < _printed(5)


def _chain_next(x, y, log):
    it = iter(log)
    n, m = _sizes(x, y)
    log.extend([3, 9])
    return 0 < n < next(it, 100), list(it)


def _chain_property(x, y, log):
    n, m = _sizes(x, y)
    before = Counting.reads
    r = 0 < n < Counting().bound
    return r, Counting.reads - before


def _chain_quotient(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n < 10 // m


def _chain_quotient_if(x, y, log):
    n, m = _sizes(x, y)
    if 0 < m <= 20 // n:
        return x * 2
    return x


def _chain_weird_gt(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n < Weird(log)


def _chain_weird_lt(x, y, log):
    n, m = _sizes(x, y)
    return 0 <= n > Weird(log)


def _chain_weird_ge_raises(x, y, log):
    n, m = _sizes(x, y)
    try:
        return 0 < n <= Weird(log)
    except TypeError as e:
        return str(e)


def _chain_weird_if(x, y, log):
    n, m = _sizes(x, y)
    if 0 < n < Weird(log):
        return x + 1
    return x - 1


def _chain_index_error(x, y, log):
    a = x[x > 0]
    return 0 < len(a) < a[0] * 100


def _chain_method_append(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n < (log.append(n) or 5)


def _chain_array_right(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n < x.size


def _chain_array_max(x, y, log):
    a = x[x > 0]
    n = len(a)
    return 0 < n < a.max() * 10


def _chain_mean_warns(x, y, log):
    a = y[y > 0]
    return 0 <= len(a) < a.mean() + 10


# --------------------------------------------------------------------- mixed links

def _chain_float_left(x, y, log):
    n, m = _sizes(x, y)
    return 0.5 < n <= 3.5, -0.0 <= m < 4.0


def _chain_nan(x, y, log):
    n, m = _sizes(x, y)
    nan = float("nan")
    return 0 <= n < nan, nan < n < 4, 0 < n < float(np.float32(3.5))


def _chain_float_sum(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n < float(x.sum()), 1 <= m <= float(y.max())


def _chain_three(x, y, log):
    n, m = _sizes(x, y)
    return 0 <= n < m < 9, n <= m <= 8 >= 0


def _chain_sizes_both(x, y, log):
    n, m = _sizes(x, y)
    return n < m <= n + 5, n == m == 0, n != m != 3


def _chain_bool_right(x, y, log):
    n, m = _sizes(x, y)
    return 0 <= n <= True, False < n < 2


def _chain_numpy_scalar(x, y, log):
    n, m = _sizes(x, y)
    return 0 < n < np.int64(4), np.float64(0.5) < n <= np.int8(3)


def _chain_while(x, y, log):
    n, m = _sizes(x, y)
    k = 0
    while 0 <= k < n:
        log.append(k)
        k += 2
    return k


def _chain_ternary(x, y, log):
    n, m = _sizes(x, y)
    return x * 2 if 0 < n <= _logged(log, 3) else x - 1


def _chain_in_comprehension(x, y, log):
    n, m = _sizes(x, y)
    return [0 < n < k for k in range(4)]


def _chain_returns_int(x, y, log):
    n, m = _sizes(x, y)
    return (0 < n < 5) + (1 <= m < 4) * 2


def _chain_not(x, y, log):
    n, m = _sizes(x, y)
    if not 0 < n <= _logged(log, 3):
        return "out"
    return "in"


def _chain_try(x, y, log):
    n, m = _sizes(x, y)
    try:
        ok = 0 < n < 10 // m
    except ZeroDivisionError:
        ok = None
    return ok


CHAINS = (_chain_callee, _chain_callee_if, _chain_print, _chain_next, _chain_property,
          _chain_quotient, _chain_quotient_if, _chain_weird_gt, _chain_weird_lt,
          _chain_weird_ge_raises, _chain_weird_if, _chain_index_error,
          _chain_method_append, _chain_array_right, _chain_array_max, _chain_mean_warns,
          _chain_float_left, _chain_nan, _chain_float_sum, _chain_three,
          _chain_sizes_both, _chain_bool_right, _chain_numpy_scalar, _chain_while,
          _chain_ternary, _chain_in_comprehension, _chain_returns_int, _chain_not,
          _chain_try)

for _fn in CHAINS:
    reg.case(_fn, *INPUTS, calls=2)
    reg.case(_fn, *INPUTS[::-1], calls=1, name=f"{_fn.__name__[1:]}_reversed")


# --------------------------------------------------------------------- enumerate

LABELS = (
    (np.array([3, 1, 3, 2]), np.arange(4.0), []),
    (np.array([], dtype=np.int64), np.arange(2.0), []),
    (np.array([5, 5, 5]), np.arange(3.0), []),
    (np.array([4, 0, 2, 9, 7, 1]), np.arange(6.0), []),
    (np.array([-1, 1]), np.arange(5.0), []),
)


def _enum_sum(y, x, log):
    t = x * 0
    for i, c in enumerate(np.unique(y)):
        t = t + i * c
    return t


def _enum_start(y, x, log):
    t = x * 0
    for i, c in enumerate(np.unique(y), start=len(log) + 3):
        t = t + i - c
    return t


def _enum_start_kw_neg(y, x, log):
    t = 0.0
    for i, c in enumerate(np.unique(y), -2):
        t = t + x[0] * i + c
    return t


def _enum_break(y, x, log):
    t = x * 0
    for i, c in enumerate(np.unique(y)):
        if c > 3:
            break
        t = t + c
    return t


def _enum_continue(y, x, log):
    t = x * 0
    for i, c in enumerate(np.unique(y)):
        if i % 2:
            continue
        t = t + c * x
    return t


def _enum_else(y, x, log):
    for i, c in enumerate(np.unique(y)):
        if c == 5:
            log.append(i)
            break
    else:
        log.append("no five")
    return x * len(log)


def _enum_index_after(y, x, log):
    i = -1
    for i, c in enumerate(np.unique(y)):
        pass
    return i, x * (i + 1)


def _enum_unbound_after(y, x, log):
    for i, c in enumerate(np.unique(y)):
        x = x + c
    try:
        return i, x
    except UnboundLocalError as e:
        return str(e), x


def _enum_nested(y, x, log):
    t = x * 0
    u = np.unique(y)
    for i, c in enumerate(u):
        for j, d in enumerate(u[: i + 1]):
            t = t + c * d - j
    return t


def _enum_bound_first(y, x, log):
    e = enumerate(np.unique(y))
    t = x * 0
    for i, c in e:
        t = t + c
    return t, next(e, "done")


def _enum_log_each(y, x, log):
    for i, c in enumerate(np.unique(y)):
        log.append((i, int(c)))
    return x + len(log)


def _enum_raise_at(y, x, log):
    t = x * 0
    for i, c in enumerate(np.unique(y)):
        if i == 2:
            raise IndexError(f"trip {i} of class {c}")
        t = t + c
    return t


def _enum_positive(y, x, log):
    t = 0.0
    for i, v in enumerate(x[x > 1.5]):
        t = t + i * v
    return t


def _enum_counts(y, x, log):
    counts = np.bincount(np.abs(y)) if y.size else np.zeros(0, dtype=np.int64)
    t = x * 0
    for i, c in enumerate(counts):
        t = t + i * c
    return t


def _enum_rows(y, x, log):
    rows = np.unique(np.stack([y, y % 2], axis=1), axis=0) if y.size else \
        np.zeros((0, 2), dtype=np.int64)
    t = x * 0
    for i, row in enumerate(rows):
        t = t + row[0] - row[1] * i
    return t


def _enum_return_inside(y, x, log):
    for i, c in enumerate(np.unique(y)):
        if c > 2:
            return i, c
    return None


def _enum_write_array(y, x, log):
    u = np.unique(y)
    for i, c in enumerate(u):
        u[i] = c * 2
    return u


def _enum_chain_inside(y, x, log):
    t = 0
    n = len(np.unique(y))
    for i, c in enumerate(np.unique(y)):
        if 0 < i < n - 1:
            t = t + c
    return t


def _enum_zip(y, x, log):
    t = x * 0
    for i, (c, v) in enumerate(zip(np.unique(y), x)):
        t = t + c * v + i
    return t


def _enum_dtype_changes(y, x, log):
    t = 0
    for i, c in enumerate(np.unique(y)):
        t = t + c / 2 if i else t + c
    return t


ENUMS = (_enum_sum, _enum_start, _enum_start_kw_neg, _enum_break, _enum_continue,
         _enum_else, _enum_index_after, _enum_unbound_after, _enum_nested,
         _enum_bound_first, _enum_log_each, _enum_raise_at, _enum_positive, _enum_counts,
         _enum_rows, _enum_return_inside, _enum_write_array, _enum_chain_inside,
         _enum_zip, _enum_dtype_changes)

for _fn in ENUMS:
    reg.case(_fn, *LABELS, calls=2)
