"""``max(s, 0.0)`` / ``min`` of NumPy scalars: the graph's ``where(c, a, b)[()]`` runs as
a choice between the operands (``scalar_select.py``), not ``np.where`` on scalars, with
eager's values, dtypes and types (NaN, -0.0, ties, float32, integers), and stays
``np.where`` where the operands would need a cast or the 0-d result is seen."""

import numpy as np
import pytest
from test_numpy_backend import compiled_graph

import dynamo


def soft_threshold(x, lam):
    """The elastic net's coordinate update (scripts/realworld_programs6.py)."""
    rho = x.sum() / x.shape[0]
    return np.sign(rho) * max(abs(rho) - lam, 0.0) / (1.0 + lam)


def clipped_step(g, cap):
    return g * min(1.0, cap / (np.sqrt(g @ g) + 1e-12))


def coordinate_sweep(x, y, beta):
    resid = y.copy()
    for j in range(x.shape[1]):
        rho = x[:, j] @ resid / len(y) + beta[j]
        new = np.sign(rho) * max(abs(rho) - 0.05, 0.0)
        resid -= x[:, j] * (new - beta[j])
        beta[j] = new
    return beta, resid


def test_the_choice_is_a_pick_not_np_where():
    x = np.linspace(-1, 2, 50)
    src = compiled_graph(soft_threshold, x, 0.1).__dynamo_source__
    # (both operands already named: Python's conditional expression, no call)
    assert " if (0.0 > " in src and "_where" not in src, src


def test_a_scalar_loop_body_picks_too():
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((40, 6)), rng.standard_normal(40)
    src = compiled_graph(coordinate_sweep, x, y, np.zeros(6)).__dynamo_source__
    assert "_where" not in src, src


@pytest.mark.parametrize("values", [
    np.linspace(-1, 2, 50),                      # rho > lam: the scalar
    np.linspace(-0.05, 0.05, 50),                # rho < lam: the constant
    np.full(8, 0.1),                             # a tie: max keeps its first item
    np.array([np.nan, 1.0]),                     # NaN: max keeps the first
    np.array([-0.0, -0.0]),
    np.linspace(-1, 2, 50, dtype=np.float32),    # a float32 rho: stays np.where (a cast)
])
@pytest.mark.parametrize("lam", [0.1, 0.0, -0.0])
def test_results_equal_eager(values, lam):
    fn = dynamo.compile(soft_threshold, backend="numpy")
    for _ in range(2):
        got, want = fn(values, lam), soft_threshold(values, lam)
        assert type(got) is type(want)
        np.testing.assert_array_equal(got, want, strict=True)
        assert np.signbit(got) == np.signbit(want)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")   # inf * 0.0
@pytest.mark.parametrize("g", [np.array([3.0, 4.0]), np.array([0.3, 0.4]),
                               np.array([np.inf, 1.0]), np.zeros(3)])
def test_min_of_a_constant_and_a_scalar(g):
    fn = dynamo.compile(clipped_step, backend="numpy")
    np.testing.assert_array_equal(fn(g, 1.0), clipped_step(g, 1.0), strict=True)


def test_a_sweep_equals_eager():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((200, 12)), rng.standard_normal(200)
    fn = dynamo.compile(coordinate_sweep, backend="numpy")
    for _ in range(2):
        b1, b2 = np.zeros(12), np.zeros(12)
        got, want = fn(x, y, b1), coordinate_sweep(x, y, b2)
        np.testing.assert_array_equal(got[0], want[0], strict=True)
        np.testing.assert_array_equal(got[1], want[1], strict=True)
        np.testing.assert_array_equal(b1, b2, strict=True)


def test_a_seen_0d_where_stays_np_where():
    """``np.where`` of 0-d arrays returned as it is: a new 0-d array, not an operand."""
    def f(a, b):
        return np.where(a.sum() > 0, a.sum(), b.sum())
    a, b = np.ones(3), np.zeros(3)
    src = compiled_graph(f, a, b).__dynamo_source__
    assert "_pick" not in src, src
    got, want = dynamo.compile(f, backend="numpy")(a, b), f(a, b)
    assert type(got) is type(want) and got.shape == want.shape == ()


def test_constants_the_dtype_does_not_hold_stay_np_where():
    """np.where(c, 0.1, s) of a float32 ``s`` casts 0.1 to float32: not the operand."""
    def f(x):
        s = x.sum()
        return np.where(s > 0.1, 0.1, s)[()]
    x = np.linspace(0, 0.05, 3, dtype=np.float32)
    src = compiled_graph(f, x).__dynamo_source__
    assert "_pick" not in src, src
    for v in (x, x + 1):
        got, want = dynamo.compile(f, backend="numpy")(v), f(v)
        np.testing.assert_array_equal(got, want, strict=True)
        assert type(got) is type(want)


def clamp_each(x, hi):
    y = x.copy()
    for i in range(len(y)):
        if y[i] > hi:
            y[i] = hi
    return y


def fill_from_float32(x, v):
    y = x.copy()
    for i in range(len(y)):
        if np.isnan(y[i]):
            y[i] = v[i]      # (float32 into float64: where's result needs a cast)
    return y


def test_a_chosen_element_is_stored_as_a_pick():
    """``x[i] = where(flag, hi, x[i])`` per trip of a loop node (issue #19): the
    element stored is the operand chosen, no ``np.where`` call per trip: now the
    ``if`` itself (select_code.py, issue #15; its tests: test_numpy_backend_select_code)."""
    x = np.linspace(-1, 2, 40)
    src = compiled_graph(clamp_each, x, 0.5).__dynamo_source__
    assert "_where" not in src, src
    fn = dynamo.compile(clamp_each, backend="numpy")
    for v in (x, -x, np.array([np.nan, -0.0, 3.0] * 5)):
        np.testing.assert_array_equal(fn(v, 0.5), clamp_each(v, 0.5), strict=True)


def test_a_chosen_element_that_needs_a_cast_stays_np_where():
    x = np.linspace(-1, 2, 40)
    x[::3] = np.nan
    v = np.linspace(0, 1, 40, dtype=np.float32)
    src = compiled_graph(fill_from_float32, x, v).__dynamo_source__
    assert "_pick" not in src, src
    got = dynamo.compile(fill_from_float32, backend="numpy")(x, v)
    np.testing.assert_array_equal(got, fill_from_float32(x, v), strict=True)
