"""Programs of everyday numerical code whose loops leave on data in ways the earlier
corpora left as breaks (issue #19, task t5): ``while`` loops that ``return`` from
inside (Newton with ``while it < maxit``, bisection, fixed-point iteration), exits
that set a Python flag (``converged = True; break``), exits that print, and numbers
picked from an array inside a ``while`` loop or a triangular loop (``p = x[i]``,
``if a[k] > best: best = a[k]; j = k``) used in Python arithmetic.

Written before the code that makes them nodes. ``PROGRAMS`` is ``(name, fn, args)``;
tests/translator/test_while_exits.py compares each with Python on both CPU backends
and counts its breaks (``dynamo.explain``).
"""

from __future__ import annotations

import numpy as np

# -- 1. while loops whose exit returns -------------------------------------------

def newton_while_return(a, tol, maxit=20):
    x = np.where(a > 1, a, 1.0)
    it = 0
    while it < maxit:
        x_new = 0.5 * (x + a / x)
        if np.max(np.abs(x_new - x)) < tol:
            return x_new, it + 1
        x = x_new
        it += 1
    return x, maxit


def fixed_point_while_return(x0, tol, maxit=30):
    x = x0.copy()
    k = 0
    while k < maxit:
        x_new = np.cos(x)
        if np.abs(x_new - x).max() < tol:
            return x_new
        x = x_new
        k += 1
    return x


def bisection_while_return(c, tol, maxit=60):
    lo = np.zeros_like(c)
    hi = np.maximum(c, 1.0)
    n = 0
    while n < maxit:
        mid = 0.5 * (lo + hi)
        f = mid * mid - c
        if np.abs(f).max() < tol:
            return mid, n
        lo = np.where(f < 0, mid, lo)
        hi = np.where(f < 0, hi, mid)
        n += 1
    return 0.5 * (lo + hi), n


def refinement_while_return(A, b, tol, maxit=10):
    x = np.linalg.solve(A, b)
    it = 0
    while it < maxit:
        r = b - A @ x
        if np.linalg.norm(r) < tol:
            return x, it
        x = x + np.linalg.solve(A, r)
        it += 1
    return x, -1


# -- 2. exits that leave a Python flag ---------------------------------------------

def jacobi_converged_flag(A, b, tol, maxit=40):
    d = np.diag(A)
    R = A - np.diag(d)
    x = np.zeros_like(b)
    converged = False
    for _ in range(maxit):
        x_new = (b - R @ x) / d
        if np.abs(x_new - x).max() < tol:
            converged = True
            x = x_new
            break
        x = x_new
    return x, converged


def power_iteration_flag(A, tol, maxit=50):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    ok = False
    for _ in range(maxit):
        w = A @ v
        lam_new = v @ w
        v = w / np.linalg.norm(w)
        if abs(lam_new - lam) < tol:
            ok = True
            break
        lam = lam_new
    return v, ok


def newton_flag_counter(a, tol, maxit=20):
    x = np.ones_like(a)
    done = False
    it = 0
    while it < maxit:
        dx = (x * x - a) / (2.0 * x)
        if np.abs(dx).max() < tol:
            done = True
            break
        x = x - dx
        it += 1
    return x, done


def relax_failed_flag(x0, tol, maxit=25):
    """The flag the other way round: True before the loop, False at the exit."""
    x = x0.copy()
    failed = True
    for _ in range(maxit):
        x_new = 0.5 * (x + np.sin(x))
        if np.abs(x_new - x).max() < tol:
            failed = False
            break
        x = x_new
    return x, failed


def flag_then_branch(a, tol, maxit=20):
    """The flag used after the loop by an ``if``: it breaks there, not at the loop."""
    x = np.ones_like(a)
    converged = False
    for _ in range(maxit):
        dx = (x * x - a) / (2.0 * x)
        if np.abs(dx).max() < tol:
            converged = True
            break
        x = x - dx
    if converged:
        return x
    return -x


# -- 3. exits that print -----------------------------------------------------------

def newton_print_exit(a, tol, maxit=20):
    x = np.ones_like(a)
    for it in range(maxit):
        dx = (x * x - a) / (2.0 * x)
        if np.abs(dx).max() < tol:
            print("converged")
            break
        x = x - dx
    return x


def fixed_point_print_return(x0, tol, maxit=30):
    x = x0.copy()
    for _ in range(maxit):
        x_new = np.cos(x)
        if np.abs(x_new - x).max() < tol:
            print("converged", "fixed point")
            return x_new
        x = x_new
    return x


def newton_print_both_ways(a, tol, maxit=20):
    """Prints the error where it converged, then one more line after the loop on
    both ways."""
    x = np.ones_like(a)
    it = 0
    while it < maxit:
        dx = (x * x - a) / (2.0 * x)
        err = np.abs(dx).max()
        if err < tol:
            print("converged, err", err)
            break
        x = x - dx
        it += 1
    print("done")
    return x


def newton_print_counter(a, tol, maxit=20):
    """The exit prints the counter: an int only the data decides, whose text the
    glue does not make (a deferred print of it breaks, as before)."""
    x = np.ones_like(a)
    it = 0
    while it < maxit:
        dx = (x * x - a) / (2.0 * x)
        if np.abs(dx).max() < tol:
            print("converged after", it, "steps")
            break
        x = x - dx
        it += 1
    return x


# -- 4. picked numbers in while loops and triangular segments ----------------------

def damped_newton_select(a, tol, maxit=40):
    """An ``if`` on data in a ``while`` body that rescales the step: a select."""
    x = np.ones_like(a)
    it = 0
    err = np.abs(x * x - a).max()
    while err > tol and it < maxit:
        step = (x * x - a) / (2.0 * x)
        if np.abs(step).max() > 1.0:
            step = step / np.abs(step).max()
        x = x - step
        err = np.abs(x * x - a).max()
        it += 1
    return x, it


def count_damped(a, tol, maxit=40):
    """A Python int counted under an ``if`` on data in a ``while`` body (how many
    steps were damped): picked per trip, carried as an ``np.int64``."""
    x = np.ones_like(a)
    it = 0
    damped = 0
    err = np.abs(x * x - a).max()
    while err > tol and it < maxit:
        step = (x * x - a) / (2.0 * x)
        if np.abs(step).max() > 1.0:
            step = step / np.abs(step).max()
            damped += 1
        x = x - step
        err = np.abs(x * x - a).max()
        it += 1
    return x, it, damped


def count_damped_unbounded(a, tol):
    """The same count with no bound on the trips: its int64 could overflow where
    Python's int does not (in theory): no node, a break as before."""
    x = np.ones_like(a)
    damped = 0
    err = np.abs(x * x - a).max()
    while err > tol:
        step = (x * x - a) / (2.0 * x)
        if np.abs(step).max() > 1.0:
            step = step / np.abs(step).max()
            damped += 1
        x = x - step
        err = np.abs(x * x - a).max()
    return x, damped


def last_big_step(a, tol, maxit=40):
    """A Python float picked per trip in a ``while`` body: the last step size above a
    threshold, kept from before the loop where none was."""
    x = np.ones_like(a)
    it = 0
    big = -1.0
    err = np.abs(x * x - a).max()
    while err > tol and it < maxit:
        step = (x * x - a) / (2.0 * x)
        size = np.abs(step).max()
        if size > 1.0:
            big = 2.5
        x = x - step
        err = np.abs(x * x - a).max()
        it += 1
    return x, big


def argmax_scan_while(a):
    best = a[0]
    j = 0
    k = 1
    n = a.shape[0]
    while k < n:
        if a[k] > best:
            best = a[k]
            j = k
        k += 1
    return best, j


def pivot_triangular(A):
    """Partial pivot search below the diagonal: the row of the largest entry per
    column, as Gaussian elimination's by hand."""
    n = A.shape[0]
    rows = np.zeros(n, dtype=np.int64)
    for i in range(n):
        best = abs(A[i, i])
        p = i
        for k in range(i + 1, n):
            if abs(A[k, i]) > best:
                best = abs(A[k, i])
                p = k
        rows[i] = p
    return rows


def running_max_scaled(x):
    m = x[0]
    for i in range(1, x.shape[0]):
        p = x[i]
        if p > m:
            m = p
    return m * 2.0 + 1.0


def running_max_identity(x):
    """``m is p`` after the loop: True where the last item was the running max, which
    only the data decides (an ``is`` the trace cannot answer: it breaks there)."""
    m = x[0]
    p = m
    for i in range(1, x.shape[0]):
        p = x[i]
        if p > m:
            m = p
    return m, m is p


def running_min_max(x):
    """Two running bests of NumPy scalars in one loop, used in arithmetic after it."""
    lo = x[0]
    hi = x[0]
    for i in range(1, x.shape[0]):
        v = x[i]
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return (hi - lo) / 2.0, lo, hi


def _spd(n, seed=0):
    rng = np.random.default_rng(seed)
    M = rng.standard_normal((n, n))
    return M @ M.T + n * np.eye(n)


PROGRAMS = [
    ("newton_while_return", newton_while_return,
     (np.linspace(0.5, 9.0, 7), 1e-10)),
    ("fixed_point_while_return", fixed_point_while_return,
     (np.linspace(0.0, 1.0, 5), 1e-9)),
    ("bisection_while_return", bisection_while_return,
     (np.linspace(0.5, 4.0, 6), 1e-8)),
    ("refinement_while_return", refinement_while_return,
     (_spd(6), np.arange(6.0), 1e-12)),
    ("jacobi_converged_flag", jacobi_converged_flag,
     (_spd(5), np.arange(5.0), 1e-10)),
    ("power_iteration_flag", power_iteration_flag, (_spd(5), 1e-10)),
    ("newton_flag_counter", newton_flag_counter, (np.linspace(0.5, 9.0, 7), 1e-10)),
    ("relax_failed_flag", relax_failed_flag, (np.linspace(0.1, 1.0, 4), 1e-4)),
    ("flag_then_branch", flag_then_branch, (np.linspace(0.5, 9.0, 7), 1e-10)),
    ("newton_print_exit", newton_print_exit, (np.linspace(0.5, 9.0, 7), 1e-10)),
    ("fixed_point_print_return", fixed_point_print_return,
     (np.linspace(0.0, 1.0, 5), 1e-9)),
    ("newton_print_both_ways", newton_print_both_ways,
     (np.linspace(0.5, 9.0, 7), 1e-10)),
    ("newton_print_counter", newton_print_counter, (np.linspace(0.5, 9.0, 7), 1e-10)),
    ("damped_newton_select", damped_newton_select, (np.linspace(0.5, 90.0, 7), 1e-10)),
    ("count_damped", count_damped, (np.linspace(0.5, 90.0, 7), 1e-10)),
    ("count_damped_unbounded", count_damped_unbounded, (np.linspace(0.5, 90.0, 7), 1e-10)),
    ("last_big_step", last_big_step, (np.linspace(0.5, 90.0, 7), 1e-10)),
    ("argmax_scan_while", argmax_scan_while,
     (np.array([0.3, 2.0, -1.0, 7.5, 7.5, 0.1, 3.0, 4.0, -2.0, 5.0, 1.0, 6.0]),)),
    ("pivot_triangular", pivot_triangular, (np.random.default_rng(3).standard_normal((12, 12)),)),
    ("running_max_scaled", running_max_scaled,
     (np.random.default_rng(4).standard_normal(20),)),
    ("running_max_identity", running_max_identity,
     (np.random.default_rng(5).standard_normal(20),)),
    ("running_min_max", running_min_max, (np.random.default_rng(6).standard_normal(20),)),
]
