"""The first calls of a program under ``backend="auto"`` against ``backend="numpy"``,
while the native tier compiles its kernels in the background (issues #15, #23).

For each program (a name of ``scripts/bench_realworld.py``'s corpora, by substring),
each backend runs in a process of its own (a fresh Numba, a fresh disk cache): the
first call, the next ``--calls`` calls one by one (wall time), and for auto the
compile times and race outcomes read from the ``backend`` log channel (a
``logging.Handler``: nothing of the project is replaced). A tier-1 call that runs
while Numba compiles in the background thread waits for the GIL: this script shows
how much.

    .venv/bin/python scripts/bench_native_first_calls.py --filter Nesterov
    .venv/bin/python scripts/bench_native_first_calls.py --filter Nesterov --calls 20
    .venv/bin/python scripts/bench_native_first_calls.py --filter CGNR --backends auto

``--backends`` (default ``numpy,auto-old,auto``): ``auto-nolimit`` is auto with
``max_kernel_lines=0``, every lowered kernel compiled whatever its size (as before
``backends/native/compile_cost.py``); ``auto-thread`` with ``compile_process=False``,
Numba's compile in the tier's thread (as before ``backends/native/child_compile.py``);
``auto-old`` both.

Example output (2026-12-05, load 2-3; one line per backend, then the sums of each 10
calls, wall ms)::

    Nesterov on least squares  auto-nolimit first 264.0 ms (CPU 174.1)  next 400: sum 11768.3 ms ...
          per 10 calls (ms): 111 160 265 151 277 202 234 208 227 232 314 214 ...
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
import warnings


def _child(name: str, backend: str, calls: int, cache_dir: str) -> dict:
    import bench_realworld as bench  # (scripts/ is on sys.path)

    import dynamo

    prog = [p for p in bench.corpus() if name.lower() in p[0].lower()][0]
    _, fn, args, kwargs = prog
    lines: list[str] = []

    class Log(logging.Handler):
        def emit(self, record):
            first = record.getMessage().splitlines()[0][:200]
            lines.append(f"{time.perf_counter() - t0:7.3f}s {first}")

    log = logging.getLogger("dynamo.backend")
    log.setLevel(logging.DEBUG)
    log.addHandler(Log())
    warnings.simplefilter("ignore")
    # "auto-nolimit": auto with no limit on the kernels' size (as before compile_cost.py)
    options = {"cache_dir": cache_dir} if backend.startswith("auto") else {}
    if backend in ("auto-nolimit", "auto-old"):
        options["max_kernel_lines"] = 0
    if backend in ("auto-thread", "auto-old"):
        options["compile_process"] = False
    f = dynamo.compile(fn, backend=backend.partition("-")[0], options=options)
    inputs = [bench._fresh(args) for _ in range(calls + 1)]
    t0 = time.perf_counter()
    times, cpu = [], []
    for a in inputs:
        s, c = time.perf_counter(), time.process_time()
        f(*a, **kwargs)
        times.append((time.perf_counter() - s) * 1e3)
        cpu.append((time.process_time() - c) * 1e3)
    return {"name": prog[0], "times": times, "cpu": cpu, "log": lines,
            "total": (time.perf_counter() - t0) * 1e3}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--filter", action="append", required=True)
    p.add_argument("--calls", type=int, default=10)
    p.add_argument("--backends", default="numpy,auto-old,auto")
    p.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    p.add_argument("--show-log", action="store_true")
    a = p.parse_args()
    if a.child:
        print(json.dumps(_child(a.child[0], a.child[1], a.calls, a.child[2])))
        return
    print(f"load {os.getloadavg()[0]:.2f}")
    for name in a.filter:
        for backend in a.backends.split(","):
            with tempfile.TemporaryDirectory() as cache:
                out = subprocess.run(
                    [sys.executable, __file__, "--filter", name, "--calls", str(a.calls),
                     "--child", name, backend, cache], capture_output=True, text=True,
                    cwd=os.path.dirname(os.path.abspath(__file__)))
            try:
                r = json.loads(out.stdout.strip().splitlines()[-1])
            except (IndexError, json.JSONDecodeError):
                print(out.stdout[-2000:], out.stderr[-3000:])
                continue
            t = r["times"]
            print(f"{r['name']:32s} {backend:6s} first {t[0]:8.1f} ms "
                  f"(CPU {r['cpu'][0]:7.1f})  next {len(t) - 1}: sum {sum(t[1:]):8.1f} ms "
                  f"max {max(t[1:]):7.1f} min {min(t[1:]):6.1f}  "
                  f"(CPU sum {sum(r['cpu'][1:]):7.1f})  load {os.getloadavg()[0]:.2f}")
            w = [sum(t[k:k + 10]) for k in range(1, len(t), 10)]
            print("      per 10 calls (ms):", " ".join(f"{x:.0f}" for x in w))
            print(f"      all {len(t)} calls: {r['total']:.0f} ms")
            for line in r["log"] if a.show_log else [x for x in r["log"] if
                                                     "compiled" in x or "runs in" in x
                                                     or "loaded" in x or "could not" in x]:
                print("      ", line)


if __name__ == "__main__":
    main()
