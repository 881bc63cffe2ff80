"""A tier-2 kernel's object-mode blocks run from small functions of their own
(backends/native/objmode_outline.py): Numba copies a pickle of a block's lifted
function, whose scope lists every variable of the function the block is in, at every
run of the block. Inline in a kernel with a few hundred names that was a transient of
tens of KiB a trip (issue #15: Adam on the n-d Rosenbrock function peaked at 2.5x plain
NumPy on tier 2). The pickle names the kernel module's ``_np_ops`` table by its kind
(``ImplTable.__reduce__``): by value it held every op the table had looked up.
"""

from __future__ import annotations

import gc
import threading
import tracemalloc

import numpy as np
import pytest

pytest.importorskip("numba")

from dynamo.backends.native.backend import native_backend  # noqa: E402
from dynamo.backends.native.calls import NP_OPS  # noqa: E402
from dynamo.backends.native.objmode_outline import outline_objmode  # noqa: E402
from dynamo.backends.native.tier import Tiered  # noqa: E402
from tier_runs import SYNC  # noqa: E402

import dynamo  # noqa: E402
from dynamo.ops import REGISTRY  # noqa: E402


def _adam(x, steps):
    # the bias corrections divide by a Python float made each trip: NumPy's divide,
    # called from the kernel (an object-mode block in the trip loop)
    m, v = np.zeros_like(x), np.zeros_like(x)
    for t in range(1, steps + 1):
        g = 4.0 * x ** 3 - 2.0 * np.sin(x) + np.cos(2.0 * x) * x
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        mh = m / (1 - 0.9 ** t)
        vh = v / (1 - 0.999 ** t)
        x = x - 0.01 * mh / (np.sqrt(vh) + 1e-8)
    return x


X = np.linspace(-1.0, 1.0, 64)


def _quiet() -> None:
    """Wait for the background tier-2 compiles of earlier tests (threads named
    ``dynamo-native-*``): tracemalloc counts every thread's allocations."""
    for thread in threading.enumerate():
        if thread.name.startswith("dynamo-native-"):
            thread.join(timeout=120)


def _peak(fn, *args) -> int:
    """The least traced peak of three calls (another thread's allocation during one
    call would add to its peak, never take from it)."""
    return min(_one_peak(fn, *args) for _ in range(3))


def _one_peak(fn, *args) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = fn(*args)  # noqa: F841  (alive at the peak read, as plain's)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_a_block_in_a_trip_loop_adds_no_transient_of_the_kernel_s_size():
    # the kernel's op table filled as backends/eager_ops.py fills it (every op looked
    # up), the first time any graph of the process runs on the eager path: the same
    # table whatever ran before this test
    for name in REGISTRY:
        getattr(NP_OPS, name)
    made = []

    def backend(graph, example_inputs):
        made.append(native_backend(graph, example_inputs, options=SYNC))
        return made[-1]
    f = dynamo.compile(_adam, backend=backend)
    for _ in range(3):     # (the tier-2 compile and the blocks' first runs)
        f(X.copy(), 30)
    _quiet()
    plain = _peak(_adam, X.copy(), 30)
    tier2 = _peak(f, X.copy(), 30)
    # plain: 5.8-5.9 KiB; with the blocks inline in the kernel, 114 KiB; outlined, 14.8-
    # 15.1 KiB (Python 3.11, 3.13, 3.14; the same to the byte run after run): plain's
    # arrays and the pickle Numba copies at each block run, about 10 KB, the block's IR.
    # With the op table in that pickle by value (no ``ImplTable.__reduce__``), the
    # pickle was 34 KB once the table was filled as above, by any graph that ran before
    # on the eager path or another kernel: 38.2-38.5 KiB. The bound is 2.7-2.8 KiB over
    # the measured peaks
    assert tier2 <= plain + 12 * 1024, (plain, tier2)
    (tier,) = [m for m in made if isinstance(m, Tiered)]
    assert tier.error is None and tier.native_calls >= 3
    np.testing.assert_array_equal(f(X.copy(), 30), _adam(X.copy(), 30), strict=True)
    src = tier.__dynamo_native_source__
    kernel = src[src.index("\ndef kernel("):]
    assert "_om0(" in kernel and "with objmode(" not in kernel


def test_blocks_in_prange_loops_and_the_kernel_s_own_names():
    lines = ["    a1 = np.empty((4,), np.float64)",
             "    for i2 in prange(4):",
             "        with objmode(r3=\"float64\"):",
             "            r3 = _npcall(f, (a1,))",
             "    for t4 in range(3):",
             "        with objmode(r5=\"float64[::1]\", e6=\"boolean\"):",
             "            r5, e6 = _npcall(_np_ops.divide, (a1, float(t4 + 1)), {})",
             "        _nf |= e6"]
    out, helpers = outline_objmode(lines, ["p0"])
    assert out[2:4] == lines[2:4]      # in a prange loop: left in place
    assert out[5] == "        r5, e6, = _om0(a1, t4)"
    assert "def _om0(a1, t4):" in helpers and "    return r5, e6," in helpers
