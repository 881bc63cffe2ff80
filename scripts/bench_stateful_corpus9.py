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

``--before ROOT`` adds the compiled columns of another checkout (a "before" tree, see
``run_in_tree.py``): a child process in that tree runs each compiled scenario when
asked, between this process's own runs of the same round, so both trees' columns are
interleaved round by round::

    $ mkdir /tmp/base && git archive HEAD | tar -x -C /tmp/base
    $ python scripts/bench_stateful_corpus9.py --rounds 5 --before /tmp/base
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
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


def _serve():
    """The "before" side (``--serve``): for each line ``program backend`` read, one
    compiled run's call times (a JSON list) on stdout."""
    by_name = {p.name: p for p in stateful_corpus9.PROGRAMS}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for line in sys.stdin:
            name, backend = line.split()
            print(json.dumps(timed_run(by_name[name], backend)), flush=True)


class _Before:
    """The child process running ``script``'s ``_serve`` (this file's by default) in
    the tree ``root``."""

    def __init__(self, root, script=__file__):
        self.child = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "run_in_tree.py"), root,
             os.path.abspath(script), "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def __call__(self, name, backend):
        self.child.stdin.write(f"{name} {backend}\n")
        self.child.stdin.flush()
        return json.loads(self.child.stdout.readline())

    def close(self):
        self.child.stdin.close()
        self.child.wait()


def _option(argv, flag, default=None):
    if flag not in argv:
        return default
    at = argv.index(flag)
    value = argv[at + 1]
    del argv[at:at + 2]
    return value


def main(argv):
    if "--serve" in argv:
        return _serve()
    rounds = int(_option(argv, "--rounds", 5))
    root = _option(argv, "--before")
    before = _Before(root) if root else None
    names = set(argv)
    programs = [p for p in stateful_corpus9.PROGRAMS if not names or p.name in names]
    kinds = [None, *BACKENDS] + ([f"before:{b}" for b in BACKENDS] if before else [])
    after = {(p.name, k): [] for p in programs for k in kinds}
    mean = {(p.name, k): [] for p in programs for k in kinds}
    last = {(p.name, k): [] for p in programs for k in kinds}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            for p in programs:
                for k in kinds:
                    times = before(p.name, k[7:]) if k and k.startswith("before:") \
                        else timed_run(p, k)
                    after[p.name, k].append(statistics.median(times[2:CALLS]))
                    mean[p.name, k].append(statistics.mean(times[2:CALLS]))
                    last[p.name, k].append(times[CALLS])
    if before is not None:
        before.close()
    shown = kinds[1:]
    head = ["program", "plain us/call"] + [f"{b} us/call" for b in shown] + \
        [f"plain/{b}" for b in shown] + [f"{b} mean us" for b in shown] + \
        [f"{b} new shape ms" for b in shown]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" + "---:|" * (len(head) - 1))
    ratios = {b: [] for b in shown}
    for p in programs:
        plain = statistics.median(after[p.name, None]) * 1e6
        cols = [p.name, f"{plain:.1f}"]
        got = {b: statistics.median(after[p.name, b]) * 1e6 for b in shown}
        cols += [f"{got[b]:.1f}" for b in shown]
        for b in shown:
            ratios[b].append(plain / got[b])
        cols += [f"{plain / got[b]:.2f}x" for b in shown]
        cols += [f"{statistics.median(mean[p.name, b]) * 1e6:.0f}" for b in shown]
        cols += [f"{statistics.median(last[p.name, b]) * 1e3:.1f}" for b in shown]
        print("| " + " | ".join(cols) + " |")
    for b in shown:
        r = ratios[b]
        gm = statistics.geometric_mean(r)
        print(f"{b}: geometric mean plain/compiled {gm:.2f}x; at least as fast (>= 0.95x) "
              f"{sum(x >= 0.95 for x in r)} of {len(r)}; under 0.8x {sum(x < 0.8 for x in r)}")


if __name__ == "__main__":
    main(sys.argv[1:])
