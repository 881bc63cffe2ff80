"""A changing Python int for a user's backend of static shapes (issue #16): where the
trace uses it only in arithmetic (a step counter ``t`` in ``1 - 0.9 ** t``) it is an
input the backend receives among ``example_inputs``, as a changing float is, so an
Adam-style step compiles twice in 100 steps instead of once per step. Where the trace
needs it as a size or a plain int (``np.ones(n)``, ``x[:n]``, ``range(n)``) it is
pinned, and the trace starts over with it a constant
(``DynamicPolicy.pinned_for_static_backend``): the backend never gets a graph with an
int input in a shape's place.

Example::

    >>> def mine(graph, example_inputs): return eager(graph, example_inputs)
    >>> report = dynamo.explain(adam_step, backend=mine).calls(
    ...     [(g, m, t) for t in range(1, 101)])
    >>> report.compile_count          # 100 before (cache limit: then uncompiled)
    2
"""

import numpy as np
from dynamo.backends.eager import eager

import dynamo

SEEN: list = []      # per backend call: (the graph's text, the example inputs' types)


def mine(graph, example_inputs):
    """A user backend of static shapes (no ``dynamic_shapes``): records, runs eagerly."""
    SEEN.append((str(graph), [type(a).__name__ for a in example_inputs]))
    return eager(graph, example_inputs)


def _explained(fn, calls, **kw):
    SEEN.clear()
    dynamo.reset()
    report = dynamo.explain(fn, backend=mine, **kw).calls(calls)
    assert not any(report.exceptions), report.exceptions
    for args, got in zip(calls, report.results):
        want = fn(*args)
        assert type(got) is type(want)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype and got.shape == want.shape
    return report


def adam_step(g, m, t):
    m = 0.9 * m + 0.1 * g
    return m / (1 - 0.9 ** t)


def test_a_step_counter_argument_is_an_input_not_an_entry_per_value():
    g = np.linspace(-1, 1, 5)
    report = _explained(adam_step, [(g, g * 0.5, t) for t in range(1, 101)])
    assert report.compile_count == 2     # the first call's value, then an input
    assert any("int" in types for _, types in SEEN)


class Adam:
    """Adam-style state: ``self.t`` stepped each call, arrays updated in place."""

    def __init__(self):
        self.t, self.m, self.v = 0, np.zeros(4), np.zeros(4)

    def step(self, g):
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * g
        self.v = 0.999 * self.v + 0.001 * g * g
        return (self.m / (1 - 0.9 ** self.t)) / (np.sqrt(self.v / (1 - 0.999 ** self.t))
                                                 + 1e-8)


def test_an_attribute_counter_is_an_input_and_its_state_matches_eager():
    plain, traced = Adam(), Adam()
    SEEN.clear()
    dynamo.reset()
    with dynamo.explain(traced.step, backend=mine) as f:
        for i in range(100):
            g = np.cos(np.arange(4.0) + i)
            want, got = plain.step(g), f(g)
            np.testing.assert_array_equal(got, want)
            assert type(traced.t) is int and traced.t == plain.t
            np.testing.assert_array_equal(traced.m, plain.m)
            np.testing.assert_array_equal(traced.v, plain.v)
    assert f.report.compile_count <= 2


def sized(x, n):
    return x[:n] * 2 + np.ones(n)


def test_an_int_used_as_a_size_stays_pinned_with_no_int_input_in_the_graph():
    x = np.arange(8.0)
    report = _explained(sized, [(x, n) for n in range(2, 6)])
    assert report.compile_count == 4     # one entry per value, as before
    for text, types in SEEN:
        assert types == ["ndarray"], text          # the size is a constant in the graph
        assert "s0" not in text


def mixed(x, n):
    scale = 1.0 / (1 + n)       # arithmetic...
    return x[:n] * scale        # ...and a size: pinned


def test_an_int_used_both_ways_is_pinned():
    x = np.arange(8.0)
    _explained(mixed, [(x, n) for n in range(2, 6)])
    assert all(types == ["ndarray"] for _, types in SEEN)


def branchy(x, t):
    if t > 3:                   # a decision on the int: guarded, not pinned
        return x * (t + 0.5)
    return x - t


def test_an_int_deciding_a_branch_gives_eager_results_on_both_sides():
    x = np.arange(3.0)
    report = _explained(branchy, [(x, t) for t in (1, 2, 5, 6, 3, 7, 0, 9)])
    assert report.compile_count <= 4


def test_dynamic_false_keeps_ints_constants():
    g = np.ones(3)
    report = _explained(adam_step, [(g, g, t) for t in range(1, 5)], dynamic=False)
    assert report.compile_count == 4
    assert all("int" not in types for _, types in SEEN)
