"""NumPy's pairwise summation order, as a plan of blocks the kernels add in order.

NumPy adds a contiguous run of ``n`` floats (a row along the last axis, or a whole
C-ordered array) by recursion (``pairwise_sum`` in numpy/_core/src/umath/
loops_utils.h.src): fewer than 8 elements one after the other from 0; up to 128
(``PW_BLOCKSIZE``) in eight partial sums, element ``8j + k`` into sum ``k``, the
sums added as ``((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))`` and the last
``n % 8`` elements after them one by one; more than 128 split at ``n2``, half of
``n`` rounded down to a multiple of 8, each half summed so and the two added. The
reduction adds that total to its identity, 0.0 (so a sum of ``-0.0`` is ``0.0``).

A kernel cannot recurse over an inlined expression, so ``plan(n)`` lists the leaves
of that recursion (the blocks of at most 128) in order, each with the number of
additions that follow it: the kernel sums each leaf with eight partial sums, then pops
that many earlier totals off a stack, adding each in front (``left + right``), and
pushes the result. ``stack_depth(plan(n))`` is the most totals ever waiting.

Example: ``n = 300`` splits at 144 (150 rounded down), 144 at 72, 156 at 72 (78
rounded down)::

    >>> plan(300).tolist()
    [[0, 72, 0], [72, 72, 1], [144, 72, 0], [216, 84, 2]]
    >>> stack_depth(plan(300))
    2

(leaf ``[72, 72]`` then adds the first leaf's total, ``[216, 84]`` adds the third's
and then the first half's.) The plan is pure integer arithmetic on ``n``; the kernels
call this same function compiled by Numba (``ops.PRELUDE``) and the lowering calls it
in Python for the stack's depth.
"""

from __future__ import annotations

import numpy as np

BLOCK = 128     # NumPy's PW_BLOCKSIZE: runs this long or shorter are one leaf


def plan(n):
    """The leaves of NumPy's pairwise sum of ``n`` elements, in order: rows of
    ``(start, length, additions after it)`` (see the module docstring). Each leaf of
    a run longer than 128 has at least 64 elements, so ``n // 64 + 1`` rows bound
    them."""
    out = np.empty((n // 64 + 1, 3), np.int64)
    # a stack of subtrees still to visit: (start, length, additions after its last leaf)
    lo = np.empty(64, np.int64)
    size = np.empty(64, np.int64)
    after = np.empty(64, np.int64)
    lo[0], size[0], after[0] = 0, n, 0
    top, leaves = 1, 0
    while top > 0:
        top -= 1
        s, m, a = lo[top], size[top], after[top]
        if m <= BLOCK:
            out[leaves, 0], out[leaves, 1], out[leaves, 2] = s, m, a
            leaves += 1
            continue
        half = m // 2
        half -= half % 8
        # the right half's last leaf also closes this split (one more addition);
        # pushed first, so the left half is visited first
        lo[top], size[top], after[top] = s + half, m - half, a + 1
        lo[top + 1], size[top + 1], after[top + 1] = s, half, 0
        top += 2
    return out[:leaves]


def stack_depth(leaves) -> int:
    """The most totals a kernel keeps waiting while it adds ``leaves`` (a ``plan``)."""
    depth = most = 0
    for k in range(len(leaves)):
        depth -= int(leaves[k, 2])
        depth += 1
        most = max(most, depth)
    return most
