"""A ``range`` made at a graph break from array data, carried into the resume
function, is a changing range there from its first trace (issue #19).

``range(left, center)`` with ``left = bins[m - 1]`` (an element of an array the graph
computes) cannot be made while tracing: the call is a break, Python makes the range,
and the resume function takes it on its stack. Inside an outlined loop body (a mel
filterbank's ``for m in ...`` around ``for k in range(left, center)``) the resume
function runs once per outer trip, with another range each time. Guarded by value,
it compiled once per range until ``config.cache_size_limit`` (8 entries), then ran
uncompiled.

So the range the call gives is a changing number of the resume function from its
first trace (``cached_call_results.note_result``, as a cache's result is): its
``start`` and ``stop`` are changing ints (``variables/changing_ranges.py``) however
short it is, and the loop over it is tried as a node at once
(``translator/per_trip_counts.py``: its count is made of the range's bounds).

Example::

    left, center = bins[m - 1], bins[m]
    for k in range(left, center):    # a break at the call; the resume function reads
        ...                          # L['___stack1'].start/.stop, not range(4, 7)
"""

from __future__ import annotations


def is_range_call(callee) -> bool:
    """Is ``callee`` (the Variable of the callable at a break) the builtin ``range``?
    (A call of ``range`` breaks only where an argument is no Python number the trace
    knows: an element of an array, whose value the data decides.)"""
    return getattr(callee, "fn", None) is range


__all__ = ["is_range_call"]
