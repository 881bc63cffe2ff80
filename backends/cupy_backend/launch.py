"""Launch shapes: tuning knobs, and what the host needs to launch one kernel variant.

Example::

    >>> blocks_for(1 << 24, 256 * 2, Tuning())
    32768
    >>> row_threads(4096, 4, Tuning())          # 256 threads x 4 vectors of 4 floats
    256
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tuning:
    """Knobs of the generated kernels (``dynamo.compile(..., options={...})``)."""

    threads: int = 256          # threads per block of pointwise kernels
    ilp: int = 2                # vectors per thread in flight, pointwise kernels
    max_blocks: int = 1 << 20   # grid-stride loops cover the rest
    row_elems: int = 16         # target elements per thread in row kernels
    row_cache: int = 64         # most elements per thread a row kernel keeps in registers

    @classmethod
    def from_options(cls, options: dict) -> Tuning:
        known = {f for f in cls.__dataclass_fields__}
        bad = sorted(set(options) - known)
        if bad:
            raise ValueError(f"unknown cupy backend tuning option(s) {bad}; known: "
                             f"{sorted(known)}")
        values = {k: int(v) for k, v in options.items()}
        if values.get("threads", 256) % 32 or not 32 <= values.get("threads", 256) <= 1024:
            raise ValueError("threads must be a multiple of 32 between 32 and 1024")
        if any(v < 1 for v in values.values()):
            raise ValueError(f"tuning options must be positive: {values}")
        return cls(**values)


@dataclass(frozen=True)
class Launch:
    """One compiled entry point and how to launch it.

    A kernel with sizes known only at run time has ``grid=None``: the host computes
    it from ``work`` at each call (``grid_at``), and launches this variant only when
    every ``requires`` pair ``(value, k)`` has ``value % k == 0`` (a vectorized
    variant over a row length that must be a multiple of the vector width).
    """

    name: str           # the extern "C" function
    grid: tuple | None  # None: from ``work`` at run time
    block: tuple
    vec: int            # elements per vector access (1: scalar accesses)
    per_thread: int     # pointwise: vectors per step (ILP); row: vectors per thread
    aligned: tuple      # kernel argument indexes that must be 16-byte aligned
    cached: tuple = ()  # row kernels: loads kept in registers across passes
    work: object = None     # elements (pointwise) or rows (row kernels): int or Size
    per_block: int = 0      # pointwise: vectors per block; 0: one block per row
    max_blocks: int = 0
    requires: tuple = ()    # ((value, k), ...): needs value % k == 0 at run time


def grid_at(launch: Launch, work: int) -> tuple:
    """The grid for ``work`` elements or rows (``launch.work`` at run time).

    >>> grid_at(Launch("k", None, (256,), 4, 2, (), work=n, per_block=512,
    ...                max_blocks=1 << 20), 1 << 26)
    (32768,)
    """
    if not launch.per_block:
        return (work,)
    return (max(1, min(-(-(work // launch.vec) // launch.per_block), launch.max_blocks)),)


def blocks_for(work: int, per_block: int, tuning: Tuning) -> int:
    return max(1, min(-(-work // per_block), tuning.max_blocks))


def row_threads(cols: int, vec: int, tuning: Tuning) -> int:
    """Smallest power-of-two block (32..1024) giving each thread about ``row_elems``."""
    t = 32
    while t < 1024 and -(-cols // (t * vec)) * vec > tuning.row_elems:
        t *= 2
    return t
