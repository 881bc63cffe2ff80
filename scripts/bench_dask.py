"""Dask arrays: a GELU-softmax-layernorm chain, compiled (dask backend) against plain dask.

The input is a float32 dask array of ``--rows x --cols`` in chunks of ``--chunk-rows``
whole rows (softmax and layernorm reduce along the rows), made chunk by chunk by dask's
own generator, so no variant ever holds the whole array. Each variant streams its
result into a sink that drops every chunk (``da.store``): what is measured is the
computation and the chunks it keeps in flight, not an output array.

The variants run the same code, on the threaded scheduler: ``chain(x, gamma, beta)``
plain (NumPy calls that dask implements, op by op per chunk);
``dynamo.compile(chain, backend="numpy")`` (each fused elementwise group one task per
chunk, running the numpy backend's kernel; reductions dask's own); and the same with
the numpy backend's option ``fast_powers`` (``x ** 3`` as multiplications: NumPy's
``pow`` is most of GELU's time, and this option gives up its last bit). The script
checks first that they give the same values (a few chunks; exactly, and within 1e-5
for ``fast_powers``), then times each variant
``--repeat`` times, alternating, and samples the process's resident memory every 5 ms
(psutil) during each run: peak minus the RSS before the run is the memory the
computation itself took.

    .venv/bin/python scripts/bench_dask.py                          # 1 GiB in 64 MiB chunks
    .venv/bin/python scripts/bench_dask.py --rows 262144 --repeat 3 # the issue's 4 GiB
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import subprocess
import threading
import time

import dask
import dask.array as da
import numpy as np
import psutil

import dynamo


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm(x, gamma, beta):
    mu = x.mean(axis=-1, keepdims=True)
    d = x - mu
    var = (d * d).mean(axis=-1, keepdims=True)
    return d / np.sqrt(var + 1e-5) * gamma + beta


def chain(x, gamma, beta):
    return layernorm(softmax(gelu(x)), gamma, beta)


class Drop:
    """A ``da.store`` target that drops what it is given."""

    def __setitem__(self, key, value) -> None:
        pass


class PeakRSS:
    """The highest resident set size of this process while in the ``with`` block."""

    def __init__(self, every: float = 0.005):
        self.every, self.peak, self.start = every, 0, 0
        self._stop = threading.Event()

    def _sample(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            self.peak = max(self.peak, me.memory_info().rss)
            time.sleep(self.every)

    def __enter__(self):
        gc.collect()
        self.start = self.peak = psutil.Process().memory_info().rss
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def taken(self) -> int:
        return self.peak - self.start


def make_input(rows: int, cols: int, chunk_rows: int):
    rng = da.random.default_rng(0)
    return rng.random((rows, cols), chunks=(chunk_rows, cols), dtype=np.float32) * 4.0 - 2.0


def run(fn, x, gamma, beta) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (this process, all threads) and bytes of memory taken
    by one streamed computation of ``fn``. On a shared machine the CPU time is the
    steadier of the two."""
    with PeakRSS() as mem:
        start, cpu = time.perf_counter(), time.process_time()
        da.store(fn(x, gamma, beta), Drop(), lock=False)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return seconds, cpu, mem.taken


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=65536)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--chunk-rows", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    args = ap.parse_args()
    dask.config.set(scheduler="threads", num_workers=args.workers)

    x = make_input(args.rows, args.cols, args.chunk_rows)
    gamma = np.linspace(0.5, 1.5, args.cols, dtype=np.float32)
    beta = np.linspace(-0.1, 0.1, args.cols, dtype=np.float32)
    compiled = dynamo.compile(chain, backend="numpy")
    fast = dynamo.compile(chain, backend="numpy", options={"fast_powers": True})

    check = slice(0, 2 * args.chunk_rows)
    want = chain(x, gamma, beta)[check].compute()
    got = compiled(x, gamma, beta)[check].compute()
    assert got.dtype == want.dtype and np.array_equal(got, want), "results differ"
    np.testing.assert_allclose(fast(x, gamma, beta)[check].compute(), want, rtol=1e-5,
                               atol=1e-6)
    assert compiled(x, gamma, beta).chunks == chain(x, gamma, beta).chunks

    chunk_mib = args.chunk_rows * args.cols * 4 / 2**20
    total_gib = args.rows * args.cols * 4 / 2**30
    variants = {"plain dask": chain, "compiled": compiled, "compiled, fast_powers": fast}
    results: dict[str, list] = {name: [] for name in variants}
    for _ in range(args.repeat):
        for name, fn in variants.items():
            results[name].append(run(fn, x, gamma, beta))

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"Machine: {platform.node()} ({platform.machine()}, {os.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 2**30:.0f} GiB), Python "
          f"{platform.python_version()}, NumPy {np.__version__}, dask {dask.__version__}; "
          f"commit {commit}; load average {os.getloadavg()[0]:.1f}")
    print(f"{total_gib:.2f} GiB float32 ({args.rows} x {args.cols}) in {chunk_mib:.0f} MiB "
          f"chunks, threaded scheduler with {args.workers} workers, {args.repeat} runs each\n")
    print("| variant | best wall time | median wall time | best CPU time | plain / this "
          "(CPU) | peak memory taken (median) | in chunks |")
    print("|---|---|---|---|---|---|---|")
    plain_cpu = min(c for _, c, _ in results["plain dask"])
    for name, runs in results.items():
        times = sorted(t for t, _, _ in runs)
        cpu = min(c for _, c, _ in runs)
        peak = sorted(m for _, _, m in runs)[len(runs) // 2]
        print(f"| {name} | {times[0]:.2f} s | {times[len(times) // 2]:.2f} s | {cpu:.2f} s "
              f"| {plain_cpu / cpu:.2f}x | {peak / 2**20:.0f} MiB | "
              f"{peak / 2**20 / chunk_mib:.1f} |")


if __name__ == "__main__":
    main()
