"""NumPy's pairwise order for a complex sum, as kernel statements (``reductions.py``).

NumPy adds a contiguous run of ``m`` complex values as a run of ``2m`` floats
(``pairwise_sum`` for complex types in numpy/_core/src/umath/loops_utils.h.src):
real and imaginary parts sit side by side, so its eight partial sums of a block are
four complex ones (element ``4j + k`` into sum ``k``), added as
``(p0 + p1) + (p2 + p3)``, the last ``m % 4`` elements then one by one; fewer than
4 elements (8 floats) one after the other; a run of more than 64 (128 floats) split
where the float run splits (half of ``2m`` rounded down to a multiple of 8 floats,
so always between two complex values). The leaves are those of ``pairwise.plan(2m)``
with starts and lengths halved. Tier 2 used to add complex values one after the
other (hostile round 31, ``round31_einsums/into_out_native``: ``o.sum()`` of a 4x4
complex array differed from NumPy's in the last bit).

Example (m = 10)::

    p0, p1, p2, p3 = e(0), e(1), e(2), e(3)
    for j in range(1, 2): p0 = p0 + e(4 * j + 0) ...
    s = (p0 + p1) + (p2 + p3)
    for j in range(8, 10): s = s + e(j)
    r = 0j + s

(checked against ``np.sum`` for every ``m`` up to 300 and longer runs: tests/backends/
test_native_complex_sums.py).
"""

from __future__ import annotations

import numpy as np

from .pairwise import BLOCK, plan, stack_depth

LANES = 4           # complex partial sums of a block (NumPy's eight float ones)


def complex_pairwise_sum(em, n: int, element, dt, res: str, stmts: list[str]) -> None:
    """``res = 0 + pairwise_sum(element(0), ..., element(n - 1))`` for complex elements
    in NumPy's order: one leaf inline for up to 64 elements, else the leaves of
    ``plan(2 * n)`` halved, their totals on a stack of variables."""
    zero = em.const(0, dt)
    if n < LANES:
        j = em.new("j")
        stmts.append(f"{res} = {zero}")
        _loop(stmts, j, f"{n}", element, lambda v: f"{res} = {res} + {v}")
        return
    if 2 * n <= BLOCK:
        total = _leaf(em, "0", n, element, stmts, "")
        stmts.append(f"{res} = {zero} + {total}")
        return
    leaves = plan(2 * n)
    depth = stack_depth(leaves)
    pl, b, sp, q = em.new("pl"), em.new("b"), em.new("sp"), em.new("q")
    em.alloc(f"{pl} = _pw_plan({2 * n})")
    slots = [em.new("t") for _ in range(depth)]
    start, size = em.new("o"), em.new("m")
    stmts.append(f"{sp} = 0")
    stmts.append(f"{', '.join(slots)} = {', '.join([zero] * depth)}")
    stmts.append(f"for {b} in range({pl}.shape[0]):")
    # float starts and lengths (even: every split is at a multiple of 8 floats) halved
    body = [f"{start} = ({pl}[{b}, 0] & 0x3FFFFFFFFFFFFFFF) >> 1",
            f"{size} = ({pl}[{b}, 1] & 0xFF) >> 1"]
    total = _leaf(em, start, size, element, body, start)
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


def complex_mean(em, n: int, dt, res: str) -> str:
    """The statement that divides the complex sum ``res`` by ``n`` as NumPy's mean
    does: ``sum / np.intp(n)``, which is complex128's ``true_divide`` for complex64
    too (rounded back to complex64 after), Smith's method: it multiplies by
    ``scl = 1 / (n + 0 * 0)`` where Numba's complex ``/`` divides (the last bit
    differs)::

        r = complex((r.real + r.imag * 0.0) * scl, (r.imag - r.real * 0.0) * scl)
    """
    zero = em.const(0.0, np.dtype(np.float64))
    scl = em.const(1.0 / (float(n) + 0.0 * 0.0), np.dtype(np.float64))
    value = (f"complex(({res}.real + {res}.imag * {zero}) * {scl}, "
             f"({res}.imag - {res}.real * {zero}) * {scl})")
    if np.dtype(dt) == np.complex64:
        value = f"np.complex64({value})"
    return f"{res} = {value}"


def _leaf(em, start, size, element, stmts: list[str], offset: str) -> str:
    """Statements summing the ``size`` (4 to 64) complex elements from ``start`` as
    NumPy sums a block: four partial sums, added in pairs, then the last ``size % 4``
    one by one; returns the total's name. ``size`` is a number or a variable's name
    (``offset``: ``start`` as a prefix of indices, or "" for 0)."""
    pre = f"{offset} + " if offset else ""
    accs = [em.new("cs") for _ in range(LANES)]   # (not "p": p0... are the inputs)
    for k, a in enumerate(accs):
        inner: list[str] = []
        v = element(f"{pre}{k}", inner)
        stmts += inner
        stmts.append(f"{a} = {v}")
    j = em.new("j")
    stmts.append(f"for {j} in range(1, {size} // {LANES}):" if not isinstance(size, int)
                 else f"for {j} in range(1, {size // LANES}):")
    for k, a in enumerate(accs):
        inner = []
        v = element(f"{pre}{LANES} * {j} + {k}", inner)
        stmts += ["    " + s for s in inner]
        stmts.append(f"    {a} = {a} + {v}")
    total = em.new("s")
    stmts.append(f"{total} = ({accs[0]} + {accs[1]}) + ({accs[2]} + {accs[3]})")
    j = em.new("j")
    bounds = f"{size - size % LANES}, {size}" if isinstance(size, int) \
        else f"{pre}{size} - {size} % {LANES}, {pre}{size}"
    _loop(stmts, j, bounds, element, lambda v: f"{total} = {total} + {v}")
    return total


def _loop(stmts: list[str], j: str, bounds: str, element, update) -> None:
    """``for j in range(bounds):`` with the element's statements, then ``update(v)``
    (``reductions._element_loop``, which this module cannot import: it imports us)."""
    inner: list[str] = []
    v = element(j, inner)
    stmts.append(f"for {j} in range({bounds}):")
    stmts += ["    " + s for s in inner]
    stmts.append(f"    {update(v)}")
