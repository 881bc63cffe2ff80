"""One entry of the hint table (``Advice``), and the phrases many entries share.

The table itself is in parts by the kind of break (``hints_flow.py``, ``hints_ops.py``,
``hints_calls.py``, ``hints_statements.py``), joined in ``hints.py``, which looks a
break's reason up (``advice_for``).

Example::

    >>> a = Advice(r"^call to print", "print() writes output.", "print after, " + ACCEPT)
    >>> a.hint[:28]
    'print after, or accept the g'
"""

from __future__ import annotations

from dataclasses import dataclass

# This module imports nothing from dynamo: dynamo.exc reads the table, and everything
# reads exc.


@dataclass(frozen=True)
class Advice:
    """``pattern``: a regular expression searched in the break's reason."""

    pattern: str
    explanation: str
    hint: str


OUTSIDE = "compute it before calling the compiled function and pass the result as an argument"
ACCEPT = "or accept the graph break (the code stays correct; it only runs as more graphs)"
PY_ERROR = ("Plain Python raises this exception here; the instruction runs eagerly at a "
            "graph break so the program sees the same exception at the same line.")
UNTRACED_OBJECT = ("The translator models arrays, numbers, strings, containers of them and "
                   "plain Python objects; this value or operation is none of those.")
