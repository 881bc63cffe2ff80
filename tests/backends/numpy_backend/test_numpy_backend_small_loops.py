"""Loops over small arrays (task p62/t1, issue #15): the programs of
``scripts/bench_small_loop_nodes.py`` are loop nodes and give plain Python's results
on both CPU backends, and the numpy backend's code for a k-means assignment trip
makes no call it does not need (``passes/scalar_reads.py``; ``d.argmin()``, not
``np.argmin(d)``; ``np.add.reduce`` for a short sum over 4 rows).
"""

import logging

import numpy as np
import pytest
from harness import check
from script_modules import load_script

import dynamo
from dynamo import listeners

bench = load_script("bench_small_loop_nodes")


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("name,fn,make", bench.PROGRAMS, ids=[p[0] for p in bench.PROGRAMS])
def test_small_loop_programs_match_plain(name, fn, make, backend):
    check(fn, *make(), backend=backend)
    dynamo.reset()
    with listeners.listening(_Graphs()) as seen:
        dynamo.compile(fn, backend=backend)(*make())
    assert any(n.target == "fori_loop" for g in seen.graphs for n in g.call_nodes())


def _loop_source(caplog, fn, *args) -> str:
    dynamo.reset()
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        dynamo.compile(fn, backend="numpy")(*args)
    (body,) = [r.getMessage() for r in caplog.records if "_taking(" in r.getMessage()]
    return body[body.index("for trip in"):]


def test_a_kmeans_trip_reads_the_argmin_itself(caplog):
    src = _loop_source(caplog, bench.kmeans_assign, *bench.PROGRAMS[0][2]())
    assert "_copy(" not in src and "[()]" not in src, src
    assert "v_sum.argmin()" in src and "_argmin(" not in src, src
    assert "_short_sum(" not in src and "_add_reduce(" in src, src
    assert src.count("X[(trip)]") == 1, src       # (read once: passes/cse.py)


def test_a_histogram_trip_reads_the_index_once(caplog):
    src = _loop_source(caplog, bench.histogram_by_index, *bench.PROGRAMS[5][2]())
    assert "_copy(" not in src and "[()]" not in src and src.count("idx[") == 1, src


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_argmin_and_argmax_as_methods_match_numpy(backend):
    def f(d, m):
        return np.argmin(d), np.argmax(m, 1), np.argmin(m, axis=0), np.argmax(d)

    d = np.array([3.0, np.nan, -1.0, -1.0])
    m = np.array([[1, 5, 5], [7, 0, 7]], dtype=np.int16)
    check(f, d, m, backend=backend)

    def empty(e):
        return np.argmin(e)

    check(empty, np.zeros(0), backend=backend)     # (ValueError, eager's message)
