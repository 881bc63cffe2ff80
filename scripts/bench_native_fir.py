"""The FIR filter and the LMS adaptive filter of the real-world corpora (#15/#23: their
tier-2 kernels lost their races, x0.24 and x0.28) at the benchmark's sizes: plain
NumPy, tier 1 (``prefer="tier1"``) and tier 2 (``prefer="native"``, from the second
call) interleaved in one process, best of ``--rounds`` calls each, by CPU time and by
wall time, on Numba's threads or on one (``--threads 1``: ``NUMBA_NUM_THREADS=1``
set before Numba is imported, so tier 2 is the parallel kernel on one thread).

Only public entry points and the backend's own options are used, so that the script
runs unchanged on an older tree (``PYTHONPATH=/copy/of/the/tree``) for a side-by-side
comparison of a change to the kernels (``emitter.row_flag``: 2026-12-05).

Example::

    $ .venv/bin/python scripts/bench_native_fir.py --threads 1
    FIR direct form by slices  plain 2.31 ms  tier 1 2.18 ms  tier 2 1.41 ms  (CPU; wall ...)
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=0, help="NUMBA_NUM_THREADS (0: Numba's)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--filter", default="FIR|LMS", help="programs whose name matches")
    args = ap.parse_args()
    if args.threads:
        os.environ["NUMBA_NUM_THREADS"] = str(args.threads)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import re
    import warnings

    import bench_realworld as bench  # (scripts/ is on sys.path)
    from dynamo.backends.native.backend import native_backend
    from dynamo.backends.native.tier import Tiered

    import dynamo

    for name, fn, fargs, kwargs in bench.corpus("all"):
        if not re.search(args.filter, name):
            continue
        made: list = []

        def variant(prefer, _made=made, _fn=fn):
            def backend(graph, example_inputs):
                out = native_backend(graph, example_inputs, {
                    "after_calls": 1, "background": False, "prefer": prefer,
                    "cache": False})
                _made.append(out)
                return out
            return dynamo.compile(_fn, backend=backend)

        runs = {"plain": fn, "tier 1": variant("tier1"), "tier 2": variant("native")}
        best = {k: [float("inf"), float("inf")] for k in runs}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for f in runs.values():   # compile, and tier 2's kernel
                for _ in range(2):
                    f(*copy.deepcopy(fargs), **kwargs)
            for _ in range(args.rounds):
                for k, f in runs.items():
                    a = copy.deepcopy(fargs)
                    c0, w0 = time.process_time(), time.perf_counter()
                    f(*a, **kwargs)
                    c1, w1 = time.process_time(), time.perf_counter()
                    best[k][0] = min(best[k][0], c1 - c0)
                    best[k][1] = min(best[k][1], w1 - w0)
        native = sum(m.native_calls for m in made if isinstance(m, Tiered))
        cells = "  ".join(f"{k} {v[0] * 1e3:.2f} ms" for k, v in best.items())
        walls = ", ".join(f"{v[1] * 1e3:.2f}" for v in best.values())
        print(f"{name}  {cells}  (CPU; wall {walls}; tier-2 calls {native}; "
              f"load {os.getloadavg()[0]:.1f})")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
