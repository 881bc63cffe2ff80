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
    """One compiled entry point and how to launch it."""

    name: str           # the extern "C" function
    grid: tuple
    block: tuple
    vec: int            # elements per vector access (1: scalar accesses)
    per_thread: int     # pointwise: vectors per step (ILP); row: vectors per thread
    aligned: tuple      # kernel argument indexes that must be 16-byte aligned
    cached: tuple = ()  # row kernels: loads kept in registers across passes


def blocks_for(work: int, per_block: int, tuning: Tuning) -> int:
    return max(1, min(-(-work // per_block), tuning.max_blocks))


def row_threads(cols: int, vec: int, tuning: Tuning) -> int:
    """Smallest power-of-two block (32..1024) giving each thread about ``row_elems``."""
    t = 32
    while t < 1024 and -(-cols // (t * vec)) * vec > tuning.row_elems:
        t *= 2
    return t
