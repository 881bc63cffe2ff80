"""A compiled function's calls run compiled or as the plain function, whichever its
first calls timed faster (dynamo/entry_trial.py; issues #15 and #16: small stateful
programs ran 0.52-0.56x plain per call). The suite runs with the trial off
(tests/conftest.py); these tests turn it on."""

from __future__ import annotations

import doctest
import logging
import os
import sys
import threading
import traceback
import types

import numpy as np
import pytest

import dynamo
from dynamo import entry_trial, listeners
from dynamo.entry_trial import COMPILED, PLAIN, EntrySlots, EntryTrial


@pytest.fixture(autouse=True)
def _trial_on(monkeypatch):
    monkeypatch.setattr(dynamo.config, "entry_trial_calls", 2)
    # a trial of real calls ends after 2 timed calls each (not SPEND's ~1 ms: the tests
    # below count calls)
    monkeypatch.setattr(entry_trial, "SPEND", 0.0)


def clocked(costs: dict):
    """An injected clock and the two ways, each call of a way "taking" its cost (in
    seconds, read when it runs: a test may change it) and saying which way ran."""
    now = [0.0]

    def way(name):
        def run(x):
            now[0] += costs[name]
            return (name, x)
        return run
    return (lambda: now[0]), way(COMPILED), way(PLAIN)


def slots_of(costs: dict, calls: int = 2, spend: float = 0.0) -> EntrySlots:
    clock, compiled, plain = clocked(costs)
    return EntrySlots(None, compiled, plain, "f", calls, clock=clock, spend=spend)


def test_plain_wins_and_then_runs_every_call():
    slots = slots_of({COMPILED: 3e-6, PLAIN: 1e-6}, calls=3)
    got = [slots.current(i) for i in range(12)]
    # compiled untimed, two compiled timed (the probes), plain untimed, then plain
    # until it has as many as compiled, then alternating
    assert [w for w, _ in got[:8]] == [COMPILED, COMPILED, COMPILED, PLAIN, PLAIN,
                                       PLAIN, COMPILED, PLAIN]
    assert [x for _, x in got] == list(range(12))
    assert slots.trial.way == PLAIN
    assert {w for w, _ in got[8:]} == {PLAIN}
    assert not isinstance(slots.current, EntryTrial)   # the plain way owns the slot


def test_compiled_wins_and_owns_the_slot_itself():
    slots = slots_of({COMPILED: 1e-6, PLAIN: 2e-6})
    for i in range(6):
        slots.current(i)
    assert slots.trial.way == COMPILED and slots.current is slots.compiled


def test_a_tie_keeps_the_compiled_way():
    slots = slots_of({COMPILED: 2.0 ** -19, PLAIN: 2.0 ** -19})   # (exact in binary)
    for i in range(6):
        slots.current(i)
    assert slots.trial.way == COMPILED and slots.current is slots.compiled


def test_a_near_tie_keeps_the_compiled_way():
    # plain 7% faster: within MARGIN (10%), what interleaving the ways and a least
    # time's jitter can make of a tie; the compiled way stays
    slots = slots_of({COMPILED: 2.0e-6, PLAIN: 1.86e-6})
    for i in range(6):
        slots.current(i)
    assert slots.trial.way == COMPILED and slots.current is slots.compiled
    slots = slots_of({COMPILED: 2.0e-6, PLAIN: 1.7e-6})   # 15% faster: plain
    for i in range(6):
        slots.current(i)
    assert slots.trial.way == PLAIN


def test_close_ways_are_timed_until_the_trial_spent_its_time_or_most_calls():
    # 5 us and 4.6 us a call (close): a SPEND of 1 ms would take ~100 calls each, so
    # MOST each
    slots = slots_of({COMPILED: 5e-6, PLAIN: 4.6e-6}, spend=1e-3)
    while slots.trial.way is None:
        slots.current(0)
    assert slots.trial.timed == {COMPILED: entry_trial.MOST, PLAIN: entry_trial.MOST}
    assert slots.trial.way == COMPILED      # (8%: not under MARGIN)
    # 100 us and 90 us a call: the 1 ms is reached first (~6 calls each, past calls=2)
    slots = slots_of({COMPILED: 100e-6, PLAIN: 90e-6}, spend=1e-3)
    while slots.trial.way is None:
        slots.current(0)
    timed = slots.trial.timed.values()
    assert 2 < min(timed) < entry_trial.MOST
    assert sum(timed) * 95e-6 >= 1e-3
    # 5 us and 2 us (apart, not hopeless): 2 timed calls each decide
    slots = slots_of({COMPILED: 5e-6, PLAIN: 2e-6}, spend=1e-3)
    while slots.trial.way is None:
        slots.current(0)
    assert slots.trial.timed == {COMPILED: 2, PLAIN: 2} and slots.trial.way == PLAIN


def test_a_hopeless_way_ends_the_trial_early():
    slots = slots_of({COMPILED: 10e-6, PLAIN: 1e-6}, calls=5)
    for i in range(5):   # compiled untimed, the probes, plain untimed, plain timed
        slots.current(i)
    assert slots.trial.way == PLAIN
    assert slots.trial.best == pytest.approx({COMPILED: 10e-6, PLAIN: 1e-6})


def test_a_long_compiled_call_ends_the_trial_with_no_plain_call():
    slots = slots_of({COMPILED: 2 * entry_trial.LONG, PLAIN: 1e-6}, calls=5)
    got = [slots.current(i) for i in range(5)]
    assert {w for w, _ in got} == {COMPILED}
    assert slots.trial.way == COMPILED and slots.current is slots.compiled


class FakeContext:
    """A compile context of one code cache, whose ``entries`` a "compiling" call
    replaces (as a recompile does)."""

    def __init__(self):
        self.cache = types.SimpleNamespace(entries=(), skip_reason=None)
        self.caches = {"code": self.cache}

    def compile(self):
        listeners.emit("on_frame_start", None, self)   # (as convert_frame does)
        self.cache.entries = (object(), *self.cache.entries)


def test_a_compiled_call_that_compiles_is_not_counted_nor_long():
    now, ran, ctx = [0.0], [], FakeContext()

    def compiled(x):   # calls 1-3 compile (a recompile each: 1 ms), then 3 us
        ran.append(COMPILED)
        if len(ran) <= 3:
            ctx.compile()
        now[0] += 1e-3 if len(ran) <= 3 else 3e-6
        return x

    def plain(x):
        ran.append(PLAIN)
        now[0] += 1e-6
        return x
    slots = EntrySlots(None, compiled, plain, "f", 2, clock=lambda: now[0], ctx=ctx,
                       spend=0.0)
    for i in range(3):   # untimed, then two timed calls that compiled: not counted
        slots.current(i)
    assert ran == [COMPILED] * 3 and slots.trial.way is None
    for i in range(5):   # the probes (3 us), then plain (untimed, then timed twice)
        slots.current(i)
    assert ran[3:] == [COMPILED, COMPILED, PLAIN, PLAIN, PLAIN]
    assert slots.trial.way == PLAIN
    assert slots.trial.best == pytest.approx({COMPILED: 3e-6, PLAIN: 1e-6})


def test_a_way_that_compiles_on_every_call_is_timed_with_its_compiles():
    now, ctx = [0.0], FakeContext()

    def compiled(x):
        ctx.compile()
        now[0] += 1e-3
        return x
    slots = EntrySlots(None, compiled, lambda x: x, "f", 2, clock=lambda: now[0],
                       ctx=ctx)
    for i in range(8 + entry_trial.SETTLE):
        slots.current(i)
    assert slots.trial.way == PLAIN     # (1 ms a call compiled, 0 plain)


def test_a_long_compiled_way_settles_before_plain_is_timed():
    # its first calls run the trials inside it (a loop both ways): slower than it runs
    # once they chose; timed against plain then, plain (1 ms) would win over 2 ms
    now, calls = [0.0], [0]

    def compiled(x):
        calls[0] += 1
        now[0] += 2e-3 if calls[0] <= 6 else 0.5e-3
        return x

    def plain(x):
        now[0] += 1e-3
        return x
    slots = EntrySlots(None, compiled, plain, "f", 2, clock=lambda: now[0])
    for i in range(entry_trial.SETTLE + 8):
        slots.current(i)
    assert calls[0] >= entry_trial.SETTLE + 1   # no plain call before that many
    assert slots.trial.way == COMPILED and slots.current is slots.compiled


def test_a_real_recompile_is_not_taken_for_a_long_call():
    f, slots = compiled_fn(small)
    slots.clock = slots.trial.clock = lambda: 0.0   # every call "takes" nothing...
    f(np.ones(3), 1.0)
    seen = []
    record = slots.trial._record
    slots.trial._record = lambda way, spent, before: seen.append(
        entry_trial.changed(before, entry_trial.compiled_state(slots.ctx))
        if before is not None else None) or record(way, spent, before)
    f(np.ones((2, 2)), 1.0)      # a new rank: the probe recompiles
    f(np.ones((2, 2)), 1.0)
    assert seen[:2] == [True, False]


def test_docstring_examples():
    assert doctest.testmod(entry_trial).failed == 0


def test_the_plain_way_tries_again_when_its_calls_grow():
    costs = {COMPILED: 3e-6, PLAIN: 1e-6}
    slots = slots_of(costs)
    for i in range(6):
        slots.current(i)
    plain = slots.current
    assert slots.trial.way == PLAIN
    for i in range(entry_trial.SAMPLE - 1):   # untimed calls notice nothing
        plain(i)
    assert slots.current is plain
    costs[PLAIN] = 100e-6     # the inputs grew: the sampled call takes 100x
    assert plain(0) == (PLAIN, 0)
    assert isinstance(slots.current, EntryTrial) and slots.current is slots.trial
    for i in range(6):        # compiled is faster now
        slots.current(i)
    assert slots.trial.way == COMPILED and slots.current is slots.compiled


def test_the_plain_way_tries_again_after_recheck_calls(monkeypatch):
    monkeypatch.setattr(entry_trial, "RECHECK", 2 * entry_trial.SAMPLE)
    slots = slots_of({COMPILED: 3e-6, PLAIN: 1e-6})
    for i in range(6):
        slots.current(i)
    plain = slots.current
    for i in range(2 * entry_trial.SAMPLE - 1):
        plain(i)
    assert slots.current is plain
    plain(0)
    assert isinstance(slots.current, EntryTrial)


def compiled_fn(fn, backend="numpy", **kwargs):
    """``dynamo.compile(fn)`` and its slots (the trial's clock left real)."""
    f = dynamo.compile(fn, backend=backend, **kwargs)
    return f, entry_trial._ALL.get(f)


def small(x, y):
    return x * 2.0 + y


def test_a_compiled_function_gives_eager_results_whichever_way_runs():
    f, slots = compiled_fn(small)
    x = np.arange(3.0)
    for i in range(20):
        np.testing.assert_array_equal(f(x, float(i)), small(x, float(i)))
    assert slots.trial.way in (COMPILED, PLAIN)
    assert f._call is (slots.compiled if slots.trial.way == COMPILED else slots.current)


def test_the_backend_log_says_which_way_won(caplog):
    f, slots = compiled_fn(small)
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        for i in range(10):
            f(np.ones(3), 1.0)
    said = [r.getMessage() for r in caplog.records if "its calls run" in r.getMessage()]
    assert len(said) == 1
    way = "compiled" if slots.trial.way == COMPILED else "plain"
    assert said[0].startswith(f"small: its calls run {way} (")
    assert " us a call compiled, " in said[0] and " us plain;" in said[0]


def test_a_way_forced_by_clock_runs_the_real_function_plain_and_compiled():
    costs = {COMPILED: 3e-6, PLAIN: 1e-6}
    now = [0.0]
    f, slots = compiled_fn(small)
    slots.clock = slots.trial.clock = lambda: now[0]
    runs = []

    def timed(way, run):
        def call(*args):
            runs.append(way)
            now[0] += costs[way]
            return run(*args)
        return call
    slots.compiled = timed(COMPILED, slots.compiled)
    slots.fn = timed(PLAIN, slots.fn)
    x = np.arange(4.0)
    for i in range(8):
        np.testing.assert_array_equal(f(x, 1.0), small(x, 1.0))
    assert slots.trial.way == PLAIN and runs[:6] == [COMPILED, COMPILED, COMPILED,
                                                     PLAIN, PLAIN, PLAIN]
    assert f._call.__wrapped__ is slots.fn   # the plain way, calling the function


class Scale:
    def __init__(self):
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return x * 2.0


def test_a_compiled_callable_object_gets_the_trial_and_its_way():
    obj = Scale()
    m = dynamo.compile(obj, backend="numpy")
    slots = m.__call__.__func__.slots   # (the trial of its compiled __call__)
    assert slots.fn is Scale.__call__
    now = [0.0]
    slots.clock = slots.trial.clock = lambda: now[0]
    compiled, plain = slots.compiled, slots.fn
    slots.compiled = lambda *a: now.__setitem__(0, now[0] + 3e-6) or compiled(*a)
    slots.fn = lambda *a: now.__setitem__(0, now[0] + 1e-6) or plain(*a)
    x = np.arange(3.0)
    for _ in range(8):
        np.testing.assert_array_equal(m(x), x * 2.0)
    assert obj.calls == 8 and slots.trial.way == PLAIN
    assert m.__call__.__func__ is slots.current and m.__call__.__self__ is obj
    dynamo.reset()                      # a new trial, in the object's call too
    assert isinstance(m.__call__.__func__, EntryTrial)


def test_no_trial_where_it_cannot_matter():
    def gen(x):
        yield x
    assert compiled_fn(small, backend="eager")[1] is None
    assert compiled_fn(small, fullgraph=True)[1] is None
    assert compiled_fn(gen)[1] is None
    assert compiled_fn(small, backend="numpy")[1] is not None
    dynamo.config.entry_trial_calls = 0
    f, slots = compiled_fn(small)
    assert slots is None and not isinstance(f._call, EntryTrial)


def test_auto_has_a_trial_that_waits_only_where_it_runs_native_tiers(monkeypatch):
    from dynamo.backends.auto import numba_importable
    # (the wait: tests/dynamo/test_entry_wait.py)
    assert compiled_fn(small, backend="auto")[1].waits == numba_importable()
    monkeypatch.setitem(sys.modules, "numba", None)   # blocked: auto runs numpy
    assert not numba_importable()
    assert not compiled_fn(small, backend="auto")[1].waits


class DeviceArray(np.ndarray):
    """Stands for a CuPy array: what the trial looks at is its type's module."""


DeviceArray.__module__ = "cupy._core.core"


def test_a_device_array_argument_ends_the_trial_compiled():
    f, slots = compiled_fn(small)
    x = np.ones(3).view(DeviceArray)
    f(x, 1.0)
    assert slots.trial.way == COMPILED and f._call is slots.compiled


def raises(x):
    return x[10]


def _dynamos(tb) -> list[str]:
    dyn = os.path.dirname(dynamo.__file__)
    return [f.filename for f in traceback.extract_tb(tb)
            if f.filename.startswith(("<dynamo", dyn))]


def test_an_exception_leaves_as_from_plain_python_during_and_after_the_trial():
    f, slots = compiled_fn(raises)
    for _ in range(8):
        with pytest.raises(IndexError) as info:
            f(np.ones(3))
        assert _dynamos(info.value.__traceback__) == []
        assert traceback.extract_tb(info.value.__traceback__)[-1].name == "raises"
    assert slots.trial.way is not None   # raising calls are timed too: it ended


def with_default(x, y=1.0):
    return x * 2.0 + y


@pytest.mark.parametrize("fn", [small, with_default])
def test_a_wrong_call_raises_the_functions_own_type_error_on_the_plain_way(fn):
    f, slots = compiled_fn(fn)
    way = slots.plain_way(1.0)   # positional parameters by name; *args, **kwargs
    for bad in [(), (1.0, 2.0, 3.0)]:
        with pytest.raises(TypeError) as got:
            way(*bad)
        with pytest.raises(TypeError) as plain:
            fn(*bad)
        assert str(got.value) == str(plain.value)
        assert _dynamos(got.value.__traceback__) == []


@pytest.mark.parametrize("fn", [small, with_default])
def test_the_plain_way_calls_the_function_and_samples_one_call_in_64(fn):
    f, slots = compiled_fn(fn)
    way = slots.plain_way(1.0)
    slots.install(slots.current, way)
    sampler = way.__sampler__
    x = np.arange(3.0)
    for i in range(2 * entry_trial.SAMPLE):
        np.testing.assert_array_equal(way(x, float(i)), fn(x, float(i)))
    assert sampler.left == entry_trial.RECHECK // entry_trial.SAMPLE - 2


def _depth():
    frame, n = sys._getframe(), 0
    while frame is not None:
        n, frame = n + 1, frame.f_back
    return n


def test_a_function_that_calls_itself_runs_compiled():
    """The plain way would spend two frames a level (a wrapper's and the function's)
    where plain Python spends one: a recursion found by the trial ends it, compiled;
    one found later by a sampled call of the plain way starts a trial again."""
    def rec(k):
        if k == 0:
            return _depth()
        return step[0](k - 1)
    step = [rec]
    dynamo.config.entry_trial_calls = 0
    step[0] = h = dynamo.compile(rec, backend="numpy")   # no trial: as before
    h(6)
    before = h(6)
    dynamo.config.entry_trial_calls = 2
    f, slots = compiled_fn(rec)
    step[0] = f
    f(6)
    assert slots.trial.way == COMPILED and f._call is slots.compiled
    assert f(6) == before   # the frame entry, as with no trial

    g, slots = compiled_fn(rec)
    slots.install(slots.current, slots.plain_way(1.0))   # plain won on small calls
    step[0] = g
    assert g(0) == rec(0) + 1      # (the plain way's frame)
    for _ in range(entry_trial.SAMPLE - 2):
        g(0)
    first = slots.trial
    g(70)                          # a sampled call finds the plain way on the stack:
    assert slots.trial is not first and slots.trial.way == COMPILED   # a new trial


def test_threads_calling_during_the_trial_get_eager_results_and_one_decision():
    f, slots = compiled_fn(small)
    x = np.arange(5.0)
    errors = []

    def worker(k):
        try:
            for i in range(40):
                np.testing.assert_array_equal(f(x, float(k + i)), small(x, float(k + i)))
        except BaseException as e:   # noqa: BLE001 (reported below)
            errors.append(e)
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert slots.trial.way is not None and not isinstance(f._call, EntryTrial)


def test_a_compiled_function_calling_itself():
    def fact(n, x):
        if n <= 1:
            return x
        return fact_c(n - 1, x) * n
    fact_c = dynamo.compile(fact, backend="numpy")
    x = np.ones(2)
    for _ in range(10):
        np.testing.assert_array_equal(fact_c(5, x), x * 120)
    assert entry_trial._ALL[fact_c].trial.way is not None


def test_reset_starts_a_new_trial_and_bound_methods_follow_the_way():
    class Layer:
        def __init__(self):
            self.X = []

        def forward(self, x):
            self.X.append(x)
            return np.tanh(x)
    layer = Layer()
    m = dynamo.compile(layer.forward, backend="numpy")
    f = m.__func__
    slots = entry_trial._ALL[f]
    for _ in range(10):
        np.testing.assert_array_equal(m(np.ones(4)), np.tanh(np.ones(4)))
    assert len(layer.X) == 10 and slots.trial.way is not None
    assert m.__call__.__func__ is f._call      # the bound method got the winner
    dynamo.reset()
    assert isinstance(f._call, EntryTrial) and m.__call__.__func__ is f._call
    for _ in range(10):
        m(np.ones(4))
    assert len(layer.X) == 20 and not isinstance(f._call, EntryTrial)


def counted(x):
    """A call counter kept on the function itself, under names the trial also uses."""
    counted.calls = counted.calls + 1
    counted.best = max(counted.best, float(x.sum()))
    return x * 0.99 ** counted.calls


def test_function_attributes_named_as_the_trials_own_do_not_stop_it():
    # stateful corpus 15's ``function_attribute_counter``: the trial copied the
    # function's ``__dict__`` over its own, so ``calls = 0`` ended it with no plain
    # call timed (a TypeError formatting the missing time)
    counted.calls, counted.best = 0, float("-inf")
    f, slots = compiled_fn(counted)
    for i in range(1, 13):
        np.testing.assert_allclose(f(np.ones(3)), np.ones(3) * 0.99 ** i)
    assert counted.calls == 12 and slots.trial.way is not None
    assert slots.trial.best[COMPILED] is not None and slots.trial.best[PLAIN] is not None


def test_a_frame_reader_found_later_keeps_its_uncompiled_call():
    f, slots = compiled_fn(small)
    f(np.ones(2), 1.0)           # the trial runs...
    f.frame_reader_found("a test")
    slots.install(slots.trial, slots.compiled)   # ... and ends (a call in flight)
    assert f._call is small      # the trial did not put a way over it
    for i in range(8):
        f(np.ones(2), 1.0)
    assert f._call is small


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
