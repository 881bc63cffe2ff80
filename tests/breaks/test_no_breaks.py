"""Everyday functions of the kinds that used to break (``corpus_no_breaks.py``, issue
#19): one graph, no break, eager's results (values, dtypes, types, printed output,
mutated arguments) on the eager and numpy backends, each called twice.

The edges of the two capabilities added for it: ``int()`` of a computed integer index
used to index an array (a NumPy integer scalar in the graph: a basic index, so a view
sees later writes and an index out of range raises eager's ``IndexError``), and
``sep.join`` of a generator or ``map`` (drained in order, as CPython's join does).
"""

from __future__ import annotations

import numpy as np
import pytest
from corpus_no_breaks import PROGRAMS
from harness import check

BACKENDS = ("eager", "numpy")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_no_break(name, fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend)


def test_corpus_size():
    assert len(PROGRAMS) >= 20
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)


def row_view_then_write(scores, table):
    k = int(np.argmax(scores))
    row = table[k]          # a view, as with a Python int
    table[k] += 10.0
    return row, table[k, -1]


def index_out_of_range(scores, short):
    k = int(np.argmax(scores))
    return short[k]         # IndexError when the graph runs, eager's message


def bool_index(x):
    b = int(x.any())        # an int from a bool array: 0 or 1, never a mask
    return x[b]


def unsigned_index(x, idx):
    return x[int(idx.max()), 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_int_of_array_as_index(backend):
    table = np.arange(12.0).reshape(3, 4)
    check(row_view_then_write, np.array([0.1, 0.7, 0.2]), table, graphs=1, breaks=0,
          backend=backend)
    check(index_out_of_range, np.array([0.0, 0.0, 0.0, 5.0]), np.arange(3.0),
          backend=backend)
    check(index_out_of_range, np.array([0.0, 5.0]), np.arange(3.0), graphs=1, breaks=0,
          backend=backend)
    check(bool_index, np.array([0.0, 2.0]), backend=backend)
    check(unsigned_index, table, np.array([0, 2, 1], dtype=np.uint8), graphs=1, breaks=0,
          backend=backend)


def joined_names(x):
    dims = "x".join(str(n) for n in x.shape)
    kinds = ",".join(map(str, (x.dtype, x.ndim)))
    return f"{dims}:{kinds}", x.sum()


def join_of_ints(x):
    return "-".join(n for n in x.shape)   # TypeError: join's own, raised eagerly


@pytest.mark.parametrize("backend", BACKENDS)
def test_join_of_generator(backend):
    check(joined_names, np.ones((2, 3), np.float32), graphs=1, breaks=0, backend=backend)
    check(join_of_ints, np.ones((2, 3)), backend=backend)


def weighted_mean_per_bin(r, w):
    """Two bincounts of ``r.ravel()`` (two view nodes of one array): one length."""
    sums = np.bincount(r.ravel(), w.ravel())
    counts = np.bincount(r.ravel())
    return sums / np.maximum(counts, 1), counts.shape


def count_after_write(r):
    """A view made before a write reads the written memory: its count is new."""
    v = r.ravel()
    before = np.bincount(v)
    r[0, 0] = 9
    after = np.bincount(v)
    return before.shape, after.shape, after, before


def count_other_view_after_write(r):
    a = np.bincount(r.ravel(), np.ones(r.size))
    r[0, 0] = 9
    b = np.bincount(r.ravel())
    return a / np.maximum(b, 1)       # 3 against 10 counts: NumPy's ValueError


@pytest.mark.parametrize("backend", BACKENDS)
def test_counts_of_views(backend):
    r = np.array([[0, 1], [2, 2]])
    check(weighted_mean_per_bin, r, np.arange(4.0).reshape(2, 2), graphs=1, breaks=0,
          backend=backend)
    check(weighted_mean_per_bin, np.array([[5, 0, 5]]), np.ones((1, 3)), backend=backend)
    check(count_after_write, r, graphs=1, breaks=0, backend=backend)
    check(count_other_view_after_write, r, backend=backend)


def draw_then_arithmetic(x):
    np.random.seed(4)
    t = np.random.random()            # drawn in the graph; in arithmetic an unbacked float
    return x * (2 * np.pi * t), np.random.random(2), t * 2, type(t)


def draw_then_branch(x):
    np.random.seed(4)
    if np.random.random() < 0.5:      # ways of different kinds: needs the number
        print("low")
        return None
    return x


def draws_returned(rng):
    return rng.random(), rng.choice(5), rng.poisson(2.0), rng.integers(3), rng.normal()


def numpy_scalar_draw(x):
    np.random.seed(2)
    k = np.random.randint(3, dtype=np.int32)    # a NumPy int32, not a Python int
    return x[k], k


@pytest.mark.parametrize("backend", BACKENDS)
def test_python_number_draws(backend):
    """A draw that returns a Python number is the graph's, in program order: the same
    stream, the number's own type; where the number is needed while tracing the break
    is there, with the draw's reason."""
    check(draw_then_arithmetic, np.arange(3.0), graphs=1, breaks=0, backend=backend)
    report = check(draw_then_branch, np.arange(3.0), breaks=1, backend=backend)
    assert "without size= returns a Python scalar" in report.break_reasons[0].reason
    check(draws_returned, np.random.default_rng(8), graphs=1, breaks=0, backend=backend)
    check(numpy_scalar_draw, np.arange(3.0), backend=backend)
