"""Symbolic sizes on the numpy backend: the code past the per-size variants (issue #14).

A function called with many sizes compiles one symbolic entry; the numpy backend runs
its first ``GENERIC_AFTER`` sizes as static variants, and later sizes as one
size-generic function. Each row runs one program side by side in one process, at a
size none of the compiled functions has a variant for:

- ``plain``: the program, uncompiled;
- ``op_by_op``: past the variants, the graph's eager code (every op an ``ops.*``
  call: what the backend ran there before the generated size-generic code);
- ``generic``: past the variants, the backend's generated size-generic code;
- ``static``: the same size as a static variant (fused, sizes baked in).

Times are CPU time of the process (``time.process_time``; the machines are shared),
the minimum over interleaved rounds of ``--calls`` calls each, per call.

Run: ``.venv/bin/python scripts/bench_symbolic_sizes.py [--rounds 30]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from bench_loops import stencil, upwind  # a sibling: scripts/ is on sys.path
from dynamo.backends.common import python_function
from dynamo.backends.numpy_backend import numpy_backend
from dynamo.backends.numpy_backend.sizes import PerSize, is_symbolic

import dynamo


def op_by_op_past_variants(graph, inputs, options=None):
    """The numpy backend as it was: static variants, then the graph's eager code."""
    if is_symbolic(graph):
        return PerSize(graph, lambda static, args: numpy_backend(static, args, options),
                       lambda: python_function(graph))
    return numpy_backend(graph, inputs, options)


op_by_op_past_variants.dynamic_shapes = True


def prefix_sum(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x


def back_substitution(U, y):
    n = len(y)
    x = np.zeros_like(y)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


def cases():
    """(name, fn, make(n), warm-up sizes (more than the variants), measured size)."""
    rng = np.random.default_rng(0)
    return [
        ("prefix sum", prefix_sum, lambda n: (rng.random(n),),
         [1000 + 37 * k for k in range(8)], 2000),
        ("stencil, symbolic steps", stencil,
         lambda n: (rng.random(n), np.zeros(n), 20 + n % 7),
         [200 + 13 * k for k in range(8)], 400),
        ("upwind 2-D", upwind, lambda n: (rng.random((n, n)), 10 + n % 5),
         [30 + 3 * k for k in range(8)], 64),
        ("back substitution", back_substitution,
         lambda n: (np.triu(rng.random((n, n))) + n * np.eye(n), rng.random(n)),
         [100 + 9 * k for k in range(8)], 300),
    ]


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def run(rounds: int = 30, calls: int = 5) -> list[dict]:
    rows = []
    for name, fn, make, warm, n in cases():
        op_by_op = dynamo.compile(fn, backend=op_by_op_past_variants)
        generic = dynamo.compile(fn, backend="numpy")
        static = dynamo.compile(fn, backend="numpy")
        for m in warm:               # past the variants: n runs the size-generic code
            op_by_op(*make(m))
            generic(*make(m))
        static(*make(warm[0]))       # a static entry, then n is a static variant
        args = make(n)
        runners = {"plain": fn, "op_by_op": op_by_op, "generic": generic, "static": static}
        for f in runners.values():   # (the static variant's first call compiles it)
            f(*_copies(args))
            f(*_copies(args))
        best = dict.fromkeys(runners, float("inf"))
        for _ in range(rounds):
            for key, f in runners.items():
                a = _copies(args)
                start = time.process_time()
                for _ in range(calls):
                    f(*a)
                best[key] = min(best[key], (time.process_time() - start) / calls)
        rows.append({"case": f"{name} n={n}", **{k: v * 1e3 for k, v in best.items()}})
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=5)
    args = parser.parse_args(argv)
    print("| case | plain | op by op (before) | generic (after) | static variant |")
    print("|---|---|---|---|---|")
    for r in run(args.rounds, args.calls):
        cells = [f"{r[key]:.3f} ms ({r['plain'] / r[key]:.2f}x)"
                 for key in ("op_by_op", "generic", "static")]
        print(f"| {r['case']} | {r['plain']:.3f} ms | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
