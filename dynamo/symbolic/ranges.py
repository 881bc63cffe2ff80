"""Where a fitted size is valid: the range of a symbol an entry may serve.

``fit.symbolic_shape`` reads an op's output sizes as affine functions of the symbols
from three points (the hint and two perturbations above it). NumPy's sizes are not
affine everywhere: they *clamp*. ``x[-5:]`` has ``min(n, 5)`` elements,
``x[:-3]`` has ``max(n - 3, 0)``, ``np.diff(x, n=3)`` has ``max(n - 3, 0)``,
``x[:100]`` has ``min(n, 100)``, ``x[7]`` raises below ``n = 8``. Fitted at
``n = 11`` they read ``5``, ``n - 3``, ``n - 3``, ``n``, and a scalar: right for
large ``n`` only. This module finds the interval of each symbol around its hint on
which the fitted sizes equal the rule's own answer; the entry is then guarded to it
(``x.shape[0] >= 5``), and a call outside recompiles (see docs/dynamic_shapes.md).

How the interval is found, without reading the rule (rules run NumPy on ghosts):
the op's size function of one symbol ``v`` (the others fixed) changes its affine
piece only where two of the integers in the call cross: an affine form of ``v`` in
the arguments (a dimension ``n``, a bound ``n - 1``) meets a constant (a slice bound
``-5``, a kernel length ``4``, ``n=3``, 0 or 1) or another form, or its negation
(negative indices count from the end). Those crossings are the *thresholds*. The
rule runs at every threshold and one either side of it, and at three points past the
last one; between consecutive samples the size is one affine piece, so agreeing at
both ends means agreeing in between. The interval ends where a sample disagrees (or
the rule raises: NumPy would raise there); between that sample and the last agreeing
one a scan (bisection when they are far apart) finds the exact end. A breakpoint that
no pair of numbers names (``x[5:-3]`` is empty below 5 + 3) lies between two samples
and is found the same way. A size that is not piecewise affine (a step:
``ceil(n / k)``) is already refused by the fit (the symbol is pinned) unless its
steps are longer than the perturbations (``k > 42``): then the far samples, which lie
past ``k``, see it.

With several symbols, each one's interval is found with the others at their hints,
and again with each other symbol at the ends of its own interval; a symbol whose
interval moves with another's value (``x[:len(y)]``: valid while ``len(y) <= len(x)``)
depends on a relation between sizes, which a per-symbol guard cannot say: the fit
pins it (static for the entry).

Example::

    >>> # x[-5:] (the forms n and -5) fitted as 5 at n = 11: it holds for n >= 5 only
    >>> interval(lambda n: min(n, 5) == 5, 11, thresholds({(1, 0), (0, -5)}))
    (5, None)
"""

from __future__ import annotations

import math

import numpy as np

from ..tree import tree_leaves
from .sizes import Symbolic, SymInt

LOWEST = 2              # every symbol is guarded >= 2 (0 and 1 are specialized)
_LARGEST = 1 << 40      # thresholds past this are ignored (sizes no array reaches)
_MAX_CONSTANTS = 32     # of a long constant list (fancy indices): the extremes
_TAIL = (1, 17, 42)     # samples past the last threshold: one affine piece, checked
_SCAN = 64              # gaps up to this many values are scanned, longer ones bisected


def forms_of(value, rep: str, find, assigned: dict[str, int]) -> set[tuple]:
    """Every number in an op's arguments as ``(a, b)``: ``a*v + b`` in the value ``v``
    of the symbol class ``rep``, with every other symbol at its ``assigned`` value.
    Constants are ``(0, c)``; array dimensions count as numbers too."""
    from ..ops import ArrayMeta

    out: set[tuple] = set()

    def number(x):
        if isinstance(x, SymInt):
            a = sum(c for n, c in x.sym.terms if find(n) == rep)
            b = x.sym.const + sum(c * assigned[n] for n, c in x.sym.terms if find(n) != rep)
            out.add((a, b))
        elif isinstance(x, (bool, np.bool_)):
            return
        elif getattr(x, "sized", False):
            # (an int's float made a size, ``n + 1.0``: ShapeEnv.floats_as_sizes; its
            # form read at v = 0 and 1, as exact as an int's)
            def at(v):
                return x.sym.evaluate({n: v if find(n) == rep else assigned[n]
                                       for n in x.sym.symbols})
            out.add((int(at(1) - at(0)), int(at(0))))
        elif isinstance(x, Symbolic) and not isinstance(x, int) and \
                all(find(n) != rep for n in x.sym.symbols):
            # (a float of other sizes, ``Xc.shape[0] / n`` written into an array: it
            # does not move with ``v``, and reading its value would pin its sizes)
            return
        elif isinstance(x, (int, np.integer)):
            out.add((0, int(x)))
        elif isinstance(x, (float, np.floating)) and math.isfinite(x):
            out.add((0, float(x)))
        elif isinstance(x, ArrayMeta):
            walk(x.shape)
        elif isinstance(x, np.ndarray):       # a constant index array: its extremes
            walk(x.shape)
            if x.size and x.dtype.kind in "iu":
                walk((x.min(), x.max()))

    def walk(x):
        for leaf in tree_leaves(x):
            number(leaf)
    walk(value)
    return out


def thresholds(forms: set[tuple]) -> set[int]:
    """The values of ``v`` near which the op's sizes may change their affine piece:
    where a form in ``v`` equals another form, a constant, 0, 1 or -1, or the negation
    of one (negative indices), rounded both ways and widened by one."""
    moving = [f for f in forms if f[0]]
    fixed = sorted({b for a, b in forms if not a} | {0, 1, -1}, key=abs)
    if len(fixed) > _MAX_CONSTANTS:     # a long index list: its extremes decide
        half = _MAX_CONSTANTS // 2
        fixed = fixed[:half] + fixed[-half:]
    others = [(0, c) for c in fixed] + moving
    out: set[int] = set()
    for a1, b1 in moving:
        for a2, b2 in others:
            for a, b in ((a2, b2), (-a2, -b2)):
                if a1 == a or abs(b - b1) > _LARGEST * abs(a1 - a):
                    continue
                v = (b - b1) / (a1 - a)
                out.update(range(math.floor(v) - 1, math.ceil(v) + 2))
    return out


def interval(agrees, hint: int, points: set[int]) -> tuple[int, int | None]:
    """The largest interval ``[lo, hi]`` (``hi`` None: unbounded) around ``hint`` on
    which ``agrees(v)`` holds, sampling at ``points`` (thresholds) and past them.

    ``agrees(hint)`` must hold. Samples below ``LOWEST`` are not taken.
    """
    cache: dict[int, bool] = {hint: True}

    def ok(v: int) -> bool:
        if v not in cache:
            cache[v] = agrees(v)
        return cache[v]

    top = max(points | {hint})
    samples = sorted({v for v in points if LOWEST <= v} | {top + t for t in _TAIL} | {hint})
    at = samples.index(hint)
    lo, hi = LOWEST, None
    for good, bad in zip(reversed(samples[1:at + 1]), reversed(samples[:at])):
        if not ok(bad):                       # the smallest agreeing value past bad
            lo = _boundary(ok, good, bad)
            break
    for good, bad in zip(samples[at:], samples[at + 1:]):
        if not ok(bad):                       # the largest agreeing value before bad
            hi = _boundary(ok, good, bad)
            break
    return lo, hi


def _boundary(ok, good: int, bad: int) -> int:
    """Between an agreeing and a disagreeing sample: the agreeing value next to the
    first disagreeing one, walking from ``good`` (every value, when they are close;
    by bisection when far apart: the piece between two samples is affine, so the values
    that disagree there are contiguous)."""
    step = 1 if bad > good else -1
    if abs(good - bad) <= _SCAN:
        while ok(good + step):
            good += step
        return good
    while abs(good - bad) > 1:
        mid = (good + bad) // 2
        good, bad = (mid, bad) if ok(mid) else (good, mid)
    return good
