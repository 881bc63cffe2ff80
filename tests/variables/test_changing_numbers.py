"""Numbers that change between calls stay graph inputs through what schedulers and
counters do with them (issue #16): ``min``/``max`` of changing floats, a changing int
to a float power, and an int in a closure cell (``nonlocal count; count += 1``). Each
sequence of calls is compared with plain Python (values, types, the state left
behind) and its compiles are counted.
"""

import math
import warnings

import numpy as np
from harness import same
from hypothesis import given, settings
from hypothesis import strategies as st

import dynamo

G = np.linspace(-1.0, 1.0, 6)


def _compiles(fn, calls):
    """Results of ``fn`` compiled over ``calls`` (argument tuples), and its compiles."""
    with dynamo.explain(fn, backend="eager") as e:
        results = [e(*args) for args in calls]
    return results, e.report.compile_count


def warmup(g, step, base=0.1, warmup=4.0):
    lr = base * min(1.0, (step + 1) / warmup)
    return g * lr, lr


def clipped(g, scale, lo):
    return g * max(lo, scale, 0.5), max(scale, lo)


def test_min_of_a_changing_step_is_one_entry():
    calls = [(G, step) for step in range(2, 12)]
    results, compiles = _compiles(warmup, calls)
    same([warmup(*c) for c in calls], results)
    assert compiles <= 2


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.floats(allow_nan=True, allow_infinity=True, width=64),
                          st.sampled_from([0.0, -0.0, 1.0, float("nan"), -2.5])),
                min_size=3, max_size=6))
def test_max_of_changing_floats_picks_as_python(pairs):
    """NaN in either place, -0.0 against 0.0, ties: the graph's ``max`` picks the very
    value Python's does (``same`` tells -0.0 from 0.0 and compares NaN as NaN)."""
    dynamo.reset()
    calls = [(G, s, lo) for s, lo in pairs]
    with np.errstate(all="ignore"):
        expected = [clipped(*c) for c in calls]
        results, _ = _compiles(clipped, calls)
    for want, got in zip(expected, results):
        same(want[0], got[0])
        assert type(got[1]) is float
        assert math.copysign(1, got[1]) == math.copysign(1, want[1])
        assert (math.isnan(got[1]) and math.isnan(want[1])) or got[1] == want[1]


def mixed(g, step):
    return g * min(3, step / 2)     # an int or a float, as step decides


def test_min_of_an_int_and_a_changing_float_stays_exact():
    calls = [(G, float(step)) for step in range(2, 10)]
    results, _ = _compiles(mixed, calls)
    same([mixed(*c) for c in calls], results)


class InvScaling:
    def __init__(self):
        self.t = 1

    def eta(self, g, power_t=0.25):
        eta = 0.01 / self.t ** power_t
        self.t += 4
        return g * eta


def test_a_changing_int_to_a_float_power_is_one_entry():
    eager, compiled = InvScaling(), InvScaling()
    calls = [(G,)] * 8
    with dynamo.explain(compiled.eta, backend="eager") as e:
        results = [e(*args) for args in calls]
    same([eager.eta(*c) for c in calls], results)
    assert compiled.t == eager.t
    assert e.report.compile_count <= 2


def shifted_root(g, t):
    return g * (t - 5) ** 0.5       # complex for t < 5: not a float for every t


def test_a_base_that_may_be_negative_still_specializes():
    calls = [(G, t) for t in (2, 3, 7, 4, 9, 6)]
    results, _ = _compiles(shifted_root, calls)
    same([shifted_root(*c) for c in calls], results)


def make_counter():
    count = 0
    scale = 2

    def forward(x):
        nonlocal count
        count += 1
        return x * count * scale

    def bump_scale():
        nonlocal scale
        scale += 3

    return forward, bump_scale, lambda: count


def test_a_closure_counter_is_an_input():
    f_eager, bump_eager, count_eager = make_counter()
    f_comp, bump_comp, count_comp = make_counter()
    with dynamo.explain(f_comp, backend="eager") as e:
        got = []
        for i in range(10):
            got.append(e(G))
            if i == 6:
                bump_comp()          # another closure writes a cell the graph reads
    expected = []
    for i in range(10):
        expected.append(f_eager(G))
        if i == 6:
            bump_eager()
    same(expected, got)
    assert count_comp() == count_eager() == 10
    assert e.report.compile_count <= 4   # count 0, 1, then symbolic; scale once


def exp_decay(g, step, k=0.3):
    lr = 0.1 * np.exp(-k * step)
    return g * lr, lr


def test_a_numpy_function_of_a_changing_number_is_a_graph_node():
    calls = [(G, step) for step in range(2, 12)]
    results, compiles = _compiles(exp_decay, calls)
    same([exp_decay(*c) for c in calls], results)    # lr stays an np.float64
    assert compiles <= 2


def log_of(g, v):
    return g * np.log(v), np.sqrt(v - 1.0)


def test_a_numpy_function_of_a_changing_number_warns_when_it_runs():
    """np.log(0.0) and np.sqrt(-1.0) warn on the calls whose values make them warn,
    in the graph as eagerly (nothing was folded at trace time)."""
    calls = [(G, v) for v in (2.0, 3.0, 0.0, 5.0, 0.5, 4.0)]
    for compiled in (False, True):
        dynamo.reset()
        fn = dynamo.compile(log_of, backend="eager") if compiled else log_of
        got = []
        for args in calls:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                got.append((fn(*args), sorted(str(w.message) for w in caught)))
        if not compiled:
            expected = got
    for (want, want_warns), (res, warns) in zip(expected, got):
        same(want, res)
        assert warns == want_warns


def weighted(g, weights):
    return g * sum(weights), sum([0.1] * 10), sum((1, 0.5, True))


def test_sum_of_floats_adds_as_the_running_python():
    """From 3.12 ``sum`` compensates float rounding (``sum([0.1] * 10) == 1.0``), so a
    sum of constants or of a fresh list of floats is the builtin's, not one by one."""
    rng = np.random.default_rng(4)
    calls = [(G, [float(v) for v in rng.standard_normal(5) * 1e3]) for _ in range(8)]
    results, compiles = _compiles(weighted, calls)
    same([weighted(*c) for c in calls], results)
    assert compiles <= 2


def _sums(x, w, n):
    """``sum`` as programs write it: of a fresh list, a tuple, a generator, with a start
    that is an int, a float or -0.0, over constants and over the changing ``w``."""
    a = sum([0.1] * n, 0.0)
    b = sum(0.1 * k for k in range(n))
    c = sum((1, 0.5, True, 0.1), -0.0)
    d = sum(w, 0.0)
    e = sum(v for v in w)
    f = sum([w[0], 0.1, 0.2], 1)
    return x * a, a, b, c, d, e, f


@settings(max_examples=15, deadline=None)
@given(st.lists(st.lists(st.floats(-1e3, 1e3, width=64), min_size=3, max_size=3),
                min_size=2, max_size=4),
       st.sampled_from(["eager", "numpy"]))
def test_sum_of_floats_adds_as_the_builtin(ws, backend):
    """From 3.12 ``sum`` compensates float rounding: every form above must give the
    builtin's bits (``.hex()``), whether the floats are constants or change between
    calls (which break there on 3.12+: ``iteration._compensated``)."""
    dynamo.reset()
    f = dynamo.compile(_sums, backend=backend)
    for w in ws:
        want, got = _sums(G, w, 10), f(G, w, 10)
        same(want[0], got[0])
        assert [type(v) for v in got[1:]] == [type(v) for v in want[1:]]
        assert [float(v).hex() for v in got[1:]] == [float(v).hex() for v in want[1:]]
