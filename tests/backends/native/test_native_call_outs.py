"""Tier 2's NumPy calls (backends/native/calls.py) write into a dead operand the kernel
made (issue #15, peak memory): ``np.tanh`` of a lifted intermediate nothing reads
after it fills that intermediate (``out=``) where it made a new array, as plain
NumPy's temporary elision spares one (corpus 5's Black-Scholes, tier 2: 1.40x plain
NumPy's peak with three such results; Planck's ``np.expm1``: 1.32x).

One Numba compile of sequential loops; the peak measured as
``scripts/bench_peak_memory.py`` does (test_native_buffer_slots._peak).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_native_buffer_slots import _peak


def squash(x):
    t = np.tanh(x * 2.0 + 1.0)     # tanh: NumPy's own, called from the kernel
    return t * x


def test_a_call_writes_into_its_dead_operand():
    pytest.importorskip("numba")
    from dynamo.backends.native.backend import native_backend
    from tier_runs import SYNC

    import dynamo

    x = np.random.default_rng(8).random((400, 400))     # 1.28 MB arrays: lifted
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs,
                                   options={**SYNC, "parallel_min_elements": 1 << 30}))
        return made[-1]
    compiled = dynamo.compile(squash, backend=backend)
    ratio = _peak(compiled, x) / _peak(squash, x)
    tier = made[0]
    assert tier.error is None and tier.native_calls >= 3
    assert ratio <= 1.25, ratio                      # (1.5x without the out=)
    assert "{'out': " in tier.kernel.source
    np.testing.assert_array_equal(compiled(x.copy()), squash(x.copy()), strict=True)
    dynamo.reset()

