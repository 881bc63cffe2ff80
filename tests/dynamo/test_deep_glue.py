"""Values whose Python source nests past what CPython's parser takes (200 parentheses):
a changing float carried through 250 unrolled updates (``t = t * c + lr``), a sum of
300 changing floats, and tuples, lists and dicts nested 250 deep around a graph's
array. The glue wrote them as one expression ("SyntaxError: too many nested
parentheses") or rebuilt them by recursion (RecursionError): an internal error, the
frame run eagerly with a ``dynamo.internal`` warning (hostile round 44,
``round44_state/carried_float``, ``nested_tuple``). Now an expression over changing
numbers ``scalars._MAX_DEPTH_CHANGING`` operators deep is pinned (its value a constant
of the entry, ``scalars.too_deep``), and values the glue cannot rebuild make the frame
run as it is, without an internal error (``glue._TOO_DEEP``)."""

import logging

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]
COEFFS = [1.0 - 1.0 / (k + 3) for k in range(250)]


def carried(x, lr):
    t = lr
    for c in COEFFS:
        t = t * c + lr
    return x * t, t


def long_sum(x, vals):
    s = 0.0
    for v in vals:
        s = s + v
    return x + s, s


def nested_tuple(x):
    t = x * 2
    for _ in range(250):
        t = (t, 1)
    return t


def nested_dict(x):
    d = {"v": x * 3}
    for k in range(250):
        d = {"d": d, "k": k}
    return d


def _flat(v):
    """A nested value as a flat list of its leaves (``same`` recurses too deep)."""
    out = []
    while isinstance(v, (tuple, list, dict)):
        if isinstance(v, dict):
            out.append(v.get("k"))
            v = v.get("d", v.get("v"))
        else:
            out.extend(v[1:])
            v = v[0]
    return out + [v]


CASES = [
    (carried, [(np.ones(3), 0.5), (np.ones(3), 0.25), (np.ones(3), -1.5)]),
    (long_sum, [(np.ones(3), [0.1 * k for k in range(300)]),
                (np.ones(3), [0.2 * k for k in range(300)])]),
    (nested_tuple, [(np.ones(3),), (np.ones(4),)]),
    (nested_dict, [(np.ones(3),)]),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,calls", CASES, ids=[c[0].__name__ for c in CASES])
def test_deep_values_compile_or_run_as_they_are_without_an_internal_error(
        fn, calls, backend, caplog):
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    with caplog.at_level(logging.WARNING, logger="dynamo.internal"):
        for args in calls:
            got, want = _flat(compiled(*args)), _flat(fn(*args))
            assert len(got) == len(want)
            for a, b in zip(got, want):
                same(a, b)
    assert not [r for r in caplog.records if r.name == "dynamo.internal"]


def test_a_deep_carried_float_still_compiles_a_graph():
    """Pinned, not skipped: the array op stays compiled (one entry per ``lr``)."""
    dynamo.reset()
    e = dynamo.explain(carried, backend="eager")(np.ones(3), 0.5)
    assert e.graph_count == 1 and e.graph_break_count == 0
