"""Issue #16's tenth corpus (``stateful_corpus10.py`` and ``stateful_corpus10_agents.py``,
40 programs written before they were run): trackers and Kalman filters, PID
controllers, training monitors and schedules, metrics accumulators, a beam-search
step, k-NN memories that grow, particle filters with resampling, rng-driven agents,
deque windows, environments and simulation objects. Each program, compiled on the
eager and numpy backends, gives plain Python's results and state after each of its 10
calls of one shape and one call of a new shape, recompiles at most its target (a
``known`` cause is held to its count and reported as an expected failure), and every
recompile names the guard that failed.
"""

import pytest
import stateful_corpus10
from rw_check import BACKENDS
from stateful_corpus10_data import CALLS
from test_stateful_programs import check_stateful_program, corpus_tests

PROGRAMS = stateful_corpus10.PROGRAMS

_, _, test_each_recompile_says_why = corpus_tests(PROGRAMS, CALLS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_stateful_program(prog, backend):
    check_stateful_program(prog, backend)


def test_corpus_has_40_programs():
    assert len(PROGRAMS) == 40 and len({p.name for p in PROGRAMS}) == 40
