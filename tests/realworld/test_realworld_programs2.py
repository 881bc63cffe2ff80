"""The second benchmark corpus (``scripts/realworld_programs2.py``, issue #15): every
program, on its small inputs, gives eager's results on the eager and numpy backends
(values, dtypes, shapes, the arguments afterwards, printed output, warnings), called
twice (the second call hits the cache).

The corpus was written before any of it ran under dynamo; its benchmark sizes are
timed by ``scripts/bench_realworld.py --corpus 2`` (docs/benchmarks.md, "A held-out-
style corpus"); a test runs that script on one program of it. Two causes of
slowness found there follow at the end, each as its smallest program: the one fixed as
a test, the other a strict xfail.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from rw_check import check_corpus_is_new, check_program
from script_modules import load_script

import dynamo

_corpus = load_script("realworld_programs2")
PROGRAMS = _corpus.programs(small=True)


@pytest.mark.parametrize("name,fn,args,kwargs", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, args, kwargs):
    check_program(fn, [args], kwargs=kwargs)


def test_corpus_is_broad_and_new():
    """Forty or more programs, no name twice, none a function of the first corpus."""
    check_corpus_is_new(_corpus, ('realworld_programs',), range(40, 1000))


def test_the_bench_times_this_corpus(tmp_path):
    """``bench_realworld.py --corpus 2`` runs from another folder and times the new
    programs only, their results allclose to plain NumPy's."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "bench_realworld.py"
    done = subprocess.run([sys.executable, str(script), "--corpus", "2", "--quick",
                           "--no-auto", "--filter", "Otsu"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("Otsu threshold")]
    assert len(rows) == 1 and " yes " in rows[0], done.stdout[-2000:]
    assert "over 1 programs" in done.stdout


# Two causes of docs/benchmarks.md ("A held-out-style corpus"), each as its smallest
# program; the xfail is strict: the test fails once the cause is fixed, so the mark
# comes off.


def _pairwise_steps(x, steps=20):
    for _ in range(steps):
        d = x[:, None] - x[None, :]
        d -= np.round(d)
        x = x + 1e-3 * np.sin(d).sum(axis=1)
    return x


def _peak(fn, *args) -> int:
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_loop_body_local_does_not_outlive_its_trip(backend):
    """A loop node hands back no temporary that is dead after the loop (``d``): the
    previous trip's n x n array is freed within its trip (Vicsek flocking was at a
    1.33x peak)."""
    x = np.random.default_rng(0).random(500)
    compiled = dynamo.compile(_pairwise_steps, backend=backend)
    np.testing.assert_array_equal(compiled(x), _pairwise_steps(x))
    assert _peak(compiled, x) <= 1.05 * _peak(_pairwise_steps, x)


def _index_as_number(u, steps=40):
    for t in range(steps):
        u = u + np.sin(0.1 * t)
    return u


def test_a_loop_using_its_index_as_a_number_is_not_unrolled():
    u = np.ones(8)
    ops = []
    for steps in (20, 40):
        report = dynamo.explain(_index_as_number, backend="numpy")(u, steps=steps)
        ops.append(sum(len(g.call_nodes()) for g in report.graphs))
    assert ops[0] == ops[1], f"ops grow with the trip count: {ops}"
