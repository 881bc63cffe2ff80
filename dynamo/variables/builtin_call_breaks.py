"""The break of a builtin call the translator does not model, with a reason and hint
that fit the call (issue #19: "every break has a hint that fits it").

``call to f() with these arguments`` used to tell every such call to "compute it before
calling the compiled function and pass the result as an argument", which does not fit
a call on values the function itself makes: ``heapq.heappop(events)`` on a heap the
function fills, ``math.gamma(x[i])`` of an array element. And ``next(it)`` of an
iterator object the trace holds but does not model (a generator kept in an attribute)
said Python raises TypeError there, which it does not. Each case here says what is
true and what the user can do.

Example::

    >>> unmodelled_call(heapq.heappop, [lst]).reason
    'call to heapq.heappop() with these arguments'
    >>> next_of_untraced(ObjectVariable(gen)).reason
    'next() of a generator object (not traced)'
"""

from __future__ import annotations

from ..exc import Unsupported
from .arrays import ArrayVariable
from .base import Variable

# modules whose C functions change or search a Python list in place
_LIST_ALGORITHMS = ("heapq", "bisect")


def unmodelled_call(fn, args: list[Variable]) -> Unsupported:
    """The break for ``fn(*args)``, a builtin (C) function the translator does not model."""
    module = getattr(fn, "__module__", None) or ""
    name = getattr(fn, "__qualname__", repr(fn))
    if module.lstrip("_") in _LIST_ALGORITHMS:
        return Unsupported(
            f"call to {module.lstrip('_')}.{name}() with these arguments",
            "heapq and bisect change or search a Python list in C code, which the "
            "translator does not follow, so the call runs as Python at a break.",
            "keep the loop that pushes and pops in Python and compile the array work "
            "each item does as a function of its own (dynamo.compile(step)); for a sorted "
            "array, np.searchsorted stays in the graph; or accept the graph break",
            cause="unsupported_call")
    if module == "math" and any(isinstance(a, ArrayVariable) for a in args):
        return Unsupported(
            f"math.{name}() of array data",
            f"math.{name} converts the array element to a Python float, a value known "
            "only when the program runs, and the translator does not keep this "
            "function of it in the graph.",
            f"apply a NumPy function to the whole array instead of math.{name} per "
            "element (np.exp, np.log, np.sqrt, ...; for erf/erfc/atan/tanh/fabs of a "
            "0-d float the graph keeps math.* itself), or accept the graph break",
            cause="array_to_python")
    return Unsupported(f"call to {name}() with these arguments",
                       "The translator cannot see inside this function.",
                       cause="unsupported_call")


def next_of_untraced(it: Variable) -> Unsupported:
    """The break for ``next(it)`` where ``it`` is no iterator the trace models: Python's
    TypeError where its type has no ``__next__``, else an iterator object (a generator
    kept in an attribute, ``itertools.count()``) that only advancing it can read."""
    try:
        cls = it.python_type()
    except Unsupported:
        cls = None
    if cls is None or not hasattr(cls, "__next__"):
        return Unsupported("next() of a non-iterator (raises TypeError)")
    # (why and hint: hints_statements.py, which every such reason reaches)
    return Unsupported(f"next() of a {cls.__name__} object (not traced)")
