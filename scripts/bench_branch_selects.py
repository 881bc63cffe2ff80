"""``if``s on array data that choose a value, as a ``branch_select`` or as a graph break
(issue #19).

With ``dynamo.config.branch_selects`` (the default) both ways of such an ``if`` are
traced and run, and a ``branch_select`` op picks the taken way's values: one graph.
Without it, the ``if`` is a graph break (the graph before it, the jump in Python, a
resume function's graph after it). Each row, side by side in one process, compiled
once per setting:

- ``plain_us``: the function run by Python;
- ``select_us``: compiled, both ways in the graph;
- ``break_us``: compiled, the ``if`` a graph break;
- ``break/select``: above 1, the one graph is faster than the break.

The untaken way's ops run too, so the price grows with what that way computes; and a
graph whose untaken way reports a floating-point condition reruns the frame eagerly
(``reciprocal`` with ``d == 0``: the ``zero`` rows). Times are the median over rounds
of the mean CPU time of a batch of calls (``time.process_time``: the machines are
shared), the three interleaved per round.

Run: ``.venv/bin/python scripts/bench_branch_selects.py [--rounds 5] [--backend numpy]``.

Example::

    $ .venv/bin/python scripts/bench_branch_selects.py --rounds 3
    | program | n | plain_us | select_us | break_us | break/select |
"""

from __future__ import annotations

import argparse

import numpy as np
from option_pairs import print_table  # (siblings: scripts/ is on sys.path)


def sign_dispatch(x):
    y = x * 0.5
    if y.sum() > 0:
        y = y * 2
    else:
        y = -y
    return np.tanh(y) + 1


def clipped_momentum(w, g, v, lr):
    n = np.sqrt(np.sum(g * g))
    if n > 1.0:
        g = g / n
    v = 0.9 * v + g
    return w - lr * v, v


def reciprocal(d, x):
    if d != 0:
        y = x / d
    else:
        y = x * 0
    return y + 1


def _sign_args(n):
    return (np.random.default_rng(0).normal(size=n),)


def _momentum_args(n):
    rng = np.random.default_rng(1)
    return (rng.normal(size=n), rng.normal(size=n), np.zeros(n), 0.01)


def _reciprocal_args(n):
    return (np.array(2.0), np.random.default_rng(2).normal(size=n))


def _zero_args(n):
    return (np.array(0.0), np.random.default_rng(2).normal(size=n))


PROGRAMS = [("sign_dispatch", sign_dispatch, _sign_args),
            ("clipped_momentum", clipped_momentum, _momentum_args),
            ("reciprocal", reciprocal, _reciprocal_args),
            ("reciprocal zero", reciprocal, _zero_args)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--backend", default="numpy")
    opts = parser.parse_args(argv)
    print_table(PROGRAMS, opts.backend, opts.rounds, option="branch_selects", on="select",
                off="break")


if __name__ == "__main__":
    main()
