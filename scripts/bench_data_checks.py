"""Checks on array data, as a graph op or as a graph break (issue #19).

``assert np.all(p >= 0)``, ``if np.any(np.isnan(x)): raise ...`` and ``assert
np.allclose(...)`` between array work: with ``dynamo.config.data_checks`` (the
default) each check is a ``data_check`` op and the function is one graph; without it,
each check is a graph break (the graph before it, the jump, a resume function). Each
row, side by side in one process, compiled once per setting:

- ``plain_us``: the function run by Python;
- ``checks_us``: compiled, the checks in the graph;
- ``breaks_us``: compiled, the checks as graph breaks;
- ``breaks/checks``: how much the breaks cost (above 1: the op is faster).

Times are the median over rounds of the mean CPU time of a batch of calls
(``time.process_time``: the machines are shared), the three interleaved per round.

Run: ``.venv/bin/python scripts/bench_data_checks.py [--rounds 9] [--backend numpy]``.

Example::

    $ .venv/bin/python scripts/bench_data_checks.py --rounds 5
    | program | n | plain_us | checks_us | breaks_us | breaks/checks |
"""

from __future__ import annotations

import argparse

import numpy as np
from option_pairs import print_table  # (siblings: scripts/ is on sys.path)


def softmax_checked(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    assert np.all(p >= 0), "negative probabilities"
    assert np.allclose(p.sum(axis=1), 1.0), "rows do not sum to 1"
    return np.log(p + 1e-12) * p


def step_checked(w, x, y, lr):
    r = x @ w - y
    loss = np.mean(r ** 2)
    if not np.isfinite(loss):
        raise FloatingPointError("loss is not finite")
    g = x.T @ r / len(y)
    if np.any(np.isnan(g)):
        raise ValueError("nan in the gradient")
    return w - lr * g, loss


def _softmax_args(n):
    return (np.random.default_rng(0).normal(size=(n, 16)),)


def _step_args(n):
    rng = np.random.default_rng(1)
    return (rng.normal(size=8), rng.normal(size=(n, 8)), rng.normal(size=n), 0.01)


PROGRAMS = [("softmax_checked", softmax_checked, _softmax_args),
            ("step_checked", step_checked, _step_args)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--backend", default="numpy")
    opts = parser.parse_args(argv)
    print_table(PROGRAMS, opts.backend, opts.rounds, option="data_checks", on="checks",
                off="breaks")


if __name__ == "__main__":
    main()
