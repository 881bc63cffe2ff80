"""The hit path of the numpy backend's size variants (``sizes.PerSize``), per call.

A call whose input shapes already have a compiled variant runs it with no lock (only
a miss takes ``PerSize._lock``). Each row times one runner's hit, side by side with a
baseline ``sizes.py`` (``--baseline PATH``, an older copy, loaded as its own module)
built on the same graph:

- ``shape call``: ``runner(x, w)`` (``PerSize.__call__``: the key, the lookup, the
  variant) of a graph keyed by ``x.shape``;
- ``shape inline``: the expression generated code pastes into the dispatcher for it
  (``(r.variants.get((x.shape, )) or r.miss)(x, w)``);
- ``keyless only``: a graph whose only changing input is a number (``0.9 ** t``):
  ``r.only(x, t)``, its one variant read from the instance;
- ``... compiled``: the whole call of the ``dynamo.compile``d function (the installed
  ``sizes.py`` only).

Times: the minimum over interleaved rounds of ``--calls`` calls (the rows in one
order, then the other), per call (``time.perf_counter``).

Run: ``.venv/bin/python scripts/bench_size_variant_hits.py [--baseline OLD_SIZES_PY]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import time

import numpy as np
from dynamo.backends.numpy_backend import numpy_backend
from dynamo.backends.numpy_backend import sizes as current

import dynamo


def scaled(x, w):
    return x[1:] * w     # (small: the runner's own cost is a visible part of the call)


def decayed(x, t):
    return x * 0.9 ** t


def _module(path: str):
    spec = importlib.util.spec_from_file_location("dynamo.backends.numpy_backend.old_sizes",
                                                  path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _per_call(fn, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls


def _symbolic_graph(fn, calls: list):
    """``fn``'s compiled function (numpy backend, its variants made by ``calls``) and
    its symbolic graph."""
    graphs = []

    def capture(graph, inputs, options=None):
        if current.is_symbolic(graph):
            graphs.append(graph)
        return numpy_backend(graph, inputs, options)
    capture.dynamic_shapes = True
    fast, seen = dynamo.compile(fn, backend="numpy"), dynamo.compile(fn, backend=capture)
    for args in calls:
        fast(*args)
        seen(*args)
    return fast, graphs[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", help="an older sizes.py to time beside this one")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--calls", type=int, default=20_000)
    opts = parser.parse_args()
    x, w = np.ones((6, 3)), np.ones(3)
    fast_shape, shape_graph = _symbolic_graph(scaled, [(np.ones((t, 3)), w)
                                                       for t in (5, 6, 6)])
    fast_keyless, keyless_graph = _symbolic_graph(decayed, [(x, t) for t in (1, 2, 3, 3)])
    versions = {"current": current}
    if opts.baseline:
        versions["baseline"] = _module(opts.baseline)
    rows, cases = {}, []
    for name, mod in versions.items():
        r = mod.PerSize(shape_graph, lambda static, args: numpy_backend(static, args))
        k = mod.PerSize(keyless_graph, lambda static, args: numpy_backend(static, args))
        r(x, w), k(x, 4)                          # (the misses: their variants compiled)
        assert k.keyless and not r.keyless
        cases += [(name, "shape call", lambda r=r: r(x, w)),
                  (name, "shape inline",
                   lambda r=r: (r.variants.get((x.shape, )) or r.miss)(x, w)),
                  (name, "keyless only", lambda k=k: (k.only)(x, 4))]
    cases += [("current", "shape compiled", lambda: fast_shape(x, w)),
              ("current", "keyless compiled", lambda: fast_keyless(x, 4))]
    for i in range(opts.rounds):
        for name, kind, fn in cases if i % 2 else cases[::-1]:   # (either order)
            t = _per_call(fn, opts.calls)
            rows[name, kind] = min(rows.get((name, kind), t), t)
    for (name, kind), t in sorted(rows.items(), key=lambda row: (row[0][1], row[0][0])):
        print(f"{kind:17s} {name:9s} {t * 1e6:7.3f} us/call")


if __name__ == "__main__":
    main()
