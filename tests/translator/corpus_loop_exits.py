"""Loops with code after their ``if <0-d array test>: break`` and the other exit
shapes of issue #19 (written before they ran, as the differential corpus of
tests/translator/test_loop_exits.py): ``for k in range(maxit): A; if c: break; B``
with B empty of ops or not, live after the loop or not, writing in place, warning,
raising; the loop variable after the loop; no trip, one trip, a break on the first
or the last trip, no break; ``for ... else``; ``while True`` with code after the
break; a counter read in the body; ``or`` in the test; a Python float accumulator.
Each entry is (name, fn, args).
"""

from __future__ import annotations

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _spd(n, seed):
    a = _rng(seed).standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


def _x(n=6, seed=0):
    return _rng(seed).uniform(0.5, 4.0, n)


def power_tol(A, tol, maxit):
    # tests/realworld/kernel_programs.py power_iteration_tol
    x = np.ones(A.shape[0])
    lam_old = 0.0
    for k in range(maxit):
        y = A.dot(x)
        lam = np.max(np.abs(y))
        x = y / lam
        if abs(lam - lam_old) < tol:
            break
        lam_old = lam
    return lam, x, k


def power_tol_old_returned(A, tol, maxit):
    x = np.ones(A.shape[0])
    lam_old = np.float64(0.0)
    for _ in range(maxit):
        lam = np.linalg.norm(A @ x)
        x = A @ x / lam
        if np.abs(lam - lam_old) < tol:
            break
        lam_old = lam             # live after the loop
    return lam, lam_old, x


def newton_update_after_test(a, tol, maxit):
    x = np.ones_like(a)
    for _ in range(maxit):
        dx = (x * x - a) / (2.0 * x)
        if np.abs(dx).max() < tol:
            break
        x = x - dx                # the update after the test
    return x, dx


def residual_then_step(A, b, tol, maxit):
    x = np.zeros_like(b)
    for k in range(maxit):
        r = b - A @ x
        if np.linalg.norm(r) < tol:
            break
        x = x + 0.05 * r
    return x, k


def copy_kept_after_test(x, tol, maxit):
    prev = x.copy()
    for _ in range(maxit):
        x = np.cos(x)
        if np.abs(x - prev).max() < tol:
            break
        prev = x                  # a rebinding only, read after the loop
    return x, prev


def in_place_after_test(x, tol, maxit):
    for _ in range(maxit):
        s = np.abs(x).sum()
        if s < tol:
            break
        x *= 0.5                  # an in-place write after the test
    return x, s


def warns_after_test(x, tol, maxit):
    for _ in range(maxit):
        x = x - 0.75
        if np.abs(x).min() < tol:
            break
        y = np.log(x)             # invalid value once x < 0: a warning per trip
        x = x + 0.0 * np.nan_to_num(y)
    return x


def raises_after_test(A, tol, maxit):
    s = np.zeros(())
    n = A.shape[0]
    for _ in range(maxit):
        s = s + 1.0
        if s > tol:
            break
        np.linalg.cholesky(A - s * np.eye(n))   # LinAlgError once A - s*I is not PD
    return s


def break_on_first_trip(x, maxit):
    for k in range(maxit):
        x = x * 2.0
        if x.sum() > -1e300:      # always true: the first trip breaks
            break
        x = x + 1.0
    return x, k


def never_breaks(x, maxit):
    for k in range(maxit):
        x = x * 0.5
        if np.isnan(x).any():     # never: the range ends the loop
            break
        x = x + 1.0
    return x, k


def halvings_exit(x, maxit):
    # x = 2.0 ** m halves to below 1 on trip m + 1: the break's trip is exact
    y = np.zeros_like(x)
    for k in range(maxit):
        x = x * 0.5
        if x.max() < 1.0:
            break
        y = y + x
    return x, y, k


def index_after_step_range(x, tol):
    for k in range(5, 80, 5):
        x = x * 0.8
        if np.abs(x).max() < tol:
            break
        x = x - 0.001
    return x, k


def temp_bound_only_after_test(x, tol, maxit):
    for _ in range(maxit):
        x = x * 0.5
        if np.abs(x).max() < tol:
            break
        step = x * 0.1            # unbound after a break on the first trip
        x = x - step
    return x, step


def temp_dead_after(x, tol, maxit):
    for _ in range(maxit):
        x = x * 0.5
        if np.abs(x).max() < tol:
            break
        step = x * 0.1            # dead after the loop
        x = x - step
    return x


def for_else_code_after_test(x, tol, maxit):
    for _ in range(maxit):
        x = 0.5 * x
        if np.abs(x).max() < tol:
            break
        x = x + 0.01
    else:
        x = -x                    # only where no break
    return x


def swap_after_test(a, b, tol, maxit):
    for _ in range(maxit):
        a = 0.5 * (a + b)
        if np.abs(a - b).max() < tol:
            break
        a, b = b, a               # the order after the loop follows the trips
    return a, b


def index_read_after_test(x, tol, maxit):
    for k in range(maxit):
        x = np.tanh(x)
        if np.abs(x).max() < tol:
            break
        x = x + 0.001 * k         # the index read in the body
    return x


def float32_after_test(x, tol, maxit):
    for _ in range(maxit):
        x = np.sqrt(x) * np.float32(0.9)
        if np.abs(x - 1.0).max() < tol:
            break
        x = x + np.float32(0.05)
    return x


def nan_test_after(x, maxit):
    for _ in range(maxit):
        x = x - 1.0
        if np.sqrt(x).min() < 0.5:   # NaN once x < 0: nan < 0.5 is false
            break
        x = x * 1.01
    return x


def kmeans_shift(x, centers, tol, maxit):
    for _ in range(maxit):
        d = ((x[:, None, :] - centers[None, :, :]) ** 2).sum(-1)
        labels = d.argmin(1)
        new = np.stack([x[labels == j].mean(0) for j in range(3)])
        if np.abs(new - centers).max() < tol:
            break
        centers = new
    return centers


def while_true_code_after_test(x, tol):
    while True:
        x = np.sqrt(x)
        if np.abs(x - 1.0).max() < tol:
            break
        x = x * 1.0001
    return x


def while_counter_code_after_test(x, tol, maxit):
    it = 0
    while it < maxit:
        x = np.sqrt(x) + 0.01
        if np.abs(x - 1.0).max() < tol:
            break
        x = x * 0.999
        it += 1
    return x, it


def counter_read_in_body(x, tol):
    it = 0
    while np.abs(x).max() > tol:
        x = x * 0.5 + 0.5 ** it * 0.01
        it += 1
    return x, it


def or_in_test(x, tol, miniter):
    it = 0
    err = np.abs(x).max()
    while err > tol or it < miniter:
        x = x * 0.5
        err = np.abs(x).max()
        it += 1
    return x, it


def float_accumulator(x, tol):
    t = 0.0
    while np.abs(x).max() > tol:
        x = x * 0.5
        t += 0.1                  # a Python float, changed per trip
    return x, t


def fixed_point_shift(x, tol, maxit):
    # the usual idiom: the new iterate, the test on the change, then the shift
    for _ in range(maxit):
        x_new = np.cos(x)
        if np.abs(x_new - x).max() < tol:
            break
        x = x_new
    return x


def fixed_point_shift_both_read(x, tol, maxit):
    x_new = x
    for _ in range(maxit):
        x_new = 0.5 * (x + 2.0 / x)
        if np.abs(x_new - x).max() < tol:
            break
        x = x_new
    return x, x_new               # the same array or not, as the exit was


def shift_register_while(u, tol):
    u_prev = u.copy()
    while True:
        u_next = 0.5 * (u + u_prev)
        if np.abs(u_next - u).max() < tol:
            break
        u_prev, u = u, u_next
    return u, u_prev


PROGRAMS = [
    ("power_tol", power_tol, (_spd(5, 1), 1e-9, 1000)),
    ("power_tol_exhausts", power_tol, (_spd(5, 1), 1e-300, 6)),
    ("power_tol_no_trip", power_tol, (_spd(5, 1), 1e-9, 0)),
    ("power_tol_old_returned", power_tol_old_returned, (_spd(5, 2), 1e-10, 500)),
    ("newton_update_after_test", newton_update_after_test, (_x(5, 3), 1e-12, 100)),
    ("newton_update_exhausts", newton_update_after_test, (_x(5, 3), 1e-300, 4)),
    ("residual_then_step", residual_then_step, (_spd(4, 4) / 4.0, _x(4, 5), 1e-8, 900)),
    ("copy_kept_after_test", copy_kept_after_test, (_x(4, 6), 1e-6, 400)),
    ("copy_kept_exhausts", copy_kept_after_test, (_x(4, 6), 1e-300, 9)),
    ("in_place_after_test", in_place_after_test, (_x(4, 7), 1e-3, 60)),
    ("in_place_exhausts", in_place_after_test, (_x(4, 7), 1e-300, 10)),
    ("warns_after_test", warns_after_test, (np.array([3.0, 2.6, 5.0]), 0.1, 12)),
    ("warns_after_test_every_trip", warns_after_test, (np.array([3.1, 2.6, 5.0]), 0.01, 9)),
    ("raises_after_test", raises_after_test, (_spd(3, 8), 1e9, 40)),
    ("break_on_first_trip", break_on_first_trip, (_x(3, 9), 20)),
    ("never_breaks", never_breaks, (_x(3, 10), 15)),
    ("never_breaks_one_trip", never_breaks, (_x(3, 10), 1)),
    ("halvings_exit_last_trip", halvings_exit, (np.array([8.0, 2.0]), 4)),
    ("halvings_exit_middle", halvings_exit, (np.array([8.0, 2.0]), 30)),
    ("index_after_step_range", index_after_step_range, (_x(4, 11), 1e-2)),
    ("index_after_step_range_exhausts", index_after_step_range, (_x(4, 11), 1e-300)),
    ("temp_bound_only_after_test", temp_bound_only_after_test, (_x(4, 12), 1e-3, 50)),
    ("temp_unbound_first_trip_break", temp_bound_only_after_test, (_x(4, 12), 1e3, 50)),
    ("temp_dead_after", temp_dead_after, (_x(4, 12), 1e-3, 50)),
    ("for_else_code_after_test", for_else_code_after_test, (_x(4, 13), 1e-3, 40)),
    ("for_else_no_break", for_else_code_after_test, (_x(4, 13), 1e-300, 6)),
    ("swap_after_test", swap_after_test, (_x(3, 14), _x(3, 15), 1e-9, 50)),
    ("index_read_after_test", index_read_after_test, (_x(3, 16), 1e-3, 30)),
    ("float32_after_test", float32_after_test, (_x(4, 17).astype(np.float32), 1e-3, 200)),
    ("nan_test_after", nan_test_after, (np.array([3.0, 0.25, 9.0]), 30)),
    ("kmeans_shift", kmeans_shift, (_rng(18).standard_normal((30, 2)),
                                    _rng(19).standard_normal((3, 2)), 1e-9, 50)),
    ("while_true_code_after_test", while_true_code_after_test, (_x(4, 20), 1e-3)),
    ("while_true_first_trip_breaks", while_true_code_after_test, (_x(4, 20), 10.0)),
    ("while_counter_code_after_test", while_counter_code_after_test,
     (_x(4, 21), 1e-3, 100)),
    ("while_counter_code_after_test_runs_out", while_counter_code_after_test,
     (_x(4, 21), 1e-300, 5)),
    ("counter_read_in_body", counter_read_in_body, (_x(4, 22), 1e-3)),
    ("fixed_point_shift", fixed_point_shift, (_x(4, 25), 1e-9, 500)),
    ("fixed_point_shift_exhausts", fixed_point_shift, (_x(4, 25), 1e-300, 7)),
    ("fixed_point_shift_both_read", fixed_point_shift_both_read, (_x(4, 26), 1e-12, 50)),
    ("fixed_point_shift_both_read_exhausts", fixed_point_shift_both_read,
     (_x(4, 26), 1e-300, 3)),
    ("shift_register_while", shift_register_while, (_x(4, 27), 1e-6)),
    ("or_in_test", or_in_test, (_x(4, 23), 1e-3, 40)),
    ("float_accumulator", float_accumulator, (_x(4, 24), 1e-3)),
]
