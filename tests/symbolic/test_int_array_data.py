"""A changing int that is an item of array data (issue #16, ``ShapeEnv._as_array_data``):
``np.concatenate([x, [n]])``, ``np.array([n, 2 * n])``, ``np.full(3, n)``,
``np.append(x, n)``. NumPy makes an int64 array of it whatever its value (the entry
serves int64 values only), so it is a value of the graph, not a size: a counter from
0 compiles once, where it was pinned at 0 and at 1 (two recompiles). Results,
dtypes and the counter are eager's after every call, on both CPU backends. (With an
explicit small dtype, ``np.array([n], dtype=np.int8)``, the op's rule raises for some
probe value, so the int stays a size there: pinned, exact, as before.)

Example::

    def tag(self, x):
        self.n += 1
        return np.concatenate([x, [self.n]])     # float64 for a float32 x: NumPy's
"""

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]
X = np.arange(4.0)

DATA = [
    lambda self, x: np.concatenate([x, [self.n]]),
    lambda self, x: np.concatenate([x.astype(np.float32), [self.n, 2 * self.n]]),
    lambda self, x: np.array([self.n, 2 * self.n]) + x[:2],
    lambda self, x: np.hstack([x, [self.n]]),
    lambda self, x: np.append(x, self.n),
    lambda self, x: np.full(3, self.n) * x[:3],
    lambda self, x: x + np.array(self.n),
    lambda self, x: np.array([[self.n, 1], [2, 3]]),
    lambda self, x: np.array([-self.n, 2 ** 40 + self.n]) * x[:2],
]


class Counter:
    def __init__(self, body):
        self.n, self.body = 0, body

    def step(self, x):
        self.n += 1
        return self.body(self, x)


def _outcome(fn, x):
    try:
        out = fn(x)
        return ("ok", out, out.dtype)
    except Exception as e:  # noqa: BLE001 (the exception is part of eager's behaviour)
        return ("raised", type(e).__name__, str(e))


def _same(a, b):
    if a[0] != b[0]:
        return False
    if a[0] == "raised":
        return a == b
    return a[2] == b[2] and np.array_equal(a[1], b[1])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("index", range(len(DATA)))
def test_changing_int_as_array_data(index, backend):
    eager, compiled = Counter(DATA[index]), Counter(DATA[index])
    with dynamo.explain(compiled.step, backend=backend) as f:
        got = [(_outcome(f, X), compiled.n) for _ in range(7)]
    want = [(_outcome(eager.step, X), eager.n) for _ in range(7)]
    for (a, na), (b, nb) in zip(got, want):
        assert na == nb and _same(a, b), (a, b)
    later = [str(r) for r in f.report.recompiles if r.call >= 1]
    assert not later, later
