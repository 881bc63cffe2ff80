"""Issue #16's fourth corpus (``stateful_corpus4.py`` and ``stateful_corpus4_windows.py``):
each program, compiled on the eager and numpy backends, gives plain Python's results,
state after each call and printed output, and recompiles at most its target over the
calls after the first (a ``known`` cause is held to its count and reported as an
expected failure until it is fixed). Every recompile names its reason.
"""

import stateful_corpus4
import stateful_corpus4_windows
from test_stateful_programs import corpus_tests

PROGRAMS = stateful_corpus4.PROGRAMS + stateful_corpus4_windows.PROGRAMS

# check_stateful_program on each program and backend, the corpus's size, and every
# recompile's reasons (the tests shared with the other later corpus)
(test_stateful_program, test_corpus_size,
 test_each_recompile_says_why) = corpus_tests(PROGRAMS, stateful_corpus4.CALLS)
