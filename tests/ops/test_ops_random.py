"""np.random: legacy global functions are graph ops that draw, in program order, the
same numbers eager execution draws for the same seed; state-changing functions run
eagerly (a graph break, or an eager frame) with the same numbers; the rules agree with
NumPy and never touch the global state while tracing. (Generator and RandomState
objects: test_ops_generator.py.)"""

import copy

import numpy as np
import pytest
from harness import same
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import agree, arrays

import dynamo

X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)


def same_stream(fn, *args, seed=0, calls=3, graphs=None, breaks=None):
    """Compiled and eager draw the same numbers and leave the global state the same."""
    compiled = dynamo.compile(fn, backend="eager")
    for call in range(calls):
        np.random.seed(seed + call)
        expected = fn(*copy.deepcopy(args))
        expected_next = np.random.random(4)
        np.random.seed(seed + call)
        got = compiled(*copy.deepcopy(args))
        got_next = np.random.random(4)
        same(expected, got, path=f"call {call + 1}")
        same(expected_next, got_next, path=f"call {call + 1}: the state afterwards")
    if graphs is not None or breaks is not None:
        report = dynamo.explain(fn, backend="eager")(*copy.deepcopy(args))
        assert (graphs is None or report.graph_count == graphs) and \
            (breaks is None or report.graph_break_count == breaks), str(report)
        return report


def draws(x):
    a = np.random.rand(3, 4)
    b = np.random.randn(4)
    c = np.random.normal(1.0, 2.0, size=(3, 4))
    d = np.random.uniform(-1, 1, (2,))
    e = np.random.randint(0, 10, size=5)
    f = np.random.random((2, 2)) + np.random.random_sample(3).sum()
    g = np.random.standard_normal(size=4) + np.random.exponential(2.0, 4)
    h = np.random.poisson(3.0, 6) + np.random.binomial(10, 0.3, 6)
    return x * a + c, b, d, e, f, g, h


def interleaved(x):
    y = x * np.random.rand(*x.shape)
    z = y.sum() + np.random.normal(size=x.shape)
    return z @ np.random.randn(4, 2)


def parameter_arrays(x):
    return (np.random.normal(loc=x, scale=np.abs(x) + 0.1), np.random.uniform(x, x + 1),
            np.random.poisson(np.abs(x) * 3), np.random.binomial(5, np.abs(x)))


def choice_permutation_shuffle(x):
    a = np.random.choice(10, size=4)
    b = np.random.choice(x[0], size=(2, 3), replace=True)
    c = np.random.choice(5, 3, replace=False)
    d = np.random.permutation(6)
    e = np.random.permutation(x)
    y = x.copy()
    r = np.random.shuffle(y)
    return a, b, c, d, e, y, r


def dtypes_and_aliases(x):
    return (np.random.randint(0, 200, size=3, dtype=np.uint8), np.random.ranf(2),
            np.random.sample((2,)), np.random.gamma(2.0, size=2), np.random.beta(1, 2, 2))


@pytest.mark.parametrize("fn", [draws, interleaved, parameter_arrays,
                                choice_permutation_shuffle, dtypes_and_aliases],
                         ids=lambda f: f.__name__)
def test_same_numbers_in_one_graph(fn):
    report = same_stream(fn, X, graphs=1, breaks=0)
    targets = [n.target for g in report.graphs for n in g.call_nodes()]
    assert any(t.startswith("random_") for t in targets)


def test_random_ops_are_marked_random():
    op, _ = dynamo.ops.lookup_function(np.random.normal)
    assert op.name == "random_normal" and op.random


def test_seed_inside_the_function_is_an_op_in_order():
    def f(x):
        np.random.seed(1)
        a = x + np.random.rand(3, 4)
        np.random.seed(2)
        return a, np.random.rand(2)

    report = same_stream(f, X, graphs=1, breaks=0)
    targets = [n.target for n in report.graphs[0].call_nodes()]
    assert targets.index("random_seed") < targets.index("random_rand")
    assert targets.count("random_seed") == 2


def seeded(x, seed):
    np.random.seed(seed)
    return x * np.random.normal(size=x.shape)


def test_a_seed_argument_is_dynamic(traces):
    compiled = dynamo.compile(seeded, backend="eager")
    for seed in range(10):      # seed 0 specialized, then one symbolic entry from 1 on
        np.random.seed(99)
        same(seeded(X, seed), compiled(X, seed))
    assert len(traces) == 2


@pytest.mark.parametrize("seed", [1.5, np.array([1, 2]), [3, 4]], ids=["float", "array", "list"])
def test_other_seeds_break_and_keep_the_order(seed):
    def f(x, s):
        np.random.seed(s)
        return x + np.random.rand(3, 4)

    report = dynamo.explain(f, backend="eager")(X, seed)
    assert report.graph_break_count == 1
    assert "random" in report.break_reasons[0].reason
    np.random.seed(5)
    if isinstance(seed, float):
        with pytest.raises(TypeError):
            dynamo.compile(f, backend="eager")(X, seed)
        return
    expected = f(X, seed)
    np.random.seed(5)
    same(expected, dynamo.compile(f, backend="eager")(X, seed))


def test_python_scalar_draws_in_arithmetic_stay_in_the_graph():
    """``x * np.random.rand() + np.random.normal()``: each draw an unbacked float
    (tests/variables/test_drawn_numbers.py), the same stream; a use that needs the
    number while tracing breaks with the draw's reason."""
    def f(x):
        return x * np.random.rand() + np.random.normal()

    def needs_it(x):
        return x if np.random.rand() > 0.5 else None

    same_stream(f, X, graphs=1, breaks=0)
    report = same_stream(needs_it, X, breaks=1)
    assert "Python" in report.break_reasons[0].reason


def test_tracing_does_not_touch_the_global_state():
    np.random.seed(5)
    before = np.random.get_state()[1].copy()
    dynamo.explain(draws, backend="eager")(X)  # traces and runs once...
    np.random.seed(5)
    dynamo.reset()
    compiled = dynamo.compile(interleaved, backend="eager")
    state = np.random.get_state()[1].copy()
    np.testing.assert_array_equal(before, state)
    compiled(X)  # ...the draws happen when the graph runs, not while tracing
    np.random.seed(5)
    expected = interleaved(X)
    np.random.seed(5)
    same(expected, compiled(X))


SIZES = st.one_of(st.none(), st.integers(0, 3), st.lists(st.integers(0, 3), max_size=3)
                  .map(tuple))


@given(size=SIZES, loc=st.one_of(st.sampled_from([0.0, 1]), arrays(
    [np.dtype("float32"), np.dtype("float64"), np.dtype("int64")], max_dims=2, max_side=3)))
@settings(max_examples=60, deadline=None)
def test_distribution_rules_agree(size, loc):
    may = size is None and np.ndim(loc) == 0  # a Python float comes back: a break
    agree(np.random.normal, loc, 1.0, size=size, may_break=may)
    agree(np.random.uniform, loc, 2.0, size, may_break=may)
    agree(np.random.exponential, 1.0, size=size, may_break=size is None)
    agree(np.random.randint, 0, 5, size=size, may_break=size is None)
    agree(np.random.poisson, 2.0, size, may_break=size is None)
    if size is not None:
        agree(np.random.random, size)
        agree(np.random.choice, 5, size)
        agree(np.random.rand, *((size,) if isinstance(size, int) else size),
              may_break=size == ())


def test_a_bad_seed_raises_eagers_error():
    def f(x, s):
        np.random.seed(s)
        return x + np.random.rand(3, 4)

    compiled = dynamo.compile(f, backend="eager")
    compiled(X, 3)
    for bad in (-1, 2**40):
        with pytest.raises(ValueError) as want:
            f(X, bad)
        with pytest.raises(ValueError) as got:
            compiled(X, bad)
        assert str(got.value) == str(want.value)


class _Seeded:
    """Counts its calls, then makes a Generator, a RandomState or a global seed from a
    seed that is negative for the first calls (NumPy raises ValueError there)."""

    def __init__(self, make):
        self.calls, self.make = 0, make

    def draw(self, x):
        self.calls += 1
        return x + self.make(self.calls - 3)


_SEEDERS = {
    "default_rng": lambda s: np.random.default_rng(s).standard_normal(3),
    "RandomState": lambda s: np.random.RandomState(s).standard_normal(3),
    "seed": lambda s: (np.random.seed(s), np.random.standard_normal(3))[1],
    "constant_negative": lambda s: np.random.default_rng(-2).standard_normal(3),
}


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("maker", sorted(_SEEDERS))
def test_a_seed_that_raises_keeps_the_effects_before_it(maker, backend):
    # a graph whose seed op raised used to drop `self.calls += 1` (issue #17 item 7)
    plain, traced = _Seeded(_SEEDERS[maker]), _Seeded(_SEEDERS[maker])
    compiled = dynamo.compile(traced.draw, backend=backend)
    for k in range(6):
        np.random.seed(11)
        want = outcome(plain.draw, np.zeros(3))
        np.random.seed(11)
        got = outcome(compiled, np.zeros(3))
        assert type(want) is type(got), (k, want, got)
        if isinstance(want, Exception):
            assert str(want) == str(got)
        else:
            same(want, got)
        assert plain.calls == traced.calls == k + 1


def outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 (the outcome compared)
        return e
