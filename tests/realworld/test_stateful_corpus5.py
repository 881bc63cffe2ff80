"""Issue #16's fifth corpus (``stateful_corpus5_sets.py``, ``stateful_corpus5_caches.py``):
sets and LRU or memo caches kept between calls. Each program, compiled on the eager and
numpy backends, gives plain Python's results and state after each call, and recompiles
at most its target over the calls after the first (a ``known`` cause is held to its
count and reported as an expected failure until it is fixed).
"""

import stateful_corpus5_caches
import stateful_corpus5_sets
from stateful_corpus4 import CALLS
from test_stateful_programs import corpus_tests

PROGRAMS = stateful_corpus5_sets.PROGRAMS + stateful_corpus5_caches.PROGRAMS

# check_stateful_program on each program and backend, and the corpus's size (the tests
# shared with the other later corpora; the check that every recompile names its reason
# is not bound here: the earlier corpora run it, and CI time is short)
test_stateful_program, test_corpus_size, _ = corpus_tests(PROGRAMS, CALLS)
