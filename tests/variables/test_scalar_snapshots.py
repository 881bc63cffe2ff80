"""A NumPy scalar is its own snapshot (``dynamo/variables/snapshots.py``, issue #15).

``u = int(np.argmin(d))`` or ``b = int(idx[k])`` is a number the glue makes from a
value the graph holds. A NumPy scalar cannot change, so the graph holds the scalar
itself and indexes with it (``sums[u]``: no ``np.copy`` per loop trip, no ``[()]``
per use: the eager backend runs no pass that would drop them). A 0-d *array* can
change after the conversion: it keeps its copy, which the conversion reads.

The graph tests look at the ops the translator makes; the program tests compare with
plain Python on the eager and numpy backends (``check``: values, types, arguments
afterwards).
"""

from __future__ import annotations

import numpy as np
import pytest
from dynamo.backends.common import python_function
from harness import check

import dynamo

BACKENDS = ("eager", "numpy")


def trace(fn, *args):
    graphs = []

    def capture(graph, example_inputs):
        graphs.append(graph)
        return python_function(graph)

    dynamo.compile(fn, backend=capture)(*args)
    assert len(graphs) == 1
    return graphs[0]


def body_of(graph):
    return [n for n in graph.call_nodes() if n.target == "fori_loop"][-1].args[0]


def targets(graph) -> list:
    return [n.target for n in graph.call_nodes()]


def unit_reads(graph) -> int:
    return sum(n.target == "getitem" and n.args[1] == () for n in graph.call_nodes())


# ------------------------------------------------------------------------- programs
def histogram(idx, w, hist):
    for k in range(idx.shape[0]):
        b = int(idx[k])
        hist[b] = hist[b] + w[k]
    return hist


def nearest(P, Q, out):
    for i in range(Q.shape[0]):
        j = int(np.argmin(np.abs(P - Q[i]).sum(axis=1)))
        out[i] = P[j]
    return out


def int_of_zero_d(a, x):
    k = int(a)
    return x[k] + 1.0, k


def zero_d_written_after(a, x):
    """``k`` is ``a`` as it was: the write after the conversion does not change it."""
    k = int(a)
    a[...] = 5
    return x[k], k, a


def zero_d_written_in_a_loop(a, x, out):
    for i in range(out.shape[0]):
        k = int(a)
        a[...] = (k + 3) % x.shape[0]    # (k in Python arithmetic)
        out[i] = x[k]
    return out, a


def scalar_written_after(idx, hist):
    """``b`` is ``idx[k]`` as read: the write into ``idx`` after it changes nothing."""
    for k in range(idx.shape[0]):
        b = int(idx[k])
        idx[k] = 0
        hist[b] += 1.0
    return idx, hist


def int_and_float_of_one_scalar(d):
    """Two numbers of one NumPy scalar, in arithmetic: each keeps its own type."""
    s = d.sum()
    return int(s) + 1, float(s) + 1, s.item() * 2, s


def int_and_float_of_a_float_sum(d):
    """``int(s) + 1`` of a float ``s`` breaks (its finite check is the glue's); the
    code after the break converts the same ``s`` again."""
    s = d.sum()
    return int(s) + 1, float(s) * 0.5


def float_of_an_argument(s, x):
    """A NumPy scalar the graph takes as an input: copied (the glue reads a snapshot
    as a graph output)."""
    return float(s) * 0.5, x[int(s)], int(s) + 1


# ------------------------------------------------------------------------ graph tests
def test_a_scalar_index_is_read_as_itself():
    rng = np.random.default_rng(0)
    body = body_of(trace(histogram, rng.integers(0, 8, 40), rng.random(40), np.zeros(8)))
    assert "copy" not in targets(body) and unit_reads(body) == 0
    # hist[b] read and written at idx[k]'s own scalar
    picked = [n for n in body.call_nodes() if n.target == "getitem" and
              getattr(n.args[0], "name", None) == "idx"]
    assert len(picked) == 1
    assert sum(n.target in ("getitem", "setitem") and n.args[1] is picked[0]
               for n in body.call_nodes()) == 2


def test_an_argmin_index_is_read_as_itself():
    rng = np.random.default_rng(1)
    body = body_of(trace(nearest, rng.random((6, 2)), rng.random((9, 2)), np.zeros((9, 2))))
    assert "copy" not in targets(body) and unit_reads(body) == 0
    assert any(getattr(n.args[1], "target", None) == "argmin"
               for n in body.call_nodes() if n.target == "getitem")


def test_an_item_of_a_scalar_has_no_copy():
    graph = trace(lambda d: d.sum().item(), np.arange(4.0))
    assert "copy" not in targets(graph)


@pytest.mark.parametrize("fn", [int_of_zero_d, zero_d_written_after])
def test_a_zero_d_array_keeps_its_copy(fn):
    graph = trace(fn, np.array(2), np.arange(10.0))
    copies = [n for n in graph.call_nodes() if n.target == "copy"]
    assert len(copies) == 1 and copies[0].args[0].name == "a"
    # the index is the copy's value, read after the copy (and before any write to a)
    reads = [n for n in graph.call_nodes() if n.target == "getitem" and n.args[0] is copies[0]]
    assert len(reads) == 1 and reads[0].args[1] == ()


# ---------------------------------------------------------------------- program tests
@pytest.mark.parametrize("backend", BACKENDS)
def test_scalar_programs_match_plain(backend):
    rng = np.random.default_rng(2)
    for seed in range(2):
        rng = np.random.default_rng(seed)
        check(histogram, rng.integers(0, 8, 40), rng.random(40), np.zeros(8), backend=backend)
        check(nearest, rng.random((6, 2)), rng.random((9, 2)), np.zeros((9, 2)),
              backend=backend)
        check(scalar_written_after, rng.integers(1, 8, 30), np.zeros(8), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_d_programs_match_plain(backend):
    for start in (0, 2, 7):
        check(int_of_zero_d, np.array(start), np.arange(10.0), backend=backend)
        check(zero_d_written_after, np.array(start), np.arange(10.0), backend=backend)
        check(zero_d_written_in_a_loop, np.array(start), np.arange(10.0), np.zeros(12),
              backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("d", [np.arange(5), np.array([7], np.int32)], ids=["int64", "int32"])
def test_int_and_float_of_one_scalar(d, backend):
    check(int_and_float_of_one_scalar, d, backend=backend, graphs=1, breaks=0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_float_scalar_converted_twice(backend):
    check(int_and_float_of_a_float_sum, np.arange(5.0) / 4, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("s", [np.float64(3.0), np.int64(2), np.float32(1.0)],
                         ids=["float64", "int64", "float32"])
def test_a_scalar_argument(s, backend):
    check(float_of_an_argument, s, np.arange(5.0), backend=backend)
