"""Lists the program only appends to are guarded by their type, not their length.

``ListVariable.unread``: a list read from outside the trace is looked at (and its
length and items guarded) only when the trace reads it; ``append``/``extend`` before that
are written back with one ``extend`` after the graph. So a layer that keeps its inputs
compiles once however long the list grows, and everything else about lists is as before.
"""

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo import listeners


class Compiles:
    def __init__(self):
        self.frames = 0

    def on_compile(self, record, ctx):
        self.frames += 1


class Layer:
    def __init__(self):
        self.X = []

    def forward(self, x):
        self.X.append(x)
        return np.tanh(x)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_layer_that_keeps_its_inputs_compiles_once(backend):
    plain, layer = Layer(), Layer()
    f = dynamo.compile(layer.forward, backend=backend)
    xs = [np.full(4, float(i)) for i in range(10)]
    with listeners.listening(Compiles()) as compiles:
        outs = [f(x) for x in xs]
    expected = [plain.forward(x) for x in xs]
    assert compiles.frames == 1
    for a, b in zip(outs, expected):
        np.testing.assert_array_equal(a, b)
    assert len(layer.X) == 10 and all(a is b for a, b in zip(layer.X, xs))


def log_then_compute(log, x):
    log.append("start")
    log.extend(["a", "b"])
    y = x * 2
    log.append(y)
    return y + 1


def append_then_read(log, x):
    log.append(x)
    return x * len(log), log[-1] is x


def extend_self(log, x):
    log.extend(log)
    return x + 1


def append_print_append(log, x):
    log.append(1)
    print("between")          # a graph break: the first append is written back here
    log.append(2)
    return x * 2


def append_to_alias(a, b, x):
    a.append(x)
    return len(b)


def read_then_append(log, x):
    n = len(log)
    log.append(n)
    return x + n


@pytest.mark.parametrize("fn, args", [
    (log_then_compute, ([], np.ones(3))),
    (log_then_compute, (["old"], np.ones(3))),
    (append_then_read, ([1, 2], np.ones(3))),
    (extend_self, ([1, 2], np.ones(3))),
    (append_print_append, ([], np.ones(3))),
    (read_then_append, ([7], np.ones(3))),
])
def test_appends_write_back_as_eager(fn, args):
    check(fn, *args)


def test_one_list_under_two_names():
    shared = [0]
    check(append_to_alias, shared, shared, np.ones(2))
    check(append_to_alias, [0], [0], np.ones(2))


def test_a_growing_log_does_not_recompile_but_a_read_length_does():
    """A log only appended to: one compile. Its length read as a value (``x + len(log)``):
    the first call, then one more when the length changes (it is a changing int from
    there on, ``ShapeEnv.new_length``: tests/variables/test_list_lengths.py)."""
    log = []
    f = dynamo.compile(log_then_compute, backend="eager")
    with listeners.listening(Compiles()) as compiles:
        for _ in range(5):
            f(log, np.ones(3))
    assert compiles.frames == 1 and len(log) == 20
    g = dynamo.compile(read_then_append, backend="eager")
    seen = []
    with listeners.listening(Compiles()) as compiles:
        for _ in range(5):
            seen.append(g(seen_log := [0] * len(seen), np.ones(1))[0])
    assert compiles.frames == 2 and seen == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert seen_log == [0, 0, 0, 0, 4]
