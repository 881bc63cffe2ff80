"""A chained comparison of NumPy scalars the trace knows (made from constants only),
``if a[0] <= a[1] <= a[2]:`` with ``a = np.zeros(3)`` (issue #17, found by
``scripts/loop_program_search.py --generator mixed``, seed 912).

``size_chains.chain_jump`` traces the right link to keep ``first & second`` in the
graph; where it cannot (the right link reads ``a[2]``, a getitem), it restores the
frame and asks the first link's truth, expecting the break. A known first link
answers instead, and the jump went on from the right link's end, not from the jump:
the chain's middle operand ``a[1]`` (0.0) was tested in the chain's place, so the
``if`` was skipped where Python took it. The jump now goes on from where it was.
"""

import numpy as np
import pytest

import dynamo


def both_links_read_items(x):
    a = np.zeros(3)
    if a[0] <= a[1] <= a[2]:
        return x + 1
    return x


def equal_chain(x):
    a = np.zeros(3)
    if a[0] == a[1] == a[2]:
        return x + 1
    return x


def right_link_adds(x):
    a = np.zeros(3)
    if a[0] <= a[1] < a[-1] + 1:
        return x + 1
    return x


def counted_in_a_loop(x, log):
    c = 0
    for _ in range(3):
        a = np.zeros(len(log)) + c
        if a.size > 1 and a[0] <= a[1] < a[-1] + 1:
            c += 1
    return x + c


def false_first_link(x):
    a = np.ones(3)
    if a[0] < a[1] <= a[2]:
        return x + 1
    return x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [both_links_read_items, equal_chain, right_link_adds,
                                false_first_link])
def test_a_known_chain_takes_pythons_way(fn, backend):
    dynamo.reset()
    x = np.arange(3.0)
    np.testing.assert_array_equal(dynamo.compile(fn, backend=backend)(x), fn(x))


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_known_chain_in_a_loop(backend):
    dynamo.reset()
    x = np.arange(3.0)
    compiled = dynamo.compile(counted_in_a_loop, backend=backend)
    for log in ([1, 2, 3], [1], [1, 2]):
        np.testing.assert_array_equal(compiled(x, log), counted_in_a_loop(x, log))
