"""Demo: compile a small NumPy transformer block and show what dynamo captured.

    python scripts/demo.py                 # default backend: cupy where usable, else eager
    python scripts/demo.py --backend numpy

Prints the captured graph, the ``dynamo.explain`` report (graphs, breaks, guards) and
eager vs compiled time per call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "shared"))  # models

import models  # noqa: E402

import dynamo  # noqa: E402


def default_backend() -> tuple[str, object]:
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() > 0 and "cupy" in dynamo.list_backends():
            return "cupy", cupy
    except Exception:  # noqa: BLE001 (no CuPy or no GPU: the CPU demo)
        pass
    return "eager", np


def per_call(fn, x, xp, n=50) -> float:
    times = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn(x)
        if xp is not np:
            xp.cuda.Stream.null.synchronize()
        times.append((time.perf_counter() - t) / n)
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", help="a backend name (see dynamo.list_backends())")
    args = ap.parse_args(argv)
    backend, xp = default_backend()
    if args.backend:
        backend = args.backend
        # the GPU backends take CuPy arrays; the others NumPy arrays (auto: NumPy's here)
        xp = __import__("cupy") if backend in ("cupy", "cudagraphs") else np
    block, (x,) = models.make("transformer", xp)
    print(f"dynamo demo: a transformer block (64 tokens, width 256, 4 heads) on "
          f"{xp.__name__}, backend={backend!r}; backends here: {dynamo.list_backends()}\n")

    report = dynamo.explain(block, backend=backend)(x)
    print("=== captured graph ===")
    for graph in report.graphs:
        print(graph)
    print("=== explain report ===")
    print(report)

    compiled = dynamo.compile(block, backend=backend)
    t = time.perf_counter()
    y = compiled(x)
    first = time.perf_counter() - t
    ref = block(x)
    ok = bool(xp.allclose(y, ref, rtol=1e-4, atol=1e-5))
    eager = per_call(block, x, xp)
    fast = per_call(compiled, x, xp)
    print("\n=== timings ===")
    print(f"first compiled call (trace + compile + run): {first * 1e3:.2f} ms")
    print(f"eager per call:    {eager * 1e3:.3f} ms")
    print(f"compiled per call: {fast * 1e3:.3f} ms   ({eager / fast:.2f}x)")
    print(f"compiled result equals eager: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
