"""What ``runtime.alone`` costs a flat pass with gaps (#17): the check asked once per
call of an in-place window update (``flat_updates.py``), against the check before the
signal handlers and ``sys.monitoring`` tools were asked (copied here as ``before``),
its two new parts, and the compiled update it guards (``u[1:-1, 1:-1] += 0.1 * (...)``,
``--size`` square) and the same update run plainly, interleaved in one process, each
figure the lower quartile of ``--rounds`` timed batches.

Example::

    $ .venv/bin/python scripts/bench_alone.py --rounds 15
    alone (before)            0.45 us
    alone (now)               1.9 us
    ...
"""

from __future__ import annotations

import _thread
import argparse
import statistics
import sys
import threading
import time

import numpy as np
from dynamo.backends.numpy_backend import program_hooks, runtime

import dynamo
from dynamo import pyversion


def before() -> bool:
    """``runtime.alone`` as it was (threads, trace and profile functions only)."""
    others = 1 + len(runtime._POOL._queues)
    return (sys.gettrace() is None and sys.getprofile() is None
            and threading.active_count() == others and _thread._count() + 1 == others
            and len(sys._current_frames()) == others)


def update(u, v):
    u[1:-1, 1:-1] += 0.1 * (v[:-2, 1:-1] + v[2:, 1:-1] - 2.0 * v[1:-1, 1:-1])
    return u


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--size", type=int, default=200)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    u, v = rng.random((args.size, args.size)), rng.random((args.size, args.size))
    compiled = dynamo.compile(update, backend="numpy")
    compiled(u, v)
    checks = {"alone (before)": (before, 20000), "alone (now)": (runtime.alone, 20000),
              "signal handlers": (program_hooks.no_python_signal_handler, 20000),
              "monitoring tools": (pyversion.monitoring_tool_in_use, 20000),
              "update compiled": (lambda: compiled(u, v), 200),
              "update plain": (lambda: update(u, v), 200)}
    times = {name: [] for name in checks}
    for _ in range(args.rounds):
        for name, (fn, n) in checks.items():
            t = time.perf_counter()
            for _ in range(n):
                fn()
            times[name].append((time.perf_counter() - t) / n * 1e6)
    for name, ts in times.items():
        low = statistics.quantiles(ts, n=4, method="inclusive")[0]
        print(f"{name:24s} {low:8.2f} us")


if __name__ == "__main__":
    main()
