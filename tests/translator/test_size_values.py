"""A data-dependent size read as a number (issue #19): ``len(kept)``, ``seg.size`` and
``s.shape[0]`` of an array whose length the data decides, in arithmetic.

``max(seg.size, 1)``, ``n // 2``, ``n % 3``, ``n ** 2``, ``abs(n - 3)``, ``int(n)``,
``np.float64(n)``, ``len(kept) > 0`` returned, ``x * (n > 2)`` and ``z[:len(kept)] =
kept`` are values the graph computes (``dynamo/variables/size_values.py``,
docs/unbacked.md): one graph, no break, and eager's values *and Python types* (a
Python int stays an int, ``s / n`` a float, a comparison a bool) at every count,
from one compiled object. A branch, a loop bound or a shape made from such a value
still breaks, with a hint that names the line. Then nested lists of graph values
where NumPy wants an array (``np.diag([[a, b], [c, d]])``, ``np.dot([a, b], w)``,
``np.outer``, ``np.matmul``, ``np.trace``, ``np.kron``, ``np.cross``, ``np.linalg.det``
/ ``inv`` / ``solve`` of lists: ``dynamo/ops/listed.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# inputs with 0, 1, 2, 3 and 6 positive elements (of 6), and bounds of every kind
XS = [np.array(v, dtype=np.float64) for v in (
    [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0], [1.0, -2.0, -3.0, -4.0, -5.0, -6.0],
    [1.0, -2.0, 3.0, -4.0, -5.0, -6.0], [1.0, 2.0, -3.0, 4.0, -5.0, -6.0],
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0])]
BOUNDS = [np.array(p) for p in ((1, 4), (3, 3), (0, 6), (5, 2), (-2, 99))]


def segment_mean(v, p):
    seg = v[p[0]:p[1]]
    return seg.sum() / max(seg.size, 1)


def kept_mean(x):
    kept = x[x > 0]
    total = kept.sum()
    return total / max(len(kept), 1), len(kept)


def hand_mean(x):
    s = x[x > 0]
    return s.sum() / max(s.shape[0], 1) * 2.0


def size_ints(x):
    n = len(x[x > 0])
    return (n + 1, 5 - n, n * 3, n // 2, n % 3, max(n, 1), min(n, 2), min(4, n, 3),
            n ** 2, abs(n - 3), int(n), -n, max(n, 1) // 2 + 1)


def size_floats(x):
    n = len(x[x > 0])
    return n / 2, 7 / max(n, 1), float(max(n, 1)), np.float64(n), np.float32(n // 2)


def size_bools(x):
    n = len(x[x > 0])
    return n > 2, n == 0, 0 < n, n != len(x), max(n, 1) >= 2, n <= n // 2


def bool_as_data(x):
    kept = x[x > 0]
    return x * (len(kept) > 2), (kept.size == 0) * x.astype(np.float32)


def into_array_ops(x):
    kept = x[x > 0]
    n = max(len(kept), 1)
    return x.astype(np.float32) / n, np.full(3, n // 2), np.arange(3) * (n % 4)


def prefix_write(x):
    kept = x[x > 0]
    z = np.zeros(8)
    z[:len(kept)] = kept
    return z


def stored(x, out):
    n = len(x[x > 0])
    out.append(max(n, 1))
    out.append(n > 1)
    return out


PROGRAMS = [
    ("segment_mean", segment_mean, [(v, p) for v in XS[-1:] for p in BOUNDS]),
    ("kept_mean", kept_mean, [(x,) for x in XS]),
    ("hand_mean", hand_mean, [(x,) for x in XS]),
    ("size_ints", size_ints, [(x,) for x in XS]),
    ("size_floats", size_floats, [(x,) for x in XS]),
    ("size_bools", size_bools, [(x,) for x in XS]),
    ("bool_as_data", bool_as_data, [(x,) for x in XS]),
    ("into_array_ops", into_array_ops, [(x,) for x in XS]),
    ("prefix_write", prefix_write, [(x,) for x in XS]),
    ("stored", stored, [(x, []) for x in XS]),
]



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,arg_sets", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_one_graph_and_eager_values_and_types(name, fn, arg_sets, backend):
    report = dynamo.explain(fn, backend=backend)(*arg_sets[0])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    compiled = dynamo.compile(fn, backend=backend)
    for i, args in enumerate(arg_sets):
        want = outcome(fn, [a.copy() if hasattr(a, "copy") else a for a in args])
        got = outcome(compiled, [a.copy() if hasattr(a, "copy") else a for a in args])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_write_past_the_end_raises_numpys_error(backend):
    """``z[:len(kept)] = kept`` with more values than ``z`` holds: NumPy's ValueError,
    raised when the graph runs, as eagerly."""
    def short_prefix(x):
        kept = x[x > 0]
        z = np.zeros(3)
        z[:len(kept)] = kept
        return z
    compiled = dynamo.compile(short_prefix, backend=backend)
    for x in XS:
        same_outcome(outcome(short_prefix, [x]), outcome(compiled, [x]), "short_prefix")


def branch_on_size(x):
    kept = x[x > 0]
    return kept - kept.mean() if kept.size else kept


def branch_on_compare(x):
    kept = x[x > 0]
    if len(kept) > 2:
        return kept * 2
    return kept


def loop_bound(x):
    kept = x[x > 0]
    total = 0
    for i in range(max(len(kept), 1)):
        total += i
    return total


def shape_from(x):
    kept = x[x > 0]
    return np.linspace(0.0, 1.0, len(kept) // 2)


def zeros_of_size(x):
    kept = x[x > 0]
    return np.zeros(len(kept) // 2)


@pytest.mark.parametrize("fn,line", [
    (branch_on_size, "return kept - kept.mean() if kept.size else kept"),
    (branch_on_compare, "if len(kept) > 2:"),
    (loop_bound, "for i in range(max(len(kept), 1)):"),
    (shape_from, "return np.linspace(0.0, 1.0, len(kept) // 2)")],
    ids=["if_size", "if_compare", "range", "shape"])
def test_control_flow_and_shapes_still_break_naming_the_line(fn, line):
    report = dynamo.explain(fn, backend="eager")(XS[3])
    assert report.graph_break_count == 1
    brk = report.break_reasons[0]
    assert "data-dependent size" in brk.reason
    assert "only known when the graph runs" in (brk.hint or "")
    assert line in str(brk)
    compiled = dynamo.compile(fn, backend="eager")
    for x in XS:
        same_outcome(outcome(fn, [x]), outcome(compiled, [x]), fn.__name__)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_shape_made_from_a_data_dependent_size_stays_in_the_graph(backend):
    """``np.zeros(len(kept) // 2)``: the size is computed in the graph as a data size
    (dynamo/ops/computed_shapes.py), no break; the result equals eager's for every
    length, 0 included."""
    assert dynamo.explain(zeros_of_size, backend=backend)(XS[3]).graph_break_count == 0
    compiled = dynamo.compile(zeros_of_size, backend=backend)
    for x in XS:
        same_outcome(outcome(zeros_of_size, [x]), outcome(compiled, [x]), "zeros_of_size")


def diag_of_rows(x):
    a, b, c, d = x.sum(), x.max(), x.min(), x.mean()
    return np.diag([[a, b], [c, d]]), np.diag([[a, b], [c, d]], k=1)


def array_of_rows(x):
    a, b = x.sum(), x.max()
    return np.array([[a, b], [b, 1.0]])


def stack_of_scalars(x):
    return np.stack([x.sum(), x[0], x.max()])


def dot_of_lists(x, w, m):
    a, b = x.sum(), x.max()
    return np.dot([a, b], w), np.dot(w, [a, 2.0]), np.dot([[a, b], [b, a]], m)


def products_of_lists(x, w, m):
    a, b = x.sum(), x.max()
    rows = [[a, b], [x.min(), x[0]]]
    return (np.outer([a, b], w), np.inner([a, b], w), np.matmul(rows, w), np.vdot([a, b], w),
            np.tensordot([a, b], w, axes=1), np.trace(rows), np.diagflat([[a, b]]),
            np.kron([a, b], w), np.cross([a, b, x[1]], m[0]))


def linalg_of_lists(x, w, m):
    rows = [[x.sum() + 4.0, x.max()], [x.min(), x[0] + 3.0]]
    return np.linalg.det(rows), np.linalg.inv(rows), np.linalg.solve(rows, w)


LISTED = [("diag_of_rows", diag_of_rows), ("array_of_rows", array_of_rows),
          ("stack_of_scalars", stack_of_scalars), ("dot_of_lists", dot_of_lists),
          ("products_of_lists", products_of_lists), ("linalg_of_lists", linalg_of_lists)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,fn", LISTED, ids=[p[0] for p in LISTED])
def test_nested_lists_of_graph_values(name, fn, dtype, backend):
    x = np.array([1.5, -2.0, 3.0], dtype)
    args = [x] if fn in (diag_of_rows, array_of_rows, stack_of_scalars) else \
        [x, np.array([0.5, 2.0], dtype), np.arange(6.0).reshape(2, 3)]
    report = dynamo.explain(fn, backend=backend)(*args)
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    want, got = outcome(fn, args), outcome(dynamo.compile(fn, backend=backend), args)
    same_outcome(want, got, name)
    assert nested_types(got[0]) == nested_types(want[0])
