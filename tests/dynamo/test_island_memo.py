"""An island (a loop that runs as Python) decides once per function whether its calls
go through the frame hook (``dynamo/island_memo.py``), and decides again where what
that rests on changed: ``__code__`` replaced, defaults replaced, a name it calls
rebound to a reader of frames; nothing kept alive (issue #16)."""

import gc
import sys
import weakref

import numpy as np
from harness import same
from test_island_call_cost import calls_of  # (threads: test_island_call_cost.py)

import dynamo
from dynamo import hook
from dynamo.break_calls import island_intercept
from dynamo.island_memo import IslandMemo


def helper(y):
    return y * 2.0


def loop_helper(y, trips):
    while float(y[0]) < trips:   # reads array data: the loop runs as Python
        y = helper(y) * 0.5 + 1.0
    return y


def test_an_island_decides_a_helper_once_not_every_trip(monkeypatch):
    # (the compiled calls: no trial picks the plain one, ``callee_trial``)
    monkeypatch.setattr(dynamo.config, "callee_trial_calls", 0)
    f = dynamo.compile(loop_helper, backend="eager")
    same(f(np.zeros(4), 30), loop_helper(np.zeros(4), 30))
    decided = {"is_skipped", "reads_caller_frame_of", "cache_for", "wrapper_maker"}
    # 30 trips: each of these ran every trip before (120 calls); now only where the
    # call enters the loop, not per trip
    assert calls_of(f, decided, np.zeros(4), 30) <= 2
    assert calls_of(f, {"___dispatch"}, np.zeros(4), 30) >= 30   # still compiled


def tripled(y):
    return y * 3.0


def test_code_replaced_within_the_loop_runs_the_new_code():
    def local_helper(y):
        return y * 2.0

    def loop(y, trips):
        i = 0
        while float(y[0]) < trips:
            if i == 3:
                local_helper.__code__ = tripled.__code__
            y = local_helper(y) + 1.0
            i += 1
        return y
    expected = loop(np.zeros(2), 200)
    local_helper.__code__ = (lambda y: y * 2.0).__code__
    f = dynamo.compile(loop, backend="eager")
    same(f(np.zeros(2), 200), expected)


def test_defaults_replaced_between_calls_are_read():
    def scaled(y, k=2.0):
        return y * k

    def loop(y):
        while float(y[0]) < 50:
            y = scaled(y) + 1.0
        return y
    f = dynamo.compile(loop, backend="eager")
    same(f(np.zeros(2)), loop(np.zeros(2)))
    scaled.__defaults__ = (3.0,)
    same(f(np.zeros(2)), loop(np.zeros(2)))
    scaled.__defaults__ = None
    scaled.__code__ = (lambda y, k=1.5: y * k).__code__
    scaled.__defaults__ = (1.5,)
    same(f(np.zeros(2)), loop(np.zeros(2)))


def plain_inner(y):
    return y


def reading_inner(y):
    seen.append(sys._getframe(2).f_code.co_name)
    return y


seen: list = []
inner = plain_inner


def calls_inner(y):
    return inner(y) * 2.0


def loop_inner(y):
    while float(y[0]) < 10:
        y = calls_inner(y) + 1.0
    return y


def test_a_name_rebound_to_a_frame_reader_makes_the_caller_run_as_called():
    global inner
    f = dynamo.compile(loop_inner, backend="eager")
    same(f(np.zeros(2)), loop_inner(np.zeros(2)))
    inner = reading_inner
    try:
        seen.clear()
        expected = loop_inner(np.zeros(2))
        plain_seen = list(seen)
        seen.clear()
        same(f(np.zeros(2)), expected)
        # two frames up from reading_inner is the loop's frame, as in plain Python
        assert seen == plain_seen == ["loop_inner"] * len(plain_seen)
    finally:
        inner = plain_inner


def test_functions_made_every_trip_are_collected():
    refs = []

    def make(k):
        return lambda y: y * k

    def loop(y):
        while float(y[0]) < 20:
            h = make(2.0)
            refs.append(weakref.ref(h))
            y = h(y) + 1.0
        return y
    f = dynamo.compile(loop, backend="eager")
    same(f(np.zeros(2)), loop(np.zeros(2)))
    gc.collect()
    assert refs and all(r() is None for r in refs)


def test_the_memo_drops_a_dead_function_and_rejects_a_changed_one():
    ctx = dynamo.compile(loop_helper, backend="eager")   # (any compiled function: its context)
    ctx(np.zeros(4), 3)
    live = next(c for c in hook._contexts if c.caches.get(loop_helper.__code__))
    intercept = island_intercept(live, loop_helper.__code__)

    def local(y, k=2.0):
        return y * k
    intercept(local)   # decided and kept
    hooked = next(c.cell_contents for c in intercept.__closure__
                  if getattr(c.cell_contents, "__name__", None) == "hooked")
    memo = next(c.cell_contents for c in hooked.__closure__
                if isinstance(c.cell_contents, IslandMemo))
    make = memo.maker(local)
    assert make is not None and hook.wrap(make, local)(np.ones(2)).tolist() == [2.0, 2.0]
    local.__defaults__ = (1.0, 2.0)   # another count: another factory
    assert memo.maker(local) is None
    local.__defaults__ = (3.0,)
    assert memo.maker(local) is make
    code = local.__code__
    local.__code__ = tripled.__code__.replace(co_argcount=2, co_varnames=("y", "k"),
                                              co_nlocals=2)
    assert memo.maker(local) is None
    local.__code__ = code
    ref = weakref.ref(local)
    del local
    gc.collect()
    assert ref() is None and not memo._data
