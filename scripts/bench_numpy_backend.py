"""The ``numpy`` backend against eager NumPy and torch.compile, side by side in one run.

    python scripts/bench_numpy_backend.py                 # the table (also a section of bench.py)
    python scripts/bench_numpy_backend.py --rounds 15 --json out.json
    python scripts/bench_numpy_backend.py --no-torch      # skip torch.compile (slow first calls)

Cases: GELU (tanh form), softmax over rows of 1000 and layernorm over rows of 1000,
float32, at 1e7 elements (10000 x 1000 for the row functions) and at 1e3 (10 x 100).
Each variant is timed in interleaved rounds (eager, backend on 1 thread, backend on
every core, torch.compile), so load from other processes hits all of them alike;
the table reports the minimum over rounds of the wall time per call (at 1e3, the
mean of a batch of 2000 calls). The ``cpu_*`` columns are the process's CPU time
per call of the single-threaded variants: on a loaded machine they still show the
work done, where wall times also count the time other processes held the cores.
torch.compile runs only when torch is installed, on the large cases (its first call
compiles C++ for seconds to a minute, less when its on-disk cache has the kernel),
with ``torch.set_num_threads`` set to the same core count.

``compile_ms`` is the trace + passes + code generation time of the first call as
``dynamo.explain`` reports it; ``first_ms`` is the whole first call.

The timing loop drops each result, as a loop ``y = f(x)`` does one call later, so
the backend's outputs reuse arrays (``runtime.Recycler``) while eager NumPy and
torch.compile allocate (and page-fault) a fresh one every call. The
``fresh_outputs`` columns are the backend with ``recycle_outputs=False``: the same
allocations as the others.

Example::

    >>> rows = run(argparse.Namespace(rounds=3, torch=False))
    >>> rows[0]["case"], rows[0]["speedup"] > 1
    ('gelu 1e7', True)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "shared"))  # models

import models  # noqa: E402
from dynamo.backends.numpy_backend.options import usable_cores  # noqa: E402

import dynamo  # noqa: E402

CASES = [("gelu", "1e7"), ("softmax", "1e7"), ("layernorm", "1e7"),
         ("gelu", "1e3"), ("softmax", "1e3"), ("layernorm", "1e3")]


def make(name: str, size: str):
    rng = np.random.default_rng(0)
    shape = {("gelu", "1e7"): (10_000_000,), ("gelu", "1e3"): (1000,)}.get(
        (name, size), (10_000, 1000) if size == "1e7" else (10, 100))
    x = rng.standard_normal(shape).astype(np.float32)
    if name == "layernorm":
        c = shape[-1]
        return models.layernorm, (x, np.ones(c, np.float32), np.zeros(c, np.float32))
    return getattr(models, name), (x,)


def torch_compiled(fn, threads: int):
    """``torch.compile(fn)`` (NumPy in, NumPy out), or None without torch."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(threads)
    torch._dynamo.reset()
    return torch.compile(fn, dynamic=False)


def per_call(fn, inputs, batch: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the whole process) per call, over one batch."""
    t, c = time.perf_counter(), time.process_time()
    for _ in range(batch):
        fn(*inputs)
    return (time.perf_counter() - t) / batch, (time.process_time() - c) / batch


def first_call(compiled, inputs) -> float:
    t = time.perf_counter()
    compiled(*inputs)
    return time.perf_counter() - t


def bench_case(name: str, size: str, rounds: int, use_torch: bool) -> dict:
    fn, inputs = make(name, size)
    cores = usable_cores()
    dynamo.reset()
    report = dynamo.explain(fn, backend="numpy")(*inputs)
    dynamo.reset()
    variants = {"numpy": fn,
                "dynamo_t1": dynamo.compile(fn, backend="numpy", options={"threads": 1}),
                "dynamo": dynamo.compile(fn, backend="numpy", options={"threads": cores}),
                "dynamo_fresh": dynamo.compile(fn, backend="numpy", options={
                    "threads": cores, "recycle_outputs": False})}
    first = first_call(variants["dynamo"], inputs)
    variants["dynamo_t1"](*inputs)
    variants["dynamo_fresh"](*inputs)
    torch_first = None
    if use_torch and size == "1e7":
        compiled = torch_compiled(fn, cores)
        if compiled is not None:
            torch_first = first_call(compiled, inputs)
            variants["torch"] = compiled
    fn(*inputs)
    batch = 1 if size == "1e7" else 2000
    times: dict[str, list] = {k: [] for k in variants}
    for _ in range(rounds):
        for key, f in variants.items():
            times[key].append(per_call(f, inputs, batch))
    best = {k: min(w for w, _ in v) * 1e3 for k, v in times.items()}
    cpu = {k: min(c for _, c in v) * 1e3 for k, v in times.items()}
    row = {"case": f"{name} {size}", "numpy_ms": best["numpy"],
           "dynamo_1thread_ms": best["dynamo_t1"], f"dynamo_{cores}threads_ms": best["dynamo"],
           "speedup": best["numpy"] / best["dynamo"]}
    row[f"fresh_outputs_{cores}threads_ms"] = best["dynamo_fresh"]
    if "torch" in best:
        row["torch_compile_ms"] = best["torch"]
        row["vs_torch"] = best["torch"] / best["dynamo"]
        row["vs_torch_fresh_outputs"] = best["torch"] / best["dynamo_fresh"]
    row.update({"compile_ms": report.compile_time * 1e3, "first_ms": first * 1e3,
                "cpu_numpy_ms": cpu["numpy"], "cpu_dynamo_1thread_ms": cpu["dynamo_t1"]})
    if "torch" in best:
        row["torch_first_s"] = torch_first
    return row


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return (f"{cpu}, {usable_cores()} cores, Python {platform.python_version()}, "
            f"NumPy {np.__version__}, load average {os.getloadavg()[0]:.1f}")


def run(args=None) -> list[dict]:
    rounds = getattr(args, "rounds", None) or getattr(args, "repeat", None) or 7
    use_torch = getattr(args, "torch", True)
    wanted = getattr(args, "models", None)
    cases = [c for c in CASES if not wanted or c[0] in wanted.split(",")]
    return [bench_case(name, size, rounds, use_torch) for name, size in cases]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--no-torch", dest="torch", action="store_false")
    ap.add_argument("--models", default="")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    print(f"machine: {machine()}")
    rows = run(args)
    columns = list(dict.fromkeys(k for r in rows for k in r))
    print("  ".join(columns))
    for r in rows:
        print("  ".join(f"{r[c]:.3f}" if isinstance(r.get(c), float) else str(r.get(c, "-"))
                        for c in columns))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
