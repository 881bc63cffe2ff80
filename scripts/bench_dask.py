"""Dask arrays: a GELU-softmax-layernorm chain, compiled (dask backend) against plain dask.

The input is a float32 dask array of ``--rows x --cols`` in chunks of ``--chunk-rows``
rows (and ``--chunk-cols`` columns: by default whole rows, which softmax and layernorm
reduce), made chunk by chunk by dask's own generator from a fixed seed, so no variant
ever holds the whole array. Each variant streams its result into a sink that drops
every chunk (``da.store``): what is measured is the computation and the chunks it keeps
in flight, not an output array.

The variants run the same code, on the threaded scheduler (``--workers``, 2 by
default): ``chain(x, gamma, beta)`` plain (NumPy calls that dask implements, op by op
per chunk, reductions by dask's tree reductions); ``dynamo.compile(chain,
backend="numpy")`` (the dask backend: with whole rows, the chain is one task per chunk
running the numpy backend's kernel for it, reductions included; with split rows, each
fused elementwise group one task per chunk and the reductions dask's own); and the same
with the numpy backend's option ``fast_powers`` (``x ** 3`` as multiplications: NumPy's
``pow`` is most of GELU's time, and this option gives up its last bit).

The script first checks that the variants give the same values as plain dask: exactly
(``np.array_equal``, same dtype and chunks), and within 1e-5 relative for
``fast_powers``; on a few chunks, or on every chunk with ``--check-all`` (streamed: one
more plain and compiled run). Then it runs each variant ``--repeat`` times,
alternating, **each run in a fresh process** so that peak memories do not mix: the
child builds the input, computes one chunk (the first call's tracing and the kernels'
compiles, and NumPy's warm-up for plain dask), then times the streamed run: wall time,
CPU time (``time.process_time``: all threads of the process; on a shared machine the
steadier of the two), and the peak resident memory (its high-water mark, Linux's
``VmHWM``) less the resident memory before the run. ``--profile`` adds where the time
goes: per chunk on one thread, the input's generation, plain NumPy's chain and the
compiled kernel; and the compiled call itself (tracing and lowering, then building the
dask graph).

    .venv/bin/python scripts/bench_dask.py                   # 256 MiB in 64 MiB chunks
    .venv/bin/python scripts/bench_dask.py --full --profile  # the issue's 4 GiB
    .venv/bin/python scripts/bench_dask.py --chunk-cols 2048 # rows split over two chunks
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import dask
import dask.array as da
import numpy as np
import psutil

import dynamo

FULL_ROWS = 262144             # x 4096 float32 columns: 4 GiB


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


VARIANTS = {
    "plain dask": lambda: chain,
    "compiled": lambda: dynamo.compile(chain, backend="numpy"),
    "compiled, fast_powers": lambda: dynamo.compile(chain, backend="numpy",
                                                    options={"fast_powers": True}),
}


class Drop:
    """A ``da.store`` target that drops what it is given."""

    def __setitem__(self, key, value) -> None:
        pass


def make_input(args):
    """The input (lazy: each chunk drawn when a task needs it) and the weights."""
    rng = da.random.default_rng(0)
    x = rng.random((args.rows, args.cols), chunks=(args.chunk_rows, args.chunk_cols),
                   dtype=np.float32) * 4.0 - 2.0
    gamma = np.linspace(0.5, 1.5, args.cols, dtype=np.float32)
    beta = np.linspace(-0.1, 0.1, args.cols, dtype=np.float32)
    return x, gamma, beta


def rss() -> int:
    return psutil.Process().memory_info().rss


def peak_rss() -> int:
    """This process's high-water mark of resident memory (``VmHWM``). Not ``getrusage``:
    its ``ru_maxrss`` keeps the parent's resident size at the fork that started us."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024                                # kB


def run_one(args) -> dict:
    """One variant's streamed run, in this (fresh) process: seconds, CPU seconds and
    bytes of memory."""
    x, gamma, beta = make_input(args)
    fn = VARIANTS[args.one]()
    fn(x, gamma, beta)[: args.chunk_rows, : args.chunk_cols].compute()   # warm-up
    before = rss()
    start, cpu = time.perf_counter(), time.process_time()
    da.store(fn(x, gamma, beta), Drop(), lock=False)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = peak_rss()
    return {"seconds": seconds, "cpu": cpu, "peak": peak, "taken": peak - before}


def in_child(args, variant: str) -> dict:
    argv = [sys.executable, __file__, "--one", variant, "--rows", str(args.rows),
            "--cols", str(args.cols), "--chunk-rows", str(args.chunk_rows),
            "--chunk-cols", str(args.chunk_cols), "--workers", str(args.workers)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def check(args) -> str:
    """Compiled equals plain (exactly; ``fast_powers`` within 1e-5), on a few chunks or
    all of them; returns what was checked."""
    x, gamma, beta = make_input(args)
    want = chain(x, gamma, beta)
    compiled, fast = VARIANTS["compiled"](), VARIANTS["compiled, fast_powers"]()
    got = compiled(x, gamma, beta)
    assert got.chunks == want.chunks and got.dtype == want.dtype
    if args.check_all:
        diff = abs(fast(x, gamma, beta) - want)
        equal, close, worst = dask.compute((got == want).all(),
                                           (diff <= 1e-6 + 1e-5 * abs(want)).all(), diff.max())
        assert equal, "compiled and plain dask differ"
        assert close, f"fast_powers: not within 1e-5 (largest difference {worst})"
        return f"every chunk (fast_powers: largest absolute difference {worst:.1e})"
    for part in [slice(0, 2 * args.chunk_rows), slice(-args.chunk_rows, None)]:
        w = want[part].compute()
        assert np.array_equal(got[part].compute(), w), "compiled and plain dask differ"
        np.testing.assert_allclose(fast(x, gamma, beta)[part].compute(), w, rtol=1e-5,
                                   atol=1e-6)
    return "the first two and the last row of chunks"


def profile(args) -> list[str]:
    """Where the time goes: per chunk on one thread (CPU), and the compiled call."""
    def cpu(fn, repeat=3):
        fn()
        best = float("inf")
        for _ in range(repeat):
            start = time.process_time()
            fn()
            best = min(best, time.process_time() - start)
        return best

    shape = (args.chunk_rows, args.chunk_cols)
    rng = np.random.default_rng(0)
    chunk = rng.random(shape, dtype=np.float32) * 4.0 - 2.0
    gamma = np.linspace(0.5, 1.5, args.chunk_cols, dtype=np.float32)
    beta = np.linspace(-0.1, 0.1, args.chunk_cols, dtype=np.float32)
    one = {"threads": 1, "recycle_outputs": False}      # what a chunk kernel runs with
    kernel = dynamo.compile(chain, backend="numpy", options=one)
    fast = dynamo.compile(chain, backend="numpy", options={**one, "fast_powers": True})
    draw = cpu(lambda: rng.random(shape, dtype=np.float32) * 4.0 - 2.0)
    lines = [
        f"input chunk drawn: {draw * 1e3:.0f} ms",
        f"plain NumPy chain on it: {cpu(lambda: chain(chunk, gamma, beta)) * 1e3:.0f} ms "
        f"(of which `x ** 3`: {cpu(lambda: chunk ** 3) * 1e3:.0f} ms)",
        f"the compiled kernel: {cpu(lambda: kernel(chunk, gamma, beta)) * 1e3:.0f} ms; "
        f"with fast_powers {cpu(lambda: fast(chunk, gamma, beta)) * 1e3:.0f} ms",
    ]
    x, gamma, beta = make_input(args)
    dynamo.reset()
    compiled = VARIANTS["compiled"]()
    start = time.process_time()
    y = compiled(x, gamma, beta)
    first = time.process_time() - start
    graph = cpu(lambda: compiled(x, gamma, beta), repeat=5)
    plain = cpu(lambda: chain(x, gamma, beta), repeat=5)
    layers = [name.rsplit("-", 1)[0] for name in y.dask.layers]
    lines.append(f"compiled call: first {first * 1e3:.0f} ms (tracing, lowering), then "
                 f"{graph * 1e3:.1f} ms to build the dask graph ({len(layers)} layers: "
                 f"{', '.join(layers)}); plain dask builds its graph in {plain * 1e3:.1f} ms")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=16384)
    ap.add_argument("--full", action="store_true", help=f"--rows {FULL_ROWS}: 4 GiB")
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--chunk-rows", type=int, default=4096)
    ap.add_argument("--chunk-cols", type=int, default=None, help="default: --cols")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--check-all", action="store_true", help="compare every chunk")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--one", choices=VARIANTS, help=argparse.SUPPRESS)   # a child's run
    args = ap.parse_args()
    if args.full:
        args.rows = FULL_ROWS
    args.chunk_cols = args.chunk_cols or args.cols
    dask.config.set(scheduler="threads", num_workers=args.workers)
    if args.one:
        print(json.dumps(run_one(args)))
        return

    checked = check(args)
    lines = profile(args) if args.profile else []
    results: dict[str, list] = {name: [] for name in VARIANTS}
    for _ in range(args.repeat):
        for name in VARIANTS:
            results[name].append(in_child(args, name))

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    chunk_mib = args.chunk_rows * args.chunk_cols * 4 / 2**20
    nchunks = -(-args.rows // args.chunk_rows) * -(-args.cols // args.chunk_cols)
    print(f"Machine: {platform.node()} ({platform.machine()}, {os.cpu_count()} cores, "
          f"{psutil.virtual_memory().total / 2**30:.0f} GiB), Python "
          f"{platform.python_version()}, NumPy {np.__version__}, dask {dask.__version__}; "
          f"commit {commit}; load average {os.getloadavg()[0]:.1f}")
    print(f"{args.rows * args.cols * 4 / 2**30:.2f} GiB float32 ({args.rows} x {args.cols})"
          f" in {nchunks} chunks of {chunk_mib:.0f} MiB ({args.chunk_rows} x "
          f"{args.chunk_cols}), threaded scheduler with {args.workers} workers, "
          f"{args.repeat} runs each, each in its own process; equal results checked on "
          f"{checked}\n")
    for line in lines:
        print(f"- {line}")
    print("\n| variant | best wall time | best CPU time | CPU per chunk | plain / this "
          "(CPU) | peak RSS | peak memory taken | in chunks |")
    print("|---|---|---|---|---|---|---|---|")
    plain_cpu = min(r["cpu"] for r in results["plain dask"])
    for name, runs in results.items():
        cpu = min(r["cpu"] for r in runs)
        peak, taken = max(r["peak"] for r in runs), max(r["taken"] for r in runs)
        print(f"| {name} | {min(r['seconds'] for r in runs):.2f} s | {cpu:.2f} s | "
              f"{cpu / nchunks * 1e3:.0f} ms | {plain_cpu / cpu:.2f}x | {peak / 2**20:.0f} "
              f"MiB | {taken / 2**20:.0f} MiB | {taken / 2**20 / chunk_mib:.1f} |")


if __name__ == "__main__":
    main()
