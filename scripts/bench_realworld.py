"""Real-world programs: plain NumPy against dynamo's numpy, eager and auto backends (issue #15).

Programs of the shapes NumPy users write (time-stepping stencils, ODE integrators,
iterative solvers, small-matrix linear algebra in loops, training steps, simulations,
statistics, image filters, scalar recursions) plus programs of tests/realworld scaled
up, each at a size where plain NumPy takes about a millisecond or more per call: the
corpus is ``scripts/realworld_programs.py`` (``programs()``) and
``scripts/realworld_programs2.py`` (fifty programs written before they ran under
dynamo, a held-out-style set) and ``scripts/realworld_programs3.py`` (thirty-four more,
written the same way) and ``scripts/realworld_programs4.py`` (forty more: limiters,
lattice Boltzmann, PIC deposits, Monte Carlo, k-NN, Markov chains, statistics
pipelines, data cleaning, polynomial fits) and ``scripts/realworld_programs5.py``
(twenty-five of the shapes a fusing backend should win: stencils over strided views,
elementwise chains with named intermediates, time steppers with several arrays,
normalizations, pairwise distances) and ``scripts/realworld_programs6.py`` (forty-eight
more of every kind the issue names, written the way public NumPy code is: helpers,
classes holding state, fancy indexing, FFTs, small solves) and
``scripts/realworld_programs7.py`` (thirty-one of shapes the six lack: argsort ranks,
quantile bins, ``np.add.at``/``bincount`` group-bys, running maxima, NaN cleaning, a
Kalman smoother, image tiles, Monte Carlo with a Generator, minibatch training) and
``scripts/realworld_programs8.py`` (thirty-one time steppers, iterative solvers,
small-matrix loops, training steps, per-sample filters and FFTs, simulations;
``scripts/realworld_programs9.py`` (ten scalar recursions and training loops that call
model and optimizer objects) and ``scripts/realworld_programs10.py`` (forty-five of
kinds the nine have little of: signal and image processing, statistics, finance,
numerical methods, ML training, simulations) and ``scripts/realworld_programs11.py`` (fifty
in the style of public NumPy repositories: layer classes with backward passes, losses
with gradients, optimizer classes, preprocessing, metrics, clustering, decompositions,
graph algorithms, scientific kernels) and ``scripts/realworld_programs12.py`` (fifty-one
more: FIR/IIR filters as loops, image processing from scratch, list histograms, Welford,
finance loops, ML pieces, numerical methods, graph algorithms) and
``scripts/realworld_programs13.py`` (forty-seven: image, signal, optimisation, Monte
Carlo, geometry, graphs, finance, physics, ML) and ``scripts/realworld_programs14.py``
(fifty: bioinformatics, geoscience, audio, astronomy, robotics, economics, ML pieces,
numerical methods) and ``scripts/realworld_programs15.py`` (forty-seven: finance,
statistics, signal and image processing, graphics and geometry, physics and chemistry,
text and sequences; ``--corpus 1`` to ``15`` for one of them); this script
times it.

For each program, side by side in one run:

- ``plain_ms`` / ``numpy_ms`` / ``eager_ms`` / ``auto_ms``: the lower quartile of
  interleaved calls (plain NumPy, ``dynamo.compile(fn, backend="numpy")``,
  ``backend="eager"``, ``backend="auto"``, in a rotating order each round; mutated
  inputs are fresh copies made outside the timed region) after the warm-up calls;
- ``ratio``: plain / numpy backend (> 1: compiled is faster); ``eager_ratio`` and
  ``auto_ratio`` likewise;
  a program under 0.95x is timed a second time (``recheck``: both passes' ratios) and
  the two passes' calls are pooled; times are CPU time of the process
  (``time.process_time``, ``--wall`` for wall-clock), since on a shared machine
  wall-clock time also counts waiting for a core;
- ``first_ms``: the numpy backend's first call (trace + compile + run); ``auto_first_ms``
  auto's;
- auto's warm-up (``AutoWarmup``): with Numba, auto runs NumPy graphs on the native
  tier, which serves tier 1 (the numpy backend) until a graph is hot (10 calls or 50
  ms in it), compiles tier 2 in a background thread (its own disk cache, a fresh
  directory per run unless ``--native-cache DIR``: the honest first-run figure) and
  races the two tiers (3 calls each); auto is called until every graph it sent to the
  tier has decided (or ``--max-warmup`` seconds): ``auto_calls`` is how many calls of
  the program that took, ``auto_warm_s`` the CPU seconds they took (all threads: the
  compiles included), ``auto_warm_wall_s`` the wall seconds, ``tier2`` how many
  graphs tier 2 won out of those lowered ("2/3"; ``?`` when some had not decided),
  ``auto_match`` whether the result of a call after the warm-up is allclose to
  plain's, ``not_lowered`` why the tier left graphs in tier 1 (the first op or form
  it has no lowering for: the whole graph stays in tier 1);
- ``graphs`` / ``breaks``: what ``dynamo.explain(fn, backend="numpy")`` reports;
- ``match``: compiled results allclose to plain ones (rtol 1e-6, atol 1e-9), both backends;
- ``mem``: tracemalloc peak of one numpy-backend call / one plain call (separate calls);
  ``peak_kib`` the former. ``mem`` is flagged above 1.25x when also 64 KiB or more above.
  ``auto_mem`` likewise for a warm auto call (Numba's own allocations, tier 2's new
  arrays, are not traced by tracemalloc: a lower bound where tier 2 runs).

    .venv/bin/python scripts/bench_realworld.py                 # every program
    .venv/bin/python scripts/bench_realworld.py --filter heat   # names containing "heat"
    .venv/bin/python scripts/bench_realworld.py --quick --markdown
    .venv/bin/python scripts/bench_realworld.py --no-auto       # without the auto column

Programs under 0.95x (``slow``) or with ``mem`` above 1.25x (``mem``) are flagged in the
``flag`` column and listed after the table with their graph-break reasons.
"""

from __future__ import annotations

import argparse
import collections
import copy
import logging
import math
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc

# One BLAS thread: on a small, shared machine OpenBLAS's threads make matrix products
# 10-40x slower and erratic for plain NumPy and compiled code alike. (Only when this
# script is the first to import NumPy: imported after it, the setting has no effect.)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import realworld_programs2  # noqa: E402  (siblings: scripts/ is on sys.path)
import realworld_programs3  # noqa: E402
import realworld_programs4  # noqa: E402
import realworld_programs5  # noqa: E402
import realworld_programs6  # noqa: E402
import realworld_programs7  # noqa: E402
import realworld_programs8  # noqa: E402
import realworld_programs9  # noqa: E402
import realworld_programs10  # noqa: E402
import realworld_programs11  # noqa: E402
import realworld_programs12  # noqa: E402
import realworld_programs13  # noqa: E402
import realworld_programs14  # noqa: E402
import realworld_programs15  # noqa: E402
from realworld_programs import programs  # noqa: E402

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


class AutoWarmup(logging.Handler):
    """Follows what the ``backend`` log channel says about auto's graphs: how many it
    sent to the native tier, how many the tier could lower, and how many have decided
    (tier 2 won, tier 1 won, or Numba failed). Installed while one program runs."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.native = self.unlowered = self.won = self.decided = 0
        self.reasons: list[str] = []    # why the tier could not lower a graph

    def emit(self, record):
        msg = record.getMessage()
        if msg.startswith("backend auto:") and msg.endswith("'native'"):
            self.native += 1
        elif msg.startswith("native tier: graph stays in tier 1:"):
            self.unlowered += 1
            self.reasons.append(msg.partition("tier 1: ")[2])
        elif msg.startswith("native tier:") and (" runs in " in msg or "stays in tier 1 (" in msg
                                                  or "could not compile" in msg):
            self.decided += 1
            self.won += " runs in tier 2" in msg

    @property
    def pending(self) -> int:
        return self.native - self.unlowered - self.decided

    def tier2(self) -> str:
        lowered = self.native - self.unlowered
        return f"{self.won}/{lowered}" + ("?" if self.pending else "")

    def __enter__(self):
        log = logging.getLogger("dynamo.backend")
        self._level = log.level
        log.setLevel(logging.INFO)
        log.addHandler(self)
        return self

    def __exit__(self, *exc):
        log = logging.getLogger("dynamo.backend")
        log.removeHandler(self)
        log.setLevel(self._level)


AUTO = {"on": True, "cache_dir": None, "max_warmup_s": 180.0}   # set by main()


def _warm_auto(f, args, kwargs, watch: AutoWarmup) -> tuple[int, float, float, object]:
    """Call auto's ``f`` until every graph the native tier took has decided, and twice
    more (a graph first reached late is counted), or for ``max_warmup_s`` seconds;
    (calls, CPU s, wall s, last result). The compile thread runs between the calls:
    while one is pending, the loop sleeps 20 ms a call (a program that calls its
    function in a loop makes more calls in that time: its count is lower there)."""
    calls, cpu, wall, result = 0, time.process_time(), time.perf_counter(), None
    settled = 0
    while settled < 2 and time.perf_counter() - wall < AUTO["max_warmup_s"]:
        result = f(*_fresh(args), **kwargs)
        calls += 1
        settled = settled + 1 if watch.pending == 0 else 0
        if watch.pending:
            time.sleep(0.02)   # let the compile thread have the core
    return calls, time.process_time() - cpu, time.perf_counter() - wall, result


def _quiesce(timeout: float) -> None:
    """Wait (at most ``timeout`` seconds) for the native tier's background compiles
    (threads ``dynamo-native-*``) to end: a compile still running, this program's or an
    earlier one's, would count in the CPU time (``process_time`` counts every thread)
    and the tracemalloc peak (every thread's allocations) of whatever runs beside it.
    A thread that outlives the wait is not waited for again."""
    end = time.perf_counter() + timeout
    for thread in threading.enumerate():
        if thread.name.startswith("dynamo-native-") and thread not in _ABANDONED:
            thread.join(max(0.0, end - time.perf_counter()))
            if thread.is_alive():      # waited for once: not again for every program
                _ABANDONED.add(thread)


_ABANDONED: set = set()     # compile threads that outlived a _quiesce


def measure(name, fn, args, kwargs, rounds: int, warmup: int) -> dict:
    _quiesce(AUTO["max_warmup_s"])
    dynamo.reset()
    variants = {"plain": fn,
                "numpy": dynamo.compile(fn, backend="numpy"),
                "eager": dynamo.compile(fn, backend="eager")}
    with AutoWarmup() as watch:
        if AUTO["on"]:
            options = {"cache_dir": AUTO["cache_dir"]} if AUTO["cache_dir"] else None
            variants["auto"] = dynamo.compile(fn, backend="auto", options=options)
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
        auto_row = {}
        if AUTO["on"]:
            calls, cpu, wall, warm_result = _warm_auto(variants["auto"], args, kwargs, watch)
            auto_row = {"auto_first_ms": first["auto"] * 1e3, "auto_calls": calls,
                        "auto_warm_s": cpu, "auto_warm_wall_s": wall, "tier2": watch.tier2(),
                        "auto_match": "yes" if _close(results["plain"], warm_result)
                        and _close(results["plain"], results["auto"]) else "NO"}
            _quiesce(AUTO["max_warmup_s"])
        times = _timings(variants, args, kwargs, rounds)
        if AUTO["on"]:
            auto_row["tier2"] = watch.tier2()
            auto_row["not_lowered"] = "; ".join(sorted(set(watch.reasons)))
    q = _quartiles(times)
    peak_plain, peak_numpy = _peak(fn, args, kwargs), _peak(variants["numpy"], args, kwargs)
    mem = peak_numpy / max(1, peak_plain)
    if AUTO["on"]:
        auto_row["auto_mem"] = _peak(variants["auto"], args, kwargs) / max(1, peak_plain)
        auto_row["auto_ms"] = q["auto"] * 1e3
        auto_row["auto_ratio"] = q["plain"] / q["auto"]
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
            **auto_row,
            "flag": _flag(ratio, mem, peak_numpy - peak_plain), "reasons": reasons,
            "_times": times, "_extra_bytes": peak_numpy - peak_plain, "_variants": variants}


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
        k = i % len(order)
        for key in order[k:] + order[:k]:
            a = _fresh(args)
            t = clock()
            variants[key](*a, **kwargs)
            times[key].append(clock() - t)
    return times


def _quartiles(times) -> dict:
    return {key: sorted(ts)[len(ts) // 4] for key, ts in times.items()}   # lower quartile


def recheck(row, fn, args, kwargs, rounds: int) -> None:
    """Time a slow-looking program once more (the same compiled functions, still warm:
    auto's tiers have decided): the two passes' calls are pooled (the lower quartile
    of all of them), so a burst of other work in one pass weighs less."""
    variants = row["_variants"]
    for f in variants.values():
        f(*_fresh(args), **kwargs)
    again = _timings(variants, args, kwargs, rounds)
    q = _quartiles({k: row["_times"][k] + again[k] for k in again})
    second = _quartiles(again)
    row["recheck"] = f"{row['ratio']:.2f}/{second['plain'] / second['numpy']:.2f}"
    row.update(plain_ms=q["plain"] * 1e3, numpy_ms=q["numpy"] * 1e3, eager_ms=q["eager"] * 1e3,
               ratio=q["plain"] / q["numpy"], eager_ratio=q["plain"] / q["eager"])
    if "auto" in q:
        row["recheck"] += f" a{row['auto_ratio']:.2f}/{second['plain'] / second['auto']:.2f}"
        row.update(auto_ms=q["auto"] * 1e3, auto_ratio=q["plain"] / q["auto"])
    row["flag"] = _flag(row["ratio"], row["mem"], row["_extra_bytes"])


def corpus(which: str = "all") -> list:
    """The programs of ``realworld_programs.py`` ("1"), ``realworld_programs2.py``
    ("2"), ``realworld_programs3.py`` ("3"), ``realworld_programs4.py`` ("4"),
    ``realworld_programs5.py`` ("5"), ``realworld_programs6.py`` ("6"),
    ``realworld_programs7.py`` ("7"), ``realworld_programs8.py`` ("8"),
    ``realworld_programs9.py`` ("9"), ``realworld_programs10.py`` ("10"),
    ``realworld_programs11.py`` ("11"), ``realworld_programs12.py`` ("12"),
    ``realworld_programs13.py`` ("13"), ``realworld_programs14.py`` ("14"),
    ``realworld_programs15.py`` ("15") or all of them ("all")."""
    return ((programs() if which in ("all", "1") else [])
            + (realworld_programs2.programs() if which in ("all", "2") else [])
            + (realworld_programs3.programs() if which in ("all", "3") else [])
            + (realworld_programs4.programs() if which in ("all", "4") else [])
            + (realworld_programs5.programs() if which in ("all", "5") else [])
            + (realworld_programs6.programs() if which in ("all", "6") else [])
            + (realworld_programs7.programs() if which in ("all", "7") else [])
            + (realworld_programs8.programs() if which in ("all", "8") else [])
            + (realworld_programs9.programs() if which in ("all", "9") else [])
            + (realworld_programs10.programs() if which in ("all", "10") else [])
            + (realworld_programs11.programs() if which in ("all", "11") else [])
            + (realworld_programs12.programs() if which in ("all", "12") else [])
            + (realworld_programs13.programs() if which in ("all", "13") else [])
            + (realworld_programs14.programs() if which in ("all", "14") else [])
            + (realworld_programs15.programs() if which in ("all", "15") else []))


def measure_all(pattern: str, rounds: int, warmup: int, progress=None,
                which: str = "all") -> list[dict]:
    rows = []
    for name, fn, a, kw in corpus(which):
        if pattern.lower() not in name.lower():
            continue
        row = measure(name, fn, a, kw, rounds, warmup)
        if row["ratio"] < SLOW or row.get("auto_ratio", 1.0) < SLOW:
            recheck(row, fn, a, kw, rounds)
        row.pop("_variants")
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
    rows = measure_all(getattr(args, "filter", "") or "", rounds, warmup,
                       which=getattr(args, "corpus", "all"))
    return [{k: v for k, v in r.items() if not k.startswith("_") and k != "reasons"}
            for r in rows]


def geomean(values) -> float:
    values = [v for v in values if v > 0]
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


COLUMNS = ["program", "plain_ms", "numpy_ms", "eager_ms", "ratio", "recheck", "eager_ratio",
           "first_ms", "graphs", "breaks", "match", "mem", "peak_kib", "flag"]
AUTO_COLUMNS = ["auto_ms", "auto_ratio", "auto_first_ms", "auto_calls", "auto_warm_s",
                "auto_warm_wall_s", "tier2", "auto_match", "auto_mem", "not_lowered"]


def _cell(v) -> str:
    if isinstance(v, float):
        return f"{v:.2f}" if abs(v) < 100 else f"{v:.0f}"
    return str(v)


def print_rows(rows, markdown: bool) -> None:
    columns = COLUMNS[:-1] + (AUTO_COLUMNS if "auto_ms" in rows[0] else []) + COLUMNS[-1:]
    cells = [[_cell(r[c]) for c in columns] for r in rows]
    if markdown:
        print("| " + " | ".join(columns) + " |")
        print("|" + "---|" * len(columns))
        for r, row in zip(rows, cells):
            for column, word in (("ratio", "slow"), ("mem", "mem")):
                if word in r["flag"].split():
                    i = columns.index(column)
                    row[i] = f"**{row[i]}**"
            print("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    else:
        widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
        print("  ".join(c.ljust(w) for c, w in zip(columns, widths)))
        for row in cells:
            print("  ".join(v.ljust(w) for v, w in zip(row, widths)))
    ratios = [r["ratio"] for r in rows]
    print(f"\ngeometric mean plain/numpy backend: {geomean(ratios):.3f}x "
          f"(eager backend {geomean([r['eager_ratio'] for r in rows]):.3f}x) over "
          f"{len(rows)} programs; median {statistics.median(ratios):.3f}x")
    if "auto_ms" in rows[0]:
        _print_auto(rows)
    flagged = [r for r in rows if r["flag"]]
    print(f"flagged (ratio < {SLOW} or mem > {MEM}): {len(flagged)}")
    for r in flagged:
        why = "; ".join(r["reasons"]) or "no graph break"
        print(f"- {r['program']}: {r['ratio']:.2f}x, mem {r['mem']:.2f}x ({r['flag']}); "
              f"breaks: {why}")


def _print_auto(rows) -> None:
    """auto against the issue's targets: over the programs where plain NumPy takes
    1 ms or more, the geometric mean, how many are under 0.95x, which ones tier 2 won."""
    big = [r for r in rows if r["plain_ms"] >= 1.0]
    ratios = [r["auto_ratio"] for r in big]
    print(f"auto backend: geometric mean {geomean(ratios):.3f}x over the {len(big)} "
          f"programs of >= 1 ms (numpy backend {geomean([r['ratio'] for r in big]):.3f}x); "
          f"under {SLOW}x: {sum(x < SLOW for x in ratios)}; auto_mem over {MEM}x: "
          f"{sum(r['auto_mem'] > MEM for r in big)}; results not allclose: "
          f"{sum(r['auto_match'] != 'yes' for r in rows)}")
    won = [r for r in rows if not r["tier2"].startswith("0/")]
    print(f"tier 2 won a graph in {len(won)} programs: " + "; ".join(
        f"{r['program']} ({r['tier2']}, {r['auto_ratio']:.2f}x)" for r in won))
    reasons = collections.Counter(
        re.sub(r"op '[^']*' is not lowered", "op ... is not lowered", why)
        for r in rows for why in r["not_lowered"].split("; ") if why)
    print("graphs the native tier could not lower, by reason: " + "; ".join(
        f"{why} ({n})" for why, n in reasons.most_common()))
    ops = collections.Counter(m for r in rows for m in re.findall(r"op '(\w+)' is not lowered",
                                                                   r["not_lowered"]))
    print("  ops: " + ", ".join(f"{op} ({n})" for op, n in ops.most_common()))
    warm = [r["auto_calls"] for r in rows]
    print(f"calls until every graph decided: median {statistics.median(warm):.0f}, max "
          f"{max(warm)}; CPU s of those calls: median "
          f"{statistics.median(r['auto_warm_s'] for r in rows):.2f}, total "
          f"{sum(r['auto_warm_s'] for r in rows):.0f}; auto's first call: median "
          f"{statistics.median(r['auto_first_ms'] for r in rows):.0f} ms (numpy backend "
          f"{statistics.median(r['first_ms'] for r in rows):.0f} ms)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filter", default="", help="only programs whose name contains this")
    ap.add_argument("--corpus", choices=("all", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                          "11", "12", "13", "14", "15"),
                    default="all",
                    help="realworld_programs.py (1), realworld_programs2.py (2), "
                    "realworld_programs3.py (3), realworld_programs4.py (4), "
                    "realworld_programs5.py (5), realworld_programs6.py (6), "
                    "realworld_programs7.py (7), realworld_programs8.py (8), "
                    "realworld_programs9.py (9), realworld_programs10.py (10), "
                    "realworld_programs11.py (11), realworld_programs12.py (12), "
                    "realworld_programs13.py (13), realworld_programs14.py (14), "
                    "realworld_programs15.py (15) or all")
    ap.add_argument("--quick", action="store_true", help="7 rounds after 1 warm-up call")
    ap.add_argument("--markdown", action="store_true", help="a table for docs/benchmarks.md")
    ap.add_argument("--wall", action="store_true", help="time wall-clock, not CPU time")
    ap.add_argument("--no-auto", action="store_true", help="leave out backend='auto'")
    ap.add_argument("--native-cache", default=None, metavar="DIR",
                    help="the native tier's disk cache (default: a fresh directory, so "
                    "every kernel is compiled as on a first run)")
    ap.add_argument("--max-warmup", type=float, default=180.0, metavar="SECONDS",
                    help="auto's warm-up calls stop after this many seconds, decided or "
                    "not (default 180)")
    args = ap.parse_args(argv)
    AUTO.update(on=not args.no_auto, max_warmup_s=args.max_warmup,
                cache_dir=args.native_cache or tempfile.mkdtemp(prefix="dynamo-native-"))
    if args.wall:
        global clock
        clock = time.perf_counter
    t0 = time.perf_counter()
    rounds, warmup = (7, 1) if args.quick else (15, 2)

    def progress(r):
        print(f"  {r['program']}: {r['ratio']:.2f}x  ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr, flush=True)
    rows = measure_all(args.filter, rounds, warmup, progress, which=args.corpus)
    if rows:
        print_rows(rows, args.markdown)
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
