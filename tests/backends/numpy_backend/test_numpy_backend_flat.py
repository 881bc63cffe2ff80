"""Stencils over shifted 2-D slices as 1-D passes (``backends/numpy_backend/flat.py``).

Every program runs compiled (``backend="numpy"``) and eager on its own copies of the
arguments, in several memory layouts (C, Fortran, reversed, strided, a window of a
larger array, axes swapped): the results must be bit-identical (values, dtype, shape,
strides), the arguments afterwards too, and the warnings the same. The flat pass must
actually run where it applies (the generated source says so), and fall back to eager's
ops where the sliced array is not C-contiguous.
"""

import logging
import tracemalloc
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_numpy_backend_inplace import LAYOUTS, differential

import dynamo

ALL_LAYOUTS = tuple(LAYOUTS)
# the 1-D range cut into pieces that two threads share (flat.CHUNK: at least 2 pieces)
THREADED = {"threads": 2, "min_threaded_elements": 0}


def jacobi(A, B):
    for _ in range(4):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[:-2, 1:-1] + A[2:, 1:-1]
                               + A[1:-1, :-2] + A[1:-1, 2:])
        A, B = B, A
    return A, B


def in_place(A):
    """Source and destination are one array: eager computes the whole right-hand side
    before it writes."""
    for _ in range(3):
        A[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return A


def cavity_like(u, v, dt=0.001, dx=0.05):
    """Two source arrays, a copy made in the function, mixed ops and scalars."""
    for _ in range(3):
        un = u.copy()
        u[1:-1, 1:-1] = (un[1:-1, 1:-1]
                         - un[1:-1, 1:-1] * dt / dx * (un[1:-1, 1:-1] - un[1:-1, :-2])
                         - v[1:-1, 1:-1] * dt / dx * (un[1:-1, 1:-1] - un[:-2, 1:-1]))
    return u


def value_also_returned(A, B):
    """The stencil's value is read by more than the write: it is returned as well."""
    t = 0.5 * (A[1:-1, 2:] - A[1:-1, :-2])
    B[1:-1, 1:-1] = t
    return t * 2


def _sources(fn, args, caplog, options=None):
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="dynamo.backend"):
        dynamo.reset()
        dynamo.compile(fn, backend="numpy", options=options)(*[a.copy() for a in args])
        dynamo.reset()
    return "\n".join(r.getMessage() for r in caplog.records if "def " in r.getMessage())


def grid(h, w, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, (h, w)).astype(dtype)


@pytest.mark.parametrize("options", [{}, THREADED], ids=["one thread", "threads"])
@pytest.mark.parametrize("shape", [(67, 129), (100, 41), (2050, 3), (45, 46), (9, 9),
                                   (190, 203)])
def test_jacobi_is_bit_identical_in_every_layout(shape, options):
    differential(jacobi, grid(*shape), grid(*shape, seed=1), layouts=ALL_LAYOUTS,
                 options=options)


@pytest.mark.parametrize("fn, nargs", [(in_place, 1), (cavity_like, 2),
                                       (value_also_returned, 2)])
def test_aliasing_copies_and_escaping_values_keep_eagers_semantics(fn, nargs):
    args = [grid(53, 71, seed=i) for i in range(nargs)]
    differential(fn, *args, layouts=ALL_LAYOUTS, graphs=None)
    differential(fn, *args, graphs=None, options=THREADED)


def test_the_flat_pass_runs_where_it_applies(caplog):
    src = _sources(jacobi, [grid(67, 129), grid(67, 129)], caplog)
    assert "def _flat" in src and ".reshape(-1)" in src and "_run(" not in src, src
    src = _sources(jacobi, [grid(67, 129), grid(67, 129)], caplog, THREADED)
    assert "def _flat" in src and "_run(_block, 2, " in src, src
    # too small for it, a value that escapes: no flat pass
    assert "def _flat" not in _sources(jacobi, [grid(9, 9), grid(9, 9)], caplog)
    assert "def _flat" not in _sources(value_also_returned,
                                       [grid(67, 129), grid(67, 129)], caplog)


def test_float32_and_integer_grids():
    differential(jacobi, grid(61, 77, np.float32), grid(61, 77, np.float32, seed=1))
    a = (grid(61, 77) * 100).astype(np.int64)

    def smooth(A, B):
        B[1:-1, 1:-1] = (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:]) // 4
        return B
    differential(smooth, a, a.copy() * 0)


def test_a_condition_only_the_boundary_columns_would_meet_is_not_reported():
    """The gaps between rows hold the boundary columns: a flat pass computes sums over
    them that eager never computes. An overflow there must not reach the caller."""
    A = grid(64, 64)
    A[:, 0] = A[:, -1] = 1.7e308         # boundary columns only: interior sums are finite
    B = np.zeros_like(A)

    def step(A, B):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, 1:-1] + A[1:-1, 1:-1])
        return B
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        differential(step, A, B)
        with np.errstate(all="raise"):
            differential(step, A, B)


@pytest.mark.parametrize("options", [{}, {"rerun_on_error": False}])
def test_an_exception_only_the_gaps_would_raise_is_not_raised(options):
    """An integer power raises ValueError for a negative exponent: here only in the
    boundary columns, which eager never raises to a power."""
    A = (grid(64, 64) * 10).astype(np.int64) % 3 + 1
    A[:, 0] = A[:, -1] = -1

    def step(A, B):
        B[1:-1, 1:-1] = A[1:-1, 1:-1] ** A[1:-1, 1:-1] + A[1:-1, :-2]
        return B
    differential(step, A, A.copy(), options=options)


def test_a_real_overflow_warns_as_eager():
    A = grid(64, 64)
    A[10, 10] = 1.7e308
    differential(jacobi, A, grid(64, 64, seed=1))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(h=st.integers(1, 70), w=st.integers(1, 70), top=st.integers(0, 3),
       left=st.integers(0, 3), dtype=st.sampled_from([np.float64, np.float32]))
def test_any_window_of_any_grid(h, w, top, left, dtype):
    """Windows at any offset of grids of any size (odd, thin, smaller than the flat
    pass's minimum): a 3x3 weighted stencil into another array's window."""
    H, W = h + 2 + top, w + 2 + left

    def step(A, B):
        B[top + 1:top + 1 + h, left + 1:left + 1 + w] = (
            A[top:top + h, left + 1:left + 1 + w] * 0.3
            + A[top + 2:top + 2 + h, left + 1:left + 1 + w] * 0.3
            - A[top + 1:top + 1 + h, left:left + w] / 3
            + A[top + 1:top + 1 + h, left + 2:left + 2 + w])
        return B
    differential(step, grid(H, W, dtype), grid(H, W, dtype, seed=1), graphs=None)


def stepped(A, B):
    B[1:-1:2, 1:-1] = A[:-2:2, 1:-1] + A[2::2, 1:-1] * 0.5
    return B


def broadcast_row(A, B, r):
    B[1:-1, 1:-1] = A[1:-1, 1:-1] * r + A[:-2, 1:-1]
    return B


@pytest.mark.parametrize("fn, extra", [(stepped, ()), (broadcast_row, (np.arange(98.0),))])
def test_stepped_slices_and_broadcast_operands_keep_the_plain_path(fn, extra, caplog):
    args = [grid(100, 100), grid(100, 100, seed=1), *extra]
    assert "def _flat" not in _sources(fn, args, caplog)
    differential(fn, *args, layouts=ALL_LAYOUTS)


# ---------------------------------------------- the last op writes into the setitem's array

# (windows of flat.MIN_DIRECT_ELEMENTS or more elements: 188 x 201)

def read_between(A, B):
    """B's old values are read after the stencil and before the write that replaces
    them: the group must not write into B early."""
    t = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    before = B[1:-1, 1:-1].sum()
    B[1:-1, 1:-1] = t
    return before


def overlapping_windows(X):
    """Source and target are two windows of one array (shared memory at run time)."""
    A, B = X[:-1], X[1:]
    B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    return X


def overflow_in_last_op(A, B):
    B[1:-1, 1:-1] = (A[1:-1, 1:-1] * 0.5 + A[:-2, 1:-1] * 0.25) * 4.0
    return B


def test_the_last_op_writes_into_the_target_only_right_before_its_setitem(caplog):
    src = _sources(jacobi, [grid(190, 203), grid(190, 203)], caplog)
    assert "if _direct:" in src and "_may_share_memory(B, A)" in src, src
    src = _sources(read_between, [grid(190, 203), grid(190, 203)], caplog)
    assert "def _flat" in src and "_direct" not in src, src
    differential(read_between, grid(190, 203), grid(190, 203, seed=1), layouts=ALL_LAYOUTS)
    differential(overlapping_windows, grid(191, 203), layouts=ALL_LAYOUTS)
    differential(jacobi, grid(190, 203), grid(190, 203, seed=1), options=THREADED)


def heat_like(u, alpha=0.2):
    """A fresh copy as the source, ``2 * un[1:-1, 1:-1]`` read by two members: a
    member (``... - t2``) reads two values that both die there, only one of which can
    accumulate in the target's range."""
    for _ in range(2):
        un = u.copy()
        u[1:-1, 1:-1] = un[1:-1, 1:-1] + alpha * (
            un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[:-2, 1:-1]
            + un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, :-2])
    return u


def read_after_next(A, B):
    """``t`` is read again after the member that reads it first: it keeps a scratch
    buffer while the target's range holds ``t * A[2:, 1:-1]``."""
    t = A[1:-1, 1:-1] + A[:-2, 1:-1]
    B[1:-1, 1:-1] = (t * A[2:, 1:-1] - A[1:-1, 2:]) / t
    return B


def test_the_members_accumulate_in_the_targets_range(caplog):
    """On the direct path the chain of members that ends in the value runs in the
    target's own range (no scratch: one array's memory fewer per pass); a value read
    after the member that overwrites it keeps its scratch buffer."""
    def direct_branch(src):
        return src.split("if _direct:")[1].split("return (")[0]

    # (through one view of the range, ``_o``: NumPy's ufuncs take their fast loop for
    # an input overlapping the output only where the two are one object)
    src = direct_branch(_sources(jacobi, [grid(190, 203), grid(190, 203)], caplog))
    assert src.count("_o = _t[") == 1 and src.count(", _o)") == 5, src
    assert "_scratch" not in src, src
    src = direct_branch(_sources(read_after_next, [grid(190, 203), grid(190, 203)], caplog))
    assert src.count("_o = _t[") == 1 and src.count(", _o)") == 3, src
    assert src.count(", _s0)") == 1, src
    differential(read_after_next, grid(190, 203), grid(190, 203, seed=1), layouts=ALL_LAYOUTS)
    differential(heat_like, grid(190, 203), layouts=ALL_LAYOUTS)
    differential(heat_like, grid(190, 203), options=THREADED)


def test_a_stencil_written_into_its_target_keeps_no_grid_sized_buffer():
    """Jacobi's flat groups take no scratch buffer (every op runs in the target's
    range), so after the calls the compiled function holds no array memory the size
    of a grid (before: a 1-D scratch buffer of the grid's size, 1.28 MB here)."""
    A, B = grid(400, 400), grid(400, 400, seed=1)
    dynamo.reset()
    compiled = dynamo.compile(jacobi, backend="numpy")
    tracemalloc.start()
    try:
        for _ in range(3):
            compiled(A, B)
        arrays = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.DomainFilter(True, np.lib.tracemalloc_domain)])
    finally:
        tracemalloc.stop()
        dynamo.reset()
    held = sum(t.size for t in arrays.traces)
    assert held < A.nbytes // 8, held


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(prog=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 30), st.integers(0, 30)),
                     min_size=2, max_size=7))
def test_any_chain_of_values_in_the_target_is_bit_identical(prog):
    """Random elementwise DAGs over the five shifted views, written into another
    array's window big enough for the direct path: whichever members accumulate in
    the target (values read once, twice, later, or by two members at once), the
    result is eager's, bit for bit."""
    def step(A, B):
        vals = [A[1:-1, 1:-1], A[:-2, 1:-1], A[2:, 1:-1], A[1:-1, :-2], A[1:-1, 2:]]
        for op, i, j in prog:
            x, y = vals[i % len(vals)], vals[-1 - j % len(vals)]
            vals.append(x + y if op == 0 else x - y if op == 1 else x * y)
        B[1:-1, 1:-1] = vals[-1]
        return B
    differential(step, grid(190, 203), grid(190, 203, seed=1), graphs=None)


def _overflowing(where):
    A, B = grid(190, 190), grid(190, 190, seed=1)
    if where == "values":
        A[20, 20] = A[21, 20] = 1e308
    else:   # boundary columns: only the gaps of the 1-D passes meet it
        A[:, 0] = A[:, -1] = 1e308
    return A, B


@pytest.mark.parametrize("setting", ["warn", "raise"])
@pytest.mark.parametrize("where", ["values", "gaps"])
def test_a_condition_of_the_last_op_keeps_eagers_target(setting, where):
    """The last op meets an overflow while it writes into B: where eager warns, B gets
    the same values and the same warning; where eager raises, B stays as it was."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (differential's own explain call warns too)
        with np.errstate(over=setting):
            differential(overflow_in_last_op, *_overflowing(where), calls=3)


@pytest.mark.parametrize("where", ["values", "gaps"])
def test_a_warning_made_an_error_keeps_eagers_target(where):
    A, B = _overflowing(where)
    outcomes = []
    for fn in (overflow_in_last_op, dynamo.compile(overflow_in_last_op, backend="numpy")):
        target = B.copy()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                fn(A, target)
                outcomes.append(None)
            except RuntimeWarning as e:
                outcomes.append(str(e))
        assert np.array_equal(target, overflow_in_last_op(A, B.copy()) if outcomes[-1] is None
                              else B), fn
    dynamo.reset()
    assert outcomes[0] == outcomes[1] == (None if where == "gaps" else
                                          "overflow encountered in multiply")


def test_eager_goes_on_only_where_no_condition_can_raise():
    from dynamo.backends.numpy_backend import runtime
    token = runtime.guard()
    try:
        assert runtime.eager_goes_on()
    finally:
        runtime.unguard(token)
    assert not runtime.eager_goes_on()          # not under the guard
    for errstate in ({"over": "raise"}, {"invalid": "call"}, {"divide": "log"}):
        with np.errstate(**errstate):
            token = runtime.guard()
            try:
                assert not runtime.eager_goes_on(), errstate
            finally:
                runtime.unguard(token)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", category=RuntimeWarning)
        token = runtime.guard()
        try:
            assert not runtime.eager_goes_on()
        finally:
            runtime.unguard(token)



# ---------------------------------------------- gaps as raw bytes, the filters' scan cached

def at_offset(a, k):
    """A C-contiguous copy of ``a`` whose first element lies ``k`` items past a 64-byte
    boundary."""
    buf = np.empty(a.size + 64 // a.itemsize + k, a.dtype)
    start = (-buf.ctypes.data % 64) // a.itemsize + k
    out = buf[start:start + a.size].reshape(a.shape)
    out[...] = a
    return out


def test_the_gaps_are_saved_as_one_item_of_bytes_a_row(caplog):
    """The direct path saves and restores the target's elements in the gaps (its
    boundary columns) as a 1-D array of one raw-bytes item a row, not a 2-D copy."""
    src = _sources(jacobi, [grid(190, 203), grid(190, 203)], caplog)
    direct = src.split("if _direct:")[1].split("return (")[0]
    assert "_g0 = _t[" in direct and ".view(_gap)[..., 0]" in direct, src
    assert "_g1 = " not in direct, src      # 2-D: the rows' tails only
    assert "_gs[0][...] = _g0" in direct and "_g0[...] = _gs[0]" in direct, src


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("window", [(slice(1, -1), slice(1, -1)), (slice(2, -1), slice(3, -2))],
                         ids=["1-1", "3-2"])
def test_every_alignment_of_the_gaps_is_bit_identical(dtype, window):
    """Source and target placed 0, 1, ... items past a 64-byte boundary, NaNs with a
    payload in the target's boundary columns (the gaps, saved and put back as raw
    bytes; gaps of 2 and of 5 elements a row): every byte of the result and of the
    arguments is eager's."""
    rows, cols = window

    def step(A, B):
        B[rows, cols] = 0.25 * (A[rows, cols] + A[rows, cols] * 0.5 - A[rows, cols] ** 2)
        return B

    def shifted(A, B):
        B[1:-1, 1:-1] = (A[:-2, 1:-1] + A[2:, 1:-1]) * 0.5 - A[1:-1, 2:]
        return B

    A, B = grid(200, 203, dtype), grid(200, 203, dtype, seed=1)
    payload = np.array([0x7FF8_0000_0000_1234], np.uint64).view(np.float64)[0]
    B[:, :3] = B[:, -2:] = payload
    try:
        for fn in (step, shifted):
            compiled = dynamo.compile(fn, backend="numpy")
            for k in range(0, 64 // np.dtype(dtype).itemsize, 3):
                want_args = [at_offset(A, k), at_offset(B, (k + 3) % 8)]
                got_args = [at_offset(A, k), at_offset(B, (k + 3) % 8)]
                want, got = fn(*want_args), compiled(*got_args)
                assert want.tobytes() == got.tobytes(), (fn, k)
                for w, g in zip(want_args, got_args):
                    assert w.tobytes() == g.tobytes(), (fn, k)
    finally:
        dynamo.reset()


def test_the_warnings_filters_are_scanned_once_while_they_stay_the_same():
    """``eager_goes_on`` (asked before every direct write: every stencil step) scans
    the warnings filters only when they are not the very objects scanned last time
    (a scan records them anew in ``warning_display._FILTERS_SEEN``); a new filter is scanned,
    and one that makes RuntimeWarning an error turns the direct write off (the result
    is eager's either way)."""
    from dynamo.backends.numpy_backend import runtime, warning_display
    A, B = grid(300, 300), grid(300, 300, seed=1)
    compiled = dynamo.compile(jacobi, backend="numpy")
    try:
        compiled(A.copy(), B.copy())
        seen = warning_display._FILTERS_SEEN
        got = compiled(A.copy(), B.copy())
        assert warning_display._FILTERS_SEEN is seen    # four steps, four questions, no scan
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            token = runtime.guard()
            try:
                assert not runtime.eager_goes_on()
                rescanned = warning_display._FILTERS_SEEN
                assert rescanned is not seen and rescanned[2] is False
                assert not runtime.eager_goes_on()
                assert warning_display._FILTERS_SEEN is rescanned
            finally:
                runtime.unguard(token)
            again = compiled(A.copy(), B.copy())
        token = runtime.guard()
        try:
            assert runtime.eager_goes_on() and warning_display._FILTERS_SEEN[2] is True
        finally:
            runtime.unguard(token)
    finally:
        dynamo.reset()
    want = jacobi(A.copy(), B.copy())
    for w, g, a in zip(want, got, again):
        assert w.tobytes() == g.tobytes() == a.tobytes()


def rods(u, steps=3):
    """Many short 1-D rods, one per row: windows of 10 of 12 elements (gaps of 20%)."""
    for _ in range(steps):
        un = u.copy()
        u[:, 1:-1] = un[:, 1:-1] + 0.2 * (un[:, :-2] - 2.0 * un[:, 1:-1] + un[:, 2:])
    return u


def test_short_rows_run_as_1d_passes_with_up_to_half_gaps(caplog):
    # NumPy's loop over a view of 10-element rows is 4-5x slower per element than a
    # 1-D pass, so gaps up to half the range pay (an eighth before)
    src = _sources(rods, [grid(1000, 12)], caplog)
    assert "def _flat" in src and "_r.reshape(1000, 12)[:, :10]" in src, src
    assert "def _flat" not in _sources(rods, [grid(2000, 5)], caplog)    # gaps 67%
    differential(rods, grid(1000, 12), layouts=ALL_LAYOUTS, graphs=None)
    differential(rods, grid(1000, 12), graphs=None, options=THREADED)
