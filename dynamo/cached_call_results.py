"""What a ``functools.lru_cache`` / ``functools.cache`` helper returns, carried over the
graph break at its call, is a changing number of the resume function from its first
trace (issue #16).

A call of a cache wrapper stays a graph break, on purpose: the break runs the real
wrapper in Python, with the arguments' values, at the program's place, so the cache
behaves exactly as eager's: its hits and misses (``cache_info()``), its eviction order,
the wrapped function's effects on a miss, and the object it returns on a hit (the one
cached, which may differ from what calling the function again would give: a global it
read changed since, or the caller mutated the array it returned). Tracing the wrapped
function instead, and replaying the call for the bookkeeping, would compute a fresh
value where eager returns the cached one; calling the wrapper in the glue before the
graph would run it before effects that come first in the program, and the trace could
not know the type of what it returns.

What the break costs is the value carried over it: as any number a resume function
takes, a float it returns was guarded by its value at the first trace (``value 2 of
the 2 carried over the break: expected 0.9, got 0.81``), one more entry when it
changed. A cache returns a value per argument: it changes as its arguments do. So
the resume function reads the call's result as a changing number from its first
trace (``DynamicPolicy.changing_numbers``), where the trace uses it as a value; a use
that needs its value (a branch, a size) still guards it, as it would any number.

The same holds for a draw of a ``random.Random`` object (``self.rng.gauss(0.0, 0.1)``,
``rng.random()``, ``rng.randrange(n)``: ``is_random_draw``): the call stays a break,
so Python makes the draw at its place and the object's state after the call is
eager's; the draw changes at every call by design, so it is a changing number of the
resume function from its first trace (issue #16: one entry for the resume function,
not two).

Example::

    @functools.lru_cache(maxsize=64)
    def decay(k):
        return 0.9 ** k

    def decayed(x, k):
        return x * decay(k)   # a break at decay(k); the resume function takes its result
                              # as a graph input: one entry for every k after the first
"""

from __future__ import annotations

import functools
import random
import weakref

import numpy as np

from dynamo.guards import LocalSource

# a resume function's code -> the names of its parameters that carry a cache's result
_RESULTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def is_cache_wrapper(value) -> bool:
    """``functools.lru_cache``'s and ``functools.cache``'s wrapper (the C one, or the
    pure-Python fallback's ``_lru_cache_wrapper``)."""
    return isinstance(value, functools._lru_cache_wrapper)


def is_random_draw(callee) -> bool:
    """A method of a ``random.Random`` object (``self.rng.gauss``, ``rng.random``,
    ``rng.randrange``), or of a NumPy Generator or RandomState whose call breaks
    (``rng.binomial(self.s, p)``: a Python int): ``callee`` the Variable of the
    callable at the break (``UserMethodVariable`` for a method written in Python,
    ``OpaqueMethodVariable`` for one in C, ``OpMethodVariable`` for NumPy's). The call
    stays a break: Python makes the draw at the program's place, so the draws and the
    object's state after the call are eager's. A draw changes from call to call by
    design: its result is a changing number of the resume function from its first
    trace, as a cache's is (one entry, not one per first change)."""
    owner = getattr(callee, "self_var", None) or getattr(callee, "obj", None) or \
        getattr(callee, "owner", None)        # (OpMethodVariable: a Generator's method)
    value = getattr(owner, "obj", getattr(owner, "value", None))   # (its real object)
    return isinstance(value, _DRAWERS)


# The objects whose methods draw: Python's generator, NumPy's (a scalar draw such as
# ``rng.binomial(n, p)`` returns a Python int: a break at its call)
_DRAWERS = (random.Random, np.random.Generator, np.random.RandomState)


def note_result(resume_code, param: str) -> None:
    """``param`` of ``resume_code`` is the result of a cache wrapper's call."""
    _RESULTS[resume_code] = _RESULTS.get(resume_code, frozenset()) | {param}


def changing_results(code) -> set:
    """The sources of ``code``'s parameters that carry a cache's result (none for code
    that is no such resume function)."""
    return {LocalSource(name) for name in _RESULTS.get(code, ())}


__all__ = ["changing_results", "is_cache_wrapper", "is_random_draw", "note_result"]
