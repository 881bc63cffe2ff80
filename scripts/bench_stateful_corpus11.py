"""Per-call CPU time of issue #16's eleventh stateful corpus after its second call,
compiled against plain Python (``bench_stateful_corpus10.py``'s table, with the first
call's time as its last column).

    python scripts/bench_stateful_corpus11.py [--rounds 3] [PROGRAM...]

Each round runs every program's scenario (10 calls of one shape) plainly and
compiled on each CPU backend, interleaved, each compiled run from a fresh
``dynamo.reset()``; "us/call" is the median over rounds of the median CPU time
(``time.process_time``) of calls 3-10, "mean" the median of their mean (a recompile
among them counted in), "first ms" the first call's (the trace). Ratios are
plain / compiled.

Example::

    $ python scripts/bench_stateful_corpus11.py --rounds 3 noam_warmup_schedule
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# the package first, then the corpus (``tests/realworld``, never ``tests/`` itself)
sys.path[:0] = [os.path.dirname(HERE), os.path.join(os.path.dirname(HERE), "tests", "realworld")]

import stateful_corpus11  # noqa: E402
from bench_stateful_corpus10 import main  # noqa: E402  (a sibling script)

if __name__ == "__main__":
    main(sys.argv[1:], stateful_corpus11, ("first ms", lambda t: t[0]))
