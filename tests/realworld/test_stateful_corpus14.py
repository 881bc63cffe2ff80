"""Issue #16's fourteenth corpus (``stateful_corpus14.py``, 14 programs written before
they were run): ring buffers indexed by a counter, counters that key a dict, tuples of
changing ints (compared, used as an index, as slice bounds), beams kept as lists of
tuples, and #19's histograms counted in a loop over array elements. Each program,
compiled on the eager and numpy backends, gives plain Python's results and state after
each of its 10 calls, recompiles at most its target (a ``known`` cause is held to its
count and reported as an expected failure), and every recompile names the guard that
failed.
"""

import pytest
import stateful_corpus14
from rw_check import BACKENDS
from test_stateful_programs import check_stateful_program, corpus_tests

PROGRAMS = stateful_corpus14.PROGRAMS

_, _, test_each_recompile_says_why = corpus_tests(PROGRAMS, stateful_corpus14.CALLS)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_stateful_program(prog, backend):
    check_stateful_program(prog, backend)


def test_corpus_has_14_programs_of_10_calls():
    assert len(PROGRAMS) == 14 and len({p.name for p in PROGRAMS}) == 14
    assert stateful_corpus14.CALLS == 10
