"""Issue #16's twelfth stateful corpus: per program, the compiles and recompiles over
its 20 calls of one shape (``dynamo.explain``, as ``test_stateful_corpus12.py`` counts
them) and the per-call CPU time after the second call, compiled against plain Python
(``bench_stateful_corpus10.py``'s table, with the first call's time as its last
column).

    python scripts/bench_stateful_corpus12.py [--rounds 3] [--counts] [PROGRAM...]

``--counts`` prints only the compiles table (no timing): for each CPU backend, each
program's compiles, its recompiles after the first call and its target. Otherwise each
round runs every program's scenario plainly and compiled on each CPU backend,
interleaved, each compiled run from a fresh ``dynamo.reset()``; "us/call" is the median
over rounds of the median CPU time (``time.process_time``) of calls 3-20, "mean" the
median of their mean (a recompile among them counted in), "first ms" the first call's
(the trace). Ratios are plain / compiled.

Example::

    $ python scripts/bench_stateful_corpus12.py --counts
    $ python scripts/bench_stateful_corpus12.py --rounds 3 vocab_not_in_then_append
"""

from __future__ import annotations

import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# the package first, then the corpus (``tests/realworld``, never ``tests/`` itself), then
# ``tests/`` last for the corpus test's helpers (its ``dynamo/`` folder must not shadow)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "realworld")]

import stateful_corpus12  # noqa: E402
from bench_stateful_corpus9 import BACKENDS  # noqa: E402  (a sibling script)
from bench_stateful_corpus10 import main  # noqa: E402
from stateful_corpus12_data import CALLS  # noqa: E402

sys.path.append(os.path.join(ROOT, "tests"))
from test_stateful_programs import _measured  # noqa: E402


def counts(argv, corpus=stateful_corpus12) -> None:
    """The compiles table: per program and backend, compiles / recompiles (target)."""
    programs = [p for p in corpus.PROGRAMS if not argv or p.name in argv]
    print("| program | target | " + " | ".join(f"{b} compiles | {b} recompiles"
                                                for b in BACKENDS) + " |")
    print("|---|---:|" + "---:|---:|" * len(BACKENDS))
    for p in programs:
        cols = [p.name, str(p.recompiles)]
        for b in BACKENDS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _, report = _measured(p, b)
            later = [r for r in report.recompiles if r.call >= 1]
            cols += [str(report.compile_count), str(len(later))]
        print("| " + " | ".join(cols) + " |", flush=True)


def run(args, corpus=stateful_corpus12, calls=CALLS) -> None:
    """The compiles table (``--counts``) or the timings of ``corpus`` (also
    ``bench_stateful_corpus13.py``'s)."""
    if "--counts" in args:
        counts([a for a in args if a != "--counts"], corpus)
    else:
        main(args, corpus, ("first ms", lambda t: t[0]), calls)


if __name__ == "__main__":
    run(sys.argv[1:])
