"""The native tier against plain NumPy, the numpy backend and hand-written Numba, side by
side in one process (the ``native`` section of docs/benchmarks.md).

Columns: ``plain_ms`` (uncompiled NumPy), ``numpy_ms`` (backend="numpy", tier 1),
``tier2_ms`` (backend="native" with ``prefer="native"``: the Numba kernel itself),
``numba_ms`` (a hand-written ``numba.njit`` version), ``chosen_ms`` (backend="native"
with the default ``prefer="measure"``: the tier its race kept, what a program gets),
``jax_ms`` (``jax.jit`` of the same NumPy code written with ``jax.numpy``, on the CPU;
only where jax is importable), each the lower quartile of interleaved calls on fresh
inputs, every timed call right after an untimed one of the same function (a parallel
kernel timed right after NumPy code found Numba's threads asleep and paid their wake-up,
2-4 ms on Jacobi, which the kernel timed after it did not); ``chosen`` says which tier
the race kept; ``compile_s`` the compile of tier 2.

``--clock cpu`` times with ``time.process_time`` (the CPU time of the process, all its
threads: what a loaded shared machine does not inflate; use it with ``--threads 1``,
which sets Numba's thread count to 1 for both tier 2 and the hand-written kernels);
``--clock wall`` (the default) with ``time.perf_counter``, the figure for parallel
kernels; ``--clock both`` reports both (``*_ms`` wall, ``*_cpu_ms`` CPU time of the
same calls: on a shared machine a parallel kernel's wall time counts the time its
threads wait for a core, its CPU time what they ran). ``--cases jacobi,recursion,prefix``
runs only those cases (``langevin``: a Generator draw per step, drawn by Numba
itself in tier 2: backends/native/nopython_draws.py).

Run by itself: ``.venv/bin/python scripts/bench_native.py [--rounds 9] [--threads 1
--clock cpu] [--cases jacobi]``.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import dynamo

# the same programs as the loops section and the model suite
_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE.parent / "tests" / "shared")]
import native_recursions  # noqa: E402
from bench_loops import prefix_sum, recursion  # noqa: E402
from models import gelu, layernorm, softmax  # noqa: E402


def jacobi(A, B):
    for _ in range(10):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A, B


def langevin(x, rng):
    """Overdamped Langevin steps in a double well: a draw per step (draws.py)."""
    for _ in range(50):
        x = x - 0.01 * (x * x * x - x) + 0.1 * rng.standard_normal(x.shape)
    return x


def hand_written():
    """The same programs written for Numba by hand (the usual idiom: explicit loops,
    ``prange`` over rows, float32 kept float32)."""
    import numba
    from numba import njit, prange

    @njit(parallel=True)
    def jacobi_nb(A, B):
        n, m = A.shape
        for _ in range(10):
            for i in prange(1, n - 1):
                for j in range(1, m - 1):
                    B[i, j] = 0.25 * (A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1])
            A, B = B, A
        return A, B

    @njit
    def recursion_nb(r):
        alpha, beta = -r[0], 1.0
        for k in range(1, r.shape[0]):
            beta *= 1.0 - alpha * alpha
            alpha = -(r[k] + alpha) / beta
        return alpha

    @njit
    def prefix_nb(x):
        for i in range(1, x.shape[0]):
            x[i] += x[i - 1]
        return x

    @njit(parallel=True)
    def gelu_nb(x):
        out = np.empty_like(x)
        c0, c1, h, one = np.float32(0.7978845608), np.float32(0.044715), np.float32(0.5), \
            np.float32(1.0)
        r, n = x.shape
        for i in prange(r):
            for j in range(n):
                v = x[i, j]
                out[i, j] = h * v * (one + np.tanh(c0 * (v + c1 * v * v * v)))
        return out

    @njit(parallel=True)
    def softmax_nb(x):
        out = np.empty_like(x)
        r, n = x.shape
        for i in prange(r):
            m = x[i, 0]
            for j in range(1, n):
                m = max(m, x[i, j])
            s = np.float32(0.0)
            for j in range(n):
                e = np.exp(x[i, j] - m)
                out[i, j] = e
                s += e
            for j in range(n):
                out[i, j] /= s
        return out

    @njit(parallel=True)
    def layernorm_nb(x, g, b):
        out = np.empty_like(x)
        r, n = x.shape
        for i in prange(r):
            mu = np.float32(0.0)
            for j in range(n):
                mu += x[i, j]
            mu /= n
            var = np.float32(0.0)
            for j in range(n):
                d = x[i, j] - mu
                var += d * d
            var /= n
            inv = np.float32(1.0) / np.sqrt(var + np.float32(1e-5))
            for j in range(n):
                out[i, j] = (x[i, j] - mu) * inv * g[j] + b[j]
        return out

    @njit
    def langevin_nb(x, rng):   # Numba's own Generator draws (other numbers, same cost)
        for _ in range(50):
            noise = rng.standard_normal(x.shape[0])
            y = np.empty_like(x)
            for i in range(x.shape[0]):
                v = x[i]
                y[i] = v - 0.01 * (v * v * v - v) + 0.1 * noise[i]
            x = y
        return x

    del numba
    return {**native_recursions.hand_written(),
            "langevin": langevin_nb, "jacobi": jacobi_nb, "recursion": recursion_nb,
            "prefix": prefix_nb, "gelu": gelu_nb, "softmax": softmax_nb, "layernorm": layernorm_nb}


def jax_versions() -> dict:
    """The same programs in ``jax.numpy`` under ``jax.jit`` (CPU); {} without jax."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return {}

    def jacobi_jx(A, B):
        for _ in range(10):
            B = B.at[1:-1, 1:-1].set(
                0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]))
            A, B = B, A
        return A, B

    def gelu_jx(x):
        return 0.5 * x * (1.0 + jnp.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))

    def softmax_jx(x):
        e = jnp.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    def layernorm_jx(x, g, b):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return (x - mu) / jnp.sqrt(var + 1e-5) * g + b

    def timed(fn):
        jitted = jax.jit(fn)

        def call(*args):   # inputs moved to jax before the call, as a jax program has them
            return jax.block_until_ready(jitted(*args))
        return call

    return {"jacobi": timed(jacobi_jx), "gelu": timed(gelu_jx), "softmax": timed(softmax_jx),
            "layernorm": timed(layernorm_jx), "_asarray": jnp.asarray}


def cases():
    rng = np.random.default_rng(0)
    big = rng.standard_normal((10_000, 1000)).astype(np.float32)
    g, b = np.ones(1000, np.float32), np.zeros(1000, np.float32)
    grid = rng.random((500, 500))
    walkers = rng.standard_normal(10_000)
    return [
        ("2-D Jacobi 500x500 f64, 10 steps", "jacobi", jacobi,
         lambda: (grid.copy(), grid.copy())),
        ("scalar recursion (Durbin) n=400", "recursion", recursion,
         lambda: (rng.random(400) * 0.01,)),
        ("prefix sum loop n=1e6", "prefix", prefix_sum, lambda: (rng.random(1_000_000),)),
        ("Langevin 50 steps n=1e4 (rng draws)", "langevin", langevin,
         lambda: (walkers.copy(), np.random.default_rng(1))),
        ("GELU 10000x1000 f32", "gelu", gelu, lambda: (big,)),
        ("softmax 10000x1000 f32", "softmax", softmax, lambda: (big,)),
        ("layernorm 10000x1000 f32", "layernorm", layernorm, lambda: (big, g, b)),
    ] + native_recursions.cases(rng)   # per-sample recursions, per-row loops


def quartile(times: list) -> float:
    times = sorted(times)
    return times[len(times) // 4]


def run(args=None) -> list[dict]:
    rounds = getattr(args, "rounds", 9) if args is not None else 9
    clock_name = getattr(args, "clock", "wall")
    threads = getattr(args, "threads", None)
    only = getattr(args, "cases", None)
    hand = hand_written()
    jx = jax_versions()
    if threads:
        import numba
        numba.set_num_threads(threads)   # for tier 2's kernels and the hand-written ones
    rows = []
    for label, key, fn, make in cases():
        if only and key not in only.split(","):
            continue
        numpy_fn = dynamo.compile(fn, backend="numpy")
        tier2 = dynamo.compile(fn, backend="native", options={
            "after_calls": 1, "background": False, "prefer": "native", "cache": False})
        chosen = dynamo.compile(fn, backend="native", options={
            "after_calls": 1, "background": False, "cache": False})
        said = _Said()
        channel = logging.getLogger("dynamo.backend")
        channel.addHandler(said)
        old_level = channel.level
        channel.setLevel(logging.INFO)
        start = time.perf_counter()
        tier2(*make())      # hot at once; compiled in this call (background=False)
        compile_s = time.perf_counter() - start
        try:
            for f in (numpy_fn, chosen, hand[key]):
                f(*make())
            for _ in range(12):  # the trial of prefer="measure" (3 calls of tier 1, of
                chosen(*make())   # tier 2 and of a parallel tier 2 on one thread)
        finally:
            channel.removeHandler(said)
            channel.setLevel(old_level)
        runs = {"plain": fn, "numpy": numpy_fn, "tier2": tier2, "numba": hand[key],
                "chosen": chosen}
        makes = {name: make for name in runs}
        if key in jx:
            runs["jax"] = jx[key]
            makes["jax"] = lambda make=make: tuple(jx["_asarray"](a) for a in make())
            runs["jax"](*makes["jax"]())   # (its compile)
        wall: dict[str, list] = {k: [] for k in runs}
        cpu: dict[str, list] = {k: [] for k in runs}
        # the recursion only reads its input and one call takes microseconds (about
        # the clock's own cost): time 100 calls on one input and divide
        inner = 100 if key == "recursion" else 1
        for _ in range(rounds):
            for name, f in runs.items():
                f(*makes[name]())   # untimed: the same state for every function
                a = makes[name]()
                start, start_cpu = time.perf_counter(), time.process_time()
                for _ in range(inner):
                    f(*a)
                cpu[name].append((time.process_time() - start_cpu) / inner)
                wall[name].append((time.perf_counter() - start) / inner)
        row = {"case": label}
        for suffix, times in (("", cpu if clock_name == "cpu" else wall),
                              ("_cpu", cpu if clock_name == "both" else None)):
            if times is None:
                continue
            q = {k: quartile(v) * 1e3 for k, v in times.items()}
            row.update({f"{k}{suffix}_ms": round(q[k], 3) for k in runs})
            row[f"tier2_vs_plain{suffix}"] = round(q["plain"] / q["tier2"], 1)
            row[f"tier2_vs_numba{suffix}"] = round(q["tier2"] / q["numba"], 2)
            row[f"numba_vs_plain{suffix}"] = round(q["plain"] / q["numba"], 1)
            if "jax" in q:
                row[f"chosen_vs_jax{suffix}"] = round(q["chosen"] / q["jax"], 2)
        row.update({"chosen": "; ".join(said.said) or "tier 1",
                    "compile_s": round(compile_s, 1)})
        rows.append(row)
    return rows


class _Said(logging.Handler):
    """The ``backend`` log channel's messages saying which tier a graph kept."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.said: list[str] = []

    def emit(self, record):
        text = record.getMessage()
        if "runs in" in text or "stays in tier 1" in text:
            self.said.append(text.split(" (")[0].split(" runs in ")[-1]
                             .replace("native tier: ", ""))


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    import numba
    return (f"{cpu}, {len(os.sched_getaffinity(0))} cores usable; NumPy {np.__version__}, "
            f"Numba {numba.__version__}, Python {platform.python_version()}; commit {commit}; "
            f"uptime: {load}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--clock", choices=("wall", "cpu", "both"), default="wall")
    ap.add_argument("--threads", type=int, default=None, help="Numba's thread count")
    ap.add_argument("--cases", default=None, help="comma-separated: jacobi,recursion,...")
    args = ap.parse_args(argv)
    print(machine(), f"; clock {args.clock}, threads {args.threads or 'default'}")
    for row in run(args):
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
