"""Numbers that may raise, made from a loop node's trip index (issue #17).

``h = 1.0 / (i - k)`` in a loop node's body is a ``SymFloat`` of the trip: a body op
that takes it computes it on every trip, and raises ZeroDivisionError on the trip
where plain Python does (``raising._computes_raising_number``). One that no op takes
is computed by nothing, so a call where ``i == k`` on some trip returned where Python
raises. ``scalars.guard_computes`` cannot guard it (a guard over the trip index would
end every loop node that reads one, ``lr0 / (1 + decay * t)``), so it notes it here;
after the body's trace the loop scope asks which of those no body op read
(``translator/unread_trip_numbers.py``) and, for any, unrolls the loop, where each
trip's number is a number of the entry and is guarded as any other.

Example::

    >>> h = 1.0 / (i - k)          # in a loop node's body: note(expr of h)
    >>> made(trace, "loop0")
    [Expr((1.0 / float((loop0 - s0))))]
"""

from __future__ import annotations

import weakref

from .exprs import Expr
from .sizes import _QUIET, _local

# the trace -> the raising numbers over a trip index it made, in order
_MADE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def note(expr: Expr) -> None:
    """Remember ``expr`` (it may raise, it reads a loop's trip index) for the trace
    being recorded; nothing outside a trace."""
    trace = getattr(_local, "trace", None)
    if trace is not None and trace is not _QUIET:
        _MADE.setdefault(trace, []).append(expr)


def made(trace, symbol: str) -> list[Expr]:
    """The raising numbers ``trace`` made that read the trip symbol ``symbol``."""
    return [e for e in _MADE.get(trace, ()) if symbol in e.symbols] if trace else []


def parts(expr: Expr) -> list[Expr]:
    """``expr`` and every expression inside it, depth first."""
    out, todo = [], [expr]
    while todo:
        e = todo.pop()
        out.append(e)
        todo.extend(a for a in e.args if isinstance(a, Expr))
    return out
