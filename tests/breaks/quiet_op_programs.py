"""Programs with a check on array data after an op whose NumPy code warns of nothing
the values decide, for tests/breaks/test_quiet_ops.py (issue #19). In a module of
their own: pytest rewrites the ``assert`` statements of test modules, and a rewritten
``assert`` is no check the translator knows.

Example::

    >>> density_checked(np.random.default_rng(0).random(40)).shape
    (4,)
"""

import numpy as np


def jacobi_checked(A, b):
    d = np.diag(A)
    if np.any(d == 0):
        raise ValueError("zero on the diagonal")
    R = A - np.diagflat(d)
    x = np.zeros_like(b)
    for _ in range(6):
        x = (b - R @ x) / d
    return x


def histogram_checked(x, limit):
    counts, edges = np.histogram(x, bins=5, range=(0.0, 1.0))
    density = counts / (counts.sum() * np.diff(edges))
    if np.any(counts > limit):
        raise ValueError(f"a bin holds more than {limit}")
    return density, edges


def density_checked(x):
    counts, edges = np.histogram(x, bins=4)
    widths = np.diff(edges)
    density = counts / (counts.sum() * widths)
    assert np.isclose((density * widths).sum(), 1.0)
    return density


def rank_checked(X, y):
    rank = np.linalg.matrix_rank(X)
    if rank < X.shape[1]:
        raise ValueError(f"rank deficient: {rank} < {X.shape[1]}")
    beta, res, rk, sv = np.linalg.lstsq(X, y, rcond=None)
    return beta, sv[0] / sv[-1]


def lstsq_then_checked(X, y):
    beta = np.linalg.lstsq(X, y)[0]
    r = y - X @ beta
    assert np.all(np.isfinite(r)), "non-finite residual"
    return beta, r


def spectrum_checked(x):
    spec = np.abs(np.fft.rfft(x)) ** 2
    if not np.all(np.isfinite(spec)):
        raise FloatingPointError("spectrum overflowed")
    return spec / spec.sum()


def bins_checked(labels, k):
    counts = np.bincount(labels, minlength=k)
    if np.any(counts == 0):
        raise ValueError("an empty cluster")
    return counts / counts.sum()


def median_checked(x):
    m = np.median(x, axis=0)
    if np.any(np.isnan(m)):
        raise ValueError("nan in the median")
    return x - m


def quantile_checked(x):
    lo, hi = np.percentile(x, [5, 95])
    assert lo < hi, "flat data"
    return np.clip(x, lo, hi)


def normals_checked(V, F):
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    n = np.cross(b - a, c - a)
    norm = np.linalg.norm(n, axis=1, keepdims=True)
    if np.any(norm == 0):
        raise ValueError("degenerate triangle")
    return n / norm


def heat_checked(u0, alpha):
    """A check before a loop node (200 trips: more than ``config.loop_unroll_limit``)."""
    if np.any(np.isnan(u0)):
        raise ValueError("nan in u0")
    u = u0.copy()
    for _ in range(200):
        u[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def heat_checked_after(u0, alpha, log):
    """A check after a loop node, with a Python effect before it and a warning the loop
    may make (an overflow for a large ``alpha``)."""
    log.append("start")
    u = u0.copy()
    for _ in range(200):
        u[1:-1] = u[1:-1] + alpha * (u[2:] - 2 * u[1:-1] + u[:-2])
    if not np.all(np.isfinite(u)):
        raise FloatingPointError(f"unstable for alpha={alpha}")
    return u


def walk_checked(x0, steps, rng):
    """A loop node that draws random numbers: the check before it stays a break."""
    if np.any(x0 < 0):
        raise ValueError("negative start")
    x = x0.copy()
    for _ in range(steps):
        x = x + rng.normal(size=x.shape)
    return x


def correlation_checked(X):
    C = np.cov(X, rowvar=False)
    R = np.corrcoef(X, rowvar=False)
    if not np.all(np.isfinite(R)):
        raise ValueError("a constant column")
    return C, R


def weighted_checked(x, w):
    m = np.average(x, weights=w)
    u = np.average(x, axis=0)
    assert np.all(np.isfinite(u)), "non-finite mean"
    return m, u


def one_observation_cov(x):
    """np.cov of one observation warns "Degrees of freedom <= 0" on every call."""
    C = np.cov(x[None, :], rowvar=False)     # (all NaN: 0 / 0)
    if np.any(C < 0):
        raise ValueError("negative covariance")
    return C


RNG = np.random.default_rng(0)
A_OK = np.diag([4.0, 5.0, 6.0]) + 0.5
A_BAD = A_OK.copy()
A_BAD[1, 1] = 0.0
X_FULL = RNG.standard_normal((8, 3))
X_LOW = np.c_[X_FULL[:, :2], X_FULL[:, :1] * 2.0]
Y = RNG.standard_normal(8)
U = RNG.random(40)

# name -> (function, passing argument sets, failing ones)
PROGRAMS = {
    "diagflat_then_loop": (jacobi_checked, [(A_OK, np.ones(3))], [(A_BAD, np.ones(3))]),
    "histogram": (histogram_checked, [(U, 40)], [(U, 3)]),
    "histogram_density": (density_checked, [(U,)], [(np.array([0.5, np.nan, 1.0]),)]),
    "matrix_rank_lstsq": (rank_checked, [(X_FULL, Y)], [(X_LOW, Y)]),
    "lstsq_default_rcond": (lstsq_then_checked, [(X_FULL, Y)],
                            [(X_FULL, np.r_[Y[:-1], np.inf])]),
    "rfft": (spectrum_checked, [(U,)], [(np.r_[U[:-1], 1e300],)]),
    "bincount": (bins_checked, [(np.array([0, 1, 2, 2, 1]), 3)],
                 [(np.array([0, 2, 2, 0, 0]), 3)]),
    "median": (median_checked, [(RNG.random((5, 3)),)],
               [(np.array([[1.0, np.nan], [2.0, 3.0]]),)]),
    "percentile": (quantile_checked, [(U,)], [(np.ones(10),)]),
    "loop_node_after": (heat_checked, [(np.exp(-np.linspace(-2, 2, 21) ** 2), 0.2)],
                        [(np.r_[np.nan, np.ones(20)], 0.2)]),
    "loop_node_before": (heat_checked_after,
                         [(np.exp(-np.linspace(-2, 2, 21) ** 2), 0.2, [])],
                         [(np.exp(-np.linspace(-2, 2, 21) ** 2), 5.0, [])]),
    "cov_corrcoef": (correlation_checked, [(RNG.random((6, 3)),)],
                     [(np.c_[RNG.random((6, 2)), np.ones(6)],)]),
    "average": (weighted_checked, [(RNG.random((4, 2)), RNG.random((4, 2)))],
                [(np.array([[1.0, np.inf], [2.0, 3.0]]), np.ones((2, 2)))]),
    "cross": (normals_checked, [(RNG.random((4, 3)), np.array([[0, 1, 2], [1, 2, 3]]))],
              [(np.zeros((4, 3)), np.array([[0, 1, 2], [1, 2, 3]]))]),
}


def bool_histogram_checked(m):
    counts, _ = np.histogram(m, bins=2)
    if np.any(counts == 0):
        raise ValueError("one class only")
    return counts
