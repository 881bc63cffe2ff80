"""Library module attributes replaced after compiling (``np.tanh = f``, ``np.pi = 3``).

The trace bakes ``np.tanh`` in as a graph op and ``np.pi`` as a constant, so each one
read is guarded by identity (``ModuleAttrSource``, rendered as one batched test per
module, see ``guards/render.py``). Differential: compile, call, replace the attribute,
call again, each call compared with the plain function; the attribute is restored in
a ``finally``.
"""

import contextlib
import logging
import math
import types

import numpy as np
import pytest
from dynamo.guards import ID, CheckFunction, Guard, ModuleAttrSource
from harness import same

import dynamo
from dynamo.listeners import listening

BACKENDS = ["eager", "numpy"]
X = np.linspace(-1.0, 1.0, 5)


@contextlib.contextmanager
def replaced(module, name, value):
    """``module.name = value`` for the block, restored after it (also on failure)."""
    old = vars(module)[name]
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, old)


class Frames:
    """Counts the frames the compiler starts on (one per trace)."""

    def __init__(self):
        self.n = 0

    def on_frame_start(self, fn, ctx):
        self.n += 1


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001
        return (type(e), str(e))


def differential(fn, patches, args=(X,), backend="eager"):
    """Plain and compiled agree before, while and after ``patches`` are in place."""
    compiled = dynamo.compile(fn, backend=backend)
    same(outcome(compiled, *args), outcome(fn, *args), path="before")
    with contextlib.ExitStack() as stack:
        for module, name, value in patches:
            stack.enter_context(replaced(module, name, value))
        expected = outcome(fn, *args)
        same(outcome(compiled, *args), expected, path="patched")
        same(outcome(compiled, *args), expected, path="patched, cached")
    same(outcome(compiled, *args), outcome(fn, *args), path="restored")
    return compiled


def uses_tanh(x):
    return np.tanh(x) + 1.0


def uses_pi(x):
    return x * np.pi, 2 * np.pi


def uses_e(x):
    return x + np.e


def uses_math(x):
    return x * math.pi + math.sqrt(2.0)


def uses_float32(x):
    return x.astype(np.float32)


def uses_many(x):
    y = np.exp(np.sin(x)) + np.cos(x) * np.pi
    return np.maximum(y, np.e).astype(np.float32), np.linalg.norm(x)


def uses_linalg(x):
    return np.linalg.norm(x) + 1.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_function_replaced(backend):
    differential(uses_tanh, [(np, "tanh", lambda x: x * 0 + 42)], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_function_replaced_by_another_library_function(backend):
    differential(uses_tanh, [(np, "tanh", np.sin)], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_constants_replaced(backend):
    differential(uses_pi, [(np, "pi", 3.0)], backend=backend)
    differential(uses_e, [(np, "e", 0.0)], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_constant_replaced_by_an_equal_value_of_another_type(backend):
    # == holds (np.float64 is a float subclass), but 2 * np.pi is now an np.float64
    differential(uses_pi, [(np, "pi", np.float64(np.pi))], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_math_replaced(backend):
    differential(uses_math, [(math, "pi", 3.0), (math, "sqrt", lambda v: -1.0)],
                 backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_type_alias_rebound(backend):
    differential(uses_float32, [(np, "float32", np.float16)], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_submodule_attribute_replaced(backend):
    differential(uses_linalg, [(np.linalg, "norm", lambda x: -5.0)], backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_of_many_attributes_replaced(backend):
    for name, value in [("exp", np.expm1), ("maximum", np.minimum), ("e", 10.0),
                        ("float32", np.float64)]:
        differential(uses_many, [(np, name, value)], backend=backend)


def test_module_reached_through_an_attribute():
    class Model:
        lib = np

        def __call__(self, x):
            return self.lib.tanh(x) * 2.0

    m = Model()
    differential(lambda x: m(x), [(np, "tanh", np.cos)])


class _EqualsAnything:
    """A callable that claims to be equal to everything (hostile ``__eq__``)."""

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__

    def __call__(self, x):
        return "not tanh"


def test_object_that_compares_equal_is_not_accepted():
    differential(uses_tanh, [(np, "tanh", _EqualsAnything())])


def test_restoring_the_attribute_hits_the_first_entry_again():
    compiled = dynamo.compile(uses_tanh, backend="eager")
    with listening(Frames()) as frames:
        compiled(X)
        with replaced(np, "tanh", np.sin):
            compiled(X)
        same(compiled(X), uses_tanh(X))
        same(compiled(X), uses_tanh(X))
    assert frames.n == 2   # the first trace and the one with np.sin; then hits


def test_replaced_before_the_first_call_is_honoured():
    with replaced(np, "tanh", np.sin):
        compiled = dynamo.compile(uses_tanh, backend="eager")
        same(compiled(X), uses_tanh(X))
    same(compiled(X), uses_tanh(X))


def test_unchanged_attributes_do_not_retrace():
    compiled = dynamo.compile(uses_many, backend="eager")
    with listening(Frames()) as frames:
        for _ in range(5):
            same(compiled(X), uses_many(X))
    assert frames.n == 1


def test_recompile_log_names_the_replaced_attribute(caplog):
    compiled = dynamo.compile(uses_many, backend="eager")
    compiled(X)
    dynamo.set_logs("recompiles")
    try:
        with caplog.at_level(logging.DEBUG, logger="dynamo"), replaced(np, "e", 10.0):
            compiled(X)
    finally:
        dynamo.set_logs()
    assert "numpy.e: expected 2.718281828459045, got 10.0" in caplog.text


# ------------------------------------------------------------------ the check itself

def _module(**attrs) -> types.ModuleType:
    m = types.ModuleType("fakelib")
    vars(m).update(attrs)
    return m


def _check(module, names):
    guards = [Guard(ModuleAttrSource(module, n), ID, vars(module)[n]) for n in names]
    return CheckFunction(guards, [], "f", {}, has_closure=False)


def test_check_is_identity_and_explains_failures():
    def fn():
        pass

    lib = _module(f=fn, pi=3.5, g=len)
    check = _check(lib, ["f", "pi", "g"])
    assert "# fakelib.pi is 3.5\n" in check.source and "# fakelib.g is len\n" in check.source
    assert "___c1['pi'] is ___c" in check.source
    assert check() and check.failures(()) == []
    lib.pi = float("3.5")    # an equal float, but another object: a miss (a retrace)
    assert not check()
    lib.pi = 3.0
    assert not check()
    assert check.failures(()) == ["fakelib.pi: expected 3.5, got 3.0"]
    del lib.pi
    assert not check()
    assert check.failures(()) == ["fakelib.pi: could not be read (KeyError: 'pi')"]


def test_user_object_put_into_a_library_module():
    class Fn:
        def __call__(self):
            pass

    obj = Fn()
    lib = _module(a=obj, b=len)
    check = _check(lib, ["a", "b"])
    assert "['a'] is ___c2()" in check.source   # held weakly, like any user object
    assert check()
    lib.a = Fn()
    assert not check()
    assert Guard(ModuleAttrSource(lib, "a"), ID, obj).describe().startswith(
        "fakelib.a is <Fn object at 0x")


def test_guard_words():
    g = Guard(ModuleAttrSource(np, "tanh"), ID, np.tanh)
    assert g.describe() == "numpy.tanh is numpy.tanh"
    assert Guard(ModuleAttrSource(np, "pi"), ID, np.pi).describe() == \
        "numpy.pi is 3.141592653589793"
    assert g.failure(np.sin) == "numpy.tanh: expected numpy.tanh, got numpy.sin"


def test_a_module_name_with_a_line_break_stays_in_its_comment():
    lib = _module(a=len)
    lib.__name__ = "numpy.\nraise SystemExit"
    check = _check(lib, ["a"])
    assert check() and "# numpy. raise SystemExit.a is len\n" in check.source
