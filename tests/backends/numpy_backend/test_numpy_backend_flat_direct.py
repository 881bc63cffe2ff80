"""A 3-D stencil's value written straight into the window of the array the next step
fills (``B[1:-1, 1:-1, 1:-1] = value``; ``backends/numpy_backend/flat_direct.py``).

The last ops of the flat pass write into ``B``'s own 1-D range; the range's gaps (the
boundary columns, and each plane's boundary rows) are ``B``'s elements outside the
window, saved as raw bytes and put back. NumPy's semantics are "as if the right side
were computed first": where ``B`` shares memory with what the value reads, or eager
would raise on a floating-point condition, the value goes through the group's own
buffer. Every program runs compiled and eager on copies of its arguments: results,
arguments afterwards (bit for bit, NaN payloads included) and warnings identical.
"""

import warnings

import numpy as np
import pytest
from test_numpy_backend_flat import _sources
from test_numpy_backend_inplace import LAYOUTS, differential

import dynamo

THREADED = {"threads": 2, "min_threaded_elements": 0}


def jacobi3(A, B):
    for _ in range(2):
        B[1:-1, 1:-1, 1:-1] = (A[2:, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1] + A[1:-1, 2:, 1:-1]
                               + A[1:-1, :-2, 1:-1] + A[1:-1, 1:-1, 2:]
                               + A[1:-1, 1:-1, :-2]) / 6.0
        A, B = B, A
    return A, B


def ftcs(u, alpha=0.1):
    """The corpus' heat 3-D FTCS: a copy read, the caller's array written."""
    for _ in range(2):
        un = u.copy()
        u[1:-1, 1:-1, 1:-1] = un[1:-1, 1:-1, 1:-1] + alpha * (
            un[2:, 1:-1, 1:-1] + un[:-2, 1:-1, 1:-1] + un[1:-1, 2:, 1:-1]
            + un[1:-1, :-2, 1:-1] + un[1:-1, 1:-1, 2:] + un[1:-1, 1:-1, :-2]
            - 6 * un[1:-1, 1:-1, 1:-1])
    return u


def into_itself(A):
    """The value reads the array it is written into: computed whole first (eager)."""
    A[1:-1, 1:-1, 1:-1] = 0.5 * (A[2:, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
    return A


def cube(*shape, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(dtype)


def bits(a):
    return np.ascontiguousarray(a).view(np.uint8)


def test_a_3d_value_is_written_into_the_target(caplog):
    src = _sources(jacobi3, [cube(20, 40, 60), cube(20, 40, 60, seed=1)], caplog)
    direct = src.split("if _direct:")[1].split("return (")[0]
    # the passes run in B's range; its gaps saved as the rows' tails and the planes' heads
    assert "_t = B.reshape(-1)" in direct and ", _o)" in direct, src
    assert "_g0 = _t[" in direct and "_g1 = _t[" in direct, src
    assert "reshape(17, 40, 60)[:, 38:, :58]" in direct, src
    assert "_g1[...] = _gs[1]" in src and "return (B[1:-1, 1:-1, 1:-1], )" in src, src
    src = _sources(ftcs, [cube(48, 48, 48)], caplog)
    assert "if _direct:" in src and "return (u[1:-1, 1:-1, 1:-1], )" in src, src
    # into the array it reads: no target (its own buffer, then the setitem's copy)
    assert "if _direct:" not in _sources(into_itself, [cube(20, 40, 60)], caplog)
    # under flat_direct.MIN_DIRECT_ELEMENTS (5 x 40 x 60 = 12000): the copy
    assert "if _direct:" not in _sources(jacobi3, [cube(7, 42, 62), cube(7, 42, 62)], caplog)


@pytest.mark.parametrize("options", [{}, THREADED], ids=["one thread", "threads"])
@pytest.mark.parametrize("fn, shapes", [(jacobi3, 2), (ftcs, 1), (into_itself, 1)])
def test_bit_identical_in_every_layout(fn, shapes, options):
    args = [cube(20, 40, 60, seed=s) for s in range(shapes)]
    differential(fn, *args, layouts=tuple(LAYOUTS), graphs=None, options=options)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_dtypes_and_nan_payloads_in_the_gaps(dtype):
    """NaNs with a payload in B's boundary columns, rows and planes (the gaps): every
    byte of B afterwards is eager's."""
    A, B = cube(20, 40, 60, dtype=dtype), cube(20, 40, 60, dtype=dtype, seed=1)
    payload = np.array([0x7FF8DEADBEEF0001], np.uint64).view(np.float64)[0]
    for b in (B[:, :, 0], B[:, :, -1], B[:, 0, :], B[:, -1, :], B[0], B[-1]):
        b[...] = payload
    want = jacobi3(A.copy(), B.copy())
    dynamo.reset()
    got = dynamo.compile(jacobi3, backend="numpy")(A.copy(), B.copy())
    dynamo.reset()
    for w, g in zip(want, got):
        assert w.dtype == g.dtype and np.array_equal(bits(w), bits(g))


@pytest.mark.parametrize("how", ["one plane apart", "one element apart", "same array"])
def test_a_target_sharing_memory_with_the_value_takes_the_copy(how):
    """B and A views of one buffer: eager computes the whole value, then copies it."""
    def make():
        X = cube(42, 40, 60)
        if how == "one plane apart":
            return X[:20], X[1:21]
        if how == "one element apart":
            flat = X.reshape(-1)
            return (flat[:48000].reshape(20, 40, 60), flat[1:48001].reshape(20, 40, 60))
        return X[:20], X[:20]

    def step(A, B):
        B[1:-1, 1:-1, 1:-1] = (A[2:, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1]
                               + A[1:-1, 1:-1, 2:]) * 0.25
        return B
    A, B = make()
    want = step(A, B).copy()
    dynamo.reset()
    A2, B2 = make()
    got = dynamo.compile(step, backend="numpy")(A2, B2)
    dynamo.reset()
    assert np.array_equal(bits(want), bits(got))
    assert np.array_equal(bits(A.base), bits(A2.base))


@pytest.mark.parametrize("setting", ["warn", "raise", "ignore"])
def test_a_real_overflow_is_eagers_and_a_raise_leaves_the_target(setting):
    A = cube(20, 40, 60)
    A[5, 6, 7] = A[7, 6, 7] = 1.7e308
    with np.errstate(all=setting):
        differential(jacobi3, A, cube(20, 40, 60, seed=1), graphs=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        differential(jacobi3, A, cube(20, 40, 60, seed=1), graphs=None)


def test_a_condition_only_the_gaps_would_meet_is_not_reported():
    A = cube(20, 40, 60)
    A[:, :, 0] = A[:, :, -1] = A[:, 0, :] = A[:, -1, :] = 1.7e308
    B = np.zeros_like(A)
    B[:, :, 0] = B[:, 0, :] = np.nan

    def step(A, B):
        B[1:-1, 1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1, 1:-1] + A[2:, 1:-1, 1:-1]
                                      + A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, 1:-1])
        return B
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        differential(step, A, B, graphs=None)
        with np.errstate(all="raise"):
            differential(step, A, B, graphs=None)


@pytest.mark.parametrize("shape", [(3, 3, 40002), (40002, 3, 3), (3, 260, 130), (200, 3, 202)])
def test_thin_windows(shape):
    """Windows one element thick along an axis or two (a single row, plane or column)."""
    differential(jacobi3, cube(*shape), cube(*shape, seed=1), graphs=None)


def copy_per_step(u, steps, alpha=0.1):
    """corpus 5's 3-D heat step: the target is a copy made after the value's ops. (It
    also counts its steps into an argument: a graph that writes an input is not run
    again when it raises, so it runs outside the frontend's floating-point guard,
    where the direct write may run.)"""
    for _ in range(2):
        steps[0] += 1
        c = u[1:-1, 1:-1, 1:-1]
        lap = (u[2:, 1:-1, 1:-1] + u[:-2, 1:-1, 1:-1] + u[1:-1, 2:, 1:-1]
               + u[1:-1, :-2, 1:-1] + u[1:-1, 1:-1, 2:] + u[1:-1, 1:-1, :-2] - 6.0 * c)
        new = u.copy()
        new[1:-1, 1:-1, 1:-1] = c + alpha * lap
        u = new
    return u


def copy_per_step_pure(u, alpha=0.1):
    """The same, writing no input: the frontend runs it under its own floating-point
    guard (it can run it again), where the write into the fresh copy still runs."""
    for _ in range(2):
        c = u[1:-1, 1:-1, 1:-1]
        lap = (u[2:, 1:-1, 1:-1] + u[:-2, 1:-1, 1:-1] + u[1:-1, 2:, 1:-1]
               + u[1:-1, :-2, 1:-1] + u[1:-1, 1:-1, 2:] + u[1:-1, 1:-1, :-2] - 6.0 * c)
        new = u.copy()
        new[1:-1, 1:-1, 1:-1] = c + alpha * lap
        u = new
    return u


def copy_read_between(u, alpha=0.1):
    """The copy is made, then read, between the value and the setitem: no direct write."""
    lap = u[2:, 1:-1, 1:-1] + u[:-2, 1:-1, 1:-1] - 2.0 * u[1:-1, 1:-1, 1:-1]
    new = u.copy()
    total = new.sum()
    new[1:-1, 1:-1, 1:-1] = u[1:-1, 1:-1, 1:-1] + alpha * lap
    return new, total


def test_the_copy_that_makes_the_target_goes_first(caplog):
    src = _sources(copy_per_step, [cube(20, 40, 60), np.zeros(1)], caplog)
    assert "if _direct:" in src and "return (copy_method[1:-1, 1:-1, 1:-1], )" in src, src
    # the copy runs before the group that writes into it
    body = src.split("def forward")[1]
    assert body.index("copy_method = u.copy()") < body.index("= _flat"), src
    assert "if _direct:" not in _sources(copy_read_between, [cube(20, 40, 60)], caplog)


@pytest.mark.parametrize("fn, extra", [(copy_per_step, (np.zeros(1),)),
                                       (copy_per_step_pure, ()),
                                       (copy_read_between, ())])
def test_a_copy_moved_first_keeps_eagers_values(fn, extra):
    differential(fn, cube(20, 40, 60), *extra, layouts=tuple(LAYOUTS), graphs=None)
    differential(fn, cube(20, 40, 60), *extra, graphs=None, options=THREADED)
    A = cube(20, 40, 60)
    A[5, 6, 7] = A[7, 6, 7] = 1.7e308
    A[:, 0, :] = np.nan                      # in the copy's gaps: kept
    for setting in ("warn", "raise"):
        with np.errstate(all=setting):
            differential(fn, A, *extra, graphs=None)


def test_a_fresh_target_under_error_filters_and_seterrcall():
    """The moved copy's direct write runs without ``eager_goes_on``: a condition the
    values meet still ends as eager's (a warning raised by an "error" filter, a
    program's ``np.seterrcall`` function called once per op that meets it)."""
    A = cube(20, 40, 60)
    A[5, 6, 7] = A[7, 6, 7] = 1.7e308
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        differential(copy_per_step_pure, A, graphs=None)
        differential(copy_per_step_pure, cube(20, 40, 60), graphs=None)
    for fn, extra in ((copy_per_step_pure, ()), (copy_per_step, (np.zeros(1),))):
        seen = {}
        for name, f in (("eager", fn), ("compiled", dynamo.compile(fn, backend="numpy"))):
            calls = []
            with np.errstate(all="call", under="ignore"):
                old = np.seterrcall(lambda kind, flag, calls=calls: calls.append(kind))
                try:
                    out = f(A.copy(), *[e.copy() for e in extra])
                finally:
                    np.seterrcall(old)
            seen[name] = (bits(out), calls)
        dynamo.reset()
        assert np.array_equal(seen["eager"][0], seen["compiled"][0])
        assert seen["eager"][1] == seen["compiled"][1], seen


def smoother_2d(u):
    """A 2-D copy per sweep (corpus 3's 9-point smoother): the fresh copy written."""
    for _ in range(2):
        new = u.copy()
        new[1:-1, 1:-1] = (4.0 * u[1:-1, 1:-1] + u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
                           + u[1:-1, 2:]) / 8.0
        u = new
    return u


def test_a_2d_fresh_copy_is_written_as_eager(caplog):
    A = np.random.default_rng(0).uniform(-1, 1, (200, 210))
    src = _sources(smoother_2d, [A], caplog)
    assert "return (copy_method[1:-1, 1:-1], )" in src, src
    differential(smoother_2d, A, layouts=tuple(LAYOUTS), graphs=None)
    A[:, 0] = np.nan
    A[50, 50] = A[52, 50] = 1.7e308
    for setting in ("warn", "raise", "ignore"):
        with np.errstate(all=setting):
            differential(smoother_2d, A, graphs=None)
