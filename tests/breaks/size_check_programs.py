"""Programs whose check on array data compares sizes only the data decides, for
tests/breaks/test_size_checks.py (issue #19). In a module of their own: pytest
rewrites the ``assert`` statements of test modules, and a rewritten ``assert`` is no
check the translator knows.

Example::

    >>> nonnegative_sqrt(np.arange(4.0))
    array([0.        , 1.        , 1.41421356, 1.73205081])
"""

import numpy as np


def nonnegative_sqrt(x):
    if len(x[x < 0]) > 0:
        raise ValueError("negative values")
    return np.sqrt(x)


def stochastic_rows(X):
    msg = "Array should be stochastic along the columns"
    assert len(X[X < 0]) == len(X[X > 1]) == 0, msg
    return X / X.sum(axis=1, keepdims=True)


def labels_complete(y, k, log):
    log.append("checked")
    classes = np.unique(y)
    if classes.shape[0] != k:
        raise ValueError(f"expected {k} classes")
    return np.bincount(y, minlength=k) / len(y)


def some_selected(x, lo):
    picked = np.flatnonzero(x > lo)
    assert picked.size >= 1, "nothing above the threshold"
    return x[picked].sum()


def count_or_zero(x):
    """A size comparison that chooses a value: no check, the break stays."""
    n = len(x[x > 0])
    if n == 0:
        return 0.0
    return x[x > 0].mean()


PROGRAMS = {
    "len_of_mask_gt_0": (nonnegative_sqrt, [(np.arange(4.0),)], [(np.array([1.0, -1.0]),)]),
    "chained_len_equal": (stochastic_rows, [(np.full((2, 2), 0.5),)],
                          [(np.array([[1.5, -0.5], [0.5, 0.5]]),),
                           (np.array([[1.5, 0.5], [0.5, 0.5]]),)]),
    "unique_count": (labels_complete, [(np.array([0, 1, 2, 1]), 3, [])],
                     [(np.array([0, 2, 2, 0]), 3, [])]),
    "flatnonzero_size": (some_selected, [(np.arange(5.0), 2.0)], [(np.arange(5.0), 9.0)]),
}
