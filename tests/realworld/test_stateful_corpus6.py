"""Issue #16's sixth corpus (``stateful_corpus6.py``, 15 programs written before they
were run): caches, memo tables, seen-sets, LRU dicts and counters keyed by data. Each
program, compiled on the eager and numpy backends, gives plain Python's results and
state after each call, and recompiles at most its target over the calls after the
first (a ``known`` cause is held to its count and reported as an expected failure).
"""

import stateful_corpus6
from stateful_corpus4 import CALLS
from test_stateful_programs import corpus_tests

PROGRAMS = stateful_corpus6.PROGRAMS

# check_stateful_program on each program and backend (the corpus-size test asks for 30
# programs: this corpus has 15, so it is not bound here)
test_stateful_program, _, _ = corpus_tests(PROGRAMS, CALLS)


def test_corpus_has_15_programs():
    assert len(PROGRAMS) == 15 and len({p.name for p in PROGRAMS}) == 15
