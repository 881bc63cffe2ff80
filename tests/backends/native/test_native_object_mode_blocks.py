"""A kernel loaded from the disk cache has its object-mode blocks compiled before the
swap (backends/native/numba_calls.py ``compile_object_mode_blocks``): Numba brings such
a kernel back with each ``with objmode(...)`` block (a NumPy call from the kernel:
calls.py) uncompiled, and compiled each at the kernel's first run of it, in the
caller's thread (round 40's ``i8_scalar_div``: 21 blocks, 2.1 s of CPU in its first
tier-2 call). Asserted on what the tier records (its blocks' compiled signatures and its
log line before any tier-2 call), not on timing.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.objmode_outline import outlined_functions  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from numba.core.dispatcher import ObjModeLiftedWith  # noqa: E402
from tier_runs import SYNC  # noqa: E402

import dynamo  # noqa: E402


def _divs(x):
    # int8 scalars: each ``//`` and ``%`` is NumPy's call from the kernel (object mode)
    out = np.zeros(x.shape[0], dtype=x.dtype)
    for k in range(x.shape[0] - 1):
        out[k] = x[k] // x[k + 1] + x[k] % x[k + 1]
    return out


X = np.array([100, -7], dtype=np.int8)


def _compiled(cache_dir):
    made = []

    def backend(graph, example_inputs):
        # as the default: Numba compiles in a child process that fills the disk cache
        # (child_compile.py), and the tier's thread loads the kernel from there
        made.append(native_backend(graph, example_inputs, options={
            **SYNC, "background": True, "cache": True, "cache_dir": cache_dir}))
        return made[-1]
    return dynamo.compile(_divs, backend=backend), made


def _blocks(tiered):
    """The kernel's object-mode blocks, for each signature compiled: its own and those
    of the functions they were moved into (objmode_outline.py)."""
    results = [*tiered._dispatcher.overloads.values()] + [
        r for f in outlined_functions(tiered._dispatcher) for r in f.overloads.values()]
    return [b for result in results for b in result.lifted
            if isinstance(b, ObjModeLiftedWith)]


def test_a_cached_kernel_s_object_mode_blocks_are_compiled_before_its_first_call(
        tmp_path, caplog):
    want = _divs(X.copy())
    c, made = _compiled(str(tmp_path))
    with caplog.at_level(logging.INFO, logger="dynamo.backend"):
        c(X.copy())             # tier 1; hot: compiled in a child, loaded by the thread
        (tiered,) = made
        assert isinstance(tiered, Tiered) and tiered.wait(120)
    assert tiered.error is None and tiered.native_calls == 0
    assert "loaded from the disk cache" in caplog.text
    blocks = _blocks(tiered)
    assert len(blocks) >= 2
    # before the first tier-2 call, every block has its code (without the fix: none,
    # and the first call compiled them all)
    assert all(b.overloads for b in blocks)
    assert tiered.object_mode_blocks == len(blocks)
    assert f"({len(blocks)} object-mode blocks compiled before the swap)" in caplog.text
    got = c(X.copy())
    assert tiered.native_calls == 1
    np.testing.assert_array_equal(got, want, strict=True)
