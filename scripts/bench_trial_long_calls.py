"""The entry trial on real-world programs of milliseconds: plain, compiled with the trial
off and compiled with it on (numpy backend, or ``--backend``), side by side.

    python scripts/bench_trial_long_calls.py [--corpus 14] [--calls 24] [--rounds 5]
        [--filter NAME] [--backend numpy] [--cpu]

Each program (``bench_realworld.corpus``) is compiled twice (``config.entry_trial_calls``
0 and its default, read when compiled), and each compiled function called ``--calls``
times on fresh copies of its inputs (the trial decides in those calls); then the three
are timed interleaved, ``--rounds`` rounds of one call each on fresh inputs, and the
least wall time of each is kept. The table: ms per call, the ratios plain / compiled,
and which way the trial left in the function's call slot (``compiled``, ``plain`` or
``trial`` where it has not decided yet). The machine is shared: ratios within 5% are ties.
``--cpu`` times the process's CPU time instead of wall time (all its threads together:
fair to plain, a little against a compiled way that runs on two threads), for a machine
so loaded that wall times mostly measure the wait for a core.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

import dynamo
from dynamo import entry_trial

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_realworld  # noqa: E402


def way_of(compiled) -> str:
    """Which way the trial left in ``compiled``'s call slot."""
    call = compiled.__call__
    if isinstance(call, entry_trial.EntryTrial):
        return "trial"
    code = getattr(call, "__code__", None)
    return "plain" if code is not None and "plain way" in code.co_filename else "compiled"


def least_times(ways: dict, args, kwargs, rounds: int, clock=time.perf_counter) -> dict:
    best = {name: math.inf for name in ways}
    for _ in range(rounds):
        for name, fn in ways.items():
            a = bench_realworld._fresh(args)
            start = clock()
            fn(*a, **kwargs)
            best[name] = min(best[name], clock() - start)
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="14")
    ap.add_argument("--calls", type=int, default=24)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--filter", default="")
    ap.add_argument("--backend", default="numpy", help="the backend compiled with (numpy, auto)")
    ap.add_argument("--cpu", action="store_true", help="CPU time of the process, not wall time")
    opts = ap.parse_args(argv)
    default = dynamo.config.entry_trial_calls
    ratios = {"off": [], "on": []}
    print(f"{'program':40s} {'plain ms':>9s} {'off':>6s} {'on':>6s}  way")
    for name, fn, args, kwargs in bench_realworld.corpus(opts.corpus):
        if opts.filter.lower() not in name.lower():
            continue
        compiled = {}
        for key, calls in (("off", 0), ("on", default)):
            dynamo.config.entry_trial_calls = calls
            compiled[key] = dynamo.compile(fn, backend=opts.backend)
        dynamo.config.entry_trial_calls = default
        for g in compiled.values():
            for _ in range(opts.calls):
                g(*bench_realworld._fresh(args), **kwargs)
        best = least_times({"plain": fn, **compiled}, args, kwargs, opts.rounds,
                           time.process_time if opts.cpu else time.perf_counter)
        row = {k: best["plain"] / best[k] for k in ("off", "on")}
        for k, v in row.items():
            ratios[k].append(v)
        print(f"{name[:40]:40s} {best['plain'] * 1e3:9.2f} {row['off']:6.2f} "
              f"{row['on']:6.2f}  {way_of(compiled['on'])}", flush=True)
        dynamo.reset()
    for k, v in ratios.items():
        if v:
            print(f"geomean {k}: {math.exp(sum(map(math.log, v)) / len(v)):.3f} "
                  f"({sum(r < 0.95 for r in v)} of {len(v)} below 0.95x)")


if __name__ == "__main__":
    main()
