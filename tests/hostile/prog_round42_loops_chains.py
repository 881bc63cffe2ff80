"""Round 42, short circuits and carried ints in loop nodes (``short_circuit.py``,
``carried_ints.py``, ``carried_choices.py``, ``translator/size_chains.py``): chained
comparisons of data ``lo <= x[i] < hi`` with NaN data and NaN / inf / crossed bounds,
``and`` / ``or`` chains whose second operand raises (an index past the end, a division
by zero), warns (``np.log`` of a negative) or has a side effect (an append, a print),
counters carried across ``break`` and ``continue``, ints that become sizes after the
loop, int8 data against bounds out of its range, ``A, B = B, A`` of carried ints.

    >>> def _in_range(x, lo, hi):
    ...     count = 0
    ...     for i in range(len(x)):
    ...         if lo <= x[i] < hi:
    ...             count += 1
    ...     return count
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round42_loops")
NAN, INF = float("nan"), float("inf")
LOG = []


def _data(n, seed=9, specials=(NAN, -0.0, INF, 0.0, -INF)):
    x = np.random.default_rng(seed + n).random(n) * 4 - 2
    for k, s in enumerate(specials):
        if 3 * k + 1 < n:
            x[3 * k + 1] = s
    return x


def _bounds(fn, *bounds, sizes=(12, 0, 1, 16)):
    sets = [(lambda b=b: (_data(sizes[0]), *b)) for b in bounds]
    sets += [(lambda n=n: (_data(n), *bounds[0])) for n in sizes[1:]]
    reg.case(fn, *sets, calls=1)


def _sized(fn, make=None, sizes=(12, 0, 1, 2, 16, 12), name=None):
    make = make or (lambda n: (_data(n),))
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


def _in_range(x, lo, hi):
    count = 0
    for i in range(len(x)):
        if lo <= x[i] < hi:
            count += 1
    return count


def _in_range_sum(x, lo, hi):
    s, count = 0.0, 0
    for i in range(len(x)):
        if lo < x[i] <= hi:
            s = s + x[i]
            count += 1
    return s, count


def _three_link(x, lo, hi):
    count = 0
    for i in range(len(x)):
        if lo <= x[i] <= hi <= 1.5:
            count += 1
    return count


def _chain_write(x, lo, hi):
    y = x.copy()
    for i in range(len(y)):
        if lo <= y[i] < hi:
            y[i] = 0.0
    return y


def _and_next_past_end(x):
    """``x[i + 1]`` is read only where ``x[i] > 0``; at the last trip it is past the
    end (IndexError where the last element is positive)."""
    count = 0
    for i in range(len(x)):
        if x[i] > 0 and x[i + 1] > 0:
            count += 1
    return count


def _or_next_past_end(x):
    count = 0
    for i in range(len(x)):
        if x[i] <= 100 or x[i + 1] > 0:
            count += 1
    return count


def _and_divides(x):
    count = 0
    for i in range(len(x)):
        if x[i] != 0 and 1.0 / x[i] > 1.0:
            count += 1
    return count


def _and_log(x):
    """``np.log`` runs only on positives: no warning from the others."""
    count = 0
    for i in range(len(x)):
        if x[i] > 0 and np.log(x[i]) < 0.5:
            count += 1
    return count


def _or_log(x):
    count = 0
    for i in range(len(x)):
        if x[i] <= 0 or np.log(x[i]) > 0.3:
            count += 1
    return count


def _and_sqrt_link(x):
    """The right link of the chain does arithmetic: ``sqrt`` of a negative warns in
    Python only where the first link held."""
    count = 0
    for i in range(len(x)):
        if -1.0 <= x[i] < np.sqrt(x[i] + 1.0):
            count += 1
    return count


def _and_append(x):
    LOG.clear()
    count = 0
    for i in range(len(x)):
        if x[i] > 0 and LOG.append(i) is None:
            count += 1
    return count, list(LOG)


def _and_print(x):
    count = 0
    for i in range(len(x)):
        if x[i] > 1 and print("big", i) is None:
            count += 1
    return count


def _or_raises(x):
    count = 0
    for i in range(len(x)):
        if x[i] == x[i] or int(x[i]) > 0:     # int(nan) raises where x[i] is NaN
            count += 1
    return count


def _count_break(x):
    count = 0
    for i in range(len(x)):
        if x[i] > 0:
            count += 1
        if x[i] < -1.5:
            break
    return count, i if len(x) else -1


def _count_continue(x):
    count, skipped = 0, 0
    for i in range(len(x)):
        if x[i] != x[i]:
            skipped += 1
            continue
        if x[i] > 0:
            count += 1
    return count, skipped


def _count_as_sizes(x):
    count = 0
    for i in range(len(x)):
        if -1 <= x[i] < 1:
            count += 1
    return np.ones(count), x[count:], np.arange(count * 2).reshape(count, 2), [0] * count


def _count_then_loop(x):
    count = 0
    for i in range(len(x)):
        if x[i] > 0:
            count += 1
    total = 0.0
    for j in range(count):
        total += x[j]
    return total, count


def _i8_bounds(a, lo, hi):
    count = 0
    for i in range(len(a)):
        if lo <= a[i] < hi:
            count += 1
    return count


def _i8(n):
    return np.random.default_rng(n).integers(-128, 128, n).astype(np.int8)


def _swap_counts(x):
    a, b = 0, 10
    for i in range(len(x)):
        if x[i] > 0:
            a, b = b, a + 1
    return a, b


def _count_read_by_next(x):
    """The carried count feeds the next trip's flag."""
    count = 0
    for i in range(len(x)):
        if x[i] > 0 or count < 2:
            count += 1
    return count


def _not_chain(x, lo, hi):
    count = 0
    for i in range(len(x)):
        if not (lo <= x[i] < hi):
            count += 1
    return count


def _two_counters_one_flag(x):
    pos, neg, zero = 0, 0, 0
    for i in range(len(x)):
        if x[i] > 0:
            pos += 1
        elif x[i] < 0:
            neg += 1
        else:
            zero += 1
    return pos, neg, zero


def _size_chain(x, lo, hi):
    kept = x[x > 0]
    if lo <= len(kept) <= hi:
        return kept.sum()
    return kept.mean() if len(kept) else -1.0


for _f in (_in_range, _in_range_sum, _three_link, _chain_write, _not_chain):
    _bounds(_f, (-1.0, 1.0), (NAN, 1.0), (-INF, INF), (1.0, -1.0), (0.0, 0.0))
_bounds(_size_chain, (1, 4), (0, 0), (5, 2), (3, 100))
for _f in (_and_next_past_end, _or_next_past_end, _and_divides, _and_log, _or_log,
           _and_sqrt_link, _and_append, _and_print, _or_raises, _count_break,
           _count_continue, _count_as_sizes, _count_then_loop, _swap_counts,
           _count_read_by_next, _two_counters_one_flag):
    _sized(_f)
_sized(_and_next_past_end, make=lambda n: (-np.abs(_data(n)) - 1.0,), name="and_next_never")
_sized(_or_raises, make=lambda n: (np.nan_to_num(_data(n)),), name="or_raises_never")
reg.case(_i8_bounds, *[(lambda lo=lo, hi=hi: (_i8(12), lo, hi))
                       for lo, hi in ((-10, 10), (-300, 300), (200, 300), (NAN, 5),
                                      (-128, 127))], calls=1)
