"""Issue #16's eleventh corpus (``stateful_corpus11.py`` and ``stateful_corpus11_sims.py``,
26 programs written before they were run): streaming statistics, optimizers with
per-name state dicts, caches, a growing vocabulary, LR schedules, RL agents,
simulations with step counters and event logs, early stopping and metric trackers.
Each program, compiled on the eager and numpy backends, gives plain Python's results,
state and identities after each of its 10 calls of one shape, recompiles at most its
target (a ``known`` cause is held to its count and reported as an expected failure),
and every recompile names the guard that failed.
"""

import pytest
import stateful_corpus11
from rw_check import BACKENDS
from stateful_corpus11_data import CALLS
from test_stateful_programs import check_stateful_program, corpus_tests

PROGRAMS = stateful_corpus11.PROGRAMS

_, _, test_each_recompile_says_why = corpus_tests(PROGRAMS, CALLS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_stateful_program(prog, backend):
    check_stateful_program(prog, backend)


def test_corpus_has_26_programs():
    assert len(PROGRAMS) == 26 and len({p.name for p in PROGRAMS}) == 26
