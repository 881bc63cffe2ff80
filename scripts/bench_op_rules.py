"""Tracing cost of the op rules: does it grow with the array size? (It must not.)

For each op, the shape/dtype rule runs on metas of small arrays and of huge ones
(no data exists: the rules only see shapes and dtypes), side by side, and the
script prints the time per call and the ratio huge/small. Fancy indexing is the one
rule whose cost follows the *index* size (NumPy walks the zero-strided index ghosts).

    .venv/bin/python scripts/bench_op_rules.py
"""

from __future__ import annotations

import platform
import time

import numpy as np

from dynamo import ops
from dynamo.ops import ArrayMeta

F32, I64 = np.dtype("float32"), np.dtype("int64")


def calls(n: int) -> list[tuple[str, tuple, dict]]:
    """(op, args, kwargs) with arrays of side ``n``."""
    m = ArrayMeta((n, n), F32)
    v = ArrayMeta((n,), F32)
    idx = ArrayMeta((n,), I64)
    return [
        ("add", (m, 1.5), {}), ("exp", (m,), {"out": m}), ("sum", (m,), {"axis": -1}),
        ("var", (m,), {"axis": 0, "ddof": 1}), ("cumsum", (m,), {"axis": 1}),
        ("matmul", (m, m), {}), ("einsum", ("ij,jk->ik", m, m), {}),
        ("tensordot", (m, m), {"axes": 1}), ("reshape", (m, (-1,)), {}),
        ("ravel", (m,), {}), ("concatenate", ([m, m],), {"axis": 0}),
        ("split", (m, 4), {}), ("tile", (v, (2, 2)), {}), ("pad", (m, 2), {}),
        ("sort", (m,), {}), ("take", (m, idx), {"axis": 0}),
        ("getitem", (m, (slice(1, None, 2), None)), {}), ("getitem (fancy)", (m, idx), {}),
        ("setitem", (m, (slice(1, -1), slice(1, -1)), 0.0), {}),
        ("zeros", ((n, n),), {}), ("linspace", (0.0, 1.0, n), {}),
        ("random_normal", (0.0, 1.0), {"size": (n, n)}),
    ]


def side_by_side(name: str, small: tuple, huge: tuple, batches: int = 15,
                 batch: int = 20) -> tuple[float, float]:
    """Best time per call of each, batches interleaved so both see the same machine."""
    op = ops.get(name.split(" ")[0])
    best = [float("inf"), float("inf")]
    for _ in range(batches):
        for i, (args, kwargs) in enumerate((small, huge)):
            start = time.perf_counter()
            for _ in range(batch):
                op.meta(op, args, kwargs)
            best[i] = min(best[i], (time.perf_counter() - start) / batch)
    return best[0], best[1]


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
          f"Python {platform.python_version()}, NumPy {np.__version__}")
    small, huge = calls(8), calls(1 << 14)
    print(f"{'op':<18}{'n=8 (us)':>10}{'n=16384 (us)':>14}{'ratio':>8}")
    for (name, a, k), (_, a2, k2) in zip(small, huge):
        t1, t2 = side_by_side(name, (a, k), (a2, k2))
        print(f"{name:<18}{t1 * 1e6:>10.1f}{t2 * 1e6:>14.1f}{t2 / t1:>8.2f}")


if __name__ == "__main__":
    main()
