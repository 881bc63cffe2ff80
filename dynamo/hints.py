"""What a user can do about a graph break: one table from break reasons to advice.

Every ``Unsupported`` says *what* could not be captured (its ``reason``). Most raise
sites say no more, so this table adds the rest of the message a user reads in the
``graph_breaks`` log, in ``dynamo.explain`` and in a ``fullgraph=True`` error: *why*
the translator cannot capture it (``explanation``) and what the user can do about it
(``hint``). A raise site that gives its own explanation or hint keeps it; the table
only fills in what is missing (see ``dynamo.exc.Unsupported``).

The table's entries are in four modules by the kind of break (``hints_flow.py``,
``hints_ops.py``, ``hints_calls.py``, ``hints_statements.py``; ``Advice`` and shared
phrases: ``advice.py``), joined here in that order. Entries are tried in order; the
first whose pattern is found in the reason wins, so specific entries come before
general ones. Reasons that are wholly data (a Python
error's own message) are matched by their ``cause`` instead (``BY_CAUSE``).
``tests/breaks/test_hints.py`` checks that every ``Unsupported(...)`` raised in
``dynamo/`` reaches an entry here, never the last-resort ``DEFAULT``.

Example::

    >>> advice_for("call to print()", "print").hint[:30]
    'move the print out of the loop'
    >>> advice_for("sorted() of non-constants or with key=", "").hint[:20]
    'sort arrays with np.'
"""

from __future__ import annotations

import functools
import re

# These modules import nothing else from dynamo: dynamo.exc reads this one, and
# everything reads exc.
from .advice import ACCEPT, PY_ERROR, Advice
from .hints_calls import CALLS
from .hints_flow import FLOW
from .hints_ops import OPS
from .hints_statements import STATEMENTS

# Specific entries first: the first match wins.
TABLE: tuple[Advice, ...] = FLOW + OPS + CALLS + STATEMENTS

# Reasons that are wholly data (a Python error's message): matched by cause.
BY_CAUSE: dict[str, Advice] = {
    "python_error": Advice("", PY_ERROR, "fix the error the eager traceback shows; if the "
                           "code catches it on purpose, move the try/except out of the hot "
                           "path"),
    "op_rule": TABLE[[a.pattern for a in TABLE].index(
        r"^(np|numpy|cupy)\.\S+: \w+(Error|Exception)")],
    "data_dependent_shape": TABLE[[a.pattern for a in TABLE].index(
        r"data-dependent output shape|returns residuals whose shape")],
    "array_to_python": TABLE[[a.pattern for a in TABLE].index(
        r"converts array data to Python|returns a Python value computed from array data")],
}

# Python errors (cause "python_error", reason "KeyError: ...") with a hint of their own.
BY_ERROR: dict[str, Advice] = {
    "KeyError": Advice("", PY_ERROR, "check `key in d` first, or use d.get(key, default) "
                       "or d.pop(key, default)"),
}

DEFAULT = Advice("", "The translator cannot capture this instruction.",
                 "see docs/graph_breaks.md; " + ACCEPT)


@functools.lru_cache(maxsize=1024)
def advice_for(reason: str, cause: str = "") -> Advice:
    """The table's advice for a break, or ``DEFAULT`` when nothing matches."""
    if cause == "python_error" and re.match(r"\w+: ", reason):
        # "KeyError: 'x'": the message is the program's, not ours; its class may say more
        return BY_ERROR.get(reason.split(":", 1)[0], BY_CAUSE[cause])
    for entry in TABLE:
        if re.search(entry.pattern, reason):
            return entry
    return BY_CAUSE.get(cause, DEFAULT)
