"""Compiled functions travel: what ``dynamo.compile`` returns pickles (pickle and
cloudpickle) as what it wraps plus its settings, never its cache, and another process
compiles it on its own first call (multiprocessing, ProcessPoolExecutor, dask.distributed,
functions defined in ``__main__``). See docs/distributed.md."""

from __future__ import annotations

import copy
import inspect
import json
import multiprocessing
import os
import pickle
import subprocess
import sys
import textwrap
import threading
from concurrent.futures import ProcessPoolExecutor

import cloudpickle
import numpy as np
import pytest

import dynamo
from dynamo import listeners
from dynamo.api import CompileSettings, OptimizedMethod

PICKLERS = [pytest.param(pickle, id="pickle"), pytest.param(cloudpickle, id="cloudpickle")]


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


@dynamo.compile(backend="eager")
def decorated(x):
    return np.exp(-x) * 2.0 + 1.0


class Scale:
    """A model object: weights, a ``__call__`` and a method."""

    def __init__(self, n: int):
        self.w = np.linspace(0.5, 1.5, n)

    def __call__(self, x):
        return np.tanh(x * self.w) + self.w.sum()

    def shift(self, x, by=1.0):
        return x + by * self.w


def my_backend(graph, example_inputs):
    """A custom backend given as a (module-level, so picklable) callable."""
    return dynamo.backends.lookup_backend("eager")(graph, example_inputs)


class CountFrames:
    """A compile listener: how many frames the compiler started on."""

    def __init__(self):
        self.frames = 0

    def on_frame_start(self, fn, ctx):
        self.frames += 1


def call_counting_compiles(compiled, x):
    """Run ``compiled(x)`` where this is called (a worker process): its result, how many
    frames the compiler started on during the call, and the compiled object's settings."""
    with listeners.listening(CountFrames()) as count:
        result = compiled(x)
    settings = getattr(compiled, "_settings", None) or compiled.__func__._settings
    return result, count.frames, tuple(settings[1:]), os.getpid()


def entries(compiled) -> int:
    """How many cache entries the compiled object's context holds."""
    return sum(len(cache.entries) for cache in compiled._ctx.caches.values())


X = np.linspace(-2.0, 2.0, 7)


# --------------------------------------------------------------------------- pickling

@pytest.mark.parametrize("pickler", PICKLERS)
def test_round_trip_keeps_the_settings_and_drops_the_cache(pickler):
    options = {"threads": 1}
    compiled = dynamo.compile(gelu, backend="numpy", fullgraph=True, dynamic=False,
                              options=options)
    np.testing.assert_allclose(compiled(X), gelu(X), rtol=1e-12)
    assert entries(compiled) == 1
    data = pickler.dumps(compiled)
    assert b"CodeCache" not in data and b"dynamo.hook" not in data
    copy_ = pickler.loads(data)
    assert type(copy_) is dynamo.OptimizedFunction and copy_ is not compiled
    assert copy_._orig_fn is gelu                     # by reference: gelu is importable
    assert copy_._settings == CompileSettings("numpy", True, False, options)
    ctx = copy_._ctx
    assert (ctx.backend_name, ctx.fullgraph, ctx.dynamic, ctx.options) == \
        ("numpy", True, False, options)
    assert ctx is not compiled._ctx and entries(copy_) == 0
    with listeners.listening(CountFrames()) as count:
        np.testing.assert_allclose(copy_(X), gelu(X), rtol=1e-12)
    assert count.frames == 1 and entries(copy_) == 1 and entries(compiled) == 1
    assert (copy_.__name__, copy_.__qualname__, copy_.__module__) == \
        (gelu.__name__, gelu.__qualname__, gelu.__module__)


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_decorated_module_function_goes_by_name(pickler):
    """As pickle sends a function: the unpickling process gets its module's object."""
    decorated(X)
    assert pickler.loads(pickler.dumps(decorated)) is decorated
    assert copy.copy(decorated) is decorated


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_compiled_model_travels_with_its_weights(pickler):
    model = dynamo.compile(Scale(5), backend="eager", dynamic=True)
    x = np.ones(5)
    expected = Scale(5)(x)
    np.testing.assert_array_equal(model(x), expected)
    copy_ = pickler.loads(pickler.dumps(model))
    # (a compiled object's type is a subclass named as the object's class)
    assert isinstance(copy_, dynamo.OptimizedModule) and type(copy_).__name__ == "Scale"
    assert copy_._orig_mod is not model._orig_mod
    np.testing.assert_array_equal(copy_.w, model.w)
    assert copy_._settings == CompileSettings("eager", False, True, None)
    assert entries(copy_) == 0
    with listeners.listening(CountFrames()) as count:
        np.testing.assert_array_equal(copy_(x), expected)
    assert count.frames == 1


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_compiled_bound_method_travels_compiled(pickler):
    """Not as ``getattr(obj, name)``, as a ``types.MethodType`` does: that would be the
    method uncompiled."""
    method = dynamo.compile(Scale(4).shift, backend="eager")
    x = np.arange(4.0)
    assert type(method) is OptimizedMethod
    assert str(inspect.signature(method)) == "(x, by=1.0)"
    np.testing.assert_array_equal(method(x, 2.0), Scale(4).shift(x, 2.0))
    copy_ = pickler.loads(pickler.dumps(method))
    assert type(copy_) is OptimizedMethod and copy_.__name__ == "shift"
    assert type(copy_.__self__) is Scale and copy_.__self__ is not method.__self__
    with listeners.listening(CountFrames()) as count:
        np.testing.assert_array_equal(copy_(x, by=2.0), Scale(4).shift(x, 2.0))
    assert count.frames == 1


def test_copies_received_with_the_same_settings_share_one_cache():
    """A framework may unpickle a new copy for every task (dask does): the process
    compiles once, not once a copy."""
    data = pickle.dumps(dynamo.compile(gelu, backend="numpy", options={"threads": 1}))
    first, second = pickle.loads(data), pickle.loads(data)
    assert first is not second and first._ctx is second._ctx
    with listeners.listening(CountFrames()) as count:
        np.testing.assert_allclose(first(X), gelu(X), rtol=1e-12)
        np.testing.assert_allclose(second(X), gelu(X), rtol=1e-12)
    assert count.frames == 1
    other = pickle.loads(pickle.dumps(dynamo.compile(gelu, backend="numpy",
                                                     options={"threads": 2})))
    assert other._ctx is not first._ctx


def test_a_compiled_function_deep_copies_as_a_fresh_compile():
    compiled = dynamo.compile(gelu)
    compiled(X)
    copy_ = copy.deepcopy(compiled)
    assert copy_ is not compiled and copy_._orig_fn is gelu and entries(copy_) == 0
    np.testing.assert_array_equal(copy_(X), gelu(X))


@pytest.mark.parametrize("pickler", PICKLERS)
def test_a_callable_backend_pickles_as_itself(pickler):
    compiled = dynamo.compile(gelu, backend=my_backend)
    copy_ = pickler.loads(pickler.dumps(compiled))
    assert copy_._settings.backend is my_backend
    assert copy_._ctx.backend_name == "my_backend"
    np.testing.assert_array_equal(copy_(X), gelu(X))


def test_a_backend_pickle_cannot_send_gives_pickles_error():
    backend = lambda graph, example_inputs: my_backend(graph, example_inputs)  # noqa: E731
    compiled = dynamo.compile(gelu, backend=backend)
    with pytest.raises((pickle.PicklingError, AttributeError), match="lambda"):
        pickle.dumps(compiled)
    copy_ = cloudpickle.loads(cloudpickle.dumps(compiled))   # a lambda goes by value
    np.testing.assert_array_equal(copy_(X), gelu(X))


def make_closure():
    lock = threading.Lock()

    def locked_gelu(x):
        with lock:
            return gelu(x)
    return locked_gelu


@pytest.mark.parametrize("pickler", PICKLERS)
def test_an_unpicklable_closure_gives_the_picklers_own_error(pickler):
    """The error pickling the function itself gives (pickle: a local object;
    cloudpickle: the lock it closes over), naming the object."""
    plain = make_closure()
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)) as expected:
        pickler.dumps(plain)
    with pytest.raises(expected.type) as got:
        pickler.dumps(dynamo.compile(plain))
    assert str(got.value) == str(expected.value)
    name = "lock" if pickler is cloudpickle else "make_closure.<locals>.locked_gelu"
    assert name in str(got.value)


OPTIONAL = ("dask", "distributed", "cloudpickle")


@pytest.mark.parametrize("installed", [True, False], ids=["installed", "absent"])
def test_dask_and_cloudpickle_stay_optional(installed):
    """Compiling and pickling import none of them, and work where they cannot be
    imported (``sys.modules[name] = None`` makes an import of it fail)."""
    hide = "" if installed else "".join(f"sys.modules[{m!r}] = None\n" for m in OPTIONAL)
    code = ("import json, pickle, sys\n" + hide +
            "import dynamo\n"
            "f = pickle.loads(pickle.dumps(dynamo.compile(json.dumps, backend='numpy')))\n"
            "assert f([1]) == '[1]' and f._settings.backend == 'numpy'\n"
            f"print(sorted(m for m in sys.modules if sys.modules[m] is not None and "
            f"m.split('.')[0] in {OPTIONAL!r}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------------- processes

@pytest.mark.slow
def test_multiprocessing_pool_results_equal_eager():
    xs = [np.linspace(-1.0, 1.0, 16) * k for k in range(8)]
    compiled = dynamo.compile(gelu, backend="eager")
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        got = pool.map(compiled, xs)
        # settings no worker has seen: the worker compiles on its first call
        result, frames, settings, pid = pool.apply(
            call_counting_compiles, (dynamo.compile(gelu, dynamic=False), xs[1]))
    for x, y in zip(xs, got):
        np.testing.assert_array_equal(y, gelu(x))
    np.testing.assert_array_equal(result, gelu(xs[1]))
    assert pid != os.getpid() and frames == 1 and settings == (False, False, None)


@pytest.mark.slow
def test_process_pool_executor_results_equal_eager():
    xs = [np.linspace(-1.0, 1.0, 16) * k for k in range(8)]
    model = dynamo.compile(Scale(16), backend="numpy", options={"threads": 1})
    method = dynamo.compile(Scale(16).shift)
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn) as pool:
        got_model = list(pool.map(model, xs))
        got_method = list(pool.map(method, xs))
        got_decorated = list(pool.map(decorated, xs))
        # settings no worker has seen: the worker compiles on its first call
        result, frames, settings, pid = pool.submit(
            call_counting_compiles, dynamo.compile(Scale(16), fullgraph=True), xs[1]).result()
    for x, m, s, d in zip(xs, got_model, got_method, got_decorated):
        np.testing.assert_allclose(m, Scale(16)(x), rtol=1e-12)
        np.testing.assert_array_equal(s, Scale(16).shift(x))
        np.testing.assert_array_equal(d, decorated.__wrapped__(x))
    assert pid != os.getpid() and frames == 1 and settings == (True, None, None)
    np.testing.assert_array_equal(result, Scale(16)(xs[1]))


@pytest.mark.slow
def test_a_dask_local_cluster_runs_compiled_code():
    """A compiled model submitted to worker processes, ``client.map`` over 100 inputs
    and ``dask.delayed``: results equal eager; the cluster started and closed here."""
    import dask
    from dask.distributed import Client, LocalCluster

    xs = [np.linspace(-3.0, 3.0, 32) + 0.01 * i for i in range(100)]
    compiled = dynamo.compile(gelu, backend="numpy", options={"threads": 1})
    model = dynamo.compile(Scale(32), backend="eager")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        before = client.run(call_counting_compiles, compiled, xs[0])   # on each worker
        mapped = client.gather(client.map(compiled, xs))
        after = client.run(call_counting_compiles, compiled, xs[1])
        submitted = client.submit(model, xs[3]).result()
        delayed = dask.delayed(model)(dask.delayed(compiled)(xs[5])).compute()
    assert len(mapped) == 100
    for x, y in zip(xs, mapped):
        np.testing.assert_allclose(y, gelu(x), rtol=1e-6)
    np.testing.assert_array_equal(submitted, Scale(32)(xs[3]))
    np.testing.assert_allclose(delayed, Scale(32)(gelu(xs[5])), rtol=1e-6)
    # Each worker process compiled on its own first call, and only then: the 100 tasks'
    # copies (dask unpickles one a task) share that worker's cache.
    assert len(before) == 2 and len(after) == 2
    for (_, frames, settings, pid), x in zip(before.values(), [xs[0]] * 2):
        assert pid != os.getpid() and frames == 1 and settings == (False, None, {"threads": 1})
    assert [frames for _, frames, _, _ in after.values()] == [0, 0]
    for result, *_ in after.values():
        np.testing.assert_allclose(result, gelu(xs[1]), rtol=1e-6)


# --------------------------------------------------------------------------- __main__

MAIN_SCRIPT = '''
import json, subprocess, sys
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import cloudpickle
import numpy as np

import dynamo


@dynamo.compile(backend="eager")
def power(x, n):                 # calls itself by its global name: the wrapper
    return x if n == 1 else x * power(x, n - 1)


def softsign(x):
    return x / (1.0 + np.abs(x))


fast_softsign = dynamo.compile(softsign, backend="numpy", options={"threads": 1})


class Affine:
    def __init__(self):
        self.w = np.linspace(1.0, 2.0, 8)

    def __call__(self, x):
        return x * self.w - 1.0


model = dynamo.compile(Affine())

# Loaded by another program: nothing of this script's __main__ is there.
LOADER = """
import pickle, sys, json
import numpy as np
fns = pickle.loads(sys.stdin.buffer.read())
x = np.linspace(-1.0, 1.0, 8)
recursion = fns[0]._orig_fn.__globals__["power"] is fns[0]   # one wrapper, not two
print(json.dumps([type(f).__name__ for f in fns] + [recursion] +
                 [fns[0](x, 3).tolist(), fns[1](x).tolist(), fns[2](x).tolist()]))
"""


def expected(x):
    return [(x * (x * x)).tolist(), softsign(x).tolist(), Affine()(x).tolist()]


if __name__ == "__main__":
    x = np.linspace(-1.0, 1.0, 8)
    report = {}
    context = multiprocessing.get_context(sys.argv[1])
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        report["pool"] = [pool.submit(power, x, 3).result().tolist(),
                          list(pool.map(fast_softsign, [x]))[0].tolist(),
                          pool.submit(model, x).result().tolist()]
    data = cloudpickle.dumps([power, fast_softsign, model])
    loaded = subprocess.run([sys.executable, "-c", LOADER], input=data,
                            capture_output=True, check=True)
    report["cloudpickle"] = json.loads(loaded.stdout)
    if len(sys.argv) > 2:
        import dask
        from dask.distributed import Client, LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            report["dask"] = [client.submit(power, x, 3).result().tolist(),
                              client.gather(client.map(fast_softsign, [x, -x]))[0].tolist(),
                              dask.delayed(model)(x).compute().tolist()]
    report["expected"] = expected(x)
    print(json.dumps(report))
'''


def run_main_script(tmp_path, *args) -> dict:
    script = tmp_path / "main_script.py"
    script.write_text(textwrap.dedent(MAIN_SCRIPT))
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                         text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_compiled_functions_defined_in_main_travel(tmp_path):
    """A script's own compiled functions (decorated and recursive, compiled by call) and
    model go to a process pool (by name: its workers run the script as ``__mp_main__``),
    with cloudpickle to another program and to dask workers (by value, as cloudpickle
    sends a function defined in ``__main__``)."""
    report = run_main_script(tmp_path, "spawn", "dask")
    assert report["pool"] == report["expected"]
    assert report["cloudpickle"] == ["OptimizedFunction", "OptimizedFunction",
                                     "Affine", True] + report["expected"]
    assert report["dask"] == report["expected"]
