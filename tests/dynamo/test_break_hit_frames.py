"""The Python frames a cached call of a function that breaks runs
(``break_entry.FrameRunner.dispatch_lines``; issue #16's cost per hit, #17's
``compiled-recursion-depth``).

A breaking hit runs the function's own frame (the frame entry's prologue), the
dispatcher, with the frame runner's code and ``resume.run_break_code``'s loop pasted
into it, and the frame's new code: no frame of ``FrameRunner.__call__`` nor of
``run_break_code`` (a resume function's hit, through ``boxed_dispatcher``, neither).
So a recursion through the compiled function holds fewer frames of dynamo's at its
bottom. Counted with ``sys.setprofile`` and by the depth of the stack, compiled
against plain; never timed."""

import contextlib
import io
import sys

import numpy as np
import pytest
from harness import same

import dynamo
from dynamo.break_entry import BoxedFrameRunner, FrameRunner
from dynamo.bytecode.resume import run_break_code

BACKENDS = ("eager", "numpy")
X = np.arange(4.0)


def python_frames(fn, *args) -> tuple:
    """``fn(*args)``'s result and the code objects of the Python frames it started."""
    codes = []

    def profile(frame, event, arg):
        if event == "call":
            codes.append(frame.f_code)
    old = sys.getprofile()
    with contextlib.redirect_stdout(io.StringIO()):
        sys.setprofile(profile)
        try:
            result = fn(*args)
        finally:
            sys.setprofile(old)
    return result, codes


def stack_depth() -> int:
    f, n = sys._getframe(1), 0
    while f is not None:
        f, n = f.f_back, n + 1
    return n


def breaks(x, y):
    z = x + y
    print("between")        # a graph break
    return z * 2.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_breaking_hit_runs_no_frame_of_the_runner(backend):
    compiled = dynamo.compile(breaks, backend=backend)
    for _ in range(2):
        with contextlib.redirect_stdout(io.StringIO()):
            compiled(X, X)
    cache = compiled._ctx.caches[breaks.__code__]
    assert len(cache.entries) == 1
    result, codes = python_frames(compiled, X, X)
    same(result, breaks(X, X))
    runners = {FrameRunner.__call__.__code__, BoxedFrameRunner.__call__.__code__,
               run_break_code.__code__}
    assert not runners & set(codes), [c.co_name for c in codes]
    # the function's own frame, the dispatcher, the code at the break (then the
    # graphs and the resume function after it, which this test does not pin)
    assert codes[0] is compiled.__call__.__code__ and codes[0].co_name == "breaks"
    assert codes[1] is cache.dispatch.__code__
    assert codes[2].co_name == "breaks" and codes[2] is not breaks.__code__


depths = []


def walk(x, d):
    if d == 0:
        depths.append(stack_depth())
        return x
    print(end="")           # a graph break: the call below runs in the code after it
    return walk(x + 1, d - 1)


walk_plain = walk


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_recursion_holds_five_frames_of_dynamos_at_its_bottom(backend):
    compiled = dynamo.compile(walk_plain, backend=backend)
    globals()["walk"] = compiled
    try:
        for _ in range(2):   # (an entry per depth: ``d == 0`` guards d's value)
            compiled(X, 6)
            compiled(X, 40)
        result, codes = python_frames(compiled, X, 6)
        del depths[:]
        compiled(X, 40)
        compiled_depth = depths.pop()
    finally:
        globals()["walk"] = walk_plain
    same(result, walk_plain(X, 6))
    runners = {FrameRunner.__call__.__code__, BoxedFrameRunner.__call__.__code__,
               run_break_code.__code__}
    assert not runners & set(codes)
    # each nested level is one frame of walk's code (the frame entry's), as plainly
    assert [c for c in codes if c.co_name == "walk"].count(compiled.__call__.__code__) == 7
    # at the bottom of 40 levels, the frames besides plain Python's are the outermost
    # level's: its dispatcher, the Resume that runs the resume function after the
    # print (Resume.run, hook.run_boxed), the resume function's dispatcher and the
    # resume function (9 before: each runner's __call__ and run_break_code too)
    walk_plain(X, 40)
    assert compiled_depth - depths.pop() == 5
