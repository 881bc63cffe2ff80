"""``while <array test>:`` loops capped by a counter inside the body (issue #19, task
t3; dynamo/translator/while_caps.py): ``k += 1; if k > maxit: return ...`` or
``break``. Programs of the p64 d3 study (Newton, fixed point, CG, power iteration,
gradient descent, bisection) and neighbours (the cap first in the body, a flag
branch before it, ops in the exit's code), each ``(name, fn, args)``; and loops
that stay breaks (a second exit on data, a counter stepped on both sides of the cap,
a bisection of 0-d arrays: no faster as a node).
"""

from __future__ import annotations

import numpy as np


def _spd(n: int, seed: int = 0):
    m = np.random.default_rng(seed).standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


def newton_cap_return(a, tol=1e-10, maxit=50):
    x = np.ones_like(a)
    r = x * x - a
    k = 0
    while np.abs(r).max() > tol:
        x = x - r / (2.0 * x)
        r = x * x - a
        k += 1
        if k > maxit:
            return x, k
    return x, k


def fixed_point_cap(x0, tol=1e-12, maxit=200):
    x = x0.copy()
    err = np.abs(x).max() + 1.0       # (a NumPy scalar, as the body's err)
    it = 0
    while err > tol:
        xn = np.cos(x)
        err = np.max(np.abs(xn - x))
        x = xn
        it += 1
        if it >= maxit:
            return x, -1
    return x, it


def fixed_point_cap_array_err(x0, tol=1e-12, maxit=200):
    x = x0.copy()
    err = np.ones(())                 # (a 0-d array, then a NumPy scalar: 3.14 breaks)
    it = 0
    while err > tol:
        xn = np.cos(x)
        err = np.max(np.abs(xn - x))
        x = xn
        it += 1
        if it >= maxit:
            return x, -1
    return x, it


def cg_cap(A, b, tol=1e-10, maxit=100):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    k = 0
    while np.sqrt(rs) > tol:
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x = x + alpha * p
        r = r - alpha * Ap
        rs_new = r @ r
        p = r + (rs_new / rs) * p
        rs = rs_new
        k += 1
        if k == maxit:
            return x, k
    return x, k


def power_cap_break(A, tol=1e-9, maxit=500):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = v @ (A @ v)
    diff = np.abs(lam) + 1.0
    k = 0
    while diff > tol:
        w = A @ v
        v = w / np.linalg.norm(w)
        lam_new = v @ (A @ v)
        diff = np.abs(lam_new - lam)
        lam = lam_new
        k += 1
        if k >= maxit:
            break
    return lam, v, k


def gd_cap(Q, c, lr=0.05, tol=1e-8, maxit=1000):
    x = np.zeros_like(c)
    g = Q @ x - c
    n = 0
    while np.linalg.norm(g) > tol:
        x = x - lr * g
        g = Q @ x - c
        n += 1
        if n > maxit:
            return x
    return x


def bisect_cap_first(lo, hi, tol=1e-12, maxit=100):
    it = 0
    while hi - lo > tol:
        if it >= maxit:
            return 0.5 * (lo + hi), it
        mid = 0.5 * (lo + hi)
        fm = mid ** 3 - 2.0
        lo = np.where(fm < 0, mid, lo)
        hi = np.where(fm < 0, hi, mid)
        it += 1
    return 0.5 * (lo + hi), it


def bisect_cap_first_rows(lo, hi, tol=1e-12, maxit=100):
    it = 0
    while (hi - lo).max() > tol:
        if it >= maxit:
            return 0.5 * (lo + hi), it
        mid = 0.5 * (lo + hi)
        fm = mid ** 3 - 2.0 * lo / lo
        lo = np.where(fm < 0, mid, lo)
        hi = np.where(fm < 0, hi, mid)
        it += 1
    return 0.5 * (lo + hi), it


def newton_flag_then_cap(a, tol=1e-10, maxit=50, damp=False):
    x = np.ones_like(a)
    r = x * x - a
    k = 0
    while np.abs(r).max() > tol:
        if damp:                      # (a flag: decided while tracing)
            r = 0.5 * r
        x = x - r / (2.0 * x)
        r = x * x - a
        k += 1
        if k > maxit:
            break
    return x, k


def newton_cap_exit_ops(a, tol=1e-10, maxit=50):
    x = np.ones_like(a)
    r = x * x - a
    k = 0
    while np.abs(r).max() > tol:
        x = x - r / (2.0 * x)
        r = x * x - a
        k += 1
        if k > maxit:
            return np.full_like(x, np.nan), -k
    return x * 1.0, k


# stay breaks
def newton_stepped_twice(a, tol=1e-10, maxit=50):
    x = np.ones_like(a)
    r = x * x - a
    k = 0
    while np.abs(r).max() > tol:
        x = x - r / (2.0 * x)
        r = x * x - a
        k += 1
        if k > maxit:
            return x, k
        k += 1
    return x, k


def jacobi_diverge(A, b, tol=1e-8):
    D = np.diag(A)
    R = A - np.diag(D)
    x = np.zeros_like(b)
    res = np.linalg.norm(b - A @ x)
    while res > tol:
        x = (b - R @ x) / D
        res = np.linalg.norm(b - A @ x)
        if res > 1e12:
            return x, np.inf
    return x, res


_A = np.random.default_rng(1).uniform(1.0, 100.0, 50)
_X0 = np.random.default_rng(2).uniform(0.0, 1.0, 40)
_S = _spd(12)
_B = np.random.default_rng(3).standard_normal(12)

PROGRAMS = [
    ("newton_cap_return", newton_cap_return, (_A,)),
    ("newton_cap_return_capped", newton_cap_return, (_A, 1e-10, 3)),
    ("fixed_point_cap", fixed_point_cap, (_X0,)),
    ("fixed_point_cap_capped", fixed_point_cap, (_X0, 1e-12, 5)),
    ("fixed_point_cap_array_err", fixed_point_cap_array_err, (_X0, 1e-12, 5)),
    ("cg_cap", cg_cap, (_S, _B)),
    ("cg_cap_capped", cg_cap, (_S, _B, 1e-10, 2)),
    ("power_cap_break", power_cap_break, (_S,)),
    ("power_cap_break_capped", power_cap_break, (_S, 1e-9, 3)),
    ("gd_cap", gd_cap, (_S / 24.0, _B)),
    ("gd_cap_capped", gd_cap, (_S / 24.0, _B, 0.05, 1e-8, 4)),
    ("bisect_cap_first", bisect_cap_first, (np.array(1.0), np.array(2.0))),
    ("bisect_cap_first_capped", bisect_cap_first, (np.array(1.0), np.array(2.0), 1e-12, 7)),
    ("bisect_cap_first_rows", bisect_cap_first_rows, (np.ones(8), np.full(8, 2.0))),
    ("bisect_cap_first_rows_capped", bisect_cap_first_rows,
     (np.ones(8), np.full(8, 2.0), 1e-12, 7)),
    ("newton_flag_then_cap", newton_flag_then_cap, (_A, 1e-10, 3, True)),
    ("newton_cap_exit_ops", newton_cap_exit_ops, (_A, 1e-10, 3)),
    ("newton_stepped_twice", newton_stepped_twice, (_A, 1e-10, 3)),
    ("jacobi_diverge", jacobi_diverge, (4.0 * np.eye(3) + 0.5, np.ones(3), 1e-3)),
]
