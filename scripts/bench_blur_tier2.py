"""The blur programs of the real-world corpora on tier 2 (issue #15/#23, p65 t4): per
call, plain NumPy and the compiled program interleaved, results checked equal.

    python scripts/bench_blur_tier2.py t2 13     # tier 2 forced (compiled before call 2)
    python scripts/bench_blur_tier2.py auto 13   # backend="auto": its race decides

Side by side with another tree: ``python scripts/run_in_tree.py /tmp/base
scripts/bench_blur_tier2.py t2 13`` (one process per tree; give each a fresh
``XDG_CACHE_HOME`` so that neither loads the other's kernels from the disk cache).
Prints the first call (the forced compile), then best and median over the calls after
it (``t2``) or over the last 30 calls of a ``seconds``-long run (``auto``).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_peak_memory import TIER2_NOW  # noqa: E402
from bench_realworld import _fresh, corpus  # noqa: E402

import dynamo  # noqa: E402

BLURS = {
    "2": "Gaussian blur 5x5 by slices",
    "4": "separable Gaussian np.convolve per row/column",
    "7": "separable Gaussian by shifted slices",
    "10": "separable Gaussian blur",
    "13": "separable Gaussian blur, reflect padding",
}


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1e3


def run(mode: str, which: str, calls: int = 12, seconds: float = 60.0) -> None:
    (name, fn, args, kw), = [p for p in corpus(which) if p[0] == BLURS[which]]
    f = dynamo.compile(fn, backend="auto", options=TIER2_NOW if mode == "t2" else None)
    want = fn(*_fresh(args), **kw)
    t0 = time.perf_counter()
    got = f(*_fresh(args), **kw)
    first = _ms(t0)
    plain, ours = [], []
    start = time.perf_counter()
    while (len(ours) < calls) if mode == "t2" else (time.perf_counter() - start < seconds):
        x = _fresh(args)
        t0 = time.perf_counter()
        fn(*x, **kw)
        plain.append(_ms(t0))
        x = _fresh(args)
        t0 = time.perf_counter()
        got = f(*x, **kw)
        ours.append(_ms(t0))
        assert np.array_equal(got, want), "compiled result differs from plain"
    plain, ours = sorted(plain[-30:]), sorted(ours[-30:])
    print(f"{mode} corpus {which} {name}: first call {first:.0f} ms; plain best "
          f"{plain[0]:.3f} median {plain[len(plain) // 2]:.3f} ms; compiled best "
          f"{ours[0]:.3f} median {ours[len(ours) // 2]:.3f} ms ({len(ours)} calls)",
          flush=True)


if __name__ == "__main__":
    for which in sys.argv[2:]:
        run(sys.argv[1], which)
