"""A new process with a warm disk cache: which call tier 2 answers first, per-call times
(the ``native`` section of docs/benchmarks.md, "the warm cache's second call").

Fills a cache with Jacobi's kernel (500x500, 10 steps; ``scripts/bench_native.py``),
then runs fresh processes in turn, ``before`` (no call waits for the process's first
load: ``cache_load="background"``, which is the path ``"auto"`` took before 2026-12-04)
and ``after`` (the default ``cache_load="auto"``: the second call waits), each calling
the compiled function ``--calls`` times on fresh copies. Example::

    $ .venv/bin/python scripts/bench_native_warm_cache.py --calls 200 --runs 2
    before: call1 266.0 ms, call2 37.3 ms, first tier-2 call #51, tier-2 calls 147/200, ...
    after: call1 320.8 ms, call2 3846.4 ms, first tier-2 call #2, tier-2 calls 196/200, ...

The trial that follows the wait races a parallel kernel on all threads and on one
(``race.py``); at load 3-6 its calls on all threads took 80-242 ms each (2026-12-04 22:37),
which ``calls 3-10`` shows.
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def child(cache: str, mode: str, calls: int) -> str:
    """One process's calls (run with ``--child``); returns its line."""
    t0, c0 = time.perf_counter(), time.process_time()
    sys.path[:0] = [str(_HERE), str(_HERE.parent / "tests" / "shared")]
    import numpy as np
    from bench_native import jacobi

    import dynamo
    opts = {"cache_dir": cache}
    if mode == "before":
        opts["cache_load"] = "background"
    if mode == "fill":
        opts.update(after_calls=1, background=False, prefer="native")
    c = dynamo.compile(jacobi, backend="native", options=opts)
    g = np.random.default_rng(0).random((500, 500))
    times, native, tiered = [], [], None
    for _ in range(calls):
        a, b = g.copy(), g.copy()
        start = time.perf_counter()
        c(a, b)
        times.append(time.perf_counter() - start)
        if tiered is None:   # (the graph's compiled function: made by the first call)
            tiered = next(o for o in gc.get_objects() if type(o).__name__ == "Tiered")
        native.append(tiered.native_calls)
    first = next((i + 1 for i, n in enumerate(native) if n > (native[i - 1] if i else 0)),
                 None)
    return (f"{mode}: call1 {times[0] * 1e3:.1f} ms, call2 {times[1] * 1e3:.1f} ms, "
            f"first tier-2 call #{first}, tier-2 calls {native[-1]}/{calls}, "
            f"all calls {sum(times) * 1e3:.0f} ms, process {time.perf_counter() - t0:.2f} s "
            f"wall {time.process_time() - c0:.2f} s CPU, calls 3-10 (the trial, where it "
            f"follows the wait) {sum(times[2:10]) * 1e3:.0f} ms, kept {tiered.winner} "
            f"on {'one thread' if tiered.threads == 1 else 'all threads'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--runs", type=int, default=2, help="before/after pairs")
    ap.add_argument("--child", nargs=2, metavar=("CACHE", "MODE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(child(args.child[0], args.child[1], max(args.calls, 2)))
        return 0
    with tempfile.TemporaryDirectory() as cache:
        for mode in ["fill"] + ["before", "after"] * args.runs:
            out = subprocess.run([sys.executable, __file__, "--child", cache, mode,
                                  "--calls", str(3 if mode == "fill" else args.calls)],
                                 capture_output=True, text=True, check=True)
            print(out.stdout.strip(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
