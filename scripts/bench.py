"""Benchmarks: the model suite on every usable backend, side by side in one run.

    python scripts/bench.py                      # small sizes, every usable backend
    python scripts/bench.py --size large         # 1e7-element CPU sizes / GPU anchor sizes
    python scripts/bench.py --backends eager,numpy --models gelu,softmax --json out.json

For each model and backend it prints the median time per call of plain eager code
and of the compiled function, the speedup, and the first call's time (trace +
compile + run). GPU timings are per call over a batch of calls followed by one
synchronize. Then: the dispatch overhead of a cached call (``bench_dispatch``), and
the trace time of one program at 1e2 and 1e7 elements (tracing must not grow with
data), and the compile time of a function with 10 to 200 graph breaks, and
``state``: programs whose Python state changes each call (an appended list, an int
step, a fresh list of floats, a growing token list; ``--state-only`` runs just it).
Other benchmark modules plug in through ``EXTRA_SECTIONS``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "shared"))  # models
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "realworld"))

import models  # noqa: E402

import dynamo  # noqa: E402
from dynamo import listeners  # noqa: E402

# Modules with `run(args) -> list[dict]` rows, printed as their own tables when present.
EXTRA_SECTIONS = ("bench_dispatch", "bench_numpy_backend", "bench_loops", "bench_partition",
                  "bench_cupy_backend", "bench_cudagraphs")


def gpu_available() -> bool:
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # noqa: BLE001
        return False


def sync(xp) -> None:
    if xp is not np:
        xp.cuda.Stream.null.synchronize()


def time_calls(fn, inputs, xp, repeat: int, batch: int) -> float:
    """Median seconds per call over ``repeat`` batches of ``batch`` calls."""
    times = []
    for _ in range(repeat):
        sync(xp)
        t = time.perf_counter()
        for _ in range(batch):
            fn(*inputs)
        sync(xp)
        times.append((time.perf_counter() - t) / batch)
    return statistics.median(times)


def bench_model(name: str, backend: str, xp, size: str, repeat: int) -> dict:
    fn, inputs = models.make(name, xp, size)
    batch = 50 if xp is not np else (1 if size == "large" else 20)
    fn(*inputs)  # warm the library (allocator, BLAS threads)
    eager = time_calls(fn, inputs, xp, repeat, batch)
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    sync(xp)
    t = time.perf_counter()
    compiled(*inputs)
    sync(xp)
    first = time.perf_counter() - t
    fast = time_calls(compiled, inputs, xp, repeat, batch)
    return {"model": name, "backend": backend, "library": xp.__name__, "size": size,
            "eager_ms": eager * 1e3, "compiled_ms": fast * 1e3, "speedup": eager / fast,
            "first_call_ms": first * 1e3}


def trace_cost() -> list[dict]:
    """Trace + compile time of one program at 1e2 and 1e7 elements (eager backend)."""
    rows = []
    for n in (100, 10_000_000):
        x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
        times = []
        for _ in range(5):
            report = dynamo.explain(models.gelu, backend="eager")(x)
            times.append(report.compile_time)
        # best of 5: tracing is pure Python; the minimum filters out machine noise
        rows.append({"elements": n, "trace_compile_ms": min(times) * 1e3})
    return rows


def graph_breaks(counts=(10, 25, 50, 100, 200), repeat: int = 3) -> list[dict]:
    """Compile time of one function with N graph breaks (a print between array ops):
    the first call, best of ``repeat`` fresh functions, as wall time (``compile_s``, the
    report's) and CPU time of the whole first call (``cpu_s``: what other processes on
    a shared machine do not inflate); the deepest chain of resume functions (1: each
    continues the original) and how many were re-assembled rather than patched."""
    import io
    from contextlib import redirect_stdout

    from dynamo.bytecode import resume
    from dynamo.bytecode.patch import WORK
    rows = []
    for n in counts:
        walls, cpus = [], []
        for k in range(repeat):
            # a docstring of its own: equal code objects would share the caches
            lines = ["def many(x):", f"    'run {k}'"]
            for i in range(n):
                lines += ["    x = x * 2 + 1", f"    print({i})"]
            scope: dict = {}
            exec("\n".join(lines + ["    return x"]), scope)
            assembled = WORK["assembled"]
            cpu = time.process_time()
            with redirect_stdout(io.StringIO()):
                report = dynamo.explain(scope["many"], backend="eager")(np.ones(3))
            cpus.append(time.process_time() - cpu)
            walls.append(report.compile_time)
            assembled = WORK["assembled"] - assembled
            assert len(report.records) == n + 1, len(report.records)
        depth = max(r.code.co_qualname.count("_resume_at_L") for r in report.records)
        assert all(resume.original_code(r.code) is scope["many"].__code__
                   for r in report.records)
        rows.append({"breaks": n, "compile_s": min(walls), "cpu_s": min(cpus),
                     "per_break_ms": min(walls) / n * 1e3,
                     "resume_depth": depth, "assembled": assembled})
    return rows


def decode_loop() -> list[dict]:
    """A transformer block called with sequence lengths 5..40: compiles and time."""
    block, _ = models.make("transformer", np)
    rows = []
    with listeners.listening(_CountTraces()) as traces:
        for backend in ("eager", "numpy"):
            dynamo.reset()
            traces.n = 0
            compiled = dynamo.compile(block, backend=backend)
            xs = [np.random.default_rng(t).standard_normal((t, 256)).astype(np.float32)
                  for t in range(5, 41)]
            t0 = time.perf_counter()
            for x in xs:
                block(x)
            eager = time.perf_counter() - t0
            t0 = time.perf_counter()
            for x in xs:
                compiled(x)
            fast = time.perf_counter() - t0
            t0 = time.perf_counter()   # the same lengths again: every size compiled now
            for x in xs:
                compiled(x)
            again = time.perf_counter() - t0
            rows.append({"loop": "T = 5..40", "backend": backend, "compiles": traces.n,
                         "eager_ms": eager * 1e3, "compiled_ms": fast * 1e3,
                         "again_ms": again * 1e3})
    return rows


# ---------------------------------------------------------------- stateful programs (#16)

class _Layer:
    """A numpy-ml layer that keeps its inputs."""

    def __init__(self):
        self.X = []

    def forward(self, x):
        self.X.append(x)
        return np.tanh(x)


def _adam_step(g, m, t):
    m = 0.9 * m + 0.1 * g
    return m / (1 - 0.9 ** t)


def _weighted(xs, a):
    return a * np.array(xs)


def _embed_head(inputs, wte, wpe):
    """picoGPT's embedding and tied head, for a greedy decode over a token list."""
    x = wte[inputs] + wpe[range(len(inputs))]
    x = np.tanh(x)
    return x @ wte.T


class _LossScaler:
    """Mixed-precision loss scaling: the scale doubles every third step (a float the
    frame writes back on one branch; ``dynamo.symbolic.written_numbers``)."""

    def __init__(self):
        self.scale, self.good_steps = 1024.0, 0

    def unscale(self, grads):
        out = grads / self.scale
        self.good_steps += 1
        if self.good_steps % 3 == 0:
            self.scale *= 2.0
        return out


class _EpsilonGreedy:
    """Epsilon-greedy actions with a decaying epsilon and a draw compared with it."""

    def __init__(self):
        self.rng = np.random.default_rng(1)
        self.eps = 1.0
        self.Q = np.random.default_rng(2).standard_normal((5, 4))

    def select(self, state):
        if self.rng.random() < self.eps:
            a = int(self.rng.integers(4))
        else:
            a = int(np.argmax(self.Q[state]))
        self.eps = max(0.05, self.eps * 0.9)
        return a


class _KVCache:
    """Greedy decoding with a key/value cache kept as lists of rows, stacked each step
    (one stacked input of symbolic length: ``dynamo.variables.stacked_lists``)."""

    def __init__(self, d):
        rng = np.random.default_rng(3)
        self.keys, self.values = [], []
        self.Wk, self.Wv = rng.standard_normal((2, d, d)) * (0.5 / d ** 0.5)

    def step(self, x):
        self.keys.append(x @ self.Wk)
        self.values.append(x @ self.Wv)
        K, V = np.stack(self.keys), np.stack(self.values)
        s = K @ x / np.sqrt(len(x))
        p = np.exp(s - s.max())
        return (p / p.sum()) @ V


def _state_programs():
    """(name, function maker, argument tuples per call) for the ``state`` section."""
    # SpinningUp's array replay buffer: ``obs_buf[:size]``, ``size`` counting from 0
    from stateful_programs import ArrayReplayBuffer
    rng = np.random.default_rng(0)
    g = rng.standard_normal(4096).astype(np.float32)
    m = np.zeros(4096, np.float32)
    wte = rng.standard_normal((256, 64)).astype(np.float32)
    wpe = rng.standard_normal((64, 64)).astype(np.float32)
    ids = [int(i) for i in rng.integers(0, 256, 8)]
    x = np.ones(4096, np.float32)
    return [
        ("layer append", lambda: _Layer().forward, [(x,)] * 40),
        ("adam int step", lambda: _adam_step, [(g, m, t) for t in range(1, 41)]),
        ("fresh float list", lambda: _weighted,
         [([0.5 * i + k for k in range(64)], x[:64]) for i in range(40)]),
        ("decode token list", lambda: _embed_head,
         [(ids + list(range(i)), wte, wpe) for i in range(40)]),
        ("decode int64 ids", lambda: _embed_head,
         [(np.array(ids + list(range(i)), np.int64), wte, wpe) for i in range(40)]),
        ("loss scaler", lambda: _LossScaler().unscale, [(g,)] * 40),
        ("epsilon greedy", lambda: _EpsilonGreedy().select, [(i % 5,) for i in range(40)]),
        ("kv cache lists", lambda: _KVCache(64).step,
         [(wte[i],) for i in range(40)]),
        ("replay buffer slice", lambda: ArrayReplayBuffer(8, 1000).store,
         [(wte[i, :8].astype(np.float64), 0.5 * i) for i in range(40)]),
    ]


STATE_ROUNDS = 5   # passes over each program's calls; a call's time is its fastest pass


def stateful() -> list[dict]:
    """Programs whose Python state changes each call: compiles over all passes, and the
    median CPU time (``time.process_time``) per call after the first two, plain NumPy
    against compiled, each call timed in the pass where it ran fastest (other processes
    on the machine slow some passes down). CPU time counts every thread of the process:
    with a multithreaded BLAS, its idle workers' spinning counts too (the decode rows);
    ``OPENBLAS_NUM_THREADS=1`` measures the work alone."""
    rows = []
    clock = time.process_time
    with listeners.listening(_CountTraces()) as traces:
        for name, make, calls in _state_programs():
            for backend in ("eager", "numpy"):
                dynamo.reset()
                traces.n = 0
                plain, compiled = make(), dynamo.compile(make(), backend=backend)
                eager_t = [float("inf")] * len(calls)
                fast_t = [float("inf")] * len(calls)
                for _ in range(STATE_ROUNDS):
                    for i, args in enumerate(calls):
                        t0 = clock()
                        plain(*args)
                        t1 = clock()
                        compiled(*args)
                        t2 = clock()
                        eager_t[i] = min(eager_t[i], t1 - t0)
                        fast_t[i] = min(fast_t[i], t2 - t1)
                e, c = statistics.median(eager_t[2:]), statistics.median(fast_t[2:])
                rows.append({"program": name, "backend": backend, "compiles": traces.n,
                             "eager_us": e * 1e6, "compiled_us": c * 1e6,
                             "speedup": e / c})
    return rows


class _CountTraces:
    """A compile listener: how many frames were traced."""

    def __init__(self):
        self.n = 0

    def on_frame_start(self, fn, ctx):
        self.n += 1


def print_table(rows: list[dict], columns: list[str]) -> None:
    if not rows:
        return
    cells = [[_fmt(r.get(c, "")) for c in columns] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths)))
    for row in cells:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths)))


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 100 else f"{v:.1f}"
    return str(v)


def machine() -> str:
    import os
    cpu = platform.processor() or platform.machine()
    gpu = ""
    if gpu_available():
        import cupy
        gpu = ", GPU " + cupy.cuda.runtime.getDeviceProperties(0)["name"].decode()
    return (f"{platform.node()} ({cpu}, {os.cpu_count()} cores{gpu}), "
            f"Python {platform.python_version()}, NumPy {np.__version__}")


def _print_state() -> list[dict]:
    import os
    print(f"\nstate: Python state that changes each call (40 calls, {STATE_ROUNDS} passes; "
          f"median CPU us per call after the first two; OPENBLAS_NUM_THREADS="
          f"{os.environ.get('OPENBLAS_NUM_THREADS', 'unset')})")
    rows = stateful()
    print_table(rows, ["program", "backend", "compiles", "eager_us", "compiled_us", "speedup"])
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backends", default="", help="comma list (default: every usable one)")
    ap.add_argument("--models", default=",".join(models.MODELS))
    ap.add_argument("--size", choices=("small", "large"), default="small")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", help="also write every row to this file")
    ap.add_argument("--no-extra", action="store_true", help="skip the extra sections")
    ap.add_argument("--state-only", action="store_true",
                    help="only the state section (programs whose Python state changes)")
    args = ap.parse_args(argv)
    if args.state_only:
        print(f"machine: {machine()}")
        _print_state()
        return 0

    usable = [b for b in dynamo.list_backends()
              if b in ("eager", "numpy") or gpu_available()]
    backends = args.backends.split(",") if args.backends else usable
    print(f"machine: {machine()}")
    rows = []
    for name in args.models.split(","):
        for backend in backends:
            libs = [np] if backend in ("eager", "numpy") else []
            if gpu_available() and backend != "numpy":
                import cupy
                libs.append(cupy)
            for xp in libs:
                rows.append(bench_model(name, backend, xp, args.size, args.repeat))
    print("\nmodel suite (median ms per call; first call = trace + compile + run)")
    print_table(rows, ["model", "backend", "library", "size", "eager_ms", "compiled_ms",
                       "speedup", "first_call_ms"])
    sections = {"models": rows}
    print("\ntracing cost does not grow with data (gelu, eager backend)")
    sections["trace_cost"] = trace_cost()
    print_table(sections["trace_cost"], ["elements", "trace_compile_ms"])
    print("\ngraph breaks: compile time of one function with N breaks")
    sections["graph_breaks"] = graph_breaks()
    print_table(sections["graph_breaks"], ["breaks", "compile_s", "cpu_s", "per_break_ms",
                                           "resume_depth", "assembled"])
    print("\ndecode loop: one compiled transformer block, sequence length 5..40 "
          "(total ms incl. compiles; again: the same 36 calls once more)")
    sections["decode_loop"] = decode_loop()
    print_table(sections["decode_loop"], ["loop", "backend", "compiles", "eager_ms",
                                          "compiled_ms", "again_ms"])
    sections["state"] = _print_state()
    if not args.no_extra:
        for mod_name in EXTRA_SECTIONS:
            try:
                mod = importlib.import_module(mod_name)
            except ImportError:
                continue
            section = mod.run(args)
            if section:
                print(f"\n{mod_name}")
                print_table(section, list(section[0].keys()))
                sections[mod_name] = section
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), **sections}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
