"""Whether a value the glue rebuilds holds itself (issue #17, random state program 20392).

The glue rebuilds a list, dict or object the trace made by writing it out as one
expression, its items first (``[0.0, ___v3]``). A list that holds itself (``p.hist =
p.hist + [v]; p.hist.append(p.hist)``) cannot be written so: its items' expressions
reach the list again, and rebuilding them recursed without end (a RecursionError, an
internal error the frame fell back from). Such a container is made empty first and
filled once it exists (``___v1 = []`` then ``___v1.extend([0.0, ___v1])``), as an
object the trace made already is (``object.__new__``, then its attributes).

``holds_itself`` is the walk that decides it: through the items of lists and tuples,
the values of dicts, the attributes of objects the trace made and the contents of
cells, up to values the glue reads from where they live (a ``source``: rebuilt by
reading it, not by its parts), each value looked into once, so a cycle that does not
pass through ``var`` ends too.

Example::

    >>> from dynamo.variables import ConstantVariable, ListVariable
    >>> log = ListVariable([ConstantVariable(1)])
    >>> holds_itself(log)
    False
    >>> log.items.append(ListVariable([log]))      # log.append([log])
    >>> holds_itself(log)
    True
"""

from __future__ import annotations

from .variables import CellVariable, DictVariable, Variable
from .variables.objects import NewObjectVariable
from .variables.sequences import SequenceVariable


def _held(var: Variable):
    """The values the glue writes out to rebuild ``var`` (none for one it reads)."""
    if getattr(var, "source", None) is not None:
        return ()
    if isinstance(var, SequenceVariable):
        return var.items
    if isinstance(var, DictVariable):
        return var.items.values()
    if isinstance(var, NewObjectVariable):
        return var.pending.values()
    if isinstance(var, CellVariable):
        return () if var.value is None else (var.value,)
    return ()


def holds_itself(var: Variable) -> bool:
    """``var`` is reached again from what the glue writes out to rebuild it."""
    if getattr(var, "source", None) is not None:
        return False
    stack, seen = list(_held(var)), set()
    while stack:
        v = stack.pop()
        if v is var:
            return True
        if id(v) not in seen:
            seen.add(id(v))
            stack.extend(_held(v))
    return False
