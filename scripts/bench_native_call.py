"""What a tier-2 call costs around its kernel (#23): Jacobi (10 steps) compiled with the
native backend (``prefer="native"``, tier 2 from the second call) against its Numba
kernel called alone with its backup arrays (reset before each call, as a call resets
them; B is backed up there even where a compiled call skips B's backup,
``tier.FREE_MIN_BYTES``), interleaved in one process, each figure the lower quartile
of ``--rounds`` timed batches, by wall time and by CPU time. ``overhead`` = compiled -
kernel: the frontend's guards, ``Tiered``'s checks of the inputs (error state, written
inputs' overlap and writeability, backups, thread count) and the results.

Only public entry points and the backend's own objects are used, so that the script
runs unchanged on an older tree (``PYTHONPATH=/copy/of/the/tree``) for a side-by-side
comparison.

Example::

    $ .venv/bin/python scripts/bench_native_call.py --sizes 20
    n=20   parallel=False  compiled     5.71 us  kernel     3.06 us  overhead   2.65 us
    (CPU time: 5.69, 3.06, 2.63)                    (one line)
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from dynamo.backends.native.backend import native_backend
from dynamo.backends.native.saves import new_savers, reset

import dynamo


def jacobi(A, B):
    for _ in range(10):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A, B


def _lower_quartile(xs: list) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 4]


def measure(n: int, rounds: int, batch: int) -> dict:
    made = []

    def backend(graph, example_inputs):
        out = native_backend(graph, example_inputs, options={
            "after_calls": 1, "background": False, "prefer": "native", "cache": False})
        made.append(out)
        return out

    dynamo.reset()
    fn = dynamo.compile(jacobi, backend=backend)
    A = np.random.default_rng(0).random((n, n))
    B = A * 0.5
    for _ in range(3):
        fn(A, B)
    tier = made[0]
    assert tier.native_calls >= 2, "tier 2 did not answer"
    kernel = tier._dispatcher
    savers = new_savers([(A, B)[k] for k in tier.kernel.writes])

    def kernel_alone():
        reset(savers)
        kernel(A, B, *savers)

    times: dict = {"compiled": [], "kernel": [], "compiled_cpu": [], "kernel_cpu": []}
    for _ in range(rounds):
        for name, call in (("compiled", lambda: fn(A, B)), ("kernel", kernel_alone)):
            call()   # (untimed: a parallel kernel's threads awake)
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(batch):
                call()
            times[name].append((time.perf_counter() - start) / batch * 1e6)
            times[name + "_cpu"].append((time.process_time() - start_cpu) / batch * 1e6)
    out = {k: _lower_quartile(v) for k, v in times.items()}
    out["parallel"] = tier.kernel.parallel
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="20,64,200")
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--batch", type=int, default=0,
                        help="calls per timed batch (0: about 20 ms of kernel work)")
    args = parser.parse_args()
    for n in (int(s) for s in args.sizes.split(",")):
        batch = args.batch or max(20, 2_000_000 // (n * n * 10))
        r = measure(n, args.rounds, batch)
        print(f"n={n:<4d} parallel={r['parallel']!s:<5}  compiled {r['compiled']:8.2f} us  "
              f"kernel {r['kernel']:8.2f} us  overhead {r['compiled'] - r['kernel']:6.2f} us"
              f"  (CPU time: {r['compiled_cpu']:.2f}, {r['kernel_cpu']:.2f}, "
              f"{r['compiled_cpu'] - r['kernel_cpu']:.2f})")


if __name__ == "__main__":
    main()
