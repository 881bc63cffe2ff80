"""A draw of a ``random.Random`` object in a compiled function (``self.rng.gauss``,
``rng.random()``, ``rng.randrange``; ``cached_call_results.is_random_draw``, issue
#16), or a NumPy Generator's scalar draw that breaks (``gen.binomial(40, 0.3)``): the
call stays a graph break, so Python makes each draw at its place and the generators'
states after every call are eager's; the draw, carried over the break, is a
changing number of the resume function from its first trace: no recompile for it (one
before, the second compile of the resume function).
"""

import random

import numpy as np
import pytest

import dynamo


class Noisy:
    def __init__(self):
        self.rng, self.gen = random.Random(5), np.random.default_rng(5)

    def gauss(self, x):                     # a method written in Python
        return x + self.rng.gauss(0.0, 0.1)

    def uniform_lr(self, w, g):             # random() in C, under uniform
        return w - 0.1 * self.rng.uniform(0.9, 1.1) * g

    def row(self, x):                       # an int draw used as a number
        return x * self.rng.randrange(1, 6)

    def binomial(self, x):                  # NumPy's scalar draw, p from the data:
        return x * self.gen.binomial(40, np.exp(-x[0] ** 2))   # a break at the call


ARGS = {"gauss": lambda i: (np.full(3, float(i)),),
        "uniform_lr": lambda i: (np.zeros(3), np.full(3, i + 1.0)),
        "row": lambda i: (np.arange(3.0) + i,),
        "binomial": lambda i: (np.arange(3.0) - i / 4,)}


def _run(method, calls, backend):
    """Plain and compiled side by side: each call's result and the generator's state
    after it equal; the compiled side's report."""
    want, got = Noisy(), Noisy()
    dynamo.reset()
    with dynamo.explain(getattr(got, method), backend=backend) as f:
        for i in range(calls):
            a = getattr(want, method)(*ARGS[method](i))
            b = f(*ARGS[method](i))
            np.testing.assert_array_equal(a, b, strict=True)
            assert got.rng.getstate() == want.rng.getstate()
            assert got.gen.bit_generator.state == want.gen.bit_generator.state
    return f.report


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("method", ["gauss", "uniform_lr", "row", "binomial"])
def test_a_draw_is_a_changing_number_of_the_resume_function(method, backend):
    report = _run(method, 6, backend)
    recompiles = [r for r in report.recompiles if r.call >= 1]
    assert not recompiles, str(report)
    assert report.compile_count == 2, str(report)   # the frame and one resume function
