"""What a cached call relied on, changed between calls: the guard fails, the frame is
traced again, and the result is the plain function's.

The programs are those of ``scripts/bench.py``'s state section (a layer appending to
``self.X`` and calling ``np.tanh``), with one thing changed after they were cached:
``np.tanh`` replaced in its module, a method of ``type(self)`` replaced, an instance
attribute that shadows it, the object's class, a global function or module rebound.
Each case counts the traces (one more after the change, none when the change is
undone and the first entry serves again) and compares every call with plain Python.
"""

import sys
import types

import numpy as np
import pytest
from harness import same

import dynamo
from dynamo.listeners import listening

BACKENDS = ["eager", "numpy"]
X = np.linspace(-1.0, 1.0, 6).astype(np.float32)
THIS = sys.modules[__name__]


class Frames:
    """Counts the frames the compiler starts on (one per trace)."""

    def __init__(self):
        self.n = 0

    def on_frame_start(self, fn, ctx):
        self.n += 1


class Layer:
    def __init__(self):
        self.X = []

    def act(self, x):
        return np.tanh(x)

    def forward(self, x):
        self.X.append(x)
        return self.act(x) * 2


class Other(Layer):
    def act(self, x):
        return x - 1


def helper(x):
    return x * 3


def calls_a_global(x):
    return helper(x) + np.tanh(x)


def twice(plain, compiled, x, label):
    """Two calls each, compared; the second one of the compiled must hit."""
    for i in range(2):
        same(compiled(x), plain(x), path=f"{label}, call {i + 1}")


def layers(backend):
    plain, layer = Layer(), Layer()
    return plain, layer, dynamo.compile(layer.forward, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_np_tanh_replaced_in_its_module(backend, monkeypatch):
    plain, layer, compiled = layers(backend)
    with listening(Frames()) as frames:
        twice(plain.forward, compiled, X, "before")
        assert frames.n == 1
        with monkeypatch.context() as m:
            m.setattr(np, "tanh", np.sin)
            twice(plain.forward, compiled, X, "np.tanh is np.sin")
            assert frames.n == 2
        twice(plain.forward, compiled, X, "np.tanh restored")
        assert frames.n == 2
    assert len(layer.X) == len(plain.X) == 6


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_method_of_the_class_replaced(backend, monkeypatch):
    plain, layer, compiled = layers(backend)
    with listening(Frames()) as frames:
        twice(plain.forward, compiled, X, "before")
        with monkeypatch.context() as m:
            m.setattr(Layer, "act", lambda self, x: x + 10)
            twice(plain.forward, compiled, X, "Layer.act replaced")
            assert frames.n == 2
        twice(plain.forward, compiled, X, "Layer.act restored")
        assert frames.n == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_instance_attribute_shadows_the_method(backend):
    plain, layer, compiled = layers(backend)
    with listening(Frames()) as frames:
        twice(plain.forward, compiled, X, "before")
        plain.act = layer.act = lambda x: x * -1
        twice(plain.forward, compiled, X, "act shadowed")
        assert frames.n == 2
        del plain.act, layer.act
        twice(plain.forward, compiled, X, "act unshadowed")
        assert frames.n == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_class_of_self_changed(backend):
    plain, layer, compiled = layers(backend)
    with listening(Frames()) as frames:
        twice(plain.forward, compiled, X, "before")
        plain.__class__ = layer.__class__ = Other
        twice(plain.forward, compiled, X, "type(self) is Other")
        assert frames.n == 2
    assert len(layer.X) == len(plain.X) == 4


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_global_function_rebound(backend, monkeypatch):
    compiled = dynamo.compile(calls_a_global, backend=backend)
    with listening(Frames()) as frames:
        twice(calls_a_global, compiled, X, "before")
        with monkeypatch.context() as m:
            m.setattr(THIS, "helper", lambda x: x / 4)
            twice(calls_a_global, compiled, X, "helper rebound")
            assert frames.n == 2
        twice(calls_a_global, compiled, X, "helper restored")
        assert frames.n == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_module_global_np_rebound(backend, monkeypatch):
    compiled = dynamo.compile(calls_a_global, backend=backend)
    fake = types.ModuleType("fake_numpy")   # another module, whose tanh is np.cos
    fake.tanh = np.cos
    with listening(Frames()) as frames:
        twice(calls_a_global, compiled, X, "before")
        with monkeypatch.context() as m:
            m.setattr(THIS, "np", fake)
            # (the plain call reads the same rebound global)
            twice(calls_a_global, compiled, X, "np is a namespace")
            assert frames.n == 2
        twice(calls_a_global, compiled, X, "np restored")
        assert frames.n == 2
