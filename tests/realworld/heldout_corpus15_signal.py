"""The second half of the fifteenth corpus (``heldout_corpus15.py``: scientific kernels
written before any was run under dynamo, issue #19): Monte Carlo (pi, a 2-d random
walk, Ising by Metropolis, an integral, rejection sampling), signal processing (a FIR
filter by loops, a moving average, an IIR low-pass, autocorrelation, a DFT by hand,
peaks, zero crossings, an FFT low-pass, clipping per sample), small linear algebra
(Gram-Schmidt, back substitution, LU without pivoting, the Thomas algorithm, a
Householder vector, row pivoting) and histograms (by hand, 2-d, a CDF, a running
argmin, a count over a threshold, buckets by ``int(v) % n``).
For example ``PROGRAMS[0]`` is ``("mc_pi", mc_pi, (200, 3))``: pi from 200 points.

``PROGRAMS`` lists ``(name, fn, args)`` (small, seeded); ``EDGE_ARGS`` maps a name to
more argument sets of the same shapes, values redrawn. The module imports only NumPy and
the standard library: the scripts load it from its file, the tests by name.
"""

from __future__ import annotations

import math

import numpy as np

_rng = np.random.default_rng(15016)

# ================================================================ Monte Carlo


def mc_pi(n, seed):
    rng = np.random.default_rng(seed)
    xy = rng.random((n, 2))
    inside = np.sum(np.sum(xy ** 2, axis=1) <= 1.0)
    return 4.0 * inside / n


def random_walk_2d(steps, seed):
    rng = np.random.default_rng(seed)
    angles = rng.uniform(0, 2 * np.pi, steps)
    path = np.cumsum(np.stack([np.cos(angles), np.sin(angles)], axis=1), axis=0)
    return path, np.sqrt((path[-1] ** 2).sum())


def ising_metropolis(spins, beta, sweeps, seed):
    rng = np.random.default_rng(seed)
    s = spins.copy()
    n = s.shape[0]
    for _ in range(sweeps):
        for _ in range(n * n):
            i, j = rng.integers(0, n, 2)
            nb = s[(i + 1) % n, j] + s[i - 1, j] + s[i, (j + 1) % n] + s[i, j - 1]
            dE = 2 * s[i, j] * nb
            if dE <= 0 or rng.random() < math.exp(-beta * dE):
                s[i, j] = -s[i, j]
    return s


def mc_integral(f, a, b, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(a, b, n)
    fx = f(x)
    return (b - a) * fx.mean(), (b - a) * fx.std() / np.sqrt(n)


def mc_gauss_integral(n, seed):
    return mc_integral(lambda x: np.exp(-x ** 2), 0.0, 2.0, n, seed)


def rejection_sample(n, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        x = rng.uniform(-1, 1)
        if rng.random() < np.exp(-x * x):
            out.append(x)
    return np.array(out)


# ================================================================ signal processing


def fir_filter(x, h):
    y = np.zeros(len(x))
    for n in range(len(x)):
        for k in range(len(h)):
            if n - k >= 0:
                y[n] += h[k] * x[n - k]
    return y


def moving_average(x, w):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[w:] - c[:-w]) / w


def iir_lowpass(x, alpha):
    y = np.empty_like(x)
    y[0] = x[0]
    for i in range(1, len(x)):
        y[i] = alpha * x[i] + (1 - alpha) * y[i - 1]
    return y


def autocorrelation(x, max_lag):
    x = x - x.mean()
    var = np.dot(x, x)
    return np.array([np.dot(x[:len(x) - k], x[k:]) / var for k in range(max_lag + 1)])


def dft_by_hand(x):
    N = len(x)
    n = np.arange(N)
    k = n.reshape((N, 1))
    M = np.exp(-2j * np.pi * k * n / N)
    return M @ x


def peak_indices(x):
    peaks = []
    for i in range(1, len(x) - 1):
        if x[i] > x[i - 1] and x[i] > x[i + 1]:
            peaks.append(i)
    return peaks


def zero_crossings(x):
    count = 0
    for i in range(1, len(x)):
        if x[i - 1] * x[i] < 0:
            count += 1
    return count


def spectral_lowpass(x, keep):
    X = np.fft.rfft(x)
    X[keep:] = 0
    return np.fft.irfft(X, n=len(x))


def envelope_clip(x, limit):
    y = x.copy()
    for i in range(len(y)):
        if y[i] > limit:
            y[i] = limit
        elif y[i] < -limit:
            y[i] = -limit
    return y


# ================================================================ small linear algebra


def gram_schmidt(A):
    Q = np.zeros_like(A)
    for j in range(A.shape[1]):
        v = A[:, j].copy()
        for i in range(j):
            v -= (Q[:, i] @ A[:, j]) * Q[:, i]
        Q[:, j] = v / np.linalg.norm(v)
    return Q


def back_substitution(U, b):
    n = len(b)
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


def lu_no_pivot(A):
    n = A.shape[0]
    L = np.eye(n)
    U = A.copy()
    for k in range(n - 1):
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    return L, U


def thomas_tridiagonal(a, b, c, d):
    n = len(d)
    cp = np.zeros(n - 1)
    dp = np.zeros(n)
    cp[0] = c[0] / b[0]
    dp[0] = d[0] / b[0]
    for i in range(1, n):
        denom = b[i] - a[i - 1] * cp[i - 1]
        if i < n - 1:
            cp[i] = c[i] / denom
        dp[i] = (d[i] - a[i - 1] * dp[i - 1]) / denom
    x = np.zeros(n)
    x[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        x[i] = dp[i] - cp[i] * x[i + 1]
    return x


def householder_vector(x):
    v = x.copy()
    sign = 1.0 if x[0] >= 0 else -1.0
    v[0] += sign * np.linalg.norm(x)
    return v / np.linalg.norm(v)


def partial_pivot_rows(A):
    A = A.copy()
    n = A.shape[0]
    for k in range(n - 1):
        p = k + int(np.argmax(np.abs(A[k:, k])))
        if p != k:
            A[[k, p]] = A[[p, k]]
    return A


# ================================================================ histograms


def histogram_by_hand(x, nbins, lo, hi):
    counts = np.zeros(nbins, dtype=int)
    width = (hi - lo) / nbins
    for v in x:
        if lo <= v < hi:
            counts[int((v - lo) / width)] += 1
    return counts


def histogram_2d(x, y, bins):
    H, xe, ye = np.histogram2d(x, y, bins=bins)
    return H / H.sum(), xe, ye


def cumulative_distribution(x):
    xs = np.sort(x)
    cdf = np.arange(1, len(xs) + 1) / len(xs)
    return xs, cdf


def running_min_index(d):
    best = d[0]
    arg = 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg


def count_above_threshold(r, t):
    count = 0
    for i in range(len(r)):
        if r[i] > t:
            count += 1
    return count


def digit_histogram(values, n):
    counts = [0] * n
    for v in values:
        counts[int(v) % n] += 1
    return counts


# ================================================================ arguments

_U = np.sin(np.linspace(0, np.pi, 12)) + 0.1 * _rng.standard_normal(12)
_T = _rng.random((6, 6))
_RHS = _rng.standard_normal(5)
_SPINS = np.where(_rng.random((4, 4)) < 0.5, -1, 1)
_SIG = np.sin(np.linspace(0, 4 * np.pi, 24)) + 0.3 * _rng.standard_normal(24)
_H = np.array([0.25, 0.5, 0.25])
_A43 = _rng.standard_normal((4, 3))
_UPPER = np.triu(_rng.standard_normal((5, 5))) + 4 * np.eye(5)
_M4 = _rng.standard_normal((4, 4)) + 4 * np.eye(4)
_TRI_A = _rng.uniform(-1, 0, 5)
_TRI_B = _rng.uniform(3, 4, 6)
_TRI_C = _rng.uniform(-1, 0, 5)
_TRI_D = _rng.standard_normal(6)
_XS = _rng.standard_normal(20)
_YS = _rng.standard_normal(20)
_INTS = _rng.integers(0, 30, 12).astype(float)

PROGRAMS = [
    ("mc_pi", mc_pi, (200, 3)),
    ("random_walk_2d", random_walk_2d, (30, 4)),
    ("ising_metropolis", ising_metropolis, (_SPINS, 0.4, 1, 5)),
    ("mc_gauss_integral", mc_gauss_integral, (100, 6)),
    ("rejection_sample", rejection_sample, (5, 7)),
    ("fir_filter", fir_filter, (_SIG[:10], _H)),
    ("moving_average", moving_average, (_SIG, 4)),
    ("iir_lowpass", iir_lowpass, (_SIG, 0.3)),
    ("autocorrelation", autocorrelation, (_SIG, 5)),
    ("dft_by_hand", dft_by_hand, (_SIG[:8],)),
    ("peak_indices", peak_indices, (_SIG[:12],)),
    ("zero_crossings", zero_crossings, (_SIG,)),
    ("spectral_lowpass", spectral_lowpass, (_SIG, 5)),
    ("envelope_clip", envelope_clip, (_SIG[:12], 0.8)),
    ("gram_schmidt", gram_schmidt, (_A43,)),
    ("back_substitution", back_substitution, (_UPPER, _RHS)),
    ("lu_no_pivot", lu_no_pivot, (_M4,)),
    ("thomas_tridiagonal", thomas_tridiagonal, (_TRI_A, _TRI_B, _TRI_C, _TRI_D)),
    ("householder_vector", householder_vector, (_RHS,)),
    ("partial_pivot_rows", partial_pivot_rows, (_M4,)),
    ("histogram_by_hand", histogram_by_hand, (_XS, 5, -2.0, 2.0)),
    ("histogram_2d", histogram_2d, (_XS, _YS, 4)),
    ("cumulative_distribution", cumulative_distribution, (_XS,)),
    ("running_min_index", running_min_index, (_XS[:10],)),
    ("count_above_threshold", count_above_threshold, (_XS[:10], 0.5)),
    ("digit_histogram", digit_histogram, (_INTS, 4)),
]


def _again(args, seed):
    """``args`` with every float array's values redrawn (same shapes) and every int
    array permuted: the same shapes and dtypes, other values."""
    g = np.random.default_rng(seed)

    def redraw(a):
        if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.ndim:
            return g.standard_normal(a.shape)
        if isinstance(a, np.ndarray) and a.dtype.kind == "i":
            return g.permutation(a.ravel()).reshape(a.shape)
        return a
    return tuple(redraw(a) for a in args)


# the programs whose values decide a way, a count or a size, called again on redrawn
# values (the solvers, particles and steppers keep their inputs: a redrawn matrix need
# not be diagonally dominant, a redrawn position may leave the box)
_REDRAWN = ("upwind_advection", "fir_filter", "peak_indices", "zero_crossings",
            "envelope_clip", "householder_vector", "partial_pivot_rows",
            "histogram_by_hand", "running_min_index", "count_above_threshold",
            "lennard_jones_energy", "game_of_life")
EDGE_ARGS: dict[str, list[tuple]] = {name: [_again(args, 1), _again(args, 2)]
                                     for name, _, args in PROGRAMS if name in _REDRAWN}
EDGE_ARGS["digit_histogram"] = [(_rng.integers(0, 30, 12).astype(float), 4)]
EDGE_ARGS["digit_histogram"] = [(_rng.integers(0, 30, 12).astype(float), 4)]
