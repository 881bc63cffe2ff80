"""Round 40, stepped inner ranges whose bounds read something that looks like a loop
node's index (the category of ``prog_round40_loops_steps.py``; d28de40:
``iterators._follows_loop_indices`` reads the loop scope's ``index_symbols()``): the
index rebound in the body before the inner loop (``i = n - 1 - i``), a copy of it
plus one, a counter stepped by 2 on each trip, ``enumerate``'s count, a middle loop
between the index's loop and the stepped one (three levels), the stale index of a loop
that already ended, an outer loop counting down or stepping itself, a ``while``
counter. Sizes 11, 10, 13 (nodes) and 2, 0, 1.

    >>> def _rebound(x, y):
    ...     n = x.shape[0]
    ...     for i in range(n):
    ...         i = n - 1 - i                 # no longer the node's index as it runs
    ...         for j in range(i, n, 2):
    ...             y[i] = y[i] + x[j]
    ...     return y
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round40_loops")
SIZES = (11, 10, 2, 13, 0, 11, 1)


def _v(n, seed=5):
    return np.random.default_rng(seed + n).random(n) * 4 - 1


def _sized(fn, sizes=SIZES):
    reg.case(fn, *[(lambda n=n: (_v(n), np.zeros(n))) for n in sizes], calls=1,
             name=fn.__name__.removeprefix("_"))


def _rebound(x, y):
    n = x.shape[0]
    for i in range(n):
        i = n - 1 - i
        for j in range(i, n, 2):
            y[i] = y[i] + x[j]
    return y


def _copy_plus_one(x, y):
    n = x.shape[0]
    for i in range(n):
        t = i + 1
        for j in range(t, n, 3):
            y[i] = y[i] + x[j] * t
    return y


def _counter_bound(x, y):
    n = x.shape[0]
    c = 0
    for i in range(n):
        c += 2
        for j in range(0, min(c, n), 2):
            y[i] = y[i] + x[j]
    return y, c


def _enumerated(x, y):
    n = x.shape[0]
    for t, v in enumerate(x):
        for j in range(t, n, 2):
            y[t] = y[t] + v * x[j]
    return y


def _three_levels(x, y):
    n = x.shape[0]
    for i in range(n):
        for k in range(2):
            for j in range(i, n, 3):
                y[i] = y[i] + x[j] * (k + 1)
    return y


def _stale_index(x, y):
    n = x.shape[0]
    i = 0
    for i in range(n // 2):
        y[i] = x[i]
    for m in range(n):
        for j in range(i, n, 2):            # i: the last index of the loop above
            y[m] = y[m] + x[j]
    return y


def _outer_down(x, y):
    n = x.shape[0]
    for i in range(n - 1, -1, -1):
        for j in range(i, n, 2):
            y[i] = y[i] + x[j]
    return y


def _outer_stepped(x, y):
    n = x.shape[0]
    for i in range(0, n, 2):
        for j in range(i, n, 3):
            y[i] = y[i] + x[j]
    return y


def _while_counter(x, y):
    n = x.shape[0]
    i = 0
    while i < n:
        for j in range(i, n, 2):
            y[i] = y[i] + x[j]
        i += 1
    return y


def _index_swapped(x, y):
    n = x.shape[0]
    for i in range(n):
        for j in range(0, i, 2):
            i, j = j, i                     # the names swap mid-body
            y[i] = y[i] + x[j]
    return y


def _bound_and_read(x, y):
    n = x.shape[0]
    for i in range(1, n):
        for j in range(n - 1, i - 1, -3):
            y[j] = y[j] + x[i] * x[j - i]
    return y


for _fn in (_rebound, _copy_plus_one, _counter_bound, _enumerated, _three_levels,
            _stale_index, _outer_down, _outer_stepped, _while_counter, _index_swapped,
            _bound_and_read):
    _sized(_fn)


# ------------------------------------------------------------- the outer bound an argument
# The array's size stays; the outer (and so the inner) trip counts come from ``m``,
# which changes between calls across multiples of the step: one entry for all of them
# once ``m`` is symbolic, whose counts must follow ``m`` (or its guard fail).
def _bound_arg(x, y, m):
    for i in range(m):
        for j in range(i, m, 3):
            y[i] = y[i] + x[j + 1]            # x[14] of 14 only at m = 14
    return y


def _bound_arg_back(x, y, m):
    for i in range(m):
        for j in range(m - 1, i, -3):
            y[i] = y[i] + x[j - 3] * j        # x[-2], x[-1] wrap: eager's values
    return y


def _bound_arg_caught(x, y, m):
    try:
        return _bound_arg(x, y, m)
    except IndexError as e:
        return str(e), y


def _bound_arg_count(x, y, m):
    out = []
    for i in range(m):
        c = 0
        for j in range(0, i, 3):
            c += 1
            y[i] = y[i] + x[j]
        out.append(c)
    return y, out


_MS = (9, 10, 11, 12, 13, 14, 12, 9)
for _fn in (_bound_arg, _bound_arg_back, _bound_arg_caught, _bound_arg_count):
    reg.case(_fn, *[(lambda m=m: (_v(14), np.zeros(14), m)) for m in _MS], calls=1)
