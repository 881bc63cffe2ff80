"""The on-disk cache of compiles (``dynamo.disk_cache``, docs/distributed.md "Warm
workers"): a second process with the same cache directory runs its first call without
tracing; bad, stale or untrusted entries are ignored with a log line; what cannot be
written down as data is not stored; off by default, nothing changes."""

from __future__ import annotations

import gc
import json
import logging
import os
import subprocess
import sys
import textwrap
import weakref
from pathlib import Path

import numpy as np
import pytest
from dynamo.backends.auto import numba_importable
from harness import check, same

import dynamo
from dynamo import listeners
from dynamo.config import config
from dynamo.disk_cache.entries import LoadedCheck
from dynamo.disk_cache.keys import entry_digest

# The program both processes run: its functions are the same code objects in each
# (same file, same lines), so the second finds what the first stored.
PROGRAM = '''
import json, logging, sys
import numpy as np
import dynamo
from dynamo import listeners


def chain(x, y, kind="label"):
    z = gelu(x) @ y   # a helper of the program: inlined, guarded by identity
    if kind in {"label", "tag", "name", "mark"}:   # a frozenset constant: its order
        kind = kind.upper()                        # changes with str hashes
    return z - z.mean(axis=0), x.shape[0] + 1000, kind


def gelu(x, c=0.044715):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + c * x ** 3)))


class Messages(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def run(backend, shape, dtype):
    """Call the compiled chain once: what it returned, the plain chain's result, how
    many frames the translator started on and the cache channel's lines."""
    messages = Messages()
    logger = logging.getLogger("dynamo.cache")
    logger.addHandler(messages)
    logger.setLevel(logging.DEBUG)
    frames = []
    starts = type("Starts", (), {"on_frame_start": lambda self, fn, ctx: frames.append(fn)})
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(dtype)
    y = rng.standard_normal((shape[1], 3)).astype(dtype)
    with listeners.listening(starts()):
        got = dynamo.compile(chain, backend=backend)(x, y)
    logger.removeHandler(messages)
    want = chain(x, y)
    return {"equal": bool(np.array_equal(got[0], want[0])) and got[0].dtype == want[0].dtype
            and got[1:] == want[1:] and type(got[1]) is type(want[1]),
            "traced": len(frames), "log": messages.lines}


if __name__ == "__main__":
    backend, calls = sys.argv[1], json.loads(sys.argv[2])
    print(json.dumps([run(backend, tuple(shape), dtype) for shape, dtype in calls]))
'''

CALL = [[(6, 4), "float32"]]


def run_process(tmp_path: Path, cache: Path | None, backend: str = "eager", calls=CALL,
                env: dict | None = None) -> list[dict]:
    """Run PROGRAM in a new Python with ``cache`` as DYNAMO_CACHE_DIR (unset: None)."""
    program = tmp_path / "program.py"
    if not program.exists():
        program.write_text(textwrap.dedent(PROGRAM))
    environ = {k: v for k, v in os.environ.items() if k not in ("DYNAMO_CACHE_DIR",
                                                                "DYNAMO_LOGS")}
    if cache is not None:
        environ["DYNAMO_CACHE_DIR"] = str(cache)
    environ.update(env or {})
    out = subprocess.run([sys.executable, str(program), backend, json.dumps(calls)],
                         capture_output=True, text=True, cwd=tmp_path, env=environ,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    results = json.loads(out.stdout.strip().splitlines()[-1])
    for r in results:
        r["stderr"] = out.stderr
    return results


def stored_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("*/*.json"))


def with_entry(path: Path, change) -> None:
    """Rewrite a stored entry through ``change(file_data)`` (keeping its mode)."""
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def rehash(data: dict) -> None:
    data["sha256"] = entry_digest(data["entry"])


def where(tmp_path: Path) -> str:
    return f"chain at {tmp_path / 'program.py'}:8"


@pytest.fixture
def stored(tmp_path) -> tuple[Path, Path]:
    """A cache directory with the one entry a first process stored: (cache, its file)."""
    cache = tmp_path / "cache"
    run_process(tmp_path, cache)
    path, = stored_files(cache)
    return cache, path


# --------------------------------------------------------------------------- warm processes

@pytest.mark.slow
@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_second_process_runs_its_first_call_without_tracing(tmp_path, backend):
    cache = tmp_path / "cache"
    first, = run_process(tmp_path, cache, backend)
    assert first["equal"] and first["traced"] == 1
    assert any(line.startswith("stored in the disk cache: " + where(tmp_path))
               for line in first["log"]), first["log"]
    assert len(stored_files(cache)) == 1
    second, = run_process(tmp_path, cache, backend)
    assert second["equal"]
    assert second["traced"] == 0, second       # the translator did not run
    assert f"loaded from disk cache: {where(tmp_path)}" in second["log"]
    assert oct(stored_files(cache)[0].stat().st_mode & 0o777) == "0o600"
    assert oct(cache.stat().st_mode & 0o777) == "0o700"


@pytest.mark.slow
def test_off_by_default(tmp_path):
    """Without DYNAMO_CACHE_DIR a process reads and writes no cache, and logs nothing."""
    r, = run_process(tmp_path, None, env={"HOME": str(tmp_path)})
    assert r["equal"] and r["traced"] == 1 and r["log"] == []
    assert [p.name for p in tmp_path.iterdir()] == ["program.py"]


@pytest.mark.slow
def test_guards_still_hold_for_loaded_entries(tmp_path, stored):
    """Another shape or dtype misses the stored entry and compiles (and is stored too);
    the stored shape still loads."""
    cache, _ = stored
    other_shape, other_dtype, same_call = run_process(
        tmp_path, cache, calls=[[(5, 4), "float32"], [(6, 4), "float64"], [(6, 4), "float32"]])
    for r in (other_shape, other_dtype):
        assert r["equal"] and r["traced"] == 1, r
        assert not any(line.startswith("loaded") for line in r["log"]), r["log"]
    assert same_call["equal"] and same_call["traced"] == 0, same_call["log"]
    assert f"loaded from disk cache: {where(tmp_path)}" in same_call["log"]
    assert len(stored_files(cache)) == 3


# --------------------------------------------------------------------------- bad entries

def ignored(tmp_path: Path, cache: Path, why: str) -> dict:
    """The next process ignores the one stored entry, saying ``why``, and traces."""
    r, = run_process(tmp_path, cache)
    assert r["equal"] and r["traced"] == 1, r
    assert not any(line.startswith("loaded") for line in r["log"]), r["log"]
    assert any("ignored" in line and why in line for line in r["log"]), r["log"]
    return r


@pytest.mark.slow
def test_a_corrupted_file_is_ignored_with_a_log_line(tmp_path, stored):
    cache, path = stored
    path.write_bytes(path.read_bytes()[:200])   # a truncated write, a bad disk
    ignored(tmp_path, cache, "cannot be read (JSONDecodeError")


@pytest.mark.slow
def test_a_tampered_entry_fails_its_hash_and_does_not_run(tmp_path, stored):
    cache, path = stored

    def tamper(data):   # the glue would return another label
        glue = data["entry"]["run"]["function"]
        glue["source"] = glue["source"].replace("return", "return 'tampered',")
    with_entry(path, tamper)
    ignored(tmp_path, cache, "does not match its sha256")


@pytest.mark.slow
def test_an_entry_of_another_version_is_stale(tmp_path, stored):
    cache, path = stored

    def other_numpy(data):
        data["entry"]["versions"]["numpy"] = "1.0.0"
        rehash(data)
    with_entry(path, other_numpy)
    r = ignored(tmp_path, cache, "stale")
    assert any("numpy '1.0.0' here" in line for line in r["log"]), r["log"]


@pytest.mark.slow
def test_a_directory_writable_by_others_is_not_used(tmp_path, stored):
    cache, _ = stored
    cache.chmod(0o777)
    r, = run_process(tmp_path, cache)
    assert r["equal"] and r["traced"] == 1
    assert f"dynamo: the disk cache {cache} is ignored: it is writable by group or " \
        "others" in r["log"], r["log"]
    assert len(stored_files(cache)) == 1                       # nothing read or written


# --------------------------------------------------------------------------- in this process

@pytest.fixture
def cache_dir(tmp_path):
    """The disk cache on, in ``tmp_path/cache``, for this test; its log collected."""
    before = config.disk_cache_dir
    config.disk_cache_dir = str(tmp_path / "cache")
    try:
        yield tmp_path / "cache"
    finally:
        config.disk_cache_dir = before


@pytest.fixture
def cache_log(caplog):
    """The ``cache`` channel's lines, collected at DEBUG for this test: call it for the
    lines so far (``caplog.clear()`` forgets them)."""
    caplog.set_level(logging.DEBUG, "dynamo.cache")
    return lambda: [r.getMessage() for r in caplog.records if r.name == "dynamo.cache"]


def count_frames(fn, *args):
    frames = []
    starts = type("Starts", (), {"on_frame_start": lambda self, f, ctx: frames.append(f)})
    with listeners.listening(starts()):
        result = fn(*args)
    return result, len(frames)


def stored_then_loaded(fn, *args):
    """``dynamo.compile(fn)``, called once (traced, stored) and again after
    ``dynamo.reset()``, which must load the stored entry (no tracing); both calls give
    ``fn``'s results. Returns the compiled function."""
    compiled = dynamo.compile(fn, backend="eager")
    same(compiled(*args), fn(*args))
    dynamo.reset()
    got, traced = count_frames(compiled, *args)
    same(got, fn(*args))
    assert traced == 0
    return compiled


def softsign(x, n):
    return x / (1.0 + np.abs(x)) * n, n + 1, (2.5, "two")


# The default (backend="auto") where Numba is installed gives NumPy graphs to the native
# tier: its compiled function (a ``Tiered``) is stored as its tier 1, kernel and
# settings, and loaded as a new one (backends/native/stored_tier.py; before, nothing
# was stored: "not stored in the disk cache: ... Tiered").
@pytest.mark.parametrize("backend", ["eager", "numpy", "auto"])
def test_an_entry_is_loaded_again_after_reset(cache_dir, cache_log, backend):
    """``dynamo.reset()`` drops the in-memory entries: the next call loads the stored one
    (same results, the same constants of the code, no tracing)."""
    x = np.linspace(-2, 2, 7)
    compiled = dynamo.compile(softsign, backend=backend)
    first, traced = count_frames(compiled, x, 3)
    assert traced == 1
    dynamo.reset()
    again, traced = count_frames(compiled, x, 3)
    assert traced == 0
    assert any(line.startswith("loaded from disk cache: softsign at") for line in
               cache_log())
    want = softsign(x, 3)
    same(again, want)
    same(first, want)
    assert again[2] is want[2]   # a constant of the code is the code's own object
    # its guards are inlined into the dispatcher, as a traced entry's are
    entry, = [e for c in compiled._ctx.caches.values() for e in c.entries]
    assert isinstance(entry.check, LoadedCheck)
    if backend == "auto" and numba_importable():   # the native tier's, loaded
        assert "Tiered" in {type(v).__name__ for v in entry.run.__globals__.values()}
    dispatcher, = [c.dispatch.__dynamo_source__ for c in compiled._ctx.caches.values()]
    assert "type(n) is int" in dispatcher and "___e0_check" not in dispatcher
    _, traced = count_frames(compiled, x, 4)   # the guard on n: another entry
    assert traced == 1


def test_check_agrees_with_the_cache_on(cache_dir):
    """The differential harness (plain, traced, cached) with the disk cache on."""
    check(softsign, np.linspace(-1, 1, 5).astype(np.float32), 2)


class Box:
    def __init__(self, w):
        self.w = w


BOX = Box(np.arange(3.0))


def uses_a_user_object(x):
    return x * BOX.w


def breaks(x):
    y = np.sin(x)
    print("between")   # a graph break: bytecode and resume functions, never stored
    return y + 1


@pytest.mark.parametrize("fn, why", [
    (uses_a_user_object, "is the program's type Box, guarded by identity"),
    (breaks, "the frame has a graph break"),
])
def test_what_cannot_be_data_stays_in_memory(cache_dir, cache_log, capsys, fn, why):
    x = np.arange(3.0)
    same(dynamo.compile(fn, backend="eager")(x), fn(x))
    lines = [line for line in cache_log() if line.startswith("not stored")]
    assert lines and why in lines[0], cache_log()
    if fn is uses_a_user_object:
        assert stored_files(cache_dir) == []


def scaled_by(x, box):
    return x * box.w


def test_a_log_line_keeps_no_object_of_the_program_alive(cache_dir, cache_log):
    """``not stored ...: why`` is logged as text: a record holding the exception would
    hold its frames and the call's arguments while a handler keeps it (pytest's does),
    and a ``__del__`` would run late (hostile state/del_order with DYNAMO_LOGS=cache)."""
    box, x = Box(np.arange(3.0)), np.arange(3.0)
    same(dynamo.compile(scaled_by, backend="eager")(x, box), scaled_by(x, box))
    assert any("guarded by identity" in line for line in cache_log())
    alive = weakref.ref(box)
    del box
    gc.collect()
    assert alive() is None


def helper(x, scale=2.0):
    return np.tanh(x) * scale


def other_helper(x, scale=2.0):
    return np.sin(x) * scale


def calls_a_helper(x):
    return helper(x) + 1.0


def test_a_helper_of_the_program_is_found_again_by_name(cache_dir, cache_log, caplog,
                                                         monkeypatch):
    """A function the trace inlined is guarded by identity; a stored entry names it by
    module and name, and is used only while that name gives a function with the same
    code and defaults (and its code object is still that function's)."""
    x = np.linspace(-1, 1, 5)
    compiled = stored_then_loaded(calls_a_helper, x)
    for replaced in (other_helper, None):   # another function; new defaults
        dynamo.reset()
        caplog.clear()
        if replaced is None:
            monkeypatch.setattr(helper, "__defaults__", (3.0,))
        else:
            monkeypatch.setitem(globals(), "helper", replaced)
        got, traced = count_frames(compiled, x)
        same(got, calls_a_helper(x))
        assert traced == 1
        assert any("ignored" in line and "is not the one the entry was made with" in line
                   for line in cache_log()), cache_log()
        monkeypatch.undo()


HELPERS = """
import numpy as np
EPS = 1e-5

def norm(x):
    return (x - x.mean()) / np.sqrt(x.var() + EPS)
"""


def test_a_helper_of_another_module_is_found_by_module_name(cache_dir, cache_log, tmp_path,
                                                            monkeypatch):
    """The helper's module is named, never imported by the cache: a process that has
    not imported it cannot use the entry."""
    (tmp_path / "dc_helpers.py").write_text(HELPERS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "dc_helpers", raising=False)
    import dc_helpers

    def f(x):
        return dc_helpers.norm(x) * 2.0
    x = np.linspace(0, 3, 6)
    compiled = stored_then_loaded(f, x)
    dynamo.reset()
    monkeypatch.delitem(sys.modules, "dc_helpers")
    got, traced = count_frames(compiled, x)
    same(got, f(x))
    assert traced >= 1   # (traced again, breaking where the module is not imported)
    assert any("dc_helpers is not imported in this process" in line
               for line in cache_log()), cache_log()


def test_a_library_attribute_replaced_since_is_not_trusted(cache_dir, cache_log, monkeypatch):
    """The stored guard names ``np.tanh``; after ``np.tanh = np.sin`` the entry would
    pass its own check (the name gives the new object): it must not load."""

    def f(x):
        return np.tanh(x)
    x = np.linspace(0, 1, 4)
    dynamo.compile(f, backend="eager")(x)
    dynamo.reset()
    monkeypatch.setattr(np, "tanh", np.sin)
    got, traced = count_frames(dynamo.compile(f, backend="eager"), x)
    np.testing.assert_array_equal(got, np.sin(x))
    assert traced == 1
    assert any("ignored" in line and "numpy.tanh is" in line for line in cache_log())


def test_off_nothing_changes(tmp_path, cache_log, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(config, "disk_cache_dir", None)
    x = np.linspace(-2, 2, 7)
    same(dynamo.compile(softsign, backend="eager")(x, 2), softsign(x, 2))
    assert cache_log() == []
    assert list(tmp_path.iterdir()) == []


def test_the_setting_takes_a_path_or_none():
    with pytest.raises(TypeError, match="must be a str"):
        config.disk_cache_dir = 3
    assert "disk_cache_dir" in config.describe()


# --------------------------------------------------------------------------- dask workers

WORKERS = '''
import json, logging, os, sys
import numpy as np

def on_worker():
    """In a worker process: call the compiled chain once; what happened."""
    import dynamo
    import program
    return program.run("numpy", (6, 4), "float32"), os.getpid()

if __name__ == "__main__":
    import program
    from dask.distributed import Client, LocalCluster
    warm = program.run("numpy", (6, 4), "float32")      # traced here, stored
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        results = client.run(on_worker)
    print(json.dumps({"warm": warm, "workers": list(results.values()),
                      "pid": os.getpid()}))
'''


@pytest.mark.slow
def test_dask_workers_start_warm(tmp_path):
    """Two worker processes of a LocalCluster, sharing the directory through
    DYNAMO_CACHE_DIR, run their first call from the entry this process stored."""
    pytest.importorskip("distributed")
    (tmp_path / "program.py").write_text(textwrap.dedent(PROGRAM))
    (tmp_path / "workers.py").write_text(textwrap.dedent(WORKERS))
    environ = {k: v for k, v in os.environ.items() if k != "DYNAMO_LOGS"}
    environ["DYNAMO_CACHE_DIR"] = str(tmp_path / "cache")
    environ["PYTHONPATH"] = str(tmp_path)
    out = subprocess.run([sys.executable, str(tmp_path / "workers.py")], capture_output=True,
                         text=True,
                         cwd=tmp_path, env=environ, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["warm"]["traced"] == 1 and report["warm"]["equal"]
    workers = report["workers"]
    assert len(workers) == 2 and len({pid for _, pid in workers} | {report["pid"]}) == 3
    for result, _ in workers:
        assert result["equal"] and result["traced"] == 0, result
        assert f"loaded from disk cache: {where(tmp_path)}" in result["log"]
