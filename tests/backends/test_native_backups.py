"""Tier 2 without a backup of an input whose old contents no call reads
(``saves.free_inputs``, ``error_state.rerun_completes``), and with one wherever a rerun in
tier 1 could stop before the input's first store (errstate "raise", warnings as
errors) or the input is read before it is written: every result and input after a
call, undone or not, equals eager's, bit for bit."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from test_native import jacobi, same, second_call  # noqa: E402 (needs numba)

# every visible condition raising: the one error state besides the default that
# runs tier 2 (error_state._RAISING_ERR)
RAISING = {"divide": "raise", "over": "raise", "invalid": "raise"}


def _grids(n=128, big=False):
    """Jacobi's grids: 128x128 float64 is ``tier.FREE_MIN_BYTES``, the smallest B
    whose backup a call skips (a smaller one is backed up: cheaper than the check)."""
    A = np.random.default_rng(98).random((n, n))
    if big:
        A[n // 2:n // 2 + 2] = 1e308   # step 1 overflows: the call is undone
    return A, A * 0.5


def _shift_then_bump(x, B):   # B[0] is read before it is written (outside B[1:])
    B[1:] = x[1:] * 2.0
    B[0] = B[0] + 1.0
    return B


def _same_as_eager(fn, compiled, want_args, got_args, overflow: bool) -> None:
    """``fn`` and ``compiled`` called on equal inputs: both warn of an overflow where
    ``overflow`` says; their results, and the inputs after the calls, bit-equal."""
    if overflow:
        with pytest.warns(RuntimeWarning, match="overflow"):
            want = fn(*want_args)
        with pytest.warns(RuntimeWarning, match="overflow"):
            got = compiled(*got_args)
    else:
        want, got = fn(*want_args), compiled(*got_args)
    same(got, want)
    for g, w in zip(got_args, want_args):
        same(g, w)


def test_jacobi_skips_the_backup_of_b_only_and_matches_eager():
    """B's first access is its first step's store and the loop stores the same
    region: no backup of B (its backup buffer stays untouched); A is read first and
    keeps its backup. Results bit-equal to eager, undone calls included."""
    c, tier, _ = second_call(jacobi, *_grids())
    writes = tier.kernel.writes
    assert writes == [0, 1] and tier.kernel.free_writes == (writes.index(1),)
    spare = tier._spares[-1]
    spare[2].fill(-7.0)                     # B's backup: must stay as it is
    spare[0].fill(-7.0)                     # A's backup: the kernel saves into it
    for big in (False, True, False):
        want_args, got_args = _grids(big=big), _grids(big=big)
        calls = tier.native_calls
        _same_as_eager(jacobi, c, want_args, got_args, overflow=big)
        if not big:
            assert tier.native_calls == calls + 1
    assert (spare[2] == -7.0).all() and not (spare[0] == -7.0).all()


def test_a_small_b_keeps_its_backup_and_matches_eager():
    """Below ``FREE_MIN_BYTES`` (64x64: 32 KiB) B is backed up like A: the skip's
    per-call check (``rerun_completes``, ``mark_saved``, about 2 us) costs more than
    the backup. Its backup buffer is written; results bit-equal to eager, undone
    calls included."""
    c, tier, _ = second_call(jacobi, *_grids(64))
    assert tier.kernel.free_writes == (1,) and not tier._free_pays
    spare = tier._spares[-1]
    spare[2].fill(-7.0)                     # B's backup: the kernel saves into it
    for big in (False, True):
        want_args, got_args = _grids(64, big=big), _grids(64, big=big)
        _same_as_eager(jacobi, c, want_args, got_args, overflow=big)
    assert not (spare[2] == -7.0).all()


@pytest.mark.parametrize("mode", ["errstate", "warnings"])
def test_a_rerun_that_raises_before_the_store_finds_b_restored(mode):
    """Under ``np.errstate(**RAISING)`` or warnings as errors eager raises in
    Jacobi's first step, before it writes B: tier 2 (which ran the whole call) must
    have kept B's backup and restored it. Fails if the backup is skipped there."""
    c, tier, _ = second_call(jacobi, *_grids())
    want_args, got_args = _grids(big=True), _grids(big=True)
    calls = tier.native_calls
    results = []
    for args, fn in ((want_args, jacobi), (got_args, c)):
        with warnings.catch_warnings(), np.errstate(**RAISING if mode == "errstate"
                                                    else {}):
            if mode == "warnings":
                warnings.simplefilter("error", RuntimeWarning)
            with pytest.raises((FloatingPointError, RuntimeWarning)) as err:
                fn(*args)
            results.append((type(err.value), str(err.value)))
    assert results[0] == results[1]
    for g, w in zip(got_args, want_args):
        same(g, w)
    same(got_args[1], _grids(big=True)[1])  # B as the caller passed it
    assert tier.native_calls == calls


# Run as a program of its own: under pytest every warning is recorded, never formatted.
_FORMAT_RAISES = """
import sys, warnings
sys.path.insert(0, HERE)
from test_native import jacobi, second_call
from test_native_backups import _grids

c, tier, _ = second_call(jacobi, *_grids())

class FormatError(Exception):
    pass

def raising_format(*args, **kwargs):
    raise FormatError("the program's formatwarning")

warnings.simplefilter("always", RuntimeWarning)
warnings.formatwarning = raising_format
seen = []
for fn in (jacobi, c):
    A, B = _grids(big=True)
    try:
        fn(A, B)
        seen.append("went on")
    except FormatError:
        seen.append("raised")
    seen.append(B.tobytes() == _grids(big=True)[1].tobytes())
print(seen)
"""


def test_a_formatwarning_that_raises_keeps_the_backup():
    """A ``formatwarning`` of the program's that raises stops eager in Jacobi's first
    step, before it writes B: tier 2 must keep B's backup (``_rerun_completes`` asks
    the numpy backend's ``warnings_never_raise``, which checks how a warning would
    be shown) and restore it. Fails where only the filters and ``showwarning`` are
    checked."""
    here = str(Path(__file__).parent)
    done = subprocess.run([sys.executable, "-c", _FORMAT_RAISES.replace("HERE", repr(here))],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "['raised', True, 'raised', True]", \
        done.stdout + done.stderr[-3000:]


def _swap_wide(A, B):          # the loop's store, through the slot that holds B on
    B[1:] = A[1:] * 0.5        # even trips, writes B[0], which trip 1 reads first
    for _ in range(12):        # (a loop node: a short loop is unrolled)
        A[:-1] = B[:-1] * 4.0
        A, B = B, A
    return A, B


def _inputs(name, bad):
    x = np.random.default_rng(5).random(50)
    if name == "shift-then-bump":
        if bad:
            x[30] = 1e308                       # B[1:]'s store overflows
        return x, np.arange(50.0)
    B = x * 0.5
    if bad:
        B[0] = 1e302                            # trip 11 overflows
    return x, B


@pytest.mark.parametrize("name, fn", [("shift-then-bump", _shift_then_bump),
                                      ("swap-wide", _swap_wide)])
def test_a_later_store_outside_the_first_region_keeps_the_backup(name, fn):
    """A store after the first one writes outside its region, into an element read
    before (``B[0] + 1.0``; trip 1 reading ``B[0]`` that trip 2 writes through the
    swapped slot): an undone call must put ``B`` back, or tier 1 reads the kernel's
    values. Undone and plain calls equal eager's."""
    c, tier, _ = second_call(fn, *_inputs(name, False))
    for bad in (True, False):
        want_args, got_args = _inputs(name, bad), _inputs(name, bad)
        calls = tier.native_calls
        _same_as_eager(fn, c, want_args, got_args, overflow=bad)
        assert tier.native_calls == calls + (not bad)
    assert tier.kernel.free_writes == ()
