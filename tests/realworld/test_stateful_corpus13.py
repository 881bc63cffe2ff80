"""Issue #16's thirteenth corpus (``stateful_corpus13.py`` and ``stateful_corpus13_agents.py``,
25 programs written before they were run): LRU caches of arrays, memoised helpers and
memo dicts, counters keyed by tuples, running statistics objects, schedulers kept as
objects, token buffers, env and agent objects, online learners, generators kept
across calls, logging hooks and accumulators. Each program, compiled on the eager and
numpy backends, gives plain Python's results and state after each of its 20 calls of
one shape, recompiles at most its target (a ``known`` cause is held to its count and
reported as an expected failure), and every recompile names the guard that failed and
the source line that read the value.
"""

import re
import warnings

import pytest
import stateful_corpus13
from rw_check import BACKENDS
from stateful_corpus13_data import CALLS
from test_stateful_programs import _measured, check_stateful_program, corpus_tests

PROGRAMS = stateful_corpus13.PROGRAMS

_, _, test_each_recompile_says_why = corpus_tests(PROGRAMS, CALLS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_stateful_program(prog, backend):
    check_stateful_program(prog, backend)


def test_corpus_has_25_programs_of_20_calls():
    assert len(PROGRAMS) == 25 and len({p.name for p in PROGRAMS}) == 25
    assert CALLS == 20


_LINE = re.compile(r"\bat [^\s:]+\.py:\d+")


@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_each_recompile_names_a_source_line(prog):
    """Every failing guard of every recompile says where the program read (or
    decided on) the value: ``read at file.py:12: ...`` or ``... at file.py:12: ...``
    (on the eager backend)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, report = _measured(prog, "eager")
    for r in report.recompiles:
        assert all(_LINE.search(why) for why in r.reasons), str(r)
