"""Fusion partitioning time against graph size (a section of ``scripts/bench.py``).

The numpy backend partitions every graph it compiles; unrolled loops make graphs of
thousands of ops, so the partitioner must stay near-linear. Each row traces one
straight-line program of ``ops`` statements (elementwise chains with a row reduction
every third statement, and sibling reads of one input) and times
``backends.fusion.partition(graph, whole_rows=True)`` alone.

Run by itself: ``.venv/bin/python scripts/bench_partition.py [--sizes 1000,10000]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from dynamo.backends.common import python_function
from dynamo.backends.fusion import partition
from dynamo.backends.passes import optimize

import dynamo

SIZES = (1000, 4000, 10000)


def program(statements: int):
    """``def f(x, y)`` with ``statements`` lines of elementwise work and row reductions."""
    lines = ["def f(x, y):"]
    for i in range(statements):
        if i % 3 == 0:
            lines.append("    x = np.tanh(x) - x.sum(axis=1, keepdims=True) * 0.001")
        else:
            lines.append(f"    x = x * {1 + i * 1e-6!r} + y")
    lines.append("    return x")
    scope = {"np": np}
    exec(compile("\n".join(lines), "<bench_partition>", "exec"), scope)   # noqa: S102
    return scope["f"]


def traced_graph(statements: int):
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    dynamo.compile(program(statements), backend=capture)(np.ones((4, 8)), np.ones((4, 8)))
    # (past config.max_graph_nodes the trace splits the program: time the biggest graph)
    return optimize(max(graphs, key=lambda g: len(g.nodes)))


def run(args=None, sizes=SIZES) -> list[dict]:
    rows = []
    for statements in sizes:
        graph = traced_graph(statements)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            groups = partition(graph, whole_rows=True)
            best = min(best, time.perf_counter() - start)
        rows.append({"statements": statements, "graph_nodes": len(graph.nodes),
                     "groups": len(groups), "partition_ms": round(best * 1e3, 1)})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    args = ap.parse_args(argv)
    for row in run(args, [int(s) for s in args.sizes.split(",")]):
        print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
