"""Per-sample recursions and per-row loops for the ``native`` section of
scripts/bench_native.py (issue #23: "scalar recursions and per-row loops ... where
NumPy users give up and rewrite in Numba by hand"), each with its hand-written
``numba.njit`` twin: an LMS adaptive filter (a small dot product, a reversed slice at
the loop index and a weight update per sample), a DP recurrence over a 2-D table
(``min`` of three neighbours), a forward substitution (``L[i, :i] @ x[:i]`` per row),
an exponential moving average over rows and a Levinson-Durbin recursion (``np.dot``
and a store of the loop's index as their length).

Example::

    >>> x, d = lms_inputs()
    >>> w, e = lms(x, d)
    >>> hand = hand_written()
    >>> np.allclose(hand["lms"](x, d)[1], e)
    True
"""

from __future__ import annotations

import numpy as np


def lms(x, d, taps=16, mu=0.01):
    """LMS adaptive FIR filter: one 16-tap dot product and update per sample."""
    w = np.zeros(taps)
    e = np.zeros(len(x))
    for n in range(taps, len(x)):
        u = x[n - taps:n][::-1]
        e[n] = d[n] - w @ u
        w = w + 2 * mu * e[n] * u
    return w, e


def dp_table(C):
    """Minimum-cost path table (DTW-like): ``min`` of three neighbours per cell."""
    n, m = C.shape
    D = np.zeros((n, m))
    D[0] = np.cumsum(C[0])
    for i in range(1, n):
        D[i, 0] = D[i - 1, 0] + C[i, 0]
        for j in range(1, m):
            D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return D


def forward_substitution(L, b):
    """``L x = b`` for lower-triangular ``L``, one row (a dot of its prefix) per trip."""
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def levinson(r, n):
    """Levinson-Durbin: ``np.dot`` of a prefix and a reversed slice, and a store into
    a slice, each of the loop's index as its length (scripts/bench_loops.py's)."""
    a = np.zeros(n + 1)
    a[0] = 1.0
    e = r[0]
    for k in range(1, n + 1):
        lam = -np.dot(a[:k], r[k:0:-1]) / e
        a[:k + 1] = a[:k + 1] + lam * a[k::-1]
        e *= 1.0 - lam * lam
    return a, e


def ema_rows(X, alpha=0.1):
    """Exponential moving average over the rows of ``X``."""
    s = X[0].copy()
    out = np.empty_like(X)
    for t in range(X.shape[0]):
        s = alpha * X[t] + (1 - alpha) * s
        out[t] = s
    return out


def lms_inputs(n=2000, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n)
    return x, np.convolve(x, np.array([0.5, -0.3, 0.2, 0.1]), mode="full")[:n]


def hand_written() -> dict:
    """The same programs as a Numba user writes them: explicit loops, no temporaries."""
    from numba import njit

    @njit
    def lms_nb(x, d, taps=16, mu=0.01):
        w = np.zeros(taps)
        e = np.zeros(len(x))
        for n in range(taps, len(x)):
            y = 0.0
            for k in range(taps):
                y += w[k] * x[n - 1 - k]
            e[n] = d[n] - y
            for k in range(taps):
                w[k] += 2 * mu * e[n] * x[n - 1 - k]
        return w, e

    @njit
    def dp_nb(C):
        n, m = C.shape
        D = np.zeros((n, m))
        D[0, 0] = C[0, 0]
        for j in range(1, m):
            D[0, j] = D[0, j - 1] + C[0, j]
        for i in range(1, n):
            D[i, 0] = D[i - 1, 0] + C[i, 0]
            for j in range(1, m):
                D[i, j] = C[i, j] + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
        return D

    @njit
    def fwd_nb(L, b):
        n = b.shape[0]
        x = np.zeros(n)
        for i in range(n):
            s = 0.0
            for k in range(i):
                s += L[i, k] * x[k]
            x[i] = (b[i] - s) / L[i, i]
        return x

    @njit
    def levinson_nb(r, n):
        a = np.zeros(n + 1)
        a[0] = 1.0
        e = r[0]
        for k in range(1, n + 1):
            acc = 0.0
            for j in range(k):
                acc += a[j] * r[k - j]
            lam = -acc / e
            for j in range(k // 2 + 1):   # the update in place, in symmetric pairs
                lo, hi = a[j], a[k - j]
                a[j] = lo + lam * hi
                a[k - j] = hi + lam * lo
            e *= 1.0 - lam * lam
        return a, e

    @njit
    def ema_nb(X, alpha=0.1):
        r, c = X.shape
        s = X[0].copy()
        out = np.empty_like(X)
        for t in range(r):
            for j in range(c):
                s[j] = alpha * X[t, j] + (1 - alpha) * s[j]
                out[t, j] = s[j]
        return out

    return {"lms": lms_nb, "dp": dp_nb, "fwdsub": fwd_nb, "ema": ema_nb,
            "levinson": levinson_nb}


def cases(rng) -> list:
    """``(label, key, program, make inputs)`` for bench_native.py."""
    lms_x, lms_d = lms_inputs()
    cost = rng.random((40, 40))
    L = np.tril(rng.random((400, 400))) + 400 * np.eye(400)
    b = rng.random(400)
    X = rng.random((2000, 64))
    autocorr = np.exp(-np.arange(410) / 30.0)
    return [
        ("LMS filter 2000 samples, 16 taps", "lms", lms, lambda: (lms_x, lms_d)),
        ("DP min-of-3 table 40x40", "dp", dp_table, lambda: (cost,)),
        ("forward substitution n=400", "fwdsub", forward_substitution, lambda: (L, b)),
        ("EMA over rows 2000x64", "ema", ema_rows, lambda: (X,)),
        ("Levinson-Durbin n=400", "levinson", levinson, lambda: (autocorr, 400)),
    ]
