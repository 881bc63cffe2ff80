"""Demo: compile a small NumPy transformer block and show what dynamo captured.

    python scripts/demo.py                 # the default backend ("auto"); CuPy arrays
                                           # where a GPU is usable, else NumPy arrays
    python scripts/demo.py --backend eager # a backend by name: eager, numpy, native, ...

Prints the captured graph, the ``dynamo.explain`` report (graphs, breaks, guards), what
the backend chose (the ``backend`` log channel: on NumPy arrays ``auto`` runs the numpy
backend, and the native tier's Numba kernels where Numba is installed and they win their
race), then the plain (uncompiled) and compiled time per call, measured in interleaved
rounds, by wall time and by the process's CPU time.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "shared"))  # models

import models  # noqa: E402
from dynamo.backends import DEFAULT_BACKEND  # noqa: E402

import dynamo  # noqa: E402

# what the native tier logs once it has chosen a tier for a graph (docs/native.md)
DECIDED = (" runs in ", "stays in tier 1", "could not compile")


def gpu_arrays():
    """CuPy where a GPU is usable, else None (the CPU demo, on NumPy arrays)."""
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy
    except Exception:  # noqa: BLE001 (no CuPy or no GPU)
        pass
    return None


class Said(logging.Handler):
    """The ``backend`` channel's messages: which backend each graph got, and the tier."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    def decided(self) -> bool:
        return any(d in m for m in self.messages for d in DECIDED)


def sync(xp) -> None:
    if xp is not np:
        xp.cuda.Stream.null.synchronize()


def warm_up(compiled, x, xp, said: Said, seconds: float) -> tuple[int, float]:
    """Call ``compiled`` until the native tier has chosen its tier (logged), for at most
    ``seconds``; (calls, seconds taken). Tier 2 compiles in a background thread after
    10 calls, so timings taken before it has decided would time that compile too."""
    t0 = time.perf_counter()
    calls = 0
    while calls < 20 or (not said.decided() and any("-> 'native'" in m for m in said.messages)
                         and time.perf_counter() - t0 < seconds):
        compiled(x)
        calls += 1
    sync(xp)
    return calls, time.perf_counter() - t0


def interleaved(fns: dict, x, xp, rounds: int = 5, n: int = 20) -> dict:
    """Per call, in ``rounds`` rounds that alternate the functions (a load change hits
    both): {name: (median wall seconds, median CPU seconds)}."""
    times: dict = {name: ([], []) for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            c, t = time.process_time(), time.perf_counter()
            for _ in range(n):
                fn(x)
            sync(xp)
            times[name][0].append((time.perf_counter() - t) / n)
            times[name][1].append((time.process_time() - c) / n)
    return {name: (statistics.median(w), statistics.median(c))
            for name, (w, c) in times.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default=DEFAULT_BACKEND,
                    help=f"a backend name (see dynamo.list_backends()); default "
                         f"{DEFAULT_BACKEND!r}")
    ap.add_argument("--warmup", type=float, default=60.0, metavar="S",
                    help="at most this many seconds of calls before timing, while the "
                         "native tier compiles and races its kernel (default 60)")
    ap.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    ap.add_argument("--calls", type=int, default=20, help="calls a round (default 20)")
    args = ap.parse_args(argv)
    backend = args.backend
    gpu = gpu_arrays()
    # the GPU backends take CuPy arrays; auto takes either (cupy for CuPy arrays)
    xp = gpu if gpu is not None and backend in ("auto", "cupy", "cudagraphs") else np
    if backend in ("cupy", "cudagraphs") and xp is np:
        xp = __import__("cupy")      # asked for by name: its own error if it cannot run
    block, (x,) = models.make("transformer", xp)
    print(f"dynamo demo: a transformer block (64 tokens, width 256, 4 heads) on "
          f"{xp.__name__}, backend={backend!r}"
          f"{' (the default)' if backend == DEFAULT_BACKEND else ''}; backends here: "
          f"{dynamo.list_backends()}\n")

    said = Said()
    channel = logging.getLogger("dynamo.backend")
    channel.addHandler(said)
    channel.setLevel(logging.INFO)

    report = dynamo.explain(block, backend=backend)(x)
    print("=== captured graph ===")
    for graph in report.graphs:
        print(graph)
    print("=== explain report ===")
    print(report)
    said.messages.clear()

    compiled = dynamo.compile(block, backend=backend)
    t = time.perf_counter()
    y = compiled(x)
    sync(xp)
    first = time.perf_counter() - t
    ref = block(x)
    ok = bool(xp.allclose(y, ref, rtol=1e-4, atol=1e-5))
    calls, took = warm_up(compiled, x, xp, said, args.warmup)
    ok = ok and bool(xp.allclose(compiled(x), ref, rtol=1e-4, atol=1e-5))
    print("=== what the backend chose (the 'backend' log channel) ===")
    for m in said.messages or ["(nothing logged: a backend chosen by name)"]:
        print(m)
    if any("-> 'native'" in m for m in said.messages) and not said.decided():
        print(f"(the native tier had not chosen its tier after {calls} calls, {took:.1f} s: "
              "the timings below include its compile in the background)")
    timed = interleaved({"plain": block, "compiled": compiled}, x, xp, args.rounds,
                        args.calls)
    (plain, plain_cpu), (fast, fast_cpu) = timed["plain"], timed["compiled"]
    print(f"\n=== timings (median of {args.rounds} interleaved rounds of {args.calls} "
          "calls) ===")
    print(f"first compiled call (trace + compile + run): {first * 1e3:.2f} ms; then "
          f"{calls} warm-up calls in {took:.2f} s")
    print(f"plain {xp.__name__} per call: {plain * 1e3:8.3f} ms   ({plain_cpu * 1e3:.3f} ms "
          "of CPU)")
    print(f"compiled per call:     {fast * 1e3:8.3f} ms   ({fast_cpu * 1e3:.3f} ms of CPU)")
    print(f"speedup on {backend!r}: {plain / fast:.2f}x by wall time, "
          f"{plain_cpu / max(fast_cpu, 1e-9):.2f}x by CPU time (all of the process's "
          "threads)")
    print(f"compiled result equals eager: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
