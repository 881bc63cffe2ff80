"""A ring of arrays in a list, written at a changing index (``buf[t % 4] = x``) and
read whole (``np.mean(buf, axis=0)``, ``np.stack(buf)``), is one stacked input with
the slot written in the graph (``dynamo/variables/ring_rows.py``): no entry per slot.
Issue #16. Checked against eager: results, the ring's items after each call and their
identity (a slot not written keeps its object), a value of another dtype (read item by
item, as before), and the counter used elsewhere as well.
"""

import numpy as np
import pytest
from harness import same

import dynamo

XS = [np.random.default_rng(1600 + i).standard_normal(5) for i in range(9)]


class Ring:
    def __init__(self, dtype=np.float64):
        self.buf, self.t = [np.zeros(5, dtype) for _ in range(4)], 0

    def push(self, x):
        self.buf[self.t % 4] = x
        self.t += 1
        return np.mean(self.buf, axis=0), np.stack(self.buf)


def _run(make, xs, backend):
    """Eager and compiled side by side; the compiled ring's report."""
    want, got = make(), make()
    dynamo.reset()
    with dynamo.explain(got.push, backend=backend) as f:
        for x in xs:
            kept = list(got.buf)
            same(want.push(x), f(x))
            same((want.buf, want.t), (got.buf, got.t))
            changed = [i for i, (a, b) in enumerate(zip(kept, got.buf)) if a is not b]
            assert changed == [(got.t - 1) % 4]       # only the slot written is new
            assert got.buf[changed[0]] is x           # and holds the caller's array
    return f.report


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_ring_written_at_a_counter_compiles_at_most_twice(backend):
    report = _run(Ring, XS, backend)
    assert report.compile_count <= 2, [str(r) for r in report.recompiles]


def test_values_of_another_dtype_stack_as_numpy_promotes():
    """float32 items, float64 values: at the first call the stack would promote, so
    the items are read as before; from the second the held stack is float64 already
    (a float64 item among them) and a float64 row keeps it so. Equal to eager."""
    report = _run(lambda: Ring(np.float32), XS[:6], "eager")
    assert report.compile_count == 2, [str(r) for r in report.recompiles]
