"""Running bests kept from a Python number (``best = np.inf; if d < best: best = d``),
plain against compiled, side by side in one process (issue #15/#19, task p63/t2).

The programs: those of ``tests/breaks/test_running_choices.py`` (short, unrolled
loops), ``tests/breaks/test_running_choice_nodes.py`` (loop nodes of 12-30 trips), the
everyday loop corpus's running bests and neighbours (``tests/breaks/
everyday_loop_programs.py``, the heldout perceptron), and larger sizes (300 centers,
a 1000-element window scan). Each: best wall time of ``--calls`` calls, plain and
compiled interleaved, ``--rounds`` times; prints plain/compiled per program and the
geometric mean. Compare two trees with ``scripts/run_in_tree.py``::

    .venv/bin/python scripts/run_in_tree.py /tmp/before scripts/bench_running_choices.py
    .venv/bin/python scripts/bench_running_choices.py
"""

from __future__ import annotations

import argparse
import copy
import pathlib
import sys
import time
import warnings

import numpy as np

import dynamo

TESTS = pathlib.Path(__file__).resolve().parent.parent / "tests"


def _programs() -> list:
    sys.path[:0] = [str(TESTS), str(TESTS / "breaks"), str(TESTS / "realworld")]
    import everyday_loop_programs as everyday
    import heldout_programs4
    import test_running_choice_nodes as nodes
    import test_running_choices as short
    progs = []
    for name, (fn, argsets) in short.CLEAN.items():
        progs.append((f"short/{name}", fn, argsets[0]))
    for name, (fn, argsets, *_) in nodes.PROGRAMS.items():
        progs.append((f"node/{name}", fn, argsets[0]))
    keep = ("closest_center", "best_threshold", "best_window", "max_drawdown",
            "min_max_loop", "running_max_scalar", "pair_min_dist", "kmeans_assign",
            "tri_pick_inf_8", "tri_pick_inf_40", "tri_pair_min_8", "tri_pair_min_40",
            "tri_max_pair", "nearest_earlier")
    progs += [(f"everyday/{n}", fn, args) for n, fn, args in everyday.PROGRAMS if n in keep]
    progs += [(f"heldout/{p[0]}", p[1], p[2]) for p in heldout_programs4.PROGRAMS
              if p[0] == "perceptron_epochs"]
    rng = np.random.default_rng(3)
    progs += [("large/closest_300", nodes.closest, (rng.random(3), rng.random((300, 3)))),
              ("large/window_1000", nodes.window, (rng.random(1000), 8)),
              ("large/int_max_1000", nodes.int_max, (rng.integers(0, 10 ** 6, 1000),))]
    return progs


def _best(fn, args, calls: int) -> float:
    times = []
    for _ in range(calls):
        fresh = copy.deepcopy(args)
        start = time.perf_counter()
        fn(*fresh)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", default="numpy")
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=None, help="programs whose name contains this")
    parser.add_argument("--no-entry-trial", action="store_true",
                        help="config.entry_trial_calls = 0 (the compiled way every call)")
    opts = parser.parse_args()
    warnings.simplefilter("ignore")
    if opts.no_entry_trial and hasattr(dynamo.config, "entry_trial_calls"):
        dynamo.config.entry_trial_calls = 0
    ratios = []
    for name, fn, args in _programs():
        if opts.only and opts.only not in name:
            continue
        dynamo.reset()
        compiled = dynamo.compile(fn, backend=opts.backend)
        for _ in range(3):   # (compile, settle)
            compiled(*copy.deepcopy(args))
        plain = comp = float("inf")
        for _ in range(opts.rounds):
            plain = min(plain, _best(fn, args, opts.calls))
            comp = min(comp, _best(compiled, args, opts.calls))
        dynamo.reset()
        report = dynamo.explain(fn, backend=opts.backend)(*copy.deepcopy(args))
        ratios.append(plain / comp)
        print(f"{name:34s} breaks {report.graph_break_count}  plain {plain * 1e6:8.1f} us  "
              f"compiled {comp * 1e6:8.1f} us  plain/compiled {plain / comp:.2f}")
    print(f"geometric mean {np.exp(np.mean(np.log(ratios))):.3f} over {len(ratios)} programs")


if __name__ == "__main__":
    main()
