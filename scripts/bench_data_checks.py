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
import statistics
import time

import numpy as np

import dynamo


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


def _batch(fn, args, calls: int) -> float:
    t0 = time.process_time()
    for _ in range(calls):
        fn(*args)
    return (time.process_time() - t0) / calls * 1e6


def _traced(fn, args, backend: str, checks: bool):
    """``fn`` compiled and called once (traced) with ``config.data_checks`` = ``checks``."""
    compiled = dynamo.compile(fn, backend=backend)
    dynamo.config.data_checks = checks
    try:
        compiled(*args)
    finally:
        dynamo.config.data_checks = True
    return compiled


def measure(name, fn, make, n: int, backend: str, rounds: int) -> dict:
    args = make(n)
    dynamo.reset()
    with_checks = _traced(fn, args, backend, True)
    with_breaks = _traced(_copy(fn), args, backend, False)
    calls = max(1, int(0.01 / max(1e-7, _batch(fn, args, 1) * 1e-6)))
    times = {"plain": [], "checks": [], "breaks": []}
    for _ in range(rounds):
        times["plain"].append(_batch(fn, args, calls))
        times["checks"].append(_batch(with_checks, args, calls))
        times["breaks"].append(_batch(with_breaks, args, calls))
    med = {k: statistics.median(v) for k, v in times.items()}
    return {"program": name, "n": n, "plain_us": med["plain"], "checks_us": med["checks"],
            "breaks_us": med["breaks"], "ratio": med["breaks"] / med["checks"]}


def _copy(fn):
    """A function of its own for ``fn``'s code (its own cache entries: compiled with
    the other setting, the code object would share ``fn``'s)."""
    import types
    code = fn.__code__.replace()   # (an equal code object is not the same one)
    code = code.replace(co_consts=code.co_consts + (object(),))
    return types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--backend", default="numpy")
    opts = parser.parse_args(argv)
    print(f"backend={opts.backend}, rounds={opts.rounds}, median of the rounds")
    print("| program | n | plain_us | checks_us | breaks_us | breaks/checks |")
    print("|---|---|---|---|---|---|")
    for name, fn, make in PROGRAMS:
        for n in (64, 4096, 262144):
            r = measure(name, fn, make, n, opts.backend, opts.rounds)
            print(f"| {r['program']} | {r['n']} | {r['plain_us']:.1f} | {r['checks_us']:.1f} "
                  f"| {r['breaks_us']:.1f} | {r['ratio']:.2f} |")


if __name__ == "__main__":
    main()
