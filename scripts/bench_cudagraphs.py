"""Benchmark of the cudagraphs backend: the issue's two models, side by side in one run.

    python scripts/bench_cudagraphs.py [--repeat 7] [--no-torch] [--json out.json]
    python scripts/bench.py              # includes this section when a GPU is present

For the MLP (batch 32, 512->1024->1024->10) and the transformer block (64 tokens,
width 256, 4 heads) of ``tests/shared/models.py``, per call = 50 calls back to back, then
one synchronize, divided by 50 (median of ``--repeat`` runs), for:

- ``cupy_eager``: the model's own CuPy calls;
- ``cudagraphs``: ``dynamo.compile(backend="cudagraphs")``, the same input object
  every call (all inputs captured in place: no copies), and ``cudagraphs_fresh``:
  a new input array each call (one copy per call);
- ``cupy+cudagraphs``: ``backend="cupy", options={"cudagraphs": True}`` (fused kernels
  recorded), when the cupy backend is registered;
- ``torch_compile_default`` and ``torch_compile_reduce_overhead``: the same model in
  PyTorch with the same weights (skipped with ``--no-torch`` or without torch).

Each cudagraphs row also breaks a call down, every part timed the same way on its own:
``dispatch_us`` (guards and glue: the compiled call minus the runner call),
``input_copies_us``, ``replay_us`` (the graph launch alone: GPU-bound time of the
recording), ``output_copies_us``; ``host_us`` is the Python time of one call without
waiting for the GPU (below per_call_us: the GPU is the bottleneck).

Targets (docs/cudagraphs.md): per call <= 0.7x torch reduce-overhead's and >= 4x faster than CuPy
eager. ``run(args)`` returns [] without a GPU.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "shared"))  # models

MODELS = ("mlp", "transformer")
BATCH = 50
COLUMNS = ("model", "variant", "per_call_us", "speedup_vs_cupy", "vs_torch_ro", "dispatch_us",
           "input_copies_us", "replay_us", "output_copies_us", "host_us", "max_err", "state")


def gpu_available() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001
        return False


def run(args) -> list[dict]:
    if not gpu_available():
        return []
    repeat = getattr(args, "repeat", 7)
    torch_too = not getattr(args, "no_torch", False)
    rows: list[dict] = []
    for name in MODELS:
        rows += bench_model(name, repeat, torch_too)
        # each model's rows as soon as they exist: a run cut off by a timeout keeps them
        print(json.dumps(rows, default=str), file=sys.stderr, flush=True)
    return rows


# --------------------------------------------------------------------------- timing

def per_call(step, repeat: int, sync) -> float:
    """Median seconds per call of ``step(i)`` over ``repeat`` batches of BATCH calls."""
    for i in range(3):
        step(i)
    times = []
    for _ in range(repeat):
        sync()
        t = time.perf_counter()
        for i in range(BATCH):
            step(i)
        sync()
        times.append((time.perf_counter() - t) / BATCH)
    return statistics.median(times)


def host_time(step, repeat: int, sync) -> float:
    """Median seconds per call spent on the host (no wait for the GPU inside the batch)."""
    times = []
    for _ in range(repeat):
        sync()
        t = time.perf_counter()
        for i in range(BATCH):
            step(i)
        times.append((time.perf_counter() - t) / BATCH)
        sync()
    return statistics.median(times)


# --------------------------------------------------------------------------- one model

def bench_model(name: str, repeat: int, torch_too: bool) -> list[dict]:
    import cupy
    import models

    import dynamo

    fn, inputs = models.make(name, cupy)
    x0 = inputs[0]
    rng = np.random.default_rng(1)
    fresh = [cupy.asarray(rng.standard_normal(x0.shape).astype(np.float32))
             for _ in range(BATCH)]
    sync = cupy.cuda.Device().synchronize
    rest = tuple(inputs[1:])
    want = fn(x0, *rest)

    rows = [row(name, "cupy_eager", per_call(lambda i: fn(x0, *rest), repeat, sync))]
    eager_us = rows[0]["per_call_us"]

    dynamo.reset()
    compiled, made = compile_spy(fn, "cudagraphs")
    err = _max_err(compiled(x0, *rest), want)
    same = per_call(lambda i: compiled(x0, *rest), repeat, sync)
    rows.append(row(name, "cudagraphs", same, max_err=err, state=_state(made)))
    rows.append(_breakdown(name, compiled, made, fresh, rest, repeat, sync))

    from dynamo.backends import list_backends
    if "cupy" in list_backends():
        dynamo.reset()
        try:
            fused, made = compile_spy(fn, "cupy", cudagraphs=True)
            err = _max_err(fused(x0, *rest), want)
            t = per_call(lambda i: fused(fresh[i], *rest), repeat, sync)
            rows.append(row(name, "cupy+cudagraphs", t, max_err=err, state=_state(made)))
        except Exception as e:  # noqa: BLE001 (report, keep benchmarking)
            rows.append(row(name, "cupy+cudagraphs", float("nan"),
                            state=f"failed: {type(e).__name__}: {e}"[:80]))
    dynamo.reset()
    if torch_too:
        rows += _torch_rows(name, fn, inputs, fresh, repeat)
    ro = next((r["per_call_us"] for r in rows if r["variant"] == "torch_compile_reduce_overhead"),
              None)
    for r in rows:
        if isinstance(r["per_call_us"], float) and r["per_call_us"] == r["per_call_us"]:
            r["speedup_vs_cupy"] = eager_us / r["per_call_us"]
            if ro:
                r["vs_torch_ro"] = r["per_call_us"] / ro
    return rows


def _breakdown(name, compiled, made, fresh, rest, repeat, sync) -> dict:
    """A fresh input each call, and the same call taken apart."""
    import cupy
    from dynamo.backends.cudagraphs.runner import REPLAY, CudaGraphRunner
    total = per_call(lambda i: compiled(fresh[i], *rest), repeat, sync)
    host = host_time(lambda i: compiled(fresh[i], *rest), repeat, sync)
    runners = [m for m in made if isinstance(m, CudaGraphRunner)]
    r = row(name, "cudagraphs_fresh", total, host_us=host * 1e6, state=_state(made))
    if len(runners) != 1 or runners[0].state != REPLAY:
        return r                                  # several graphs or not recorded: no split
    run = runners[0]
    args = list(run.static_inputs)
    slots = [c[0] for c in run._copies]
    if len(slots) > 1:
        return r                                  # only x is meant to change per call

    def call_args(i):
        for slot in slots:
            args[slot] = fresh[i]
        return args

    dev, held = run._device, run._held
    stream = cupy.cuda.get_current_stream()
    runner_t = per_call(lambda i: run(*call_args(i)), repeat, sync)

    def copies(i):
        for _slot, _buf, dst, lo, nbytes, _layout in run._copies:
            dev.memcpy(dst, dev.address(fresh[i]) + lo, nbytes, stream)

    r["dispatch_us"] = (total - runner_t) * 1e6
    r["input_copies_us"] = per_call(copies, repeat, sync) * 1e6
    r["replay_us"] = per_call(lambda i: dev.launch(held.graph, stream), repeat, sync) * 1e6
    r["output_copies_us"] = per_call(lambda i: run._outputs.build(call_args(i), stream),
                                     repeat, sync) * 1e6
    return r


def compile_spy(fn, backend: str = "cudagraphs", **options):
    """``dynamo.compile`` with ``backend``, keeping what the backend returned per graph."""
    from dynamo.backends import lookup_backend

    import dynamo
    base = lookup_backend(backend)
    made: list = []

    def spy(graph, example_inputs, options=None):
        out = base(graph, example_inputs, options=options) if options else \
            base(graph, example_inputs)
        made.append(out)
        return out

    spy.layout_guards = True
    spy.dynamic_shapes = getattr(base, "dynamic_shapes", False)
    return dynamo.compile(fn, backend=spy, options=options or None), made


def _state(made) -> str:
    from dynamo.backends.cudagraphs.runner import CudaGraphRunner, PerShapeRunner
    states = []
    for m in made:
        inner = list(m.runners.values()) if isinstance(m, PerShapeRunner) else [m]
        for r in inner:
            if isinstance(r, CudaGraphRunner):
                states.append(r.state if r.reason is None else f"{r.state}: {r.reason}")
            else:
                states.append("uncaptured")
    return "; ".join(states)[:120] or "no graph"


def _max_err(got, want) -> float:
    import cupy
    got = got[0] if isinstance(got, tuple) else got
    return float(cupy.abs(got - want).max())


def row(model, variant, seconds, **extra) -> dict:
    r = dict.fromkeys(COLUMNS, "")
    r.update(model=model, variant=variant, per_call_us=seconds * 1e6, **extra)
    return r


# --------------------------------------------------------------------------- torch twins

def _torch_rows(name, fn, inputs, fresh, repeat) -> list[dict]:
    try:
        import torch
    except ImportError:
        return []
    import cupy
    to_t = lambda a: torch.as_tensor(a, device="cuda")   # noqa: E731 (zero-copy view)
    model = _torch_twin(name, fn, to_t)
    x0 = to_t(inputs[0])
    xs = [to_t(x) for x in fresh]
    cupy.cuda.Device().synchronize()
    sync = torch.cuda.synchronize
    rows = [row(name, "torch_eager", per_call(lambda i: model(xs[i]), repeat, sync))]
    for mode in ("default", "reduce-overhead"):
        torch._dynamo.reset()
        try:
            compiled = torch.compile(model, mode=None if mode == "default" else mode)
            err = float((compiled(x0) - model(x0)).abs().max())
            t = per_call(lambda i, c=compiled: c(xs[i]), repeat, sync)
            rows.append(row(name, f"torch_compile_{mode.replace('-', '_')}", t, max_err=err))
        except Exception as e:  # noqa: BLE001
            rows.append(row(name, f"torch_compile_{mode.replace('-', '_')}", float("nan"),
                            state=f"failed: {type(e).__name__}: {e}"[:80]))
    return rows


def _torch_twin(name, fn, to_t):
    """The model of tests/shared/models.py written with torch ops, sharing its weights."""
    import math

    import torch

    def softmax(z):
        e = torch.exp(z - z.amax(-1, keepdim=True))
        return e / e.sum(-1, keepdim=True)

    def layernorm(x, g, b):
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        return (x - mu) / torch.sqrt(var + 1e-5) * g + b

    def gelu(x):
        return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))

    if name == "mlp":
        (w1, b1), (w2, b2), (w3, b3) = [(to_t(w), to_t(b)) for w, b in fn.layers]

        def mlp(x):
            h = torch.clamp_min(x @ w1 + b1, 0)
            h = torch.clamp_min(h @ w2 + b2, 0)
            return softmax(h @ w3 + b3)
        return mlp
    p = {k: to_t(v) for k, v in fn.p.items()}
    heads = fn.heads

    def block(x):
        T, C = x.shape
        D = C // heads
        h = layernorm(x, p["ln1_g"], p["ln1_b"])
        qkv = h @ p["w_qkv"]
        q, k, v = (qkv[:, i * C:(i + 1) * C].reshape(T, heads, D).transpose(0, 1)
                   for i in range(3))
        att = q @ k.transpose(1, 2) / math.sqrt(D)
        i = torch.arange(T, device=x.device)
        att = att + torch.where(i[:, None] >= i[None, :], 0.0, -1e9).to(att.dtype)
        y = (softmax(att) @ v).transpose(0, 1).reshape(T, C) @ p["w_o"]
        x = x + y
        return x + gelu(layernorm(x, p["ln2_g"], p["ln2_b"]) @ p["w_fc"]) @ p["w_proj"]
    return block


# --------------------------------------------------------------------------- main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--no-torch", action="store_true", help="skip the torch.compile rows")
    ap.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args(argv)
    if not gpu_available():
        print("bench_cudagraphs: no CUDA GPU (or no CuPy): nothing to measure")
        return 0
    import bench
    print(f"machine: {bench.machine()}")
    rows = run(args)
    bench.print_table(rows, list(COLUMNS))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": bench.machine(), "rows": rows},
                                              indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
