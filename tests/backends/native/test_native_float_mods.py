"""Float ``%`` (``np.remainder``) and ``np.fmod`` lowered to loops in the kernel
(backends/native/float_mods.py): eager, tier 1 and tier 2 bit for bit, signs of zero
included (``3.0 % -3.0`` is ``-0.0``), float32 kept float32, 0-size, 1-element,
strided and reversed inputs; ``inf % x`` and ``x % 0`` (NaN, NumPy warns) flag the
call and tier 1 reruns it with eager's warning.

Each tier-2 case costs one Numba compile: the cases are few, each covers several
forms at once.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_source  # noqa: E402
from tier_runs import same_in_all_tiers, tier_two_results  # noqa: E402

rng = np.random.default_rng(5417)


def mods(x, y, x32):
    # Python's sign rule against C's; a negative constant divisor; float32 stays float32
    # with a weak Python float; a mod inside a chain
    return (x % y, np.remainder(x, -2.5), np.fmod(x, y), x32 % 1.5,
            np.fmod(x32, np.float32(-0.75)), 0.5 * (x % 3.0) + 1.0)


def mods_views(C):
    # a strided column, a reversed row, a row mod a column
    return C[::2, 1] % 0.3, np.fmod(C[1, ::-1], 0.7), C[:4, 0] % C[2:, 2]


def mixed_ints(x8, y8):
    # int8 wraps in the product, then int and float remainders in one kernel
    p = x8 * y8
    return p % np.int8(7), (p.astype(np.float64) * 0.37) % 1.1


def same_as_loops(fn, *args):
    """``fn``'s kernel computes its mods in loops (no NumPy call in object mode), and
    every tier gives eager's results bit for bit."""
    source = kernel_source(fn, *args)
    assert isinstance(source, str), source
    assert "_npcall" not in source, source
    same_in_all_tiers(fn, *args)


def signed_values(n: int, dtype=np.float64) -> np.ndarray:
    """Random values over many magnitudes with both signs, zeros of both signs and
    exact multiples of the divisors used (their remainder is a signed zero)."""
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)
    x[: min(n, 6)] = [0.0, -0.0, 3.0, -3.0, 6.0, -2.5][: min(n, 6)]
    return x.astype(dtype)


@pytest.mark.parametrize("n", [0, 1, 37])
def test_float_remainder_and_fmod_as_eager(n):
    x, y = signed_values(n), signed_values(n)
    y[y == 0] = 1.25            # (a zero divisor warns: test_nan_results_rerun_tier_one)
    source = kernel_source(mods, x, y, signed_values(n, np.float32))
    assert isinstance(source, str), source
    assert "_npcall" not in source        # loops, not NumPy's calls in object mode
    if n:                                 # (0-size: no loop at all)
        assert "_fremainder(" in source and "np.fmod(" in source
    same_in_all_tiers(mods, x, y, signed_values(n, np.float32))


def test_views_and_signed_zeros():
    C = signed_values(24).reshape(6, 4)
    C[:, 2] = [1.0, -1.0, -1.0, 1.0, 2.0, -2.0]
    C[:4, 0] = [0.0, -0.0, 1.0, -1.0]      # 0 % -1 is -0.0; -1 % 1 is 0.0
    same_as_loops(mods_views, C)


def test_int8_wraps_beside_float_remainder():
    x8 = rng.integers(-128, 128, 40).astype(np.int8)
    y8 = rng.integers(-128, 128, 40).astype(np.int8)
    same_as_loops(mixed_ints, x8, y8)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_helper_on_every_pair_of_special_values(dtype):
    # the kernel flags calls with a NaN or infinity (tier 1 reruns them), so these pairs
    # are checked on the helper itself: x % inf is x or inf (the divisor's sign), a NaN
    # operand stays NaN, zeros take the divisor's sign, the largest and smallest values
    from dynamo.backends.native.float_mods import remainder
    from numba import njit

    @njit
    def every(a, b, out):
        for i in range(a.size):
            out[i] = remainder(a[i], b[i])
    fi = np.finfo(dtype)
    special = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, -7.0, np.inf, -np.inf,
                        np.nan, fi.max, -fi.max, fi.tiny, -fi.smallest_subnormal, 0.1],
                       dtype)
    a, b = (v.ravel() for v in np.meshgrid(special, special))
    got = np.empty_like(a)
    every(a, b, got)
    with np.errstate(all="ignore"):
        want = np.remainder(a, b)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want, strict=True)
    same = np.isnan(want) | (np.signbit(got) == np.signbit(want))
    assert same.all(), (a[~same], b[~same])


def test_nan_results_rerun_tier_one():
    # ``inf % 3.0`` and ``1.0 % 0.0`` are NaN and NumPy warns "invalid value": the kernel
    # flags the call, tier 1 reruns it and warns as eager does
    x, y = np.array([np.inf, 1.0, 2.0]), np.array([3.0, 0.0, 1.5])
    for fn in (lambda a, b: a % b, lambda a, b: np.fmod(a, b)):
        with np.errstate(all="ignore"):    # (the recorder runs the graph eagerly)
            assert "_npcall" not in kernel_source(fn, x, y)
        with warnings.catch_warnings(record=True) as eager:
            warnings.simplefilter("always")
            want = fn(x, y)
        with warnings.catch_warnings(record=True) as tiers:
            warnings.simplefilter("always")
            want2, got, made = tier_two_results(fn, x, y)
        np.testing.assert_array_equal(got[0], want, strict=True)
        assert made and all(t.error is None for t in made)
        assert [str(w.message) for w in eager]
        # eager's own call (inside tier_two_results) and each compiled call warn alike
        messages = {str(w.message) for w in tiers}
        assert messages == {str(w.message) for w in eager}, messages


def test_remainder_then_integer_cast():
    # a float-to-integer astype (NumPy's call: the kernel does not cast floats to ints)
    # of a remainder the kernel computes: before no_loop_for, the astype's check of the
    # inlined remainder left a constant behind and the graph stayed in tier 1
    def bins(x):
        return (np.round(x / 45.0) % 4).astype(np.int64), (x % 4.0).astype(np.int64)
    x = rng.random(30) * 360.0
    source = kernel_source(bins, x)
    assert isinstance(source, str), source
    assert "_fremainder(" in source
    same_in_all_tiers(bins, x)
