"""State that changes between calls of one compiled object: a global config dict, a
global step counter, an attribute flag, weights replaced or written in place, a list of
layers that grows. Each sequence of calls must give what the same sequence gives eagerly
(guards must notice every change that matters)."""

import numpy as np
from harness import same
from rw_check import rng_arrays

import dynamo

CONFIG = {"scale": 0.5, "act": "tanh"}
STEP = 0


def scaled_activation(x):
    act = np.tanh if CONFIG["act"] == "tanh" else np.sin
    return act(x * CONFIG["scale"])


def counted_step(x):
    global STEP
    STEP += 1
    return x * STEP, STEP


class Model:
    def __init__(self):
        self.w = np.ones((3, 3), np.float32)
        self.act = "relu"
        self.layers = [np.eye(3, dtype=np.float32)]

    def __call__(self, x):
        h = x @ self.w
        h = np.maximum(h, 0) if self.act == "relu" else np.tanh(h)
        for layer in self.layers:
            h = h @ layer
        return h


def _sequence(compile_fn):
    """The same scenario, with ``compile_fn`` applied to each callable (or not)."""
    global STEP
    STEP = 0
    CONFIG.update(scale=0.5, act="tanh")
    x = rng_arrays(0, (2, 3))
    outs = []
    f = compile_fn(scaled_activation)
    outs.append(f(x))
    CONFIG["scale"] = 2.0
    outs.append(f(x))
    CONFIG["act"] = "sin"
    outs.append(f(x))
    g = compile_fn(counted_step)
    outs += [g(x), g(x), g(x[:1])]
    model = Model()
    m = compile_fn(model)
    outs.append(m(x))
    model.act = "tanh"
    outs.append(m(x))
    model.w = model.w * 2
    outs.append(m(x))
    model.w[0, 0] = 100.0                       # written in place: no recompile needed
    outs.append(m(x))
    model.layers.append(np.full((3, 3), 0.5, np.float32))
    outs.append(m(x))
    model.layers[-1] = np.zeros((3, 2), np.float32)
    outs.append(m(rng_arrays(1, (4, 3))))
    return outs


def test_changes_between_calls_match_eager():
    expected = _sequence(lambda fn: fn)
    dynamo.reset()
    got = _sequence(dynamo.compile)
    assert len(got) == len(expected) == 12
    for i, (a, b) in enumerate(zip(expected, got)):
        same(a, b, path=f"call {i}")


def test_changes_between_calls_match_eager_numpy_backend():
    expected = _sequence(lambda fn: fn)
    dynamo.reset()
    got = _sequence(lambda fn: dynamo.compile(fn, backend="numpy"))
    for i, (a, b) in enumerate(zip(expected, got)):
        same(a, b, rtol=1e-6, path=f"call {i}")
