"""Windows updated in place by a stencil's value, beyond 2-D floats
(``backends/numpy_backend/flat_updates.py``): 3-D windows
(``T[1:-1, 1:-1, 1:-1] += dt * lap``), integer windows and values of another dtype
(a cast in the ufunc's loop), and 1-D windows (``u[1:-1] += ...``: contiguous
already, eager's ops in place).

The update runs as one 1-D pass over the window's range where NumPy's in-place
ufunc resolves (``same_kind``) to a loop whose ``0 op 1`` meets no condition; where
eager raises (``int_array[...] += float_value``: UFuncTypeError), the compiled
program raises the same error and leaves the array as eager does. Every program runs
compiled and eager on copies of its arguments: result, arguments afterwards and
warnings identical.
"""

import warnings

import numpy as np
import pytest
from dynamo.backends.numpy_backend.flat_updates import exact_in_place
from test_numpy_backend_flat import _sources
from test_numpy_backend_inplace import LAYOUTS, differential

THREADED = {"threads": 2, "min_threaded_elements": 0}


def heat3(T, kappa=1.0, dt=0.1):
    for _ in range(2):
        lap = (T[2:, 1:-1, 1:-1] + T[:-2, 1:-1, 1:-1] + T[1:-1, 2:, 1:-1]
               + T[1:-1, :-2, 1:-1] + T[1:-1, 1:-1, 2:] + T[1:-1, 1:-1, :-2]
               - 6.0 * T[1:-1, 1:-1, 1:-1])
        T[1:-1, 1:-1, 1:-1] += kappa * dt * lap
    return T


def cube(*shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def step_of(op, value, ndim=3):
    window = ", ".join(["1:-1"] * ndim)
    scope = {}
    exec(f"def step(A, V):\n    A[{window}] {op} {value}\n    return A\n", {}, scope)
    return scope["step"]


SHIFTED = "(V[2:, 1:-1, 1:-1] - V[:-2, 1:-1, 1:-1]) * 3 + V[1:-1, 1:-1, 2:]"


def test_a_3d_update_runs_as_one_1d_pass(caplog):
    src = _sources(heat3, [cube(20, 30, 40)], caplog)
    update = src.split("def _update0")[1].split("\ndef ")[0]
    # the window's range, its gaps (the rows' tails, the planes' heads) saved and put back
    assert "_add(_o, _b[:" in update and "_g1 = _t[" in update, src
    assert "_vg1 = _b[" in update and "_g1[...] = _gs[1]" in update, src


@pytest.mark.parametrize("options", [{}, THREADED], ids=["one thread", "threads"])
@pytest.mark.parametrize("shape", [(20, 30, 40), (5, 60, 70), (33, 3, 40), (40, 40, 3)])
def test_3d_updates_are_bit_identical_in_every_layout(shape, options):
    differential(heat3, cube(*shape), layouts=tuple(LAYOUTS), graphs=None, options=options)


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/="])
@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_each_op_and_dtype_in_3d(op, dtype):
    A, V = cube(20, 30, 40, dtype=dtype), cube(20, 30, 40, dtype=dtype, seed=1)
    differential(step_of(op, SHIFTED), A, V, graphs=None)
    differential(step_of(op, "V[1:-1, 1:-1, 1:-1] * 0.5 + A[2:, 1:-1, 1:-1]"), A, V,
                 graphs=None)


@pytest.mark.parametrize("ndim", [2, 3])
@pytest.mark.parametrize("window, value", [
    ("int64", "int64"), ("int32", "int32"), ("int64", "int32"), ("int32", "int64"),
    ("uint16", "uint16"), ("float64", "float32"), ("float32", "float64"),
    ("float64", "int64"), ("complex128", "float64")])
def test_integer_windows_and_values_of_another_dtype(window, value, ndim, caplog):
    """The loop NumPy resolves casts as eager's; integers wrap silently as eager's."""
    shape = (20, 30, 40) if ndim == 3 else (150, 160)
    rng = np.random.default_rng(0)
    A = rng.integers(-2**40, 2**40, shape).astype(window)
    V = rng.integers(-2**40, 2**40, shape).astype(value)
    if A.dtype.kind == "f":
        A = A / 2**30
    shifted = SHIFTED if ndim == 3 else "(V[2:, 1:-1] - V[:-2, 1:-1]) * 3 + V[1:-1, 2:]"
    for op in ("+=", "-=", "*="):
        step = step_of(op, shifted, ndim)
        assert "def _update" in _sources(step, [A, V], caplog), (op, window, value)
        differential(step, A, V, graphs=None)


@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("op, value", [("+=", "0.5 * V"), ("/=", "(V + 3)"),
                                       ("-=", "V * 1.5")])
def test_an_integer_window_updated_by_floats_raises_as_eager(op, value, ndim, caplog):
    """``int_array[1:-1, 1:-1] += 0.5 * (...)``: NumPy cannot cast the float result to
    the integer window (``same_kind``) and raises UFuncTypeError before writing; the
    compiled program raises the same, the array unchanged (the trace meets it: the
    program runs eagerly)."""
    shape = {1: (50000,), 2: (150, 160), 3: (20, 30, 40)}[ndim]
    A = np.random.default_rng(0).integers(-100, 100, shape)
    window = ", ".join(["1:-1"] * ndim)
    shifted = ", ".join(["2:"] + ["1:-1"] * (ndim - 1))
    scope = {}
    exec(f"def step(A, V):\n    A[{window}] {op} {value.replace('V', f'V[{shifted}]')}\n"
         f"    return A\n", {}, scope)
    differential(scope["step"], A, A * 1.0, graphs=None)


def test_which_in_place_loops_run_as_one_pass():
    """``exact_in_place``: numbers only, and NumPy's own resolution of the call."""
    i8, i4, f8, f4 = (np.dtype(t) for t in ("int64", "int32", "float64", "float32"))
    assert exact_in_place(np.add, i8, i4) and exact_in_place(np.multiply, i4, i8)
    assert exact_in_place(np.subtract, f4, f8) and exact_in_place(np.divide, f8, i8)
    assert not exact_in_place(np.add, i8, f8)           # same_kind: UFuncTypeError
    assert not exact_in_place(np.divide, i8, i8)        # a float result
    assert not exact_in_place(np.subtract, np.dtype(bool), np.dtype(bool))
    assert not exact_in_place(np.add, f8, np.dtype(complex))


def test_integer_updates_wrap_as_eager():
    A = np.full((20, 30, 40), 2**62, np.int64)
    A[::2] = -2**62 - 7
    differential(step_of("+=", "(V[2:, 1:-1, 1:-1] + V[:-2, 1:-1, 1:-1]) * 3"), A, A.copy(),
                 graphs=None)
    differential(step_of("*=", "V[2:, 1:-1, 1:-1] * 5 + V[1:-1, 1:-1, :-2]"), A, A.copy(),
                 graphs=None)


def test_a_condition_only_the_gaps_would_meet_is_not_reported():
    """The gaps: the array's boundary rows, columns and planes, the value's unused
    elements; boundary op value would overflow, the interior's does not."""
    A = cube(20, 30, 40) * 1e-3
    A[:, :, 0] = A[:, :, -1] = 1.0e308
    # signaling NaNs in the boundary rows: ``sNaN op 1`` raises "invalid"
    A[:, 0, :] = A[:, -1, :] = np.array([0x7FF0000000000001], np.uint64).view(np.float64)[0]
    for op in ("+=", "-=", "*=", "/="):
        step = step_of(op, "1.0 / (V[2:, 1:-1, 1:-1] + 2.0) + 1.5 * V[:-2, 1:-1, 1:-1]")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            differential(step, A, cube(20, 30, 40, seed=1) * 0.1, graphs=None)
            with np.errstate(all="raise"):
                differential(step, A, cube(20, 30, 40, seed=1) * 0.1, graphs=None)


@pytest.mark.parametrize("setting", ["warn", "raise", "ignore"])
def test_a_real_overflow_in_a_3d_update_is_eagers(setting):
    A = cube(20, 30, 40)
    A[5:7, 6, 7] = 1.5e308
    with np.errstate(all=setting):
        differential(step_of("+=", "0.5 * (A[2:, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])"), A, A,
                     graphs=None)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32])
def test_1d_windows_keep_eagers_update(dtype, caplog):
    """``u[1:-1] += ...``: the window and the value are contiguous already (eager's
    op is one 1-D pass); compiled, the value's ops run in place and the update is
    eager's op: the same values, overflow, casts."""
    def heat1(u, r=2):
        for _ in range(3):
            u[1:-1] += r * (u[2:] - 2 * u[1:-1] + u[:-2])
        return u
    u = (np.random.default_rng(0).uniform(-1, 1, 50000) * 1e6).astype(dtype)
    differential(heat1, u, layouts=("C", "reversed", "strided", "window"), graphs=None)
    u[100] = np.finfo(dtype).max if u.dtype.kind == "f" else np.iinfo(dtype).max
    differential(heat1, u, graphs=None)
