"""A changing int used as an index (``buf[ptr] = obs``, ``grid[i, j] += v``, ``grid[pos]``
with ``pos`` a tuple of ints) is a graph input that NumPy bounds-checks when the graph
runs (``dynamo.symbolic.indices``), not a value the entry is guarded on (issue #16):
once the int is dynamic, every in-bounds value is one entry, and an out-of-bounds one
raises NumPy's own ``IndexError`` (type and text) from that entry, with the writes
before it made as eagerly. Checked against eager with values in and out of bounds,
negative, bools (a mask, not an int) and NumPy ints.
"""

import numpy as np
import pytest
from harness import outcome, same_outcome
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import dynamo
from dynamo.ops import ArrayMeta
from dynamo.symbolic import Sym, SymbolClasses, SymInt
from dynamo.symbolic.indices import value_blind

ROWS = 10


def _int(hint, name="s0", expr="L['i']"):
    return SymInt(hint, Sym.symbol(name, expr))


def test_an_int_component_of_the_index_is_fitted_at_a_position_in_bounds():
    x = ArrayMeta((ROWS, 4), np.dtype("f8"))
    v = ArrayMeta((4,), np.dtype("f8"))
    i, j = _int(7), _int(-3, "s1", "L['j']")
    assert value_blind("setitem", (x, i, v), SymbolClasses()) == ((x, 0, v), {"s0"})
    args, symbols = value_blind("getitem", (x, (i, slice(1, None), j)), SymbolClasses())
    assert args == (x, (0, slice(1, None), -1)) and symbols == {"s0", "s1"}
    # items of a list of ints (a fancy index): its length is the shape
    args, symbols = value_blind("getitem", (x, [3, i, j]), SymbolClasses())
    assert args == (x, [3, 0, -1]) and symbols == {"s0", "s1"}
    assert value_blind("getitem", (x, [True, i]), SymbolClasses()) is None
    assert value_blind("getitem", (x, [[i]]), SymbolClasses()) is None
    # inside a slice the int changes the shape: the plain fit
    assert value_blind("getitem", (x, slice(None, i)), SymbolClasses()) is None
    assert value_blind("add", (x, i), SymbolClasses()) is None


def test_an_index_made_of_the_arrays_own_size_keeps_the_plain_fit():
    n = _int(10, "s0", "L['x'].shape[0]")
    x = ArrayMeta((n, 4), np.dtype("f8"))
    assert value_blind("getitem", (x, n - 1), SymbolClasses()) is None
    classes = SymbolClasses()
    classes.merge({"s0", "s1"})          # an int guarded equal to that size
    assert value_blind("getitem", (x, _int(9, "s1", "L['k']")), classes) is None
    # an int with the hint of one of x's sizes: the plain fit may find them equal
    # (U[i, i + 1:] with i = len(b) - 1 and a square U of b's length)
    k = _int(10, "s1", "L['k']")
    assert value_blind("getitem", (x, k), SymbolClasses(), {"s0": 10, "s1": 10}) is None
    assert value_blind("getitem", (x, k), SymbolClasses(), {"s0": 12, "s1": 10}) is not None


def store(buf, i, x):
    """A replay buffer's write at a changing position, then a read there."""
    buf[i] = x
    return buf[i] * 2


def walk(grid, pos, step):
    """A grid world: a tuple of ints as the index, read and updated in place."""
    grid[pos] += step
    return grid[pos[0], 1:].sum() + grid[..., pos[1]].sum()


def _calls(compiled, fn, make, values):
    for k, v in enumerate(values):
        want, got = outcome(fn, make(v)), outcome(compiled, make(v))
        same_outcome(want, got, f"call {k}: index {v!r}")


def test_a_changing_index_compiles_twice_and_raises_numpys_error_from_that_entry():
    for backend in ("eager", "numpy"):
        dynamo.reset()
        with dynamo.explain(store, backend=backend) as compiled:
            _calls(compiled, store, lambda i: (np.zeros((ROWS, 3)), i, np.full(3, 1.5)),
                   [2, 3, 4, 9, 5, ROWS, 123, 2**40, 8, ROWS + 1, 3])
        report = compiled.report
        assert report.compile_count == 2, [str(r) for r in report.recompiles]
        assert report.calls == 11


def test_an_index_out_of_bounds_when_the_int_turns_dynamic_is_no_break():
    """The recompile that makes ``i`` dynamic sees it out of bounds: the entry is still
    the one for every value (NumPy raises in it), not a break before the write."""
    for backend in ("eager", "numpy"):
        dynamo.reset()
        with dynamo.explain(store, backend=backend) as compiled:
            _calls(compiled, store, lambda i: (np.zeros((ROWS, 3)), i, np.full(3, 1.5)),
                   [2, ROWS + 5, 3, ROWS, 4, 9])
        assert compiled.report.compile_count == 2
        assert compiled.report.graph_break_count == 0


def test_a_tuple_of_ints_as_the_index_compiles_twice():
    for backend in ("eager", "numpy"):
        dynamo.reset()
        with dynamo.explain(walk, backend=backend) as compiled:
            _calls(compiled, walk, lambda p: (np.arange(48.0).reshape(6, 8), p, 0.25),
                   [(2, 3), (3, 4), (5, 2), (4, 7), (6, 2), (2, 8), (3, 3), (5, 7)])
        assert compiled.report.compile_count == 2, \
            [str(r) for r in compiled.report.recompiles]


class Ring:
    """A write after a Python effect: the graph must not raise there (the effect would
    be lost), so the index keeps today's rule (its value is guarded) and stays exact."""

    def __init__(self):
        self.buf = np.zeros((4, 2))
        self.writes = 0

    def put(self, i, x):
        self.writes += 1
        self.buf[i] = x
        return self.buf.sum()


def test_a_write_after_a_python_effect_stays_exact():
    ring, ref = Ring(), Ring()
    put = dynamo.compile(ring.put, backend="eager")
    for i in [2, 3, -1, 4, 2, -5, 3]:
        want, got = outcome(ref.put, (i, np.ones(2) * i)), outcome(put, (i, np.ones(2) * i))
        same_outcome(want, got, f"index {i}")
        assert (ring.writes, ring.buf.tolist()) == (ref.writes, ref.buf.tolist())


INDEX = st.one_of(st.integers(-2 * ROWS, 2 * ROWS), st.integers(2, ROWS - 1),
                  st.booleans(), st.integers(-ROWS, ROWS).map(np.int64),
                  st.sampled_from([2**63, -2**63 - 1, 2**70]))


def _specialized(values) -> int:
    """Values that get entries of their own: all but ints from 2 up, once the int is
    dynamic (0 and 1 are specialized, negatives are not dynamic ints, a bool is a
    mask, a NumPy int is guarded by value, an int past int64 is guarded out)."""
    return len({(type(v), v) for v in values
                if not (type(v) is int and 2 <= v < 2**63)})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INDEX, min_size=2, max_size=8), st.sampled_from(["eager", "numpy"]))
@example([2, 3, ROWS, -ROWS, -ROWS - 1, True, np.int64(-4), 7], "eager")
@example([5, 2**63, 6, 0, 1, 9], "numpy")
def test_indices_in_and_out_of_bounds_equal_eager(values, backend):
    dynamo.reset()
    with dynamo.explain(store, backend=backend) as compiled:
        _calls(compiled, store, lambda i: (np.arange(ROWS * 3.0).reshape(ROWS, 3), i,
                                           np.full(3, -2.0)), values)
    # one entry per specialized value, the first one, and the first dynamic one
    assert compiled.report.compile_count <= 2 + _specialized(values), \
        [str(r) for r in compiled.report.recompiles]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_gather_by_changing_row_and_column_equals_eager(backend):
    def pick(table, r, c):
        return table[r] * table[r, c] - table[:, c].sum()

    dynamo.reset()
    table = np.arange(35.0).reshape(5, 7)
    with dynamo.explain(pick, backend=backend) as compiled:
        _calls(compiled, pick, lambda rc: (table, *rc),
               [(2, 3), (3, 2), (4, 6), (2, 7), (5, 2), (-5, -7), (4, -8), (3, 5)])
    # (-5, -7) and (4, -8): negative ints are not dynamic, so entries of their own
    assert compiled.report.compile_count <= 4, [str(r) for r in compiled.report.recompiles]


def gather(table, ids):
    """Rows gathered by a tuple of ints as a fancy index (a copy), then written back."""
    rows = table[list(ids)]
    table[list(ids[:2])] = -rows[:2]
    return rows.sum(axis=0)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(*[st.integers(-ROWS - 2, ROWS + 2)] * 3), min_size=2, max_size=6),
       st.sampled_from(["eager", "numpy"]))
@example([(2, 3, 4), (5, 6, 7), (9, 2, 2), (ROWS, 3, 3), (4, 5, -ROWS - 1), (3, 2, 8)], "eager")
@example([(2, 2, 2), (2, 2, 3), (2, 3, 2)], "eager")   # all items changing once one did
def test_a_tuple_of_ints_as_a_fancy_index_equals_eager(ids_seq, backend):
    dynamo.reset()
    with dynamo.explain(gather, backend=backend) as compiled:
        _calls(compiled, gather, lambda ids: (np.arange(ROWS * 2.0).reshape(ROWS, 2), ids),
               ids_seq)
    # at most one entry per tuple with an item not taken as a dynamic int (below 2)
    specialized = {ids for ids in ids_seq if min(ids) < 2}
    assert compiled.report.compile_count <= 2 + len(specialized), \
        [str(r) for r in compiled.report.recompiles]


def _unused_read_in_try(x, i):
    try:
        x[i]                       # read only for its IndexError, as a check
        return x.reshape(2, -1)
    except (IndexError, ValueError) as e:
        return type(e).__name__


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_an_unused_read_still_raises_first_inside_try(backend):
    # the numpy backend's dead-code pass once dropped the unused x[i] (its run-time
    # bounds check is the only thing it does), and an out-of-bounds index at the call
    # that made i dynamic let the reshape's ValueError be caught first
    compiled = dynamo.compile(_unused_read_in_try, backend=backend)
    x5 = np.linspace(-1, 1, 5)
    for args in [(x5, 9), (x5, 1), (np.arange(6.0), 1), (x5, 9), (x5, 2), (x5, -6)] * 2:
        same_outcome(outcome(_unused_read_in_try, args), outcome(compiled, args), str(args[1]))
