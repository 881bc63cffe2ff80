"""Loops whose exit the data decides (issue #19): ``while <0-d array test>:`` and
``for it in range(maxit): ...; if <0-d array test>: break``, as users write them
(solvers to a tolerance, Newton, power iteration, conjugate gradient, k-means,
bisection). Written before the ``while_loop`` node, as its differential corpus
(tests/translator/test_loop_while.py): each entry is (name, fn, args).

The programs keep their state in arrays (0-d ones for scalars) or Python ints;
a few count their trips in an array so that the count is checked too.
"""

from __future__ import annotations

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _spd(n, seed):
    a = _rng(seed).standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


def babylon_sqrt(x, tol):
    y = x.copy()
    err = np.abs(y * y - x).max()
    while err > tol:
        y = 0.5 * (y + x / y)
        err = np.abs(y * y - x).max()
    return y, err


def jacobi_to_tolerance(A, b, tol):
    d = np.diag(A)
    R = A - np.diag(d)
    x = np.zeros_like(b)
    r = np.linalg.norm(b - A @ x)
    while r > tol:
        x = (b - R @ x) / d
        r = np.linalg.norm(b - A @ x)
    return x


def newton_cube_root(a, tol):
    x = np.ones_like(a)
    step = np.full_like(a, 1.0)
    while np.abs(step).max() > tol:
        step = (x ** 3 - a) / (3.0 * x ** 2)
        x = x - step
    return x


def power_iteration(A, v, tol):
    lam = np.float64(0.0)
    delta = np.float64(1.0)
    while delta > tol:
        w = A @ v
        v = w / np.linalg.norm(w)
        new = v @ A @ v
        delta = np.abs(new - lam)
        lam = new
    return lam, v


def conjugate_gradient(A, b, tol):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs_old = r @ r
    rs_new = rs_old
    while rs_new > tol ** 2:
        Ap = A @ p
        alpha = rs_old / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs_old) * p
        rs_old = rs_new
    return x, r


def bisection_sqrt2(lo, hi, tol):
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        f = mid * mid - 2.0
        lo = np.where(f < 0, mid, lo)
        hi = np.where(f < 0, hi, mid)
    return lo, hi


def trip_count_in_array(x, tol):
    n = np.zeros((), np.int64)
    while np.abs(x).sum() > tol:
        x = x * 0.5
        n = n + 1
    return x, n


def in_place_decay(x, tol):
    while x.max() > tol:
        x *= 0.9
        x[0] += 0.0
    return x


def gauss_seidel_sweeps(A, b, tol):
    x = np.zeros_like(b)
    L = np.tril(A)
    U = A - L
    res = np.linalg.norm(A @ x - b)
    while res > tol:
        x = np.linalg.solve(L, b - U @ x)
        res = np.linalg.norm(A @ x - b)
    return x


def kmeans_until_still(x, centers, tol):
    shift = np.float64(np.inf)
    while shift > tol:
        d = ((x[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
        labels = d.argmin(1)
        new = np.stack([x[labels == k].mean(0) for k in range(3)])
        shift = np.abs(new - centers).max()
        centers = new
    return centers


def nan_stops_at_once(x):
    err = np.float64(np.nan)
    while err > 1e-3:              # NaN > tol is False: no trip, as in Python
        x = x * 0.5
        err = np.abs(x).max()
    return x


def truthy_float_test(x):
    r = x.sum()
    while r:                       # bool of a 0-d float: NaN is True
        x = np.floor(x * 0.5)
        r = x.sum()
    return x


def not_0d_test_raises(x):
    while x > 0.5:                 # a 3-element test: ValueError, as in Python
        x = x * 0.5
    return x


def warns_every_trip(x, tol):
    e = np.abs(x).max()
    while e > tol:
        x = x * 0.5 + np.log(np.float64(-1.0)) * 0.0   # NaN... then no trip
        e = np.abs(x).max()
    return x


def divide_warns_per_trip(x, tol):
    e = np.float64(1.0)
    while e > tol:
        y = np.float64(1.0) / (x - x)    # inf, a warning per trip
        x = x * 0.5
        e = np.abs(x).max() + 0.0 * np.isinf(y).sum()
    return x


def python_counter(x, tol):
    k = 0
    while np.abs(x).max() > tol:
        x = x * 0.5
        k += 1
    return x, k


def counter_and_test(x, tol, maxit):
    k = 0
    while np.abs(x).max() > tol and k < maxit:
        x = x * 0.5
        k += 1
    return x, k


def for_break_newton(a, tol):
    x = np.ones_like(a)
    for it in range(100):
        step = (x * x - a) / (2.0 * x)
        x = x - step
        if np.abs(step).max() < tol:
            break
    return x


def for_break_residual(A, b, tol):
    x = np.zeros_like(b)
    d = np.diag(A)
    for it in range(200):
        x = x + (b - A @ x) / d
        r = b - A @ x
        if np.abs(r).max() < tol:
            break
    return x, it


def for_break_exhausts(x, tol):
    for _ in range(12):            # the test never passes: the range ends the loop
        x = np.sqrt(x) + 1.0
        if np.abs(x - 2.0).max() < tol:
            break
    return x


def for_else_break(x, tol):
    for _ in range(40):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            break
    else:
        x = x + 100.0              # only where no break: stays a break
    return x


def for_break_mid_body(x, tol):
    for _ in range(40):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            break
        x = x + 0.01               # code after the test (loop_exits)
    return x


def for_break_reads_index(x, tol):
    for i in range(40):
        x = 0.5 * x + 0.0 * i      # the index is read: stays a break
        if np.abs(x).max() < tol:
            break
    return x


def for_break_nan_test(x):
    for _ in range(30):
        x = x - 1.0
        if np.sqrt(x).min() < 0.5:  # NaN once x < 0: nan < 0.5 is False, no break
            break
    return x


def for_break_index_after_step(x, tol):
    for k in range(3, 60, 3):      # k after the loop: the range's value at the last trip
        x = x * 0.7
        if np.abs(x).max() < tol:
            break
    return x, k


def for_break_index_tested_after(x, tol):
    for k in range(25):
        x = np.tanh(x) * 0.9
        if np.abs(x).sum() < tol:
            break
    if k == 24:                    # a comparison of the trip count: a break here
        print("not converged")
    return x, k + 1


def prints_after(x, tol):
    err = np.abs(x).max()
    while err > tol:
        x = x / 3.0
        err = np.abs(x).max()
    print("converged", float(err) < tol)
    return x


def float32_state(x, tol):
    e = np.abs(x).max()
    while e > tol:
        x = (x * np.float32(0.75)).astype(np.float32)
        e = np.abs(x).max()
    return x, e


def raises_at_a_trip(d, tol):
    e = np.abs(d).max()
    while e > tol:
        inv = np.linalg.inv(np.diag(d))     # singular once an entry reaches 0: LinAlgError
        d = d - 1.0
        e = np.abs(d).max() + 0.0 * inv.sum()
    return d


def view_of_a_carried_array(A, tol):
    d = np.diag(A)                  # shares A's memory; neither is written in place
    x = np.ones(len(d))
    e = np.abs(x).max()
    while e > tol:
        x = x / (1.0 + d)
        e = np.abs(x).max()
    return x


def writes_through_a_view(A, tol):
    d = A[0]                        # a view of A, written in place: stays a break
    e = np.abs(A).max()
    while e > tol:
        d *= 0.5
        A[1:] *= 0.5
        e = np.abs(A).max()
    return A


# ---- Python int counters (issue #19): ``while <test> and it < maxit: ...; it += 1``
def richardson_counter(A, b, tol, maxit):
    x = np.zeros_like(b)
    nb = np.linalg.norm(b)
    it = 0
    r = b - A @ x
    while np.linalg.norm(r) / nb > tol and it < maxit:
        x = x + 0.1 * r
        r = b - A @ x
        it += 1
    return x, it


def counter_counts_down(x, tol, left):
    while np.abs(x).max() > tol and left > 0:
        x = x * 0.8
        left -= 1
    return x, left


def counter_by_two_inclusive(x, tol):
    k = 1
    while np.abs(x).max() > tol and k <= 9:     # k = 1, 3, 5, 7, 9: at most 5 trips
        x = np.tanh(x) * 0.5
        k += 2
    return x, k


def counter_limit_on_the_left(x, tol, maxit):
    n = 0
    while np.abs(x).sum() >= tol and maxit > n:
        x = x - 0.25 * x
        n = n + 1
    return x, n


def counter_first_in_test(x, tol, maxit):
    it = 0
    err = np.abs(x).max()
    while it < maxit and err > tol:            # the array test is not made at it == maxit
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return x, it


def counter_read_in_body(x, tol):
    k = 0
    while np.abs(x).max() > tol and k < 50:
        x = x * 0.5 + 0.001 * k               # the counter is read: stays a break
        k += 1
    return x, k


def two_counters_nan_test(x, maxit):
    it, evals = 0, 0
    err = np.float64(1.0)
    while err > 1e-3 and it < maxit:           # NaN > tol is False: the loop stops
        x = np.sqrt(x - 1.0)                   # invalid value once x < 1: a warning per trip
        err = np.abs(x - 1.0).max()
        it += 1
        evals += 2
    return x, it, evals


def counter_dead_after(x, tol):
    it = 0
    while np.abs(x).max() > tol and it < 200:
        x = x * 0.9
        it += 1
    return x


def counter_not_in_test_warns(x, tol):
    steps = 0
    e = np.abs(x).max()
    while e > tol:
        y = np.log(x - 1.0)                    # invalid value: a warning per trip
        x = x * 0.5
        e = np.abs(x).max() + 0.0 * np.isnan(y).sum()
        steps += 1
    return x, steps


def while_true_break(x, tol):
    k = 0
    while True:
        x = 0.5 * (x + 2.0 / x)
        k += 1
        if np.abs(x * x - 2.0).max() < tol:
            break
    return x, k


def history_list(x, tol):
    hist = []
    err = np.abs(x).max()
    while err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        hist.append(float(err))                # a list built per trip: stays a break
    return x, hist


def while_true_break_then_code(x, tol):
    n = 0
    while True:
        x = np.sqrt(x) * 1.5
        n += 1
        if not np.abs(x - 2.25).max() > tol:   # NaN: `not False`, the loop ends
            break
    y = x * 2.0
    return y + n, n


def while_true_last_if_no_break(x, tol):
    k = 0
    while True:
        x = x * 0.5
        k += 1
        if k >= 30:
            break                          # a Python test: decided by the trace
        if np.abs(x).max() < tol:
            x = x + 1.0                    # not a break: the loop goes on
    return x, k


def _x(n=6, seed=0):
    return _rng(seed).uniform(0.5, 4.0, n)


PROGRAMS = [
    ("babylon_sqrt", babylon_sqrt, (_x(), 1e-12)),
    ("jacobi_to_tolerance", jacobi_to_tolerance, (_spd(5, 1), _x(5, 2), 1e-10)),
    ("newton_cube_root", newton_cube_root, (_x(7, 3), 1e-12)),
    ("power_iteration", power_iteration, (_spd(4, 4), np.ones(4) / 2.0, 1e-12)),
    ("conjugate_gradient", conjugate_gradient, (_spd(6, 5), _x(6, 6), 1e-10)),
    ("bisection_sqrt2", bisection_sqrt2, (np.float64(1.0), np.float64(2.0), 1e-12)),
    ("trip_count_in_array", trip_count_in_array, (_x(), 1e-6)),
    ("in_place_decay", in_place_decay, (_x(), 0.01)),
    ("gauss_seidel_sweeps", gauss_seidel_sweeps, (_spd(5, 7), _x(5, 8), 1e-10)),
    ("kmeans_until_still", kmeans_until_still,
     (_rng(9).standard_normal((30, 2)), _rng(10).standard_normal((3, 2)), 1e-9)),
    ("nan_stops_at_once", nan_stops_at_once, (_x(),)),
    ("truthy_float_test", truthy_float_test, (np.array([9.0, 17.0, 4.0]),)),
    ("not_0d_test_raises", not_0d_test_raises, (_x(3),)),
    ("warns_every_trip", warns_every_trip, (_x(), 1e-3)),
    ("divide_warns_per_trip", divide_warns_per_trip, (_x(), 1e-3)),
    ("python_counter", python_counter, (_x(), 1e-6)),
    ("counter_and_test", counter_and_test, (_x(), 1e-6, 5)),
    ("for_break_newton", for_break_newton, (_x(5, 11), 1e-12)),
    ("for_break_residual", for_break_residual, (_spd(5, 12), _x(5, 13), 1e-10)),
    ("for_break_exhausts", for_break_exhausts, (_x(), 1e-300)),
    ("for_else_break", for_else_break, (_x(), 1e-3)),
    ("for_break_mid_body", for_break_mid_body, (_x(), 1e-3)),
    ("for_break_reads_index", for_break_reads_index, (_x(), 1e-3)),
    ("for_break_nan_test", for_break_nan_test, (np.array([3.0, 0.25, 9.0]),)),
    ("for_break_index_after_step", for_break_index_after_step, (_x(), 1e-3)),
    ("for_break_index_after_step_exhausted", for_break_index_after_step, (_x(), 1e-300)),
    ("for_break_index_tested_after", for_break_index_tested_after, (_x(), 1.0)),
    ("for_break_index_tested_after_exhausted", for_break_index_tested_after,
     (_x(), 1e-300)),
    ("prints_after", prints_after, (_x(), 1e-6)),
    ("float32_state", float32_state, (_x().astype(np.float32), 1e-4)),
    ("raises_at_a_trip", raises_at_a_trip, (np.array([3.0, 5.0, 2.0]), 0.5)),
    ("view_of_a_carried_array", view_of_a_carried_array, (_spd(4, 14), 1e-8)),
    ("writes_through_a_view", writes_through_a_view, (_spd(3, 15), 1e-3)),
    ("richardson_counter", richardson_counter,
     (_spd(6, 16) / 10.0, _x(6, 17), 1e-8, 500)),
    ("richardson_counter_hits_maxit", richardson_counter,
     (_spd(6, 16) / 10.0, _x(6, 17), 1e-8, 7)),
    ("richardson_counter_no_trip", richardson_counter,
     (_spd(6, 16) / 10.0, _x(6, 17), 1e-8, 0)),
    ("counter_counts_down", counter_counts_down, (_x(), 1e-3, 40)),
    ("counter_counts_down_runs_out", counter_counts_down, (_x(), 1e-3, 4)),
    ("counter_by_two_inclusive", counter_by_two_inclusive, (_x(), 1e-9)),
    ("counter_limit_on_the_left", counter_limit_on_the_left, (_x(), 1e-4, 100)),
    ("counter_first_in_test", counter_first_in_test, (_x(), 1e-3, 5)),
    ("counter_read_in_body", counter_read_in_body, (_x(), 1e-3)),
    ("two_counters_nan_test", two_counters_nan_test, (np.array([9.0, 30.0, 2.0]), 40)),
    ("counter_dead_after", counter_dead_after, (_x(), 1e-3)),
    ("counter_not_in_test_warns", counter_not_in_test_warns, (_x(), 1e-3)),
    ("while_true_break", while_true_break, (_x(), 1e-12)),
    ("history_list", history_list, (_x(), 1e-3)),
    ("while_true_break_then_code", while_true_break_then_code, (_x(), 1e-10)),
    ("while_true_break_nan", while_true_break_then_code, (np.array([4.0, -1.0]), 1e-10)),
    ("while_true_last_if_no_break", while_true_last_if_no_break, (_x(), 0.05)),
]
