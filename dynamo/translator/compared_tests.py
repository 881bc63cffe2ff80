"""An ``if`` (or a loop's exit test) on ``np.allclose`` / ``np.array_equal`` of traced
arrays tests the graph's 0-d bool, as ``(a == b).all()`` does (issue #19).

::

    for _ in range(max_iter):
        new = np.minimum(labels, neighbour_min)
        if np.array_equal(new, labels):     # one loop node with a data exit, no break
            break
        labels = new

``np.array_equal(a, b)`` of traced arrays is a ``ComparedBoolVariable``: the Python
bool the glue makes after the graph, ``bool(s)`` of the 0-d bool array ``s`` the graph
computes as NumPy does (``np.all(a == b)``; ``np.all(np.isclose(...))`` for
``allclose``). Returned or stored it needs no break; a test needed its value while
tracing and broke (3 breaks and 7 compiles for the label-propagation loop above, corpus
12). The truth of that bool *is* the truth of ``s`` (``bool(s)``, the very call the
glue would make), so a conditional jump may test ``s`` instead: the jump then goes the
way any test of array data goes (a loop node's exit, a check, a selected value, or the
break it was), exactly as for ``if (new == labels).all():``. Only the jump sees ``s``:
a value that is kept (``ok = np.allclose(a, b)``, ``x = ok and y``, ``not ok`` as a
value) stays the Python bool. Where the jump still breaks (an ``if`` on it in straight
code), it breaks with the bool's own reason, as before ("np.allclose() returns a Python
value computed from array data", ``reason_of``).

Example::

    >>> tested(ComparedBoolVariable(s, "array_equal")) is s
    True
"""

from __future__ import annotations

from ..exc import Unsupported
from ..variables.arrays import ComparedBoolVariable


def tested(value):
    """What a conditional jump on ``value`` tests: the 0-d bool array of the graph for
    the bool of ``np.allclose`` / ``np.array_equal``; any other value itself."""
    return value.snapshot if isinstance(value, ComparedBoolVariable) else value


def jump_next(insts, ip: int) -> bool:
    """Is the instruction at ``ip`` a conditional jump on a value's truth (where 3.13+'s
    ``TO_BOOL`` before it may hand it ``tested``'s array)?"""
    return ip < len(insts) and insts[ip].name in ("POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE")


def reason_of(value, error: Unsupported) -> Unsupported:
    """The break a truth test of ``tested(value)`` stands for: the bool's own
    (``ComparedBoolVariable.needed``: "np.allclose() returns a Python value computed
    from array data") where ``value`` is such a bool, else ``error`` itself. A check or
    a selected value keeps the graph's bool either way (``truth_or_select``)."""
    return value.needed() if isinstance(value, ComparedBoolVariable) else error
