"""Test helper: one program run by eager, tier 1 (the numpy backend) and tier 2 (the
native backend, forced synchronously), compared bit for bit.

``same_in_tier_two(fn, *args)`` calls ``fn`` plainly and compiled on the native backend
twice (its second call is tier 2's: ``SYNC`` compiles the kernel after one call, in
the foreground), each on fresh copies of the array arguments. Every result (a tuple's
items one by one) must equal eager's with its dtype and type, and tier 2 must have run
without an error. ``same_in_all_tiers`` also compares tier 1 (the numpy backend).
Example::

    >>> same_in_all_tiers(lambda x: x * 2.0 + 1.0, np.ones(4))

Needs Numba: import this after ``pytest.importorskip("numba")``.
"""

from __future__ import annotations

import numpy as np
from dynamo.backends.native.backend import native_backend
from dynamo.backends.native.tier import Tiered

import dynamo

SYNC = {"after_calls": 1, "background": False, "prefer": "native", "cache": False}


def _copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def _items(result):
    return result if isinstance(result, tuple) else (result,)


def tier_two_results(fn, *args, dynamic_shapes: bool = False) -> tuple[tuple, tuple, list]:
    """``(eager's results, tier 2's results, the Tiered objects made)``: ``fn`` called
    plainly, then compiled on the native backend twice (the second call is tier 2's),
    each on fresh copies; results as tuples (a lone result is a 1-tuple).
    ``dynamic_shapes``: the backend takes unbacked numbers, as ``backend="native"``
    does (a Python number a loop node picks per trip: translator/picked_numbers.py)."""
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options=SYNC))
        return made[-1]
    backend.dynamic_shapes = dynamic_shapes
    want = _items(fn(*_copies(args)))
    compiled = dynamo.compile(fn, backend=backend)
    compiled(*_copies(args))
    got = _items(compiled(*_copies(args)))
    return want, got, [m for m in made if isinstance(m, Tiered)]


def same_in_tier_two(fn, *args, dynamic_shapes: bool = False) -> list:
    """Tier 2's results equal eager's bit for bit (dtypes and types too), and its
    kernel answered a call without an error; the Tiered objects made."""
    want, got, tiers = tier_two_results(fn, *args, dynamic_shapes=dynamic_shapes)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w, strict=True)
        assert type(g) is type(w)
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    assert sum(t.native_calls for t in tiers) >= 1
    return tiers


def same_in_all_tiers(fn, *args) -> None:
    """``same_in_tier_two``, and tier 1's (the numpy backend's) results equal eager's
    the same way."""
    same_in_tier_two(fn, *args)
    want = _items(fn(*_copies(args)))
    tier1 = _items(dynamo.compile(fn, backend="numpy")(*_copies(args)))
    for t, w in zip(tier1, want, strict=True):
        np.testing.assert_array_equal(t, w, strict=True)
        assert type(t) is type(w)
