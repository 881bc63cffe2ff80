"""``lst.sort(...)`` on a list the trace holds: sorted in the trace when that is exact.

A list of constants (ints, floats, strings, tuples of them) sorted with no ``key=`` is
sorted at trace time, as ``sorted()`` of constants is (comparing constants runs no user
code, and Python's sort is stable, so the order is the one the program gets). Anything
else breaks with its own reason: items known only when the program runs (``float(x[i])``)
decide the order by their values, and a ``key=`` function is user code called once per
item. The break's hint (``hints_calls.py``) points at ``np.argsort(keys, kind="stable")``,
which keeps such a sort in the graph.

Example::

    cand = [(2, 0.5), (0, 0.25)]
    cand.sort()                        # traced: cand is [(0, 0.25), (2, 0.5)]
    cand.sort(key=lambda b: b[1])      # breaks: "list.sort() with key= ..."
"""

from __future__ import annotations

from ..exc import Unsupported
from .base import Variable
from .constant import ConstantVariable, compares_in_c, raw


def sort_list(tx, lst, args: list[Variable], kwargs: dict[str, Variable]) -> Variable:
    """``lst.sort(**kwargs)``: sort ``lst``'s items in place when they are constants and
    no key is given; otherwise raise the break that says which of the two stops it."""
    if args:   # list.sort takes keywords only: Python's TypeError, found by running it
        raise Unsupported("list.sort() with positional arguments (TypeError)")
    key, reverse = kwargs.pop("key", None), kwargs.pop("reverse", None)
    if kwargs:
        raise Unsupported("list.sort() with keywords other than key= and reverse= "
                          "(TypeError)")
    if key is not None and not (key.is_constant() and key.as_python_constant() is None):
        raise Unsupported("list.sort() with key= (calls the key function for each item)")
    if reverse is not None and not reverse.is_constant():
        raise Unsupported("list.sort() with a reverse= known only when the program runs")
    items = lst.items
    if not all(_sortable(i) for i in items):
        raise Unsupported("list.sort() of values known only when the program runs")
    rev = bool(reverse.as_python_constant()) if reverse is not None else False
    try:
        order = sorted(range(len(items)), key=lambda k: items[k].as_python_constant(),
                       reverse=rev)
    except TypeError:   # items that do not compare: Python's own error, when it runs
        raise Unsupported("list.sort() of items that do not compare (TypeError)") from None
    tx.output.side_effects.mutate(lst)
    items[:] = [items[k] for k in order]
    return ConstantVariable(None)


def _sortable(v: Variable, _open: frozenset = frozenset()) -> bool:
    """A constant that compares in C, or a list/tuple of such (as ``sorted()`` of
    constants takes them: ``builtins._constant_like``): comparing runs no user code.
    ``_open``, the lists looked into, stops at a list that holds itself."""
    if v.is_constant():
        return compares_in_c(raw(v))
    try:
        cls = v.python_type()
    except Unsupported:
        return False
    items = getattr(v, "items", None)
    return cls in (list, tuple) and isinstance(items, list) and id(v) not in _open and \
        all(_sortable(i, _open | {id(v)}) for i in items)
