"""NumPy's pairwise sum of a run as kernel statements, for float and complex values.

NumPy adds a contiguous run of ``n`` floats by recursion (``pairwise_sum`` in
numpy/_core/src/umath/loops_utils.h.src; the plan of its leaves is ``pairwise.py``): a
leaf of at most 128 floats in eight partial sums, element ``8j + k`` into sum ``k``,
added as ``((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))``, then its last ``n % 8``
elements one by one; fewer than 8 one after the other. A complex run of ``m`` values
is a run of ``2m`` floats (real and imaginary parts side by side), so the same order
is four complex partial sums of a leaf of at most 64 values, ``(s0 + s1) + (s2 + s3)``,
the last ``m % 4`` one by one, longer runs split where the float run of ``2m`` splits
(always between two complex values: splits are at multiples of 8 floats). Tier 2 once
added complex values one after the other (hostile round 31,
``round31_einsums/into_out_native``: ``o.sum()`` of a 4x4 complex array differed from
NumPy's in the last bit).

Example (20 floats)::

    pw0, ..., pw7 = e(0), ..., e(7)
    for j in range(1, 2): pw0 = pw0 + e(8 * j + 0) ...
    s = (((pw0 + pw1) + (pw2 + pw3)) + ((pw4 + pw5) + (pw6 + pw7)))
    for j in range(16, 20): s = s + e(j)
    r = 0.0 + s

(checked against ``np.sum`` for every complex length up to 300 and longer runs:
tests/backends/test_native_complex_sums.py; floats: test_native_sum_order.py).
"""

from __future__ import annotations

import numpy as np

from .pairwise import BLOCK, plan, stack_depth

FLOAT_LANES = 8     # NumPy's partial sums of a leaf, in floats


def pairwise_sum(em, n: int, element, dt, res: str, stmts: list[str]) -> None:
    """``res = 0 + pairwise_sum(element(0), ..., element(n - 1))`` in NumPy's order for
    float or complex ``dt``: one leaf inline when the run is at most ``BLOCK`` floats,
    else the leaves of ``plan`` over its floats, their totals on a stack of variables."""
    width = 2 if np.dtype(dt).kind == "c" else 1      # floats per element
    lanes = FLOAT_LANES // width
    zero = em.const(0, dt)
    if n < lanes:
        j = em.new("j")
        stmts.append(f"{res} = {zero}")
        element_loop(stmts, j, f"{n}", element, lambda v: f"{res} = {res} + {v}")
        return
    if width * n <= BLOCK:
        total = _leaf(em, lanes, n, element, stmts, "")
        stmts.append(f"{res} = {zero} + {total}")
        return
    leaves = plan(width * n)
    depth = stack_depth(leaves)
    pl, b, sp, q = em.new("pl"), em.new("b"), em.new("sp"), em.new("q")
    em.alloc(f"{pl} = _pw_plan({width * n})")
    slots = [em.new("t") for _ in range(depth)]
    start, size = em.new("o"), em.new("m")
    stmts.append(f"{sp} = 0")
    stmts.append(f"{', '.join(slots)} = {', '.join([zero] * depth)}")
    stmts.append(f"for {b} in range({pl}.shape[0]):")
    # the masks change nothing (a start is below 2**62, a length at most 128) but
    # tell LLVM the indices are not negative: without them Numba's wraparound
    # test on each index kept the block's loop from vectorizing (10000 rows of
    # 1000 float32: 6.2 ms of CPU against 2.6 with them, one thread); a complex
    # leaf's float start and length (even) halved are its values'
    halved = " >> 1" if width == 2 else ""
    body = [f"{start} = ({pl}[{b}, 0] & 0x3FFFFFFFFFFFFFFF){halved}",
            f"{size} = ({pl}[{b}, 1] & 0xFF){halved}"]
    total = _leaf(em, lanes, size, element, body, start)
    # the totals waiting on the stack are added in front of this leaf's
    body.append(f"for {q} in range({pl}[{b}, 2]):")
    body.append(f"    {sp} = {sp} - 1")
    for k, t in enumerate(slots):
        body.append(f"    {'if' if k == 0 else 'elif'} {sp} == {k}:")
        body.append(f"        {total} = {t} + {total}")
    for k, t in enumerate(slots):
        body.append(f"{'if' if k == 0 else 'elif'} {sp} == {k}:")
        body.append(f"    {t} = {total}")
    body.append(f"{sp} = {sp} + 1")
    stmts += ["    " + s for s in body]
    stmts.append(f"{res} = {zero} + {slots[0]}")


def _leaf(em, lanes: int, size, element, stmts: list[str], offset: str) -> str:
    """Statements summing a leaf of ``size`` elements (``lanes`` to ``BLOCK / width``)
    as NumPy sums it: ``lanes`` partial sums added in pairs, then the last ``size %
    lanes`` one by one; returns the total's name. ``size`` is a number or a variable's
    name; ``offset`` the leaf's start as a prefix of indices ("" for 0)."""
    pre = f"{offset} + " if offset else ""
    accs = [em.new("pw") for _ in range(lanes)]   # (not "p": p0... are the inputs)
    for k, a in enumerate(accs):
        inner: list[str] = []
        v = element(f"{pre}{k}", inner)
        stmts += inner
        stmts.append(f"{a} = {v}")
    j = em.new("j")
    stmts.append(f"for {j} in range(1, {size} // {lanes}):" if not isinstance(size, int)
                 else f"for {j} in range(1, {size // lanes}):")
    for k, a in enumerate(accs):
        inner = []
        v = element(f"{pre}{lanes} * {j} + {k}", inner)
        stmts += ["    " + s for s in inner]
        stmts.append(f"    {a} = {a} + {v}")
    total = em.new("s")
    stmts.append(f"{total} = {_in_pairs(accs)}")
    j = em.new("j")
    bounds = f"{size - size % lanes}, {size}" if isinstance(size, int) \
        else f"{pre}{size} - {size} % {lanes}, {pre}{size}"
    element_loop(stmts, j, bounds, element, lambda v: f"{total} = {total} + {v}")
    return total


def _in_pairs(names: list[str]) -> str:
    """``(a + b) + (c + d)`` of 4 names, ``((a + b) + (c + d)) + (...)`` of 8."""
    if len(names) == 1:
        return names[0]
    half = len(names) // 2
    return f"({_in_pairs(names[:half])} + {_in_pairs(names[half:])})"


def element_loop(stmts: list[str], j: str, bounds: str, element, update) -> None:
    """``for j in range(bounds):`` with the statements that compute the element
    (``element(j, inner)`` appends them and returns its value ``v``), then
    ``update(v)`` as the loop's last statement: how each reduction folds elements one
    after the other.

    Example: ``element_loop(stmts, "j", "1, n", element, lambda v: f"r = max(r, {v})")``
    appends ``for j in range(1, n):``, the element's statements and ``    r = max(r, x[j])``."""
    inner: list[str] = []
    v = element(j, inner)
    stmts.append(f"for {j} in range({bounds}):")
    stmts += ["    " + s for s in inner]
    stmts.append(f"    {update(v)}")
