"""Helpers that compiled functions in other files inline (tests/breaks/test_other_files.py):
their ops' warnings and tracebacks must name this file and these lines."""

import numpy as np


def log_of(v):
    w = v * 1.0
    return np.log(w)


def invert(m):
    k = m * 1.0
    return np.linalg.inv(k)


def cholesky(A):
    """A loop over rows whose statements read one name several times each."""
    n = A.shape[0]
    L = np.zeros_like(A)
    for j in range(n):
        s = A[j, j] - L[j, :j] @ L[j, :j]
        L[j, j] = np.sqrt(s)
        L[j + 1:, j] = (A[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / L[j, j]
    return L


def centered(v):
    """NumPy's Python-level warnings (``stacklevel=2``) from a helper in another file."""
    m = v.mean(axis=0)
    return v - m, v.var(axis=0, ddof=1), np.std(v, axis=0, ddof=2)
