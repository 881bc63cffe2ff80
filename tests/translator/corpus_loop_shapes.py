"""Loops of everyday solver and search code that graph-broke after the solver round
(issue #19), written before they ran: time steppers ``while t < T`` with a Python
float accumulator, bisection and iteration with ``or`` in the test, Newton and
Richardson with the counter read in the update, first-index searches that read the
index (``for i in range(n): if a[i] > thr: break`` then ``return i``), code in the
``break`` branch (``if c: found = i; break``), Gauss-Seidel and Newton with
``for ... else``. The differential corpus of tests/translator/test_loop_shapes.py;
each entry is (name, fn, args).
"""

from __future__ import annotations

import warnings

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _diag_dominant(n, seed):
    a = _rng(seed).uniform(-1.0, 1.0, (n, n))
    return a + np.diag(np.abs(a).sum(1) + 1.0)


# ------------------------------------------ time steppers: a float carried across trips
def heat_explicit_until(u, T, dt):
    """Explicit heat equation, 1-D, Dirichlet ends, run to time T."""
    t = 0.0
    while t < T:
        lap = np.zeros_like(u)
        lap[1:-1] = u[:-2] - 2.0 * u[1:-1] + u[2:]
        u = u + dt * lap
        t += dt
    return u, t


def decay_ode_euler(y, k, T, dt):
    t = 0.0
    steps = 0
    while t < T:
        y = y - dt * k * y
        t = t + dt
        steps += 1
    return y, t, steps


def oscillator_leapfrog(x, v, T, h):
    t = 0.0
    while t + 0.5 * h < T:
        v = v - 0.5 * h * x
        x = x + h * v
        v = v - 0.5 * h * x
        t += h
    return x, v, t


def cooling_until_cold(temp, ambient, rate, dt, cold):
    t = 0.0
    while temp.max() > cold:
        temp = ambient + (temp - ambient) * np.exp(-rate * dt)
        t += dt
    return temp, t


def stepper_prints_time(u, T, dt):
    t = 0.0
    while t < T:
        u = 0.9 * u
        t += dt
    print("stopped at", t, "with max", float(u.max()))
    return u


# --------------------------------------------------------------- ``or`` in the test
def bisection_or_maxit(lo, hi, tol, minit):
    # at least ``minit`` halvings, then to the tolerance
    it = 0
    mid = 0.5 * (lo + hi)
    while it < minit or hi - lo > tol:
        mid = 0.5 * (lo + hi)
        f = mid * mid - 2.0
        lo = np.where(f < 0, mid, lo)
        hi = np.where(f < 0, hi, mid)
        it += 1
    return mid, it


def fixed_point_or_err(x, tol, miniter):
    err = np.float64(np.inf)
    it = 0
    while err > tol or it < miniter:
        x_new = np.cos(x)
        err = np.abs(x_new - x).max()
        x = x_new
        it += 1
    return x, it


def smoothing_or_flag(u, tol):
    changed = np.True_
    sweeps = 0
    while changed or sweeps == 0:
        new = u.copy()
        new[1:-1] = 0.5 * (u[:-2] + u[2:])
        changed = np.abs(new - u).max() > tol
        u = new
        sweeps += 1
    return u, sweeps


# ------------------------------------------------------ a counter read in the update
def newton_damped_by_iteration(a, tol, maxit):
    x = np.ones_like(a)
    k = 0
    err = np.float64(1.0)
    while err > tol and k < maxit:
        dx = (x * x - a) / (2.0 * x)
        x = x - dx * (1.0 - 0.5 ** (k + 1))
        err = np.abs(dx).max()
        k += 1
    return x, k


def gradient_descent_decaying_rate(x, tol, maxit):
    it = 0
    g = 2.0 * x
    while np.abs(g).max() > tol and it < maxit:
        x = x - 0.4 / (1.0 + 0.1 * it) * g
        g = 2.0 * x
        it += 1
    return x, it


def euler_counter_time(y, h, n_max, tol):
    # the time is the counter times the step: x = x + h * i
    i = 0
    while np.abs(y).max() > tol and i < n_max:
        y = y + h * (-y * (1.0 + h * i))
        i += 1
    return y, i * h


def richardson_prints_each_trip(A, b, tol, maxit):
    x = np.zeros_like(b)
    r = b - A @ x
    it = 0
    while np.linalg.norm(r) > tol and it < maxit:
        x = x + 0.1 * r
        r = b - A @ x
        it += 1
        if it % 50 == 0:
            print("iteration", it)
    return x, it


# --------------------------------------------------------- searches that read the index
def first_index_above_threshold(a, thr):
    for i in range(a.shape[0]):
        if a[i] > thr:
            break
    return i


def first_crossing_time(signal, level, dt):
    for i in range(1, signal.shape[0]):
        if signal[i - 1] < level <= signal[i]:
            break
    return i * dt


def first_negative_row(X):
    for i in range(X.shape[0]):
        if X[i].min() < 0.0:
            break
    return i, X[i].copy()


def cumulative_target(w, target):
    total = np.float64(0.0)
    for i in range(w.shape[0]):
        total = total + w[i]
        if total >= target:
            break
    return i, total


# --------------------------------------------------------- code in the ``break`` branch
def find_first_converged(X, tol):
    found = -1
    for i in range(X.shape[0]):
        if np.abs(X[i]).max() < tol:
            found = i
            break
    return found


def search_records_value(a, thr):
    hit = np.float64(np.nan)
    for i in range(a.shape[0]):
        if a[i] > thr:
            hit = a[i]
            break
    return hit


def newton_stores_on_break(a, tol, maxit):
    x = np.ones_like(a)
    converged = False
    for _ in range(maxit):
        dx = (x * x - a) / (2.0 * x)
        x = x - dx
        if np.abs(dx).max() < tol:
            converged = True
            break
    return x, converged


# ------------------------------------------------------------------- ``for ... else``
def gauss_seidel_for_else(A, b, tol, maxit):
    n = b.shape[0]
    x = np.zeros_like(b)
    for sweep in range(maxit):
        x_old = x.copy()
        for i in range(n):
            s = A[i] @ x - A[i, i] * x[i]
            x[i] = (b[i] - s) / A[i, i]
        if np.abs(x - x_old).max() < tol:
            break
    else:
        raise RuntimeError(f"Gauss-Seidel: no convergence in {maxit} sweeps")
    return x, sweep


def jacobi_for_else_warns(A, b, tol, maxit):
    d = np.diag(A)
    R = A - np.diag(d)
    x = np.zeros_like(b)
    for _ in range(maxit):
        x_new = (b - R @ x) / d
        if np.abs(x_new - x).max() < tol:
            x = x_new
            break
        x = x_new
    else:
        warnings.warn("jacobi: maximum number of iterations reached", RuntimeWarning,
                      stacklevel=1)
    return x


def newton_for_else_flag(a, tol, maxit):
    x = np.ones_like(a)
    for _ in range(maxit):
        dx = (x * x - a) / (2.0 * x)
        x = x - dx
        if np.abs(dx).max() < tol:
            break
    else:
        x = np.full_like(a, np.nan)
    return x


PROGRAMS = [
    ("heat_explicit_until", heat_explicit_until, (np.sin(np.linspace(0.0, np.pi, 12)),
                                                  0.5, 0.1)),
    ("heat_explicit_until_no_trip", heat_explicit_until,
     (np.sin(np.linspace(0.0, np.pi, 12)), 0.0, 0.1)),
    ("decay_ode_euler", decay_ode_euler, (_rng(1).uniform(0.5, 2.0, 5), 0.7, 1.0, 0.1)),
    ("oscillator_leapfrog", oscillator_leapfrog,
     (np.array([1.0, 0.5, -0.2]), np.zeros(3), 2.0, 0.05)),
    ("cooling_until_cold", cooling_until_cold,
     (np.array([90.0, 80.0, 70.0]), 20.0, 0.3, 0.5, 25.0)),
    ("stepper_prints_time", stepper_prints_time, (np.ones(4), 0.3, 0.1)),
    ("bisection_or_maxit", bisection_or_maxit,
     (np.float64(0.0), np.float64(2.0), 1e-10, 5)),
    ("bisection_or_maxit_minit_wins", bisection_or_maxit,
     (np.float64(0.0), np.float64(2.0), 10.0, 3)),
    ("fixed_point_or_err", fixed_point_or_err, (_rng(2).uniform(0.0, 1.0, 4), 1e-9, 3)),
    ("smoothing_or_flag", smoothing_or_flag, (_rng(3).uniform(0.0, 1.0, 8), 1e-3)),
    ("newton_damped_by_iteration", newton_damped_by_iteration,
     (_rng(4).uniform(0.5, 4.0, 4), 1e-12, 80)),
    ("gradient_descent_decaying_rate", gradient_descent_decaying_rate,
     (_rng(5).uniform(-2.0, 2.0, 4), 1e-6, 200)),
    ("euler_counter_time", euler_counter_time, (np.array([1.0, -0.5]), 0.05, 400, 1e-3)),
    ("richardson_prints_each_trip", richardson_prints_each_trip,
     (np.eye(3) * 2.0 + 0.1, np.array([1.0, 2.0, 3.0]), 1e-10, 120)),
    ("first_index_above_threshold", first_index_above_threshold,
     (_rng(6).uniform(0.0, 1.0, 50), 0.95)),
    ("first_index_above_threshold_none", first_index_above_threshold,
     (_rng(6).uniform(0.0, 1.0, 50), 2.0)),
    ("first_crossing_time", first_crossing_time,
     (np.sin(np.linspace(0.0, 6.0, 40)) * np.linspace(0.0, 1.0, 40), 0.3, 0.01)),
    ("first_negative_row", first_negative_row,
     (np.vstack([np.ones((5, 3)), -np.ones((2, 3))]),)),
    ("cumulative_target", cumulative_target, (_rng(7).uniform(0.0, 1.0, 30), 4.5)),
    ("find_first_converged", find_first_converged,
     (_rng(8).uniform(0.0, 1.0, (25, 3)) * np.linspace(1.0, 0.0, 25)[:, None], 0.1)),
    ("find_first_converged_none", find_first_converged,
     (_rng(8).uniform(0.5, 1.0, (6, 3)), 0.1)),
    ("search_records_value", search_records_value, (_rng(9).uniform(0.0, 1.0, 30), 0.9)),
    ("newton_stores_on_break", newton_stores_on_break,
     (_rng(10).uniform(0.5, 4.0, 4), 1e-12, 50)),
    ("newton_stores_on_break_exhausts", newton_stores_on_break,
     (_rng(10).uniform(0.5, 4.0, 4), 1e-300, 3)),
    ("gauss_seidel_for_else", gauss_seidel_for_else,
     (_diag_dominant(4, 11), _rng(12).standard_normal(4), 1e-10, 100)),
    ("gauss_seidel_for_else_raises", gauss_seidel_for_else,
     (_diag_dominant(4, 11), _rng(12).standard_normal(4), 1e-300, 3)),
    ("jacobi_for_else_warns", jacobi_for_else_warns,
     (_diag_dominant(5, 13), _rng(14).standard_normal(5), 1e-300, 4)),
    ("jacobi_for_else_converges", jacobi_for_else_warns,
     (_diag_dominant(5, 13), _rng(14).standard_normal(5), 1e-10, 200)),
    ("newton_for_else_flag", newton_for_else_flag,
     (_rng(15).uniform(0.5, 4.0, 4), 1e-12, 60)),
]
