"""Solver loops whose update reads their own bookkeeping (issue #19), written before
they ran: a Python int counter read in the update (``x = x + h * i``,
``omega = 1 / (1 + k)``), a Python float accumulator beside an array test
(``while t < T and np.max(err) > tol: ...; t += dt``), and the array test first in an
``or`` (``while err > tol or it < miniter:``). Time steppers, damped Newton with the
counter in the step, relaxation with ``omega(k)``, bisection and secant with ``or``.
The differential corpus of tests/translator/test_while_updates.py; each entry is
(name, fn, args). Argument sets cover no trip, one trip, many, and the counter or the
test ending the loop.
"""

from __future__ import annotations

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _diag_dominant(n, seed):
    a = _rng(seed).uniform(-1.0, 1.0, (n, n))
    return a + np.diag(np.abs(a).sum(1) + 1.0)


# ------------------------------------------------ 1. a counter read in the update
def euler_forced_decay(y, h, tol, maxit):
    """Forward Euler on y' = -y + sin(t), t = h * i, until the step is small."""
    i = 0
    err = np.float64(np.inf)
    while err > tol and i < maxit:
        dy = h * (-y + np.sin(h * i))
        y = y + dy
        err = np.abs(dy).max()
        i += 1
    return y, i


def damped_newton_sqrt(a, tol, maxit):
    """Newton's step damped by 1 / (1 + k): slower early, full late."""
    x = np.ones_like(a)
    k = 0
    err = np.float64(1.0)
    while err > tol and k < maxit:
        dx = (x * x - a) / (2.0 * x)
        x = x - dx * (1.0 - 1.0 / (2 + k))
        err = np.abs(dx).max()
        k += 1
    return x, k


def relaxation_omega_k(A, b, tol, maxit):
    """Jacobi with a relaxation factor that depends on the sweep."""
    d = np.diag(A)
    R = A - np.diag(d)
    x = np.zeros_like(b)
    res = np.linalg.norm(b - A @ x)
    k = 0
    while res > tol and k < maxit:
        omega = 1.0 / (1.0 + 0.1 * k)
        x = (1.0 - omega) * x + omega * (b - R @ x) / d
        res = np.linalg.norm(b - A @ x)
        k += 1
    return x, k


def gradient_descent_decay(A, b, lr0, decay, tol, maxit):
    """Gradient descent on 0.5 x'Ax - b'x with lr = lr0 / (1 + decay * k)."""
    x = np.zeros_like(b)
    g = A @ x - b
    gnorm = np.linalg.norm(g)
    k = 0
    while gnorm > tol and k < maxit:
        lr = lr0 / (1.0 + decay * k)
        x = x - lr * g
        g = A @ x - b
        gnorm = np.linalg.norm(g)
        k += 1
    return x, k, gnorm


def float32_time_stepper(u, h, tol, maxit):
    """A float32 state stepped by h * n (a Python float: stays float32, NEP 50)."""
    n = 0
    change = np.float32(np.inf)
    while change > tol and n < maxit:
        u_new = u * np.float32(0.9) + h * n * np.float32(0.01)
        change = np.abs(u_new - u).max()
        u = u_new
        n += 1
    return u, n


def geometric_damping(x, tol, maxit):
    """x shrinks by 0.5 ** (k + 1) of its own size on trip k."""
    k = 0
    size = np.abs(x).max()
    while size > tol and k < maxit:
        x = x - x * 0.5 ** (k + 1)
        size = np.abs(x).max()
        k += 1
    return x, k


def int_counter_into_int_array(counts, limit, maxit):
    """An int64 array that gets the counter added on every trip (Python int, weak)."""
    k = 0
    top = counts.max()
    while top < limit and k < maxit:
        counts = counts + k
        top = counts.max()
        k += 1
    return counts, k


def frank_wolfe_step(A, b, tol, maxit):
    """Frank-Wolfe-style averaging with step 2 / (k + 2) towards a target."""
    target = np.linalg.solve(A, b)
    x = np.zeros_like(b)
    gap = np.abs(target - x).max()
    k = 0
    while gap > tol and k < maxit:
        gamma = 2.0 / (k + 2)
        x = x + gamma * (target - x)
        gap = np.abs(target - x).max()
        k += 1
    return x, k


def counter_in_step_unbounded(x, tol):
    """No maximum: the counter only grows while the array test holds."""
    k = 0
    err = np.abs(x).max()
    while err > tol:
        x = x * (1.0 - 1.0 / (k + 3))
        err = np.abs(x).max()
        k += 1
    return x, k


def counter_down_in_step(x, tol, budget):
    """A countdown read in the update (``left / budget``)."""
    left = budget
    err = np.abs(x).max()
    while err > tol and left > 0:
        x = x * (0.5 + 0.25 * left / budget)
        err = np.abs(x).max()
        left -= 1
    return x, left


# --------------------------------- 2. a Python float accumulator beside an array test
def heat_until_steady(u, dt, T, tol):
    """Explicit heat steps until steady or the end time."""
    t = 0.0
    err = np.float64(np.inf)
    while t < T and np.max(err) > tol:
        u_new = u.copy()
        u_new[1:-1] = u[1:-1] + dt * (u[2:] - 2.0 * u[1:-1] + u[:-2])
        err = np.abs(u_new - u)
        u = u_new
        t += dt
    return u, t


def ode_until_event(y, v, dt, t_end):
    """A falling body until it hits the ground or the time runs out."""
    t = 0.0
    while t < t_end and y.min() > 0.0:
        v = v - 9.81 * dt
        y = y + v * dt
        t += dt
    return y, v, t


def decay_time_accumulated(x, rate, dt, tol):
    """How long until a decay falls below tol (the array test alone)."""
    t = 0.0
    while np.abs(x).max() > tol:
        x = x * np.exp(-rate * dt)
        t += dt
    return x, t


def float_time_read_in_body(x, dt, T, tol):
    """The accumulated time feeds the update (a forcing)."""
    t = 0.0
    err = np.float64(1.0)
    while t < T and err > tol:
        x_new = 0.9 * x + dt * np.cos(t)
        err = np.abs(x_new - x).max()
        x = x_new
        t = t + dt
    return x, t


def float32_state_float_time(u, dt, T, tol):
    """A float32 state beside a Python float clock."""
    t = 0.0
    change = np.float32(1.0)
    while t < T and change > tol:
        u_new = u * np.float32(0.5)
        change = np.abs(u_new - u).max()
        u = u_new
        t += dt
    return u, t


# ----------------------------------------------- 3. the array test first in an ``or``
def relax_at_least_miniter(x, tol, miniter):
    """At least miniter sweeps, then until converged."""
    it = 0
    err = np.abs(x).max()
    while err > tol or it < miniter:
        x = 0.5 * x
        err = np.abs(x).max()
        it += 1
    return x, it


def bisection_or_miniter(lo, hi, tol, miniter):
    """Bisection for sqrt(2) on 0-d arrays, at least miniter halvings."""
    it = 0
    while hi - lo > tol or it < miniter:
        mid = 0.5 * (lo + hi)
        if_low = mid * mid < 2.0
        lo = np.where(if_low, mid, lo)
        hi = np.where(if_low, hi, mid)
        it += 1
    return lo, hi, it


def secant_or_two_steps(x0, x1, tol, maxit_floor):
    """Secant iteration for x**3 = 2 (0-d arrays), at least maxit_floor steps."""
    it = 0
    while np.abs(x1 - x0) > tol or it < maxit_floor:
        f0 = x0 ** 3 - 2.0
        f1 = x1 ** 3 - 2.0
        x0, x1 = x1, x1 - f1 * (x1 - x0) / (f1 - f0)
        it += 1
    return x1, it


def power_iteration_or(A, tol, warmup):
    """Power iteration that runs warmup steps before trusting its delta."""
    x = np.ones(A.shape[0])
    lam = np.float64(0.0)
    delta = np.float64(np.inf)
    k = 0
    while delta > tol or k < warmup:
        y = A @ x
        lam_new = np.linalg.norm(y)
        x = y / lam_new
        delta = np.abs(lam_new - lam)
        lam = lam_new
        k += 1
    return lam, x, k


def countdown_or(x, tol, left):
    """At least ``left`` more sweeps (a countdown) or until converged."""
    err = np.abs(x).max()
    while err > tol or left > 0:
        x = x * 0.25
        err = np.abs(x).max()
        left -= 1
    return x, left


def or_with_counter_in_step(x, tol, miniter):
    """``or`` and the counter read in the update together."""
    it = 0
    err = np.abs(x).max()
    while err > tol or it < miniter:
        x = x * (0.5 + 0.5 / (it + 2))
        err = np.abs(x).max()
        it += 1
    return x, it


def or_test_that_computes(x, tol, miniter):
    """The array test computes (a norm) on every trip, as Python does, first."""
    it = 0
    while np.linalg.norm(x) > tol or it < miniter:
        x = x * 0.5
        it += 1
    return x, it


def or_counter_not_read_after(x, tol, miniter):
    """The counter is dead after the loop."""
    it = 0
    err = np.abs(x).max()
    while err > tol or it < miniter:
        x = x * 0.75
        err = np.abs(x).max()
        it += 1
    return x


# ------------------- 4. more counters read in the update (helper-118, before the code)
def counter_from_one(x, h, tol, maxit):
    """``x + h * i`` with the counter from 1."""
    i = 1
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = 0.5 * x + h * i
        err = np.abs(x - 2.0 * h * i).max()
        i += 1
    return x, i


def counter_from_minus_three_by_two(x, tol):
    """A counter from -3 in steps of 2, read as a float, no maximum."""
    k = -3
    err = np.abs(x).max()
    while err > tol:
        x = x * (0.5 + 0.01 * k / (k * k + 1.0) ** 0.5)
        err = np.abs(x).max()
        k += 2
    return x, k


def time_from_int_dt(y, t0, dt, tol, maxit):
    """``t = t0 + i * dt`` with ints: t is an int, added to a float array."""
    i = 0
    err = np.abs(y).max()
    while err > tol and i < maxit:
        t = t0 + i * dt
        y = y * 0.5 + t * 1e-3
        err = np.abs(y - t * 2e-3).max()
        i += 1
    return y, i


def time_from_float_dt(y, t0, dt, tol, maxit):
    """``t = t0 + i * dt`` with floats: each trip's t from the counter (no sum)."""
    i = 0
    err = np.float64(np.inf)
    while err > tol and i < maxit:
        t = t0 + i * dt
        y_new = y + dt * (np.cos(t) - y)
        err = np.abs(y_new - y).max()
        y = y_new
        i += 1
    return y, i


def time_from_float32_dt(y, dt, tol, maxit):
    """``i * dt`` with dt an np.float32: NumPy's arithmetic (a float32 scalar)."""
    i = 0
    err = np.float32(np.inf)
    while err > tol and i < maxit:
        y_new = y * np.float32(0.5) + i * dt
        err = np.abs(y_new - y).max()
        y = y_new
        i += 1
    return y, i


def counter_as_index(x, tol, maxit):
    """The counter indexes an array (``x[i]``): may stay a break."""
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5
        x[i % 1] += 0.0
        err = np.abs(x[i]).max()
        i += 1
    return x, i


def counter_into_int_array_float32(counts, limit, maxit):
    """The counter added to an int32 array, stepping by 3."""
    k = 0
    top = counts.max()
    while top < limit and k < maxit:
        counts = counts + k
        top = counts.max()
        k += 3
    return counts, k


def counter_read_in_test_or(x, tol, miniter):
    """``or`` with the counter read in the update (as a float)."""
    it = 0
    err = np.abs(x).max()
    while err > tol or it < miniter:
        x = x * (1.0 - 1.0 / (it + 4))
        err = np.abs(x).max()
        it += 1
    return x, it


def counter_dead_after(x, h, tol, maxit):
    """The counter is read in the update only (dead after the loop)."""
    i = 0
    err = np.abs(x).max()
    while err > tol and i < maxit:
        x = x * 0.5 + h / (i + 1.0)
        err = np.abs(x - h / (i + 1.0)).max()
        i += 1
    return x



# ------------------------ 5. a Python float clock beside an array test (more shapes)
def clock_array_test_first(x, dt, t_end, tol):
    """The array test first, the clock second (``t += dt`` repeated is no ``i * dt``)."""
    t = 0.0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.9
        t += dt
    return x, t


def clock_assign_add(x, t0, dt, t_end, tol):
    """``t = t + dt`` from a start that is an argument."""
    t = t0
    while np.abs(x).max() > tol and t < t_end:
        x = x - 0.25 * x
        t = t + dt
    return x, t


def clock_int_step(x, dt, t_end, tol):
    """A float clock stepped by an int: a float after every trip."""
    t = 0.5
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.5
        t += dt
    return x, t


def clock_float32_step(x, dt, t_end, tol):
    """A Python float clock stepped by an np.float32: an np.float32 after the first
    trip (NEP 50)."""
    t = 0.0
    while np.abs(x).max() > tol and t < t_end:
        x = x * 0.5
        t += dt
    return x, t


def clock_read_in_update(x, dt, t_end, tol):
    """The clock read in the update, ``x = x + dt * f(t, x)``: forced decay."""
    t = 0.0
    err = np.float64(np.inf)
    while err > tol and t < t_end:
        dx = dt * (np.sin(t) - x)
        x = x + dx
        err = np.abs(dx).max()
        t += dt
    return x, t


def clock_float32_state_read(u, dt, t_end, tol):
    """A float32 state with the Python float clock in its update: float32 (NEP 50)."""
    t = 0.0
    change = np.float32(np.inf)
    while change > tol and t < t_end:
        u_new = u + dt * (t - u)
        change = np.abs(u_new - u).max()
        u = u_new
        t += dt
    return u, t


def clock_countdown(x, dt, tol):
    """A clock counting down to 0 (1.0 - 0.1 ten times is 1.4e-16, not 0: 11 trips)."""
    t = 1.0
    while t > 0.0 and np.abs(x).max() > tol:
        x = 0.5 * x
        t -= dt
    return x, t


def clock_first_plain_test(x, dt, t_end, tol):
    """The clock tested first, before an array test that only compares."""
    t = 0.0
    err = np.abs(x).max()
    while t < t_end and err > tol:
        x = x * 0.5
        err = np.abs(x).max()
        t += dt
    return x, t


def clock_against_constant(x, dt, tol):
    """The clock against a float constant (``t < 2.5``), stepped by ``t = t + dt``."""
    t = 0.0
    while np.abs(x).max() > tol and t < 2.5:
        x = x * 0.75
        t = t + dt
    return x, t


def clock_alone(x, dt, t_end):
    """The clock alone ends the loop: no array test, Python numbers only."""
    t = 0.0
    while t < t_end:
        x = x + dt * (np.cos(t) - x)
        t += dt
    return x, t

PROGRAMS = [
    # 1. a counter read in the update
    ("euler_forced_decay", euler_forced_decay, (np.array([1.0, -0.5, 2.0]), 0.1, 1e-6, 400)),
    ("euler_forced_decay_exhausts", euler_forced_decay, (np.array([1.0, 2.0]), 0.1, 1e-12, 5)),
    ("euler_forced_decay_no_trip", euler_forced_decay, (np.array([1.0, 2.0]), 0.1, 1e-6, 0)),
    ("damped_newton_sqrt", damped_newton_sqrt, (_rng(1).uniform(0.5, 4.0, 5), 1e-12, 200)),
    ("damped_newton_sqrt_one_trip", damped_newton_sqrt,
     (_rng(1).uniform(0.5, 4.0, 5), 1e-12, 1)),
    ("relaxation_omega_k", relaxation_omega_k,
     (_diag_dominant(6, 2), _rng(3).standard_normal(6), 1e-10, 500)),
    ("gradient_descent_decay", gradient_descent_decay,
     (_diag_dominant(4, 4) @ _diag_dominant(4, 4).T / 16.0, _rng(5).standard_normal(4),
      0.5, 0.01, 1e-8, 300)),
    ("float32_time_stepper", float32_time_stepper,
     (_rng(6).uniform(-1.0, 1.0, 5).astype(np.float32), 0.5, 1e-4, 100)),
    ("geometric_damping", geometric_damping, (_rng(7).uniform(-3.0, 3.0, 4), 1e-3, 100)),
    ("int_counter_into_int_array", int_counter_into_int_array,
     (np.array([1, 5, 2], dtype=np.int64), 60, 50)),
    ("int_counter_into_int32_array", int_counter_into_int_array,
     (np.array([1, 5, 2], dtype=np.int32), 60, 50)),
    ("frank_wolfe_step", frank_wolfe_step,
     (_diag_dominant(4, 8), _rng(9).standard_normal(4), 1e-2, 1000)),
    ("counter_in_step_unbounded", counter_in_step_unbounded,
     (_rng(10).uniform(-2.0, 2.0, 4), 1e-3)),
    ("counter_down_in_step", counter_down_in_step, (_rng(11).uniform(-2.0, 2.0, 4), 1e-6, 40)),
    # 2. a Python float accumulator beside an array test
    ("heat_until_steady", heat_until_steady,
     (np.sin(np.linspace(0.0, np.pi, 12)), 0.2, 5.0, 1e-6)),
    ("heat_until_steady_time_runs_out", heat_until_steady,
     (np.sin(np.linspace(0.0, np.pi, 12)), 0.2, 1.0, 1e-12)),
    ("ode_until_event", ode_until_event, (np.array([10.0, 20.0]), np.zeros(2), 0.05, 3.0)),
    ("decay_time_accumulated", decay_time_accumulated,
     (_rng(12).uniform(0.5, 2.0, 4), 0.7, 0.1, 1e-3)),
    ("float_time_read_in_body", float_time_read_in_body, (np.ones(3), 0.1, 10.0, 1e-9)),
    ("float32_state_float_time", float32_state_float_time,
     (np.ones(3, dtype=np.float32), 0.1, 2.0, 1e-3)),
    # 3. the array test first in an ``or``
    ("relax_at_least_miniter", relax_at_least_miniter,
     (_rng(13).uniform(-1.0, 1.0, 4), 1e-3, 30)),
    ("relax_at_least_miniter_test_decides", relax_at_least_miniter,
     (_rng(13).uniform(-1.0, 1.0, 4), 1e-9, 3)),
    ("relax_at_least_miniter_no_trip", relax_at_least_miniter, (np.zeros(4), 1e-3, 0)),
    ("relax_at_least_miniter_one_trip", relax_at_least_miniter, (np.zeros(4), 1e-3, 1)),
    ("bisection_or_miniter", bisection_or_miniter,
     (np.array(1.0), np.array(2.0), 1e-10, 5)),
    ("secant_or_two_steps", secant_or_two_steps, (np.array(1.0), np.array(2.0), 1e-12, 2)),
    ("power_iteration_or", power_iteration_or,
     (_diag_dominant(5, 14) @ _diag_dominant(5, 14).T, 1e-10, 3)),
    ("countdown_or", countdown_or, (_rng(15).uniform(-1.0, 1.0, 3), 1e-4, 12)),
    ("or_with_counter_in_step", or_with_counter_in_step,
     (_rng(16).uniform(-1.0, 1.0, 3), 1e-4, 10)),
    ("or_test_that_computes", or_test_that_computes, (_rng(17).uniform(-1.0, 1.0, 3), 1e-4, 25)),
    ("or_counter_not_read_after", or_counter_not_read_after,
     (_rng(18).uniform(-1.0, 1.0, 3), 1e-4, 40)),
    # 4. more counters read in the update
    ("counter_from_one", counter_from_one, (np.array([1.0, -2.0]), 0.01, 1e-3, 60)),
    ("counter_from_one_exhausts", counter_from_one, (np.array([1.0, -2.0]), 0.01, 1e-12, 6)),
    ("counter_from_minus_three_by_two", counter_from_minus_three_by_two,
     (np.array([3.0, -1.0, 0.5]), 1e-6)),
    ("time_from_int_dt", time_from_int_dt, (np.array([4.0, 1.0]), 3, 2, 1e-3, 40)),
    ("time_from_float_dt", time_from_float_dt, (np.array([0.5, 1.5]), 0.25, 0.1, 1e-9, 300)),
    ("time_from_float32_dt", time_from_float32_dt,
     (np.ones(3, dtype=np.float32), np.float32(0.25), 1e-3, 50)),
    ("counter_as_index", counter_as_index, (np.array([4.0, 2.0, 1.0, 0.5] * 4), 1e-2, 9)),
    ("counter_into_int_array_float32", counter_into_int_array_float32,
     (np.array([1, 5, 2], dtype=np.int32), 200, 50)),
    ("counter_read_in_test_or", counter_read_in_test_or, (np.array([2.0, -1.0]), 1e-3, 7)),
    ("counter_dead_after", counter_dead_after, (np.array([2.0, -1.0]), 0.5, 1e-9, 80)),
    # 5. a Python float clock beside an array test (more shapes)
    ("clock_array_test_first", clock_array_test_first,
     (_rng(19).uniform(0.5, 1.0, 3), 0.1, 1.0, 1e-9)),
    ("clock_array_test_first_test_decides", clock_array_test_first,
     (_rng(19).uniform(0.5, 1.0, 3), 0.1, 100.0, 1e-2)),
    ("clock_array_test_first_nan_tol", clock_array_test_first,
     (_rng(19).uniform(0.5, 1.0, 3), 0.1, 1.0, float("nan"))),
    ("clock_assign_add", clock_assign_add, (np.array([1.0, -3.0]), 0.3, 0.1, 2.0, 1e-12)),
    ("clock_int_step", clock_int_step, (np.array([1.0, -3.0]), 2, 9.0, 1e-12)),
    ("clock_float32_step", clock_float32_step,
     (np.array([1.0, -3.0]), np.float32(0.1), 1.0, 1e-12)),
    ("clock_read_in_update", clock_read_in_update, (np.ones(3), 0.05, 2.0, 1e-9)),
    ("clock_read_in_update_test_decides", clock_read_in_update,
     (np.zeros(3), 0.05, 50.0, 1e-1)),
    ("clock_float32_state_read", clock_float32_state_read,
     (np.ones(4, dtype=np.float32), 0.1, 1.0, 1e-6)),
    ("clock_countdown", clock_countdown, (np.array([1.0, 2.0]), 0.1, 1e-9)),
    ("clock_first_plain_test", clock_first_plain_test,
     (np.array([1.0, -2.0]), 0.1, 1.0, 1e-9)),
    ("clock_first_plain_test_test_decides", clock_first_plain_test,
     (np.array([1.0, -2.0]), 0.1, 1.0, 1e-2)),
    ("clock_against_constant", clock_against_constant, (np.array([1.0, -2.0]), 0.3, 1e-12)),
    ("clock_alone", clock_alone, (np.ones(3), 0.1, 1.0)),
    ("clock_alone_many_steps", clock_alone, (np.ones(3), 0.01, 3.0)),
]
