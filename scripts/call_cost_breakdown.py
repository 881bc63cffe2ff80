"""Where the time of one cached compiled call goes, for programs of the stateful corpora
(issue #15: "the fixed cost of a compiled call"), against the plain call.

    python scripts/call_cost_breakdown.py [--runs 40] [--backend eager] PROGRAM...

Each program's scenario (``tests/realworld/stateful_corpus9*.py``, ``10``, ``11``) runs
``--runs`` times plainly and compiled, interleaved. The compiled runs share one compiled
function per method (``OptimizedMethod`` over one ``OptimizedFunction``, the path
``dynamo.compile(obj.method)`` builds), so after the first run every call is a hit (the
entries stay: no ``dynamo.reset()`` between runs). Each call is timed alone
(``time.perf_counter_ns``), calls 3-10 of runs 2 and on; the table gives medians in ns.

The compiled call is split by timestamps pasted into a copy of the code's dispatcher
(the one ``hook.CodeCache.dispatch`` holds; the frame entry reads it at each call, so
the copy runs in its place for these runs only):

- ``enter``: the call until the dispatcher's first line (the compiled method's slot,
  the frame entry's prologue, the dispatcher's call);
- ``missed checks``: the checks of the entries before the one that hits;
- ``hit check``: the check of the entry that runs;
- ``glue before``: from there to the graph's call (the ufunc settings read, ``try``);
- ``graph``: the compiled graph's call (for an entry whose frame breaks, no graph call
  is marked: its whole body, resume functions included, is counted here);
- ``after``: the rest until the call returns (the replayed writes and appends, the
  return through the frames).

A timestamp costs about ``stamp`` ns (printed), counted into the segment before it, so
the segments add up to more than the compiled column, which is timed in runs of its own
without them. Example::

    $ python scripts/call_cost_breakdown.py cache_hit_miss_counters early_stop_callback_flag
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "realworld")]

import stateful_corpus9  # noqa: E402
import stateful_corpus10  # noqa: E402
import stateful_corpus11  # noqa: E402

import dynamo  # noqa: E402
from dynamo.compiled_methods import OptimizedMethod  # noqa: E402

PROGRAMS = {p.name: p for corpus in (stateful_corpus9, stateful_corpus10, stateful_corpus11)
            for p in corpus.PROGRAMS}
SEGMENTS = ("enter", "missed checks", "hit check", "glue before", "graph", "after")
_ns = time.perf_counter_ns


class Compiled:
    """One compiled function per method, shared by the runs of a program."""

    def __init__(self, backend):
        self.backend, self.by_fn = backend, {}

    def __call__(self, method):
        fn = method.__func__
        cf = self.by_fn.get(fn)
        if cf is None:
            cf = self.by_fn[fn] = dynamo.compile(fn, backend=self.backend)
        return OptimizedMethod(cf, method.__self__)


def _stamped(dispatch, rec: list):
    """A copy of the generated ``dispatch`` that appends ``(label, ns)`` to ``rec``: at
    its first line, after each entry's check (``("check", i)``), before and after its
    graph's call; None where its source is not the generated one."""
    src = getattr(dispatch, "__dynamo_source__", None)
    if src is None:
        return None
    lines, out, entry = src.splitlines(), [], -1
    for line in lines:
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        if line.startswith("    if ___ok:"):
            entry += 1
            out.append(f"    ___rec.append((('check', {entry}), ___ns()))")
        graph_call = "_glue_graph" in stripped and " = " in stripped and \
            stripped.split(" = ", 1)[1].lstrip("(").startswith(f"___e{entry}_glue_graph")
        if graph_call:
            out.append(f"{indent}___rec.append(('graph', ___ns()))")
        out.append(line)
        if graph_call:
            out.append(f"{indent}___rec.append(('graph end', ___ns()))")
        if line.startswith("def ___dispatch"):
            out.append("    ___rec.append(('start', ___ns()))")
    scope = dict(dispatch.__globals__)
    scope.update(___rec=rec, ___ns=_ns)
    exec(compile("\n".join(out) + "\n", "<stamped dispatch>", "exec"), scope)
    return scope["___dispatch"]


def _segments(t0: int, t1: int, rec: list) -> dict | None:
    """The call's segments (``SEGMENTS``) from its records; None where the call did not
    hit an entry of the top-level dispatcher (a miss, or records of nested calls)."""
    marks = {}
    checks = []
    for label, t in rec:
        if label == "start" and "start" not in marks:
            marks["start"] = t
        elif isinstance(label, tuple):
            checks.append(t)
        elif label in ("graph", "graph end") and label not in marks:
            marks[label] = t
    if "start" not in marks or not checks:
        return None
    hit_end = checks[-1]
    hit_start = checks[-2] if len(checks) > 1 else marks["start"]
    g0, g1 = marks.get("graph", hit_end), marks.get("graph end", hit_end)
    return {"enter": marks["start"] - t0, "missed checks": hit_start - marks["start"],
            "hit check": hit_end - hit_start, "glue before": g0 - hit_end,
            "graph": g1 - g0 if "graph" in marks else t1 - hit_end,
            "after": t1 - g1 if "graph" in marks else 0,
            "entry": len(checks) - 1}


def run(prog, wrap, times: list, stamps: list | None = None, rec: list | None = None):
    """One run of ``prog``'s scenario; each call's ns appended to ``times`` (and its
    segments to ``stamps``)."""
    calls = []

    def timed(fn):
        f = wrap(fn)

        def call(*args, **kwargs):
            if rec is not None:
                rec.clear()
            t0 = _ns()
            try:
                return f(*args, **kwargs)
            finally:
                t1 = _ns()
                calls.append(t1 - t0)
                if stamps is not None:
                    stamps.append(_segments(t0, t1, rec))
        return call

    prog.scenario(timed)
    times.append(calls)


def _stamp_cost() -> float:
    rec: list = []
    best = float("inf")
    for _ in range(20):
        t0 = _ns()
        for _ in range(1000):
            rec.append(("x", _ns()))
        best = min(best, (_ns() - t0) / 1000)
        rec.clear()
    return best


def breakdown(prog, runs: int, backend: str) -> dict:
    dynamo.reset()
    plain, compiled, stamped = [], [], []
    segs: list = []
    wrap = Compiled(backend)
    run(prog, wrap, [])                       # the compiles
    run(prog, wrap, [])                       # and any that the second run adds
    rec: list = []
    # the compiled methods' own caches (not those of resume functions or callees: their
    # dispatchers run inside the top-level entry's segments)
    caches = [cf._dynamo_ctx.caches.get(fn.__code__) for fn, cf in wrap.by_fn.items()]
    caches = [c for c in caches if c is not None]
    originals = {id(c): c.dispatch for c in caches}
    for _ in range(runs):
        run(prog, lambda fn: fn, plain)
        run(prog, wrap, compiled)
        for c in caches:   # (a cache with a new entry regenerated its dispatcher)
            originals[id(c)] = c.dispatch
            s = _stamped(c.dispatch, rec)
            if s is not None:
                c.dispatch = s
        try:
            run(prog, wrap, stamped, segs, rec)
        finally:
            for c in caches:
                c.dispatch = originals[id(c)]
    from stateful_corpus9_data import CALLS

    def med(runs_):
        return statistics.median(t for r in runs_ for t in r[2:CALLS])

    per_run = len(stamped[0])
    picked = [s for i, s in enumerate(segs) if 2 <= i % per_run < CALLS and s is not None]
    out = {"plain": med(plain), "compiled": med(compiled), "hits": len(picked),
           "calls": sum(1 for i in range(len(segs)) if 2 <= i % per_run < CALLS)}
    for name in SEGMENTS:
        out[name] = statistics.median(s[name] for s in picked) if picked else float("nan")
    out["entry"] = statistics.mean(s["entry"] for s in picked) if picked else float("nan")
    return out


def main(argv):
    runs, backend = 40, "eager"
    if "--runs" in argv:
        at = argv.index("--runs")
        runs = int(argv[at + 1])
        del argv[at:at + 2]
    if "--backend" in argv:
        at = argv.index("--backend")
        backend = argv[at + 1]
        del argv[at:at + 2]
    names = argv or ["cache_hit_miss_counters", "early_stop_callback_flag",
                     "scheduler_epoch_halving", "episode_reward_tracker",
                     "gradient_accumulation_steps", "sim_step_count_and_time"]
    print(f"backend {backend}; a timestamp costs about {_stamp_cost():.0f} ns; "
          f"load {os.getloadavg()[0]:.1f}")
    cols = ["plain", "compiled", *SEGMENTS]
    print("| program | " + " | ".join(cols) + " | hit entry (mean index) | stamped hits |")
    print("|---|" + "---:|" * (len(cols) + 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            r = breakdown(PROGRAMS[name], runs, backend)
            print(f"| {name} | " + " | ".join(f"{r[c]:.0f}" for c in cols) +
                  f" | {r['entry']:.1f} | {r['hits']}/{r['calls']} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
