"""Loops that break on every trip, plain Python against compiled (issue #15).

The corpus is ``scripts/breaking_loop_programs.py``: event-driven simulations, rejection
sampling, Metropolis steps, adaptive integrators, per-element loops with a
data-dependent ``if``, lists built in loops. Such a loop cannot be one graph; compiled,
it must still run at plain Python's speed. Each row, side by side in one process:

- ``first_ms``: the compiled function's first call (trace, compile, run), and
  ``first_x``: plain / first (below 1: the compile is not paid back by one call);
- ``plain_ms`` / ``compiled_ms``: the lower quartile over rounds of a batch of calls,
  plain and compiled interleaved, CPU time of the process (``time.process_time``: the
  machines these run on are shared, and wall-clock ratios swing with their load);
- ``speedup``: plain / compiled (the target: at least 0.95).

Arguments are made before the clock starts (a fresh ``Generator`` per call, so both sides
draw the same numbers).

Run by itself: ``.venv/bin/python scripts/bench_breaking_loops.py [--rounds 9]
[--backend numpy] [--only NAME]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import breaking_loop_programs  # (siblings: scripts/ is on sys.path)

import dynamo


def _batch(fn, arg_sets) -> float:
    """CPU seconds per call of ``fn`` over the prepared argument tuples."""
    t0 = time.process_time()
    for args in arg_sets:
        fn(*args)
    return (time.process_time() - t0) / len(arg_sets)


def measure(name, fn, make, backend: str, rounds: int, target_s: float = 0.02) -> dict:
    """One row: first call, then interleaved batches of plain and compiled calls."""
    compiled = dynamo.compile(fn, backend=backend)
    args = make()
    t0 = time.process_time()
    compiled(*args)
    first = time.process_time() - t0
    plain_once = max(_batch(fn, [make()]), 1e-6)
    per_batch = max(1, min(200, int(target_s / plain_once)))
    plain, comp = [], []
    for _ in range(rounds):
        plain.append(_batch(fn, [make() for _ in range(per_batch)]))
        comp.append(_batch(compiled, [make() for _ in range(per_batch)]))
    q = lambda xs: statistics.quantiles(xs, n=4)[0] if len(xs) > 1 else xs[0]  # noqa: E731
    p, c = q(plain), q(comp)
    return {"program": name, "first_ms": first * 1e3, "first_x": p / first,
            "plain_ms": p * 1e3, "compiled_ms": c * 1e3, "speedup": p / c}


def run(args) -> list[dict]:
    rows = []
    for name, fn, make in breaking_loop_programs.programs():
        if args.only and name not in args.only:
            continue
        rows.append(measure(name, fn, make, args.backend, args.rounds))
    return rows


def table(rows: list[dict]) -> str:
    head = f"{'program':<24} {'first_ms':>9} {'first_x':>8} {'plain_ms':>9} " \
           f"{'compiled_ms':>11} {'speedup':>8}"
    lines = [head]
    for r in rows:
        lines.append(f"{r['program']:<24} {r['first_ms']:9.2f} {r['first_x']:8.3f} "
                     f"{r['plain_ms']:9.3f} {r['compiled_ms']:11.3f} {r['speedup']:8.2f}")
    if rows:
        gm = statistics.geometric_mean([r["speedup"] for r in rows])
        lines.append(f"geometric mean speedup {gm:.2f}, lowest "
                     f"{min(r['speedup'] for r in rows):.2f}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--backend", default="numpy")
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    print(table(run(args)))


if __name__ == "__main__":
    main()
