"""``np.fft`` in tier 2: Numba has no FFT, so ``rfft``/``irfft``/``fft``/``ifft``... are
NumPy's own calls from the kernel in object mode (calls.py, ``_FRESH``), and so are
the complex ``*``, ``/`` and ``abs`` around them that no loop of the kernel computes
(``elementwise.no_loop_for``); the real ops between them are loops. Eager, tier 1 and
tier 2 bit for bit: an odd length, one row and several along an axis.

Each tier-2 case costs one Numba compile: the cases are few.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_source  # noqa: E402
from tier_runs import same_in_all_tiers  # noqa: E402

rng = np.random.default_rng(5420)


def spectral_step(u, k):
    # a pseudo-spectral derivative (complex * and / through NumPy), a real update
    uh = np.fft.rfft(u)
    ux = np.fft.irfft(uh * k / (1.0 + k), u.shape[0])
    return u - 1e-3 * u * ux


def power_rows(frames, win):
    # |rfft|^2 of windowed rows (abs of a complex through NumPy): loops around it
    return np.abs(np.fft.rfft(frames * win, axis=1)) ** 2 + 1e-12


def test_spectral_step():
    # (an odd length: irfft's n is not 2 * (len - 1))
    n = 33
    u, k = rng.standard_normal(n), np.fft.rfftfreq(n, 1.0 / n)
    source = kernel_source(spectral_step, u, k)
    assert isinstance(source, str), source
    assert "_np_ops.rfft" in source and "_np_ops.irfft" in source
    same_in_all_tiers(spectral_step, u, k)


@pytest.mark.parametrize("rows", [1, 6])
def test_power_of_rows(rows):
    frames, win = rng.standard_normal((rows, 16)), np.hanning(16)
    source = kernel_source(power_rows, frames, win)
    assert isinstance(source, str), source
    assert "_np_ops.rfft" in source
    same_in_all_tiers(power_rows, frames, win)
