"""A changing int index after Python effects (issue #16): ``self.n += 1; return
x[self.n % 4]`` pinned the index, one entry per position, because the graph must not
raise ``IndexError`` after the attribute write it replays later. The index is now
guarded in bounds of its static axis (``symbolic/indices.guard_in_bounds``): one entry
serves every position in bounds, and a position out of bounds fails the guard, so the
call raises eager's ``IndexError`` with eager's state. Each program runs against eager
with its state compared after every call (``check_stateful_program``), on both CPU
backends.

Example::

    class Cycler:
        def step(self, x):
            self.n += 1
            return x[self.n % 4]          # one entry for every n
"""

import numpy as np
import pytest
from rw_check import BACKENDS
from stateful_programs import NUMBER, registrar
from test_stateful_programs import _measured, check_stateful_program

X = np.random.default_rng(92).standard_normal((4, 3))
PROGRAMS: list = []


program = registrar(PROGRAMS, why=NUMBER)


class Cycler:
    def __init__(self, n=0):
        self.n, self.seen = n, []

    def remainder(self, x):
        self.n += 1
        return x[self.n % 4] * 2.0

    def quotient_and_remainder(self, x):
        self.n += 1
        self.seen.append(self.n)        # a second effect before the index
        return x[self.n // 3, self.n % 3], x[self.n % 4, 1:]

    def offset(self, x):
        self.n += 1
        return x[self.n - 3]


def _calls(f, owner, n, x=X):
    """``n`` calls, each result (or eager's IndexError) with the state after it."""
    out = []
    for _ in range(n):
        try:
            got = f(x)
        except IndexError as e:
            got = f"IndexError: {e}"
        out.append((got, owner.n, list(owner.seen)))
    return out


@program(recompiles=1)
def remainder_index_of_counter(wrap):
    c = Cycler()
    return _calls(wrap(c.remainder), c, 9)


@program(recompiles=1)
def quotient_and_remainder_indices(wrap):
    c = Cycler()
    return _calls(wrap(c.quotient_and_remainder), c, 8)   # n // 3 stays below 4


@program(recompiles=4)
def offset_index_runs_out_of_bounds(wrap):
    # n - 3 from -2 to 5: -2..3 in bounds, then IndexError at 4 and 5, as eagerly;
    # the guard fails there (a new entry per raising position at most)
    c = Cycler()
    return _calls(wrap(c.offset), c, 8)


EMB = np.random.default_rng(93).standard_normal((10, 3))
# two calls of the same ids (their first change comes at call 2), then ids that change
IDS = [[1, 2, 3, 4], [1, 2, 3, 4], [5, 0, 9, 9], [7, -10, 2, 8], [3, 3, 3, 3], [0, 1, 0, 1]]


class Embedder:
    """``seen.extend(ids)`` reads the ids item by item (changing ints once they
    changed), then ``EMB[ids]`` indexes with them after that effect: guarded in bounds
    item by item, not pinned (one entry per list of ids before)."""

    def __init__(self):
        self.seen = []

    def embed(self, ids):
        self.seen.extend(ids)
        return EMB[ids].sum(axis=0)


def _embed_calls(f, owner, lists):
    out = []
    for ids in lists:
        try:
            got = f(list(ids))
        except IndexError as e:
            got = f"IndexError: {e}"
        out.append((got, list(owner.seen)))
    return out


@program(recompiles=1)
def list_index_after_extend(wrap):
    e = Embedder()
    return _embed_calls(wrap(e.embed), e, IDS)


@program(recompiles=3)
def list_index_after_extend_out_of_bounds(wrap):
    # 10 and -11 are out of bounds: eager's IndexError, after the extend (kept)
    e = Embedder()
    return _embed_calls(wrap(e.embed), e, IDS[:3] + [[1, 10, 2, 3], [4, 5, 6, 7],
                                                      [-11, 0, 0, 0], [2, 2, 1, 0]])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prog", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_index_after_effects(prog, backend):
    check_stateful_program(prog, backend)


IN_BOUNDS = PROGRAMS[:2] + PROGRAMS[3:4]


@pytest.mark.parametrize("prog", IN_BOUNDS, ids=[p.name for p in IN_BOUNDS])
def test_index_is_compiled_whole(prog):
    """No graph break and no frame run eagerly (which would also avoid recompiles)."""
    _, report = _measured(prog, "eager")
    assert report.graph_break_count == 0, [b.reason for r in report.records for b in r.breaks]
    assert not report.skipped, report.skipped
