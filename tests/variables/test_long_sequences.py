"""A tuple or list argument of more than ``builder.MAX_TRACED_ITEMS`` items is not
traced item by item (issue #17: a 100,000-item tuple made 200,000 guards and took
about 200 s over ten calls): a tuple of Python numbers is one input with one guard on
its whole value, exact in each item's type and value; the items of a long list, or of
a long tuple of other objects, are not traced (a graph break, the rest runs as it is).
"""

import math

import numpy as np
from dynamo.guards import CONSTANT, CheckFunction, Guard, LocalSource

import dynamo
from dynamo.variables.builder import MAX_TRACED_ITEMS

N = 100_000


def _pick(x, t):
    if t[N // 2] > 0:
        return x * t[0] + len(t)
    return x - t[-1]


def _guards(fn, *args):
    report = dynamo.explain(fn, backend="eager")(*args)
    return report, [g for r in report.records for g in r.guards]


def test_a_long_tuple_of_ints_is_one_input_with_one_guard():
    f = dynamo.compile(_pick, backend="numpy")
    x = np.arange(3.0)
    t = tuple(range(1, N + 1))
    np.testing.assert_array_equal(f(x, t), _pick(x, t))
    changed = t[:N // 2] + (-5,) + t[N // 2 + 1:]      # the branch goes the other way
    np.testing.assert_array_equal(f(x, changed), _pick(x, changed))
    as_floats = tuple(float(v) for v in t)             # == the ints, not the same
    assert type(f(x, as_floats)[0]) is type(_pick(x, as_floats)[0])
    report, guards = _guards(_pick, x, t)
    assert report.graph_count == 1 and len(guards) < 20, len(guards)


def _sign(x, t):
    return x * math.copysign(1.0, t[-1])


def test_a_long_tuple_of_floats_tells_minus_zero_and_nans_apart():
    f = dynamo.compile(_sign, backend="eager")
    x = np.ones(2)
    zero = tuple(float(i) for i in range(N - 1)) + (0.0,)
    minus = zero[:-1] + (-0.0,)
    for t in (zero, minus, zero[:-1] + (math.nan,), zero):
        np.testing.assert_array_equal(f(x, t), _sign(x, t))


def test_the_one_guard_checks_every_items_type_and_value():
    values = tuple(range(1, 101))
    check = CheckFunction([Guard(LocalSource("t"), CONSTANT, values)], ["t"], "f", {},
                          has_closure=False)
    assert check(values) and check(tuple(list(values)))
    assert "frozenset" in check.source                  # (the long form: C loops)
    for other in (values[:-1] + (100.0,), (True,) + values[1:], values[:-1], list(values)):
        assert not check(other), other                  # 100.0 == 100, True == 1
    assert check.failures((values[:-1] + (100.0,),)) == ["L['t'][99]: expected 100, got 100.0"]


def _first(x, items):
    return x + items[0]


def test_a_long_list_or_a_long_tuple_of_objects_is_not_traced_item_by_item():
    x = np.ones(2)
    for items in ([1.5] * N, tuple([np.float64(2.5)] * (MAX_TRACED_ITEMS + 1))):
        f = dynamo.compile(_first, backend="eager")
        np.testing.assert_array_equal(f(x, items), _first(x, items))
        report, guards = _guards(_first, x, items)
        assert len(guards) < 20
        assert any(f"more than {MAX_TRACED_ITEMS}" in str(b) for b in report.break_reasons)


def _append_then_read(lst):
    lst.append(len(lst))        # kept unread: appended for the glue's write
    return lst[-1], len(lst)    # reads the items: too many, a graph break here


def test_a_long_list_appended_to_before_its_items_are_read_keeps_its_items():
    # The read of a long list's items raises Unsupported; it used to mark the list read
    # first, so the break's glue wrote back no items and no append: an empty list
    # (hostile round 26, list_append).
    f = dynamo.compile(_append_then_read, backend="eager")
    lst, want = list(range(MAX_TRACED_ITEMS + 200)), list(range(MAX_TRACED_ITEMS + 200))
    assert f(lst) == _append_then_read(want)
    assert lst == want
