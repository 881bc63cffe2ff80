"""``lst[i]`` at a changing int ``i`` reads that item alone (``builder._item_at``):
guarded as any value read at ``L['lrs'][L['i']]`` (a float that changes is a number),
with ``-len(lst) <= i < len(lst)`` as decisions. Issue #16: a learning-rate schedule
kept as a list and indexed by a step counter compiles twice, not once per step.

Checked against eager: results and state, an index out of bounds (Python's
``IndexError``), negative and affine indices (``i - 1``), a list of arrays (the item
an input; written in place), a list that grows between calls, and items that change
type.
"""

import numpy as np
import pytest
from harness import outcome, same, same_outcome

import dynamo


class Scheduled:
    def __init__(self):
        self.lrs = [0.1 * 0.7 ** i for i in range(20)]
        self.i = 0

    def step(self, w, g):
        lr = self.lrs[self.i]
        self.i += 1
        return w - lr * g


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_list_schedule_compiles_twice(backend):
    want, got = Scheduled(), Scheduled()
    g = np.linspace(-1.0, 1.0, 4)
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        w_want = w_got = np.ones(4)
        for i in range(10):
            w_want, w_got = want.step(w_want, g), f(w_got, g)
            same(w_want, w_got, rtol=1e-12, path=f"call {i}")
            assert got.i == want.i
    # the first call, then the item's value changes (a number from then on); before:
    # one entry per step (the index pinned), then eager at the cache limit
    assert f.report.compile_count == 2, [str(r) for r in f.report.recompiles]


def at(x, xs, i):
    return x * xs[i], xs[i - 1] + 0.5


@pytest.mark.parametrize("xs", [[0.5, 1.5, 2.5, 3.5], [1, 2, 3, 4],
                                [np.full(3, float(k)) for k in range(4)]])
def test_indices_in_and_out_of_bounds_are_eager_s(xs):
    f = dynamo.compile(at, backend="eager")
    x = np.arange(3.0)
    for i in (0, 1, 2, 3, 4, -1, -4, -5, 2, 5, 1):
        same_outcome(outcome(at, (x, list(xs), i)), outcome(f, (x, list(xs), i)), f"i={i}")


def write_item(bufs, i, x):
    bufs[i] += x
    return bufs[i].sum()


def test_an_array_item_written_in_place():
    f = dynamo.compile(write_item, backend="eager")
    want = [np.zeros(3) for _ in range(4)]
    got = [np.zeros(3) for _ in range(4)]
    for k, i in enumerate([0, 1, 2, 3, 1, -1, 7]):
        x = np.full(3, float(k))
        same_outcome(outcome(write_item, (want, i, x)), outcome(f, (got, i, x)), f"i={i}")


def grown(xs, i):
    return xs[i] * 2


def test_a_growing_list_and_changing_item_types():
    f = dynamo.compile(grown, backend="eager")
    want, got = [1.0, 2.0], [1.0, 2.0]
    for k, i in enumerate([0, 1, 2, 1, 3, 0, 4, 2]):
        item = [3.0, 4, True, "s", 5.5, None, 7.0, 8.0][k]
        want.append(item)
        got.append(item)
        same_outcome(outcome(grown, (want, i)), outcome(f, (got, i)), f"i={i}")
