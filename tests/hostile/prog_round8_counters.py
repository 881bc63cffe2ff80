"""Round 8, counted while loops (``dynamo/translator/while_counters.py``, docs/loops.md
"Python int counters" and ``while True: ...; if <test>: break``): float counters,
counters changed twice per trip, steps of 0 and negative steps, a bound changed in the
body, NaN tests, the counter read after the loop, in ``else:`` and in an ``except``,
counters that are bools or NumPy ints, tests in the other order, two counters."""

import numpy as np
from hostile_check import Programs

reg = Programs("round8_counters")
case, scenario = reg.case, reg.scenario

A = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
B = np.array([1.0, 2.0, 3.0])
BN = np.array([1.0, np.nan, 3.0])
V = np.array([4.0, 9.0, 2.0, 0.25])
VN = np.array([4.0, np.nan, 2.0, 0.25])


def _richardson(A, b, tol, maxit):
    x = np.zeros_like(b)
    nb = np.linalg.norm(b)
    it = 0
    r = b - A @ x
    while np.linalg.norm(r) / nb > tol and it < maxit:
        x = x + 0.1 * r
        r = b - A @ x
        it += 1
    return x, it


case(_richardson, (A, B, 1e-8, 500), (A, B, 1e-8, 5), (A, BN, 1e-8, 50), (A, B, 1e-8, 0))


def _float_counter(A, b, tol):
    x = np.zeros_like(b)
    it = 0.0
    r = b - A @ x
    while np.linalg.norm(r) > tol and it < 40.5:
        x = x + 0.1 * r
        r = b - A @ x
        it += 1.0
    return x, it, type(it).__name__


case(_float_counter, (A, B, 1e-6), (A, B, 1e-1))


def _float_step_counter(A, b, tol):
    x = np.zeros_like(b)
    it = 0
    r = b - A @ x
    while np.linalg.norm(r) > tol and it < 10:
        x = x + 0.1 * r
        r = b - A @ x
        it += 0.25
    return x, it


case(_float_step_counter, (A, B, 1e-6), (A, B, 1e-1))


def _counter_stepped_twice(A, b, tol, maxit):
    x = np.zeros_like(b)
    it = 0
    r = b - A @ x
    while np.linalg.norm(r) > tol and it < maxit:
        it += 1
        x = x + 0.1 * r
        r = b - A @ x
        it += 2
    return x, it


case(_counter_stepped_twice, (A, B, 1e-8, 100), (A, B, 1e-8, 10), (A, B, 1e-8, 11))


def _counter_step_zero(x, tol):
    it = 0
    step = 0
    s = x.sum()
    while s > tol and it < 5:
        s = s * 0.5
        it += step
    return s, it


case(_counter_step_zero, (V, 1.0), (V, 100.0))


def _counter_negative_step(x, tol):
    left = 12
    s = x.sum()
    while s > tol and left > 0:
        s = s * 0.5
        left -= 1
    return s, left


case(_counter_negative_step, (V, 1e-9), (V, 1.0), (VN, 1.0))


def _counter_negative_step_two(x, tol):
    left = 11
    s = x.sum()
    while s > tol and left >= 0:
        s = s * 0.7
        left = left - 2
    return s, left


case(_counter_negative_step_two, (V, 1e-9), (V, 3.0))


def _counter_moves_away(x, tol):
    # the counter never reaches the bound: only the test ends it
    it = 0
    s = x.sum()
    while s > tol and it < 100:
        s = s * 0.5
        it -= 1
    return s, it


case(_counter_moves_away, (V, 1e-3), (V, 1e-300))


def _bound_changed_in_body(x, tol):
    it = 0
    maxit = 50
    s = x.sum()
    while s > tol and it < maxit:
        s = s * 0.9
        it += 1
        maxit = maxit - 2
    return s, it, maxit


case(_bound_changed_in_body, (V, 1e-9), (V, 10.0))


def _bound_is_array_element(x, tol, bounds):
    it = 0
    s = x.sum()
    while s > tol and it < bounds[0]:
        s = s * 0.9
        it += 1
        bounds[0] = bounds[0] - 1
    return s, it, bounds


case(_bound_is_array_element, (V, 1e-9, [40]), (V, 1e-9, [3]))


def _nan_test_ends_loop(x, tol):
    it = 0
    err = np.abs(x).max()
    while err > tol and it < 100:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return x, err, it


case(_nan_test_ends_loop, (V, 1e-3), (VN, 1e-3), (np.array([np.inf, 1.0]), 1e-3))


def _nan_not_less(x, tol):
    it = 0
    err = np.abs(x).max()
    while not (err < tol) and it < 30:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return x, err, it


case(_nan_not_less, (V, 1e-3), (VN, 1e-3))


def _counter_in_else(x, tol, maxit):
    it = 0
    s = x.sum()
    while s > tol and it < maxit:
        s = s * 0.5
        it += 1
    else:
        return "else", s, it
    return "never", s, it


case(_counter_in_else, (V, 1e-3, 100), (V, 1e-3, 3))


def _counter_after_loop_compare(x, tol, maxit):
    it = 0
    s = x.sum()
    while s > tol and it < maxit:
        s = s * 0.5
        it += 1
    if it == maxit:
        return "not converged", s, it
    return "converged", s, it


case(_counter_after_loop_compare, (V, 1e-3, 100), (V, 1e-3, 4), (VN, 1e-3, 9))


def _counter_printed_after(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 60:
        s = s * 0.5
        it += 1
    print("iterations:", it, "residual:", float(s))
    return s


case(_counter_printed_after, (V, 1e-3), (V, 100.0))


def _counter_used_in_array_after(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 60:
        s = s * 0.5
        it += 1
    return np.arange(it), x * it, s


case(_counter_used_in_array_after, (V, 1e-3), (V, 100.0))


def _counter_starts_negative(x, tol):
    it = -5
    s = x.sum()
    while s > tol and it <= 5:
        s = s * 0.6
        it += 1
    return s, it


case(_counter_starts_negative, (V, 1e-9), (V, 2.0))


def _counter_starts_at_bound(x, tol):
    it = 10
    s = x.sum()
    while s > tol and it < 10:
        s = s * 0.6
        it += 1
    return s, it


case(_counter_starts_at_bound, (V, 1e-9))


def _counter_not_equal_bound_skipped(x, tol):
    # steps of 3 jump over 10: the != test never ends it, the array test does
    it = 0
    s = x.sum()
    while s > tol and it != 10:
        s = s * 0.5
        it += 3
    return s, it


case(_counter_not_equal_bound_skipped, (V, 1e-3), (V, 1e-300))


def _counter_equal_bound(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it == 0:
        s = s * 0.5
        it += 1
    return s, it


case(_counter_equal_bound, (V, 1e-3))


def _counter_huge_step(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 2 ** 70:
        s = s * 0.5
        it += 2 ** 64
    return s, it


case(_counter_huge_step, (V, 1e-3), (V, 1e-300))


def _counter_bool(x, tol):
    it = False
    s = x.sum()
    while s > tol and it < 5:
        s = s * 0.5
        it += True
    return s, it, type(it).__name__


case(_counter_bool, (V, 1e-3), (V, 1e3))


def _counter_numpy_int(x, tol):
    it = np.int64(0)
    s = x.sum()
    while s > tol and it < 50:
        s = s * 0.5
        it += 1
    return s, it, type(it).__name__


case(_counter_numpy_int, (V, 1e-3))


def _counter_int8_wraps(x, tol):
    it = np.int8(120)
    s = x.sum()
    while s > tol and it > 0:
        s = s * 0.9
        it += np.int8(3)
    return s, it


case(_counter_int8_wraps, (V, 1e-9))


def _counter_tested_first(x, tol):
    it = 0
    s = x.sum()
    while it < 40 and s > tol:
        s = np.log(s)
        it += 1
    return s, it


case(_counter_tested_first, (V, 0.5))


def _two_counters(x, tol):
    it = 0
    work = 0
    s = x.sum()
    while s > tol and it < 30:
        s = s * 0.5
        it += 1
        work += 3
    return s, it, work


case(_two_counters, (V, 1e-3), (V, 1e-12))


def _counter_read_in_body(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 30:
        s = s * 0.5 + 0.001 * it
        it += 1
    return s, it


case(_counter_read_in_body, (V, 1e-1))


def _counter_in_except(x, tol):
    it = 0
    s = x.sum()
    try:
        while s > tol and it < 30:
            s = s * 0.5
            it += 1
            if it > 6:
                raise RuntimeError(f"stop at {it}")
    except RuntimeError as e:
        return "raised", str(e), it, s
    return s, it


case(_counter_in_except, (V, 1e-3), (V, 1.0))


def _while_true_break(x, tol):
    y = x.copy()
    it = 0
    while True:
        y = 0.5 * (y + x / y)
        it += 1
        if np.abs(y * y - x).max() < tol:
            break
    return y, it


case(_while_true_break, (V, 1e-10), (np.array([1.0, 2.0]), 1e-3))


def _while_true_break_nan(x, tol):
    y = x.copy()
    it = 0
    while True:
        y = y * 0.5
        it += 1
        if np.abs(y).max() < tol:
            break
        if it > 40:
            break
    return y, it


case(_while_true_break_nan, (V, 1e-3), (VN, 1e-3))


def _while_true_break_counter_bound(x, tol):
    y = x.copy()
    it = 0
    while True:
        y = y * 0.5
        it += 1
        if np.abs(y).max() < tol or it >= 25:
            break
    return y, it


case(_while_true_break_counter_bound, (V, 1e-3), (VN, 1e-3), (V, 1e-300))


def _while_true_break_warns(x):
    y = x.copy()
    it = 0
    while True:
        y = np.log(y) - 1.0
        it += 1
        if not (y.max() > -5.0):
            break
    return y, it


case(_while_true_break_warns, (V,), (np.array([1.0, 0.5]),))


def _while_true_break_raises(x):
    y = x.copy()
    it = 0
    try:
        while True:
            y = np.linalg.inv(y) * 2.0 - np.eye(2)
            it += 1
            if np.abs(y).max() > 1e12 or np.abs(y + 2.0 * np.eye(2)).max() < 1e-9:
                break
    except np.linalg.LinAlgError as e:
        return "singular", str(e), it
    return y, it


case(_while_true_break_raises, (np.array([[2.0, 0.0], [0.0, 2.0]]),),
     (np.array([[4.0, 1.0], [1.0, 3.0]]),))


def _while_counter_mutates_list(x, tol, log):
    it = 0
    s = x.sum()
    while s > tol and it < 20:
        s = s * 0.5
        it += 1
    log.append(it)
    return s


case(_while_counter_mutates_list, (V, 1e-3, []), (V, 100.0, [1]))


def _counter_swaps_arrays(x, tol):
    a, b = x.copy(), x * 2.0
    it = 0
    while np.abs(a - b).max() > tol and it < 50:
        a, b = b, (a + b) * 0.5
        it += 1
    return a, b, it


case(_counter_swaps_arrays, (V, 1e-6), (V, 10.0))


def _counter_le_bound_symbolic(x, tol, maxit):
    it = 1
    s = x.sum()
    while s > tol and it <= maxit:
        s = s * 0.8
        it += 1
    return s, it


case(_counter_le_bound_symbolic, (V, 1e-9, 64), (V, 1e-9, 3), (V, 1e-9, 7), (V, 1e-9, 0),
     (V, 1e-9, -4))


def _counter_step_argument(x, tol, step):
    it = 0
    s = x.sum()
    while s > tol and it < 30:
        s = s * 0.8
        it += step
    return s, it


case(_counter_step_argument, (V, 1e-9, 1), (V, 1e-9, 7), (V, 1e-9, 0), (V, 1e-9, -1))


def _counter_global_bound(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < MAXIT:
        s = s * 0.5
        it += 1
    return s, it


MAXIT = 12


def _set_maxit(k):
    global MAXIT
    MAXIT = 12 if k < 2 else 4


case(_counter_global_bound, (V, 1e-9), calls=4, setup=lambda: _set_maxit(0),
     between=_set_maxit)


def _counter_float_tol_nan(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 25:
        s = s * 0.5
        it += 1
    return s, it


case(_counter_float_tol_nan, (V, float("nan")), (V, float("-inf")), (V, 1e-3))


def _counter_deleted_after(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 25:
        s = s * 0.5
        it += 1
    del it
    try:
        return s, it  # noqa: F821
    except UnboundLocalError as e:
        return s, type(e).__name__


case(_counter_deleted_after, (V, 1e-3))


def _counter_indexes_after(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 3:
        s = s * 0.5
        it += 1
    return x[it], x[:it], np.zeros(it)


case(_counter_indexes_after, (V, 1e-3), (V, 10.0), (V, 100.0))


def _counter_drives_next_loop(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < 40:
        s = s * 0.5
        it += 1
    acc = x.copy()
    for _ in range(it):
        acc = acc * 0.9
    return acc, it


case(_counter_drives_next_loop, (V, 1e-3), (V, 1.0), (VN, 1.0))


def _while_inside_for(x, tol):
    out = []
    for row in range(3):
        it = 0
        s = x.sum() * (row + 1)
        while s > tol and it < 50:
            s = s * 0.5
            it += 1
        out.append(it)
    return out


case(_while_inside_for, (V, 1e-3), (VN, 1e-3))


def _counter_step_from_array_shape(x, tol):
    it = 0
    step = x.shape[0]
    s = x.sum()
    while s > tol and it < 100:
        s = s * 0.5
        it += step
    return s, it


case(_counter_step_from_array_shape, (V, 1e-3), (V[:3], 1e-3), (np.ones(1), 1e-3))


def _counter_compared_to_shape(x, tol):
    it = 0
    s = x.sum()
    while s > tol and it < x.shape[0] * 3:
        s = s * 0.5
        it += 1
    return s, it


case(_counter_compared_to_shape, (V, 1e-9), (V[:2], 1e-9), (np.ones(0), -1.0))
