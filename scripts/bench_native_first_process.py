"""A new process's time to tier 2, with an empty and with a warm disk cache (issue #23:
the empty-cache process's race waited for the one-thread twin's compile).

Each run is a fresh Python process that compiles Jacobi (500x500, 10 steps;
``scripts/bench_native.py``) with ``backend="native"`` and a disk cache, then calls it
on fresh copies until its race is decided and ``--after`` more calls have run, or
``--limit`` seconds have passed. ``cold``: an empty cache (the process compiles the
kernel, then its twin, each in a child process); ``warm``: a cache a process filled
before (``prefer="native"``: the kernel and its twin). Printed per process: the wall
time from the first call to the kernel's ready (compiled or loaded), to the first call
tier 2 answered, to the race's end (who won, on how many threads), to the twin's ready,
and the tier-2 calls of all. ``--root DIR`` runs the processes on another checkout
(``git archive`` of a commit with ``backends/`` and ``guards/`` copied into its
``dynamo/``), so ``--compare DIR`` interleaves before (DIR) and after (this tree, or
``--after-root``)::

    $ .venv/bin/python scripts/bench_native_first_process.py --compare /tmp/t7/base \
          --after-root /tmp/t7/after --runs 2
    before cold: ready 14.1 s, first tier-2 call 14.2 s (#410), race 38.5 s -> native ...
    after cold: ready 13.8 s, first tier-2 call 13.9 s (#401), race 13.9 s -> native ...
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def child(cache: str, mode: str, limit: float, after: int) -> str:
    """One process's calls (run with ``--child``); returns its line."""
    sys.path[:0] = [str(_HERE), str(_HERE.parent / "tests" / "shared")]
    import numpy as np
    from bench_native import jacobi

    import dynamo
    opts = {"cache_dir": cache}
    if mode == "fill":
        opts.update(after_calls=1, background=False, prefer="native")
    c = dynamo.compile(jacobi, backend="native", options=opts)
    g = np.random.default_rng(0).random((500, 500))
    tiered, marks, calls, native_before, left = None, {}, 0, 0, None
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < limit and (left is None or left > 0):
        c(g.copy(), g.copy())
        calls += 1
        now = time.perf_counter() - t0
        if tiered is None:   # (the graph's compiled function: made by the first call)
            tiered = next(o for o in gc.get_objects() if type(o).__name__ == "Tiered")
        if "ready" not in marks and tiered.ready.is_set():
            marks["ready"] = (now, calls)
        if "tier2" not in marks and tiered.native_calls > native_before:
            marks["tier2"] = (now, calls)
        native_before = tiered.native_calls
        if "twin" not in marks and tiered.twin.dispatcher is not None:
            marks["twin"] = (now, calls)
        if "race" not in marks and tiered.decided.is_set():
            marks["race"] = (now, calls)
            left = after
        elif left is not None:
            left -= 1
        if mode == "fill" and calls >= 3:
            break

    def at(key):
        return f"{marks[key][0]:.1f} s (#{marks[key][1]})" if key in marks else "never"
    kept = f"{tiered.winner} on {'one thread' if tiered.threads == 1 else 'all threads'}"
    return (f"{mode}: ready {at('ready')}, first tier-2 call {at('tier2')}, race "
            f"{at('race')} -> {kept}, twin {at('twin')}, tier-2 calls "
            f"{tiered.native_calls}/{calls}, {time.perf_counter() - t0:.1f} s wall, "
            f"{time.process_time() - c0:.1f} s CPU, load {os.getloadavg()[0]:.1f}")


def _run(root: str | None, cache: str, mode: str, a) -> str:
    cmd = [sys.executable, __file__, "--child", cache, mode, "--limit", str(a.limit),
           "--after", str(a.after)]
    if root:
        cmd[2:2] = ["--root", root]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        return f"{mode}: failed\n{out.stderr[-2000:]}"
    return out.stdout.strip()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds of calls at most")
    ap.add_argument("--after", type=int, default=20, help="calls after the race")
    ap.add_argument("--compare", help="a checkout to run 'before' from")
    ap.add_argument("--after-root", help="a checkout to run 'after' from (default: this "
                    "tree; a snapshot keeps others' half-done edits out of a long run)")
    ap.add_argument("--modes", default="cold,warm")
    ap.add_argument("--root", help=argparse.SUPPRESS)
    ap.add_argument("--child", nargs=2, metavar=("CACHE", "MODE"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(child(a.child[0], a.child[1], a.limit, a.after))
        return 0
    trees = [("before", a.compare), ("after", a.after_root)] if a.compare else \
        [("", a.after_root)]
    for _ in range(a.runs):
        for mode in a.modes.split(","):
            for label, root in trees:
                with tempfile.TemporaryDirectory() as cache:
                    if mode == "warm":
                        _run(root, cache, "fill", a)
                    line = _run(root, cache, mode, a)
                print(f"{label} {line}".strip(), flush=True)
    return 0


if __name__ == "__main__":
    _root = next((sys.argv[i + 1] for i, v in enumerate(sys.argv[:-1]) if v == "--root"),
                 None)
    if _root:   # (the editable install's finder would map dynamo to this tree)
        sys.meta_path[:] = [f for f in sys.meta_path
                            if "__editable__" not in getattr(f, "__module__", "")]
        sys.path.insert(0, _root)
    raise SystemExit(main())
