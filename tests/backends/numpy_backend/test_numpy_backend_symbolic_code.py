"""Size-generic code on the numpy backend (issue #14).

A graph with symbolic sizes runs as one static variant per size for its first
``GENERIC_AFTER`` sizes, then as one function generated for the symbolic graph
itself (``backend.generated_code``): direct NumPy calls that read the sizes at run
time, loop bodies as loops, no size baked in. Every program here is compiled once and
called over more sizes than there are variants (sizes 0 and 1 included, which are
entries of their own), each call compared with plain Python: results bit for bit,
dtypes and types, the arguments afterwards, a returned argument being that argument,
exceptions (type, message, and what the trips before wrote), and every warning with
its category, message, file and line, in order (``simplefilter("always")``), also
under ``np.errstate(all="raise")`` and ``np.seterrcall``.
"""

from __future__ import annotations

import logging
import re
import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend import sizes
from observe import calls_to
from test_numpy_never_wrong import Reports, identical

import dynamo

# More distinct sizes than GENERIC_AFTER static variants (the first is a static entry
# of its own, 0 and 1 too), so that most of them run the size-generic code; 12 again
# at the end runs its static variant.
SIZES = (12, 20, 31, 45, 64, 17, 100, 13, 29, 2, 3, 0, 1, 57, 12)


# ----------------------------------------------------------------------------- programs
def prefix_sum(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x


def prefix_sum_int8(x):                 # wraps around: a RuntimeWarning per overflow
    for i in range(1, len(x)):
        x[i] = x[i] + x[i - 1]
    return x


def stencil_time_loop(a, b, steps):
    for _ in range(steps):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a[1:-1] = 0.5 * (b[:-2] + b[2:])
    return a, b


def upwind(u, steps):
    for _ in range(steps):
        un = u.copy()
        u[1:-1, 1:-1] = (un[1:-1, 1:-1] - 0.1 * (un[1:-1, 1:-1] - un[1:-1, :-2])
                         - 0.1 * (un[1:-1, 1:-1] - un[:-2, 1:-1]))
    return u


def back_substitution(U, b):
    n = len(b)
    x = np.zeros_like(b)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - U[i, i + 1:] @ x[i + 1:]) / U[i, i]
    return x


def forward_substitution(L, b):
    x = np.zeros_like(b)
    for i in range(len(b)):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


def running_max(x):
    m = np.empty_like(x)
    m[0] = x[0]
    for i in range(1, len(x)):
        m[i] = np.maximum(m[i - 1], x[i])
    return m


def running_means(x):                   # a mean over a count that grows with the index
    out = np.empty_like(x)
    for i in range(1, len(x) + 1):
        out[i - 1] = x[:i].mean()
    return out


def window_sums(x):
    out = np.zeros(len(x) - 2)
    for i in range(len(x) - 2):
        out[i] = x[i:i + 3].sum()
    return out


def column_recurrence(A):
    for j in range(1, A.shape[1]):
        A[:, j] = A[:, j] + A[:, j - 1] * 0.5
    return A


def iir_filter_float32(x, a):           # a Python float times float32 scalars
    y = np.empty_like(x)
    y[0] = x[0]
    for i in range(1, len(x)):
        y[i] = a * y[i - 1] + x[i]
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


def log_of_differences(x):              # warns at the trips where x[i] <= x[i - 1]
    y = np.zeros_like(x)
    for i in range(1, len(x)):
        y[i] = np.log(x[i] - x[i - 1])
    return y


def divide_by_the_index(x):             # divides by zero at the trip i == 5
    for i in range(1, len(x)):
        x[i] = x[i - 1] / (x[i] - 5.0)
    return x


def softmax_rows(x):                    # no loop: a graph of symbolic shape
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm_rows(x):                  # means over a symbolic row length
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5)


def row_sums_then_scale(A):             # a reduction, then an in-place write per trip
    for i in range(1, A.shape[0]):
        A[i] = A[i] * 0.5 + A[i - 1].sum()
    return A


def integer_products(x):
    for i in range(1, len(x)):
        x[i] = (x[i] * x[i - 1]) % 1000
    return x


def half_precision_sum(x):              # float16 all through (dtype of the result)
    for i in range(1, len(x)):
        x[i] += x[i - 1] * np.float16(0.5)
    return x, x.sum()


def second_order(x):
    for i in range(2, len(x)):
        x[i] = x[i - 1] + 0.5 * x[i - 2]
    return x


def positives_scaled(x):                # a size the data decides, inside a symbolic one
    y = x[x > 0]
    return y * 2.0, y.sum(), np.cumsum(x)[-1:]


def two_sizes(x, y):                    # equal at the first calls, then not: no buffer
    a = np.exp(x) * 2.0                 # of one may be lent to the other
    b = np.exp(y) * 3.0
    return a.sum() + b.sum(), b[-1:] - 1.0


def _spd_upper(n):
    m = np.linspace(0.5, 1, n * n).reshape(n, n)
    return np.triu(m) + n * np.eye(n)


def _lower(n):
    return np.tril(np.linspace(0.5, 1, n * n).reshape(n, n)) + n * np.eye(n)


PROGRAMS = [
    ("prefix_sum", prefix_sum, lambda n: (np.linspace(0, 1, n),)),
    ("prefix_sum_int8", prefix_sum_int8, lambda n: (np.arange(n, dtype=np.int8) * 7,)),
    ("stencil_time_loop", stencil_time_loop,
     lambda n: (np.sin(np.arange(float(n))), np.zeros(n), 10 + n % 5)),
    ("upwind", upwind, lambda n: (np.linspace(0, 1, n * n).reshape(n, n), 9 + n % 4)),
    ("back_substitution", back_substitution,
     lambda n: (_spd_upper(n), np.linspace(-1, 1, n))),
    ("forward_substitution", forward_substitution,
     lambda n: (_lower(n), np.linspace(-1, 1, n))),
    ("running_max", running_max, lambda n: (np.sin(np.arange(float(n)) * 0.7),)),
    ("running_means", running_means, lambda n: (np.linspace(-3, 5, n) ** 3,)),
    ("window_sums", window_sums, lambda n: (np.arange(float(n)) ** 2,)),
    ("column_recurrence", column_recurrence,
     lambda n: (np.linspace(0, 1, 3 * n).reshape(3, n),)),
    ("iir_filter_float32", iir_filter_float32,
     lambda n: (np.cos(np.arange(n, dtype=np.float32)), 0.9)),
    ("thomas", thomas, lambda n: (np.full(n, -1.0), np.full(n, 4.0), np.full(n, -1.0),
                                  np.linspace(0, 1, n))),
    ("log_of_differences", log_of_differences,
     lambda n: (np.cos(np.arange(float(n)) * 0.9),)),
    ("divide_by_the_index", divide_by_the_index,
     lambda n: (np.arange(float(n)) + 0.5 * (np.arange(n) != 5),)),
    ("softmax_rows", softmax_rows,
     lambda n: (np.linspace(-2, 2, 7 * n, dtype=np.float32).reshape(n, 7),)),
    # (rows of n + 1: an empty row's "Mean of empty slice" names NumPy's np.mean, which
    # the graph's op is, where x.mean() names the program's line: not this issue's)
    ("layernorm_rows", layernorm_rows,
     lambda n: (np.cos(np.arange(3.0 * n + 3)).reshape(3, n + 1),)),
    ("row_sums_then_scale", row_sums_then_scale,
     lambda n: (np.linspace(0, 1, 4 * n).reshape(n, 4),)),
    ("integer_products", integer_products, lambda n: (np.arange(1, n + 1),)),
    ("half_precision_sum", half_precision_sum,
     lambda n: (np.linspace(0, 1, n).astype(np.float16),)),
    ("second_order", second_order, lambda n: (np.linspace(1, 2, n),)),
    ("positives_scaled", positives_scaled, lambda n: (np.sin(np.arange(float(n)) * 1.3),)),
    ("two_sizes", two_sizes, lambda n: (np.linspace(0, 1, n), np.linspace(-1, 0, n + n % 3))),
]


# ----------------------------------------------------------------------------- helpers
def observe(fn, args, errstate=None):
    """Everything one call shows: its result (or exception type and message), the
    arguments afterwards, each warning (category, message, file, line), errcall calls."""
    reports = Reports()
    old_call = np.seterrcall(reports)
    try:
        with warnings.catch_warnings(record=True) as caught, np.errstate(**(errstate or {})):
            warnings.simplefilter("always")
            try:
                result = fn(*args)
            except Exception as e:  # noqa: BLE001
                result = (type(e), str(e))
    finally:
        np.seterrcall(old_call)
    seen = [(w.category, str(w.message), w.filename, w.lineno) for w in caught]
    return result, seen, reports.calls


def _returned_arguments(result, args) -> list:
    """Positions of the arguments that ``result`` (or a tuple of results) is."""
    results = result if isinstance(result, tuple) else (result,)
    return [[i for i, a in enumerate(args) if r is a] for r in results]


def agree_over_sizes(fn, make, sizes_=SIZES, errstate=None, compiled=None):
    """``fn`` compiled once (numpy backend; or ``compiled``) and called over ``sizes_``,
    each call exactly what plain Python does; returns the ``PerSize`` runners it used."""
    compiled = compiled or dynamo.compile(fn, backend="numpy")
    with calls_to(sizes.PerSize.__call__, lambda frame: frame.f_locals["self"]) as runs:
        for n in sizes_:
            plain_args, compiled_args = make(n), make(n)
            want = observe(fn, plain_args, errstate)
            got = observe(compiled, compiled_args, errstate)
            identical(want[0], got[0], f"size {n}: result")
            identical(tuple(plain_args), tuple(compiled_args), f"size {n}: arguments")
            assert got[1] == want[1], f"size {n}: warnings {got[1]} != {want[1]}"
            assert got[2] == want[2], f"size {n}: errcall {got[2]} != {want[2]}"
            if not isinstance(want[0], tuple) or not isinstance(want[0][0], type):
                assert _returned_arguments(got[0], compiled_args) == \
                    _returned_arguments(want[0], plain_args), f"size {n}: identity"
    # a cached call runs a variant (or the generic code) with no frame of its runner's
    # (the dispatcher picks it: dynamo.dispatch.direct_graph_call): those ran too
    runs += [runner for cache in compiled._ctx.caches.values() for e in cache.entries
             if isinstance(runner := getattr(e.run, "__globals__", {}).get("___graph"),
                           sizes.PerSize)]
    return {id(r): r for r in runs}.values()


def assert_generic_code_ran(runners) -> None:
    """Some symbolic graph ran past its static variants, on the backend's generated
    code (direct NumPy calls), not the eager backend's ``ops.*`` calls."""
    generic = [r.generic for r in runners if r.generic is not None]
    assert generic, "no call ran the size-generic code"
    for fn in generic:
        src = fn.__dynamo_source__
        assert "ops." not in src, src


# ----------------------------------------------------------------------------- tests
@pytest.mark.parametrize("name,fn,make", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_generic_code_equals_python_at_every_size(name, fn, make):
    assert_generic_code_ran(agree_over_sizes(fn, make))


@pytest.mark.parametrize("name,fn,make", [p for p in PROGRAMS if p[0] in (
    "prefix_sum_int8", "log_of_differences", "divide_by_the_index", "thomas",
    "back_substitution")], ids=lambda v: v if isinstance(v, str) else "")
def test_floating_point_reports_raise_at_the_same_trip(name, fn, make):
    """Under ``np.errstate(all="raise")`` the first condition raises at its trip, with
    what the trips before wrote already written (the arguments are compared). (A call
    that raises compiles no variant: the sizes are first called without raising.)"""
    compiled = dynamo.compile(fn, backend="numpy")
    agree_over_sizes(fn, make, compiled=compiled)
    assert_generic_code_ran(agree_over_sizes(fn, make, errstate={"all": "raise"},
                                             compiled=compiled))


@pytest.mark.parametrize("name,fn,make", [p for p in PROGRAMS if p[0] in (
    "prefix_sum_int8", "log_of_differences", "divide_by_the_index")],
    ids=lambda v: v if isinstance(v, str) else "")
def test_errcall_sees_each_condition_in_order(name, fn, make):
    compiled = dynamo.compile(fn, backend="numpy")
    agree_over_sizes(fn, make, compiled=compiled)
    assert_generic_code_ran(agree_over_sizes(fn, make, errstate={"all": "call"},
                                             compiled=compiled))


def past_another_array(x):
    y = np.zeros(30)
    for i in range(len(x)):
        y[i] = x[i] * 2.0                   # IndexError at trip 30 once len(x) > 30
    return y


def raises_at_the_end(x):
    for i in range(1, len(x) + 2):
        x[i] += x[i - 1]                    # IndexError at i = len(x), x written before
    return x


@pytest.mark.parametrize("fn", [past_another_array, raises_at_the_end])
def test_index_errors_at_trip_k(fn):
    agree_over_sizes(fn, lambda n: (np.linspace(0, 1, n),),
                     (12, 20, 29, 30, 31, 45, 20, 33, 50, 64, 2, 0, 1, 40))


def test_generic_code_reads_sizes_at_run_time():
    """The size-generic prefix sum is a loop over direct indexing whose bounds are
    the graph's size input, not the sizes of the call that compiled it."""
    runners = agree_over_sizes(prefix_sum, lambda n: (np.linspace(0, 1, n),))
    (runner,) = [r for r in runners if r.generic is not None]
    src = runner.generic.__dynamo_source__
    assert "(s0 - 2)" in src, src
    # the statements, without the def line (its name is numbered) and the comments
    # (the program's file and line)
    body = "\n".join(line for line in src.splitlines()[1:]
                     if not line.strip().startswith("#"))
    for n in (57, 64, 100):     # sizes it ran, none of them in the code
        assert re.search(rf"\b{n}\b", body) is None, src


def test_generic_loop_variable_starts_at_a_size(caplog):
    """A size-generic body's loop variable absorbs the size its indices add
    (``x[trip + s0 - 2]``): each trip computes the indices a static variant does."""
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        assert_generic_code_ran(agree_over_sizes(
            back_substitution, lambda n: (_spd_upper(n), np.linspace(-1, 1, n))))
    sources = "\n".join(r.getMessage() for r in caplog.records)
    assert "for trip in range((s0 - 2), (s0 - 2) - trips, -1):" in sources, sources
    assert "x[(trip)] = (((b[(trip)]) - (_matmul((U[(trip), (trip + 1):]), " \
        "(x[(trip + 1):])))) / (U[(trip), (trip)]))" in sources, sources


def test_a_failing_generic_compile_runs_the_graph_op_by_op(caplog):
    """Should generating the size-generic code fail, new sizes run the eager code."""
    def broken():
        raise RuntimeError("no generic code today")

    def backend(graph, inputs, options=None):
        from dynamo.backends.numpy_backend import numpy_backend
        return sizes.PerSize(graph, lambda g, i: numpy_backend(g, i), broken)
    backend.dynamic_shapes = True

    fast = dynamo.compile(prefix_sum, backend=backend)
    for n in SIZES:
        x = np.linspace(0, 1, n)
        identical(fast(x.copy()), prefix_sum(x.copy()), f"size {n}")
    assert any("size-generic code" in r.getMessage() for r in caplog.records)
