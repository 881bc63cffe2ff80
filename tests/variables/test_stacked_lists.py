"""A list of arrays that grows between calls and is read whole (``np.stack(keys)``,
``np.array(rows)``, ``np.vstack`` of 1-d rows) is one input of symbolic length, the
items stacked by the call's check, with the rows appended in the trace from the graph
(``dynamo/variables/stacked_lists.py``). Issue #16: a KV cache kept as lists compiles
twice in all, not once per length.

Checked against eager: results and the lists after each call (items, their identity),
a write into an input that is also an item before the stack (the stack must see it:
the list is then read item by item), items whose shapes differ (NumPy's own
``ValueError``), items of another dtype or type, and a list of one row that is
broadcast (one row is specialized where the stack is not concatenated).
"""

import numpy as np
import pytest
from harness import outcome, same, same_outcome

import dynamo

D = 4
RNG = np.random.default_rng(16)
WK, WV = RNG.standard_normal((D, D)), RNG.standard_normal((D, D))
XS = [RNG.standard_normal(D) for _ in range(12)]


def attend(q, keys, values):
    """The caller keeps the cache; the compiled function appends and reads it whole,
    written with np.array and np.vstack rather than np.stack."""
    keys.append(q @ WK)
    values.append(np.tanh(q @ WV))
    s = np.array(keys) @ q
    p = np.exp(s - s.max())
    return (p / p.sum()) @ np.vstack(values), len(keys)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_growing_cache_compiles_twice(backend):
    """12 steps: the first call (empty lists), then one entry for every later length
    (one row held at the second call already: it only goes into the concatenate)."""
    want_k, want_v, got_k, got_v = [], [], [], []
    dynamo.reset()
    with dynamo.explain(attend, backend=backend) as f:
        for x in XS:
            want = attend(x, want_k, want_v)
            got = f(x, got_k, got_v)
            same(want, got, rtol=1e-12)
            same((want_k, want_v), (got_k, got_v))
    assert f.report.compile_count == 2, [str(r) for r in f.report.recompiles]


def test_the_appended_row_is_the_graphs_own_object():
    """The glue appends the very array the graph made (returned too: one object)."""
    def step(x, cache):
        row = x * 2.0
        cache.append(row)
        return np.stack(cache).sum(axis=0), row

    f = dynamo.compile(step, backend="eager")
    cache = []
    for x in XS[:6]:
        total, row = f(x, cache)
        assert cache[-1] is row
        np.testing.assert_array_equal(total, np.stack(cache).sum(axis=0))


def stack_after_write(x, hist):
    """``x`` is also ``hist[0]``: the write must show in the stack, as eagerly."""
    x += 1.0
    return np.stack(hist).sum(axis=0)


def stack_after_view_write(buf, hist):
    """The items are rows of ``buf`` (views): writing ``buf`` before the stack
    changes them."""
    buf[0] *= -1.0
    return np.stack(hist)


def stack_then_write(x, hist):
    """The write comes after the stack: the stack holds the old values."""
    s = np.stack(hist)
    x += 1.0
    return s


@pytest.mark.parametrize("fn", [stack_after_write, stack_then_write])
def test_a_write_into_an_item_before_the_stack_is_seen(fn):
    f = dynamo.compile(fn, backend="eager")
    want_x, got_x = np.zeros(3), np.zeros(3)
    want_h, got_h = [want_x], [got_x]
    for i in range(8):
        same_outcome(outcome(fn, (want_x, want_h)), outcome(f, (got_x, got_h)), f"call {i}")
        want_h.append(np.full(3, float(i)))
        got_h.append(np.full(3, float(i)))


def test_a_write_into_the_buffer_items_view_is_seen():
    f = dynamo.compile(stack_after_view_write, backend="eager")
    want_buf, got_buf = np.arange(24.0).reshape(8, 3), np.arange(24.0).reshape(8, 3)
    for n in range(1, 8):
        want = stack_after_view_write(want_buf, [want_buf[i] for i in range(n)])
        got = f(got_buf, [got_buf[i] for i in range(n)])
        same(want, got)
        same(want_buf, got_buf)


def stacked(hist):
    return np.stack(hist) * 2.0


def test_items_that_differ_are_specialized_as_eager():
    """Ragged items raise NumPy's own ValueError; another dtype promotes as eagerly
    (a new entry: the stacked input's dtype is guarded); a list or a matrix among the
    items is not stacked by the check (each item's type is guarded)."""
    f = dynamo.compile(stacked, backend="eager")
    calls = [[np.ones(3)] * n for n in (2, 3, 4)] + [
        [np.ones(3), np.ones(4), np.ones(3)],               # ragged: ValueError
        [np.ones(3), np.ones(3, np.float32), np.ones(3)],   # still float64
        [np.ones(3, np.int8)] * 5,                          # int8 * 2.0: float64
        [np.ones(3), [1.0, 2.0, 3.0], np.ones(3)],          # a list as an item
        [np.ones(3), np.ones(3), np.ones(3)],
    ]
    for i, hist in enumerate(calls):
        same_outcome(outcome(stacked, (list(hist),)), outcome(f, (list(hist),)), f"call {i}")


def broadcast_rows(hist, y):
    """One row stacked is (1, 3) and broadcasts against ``y``: size 1 is not served by
    the entry of other lengths (nothing is appended here, so the stack is a copy)."""
    return np.stack(hist) + y


def test_one_row_that_broadcasts_stays_specialized():
    f = dynamo.compile(broadcast_rows, backend="eager")
    y = np.arange(9.0).reshape(3, 3)
    for n in (2, 3, 1, 3, 1, 4):
        hist = [np.full(3, float(i)) for i in range(n)]
        same_outcome(outcome(broadcast_rows, (list(hist), y)),
                     outcome(f, (list(hist), y)), f"{n} rows")


def appended_then_broadcast(hist, x, y):
    """One row held plus one appended: two rows, never broadcast, so the entry of a
    held row serves every later length; ``len(hist) - 3`` is negative at one row held
    (the bounds of a row count served from 1 up are 1, not 2)."""
    hist.append(x)
    s = np.stack(hist)
    return s + y[:len(s)], s[len(hist) - 3:]


def test_rows_held_from_one_up():
    f = dynamo.compile(appended_then_broadcast, backend="eager")
    y = np.arange(30.0).reshape(10, 3)
    want_h, got_h = [np.ones(3)], [np.ones(3)]
    for i in range(6):
        x = np.full(3, float(i))
        same_outcome(outcome(appended_then_broadcast, (want_h, x, y)),
                     outcome(f, (got_h, x, y)), f"call {i}")


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_growing_cache_runs_compiled(backend):
    """The entry that serves every later length runs its graph: ``s.max()`` of the
    scores (a symbolic count, at least 2) neither warns nor raises, so the appends
    traced before it need no rerun (it used to make the frame run uncompiled: "the op
    max may raise after Python objects were changed")."""
    dynamo.reset()
    with dynamo.explain(attend, backend=backend) as f:
        keys, values = [], []
        for x in XS[:6]:
            f(x, keys, values)
    assert f.report.compile_count == 2
    assert not f.report.skipped, f.report.skipped
    assert not f.report.break_reasons, [b.reason for b in f.report.break_reasons]


def attend_concatenated(q, rows):
    """A cache of (1, D) rows grown with ``np.concatenate`` (axis 0 by default)."""
    rows.append(q[None, :] @ WK)
    K = np.concatenate(rows)
    s = K @ q
    p = np.exp(s - s.max())
    return (p / p.sum()) @ K


def blocks_concatenated(x, blocks):
    """Blocks of two rows each, concatenated along axis 0 given by keyword."""
    blocks.append(np.stack([x, -x]))
    return np.concatenate(blocks, axis=0).sum(axis=0), len(blocks)


def concatenated_without_append(blocks):
    """Nothing appended: the concatenation is a copy, never the held array."""
    return np.concatenate(blocks, 0)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn, first", [(attend_concatenated, 0), (blocks_concatenated, 0),
                                       (concatenated_without_append, 2)])
def test_a_concatenated_growing_list_compiles_twice(fn, first, backend):
    """``np.concatenate(rows)`` along axis 0 of a growing list of same-shaped arrays is
    the stacked input reshaped, then the appended items: two entries in all."""
    dynamo.reset()
    want_l = [np.full((2, D), float(i)) for i in range(first)]
    got_l = [a.copy() for a in want_l]
    with dynamo.explain(fn, backend=backend) as f:
        for i, x in enumerate(XS[:8]):
            if fn is concatenated_without_append:
                want_l.append(np.full((2, D), float(i)))
                got_l.append(np.full((2, D), float(i)))
                want, got = fn(want_l), f(got_l)
                assert not np.shares_memory(got, got_l[0])
            else:
                want, got = fn(x, want_l), f(x, got_l)
            same(want, got, rtol=1e-12)
            same(want_l, got_l)
    assert f.report.compile_count == 2, [str(r) for r in f.report.recompiles]
    assert not f.report.skipped, f.report.skipped


def concatenated_other_axis(rows):
    return np.concatenate(rows, axis=1) * 2.0


def concatenated_rows(rows):
    return np.concatenate(rows) + 1.0


def test_concatenation_along_another_axis_reads_the_items():
    """Axis 1 (and ragged items along axis 0) are traced item by item, as before: the
    results are eager's (one entry per length)."""
    f = dynamo.compile(concatenated_other_axis, backend="eager")
    g = dynamo.compile(concatenated_rows, backend="eager")
    for n in (1, 2, 3, 4):
        rows = [np.full((2, 3), float(i)) for i in range(n)]
        same(concatenated_other_axis(rows), f(rows))
        ragged = [np.ones((i + 1, 3)) for i in range(n)]
        same(concatenated_rows(ragged), g(ragged))
