"""Builtins that consume an iterable take its items one at a time, as CPython does:
a generator runs up to its next ``yield`` only after the previous item was used."""

import numpy as np
import pytest
from harness import check

import dynamo


class Logged:
    """A number whose additions and creations are written into a shared log."""

    def __init__(self, v, log):
        self.v, self.log = v, log
        log.append(("make", v))

    def __add__(self, other):
        value = other.v if isinstance(other, Logged) else other
        self.log.append(("add", self.v, value))
        return Logged(self.v + value, self.log)

    __radd__ = __add__


def logged_sum(x, log):
    total = sum((Logged(i, log) for i in range(3)), Logged(0, log))
    return x * total.v


def rolls(x):
    return sum(np.roll(np.roll(x, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1)
               if i or j)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_sum_adds_each_item_before_making_the_next(backend):
    check(logged_sum, np.ones(3), [], backend=backend)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_sum_of_generated_arrays_holds_one_at_a_time(backend):
    import tracemalloc
    x = (np.random.default_rng(0).random((200, 200)) > 0.5).astype(np.int64)
    compiled = dynamo.compile(rolls, backend=backend)
    np.testing.assert_array_equal(compiled(x), rolls(x))

    def peak(fn):
        tracemalloc.start()
        try:
            fn(x)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    # eager holds the running total and two rolls at a time; all eight at once was 2x
    assert peak(compiled) <= 1.25 * peak(rolls)
