"""An island (a loop that runs as Python) calls a compiled method through one wrapper
its cache keeps for every bound method of that function (``hook.bound_wrapper``), not
through a wrapper made per call: the program's bound method takes the place of
``self`` and holds the function for as long as the call needs it, so nothing kept
holds a function (issue #16). What a method call does stays the method's: its
``TypeError``s, defaults read at the call, ``__code__`` or the class attribute
replaced, ``__qualname__`` renamed, the function collected once dropped."""

import gc
import weakref

import numpy as np
import pytest
from harness import same
from test_island_call_cost import calls_of

import dynamo


class Stepper:
    def __init__(self, c):
        self.c = c

    def step(self, y):
        return y * self.c


def loop_method(y, stepper, trips):
    while float(y[0]) < trips:   # reads array data: the loop runs as Python
        y = stepper.step(y) + 1.0
    return y


def test_a_method_called_every_trip_gets_no_wrapper_made_per_call(monkeypatch):
    # (the compiled calls: no trial picks the plain one, ``callee_trial``)
    monkeypatch.setattr(dynamo.config, "callee_trial_calls", 0)
    f = dynamo.compile(loop_method, backend="eager")
    same(f(np.zeros(4), Stepper(1.0), 30), loop_method(np.zeros(4), Stepper(1.0), 30))
    # (``wrap`` and the factory's ``___make`` ran every trip before: 60 calls in 30)
    made = calls_of(f, {"wrap", "___make"}, np.zeros(4), Stepper(1.0), 30)
    assert made <= 2
    assert calls_of(f, {"___dispatch"}, np.zeros(4), Stepper(1.0), 30) >= 30   # compiled


class Scaled:
    def __init__(self, c):
        self.c = c

    def step(self, y, k=2.0, *, bias=0.0):
        return y * self.c * k + bias

    def plain(self, y, k=2.0):
        return y * self.c * k


def loop_defaults(y, obj, trips):
    while float(y[0]) < trips:
        y = obj.plain(y) + obj.plain(y, 0.5) + 1.0
    return y


def test_method_defaults_replaced_between_calls_are_read():
    f = dynamo.compile(loop_defaults, backend="eager")
    obj = Scaled(1.0)
    same(f(np.zeros(2), obj, 40), loop_defaults(np.zeros(2), obj, 40))
    saved = Scaled.plain.__defaults__
    try:
        Scaled.plain.__defaults__ = (3.0,)      # the same count: read at the call
        same(f(np.zeros(2), obj, 40), loop_defaults(np.zeros(2), obj, 40))
        Scaled.plain.__defaults__ = None       # k is now required: the eager TypeError
        with pytest.raises(TypeError) as eager:
            loop_defaults(np.zeros(2), obj, 40)
        with pytest.raises(TypeError) as compiled:
            f(np.zeros(2), obj, 40)
        assert str(compiled.value) == str(eager.value)
    finally:
        Scaled.plain.__defaults__ = saved


def loop_kwonly(y, obj, trips):
    while float(y[0]) < trips:
        y = obj.step(y, bias=1.0) + 1.0
    return y


def test_a_method_with_keyword_only_defaults_still_runs_compiled():
    f = dynamo.compile(loop_kwonly, backend="eager")
    obj = Scaled(0.5)
    same(f(np.zeros(2), obj, 40), loop_kwonly(np.zeros(2), obj, 40))
    assert calls_of(f, {"___dispatch"}, np.zeros(2), obj, 40) >= 10


def loop_bad_call(y, obj, n, trips):
    out = []
    while float(y[0]) < trips:
        y = y + 1.0
        try:
            if n == 3:
                obj.step(y, 1.0, 2.0, 3.0)   # one positional too many
            elif n == 0:
                obj.step()                   # y missing
            else:
                obj.step(y, self=obj)        # self twice
        except TypeError as e:
            out.append(str(e))
    return y, out


@pytest.mark.parametrize("n", [3, 0, 1])
def test_a_method_call_that_does_not_bind_raises_the_methods_own_type_error(n):
    f = dynamo.compile(loop_bad_call, backend="eager")
    obj = Scaled(1.0)
    expected = loop_bad_call(np.zeros(2), obj, n, 5)
    got = f(np.zeros(2), obj, n, 5)
    same(got[0], expected[0])
    assert got[1] == expected[1] and len(set(got[1])) == 1


def test_a_renamed_method_is_named_so_in_its_errors():
    f = dynamo.compile(loop_bad_call, backend="eager")
    obj = Scaled(1.0)
    f(np.zeros(2), obj, 3, 5)   # (decided and kept under the old name)
    saved = Scaled.step.__qualname__
    try:
        Scaled.step.__qualname__ = "Renamed.step"
        expected = loop_bad_call(np.zeros(2), obj, 3, 5)
        assert "Renamed.step()" in expected[1][0]
        assert f(np.zeros(2), obj, 3, 5)[1] == expected[1]
    finally:
        Scaled.step.__qualname__ = saved


def tripled(self, y):
    return y * 3.0


def test_a_method_whose_code_or_class_attribute_is_replaced_runs_the_new_one():
    class Local:
        def step(self, y):
            return y * 2.0

    def loop(y, obj, trips):
        i = 0
        while float(y[0]) < trips:
            if i == 3:
                Local.step.__code__ = tripled.__code__
            if i == 6:
                Local.step = lambda self, y: y * 0.5 + 4.0
            y = obj.step(y) + 1.0
            i += 1
        return y
    code = Local.step.__code__
    expected = loop(np.zeros(2), Local(), 200)
    Local.step = lambda self, y: y * 2.0
    Local.step.__code__ = code
    f = dynamo.compile(loop, backend="eager")
    same(f(np.zeros(2), Local(), 200), expected)


def _make_step():
    def step(self, y):
        return y * 1.0
    return step


def test_a_method_an_island_called_is_collected_once_its_class_drops_it():
    class Local:
        step = _make_step()
    f = dynamo.compile(loop_method, backend="eager")
    obj = Local()
    same(f(np.zeros(4), obj, 20), loop_method(np.zeros(4), obj, 20))
    # a new function the island alone calls (the trace saw the first one): decided,
    # kept in the memo, called through the cache's wrapper of bound methods
    Local.step = _make_step()
    ref = weakref.ref(Local.step)
    same(f(np.zeros(4), obj, 20), loop_method(np.zeros(4), obj, 20))
    assert calls_of(f, {"wrap", "___make"}, np.zeros(4), obj, 20) == 0
    del Local.step           # the class held the function: nothing else does
    assert ref() is None     # (at once, as in plain Python: no cycle keeps it)
    Local.step = _make_step()
    same(f(np.zeros(4), obj, 20), loop_method(np.zeros(4), obj, 20))
    ref = weakref.ref(Local)
    del obj, Local
    gc.collect()
    assert ref() is None


def helper(y, k=2.0):
    return y * k


def loop_helper(y, trips):
    while float(y[0]) < trips:
        y = helper(y) * 0.5 + helper(y, 0.5) + 1.0
    return y


def test_a_function_called_every_trip_gets_no_wrapper_made_per_call(monkeypatch):
    monkeypatch.setattr(dynamo.config, "callee_trial_calls", 0)   # (compiled calls)
    f = dynamo.compile(loop_helper, backend="eager")
    same(f(np.zeros(4), 30), loop_helper(np.zeros(4), 30))
    assert calls_of(f, {"wrap", "___make"}, np.zeros(4), 30) <= 2
    assert calls_of(f, {"___dispatch"}, np.zeros(4), 30) >= 10   # (8 trips, 2 calls each)


def takes_kw(y, k=1.0, **kw):
    return y * k + kw.get("b", 0.0)


def loop_plain_bad_call(y, n, trips):
    out = []
    while float(y[0]) < trips:
        y = helper(y) * 0.5 + takes_kw(y, b=1.0) * 0.0 + 1.0
        try:
            if n == 0:
                helper(y, 1.0, 2.0)            # one positional too many
            elif n == 1:
                helper()                       # y missing
            elif n == 2:
                helper(y, z=1.0)               # no such keyword
            elif n == 3:
                helper(y, y=y)                 # y twice
            else:
                takes_kw(y, 1.0, 2.0, b=1.0)   # too many, with **kw
        except TypeError as e:
            out.append((str(e), e.__traceback__.tb_next is None))
    return y, out


@pytest.mark.parametrize("n", range(5))
def test_a_call_that_does_not_bind_raises_the_functions_own_type_error(n):
    f = dynamo.compile(loop_plain_bad_call, backend="eager")
    expected = loop_plain_bad_call(np.zeros(2), n, 5)
    got = f(np.zeros(2), n, 5)
    same(got[0], expected[0])
    # the same message, raised by the call itself (no frame below the caller's)
    assert got[1] == expected[1] and len(set(got[1])) == 1


def test_a_function_the_island_calls_is_collected_once_its_name_is_rebound():
    global helper
    f = dynamo.compile(loop_helper, backend="eager")
    same(f(np.zeros(4), 20), loop_helper(np.zeros(4), 20))
    saved = helper

    def local(y, k=2.0):
        return y * k
    helper = local
    try:
        ref = weakref.ref(local)
        same(f(np.zeros(4), 20), loop_helper(np.zeros(4), 20))
        del local
        helper = saved   # the global held it: nothing else does
        assert ref() is None
    finally:
        helper = saved


def test_a_renamed_function_is_named_so_in_its_errors():
    f = dynamo.compile(loop_plain_bad_call, backend="eager")
    f(np.zeros(2), 0, 5)
    try:
        helper.__qualname__ = "renamed"
        expected = loop_plain_bad_call(np.zeros(2), 0, 5)
        assert "renamed()" in expected[1][0][0]
        assert f(np.zeros(2), 0, 5)[1] == expected[1]
    finally:
        helper.__qualname__ = "helper"


def _plain_inner(y):
    return y


def _reading_inner(y):
    import sys
    sys._getframe(2)
    return y


inner = _plain_inner


def _calls_inner(y):
    return inner(y) * 2.0


def test_names_unchanged_holds_until_a_called_name_is_rebound():
    from dynamo.bytecode.caller_frames import names_unchanged, reads_caller_frame_of
    global inner
    assert not names_unchanged(_calls_inner) or reads_caller_frame_of(_calls_inner) is None
    assert reads_caller_frame_of(_calls_inner) is None and names_unchanged(_calls_inner)
    inner = _reading_inner
    try:
        assert not names_unchanged(_calls_inner)   # (a reader now: asked again)
        assert reads_caller_frame_of(_calls_inner) is not None
        assert not names_unchanged(_calls_inner)   # (a reader: never "unchanged")
    finally:
        inner = _plain_inner
    assert reads_caller_frame_of(_calls_inner) is None and names_unchanged(_calls_inner)
