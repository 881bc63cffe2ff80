"""A ``functools.lru_cache``/``functools.cache`` helper called from a compiled function
(``dynamo/cached_call_results.py``, issue #16): the call stays a graph break, so the
cache behaves exactly as eager's (hits, misses, eviction order, the wrapped function's
effects on a miss, the cached object returned on a hit), and the number it returns is
a changing number of the resume function from its first trace: one recompile for the
argument's first change, not one more for the result's.
"""

import functools

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")
MISSES: list = []
SCALE = {"s": 1.0}


@functools.lru_cache(maxsize=3)
def decay(k):
    MISSES.append(k)               # an effect on a miss only
    return SCALE["s"] * 0.9 ** k   # reads a global: a hit returns the value cached


def decayed(x, k):
    return x * decay(k) + 1.0


@functools.cache
def coeff(k):
    return 1.0 / (k + 1)


def two_caches(x, k):
    return x * coeff(k) - decay(k % 2)


def _run(fn, calls, backend):
    """``fn`` plain and compiled on the same calls, each cache cleared before each side:
    the same results, misses (the effects, in order) and ``cache_info()``."""
    sides = []
    for f in (fn, dynamo.explain(fn, backend=backend)):
        decay.cache_clear()
        coeff.cache_clear()
        MISSES.clear()
        SCALE["s"] = 1.0
        with f if not callable(f) or hasattr(f, "__enter__") else _Plain(f) as g:
            out = []
            for i, k in enumerate(calls):
                if i == len(calls) // 2:
                    SCALE["s"] = 2.0   # the cached values stay: eager returns them
                out.append(g(np.arange(3.0), k))
        sides.append((out, list(MISSES), decay.cache_info(), coeff.cache_info(), g))
    (want, *want_state, _), (got, *got_state, recorder) = sides
    for a, b in zip(want, got):
        assert np.allclose(a, b) and a.dtype == b.dtype
    assert want_state == got_state
    return recorder.report


class _Plain:
    def __init__(self, fn):
        self.fn = fn

    def __enter__(self):
        return self.fn

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("backend", BACKENDS)
def test_cache_behaves_as_eager_and_its_result_is_an_input(backend):
    calls = [1, 2, 3, 1, 4, 2, 5, 1, 3, 3, 6, 2]
    report = _run(decayed, calls, backend)
    # k changes once (one recompile); the float decay(k) returns is a graph input of
    # the resume function from its first trace (it was one more recompile)
    recompiles = [r for r in report.recompiles if r.call >= 1]
    assert len(recompiles) <= 1, str(report)


def test_two_caches_in_one_frame():
    report = _run(two_caches, [1, 2, 3, 2, 1, 4, 5, 4], "eager")
    # k changes once in the frame and once in the first resume function (it carries
    # k to the second call); neither cache's result costs one (4 before)
    assert len([r for r in report.recompiles if r.call >= 1]) <= 2, str(report)
