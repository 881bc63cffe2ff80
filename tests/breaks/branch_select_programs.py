"""The programs of ``test_branch_selects.py``: ``if``s on array data that only choose a
value (one graph: both ways and a ``branch_select``), and ``if``s that must keep their
break (a way with an effect, ways of two shapes or dtypes). In a module of their own so
that their bytecode is plain CPython's (pytest rewrites a test module's ``assert``s)."""

import numpy as np


def sign_dispatch(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = -x
    return np.tanh(y)


def clip_gradient(g, clip):
    if np.linalg.norm(g) > clip:
        g = g * (clip / np.linalg.norm(g))
    return g


def keep_best(err, best, w, best_w):
    if err < best:
        best = err
        best_w = w.copy()
    return best, best_w


def scale_by_max(a):
    scale = a.max() if a.max() > 1 else a.min() + 1
    return a / scale


def safe_reciprocal(d):
    if d != 0:
        y = 1 / d
    else:
        y = d * 0
    return y + 1


def log_if_positive(x):
    if x.min() > -1:
        y = np.log(x + 0.5)      # warns (log of 0) when x holds -0.5: the taken way
    else:
        y = x
    return y


def returns_either(x):
    y = x - 0.5
    if y.mean() > 0:
        return y * 100
    z = y * 2
    return z


def _relu_sum(v):
    if v.sum() > 0:
        return v
    return np.zeros_like(v)


def inlined_helper(a, b):
    return _relu_sum(a) + _relu_sum(b)


def nested_choice(x):
    s = x.sum()
    if s > 0:
        if x.max() > 2:
            y = x / x.max()
        else:
            y = x * 2
    else:
        y = -x
    return y


def momentum_step(w, g, v, lr):
    n = np.sqrt(np.sum(g * g))
    if n > 1.0:
        g = g / n
    v = 0.9 * v + g
    return w - lr * v, v


def inverse_or_identity(a):
    if abs(np.linalg.det(a)) > 1e-12:
        m = np.linalg.inv(a)     # raises LinAlgError for a singular a: the untaken way
    else:
        m = np.eye(a.shape[0])
    return m @ a


def loss_choice(pred, target):
    err = pred - target
    if np.abs(err).max() > 1.0:       # Huber-like: linear loss for large errors
        loss = np.abs(err).mean()
    else:
        loss = (err * err).mean()
    return loss


def returned_argument(g):
    """The taken way's array itself: eager returns ``g`` when it is small."""
    if np.abs(g).max() > 10:
        g = g / 10
    return g


def write_through_the_chosen_name(x):
    y = x + 1
    z = y
    if x.sum() > 0:
        z = y * 2
    z[0] = 0.0                   # eager: writes y too where the `if` did not run
    return y * 3, z + 1


def add_in_place_to_the_chosen_name(x):
    y = x * 1.5
    if x.sum() > 0:
        z = y
    else:
        z = y + 1
    z += 1.0
    return y.sum(), z


def clip_each_in_a_comprehension(grads, c):
    n = np.sqrt(sum(np.sum(g * g) for g in grads))
    return [g * (c / n) if n > c else g for g in grads]


def average_unless_close(a, b):
    if np.allclose(a, b):        # a bool the glue would make: its 0-d flag decides
        y = a
    else:
        y = (a + b) / 2
    return y


def both_positive(a, b):
    if a.sum() > 0 and b.sum() > 0:
        y = a + b
    else:
        y = a - b
    return y


def halve_if_any(x):
    n = np.count_nonzero(x)      # an integer scalar: its truth decides
    if n:
        y = x / 2
    else:
        y = x
    return y


# ----------------------------------------------------------------- still breaks
def writes_an_argument_through_the_chosen_name(x, g):
    if x.sum() > 0:
        g = g * 2
    g[0] = 5.0                   # eager: writes the argument where the `if` did not run
    return g


def appends_in_a_way(x, log):
    if x.sum() > 0:
        log.append("positive")
        y = x * 2
    else:
        y = -x
    return y


def prints_in_a_way(x):
    if x.sum() > 0:
        print("positive")
        y = x * 2
    else:
        y = -x
    return y


def writes_in_a_way(x, out):
    if x.sum() > 0:
        out[0] = 1.0
    return x + out


def draws_in_a_way(x, rng):
    if x.sum() > 0:
        y = x + rng.normal(size=x.shape)
    else:
        y = x
    return y


def dtypes_differ(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x.astype(np.float32)
    return y


def shapes_differ(x):
    if x.sum() > 0:
        y = x[:2]
    else:
        y = x
    return y * 2


def python_float_or_array(a):
    # (a NumPy scalar or a Python float is a choice the glue makes after the graph:
    # tests/breaks/test_branch_choice_values.py; an array of one or more dimensions is not)
    scale = a / a.max() if a.max() > 1 else 1.0
    return a * scale


def writes_after(g, out):
    if np.abs(g).max() > 1:
        g = g / 2
    out[:] = g
    return out


def one_way_aliases_two_names(x):
    if x.sum() > 0:
        y = x * 2
        z = y                    # y is z on this way only
    else:
        y = -x
        z = x + 1
    z += 1.0
    return y, z, y is z


def mean_of_empty_selection(x, labels):
    if np.any(labels == 0):
        c = x[labels == 0].mean()      # "Mean of empty slice" at Python level
    else:
        c = x[0]
    return c
