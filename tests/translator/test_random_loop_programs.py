"""Random loop programs against plain Python on the eager and numpy backends (issue #17).

The generator is ``scripts/random_loop_programs.py`` (a small grammar: nested
``for``/``while`` loops over constant, size-derived and index-derived ranges, data and
index ``if``/``elif``/``else``, stencil reads and writes, picked numbers, counters,
carried Python numbers, ``break``/``continue``, writes into an input), run over 2-3
calls of changing sizes with NaN, inf and -0.0 among the values; each compiled call must
give plain Python's result bit for bit (dtypes and Python types too), leave the inputs
as it does, raise its exception and warn its warnings, with no internal error of dynamo.
The offline search over thousands of seeds is ``scripts/loop_program_search.py``; here
a fixed band of seeds, and the minimal programs of the causes it found.
"""

import numpy as np
import pytest
from script_modules import load_script

import dynamo

R = load_script("random_loop_programs")


def _same_as_plain(fn, *calls, backends=("eager", "numpy")):
    for backend in backends:
        dynamo.reset()
        compiled = dynamo.compile(fn, backend=backend)
        for args in calls:
            want, got = R.observe(fn, args), R.observe(compiled, args)
            for w, g in zip(want, got):
                assert R.same(w, g) is None, f"{backend}: {R.same(w, g)}"


# ------------------------------------------------------------------ the causes found

def _counter_after_empty_if(x):
    c = 0
    for j in range(12):
        if x[j] > 0.5:
            pass
        c += 1
    return c


def _nested_counter_after_if(x):
    n = len(x)
    c = 0
    for i in range(2, n - 2):
        for j in range(n):
            if x[j] > 0.5:
                pass
            c += j
    return c


@pytest.mark.parametrize("fn", [_counter_after_empty_if, _nested_counter_after_if])
def test_counter_stepped_after_a_select(fn):
    """A Python int stepped after a data ``if`` the loop node traces as a select: the
    select's join stored every local (bookkeeping), which the body's watch took for the
    program's first write of ``c``: a temporary, left after the loop with the traced
    trip's value (2 for 12; 64 for 15312). Seed 200 of the search."""
    x = np.linspace(-1.0, 2.0, 33)
    _same_as_plain(fn, (x,), (np.zeros(33),))


def _counters_only(x):
    c = 0
    for i in range(12):
        for j in range(12):
            c += 1
    return c


def test_inner_loop_of_counters_only_prints_a_body(caplog):
    """A nested loop node whose trip computes nothing (counters only): its body printed
    ``for trip in range(trips):`` with no line under it, an IndentationError the frame
    fell back from (an internal error, logged); now ``pass``, one graph."""
    for backend in ("eager", "numpy"):
        dynamo.reset()
        with caplog.at_level("WARNING", logger="dynamo.internal"):
            report = dynamo.explain(_counters_only, backend=backend)(np.zeros(3))
        assert not [r for r in caplog.records if r.name == "dynamo.internal"]
        assert report.graph_count == 1 and "pass" in str(report)
    _same_as_plain(_counters_only, (np.zeros(3),))


# ------------------------------------------------------------------ a band of seeds

def test_random_loop_programs():
    """A band of seeds (about 5 s); every difference listed with its program."""
    bad = []
    for seed in range(200, 212):
        src, calls = R.program(seed), R.inputs(seed)
        for backend in ("eager", "numpy"):
            found = R.differences(src, calls, backend)
            if found:
                bad.append(f"seed {seed}:\n{src}{found[:3]}")
    assert not bad, "\n".join(bad)
