"""Calls made by code that runs uncompiled (an island: a loop too long to unroll with a
break in it) go through the frame hook only when the callee may be user Python code:
builtins and C functions are called as the program wrote them (#14: uncompiled code
runs at Python speed), and user functions are still compiled."""

import sys

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo import listeners


def intercept_calls(fn, *args) -> int:
    """How many times the island's ``intercept`` hook ran during ``fn(*args)``."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call" and frame.f_code.co_name == "intercept":
            count += 1
    sys.setprofile(profile)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return count


def builtins_only(a):
    t = 0
    for i in range(len(a)):
        t += abs(i - 3) + min(i, 7) + len(a)
        if a[i] > 0.5:          # data-dependent: the loop runs as an island
            t += 1
    return t


def double(v):
    return v * 2


def calls_user_code(a):
    t = 0.0
    for i in range(a.shape[0]):
        if a[i] > 0.5:
            t += double(a[i]).item()
    return t


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_builtins_called_in_an_island_skip_the_hook(backend):
    a = np.random.default_rng(0).random(300)
    compiled = dynamo.compile(builtins_only, backend=backend)
    assert compiled(a) == builtins_only(a)
    assert intercept_calls(compiled, a) == 0


class Compiles:
    def __init__(self):
        self.codes = []

    def on_frame_start(self, fn, ctx):
        self.codes.append(fn.__code__)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_user_functions_called_in_an_island_are_still_compiled(backend):
    a = np.random.default_rng(1).random(300)
    seen = Compiles()
    listeners.add(seen)
    try:
        compiled = dynamo.compile(calls_user_code, backend=backend)
        assert compiled(a) == calls_user_code(a)
    finally:
        listeners.remove(seen)
    assert double.__code__ in seen.codes
    assert intercept_calls(compiled, a) > 0


def test_a_builtin_rebound_to_python_code_later_still_runs():
    # the island was built while ``abs`` was the builtin: a Python function bound to
    # the name later runs (uncompiled), as plain Python would run it
    a = np.random.default_rng(2).random(300)
    compiled = dynamo.compile(builtins_only, backend="eager")
    compiled(a)
    globals()["abs"] = lambda v: -v
    try:
        assert compiled(a) == builtins_only(a)
    finally:
        del globals()["abs"]
    check(builtins_only, a)
