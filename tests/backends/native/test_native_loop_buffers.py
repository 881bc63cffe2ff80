"""Tier 2's buffers for arrays a loop node makes anew each trip
(backends/native/loop_buffers.py): the new value goes into the slot's own array
where the old one is read at the same index only, else into one of two buffers made
before the loop, alternately, instead of a new array per trip; the value of two trips
ago must be dead, so a slot whose old value another slot takes keeps its allocation.

Each program runs eagerly and with tier 2 forced (its second call), bit for bit;
the kernel's source says which slots got buffers. Before: every trip allocated
(``np.empty`` in the loop), and LMS 2000x16 took 0.12 ms against hand Numba's 0.054.

Each compiled case costs one Numba compile (1-3 s of CPU).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_sources  # noqa: E402
from script_modules import load_script  # noqa: E402
from tier_runs import same_in_tier_two  # noqa: E402

lms = load_script("native_recursions").lms
rng = np.random.default_rng(523)


def flips_and_swaps(x, y):
    """``w`` reads its old value reversed and ``u``'s old value is read after the new
    one is made (double buffers, not one in place); ``v`` and ``z`` read theirs at the
    same index only (in place), ``v`` is stored into after it is made; ``a`` and ``b``
    swap, so ``b`` holds ``a``'s old value: ``a`` keeps its allocation."""
    w, u = x.copy(), x * 2.0
    v, z = np.zeros_like(x), np.ones_like(x)
    a, b = x + 1.0, x - 1.0
    for t in range(y.shape[0]):
        w = 0.5 * w[::-1] + y[t]
        un = u * 0.5 + y[t]
        z = z + u
        u = un
        v = v + w
        v[0] = y[t, 0]
        a, b = b[::-1] + y[t], a
    return w, v, a, u, z     # (b: a loop's array, which no output may be)


def _loop_allocations(source: str) -> int:
    """The ``np.empty`` lines inside the kernel's loops (indented twice or more)."""
    return len(re.findall(r"^ {8,}\w+ = np\.empty\(", source, re.M))


def _buffers(source: str) -> tuple:
    """(double buffers made, carried arrays copied to be written in place)."""
    return (len(re.findall(r"\bdb\d+ = np\.empty", source)),
            len(re.findall(r"^    (c\d+) = \1\.copy\(\)$", source, re.M)))


def test_lms_update_allocates_nothing_per_trip():
    """The weight update ``w = w + 2 * mu * e[n] * u`` goes into two buffers."""
    x = rng.standard_normal(60)
    d = rng.standard_normal(60)
    (source,) = kernel_sources(lms, x, d, strict=True)
    assert _loop_allocations(source) == 0, source
    assert _buffers(source) == (0, 1), source    # in place: w is read at i, and by the dot


def test_swapped_slots_keep_their_allocations():
    """Double buffers for ``w`` and ``u``, ``v`` and ``z`` in place; ``a``'s old
    value lives on in ``b``."""
    x, y = rng.standard_normal(5), rng.standard_normal((12, 5))
    (source,) = kernel_sources(flips_and_swaps, x, y, strict=True)
    assert _buffers(source) == (4, 2), source
    assert _loop_allocations(source) == 1, source     # a's new value, each trip


@pytest.mark.parametrize("trips", [0, 1, 12, 13])
def test_flips_and_swaps_equal_eager(trips):
    """0 and 1 trips (no loop node), 12 and 13 (loop nodes of 11 and 12 trips: the
    last value in either buffer); odd sizes, so a reversed read that shared the
    buffer it writes would show. (LMS itself, in place, against eager:
    tests/backends/test_native_recursions.py.)"""
    x, y = rng.standard_normal(5), rng.standard_normal((trips, 5))
    same_in_tier_two(flips_and_swaps, x, y)
