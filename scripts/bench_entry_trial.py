"""The entry trial (``dynamo/entry_trial.py``) measured two ways, side by side.

    python scripts/bench_entry_trial.py [--rounds 60]            # the plain way's cost
    python scripts/bench_entry_trial.py --wait [--rounds 60]     # the wait's cost
    python scripts/bench_entry_trial.py --corpus 12 [--rounds 5] [--repeat K]
        [--from N] [--old-rule] [--backend numpy] [PROGRAM...]

The first: the cost of a call of a compiled function whose trial chose the plain
way, against calling the function itself and against the compiled way
(``config.entry_trial_calls = 0``). Each round times 5000 calls of each way,
interleaved; the table shows the least per-call time over the rounds (the least is a
round no other process interrupted) and the plain way's extra cost over the function.

``--wait``: the cost of a call while the trial waits (``auto`` with Numba while a
graph's tier 2 compiles: dynamo/entry_wait.py), against the compiled call itself; both
report "busy" on each call, as tier 1 does while Numba compiles.

``--corpus 12`` (or 13): issue #16's stateful corpus, each program's scenario (20
calls; ``--repeat K``: its input lists K times over, 20 K calls) run plainly, compiled
with the trial off and with it on (numpy backend; ``--backend auto``: the default,
which with Numba installed waits for the native tiers, dynamo/entry_wait.py),
interleaved, each compiled run from
a fresh ``dynamo.reset()``; per program the median over rounds of the median wall time
(``time.perf_counter``) of calls 3-20 and of calls 11-20 (21 to the last with
``--repeat``; ``--from N``: N + 1 to the last), and plain / compiled ratios.
``--old-rule`` adds "least of 3": the trial as first built (3 timed calls each, the
least time wins, no ``SPEND``, no ``MARGIN``), and "3 + margin" (no ``SPEND``).
Run under ``scripts/run_in_tree.py`` in a tree without the trial, "trial off" is that
tree's compiled call and "trial on" is left out.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

import dynamo  # noqa: E402


def two(x, y):               # positional parameters: the plain way takes them by name
    return x + y


def with_default(x, y=1.0):  # a default: the plain way takes *args, **kwargs
    return x + y


def ways(fn, args):
    """(name, callable) per way, each warmed (the trial decided)."""
    dynamo.config.entry_trial_calls = 0
    compiled = dynamo.compile(fn, backend="numpy")
    dynamo.config.entry_trial_calls = 3
    trial = dynamo.compile(fn, backend="numpy")
    for _ in range(40):
        compiled(*args)
        trial(*args)
    return [("function", fn), ("compiled", compiled), ("trial's way", trial)], trial


def per_call(g, args, n=5000) -> float:
    start = time.perf_counter()
    for _ in range(n):
        g(*args)
    return (time.perf_counter() - start) / n * 1e6


def corpus(argv, rounds: int) -> None:
    import statistics

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[1:1] = [os.path.join(root, "tests", "realworld")]
    number = argv[argv.index("--corpus") + 1]
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 1
    data = __import__(f"stateful_corpus{number}_data")
    for value in vars(data).values():   # the scenarios iterate these lists: longer runs
        if isinstance(value, list) and len(value) == data.CALLS:
            value[:] = value * repeat
    programs = __import__(f"stateful_corpus{number}").PROGRAMS
    # the second window: from call ``--from`` N + 1 (default: after the first 20 calls)
    late = int(argv[argv.index("--from") + 1]) if "--from" in argv else \
        20 if repeat > 1 else 10
    backend = argv[argv.index("--backend") + 1] if "--backend" in argv else "numpy"
    names = [a for a in argv if not a.startswith("--") and
             a not in (number, str(rounds), str(repeat), str(late), backend)]
    programs = [p for p in programs if not names or p.name in names]
    has_trial = hasattr(dynamo.config, "entry_trial_calls")
    kinds = ["plain", "trial off"] + (["trial on"] if has_trial else [])
    from dynamo import entry_trial as trial_module
    # the first trial's rule (3 timed calls each, least time wins): ``SPEND`` 0, no margin
    rules = {"least of 3": {"SPEND": 0.0, "MARGIN": 1.0},   # the first trial's rule
             "3 + margin": {"SPEND": 0.0}}                  # 3 calls each, MARGIN
    if "--old-rule" in argv and hasattr(trial_module, "SPEND"):
        kinds += list(rules)

    def run(prog, kind):
        times = []

        def wrap(fn):
            if kind != "plain":
                if has_trial:
                    dynamo.config.entry_trial_calls = 0 if kind == "trial off" else 3
                fn = dynamo.compile(fn, backend=backend)

            def call(*args, **kwargs):
                start = time.perf_counter()
                try:
                    return fn(*args, **kwargs)
                finally:
                    times.append(time.perf_counter() - start)
            return call
        dynamo.reset()
        rule = rules.get(kind, {})
        saved = {k: getattr(trial_module, k) for k in rule}
        vars(trial_module).update(rule)
        try:
            prog.scenario(wrap)
        finally:
            vars(trial_module).update(saved)
        return times

    runs = {(p.name, k): [] for p in programs for k in kinds}
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(rounds):
            for p in programs:
                for k in kinds:
                    runs[p.name, k].append(run(p, k))

    def med(name, kind, lo):
        hi = 20 if lo == 2 else None
        return statistics.median(statistics.median(t[lo:hi]) for t in runs[name, kind]) \
            * 1e6
    last = f"{late + 1}-{20 * repeat}"

    print("| program | " + " | ".join(f"{k} us 3-20 | {k} us {last}" for k in kinds) +
          " | " + " | ".join(f"plain/{k} 3-20 | plain/{k} {last}" for k in kinds[1:]) +
          " |")
    print("|---|" + "---:|" * (2 * len(kinds) + 2 * (len(kinds) - 1)))
    ratios = {(k, lo): [] for k in kinds[1:] for lo in (2, late)}
    for p in programs:
        cols = [p.name]
        for k in kinds:
            cols += [f"{med(p.name, k, 2):.1f}", f"{med(p.name, k, late):.1f}"]
        for k in kinds[1:]:
            for lo in (2, late):
                r = med(p.name, "plain", lo) / med(p.name, k, lo)
                ratios[k, lo].append(r)
                cols.append(f"{r:.2f}x")
        print("| " + " | ".join(cols) + " |")
    for (k, lo), r in ratios.items():
        window = "3-20" if lo == 2 else last
        print(f"{k}, calls {window}: geometric mean plain/compiled "
              f"{statistics.geometric_mean(r):.2f}x; >= 0.95x {sum(x >= 0.95 for x in r)} "
              f"of {len(r)}")


def wait_cost(rounds: int) -> None:
    from dynamo import tier_reports
    from dynamo.entry_trial import EntrySlots
    x = np.ones(3)
    dynamo.config.entry_trial_calls = 0
    compiled = dynamo.compile(two, backend="numpy")
    compiled(x, x)

    def busy(x, y):   # (as a graph in tier 1 while Numba compiles)
        tier_reports.busy()
        return compiled(x, y)
    waiting = EntrySlots(None, busy, two, "two", 3, waits=True).current
    named = [("compiled", busy), ("waiting", waiting)]
    best = {name: float("inf") for name, _ in named}
    for _ in range(rounds):
        for name, g in named:
            best[name] = min(best[name], per_call(g, (x, x)))
    print("| compiled us | waiting us | extra us |\n|---:|---:|---:|")
    print(f"| {best['compiled']:.3f} | {best['waiting']:.3f} | "
          f"{best['waiting'] - best['compiled']:.3f} |")


def main(argv) -> None:
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 60
    if "--wait" in argv:
        return wait_cost(rounds)
    if "--corpus" in argv:
        return corpus(argv, rounds if "--rounds" in argv else 5)
    x = np.ones(3)
    print("| program | function us | compiled us | trial's way us | way chosen | "
          "extra over the function us |")
    print("|---|---:|---:|---:|---|---:|")
    for fn in (two, with_default):
        named, trial = ways(fn, (x, x))
        best = {name: float("inf") for name, _ in named}
        for _ in range(rounds):
            for name, g in named:
                best[name] = min(best[name], per_call(g, (x, x)))
        chosen = "plain" if getattr(trial._call, "__wrapped__", None) is fn and \
            trial._call is not fn else type(trial._call).__name__
        print(f"| {fn.__name__} | {best['function']:.3f} | {best['compiled']:.3f} | "
              f"{best[named[2][0]]:.3f} | {chosen} | "
              f"{best[named[2][0]] - best['function']:.3f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
