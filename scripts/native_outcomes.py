"""What became of each graph ``backend="auto"`` made, program by program, over the
real-world corpora of ``scripts/bench_realworld.py`` at its sizes (issues #15, #23).

Where ``scripts/native_coverage.py`` asks only whether the lowering takes a graph,
this script runs auto the way the benchmark does (calls until every graph sent to
the native tier has decided) and reads the ``backend`` log channel (a
``logging.Handler``: nothing of the project is replaced) for each graph's fate:

- ``not sent``: auto gave the graph to another backend (no NumPy array in it...);
- ``refused: REASON``: the lowering has no loop nest for an op or a form of it (the
  first one it met; ``op 'cumsum' is not lowered`` folds to ``cumsum``);
- ``never hot``: lowered, but not called often enough (10 calls or 50 ms) in the
  warm-up to be compiled;
- ``undecided``: compiled, its race not over when the warm-up stopped;
- ``no compile`` / ``could not run``: Numba rejected the kernel / tier 2 never took
  the inputs; ``compile timed out``: its compile in a child process ran past
  ``compile_timeout_s`` and was killed;
- ``won x2.50 (CPU x2.40)`` / ``lost x0.80 (CPU x0.70)``: the race, tier 1's best
  call over tier 2's (best of 3 calls each) by wall time and by CPU time (> 1: tier 2
  is faster; tier 2 must win by both, a parallel kernel by wall time: docs/native.md).

    .venv/bin/python scripts/native_outcomes.py --corpus 6          # one corpus, raced
    .venv/bin/python scripts/native_outcomes.py --lower-only        # every corpus, no Numba
    .venv/bin/python scripts/native_outcomes.py --filter heat --graphs

``--lower-only`` keeps tier 2 from compiling (``prefer="tier1"``) and calls each
program twice: a lowered graph then shows as ``lowered``; a survey of every corpus
in a few minutes. Example (``--lower-only --corpus 6``, first lines)::

    corpus 6: 48 programs, 56 graphs
       39  lowered
        2  refused: a SymArg constant passed to NumPy
        2  refused: rfft
      ...
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import logging
import re
import tempfile
import time
import warnings

import bench_realworld as bench  # noqa: E402  (siblings: scripts/ is on sys.path)

import dynamo  # noqa: E402

_RACE = re.compile(r"native tier: graph (g\d+) runs in tier (\d) .*?\(tier 2 ([\d.]+) ms, "
                   r"([\d.]+) ms of CPU.*?tier 1 ([\d.]+) ms, ([\d.]+) ms of CPU")


def fold(reason: str) -> str:
    """The first line of a refusal, op names folded: ``op 'matmul' is not lowered`` ->
    ``matmul``."""
    reason = reason.splitlines()[0]
    m = re.match(r"op '(\w+)' is not lowered", reason)
    return m.group(1) if m else reason[:90]


class Outcomes(logging.Handler):
    """Follows the ``backend`` log channel while one program runs: ``graphs`` is one
    entry per graph auto compiled, ``[outcome, tier-2 name or None]``, in order."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.graphs: list[list] = []
        self.by_name: dict[str, list] = {}

    def emit(self, record):
        msg = record.getMessage()
        if msg.startswith("backend auto: graph"):
            backend = msg.rpartition("-> ")[2].strip("'")
            self.graphs.append(["sent" if backend == "native"
                                else f"not sent ({backend})", None])
        elif msg.startswith("native tier: graph stays in tier 1: ") and self.graphs:
            self.graphs[-1][0] = "refused: " + fold(msg.partition("tier 1: ")[2])
        elif (m := re.match(r"native tier: graph (g\d+) lowered", msg)) and self.graphs:
            self.graphs[-1][:] = ["never hot", m.group(1)]
            self.by_name[m.group(1)] = self.graphs[-1]
        elif m := re.match(r"native tier: graph (g\d+) (compiled by Numba|loaded)", msg):
            entry = self.by_name.get(m.group(1))
            if entry and entry[0] == "never hot":
                entry[0] = "undecided"
        elif m := re.match(r"native tier: Numba could not compile graph (g\d+)", msg):
            if entry := self.by_name.get(m.group(1)):
                entry[0] = "no compile"
        elif m := _RACE.match(msg):
            if entry := self.by_name.get(m.group(1)):
                t2, c2, t1, c1 = (max(float(m.group(k)), 1e-6) for k in (3, 4, 5, 6))
                entry[0] = (f"{'won' if m.group(2) == '2' else 'lost'} x{t1 / t2:.2f} "
                            f"(CPU x{c1 / c2:.2f})")
        elif m := re.match(r"native tier: graph (g\d+) stays in tier 1: its compile in "
                           r"a child process ran past", msg):
            if entry := self.by_name.get(m.group(1)):
                entry[0] = "compile timed out"
        elif m := re.match(r"native tier: graph (g\d+) stays in tier 1 \(tier 2 could", msg):
            if entry := self.by_name.get(m.group(1)):
                entry[0] = "could not run"

    @property
    def pending(self) -> int:
        return sum(g[0] in ("never hot", "undecided", "sent") for g in self.graphs)

    def __enter__(self):
        log = logging.getLogger("dynamo.backend")
        self._level = log.level
        log.setLevel(logging.DEBUG)
        log.addHandler(self)
        return self

    def __exit__(self, *exc):
        log = logging.getLogger("dynamo.backend")
        log.removeHandler(self)
        log.setLevel(self._level)


def run_program(fn, args, kwargs, options: dict, max_s: float, calls: int | None) -> list:
    """[outcome] for each graph auto made for ``fn``: ``calls`` calls, or (None) calls
    until none is pending twice in a row (at most ``max_s`` seconds)."""
    bench._quiesce(max_s)
    dynamo.reset()
    with Outcomes() as out, warnings.catch_warnings(), \
            contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        f = dynamo.compile(fn, backend="auto", options=options)
        start, n, settled = time.perf_counter(), 0, 0
        try:
            while (n < calls) if calls else (settled < 2 and
                                             time.perf_counter() - start < max_s):
                f(*bench._fresh(args), **kwargs)
                n += 1
                settled = settled + 1 if out.pending == 0 else 0
                if out.pending and not calls:
                    time.sleep(0.02)     # the compile thread's turn
        except Exception as exc:  # noqa: BLE001 (a survey: the program's own error)
            out.graphs.append([f"program raised {type(exc).__name__}", None])
    return [g[0] for g in out.graphs]


def kind(outcome: str) -> str:
    """The outcome without its ratio (``won x2.50`` -> ``won``), for the summary."""
    return outcome.split(" x")[0] if outcome.startswith(("won", "lost")) else outcome


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", choices=("all", "1", "2", "3", "4", "5", "6"), default="all")
    ap.add_argument("--filter", default="", help="programs whose name contains this")
    ap.add_argument("--lower-only", action="store_true",
                    help="no Numba: which graphs lower, two calls a program")
    ap.add_argument("--graphs", action="store_true", help="one line per program")
    ap.add_argument("--max-warmup", type=float, default=60.0, metavar="SECONDS")
    a = ap.parse_args()
    options = {"prefer": "tier1"} if a.lower_only else \
        {"cache_dir": tempfile.mkdtemp(prefix="dynamo-native-")}
    corpora = ("1", "2", "3", "4", "5", "6") if a.corpus == "all" else (a.corpus,)
    total: collections.Counter = collections.Counter()
    lost: list = []
    for c in corpora:
        programs = [p for p in bench.corpus(c) if a.filter.lower() in p[0].lower()]
        counts: collections.Counter = collections.Counter()
        lines = []
        for name, fn, args, kwargs in programs:
            outs = run_program(fn, args, kwargs, options, a.max_warmup,
                               2 if a.lower_only else None)
            if a.lower_only:
                outs = ["lowered" if o in ("never hot", "undecided") else o for o in outs]
            counts.update(kind(o) for o in outs)
            lost += [(float(o.split("x")[1].split()[0]), name, o) for o in outs
                     if o.startswith("lost")]
            lines.append(f"    {name}: {', '.join(outs) or 'no graph'}")
            if a.graphs:   # as each program ends (a corpus takes minutes)
                print(lines[-1], flush=True)
        print(f"corpus {c}: {len(programs)} programs, {sum(counts.values())} graphs",
              flush=True)
        for outcome, n in counts.most_common():
            print(f"  {n:3d}  {outcome}")
        total.update(counts)
    if len(corpora) > 1:
        print(f"all corpora: {sum(total.values())} graphs")
        for outcome, n in total.most_common():
            print(f"  {n:3d}  {outcome}")
    if lost:
        print("lost races (tier 1 / tier 2 time, closest first): " + "; ".join(
            f"{name} {o[5:]}" for _, name, o in sorted(lost, reverse=True)))


if __name__ == "__main__":
    main()
