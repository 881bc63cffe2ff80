"""Loops that break the graph on every trip (issue #15), compiled against plain Python.

The corpus is ``scripts/breaking_loop_programs.py`` (20 programs written before they
ran: event-driven simulations, rejection sampling, Metropolis steps, adaptive
integrators, per-element loops with a data-dependent ``if``, lists built in loops).
Each is compared with eager on both CPU backends, two calls (trace, then the cache):
results with their types and dtypes, the arguments after the call (a ``Generator``
passed in is compared by its bit generator's state, so the compiled program drew
exactly the numbers plain Python draws), printed output, exceptions. Their speed is
``scripts/bench_breaking_loops.py``'s.

The calls such loops make to C code (``rng.random()``, ``times.append(t)``) are made as
written, with no call of the frame hook per trip: ``test_island_calls.py``.
"""

import pytest
from harness import check
from script_modules import load_script

_corpus = load_script("breaking_loop_programs")
PROGRAMS = _corpus.programs(small=True)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("name,fn,make", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program_equals_eager(name, fn, make, backend):
    check(fn, *make(), backend=backend)


def test_corpus_is_the_kind_it_says():
    # every program but the two whose loops are fully known while tracing (a counter
    # and a fold) breaks the graph at least once: they are loops the trace cannot own
    import io
    from contextlib import redirect_stdout

    import dynamo
    breaking = []
    for name, fn, make in PROGRAMS:
        with redirect_stdout(io.StringIO()):
            report = dynamo.explain(fn, backend="eager")(*make())
        if report.graph_break_count:
            breaking.append(name)
    assert len(PROGRAMS) >= 15
    # (the small threshold_per_element, whose if/else writes into its own array, is one
    # graph since translator/select_writes.py, issue #19)
    assert len(breaking) >= len(PROGRAMS) - 4, sorted(set(p[0] for p in PROGRAMS) - set(breaking))
