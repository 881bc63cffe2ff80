"""``passes.fresh``: ``np.array(xs)`` of a list the guards already made into a fresh
array is that array, where nothing can tell the two apart; everywhere else the copy
stays. Each program runs plain and compiled on lists that change each call (the list
enters the graph as ``np.asarray(xs)``), on both CPU backends; the graph's printout
says whether the copy stayed."""

import numpy as np
import pytest
from harness import same

import dynamo
from dynamo.listeners import listening

BACKENDS = ["eager", "numpy"]
A = np.linspace(0.5, 2.0, 6).astype(np.float32)


class Frames:
    def __init__(self):
        self.n = 0

    def on_frame_start(self, fn, ctx):
        self.n += 1


def lists(n=5, length=6):
    return [[0.25 * i + k for k in range(length)] for i in range(n)]


def run_both(fn, backend, calls):
    """Plain and compiled results of each call's arguments; compiles counted."""
    compiled = dynamo.compile(fn, backend=backend)
    plain, got = [], []
    with listening(Frames()) as frames:
        for args in calls:
            plain.append(fn(*args))
            got.append(compiled(*args))
    for i, (a, b) in enumerate(zip(plain, got)):
        same(b, a, path=f"call {i + 1}")
    return compiled, got, frames.n


def backend_code(compiled, fn) -> str:
    """What runs: the eager backend's function, or every numpy variant's."""
    cache = compiled._ctx.caches[fn.__code__]
    srcs = []
    for entry in cache.entries:
        graph = entry.run.__globals__.get("___graph")
        for f in [graph, *getattr(graph, "variants", {}).values()]:
            srcs.append(getattr(f, "__dynamo_source__", "") or "")
    return "\n".join(srcs)


def weighted(xs, a):
    return a * np.array(xs)


def returned(xs):
    return np.array(xs)


def written(xs):
    y = np.array(xs)
    y[0] = 7.0
    return y * 2


def twice(xs):
    return np.array(xs), np.array(xs)


def as_f4(xs):
    return np.array(xs, dtype=np.float32) * 2


def viewed(xs):
    return np.array(xs)[1:]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_copy_read_by_arithmetic_is_the_input(backend):
    compiled, _, n = run_both(weighted, backend, [(xs, A) for xs in lists()])
    assert n <= 2
    code = backend_code(compiled, weighted)
    assert "array(np_asarray_xs)" not in code and "multiply" in code, code


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_returned_copy_is_a_new_array_each_call(backend):
    compiled, got, n = run_both(returned, backend, [(xs,) for xs in lists()])
    assert n <= 2 and "array(np_asarray_xs" not in backend_code(compiled, returned)
    assert len({id(g) for g in got}) == len(got)
    assert all(g.flags.owndata and g.flags.writeable and g.base is None for g in got[2:])
    got[-1][:] = -1.0   # the caller owns it: the next call is unaffected
    xs = lists()[0]
    same(compiled(xs), np.array(xs))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [written, twice, as_f4, viewed],
                         ids=["written", "twice", "dtype", "view"])
def test_the_copy_stays_where_it_could_be_told_apart(backend, fn):
    calls = [(xs,) for xs in lists()]
    compiled, got, _ = run_both(fn, backend, calls)
    if fn is twice:
        assert all(a is not b for a, b in got)
    if fn is viewed:
        assert all(g.base is not None for g in got)
    assert "array(np_asarray_xs" in backend_code(compiled, fn)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_copy_stays_when_the_input_has_other_readers(backend):
    def f(xs, a):
        return np.array(xs) * np.asarray(xs).sum() + a[0]
    compiled, _, _ = run_both(f, backend, [(xs, A) for xs in lists()])
    assert "array(np_asarray_xs)" in backend_code(compiled, f)
