import gc
import os
import sys

import pytest

sys.path.append(os.path.dirname(__file__))                       # harness, ops_agree...
sys.path.append(os.path.join(os.path.dirname(__file__), "realworld"))       # rw_models
sys.path.append(os.path.join(os.path.dirname(__file__), "shared"))          # models

import split_runs  # noqa: E402

# A built-in backend that fails to compile a graph runs it on the eager backend for a
# user (a warning in the log); here such a bug fails the test (BackendError), in this
# process and in the interpreters tests start (config.strict_backends).
os.environ["DYNAMO_STRICT_BACKENDS"] = "1"

import dynamo  # noqa: E402

# Every call of a compiled function runs compiled here (what the tests count: frames,
# recompiles, graphs); the entry trial, which may run a small function's calls plain
# (dynamo/entry_trial.py), is tested with it on: tests/dynamo/test_entry_trial.py and
# tests/realworld/test_entry_trial_corpora.py (docs/guards.md "Compiled or plain").
dynamo.config.entry_trial_calls = 0


def _has_gpu() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001
        return False


HAS_GPU = _has_gpu()


def pytest_addoption(parser):
    # CI runs three Pythons side by side on two cores (scripts/run.sh). The hostile suite
    # is a third of each run; its programs exercise the frontend, where the Pythons
    # differ, and a backend, whose code does not depend on the Python. So each Python
    # runs a part of the (program, backend) pairs, chosen to keep the three suites equal.
    group = parser.getgroup("dynamo")
    group.addoption("--hostile-runs", default="eager,numpy", metavar="RUNS",
                    help="the part of tests/hostile/test_hostile.py to run: comma-separated "
                         "BACKEND or BACKEND:K/N (the K-th of N equal shares of the "
                         "programs; K may be a range such as 1-4); default: eager,numpy")
    # The same for the tests that check a backend's code (tests/split_runs.py): each runs
    # on one of the three Pythons; the rest of the suite runs on every one.
    group.addoption("--split-runs", default="", metavar="K/N",
                    help="run the K-th of N shares of the Python-independent tests "
                         "(tests/split_runs.py: tests/backends, tests/ops, static checks "
                         "of the tree, the compiled backends' runs of tests/realworld; K "
                         "may be a range such as 2-3); every other test runs; default: "
                         "all")


def _backend_of(item) -> str | None:
    """The ``backend`` parameter of a parametrized test (None when it has none)."""
    backend = getattr(item, "callspec", None) and item.callspec.params.get("backend")
    return backend if isinstance(backend, str) else None


def _deselect_other_shares(config, items):
    """Leave out the split tests of the other shares; pytest counts them as deselected
    (its summary line says how many), so nothing is left out silently."""
    split = split_runs.parse(config.getoption("split_runs"))
    if split == (1, 1, 1):
        return
    # A program's test parametrized by backend: its compiled backends' items are shared
    # where the test has an eager item too; a test with none (a numpy-only corpus) keeps
    # its items, and rw_check.check_program leaves the compiled backend out instead (its
    # break counts, the frontend's, stay on every Python).
    with_eager = {item.nodeid.partition("[")[0] for item in items
                  if _backend_of(item) == "eager"}
    kept, left = [], []
    for item in items:
        backend = _backend_of(item)
        here = split_runs.takes(split, item.nodeid) and (
            backend is None or item.nodeid.partition("[")[0] not in with_eager or
            split_runs.takes_backend_run(split, item.nodeid, backend))
        (kept if here else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def pytest_collection_modifyitems(config, items):
    _deselect_other_shares(config, items)
    if HAS_GPU:
        return
    skip = pytest.mark.skip(reason="needs CuPy and a CUDA device (run scripts/gpu_check.sh "
                                   "on the GPU machine)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


_modules_since_thaw = [0]
THAW_EVERY = 40   # test modules between two full collections


@pytest.fixture(autouse=True, scope="module")
def _young_heap_only():
    """Many tests call ``gc.collect()`` to run finalizers at a known point; a full
    collection scans every object the session holds (about 840,000 late in a CI suite,
    a tenth of a second or more each: a third of a suite's CPU time in a sample).
    Objects older than the test module are frozen (``gc.freeze``), so those collections
    scan what this module made; what they test is unchanged: the objects a test makes
    and drops are young.

    The frozen objects stay frozen from module to module: the collection before each
    freeze then scans only what the last module left, not the whole heap again (365
    modules, a full collection each: minutes of a CI run). Every ``THAW_EVERY`` modules
    ``gc.unfreeze`` hands them all back for one full collection, so cycles that died
    after they were frozen are freed then."""
    _modules_since_thaw[0] += 1
    if _modules_since_thaw[0] >= THAW_EVERY:
        _modules_since_thaw[0] = 0
        gc.unfreeze()
    gc.collect()
    gc.freeze()
    yield


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    dynamo.reset()
    yield
    dynamo.reset()


@pytest.fixture
def traces():
    """A list that gets one item (the code's name) per trace of any frame."""
    from dynamo import listeners

    seen = []

    class Count:
        def on_frame_start(self, fn, ctx):
            # the last part of the qualname: the name, or f_resume_at_L<n> for a resume
            # function (whose co_name is the original's)
            seen.append(fn.__code__.co_qualname.rsplit(".", 1)[-1])

    with listeners.listening(Count()):
        yield seen


@pytest.fixture
def restored_op_registry():
    """For a test that registers ops (``dynamo.register_op``): afterwards the op registry
    is as it was before. An op left registered changes what later tests see: with
    ``np.ediff1d`` registered by tests/ops/test_ops_registry.py it no longer breaks, so
    docs/ops.md's NumPy counts differed from the page ``test_docs_table_is_current``
    builds, but only when that test ran after it (in a long run of many files)."""
    from dynamo.ops import registry

    tables = (registry.REGISTRY, registry._FUNCTIONS, registry._METHODS,
              registry._PROPERTIES)
    saved = [dict(t) for t in tables]
    bound = registry._cupy_bound
    yield
    for table, before in zip(tables, saved):
        table.clear()
        table.update(before)
    registry._cupy_bound = bound     # (CuPy twins bound during the test were dropped)
    for impl in registry._TABLES.values():   # implementations cached by op name
        for name in [n for n in vars(impl) if n not in registry.REGISTRY and
                     not n.startswith("_")]:
            delattr(impl, name)
