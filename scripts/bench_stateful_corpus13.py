"""Issue #16's thirteenth stateful corpus: per program, the compiles and recompiles over
its 20 calls of one shape (``dynamo.explain``, as ``test_stateful_corpus13.py`` counts
them) and the per-call CPU time after the second call, compiled against plain Python
(``bench_stateful_corpus10.py``'s table, with the first call's time as its last
column).

    python scripts/bench_stateful_corpus13.py [--rounds 3] [--counts] [PROGRAM...]

``--counts`` prints only the compiles table (no timing): for each CPU backend, each
program's compiles, its recompiles after the first call and its target. Otherwise each
round runs every program's scenario plainly and compiled on each CPU backend,
interleaved, each compiled run from a fresh ``dynamo.reset()``; "us/call" is the median
over rounds of the median CPU time (``time.process_time``) of calls 3-20, "mean" the
median of their mean (a recompile among them counted in), "first ms" the first call's
(the trace). Ratios are plain / compiled.

Example::

    $ python scripts/bench_stateful_corpus13.py --counts
    $ python scripts/bench_stateful_corpus13.py --rounds 3 lru_cache_of_arrays
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "realworld")]

import stateful_corpus13  # noqa: E402
from bench_stateful_corpus12 import run  # noqa: E402  (a sibling script: the same tables)
from stateful_corpus13_data import CALLS  # noqa: E402

if __name__ == "__main__":
    run(sys.argv[1:], stateful_corpus13, CALLS)
