"""The calls of code that runs as Python (an island: a ``while`` whose test reads array
data) are decided without reading a frame (``break_calls.island_intercept``: whether
the callee is the frame's own function is read from its code, not from the stack),
and what that protects still holds: recursion, readers of the caller's frame,
``__code__`` replaced, a class's ``__call__`` reassigned, generators, threads, and
nothing kept alive (issues #15, #16)."""

import gc
import sys
import threading
import weakref

import numpy as np
from harness import same

import dynamo


def helper(y):
    return y * 2.0


def loop_helper(y, trips):
    i = 0
    while float(y[0]) < trips:   # reads array data: the loop runs as Python
        y = helper(y) * 0.5 + 1.0
        i += 1
    return y, i


class Stepper:
    def __init__(self, c):
        self.c = c

    def step(self, y):
        return y * self.c


def loop_method(y, stepper, trips):
    while float(y[0]) < trips:
        y = stepper.step(y) + 1.0
    return y


def calls_of(fn, names, *args):
    """How many times the functions named ``names`` (dynamo's and ``sys._getframe``)
    ran during ``fn(*args)``."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call" and frame.f_code.co_name in names or \
                event == "c_call" and getattr(arg, "__name__", None) in names:
            count += 1
    sys.setprofile(profile)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return count


def test_island_calls_of_a_compiled_helper_and_a_method_read_no_frame(monkeypatch):
    # (the compiled calls: no trial picks the plain one, ``callee_trial``)
    monkeypatch.setattr(dynamo.config, "callee_trial_calls", 0)
    y = np.zeros(4)
    f = dynamo.compile(loop_helper, backend="eager")
    g = dynamo.compile(loop_method, backend="eager")
    same(f(y, 20), loop_helper(y, 20))
    same(g(y, Stepper(1.0), 20), loop_method(y, Stepper(1.0), 20))
    # (the helper and the method still run through the hook: compiled)
    assert calls_of(f, {"___dispatch"}, y, 20) >= 20
    assert calls_of(g, {"___dispatch"}, y, Stepper(1.0), 20) >= 20
    walks = {"_calls_itself", "_getframe"}
    assert calls_of(f, walks, y, 20) == 0
    assert calls_of(g, walks, y, Stepper(1.0), 20) == 0


def countdown(y, n):
    while float(y[0]) < 1.0:   # an island, which calls countdown itself
        y = y + 1.0
        if n:
            y = countdown(y - 1.0, n - 1)
    return y


def test_a_function_its_own_island_calls_recurses_as_deep_as_plain_python():
    global countdown
    depth = sys.getrecursionlimit() // 4
    plain = countdown
    expected = plain(np.zeros(2), depth)
    countdown = dynamo.compile(plain, backend="eager")   # (as ``@dynamo.compile`` leaves the name)
    try:
        same(countdown(np.zeros(2), depth), expected)
    finally:
        countdown = plain


def where_called():
    return sys._getframe(1).f_code.co_name


class Reader:
    def where(self):
        return sys._getframe(1).f_code.co_name


def loop_readers(y, r):
    names = []
    while float(y[0]) < 3:
        names.append((where_called(), r.where()))
        y = y + 1.0
    return names


def test_readers_of_the_caller_frame_called_from_an_island_see_the_program_frame():
    f = dynamo.compile(loop_readers, backend="eager")
    assert f(np.zeros(2), Reader()) == loop_readers(np.zeros(2), Reader()) == \
        [("loop_readers", "loop_readers")] * 3


def tripled(y):
    return y * 3.0


def test_a_helper_whose_code_is_replaced_runs_its_new_code():
    def local_helper(y):
        return y * 2.0

    def loop(y, trips):
        while float(y[0]) < trips:
            y = local_helper(y) + 1.0
        return y
    f = dynamo.compile(loop, backend="eager")
    same(f(np.zeros(2), 30), loop(np.zeros(2), 30))
    local_helper.__code__ = tripled.__code__
    same(f(np.zeros(2), 30), loop(np.zeros(2), 30))


class Scale:
    def __call__(self, y):
        return y * 2.0


def loop_callable(y, s):
    while float(y[0]) < 30:
        y = s(y) + 1.0
    return y


def test_a_class_call_reassigned_between_calls_runs_the_new_call():
    f = dynamo.compile(loop_callable, backend="eager")
    same(f(np.zeros(2), Scale()), loop_callable(np.zeros(2), Scale()))
    old = Scale.__call__
    Scale.__call__ = lambda self, y: y * 4.0
    try:
        same(f(np.zeros(2), Scale()), loop_callable(np.zeros(2), Scale()))
    finally:
        Scale.__call__ = old


def halves(y):
    yield y * 0.5
    yield y * 0.25


def loop_generator(y):
    while float(y[0]) < 30:
        y = sum(halves(y)) + y + 1.0
    return y


def test_a_generator_called_from_an_island_yields_as_in_python():
    f = dynamo.compile(loop_generator, backend="eager")
    same(f(np.zeros(2)), loop_generator(np.zeros(2)))


def test_islands_calling_a_compiled_helper_in_several_threads_at_once():
    f = dynamo.compile(loop_helper, backend="eager")
    expected = loop_helper(np.zeros(4), 40)
    results = []

    def work():
        for _ in range(5):
            results.append(f(np.zeros(4), 40))
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 20
    for r in results:
        same(r, expected)


def test_a_helper_an_island_called_is_collected_once_dropped():
    def make():
        def local_helper(y):
            return y * 2.0

        def loop(y):
            while float(y[0]) < 30:
                y = local_helper(y) + 1.0
            return y
        return loop, local_helper
    loop, local_helper = make()
    f = dynamo.compile(loop, backend="eager")
    same(f(np.zeros(2)), loop(np.zeros(2)))
    refs = [weakref.ref(loop), weakref.ref(local_helper), weakref.ref(f)]
    del loop, local_helper, f
    gc.collect()
    assert [r() for r in refs] == [None, None, None]
