"""A loop index used as a number (``np.sin(0.1 * t)``, ``lr0 / (1 + k * t)``,
``0.99 ** t``, ``w -= g / (lam * t)``) flows into a loop node's body as a value of the
trip: the loop stays one ``fori_loop`` node, with eager's values, types and promotion
(tests/translator/corpus_loop_index.py). Where a Python-level use needs the concrete
value (a branch, a list index, an int power, a NumPy scalar operand) the
loop stays unrolled, with the reason in the ``loops`` log.

Each program runs eagerly and compiled on both CPU backends (``check``: results and
dtypes, arguments after the call, exceptions), with one graph and no break; the loop
nodes of the compiled graphs are counted, and so are the ops of the first call's
graph (a loop node keeps it small; unrolled, it grows with the trips).
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
from corpus_loop_index import PROGRAMS, symbolic_trips
from harness import check, same
from hypothesis import given, settings
from hypothesis import strategies as st
from script_modules import load_script

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def first_call(fn, args, backend="eager"):
    """(loop nodes, ops of the outer graphs) of the graphs one first call compiled."""
    with listeners.listening(_Graphs()) as seen:
        dynamo.compile(fn, backend=backend)(*args)
    loops = sum(n.target == "fori_loop" for g in seen.graphs for n in g.call_nodes())
    ops = sum(len(list(g.call_nodes())) for g in seen.graphs)
    return loops, ops


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name, fn, make_args, node", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_index_values(name, fn, make_args, node, backend):
    args = make_args()
    try:   # (a program that raises eagerly: the compiled one must raise alike)
        fn(*make_args())
        raises = False
    except ArithmeticError:
        raises = True
    check(fn, *args, backend=backend, graphs=None if raises else 1,
          breaks=None if raises else 0)
    if raises:
        return
    loops, ops = first_call(fn, make_args(), backend)
    assert loops == (1 if node else 0), f"{name}: {loops} loop nodes"
    if node:
        assert ops <= 30, f"{name}: {ops} ops in the first call's graph"


def test_dtypes_follow_eager():
    """NEP 50 as eagerly: a Python float from the index keeps a float32 array float32;
    np.sin of it is a strong np.float64 that makes the result float64."""
    x = np.linspace(0, 1, 16, dtype=np.float32)
    name, fn, make_args, _ = next(p for p in PROGRAMS if p[0] == "geometric_decay_f32")
    got = dynamo.compile(fn, backend="numpy")(x.copy())
    assert got.dtype == np.float32
    same(fn(x.copy()), got)
    name, fn, make_args, _ = next(p for p in PROGRAMS if p[0] == "sine_source_f32")
    got = dynamo.compile(fn, backend="numpy")(*make_args())
    assert got.dtype == np.float64
    same(fn(*make_args()), got)


def test_symbolic_trip_count():
    """range(T) with T changing between calls: one entry for every T (the float after
    the loop is the expression at the last trip, T - 1), results equal eager."""
    compiled = dynamo.compile(symbolic_trips, backend="numpy")
    w = np.linspace(-1, 1, 8)
    with listeners.listening(_Graphs()) as seen:
        for T in (12, 20, 31, 45):
            same(symbolic_trips(w.copy(), T), compiled(w.copy(), T))
    assert len(seen.graphs) == 2, f"{len(seen.graphs)} compiles"


def test_branch_on_index_is_logged(caplog):
    name, fn, make_args, _ = next(p for p in PROGRAMS if p[0] == "branch_on_index")
    with caplog.at_level(logging.DEBUG, logger="dynamo.loops"):
        dynamo.compile(fn, backend="eager")(*make_args())
    assert any("branches on the index" in r.getMessage() for r in caplog.records), \
        [r.getMessage() for r in caplog.records]


def test_realworld_programs():
    """The two held-out-style programs of scripts/realworld_programs2.py that read their
    index as a number: one loop node each, results equal eager."""
    progs = {name: (fn, args, kwargs)
             for name, fn, args, kwargs in load_script("realworld_programs2").programs(True)}
    for name in ("wave 1-D Mur absorbing + source", "linear SVM subgradient"):
        fn, args, kwargs = progs[name]
        kwargs = dict(kwargs, **({"steps": 12} if "SVM" in name else {"steps": 20}))
        check(fn, *args, backend="numpy", kwargs=kwargs, graphs=1, breaks=0)
        with listeners.listening(_Graphs()) as seen:
            dynamo.compile(fn, backend="numpy")(*args, **kwargs)
        loops = sum(n.target == "fori_loop" for g in seen.graphs for n in g.call_nodes())
        assert loops == 1, f"{name}: {loops} loop nodes"


@settings(max_examples=12, deadline=None)
@given(start=st.integers(-6, 6), trips=st.integers(9, 16), step=st.sampled_from([1, 2, -1, -3]),
       c=st.floats(-3.0, 3.0, allow_nan=False), f32=st.booleans())
def test_index_arithmetic_matches_python(start, trips, step, c, f32):
    """Python float arithmetic on the index, over any range and a float argument: the
    same bits and dtypes as eagerly, one loop node."""
    stop = start + step * trips

    def f(x, c):
        for t in range(start, stop, step):
            x = x * 0.5 + np.cos(c * t) * (t * 0.25 - c) + (c + t) / 3.0 + 0.9 ** t
        return x, c * t

    x = np.linspace(-1, 1, 7, dtype=np.float32 if f32 else np.float64)
    check(f, x, c, backend="numpy", graphs=1, breaks=0)
    loops, _ = first_call(f, (x, c), "numpy")
    assert loops == 1
