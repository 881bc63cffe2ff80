"""Generator and RandomState objects passed into a compiled function: their methods are
random graph ops that take the object as a constant argument and call the method when
the graph runs. Compiled programs draw the same numbers as eager ones and leave the
object in the same state, call after call (the entry is reused: nothing is baked in);
the rules agree with NumPy (shapes incl. 0-size and 0-d, dtypes, NumPy scalars, errors);
what breaks says why."""

import copy

import numpy as np
import pytest
from dynamo.backends.common import python_function
from harness import same
from hypothesis import given, settings
from hypothesis import strategies as st
from ops_agree import agree, arrays

import dynamo

X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)
F = [np.dtype("float32"), np.dtype("float64"), np.dtype("int64")]


def twins(make, seed=7):
    return make(seed), make(seed)


def same_stream(fn, *args, make=np.random.default_rng, calls=3, backend="eager"):
    """One compiled object, one Generator per side: every call draws the same numbers
    and leaves the Generators in the same state; the first call traced one graph."""
    rng_eager, rng_comp = twins(make)
    compiled = dynamo.compile(fn, backend=backend)
    for call in range(calls):
        a, b = copy.deepcopy(args), copy.deepcopy(args)
        expected = fn(*a, rng_eager)
        got = compiled(*b, rng_comp)
        same(expected, got, path=f"call {call + 1}")
        same(a, b, path=f"call {call + 1}: the arguments afterwards")
        assert str(rng_eager.bit_generator.state if hasattr(rng_eager, "bit_generator")
                   else rng_eager.get_state()) == str(
            rng_comp.bit_generator.state if hasattr(rng_comp, "bit_generator")
            else rng_comp.get_state()), f"call {call + 1}: the state afterwards"
    return dynamo.explain(fn, backend="eager")(*copy.deepcopy(args), make(0))


def draws(x, rng):
    a = x + rng.normal(0.0, 0.5, size=x.shape)
    b = rng.standard_normal((2, 3), dtype=np.float32) * rng.random(3, dtype=np.float32)
    c = rng.integers(0, 10, size=5), rng.integers(3), rng.integers(-2, 2, (2,), np.int8, True)
    d = rng.uniform(x, x + 1), rng.exponential(np.abs(x) + 0.1)
    e = rng.poisson(3.0, (2, 2)) + rng.binomial(10, 0.3, (2, 2)), rng.gamma(2.0, size=3)
    return a, b, c, d, e


def choices(x, rng):
    return (rng.choice(10, size=4), rng.choice([-1, 1], size=(2, 3)),
            rng.choice(x, size=2, axis=1), rng.choice(x[0], 3, replace=False),
            rng.choice(x[0], size=(2,), p=np.full(4, 0.25)), rng.choice(x[1]),
            rng.choice(x, axis=0), rng.choice(5, 0))


def permutations(x, rng):
    y = x.copy()
    view = y[:, 1:]
    r = rng.shuffle(y)            # in place, returns None; the view sees it
    z = x.copy()
    rng.shuffle(z, axis=1)
    return (rng.permutation(6), rng.permutation(x), rng.permutation(x, axis=1), y, r,
            view + 0, z, rng.permuted(x, axis=1), rng.permuted(x))


def vectors(x, rng):
    return (rng.dirichlet([1.0, 2.0, 3.0], size=2),
            rng.multivariate_normal(np.zeros(2), np.eye(2), size=(3,)),
            rng.multivariate_normal([0.0, 1.0], [[1.0, 0.2], [0.2, 1.0]]))


def dropout(x, rng, p=0.25):
    for _ in range(3):
        keep = rng.random(x.shape) >= p
        x = np.where(keep, np.tanh(x) / (1 - p), 0.0)
    return x


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn", [draws, choices, permutations, vectors, dropout],
                         ids=lambda f: f.__name__)
def test_generator_methods_are_graph_ops(fn, backend):
    report = same_stream(fn, X, backend=backend)
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
    targets = [n.target for g in report.graphs for n in g.call_nodes()]
    assert any(t.startswith("generator_") for t in targets), targets


def legacy_object(x, rs):
    y = x.copy()
    rs.shuffle(y)
    return (rs.normal(size=x.shape) + x, rs.rand(2, 3), rs.randint(0, 5, 4), y,
            rs.choice([1.0, 2.0], size=3), rs.permutation(4), rs.uniform(x, x + 1))


def test_randomstate_objects_too():
    report = same_stream(legacy_object, X, make=np.random.RandomState)
    assert (report.graph_count, report.graph_break_count) == (1, 0), str(report)
    assert any(n.target.startswith("randomstate_") for g in report.graphs
               for n in g.call_nodes())


class Model:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def noisy(self, x):
        return x + self.rng.normal(size=x.shape)


GLOBAL_RNG = np.random.default_rng(3)


def uses_global(x):
    return x * GLOBAL_RNG.random(x.shape)


def test_generators_from_attributes_and_globals():
    eager, model = Model(1), Model(1)
    compiled = dynamo.compile(model.noisy, backend="eager")
    for _ in range(2):
        same(eager.noisy(X), compiled(X))
    global GLOBAL_RNG
    GLOBAL_RNG = np.random.default_rng(3)
    expected = [uses_global(X) for _ in range(2)]
    GLOBAL_RNG = np.random.default_rng(3)
    compiled = dynamo.compile(uses_global, backend="eager")
    same(expected, [compiled(X) for _ in range(2)])
    report = dynamo.explain(uses_global, backend="eager")(X)
    assert report.graph_break_count == 0, str(report)


def test_any_generator_is_the_same_entry():
    """Type guard: a Generator is a graph input, so a fresh one per call (a new seed,
    ``default_rng(seed)`` before the call) reuses the entry and draws from itself;
    a RandomState is another type, another entry."""
    def f(x, rng):
        return x + rng.normal(size=x.shape)

    graphs = []

    def counting(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    compiled = dynamo.compile(f, backend=counting)
    g1, g2 = np.random.default_rng(1), np.random.default_rng(2)
    same(f(X, np.random.default_rng(1)), compiled(X, g1))
    same(f(X, np.random.default_rng(2)), compiled(X, g2))
    expected = np.random.default_rng(1)
    f(X, expected)
    same(f(X, expected), compiled(X, g1))    # g1's stream, where it was
    for seed in range(10):                   # more seeds than the cache has entries
        same(f(X, np.random.default_rng(seed)), compiled(X, np.random.default_rng(seed)))
    same(f(X, np.random.RandomState(0)), compiled(X, np.random.RandomState(0)))
    assert len(graphs) == 2                  # one for Generators, one for RandomStates
    report = dynamo.explain(f, backend="eager")(X, g1)
    assert any("type(rng) is" in g.describe() or "L['rng']" in g.describe() and
               "Generator" in g.describe() for g in report.guards), str(report)
    assert not any("is <Generator" in g.describe() for g in report.guards), str(report)
    assert "rng" in [n.name for n in report.graphs[0].placeholders]


def test_rng_default_none_idiom():
    def f(x, rng=None):
        if rng is None:
            rng = np.random.default_rng(0)
        return x * rng.random(x.shape)

    report = same_stream(f, X)
    assert report.graph_break_count == 0, str(report)


@pytest.mark.parametrize("body,why", [
    (lambda x, rng: x + np.random.default_rng(np.random.SeedSequence(0)).random(x.shape),
     "default_rng"),     # (of an int it is an op: tests/realworld/test_kernel_programs.py)
    (lambda x, rng: (x, rng.bytes(4)), "Generator.bytes"),
    (lambda x, rng: (x, rng.spawn(1)[0].random(2)), "Generator.spawn"),
    (lambda x, rng: x if rng.normal() > 0 else None, "Python scalar"),   # (needed now)
    (lambda x, rng: rng.random(out=x.astype(np.float64)), "out="),
    (lambda x, rng: (x, rng.bit_generator.state["state"]["state"]), "bit_generator"),
    (lambda x, rng: rng.multinomial(3, [0.5, 0.5], size=2) + x[0, :2], "multinomial"),
], ids=["default_rng", "bytes", "spawn", "python_float", "out", "bit_generator",
        "multinomial"])
def test_what_breaks_says_why_and_stays_correct(body, why):
    report = same_stream(body, X, calls=2)
    assert report.graph_break_count >= 1, str(report)
    assert any(why in b.reason for b in report.break_reasons), \
        [b.reason for b in report.break_reasons]


def test_a_draw_inside_try_breaks_only_with_array_parameters():
    def f(x, rng):
        try:
            a = rng.random(x.shape)          # cannot raise from data: in the graph
            b = rng.normal(x, np.abs(x))     # scale < 0 would raise: the try runs eagerly
        except ValueError:
            a = b = x
        return a + b

    report = same_stream(f, X, calls=2)
    assert any("inside a try block" in b.reason for b in report.break_reasons)


# --------------------------------------------------------------------------- rules

GEN = np.random.default_rng(0)
RS = np.random.RandomState(0)
SIZES = st.one_of(st.none(), st.integers(0, 3), st.lists(st.integers(0, 3), max_size=3)
                  .map(tuple))
PARAMS = st.one_of(st.sampled_from([0.5, 1, 2.0]), arrays(F, max_dims=2, max_side=3))


@given(size=SIZES, loc=PARAMS, dtype=st.sampled_from([np.float64, np.float32, np.float16]),
       ints=st.sampled_from([np.int64, np.int8, np.uint16, bool]))
@settings(max_examples=60, deadline=None)
def test_draw_rules_agree(size, loc, dtype, ints):
    scalar = size is None and np.ndim(loc) == 0   # a Python number comes back: a break
    agree("generator_normal", GEN, loc, 1.0, size=size, may_break=scalar)
    agree("generator_uniform", GEN, loc, 2.0, size, may_break=scalar)
    agree("generator_exponential", GEN, loc, size=size, may_break=scalar)
    agree("generator_poisson", GEN, loc, size, may_break=scalar)
    agree("generator_triangular", GEN, 0.0, loc, 3.0, size=size, may_break=scalar)
    agree("generator_random", GEN, size, dtype, may_break=size is None)
    agree("generator_standard_normal", GEN, size, dtype=dtype, may_break=size is None)
    agree("generator_integers", GEN, 0, 2, size=size, dtype=ints,    # a Python bool
          may_break=size is None and ints is bool)
    agree("generator_integers", GEN, loc, 5, size=size)
    agree("randomstate_normal", RS, loc, 1.0, size=size, may_break=scalar)
    agree("randomstate_randint", RS, 0, 5, size=size, may_break=size is None)


POPULATIONS = st.one_of(st.integers(-1, 4), st.lists(st.integers(-2, 2), max_size=4),
                        arrays(F, max_dims=3, max_side=3))


@given(a=POPULATIONS, size=SIZES, replace=st.booleans(), axis=st.integers(-2, 2),
       p=st.sampled_from([None, "uniform", "list", "bad"]))
@settings(max_examples=120, deadline=None)
def test_choice_rule_agrees(a, size, replace, axis, p):
    shape = np.shape(a)
    n = a if isinstance(a, int) else shape[axis] if -len(shape) <= axis < len(shape) else 0
    probs = None    # traced p: only its shape is checked while tracing ("bad": too long)
    if p is not None and isinstance(n, int) and n > 0:
        probs = {"uniform": np.full(n, 1.0 / n), "list": [1.0] + [0.0] * (n - 1),
                 "bad": np.ones(n + 1)}[p]
    breaks = size is None and np.ndim(a) == 0 or isinstance(a, np.ndarray) and a.ndim == 0
    agree("generator_choice", GEN, a, size, replace, probs, axis=axis, may_break=breaks)
    agree(np.random.choice, a, size, replace, probs, may_break=breaks)
    agree("randomstate_choice", RS, a, size, replace, probs, may_break=breaks)


@given(x=st.one_of(st.integers(-2, 4), arrays(F, max_dims=3, max_side=3)),
       axis=st.integers(-3, 2))
@settings(max_examples=60, deadline=None)
def test_permutation_shuffle_rules_agree(x, axis):
    zero_d = isinstance(x, np.ndarray) and x.ndim == 0
    agree("generator_permutation", GEN, x, axis=axis, may_break=zero_d)
    agree("randomstate_permutation", RS, x, may_break=zero_d)
    if isinstance(x, np.ndarray):
        agree("generator_shuffle", x, GEN, axis=axis, may_break=zero_d)
        agree("randomstate_shuffle", x, RS, may_break=zero_d)
        agree("generator_permuted", GEN, x, axis=axis if axis != 2 else None)


@given(k=st.integers(0, 3), size=SIZES, dtype=st.sampled_from(F))
@settings(max_examples=40, deadline=None)
def test_vector_draw_rules_agree(k, size, dtype):
    agree("generator_dirichlet", GEN, np.ones(k, dtype), size, may_break=k == 0)
    agree("generator_multivariate_normal", GEN, np.zeros(k, dtype), np.eye(k, dtype=dtype),
          size, may_break=k == 0)
    agree("generator_multivariate_normal", GEN, np.zeros(k), np.eye(k + 1), size,
          may_break=k == 0)


def test_tracing_never_draws_from_the_users_generator():
    rng = np.random.default_rng(5)
    before = copy.deepcopy(rng.bit_generator.state)
    op, _ = dynamo.ops.lookup_random_method(rng, "normal")
    op.meta(op, (rng, 0.0, 1.0), {"size": (1000,)})
    assert rng.bit_generator.state == before


def test_something_else_than_a_generator_raises_eagers_error():
    def f(x, rng):
        return x + rng.normal(size=x.shape)

    compiled = dynamo.compile(f, backend="eager")
    compiled(X, np.random.default_rng(0))
    for bad in (None, 3):
        with pytest.raises(AttributeError) as want:
            f(X, bad)
        with pytest.raises(AttributeError) as got:
            compiled(X, bad)
        assert str(got.value) == str(want.value)
