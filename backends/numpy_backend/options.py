"""Settings of the ``numpy`` backend, from ``dynamo.compile(..., options={...})``.

Example::

    >>> Options.parse({"threads": 1, "skip_passes": ["strength_reduce"]}).threads
    1
    >>> Options.parse({"thread": 2})
    Traceback (most recent call last):
    ValueError: unknown option(s) for backend 'numpy': ['thread']; options: ...
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def l2_cache_bytes() -> int:
    """The per-core L2 cache size from sysfs (Linux), or 1 MiB when unknown."""
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in sorted(os.listdir(base)):
            with open(f"{base}/{entry}/level") as f:
                if f.read().strip() != "2":
                    continue
            with open(f"{base}/{entry}/size") as f:
                text = f.read().strip().upper()
            scale = {"K": 1 << 10, "M": 1 << 20}.get(text[-1], 1)
            return int(text.rstrip("KM")) * scale
    except (OSError, ValueError):
        pass
    return 1 << 20


@dataclass(frozen=True)
class Options:
    threads: int = field(default_factory=usable_cores)
    """Threads that run the blocks of one large group (1: the calling thread only)."""

    cache_bytes: int = field(default_factory=l2_cache_bytes)
    """The cache one thread's block should fit in (its working set: the slices of the
    group's inputs and outputs plus its scratch buffers) ..."""

    cache_fraction: float = 0.5
    """... using this fraction of it (the rest: prefetch, stack, other data)."""

    min_blocked_elements: int = 1 << 22
    """Groups over fewer elements take the plain path (one NumPy call per op, dead
    buffers reused). Measured on 2 cores with one busy (2026-12-02), blocks ran GELU,
    a column standardization and layernorm at 0.63-0.96x the plain path's speed at
    131072 and 524288 elements, 0.85-1.05x at 2M, and 1.02-1.63x at 8M: the plain
    path's arrays stay in the L3 cache (32 MiB) below that."""

    blocked_working_set: float = 12.0
    """... but a group over fewer elements still runs block by block when its
    full-size intermediates (members that are not outputs: what the plain path writes
    and reads back through memory), two or more of them, hold more than this many times
    ``cache_bytes`` at once on the plain path (``plan._peak_live``: the plain path frees
    each at its last reader), with at least two blocks of ``min_block_elements`` (0:
    never; not in a loop body, nor where a flat plan is worth it). 12 L2 caches (12 MiB
    here, 3/8 of the 32 MiB L3 that two cores share): below that the plain path's
    values stay in the L3 cache, read back at nearly L2 speed, and blocks only add a
    NumPy call per member per block. Measured on 2 cores at load 4-15 (2026-12-06,
    interleaved CPU time, the 35 corpus programs the old default 2.0 blocked,
    docs/benchmarks.md): the plain path was faster for groups whose peak was 2.1-9.6 MB
    (unsharp masking's row blurs of (400, 402) float64, 3.9 MB: 0.88x -> 0.96x plain
    NumPy; a weighted 2-D histogram, 9.6 MB, 0.85x -> 0.98x; an HSV conversion 0.88x ->
    1.02x; the closed-form 2x2 eigenvalues, 8 MB, 0.98x -> 1.06x), blocks as fast or
    faster from 12.8 MB on (a quintic smoothstep 1.02x block-wise against 0.90x; a
    Gaussian KDE, 48 MB, 2.85x against 2.28x). Counting inputs and outputs too blocked
    single ops (batched ``@`` results, a ReLU mask) and made them 0.86x: they stream the
    same bytes either way."""

    min_block_elements: int = 1 << 14
    """... and blocks hold at least this many elements, whatever the cache: each
    member of a block is one NumPy call (about 1.5 us), which smaller blocks do not
    repay (a 2-D stencil of four shifted views of rows of 500 float64: blocks of 8
    rows ran 1.4x slower than whole-array ops; of 32 rows or more, as fast at 500x500
    and 1.8x faster at 2000x2000)."""

    min_threaded_elements: int = 1 << 19
    """Groups over fewer elements run their blocks on the calling thread only."""

    skip_passes: frozenset = frozenset()
    """Names of graph passes to leave out (see ``backends.passes.PIPELINE``)."""

    recycle_outputs: bool = True
    """Outputs of block-wise groups that the caller never gets (values later ops read,
    not returned nor viewed by a returned value: ``reuse.reaches_caller``) reuse the
    arrays of earlier calls once nothing holds them (``runtime.Recycler``: no page
    faults for a fresh array); up to two such arrays per output stay allocated between
    calls. A returned output is a fresh array, as eager's (held by the caller alone).
    Also the plain path's kept buffers (``scratch.py``)."""

    rerun_on_error: bool = True
    """When the fused code raises, run the original graph op by op so the caller sees
    eager's exception (graphs without effects; in others the stretch between two
    effects that raised runs again op by op). A floating-point condition the
    caller's settings make visible always reruns, whatever this says."""

    fast_powers: bool = False
    """Float powers ``x ** n`` (3 <= n <= 16) as squarings and multiplies
    (``passes.fast_powers``): about 7x faster than NumPy's ``pow``, but within about
    ``n`` ulp of it rather than bit-identical."""

    @classmethod
    def parse(cls, options: dict | None) -> Options:
        options = dict(options or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown option(s) for backend 'numpy': {unknown}; "
                             f"options: {sorted(known)}")
        if "skip_passes" in options:
            from ..passes import PIPELINE_FAST_POWERS
            skip = options["skip_passes"]
            # one name alone is one pass, not its letters ("dce" -> {"dce"})
            skip = options["skip_passes"] = frozenset([skip] if isinstance(skip, str) else skip)
            names = {p.__name__ for p in PIPELINE_FAST_POWERS}
            if skip - names:
                raise ValueError(f"unknown pass(es) {sorted(skip - names)} in option "
                                 f"'skip_passes' of backend 'numpy'; passes: {sorted(names)}")
        for name in ("threads", "cache_bytes", "min_blocked_elements", "min_block_elements",
                     "min_threaded_elements"):
            value = options.get(name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value < (1 if name == "threads" else 0)):
                raise ValueError(f"option {name!r} of backend 'numpy' must be an int "
                                 f"{'>= 1' if name == 'threads' else '>= 0'}, got {value!r}")
        for name in ("recycle_outputs", "rerun_on_error", "fast_powers"):
            if not isinstance(options.get(name, True), bool):
                raise ValueError(f"option {name!r} of backend 'numpy' must be True or "
                                 f"False, got {options[name]!r}")
        factor = options.get("blocked_working_set", 12.0)
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or factor < 0:
            raise ValueError(f"option 'blocked_working_set' of backend 'numpy' must be a "
                             f"number >= 0, got {factor!r}")
        fraction = options.get("cache_fraction", 0.5)
        if not isinstance(fraction, (int, float)) or not 0 < fraction <= 1:
            raise ValueError(f"option 'cache_fraction' of backend 'numpy' must be in (0, 1], "
                             f"got {fraction!r}")
        return cls(**options)
