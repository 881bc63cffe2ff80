"""A kernel too long to compile stays in tier 1 (backends/native/compile_cost.py): Numba's
compile of a long kernel holds the GIL for tens of seconds while tier 1 serves, unless
the disk cache already holds its machine code (a load, milliseconds)."""

from __future__ import annotations

import logging
import time

import numpy as np
import pytest

import dynamo

pytest.importorskip("numba")

from dynamo.backends.native.compile_cost import kernel_lines, too_big  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from test_native import check_native, compiled, same  # noqa: E402 (needs numba)


def _steps(x, y):
    for _ in range(4):   # unrolled: each step adds its nests to the kernel
        x = 0.5 * (x + y) - 0.25 * y * y
        y = np.sqrt(x * x + 1.0) + y
    return x, y


def _args():
    rng = np.random.default_rng(3)
    return rng.random(50), rng.random(50)


def test_a_kernel_over_the_limit_stays_in_tier_1_and_matches_eager(caplog):
    # fails without the limit: the graph gets a Tiered and compiles
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        made = check_native(_steps, *_args(), native=False, max_kernel_lines=10)
    assert not any(isinstance(m, Tiered) for m in made)
    assert "over max_kernel_lines=10" in caplog.text


def test_under_the_limit_or_no_limit_compiles():
    for limit in (0, 100000):
        made = check_native(_steps, *_args(), max_kernel_lines=limit)
        assert any(isinstance(m, Tiered) for m in made)


def test_the_default_limit_is_the_config_setting(monkeypatch, caplog):
    monkeypatch.setattr(dynamo.config, "native_max_kernel_lines", 10)
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        made = check_native(_steps, *_args(), native=False)
    assert not any(isinstance(m, Tiered) for m in made)
    assert "over max_kernel_lines=10" in caplog.text


def test_a_kernel_in_the_disk_cache_is_loaded_whatever_its_size(tmp_path):
    # compiled once without a limit into the cache, then the limit lets it load
    options = {"cache": True, "cache_dir": str(tmp_path)}
    c, made = compiled(_steps, max_kernel_lines=0, **options)
    c(*_args())
    c(*_args())
    assert made[0].native_calls == 1
    source = made[0].__dynamo_native_source__
    assert kernel_lines(source) > 10
    assert too_big(source, 10, None) is not None     # no cache: refused
    assert too_big(source, 10, str(tmp_path)) is None
    dynamo.reset()
    c, made = compiled(_steps, max_kernel_lines=10, **options)
    want = _steps(*_args())
    c(*_args())
    same(c(*_args()), want)
    assert isinstance(made[0], Tiered) and made[0].native_calls == 1


@pytest.mark.parametrize("bad", [-1, 1.5, True, "10"])
def test_a_bad_limit_is_refused_at_compile(bad):
    with pytest.raises(ValueError, match="max_kernel_lines"):
        dynamo.compile(_steps, backend="native", options={"max_kernel_lines": bad})


def _compile_log(tmp_path, caplog, scale, **options):
    """The log of a kernel compiled in the background (after its first call) with the
    disk cache in ``tmp_path``; tier 2 answers the call after it. (``scale``: a kernel
    of its own per test: the process keeps a kernel's module by its source's hash.)"""
    def steps(x, y):
        return _steps(x * scale, y)
    dynamo.reset()
    c, made = compiled(steps, background=True, cache=True, cache_dir=str(tmp_path),
                       **options)
    want = steps(*_args())
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        same(c(*_args()), want)
        assert made[0].wait(120)
        same(c(*_args()), want)
    assert made[0].error is None and made[0].native_calls == 1
    return caplog.text


def test_the_compile_runs_in_a_child_process_and_the_tier_loads_it(tmp_path, caplog):
    # fails without child_compile.py: the thread compiles ("compiled by Numba")
    text = _compile_log(tmp_path, caplog, 1.5)
    assert "graph g" in text and "loaded from the disk cache" in text
    assert "child process failed" not in text


def test_without_compile_process_the_thread_compiles(tmp_path, caplog):
    text = _compile_log(tmp_path, caplog, 2.5, compile_process=False)
    assert "compiled by Numba" in text


def test_a_child_that_fails_leaves_the_compile_to_the_thread(tmp_path, caplog,
                                                              monkeypatch):
    # a child that cannot start Python: the thread compiles as before
    import sys
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    text = _compile_log(tmp_path, caplog, 3.5)
    assert "no child process for the compile" in text and "compiled by Numba" in text


def _children_of_this_process() -> list:
    """The processes (zombies too) whose parent is this one, from /proc (Linux)."""
    import os
    kids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:   # (ended meanwhile)
            continue
        if fields[1] == str(os.getpid()):
            kids.append((int(pid), fields[0]))
    return kids


def test_a_child_past_its_timeout_is_killed_and_the_graph_stays_in_tier1(tmp_path,
                                                                        caplog):
    # fails without the timeout: the child compiles (its Numba import alone takes
    # longer than 0.05 s) and tier 2 answers the call after the first one
    import sys
    if not sys.platform.startswith("linux"):
        pytest.skip("/proc lists the children")

    def steps(x, y):
        return _steps(x * 4.5, y)
    dynamo.reset()
    # (children of the test process from before: a multiprocessing resource tracker
    # an earlier test started, in the whole suite)
    before = {pid for pid, _ in _children_of_this_process()}
    c, made = compiled(steps, background=True, cache=True, cache_dir=str(tmp_path),
                       compile_timeout_s=0.05)
    want = steps(*_args())
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        same(c(*_args()), want)
        assert made[0].wait(120)     # the thread gave up: the call never waited for it
        same(c(*_args()), want)
        same(c(*_args()), want)
    t = made[0]
    assert t.state == "failed" and t.native_calls == 0
    assert type(t.error).__name__ == "CompileTimeout"
    assert f"native tier: graph {t.name} stays in tier 1: its compile in a child " \
           "process ran past compile_timeout_s=0.05 s; the child was killed" in caplog.text
    assert "compiled by Numba" not in caplog.text   # (not compiled in the thread instead)
    left = [kid for kid in _children_of_this_process() if kid[0] not in before]
    assert left == []         # killed and reaped: no zombie


@pytest.mark.parametrize("bad", [-1, True, "10", float("nan")])
def test_a_bad_compile_timeout_is_refused_at_compile(bad):
    with pytest.raises(ValueError, match="compile_timeout_s"):
        dynamo.compile(_steps, backend="native", options={"compile_timeout_s": bad})


def test_the_config_sets_the_compile_timeout(monkeypatch):
    from dynamo.backends.native.backend import parse_options
    assert parse_options({})[0].compile_timeout_s == 600.0
    monkeypatch.setattr(dynamo.config, "native_compile_timeout_s", 7)
    assert parse_options({})[0].compile_timeout_s == 7.0
    assert parse_options({"compile_timeout_s": 0.5})[0].compile_timeout_s == 0.5
    with pytest.raises(ValueError, match="native_compile_timeout_s"):
        dynamo.config.native_compile_timeout_s = -1


def _stencil(a):
    return 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]) * 1.5


def test_the_one_thread_twin_compiles_in_a_child_process_too(tmp_path):
    """The trial compiles a parallel kernel's one-thread twin (one_thread.py) before it
    times it, for every parallel kernel: with the disk cache that compile runs in a
    child process too, and the tier loads it (in the tier's thread it held the GIL while
    tier 1 served). Fails without it: the twin's dispatcher compiled, no cache hit."""
    dynamo.reset()
    c, made = compiled(_stencil, background=True, cache=True, cache_dir=str(tmp_path),
                       prefer="measure")
    a = np.random.default_rng(5).random((300, 300))   # (parallel from 16,384 elements)
    want = _stencil(a)
    same(c(a), want)
    tier = made[0]
    assert tier.wait(120) and tier.kernel.parallel
    for _ in range(1200):   # the trial starts the twin's compile (then races it)
        same(c(a), want)
        if tier.twin.dispatcher is not None or tier.twin.error is not None:
            break
        time.sleep(0.1)
    assert tier.twin.error is None and tier.twin.dispatcher is not None
    hits = tier.twin.dispatcher.stats.cache_hits
    assert sum(hits.values()) >= 1, dict(hits)
