"""Counter ``while`` loops over sizes that change between calls (issue #23, t6):
``k = 0; while k < n: ...; k += 1`` called at six sizes, for ``--seconds`` each, side
by side in one process (rounds of one call of each, interleaved): plain NumPy, the
numpy backend, ``auto`` (the default: the numpy backend with the native tier compiled
by Numba in the background) and the same code under ``numba.njit``. For each size and
each of them: the mean CPU time of its calls at that size (compiles included: traces,
Numba's in this process's threads; not a child process's) and the best call's; at the
end, the graphs each compiled function traced and the Numba compiles ``auto`` made (the
``backend`` log's "compiled by Numba" and, the kernel cache being fresh, "loaded from
the disk cache" lines: a child process compiled those).

Before dynamo/translator/counted_whiles.py every size traced and compiled its own graph
(the loop unrolled, the size pinned); after it, the first size a static graph and one
symbolic graph every later size (tier 2 compiles per size that stays hot:
backends/native/size_variants.py).

Run it in another tree for the "before" numbers (the same script, same process
layout)::

    $ .venv/bin/python scripts/bench_counted_whiles.py --seconds 2
    $ .venv/bin/python scripts/run_in_tree.py /tmp/head scripts/bench_counted_whiles.py
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
import time


def prefix_while(x):
    n = len(x)
    k = 1
    while k < n:
        x[k] += x[k - 1]
        k += 1
    return x


def diag_while(A):
    n = A.shape[0]
    s = 0.0
    k = 0
    while k < n:
        s = s + A[k, k] * A[k, n - 1 - k]
        k += 1
    return s


def gauss_while(A, b):
    A = A.copy()
    b = b.copy()
    n = A.shape[0]
    k = 0
    while k < n - 1:
        f = A[k + 1:, k] / A[k, k]
        A[k + 1:, k:] -= f[:, None] * A[k, k:]
        b[k + 1:] -= f * b[k]
        k += 1
    return A, b


def floyd_while(W):
    n = W.shape[0]
    D = W.copy()
    k = 0
    while k < n:
        D = np.minimum(D, D[:, k:k + 1] + D[k:k + 1, :])
        k += 1
    return D


np = None   # (imported in main, after NUMBA_NUM_THREADS is set)


class _Count(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.numba = 0

    def emit(self, record):
        # (a fresh cache: a kernel loaded from it was compiled by a child process)
        message = record.getMessage()
        self.numba += "compiled by Numba" in message or "loaded from the disk cache" in message


class _Graphs:
    def __init__(self):
        self.n = 0

    def on_graph(self, graph, ctx):
        self.n += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=1, help="NUMBA_NUM_THREADS")
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="wall time per size: rounds of one call each until it is spent")
    ap.add_argument("--programs", nargs="*")
    args = ap.parse_args()
    os.environ["NUMBA_NUM_THREADS"] = str(args.threads)
    # (a fresh kernel cache: every Numba compile is counted and paid, none loaded)
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="bench_counted_whiles")
    global np
    import numba
    import numpy

    import dynamo
    from dynamo import listeners
    np = numpy
    rng = np.random.default_rng(0)
    # (name, program, inputs of size n, the six sizes)
    programs = [
        ("prefix_while", prefix_while, lambda n: (rng.random(n),), (300, 400, 500, 600, 700, 800)),
        ("diag_while", diag_while, lambda n: (rng.random((n, n)),), (200, 260, 320, 380, 440, 500)),
        ("gauss_while", gauss_while, lambda n: (rng.random((n, n)) + n * np.eye(n),
                                                rng.random(n)), (60, 80, 100, 120, 140, 160)),
        ("floyd_while", floyd_while, lambda n: (rng.random((n, n)),), (60, 80, 100, 120, 140, 160)),
    ]
    count = _Count()
    logging.getLogger("dynamo.backend").addHandler(count)
    logging.getLogger("dynamo.backend").setLevel(logging.INFO)
    for name, fn, make, sizes in programs:
        if args.programs and name not in args.programs:
            continue
        runs = {"plain": fn, "numpy": dynamo.compile(fn, backend="numpy"),
                "auto": dynamo.compile(fn, backend="auto"), "numba": numba.njit(fn)}
        graphs = {k: _Graphs() for k in runs}
        count.numba = 0
        for n in sizes:
            x = make(n)
            total = {k: 0.0 for k in runs}
            best = {k: float("inf") for k in runs}
            calls, end = 0, time.perf_counter() + args.seconds
            while calls < 3 or time.perf_counter() < end:
                calls += 1
                for label, f in runs.items():   # (interleaved)
                    inputs = [a.copy() for a in x]
                    c = time.process_time()
                    with listeners.listening(graphs[label]):
                        f(*inputs)
                    c = time.process_time() - c
                    total[label] += c
                    best[label] = min(best[label], c)
            print(f"{name:12s} n={n:4d} {calls:4d} calls, CPU per call (mean, compiles "
                  "included / best): " + "  ".join(
                      f"{k} {total[k] / calls * 1e3:.3f} / {best[k] * 1e3:.3f} ms" for k in runs),
                  flush=True)
        print(f"{name:12s} graphs traced: numpy {graphs['numpy'].n}, auto {graphs['auto'].n};"
              f" Numba compiles (auto): {count.numba}", flush=True)


if __name__ == "__main__":
    main()
