"""Tier 2 and values NumPy lays out other than C (``backends/native/strided.py``): an
einsum's result (``"bpw,wc->bpc"`` of gathered windows: strides (24, 144, 8)), and
what elementwise ops, reductions and NumPy's calls make of it, carried with NumPy's
own strides; against eager, strides included (``test_native.same``). Before, such a
graph stayed in tier 1 (the 1-D conv net of ``scripts/realworld_programs6.py``).

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.lower import Unsupported  # noqa: E402
from dynamo.backends.native.strided import order_of, probe, strides_for  # noqa: E402
from kernel_sources import kernel_source as _lowered  # noqa: E402
from test_native import check_native, compiled, same  # noqa: E402 (needs numba)

rng = np.random.default_rng(23)


def _data(shape, dtype):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-100, 100, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def conv_step(x, y, kern, w_out, lr=0.01):
    """One step of the 1-D conv net (scripts/realworld_programs6.conv1d_train_step)."""
    width = kern.shape[0]
    idx = np.arange(x.shape[1] - width + 1)[:, None] + np.arange(width)[None, :]
    win = x[:, idx]                                  # (batch, positions, width)
    h = np.tanh(np.einsum("bpw,wc->bpc", win, kern))  # strides (b, p, c) not C
    feat = h.mean(axis=1)
    d = (feat @ w_out - y) / len(y)
    dh = (d @ w_out.T)[:, None, :] / h.shape[1] * (1 - h * h)   # NumPy's layout of h
    g_k = np.einsum("bpw,bpc->wc", win, dh)          # sums in dh's memory order
    return kern - lr * g_k, w_out - lr * (feat.T @ d), h, dh


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_conv_net_step_equals_eager(dtype):
    """The einsum's result, ``tanh`` of it, the mean over ``p`` and ``dh`` keep
    NumPy's strides, so the backward einsum adds in eager's order (bit for bit) and
    ``h``, ``dh`` are returned with eager's strides."""
    x, y = _data((7, 40), dtype), _data((7, 1), dtype)
    kern, w_out = _data((5, 4), dtype), _data((4, 1), dtype)
    want = conv_step(x, y, kern, w_out)
    assert order_of(want[2]) == (1, 0, 2) and order_of(want[3]) == (1, 0, 2)
    assert not isinstance(_lowered(conv_step, x, y, kern, w_out), Unsupported)
    check_native(conv_step, x, y, kern, w_out)


def _transposed_products(a, b):
    z = np.einsum("ij,jk->ki", a, b)        # F-ordered (k, i)
    return z, z * 3 + 1, np.einsum("ij,jk->ki", a, b).max(axis=0), z.min(axis=1)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "int64", "bool"])
def test_transposed_einsum_through_ops(dtype):
    """``"ij,jk->ki"`` of C operands is F-ordered in NumPy: the kernel's array too,
    through an elementwise op (int8 wraps on overflow: ``z * 3``) and max/min over
    either axis (any order gives their value)."""
    a, b = _data((6, 9), dtype), _data((9, 5), dtype)
    if dtype == "bool":
        def f(a, b):
            z = np.einsum("ij,jk->ki", a, b)
            return z, z & a[:, :1].T, z.max(axis=0)
    else:
        f = _transposed_products
    assert order_of(f(a, b)[0]) == (1, 0)
    check_native(f, a, b)


def _sum3(axis):
    def f(x, idx, k):
        z = np.einsum("bpw,wc->bpc", x[:, idx], k)   # (b, p, c), in memory (p, b, c)
        return np.tanh(z).sum(axis=axis), (z * 2.0).mean(axis=axis)
    return f


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_float_sums_of_a_laid_out_value_in_numpys_order(axis):
    """A float sum adds pairwise along the axis NumPy reads contiguously and element
    after element along the others: over ``c`` (innermost in both) pairwise, over
    ``b`` and ``p`` in order; lengths 50, 60 and 40, where the orders differ in the
    last bits."""
    x, k = rng.standard_normal((50, 64)), rng.standard_normal((5, 40))
    idx = np.arange(60)[:, None] + np.arange(5)[None, :]
    assert order_of(np.einsum("bpw,wc->bpc", x[:, idx], k)) == (1, 0, 2)
    check_native(_sum3(axis), x, idx, k)


def test_float_sums_numpy_adds_in_another_order_are_numpys_calls():
    """Over either axis (or all) of an F-ordered result, NumPy adds pairwise along
    the axis it reads contiguously, where the kernel's loop would add in another
    order: the sum is NumPy's own call on the kernel's array (its strides), not a
    loop."""
    a, b = rng.standard_normal((40, 30)), rng.standard_normal((30, 50))
    for f in (lambda a, b: np.einsum("ij,jk->ki", a, b).sum(axis=0),
              lambda a, b: np.einsum("ij,jk->ki", a, b).mean(axis=1),
              lambda a, b: np.einsum("ij,jk->ki", a, b).sum()):
        src = _lowered(f, a, b)
        assert "_np_ops.sum" in src or "_np_ops.mean" in src
        check_native(f, a, b)


def test_readers_with_no_model_stay_in_tier1():
    """A laid-out value read by an op whose result's layout is not modelled (a basic
    view, a reshape, a loop...) keeps the graph in tier 1."""
    a, b = rng.standard_normal((4, 6)), rng.standard_normal((6, 5))
    for f in (lambda a, b: np.einsum("ij,jk->ki", a, b)[1:, ::2].sum(axis=1),
              lambda a, b: np.einsum("ij,jk->ki", a, b).reshape(-1) + 1.0,
              lambda a, b: np.cumsum(np.einsum("ij,jk->ki", a, b), axis=0)):
        assert isinstance(_lowered(f, a, b), Unsupported)
        check_native(f, a, b, native=False)


@pytest.mark.parametrize("layout", ["fortran", "reversed", "stepped"])
def test_non_c_inputs_run_in_tier1_as_eager(layout):
    """The orders are derived for C-ordered inputs: a call with a Fortran-ordered, a
    reversed (negative strides) or a sliced-with-steps input runs in tier 1, with eager's values and
    strides; C inputs afterwards run in tier 2 again."""
    a, b = rng.standard_normal((6, 9)), rng.standard_normal((9, 5))
    odd = {"fortran": np.asfortranarray(a), "reversed": a[::-1].copy()[::-1],
           "stepped": np.repeat(a, 2, axis=1)[:, ::2]}[layout]
    c, made = compiled(_transposed_products)
    c(a, b)
    same(c(a, b), _transposed_products(a, b))
    calls = made[0].native_calls
    assert calls >= 1
    same(c(odd, b), _transposed_products(odd, b))
    assert made[0].native_calls == calls
    same(c(a, b), _transposed_products(a, b))
    assert made[0].native_calls == calls + 1


def test_empty_axes():
    """A contraction over an empty axis (zeros, F-ordered) is carried; an empty
    result in a non-C layout stays in tier 1 (NumPy's strides of empty arrays)."""
    def f(a, b):
        z = np.einsum("ij,jk->ki", a, b)
        return z, z - 1.0
    check_native(f, rng.standard_normal((4, 0)), rng.standard_normal((0, 3)))
    empty = (rng.standard_normal((0, 5)), rng.standard_normal((5, 3)))
    assert isinstance(_lowered(f, *empty), Unsupported)
    check_native(f, *empty, native=False)


def test_probe_and_strides():
    """The probe cuts lengths to 3 and reads NumPy's order back; the strides of a
    buffer in that order at the real lengths are NumPy's own."""
    real = np.einsum("bpw,wc->bpc", np.zeros((9, 12, 5)).transpose(1, 0, 2),
                     np.zeros((5, 7)))
    order = probe(np.einsum, ["bpw,wc->bpc", ((12, 9, 5), np.dtype("float64"), (1, 0, 2)),
                              ((5, 7), np.dtype("float64"), None)], {})
    assert order == order_of(real) == (1, 0, 2)
    assert strides_for(real.shape, 8, order) == real.strides
    one = np.zeros((4, 1, 3)).transpose(1, 0, 2)      # a length-1 axis
    assert strides_for(one.shape, 8, order_of(one)) == one.strides


def _einsum_var_ddof(a, c):
    e = np.einsum("ij,jk->ki", a, c)            # (6, 5), F-ordered
    return e.var(axis=0, ddof=4)                # 6 - 4 > 0: NumPy is quiet


def test_probe_shows_no_warning():
    """``probe`` cuts lengths over 3 to 3, where ``ddof=4`` leaves no degree of
    freedom: NumPy's "Degrees of freedom <= 0" there is the probe's, never the
    program's (hostile round 32, ``round32_carried/einsum_std_ddof_native``)."""
    import warnings
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        probe(lambda e: e.var(axis=0, ddof=4),
              [((6, 5), np.dtype("float64"), (1, 0))], {})
    assert [str(w.message) for w in seen] == []


def test_reduction_of_laid_out_value_warns_as_eager():
    """Compiled through tier 2 (its check probes the reduction's layout), the call
    shows what eager shows: no warning."""
    import warnings

    import dynamo
    a, c = _data((5, 4), "float64"), _data((4, 6), "float64")
    f = dynamo.compile(_einsum_var_ddof, backend="native",
                       options={"after_calls": 1, "background": False, "prefer": "native"})
    for _ in range(2):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = f(a, c)
        assert [str(w.message) for w in seen] == []
        same(got, _einsum_var_ddof(a, c))
