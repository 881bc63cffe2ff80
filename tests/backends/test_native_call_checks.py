"""The per-call checks of a tier-2 call of a kernel that writes its inputs
(``call_helpers.written_check``): the same answers as the loop they replace
(``_reference`` below, HEAD's ``written_inputs`` and ``Tiered._savers``), each pair of
inputs asked once whether it overlaps, backups reused and reset. No Numba needed but
for the last test."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from dynamo.backends.native.call_helpers import overlap_pairs, written_check
from dynamo.backends.native.saves import new_savers


def _reference(args, writes):
    """The loop ``written_check`` replaces (``written_inputs`` until 2026-12-04)."""
    written = [args[k] for k in writes]
    if any(type(w) is not np.ndarray for w in written):
        return None
    arrays = [(j, a) for j, a in enumerate(args) if type(a) is np.ndarray]
    for k, w in zip(writes, written):
        if not w.flags.num & 1024:
            return None
        if len(arrays) > 1 and any(j != k and np.may_share_memory(a, w) for j, a in arrays):
            return None
    return written


def _kernel(nparams, writes):
    return SimpleNamespace(nparams=nparams, writes=list(writes))


def test_jacobi_asks_once_whether_its_two_written_grids_overlap():
    """Jacobi writes ``A`` and ``B``: one overlap test a call (the loop asked twice,
    once for each written input), and none of ``A`` with itself."""
    asked = []

    def share(a, b):
        asked.append((a, b))
        return np.may_share_memory(a, b)

    prepare = written_check(_kernel(2, [0, 1]), "jacobi", share=share)
    A, B = np.zeros((4, 4)), np.ones((4, 4))
    written, savers = prepare((A, B), [])
    assert written == [A, B] and len(asked) == 1
    assert overlap_pairs(2, [0, 1]) == [(0, 1)]
    assert overlap_pairs(3, [1]) == [(0, 1), (1, 2)]   # 0 and 2 are only read


def _values():
    base = np.arange(24.0).reshape(4, 6)
    ro = base.copy()
    ro.flags.writeable = False
    return {
        "a": np.zeros((4, 6)), "b": np.ones((4, 6)), "base": base,
        "view": base[1:3], "disjoint": base[:1], "ro": ro,
        "broadcast": np.broadcast_to(np.ones(6), (4, 6)),
        "scalar": 2.0, "npscalar": np.float64(3.0), "list": [1.0],
        "gen": np.random.default_rng(0),
    }


@pytest.mark.parametrize("nparams,writes", [(2, [0, 1]), (2, [1]), (3, [0]), (3, [0, 2])])
def test_the_same_answers_as_the_loop(nparams, writes):
    """Every combination of arrays (overlapping views, one array twice, read-only,
    broadcast), scalars and Generators: None exactly where the loop said None, else
    the same written inputs."""
    values = _values()
    prepare = written_check(_kernel(nparams, writes), "g")
    for names in itertools.product(values, repeat=nparams):
        args = tuple(values[n] for n in names)
        want = _reference(args, writes)
        got = prepare(args, [])
        if want is None:
            assert got is None, names
        else:
            assert got is not None, names
            assert len(got[0]) == len(want) and all(
                g is w for g, w in zip(got[0], want)), names


def test_backups_are_reused_and_reset_or_made_anew():
    """A spare set of backups whose shapes and dtypes fit is taken and its states
    reset (nothing saved yet); one that does not fit is left and a new set made."""
    prepare = written_check(_kernel(2, [0, 1]), "g")
    A, x = np.zeros((5, 3)), np.zeros(7)
    spare = new_savers([A, x])
    spare[1].fill(True)
    spare[3][:] = (2, 4)
    spares = [spare]
    _, savers = prepare((A, x), spares)
    assert savers is spare and spares == []
    assert not savers[1].any() and list(savers[3]) == [0, -1]
    wrong = new_savers([np.zeros((5, 3), np.float32), x])
    _, savers = prepare((A, x), [wrong])
    assert savers is not wrong and savers[0].dtype == np.float64
    assert not savers[1].any() and list(savers[3]) == [0, -1]


def test_one_grid_for_both_runs_tier_1_as_eager():
    """``jacobi(A, A)`` where the graph was made for two grids: the guards admit it,
    the check sends it to tier 1, the results equal eager's."""
    pytest.importorskip("numba")
    from test_native import jacobi, same, second_call

    A = np.random.default_rng(3).random((16, 16))
    c, tier, _ = second_call(jacobi, A.copy(), A * 0.5)
    calls = tier.native_calls
    want_grid, got_grid = A.copy(), A.copy()
    same(c(got_grid, got_grid), jacobi(want_grid, want_grid))
    same(got_grid, want_grid)
    assert tier.native_calls == calls
    same(c(A.copy(), A * 0.5), jacobi(A.copy(), A * 0.5))
    assert tier.native_calls == calls + 1
