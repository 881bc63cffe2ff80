"""Helpers that compiled functions in other files inline (tests/breaks/test_other_files.py):
their ops' warnings and tracebacks must name this file and these lines."""

import numpy as np


def log_of(v):
    w = v * 1.0
    return np.log(w)


def invert(m):
    k = m * 1.0
    return np.linalg.inv(k)
