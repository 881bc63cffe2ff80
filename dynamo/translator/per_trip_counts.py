"""A loop whose trip count is a number that changes on every call of its code by design
(issue #19): try it as a loop node however few its trips.

A short loop (at most ``config.loop_unroll_limit`` trips) is unrolled, and a symbolic
count then costs an entry per count (the entry keeps the decisions ``T - 1 > 0``, ``not
T - 2 > 0``): right for a function called with a few counts, wrong for an outlined loop
body (``bytecode/outline.py``) or a resume function of one, whose number is the outer
loop's index, another on every call::

    for i in range(n):
        for j in range(i + 1):          # in the outer body: i + 1 trips, i = 0, 1, 2...
            s[i] += A[i, j]
        print("row", i)                 # the break that outlines the outer body

The outer body compiled once per ``i`` up to the limit (then a node for ``i + 1 > 8``:
9 entries, one past ``config.cache_size_limit``, so the last rows ran uncompiled). Its
count's numbers are the code's changing numbers from its first trace
(``cached_call_results.changing_results``: a ``for`` loop's item, a number carried over
the break from one), so the loop is tried as a node at once: one entry serves every
count of two trips or more (the node's count, the trips after the first, is a size:
``>= 2``; counts 1 and 2 are pinned, as any size of 0 or 1 is).

Example::

    >>> counted_per_trip(tx, SymInt(3, s0 + 1))   # s0 read from L['___stack0'], noted
    True
"""

from __future__ import annotations

from ..cached_call_results import changing_results
from ..symbolic import SymInt


def counted_per_trip(tx, trips) -> bool:
    """Whether ``trips``, a loop's count, is made of ``tx``'s code's changing numbers
    only (no decision is recorded: nothing is compared)."""
    if not isinstance(trips, SymInt) or not trips.sym.symbols:
        return False
    noted = changing_results(tx.code)
    symbols = tx.output.shape_env.symbols
    return bool(noted) and all(_read_from(symbols.get(s), noted) for s in trips.sym.symbols)


def _read_from(source, noted) -> bool:
    """Is ``source`` one of ``noted`` or read from one (``L['___stack1'].stop``: a
    bound of a range carried over a break, ``break_ranges``)?"""
    return source in noted or getattr(source, "base", None) in noted


__all__ = ["counted_per_trip"]
