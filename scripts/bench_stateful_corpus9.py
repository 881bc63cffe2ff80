"""Per-call CPU time of issue #16's ninth stateful corpus after its second call, compiled
against plain Python (the issue's "at least as fast as plain NumPy per call after the
first two calls"), with the compiles each program took.

    python scripts/bench_stateful_corpus9.py [--rounds 5] [PROGRAM...]

Each round runs every program's scenario (10 calls of one shape, then one of a new
shape) plainly and compiled on each CPU backend, interleaved, each compiled run from a
fresh ``dynamo.reset()``; a call's time is this thread's CPU time
(``time.process_time``). "us/call" is the median over rounds of the median time of
calls 3-10 (the same shapes: a call that hits an entry); "mean" the median over rounds
of their mean (a recompile among them counted in); "new shape" the last call's (its
compile included). Ratios are plain / compiled (above 1: faster).

Example::

    $ python scripts/bench_stateful_corpus9.py --rounds 3 welford_object
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# the package first, then the corpus (``tests/realworld``, never ``tests/`` itself: its
# ``dynamo/`` test folder would shadow the package)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "realworld")]

import stateful_corpus9  # noqa: E402
from stateful_corpus9_data import CALLS  # noqa: E402

import dynamo  # noqa: E402

BACKENDS = [b for b in ("eager", "numpy") if b in dynamo.list_backends()]


def timed_run(prog, backend):
    """One run of ``prog``'s scenario: the CPU time of each call."""
    times = []

    def wrap(fn):
        f = fn if backend is None else dynamo.compile(fn, backend=backend)

        def call(*args, **kwargs):
            t0 = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                times.append(time.process_time() - t0)
        return call

    if backend is not None:
        dynamo.reset()
    prog.scenario(wrap)
    return times


def main(argv):
    rounds = 5
    if "--rounds" in argv:
        at = argv.index("--rounds")
        rounds = int(argv[at + 1])
        del argv[at:at + 2]
    names = set(argv)
    programs = [p for p in stateful_corpus9.PROGRAMS if not names or p.name in names]
    kinds = [None, *BACKENDS]
    after = {(p.name, k): [] for p in programs for k in kinds}
    mean = {(p.name, k): [] for p in programs for k in kinds}
    last = {(p.name, k): [] for p in programs for k in kinds}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            for p in programs:
                for k in kinds:
                    times = timed_run(p, k)
                    after[p.name, k].append(statistics.median(times[2:CALLS]))
                    mean[p.name, k].append(statistics.mean(times[2:CALLS]))
                    last[p.name, k].append(times[CALLS])
    head = ["program", "plain us/call"] + [f"{b} us/call" for b in BACKENDS] + \
        [f"plain/{b}" for b in BACKENDS] + [f"{b} mean us" for b in BACKENDS] + \
        [f"{b} new shape ms" for b in BACKENDS]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" + "---:|" * (len(head) - 1))
    ratios = {b: [] for b in BACKENDS}
    for p in programs:
        plain = statistics.median(after[p.name, None]) * 1e6
        cols = [p.name, f"{plain:.1f}"]
        got = {b: statistics.median(after[p.name, b]) * 1e6 for b in BACKENDS}
        cols += [f"{got[b]:.1f}" for b in BACKENDS]
        for b in BACKENDS:
            ratios[b].append(plain / got[b])
        cols += [f"{plain / got[b]:.2f}x" for b in BACKENDS]
        cols += [f"{statistics.median(mean[p.name, b]) * 1e6:.0f}" for b in BACKENDS]
        cols += [f"{statistics.median(last[p.name, b]) * 1e3:.1f}" for b in BACKENDS]
        print("| " + " | ".join(cols) + " |")
    for b in BACKENDS:
        r = ratios[b]
        gm = statistics.geometric_mean(r)
        print(f"{b}: geometric mean plain/compiled {gm:.2f}x; at least as fast (>= 0.95x) "
              f"{sum(x >= 0.95 for x in r)} of {len(r)}; under 0.8x {sum(x < 0.8 for x in r)}")


if __name__ == "__main__":
    main(sys.argv[1:])
