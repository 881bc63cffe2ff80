"""The generated dispatcher (dynamo/dispatch.py): a hit runs the entry's glue inlined.

Each test compares compiled and plain results (``harness.check``) and reads the
dispatcher's source, where the shape of the hit path is the point: for an entry whose
whole frame was captured, no call of the entry's ``run`` (its glue statements are in
the dispatcher, their globals renamed per entry)."""

import numpy as np
import pytest
from harness import check, same

import dynamo

F4 = np.float32


def arr(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(F4)


def dispatcher_of(compiled, fn):
    return compiled._ctx.caches[fn.__code__].dispatch.__dynamo_source__


def test_a_simple_entry_runs_its_glue_inlined():
    def f(x, y):
        return np.tanh(x) + y, 2.5
    check(f, arr(4), arr(4, seed=1), graphs=1, breaks=0)
    compiled = dynamo.compile(f)
    compiled(arr(4), arr(4))
    src = dispatcher_of(compiled, f)
    assert "___e0_run(" not in src and "___e0_glue_graph(" in src, src


class Layer:
    def __init__(self):
        self.X = []

    def forward(self, x):
        self.X.append(x)
        return np.tanh(x)


def test_one_appended_item_is_replayed_with_list_append():
    layer, plain = Layer(), Layer()
    compiled = dynamo.compile(layer.forward)
    xs = [arr(3, seed=i) for i in range(4)]
    for x in xs:
        same(compiled(x), plain.forward(x))
    assert len(layer.X) == 4 and all(a is b for a, b in zip(layer.X, xs))
    src = dispatcher_of(compiled.__func__, Layer.forward)
    assert "___e0_glue_list_append(" in src and ".extend(" not in src, src


def test_two_appended_items_extend():
    def f(log, x):
        log.append(x)
        log.append(x + 1)
        return x * 2
    check(f, [], arr(3), graphs=1, breaks=0)


def test_every_entry_is_inlined_with_its_own_names():
    def f(x, n):
        return x * n, n
    compiled = dynamo.compile(f, dynamic=False)
    for n in (2, 3, 4):            # one entry per constant n
        same(compiled(arr(3), n), f(arr(3), n))
    src = dispatcher_of(compiled, f)
    assert all(f"___e{i}_glue_graph(" in src for i in range(3)), src
    for n in (2, 3, 4):            # every entry hits, and returns its own values
        same(compiled(arr(3), n), f(arr(3), n))


def test_a_graph_that_raises_reruns_the_frame_from_the_inlined_glue():
    def f(log, a):
        log.append("before")
        return np.linalg.inv(a)
    check(f, [], np.eye(3))
    check(f, [], np.zeros((3, 3)))   # singular: the program's own LinAlgError
    compiled = dynamo.compile(f)
    log = []
    compiled(log, np.eye(3))
    with pytest.raises(np.linalg.LinAlgError):
        compiled(log, np.zeros((3, 3)))
    assert log == ["before", "before"]   # once per call: the rerun made the append


def test_the_shared_read_the_guards_computed_is_the_graphs_input():
    def weighted(xs, a):
        return a * np.array(xs)
    compiled = dynamo.compile(weighted, backend="numpy")
    a = arr(8)
    for i in range(4):
        xs = [0.5 * i + k for k in range(8)]
        same(compiled(xs, a), weighted(xs, a))
    src = dispatcher_of(compiled, weighted)
    hit = src.split("if ___ok:")[1]
    assert "___e0_a0" in hit and "___e0_run(" not in hit, src


def glue_names(x, ___out=1.0, ___result=2.0, ___cells=3.0, ___e0_glue_graph=4.0,
               ___t0=5.0):
    return x * (___out + ___result + ___cells + ___e0_glue_graph + ___t0)


def test_parameters_named_like_the_glue_locals():
    check(glue_names, arr(3))
    check(glue_names, arr(3), kwargs={"___out": -1.0, "___t0": 7.0})


def test_a_closure_cell_written_in_the_inlined_glue():
    def make():
        count = 0

        def f(x):
            nonlocal count
            count += 1
            return x * count
        return f
    plain, compiled = make(), dynamo.compile(make())
    for _ in range(3):
        same(compiled(arr(3)), plain(arr(3)))


def test_an_exception_of_a_write_back_passes_through():
    class Frozen:
        def __setattr__(self, name, value):
            raise AttributeError(f"frozen: {name}")

    def f(obj, x):
        obj.y = x
        return x + 1
    check(f, Frozen(), arr(3))
