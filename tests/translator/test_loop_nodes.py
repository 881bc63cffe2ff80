"""Loop nodes (dynamo/translator/loops.py): a long ``for`` loop over a range is traced
once and runs as one ``fori_loop`` node, with exactly the results of plain Python.

Every program runs eagerly and compiled on both CPU backends (``check``: results,
arguments afterwards, printed output, exceptions). ``loop_nodes(fn, ...)`` counts the
loop nodes of the graphs a call compiled, and ``traced_steps`` the instructions the
trace walked, so that "the body is traced once" is checked as work, not as time.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import check
from hypothesis import given, settings
from hypothesis import strategies as st
from script_modules import load_script

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")


class _Graphs:
    def __init__(self):
        self.graphs, self.steps = [], 0

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)

    def on_step(self, tx):
        self.steps += 1


def compiled_call(fn, *args, backend="eager"):
    """(result, loop nodes in the compiled graphs, instructions traced) of one call."""
    with listeners.listening(_Graphs()) as seen:
        try:
            result = dynamo.compile(fn, backend=backend)(*args)
        except Exception as e:  # noqa: BLE001
            result = e
    loops = sum(n.target == "fori_loop" for g in seen.graphs for n in g.call_nodes())
    return result, loops, seen.steps


# ----------------------------------------------------------------------------- programs
# triangular loops: slices whose length follows the index (sizes ``d0 + c * trip``);
# three are the loops benchmark's own programs
_bench = load_script("bench_loops")
forward_substitution, levinson_durbin, cholesky = \
    _bench.forward_substitution, _bench.levinson, _bench.cholesky


def growing_slice(x):
    total = 0.0
    for i in range(1, 15):
        total = total + x[:i].sum()
    return total


def back_substitution(U, b):
    n = b.shape[0]
    x = np.zeros_like(b)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


def gram_schmidt(A):
    Q = np.zeros_like(A)
    for j in range(A.shape[1]):
        v = A[:, j] - Q[:, :j] @ (Q[:, :j].T @ A[:, j])
        Q[:, j] = v / np.linalg.norm(v)
    return Q


def running_means(x):
    out = np.empty_like(x)
    for i in range(1, x.shape[0] + 1):
        out[i - 1] = x[:i].mean()          # a mean over a count that changes per trip
    return out


def suffix_max(x):
    out = np.zeros(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = x[i:].max()
    return out


def leading_blocks(A):
    t = np.zeros(A.shape[0])
    for i in range(1, A.shape[0] + 1):
        t[i - 1] = (A[:i, :i] ** 2).sum() + np.outer(A[:i, 0], A[0, :i]).trace()
    return t


def last_growing_temporary(x):
    for i in range(2, x.shape[0]):
        w = x[:i] * 2.0 + x[i - 1:i]
    return w, i


def short_sums_that_grow(x):
    t = np.zeros(x.shape[1])
    for i in range(2, x.shape[0]):
        t = t + x[:i].sum(axis=0)           # an axis of 2, 3, ... elements
    return t


TRIANGULAR = [
    ("growing_slice", growing_slice, lambda: (np.arange(20.0),)),
    ("forward_substitution", forward_substitution,
     lambda: (np.tril(np.linspace(0.5, 1, 400).reshape(20, 20)) + 20 * np.eye(20),
              np.linspace(-1, 1, 20))),
    ("back_substitution", back_substitution,
     lambda: (np.triu(np.linspace(0.5, 1, 400).reshape(20, 20)) + 20 * np.eye(20),
              np.linspace(-1, 1, 20))),
    ("levinson_durbin", levinson_durbin, lambda: (np.exp(-np.arange(30.0) / 8), 24)),
    ("cholesky", cholesky, lambda: (np.linspace(0, 1, 256).reshape(16, 16) @
                                    np.linspace(0, 1, 256).reshape(16, 16).T
                                    + 16 * np.eye(16),)),
    ("gram_schmidt", gram_schmidt, lambda: (np.eye(14, 12) * 3
                                            + np.linspace(0, 1, 168).reshape(14, 12),)),
    ("running_means", running_means, lambda: (np.linspace(-3, 5, 23) ** 3,)),
    ("suffix_max", suffix_max, lambda: (np.sin(np.arange(17.0)),)),
    ("leading_blocks", leading_blocks, lambda: (np.linspace(-1, 1, 144).reshape(12, 12),)),
    ("last_growing_temporary", last_growing_temporary, lambda: (np.arange(15.0),)),
    ("short_sums_that_grow", short_sums_that_grow,
     lambda: (np.linspace(0, 1, 60).reshape(12, 5),)),
]


def stencil(A, B, T):
    for t in range(T):
        B[1:-1] = 0.5 * (A[:-2] + A[2:])
        A[1:-1] = 0.5 * (B[:-2] + B[2:])
    return A, B


def prefix_sum(x):
    for i in range(1, x.shape[0]):
        x[i] += x[i - 1]
    return x


def explicit_euler(u, n, dt):
    for _ in range(n):
        u = u - dt * np.tanh(u)
    return u


def accumulate(a):
    t = 0.0
    for i in range(a.shape[0]):
        t += np.tanh(a[i, 0])
    return t


def double_buffer(a, b, n):
    for k in range(n):
        a, b = b, a
        a[0] += k
    return a, b


def windows(x):
    out = np.zeros(x.shape[0] - 2)
    for i in range(x.shape[0] - 2):
        out[i] = x[i:i + 3].sum()
    return out


def backwards(x):
    for i in range(x.shape[0] - 1, 0, -1):
        x[i - 1] = x[i - 1] + 0.5 * x[i]
    return x


def reversed_range(x):
    for i in reversed(range(1, x.shape[0])):
        x[i] -= x[i - 1]
    return x


def index_after_loop(x):
    for i in range(20):
        j = i * 2 + 1
        x = x + 1.0
    return x, i, j


def nested(x, n):
    total = x * 0
    for i in range(n):
        for j in range(n):
            total = total + x * (i - j)
    return total


def lu(a):
    a = a.copy()
    n = a.shape[0]
    for k in range(n - 1):
        for i in range(k + 1, n):
            a[i, k:] -= a[i, k] / a[k, k] * a[k, k:]
    return a


def for_else(x):
    for i in range(12):
        x = x * 1.5
    else:
        x = x - 1.0
    return x


def column_sweep(a):
    for j in range(1, a.shape[1]):
        a[:, j] = a[:, j] + a[:, j - 1] * 0.5
    return a


class Model:
    def __init__(self):
        self.W = np.linspace(0.0, 1.0, 16).reshape(4, 4)

    def run(self, h):
        for _ in range(30):
            h = np.tanh(self.W @ h)
        return h


def method_loop(m, h):
    return m.run(h)


def python_counter(x):
    k = 0
    for i in range(20):
        k += 2
        x = x + k
    return x, k


def counter_as_index(x):
    k = 3
    for _ in range(15):
        x[k] = x[k - 1] * 2 + x[k]
        k += 2
    return x, k


def rows(x):
    acc = np.zeros(x.shape[1])
    for row in x:
        acc = acc + row * 2.0
    return acc


def last_row_read_after(x):
    acc = np.zeros(x.shape[1])
    for row in x:
        acc = acc + row * 2.0
    return acc, row


def rows_in_place(x):
    for row in x:
        row *= 2.0
        row += 1.0
    return x


def view_temporaries(X, c):
    total = 0.0
    for i in range(X.shape[0]):
        xi = X[i]
        d = xi - c
        total = total + (d * d).sum()
    return total


PROGRAMS = [
    ("stencil", stencil, lambda: (np.linspace(0, 1, 40), np.zeros(40), 60)),
    ("prefix_sum", prefix_sum, lambda: (np.linspace(0, 1, 50),)),
    ("explicit_euler", explicit_euler, lambda: (np.linspace(-1, 1, 10), 40, 0.1)),
    ("accumulate", accumulate, lambda: (np.linspace(0, 1, 60).reshape(30, 2),)),
    ("double_buffer_odd", double_buffer, lambda: (np.zeros(3), np.ones(3), 11)),
    ("double_buffer_even", double_buffer, lambda: (np.zeros(3), np.ones(3), 12)),
    ("windows", windows, lambda: (np.arange(20.0),)),
    ("backwards", backwards, lambda: (np.linspace(0, 1, 30),)),
    ("reversed_range", reversed_range, lambda: (np.arange(25.0) ** 2,)),
    ("index_after_loop", index_after_loop, lambda: (np.zeros(3),)),
    ("nested", nested, lambda: (np.linspace(0, 1, 5), 12)),
    ("lu", lu, lambda: (np.eye(12) * 12 + np.linspace(0, 1, 144).reshape(12, 12),)),
    ("for_else", for_else, lambda: (np.ones(4),)),
    ("column_sweep", column_sweep, lambda: (np.linspace(0, 1, 60).reshape(5, 12),)),
    ("method_loop", method_loop, lambda: (Model(), np.ones(4))),
    ("python_counter", python_counter, lambda: (np.ones(3),)),
    ("rows", rows, lambda: (np.linspace(0, 1, 60).reshape(20, 3),)),
    ("rows_in_place", rows_in_place, lambda: (np.linspace(0, 1, 60).reshape(20, 3),)),
    ("view_temporaries", view_temporaries, lambda: (np.linspace(0, 1, 60).reshape(20, 3),
                                                    np.ones(3))),
    ("counter_as_index", counter_as_index, lambda: (np.arange(40.0),)),
    *TRIANGULAR,
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_loop_programs_match_python(name, fn, make, backend):
    check(fn, *make(), backend=backend, graphs=1, breaks=0, rtol=1e-12)


@pytest.mark.parametrize("name,fn,make", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_each_program_has_a_loop_node(name, fn, make):
    _, loops, _ = compiled_call(fn, *make())
    assert loops >= 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_trace_follows_the_body_not_the_trip_count(backend):
    steps = []
    for T in (100, 200, 400, 800):
        A, B = np.linspace(0, 1, 64), np.zeros(64)
        (A2, B2), loops, n = compiled_call(stencil, A.copy(), B.copy(), T, backend=backend)
        expected = stencil(A.copy(), B.copy(), T)
        np.testing.assert_array_equal(A2, expected[0])
        np.testing.assert_array_equal(B2, expected[1])
        assert loops == 1
        steps.append(n)
    assert len(set(steps)) == 1 and steps[0] < 200, steps


def test_the_graph_prints_the_body_as_a_nested_function():
    seen = _Graphs()
    with listeners.listening(seen):
        dynamo.compile(prefix_sum, backend="eager")(np.ones(20))
    text = str(seen.graphs[0])
    assert "def fori_loop_body(trips, x):" in text
    assert "for trip in range(trips):" in text
    assert "ops.fori_loop(fori_loop_body, 18, (" in text     # range(2, 20) after one trip
    assert "ops.getitem(x, (trip + 1))" in text               # x[i - 1], i = 2 + trip


# ------------------------------------------------------------ what stays unrolled, and why
LOG: list = []


def appends_each_step(x):
    for i in range(20):
        LOG.append(i)
        x = x + i
    return x


def branch_on_index(x):
    for i in range(20):
        if i % 2:
            x = x + 1.0
        else:
            x = x * 0.5
    return x


def clamped_slice(x):
    total = 0.0
    for i in range(1, 30):          # x[:i] stops growing at len(x): not affine
        total = total + x[:i].sum()
    return total


def wraps_around(x):
    out = x * 0
    for i in range(10):
        out = out + x[i - 3:i - 1].sum()
    return out


def aliased_views(x):
    v = x[1:]
    for i in range(12):
        x[0] += v[0]
    return x


class Counter:
    def __init__(self):
        self.n = 0


def attribute_write(x, c):
    for i in range(15):
        c.n = 2 * c.n + 1   # (``c.n + 1`` is a counter: test_loop_held_arrays.py)
        x = x + 1.0
    return x


def print_each(x):
    for i in range(10):
        print(i)
        x = x + 1.0
    return x


def changes_shape(x):
    for i in range(10):
        x = np.concatenate([x, x[:1]])
    return x


def raises_at_iteration_k(x, y):
    for i in range(10):
        x[i] = y[i + 5]
    return x


def float_counter(x):
    s = 0.0
    for i in range(10):
        s = s + 0.5
    return x * s


STAY_UNROLLED = [
    ("appends_each_step", appends_each_step, lambda: (np.ones(3),)),
    ("branch_on_index", branch_on_index, lambda: (np.ones(3),)),
    ("clamped_slice", clamped_slice, lambda: (np.arange(20.0),)),
    ("wraps_around", wraps_around, lambda: (np.arange(20.0),)),
    ("aliased_views", aliased_views, lambda: (np.arange(5.0),)),
    ("attribute_write", attribute_write, lambda: (np.ones(3), Counter())),
    ("print_each", print_each, lambda: (np.ones(3),)),
    ("changes_shape", changes_shape, lambda: (np.ones(3),)),
    ("raises_at_iteration_k", raises_at_iteration_k, lambda: (np.zeros(10), np.arange(12.0))),
    ("float_counter", float_counter, lambda: (np.ones(3),)),
    ("last_row_read_after", last_row_read_after,
     lambda: (np.linspace(0, 1, 60).reshape(20, 3),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", STAY_UNROLLED, ids=[p[0] for p in STAY_UNROLLED])
def test_loops_that_cannot_be_nodes_still_match_python(name, fn, make, backend):
    LOG.clear()
    check(fn, *make(), backend=backend)
    LOG.clear()


@pytest.mark.parametrize("name,fn,make", STAY_UNROLLED, ids=[p[0] for p in STAY_UNROLLED])
def test_loops_that_cannot_be_nodes_have_none(name, fn, make):
    _, loops, _ = compiled_call(fn, *make())
    LOG.clear()
    assert loops == 0


def test_refusals_are_logged(caplog):
    with caplog.at_level("DEBUG", logger="dynamo.loops"):
        dynamo.compile(branch_on_index, backend="eager")(np.ones(3))
    assert any("branches on the index" in r.getMessage() for r in caplog.records)


def test_an_exception_in_iteration_k_leaves_what_python_leaves():
    x, y = np.zeros(10), np.arange(12.0)
    check(raises_at_iteration_k, x, y)


def test_a_huge_trip_count_does_not_hang_the_compile():
    def f(x):
        for i in range(10**9):
            x[i] = 1.0        # IndexError at i == 5
        return x

    check(f, np.zeros(5))


def test_short_loops_unroll(monkeypatch):
    def short(x):
        for i in range(8):
            x = x * 0.5 + i
        return x

    _, loops, _ = compiled_call(short, np.ones(3))
    assert loops == 0
    monkeypatch.setattr(dynamo.config, "loop_unroll_limit", 4)
    _, loops, _ = compiled_call(short, np.ones(3))
    assert loops == 1


def test_symbolic_sizes_around_a_loop_node():
    f = dynamo.compile(prefix_sum, backend="eager")
    for n in (30, 31, 45, 12):
        x = np.linspace(0, 1, n)
        np.testing.assert_array_equal(f(x.copy()), prefix_sum(x.copy()))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 40), T=st.integers(0, 30), backend=st.sampled_from(BACKENDS),
       seed=st.integers(0, 2**16))
def test_random_stencils_and_scans(n, T, backend, seed):
    rng = np.random.default_rng(seed)
    A, B = rng.random(n + 3), rng.random(n + 3)
    check(stencil, A, B, T, backend=backend, calls=1)
    check(prefix_sum, rng.random(n + 1), backend=backend, calls=1)
    check(explicit_euler, rng.random(n + 1), T, 0.25, backend=backend, calls=1, rtol=1e-12)


@pytest.mark.parametrize("name,fn,make", PROGRAMS[:6], ids=[p[0] for p in PROGRAMS[:6]])
def test_the_cupy_plan_runs_loop_nodes_on_its_reference_device(name, fn, make):
    """The cupy backend's plan and host code on the CPU (``reference_backend``): a loop
    node's body runs op by op inside the planned graph."""
    from dynamo.backends.cupy_backend.backend import reference_backend

    check(fn, *make(), backend=reference_backend, rtol=1e-12)


def test_a_temporary_that_was_also_a_carried_array():
    def f(x):
        y = x              # x and y: one array; y is then a temporary of the body
        for i in range(12):
            y = x[i] * 2.0
            x[i] = y + 1.0
        return x, y

    check(f, np.linspace(0, 1, 12))
    check(f, np.linspace(0, 1, 12), backend="numpy")


class _Weights:
    def __init__(self, n):
        self.W = np.arange(float(n))

    def run(self, acc):
        for i in range(10):
            acc = acc + self.W[1:].sum() * i
        return acc


def _run_weights(m, acc):
    return m.run(acc)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_body_that_reads_an_array_of_a_dynamic_size(backend, caplog):
    """The body's free input has a symbolic size (the sizes change between calls):
    each size is right on its first and later calls, and compiles without a fallback."""
    c = dynamo.compile(_run_weights, backend=backend)
    with caplog.at_level("WARNING", logger="dynamo"):
        for n in (5, 6, 7, 9, 6):
            m = _Weights(n)
            for _ in range(2):
                np.testing.assert_array_equal(c(m, np.zeros(3)),
                                              _run_weights(m, np.zeros(3)))
    assert not [r for r in caplog.records if r.levelname == "WARNING"]


# -------------------------------------------------- trip counts that change between calls
def time_steps(A, B, T):
    for t in range(T):
        B[1:-1] = 0.5 * (A[:-2] + A[2:])
        A[1:-1] = 0.5 * (B[:-2] + B[2:])
    return A, B, t


def fixed_point(x, b, n_iter):
    k = 0
    for _ in range(1, n_iter):
        x = 0.5 * (x + b / (x + 1.0))
        k += 2                                 # a counter: k0 + 2 * trip
    return x, k


def index_read_each_step(x, T):
    for i in range(T):
        x[i] += x[i - 1]                       # in bounds for T <= 64: a guard
    return x


def swap_each_step(a, b, T):
    for _ in range(T):
        b += 0.5 * a
        a, b = b, a                            # which array ends where depends on T % 2
    return a, b


def down_to_zero(x, T):
    for i in range(T, 0, -1):
        x = x * 0.5 + 1.0
    return x, i


CHANGING_TRIPS = [
    ("time_steps", time_steps, lambda T: (np.linspace(0, 1, 32), np.zeros(32), T)),
    ("fixed_point", fixed_point, lambda T: (np.ones(9), np.arange(9.0), T)),
    ("index_read_each_step", index_read_each_step, lambda T: (np.linspace(0, 1, 64), T)),
    ("swap_each_step", swap_each_step, lambda T: (np.ones(3), np.arange(3.0), T)),
    ("down_to_zero", down_to_zero, lambda T: (np.ones(4), T)),
]
TRIPS = (12, 20, 31, 45, 9, 12, 3)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", CHANGING_TRIPS, ids=[p[0] for p in CHANGING_TRIPS])
def test_trip_counts_that_change_match_python(name, fn, make, backend):
    compiled = dynamo.compile(fn, backend=backend)
    for T in TRIPS:
        got, want = compiled(*make(T)), fn(*make(T))
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
            assert type(g) is type(w)


@pytest.mark.parametrize("name,fn,make,compiles", [
    (*CHANGING_TRIPS[0], 2), (*CHANGING_TRIPS[1], 2), (*CHANGING_TRIPS[4], 2),
    # the index is read: in bounds for T <= 64, guarded (tests/translator/
    # test_loop_symbolic_sizes.py has more)
    (*CHANGING_TRIPS[2], 2),
    # arrays swap (which one ends where depends on T % 2): T seen (12), then one
    # entry per parity of T, guarded on (T - 1) % 2 (12 and 20 even, 31 and 45 odd)
    (*CHANGING_TRIPS[3], 3)], ids=lambda v: v if isinstance(v, str) else "")
def test_a_trip_count_that_changes_is_a_symbolic_loop_node(name, fn, make, compiles):
    """``range(T)`` of an int argument that changes: one loop node whose trip count is
    an expression of T (2 compiles: T seen, then symbolic), also where the body reads
    the index (checked at the first and the last trip, ``T - 1``, for every T the
    entry serves); where arrays swap, T's parity is guarded, one compile per parity."""
    report = dynamo.explain(fn, backend="eager").calls([make(T) for T in (12, 20, 31, 45)])
    assert report.compile_count == compiles, str(report)
    with listeners.listening(_Graphs()) as seen:
        compiled = dynamo.compile(fn, backend="eager")
        for T in (12, 20, 31):
            compiled(*make(T))
    loops = [n for g in seen.graphs for n in g.call_nodes() if n.target == "fori_loop"]
    assert loops and all(n.target == "fori_loop" for n in loops)
    if compiles == 2:
        assert hasattr(loops[-1].args[1], "graph_expr"), loops[-1].args   # T - 1 trips


def _dead_temporary(x):
    for _ in range(30):
        d = x * 0.5
        x = x + d
    return x


def _temporary_read_through_locals(x):
    for _ in range(30):
        d = x * 0.5
        x = x + d
    return x, locals()["d"]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_temporary_dead_after_the_loop_is_no_loop_output(backend):
    """``d`` is not read after the loop: the node does not hand back its last trip's
    value (so each trip's ``d`` dies within its trip); where the code reads its locals
    by name, the last trip's ``d`` is there, as in Python."""
    x = np.arange(6.0)
    report = dynamo.explain(_dead_temporary, backend=backend)(x)
    (loop,) = [n for g in report.graphs for n in g.call_nodes() if n.target == "fori_loop"]
    assert len(loop.meta["array"]) == 1          # x only, no temporary
    np.testing.assert_array_equal(dynamo.compile(_dead_temporary, backend=backend)(x),
                                  _dead_temporary(x))
    got = dynamo.compile(_temporary_read_through_locals, backend=backend)(x)
    want = _temporary_read_through_locals(x)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
