"""Loop nodes whose body reads the index, over symbolic sizes (issue #14).

``for i in range(1, len(x)): x[i] += x[i - 1]`` called with x of 12, 20, 31, 45 and
64 elements compiles twice (the first size static, then one entry for every length),
not once per length: the body's uses of the index are checked for every trip and every
size the entry serves (``LoopScope.fit`` in dynamo/translator/loops.py), with guards
where they hold for the example sizes only.

Every program runs on both CPU backends over at least five sizes (twice each: the
second call runs the cached entry, and on the numpy backend its static variant),
with results, dtypes and the arguments afterwards equal to plain Python's, and at
most two compiles. The hostile programs (empty loops, clamped or wrapping slices, an
index out of bounds at some trip, sizes 0 and 1) assert equality with Python only.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from harness import same
from script_modules import load_script

import dynamo
from dynamo import listeners

BACKENDS = ("eager", "numpy")
SIZES = (12, 20, 31, 45, 64, 20, 100, 13)   # (numpy: 4 static variants, then generic)

_bench = load_script("bench_loops")


# ----------------------------------------------------------------------------- programs
def prefix_sum(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x


def prefix_sum_index_after(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x, i


def back_substitution(U, b):
    n = b.shape[0]
    x = np.zeros_like(b)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


def forward_substitution(L, b):
    n = len(b)
    x = np.zeros_like(b)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def stencil(x):
    y = np.zeros_like(x)
    for i in range(1, len(x) - 1):
        y[i] = x[i - 1] + x[i + 1]
    return y


def running_max(x):
    m = np.empty_like(x)
    m[0] = x[0]
    for i in range(1, len(x)):
        m[i] = np.maximum(m[i - 1], x[i])
    return m


def suffix_sum(x):
    for i in range(len(x) - 2, -1, -1):
        x[i] += x[i + 1]
    return x


def window_sums(x):
    out = np.zeros(len(x) - 2)
    for i in range(len(x) - 2):
        out[i] = x[i:i + 3].sum()
    return out


def row_recurrence(A):
    for i in range(1, A.shape[0]):
        A[i] += 0.5 * A[i - 1]
    return A


def column_recurrence(A):
    for j in range(1, A.shape[1]):
        A[:, j] = A[:, j] + A[:, j - 1] * 0.5
    return A


def iir_filter(x, a):
    y = np.empty_like(x)
    y[0] = x[0]
    for i in range(1, len(x)):
        y[i] = a * y[i - 1] + x[i]
    return y


def second_order(x):
    for i in range(2, len(x)):
        x[i] = x[i - 1] + 0.5 * x[i - 2]
    return x


def suffix_max(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = x[i:].max()
    return out


def running_means(x):
    out = np.empty_like(x)
    for i in range(1, len(x) + 1):
        out[i - 1] = x[:i].mean()
    return out


def index_as_operand(x):
    for i in range(len(x) - 2, -1, -1):
        x[i] = x[i + 1] * 0.5 + i
    return x


def differences_backwards(x):
    for i in range(len(x) - 1, 0, -1):
        x[i] -= x[i - 1]
    return x


def gauss_seidel(u, f):
    for i in range(1, len(u) - 1):
        u[i] = 0.5 * (u[i - 1] + u[i + 1] - 0.01 * f[i])
    return u


def horner(c, x):
    y = np.zeros_like(x) + c[0]
    for i in range(1, len(c)):
        y = y * x + c[i]
    return y


def thomas(a, b, c, d):
    n = len(d)
    b, d = b.copy(), d.copy()
    for i in range(1, n):
        w = a[i] / b[i - 1]
        b[i] -= w * c[i - 1]
        d[i] -= w * d[i - 1]
    x = np.zeros(n)
    x[n - 1] = d[n - 1] / b[n - 1]
    for i in range(n - 2, -1, -1):
        x[i] = (d[i] - c[i] * x[i + 1]) / b[i]
    return x


def integer_products(x):
    for i in range(1, len(x)):
        x[i] = (x[i] * x[i - 1]) % 1000
    return x


def squares_in_place(x):
    for i in range(len(x)):
        x[i] = x[i] * x[i]
    return x


def wrapped_neighbour(x):
    for i in range(len(x)):
        x[i] += 0.5 * x[i - 1]        # x[-1] at i = 0: the last element, as in Python
    return x


def read_trip_count(x, T):
    for i in range(T):
        x[i] += x[i - 1]
    return x, i


def gram_schmidt(A):
    Q = np.zeros_like(A)
    for j in range(A.shape[1]):
        v = A[:, j] - Q[:, :j] @ (Q[:, :j].T @ A[:, j])
        Q[:, j] = v / np.linalg.norm(v)
    return Q


def _spd(n):
    m = np.linspace(0, 1, n * n).reshape(n, n)
    return m @ m.T + n * np.eye(n)


def _lower(n):
    return np.tril(np.linspace(0.5, 1, n * n).reshape(n, n)) + n * np.eye(n)


PROGRAMS = [
    ("prefix_sum", prefix_sum, lambda n: (np.linspace(0, 1, n),)),
    ("prefix_sum_index_after", prefix_sum_index_after, lambda n: (np.linspace(0, 1, n),)),
    ("back_substitution", back_substitution, lambda n: (_lower(n).T.copy(),
                                                        np.linspace(-1, 1, n))),
    ("forward_substitution", forward_substitution, lambda n: (_lower(n),
                                                              np.linspace(-1, 1, n))),
    ("bench_forward_substitution", _bench.forward_substitution,
     lambda n: (_lower(n), np.linspace(-1, 1, n))),
    ("stencil", stencil, lambda n: (np.sin(np.arange(float(n))),)),
    ("running_max", running_max, lambda n: (np.sin(np.arange(float(n)) * 0.7),)),
    ("suffix_sum", suffix_sum, lambda n: (np.linspace(0, 1, n),)),
    ("window_sums", window_sums, lambda n: (np.arange(float(n)) ** 2,)),
    ("row_recurrence", row_recurrence, lambda n: (np.linspace(0, 1, 4 * n).reshape(n, 4),)),
    ("column_recurrence", column_recurrence,
     lambda n: (np.linspace(0, 1, 3 * n).reshape(3, n),)),
    ("iir_filter", iir_filter, lambda n: (np.cos(np.arange(float(n))), 0.9)),
    ("second_order", second_order, lambda n: (np.linspace(1, 2, n),)),
    ("suffix_max", suffix_max, lambda n: (np.sin(np.arange(float(n))),)),
    ("running_means", running_means, lambda n: (np.linspace(-3, 5, n) ** 3,)),
    ("index_as_operand", index_as_operand, lambda n: (np.linspace(0, 1, n),)),
    ("differences_backwards", differences_backwards, lambda n: (np.arange(float(n)) ** 2,)),
    ("gauss_seidel", gauss_seidel, lambda n: (np.linspace(0, 1, n), np.ones(n))),
    ("horner", horner, lambda n: (np.linspace(1, 0, n), np.linspace(-1, 1, 7))),
    ("thomas", thomas, lambda n: (np.full(n, -1.0), np.full(n, 4.0), np.full(n, -1.0),
                                  np.linspace(0, 1, n))),
    ("integer_products", integer_products, lambda n: (np.arange(1, n + 1),)),
    ("squares_in_place", squares_in_place, lambda n: (np.linspace(-1, 1, n),)),
    ("wrapped_neighbour", wrapped_neighbour, lambda n: (np.linspace(0, 1, n),)),
    ("read_trip_count", read_trip_count, lambda n: (np.linspace(0, 1, 128), n)),
    ("cholesky", _bench.cholesky, lambda n: (_spd(n),)),
    ("gram_schmidt", gram_schmidt, lambda n: (np.eye(n + 2, n) * 3 +
                                              np.linspace(0, 1, (n + 2) * n).reshape(n + 2, n),)),
]


class _Graphs:
    def __init__(self):
        self.graphs = []

    def on_graph(self, graph, ctx):
        self.graphs.append(graph)


def _calls(fn, make, backend, sizes):
    """Call ``fn`` compiled over ``sizes`` (one cache, explain's), each result equal to
    plain Python's; (the explain report, the graphs compiled)."""
    with listeners.listening(_Graphs()) as seen, \
            dynamo.explain(fn, backend=backend) as compiled:
        for n in sizes:
            args = make(n)
            plain_args, compiled_args = copy.deepcopy(args), copy.deepcopy(args)
            try:
                want = fn(*plain_args)
            except Exception as e:  # noqa: BLE001
                want = e
            try:
                got = compiled(*compiled_args)
            except Exception as e:  # noqa: BLE001
                got = e
            if isinstance(want, Exception):
                assert type(got) is type(want) and str(got) == str(want), (n, got, want)
            else:
                same(want, got, rtol=1e-12, path=f"size {n}: result")
            same(plain_args, compiled_args, rtol=1e-12, path=f"size {n}: arguments")
    return compiled.report, seen.graphs


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_one_compile_for_every_size(name, fn, make, backend):
    """Results equal Python's at every size; two compiles in all (the first size
    static, then one symbolic entry), the symbolic one with a loop node."""
    report, graphs = _calls(fn, make, backend, SIZES)
    assert report.compile_count <= 2, str(report)
    assert report.graph_break_count == 0, str(report)
    last = graphs[-1]
    assert any(n.target == "fori_loop" for n in last.call_nodes()), str(report)


# ----------------------------------------------------------------------------- hostile
def clamped_window(x):
    y = np.zeros(len(x))
    for i in range(len(x)):
        y[i] = x[i:i + 3].sum()             # 2, then 1 element at the end: clamped
    return y


def growing_past_the_end(x):
    t = 0.0
    for i in range(1, len(x) + 5):
        t = t + x[:i].sum()                 # x[:i] stops growing at len(x)
    return t


def shrinking_to_nothing(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = x[i:len(x) - 3].sum()      # empty (clamped) for the last three
    return out


def raises_at_the_end(x):
    for i in range(1, len(x) + 2):
        x[i] += x[i - 1]                    # IndexError at i = len(x), x written before
    return x


def past_another_array(x):
    y = np.zeros(30)
    for i in range(len(x)):
        y[i] = x[i] * 2.0                   # IndexError once len(x) > 30
    return y


def wrapping_slice(x):
    y = np.zeros(len(x))
    for i in range(len(x)):
        y[i] = x[i - 2:i + 1].sum()         # x[-2:1] and x[-1:2] are empty
    return y


def two_unrelated_sizes(x, y):
    for i in range(len(x)):
        y[i] = x[i] + 1.0                   # in bounds while len(x) <= len(y)
    return y


def step_of_two(x):
    for i in range(len(x) - 1, 0, -2):
        x[i] -= x[i - 1]
    return x


def index_after_an_empty_loop(x):
    i = -1
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x, i


def trip_count_past_the_array(x, T):
    for i in range(T):
        x[i] = x[i] * 0.5 + i
    return x


def from_the_end(x):
    y = np.zeros(len(x))
    for i in range(1, len(x)):
        y[i] = x[-i] - x[len(x) - i - 1]    # a negative position and its positive twin
    return y


def twice_the_index(x):
    y = np.zeros(len(x))
    for i in range(len(x)):
        y[i] = x[2 * i]                     # IndexError half way
    return y


def size_read_by_the_index(x):
    for i in range(1, len(x)):
        x[i] = x[i - 1] * 0.5 + len(x) - i  # the index and the size, as numbers
    return x


HOSTILE = [
    ("prefix_sum_small", prefix_sum_index_after, lambda n: (np.linspace(0, 1, n),),
     (12, 20, 0, 1, 2, 3, 9, 10, 11, 31)),
    ("stencil_small", stencil, lambda n: (np.sin(np.arange(float(n))),),
     (12, 20, 0, 1, 2, 3, 4, 10, 11, 12)),
    ("back_substitution_small", back_substitution, lambda n: (_lower(n).T.copy(),
                                                              np.linspace(-1, 1, n)),
     (12, 20, 1, 2, 5, 9, 10, 15)),
    ("clamped_window", clamped_window, lambda n: (np.arange(float(n)),), (12, 20, 31, 2, 45)),
    ("growing_past_the_end", growing_past_the_end, lambda n: (np.arange(float(n)),),
     (12, 20, 31, 3, 45)),
    ("shrinking_to_nothing", shrinking_to_nothing, lambda n: (np.arange(float(n)),),
     (12, 20, 31, 2, 45)),
    ("raises_at_the_end", raises_at_the_end, lambda n: (np.linspace(0, 1, n),),
     (12, 20, 31, 45)),
    ("past_another_array", past_another_array, lambda n: (np.linspace(0, 1, n),),
     (12, 20, 29, 30, 31, 45, 20)),
    ("wrapping_slice", wrapping_slice, lambda n: (np.arange(float(n)),), (12, 20, 31, 45)),
    ("two_unrelated_sizes", two_unrelated_sizes,
     lambda n: (np.arange(float(n)), np.zeros(n + n % 7)), (12, 20, 31, 45, 14)),
    ("step_of_two", step_of_two, lambda n: (np.arange(float(n)) ** 2,), (12, 20, 31, 45)),
    ("index_after_an_empty_loop", index_after_an_empty_loop,
     lambda n: (np.linspace(0, 1, n),), (12, 20, 1, 0, 31)),
    ("trip_count_past_the_array", trip_count_past_the_array,
     lambda n: (np.linspace(0, 1, 20), n), (12, 15, 19, 20, 21, 30, 12)),
    ("from_the_end", from_the_end, lambda n: (np.arange(float(n)) ** 2,), (12, 20, 31, 45)),
    ("twice_the_index", twice_the_index, lambda n: (np.arange(float(n)),), (12, 20, 31)),
    ("size_read_by_the_index", size_read_by_the_index, lambda n: (np.ones(n),),
     (12, 20, 31, 45, 2, 1)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,make,sizes", HOSTILE, ids=[p[0] for p in HOSTILE])
def test_hostile_sizes_match_python(name, fn, make, sizes, backend):
    """Empty and short loops, slices that clamp or wrap, an index out of bounds at
    some trip or some size: results, exceptions and arguments as in Python."""
    _calls(fn, make, backend, sizes)


def test_the_bounds_of_another_array_are_a_guard():
    """``y[i]`` for ``i`` up to ``len(x) - 1`` into a ``y`` of 30 elements: one entry
    guarded ``len(x) <= 30`` (a decision, not a pin); a longer ``x`` recompiles, and
    raises IndexError as Python does."""
    report, graphs = _calls(past_another_array, lambda n: (np.linspace(0, 1, n),),
                            "eager", (12, 20, 25, 30, 17))
    assert report.compile_count == 2, str(report)
    assert "-(x.shape[0]) + 30 >= 0" in str(report), str(report)
    assert any(n.target == "fori_loop" for n in graphs[-1].call_nodes())


def test_a_size_that_only_fits_unrolled_is_not_guessed(caplog):
    """A slice clamped at the end for some trips is no loop node: the refusal is
    logged, and every size still matches Python."""
    with caplog.at_level("DEBUG", logger="dynamo.loops"):
        report, graphs = _calls(clamped_window, lambda n: (np.arange(float(n)),),
                                "eager", (12, 20))
    assert not any(n.target == "fori_loop" for g in graphs for n in g.call_nodes())
    assert "not an affine function of the index" in caplog.text
