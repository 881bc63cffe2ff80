"""The everyday corpus (``everyday_programs.py``): every function gives eager's
results on the eager and numpy backends, and breaks no more often than recorded here
(docs/realworld.md, "Everyday functions").

None breaks: the one break recorded before, ``int()`` of a computed count that is
only returned, is converted by the glue after the graph now. The corpus found the set operations
(``setdiff1d``/``intersect1d``/``union1d``: unbacked sizes, docs/unbacked.md),
``np.digitize``, ``np.unravel_index``, ``np.lexsort``, ``np.histogram2d`` and
``np.lib.stride_tricks.sliding_window_view`` breaking; the tests at the end check
those ops' edges.
"""

from __future__ import annotations

import numpy as np
import pytest
from everyday_programs import PROGRAMS
from harness import check

BACKENDS = ("eager", "numpy")
EXPECTED_BREAKS: dict[str, int] = {}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_everyday_program(name, fn, args, backend):
    breaks = EXPECTED_BREAKS.get(name, 0)
    check(fn, *args, breaks=breaks, backend=backend, **({"graphs": 1} if not breaks else {}))


def test_corpus_is_broad():
    assert len(PROGRAMS) >= 40
    assert len({name for name, _, _ in PROGRAMS}) == len(PROGRAMS)


def digitize_forms(x, bins):
    return (np.digitize(x, bins), np.digitize(x, bins, right=True),
            np.digitize(x[0], bins), np.digitize(x, [3.0, 1.0, -1.0]))


def sliding_windows(x):
    swv = np.lib.stride_tricks.sliding_window_view
    win = swv(x, 3)
    grid = swv(x.reshape(3, 4), (2, 2))
    return win.max(axis=1), win.mean(axis=-1), grid.sum(axis=(2, 3)), win.shape


def write_into_windows(x):
    win = np.lib.stride_tricks.sliding_window_view(x, 3)
    try:
        win[0, 0] = 1.0      # read-only: NumPy raises ValueError when the graph runs
    except ValueError:
        return x * 2
    return x


@pytest.mark.parametrize("backend", BACKENDS)
def test_digitize(backend):
    x = np.linspace(-2, 4, 12)
    check(digitize_forms, x, np.array([-1.0, 0.0, 2.5]), graphs=1, breaks=0,
          backend=backend)
    check(digitize_forms, x.astype(np.float32), np.array([2.5, 0.0, -1.0]), backend=backend)
    check(digitize_forms, x, np.array([0.0, 2.0, 1.0]), backend=backend)  # not monotonic
    check(digitize_forms, x + 1j, np.array([0.0, 1.0]), backend=backend)  # complex x


@pytest.mark.parametrize("backend", BACKENDS)
def test_sliding_window_view(backend):
    check(sliding_windows, np.arange(12.0), graphs=1, breaks=0, backend=backend)
    check(write_into_windows, np.arange(12.0), backend=backend)
    check(lambda x: np.lib.stride_tricks.sliding_window_view(x, 20), np.arange(12.0),
          backend=backend)                                # window too large: ValueError


def unravel_forms(grid, flat):
    i, j = np.unravel_index(np.argmax(grid), grid.shape)
    rows, cols = np.unravel_index(flat, grid.shape)
    return i, j, rows, cols, np.unravel_index(flat, (2, 3, 4), order="F")


def lexsort_forms(a, b):
    return np.lexsort((a, b)), np.lexsort(np.stack([a, b])), np.lexsort((b,), axis=0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_unravel_index(backend):
    grid = np.linspace(-1, 1, 24).reshape(4, 6) ** 2
    check(unravel_forms, grid, np.array([0, 5, 23]), graphs=1, breaks=0, backend=backend)
    check(unravel_forms, grid, np.array([0, 24]), backend=backend)    # out of bounds
    check(unravel_forms, grid, np.array([1.0]), backend=backend)      # not integers


@pytest.mark.parametrize("backend", BACKENDS)
def test_lexsort(backend):
    a = np.array([3, 1, 3, 2, 1, 3])
    b = np.array([0.5, 0.1, 0.2, 0.9, 0.1, 0.0])
    check(lexsort_forms, a, b, graphs=1, breaks=0, backend=backend)
    check(lexsort_forms, a, b[:5], backend=backend)                   # shapes differ


def histogram2d_forms(x, y, w):
    h, xe, ye = np.histogram2d(x, y, bins=(4, 3), range=[[-2, 2], [-2, 2]])
    hw = np.histogram2d(x, y, bins=5, weights=w, density=True)
    return h, xe, ye, hw, np.histogram2d(x, y, bins=[[-1.0, 0.0, 1.0], [0.0, 2.0]])


@pytest.mark.parametrize("backend", BACKENDS)
def test_histogram2d(backend):
    rng = np.random.default_rng(5)
    x, y, w = rng.normal(size=30), rng.normal(size=30), rng.uniform(size=30)
    check(histogram2d_forms, x, y, w, graphs=1, breaks=0, backend=backend)
    check(histogram2d_forms, x[:0], y[:0], w[:0], backend=backend)       # empty
    check(histogram2d_forms, x, y[:5], w, backend=backend)               # lengths differ
    x[3] = np.nan
    check(histogram2d_forms, x, y, w, backend=backend)                   # NaN, no range
