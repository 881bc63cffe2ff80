"""Tier 2 calling NumPy from the kernel (``backends/native/calls.py``): ``matmul``,
``np.linalg.norm``, ``cumsum``, ``eye``, ``np.array`` of scalars... run by NumPy itself
in Numba's object mode, on the same arrays (strided views stay strided), so results are
NumPy's bit for bit, integer products included; warnings and exceptions come from tier 1
rerunning the flagged call, as eager's.

Each test compiles one or two kernels (1-5 s of CPU each under Numba).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.tier import Tiered  # noqa: E402
from test_native import compiled, same  # noqa: E402 (needs numba)

rng = np.random.default_rng(7)


def _run_both(fn, *args, calls=3):
    """``fn`` eagerly and compiled (tier 1, then tier 2), on copies of ``args``: every
    result and argument afterwards as eager's; (the Tiered objects, their source)."""
    want_args = [a.copy() for a in args]
    want = fn(*want_args)
    c, made = compiled(fn)
    for _ in range(calls):
        got_args = [a.copy() for a in args]
        same(c(*got_args), want)
        for g, w in zip(got_args, want_args):
            same(g, w)
    tiers = [m for m in made if isinstance(m, Tiered)]
    assert tiers and all(t.error is None for t in tiers), [t.error for t in tiers]
    assert sum(t.native_calls for t in tiers) >= calls - 1
    return tiers, "\n".join(t.kernel.source for t in tiers)


def _products(A, B, x):
    C = A[1:, ::2] @ B            # a strided view: NumPy's own (non-BLAS) loop for it
    y = A.T @ x                   # a view only its product reads: made in the call
    z = x[::-1] @ A[::-1]         # negative strides
    n = np.linalg.norm(C, axis=1)
    return C + C, y * 2, z, n, np.cumsum(y)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8"])
def test_products_are_numpy_bit_for_bit(dtype):
    """Float products through BLAS, integer ones through NumPy's loop (int8 wrapping
    as NumPy's), strided and reversed views: the bits of eager's results."""
    dt = np.dtype(dtype)
    if dt.kind == "f":
        A, B, x = (rng.standard_normal(s).astype(dt) for s in ((9, 12), (6, 5), (9,)))
    else:
        A, B, x = (rng.integers(-100, 100, s).astype(dt) for s in ((9, 12), (6, 5), (9,)))
    _, source = _run_both(_products, A, B, x)
    assert "_npcall(_np_ops.matmul" in source and "objmode" in source


def _solver(A, b, x):
    n = A.shape[0]
    eye = np.eye(n)
    for _ in range(6):
        r = b - A @ x
        x = x + 0.1 * (eye @ r)
        x[0] = np.linalg.norm(r)
    stats = np.array([np.linalg.norm(x), x.max(), float(n)])
    # a roll of a flattened view has no loop nest: NumPy's roll of NumPy's reshape
    return x, stats, np.arange(n) * x, np.roll(x.reshape(2, n // 2), 1)


def test_calls_inside_a_loop_with_the_loop_nests_around_them():
    """A Richardson iteration: products and a norm each trip, a store into the carried
    array, creation from constants and an ``np.array`` of scalars after the loop."""
    A = rng.standard_normal((8, 8)) + 8 * np.eye(8)
    _, source = _run_both(_solver, A, rng.standard_normal(8), np.zeros(8))
    assert "for " in source and "_np_ops.norm" in source and "_np_ops.array" in source
    assert "_np_ops.roll" in source and "_np_ops.reshape" in source


def _view_then_write(A, x):
    t = A.T                       # eager's product reads A after the store below
    A[0, 1] = 7.0
    return t @ x


def test_a_deferred_view_reads_its_base_when_eager_does():
    """Also: under the default settings made raising (the frontend's floating-point
    guard around graphs it reruns, or ``np.seterr``), tier 2 still runs."""
    A, x = rng.standard_normal((5, 5)), rng.standard_normal(5)
    tiers, _ = _run_both(_view_then_write, A, x)
    c, made = compiled(_view_then_write)
    want = _view_then_write(A.copy(), x)
    c(A.copy(), x)
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        same(c(A.copy(), x), want)
    assert made[0].native_calls == 1


def _overflowing(A, x):
    x[0] = -1.0                   # a write before the warning: undone, then redone
    return (A * 1e300) @ (A * 1e300)


def _singular(A, x):
    x[0] = -1.0
    return np.linalg.inv(A) + x


def test_warnings_and_exceptions_come_from_tier_1_as_eager():
    """A product that overflows warns once, as eager (the kernel flags the call, its
    write into ``x`` is undone, tier 1 reruns it); a singular matrix raises eager's
    LinAlgError with ``x`` written as eager left it."""
    A, x = np.ones((3, 3)), np.zeros(3)
    c, made = compiled(_overflowing)
    for _ in range(3):
        x1 = x.copy()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            got = c(A, x1)
        assert [str(m.message) for m in w] == ["overflow encountered in matmul"]
        same(got, np.full((3, 3), np.inf))
        assert x1[0] == -1.0
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        x1 = x.copy()
        with pytest.raises(FloatingPointError, match="overflow encountered in matmul"):
            c(A, x1)
        assert x1[0] == -1.0          # eager wrote it before it raised
    # tier 2 ran each call, flagged it (native_calls counts only unflagged calls)
    assert made[0].state == "native" and made[0].error is None
    assert "_np_ops.matmul" in made[0].kernel.source
    c, made = compiled(_singular)
    for _ in range(3):
        x1 = x.copy()
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
            c(A, x1)
        assert x1[0] == -1.0
    assert isinstance(made[0], Tiered) and made[0].error is None
    assert made[0].state == "native" and "_np_ops.inv" in made[0].kernel.source


def _descent(A, b, x):
    for _ in range(40):
        x = x - 0.01 * (A.T @ (A @ x - b))
    return x


def _swap(u, v):
    for _ in range(40):
        u, v = v, 0.5 * (u + v)
    return u, v, u is v


def test_an_array_a_loop_makes_anew_on_every_trip_is_an_output():
    """Gradient descent: ``x`` is a new array on every trip, so after the loop it is
    the kernel's own and may be returned. Two slots that swap (``u`` takes ``v``'s
    array) may hold an input: that graph stays in tier 1, with eager's answers."""
    A, b = rng.standard_normal((12, 6)), rng.standard_normal(12)
    tiers, source = _run_both(_descent, A, b, np.zeros(6))
    assert "for " in source and "_np_ops.matmul" in source
    c, made = compiled(_swap)
    u, v = rng.standard_normal(5), rng.standard_normal(5)
    want = _swap(u.copy(), v.copy())
    for _ in range(3):
        same(c(u.copy(), v.copy()), want)


def test_tanh_is_numpy_bit_for_bit_even_where_a_program_amplifies_it():
    """``tanh`` is NumPy's own call from the kernel. Before, the kernel called Numba's
    libm ``tanh``, which differs from NumPy's SIMD one in the last bits on about 40 % of
    float64 inputs, and a central difference (``tanh_grad_check`` of the real-world
    corpus) or an MLP's SGD steps carried that past any tolerance (8 ulp of
    ``1 - tanh(z)**2``; the difference quotient's error divided by ``2e-6``)."""
    def grad_check(z, eps=1e-6):
        analytic = 1 - np.tanh(z) ** 2
        numeric = (np.tanh(z + eps) - np.tanh(z - eps)) / (2 * eps)
        return analytic, np.max(np.abs(analytic - numeric))

    def mlp_step(X, W, b):
        for _ in range(3):
            h = np.tanh(X @ W + b)
            W = W - 0.05 * (X.T @ (h * (1 - h ** 2)))
        return W, h

    _, source = _run_both(grad_check, rng.standard_normal(2000))
    assert "_np_ops.tanh" in source and "np.tanh(" not in source
    _run_both(mlp_step, rng.standard_normal((64, 8)), rng.standard_normal((8, 8)),
              rng.standard_normal(8))
