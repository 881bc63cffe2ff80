"""Stencils over shifted 3-D (and 4-D) slices as 1-D passes (``flat.py``), against eager.

Element ``(i, j, k)`` of a window of a C-contiguous ``(n, p, m)`` array lies
``i * p * m + j * m + k`` after the window's first, so the windows of one array line
up in its 1-D view as 2-D windows do, with the boundary rows and planes in the gaps.
Every program runs compiled and eager on its own copies of the arguments, in several
memory layouts: results bit-identical (values, dtype, shape, strides), the arguments
afterwards too, the same warnings; the generated source must show the flat pass.
"""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_numpy_backend_flat import _sources
from test_numpy_backend_inplace import LAYOUTS, differential

ALL_LAYOUTS = tuple(LAYOUTS)
THREADED = {"threads": 2, "min_threaded_elements": 0}


def jacobi3(A, B):
    for _ in range(3):
        B[1:-1, 1:-1, 1:-1] = (A[2:, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1] + A[1:-1, 2:, 1:-1]
                               + A[1:-1, :-2, 1:-1] + A[1:-1, 1:-1, 2:]
                               + A[1:-1, 1:-1, :-2]) / 6.0
        A, B = B, A
    return A, B


def heat3(u, alpha=0.1):
    """A copy per step, its interior written (the copy is the value's only target)."""
    for _ in range(3):
        c = u[1:-1, 1:-1, 1:-1]
        lap = (u[2:, 1:-1, 1:-1] + u[:-2, 1:-1, 1:-1] + u[1:-1, 2:, 1:-1]
               + u[1:-1, :-2, 1:-1] + u[1:-1, 1:-1, 2:] + u[1:-1, 1:-1, :-2] - 6.0 * c)
        new = u.copy()
        new[1:-1, 1:-1, 1:-1] = c + alpha * lap
        u = new
    return u


def in_place3(A):
    A[1:-1, 1:-1, 1:-1] = 0.5 * (A[2:, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
    return A


def four_d(A, B):
    B[1:-1, 1:-1, 1:-1, 1:-1] = 0.25 * (A[2:, 1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1, 1:-1]
                                        + A[1:-1, 1:-1, 2:, 1:-1] - A[1:-1, 1:-1, 1:-1, :-2])
    return B


def cube(*shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def test_a_3d_stencil_runs_as_1d_passes(caplog):
    src = _sources(jacobi3, [cube(40, 44, 48), cube(40, 44, 48, seed=1)], caplog)
    # the 1-D buffer seen with the sources' strides, the window's rows and planes cut
    assert "def _flat" in src and "_r.reshape(38, 44, 48)[:, :42, :46]" in src, src
    src = _sources(heat3, [cube(12, 40, 50)], caplog)
    assert "def _flat" in src and ".reshape(-1)" in src, src
    src = _sources(jacobi3, [cube(40, 44, 48), cube(40, 44, 48, seed=1)], caplog, THREADED)
    assert "def _flat" in src and "_run(_block, " in src, src
    assert "def _flat" in _sources(four_d, [cube(3, 40, 40, 60), cube(3, 40, 40, 60)], caplog)
    # a 20x24x28 cube's boundary rows and planes are 17% of the range: allowed over 3-D
    # windows (up to half); 20x4x60's are 101%: the plain path
    assert "def _flat" in _sources(jacobi3, [cube(20, 24, 28), cube(20, 24, 28)], caplog)
    assert "def _flat" not in _sources(jacobi3, [cube(20, 4, 60), cube(20, 4, 60)], caplog)


def test_no_flat_pass_where_the_windows_do_not_line_up(caplog):
    def other_planes(A, C, B):     # two arrays with other plane sizes: no common stride
        B[1:-1, 1:-1, 1:-1] = A[1:-1, 1:-1, 1:-1] + C[1:-1, 1:-2, 1:-1] * 2.0
        return B

    def plane_of(A, B):           # a 2-D window of a 3-D array: its rows only
        B[1:-1, 1:-1] = A[3, 2:, 1:-1] + A[3, :-2, 1:-1] * 2.0
        return B
    src = _sources(other_planes, [cube(20, 40, 60), cube(20, 41, 60), cube(20, 40, 60)],
                   caplog)
    assert "def _flat" not in src, src
    assert "def _flat" not in _sources(plane_of, [cube(8, 40, 60), cube(40, 60)], caplog)


@pytest.mark.parametrize("options", [{}, THREADED], ids=["one thread", "threads"])
@pytest.mark.parametrize("shape", [(20, 40, 60), (3, 70, 90), (33, 3, 17), (6, 6, 6)])
def test_3d_jacobi_is_bit_identical_in_every_layout(shape, options):
    differential(jacobi3, cube(*shape), cube(*shape, seed=1), layouts=ALL_LAYOUTS,
                 options=options)


@pytest.mark.parametrize("fn, args", [
    (heat3, lambda: (cube(12, 40, 50),)),
    (in_place3, lambda: (cube(12, 40, 50),)),
    (four_d, lambda: (cube(3, 40, 40, 60), cube(3, 40, 40, 60, seed=1))),
], ids=["copy per step", "in place", "4-D"])
def test_copies_aliasing_and_4d_keep_eagers_semantics(fn, args):
    differential(fn, *args(), layouts=ALL_LAYOUTS, graphs=None)
    differential(fn, *args(), graphs=None, options=THREADED)


def test_float32_and_integer_cubes():
    differential(jacobi3, cube(10, 40, 60, dtype=np.float32),
                 cube(10, 40, 60, dtype=np.float32, seed=1))
    a = (cube(10, 40, 60) * 100).astype(np.int64)

    def smooth(A, B):
        B[1:-1, 1:-1, 1:-1] = (A[:-2, 1:-1, 1:-1] + A[2:, 1:-1, 1:-1]
                               + A[1:-1, 1:-1, :-2] + A[1:-1, 1:-1, 2:]) // 4
        return B
    differential(smooth, a, a.copy() * 0)


def test_a_condition_only_the_boundary_rows_and_planes_would_meet_is_not_reported():
    """The gaps hold the boundary columns and rows of every plane: sums over them
    that eager never computes must not warn or raise."""
    A = cube(10, 40, 60)
    A[:, :, 0] = A[:, :, -1] = 1.7e308       # boundary columns
    A[:, 0, :] = A[:, -1, :] = 1.7e308       # boundary rows of each plane
    B = np.zeros_like(A)

    def step(A, B):
        B[1:-1, 1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1, 1:-1] + A[2:, 1:-1, 1:-1]
                                      + A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, 1:-1])
        return B
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        differential(step, A, B)
        with np.errstate(all="raise"):
            differential(step, A, B)


def test_a_real_overflow_warns_as_eager():
    A = cube(10, 40, 60)
    A[5, 6, 7] = 1.7e308
    differential(jacobi3, A, cube(10, 40, 60, seed=1))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(d=st.tuples(st.integers(1, 6), st.integers(1, 30), st.integers(1, 40)),
       pad=st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)),
       dtype=st.sampled_from([np.float64, np.float32]))
def test_any_window_of_any_cube(d, pad, dtype):
    """Windows at any offset of cubes of any size (thin, under the flat pass's minimum
    or over it: 3 x 30 x 40 is): a weighted stencil into another array's window."""
    (h, q, w), (a, b, c) = d, pad
    shape = (h + 2 + a, q + 2 + b, w + 2 + c)

    def at(di, dj, dk):
        return (slice(a + 1 + di, a + 1 + di + h), slice(b + 1 + dj, b + 1 + dj + q),
                slice(c + 1 + dk, c + 1 + dk + w))

    def step(A, B):
        B[at(0, 0, 0)] = (A[at(-1, 0, 0)] * 0.3 + A[at(1, 0, 0)] * 0.3
                          - A[at(0, -1, 0)] / 3 + A[at(0, 0, 1)] - A[at(0, 0, -1)])
        return B
    differential(step, cube(*shape, dtype=dtype), cube(*shape, dtype=dtype, seed=1),
                 graphs=None)
