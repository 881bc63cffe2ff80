"""A Python float drawn by the graph, raised to a power or divided by (issue #19, task
t6): ``(rng.random() - 0.5) ** 2``, ``np.random.rand() ** 2``, ``2.0 ** rng.random()``,
``1.0 / (rng.random() + 0.5)``. The draw lies in [0, 1), so these cannot raise
(``symbolic/drawn_ranges.py``): one graph, the same draws in the same order as eager,
eager's values bit for bit and its types. Where the range allows an error (``(1e200 *
rng.random()) ** 2`` may overflow, ``1.0 / (rng.random() - 0.5)`` may divide by zero)
it is a break, as before; so is a draw inside a loop the trace unrolls (by choice:
slower over small arrays than the Python loop the break leaves).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from harness import check, nested_types

import dynamo


def centered_square(rng, x):
    return x * (rng.random() - 0.5) ** 2, rng.random()


def walk(rng, n):
    t = 0.0
    for _ in range(n):
        t += (rng.random() - 0.5) ** 2 + 2.0 ** rng.random()
    return t


def scaled(rng, x):
    v = 1.0 / (rng.random() + 0.5)
    return x * v, v ** 3


def legacy_square(rs, x):
    return x * rs.random_sample() ** 2


def may_overflow(rng, x):
    return x * (rng.random() * 1e200) ** 2


def may_divide_by_zero(rng, x):
    v = 1.0 / (rng.random() - 0.5)     # (Python's division: ZeroDivisionError at 0.5)
    return x * v


_X = np.arange(1.0, 4.0)
KEPT = {
    "centered_square": (centered_square, lambda: (np.random.default_rng(1), _X)),
    "centered_square_f32": (centered_square,
                            lambda: (np.random.default_rng(2), _X.astype(np.float32))),
    "scaled": (scaled, lambda: (np.random.default_rng(4), _X)),
    "legacy_square": (legacy_square, lambda: (np.random.RandomState(5), _X)),
}
BROKEN = {
    # (a draw in a loop the trace unrolls keeps its break by choice: each trip's draw
    # and conversion as graph ops ran slower over small arrays than the Python loop
    # the break leaves, scripts/bench_removed_breaks.py)
    "walk": (walk, lambda: (np.random.default_rng(3), 4)),
    "may_overflow": (may_overflow, lambda: (np.random.default_rng(6), _X)),
    "may_divide_by_zero": (may_divide_by_zero, lambda: (np.random.default_rng(7), _X)),
}


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(KEPT))
def test_one_graph_with_eagers_draws(name, backend):
    fn, args = KEPT[name]
    dynamo.reset()
    # (the generator is an argument: ``check`` compares its state after each call)
    check(fn, *args(), backend=backend, graphs=1, breaks=0, calls=3)
    dynamo.reset()
    compiled = dynamo.compile(fn, backend=backend)
    assert nested_types(compiled(*copy.deepcopy(args()))) == nested_types(fn(*args()))


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_power_or_quotient_that_may_raise_still_breaks(name):
    fn, args = BROKEN[name]
    dynamo.reset()
    report = check(fn, *args(), breaks=1, calls=2)
    assert "drawn Python float" in report.break_reasons[0].reason


def global_square(x):
    return x * np.random.rand() ** 2 + 2.0 ** np.random.rand()


@pytest.mark.parametrize("backend", ("eager", "numpy"))
def test_the_global_stream_is_eagers(backend):
    dynamo.reset()
    compiled = dynamo.compile(global_square, backend=backend)
    for seed in range(3):
        np.random.seed(seed)
        want, want_next = global_square(_X), np.random.rand()
        np.random.seed(seed)
        got, got_next = compiled(_X), np.random.rand()
        assert got.dtype == want.dtype and np.array_equal(got, want) and got_next == want_next
    dynamo.reset()
    np.random.seed(0)
    report = dynamo.explain(global_square, backend=backend)(_X)
    assert (report.graph_count, report.graph_break_count) == (1, 0)
