"""A ``range`` from outside the trace whose bounds change between calls, read as a
range of changing ints (issue #19).

A ``range`` argument was guarded by its value (``L['r'] == range(0, 2)``), as any
constant. That is right for a range that stays the same, and costly for one that does
not: the resume function after ``for k in range(bins[m - 1], bins[m])`` (a break at the
call, whose bounds are array elements) takes the range made at the break on its stack,
another range on every trip of the outer loop, and compiled once per trip until
``config.cache_size_limit``, then ran uncompiled.

So a range of more than ``config.loop_unroll_limit`` items (``is_long_range``: a loop
over a shorter one is unrolled, which reads its bounds anyway), once an earlier entry
guarded another range at the same source (``DynamicPolicy
.is_dynamic_number``: the range is in its ``previous_ints``, beside the numbers), or
the frame takes it as changing from its first trace (``cached_call_results``), the
range's ``start`` and ``stop`` are changing ints read from the range itself
(``L['___stack1'].start``) and its ``step`` is guarded by value: a ``SymRangeVariable``,
which a ``for`` loop steps without reading its bounds (a loop node of a symbolic trip
count, ``SymRangeIteratorVariable``), and which any other use (its length, ``in``,
comparing it) reads, pinning the bounds as a use of a changing int does.

Example::

    >>> changing_range(out, range(2, 5), LocalSource("___stack1"))
    SymRangeVariable(range(s0, s1, 1))      # guards: type is range, .step == 1, int64 bounds
"""

from __future__ import annotations

from dynamo.guards import CONSTANT, EXPR, TYPE, AttrSource, Guard, Source

from .constant import SymRangeVariable

# NumPy types a Python int past int64 otherwise (see ``builder._symbolic_int``)
_INT64_END = 2 ** 63


def is_long_range(tx, value: range, source: Source) -> bool:
    """Whether a loop over ``value`` (at ``source``) may be a loop node: more than
    ``config.loop_unroll_limit`` items, or a range made at a break that the frame takes
    as changing from its first trace (``break_ranges``: a loop over it is tried as a
    node however short, ``per_trip_counts``). Another short one is unrolled, which
    reads its bounds: as changing ints they would be pinned at once, an entry per range
    as before, after a costlier trace (the mel filterbank's first call took 15% longer)."""
    return len(value) > tx.config.loop_unroll_limit or \
        source in tx.output.shape_env.dynamic.changing_numbers


def changing_range(out, value: range, source: Source) -> SymRangeVariable:
    """``value`` (a range at ``source`` that changes between calls) as a range whose
    ``start`` and ``stop`` are changing ints of the trace and whose ``step`` is fixed."""
    out.guards.add(Guard(source, TYPE, range))
    out.guards.add(Guard(AttrSource(source, "step"), CONSTANT, value.step,
                         note="the step of a range that changes between calls"))
    bounds = []
    for name in ("start", "stop"):
        at = AttrSource(source, name)
        out.guards.add(Guard(at, EXPR, f"{-_INT64_END} <= {at.expr()} < {_INT64_END}",
                             note="a bound of a range that changes (an int64)"))
        bounds.append(out.shape_env.new_symbol(at, getattr(value, name),
                                               "a bound of a range that changes",
                                               number=True))
    var = SymRangeVariable((*bounds, value.step))
    var.source = source   # (the glue passes on the object itself)
    return var


__all__ = ["changing_range", "is_long_range"]
