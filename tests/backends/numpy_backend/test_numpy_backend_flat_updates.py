"""A stencil's value that updates a window in place (``u[1:-1, 1:-1] += dt * lap``) runs
as 1-D passes (``backends/numpy_backend/flat.py``, ``_updates_with``).

The value goes through the flat pass into its own buffer; the in-place op itself
(``np.add(u[1:-1, 1:-1], value, out=u[1:-1, 1:-1])``) stays eager's op over eager's
views, after the value is whole: the windows of ``u`` the stencil reads are read before
``u`` is written, even where they overlap the updated window. Every program runs
compiled and eager on copies of its arguments in several layouts: results, arguments
afterwards and warnings must be identical.
"""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_numpy_backend_flat import _sources
from test_numpy_backend_inplace import LAYOUTS, differential

import dynamo

ALL_LAYOUTS = tuple(LAYOUTS)
THREADED = {"threads": 2, "min_threaded_elements": 0}


def heat(T, kappa=1.0, dt=0.2):
    """tests/realworld/kernel_programs.py's heat_2d: a named Laplacian, added in place."""
    for _ in range(3):
        lap = T[2:, 1:-1] + T[:-2, 1:-1] + T[1:-1, 2:] + T[1:-1, :-2] - 4.0 * T[1:-1, 1:-1]
        T[1:-1, 1:-1] += kappa * dt * lap
    return T


def upwind(u, c=0.3):
    """The value reads windows that overlap the one it updates (rows above and below)."""
    for _ in range(3):
        u[1:-1, 1:-1] -= c * (u[2:, 1:-1] - u[:-2, 1:-1])
    return u


def scaled(u, v):
    """``*=`` and ``/=`` of another array's window, the value from both arrays."""
    u[1:-1, 1:-1] *= 0.5 + 0.25 * (v[2:, 1:-1] + v[1:-1, :-2])
    u[1:-1, 1:-1] /= 1.5 + 0.125 * (u[:-2, 1:-1] * v[1:-1, 2:])
    return u


def rows_of_another_length(U, flux):
    """The value's rows (flux's) are not the updated array's: the update cannot run as
    one 1-D pass, and the value alone gains too little from one (corpus 4's Euler
    equations, Rusanov fluxes): eager's ops."""
    for _ in range(2):
        U[:, 1:-1] -= 0.01 * (flux[:, 1:] - flux[:, :-1])
    return U


def also_returned(u):
    """The value is read by the update and returned: no flat pass (its strided view
    of a recycled buffer would escape)."""
    d = 0.5 * (u[2:, 1:-1] - u[:-2, 1:-1])
    u[1:-1, 1:-1] += d
    return d


def whole_arrays(W, g):
    """An optimizer's update of whole arrays: no stencil, no flat pass."""
    for _ in range(2):
        W -= 0.1 * g / (np.sqrt(np.abs(g)) + 1e-8)
    return W


def grid(h, w, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, (h, w)).astype(dtype)


@pytest.mark.parametrize("fn", [heat, upwind])
def test_an_update_in_place_takes_the_flat_pass(fn, caplog):
    src = _sources(fn, [grid(67, 129)], caplog)
    # the value in 1-D passes, then the update as one 1-D pass over the window's range
    assert "def _flat" in src and ".reshape(-1)" in src, src
    assert "def _update" in src and "_o = _t[" in src, src
    assert "def _flat" not in _sources(also_returned, [grid(67, 129)], caplog)
    assert "def _flat" not in _sources(whole_arrays, [grid(67, 129), grid(67, 129, seed=1)],
                                       caplog)


@pytest.mark.parametrize("options", [{}, THREADED], ids=["one thread", "threads"])
@pytest.mark.parametrize("fn, nargs", [(heat, 1), (upwind, 1), (scaled, 2),
                                       (also_returned, 1), (whole_arrays, 2)])
@pytest.mark.parametrize("shape", [(67, 129), (100, 41), (190, 203)])
def test_updates_are_bit_identical_in_every_layout(fn, nargs, shape, options):
    args = [grid(*shape, seed=i) for i in range(nargs)]
    differential(fn, *args, layouts=ALL_LAYOUTS, graphs=None, options=options)


def test_rows_of_another_length_keep_eagers_update(caplog):
    U, flux = grid(40, 300), grid(40, 299, seed=1)
    src = _sources(rows_of_another_length, [U, flux], caplog)
    assert "def _flat" not in src and "def _update" not in src, src
    differential(rows_of_another_length, U, flux, layouts=ALL_LAYOUTS, graphs=None)
    differential(rows_of_another_length, U, flux, graphs=None, options=THREADED)


def test_float32_and_integer_updates():
    differential(heat, grid(61, 77, np.float32), graphs=None)
    a = (grid(61, 77) * 100).astype(np.int64)

    def smooth(A):
        A[1:-1, 1:-1] += (A[:-2, 1:-1] + A[2:, 1:-1] - 2 * A[1:-1, 1:-1]) // 4
        A[1:-1, 1:-1] //= (A[1:-1, :-2] % 7) + 1
        return A
    differential(smooth, a, graphs=None)


def test_a_condition_only_the_boundary_columns_would_meet_is_not_reported():
    A = grid(64, 64)
    A[:, 0] = A[:, -1] = 1.7e308      # the gaps' sums overflow; the interior's do not

    def step(A):
        A[1:-1, 1:-1] += 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, 1:-1] + A[1:-1, 1:-1])
        return A
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        differential(step, A, graphs=None)
        with np.errstate(all="raise"):
            differential(step, A, graphs=None)


@pytest.mark.parametrize("op, value", [
    ("+=", "1.5 * A[:-2, 1:-1] + 0.25 * A[2:, 1:-1]"),
    ("-=", "0.25 * A[2:, 1:-1] - 1.5 * A[:-2, 1:-1]"),
    ("*=", "1.5 * A[:-2, 1:-1] + 0.25 * A[2:, 1:-1]"),
    ("/=", "1.0 / (A[:-2, 1:-1] + 2.0)")])
def test_the_update_of_the_gaps_meets_no_condition(op, value, caplog):
    """The update's 1-D pass also runs over the gaps: the array's boundary columns and
    the value's unused elements. Here the value is finite everywhere (its gaps too:
    1.75e308, -1.25e308, 1e-308), but boundary op value would overflow: eager never
    computes it, and the pass sets the gaps to 0 and 1 first (the columns back after)."""
    A = grid(64, 64) * 1e-3
    A[:, 0] = A[:, -1] = 1.0e308
    scope = {}
    exec(f"def step(A):\n    A[1:-1, 1:-1] {op} {value}\n    return A\n", {}, scope)
    assert "def _update" in _sources(scope["step"], [A], caplog)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        differential(scope["step"], A, graphs=None)
        with np.errstate(all="raise"):
            differential(scope["step"], A, graphs=None)


@pytest.mark.parametrize("setting", ["warn", "raise", "ignore"])
@pytest.mark.parametrize("where", ["value", "update"])
def test_a_real_overflow_is_eagers(setting, where):
    """An overflow in the value (the flat pass) or in the in-place op itself: warned,
    raised or ignored as eager, the array left as eager leaves it."""
    A = grid(64, 64)
    if where == "value":
        A[10, 10] = A[12, 10] = 1.7e308     # 1.7e308 + 1.7e308 overflows in the value
    else:
        A[10:12, 10] = 1.5e308              # 1.5e308 + 0.75e308 overflows in the update

    def step(A):
        A[1:-1, 1:-1] += 0.5 * (A[:-2, 1:-1] + A[2:, 1:-1]) - A[1:-1, :-2] * 0.0
        return A
    with np.errstate(all=setting):
        differential(step, A, graphs=None)


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(h=st.integers(1, 120), w=st.integers(1, 120), top=st.integers(0, 3),
       left=st.integers(0, 3), dy=st.integers(-1, 1), dx=st.integers(-1, 1),
       op=st.sampled_from(["+=", "-=", "*=", "/="]),
       dtype=st.sampled_from([np.float64, np.float32]))
def test_any_window_updated_by_any_overlapping_stencil(h, w, top, left, dy, dx, op, dtype):
    """A window at any offset of a grid of any size, updated in place by a stencil of
    the same grid whose windows are shifted by (dy, dx) from it: every overlap (the
    flat pass and the 1-D update from 2048 elements on, where the gaps are at most
    half)."""
    H, W = h + 2 + top, w + 2 + left
    y, x = top + 1, left + 1
    me = (slice(y, y + h), slice(x, x + w))
    near = (slice(y + dy, y + dy + h), slice(x + dx, x + dx + w))
    far = (slice(y - dy, y - dy + h), slice(x - dx, x - dx + w))
    scope = {}
    exec(f"def step(A):\n    A[me] {op} 1.25 + 0.5 * (A[near] * 0.75 - A[far] / 3)\n"
         f"    return A\n", {"me": me, "near": near, "far": far}, scope)
    differential(scope["step"], grid(H, W, dtype), graphs=None)


def jacobi_into(A, B):
    """Flat passes written straight into ``B``'s window (flat.py's direct write)."""
    for _ in range(2):
        B[1:-1, 1:-1] = 0.25 * (A[2:, 1:-1] + A[:-2, 1:-1] + A[1:-1, 2:] + A[1:-1, :-2])
        A, B = B, A
    return A


@pytest.mark.parametrize("fn, nargs", [(heat, 1), (jacobi_into, 2)])
def test_another_thread_never_sees_the_gaps_changed(fn, nargs, caplog):
    # the gaps hold the array's own boundary columns during a pass: while another
    # Python thread runs (NumPy's loops let it read them), the pass keeps off them
    import threading

    rng = np.random.default_rng(5)
    args = [rng.random((300, 300)) for _ in range(nargs)]
    src = _sources(fn, args, caplog)
    assert "alone()" in src, src
    compiled = dynamo.compile(fn, backend="numpy")
    compiled(*[a.copy() for a in args])                 # compiled alone: takes the gaps
    arrays = [a.copy() for a in args]
    edges = [(a[:, 0].copy(), a[:, -1].copy()) for a in arrays]
    seen, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            for a, (left, right) in zip(arrays, edges):
                if not (np.array_equal(a[:, 0], left) and np.array_equal(a[:, -1], right)):
                    seen.append(True)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for _ in range(30):
            compiled(*arrays)
    finally:
        stop.set()
        watcher.join()
    assert not seen
    expected = [a.copy() for a in args]
    for _ in range(30):
        fn(*expected)
    for a, b in zip(arrays, expected):
        np.testing.assert_array_equal(a, b)


def _errcall(read):
    old, olderr = np.seterrcall(lambda kind, flag: read()), np.seterr(all="call")
    return lambda: (np.seterr(**olderr), np.seterrcall(old))


def _errlog(read):
    class Log:
        def write(self, text):
            read()
    old, olderr = np.seterrcall(Log()), np.seterr(all="log")
    return lambda: (np.seterr(**olderr), np.seterrcall(old))


def _showwarning(read):
    cm = warnings.catch_warnings()
    cm.__enter__()
    warnings.simplefilter("always")
    warnings.showwarning = lambda *args, **kwargs: read()
    return lambda: cm.__exit__(None, None, None)


def _filter_matcher(read):
    class Matcher:              # a filter's message matcher: the C code calls match()
        def match(self, text):
            read()
    cm = warnings.catch_warnings(record=True)
    cm.__enter__()
    warnings.filters.insert(0, ("error", Matcher(), RuntimeWarning, None, 0))
    return lambda: cm.__exit__(None, None, None)


def divide_update(u, v):
    u[1:-1, 1:-1] /= 0.5 * (v[:-2, 1:-1] - v[2:, 1:-1])
    return u


@pytest.mark.parametrize("install", [_errcall, _errlog, _showwarning, _filter_matcher])
def test_program_code_inside_the_update_never_sees_the_gaps(install):
    # np.seterrcall's function, a program's showwarning or filter runs inside the
    # update's op (a division by zero): it must see u's boundary columns, not the
    # zeros the 1-D pass holds in its gaps (tests/hostile/prog_round21_flat.py
    # edges_seen_by_*)
    def run(fn):
        u = grid(200, 200) + 2
        v = grid(200, 200, seed=1)
        v[3] = v[1]                             # a zero divisor on the window's row 1
        seen = []
        undo = install(lambda: seen.append((u[:, 0].sum(), u[:, -1].sum())))
        try:
            fn(u, v)
        finally:
            undo()
        return seen, u

    compiled = dynamo.compile(divide_update, backend="numpy")
    run(compiled)                               # compiled (and this first call traced)
    (want, u_eager), (got, u_compiled) = run(divide_update), run(compiled)
    assert want and got == want
    np.testing.assert_array_equal(u_compiled, u_eager)
