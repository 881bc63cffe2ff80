"""``while <array test>:`` loops capped by a counter in the body (issue #19, task t3):
plain vs compiled, small and large arrays, side by side in one process.

Each row runs one program plainly and compiled (``--backend``, numpy by default) in
interleaved rounds and reports the best CPU time of each (``time.process_time``: the
machines are shared) and plain / compiled. Run it in a tree and in a copy of HEAD to
compare (``scripts/run_in_tree.py``)::

    .venv/bin/python scripts/bench_while_caps.py [--rounds 7] [--backend numpy] [--only cg]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np

import dynamo

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "translator"))
import corpus_while_caps as c  # noqa: E402


def _cases():
    rng = np.random.default_rng(0)
    small, big = rng.uniform(1.0, 100.0, 50), rng.uniform(1.0, 100.0, 1_000_000)
    s60, s400 = c._spd(60), c._spd(400)
    b60, b400 = rng.standard_normal(60), rng.standard_normal(400)
    return [
        ("newton_cap_return n=50", c.newton_cap_return, (small,)),
        ("newton_cap_return n=1e6", c.newton_cap_return, (big,)),
        ("newton_cap_return capped n=1e6", c.newton_cap_return, (big, 1e-10, 3)),
        ("fixed_point_cap n=50", c.fixed_point_cap, (small / 100.0,)),
        ("fixed_point_cap n=1e6", c.fixed_point_cap, (big / 100.0, 1e-12, 60)),
        ("cg_cap n=60", c.cg_cap, (s60, b60)),
        ("cg_cap n=400", c.cg_cap, (s400, b400)),
        ("power_cap_break n=60", c.power_cap_break, (s60, 1e-9, 50)),
        ("power_cap_break n=400", c.power_cap_break, (s400, 1e-9, 50)),
        ("gd_cap n=60", c.gd_cap, (s60 / 120.0, b60, 0.05, 1e-8, 200)),
        ("bisect_cap_first 0-d", c.bisect_cap_first, (np.array(1.0), np.array(2.0))),
        ("bisect_cap_first_rows n=1000", c.bisect_cap_first_rows,
         (np.ones(1000), np.full(1000, 2.0))),
    ]


def _timed(fn, args, times: list) -> None:
    start = time.process_time()
    fn(*args)
    times.append(time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--backend", default="numpy")
    parser.add_argument("--only", default="", help="programs whose name has this")
    opts = parser.parse_args()
    warnings.simplefilter("ignore")
    print(f"{'program':34s} {'plain_ms':>9s} {'compiled_ms':>11s} {'speedup':>8s}")
    for name, fn, args in _cases():
        if opts.only not in name:
            continue
        compiled = dynamo.compile(fn, backend=opts.backend)
        compiled(*args)
        compiled(*args)
        plain, comp = [], []
        for _ in range(opts.rounds):
            _timed(fn, args, plain)
            _timed(compiled, args, comp)
        p, q = min(plain), min(comp)
        print(f"{name:34s} {p * 1e3:9.2f} {q * 1e3:11.2f} {p / q:8.2f}")


if __name__ == "__main__":
    main()
