"""Round 12, ``while`` loops whose test is an array test and a counter test joined by
``or``/``and`` (``dynamo/translator/or_counter_tests.py``: the ``while_loop`` node that
runs at least ``m`` trips), and counted loops near them: counters that never reach
their bound, that step past it or away from it, bounds that are arguments (symbolic
after a second value), NumPy-int, float and bool counters, NaN array tests (never
true), tests that raise or warn, counters read after the loop, in ``else:`` and in
``except``, a body that changes the bound or the counter twice, and ``and`` (the
counter limiting the trips).

    >>> def _or_min(x, tol, m):
    ...     it = 0
    ...     while np.abs(x).max() > tol or it < m:
    ...         x = x * 0.5
    ...         it += 1
    ...     return x, it
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round12_counters")
case = reg.case
scenario = reg.scenario

X = np.array([4.0, -2.0, 1.0])
NANX = np.array([np.nan, 1.0])
BIG = np.array([1e300, -1e300])
I8 = np.array([100, -100], np.int8)


def _or_min(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 1
    return x, it


case(_or_min, (X, 1.0, 3), (X, 1.0, 10), (X, 100.0, 0), (X, 100.0, 2), (NANX, 1.0, 4),
     (X, 1.0, -5), (np.zeros(1), 0.0, 2), (X, 1.0, 2 ** 40 - 2 ** 40 + 7))


def _or_min_literal(x, tol):
    it = 0
    while np.abs(x).max() > tol or it < 5:
        x = x * 0.5
        it += 1
    return x, it


case(_or_min_literal, (X, 1.0), (X, 1e-3), (NANX, 0.0), (np.array([1e300]), 1.0))


def _or_counter_first(x, tol, m):
    it = 0
    while it < m or np.abs(x).max() > tol:
        x = x * 0.5
        it += 1
    return x, it


case(_or_counter_first, (X, 1.0, 3), (X, 1e-2, 1), (NANX, 1.0, 2), (X, 10.0, 0))


def _and_limit(x, tol, m):
    it = 0
    while np.abs(x).max() > tol and it < m:
        x = x * 0.5
        it += 1
    return x, it


case(_and_limit, (X, 1.0, 3), (X, 1e-9, 5), (NANX, 0.0, 4), (X, 100.0, 3),
     (X, 1e-9, 0), (X, 1e-9, -1))


def _and_counter_first(x, tol, m):
    it = 0
    while it < m and np.abs(x).max() > tol:
        x = x * 0.5
        it += 1
    return x, it


case(_and_counter_first, (X, 1.0, 3), (X, 1e-9, 5), (NANX, 0.0, 4))


def _or_countdown(x, tol, left):
    while np.abs(x).max() > tol or left > 2:
        x = x * 0.5 - 0.0
        left -= 1
    return x, left


case(_or_countdown, (X, 10.0, 5), (X, 0.5, 5), (X, 10.0, 0), (NANX, 0.0, 4))


def _or_never_spent(x, tol):
    it = 0
    while np.abs(x).max() > tol or it != 5:
        x = x * 0.5
        it += 1
        if it > 50:
            break
    return x, it


case(_or_never_spent, (X, 1.0), (X, 1e-6), (NANX, 0.0))


def _or_step_away(x, tol):
    it = 0
    while np.abs(x).max() > tol or it > -3:
        x = x * 0.5
        it -= 1
        if it < -40:
            break
    return x, it


case(_or_step_away, (X, 1.0), (X, 1e-9))


def _or_step_twice(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 1
        it += 1
    return x, it


case(_or_step_twice, (X, 1.0, 3), (X, 1.0, 8), (X, 1e-3, 0))


def _or_bound_moved(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 1
        m -= 1
    return x, it, m


case(_or_bound_moved, (X, 1.0, 6), (X, 1e-3, 2))


def _or_counter_in_body_math(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5 + it
        it += 1
    return x, it


case(_or_counter_in_body_math, (X, 100.0, 3), (X, 100.0, 1))


def _or_float_counter(x, tol, m):
    it = 0.0
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 0.5
    return x, it


case(_or_float_counter, (X, 1.0, 3), (X, 1.0, 2.5), (X, 1.0, float("nan")))


def _or_numpy_counter(x, tol, m):
    it = np.int8(120)
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += np.int8(1)
    return x, it


case(_or_numpy_counter, (X, 1.0, 124), (X, 1e-3, 121))


def _or_bool_counter(x, tol):
    it = False
    while np.abs(x).max() > tol or it < 1:
        x = x * 0.5
        it = it + 1
    return x, it


case(_or_bool_counter, (X, 1.0), (X, 100.0))


def _or_counter_after(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 1
    return np.zeros(it), x[:it]


case(_or_counter_after, (X, 1.0, 2), (X, 1e-3, 1), (X, 100.0, 0))


def _or_else(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 1
        if it > 100:
            break
    else:
        return "else", it, x
    return "break", it, x


case(_or_else, (X, 1.0, 3), (X, 0.0, 2), (NANX, 0.0, 1))


def _or_raise_mid(x, tol, m, log):
    it = 0
    try:
        while np.abs(x).max() > tol or it < m:
            x = x * 0.5
            it += 1
            log.append(it)
            if it == 3:
                raise ValueError(it)
    except ValueError as e:
        return "caught", e.args, it
    return x, it


case(_or_raise_mid, (X, 1.0, 2, []), (X, 1e-9, 1, []), (X, 100.0, 5, []),
     (X, 100.0, 0, []))


def _or_warns(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        x = x * 1e200
        x = x / (x - x)
        it += 1
        if it > 3:
            break
    return x, it


case(_or_warns, (X, 1.0, 2), (BIG, 1.0, 1), (np.zeros(2), -1.0, 1))


def _or_raise_state(x, tol, m):
    it = 0
    with np.errstate(over="raise"):
        try:
            while np.abs(x).max() > tol or it < m:
                x = x * 1e200
                it += 1
        except FloatingPointError as e:
            return str(e), it
    return x, it


case(_or_raise_state, (X, 1e400, 3), (X, 1e400, 1), (BIG, 1e400, 1))


def _or_int_array(x, m):
    it = 0
    while x.max() > 0 or it < m:
        x = x - np.int8(50)
        it += 1
        if it > 20:
            break
    return x, it


case(_or_int_array, (I8, 2), (I8, 6), (np.array([-1], np.int8), 3))


def _or_empty_test(x, m):
    it = 0
    while (x > 0).any() or it < m:
        x = x - 1.0
        it += 1
    return x, it


case(_or_empty_test, (np.zeros(0), 3), (X, 1), (np.zeros(0), 0))


def _or_three_terms(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m or it == 0:
        x = x * 0.5
        it += 1
    return x, it


case(_or_three_terms, (X, 1.0, 2), (X, 100.0, 0))


def _or_not(x, tol, m):
    it = 0
    while not (np.abs(x).max() <= tol) or it < m:
        x = x * 0.5
        it += 1
    return x, it


case(_or_not, (X, 1.0, 3), (X, 1e-3, 2))


def _or_walrus(x, tol, m):
    it = 0
    while (err := np.abs(x).max()) > tol or it < m:
        x = x * 0.5
        it += 1
    return x, it, err


case(_or_walrus, (X, 1.0, 3), (X, 1e-3, 0))


def _or_counter_attr(x, tol, m):
    class C:
        it = 0
    c = C()
    while np.abs(x).max() > tol or c.it < m:
        x = x * 0.5
        c.it += 1
    return x, c.it


case(_or_counter_attr, (X, 1.0, 3), (X, 100.0, 2))


def _or_counter_list(x, tol, m, log):
    while np.abs(x).max() > tol or len(log) < m:
        x = x * 0.5
        log.append(float(x[0]))
    return x


case(_or_counter_list, (X, 1.0, 3, []), (X, 100.0, 2, [0.0]), (X, 1.0, 0, []))


def _or_global_bound(x, tol):
    it = 0
    while np.abs(x).max() > tol or it < LIMIT:
        x = x * 0.5
        it += 1
    return x, it


LIMIT = 3


def _set_limit(k):
    global LIMIT
    LIMIT = 3 + k


case(_or_global_bound, (X, 1.0), (X, 100.0), setup=lambda: _set_limit(0),
     between=_set_limit)


def _or_bound_huge(x, tol, m):
    it = 2 ** 63 - 3
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 1
    return x, it


case(_or_bound_huge, (X, 1.0, 2 ** 63), (X, 1.0, 2 ** 63 + 2), (X, 100.0, 2 ** 63 - 3))


def _or_symbolic_sizes(x, tol):
    it = 0
    n = x.shape[0]
    while np.abs(x).max() > tol or it < n:
        x = x * 0.5
        it += 1
    return x, it


case(_or_symbolic_sizes, (np.ones(3), 1.0), (np.ones(11), 1.0), (np.ones(2), 1.0),
     (np.ones(0) + 1, 1.0), (np.full(5, 100.0), 1.0))


def _or_len_quotient(x, tol):
    it = 0
    while np.abs(x).max() > tol or it < len(x) // 2:
        x = x * 0.5
        it += 1
    return x, it


case(_or_len_quotient, (np.ones(3), 1.0), (np.ones(11), 1.0), (np.ones(10), 1.0),
     (np.ones(1), 1.0))


def _or_in_function_twice(x, tol):
    return _or_min(x, tol, 2), _or_min(x * 4, tol, 1)


case(_or_in_function_twice, (X, 1.0), (NANX, 1.0))


def _or_print(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        print("trip", it)
        x = x * 0.5
        it += 1
    return x


case(_or_print, (X, 1.0, 3), (X, 100.0, 1))


def _while_true_counter(x, m):
    it = 0
    while True:
        x = x + 1
        it += 1
        if it >= m or x.sum() > 100:
            break
    return x, it


case(_while_true_counter, (X, 3), (X, 0), (X, 1000), (NANX, 4))


def _counter_never_reaches(x, m):
    it = 10
    while it < m:
        x = x * 2
        it += 1
    return x, it


case(_counter_never_reaches, (X, 5), (X, 12), (X, -3))


def _counter_nan_bound(x, m):
    it = 0
    while it < m:
        x = x * 2
        it += 1
    return x, it


case(_counter_nan_bound, (X, float("nan")), (X, 2.5), (X, float("inf") * 0))


def _and_or_mixed(x, tol, m, k):
    it = 0
    while (np.abs(x).max() > tol or it < m) and it < k:
        x = x * 0.5
        it += 1
    return x, it


case(_and_or_mixed, (X, 1.0, 3, 10), (X, 1e-9, 1, 4), (X, 100.0, 2, 1))


def _or_test_is_python_float(x, tol, m):
    it = 0
    err = float(np.abs(x).max())
    while err > tol or it < m:
        x = x * 0.5
        err = float(np.abs(x).max())
        it += 1
    return x, it


case(_or_test_is_python_float, (X, 1.0, 3), (NANX, 1.0, 2), (X, 1e-3, 0))


def _or_nan_every_trip(x, m):
    it = 0
    while np.nanmax(x) > np.inf or it < m:
        x = x + np.nan
        it += 1
    return x, it


case(_or_nan_every_trip, (X, 3), (X, 0))


def _or_countdown_to_zero(x, tol, k):
    while np.abs(x).max() > tol or k:
        x = x * 0.5
        k -= 1
        if k < -50:
            break
    return x, k


case(_or_countdown_to_zero, (X, 1.0, 3), (X, 1.0, 0), (X, 1.0, -1))


def _or_break_at_k(x, tol, m, k):
    it = 0
    while np.abs(x).max() > tol or it < m:
        if it == k:
            break
        x = x * 0.5
        it += 1
    return x, it


case(_or_break_at_k, (X, 1.0, 5, 2), (X, 1e-3, 1, 4), (X, 100.0, 3, 0), (X, 1.0, 3, -1))


def _or_continue(x, tol, m):
    it = 0
    while np.abs(x).max() > tol or it < m:
        it += 1
        if it % 2:
            continue
        x = x * 0.25
    return x, it


case(_or_continue, (X, 1.0, 3), (X, 100.0, 4))


def _or_start_arg(x, tol, start):
    it = start
    while np.abs(x).max() > tol or it < 5:
        x = x * 0.5
        it += 1
    return x, it


case(_or_start_arg, (X, 1.0, 0), (X, 1.0, 3), (X, 1.0, 7), (X, 1e-3, -2), (X, 1.0, 5))


def _or_step_arg(x, tol, step):
    it = 0
    while np.abs(x).max() > tol or it < 6:
        x = x * 0.5
        it += step
        if it < -20:
            break
    return x, it


case(_or_step_arg, (X, 1.0, 1), (X, 1.0, 2), (X, 1.0, 4), (X, 1.0, 7), (X, 1.0, -1))


def _or_both_symbolic(x, tol, start, m):
    it = start
    while np.abs(x).max() > tol or it < m:
        x = x * 0.5
        it += 1
    return x, it


case(_or_both_symbolic, (X, 1.0, 0, 4), (X, 1.0, 2, 9), (X, 1.0, 5, 3), (X, 1.0, -3, -1),
     (X, 1e-2, 1, 2))
