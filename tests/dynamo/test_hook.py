"""The frame hook: argument binding, the dispatcher, the cache limit, weak references,
``dynamo.reset()`` and threads."""

import gc
import itertools
import logging
import threading
import tracemalloc
import types
import weakref

import numpy as np
import pytest
from harness import same
from observe import calls_to

import dynamo
import dynamo.convert
from dynamo import hook, listeners
from dynamo.config import config

F4 = np.float32
_unique = itertools.count(1)


def arr(*shape, dtype=F4, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.fixture
def limit(monkeypatch):
    def set_limit(n):
        monkeypatch.setattr(config, "cache_size_limit", n)
    return set_limit


def counting_backend():
    """The eager backend, counting how often compiled graphs run."""
    from dynamo.backends.eager import eager
    runs = []

    def backend(graph, example_inputs):
        fn = eager(graph, example_inputs)

        def run(*args):
            runs.append(1)
            return fn(*args)
        return run
    return backend, runs


def cache_of(compiled, fn):
    return compiled._ctx.caches[fn.__code__]


# ---------------------------------------------------------------------------- binding

def signature(a, b=2.0, /, c=3.0, *args, d, e=5.0, **kwargs):
    return a * b + c + d * e + len(args) + len(kwargs)


def test_every_kind_of_parameter_binds_as_in_the_frame(traces):
    compiled = dynamo.compile(signature, backend="eager")
    x = arr(3)
    calls = [((x,), {"d": 1.0}), ((x, 1.0, 2.0, 7, 8), {"d": 1.0, "z": 1}),
             ((x,), {"c": 1.0, "d": 2.0, "e": 0.5})]
    for args, kwargs in calls:
        same(signature(*args, **kwargs), compiled(*args, **kwargs))
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'd'"):
        compiled(x)
    with pytest.raises(TypeError):
        compiled(a=x, d=1.0)   # a is positional-only


def params_named_like_builtins(type, len, Exception):  # noqa: A002
    return type * len + Exception


def test_parameters_named_like_builtins():
    compiled = dynamo.compile(params_named_like_builtins, backend="eager")
    for args in [(arr(2), 2.0, 1.0), (arr(2), 2.0, 1.0), (arr(3), 3.0, 0.5)]:
        same(params_named_like_builtins(*args), compiled(*args))


def test_equal_code_objects_do_not_share_a_cache():
    """Code objects compare by value: two exec of one source are equal, not the same."""
    src = "def g(x):\n    return x * 2\n"
    ns1, ns2 = {}, {}
    exec(src, ns1)
    exec(src, ns2)
    assert ns1["g"].__code__ == ns2["g"].__code__
    assert ns1["g"].__code__ is not ns2["g"].__code__
    c1 = dynamo.compile(ns1["g"], backend="eager")
    ctx = c1._ctx
    hook.intercept(ns2["g"], ctx)(arr(2))
    c1(arr(2))
    assert ctx.caches[ns1["g"].__code__] is not ctx.caches[ns2["g"].__code__]
    assert len(ctx.caches[ns1["g"].__code__].entries) == 1


def test_the_dispatcher_inlines_every_entry(traces):
    def f(x):
        return x + 1
    compiled = dynamo.compile(f, dynamic=False, backend="eager")   # one static entry per shape
    for n in (2, 3, 4):
        compiled(arr(n))
    src = cache_of(compiled, f).dispatch.__dynamo_source__
    assert src.count("___ok = (") == 3 and "___e2_expected" in src
    assert "return ___fallback(" in src
    for n in (2, 3, 4):      # every entry still hits
        same(f(arr(n)), compiled(arr(n)))
    assert len(traces) == 3


def test_exceptions_raised_by_the_program_pass_through():
    def f(x, n):
        return x.reshape(n, -1)
    compiled = dynamo.compile(f, backend="eager")
    with pytest.raises(ValueError) as eager_error:
        f(arr(6), 4)
    with pytest.raises(ValueError) as compiled_error:
        compiled(arr(6), 4)
    assert str(compiled_error.value) == str(eager_error.value)


# ---------------------------------------------------------------------------- the limit

def test_cache_limit_logs_once_runs_eagerly_and_keeps_serving_entries(limit, traces, caplog):
    limit(3)
    backend, runs = counting_backend()

    def f(x):
        return x * 2
    compiled = dynamo.compile(f, backend=backend, dynamic=False)
    for n in range(1, 7):
        same(f(arr(n)), compiled(arr(n)))
    assert len(traces) == 3
    assert len(cache_of(compiled, f).entries) == 3
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    text = warnings[0].getMessage()
    assert "reached config.cache_size_limit (3 entries)" in text
    assert "entry 0: x shape[0]: expected 3, got 4" in text
    assert "raise dynamo.config.cache_size_limit" in text
    runs.clear()
    for n in (1, 2, 3):                 # cached combinations: compiled code, no tracing
        same(f(arr(n)), compiled(arr(n)))
    assert len(runs) == 3 and len(traces) == 3
    for n in (7, 8):                    # new ones: the original code, no new warning
        same(f(arr(n)), compiled(arr(n)))
    assert len(runs) == 3 and len(traces) == 3
    assert len([r for r in caplog.records if r.levelno == logging.WARNING]) == 1
    limit(4)                            # raising the limit compiles again
    same(f(arr(9)), compiled(arr(9)))
    assert len(traces) == 4


def test_user_code_never_runs_under_the_compile_lock(limit):
    """Past the limit or after a skip the original code runs, and it may wait for other
    threads that compile: it must not hold the process-wide compile lock."""
    def f(x):
        return x * 2
    compiled = dynamo.compile(f, dynamic=False, backend="eager")
    limit(2)
    same(f(arr(2)), compiled(arr(2)))   # its dispatcher falls back to miss()...
    limit(1)
    with calls_to(hook._run_original, lambda frame: hook._compile_lock._is_owned()) as held:
        same(f(arr(3)), compiled(arr(3)))   # ...which finds the cache full
        same(f(arr(4)), compiled(arr(4)))
    assert held == [False, False]


def test_no_growth_over_100000_calls_beyond_the_limit(limit, traces):
    """Fresh shapes every call, past the limit: entries, tracked objects and memory stay
    flat. Zero-size arrays keep each call cheap."""
    limit(2)

    def f(x):
        return x * 2
    compiled = dynamo.compile(f, backend="eager")
    cache = None

    def calls(start, stop):
        for i in range(start, stop):
            x = np.empty((0, i), F4)
            y = compiled(x)
            assert y.shape == (0, i)

    calls(1, 2001)
    cache = cache_of(compiled, f)
    gc.collect()
    objects_before = len(gc.get_objects())
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    calls(2001, 100_001)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert len(cache.entries) == 2 and len(traces) == 2
    assert len(gc.get_objects()) - objects_before < 200
    assert grown < 256 * 1024, f"memory grew by {grown} bytes over 98,000 calls"


# ---------------------------------------------------------------------------- lifetimes

class Model:
    def __init__(self):
        self.w = arr(4, 4)

    def __call__(self, x):
        return np.tanh(x @ self.w)


def test_model_and_entries_die_with_the_compiled_model():
    model = Model()
    compiled = dynamo.compile(model, backend="eager")
    same(model(arr(4)), compiled(arr(4)))
    entry = compiled._ctx.caches[Model.__call__.__code__].entries[0]
    refs = [weakref.ref(o) for o in (model, model.w, compiled, entry, entry.run,
                                     entry.check.fn)]
    del model, compiled, entry
    gc.collect()
    assert [r() for r in refs] == [None] * len(refs)


def test_entries_die_with_the_compiled_function_while_the_model_lives():
    model = Model()
    compiled = dynamo.compile(model, backend="eager")
    compiled(arr(4))
    entry = compiled._ctx.caches[Model.__call__.__code__].entries[0]
    refs = [weakref.ref(entry), weakref.ref(compiled._ctx)]
    del compiled, entry
    gc.collect()
    assert [r() for r in refs] == [None, None] and model.w.shape == (4, 4)


class Decorated:
    def __init__(self):
        self.w = arr(3, 3)

    @dynamo.compile(backend="eager")
    def forward(self, x):
        return x @ self.w


def test_instances_are_not_kept_alive_by_a_compiled_method(traces):
    refs = []
    for seed in range(3):
        m = Decorated()
        x = arr(3, seed=seed)
        same(x @ m.w, m.forward(x))
        refs.append(weakref.ref(m))
    del m
    gc.collect()
    assert [r() for r in refs] == [None] * 3
    assert len(traces) == 1          # one entry serves every instance


def compile_dynamic_function():
    # a source of its own: equal code objects would share the translator's cache slot
    ns = {"np": np}
    exec(f"def made(x):\n    return np.exp(x) + {next(_unique)}\n", ns)
    compiled = dynamo.compile(ns["made"], backend="eager")
    same(ns["made"](arr(3)), compiled(arr(3)))
    cache = cache_of(compiled, ns["made"])
    return [weakref.ref(o) for o in (ns["made"], compiled, cache, cache.entries[0],
                                     cache.dispatch, ns["made"].__code__)]


def test_compiled_state_of_a_dynamic_function_dies_with_it():
    refs = compile_dynamic_function()[:-1]
    gc.collect()
    assert [r() for r in refs] == [None] * len(refs)


def test_code_object_of_a_dynamic_function_dies_with_it():
    code = compile_dynamic_function()[-1]
    gc.collect()
    assert code() is None


def test_generated_sources_leave_linecache_with_their_functions():
    import linecache

    def f(x):
        return x - 1
    compiled = dynamo.compile(f, backend="eager")
    compiled(arr(2))
    cache = cache_of(compiled, f)
    names = {cache.dispatch.__code__.co_filename, cache.entries[0].check.fn.__code__.co_filename}
    assert names <= set(linecache.cache)
    del compiled, cache
    gc.collect()
    assert not (names & set(linecache.cache))


# ---------------------------------------------------------------------------- reset

def test_reset_drops_every_entry_and_wrappers_keep_working(traces):
    backend, runs = counting_backend()

    def f(x):
        return x + 1
    compiled = dynamo.compile(f, backend=backend)
    compiled(arr(2))
    compiled(arr(3))
    entries = [weakref.ref(e) for e in cache_of(compiled, f).entries]
    dynamo.reset()
    gc.collect()
    assert [r() for r in entries] == [None, None]
    assert cache_of(compiled, f).entries == ()
    same(f(arr(2)), compiled(arr(2)))
    assert len(traces) == 3 and len(runs) == 3


class SkipFirstFrame:
    """A compile listener that makes the first frame it hears of fail to compile."""

    def __init__(self):
        self.attempts = []

    def on_frame_start(self, fn, ctx):
        self.attempts.append(1)
        if len(self.attempts) == 1:
            raise dynamo.convert.SkipFrame("cannot compile this frame (test)")


def test_reset_forgets_frames_that_could_not_compile():
    def f(x):
        return x * 3
    compiled = dynamo.compile(f, backend="eager")
    with listeners.listening(SkipFirstFrame()) as skipper:
        for _ in range(3):       # skipped: runs the original code, never traced again
            same(f(arr(2)), compiled(arr(2)))
        cache = cache_of(compiled, f)
        assert cache.skip_reason == "cannot compile this frame (test)"
        assert len(skipper.attempts) == 1
        dynamo.reset()
        assert cache.skip_reason is None
        same(f(arr(2)), compiled(arr(2)))
        assert len(skipper.attempts) == 2 and len(cache.entries) == 1


def test_backend_errors_propagate_and_are_not_cached():
    def broken(graph, example_inputs):
        raise RuntimeError("kaboom")

    def f(x):
        return x + 1
    compiled = dynamo.compile(f, backend=broken)
    for _ in range(2):
        with pytest.raises(dynamo.BackendError, match="kaboom"):
            compiled(arr(2))
    assert cache_of(compiled, f).skip_reason is None


# ---------------------------------------------------------------------------- threads

def mlp(x, w):
    return np.maximum(x @ w, 0).sum(axis=-1)


@pytest.mark.parametrize("cache_limit", [8, 3])
def test_eight_threads_different_shapes(cache_limit, limit, traces):
    """8 threads call one compiled function at once, each with its own shape: every
    result is right, and each shape is traced at most once."""
    limit(cache_limit)
    compiled = dynamo.compile(mlp, dynamic=False, backend="eager")   # one static entry per shape
    start = threading.Barrier(8)
    errors = []

    def worker(i):
        try:
            rng = np.random.default_rng(i)
            w = rng.standard_normal((5, 3 + i)).astype(F4)
            start.wait()
            for j in range(60):
                x = rng.standard_normal((2 + i, 5)).astype(F4)
                same(mlp(x, w), compiled(x, w))
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert len(traces) == min(8, cache_limit)


def test_run_flat_api_used_by_resume_functions(traces):
    ctx = dynamo.compile(lambda: None, backend="eager")._ctx

    def f(x, *rest):
        return x + len(rest)
    same(f(arr(2), 1, 2), hook.run(f, (arr(2), (1, 2)), ctx))
    same(f(arr(2), 1, 2), hook.run(f, (arr(2), (1, 2)), ctx))
    assert len(traces) == 1


def test_same_code_other_globals_does_not_share_guards():
    src = "def g(x):\n    return x * K\n"
    a, b = {"K": 2.0}, {"K": 3.0}
    exec(src, a)
    other = types.FunctionType(a["g"].__code__, b)
    ctx = dynamo.compile(a["g"], backend="eager")._ctx
    same(a["g"](arr(2)), hook.intercept(a["g"], ctx)(arr(2)))
    same(other(arr(2)), hook.intercept(other, ctx)(arr(2)))
