"""``np.zeros_like``/``ones_like``/``empty_like``/``full_like`` of a constant Python
prototype (issue #19): NumPy converts it (``np.zeros_like(0.0)`` is a 0-d float64
array, ``np.ones_like([1, 2])`` an int64 vector), so the op stays in the graph with the
converted dtype and shape instead of breaking ("zeros_like of a Python value").

Example: an optimizer keeping its moments per parameter in a dict, where one parameter
is a Python float bias::

    params = {"W": np.zeros(3), "b": 0.0}
    cache = {k: np.zeros_like(v) for k, v in params.items()}   # one graph, no break
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check, rand

LIKES = (np.zeros_like, np.ones_like, np.full_like)


def _call(fn, proto, **kw):
    return fn(proto, 7, **kw) if fn is np.full_like else fn(proto, **kw)


@pytest.mark.parametrize("fn", LIKES, ids=lambda f: f.__name__)
@pytest.mark.parametrize("proto", [0.0, 3, True, 1 + 2j, [1.0, 2.0], [[1, 2], [3, 4]]],
                         ids=repr)
def test_like_of_a_constant_is_one_graph(fn, proto):
    def f(x):
        z = _call(fn, proto)
        return x + z.sum(), z

    check(f, rand(3), graphs=1, breaks=0)


@pytest.mark.parametrize("fn", LIKES, ids=lambda f: f.__name__)
def test_like_of_a_constant_with_dtype_and_shape(fn):
    def f(x):
        a = _call(fn, 0.5, dtype=np.float32)
        b = _call(fn, 2, shape=(2, 3))
        return x * a, b + x[:3]

    check(f, rand(3), graphs=1, breaks=0)


def test_empty_like_of_a_constant_has_eagers_dtype_and_shape():
    def f(x):
        e = np.empty_like([[1.0, 2.0]])
        e[...] = x[:2]
        return e, np.empty_like(5).dtype

    check(f, rand(3), graphs=1, breaks=0)


def test_moments_of_a_float_bias_kept_in_a_dict():
    def adam_like(X, y, steps=3):
        params = {"W": np.zeros(X.shape[1]), "b": 0.0}
        cache = {}
        for _ in range(steps):
            err = X @ params["W"] + params["b"] - y
            grads = {"W": X.T @ err / len(y), "b": err.mean()}
            for k in params:
                if k not in cache:
                    cache[k] = {"m": np.zeros_like(params[k]), "t": 0}
                c = cache[k]
                c["t"] += 1
                c["m"] = 0.9 * c["m"] + 0.1 * grads[k]
                params[k] = params[k] - 0.05 * c["m"] / (1 - 0.9 ** c["t"])
        return params, cache

    check(adam_like, rand(6, 3), rand(6), graphs=1, breaks=0)
