"""Loops whose body breaks, outlined or not (issue #15): plain NumPy against the static
rule alone (``config.outline_trial_calls = 0``: what ran before the trial) and the
trial (dynamo/outline_trial.py: both ways timed on the first calls, the faster kept),
numpy backend, side by side in one process, CPU time (``time.process_time``).

Two shapes the static rule (trips sharing the largest array at fewer than
``outline_min_elements // 64`` elements a trip run as plain Python) cannot tell apart:

- one trip per element of 10**5 (``for i in range(len(x)): if x[i] > hi: ...``):
  outlined, each trip is a dispatch for a few elements' work;
- 1000 time steps over 10**5 elements, a data-dependent ``if`` in every step: 100
  elements a trip by the rule, yet each trip is ~0.2 ms of array work that the
  outlined body's graphs fuse.

Each row: the first ``--warm`` calls of each (the trial settles in them: their CPU
time is the ``first calls`` columns), then ``--rounds`` rounds of one call each,
interleaved; the lower quartile. Run::

    .venv/bin/python scripts/bench_outline_trial.py [--rounds 7] [--warm 10]
"""

from __future__ import annotations

import argparse
import logging
import time

import numpy as np

import dynamo
from dynamo.config import config


def per_element(x, hi, hits):
    for i in range(x.shape[0]):
        if x[i] > hi:           # the append under a data condition breaks the graph
            hits.append(i)
            x[i] = hi
    return x


def time_steps(u, steps, log):
    for t in range(steps):
        u = u + 0.1 * (np.roll(u, 1) - 2.0 * u + np.roll(u, -1))
        if u[0] > 10.0:         # data-dependent: breaks the graph on every trip
            log.append(t)
    return u


def cases():
    x = np.random.default_rng(0).standard_normal(100_000)
    return [("one trip per element, 10^5", per_element, lambda: (x.copy(), 1.5, [])),
            ("1000 steps over 10^5 elements", time_steps, lambda: (x.copy(), 1000, []))]


def _call(fn, make) -> float:
    args = make()
    t = time.process_time()
    fn(*args)
    return time.process_time() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--warm", type=int, default=10)
    opts = parser.parse_args()
    logging.basicConfig(format="%(name)s: %(message)s")
    logging.getLogger("dynamo.loops").setLevel(logging.DEBUG)
    print("program | plain ms | static rule ms | trial ms | plain/static | plain/trial | "
          "first calls: static s | trial s")
    for name, fn, make in cases():
        trials = config.outline_trial_calls
        config.outline_trial_calls = 0
        static = dynamo.compile(fn, backend="numpy")
        first_static = sum(_call(static, make) for _ in range(opts.warm))  # (compiled here)
        config.outline_trial_calls = trials
        trial = dynamo.compile(fn, backend="numpy")
        first_trial = sum(_call(trial, make) for _ in range(opts.warm))
        times = {"plain": [], "static": [], "trial": []}
        for _ in range(opts.rounds):
            for key, f in (("plain", fn), ("static", static), ("trial", trial)):
                times[key].append(_call(f, make))
        q = {k: sorted(v)[len(v) // 4] * 1e3 for k, v in times.items()}
        print(f"{name} | {q['plain']:.1f} | {q['static']:.1f} | {q['trial']:.1f} | "
              f"{q['plain'] / q['static']:.2f} | {q['plain'] / q['trial']:.2f} | "
              f"{first_static:.2f} | {first_trial:.2f}", flush=True)


if __name__ == "__main__":
    main()
