"""Programs whose loop breaks the graph on every trip (issue #15): a corpus.

Event-driven simulations, rejection sampling, Metropolis steps with
``if rng.random() < p``, adaptive step-size integrators with ``if err > tol:``,
per-element Python loops over a small array with a data-dependent ``if``, lists built
in loops. Each loop needs a Python value on every trip (a draw without ``size=``, a
branch on array data, ``float()`` of an element), so it cannot be one graph; compiled,
such a program must still run as fast as plain Python, and compute exactly what it
does (values, dtypes, the random stream's state after the call).

Written before they were run under dynamo. ``programs()`` lists
``(name, fn, args_factory)``: ``args_factory()`` makes fresh arguments for one call
(a new ``Generator`` each time, so plain and compiled calls draw the same numbers).

Example::

    >>> name, fn, make = programs()[0]
    >>> out = fn(*make())
"""

from __future__ import annotations

import heapq
import math

import numpy as np


def gillespie_sir(rng, S=300, Inf=5, R=0, beta=0.3, gamma=0.1, max_events=600):
    """Gillespie's direct method: an exponential wait and a choice of event per trip."""
    N = S + Inf + R
    t = 0.0
    times = [0.0]
    infected = [Inf]
    for _ in range(max_events):
        r_inf = beta * S * Inf / N
        r_rec = gamma * Inf
        total = r_inf + r_rec
        if total == 0:
            break
        t += rng.exponential(1.0 / total)
        if rng.random() < r_inf / total:
            S -= 1
            Inf += 1
        else:
            Inf -= 1
            R += 1
        times.append(t)
        infected.append(Inf)
    return np.array(times), np.array(infected), (S, Inf, R)


def mm1_queue(rng, lam=0.9, mu=1.0, customers=400):
    """An M/M/1 queue as an event list (heapq): arrivals and departures in time order."""
    events = [(rng.exponential(1.0 / lam), 0)]
    t = 0.0
    busy_until = 0.0
    waits = []
    served = 0
    while events and served < customers:
        t, kind = heapq.heappop(events)
        if kind == 0:
            start = max(t, busy_until)
            waits.append(start - t)
            busy_until = start + rng.exponential(1.0 / mu)
            heapq.heappush(events, (busy_until, 1))
            heapq.heappush(events, (t + rng.exponential(1.0 / lam), 0))
        else:
            served += 1
    w = np.array(waits)
    return w.mean(), w.max(), served, t


def rejection_normal(rng, n=400):
    """Normal samples by rejection from a uniform box: a draw and a test per trip."""
    out = []
    tries = 0
    while len(out) < n:
        x = rng.uniform(-4.0, 4.0)
        tries += 1
        if rng.random() < math.exp(-0.5 * x * x):
            out.append(x)
    a = np.array(out)
    return a, tries, a.mean(), a.std()


def pi_by_darts(rng, n=1500):
    """Monte Carlo pi with a 2-vector per dart and a dot product tested each trip."""
    inside = 0
    for _ in range(n):
        p = rng.random(2) * 2.0 - 1.0
        if p @ p < 1.0:
            inside += 1
    return 4.0 * inside / n


def metropolis_1d(rng, n=1000, step=1.0):
    """Random-walk Metropolis for a standard normal: accept with min(1, p'/p)."""
    x = 0.0
    samples = []
    accepted = 0
    for _ in range(n):
        prop = x + step * rng.normal()
        if rng.random() < np.exp(-0.5 * (prop * prop - x * x)):
            x = prop
            accepted += 1
        samples.append(x)
    s = np.array(samples)
    return s.mean(), s.var(), accepted


def metropolis_vector(rng, x0, n=600):
    """Metropolis on a 3-vector target: the log density of an array, a log-uniform test."""
    prec = np.array([1.0, 4.0, 0.25])
    x = x0.copy()
    lp = -0.5 * np.sum(prec * x * x)
    chain = np.empty((n, x.shape[0]))
    for k in range(n):
        prop = x + 0.5 * rng.normal(size=x.shape[0])
        lp_new = -0.5 * np.sum(prec * prop * prop)
        if np.log(rng.random()) < lp_new - lp:
            x = prop
            lp = lp_new
        chain[k] = x
    return chain.mean(axis=0), lp


def ising_metropolis(rng, spins, beta=0.6, sweeps=1500):
    """Single-spin-flip Metropolis on a small periodic lattice of int8 spins."""
    n = spins.shape[0]
    energy_changes = 0
    for _ in range(sweeps):
        i = rng.integers(n)
        j = rng.integers(n)
        nb = spins[(i + 1) % n, j] + spins[i - 1, j] + spins[i, (j + 1) % n] + spins[i, j - 1]
        dE = 2 * spins[i, j] * nb
        if dE <= 0 or rng.random() < math.exp(-beta * dE):
            spins[i, j] = -spins[i, j]
            energy_changes += int(dE)
    return spins, energy_changes, spins.mean()


def simulated_annealing(rng, x0, steps=500):
    """Annealing on the Rosenbrock function: the acceptance test and the cooling."""
    x = x0.copy()
    e = (1.0 - x[0]) ** 2 + 100.0 * (x[1] - x[0] ** 2) ** 2
    temp = 1.0
    best = e
    for _ in range(steps):
        cand = x + rng.normal(0.0, 0.1, size=2)
        ec = (1.0 - cand[0]) ** 2 + 100.0 * (cand[1] - cand[0] ** 2) ** 2
        if ec < e or rng.random() < math.exp((e - ec) / temp):
            x, e = cand, ec
            if e < best:
                best = e
        temp *= 0.99
    return x, e, best


def random_walk_until(rng, p=0.5, k=25, n=3000):
    """A +-1 walk that stops at the first |position| >= k."""
    pos = 0
    path = []
    for t in range(n):  # noqa: B007  (the trip it stopped at is returned)
        pos += 1 if rng.random() < p else -1
        path.append(pos)
        if abs(pos) >= k:
            break
    return pos, t, np.array(path, dtype=np.int64)


def birth_death_legacy(seed=3, n0=20, steps=500):
    """A birth-death chain on NumPy's legacy RandomState (poisson and binomial draws)."""
    rs = np.random.RandomState(seed)
    n = n0
    sizes = []
    for _ in range(steps):
        births = rs.poisson(0.1 * n)
        deaths = rs.binomial(n, 0.1) if n > 0 else 0
        n = n + births - deaths
        if n > 200:
            n = 200
        sizes.append(n)
    return np.array(sizes), rs


def adaptive_heun(y0, t_end=5.0, tol=1e-6):
    """Heun with an Euler error estimate on a 2-vector ODE (an oscillator): a step is
    redone with half the size when ``err > tol``."""
    y = y0.copy()
    t = 0.0
    h = 0.1
    rejected = 0
    for _ in range(20000):
        if t >= t_end:
            break
        f0 = np.array([y[1], -y[0]])
        y_euler = y + h * f0
        f1 = np.array([y_euler[1], -y_euler[0]])
        y_heun = y + 0.5 * h * (f0 + f1)
        err = np.max(np.abs(y_heun - y_euler))
        if err > tol:
            h *= 0.5
            rejected += 1
            continue
        y = y_heun
        t += h
        h = min(2.0 * h, t_end - t) if t < t_end else h
    return y, t, rejected


def adaptive_scalar(t_end=8.0, tol=1e-8):
    """An adaptive Euler/midpoint pair on the logistic equation with Python floats."""
    y = 0.01
    t = 0.0
    h = 0.05
    steps = 0
    while t < t_end:
        k1 = y * (1.0 - y)
        ym = y + 0.5 * h * k1
        k2 = ym * (1.0 - ym)
        err = abs(h * (k2 - k1))
        if err > tol:
            h = 0.9 * h * math.sqrt(tol / err)
            continue
        y = y + h * k2
        t += h
        steps += 1
        h = min(1.2 * h, t_end - t + 1e-12)
    return y, t, steps


def threshold_per_element(x):
    """A Python loop over a small array with an if on each element."""
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        if x[i] > 0.0:
            out[i] = 2.0 * x[i]
        else:
            out[i] = -0.5 * x[i]
    return out


def count_and_sum_above(x, thr=0.25):
    """Iterates over an array's elements: a count and a running sum of NumPy scalars."""
    count = 0
    total = 0.0
    for v in x:
        if v > thr:
            count += 1
            total += v
    return count, total


def list_of_selected(a):
    """Builds a Python list of floats, element by element, with a test."""
    res = []
    for i in range(len(a)):
        v = a[i] * 2.0
        if v > 0.5:
            res.append(float(v))
    return np.array(res), len(res)


def running_argmax(x):
    """The running maximum and where it was, by a Python loop."""
    best = -np.inf
    idx = -1
    record = []
    for i in range(x.shape[0]):
        if x[i] > best:
            best = x[i]
            idx = i
            record.append(i)
    return best, idx, record


def newton_per_element(a):
    """Square roots by Newton, one element at a time, to a tolerance."""
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        x = a[i]
        for _ in range(30):
            fx = x * x - a[i]
            if abs(fx) < 1e-12:
                break
            x = x - fx / (2.0 * x)
        out[i] = x
    return out


def kmeans_assign_loop(X, C):
    """One k-means step with the assignment by a Python loop over the points."""
    k = C.shape[0]
    sums = np.zeros_like(C)
    counts = np.zeros(k, dtype=np.int64)
    for i in range(X.shape[0]):
        d = ((C - X[i]) ** 2).sum(axis=1)
        j = int(np.argmin(d))
        counts[j] += 1
        sums[j] += X[i]
    return sums / np.maximum(counts, 1)[:, None], counts


def array_code_around_loop(x):
    """Straight-line array code before and after a loop that branches on elements: the
    code around the loop is where compiling can pay."""
    z = (x - x.mean()) / (x.std() + 1e-12)
    w = np.tanh(z) * 0.5 + np.exp(-z * z)
    positives = 0
    for i in range(64):
        if w[i] > 0.6:
            positives += 1
    return np.sqrt(w * w + 1.0) * positives + np.sin(z)


def bisection_python(lo=0.0, hi=1.5, iters=60):
    """Bisection for cos(x) = x with NumPy scalar functions on Python floats."""
    for _ in range(iters):
        mid = 0.5 * (lo + hi)
        if np.cos(mid) - mid > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _gen(seed):
    return np.random.default_rng(seed)


def programs(small: bool = False):
    """``(name, fn, args_factory)`` of every program of this corpus; ``small``: sizes for
    tests (the array programs' arrays are shorter, the trip counts the same)."""
    base = np.random.default_rng(123)
    short = base.standard_normal(60 if small else 200)
    positive = base.random(40 if small else 150) + 0.1
    spins = np.where(base.random((8, 8)) < 0.5, -1, 1).astype(np.int8)
    X = base.standard_normal((40 if small else 300, 2))
    C = base.standard_normal((4, 2))
    big = base.standard_normal(2_000 if small else 200_000)
    return [
        ("gillespie_sir", gillespie_sir, lambda: (_gen(4),)),
        ("mm1_queue", mm1_queue, lambda: (_gen(5),)),
        ("rejection_normal", rejection_normal, lambda: (_gen(6),)),
        ("pi_by_darts", pi_by_darts, lambda: (_gen(7),)),
        ("metropolis_1d", metropolis_1d, lambda: (_gen(8),)),
        ("metropolis_vector", metropolis_vector, lambda: (_gen(9), np.array([1.0, -1.0, 2.0]))),
        ("ising_metropolis", ising_metropolis, lambda: (_gen(10), spins.copy())),
        ("simulated_annealing", simulated_annealing, lambda: (_gen(11), np.array([-1.0, 1.5]))),
        ("random_walk_until", random_walk_until, lambda: (_gen(12),)),
        ("birth_death_legacy", birth_death_legacy, lambda: ()),
        ("adaptive_heun", adaptive_heun, lambda: (np.array([1.0, 0.0]),)),
        ("adaptive_scalar", adaptive_scalar, lambda: ()),
        ("threshold_per_element", threshold_per_element, lambda: (short.copy(),)),
        ("count_and_sum_above", count_and_sum_above, lambda: (short.copy(),)),
        ("list_of_selected", list_of_selected, lambda: (short.copy(),)),
        ("running_argmax", running_argmax, lambda: (short.copy(),)),
        ("newton_per_element", newton_per_element, lambda: (positive.copy(),)),
        ("kmeans_assign_loop", kmeans_assign_loop, lambda: (X.copy(), C.copy())),
        ("array_code_around_loop", array_code_around_loop, lambda: (big.copy(),)),
        ("bisection_python", bisection_python, lambda: ()),
    ]
