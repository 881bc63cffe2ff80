"""The trace reads an object's own attributes without making its ``__dict__``
(``dynamo/made_dicts.py``, issue #15): on 3.11 and 3.12 reading it makes a dict of the
inline attributes for good, and every later attribute access of the object, compiled
or plain, misses the interpreter's specialized paths. Results stay eager's, and the
guard ``not (o.__dict__ is ___G)`` of a written object still fails where the object's
dict is the function's globals.
"""

from __future__ import annotations

import gc
import inspect

import numpy as np
import pytest

import dynamo
from dynamo import pyversion
from dynamo.made_dicts import own_attribute, static_lookup, unmade

BACKENDS = ("eager", "numpy")


class Accumulator:
    """A counter, an array summed in place and a weight: the state shapes of the
    stateful corpora (``gradient_accumulation_steps``)."""

    def __init__(self, w):
        self.w, self.acc, self.k = w.copy(), np.zeros_like(w), 0

    def step(self, g):
        self.acc += g
        self.k += 1
        if self.k == 3:
            self.w -= 0.1 * self.acc
            self.acc[:] = 0.0
            self.k = 0
        return self.w * 2.0


def _dict_made(obj) -> bool:
    """Whether ``obj`` holds a made ``__dict__`` (asked without making it: a made dict
    is a referent; this class's attributes hold no dict)."""
    return any(type(r) is dict for r in gc.get_referents(obj))


def _state(a):
    return (a.k, a.w.copy(), a.acc.copy())


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_written_object_equals_eager(backend):
    dynamo.reset()
    w = np.arange(4.0)
    want, got = Accumulator(w), Accumulator(w)
    f = dynamo.compile(got.step, backend=backend)
    for i in range(8):
        g = np.full(4, float(i))
        np.testing.assert_array_equal(f(g), want.step(g), err_msg=f"call {i}")
        k, w1, a1 = _state(got)
        k0, w0, a0 = _state(want)
        assert k == k0, i
        np.testing.assert_array_equal(w1, w0)
        np.testing.assert_array_equal(a1, a0)


class Affine:
    """Read, never written: a model's weights."""

    def __init__(self):
        self.w = np.arange(16.0).reshape(4, 4) / 10
        self.b = np.ones(4)
        self.scale = 2.0

    def forward(self, x):
        return (x @ self.w + self.b) * self.scale


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_read_object_keeps_its_dict_unmade(backend):
    dynamo.reset()
    m, ref = Affine(), Affine()
    f = dynamo.compile(m.forward, backend=backend)
    for i in range(4):
        x = np.full((2, 4), float(i))
        np.testing.assert_array_equal(f(x), ref.forward(x), err_msg=f"call {i}")
    m.scale, ref.scale = 3.0, 3.0   # (a new value: the entry's guard on it fails)
    x = np.ones((2, 4))
    np.testing.assert_array_equal(f(x), ref.forward(x))
    if pyversion.READING_DICT_MAKES_IT:
        # (made by the trace's reads before: inspect.getattr_static, instance_dicts)
        assert not _dict_made(m), "compiling or calling made the object's __dict__"


# A namespace of its own, so that an object whose __dict__ is these globals writes no
# global of this test module
_SOURCE = '''
SCALE = 2.0

class Scaler:
    def __init__(self):
        self.SCALE = 0.0

    def step(self, x):
        self.SCALE = self.SCALE + 1.0
        return x * SCALE
'''


def _namespace():
    ns: dict = {"__name__": "made_dicts_namespace"}
    exec(_SOURCE, ns)  # noqa: S102 (the test's own source)
    return ns


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_object_whose_dict_is_the_globals_misses_the_entry(backend):
    """The entry made for a plain object must not run for one whose ``__dict__`` is
    the function's globals: its write ``self.SCALE = ...`` changes the global the
    return reads (plain: ``x * 3.0``; the entry would give ``x * 2.0``)."""
    dynamo.reset()
    x = np.arange(3.0)
    ns, ref = _namespace(), _namespace()
    f = dynamo.compile(ns["Scaler"].step, backend=backend)
    plain = ref["Scaler"].step
    a, a_ref = ns["Scaler"](), ref["Scaler"]()
    for _ in range(3):   # the entry, hit
        np.testing.assert_array_equal(f(a, x), plain(a_ref, x))
    b, b_ref = ns["Scaler"](), ref["Scaler"]()
    b.__dict__, b_ref.__dict__ = ns, ref
    for i in range(2):
        np.testing.assert_array_equal(f(b, x), plain(b_ref, x), err_msg=f"call {i}")
        assert ns["SCALE"] == ref["SCALE"], i
    np.testing.assert_array_equal(f(a, x), plain(a_ref, x))


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_attribute_holding_the_globals_reads_the_dict(backend):
    """An attribute whose value is the globals makes them a referent of the object:
    the guard then reads ``__dict__`` to decide (it is not the globals: a hit)."""
    dynamo.reset()
    x = np.arange(3.0)
    ns, ref = _namespace(), _namespace()
    f = dynamo.compile(ns["Scaler"].step, backend=backend)
    plain = ref["Scaler"].step
    a, a_ref = ns["Scaler"](), ref["Scaler"]()
    a.g, a_ref.g = ns, ref
    for i in range(4):
        np.testing.assert_array_equal(f(a, x), plain(a_ref, x), err_msg=f"call {i}")
        assert a.SCALE == a_ref.SCALE


class _NonData:
    def __get__(self, obj, cls=None):
        return "from the class"


class Attrs:
    shadowed = _NonData()

    @property
    def prop(self):
        return "property"


@pytest.mark.parametrize("name", ["plain", "shadowed", "prop", "missing"])
def test_static_lookup_and_own_attribute_agree_with_getattr_static(name):
    o = Attrs()
    o.plain = 1
    o.__dict__  # noqa: B018 (the reference reads the made dict)
    ref = Attrs()
    ref.plain = 1
    if name == "shadowed":
        o.__dict__["shadowed"] = 2
    fresh = Attrs()
    fresh.plain = 1
    if name == "shadowed":
        fresh.shadowed = 2   # (a non-data descriptor: the instance entry wins)
    try:
        want = (inspect.getattr_static(o, name), name in o.__dict__)
    except AttributeError:
        want = AttributeError
    try:
        got = static_lookup(fresh, name)
    except AttributeError:
        got = AttributeError
    assert got == want
    assert own_attribute(fresh, name) == o.__dict__.get(name)


def test_no_dict_made_where_the_class_has_no_entry():
    if not pyversion.READING_DICT_MAKES_IT:
        pytest.skip("3.13+ keep the inline values: reading __dict__ costs nothing later")
    o = Attrs()
    o.plain = 1
    assert unmade(o)
    assert static_lookup(o, "plain") == (1, True)
    assert own_attribute(o, "plain") == 1 and own_attribute(o, "nope") is None
    with pytest.raises(AttributeError):
        static_lookup(o, "nope")
    assert unmade(o), "the lookups made the object's __dict__"
    o.__dict__  # noqa: B018 (made now)
    assert not unmade(o)
