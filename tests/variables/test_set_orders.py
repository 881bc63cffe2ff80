"""The order a set made or changed in the trace iterates in is CPython's: the trace and
the glue make the set as the program made it (``SetVariable.recipe``,
``dynamo/variables/sets.py``), since a set's order depends on its table's history,
not only on its elements (hostile round 38, issue #17). Ints hash to themselves, so
0, 8, 16, 24... collide in a table of 8 and these orders are the same on every run.

Example::

    def union(x, a):
        t = {a, 8, 16} | {24, 40, 2}      # a copy of the left table, then merged
        return x, list(t)                 # [0, 16, 2, 8, 24, 40], not [0, 2, 8, 40, 16, 24]
"""

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")


def _same(fn, make_args, backend):
    """``fn`` compiled and plain on fresh copies of its arguments: equal results (a set
    result also in its order) and equal arguments afterwards, their order too."""
    compiled = dynamo.compile(fn, backend=backend)
    for _ in range(2):
        mine, theirs = make_args(), make_args()
        got, want = compiled(*mine), fn(*theirs)
        assert _ordered(got) == _ordered(want), (got, want)
        assert _ordered(mine[1:]) == _ordered(theirs[1:]), (mine, theirs)


def _ordered(value):
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, list(value))
    if isinstance(value, (list, tuple)):
        return [_ordered(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def union(x, a):
    t = {a, 8, 16} | {24, 40, 2}
    return x * 2.0, list(t)


def union_method(x, a):
    t = {a, 8, 16}.union({24, 40, 2})
    return x + 1.0, list(t)


def union_returned(x, a):
    return x - 1.0, {a, 8, 16} | {24, 40, 2}


def discard_then_add(x, a):
    s = {a, 8, 16, 24}
    s.discard(8)
    s.add(32)
    return x * 3.0, list(s)


def set_of_a_set(x, a):
    s = {a, 8, 16, 24, 1}
    return x, list(set(s))


def ior_a_set(x, a):
    s = {a, 8, 16}
    s |= {24, 40, 2}
    return x, list(s)


def ior_a_display(x, a):
    t = {a, 32}
    t |= {64, 96, 160, 192, 224}    # (BUILD_SET 0; SET_UPDATE of a frozenset constant)
    return x, list(t)


def star_a_set(x, a):
    s = {a, 8, 16, 24, 1}
    return x, list({*s})


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [union, union_method, union_returned, discard_then_add,
                                set_of_a_set, ior_a_set, ior_a_display, star_a_set])
def test_a_set_made_in_the_trace_iterates_in_cpythons_order(fn, backend):
    _same(fn, lambda: (np.ones(2), 0), backend)


def update_from_a_union(x, seen, a):
    seen |= {a, 32, 64} | {96, 160, 2}   # (in a table of 32: 0, 32, 64, 96, 160 collide)
    return x * len(seen)


def cleared_then(op):
    def fn(x, seen, a):
        seen.clear()
        seen.add(a)
        seen.add(8)
        if op == "difference_update":
            seen.difference_update({a})
        elif op == "-=":
            seen -= {a}
        elif op == "&=":
            seen &= {a}
        else:
            seen ^= {a, 16}
        return x + 1.0
    return fn


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_set_from_outside_updated_from_a_union_keeps_cpythons_order(backend):
    # (the glue merged a set rebuilt element by element: another table, another order)
    _same(update_from_a_union, lambda: (np.ones(2), {5}, 0), backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", ["difference_update", "-=", "&=", "^="])
def test_a_cleared_set_from_outside_changed_in_place_is_written_back(op, backend):
    # after clear() the trace knew the set whole and changed its own view, but the glue
    # replayed only the clear and the adds: the real set kept the removed element
    _same(cleared_then(op), lambda: (np.ones(2), {5}, 0), backend)
