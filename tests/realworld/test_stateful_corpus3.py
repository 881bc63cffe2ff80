"""Issue #16's third corpus (``stateful_corpus3.py`` and ``stateful_corpus3_windows.py``),
measured as ``test_stateful_programs.py`` measures the first: each program, compiled on
the eager and numpy backends, gives eager's results, printed output and state, and
recompiles at most its target over the calls after the first; a ``known`` cause is held
to its count and reported as an expected failure until it is fixed. Every recompile
names its reason (checked here too).
"""

import stateful_corpus3
import stateful_corpus3_windows
from test_stateful_programs import corpus_tests

PROGRAMS = stateful_corpus3.PROGRAMS + stateful_corpus3_windows.PROGRAMS

# check_stateful_program on each program and backend, the corpus's size, and every
# recompile's reasons (the tests shared with the other later corpus)
(test_stateful_program, test_corpus_size,
 test_each_recompile_says_why) = corpus_tests(PROGRAMS, stateful_corpus3.CALLS)
