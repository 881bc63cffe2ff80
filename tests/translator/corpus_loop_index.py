"""Programs whose loop index is used as a number (issues #15, #19): time-dependent
sources, learning-rate schedules, decays, Pegasos steps. Written before any of them ran
under dynamo, the way such loops are written in NumPy code.

``PROGRAMS``: (name, fn, make_args, node) with ``node`` True where the loop must be one
``fori_loop`` node (the index flows into the body as a value of the trip), False where
it must stay unrolled (a Python-level use needs the concrete value: a branch on it, a
list index, ``math.sin``, ``str``, an int power that may leave int64, a NumPy scalar
operand).

Example::

    >>> name, fn, make_args, node = PROGRAMS[0]
    >>> fn(*make_args()).shape
    (64,)
"""

from __future__ import annotations

import math

import numpy as np


def _x(n=64, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(n).astype(dtype)


# ----------------------------------------------------------------- becomes one node
def sine_source(u, src):
    for t in range(40):
        u = u + np.sin(0.1 * t) * src
    return u


def sine_source_f32(u, src):
    # np.sin of a Python float is an np.float64: a strong scalar that makes u float64
    for t in range(30):
        u = u + np.sin(0.1 * t) * src
    return u


def pegasos(w, g, lam):
    n = 25
    for t in range(1, n + 1):
        w -= (lam * w - g) / (lam * t)
    return w


def lr_decay(w, target, lr0, decay):
    for t in range(30):
        lr = lr0 / (1 + decay * t)
        w = w - lr * (w - target)
    return w


def lr_decay_left(w, target):
    # the schedule's last value is read after the loop
    for t in range(20):
        lr = 0.5 / (1.0 + 0.1 * t)
        w = w - lr * (w - target)
    return w, lr


def geometric_decay(x):
    for t in range(50):
        x = x * (0.99 ** t)
    return x


def geometric_decay_f32(x):
    # a Python float with a float32 array stays float32 (NEP 50)
    for t in range(24):
        x = x * (0.97 ** t) + 0.5 * t
    return x


def time_from_index(u, f, dt, omega):
    for t in range(36):
        tt = t * dt
        u += dt * np.cos(omega * tt) * f
    return u


def int_offset(x):
    # a Python int with an int16 array stays int16
    for t in range(20):
        x = x + t
    return x


def weighted_rows(A, out):
    for t in range(A.shape[0]):
        out += (1.0 / (1 + t)) * A[t]
    return out


def negative_base(x):
    for t in range(16):
        x = x + (-0.5) ** t
    return x


def backward_harmonic(x):
    for t in range(30, 0, -1):
        x = x + 1.0 / t
    return x


def cosine_annealing(w, g, T):
    lo, hi = 1e-3, 1e-1
    for t in range(T):
        lr = lo + 0.5 * (hi - lo) * (1 + np.cos(np.pi * t / T))
        w = w - lr * g
    return w


def symbolic_trips(w, T):
    # called with several T: the trip count becomes a symbol; lr is read after
    for t in range(T):
        lr = 1.0 / (1.0 + 0.05 * t)
        w = w * (1.0 - 0.01 * lr)
    return w, lr


def float_of_index(u, f):
    dt = 0.02
    for t in range(25):
        tt = float(t) * dt            # float() of the index: the same double
        u = u + dt * np.exp(-tt) * f
    return u


def triangle_schedule(w, g):
    n = 24
    for t in range(n):
        lr = 0.1 * (1.0 - abs(2.0 * t / n - 1.0))   # abs of a float made from t
        w = w - lr * g
    return w


def wave_source(n=400, steps=60, src=200):
    c, dx, dt, f0 = 1.0, 0.01, 0.005, 2.0
    u_prev = np.zeros(n)
    u = np.zeros(n)
    C = c * dt / dx
    for t in range(steps):
        u_next = np.empty_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + C ** 2 * (u[2:] - 2 * u[1:-1] + u[:-2])
        u_next[src] += dt ** 2 * np.sin(2 * np.pi * f0 * t * dt)
        u_next[0] = 0.0
        u_next[-1] = 0.0
        u_prev, u = u, u_next
    return u


def three_level_shift(a, b):
    # u_prev <- u <- u_next <- new: a shift register of three time levels
    c = b.copy()
    for t in range(15):
        d = c + 0.25 * (b - a) + 0.01 * t
        a, b, c = b, c, d
    return a, b, c


def shift_written_in_place(u_prev, u):
    # the old level is written in place before it is rotated out; both are arguments
    for t in range(12):
        u_prev[0] = 0.5 * t
        u_next = u + 0.5 * (u - u_prev)
        u_prev, u = u, u_next
    return u_prev, u


def divides_by_zero(x):
    # 1 / (t - 12) raises ZeroDivisionError at t = 12, after 12 trips wrote into x
    for t in range(20):
        x += 1.0 / (t - 12)
    return x


# ----------------------------------------------------------------- stays unrolled
def branch_on_index(x):
    for t in range(30):
        if t % 10 == 0:
            x = x * 0.5
        x = x + 0.1
    return x


def list_of_coefficients(x):
    coefs = [0.5, 0.25, 0.125]
    for t in range(12):
        x = x * coefs[t % 3]
    return x


def python_math(x):
    for t in range(12):
        x = x + math.sin(0.1 * t)
    return x


def numpy_scalar_times_index(x):
    # np.float32 * Python int is np.float32 (NEP 50)
    for t in range(12):
        x = x + np.float32(0.5) * t
    return x


def int_power_overflows(x):
    # 2 ** t passes int64 at t = 63: eager raises OverflowError there
    for t in range(70):
        x = x + 2 ** t
    return x


def step_decay(w, g):
    for t in range(12):
        lr = 0.1 * 0.5 ** (t // 4)
        w = w - lr * g
    return w


PROGRAMS = [
    ("sine_source", sine_source, lambda: (_x(), _x(seed=1)), True),
    ("sine_source_f32", sine_source_f32,
     lambda: (_x(dtype=np.float32), _x(dtype=np.float32, seed=1)), True),
    ("pegasos", pegasos, lambda: (_x(), _x(seed=1), 1e-2), True),
    ("lr_decay", lr_decay, lambda: (_x(), _x(seed=1), 0.3, 0.05), True),
    ("lr_decay_left", lr_decay_left, lambda: (_x(), _x(seed=1)), True),
    ("geometric_decay", geometric_decay, lambda: (_x(),), True),
    ("geometric_decay_f32", geometric_decay_f32, lambda: (_x(dtype=np.float32),), True),
    ("time_from_index", time_from_index, lambda: (_x(), _x(seed=1), 0.01, 3.0), True),
    ("int_offset", int_offset, lambda: (np.arange(-30, 34, dtype=np.int16),), True),
    ("weighted_rows", weighted_rows,
     lambda: (_x(12 * 5).reshape(12, 5), np.zeros(5)), True),
    ("negative_base", negative_base, lambda: (_x(),), True),
    ("backward_harmonic", backward_harmonic, lambda: (_x(),), True),
    ("cosine_annealing", cosine_annealing, lambda: (_x(), _x(seed=1), 20), True),
    ("symbolic_trips", symbolic_trips, lambda: (_x(), 15), True),
    ("float_of_index", float_of_index, lambda: (_x(), _x(seed=1)), True),
    ("triangle_schedule", triangle_schedule, lambda: (_x(), _x(seed=1)), True),
    ("wave_source", wave_source, lambda: (), True),
    ("three_level_shift", three_level_shift, lambda: (_x(), _x(seed=1)), True),
    ("shift_written_in_place", shift_written_in_place, lambda: (_x(), _x(seed=1)), True),
    ("divides_by_zero", divides_by_zero, lambda: (_x(),), True),
    ("branch_on_index", branch_on_index, lambda: (_x(),), False),
    ("list_of_coefficients", list_of_coefficients, lambda: (_x(),), False),
    ("python_math", python_math, lambda: (_x(),), True),   # math.sin: a value of the trip
    ("numpy_scalar_times_index", numpy_scalar_times_index,
     lambda: (_x(dtype=np.float32),), False),
    ("int_power_overflows", int_power_overflows,
     lambda: (np.arange(8, dtype=np.int64),), False),
    ("step_decay", step_decay, lambda: (_x(), _x(seed=1)), False),
]
