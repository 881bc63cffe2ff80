"""Issue #16's fifteenth stateful corpus: per program, the compiles and recompiles over
its 20 calls of one shape (``--counts``: ``dynamo.explain``, as
``test_stateful_corpus15.py`` counts them), or the per-call CPU time compiled against
plain Python and, with ``--before ROOT``, against another checkout's compiled code,
interleaved (``bench_stateful_corpus14.py``'s table).

    python scripts/bench_stateful_corpus15.py --counts [PROGRAM...]
    python scripts/bench_stateful_corpus15.py [--rounds 3] [--before ROOT] [PROGRAM...]

For timing, each scenario runs 200 calls (its inputs repeated with a small offset per
repeat, ``long_inputs``: shapes, int labels and ranges stay), so the table shows calls
3-20 and calls 101-200 (the steady state, after any recompiles and the entry trial's
choice). Each round runs every program plainly and compiled on each CPU backend (and
in the other tree), one after the other; a call's time is its CPU time
(``time.process_time``); each column is the median over rounds of the median over the
window. Ratios are plain / compiled.

Example::

    $ python scripts/bench_stateful_corpus15.py --counts
    $ mkdir /tmp/base && git archive HEAD | tar -x -C /tmp/base
    $ python scripts/bench_stateful_corpus15.py --rounds 3 --before /tmp/base
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "realworld")]

import bench_stateful_corpus14 as timing  # noqa: E402  (a sibling script: the same table)
import stateful_corpus15  # noqa: E402
import stateful_corpus15_more  # noqa: E402
from bench_stateful_corpus12 import counts  # noqa: E402

LONG = 200


def long_inputs(n=LONG) -> None:
    """The corpus's input lists, ``n`` long, in both of its modules: each repeated with
    a small offset per repeat (the int labels repeated as they are)."""
    c = len(stateful_corpus15.XS)
    xs = [stateful_corpus15.XS[i % c] + 0.01 * (i // c) for i in range(n)]
    gs = [stateful_corpus15.GS[i % c] * (1.0 + 0.01 * (i // c)) for i in range(n)]
    targets = [stateful_corpus15.TARGETS[i % c] + 0.01 * (i // c) for i in range(n)]
    labels = [stateful_corpus15.LABELS[i % c] for i in range(n)]
    prices = [stateful_corpus15_more.PRICES[i % c] + 0.5 * (i // c) for i in range(n)]
    for module in (stateful_corpus15, stateful_corpus15_more):
        module.XS, module.GS, module.TARGETS, module.LABELS = xs, gs, targets, labels
    stateful_corpus15_more.PRICES = prices


def programs():
    long_inputs()
    return {p.name: p for p in stateful_corpus15.PROGRAMS}


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--counts" in args:
        counts([a for a in args if a != "--counts"], stateful_corpus15)
    else:
        timing.main(args, programs, __file__)
