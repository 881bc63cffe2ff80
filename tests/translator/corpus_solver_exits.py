"""Everyday early-exit loops of iterative NumPy code (issue #19), written before they
ran: solvers with a tolerance and a maximum number of iterations tested in either
order, searches that stop at the first hit, convergence loops with ``for ... else``,
line searches with a Python float step, a counter read in the body, ``or`` in the
test. The differential corpus of tests/translator/test_solver_exits.py; each entry is
(name, fn, args).
"""

from __future__ import annotations

import warnings

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _spd(n, seed):
    a = _rng(seed).standard_normal((n, n))
    return a @ a.T + n * np.eye(n)


def _diag_dominant(n, seed):
    a = _rng(seed).uniform(-1.0, 1.0, (n, n))
    return a + np.diag(np.abs(a).sum(1) + 1.0)


# ------------------------------------------------ the counter tested first: ``and``
def power_iteration_counter_first(A, tol, maxit):
    x = np.ones(A.shape[0])
    lam = np.float64(0.0)
    delta = np.float64(np.inf)
    it = 0
    while it < maxit and delta > tol:
        y = A @ x
        lam_new = np.linalg.norm(y)
        x = y / lam_new
        delta = np.abs(lam_new - lam)
        lam = lam_new
        it += 1
    return lam, x, it


def jacobi_counter_first(A, b, tol, maxiter):
    d = np.diag(A)
    R = A - np.diag(d)
    x = np.zeros_like(b)
    res = np.linalg.norm(b - A @ x)
    k = 0
    while k < maxiter and res > tol:
        x = (b - R @ x) / d
        res = np.linalg.norm(b - A @ x)
        k += 1
    return x, res, k


def gauss_seidel_counter_first(A, b, tol, max_sweeps):
    L = np.tril(A)
    U = A - L
    x = np.zeros_like(b)
    err = np.float64(1.0)
    sweeps = 0
    while sweeps < max_sweeps and err > tol:
        x_new = np.linalg.solve(L, b - U @ x)
        err = np.abs(x_new - x).max()
        x = x_new
        sweeps += 1
    return x, sweeps


def newton_counter_first_le(a, tol, maxit):
    x = np.ones_like(a)
    step = np.float64(1.0)
    it = 1
    while it <= maxit and step >= tol:
        dx = (x * x - a) / (2.0 * x)
        x = x - dx
        step = np.abs(dx).max()
        it += 1
    return x, it


def countdown_counter_first(x, tol, budget):
    err = np.abs(x).max()
    left = budget
    while left > 0 and err > tol:
        x = np.tanh(x) * 0.9
        err = np.abs(x).max()
        left -= 1
    return x, left


def counter_first_nan_stops(x, maxit):
    err = np.float64(1.0)
    it = 0
    while it < maxit and err > 1e-3:
        x = x - 1.0
        err = np.sqrt(x).min()            # NaN once x < 0: nan > 1e-3 is false
        it += 1
    return x, err, it


def counter_first_warns(x, tol, maxit):
    err = np.float64(1.0)
    it = 0
    while it < maxit and err > tol:
        x = x - 0.5
        y = np.log(x)                     # invalid value once x < 0, each trip
        err = np.abs(np.nan_to_num(y)).max() * 0.5 ** it * 0.0 + np.abs(x).min()
        it += 1
    return x, it


def counter_first_bool_flag(x, tol, maxit):
    converged = np.abs(x).max() < tol
    it = 0
    while it < maxit and not converged:
        x = 0.5 * x
        converged = np.abs(x).max() < tol
        it += 1
    return x, it


def counter_first_norm_in_test(A, b, tol, maxit):
    # the norm in the test: Python never computes it where the counter ends the loop
    x = np.zeros_like(b)
    r = b.copy()
    it = 0
    while it < maxit and np.linalg.norm(r) > tol:
        x = x + 0.1 * r
        r = b - A @ x
        it += 1
    return x, it


def bisection_counter_first(lo, hi, tol, maxit):
    # f(x) = x**3 - 2; the width in the test (inf - inf would warn there)
    it = 0
    while it < maxit and hi - lo > tol:
        mid = 0.5 * (lo + hi)
        fm = mid ** 3 - 2.0
        lo = np.where(fm < 0, mid, lo)
        hi = np.where(fm < 0, hi, mid)
        it += 1
    return lo, hi, it


# -------------------------------------- a ``while`` counter with code after the break
def while_counter_break_then_step(x, tol, maxit):
    it = 0
    while it < maxit:
        g = 2.0 * x
        if np.abs(g).max() < tol:
            break
        x = x - 0.25 * g
        it += 1
    return x, it


# --------------------------------------------- searches that stop at the first hit
def first_index_above(x, threshold):
    for i in range(x.shape[0]):
        if x[i] > threshold:
            break
    return i


def first_row_converged(X, tol):
    for i in range(X.shape[0]):
        if np.abs(X[i]).max() < tol:
            break
    return i, X[i]


# --------------------------------------------------------------- for ... else
def newton_for_else_raises(a, tol, maxit):
    x = np.ones_like(a)
    for _ in range(maxit):
        dx = (x * x - a) / (2.0 * x)
        x = x - dx
        if np.abs(dx).max() < tol:
            break
    else:
        raise RuntimeError("Newton did not converge")
    return x


def fixed_point_for_else_warns(x, tol, maxit):
    for _ in range(maxit):
        x_new = np.cos(x)
        if np.abs(x_new - x).max() < tol:
            break
        x = x_new
    else:
        warnings.warn("fixed point: no convergence", RuntimeWarning)  # noqa: B028
    return x


# ------------------------------------------------------------------ ``or`` tests
def at_least_miniter_or_tol(x, tol, miniter):
    it = 0
    err = np.abs(x).max()
    while it < miniter or err > tol:
        x = 0.5 * x
        err = np.abs(x).max()
        it += 1
    return x, it


# ----------------------------------------------- Python floats carried across trips
def armijo_backtracking(A, b, x, rho, c):
    g = A @ x - b
    fx = 0.5 * x @ (A @ x) - b @ x
    gg = g @ g
    t = 1.0
    while 0.5 * (x - t * g) @ (A @ (x - t * g)) - b @ (x - t * g) > fx - c * t * gg:
        t = rho * t
    return x - t * g, t


def time_to_decay(x, rate, tol):
    t = 0.0
    while np.abs(x).max() > tol:
        x = x * np.exp(-rate * 0.1)
        t += 0.1
    return x, t


# ------------------------------------------------------ a counter read in the body
def damped_newton_counter_read(a, tol):
    x = np.ones_like(a)
    k = 0
    err = np.float64(1.0)
    while err > tol:
        dx = (x * x - a) / (2.0 * x)
        x = x - dx * (1.0 - 0.5 ** (k + 1))
        err = np.abs(dx).max()
        k += 1
    return x, k


# -------------------------------- shapes that are already nodes, in new variations
def richardson_array_first(A, b, tol, maxit):
    x = np.zeros_like(b)
    nb = np.linalg.norm(b)
    r = b - A @ x
    it = 0
    while np.linalg.norm(r) / nb > tol and it < maxit:
        x = x + 0.1 * r
        r = b - A @ x
        it += 1
    return x, it


def line_search_for_break(x, g, fx, maxit):
    t = np.float64(1.0)
    for _ in range(maxit):
        trial = x - t * g
        if (trial * trial).sum() < fx:
            break
        t = t * 0.5
    return t


PROGRAMS = [
    ("power_iteration_counter_first", power_iteration_counter_first,
     (_spd(5, 1), 1e-10, 500)),
    ("power_iteration_counter_first_exhausts", power_iteration_counter_first,
     (_spd(5, 1), 1e-300, 7)),
    ("power_iteration_counter_first_no_trip", power_iteration_counter_first,
     (_spd(5, 1), 1e-10, 0)),
    ("power_iteration_counter_first_one_trip", power_iteration_counter_first,
     (_spd(5, 1), 1e-10, 1)),
    ("jacobi_counter_first", jacobi_counter_first,
     (_diag_dominant(6, 2), _rng(3).standard_normal(6), 1e-10, 200)),
    ("jacobi_counter_first_converged_at_once", jacobi_counter_first,
     (_diag_dominant(6, 2), np.zeros(6), 1e-10, 200)),
    ("gauss_seidel_counter_first", gauss_seidel_counter_first,
     (_diag_dominant(5, 4), _rng(5).standard_normal(5), 1e-12, 100)),
    ("newton_counter_first_le", newton_counter_first_le,
     (_rng(6).uniform(0.5, 4.0, 5), 1e-13, 60)),
    ("newton_counter_first_le_exhausts", newton_counter_first_le,
     (_rng(6).uniform(0.5, 4.0, 5), 1e-300, 3)),
    ("countdown_counter_first", countdown_counter_first,
     (_rng(7).uniform(-2.0, 2.0, 4), 1e-4, 100)),
    ("counter_first_nan_stops", counter_first_nan_stops,
     (np.array([3.0, 2.5, 9.0]), 50)),
    ("counter_first_warns", counter_first_warns, (np.array([2.2, 3.1, 1.7]), 1e-3, 12)),
    ("counter_first_bool_flag", counter_first_bool_flag,
     (_rng(8).uniform(-3.0, 3.0, 4), 1e-6, 100)),
    ("counter_first_norm_in_test", counter_first_norm_in_test,
     (_spd(4, 9) / 8.0, _rng(10).standard_normal(4), 1e-9, 400)),
    ("bisection_counter_first", bisection_counter_first,
     (np.float64(0.0), np.float64(2.0), 1e-12, 100)),
    ("while_counter_break_then_step", while_counter_break_then_step,
     (_rng(11).uniform(-1.0, 1.0, 4), 1e-6, 200)),
    ("while_counter_break_then_step_runs_out", while_counter_break_then_step,
     (_rng(11).uniform(-1.0, 1.0, 4), 1e-300, 6)),
    ("first_index_above", first_index_above, (_rng(12).uniform(0.0, 1.0, 40), 0.9)),
    ("first_row_converged", first_row_converged,
     (_rng(13).uniform(0.0, 1.0, (30, 3)) * np.linspace(1.0, 0.0, 30)[:, None], 0.05)),
    ("newton_for_else_raises", newton_for_else_raises,
     (_rng(14).uniform(0.5, 4.0, 5), 1e-12, 50)),
    ("newton_for_else_raises_no_convergence", newton_for_else_raises,
     (_rng(14).uniform(0.5, 4.0, 5), 1e-300, 4)),
    ("fixed_point_for_else_warns", fixed_point_for_else_warns,
     (_rng(15).uniform(0.0, 1.0, 4), 1e-10, 200)),
    ("at_least_miniter_or_tol", at_least_miniter_or_tol,
     (_rng(16).uniform(-1.0, 1.0, 4), 1e-3, 30)),
    ("armijo_backtracking", armijo_backtracking,
     (_spd(4, 17), _rng(18).standard_normal(4), _rng(19).standard_normal(4) * 5.0,
      0.5, 1e-4)),
    ("time_to_decay", time_to_decay, (_rng(20).uniform(0.5, 2.0, 4), 0.7, 1e-3)),
    ("damped_newton_counter_read", damped_newton_counter_read,
     (_rng(21).uniform(0.5, 4.0, 4), 1e-12)),
    ("richardson_array_first", richardson_array_first,
     (_spd(4, 22) / 8.0, _rng(23).standard_normal(4), 1e-9, 400)),
    ("line_search_for_break", line_search_for_break,
     (_rng(24).standard_normal(4), _rng(25).standard_normal(4), np.float64(0.5), 40)),
]
