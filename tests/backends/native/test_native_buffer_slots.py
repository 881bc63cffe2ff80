"""Tier 2's memory (issue #15: peak at most 1.25x plain NumPy's): the kernel's large
intermediates share memory where they are never alive at once
(backends/native/buffer_slots.py), an intermediate one row loop writes and reads row by
row is a row's buffer (row_buffers.py), and tier 1's buffers kept between calls go
once tier 2 answers (numpy_backend/kept_buffers.py).

The unit cases read the passes' text only (no Numba). The compiled case runs one
program eagerly and with tier 2 forced, bit for bit, and measures its peak as
``scripts/bench_peak_memory.py`` does (NumPy array bytes kept between calls plus one
warm call's tracemalloc peak). Before: 3.66x plain (tier 1's 9.9 MB kept beside tier
2), 1.34x without the shared slots, 1.33x without the row buffers; after: 1.00x.
One Numba compile, of sequential loops.
"""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest
from dynamo.backends.native.buffer_slots import assign_slots, slot_views
from dynamo.backends.native.emitter import Buffer
from dynamo.backends.native.row_buffers import contract_rows

F8 = np.dtype("float64")


def _buf(name, shape=(512, 512), result=False, dtype=F8):
    return Buffer(name, shape, dtype, result)


def test_dead_intermediates_share_a_slot_and_live_ones_do_not():
    lines = ["    for i in prange(4):", "        a1[i] = p0[i]",
             "    for i in prange(4):", "        a2[i] = a1[i]",
             "    for i in prange(4):", "        a3[i] = a2[i] + a1[0]",   # a1 alive here
             "    for i in prange(4):", "        a4[i] = a3[i]",
             "    return (_bad[0] | _nf, a4, )"]
    got = {b.name: b.slot for b in assign_slots(
        lines, [_buf("a1"), _buf("a2"), _buf("a3"), _buf("a4", result=True)])}
    assert got["a4"] is None                           # a result: its own new array
    assert len({got["a1"], got["a2"], got["a3"]}) == 3  # alive at once in statement 2
    lines[5] = "        a3[i] = a2[i]"                   # a1 dead after statement 1
    got = {b.name: b.slot for b in assign_slots(lines, [_buf("a1"), _buf("a2"),
                                                        _buf("a3")])}
    assert got["a3"] == got["a1"] != got["a2"]


def test_a_name_bound_to_an_intermediate_keeps_it_alive():
    lines = ["    a1[0] = 1.0", "    c5 = a1", "    a2[0] = 2.0", "    x = c5[0] + a2[0]"]
    got = {b.name: b.slot for b in assign_slots(lines, [_buf("a1"), _buf("a2")])}
    assert got["a1"] != got["a2"]      # a1 alive through c5 until the last statement


def test_a_slot_holds_its_largest_member_and_views_have_their_own_shape():
    lines = ["    a1[0] = 1", "    a2[0] = a1[0]", "    a3[0] = a2[0]"]
    bufs = assign_slots(lines, [_buf("a1", (10, 10)), _buf("a2", (7,), dtype=np.dtype("int32")),
                                _buf("a3", (20, 10), dtype=np.dtype("float32"))])
    assert bufs[0].slot == bufs[2].slot
    views = slot_views(bufs)
    assert [v.shape for v in views] == [(10, 10), (7,), (20, 10)]
    assert all(v.flags.c_contiguous and v.flags.aligned for v in views)
    assert np.shares_memory(views[0], views[2]) and not np.shares_memory(views[0], views[1])


def test_a_row_local_intermediate_becomes_a_row_buffer():
    lines = ["    a2 = np.empty((400, 300), np.float64)",
             "    for i9 in prange(400):",
             "        for j in range(300):",
             "            a2[i9, j] = p0[i9, j]",
             "        for j in range(300):",
             "            a3[i9, j] = a2[i9, j] * a2[i9, j]"]
    assert contract_rows(lines, ["a3"]) == [
        "    for i9 in prange(400):",
        "        a2 = np.empty((300,), np.float64)",     # each row its own, in the prange
        "        for j in range(300):",
        "            a2[j] = p0[i9, j]",
        "        for j in range(300):",
        "            a3[i9, j] = a2[j] * a2[j]"]
    seq = [line.replace("prange", "range") for line in lines]
    assert contract_rows(seq, ["a3"])[:2] == [          # sequential: once, before
        "    a2 = np.empty((300,), np.float64)", "    for i9 in range(400):"]


@pytest.mark.parametrize("change", [
    ("a2[i9, j] * a2[i9, j]", "a2[i9, j] * a2[i9 + 1, j]"),   # another row read
    ("a2[i9, j] * a2[i9, j]", "a2[i9, j] * a2.sum()"),         # the whole array
    ("p0[i9, j]\n", "p0[i9, j]\n"),                             # (unchanged: control)
])
def test_rows_read_across_or_used_elsewhere_stay_whole(change):
    lines = ["    a2 = np.empty((400, 300), np.float64)",
             "    for i9 in prange(400):",
             "        for j in range(300):",
             "            a2[i9, j] = p0[i9, j]",
             "        for j in range(300):",
             "            a3[i9, j] = a2[i9, j] * a2[i9, j]"]
    changed = [line.replace(*change) for line in lines]
    got = contract_rows(changed, ["a3"])
    assert (got == changed) == (changed != lines)
    assert contract_rows(lines + ["    x = a2[0, 0]"], ["a3"]) == lines + ["    x = a2[0, 0]"]
    assert contract_rows(lines, ["a2", "a3"]) == lines               # a result


def smooth_then_square(u):
    """Four shifted-row stencil steps (each reads the last at other rows: lifted
    intermediates in four statements, two alive at a time), then an elementwise chain
    whose values are read twice in their row (row buffers). Names are reused, so plain
    NumPy frees each value once the next is made."""
    u = u[:-2] * 0.5 + u[2:] * 0.25
    u = u[:-2] * 0.5 + u[2:] * 0.25
    u = u[:-2] * 0.5 + u[2:] * 0.25
    u = u[:-2] * 0.5 + u[2:] * 0.25
    u = u * 2.0
    u = u + u * u
    u = u - 0.5
    return u * u + u


def _peak(fn, x) -> int:
    """NumPy array bytes ``fn`` keeps between calls + one warm call's traced peak (its
    result alive), as scripts/bench_peak_memory.py measures."""
    tracemalloc.start()
    try:
        for _ in range(3):
            fn(x.copy())
        gc.collect()
        kept = sum(t.size for t in tracemalloc.take_snapshot().traces
                   if t.domain == np.lib.tracemalloc_domain)
        a = x.copy()
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        result = fn(a)  # noqa: F841 (alive at the reading)
        return tracemalloc.get_traced_memory()[1] - before + kept
    finally:
        tracemalloc.stop()


def test_tier_two_peak_stays_within_plain_numpys():
    pytest.importorskip("numba")
    from dynamo.backends.native.backend import native_backend
    from dynamo.backends.numpy_backend.kept_buffers import holders
    from tier_runs import SYNC

    import dynamo

    x = np.random.default_rng(7).random((400, 400))     # 1.28 MB arrays: lifted
    made = []

    def backend(graph, example_inputs):   # (sequential loops: a compile of ~1 s)
        made.append(native_backend(graph, example_inputs,
                                   options={**SYNC, "parallel_min_elements": 1 << 30}))
        return made[-1]
    compiled = dynamo.compile(smooth_then_square, backend=backend)
    ratio = _peak(compiled, x) / _peak(smooth_then_square, x)
    tier = made[0]
    assert tier.error is None and tier.native_calls >= 3
    np.testing.assert_array_equal(compiled(x.copy()), smooth_then_square(x.copy()),
                                  strict=True)
    assert ratio <= 1.25, ratio
    inter = [b for b in tier.kernel.buffers if not b.result]
    assert len(inter) == 3 and len({b.slot for b in inter}) == 2   # 3 steps, 2 slots
    assert sum(h.retained() for h in holders(tier.tier1)) == 0    # tier 1's let go
    dynamo.reset()
