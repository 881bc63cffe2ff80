"""Real-world programs: plain NumPy against dynamo's numpy and eager backends (issue #15).

Programs of the shapes NumPy users write (time-stepping stencils, ODE integrators,
iterative solvers, small-matrix linear algebra in loops, training steps, simulations,
statistics, image filters, scalar recursions) plus programs of tests/realworld scaled
up, each at a size where plain NumPy takes about a millisecond or more per call: the
corpus is ``scripts/realworld_programs.py`` (``programs()``); this script times it.

For each program, side by side in one run:

- ``plain_ms`` / ``numpy_ms`` / ``eager_ms``: the lower quartile of interleaved calls
  (plain NumPy, ``dynamo.compile(fn, backend="numpy")``, ``backend="eager"``, in a
  rotating order each round; mutated inputs are fresh copies made outside the timed
  region) after the warm-up calls;
- ``ratio``: plain / numpy backend (> 1: compiled is faster); ``eager_ratio`` likewise;
  a program under 0.95x is timed a second time (``recheck``: both passes' ratios) and
  the two passes' calls are pooled; times are CPU time of the process
  (``time.process_time``, ``--wall`` for wall-clock), since on a shared machine
  wall-clock time also counts waiting for a core;
- ``first_ms``: the numpy backend's first call (trace + compile + run);
- ``graphs`` / ``breaks``: what ``dynamo.explain(fn, backend="numpy")`` reports;
- ``match``: compiled results allclose to plain ones (rtol 1e-6, atol 1e-9), both backends;
- ``mem``: tracemalloc peak of one numpy-backend call / one plain call (separate calls);
  ``peak_kib`` the former. ``mem`` is flagged above 1.25x when also 64 KiB or more above.

    .venv/bin/python scripts/bench_realworld.py                 # every program
    .venv/bin/python scripts/bench_realworld.py --filter heat   # names containing "heat"
    .venv/bin/python scripts/bench_realworld.py --quick --markdown

Programs under 0.95x (``slow``) or with ``mem`` above 1.25x (``mem``) are flagged in the
``flag`` column and listed after the table with their graph-break reasons.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import statistics
import sys
import time
import tracemalloc

# One BLAS thread: on a small, shared machine OpenBLAS's threads make matrix products
# 10-40x slower and erratic for plain NumPy and compiled code alike. (Only when this
# script is the first to import NumPy: imported after it, the setting has no effect.)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from realworld_programs import programs  # noqa: E402  (a sibling: scripts/ is on sys.path)

import dynamo  # noqa: E402

SLOW, MEM = 0.95, 1.25      # the flags: slower than this ratio, more memory than this
MEM_FLOOR = 64 << 10        # ... and more than this many bytes above plain's peak


# ---------------------------------------------------------------- measuring

def _fresh(args):
    """Copies of every (nested) array argument: programs that mutate get new inputs."""
    return copy.deepcopy(args)


def _close(a, b) -> bool:
    if isinstance(a, dict):
        return (isinstance(b, dict) and a.keys() == b.keys()
                and all(_close(a[k], b[k]) for k in a))
    if isinstance(a, (list, tuple)):
        return (isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_close(x, y) for x, y in zip(a, b)))
    if isinstance(a, (np.ndarray, np.generic, float, int, complex)):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        return bool(np.allclose(a, b, rtol=1e-6, atol=1e-9, equal_nan=True))
    return a == b


def _peak(fn, args, kwargs) -> int:
    args = _fresh(args)
    tracemalloc.start()
    try:
        fn(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _explain(fn, args, kwargs):
    try:
        report = dynamo.explain(fn, backend="numpy")(*_fresh(args), **kwargs)
    except Exception as exc:  # noqa: BLE001  (a report, not a test)
        return "?", "?", [f"explain raised {type(exc).__name__}"]
    reasons = sorted({b.reason.splitlines()[0] for b in report.break_reasons})
    return report.graph_count, report.graph_break_count, reasons


def measure(name, fn, args, kwargs, rounds: int, warmup: int) -> dict:
    dynamo.reset()
    variants = {"plain": fn,
                "numpy": dynamo.compile(fn, backend="numpy"),
                "eager": dynamo.compile(fn, backend="eager")}
    first = {}
    results = {}
    for key, f in variants.items():          # first calls (compiles), results compared
        a = _fresh(args)
        t = time.perf_counter()
        results[key] = f(*a, **kwargs)
        first[key] = time.perf_counter() - t
    for _ in range(warmup - 1):
        for f in variants.values():
            f(*_fresh(args), **kwargs)
    times = _timings(variants, args, kwargs, rounds)
    q = _quartiles(times)
    peak_plain, peak_numpy = _peak(fn, args, kwargs), _peak(variants["numpy"], args, kwargs)
    mem = peak_numpy / max(1, peak_plain)
    graphs, breaks, reasons = _explain(fn, args, kwargs)
    match = ("yes" if _close(results["plain"], results["numpy"]) else "NO numpy")
    if not _close(results["plain"], results["eager"]):
        match = "NO eager" if match == "yes" else "NO both"
    ratio = q["plain"] / q["numpy"]
    return {"program": name, "recheck": "",
            "plain_ms": q["plain"] * 1e3, "numpy_ms": q["numpy"] * 1e3,
            "eager_ms": q["eager"] * 1e3, "ratio": ratio, "eager_ratio": q["plain"] / q["eager"],
            "first_ms": first["numpy"] * 1e3, "graphs": graphs, "breaks": breaks,
            "match": match, "mem": mem, "peak_kib": peak_numpy / 1024,
            "flag": _flag(ratio, mem, peak_numpy - peak_plain), "reasons": reasons,
            "_times": times, "_extra_bytes": peak_numpy - peak_plain}


def clock() -> float:
    """CPU seconds of this process (user + system, all its threads): on a machine shared
    with other work, wall-clock time also counts the time the process waits for a core.
    ``--wall`` switches to ``time.perf_counter``."""
    return time.process_time()


def _timings(variants, args, kwargs, rounds: int) -> dict:
    """Seconds per call of each variant, interleaved: the order rotates every round."""
    times = {key: [] for key in variants}
    order = list(variants)
    for i in range(rounds):
        for key in order[i % 3:] + order[:i % 3]:
            a = _fresh(args)
            t = clock()
            variants[key](*a, **kwargs)
            times[key].append(clock() - t)
    return times


def _quartiles(times) -> dict:
    return {key: sorted(ts)[len(ts) // 4] for key, ts in times.items()}   # lower quartile


def recheck(row, fn, args, kwargs, rounds: int) -> None:
    """Time a slow-looking program once more: the two passes' calls are pooled (the
    lower quartile of all of them), so a burst of other work in one pass weighs less."""
    dynamo.reset()
    variants = {"plain": fn,
                "numpy": dynamo.compile(fn, backend="numpy"),
                "eager": dynamo.compile(fn, backend="eager")}
    for f in variants.values():
        f(*_fresh(args), **kwargs)
        f(*_fresh(args), **kwargs)
    again = _timings(variants, args, kwargs, rounds)
    q = _quartiles({k: row["_times"][k] + again[k] for k in again})
    second = _quartiles(again)
    row["recheck"] = f"{row['ratio']:.2f}/{second['plain'] / second['numpy']:.2f}"
    row.update(plain_ms=q["plain"] * 1e3, numpy_ms=q["numpy"] * 1e3, eager_ms=q["eager"] * 1e3,
               ratio=q["plain"] / q["numpy"], eager_ratio=q["plain"] / q["eager"])
    row["flag"] = _flag(row["ratio"], row["mem"], row["_extra_bytes"])


def measure_all(pattern: str, rounds: int, warmup: int, progress=None) -> list[dict]:
    rows = []
    for name, fn, a, kw in programs():
        if pattern.lower() not in name.lower():
            continue
        row = measure(name, fn, a, kw, rounds, warmup)
        if row["ratio"] < SLOW:
            recheck(row, fn, a, kw, rounds)
        rows.append(row)
        if progress:
            progress(row)
    return rows


def _flag(ratio, mem, extra_bytes) -> str:
    """'slow', 'mem', both or ''. A peak ratio over a few KiB of plain peak is not
    flagged (a scalar recursion's 300 bytes against 400 says nothing)."""
    big = mem > MEM and extra_bytes > MEM_FLOOR
    return " ".join(w for w, bad in (("slow", ratio < SLOW), ("mem", big)) if bad)


def run(args=None) -> list[dict]:
    """``bench.py`` section: every program (``--quick`` sizes of repeats by default)."""
    quick = getattr(args, "quick", True)
    rounds, warmup = (7, 1) if quick else (15, 2)
    rows = measure_all(getattr(args, "filter", "") or "", rounds, warmup)
    return [{k: v for k, v in r.items() if not k.startswith("_") and k != "reasons"}
            for r in rows]


def geomean(values) -> float:
    values = [v for v in values if v > 0]
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


COLUMNS = ["program", "plain_ms", "numpy_ms", "eager_ms", "ratio", "recheck", "eager_ratio",
           "first_ms", "graphs", "breaks", "match", "mem", "peak_kib", "flag"]


def _cell(v) -> str:
    if isinstance(v, float):
        return f"{v:.2f}" if abs(v) < 100 else f"{v:.0f}"
    return str(v)


def print_rows(rows, markdown: bool) -> None:
    cells = [[_cell(r[c]) for c in COLUMNS] for r in rows]
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "---|" * len(COLUMNS))
        for r, row in zip(rows, cells):
            for column, word in (("ratio", "slow"), ("mem", "mem")):
                if word in r["flag"].split():
                    i = COLUMNS.index(column)
                    row[i] = f"**{row[i]}**"
            print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    else:
        widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(COLUMNS)]
        print("  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths)))
        for row in cells:
            print("  ".join(v.ljust(w) for v, w in zip(row, widths)))
    ratios = [r["ratio"] for r in rows]
    print(f"\ngeometric mean plain/numpy backend: {geomean(ratios):.3f}x "
          f"(eager backend {geomean([r['eager_ratio'] for r in rows]):.3f}x) over "
          f"{len(rows)} programs; median {statistics.median(ratios):.3f}x")
    flagged = [r for r in rows if r["flag"]]
    print(f"flagged (ratio < {SLOW} or mem > {MEM}): {len(flagged)}")
    for r in flagged:
        why = "; ".join(r["reasons"]) or "no graph break"
        print(f"- {r['program']}: {r['ratio']:.2f}x, mem {r['mem']:.2f}x ({r['flag']}); "
              f"breaks: {why}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filter", default="", help="only programs whose name contains this")
    ap.add_argument("--quick", action="store_true", help="7 rounds after 1 warm-up call")
    ap.add_argument("--markdown", action="store_true", help="a table for docs/benchmarks.md")
    ap.add_argument("--wall", action="store_true", help="time wall-clock, not CPU time")
    args = ap.parse_args(argv)
    if args.wall:
        global clock
        clock = time.perf_counter
    t0 = time.perf_counter()
    rounds, warmup = (7, 1) if args.quick else (15, 2)

    def progress(r):
        print(f"  {r['program']}: {r['ratio']:.2f}x  ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr, flush=True)
    rows = measure_all(args.filter, rounds, warmup, progress)
    if rows:
        print_rows(rows, args.markdown)
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
