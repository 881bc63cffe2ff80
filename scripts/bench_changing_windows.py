"""Plain vs compiled (numpy backend, default configuration) on the programs whose loop
bodies were compiled again for each outer trip because of an int that changes there (issue #19):
corpus 14's log mel filterbank (``range(bins[m - 1], bins[m])``: ``dynamo/break_ranges.py``),
window sums ``x[i * w:j * w]`` (``symbolic/slice_windows.py``) and runs bounded by a list
of ints (``x[offs[m]]`` in a loop node's body: ``reached_carries.reach_arrays``).

Each program gets ``--calls`` calls whose sizes change (a new length, a new count of
filters or windows, a new list of offsets). The first pass runs the compiled function
once per input: its compiles and its total time (tracing included). Then, in ``--rounds``
rounds, the plain and compiled functions run over all the inputs, interleaved. The
best round of each is kept, and the ratio is plain / compiled (above 1: compiled is faster).
Run it in the working tree and in a HEAD copy (``scripts/run_in_tree.py``) to compare.

    python scripts/bench_changing_windows.py [--calls 20] [--rounds 3] [--only mel]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import dynamo

sys.path.insert(0, str(Path(__file__).resolve().parent))


def window_sums(x, n, w):
    s = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            print(i, j, end=",")
            s += x[i * w:j * w].sum()
    return s


def runs_bounded_by_a_list(x, offs):
    out = np.zeros_like(x)
    for m in range(len(offs) - 1):
        print("segment", m)
        for k in range(offs[m], offs[m + 1]):
            out[k] = x[k] - x[offs[m]]
    return out


def _programs(calls: int):
    import realworld_programs14 as rp

    rng = np.random.default_rng(6)
    mel = []
    for k in range(calls):
        sr, n = 16000, 16000 + 800 * k
        t = np.arange(n) / sr
        voice = np.sin(2 * np.pi * 150 * t) + 0.01 * rng.standard_normal(n)
        mel.append(((voice, sr), {"n_mels": (20, 26, 32)[k % 3]}))
    windows = [((rng.random(40_000 + 1000 * k), 10 + k % 3, 3000), {}) for k in range(calls)]
    runs = []
    for k in range(calls):
        widths = rng.integers(9, 4000, 12 + k % 4)
        offs = [0, *np.cumsum(widths).tolist()]
        runs.append(((rng.random(offs[-1]), offs), {}))
    return [("log mel filterbank (corpus 14)", rp.mel_filterbank_energies, mel),
            ("window sums x[i*w:j*w]", window_sums, windows),
            ("runs bounded by a list of ints", runs_bounded_by_a_list, runs)]


def _run(fn, inputs) -> float:
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = time.perf_counter()
        for args, kwargs in inputs:
            fn(*args, **kwargs)
        return time.perf_counter() - t


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="")
    opts = ap.parse_args(argv)
    print(f"{'program':34s} {'compiles':>8s} {'1st pass ms':>11s} {'plain ms':>9s} "
          f"{'compiled':>9s} {'ratio':>6s}   (ms per call, best round)")
    for name, fn, inputs in _programs(opts.calls):
        if opts.only and opts.only not in name:
            continue
        dynamo.reset()
        with dynamo.explain(fn, backend="numpy") as compiled:
            first = _run(compiled, inputs)
            plain, comp = [], []
            for _ in range(opts.rounds):
                plain.append(_run(fn, inputs))
                comp.append(_run(compiled, inputs))
        p, c = min(plain) / len(inputs), min(comp) / len(inputs)
        print(f"{name:34s} {len(compiled.report.records):8d} {first * 1e3:11.0f} "
              f"{p * 1e3:9.2f} {c * 1e3:9.2f} {p / c:6.2f}", flush=True)


if __name__ == "__main__":
    main()
