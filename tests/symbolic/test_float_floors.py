"""``math.floor`` / ``math.ceil`` / ``int()`` / ``math.trunc`` of a float made from a
changing int counter is a changing int the call computes (``symbolic/float_floors.py``):
a cyclic learning rate compiles once, not once per step (issue #16, stateful corpus 10's
``cyclic_lr_triangular``), and each value equals eager's, negative counts included
(``int`` truncates toward zero, ``floor`` rounds down). A size use still guards it.
"""

import math

import numpy as np
import pytest
from harness import outcome, same, same_outcome

import dynamo


class CyclicLR:
    """Smith's triangular cyclic LR: ``math.floor`` of ``1 + it / 4``."""

    def __init__(self, it=0, step=1):
        self.it, self.step_by = it, step

    def step(self, w, g):
        cycle = math.floor(1 + self.it / 4)
        xx = abs(self.it / 2 - 2 * cycle + 1)
        lr = 0.001 + 0.005 * max(0.0, 1 - xx)
        self.it += self.step_by
        return w - lr * g


class Rounds:
    """Every int of a float: floor, ceil, int, trunc, in arithmetic and returned."""

    def __init__(self, it=0, step=1):
        self.it, self.step_by = it, step

    def step(self, w, g):
        t = self.it
        self.it = t + self.step_by
        a, b = math.floor(t / 3 - 0.5), math.ceil(t * 0.75)
        c, d = int(t / -4), math.trunc(2.5 * t + 1)
        return w * a + g * b - c * 0.5 + d, a, b, c, d


def _count(make, calls: int, backend: str) -> int:
    """Compile count of ``make().step`` over ``calls`` calls; results and state equal
    eager's on every call."""
    plain, traced = make(), make()
    dynamo.reset()
    with dynamo.explain(traced.step, backend=backend) as compiled:
        for k in range(calls):
            args = (np.linspace(-1.0, 1.0, 4) + k, np.full(4, 0.5 * k))
            same_outcome(outcome(plain.step, args), outcome(compiled, args), f"call {k}")
            same(vars(plain), vars(traced), path=f"state after call {k}")
    return compiled.report.compile_count


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_cyclic_lr_compiles_once(backend):
    # (without float_floors: the counter pinned by floor(), an entry per call, 8 then
    # the cache limit)
    assert _count(CyclicLR, 12, backend) == 1


@pytest.mark.parametrize("start,step", [(0, 1), (-7, 2), (5, -3)])
def test_floor_ceil_int_trunc_equal_eager(start, step):
    assert _count(lambda: Rounds(start, step), 8, "eager") == 1


def sized(t):
    """A floor used as a size: guarded as a size (``>= 2``), still eager's result."""
    return np.ones(math.floor(t / 2)) * t


def test_a_floor_used_as_a_size_is_guarded_as_one():
    compiled = dynamo.compile(sized, backend="eager")
    for t in (4, 6, 9, 2, 0, 5):
        same(sized(t), compiled(t), path=f"t={t}")
