"""Per-call CPU time of issue #16's fourteenth stateful corpus (and of the four programs
of corpora 12 and 13 it was written for), compiled against plain Python and,
with ``--before ROOT``, against another checkout's compiled code, interleaved.

    python scripts/bench_stateful_corpus14.py [--rounds 3] [--before ROOT] [PROGRAM...]

Corpus 14's scenarios run 200 calls here (its inputs repeated with a changing offset,
``long_inputs``), so the table shows calls 3-20 and calls 101-200 (the steady state,
after any recompiles); the corpus 12 and 13 programs run their own 20 calls (calls
3-20 only). Each round runs every program plainly, compiled on each CPU backend and,
with ``--before``, compiled in the other tree (a child process, ``bench_stateful_corpus9``'s
``_Before``), one after the other; a call's time is its CPU time
(``time.process_time``); each column is the median over rounds of the median over
the window. Ratios are plain / compiled.

Example::

    $ mkdir /tmp/base && git archive HEAD | tar -x -C /tmp/base
    $ python scripts/bench_stateful_corpus14.py --rounds 3 --before /tmp/base
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "realworld")]

import stateful_corpus12  # noqa: E402
import stateful_corpus13  # noqa: E402
import stateful_corpus14  # noqa: E402
from bench_stateful_corpus9 import BACKENDS, _Before, _option, timed_run  # noqa: E402

LONG = 200
OTHERS = ("replay_ring_dict", "replay_sampled_by_counter", "beams_kept_across_calls",
          "gridworld_env_steps")


def long_inputs(module, n=LONG) -> None:
    """Corpus 14's input lists, ``n`` long: each repeated with a small offset per
    repeat (values keep changing, shapes and ranges stay: UNIFORM stays in [0, 1))."""
    c = module.CALLS
    module.XS = [module.XS[i % c] + 0.01 * (i // c) for i in range(n)]
    module.UNIFORM = [(module.UNIFORM[i % c] + 0.013 * (i // c)) % 1.0 for i in range(n)]
    module.REWARDS = [module.REWARDS[i % c] + 0.125 * (i // c) for i in range(n)]
    module.LOGPS = [module.LOGPS[i % c] - 0.01 * (i // c) for i in range(n)]


def programs():
    long_inputs(stateful_corpus14)
    others = [p for p in stateful_corpus12.PROGRAMS + stateful_corpus13.PROGRAMS
              if p.name in OTHERS]
    return {p.name: p for p in stateful_corpus14.PROGRAMS + others}


def _serve(load=programs):
    """The "before" side: for each line ``program backend``, one run's call times."""
    by_name = load()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for line in sys.stdin:
            name, backend = line.split()
            print(json.dumps(timed_run(by_name[name], backend)), flush=True)


def main(argv, load=programs, script=__file__):
    """The table of the programs ``load()`` gives by name (corpus 15's bench passes its
    own, and itself as the ``script`` the "before" child runs)."""
    if "--serve" in argv:
        return _serve(load)
    rounds = int(_option(argv, "--rounds", 3))
    root = _option(argv, "--before")
    before = _Before(root, script) if root else None
    by_name = load()
    names = [n for n in by_name if not argv or n in argv]
    kinds = [None, *BACKENDS] + ([f"before:{b}" for b in BACKENDS] if before else [])
    windows = {"3-20": (2, 20), "101-200": (100, 200)}
    got = {(n, k, w): [] for n in names for k in kinds for w in windows}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            for n in names:
                for k in kinds:
                    times = before(n, k[7:]) if k and k.startswith("before:") \
                        else timed_run(by_name[n], k)
                    for w, (a, b) in windows.items():
                        if len(times) >= b:
                            got[n, k, w].append(statistics.median(times[a:b]))
    if before is not None:
        before.close()
    shown = kinds[1:]
    for w in windows:
        print(f"\ncalls {w}: us/call (plain / compiled)")
        print("| program | plain | " + " | ".join(f"{b} | plain/{b}" for b in shown) + " |")
        print("|---|---:|" + "---:|---:|" * len(shown))
        ratios = {b: [] for b in shown}
        for n in names:
            if not got[n, None, w]:
                continue
            plain = statistics.median(got[n, None, w]) * 1e6
            cols = [n, f"{plain:.1f}"]
            for b in shown:
                t = statistics.median(got[n, b, w]) * 1e6
                ratios[b].append(plain / t)
                cols += [f"{t:.1f}", f"{plain / t:.2f}x"]
            print("| " + " | ".join(cols) + " |")
        for b in shown:
            print(f"{b}: geometric mean plain/compiled "
                  f"{statistics.geometric_mean(ratios[b]):.2f}x over {len(ratios[b])}")


if __name__ == "__main__":
    main(sys.argv[1:])
