"""Ops that return their argument itself, and NumPy scalar arithmetic, compiled as NumPy
runs them.

- ``np.asarray(x) is x``, ``x.astype(x.dtype, copy=False) is x``,
  ``np.ascontiguousarray(x) is x`` for a C-contiguous ``x``, ``np.atleast_1d``,
  ``np.real``/``x.real``/``x.conj()`` of a real array, ``np.squeeze`` with nothing to
  squeeze, ``np.array(x, copy=None)``: the result is the argument (``is``, writes
  through it, ``f(x) is x``), on every layout, also when a later call passes another
  layout (the layout the answer needs is guarded).
- Operators on NumPy scalars warn or raise by the program's error state on every call
  and in program order (they fold while tracing only when they can do neither), and
  with NumPy's scalar messages ("... in scalar divide"), also on an op's scalar result.
"""

import warnings

import numpy as np
import pytest

import dynamo

BACKENDS = ["eager", "numpy"]

M = np.arange(12, dtype=np.float64).reshape(3, 4)
LAYOUTS = {
    "C": lambda: M.copy(),
    "F": lambda: np.asfortranarray(M),
    "T": lambda: M.copy().T,
    "strided": lambda: M.copy()[:, ::2],
    "1d": lambda: np.arange(5.0),
    "1d-strided": lambda: np.arange(10.0)[::2],
    "0-size": lambda: np.zeros((0, 3)),
    "0-d": lambda: np.array(3.0),
    "one-row": lambda: M[:1].copy(),
}


def observe(fn, make_args):
    """Everything a call shows: the result (identity with the arguments included), or
    the exception; the warnings, in order; the arguments afterwards."""
    args = make_args()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001
            result = e
    return (describe(result, args), [(w.category.__name__, str(w.message)) for w in caught],
            [describe(a, ()) for a in args])


def describe(value, args):
    if isinstance(value, Exception):
        return ("raised", type(value).__name__, str(value))
    if isinstance(value, tuple):
        return tuple(describe(v, args) for v in value)
    is_arg = [i for i, a in enumerate(args) if value is a]
    if isinstance(value, np.ndarray):
        shares = [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and
                  np.shares_memory(value, a)]
        return ("array", value.dtype.str, value.shape, value.tolist(), is_arg, shares,
                value.flags.c_contiguous, value.flags.f_contiguous)
    return (type(value).__name__, repr(value), is_arg)


def agree(fn, *inputs, backend, calls=2):
    """``fn`` compiled behaves as ``fn``: each input factory ``calls`` times, in order,
    then the first again (later calls may hit the entry the first one made)."""
    compiled = dynamo.compile(fn, backend=backend)
    for make_args in [*inputs] * calls + [inputs[0]]:
        assert observe(compiled, make_args) == observe(fn, make_args)


def breaks(fn, *args, backend):
    return dynamo.explain(fn, backend=backend)(*args).graph_break_count


# ---------------------------------------------------------------------------- identity

def _asarray(x):
    return (np.asarray(x) is x, np.asanyarray(x) is x, np.asarray(x, dtype=x.dtype) is x,
            np.asarray(x, dtype=np.float32) is x, np.asarray(x, order="C") is x,
            np.asarray(x, order="F") is x, np.asarray(x, order="A") is x)


def _array(x):
    return (np.array(x, copy=None) is x, np.array(x) is x, np.array(x, copy=None, ndmin=2) is x,
            np.array(x, copy=None, order="F") is x)


def _astype(x):
    return (x.astype(x.dtype, copy=False) is x, x.astype(x.dtype) is x,
            x.astype(np.float32, copy=False) is x, x.astype(x.dtype, order="C", copy=False) is x)


def _contiguous(x):
    return np.ascontiguousarray(x) is x, np.asfortranarray(x) is x, np.ascontiguousarray(x)


def _views(x):
    return (np.atleast_1d(x) is x, np.atleast_2d(x) is x, np.atleast_3d(x) is x,
            np.real(x) is x, x.real is x, x.conj() is x, x.conjugate() is x,
            np.squeeze(x) is x, x.squeeze() is x, np.squeeze(x, axis=()) is x)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [_asarray, _array, _astype, _contiguous, _views])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_identity_on_every_layout(fn, layout, backend):
    agree(fn, lambda: (LAYOUTS[layout](),), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [_asarray, _array, _astype, _contiguous])
def test_a_later_call_with_another_layout_is_answered_for_its_own(fn, backend):
    # the first call's answer depends on its layout: an F-ordered (or strided) array of
    # the same shape and dtype must not reuse it
    agree(fn, lambda: (M.copy(),), lambda: (np.asfortranarray(M),),
          lambda: (M.copy().T.copy().T,), lambda: (np.ones((3, 8))[:, ::2],), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_layout_free_identity_needs_no_layout_guard(backend):
    def f(x):
        return np.asarray(x) is x, x.astype(x.dtype, copy=False) is x, np.atleast_1d(x) is x

    compiled = dynamo.compile(f, backend=backend)
    for make in (LAYOUTS["C"], LAYOUTS["F"], LAYOUTS["strided"]):
        assert compiled(make()) == (True, True, True)
    report = dynamo.explain(f, backend=backend)(M.copy())
    assert "contiguous" not in str(report.guards), report.guards


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_returned_object_is_the_argument(backend):
    def f(x):
        return np.asarray(x)

    def g(x):
        return np.ascontiguousarray(x), x.real, np.atleast_1d(x)

    for make in (LAYOUTS["C"], LAYOUTS["F"], LAYOUTS["0-d"]):
        agree(f, lambda make=make: (make(),), backend=backend)
        agree(g, lambda make=make: (make(),), backend=backend)
    x = M.copy()
    assert dynamo.compile(f, backend=backend)(x) is x


@pytest.mark.parametrize("backend", BACKENDS)
def test_writes_through_the_result_reach_the_argument(backend):
    def f(x):
        y = np.asarray(x)
        y += 1
        z = x.conj()          # x itself for a real x, a new array for a complex one
        z[0] = -5
        w = np.ascontiguousarray(x)
        w *= 2
        return x

    for x in (M.copy(), np.asfortranarray(M), M.astype(complex)):
        agree(f, lambda x=x: (x.copy(order="K"),), backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_atleast_of_several_arrays(backend):
    def f(x, y):
        a, b = np.atleast_1d(x, y)
        c, d = np.atleast_2d(x, y)
        return a is x, b is y, c is x, d is y, b, d

    agree(f, lambda: (np.arange(3.0), np.array(2.0)), lambda: (M.copy(), np.arange(2.0)),
          backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_identity_of_an_op_result_whose_layout_is_unknown_runs_eagerly(backend):
    def f(x):
        t = x * 2             # C or F, like x: the backend's layout, unknown to the trace
        y = np.ascontiguousarray(t)
        return y is t, y

    agree(f, lambda: (M.copy(),), lambda: (np.asfortranarray(M),), backend=backend)
    assert breaks(f, M.copy(), backend=backend) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_identity_after_an_in_place_write(backend):
    def f(x):
        x += 1
        return np.ascontiguousarray(x) is x, np.asfortranarray(x) is x

    agree(f, lambda: (M.copy(),), lambda: (np.asfortranarray(M),), backend=backend)
    assert breaks(f, M.copy(), backend=backend) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_identity_with_dynamic_sizes(backend):
    def f(x):
        return np.ascontiguousarray(x) is x, np.asarray(x, order="F") is x, x.sum()

    agree(f, lambda: (np.ones((3, 4)),), lambda: (np.ones((5, 4)),),
          lambda: (np.ones((6, 4), order="F"),), lambda: (np.ones((7, 4)),), backend=backend)


# ---------------------------------------------------------------------------- scalars

def _overflow_raises(x):
    with np.errstate(over="raise"):
        try:
            return np.int8(127) + np.int8(x.shape[0])
        except FloatingPointError as e:
            return str(e)


def _overflow_warns_in_order(x):
    a = x // -1                           # the array op's warning first (none for int8)
    b = np.int8(-128) // np.int8(-1)      # then the scalar's, on every call
    c = -np.int8(-128)
    return a, b, c, np.float32(1) == 1e300


def _division_by_zero(x):
    return np.int64(1) // np.int64(0), np.float64(1.0) / 0.0, x.sum() / 0, -x.min(), \
        x.sum() % 0, 1.0 / np.float64(0.0)


def _builtins_and_methods(x):
    return abs(np.int8(-128)), divmod(np.int8(-128), np.int8(-1)), abs(x.min()), \
        np.float64(1e300).astype(np.float32), np.float32(1e300), x


def _mean_by_len(x):
    return x.sum() / len(x), x / len(x)


def _ignored(x):
    with np.errstate(all="ignore"):
        a = np.float64(1.0) / 0.0
    return a, np.float64(1.0) / 0.0, x


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn, make", [
    (_overflow_raises, lambda: (np.zeros(1),)),
    (_overflow_raises, lambda: (np.zeros(0),)),
    (_overflow_warns_in_order, lambda: (np.array([-128, 5], np.int8),)),
    (_division_by_zero, lambda: (np.array([-128, 3], np.int8),)),
    (_division_by_zero, lambda: (np.array([1.0, 2.0]),)),
    (_builtins_and_methods, lambda: (np.array([-128, 3], np.int8),)),
    (_mean_by_len, lambda: (np.zeros(0),)),
    (_mean_by_len, lambda: (np.arange(4.0),)),
    (_ignored, lambda: (np.arange(2),)),
])
def test_scalar_operators_warn_and_raise_as_numpy(fn, make, backend):
    agree(fn, make, backend=backend, calls=3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_error_state_set_between_calls(backend):
    def f(x):
        return np.float64(1.0) / 0.0, x + 1

    compiled = dynamo.compile(f, backend=backend)
    for mode in ("warn", "ignore", "raise", "warn"):
        with np.errstate(divide=mode):
            assert observe(compiled, lambda: (np.ones(2),)) == observe(f, lambda: (np.ones(2),))


@pytest.mark.parametrize("backend", BACKENDS)
def test_quiet_scalar_arithmetic_still_folds(backend):
    def f(x):
        n = np.int64(3) * 4 + np.float32(0.5) // np.float32(0.25)   # cannot warn: folded
        return x[: int(n) - 10], n

    agree(f, lambda: (np.arange(20.0),), backend=backend)
    assert breaks(f, np.arange(20.0), backend=backend) == 0
