"""A local that an island (a loop that runs as Python after a break) stores only with a
new list, dict or set (``k = []`` each trip, RK45's) or with NumPy's new array
(``rates = np.array([...])``, Gillespie's) keeps that type: its methods are called as
written, not through the island's ``intercept`` (issue #15: seven ``k.append`` a trip
went through it). Where some store could bring another value (``k = o if c else []``,
a ``Log`` at the break, ``np.asarray`` of anything) every call still goes through it."""

import numpy as np
import pytest
from test_island_calls import intercept_calls

import dynamo
from dynamo.bytecode.fresh_locals import fresh_container_locals
from dynamo.bytecode.instructions import CodeInfo


def stages(a):
    """A new list each trip, filled by ``append``; the branch on data breaks."""
    total = 0.0
    i = 0
    while i < len(a):
        k = []
        for j in range(3):
            k.append(a[i] * j)
        d = {}
        d.update(last=k[-1])
        if a[i] > 0.5:
            total += sum(k) + d["last"]
        i += 1
    return total, k, d


class Log:
    def __init__(self):
        self.items = []

    def append(self, v):
        self.items.append(v * 10)


def log_at_the_break(a):
    """``k`` is a ``Log`` when the island starts, a list from its second trip."""
    k = Log()
    out = []
    for i in range(len(a)):
        k.append(i)
        out.append(len(k.items) if isinstance(k, Log) else len(k))
        if a[i] > 0.5:
            out.append(-1)
        k = []
    return out


def one_way_or_the_other(a, log):
    """``k = log if ... else []``: the store is also reached from the ``log`` way."""
    out = []
    for i in range(len(a)):
        k = log if a[i] > 0.9 else []
        k.append(i)
        out.append(type(k).__name__)
        if a[i] > 0.5:
            out.append("hi")
    return out, log.items


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_methods_of_a_fresh_list_skip_the_hook(backend):
    a = np.random.default_rng(0).random(200)
    compiled = dynamo.compile(stages, backend=backend)
    for _ in range(3):
        assert compiled(a) == stages(a)
    assert intercept_calls(compiled, a) == 0


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_another_value_at_the_break_keeps_the_hook(backend):
    a = np.random.default_rng(1).random(50)
    compiled = dynamo.compile(log_at_the_break, backend=backend)
    for _ in range(3):
        assert compiled(a) == log_at_the_break(a)
    assert intercept_calls(compiled, a) > 0


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_store_reached_by_a_jump_keeps_the_hook(backend):
    a = np.random.default_rng(2).random(80)
    assert (a > 0.9).any()
    compiled = dynamo.compile(one_way_or_the_other, backend=backend)
    for _ in range(3):
        assert compiled(a, Log()) == one_way_or_the_other(a, Log())
    assert intercept_calls(compiled, a, Log()) > 0


def test_which_locals_are_fresh():
    assert fresh_container_locals(CodeInfo.of(stages.__code__)) == {"k": list, "d": dict}
    # (``k = Log()`` before the loop: a call, not a display)
    assert "k" not in fresh_container_locals(CodeInfo.of(log_at_the_break.__code__))
    assert fresh_container_locals(CodeInfo.of(log_at_the_break.__code__))["out"] is list
    # (the store after ``[]`` is the join of the two ways: a jump brings ``log``)
    assert "k" not in fresh_container_locals(CodeInfo.of(one_way_or_the_other.__code__))

    def unpacks(p):
        k = []
        k, j = p
        return k, j
    # (an unpacking stores what UNPACK_SEQUENCE pushed; 3.13's store pairs likewise)
    assert "k" not in fresh_container_locals(CodeInfo.of(unpacks.__code__))


def rates_each_trip(a, k):
    """Gillespie's shape: a new array each trip, its ``sum`` method called."""
    total = 0.0
    for i in range(len(a)):
        rates = np.array([k, a[i] * 2.0])
        s = rates.sum()
        if a[i] > 0.5:
            total += s
    return total


def asarray_each_trip(a, k):
    total = 0.0
    for i in range(len(a)):
        rates = np.asarray(a[i:i + 2])      # (an input's subclass comes back as it is)
        s = rates.sum()
        if a[i] > 0.5:
            total += s
    return total


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_methods_of_a_new_array_skip_the_hook(backend):
    a = np.random.default_rng(3).random(300)
    compiled = dynamo.compile(rates_each_trip, backend=backend)
    for _ in range(3):
        assert compiled(a, 1.5) == rates_each_trip(a, 1.5)
    assert intercept_calls(compiled, a, 1.5) == 0
    compiled = dynamo.compile(asarray_each_trip, backend=backend)
    for _ in range(3):
        assert compiled(a, 1.5) == asarray_each_trip(a, 1.5)
    assert intercept_calls(compiled, a, 1.5) > 0


def test_which_locals_hold_new_arrays():
    info = CodeInfo.of(rates_each_trip.__code__)
    assert fresh_container_locals(info) == {}            # (no globals: no call read)
    assert fresh_container_locals(info, globals()) == {"rates": np.ndarray}
    info = CodeInfo.of(asarray_each_trip.__code__)
    assert "rates" not in fresh_container_locals(info, globals())

    def keyword(n):
        r = np.zeros(n, dtype=float)          # (a keyword: ``like=`` could be one)
        r = np.array([n, n])
        return r
    assert "r" not in fresh_container_locals(CodeInfo.of(keyword.__code__), globals())
