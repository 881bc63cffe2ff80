"""The cupy backend on the GPU anchors, side by side in one run: CuPy eager, cupy.fuse,
torch.compile, our fused kernels, and the memory roofline.

    python scripts/bench_cupy_backend.py                 # the table (needs a GPU)
    python scripts/bench_cupy_backend.py --json out.json --sweep

Models (float32, the sizes of the targets in docs/cupy_backend.md): GELU on 2^26
elements, softmax and layernorm (with weight and bias) over the last axis of 8192 x
4096. Per call = ``--calls`` calls back to back, then one synchronize, divided by the
calls; the median of ``--repeat`` such batches. Roofline = bytes read and written once /
the device-to-device copy bandwidth measured in the same run. Each compiled result is
checked against CuPy eager first (max relative error in the table). First-call times:
trace + plan + NVRTC + load, in a new process with an empty CuPy kernel cache (cold) and
again in a new process with the cache it left (warm); and in-process after
``dynamo.reset()`` (our in-memory cache). ``--sweep`` also times a few tuning options
per model.

``run(args)`` is what ``scripts/bench.py`` calls: rows for its table, [] without a GPU.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "shared"))  # models

import models  # noqa: E402

import dynamo  # noqa: E402

SHAPES = {"gelu": [(1 << 26,)], "softmax": [(8192, 4096)],
          "layernorm": [(8192, 4096), (4096,), (4096,)]}
SWEEP = {"gelu": [{"ilp": 1}, {"ilp": 4}, {"threads": 128}, {"threads": 512, "ilp": 1}],
         "softmax": [{"row_elems": 8}, {"row_elems": 32}, {"row_cache": 16}],
         "layernorm": [{"row_elems": 8}, {"row_elems": 32}, {"row_cache": 16}]}


@dataclass
class Setup:
    """What the table runs on: CuPy on this machine's GPU, by default. A dry run on the
    CPU (tests/scripts/test_bench_cupy_backend.py) passes NumPy-like stand-ins instead."""

    gpu: bool | None = None          # None: probe for CuPy and a device
    cupy: object = None              # the array module (None: import cupy)
    backend: object = "cupy"         # what dynamo.compile runs the models with
    shapes: dict = field(default_factory=lambda: SHAPES)
    bandwidth: float | None = None   # bytes/s of a device copy (None: measure it)

    def has_gpu(self) -> bool:
        return gpu_available() if self.gpu is None else self.gpu

    def array_module(self):
        if self.cupy is None:
            import cupy
            return cupy
        return self.cupy


def gpu_available() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001
        return False


def per_call(fn, calls: int, repeat: int, sync) -> float:
    """Median seconds per call: ``calls`` calls back to back, one sync, ``repeat`` times."""
    fn()
    sync()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        times.append((time.perf_counter() - t) / calls)
    return statistics.median(times)


def copy_bandwidth(cp, sync) -> float:
    src = cp.empty(1 << 28, cp.float32)
    dst = cp.empty_like(src)
    t = per_call(lambda: cp.copyto(dst, src), 20, 5, sync)
    return 2 * src.nbytes / t


def inputs(cp, name: str, shapes: dict = SHAPES):
    rng = np.random.default_rng(0)
    return tuple(cp.asarray(rng.standard_normal(s).astype(np.float32)) for s in shapes[name])


def max_rel_err(cp, got, want) -> float:
    got, want = cp.asarray(got, cp.float64), cp.asarray(want, cp.float64)
    return float(cp.max(cp.abs(got - want)) / max(float(cp.max(cp.abs(want))), 1e-30))


def torch_versions():
    """The three models written for torch, or None without torch."""
    try:
        import torch
    except ImportError:
        return None

    def gelu(x):
        return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))

    def softmax(x):
        e = torch.exp(x - x.amax(dim=-1, keepdim=True))
        return e / e.sum(dim=-1, keepdim=True)

    def layernorm(x, g, b):
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        return (x - mu) / torch.sqrt(var + 1e-5) * g + b

    return torch, {"gelu": gelu, "softmax": softmax, "layernorm": layernorm}


_FIRST_CALL = """
import json, sys, time
sys.path.insert(0, {tests!r})
import cupy, numpy as np, dynamo, models
args = [cupy.asarray(np.ones(s, np.float32)) for s in {shapes!r}]
cupy.cuda.Device().synchronize()
fn = dynamo.compile(getattr(models, {name!r}), backend="cupy")
t = time.perf_counter(); fn(*args); cupy.cuda.Device().synchronize()
print(json.dumps(time.perf_counter() - t))
"""


def first_call_seconds(name: str, cache_dir: str) -> float | None:
    shared = Path(__file__).resolve().parent.parent / "tests" / "shared"
    code = _FIRST_CALL.format(tests=str(shared),
                              name=name,
                              shapes=SHAPES[name])
    env = dict(os.environ, CUPY_CACHE_DIR=cache_dir)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       timeout=300)
    if r.returncode:
        print(f"first-call subprocess for {name} failed:\n{r.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def bench_model(cp, name: str, bw: float, calls: int, repeat: int, torch_models,
                subprocesses: bool, sweep: bool, setup: Setup | None = None) -> list[dict]:
    setup = setup or Setup()
    backend, shapes = setup.backend, setup.shapes
    sync = cp.cuda.Device().synchronize
    args = inputs(cp, name, shapes)
    fn = getattr(models, name)
    row = {"model": name, "shape": "x".join(map(str, shapes[name][0]))}
    eager_out = fn(*args)
    row["cupy_eager_us"] = per_call(lambda: fn(*args), calls, repeat, sync) * 1e6
    if name == "gelu":   # cupy.fuse traces cupy's own ufuncs only (not np.tanh on a proxy)
        def gelu_cupy(x):   # a named function: cupy.fuse names its kernel after it
            return 0.5 * x * (1.0 + cp.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
        fused = cp.fuse(gelu_cupy)
        row["cupy_fuse_us"] = per_call(lambda: fused(*args), calls, repeat, sync) * 1e6
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    t = time.perf_counter()
    out = compiled(*args)
    sync()
    row["first_call_in_process_s"] = time.perf_counter() - t
    row["max_rel_err"] = max_rel_err(cp, out, eager_out)
    row["compiled_us"] = per_call(lambda: compiled(*args), calls, repeat, sync) * 1e6
    dynamo.reset()
    t = time.perf_counter()
    dynamo.compile(fn, backend=backend)(*args)
    sync()
    row["recompile_memory_cache_s"] = time.perf_counter() - t
    nbytes = sum(a.nbytes for a in args) + out.nbytes
    row["roofline_us"] = nbytes / bw * 1e6
    row["x_roofline"] = row["compiled_us"] / row["roofline_us"]
    row["speedup_vs_eager"] = row["cupy_eager_us"] / row["compiled_us"]
    if torch_models is not None:
        torch, tm = torch_models
        targs = [torch.from_dlpack(a) for a in args]
        tsync = lambda: (torch.cuda.synchronize(), sync())  # noqa: E731
        try:
            torch._dynamo.reset()
            tfn = torch.compile(tm[name])
            t = time.perf_counter()
            tfn(*targs)
            tsync()
            row["torch_compile_first_s"] = time.perf_counter() - t
            row["torch_compile_us"] = per_call(lambda: tfn(*targs), calls, repeat, tsync) * 1e6
            row["x_torch"] = row["compiled_us"] / row["torch_compile_us"]
        except Exception as e:  # noqa: BLE001 (report, keep the rest of the table)
            row["torch_compile_error"] = f"{type(e).__name__}: {e}"[:200]
    if subprocesses:
        with tempfile.TemporaryDirectory() as cache:
            row["first_call_cold_s"] = first_call_seconds(name, cache)
            row["first_call_warm_s"] = first_call_seconds(name, cache)
    rows = [row]
    if sweep:
        for options in SWEEP[name]:
            dynamo.reset()
            tuned = dynamo.compile(fn, backend=backend, options=options)
            err = max_rel_err(cp, tuned(*args), eager_out)
            us = per_call(lambda f=tuned: f(*args), calls, repeat, sync) * 1e6
            rows.append({"model": f"{name} {options}", "compiled_us": us,
                         "x_roofline": us / row["roofline_us"], "max_rel_err": err})
    return rows


def run(args, setup: Setup | None = None) -> list[dict]:
    """Rows for scripts/bench.py; [] without a GPU (``setup``: see :class:`Setup`)."""
    setup = setup or Setup()
    if not setup.has_gpu():
        return []
    cp = setup.array_module()
    sync = cp.cuda.Device().synchronize
    bw = setup.bandwidth or copy_bandwidth(cp, sync)
    names = [m for m in getattr(args, "models", "gelu,softmax,layernorm").split(",")
             if m in setup.shapes]
    torch_models = None if getattr(args, "no_torch", False) else torch_versions()
    rows = []
    for name in names:
        rows += bench_model(cp, name, bw, getattr(args, "calls", 50),
                            max(3, getattr(args, "repeat", 7)), torch_models,
                            not getattr(args, "no_subprocess", False),
                            getattr(args, "sweep", False), setup)
        # each model's rows as soon as they exist: a run cut off by a timeout keeps them
        print(json.dumps(rows, default=str), file=sys.stderr, flush=True)
    for r in rows:
        r["copy_TBps"] = bw / 1e12
    return rows


COLUMNS = ["model", "cupy_eager_us", "cupy_fuse_us", "torch_compile_us", "compiled_us",
           "roofline_us", "x_roofline", "x_torch", "speedup_vs_eager", "max_rel_err",
           "first_call_cold_s", "first_call_warm_s", "recompile_memory_cache_s"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="gelu,softmax,layernorm")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--no-subprocess", action="store_true", help="skip cold/warm first calls")
    ap.add_argument("--sweep", action="store_true", help="also time tuning options")
    ap.add_argument("--json", help="write every row (and the machine) to this file")
    args = ap.parse_args(argv)
    if not gpu_available():
        print("no GPU: nothing to measure (the table needs CuPy and a CUDA device)")
        return 0
    from bench import machine, print_table
    rows = run(args)
    print(f"machine: {machine()}, copy bandwidth {rows[0]['copy_TBps']:.2f} TB/s")
    print_table(rows, [c for c in COLUMNS if any(c in r for r in rows)])
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
