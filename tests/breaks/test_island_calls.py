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
from dynamo.break_calls import _BREAK_ORIGIN


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


def draws_and_appends(rng, n):
    """A Generator's and a list's methods in an island (a branch on a draw per trip)."""
    t = 0.0
    times = []
    for _ in range(n):
        t += rng.exponential(0.5)
        if rng.random() < 0.3:
            times.append(t)
    return times, t


class Counter:
    def __init__(self):
        self.hits = 0

    def hit(self, v):
        self.hits += 1
        return v * 2


def calls_a_user_method(rng, n, counter):
    s = 0.0
    for _ in range(n):
        if rng.random() < 0.5:
            s += counter.hit(1.0)
    return s


def rebinds_the_local(rng, n):
    out = []
    for k in range(n):
        if rng.random() < 0.5:
            out.append(k)
        if k == n // 2:
            out = Log()            # the island stores `out`: its type is not fixed
    return out.items if isinstance(out, Log) else out


class Log:
    def __init__(self):
        self.items = []

    def append(self, v):
        self.items.append(v)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_methods_of_c_types_in_an_island_skip_the_hook(backend):
    # rng.exponential, rng.random (Cython methods of an extension type) and
    # times.append (a list's) are C code whatever the island does: they are called as
    # written, with no call of the hook per trip (#15: it made a Gillespie loop 5x
    # slower than plain Python)
    compiled = dynamo.compile(draws_and_appends, backend=backend)
    rng, eager_rng = np.random.default_rng(3), np.random.default_rng(3)
    assert compiled(rng, 400) == draws_and_appends(eager_rng, 400)
    assert rng.bit_generator.state == eager_rng.bit_generator.state
    check(draws_and_appends, np.random.default_rng(3), 400, backend=backend)
    assert intercept_calls(compiled, np.random.default_rng(3), 400) == 0


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_user_methods_and_rebound_locals_in_an_island_still_use_the_hook(backend):
    seen = Compiles()
    listeners.add(seen)
    try:
        check(calls_a_user_method, np.random.default_rng(4), 300, Counter(),
              backend=backend)
    finally:
        listeners.remove(seen)
    assert Counter.hit.__code__ in seen.codes
    compiled = dynamo.compile(calls_a_user_method, backend=backend)
    compiled(np.random.default_rng(4), 300, Counter())
    assert intercept_calls(compiled, np.random.default_rng(4), 300, Counter()) > 0
    # `out` is a list at the break but the island rebinds it to a Log: its `append`
    # is looked up through the hook on every trip, never assumed to be list.append
    check(rebinds_the_local, np.random.default_rng(5), 300, backend=backend)
    compiled = dynamo.compile(rebinds_the_local, backend=backend)
    compiled(np.random.default_rng(5), 300)
    assert intercept_calls(compiled, np.random.default_rng(5), 300) > 0


def count_above(x, thr):
    c = 0
    kept = []
    for v in x:
        if v > thr:                 # a break on every trip: the whole loop is an island
            c += 1
            kept.append(v)          # (a Python effect: ``total += v`` from ``total =
    return c, kept                  # 0.0`` is one graph since issue #19's t6)


def calls_made(fn, *args) -> dict:
    """How many times the frame's break code (its new code: the dispatcher runs it,
    ``FrameRunner.dispatch_lines``), the island's ``intercept`` hook and the hook's
    ``original`` (the entry that runs the frame's own code) ran in ``fn(*args)``."""
    names = {"intercept", "original"}
    seen = dict.fromkeys([*names, "break_code"], 0)

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_name in names:
            seen[frame.f_code.co_name] += 1
        elif event == "call" and frame.f_code in _BREAK_ORIGIN:
            seen["break_code"] += 1
    sys.setprofile(profile)
    try:
        fn(*args)
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_an_island_with_nothing_compiled_runs_the_original_code(backend):
    # no graph before the loop, no write to replay, no callee to compile: the entry
    # runs the function's own code (no break code, glue or resume machinery per call)
    x = np.random.default_rng(6).standard_normal(50)
    check(count_above, x, 0.25, backend=backend, graphs=0, breaks=1)
    compiled = dynamo.compile(count_above, backend=backend)
    assert compiled(x, 0.25) == count_above(x, 0.25)
    seen = calls_made(compiled, x, 0.25)
    assert seen == {"break_code": 0, "intercept": 0, "original": 1}, seen
    # the same loop after array code, or calling a user function, keeps its break code
    compiled = dynamo.compile(calls_user_code, backend=backend)
    a = np.random.default_rng(1).random(300)
    compiled(a)
    assert calls_made(compiled, a)["break_code"] == 1


def rotations(S, sweeps):
    """Cyclic Jacobi rotations (a break per pair): ``np.eye`` is NumPy's Python code."""
    A = S.copy()
    n = A.shape[0]
    for _ in range(sweeps):
        for p in range(n - 1):
            for q in range(p + 1, n):
                if abs(A[p, q]) < 1e-14:
                    continue
                theta = 0.5 * np.arctan2(2 * A[p, q], A[q, q] - A[p, p])
                J = np.eye(n)
                J[p, p] = J[q, q] = np.cos(theta)
                J[p, q] = np.sin(theta)
                J[q, p] = -J[p, q]
                A = J.T @ A @ J
    return np.sort(np.diag(A))


def draws_by_stdlib_method(x, rnd):
    """``rnd.uniform``: the standard library's Python method, bound to a user object."""
    t = 0.0
    for v in x:
        if v > 0.5:
            t += rnd.uniform(0.0, v)
    return t


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_library_python_functions_in_an_island_skip_the_hook(backend):
    # np.eye is a Python function of NumPy's, which the hook runs as called: the island
    # calls it as written, with no call of the hook per trip (#15: 2 us a call, a Jacobi
    # eigenvalue loop 0.81x plain NumPy, a Kalman filter 0.87x)
    m = np.random.default_rng(7).standard_normal((6, 6))
    S = m + m.T
    check(rotations, S, 2, backend=backend, graphs=1, breaks=1)
    compiled = dynamo.compile(rotations, backend=backend)
    np.testing.assert_array_equal(compiled(S, 2), rotations(S, 2))
    assert intercept_calls(compiled, S, 2) == 0
    # a library method bound to an object is asked for at run time: it too runs as
    # called (and the draws are the same draws)
    import random
    x = np.random.default_rng(8).random(200)
    check(draws_by_stdlib_method, x, random.Random(9), backend=backend)
    compiled = dynamo.compile(draws_by_stdlib_method, backend=backend)
    assert compiled(x, random.Random(9)) == draws_by_stdlib_method(x, random.Random(9))
