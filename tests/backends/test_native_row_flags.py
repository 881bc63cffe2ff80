"""A one-dimensional loop's NaN/infinity and index flags are counted in a local over
the loop and ORed into the kernel's flag once after it (``emitter.row_flag``), not
stored into ``_bad`` element by element (a branch and a store per element that kept
LLVM from vectorising the FIR's loop); nests with inner loops still set ``_bad`` once
a row. A flagged call reruns in tier 1 exactly as before: NumPy's warnings and
``IndexError`` as eager, on Numba's threads and on the one-thread twin.

Each compiled test costs one Numba compile (1-5 s of CPU).
"""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from kernel_sources import kernel_sources  # noqa: E402
from test_native import compiled, same  # noqa: E402 (needs numba)

PAR = {"parallel_min_elements": 16}   # small arrays, ``prange`` loops


def _sources(fn, *args) -> list:
    """Each graph's kernel function (its source from ``def kernel`` on), loops of 16
    elements or more parallel; every graph must lower."""
    return [s.split("def kernel")[1]
            for s in kernel_sources(fn, *args, strict=True, parallel_min=16)]


def fir(x, taps):
    n = len(x) - 3
    y = np.zeros(n)
    for k in range(4):
        y += taps[3 - k] * x[k:k + n]
    return y


def sqrt_twice(x):
    a = np.sqrt(x)              # a row group of two one-dimensional nests
    return a, a * 2.0 + a


def gather(x, idx):
    return x[idx] * 2.0


def test_one_dimensional_loops_count_their_flags():
    for fn, args in [(fir, (np.ones(64), np.ones(4))), (sqrt_twice, (np.ones(64),)),
                     (gather, (np.ones(64), np.arange(64)))]:
        (source,) = _sources(fn, *args)
        assert "prange(" in source, source
        assert "_bad[0] = True" not in source, source
        assert "c += nf" in source and "c != 0" in source, source
    (source,) = _sources(lambda x: np.sqrt(x) + 1.0, np.ones((8, 8)))
    assert "_bad[0] = True" in source   # a row with an inner loop: one store a row


def _calls(fn, args, threads_choice=None):
    """Three compiled calls (tier 1, then tier 2) against eager: results, arguments
    afterwards, the warnings or the error."""
    c, made = compiled(fn, **PAR)
    if threads_choice is not None:   # (the first call compiles; it may raise as eager)
        with contextlib.suppress(IndexError), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c(*[a.copy() for a in args])
        made[0].set_threads(threads_choice)
        assert made[0].twin.dispatcher is not None
    for _ in range(3):
        want_args = [a.copy() for a in args]
        got_args = [a.copy() for a in args]
        try:
            with warnings.catch_warnings(record=True) as want_w:
                warnings.simplefilter("always")
                want = fn(*want_args)
            want_err = None
        except Exception as e:  # noqa: BLE001
            want, want_err, want_w = None, e, []
        try:
            with warnings.catch_warnings(record=True) as got_w:
                warnings.simplefilter("always")
                got = c(*got_args)
            got_err = None
        except Exception as e:  # noqa: BLE001
            got, got_err, got_w = None, e, []
        assert type(got_err) is type(want_err), (got_err, want_err)
        if want_err is None:
            same(got, want)
            assert [str(w.message) for w in got_w] == [str(w.message) for w in want_w]
        for g, w in zip(got_args, want_args):
            same(g, w)
    return made


@pytest.mark.parametrize("threads", [None, 1])
def test_flagged_calls_rerun_in_tier1_as_before(threads):
    """NaN from sqrt of a negative (a warning), an infinity in the FIR's sum, an index
    out of bounds: each in one element of a one-dimensional prange; the call reruns in
    tier 1 and warns or raises as eager. ``threads=1``: the twin without
    ``parallel=True`` (one_thread.py), where the count is a plain local."""
    x = np.linspace(1.0, 2.0, 64)
    bad = x.copy()
    bad[37] = -1.0
    big = x.copy()
    big[50] = 1e308
    idx = np.arange(64)
    idx[41] = 64
    for fn, flagged, fine in [(sqrt_twice, [bad], [x]),
                              (fir, [big, np.full(4, 1e308)], [x, np.ones(4)]),
                              (gather, [x, idx], [x, np.arange(64)[::-1].copy()])]:
        made = _calls(fn, flagged, threads)
        assert made[0].native_calls == 0, fn   # every call flagged: tier 1 answered
        made = _calls(fn, fine, threads)
        assert made[0].native_calls >= 2, fn   # (the first call compiles in tier 1)
