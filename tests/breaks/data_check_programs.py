"""The programs of ``test_data_checks.py``: checks on array data, in a module of their
own (pytest rewrites the ``assert`` statements of test modules, which would change the
programs' bytecode and messages).

Example::

    >>> normalized(np.array([1.0, -2.0, 3.0]))
    Traceback (most recent call last):
    ...
    AssertionError: negative probabilities
"""

import numpy as np


def normalized(p):
    s = p / p.sum()
    assert np.all(s >= 0), "negative probabilities"
    return s * 2


def nan_checked(x, log):
    log.append("start")           # replayed after the graph: eager's list when it fails
    y = x * 2 + 1
    if np.any(np.isnan(y)):
        raise ValueError(f"nan in y of shape {y.shape}")
    log.append("checked")
    return y.sum()


def loss_checked(w, x):
    loss = np.mean((x @ w) ** 2)
    if not np.isfinite(loss):
        raise FloatingPointError("loss is not finite")
    return loss * 0.5, w - 0.1 * loss


def close_checked(a, b):
    assert np.allclose(a.sum(), b.sum()), "sums differ"
    return a - b


def _is_stochastic(p):
    assert np.all(p >= 0) and np.allclose(p.sum(axis=1), 1.0), "not stochastic"


def helper_checked(p, v):
    _is_stochastic(p)             # inlined: the check of the helper is the caller's
    return p @ v


def caught(x):
    try:
        y = np.log(x)
        if np.any(np.isnan(y)):
            raise ValueError("log of a negative number")
    except ValueError as e:
        return str(e)
    return y


def log_checked(x):
    y = np.log(x)                 # warns at 0: the graph's warning is eager's, once
    assert np.all(np.isfinite(y)), "log of zero"
    return y + 1


def write_before(x):
    x += 1                        # an input written: the check stays a break
    assert np.all(x > 0), "x <= 0 after the shift"
    return x * 2


def write_after(x, out):
    assert np.all(x > 0), "x <= 0"
    out[:] = x * 2                # a write after the check: the graph ends before it
    return out.sum()


def draw_before(rng, x):
    z = x + rng.normal(size=x.shape)   # a random draw: the check stays a break
    assert np.all(z > -100), "too small"
    return z


def printed_then_checked(x, log):
    print("start")                # a break: the check is in the resume function's graph
    log.append(len(log))
    y = x * 2
    assert np.all(y > 0), "y <= 0"
    return y
