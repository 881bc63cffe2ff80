"""A changing Python float as a random draw's parameter (``rng.normal(0.0, self.sigma,
6)`` with ``sigma`` decayed each call) is an input of the graph, not pinned: the draw's
shape and dtype never read it, and NumPy's check of its value (``scale < 0``) runs when
the graph runs, raising there as eagerly (``shape_env._checked_when_run``; stateful
corpus 15's ``legacy_randomstate_attribute`` recompiled on every call).
"""

import warnings

import numpy as np
import pytest
from harness import same

import dynamo

MAKERS = {
    "generator": lambda: np.random.default_rng(3),
    "randomstate": lambda: np.random.RandomState(3),
}


class Noisy:
    """Exploration noise whose scale decays by ``step`` each call (below zero it is
    invalid: NumPy raises ValueError, and the scale stays where it was)."""

    def __init__(self, rng, step):
        self.rng, self.sigma, self.step = rng, 1.0, step

    def perturb(self, x):
        noise = self.rng.normal(0.0, self.sigma, 6) + self.rng.uniform(-self.sigma, 1.0, 6)
        self.sigma -= self.step
        return x + noise


def _run(make, step, wrap, calls=10):
    n = Noisy(make(), step)
    f = wrap(n.perturb)
    out = []
    for _ in range(calls):
        try:
            out.append(f(np.ones(6)))
        except ValueError as e:
            out.append(("ValueError", str(e)))
        out.append((n.sigma, str(n.rng.random())))   # the stream where eager left it
    return out


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_decayed_scale_compiles_once_and_draws_as_eager(kind, backend):
    expected = _run(MAKERS[kind], 0.05, lambda fn: fn)
    opened = []

    def wrap(fn):
        explainer = dynamo.explain(fn, backend=backend)
        opened.append((explainer, explainer.__enter__()))
        return opened[-1][1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            got = _run(MAKERS[kind], 0.05, wrap)
        finally:
            opened[0][0].__exit__(None, None, None)
    same(expected, got)
    report = opened[0][1].report
    assert report.compile_count == 1, report.recompiles


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_scale_gone_negative_raises_as_eager(kind):
    # 1.0, 0.6, 0.2, then -0.2: every call from the fourth raises NumPy's ValueError
    expected = _run(MAKERS[kind], 0.4, lambda fn: fn, calls=6)
    assert [type(o) for o in expected[6::2]] == [tuple] * 3
    got = _run(MAKERS[kind], 0.4, lambda fn: dynamo.compile(fn, backend="numpy"), calls=6)
    same(expected, got)
