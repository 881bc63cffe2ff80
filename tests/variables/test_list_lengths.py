"""A list whose length changes between calls, read only through ``len()`` and written
at an index (``if len(memory) < capacity: memory.append(None)``, ``memory[position] =
t``): its length is a changing int (``ShapeEnv.new_length``), so the comparison guards
its outcome, not the length; an item set at an int index in bounds is replayed after
the graph (``ListVariable._set_unread``) without reading (and guarding) the items.
Issue #16: a list-backed replay buffer compiles a few times, not once per call.

Checked against eager: the list after each call (items, order, identity), results,
an index out of bounds (Python's ``IndexError``), negative indices, bools and NumPy
ints as indices, two names for one list, and a read of the items after a set.
"""

import numpy as np
import pytest
from harness import outcome, same_outcome
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dynamo


class Buffer:
    """A DQN replay buffer as tutorials write it: a list that grows to its capacity,
    then a position that wraps."""

    def __init__(self, capacity):
        self.capacity, self.memory, self.position = capacity, [], 0

    def push(self, x, reward):
        if len(self.memory) < self.capacity:
            self.memory.append(None)
        self.memory[self.position] = (x * 2.0, reward)
        self.position = (self.position + 1) % self.capacity
        return x.sum() + reward


def _same_buffer(want, got):
    assert got.position == want.position and len(got.memory) == len(want.memory)
    for (wx, wr), (gx, gr) in zip(want.memory, got.memory):
        np.testing.assert_array_equal(gx, wx)
        assert gr == wr and type(gr) is type(wr)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_growing_replay_list_compiles_a_few_times(backend):
    """30 pushes into a capacity-8 list: the first call, one recompile as the length,
    position and reward change, one when the list is full (the branch turns), and
    nothing per call (it was one entry per length, then eager past the cache limit)."""
    want, got = Buffer(8), Buffer(8)
    dynamo.reset()
    with dynamo.explain(got.push, backend=backend) as push:
        for i in range(30):
            x = np.full(3, float(i))
            assert push(x, 0.5 * i) == want.push(x, 0.5 * i)
            _same_buffer(want, got)
    assert push.report.compile_count <= 4, [str(r) for r in push.report.recompiles]


def put(memory, pos, x, cap):
    """Grow to ``cap``, set at ``pos``, report the length: every use of the list but
    reading its items."""
    if len(memory) < cap:
        memory.append(x)
    memory[pos] = x + 1.0
    return len(memory) * 2


def put_then_read(memory, pos, x):
    memory[pos] = x
    memory.append(x * 3.0)
    return memory[0] + memory[-1]


def put_aliased(a, b, pos, x):
    a[pos] = x
    return len(b), b[pos]


POSITIONS = st.one_of(st.integers(-12, 12), st.sampled_from(
    [True, False, np.int64(2), np.int64(-1), 2**63, -2**70]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 9), POSITIONS), min_size=2, max_size=8))
@example([(2, 1), (3, 3), (4, -5), (5, 9), (6, True), (7, np.int64(1)), (3, -4)])
def test_list_sets_equal_eager(calls):
    x = np.arange(3.0)
    for fn, make in (
            (put, lambda n, p: ([x * k for k in range(n)], p, x, 6)),
            (put_then_read, lambda n, p: ([x * k for k in range(n + 1)], p, x)),
            (put_aliased, lambda n, p: (lambda m: (m, m, p, x))(
                [x * k for k in range(n + 1)]))):
        dynamo.reset()
        compiled = dynamo.compile(fn, backend="eager")
        for i, (n, p) in enumerate(calls):
            same_outcome(outcome(fn, make(n, p)), outcome(compiled, make(n, p)),
                         f"{fn.__name__} call {i}: length {n}, index {p!r}", rtol=0.0)


class Ring:
    """A ring of fixed length (``[None] * 4``, never appended to) written at a
    pointer that wraps: the list's length never changes between calls."""

    def __init__(self):
        self.buf, self.pos = [None] * 4, 0

    def add(self, x, reward):
        self.buf[self.pos] = (x.copy(), reward)
        self.pos = (self.pos + 1) % 4
        return x * reward


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_fixed_length_ring_is_written_unread(backend):
    """12 writes into a ring of 4: its length guarded (``fixed_length``), the bounds of
    ``buf[pos]`` decided, the items neither read nor guarded: the first call, one
    recompile as the pointer and reward change (it was 7: the items' types guarded
    as the ring filled, and an entry per pointer value)."""
    want, got = Ring(), Ring()
    with dynamo.explain(got.add, backend=backend) as add:
        for i in range(12):
            x = np.full(3, float(i))
            np.testing.assert_allclose(add(x, 0.5 + i), want.add(x, 0.5 + i), rtol=1e-12)
            assert got.pos == want.pos and len(got.buf) == len(want.buf)
            for w, g in zip(want.buf, got.buf):
                assert (w is None) == (g is None)
                if w is not None:
                    np.testing.assert_array_equal(g[0], w[0])
                    assert g[1] == w[1] and type(g[1]) is type(w[1])
    recompiles = [r for r in add.report.recompiles if r.call >= 1]
    assert len(recompiles) <= 1, "\n".join(map(str, recompiles))


_FREED = []


class _Noisy:
    def __init__(self, k):
        self.k = k

    def __del__(self):
        _FREED.append(self.k)


class _Holder:
    def __init__(self, items):
        self.items = items


def _store_then_read(o, x, v):
    o.items[0] = v                 # drops items[0]: its __del__ runs here, plainly
    return x * 2.0, list(_FREED)   # ... so the rest of the call sees it


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_store_into_a_list_whose_length_changed_frees_the_old_item_at_the_store(backend):
    """Of a list whose length changed between calls, ``o.items[0] = v`` over an item
    with a ``__del__`` runs it at the store (the items are read, ``break_at_drop``),
    not after the graph (the glue's store); and the traced call keeps no item alive
    until the cyclic GC (the list's ``window`` held the list Variable itself)."""
    def run(fn):
        seen = []
        for n in (3, 4, 5, 3):
            _FREED.clear()
            o = _Holder([_Noisy(k) for k in range(n)])
            y, freed = fn(o, np.ones(2), n)
            del o
            seen.append((y.tolist(), freed, list(_FREED)))
        return seen
    want = run(_store_then_read)
    dynamo.reset()
    assert run(dynamo.compile(_store_then_read, backend=backend)) == want
