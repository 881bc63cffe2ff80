"""Per-call CPU time of issue #16's tenth stateful corpus after its second call,
compiled against plain Python, with the compiles each program took (as
``bench_stateful_corpus9.py`` times the ninth: its ``timed_run``, the same columns).

    python scripts/bench_stateful_corpus10.py [--rounds 3] [PROGRAM...]

Each round runs every program's scenario (10 calls of one shape, then one of a new
shape) plainly and compiled on each CPU backend, interleaved, each compiled run from a
fresh ``dynamo.reset()``; "us/call" is the median over rounds of the median CPU time
(``time.process_time``) of calls 3-10, "mean" the median of their mean (a recompile
among them counted in), "new shape" the last call's. Ratios are plain / compiled.

Example::

    $ python scripts/bench_stateful_corpus10.py --rounds 3 pid_controller
"""

from __future__ import annotations

import os
import statistics
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
# the package first, then the corpus (``tests/realworld``, never ``tests/`` itself)
sys.path[:0] = [os.path.dirname(HERE), os.path.join(os.path.dirname(HERE), "tests", "realworld")]

import stateful_corpus10  # noqa: E402
from bench_stateful_corpus9 import BACKENDS, timed_run  # noqa: E402  (a sibling script)
from stateful_corpus10_data import CALLS  # noqa: E402


def main(argv, corpus=stateful_corpus10, last=("new shape ms", lambda t: t[-1]),
         calls=CALLS):
    """The table for ``corpus`` (a module with ``PROGRAMS``); ``last``: the label and the
    pick of the last column (corpus 11 shows the first call instead); ``calls``: the
    calls of one shape each scenario makes (corpus 12: 20)."""
    rounds = 3
    if "--rounds" in argv:
        at = argv.index("--rounds")
        rounds = int(argv[at + 1])
        del argv[at:at + 2]
    programs = [p for p in corpus.PROGRAMS if not argv or p.name in argv]
    kinds = [None, *BACKENDS]
    runs = {(p.name, k): [] for p in programs for k in kinds}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            for p in programs:
                for k in kinds:
                    runs[p.name, k].append(timed_run(p, k))

    def med(name, k, pick):
        return statistics.median(pick(t) for t in runs[name, k])

    print("| program | plain us/call | " + " | ".join(
        f"{b} us/call | plain/{b} | {b} mean us | {b} {last[0]}" for b in BACKENDS) + " |")
    print("|---|---:|" + "---:|---:|---:|---:|" * len(BACKENDS))
    ratios = {b: [] for b in BACKENDS}
    for p in programs:
        plain = med(p.name, None, lambda t: statistics.median(t[2:calls])) * 1e6
        cols = [p.name, f"{plain:.1f}"]
        for b in BACKENDS:
            got = med(p.name, b, lambda t: statistics.median(t[2:calls])) * 1e6
            ratios[b].append(plain / got)
            cols += [f"{got:.1f}", f"{plain / got:.2f}x",
                     f"{med(p.name, b, lambda t: statistics.mean(t[2:calls])) * 1e6:.0f}",
                     f"{med(p.name, b, last[1]) * 1e3:.1f}"]
        print("| " + " | ".join(cols) + " |")
    for b in BACKENDS:
        r = ratios[b]
        print(f"{b}: geometric mean plain/compiled {statistics.geometric_mean(r):.2f}x; at "
              f"least as fast (>= 0.95x) {sum(x >= 0.95 for x in r)} of {len(r)}; under "
              f"0.8x {sum(x < 0.8 for x in r)}")


if __name__ == "__main__":
    main(sys.argv[1:])
