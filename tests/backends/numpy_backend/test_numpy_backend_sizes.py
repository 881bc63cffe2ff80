"""Symbolic graphs on the numpy backend: a function whose sizes vary is traced at most
twice, each new shape runs op by op once and is then compiled statically, and every
call equals eager (values, dtypes, mutated inputs, random draws)."""

import logging

import numpy as np
import pytest
from dynamo.backends.common import Interpreter
from dynamo.backends.numpy_backend import backend as numpy_backend_module
from dynamo.backends.numpy_backend import sizes
from harness import same
from observe import calls_to

import dynamo
from dynamo import listeners


class Counts:
    """A compile listener counting traced frames; ``["static"]``: the static compiles
    the numpy backend made for a symbolic graph's sizes (``sizes.PerSize``)."""

    def __init__(self, static_compiles: list):
        self.static_compiles = static_compiles
        self.traces = 0

    def on_frame_start(self, fn, ctx):
        self.traces += 1

    def __getitem__(self, what: str) -> int:
        return self.traces if what == "traces" else len(self.static_compiles)


@pytest.fixture
def counts():
    """Traces of any frame, and static compiles of the numpy backend."""
    with calls_to(sizes.static_graph) as static_compiles, \
            listeners.listening(Counts(static_compiles)) as seen:
        yield seen


def softmax_rows(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True), x.shape[0] * 2


def causal_scores(q, k):
    t = q.shape[0]
    s = q @ k.T / np.sqrt(q.shape[1]) + (1 - np.tri(t, dtype=q.dtype)) * -1e9
    return s - s.max(axis=-1, keepdims=True)


def test_decode_loop_traces_twice_and_compiles_a_few_sizes(counts):
    from dynamo.backends.numpy_backend.sizes import UNREUSED_AFTER
    fast = dynamo.compile(softmax_rows, backend="numpy")
    rng = np.random.default_rng(0)
    lengths = list(range(5, 41)) + [5, 7, 40]   # 7: a compiled variant, used again
    for t in lengths:
        x = rng.standard_normal((t, 64)).astype(np.float32)
        same(fast(x), softmax_rows(x), rtol=1e-6, atol=1e-7)
    assert counts["traces"] == 2
    # the first length is a static entry (traced, not symbolic); the symbolic entry
    # compiles a variant for each of the next UNREUSED_AFTER lengths, none run again
    # before the next (a growing size), and later ones run one size-generic function
    # (no compile per call; it compiled GENERIC_AFTER variants, one a call, before)
    assert counts["static"] == UNREUSED_AFTER == 2


def test_sizes_used_by_ops(counts):
    fast = dynamo.compile(causal_scores, backend="numpy")
    rng = np.random.default_rng(1)
    for t in (4, 9, 9, 13, 4):
        q, k = (rng.standard_normal((t, 8)).astype(np.float32) for _ in range(2))
        same(fast(q, k), causal_scores(q, k), rtol=1e-5, atol=1e-5)
    assert counts["traces"] == 2
    assert counts["static"] == 1 + 2      # 4 (static entry), then 9 and 13 once each


def accumulate(total, x):
    total += x * 2            # writes the caller's array
    return total.sum()


def test_inputs_are_mutated_as_eagerly():
    fast = dynamo.compile(accumulate, backend="numpy")
    for n in (3, 5, 5, 8, 3):
        x = np.arange(n, dtype=np.float64)
        t_eager, t_comp = np.ones(n), np.ones(n)
        same(fast(t_comp, x), accumulate(t_eager, x))
        same(t_comp, t_eager)


def noisy(x):
    return x + np.random.rand(*x.shape)


def test_random_draws_follow_eager():
    fast = dynamo.compile(noisy, backend="numpy")
    for n in (3, 4, 4, 6):
        x = np.zeros(n)
        np.random.seed(n)
        want = noisy(x)
        np.random.seed(n)
        same(fast(x), want)


def test_a_failed_static_compile_runs_op_by_op(caplog):
    """The numpy backend's ``PerSize`` with a static compile that fails: each shape
    runs op by op, with a warning."""
    def broken(graph, inputs):
        raise RuntimeError("no code today")

    def backend(graph, inputs, options=None):
        assert sizes.is_symbolic(graph)
        return sizes.PerSize(graph, broken)
    backend.dynamic_shapes = True

    fast = dynamo.compile(softmax_rows, backend=backend, dynamic=True)
    with caplog.at_level(logging.WARNING, logger="dynamo.backend"):
        for t in (6, 6, 9):
            x = np.ones((t, 3), np.float32)
            same(fast(x), softmax_rows(x))
    assert any("run op by op" in r.getMessage() for r in caplog.records)


def test_old_variants_are_dropped(monkeypatch):
    monkeypatch.setattr(sizes, "MAX_SIZES", 2)
    fast = dynamo.compile(softmax_rows, backend="numpy", dynamic=True)
    for t in (3, 4, 5, 3, 6, 4):
        x = np.full((t, 2), 0.5, np.float32)
        same(fast(x), softmax_rows(x))


def test_static_graph_has_concrete_sizes():
    graphs = []

    def capture(graph, inputs):
        graphs.append(graph)
        return numpy_backend_module.numpy_backend(graph, inputs)

    capture.dynamic_shapes = True
    dynamo.compile(causal_scores, backend=capture, dynamic=True)(
        np.ones((5, 4), np.float32), np.ones((5, 4), np.float32))
    (graph,) = graphs
    assert sizes.is_symbolic(graph)
    q = np.ones((7, 4), np.float32)
    # the head size reaches the graph as a number too: np.sqrt(q.shape[1]) is a node
    # of it (issue #16: a NumPy function of a changing number is not folded and pinned)
    names = [n.name for n in graph.placeholders][2:]
    values = {"s0": 7, "s1": 4}
    run = Interpreter(graph)
    run.run(q, q, *(values[n] for n in names))
    assert run.sizes == {n: values[n] for n in names}
    static = sizes.static_graph(graph, run.env, run.sizes)
    assert not sizes.is_symbolic(static)      # so the backend compiles it, statically
    shapes = [n.meta["array"].shape for n in static.call_nodes()]
    assert (7, 7) in shapes and all(type(d) is int for s in shapes for d in s)
    args = (q, q, *(values[n] for n in names))
    same(numpy_backend_module.numpy_backend(static, args)(*args), (causal_scores(q, q),))


def adam_step(g, m, t):
    m = 0.9 * m + 0.1 * g
    return m / (1 - 0.9 ** t)


def test_changing_numbers_are_inputs_not_variants(counts):
    # t changes every call: after the recompile that makes it a symbol, one static
    # variant serves every t (value_symbols), with eager's float math on it
    fast = dynamo.compile(adam_step, backend="numpy")
    rng = np.random.default_rng(2)
    g, m = rng.standard_normal(100), rng.standard_normal(100)
    for t in range(1, 30):
        same(fast(g, m, t), adam_step(g, m, t), rtol=0, atol=0)
    assert counts["traces"] == 2
    assert counts["static"] <= 2


def test_a_graph_of_one_variant_is_called_without_a_lookup(counts):
    # only t changes: the variant's key is () and the dispatcher calls ``only``, the
    # runner's own call until the variant is compiled, the variant itself after
    import gc
    fast = dynamo.compile(adam_step, backend="numpy")
    rng = np.random.default_rng(3)
    g, m = rng.standard_normal(100), rng.standard_normal(100)
    for t in range(1, 8):
        same(fast(g, m, t), adam_step(g, m, t), rtol=0, atol=0)
    runners = [o for o in gc.get_objects() if type(o) is sizes.PerSize and o.keyless
               and o.variants]
    assert runners and all(r.only is r.variants[()] for r in runners)
    assert counts["static"] == 1


def scaled_step(g, s, t):
    return g * s / (1 - 0.9 ** t)


def test_numpy_float_scalars_are_inputs_not_variants(counts):
    # s, a NumPy float scalar (``self.m = 0.9 * self.m + 0.1 * x.mean()``), takes a new
    # value every call: no size depends on a float's value, so it is no part of a
    # variant's key (it was keyed by value, as an int: a static compile per call until
    # GENERIC_AFTER variants, then size-generic code)
    fast = dynamo.compile(scaled_step, backend="numpy")
    rng = np.random.default_rng(4)
    g = rng.standard_normal(100)
    for t in range(1, 12):
        s = np.float64(rng.standard_normal())
        same(fast(g, s, t), scaled_step(g, s, t), rtol=0, atol=0)
    assert counts["traces"] == 2
    assert counts["static"] <= 2
