"""Tier 2's float32 ``exp``, three ways (issue #17, round 41 (c)): how far each is from
NumPy's own float32 ``exp`` (ulp distance over a dense sample and the hostile inputs)
and what each costs in float32 softmax and GELU (a tanh-free, exp-based GELU) kernels.

- ``fastexp``: ``backends/native/fastexp.exp32`` (vectorizes, within 1 ulp of the true
  value);
- ``f64``: ``np.float32(np.exp(np.float64(x)))`` (libm's double exp, rounded once);
- ``numpy``: NumPy's own call on the whole array (what eager does; in a kernel that is
  an object-mode call, ``calls.py``), timed here as the plain NumPy expression.

    python scripts/bench_f32_exp.py [--rounds 7] [--n 1000000] [--tier2]

``--tier2`` times instead what tier 2 makes of float32 softmax and GELU (backend
"native", tier 2 forced) against plain NumPy: run it before and after a change of
how the kernels compute ``exp``.

CPU time (``time.process_time``), interleaved rounds, the best of each.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from dynamo.backends.native.fastexp import exp32
from numba import njit


@njit(cache=False)
def _fast(x):
    out = np.empty_like(x)
    for i in range(x.size):
        out[i] = exp32(x[i])
    return out


@njit(cache=False)
def _f64(x):
    out = np.empty_like(x)
    for i in range(x.size):
        out[i] = np.float32(np.exp(np.float64(x[i])))
    return out


@njit(cache=False)
def _softmax_fast(x):
    r, c = x.shape
    out = np.empty_like(x)
    for i in range(r):
        m = x[i, 0]
        for j in range(c):
            m = max(m, x[i, j])
        s = np.float32(0.0)
        for j in range(c):
            e = exp32(x[i, j] - m)
            out[i, j] = e
            s += e
        for j in range(c):
            out[i, j] = out[i, j] / s
    return out


@njit(cache=False)
def _softmax_f64(x):
    r, c = x.shape
    out = np.empty_like(x)
    for i in range(r):
        m = x[i, 0]
        for j in range(c):
            m = max(m, x[i, j])
        s = np.float32(0.0)
        for j in range(c):
            e = np.float32(np.exp(np.float64(x[i, j] - m)))
            out[i, j] = e
            s += e
        for j in range(c):
            out[i, j] = out[i, j] / s
    return out


def _softmax_numpy(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@njit(cache=False)
def _gelu_fast(x):    # x * sigmoid(1.702 x)
    out = np.empty_like(x)
    for i in range(x.size):
        out[i] = x[i] / (np.float32(1.0) + exp32(np.float32(-1.702) * x[i]))
    return out


@njit(cache=False)
def _gelu_f64(x):
    out = np.empty_like(x)
    for i in range(x.size):
        out[i] = x[i] / (np.float32(1.0) + np.float32(np.exp(np.float64(np.float32(-1.702)
                                                                          * x[i]))))
    return out


def _gelu_numpy(x):
    return x / (np.float32(1.0) + np.exp(np.float32(-1.702) * x))


def ulps(a, b):
    """|a - b| in float32 units in the last place (finite, same-sign values)."""
    ia = a.view(np.int32).astype(np.int64)
    ib = b.view(np.int32).astype(np.int64)
    return np.abs(ia - ib)


def _tier2(a) -> None:
    import dynamo
    opts = {"after_calls": 1, "background": False, "prefer": "native"}
    rng = np.random.default_rng(0)
    x2 = rng.standard_normal((a.n // 1000, 1000)).astype(np.float32) * 4
    x1 = rng.standard_normal(a.n).astype(np.float32) * 3
    progs = {"softmax": (_softmax_numpy, x2), "gelu": (_gelu_numpy, x1)}
    runs = {}
    for name, (fn, x) in progs.items():
        c = dynamo.compile(fn, backend="native", options=opts)
        for _ in range(3):
            got = c(x)
        same = np.array_equal(got, fn(x))
        d = ulps(got.ravel(), fn(x).ravel()).max()
        print(f"{name}: tier 2 equal to plain NumPy bit for bit: {same} (max {d} ulp)")
        runs[name] = {"tier 2": (c, x), "plain": (fn, x)}
    best = {(p_, k): float("inf") for p_ in runs for k in runs[p_]}
    for _ in range(a.rounds):
        for p_, ks in runs.items():
            for k, (f, x) in ks.items():
                t = time.process_time()
                f(x)
                best[(p_, k)] = min(best[(p_, k)], time.process_time() - t)
    print(f"\nbest of {a.rounds} rounds, CPU ms, {a.n} float32 elements")
    print("| program | tier 2 | plain NumPy |\n|---|---|---|")
    for p_ in runs:
        print(f"| {p_} | {best[(p_, 'tier 2')] * 1e3:.2f} | {best[(p_, 'plain')] * 1e3:.2f} |")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--n", type=int, default=1_000_000)
    p.add_argument("--tier2", action="store_true")
    a = p.parse_args()
    if a.tier2:
        return _tier2(a)
    rng = np.random.default_rng(0)
    # every 64th float32 in [-87.3, 88.7] (about 16 million values)
    lo, hi = np.float32(-87.3).view(np.int32), np.float32(88.7).view(np.int32)
    neg = np.arange(np.float32(-0.0).view(np.int32), lo, 64, dtype=np.int64)
    pos = np.arange(0, hi, 64, dtype=np.int64)
    sample = np.concatenate([neg.astype(np.int32), pos.astype(np.int32)]).view(np.float32)
    sample = sample[np.isfinite(sample)]
    want = np.exp(sample)
    print(f"{sample.size} float32 inputs in [-87.3, 88.7]: ulp distance from NumPy's exp")
    for name, fn in (("fastexp", _fast), ("f64", _f64)):
        got = fn(sample)
        d = ulps(got, want)
        print(f"  {name:8s} max {d.max()}  differ {np.count_nonzero(d) / d.size:.3%}  "
              f"1 ulp {np.count_nonzero(d == 1)}  2+ ulp {np.count_nonzero(d >= 2)}")
    # the hostile program's chain (round40_native/f32_exp_loop)
    y = (rng.random(8).astype(np.float32) * 4 - 2)
    for name, fn in (("fastexp", _fast), ("f64", _f64), ("numpy", np.exp)):
        v = y.copy()
        for _ in range(3):
            v = fn(v * np.float32(0.01)) - np.float32(1.0)
        w = y.copy()
        for _ in range(3):
            w = np.exp(w * np.float32(0.01)) - np.float32(1.0)
        print(f"  exp(y * 0.01) - 1, three times: {name:8s} equal to eager's: "
              f"{np.array_equal(v, w)}, largest relative difference "
              f"{np.max(np.abs(v - w) / np.abs(w)):.3g}")
    x2 = rng.standard_normal((a.n // 1000, 1000)).astype(np.float32) * 4
    x1 = rng.standard_normal(a.n).astype(np.float32) * 3
    progs = {"softmax": (x2, {"fastexp": _softmax_fast, "f64": _softmax_f64,
                             "numpy": _softmax_numpy}),
             "gelu": (x1, {"fastexp": _gelu_fast, "f64": _gelu_f64, "numpy": _gelu_numpy})}
    best = {(p_, k): float("inf") for p_, (_, fs) in progs.items() for k in fs}
    for x, fs in progs.values():    # (compiled before the rounds)
        for f in fs.values():
            f(x)
    for _ in range(a.rounds):
        for p_, (x, fs) in progs.items():
            for k, f in fs.items():
                t = time.process_time()
                f(x)
                best[(p_, k)] = min(best[(p_, k)], time.process_time() - t)
    print(f"\nbest of {a.rounds} rounds, CPU ms, {a.n} float32 elements, one thread")
    print("| program | fastexp | f64 | numpy |\n|---|---|---|---|")
    for p_ in progs:
        print(f"| {p_} | " + " | ".join(f"{best[(p_, k)] * 1e3:.2f}"
                                          for k in ("fastexp", "f64", "numpy")) + " |")


if __name__ == "__main__":
    main()
