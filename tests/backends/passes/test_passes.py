"""The graph passes, one by one, on small graphs: what they change and what they keep.

Each test traces a small program (or builds a graph by hand), runs one pass, checks
the graph's ops, and runs both graphs to check the values (bit for bit, except where
a pass documents a rounding difference).
"""

import numpy as np
import pytest
from dynamo.backends.common import python_function
from dynamo.backends.passes import (
    FOLD_LIMIT,
    PIPELINE,
    PIPELINE_FAST_POWERS,
    cse,
    dce,
    fast_powers,
    fold_constants,
    optimize,
    strength_reduce,
)
from harness import check, rand

import dynamo
from dynamo import ops
from dynamo.graph import CONSTANT, Graph, map_nodes
from dynamo.ops import ArrayMeta

X = rand(4, 8)
POS = rand(4, 8, low=0.1, high=2.0, seed=1)
I32 = rand(4, 8, dtype=np.int32, seed=2)


def trace(fn, *args) -> Graph:
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    dynamo.compile(fn, backend=capture)(*args)
    assert len(graphs) == 1
    return graphs[0]


def run(graph, *args):
    return python_function(graph)(*[a.copy() if isinstance(a, np.ndarray) else a
                                    for a in args])


def targets(graph) -> list:
    return [n.target for n in graph.call_nodes()]


def call(g, target, *args, **kwargs):
    """A call node with the meta the op's rule gives (a graph built by hand)."""
    op = ops.get(target)
    to_meta = lambda n: n.meta["array"]
    meta = op.meta(op, map_nodes(args, to_meta), map_nodes(kwargs, to_meta))
    return g.call(target, args, kwargs, meta={"array": meta, "kind": op.kind})


def same_results(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert type(x) is type(y)
        np.testing.assert_array_equal(x, y, strict=True)


def check_pass(fn, p, *args):
    """Apply pass ``p`` to ``fn``'s graph: the input graph is untouched, values equal."""
    graph = trace(fn, *args)
    before = str(graph)
    new = p(graph)
    assert str(graph) == before, "a pass must not modify its input graph"
    same_results(run(graph, *args), run(new, *args))
    return new


def check_pass_with_writes(fn, p, *args):
    """``check_pass`` for programs that write into their arguments: the results and the
    arguments afterwards equal those of the graph before the pass (run on copies)."""
    graph = trace(fn, *[a.copy() for a in args])
    before = str(graph)
    new = p(graph)
    assert str(graph) == before, "a pass must not modify its input graph"
    old_args, new_args = [a.copy() for a in args], [a.copy() for a in args]
    same_results(python_function(graph)(*old_args), python_function(new)(*new_args))
    same_results(old_args, new_args)
    return new


# --------------------------------------------------------------------------- dce

def test_dce_drops_unused_values():
    def f(x, a):
        x.T
        unused = (a + 1) * a[::-1]     # integer arithmetic cannot raise or warn
        del unused
        return x * 2

    new = check_pass(f, dce, X, I32)
    assert targets(new) == ["multiply"]


def test_dce_keeps_unused_values_that_may_warn_or_raise():
    def f(x, a, idx):
        np.exp(x)                      # may overflow: a RuntimeWarning
        a // a                         # integer division may divide by zero
        x[idx]                         # may be out of bounds
        return x * 2

    new = check_pass(f, dce, X, I32 + 20, np.array([0, 1]))
    assert len(targets(new)) == 4


def test_dce_keeps_writes_and_random_draws():
    def f(x):
        y = x * 2
        x[0] = 5.0
        np.random.uniform(size=3)
        o = np.empty_like(x)
        np.multiply(x, 3, out=o)
        x **= 2
        return y

    graph = trace(f, X.copy())
    assert targets(dce(graph)) == targets(graph)


def test_dce_keeps_placeholders():
    g = Graph()
    x = g.placeholder("x", {"array": ArrayMeta((3,), np.dtype("f4"))})
    g.placeholder("unused", {"array": ArrayMeta((3,), np.dtype("f4"))})
    g.output((call(g, "exp", x),))
    assert [p.name for p in dce(g).placeholders] == ["x", "unused"]


def test_dce_keeps_creation_calls_too_large_to_be_sure_of():
    """``np.empty(2**62)`` raises "array is too big" (a large one, MemoryError): an
    unused creation call is dropped only when it makes at most 1 GiB (issue #17,
    round 6)."""
    g = Graph()
    x = g.placeholder("x", {"array": ArrayMeta((3,), np.dtype("f8"))})
    call(g, "empty", 2 ** 62)
    call(g, "zeros", (2 ** 15, 2 ** 15))      # 8 GiB
    call(g, "ones", 4)
    g.output((call(g, "exp", x),))
    assert targets(dce(g)) == ["empty", "zeros", "exp"]


def test_dce_keeps_writes_through_views():
    def f(x):
        v = x[1:]
        v += 1                  # the view is only written: its node must stay
        t = x.T
        np.multiply(t, 2, out=t)
        return x * 2

    new = check_pass_with_writes(f, dce, X)
    assert targets(new) == targets(trace(f, X.copy()))


# --------------------------------------------------------------------------- cse

def test_cse_merges_repeated_expressions():
    def layernorm(x):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5)

    new = check_pass(layernorm, cse, X)
    assert targets(new).count("subtract") == 1


def test_cse_recomputes_a_large_value_rather_than_hold_it_across_a_sorting_op():
    # eager frees the first X - med before np.median copies np.abs of it; holding it
    # for the second line would add one large array to the peak (robust z-scores)
    def robust_z(x):
        med = np.median(x, axis=0)
        mad = np.median(np.abs(x - med), axis=0)
        return (x - med) / mad

    large = rand(1024, 160, seed=3)              # 640 KiB
    assert targets(check_pass(robust_z, cse, large)).count("subtract") == 2
    assert targets(check_pass(robust_z, cse, X)).count("subtract") == 1    # small: shared

    def across_a_sum(x):                          # a sum copies nothing: shared
        med = np.median(x, axis=0)
        s = np.abs(x - med).sum(axis=0)
        return (x - med) / s

    assert targets(check_pass(across_a_sum, cse, large)).count("subtract") == 1


def test_cse_tells_literals_apart():
    def f(x, a):
        return x * 0.0, x * -0.0, a + 1, a + 1.0, a + True

    new = check_pass(f, cse, X, I32)
    assert len(new.call_nodes()) == 5


def test_cse_keeps_two_returned_results_distinct():
    def f(x):
        return x + 1, x + 1

    new = check_pass(f, cse, X)
    assert len(new.call_nodes()) == 2
    a, b = run(new, X)
    assert a is not b


def test_cse_merges_when_one_result_is_internal():
    def f(x):
        return x + 1, (x + 1) * 2

    new = check_pass(f, cse, X)
    assert targets(new) == ["add", "multiply"]


def test_cse_never_merges_written_or_viewed_values():
    def f(x):
        a = x + 1
        b = x + 1
        a[0] = 9.0
        c = x + 2
        d = x + 2
        return a, b * 2, c.reshape(-1), d * 3

    new = check_pass(f, cse, X)
    assert targets(new).count("add") == 4


def test_cse_never_merges_across_a_write():
    def f(x):
        a = x * 2
        flat = x.reshape(-1)
        flat *= 3               # x changes, and x is still the same graph node
        b = x * 2               # not a
        x[0] += 1
        c = x * 2               # neither
        return a + 0, b + 0, c + 0

    new = check_pass_with_writes(f, cse, X)
    doubles = [n for n in new.call_nodes()
               if n.target == "multiply" and n.args[1:] == (2,) and not n.kwargs]
    assert len(doubles) == 3


def test_cse_merges_between_writes():
    def f(x, y):
        x += y
        a = x * 2
        b = x * 2               # the same value: no write in between
        y *= 2
        return a + 1, b * 3

    # (integers: with writes in the graph, float ops that may warn are never merged)
    new = check_pass_with_writes(f, cse, I32, I32 + 1)
    assert [n.target for n in new.call_nodes()].count("multiply") == 3   # x*2, y*=2, b*3


def test_cse_merges_repeated_views():
    def heat(u):                # u[1:-1] three times, A.T twice: one view each
        v = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2]) * u[1:-1]
        return v, u.T[0] + u.T[1]

    new = check_pass(heat, cse, X)
    assert targets(new).count("transpose") == 1
    indices = [n.args[1] for n in new.call_nodes() if n.target == "getitem"]
    assert indices.count(slice(1, -1, None)) == 1, indices


def test_cse_merges_views_between_writes():
    def f(x):
        a = x[1:3] + x[1:3]
        x.reshape(-1)[:] *= 3   # x changes, and x is still the same graph node
        b = x[1:3] * 2          # a view made after the write, read after it
        return a + b + x[1:3]

    new = check_pass_with_writes(f, cse, X[0])
    # x[1:3] before the write, x.reshape(-1)[:], x[1:3] after it
    assert targets(new).count("getitem") == 3


def test_cse_keeps_items_and_returned_views_apart():
    def f(x):
        a = x[0]                # a NumPy scalar: a copy of x[0] now
        x[0] = 7.0
        b = x[0]
        return a, b, x[1:], x[1:]

    new = check_pass_with_writes(f, cse, X[0])
    assert targets(new).count("getitem") == 4
    _, _, v, w = run(new, X[0])
    assert v is not w


def test_cse_never_merges_views_that_may_copy_or_raise():
    def f(x, i):
        return x.reshape(-1) + x.reshape(-1), x[i] + x[i]

    new = check_pass(f, cse, X, np.array([0, 2]))
    assert targets(new).count("reshape") == 2
    assert targets(new).count("getitem") == 2


def test_cse_of_views_in_compiled_programs():
    def burgers(u, steps):
        for _ in range(steps):
            un = u.copy()
            u[1:-1] = (un[1:-1] - un[1:-1] * 0.01 * (un[1:-1] - un[:-2])
                       + 0.007 * (un[2:] - 2 * un[1:-1] + un[:-2]))
            u[0] = u[-2]
        return u

    check(burgers, rand(200, dtype=np.float64), 20, backend="numpy")


def test_cse_never_merges_random_draws():
    g = Graph()
    x = g.placeholder("x", {"array": ArrayMeta((3,), np.dtype("f8"))})
    r1 = call(g, "random_uniform", size=3)
    r2 = call(g, "random_uniform", size=3)
    g.output((call(g, "add", call(g, "add", x, r1), r2),))
    assert targets(cse(g)).count("random_uniform") == 2


# --------------------------------------------------------------------------- fold_constants

def test_fold_builds_a_causal_mask_once():
    def f(x):
        i = np.arange(8)
        mask = np.where(i[:, None] >= i[None, :], 0.0, -1e9).astype(x.dtype)
        return x[:, :8] + mask[:4]

    new = check_pass(f, fold_constants, X)
    assert "arange" not in targets(new) and "where" not in targets(new)
    consts = [n for n in new.nodes if n.op == CONSTANT]
    assert len(consts) == 1
    assert not consts[0].args[0].flags.writeable  # shared by every call: read-only


def test_fold_leaves_returned_and_viewed_values():
    def f(x):
        return x + 1, np.arange(3), np.arange(5)[1:]

    new = check_pass(f, fold_constants, X)
    assert targets(new).count("arange") == 2
    a, b = run(new, X)[1], run(new, X)[1]
    assert a is not b  # each call gets its own array, as in eager


def test_fold_leaves_what_warns_or_raises_to_run_time():
    def f(x):
        return x + np.log(np.zeros(3))[0]

    with np.errstate(divide="ignore"):
        new = check_pass(f, fold_constants, X)
    assert "log" in targets(new)


def test_fold_leaves_values_whose_inputs_are_written():
    def f(x):
        z = np.arange(4.0)
        v = z[1:]
        v += x                  # z is written through a view at run time
        a = z * 2               # reads the written z: not the compile-time value
        return a + 1

    new = check_pass_with_writes(f, fold_constants, rand(3))
    assert "arange" in targets(new) and "multiply" in targets(new)
    assert not any(n.op == CONSTANT for n in new.nodes)


def test_pipeline_keeps_writes_and_reads_in_order():
    def f(x, y):
        a = x * 2
        t = x.T
        t += 1
        b = x * 2
        x[1:] -= y[1:].mean(0)
        z = np.arange(8.0)
        z[:4] += x[0, :4]
        return a + b, z * 2, x * 3

    check_pass_with_writes(f, optimize, X, POS)


def test_fold_leaves_large_constants():
    def f(x):
        return x.sum() + np.ones(FOLD_LIMIT * 2).sum()

    new = check_pass(f, fold_constants, X)
    assert "ones" in targets(new)


# --------------------------------------------------------------------------- strength_reduce

@pytest.mark.parametrize("exponent, expect", [
    (2, ["square"]), (0.5, ["sqrt"]), (-1, ["reciprocal"]),
    (3, ["square", "multiply"]), (4, ["square", "square"]),
    (5, ["square", "square", "multiply"]),
])
def test_strength_reduce_powers(exponent, expect):
    def f(x):
        return x ** exponent

    graph = trace(f, POS)
    if exponent in (2, 0.5, -1):   # what NumPy's ** calls itself: bit-identical
        new = strength_reduce(graph)
    else:                          # float powers as products: only fast_powers
        assert targets(strength_reduce(graph)) == ["pow"]
        new = fast_powers(graph)
    assert targets(new) == expect
    want, got = run(graph, POS)[0], run(new, POS)[0]
    assert got.dtype == want.dtype
    if exponent in (2, 0.5, -1):
        np.testing.assert_array_equal(got, want, strict=True)
    else:  # each multiply rounds: a few ulp from pow
        np.testing.assert_allclose(got, want, rtol=4 * np.finfo(np.float32).eps)


def test_strength_reduce_integer_powers_are_exact():
    def f(a):
        return a ** 3, np.power(a, 7)

    new = check_pass(f, strength_reduce, I32 * 1000)
    assert "pow" not in targets(new) and "power" not in targets(new)


@pytest.mark.parametrize("fn, arg", [
    (lambda x: x ** 3.5, POS), (lambda x: x ** 17, POS), (lambda x, y: x ** y, POS),
    (lambda a: a ** 3.0, I32), (lambda x: 2.0 ** x, POS), (lambda x: x ** 2.0, POS),
    (lambda x: np.power(x, 0.5), POS), (lambda x: x ** 1, POS),
])
def test_strength_reduce_leaves_other_powers(fn, arg):
    args = (arg, POS) if fn.__code__.co_argcount == 2 else (arg,)
    graph = trace(fn, *args)
    assert targets(strength_reduce(graph)) == targets(graph)


@pytest.mark.parametrize("divisor, dtype", [
    (4, np.float32), (0.5, np.float64), (-8.0, np.float32),
    (4, np.float16), (4, np.int32),
])
def test_strength_reduce_exact_divisions(divisor, dtype):
    def f(x):
        return x / divisor

    x = (rand(4, 8, seed=3) * 100).astype(dtype) if dtype != np.int32 else I32
    new = check_pass(f, strength_reduce, x)
    assert targets(new) == ["multiply"]


@pytest.mark.parametrize("divisor, dtype", [
    (3, np.float32), (0.1, np.float64), (2.0 ** -130, np.float32), (2.0 ** 127, np.float32),
    (4, np.complex64),
])
def test_strength_reduce_leaves_inexact_divisions(divisor, dtype):
    def f(x):
        return x / divisor

    with np.errstate(over="ignore"):
        graph = trace(f, X.astype(dtype))
    assert targets(strength_reduce(graph)) == ["divide"]


def test_strength_reduce_division_keeps_subnormal_results_exact():
    def f(x):
        return x / 4.0

    tiny = np.array([1e-38, 3e-45, -1e-39, 0.0, -0.0, np.inf, np.nan], np.float32)
    check_pass(f, strength_reduce, tiny)


# --------------------------------------------------------------------------- pipeline

def test_pipeline_order_and_skipping():
    assert [p.__name__ for p in PIPELINE] == ["fresh_copies", "hoist_invariants", "dce",
                                              "drop_dead_carried", "fold_constants",
                                              "strength_reduce", "scalar_reads", "cse",
                                              "dce"]

    def f(x):
        return x ** 3 + x ** 3

    graph = trace(f, X)
    assert targets(optimize(graph)) == ["pow", "add"]
    assert targets(optimize(graph, PIPELINE_FAST_POWERS)) == ["square", "multiply", "add"]
    assert targets(optimize(graph, PIPELINE_FAST_POWERS, without={"fast_powers"})) == \
        ["pow", "add"]
    with pytest.raises(ValueError, match="unknown pass"):
        optimize(graph, without={"strenght_reduce"})
