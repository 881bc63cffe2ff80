"""CPU time of the programs whose graph break task t6 removed (issue #19), plain Python
against ``dynamo.compile``, interleaved rounds, ``time.process_time``: a loop exit that
reads a counter (PageRank, 3.13+), a deque made in the frame (BFS), ``math.sqrt`` /
``math.exp`` of a reduction, a power of a drawn float; and neighbours that must not get
slower (the same shapes at other sizes).

Run it in this tree and, for "before", in another checkout::

    .venv/bin/python scripts/bench_removed_breaks.py --rounds 5
    .venv/bin/python scripts/run_in_tree.py /tmp/base scripts/bench_removed_breaks.py

Each row: plain us per call, compiled us per call (the best round), plain / compiled,
and the breaks ``dynamo.explain`` reports. Example line::

    pagerank 500             plain  2301.0 us  compiled  1650.2 us  1.39x  breaks 0
"""

from __future__ import annotations

import argparse
import copy
import math
import sys
import time
import warnings

import numpy as np
from realworld_programs13_sci import bfs_levels_deque, pagerank_even_dangling  # (corpus 13's)

import dynamo


def normalize(x):
    return x / math.sqrt((x * x).sum())


def softmax_temp(x):
    return np.exp(x - x.max()) * math.exp(-x.mean())


def jitter_walk(rng, x, n=20):
    for _ in range(n):
        x = x + (rng.random() - 0.5) ** 2
    return x


def _programs():
    rng = np.random.default_rng(0)
    directed = (rng.random((500, 500)) < 0.01).astype(float)
    small = (rng.random((60, 60)) < 0.1).astype(float)
    adj = np.triu((rng.random((300, 300)) < 0.03).astype(float), 1)
    adj = adj + adj.T
    return [("pagerank 500", pagerank_even_dangling, lambda: (directed,)),
            ("pagerank 60", pagerank_even_dangling, lambda: (small,)),
            ("bfs deque 300", bfs_levels_deque, lambda: (adj, 0)),
            ("bfs deque 40", bfs_levels_deque, lambda: (adj[:40, :40], 0)),
            ("normalize 100", normalize, lambda: (rng.random(100),)),
            ("normalize 1e6", normalize, lambda: (np.linspace(0.1, 1.0, 10 ** 6),)),
            ("softmax_temp 1e5", softmax_temp, lambda: (np.linspace(-1.0, 1.0, 10 ** 5),)),
            ("jitter_walk 100", jitter_walk,
             lambda: (np.random.default_rng(1), np.zeros(100))),
            ("jitter_walk 1e5", jitter_walk,
             lambda: (np.random.default_rng(1), np.zeros(10 ** 5)))]


def _time(fn, make, calls: int) -> float:
    args = [make() for _ in range(calls)]
    t = time.process_time()
    for a in args:
        fn(*a)
    return (time.process_time() - t) / calls * 1e6


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=30)
    ap.add_argument("--backend", default="numpy")
    ap.add_argument("--trial", action="store_true",
                    help="keep the entry trial (where this tree has one): the first calls "
                         "choose plain Python where the graphs are slower")
    args = ap.parse_args(argv)
    if not args.trial and hasattr(dynamo.config, "entry_trial_calls"):
        dynamo.config.entry_trial_calls = 0     # (the graphs themselves are measured)
    print(f"Python {sys.version.split()[0]}, NumPy {np.__version__}, backend {args.backend}")
    for name, fn, make in _programs():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            dynamo.reset()
            breaks = dynamo.explain(fn, backend=args.backend)(*copy.deepcopy(make()))
            breaks = breaks.graph_break_count
            compiled = dynamo.compile(fn, backend=args.backend)
            for _ in range(3):
                compiled(*make())            # (compiles and warms up)
            plain, comp = [], []
            for _ in range(args.rounds):    # (interleaved: the load is shared)
                plain.append(_time(fn, make, args.calls))
                comp.append(_time(compiled, make, args.calls))
        p, c = min(plain), min(comp)
        print(f"{name:20s}  plain {p:9.1f} us  compiled {c:9.1f} us  {p / c:5.2f}x  "
              f"breaks {breaks}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
