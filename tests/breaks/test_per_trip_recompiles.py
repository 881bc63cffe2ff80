"""Loop bodies and resume functions that compiled once per trip of an outer loop
(issue #19, corpus 14's Jukes-Cantor and mel filterbank): a graph break inside a nested
loop makes each loop's body a function of its own (``bytecode/outline.py``), called
once per trip; where the outer index, or a range made from it, reached that function as
a Python constant, it compiled again for every outer index until
``config.cache_size_limit`` and then ran uncompiled with a warning.

The corpus below was written before any of it ran under dynamo, each program with the
most compiles any one of its code objects may take over two calls (``BOUND``), also
written before it ran. Three shapes: nested loops with a break inside (a print, a
branch on array data), ranges whose bounds are read from an array, and convergence
loops that return from inside. Each runs eagerly and compiled on the eager and numpy
backends (values, printed output, arguments after the call). Loops are outlined at
once (``outline_min_elements = 0``, no trial): the mechanism is under test, on small
arrays, not the choice.

What was fixed (each checked: with it undone, these tests fail): ``range(i + 1, n)``
at the break before its loop was pinned to build it (``SymRangeVariable.reconstruct``);
the inner body read the outer index ``i`` as a constant (``break_entry``: a changing
number of the outer body is one of the inner body too); a number an inner loop's body
stored (``j``) was a constant of the resume function after the loop
(``resume_after(..., stored)``); a local both ways of a select store before any read
was wrapped and guarded by type (``branch_selects._read_arguments``); a short loop
counted by the outer index was unrolled, an entry per count
(``translator/per_trip_counts.py``); a long ``range`` carried into a resume function,
or passed as an argument, was guarded by value (``variables/changing_ranges.py``), and
a loop node pinned a range held in a local (``loop_facts.unbacked_in``).
"""

from __future__ import annotations

import collections
import contextlib
import io
import sys

import numpy as np
import pytest
from harness import check

import dynamo
from dynamo.config import config

BACKENDS = ("eager", "numpy")


@pytest.fixture(autouse=True)
def outline_small_arrays(monkeypatch):
    monkeypatch.setattr(config, "outline_min_elements", 0)
    monkeypatch.setattr(config, "outline_trial_calls", 0)


# ------------------------------------------------ nested loops with a break inside

def jukes_cantor(aln):
    n = aln.shape[0]
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            p = np.mean(aln[i] != aln[j])
            if p >= 0.75:
                d = np.inf
            else:
                d = -0.75 * np.log(1.0 - 4.0 * p / 3.0)
            D[i, j] = D[j, i] = d
    return D


def triangle_printed(x):
    acc = np.zeros(len(x))
    for i in range(len(x)):
        for j in range(i):
            print(i, j, end=";")
            acc[i] += x[j] * 0.5
    return acc


def upper_pairs_flagged(x, t):
    out = np.zeros((len(x), len(x)))
    for i in range(len(x)):
        for j in range(i, len(x)):
            if x[i] * x[j] > t:
                print("pair", i, j)
            out[i, j] = x[i] - x[j]
    return out


def rows_then_print(A):
    s = np.zeros(A.shape[0])
    for i in range(A.shape[0]):
        for j in range(i + 1):
            s[i] += A[i, j]
        print("row", i, float(s[i]))
    return s


def three_levels(x):
    total = np.zeros(1)
    n = len(x)
    for i in range(n):
        for j in range(i):
            for k in range(j):
                print(i, j, k, end=" ")
                total += x[i] * x[j] * x[k]
    return total


def shrinking_rows(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        for j in range(len(x) - i):
            print(end="")
            out[i] += x[j + i]
    return out


def window_sums_printed(x):
    n = len(x)
    s = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            print(i, j, end=",")
            s += x[i:j].sum()
    return s


def lower_solve_logged(L, b):
    n = len(b)
    y = np.zeros(n)
    for i in range(n):
        acc = b[i]
        for j in range(i):
            if abs(L[i, j]) > 0.5:
                print("big", i, j)
            acc = acc - L[i, j] * y[j]
        y[i] = acc / L[i, i]
    return y


def pair_energy(pos):
    n = len(pos)
    e = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            r = np.linalg.norm(pos[i] - pos[j])
            if r < 0.1:
                print("close", i, j)
                continue
            e += 1.0 / r
    return e


# ------------------------------------------------ ranges bounded by array-read ints

def segment_scan(x, offs):
    out = np.zeros_like(x)
    for m in range(len(offs) - 1):
        for k in range(offs[m], offs[m + 1]):
            out[k] = x[k] * 2.0 + out[k - 1]
    return out


def labelled_runs(x, edges):
    out = np.zeros_like(x)
    for m in range(len(edges) - 1):
        for k in range(edges[m], edges[m + 1]):
            out[k] = m * 1.0 + x[k]
    return out


def list_bounded_runs(x, offs):
    out = np.zeros_like(x)
    for m in range(len(offs) - 1):
        print("segment", m)
        for k in range(offs[m], offs[m + 1]):
            out[k] = x[k] - x[offs[m]]
    return out


def mel_like(bins, n):
    fbank = np.zeros((len(bins) - 2, n))
    for m in range(1, len(bins) - 1):
        left, center, right = bins[m - 1], bins[m], bins[m + 1]
        for k in range(left, center):
            fbank[m - 1, k] = (k - left) / (center - left)
        for k in range(center, right):
            fbank[m - 1, k] = (right - k) / (right - center)
    return fbank


# ------------------------------------------------ convergence loops with early returns

def jacobi_until(A, b, tol=1e-10, maxit=200):
    x = np.zeros_like(b)
    D = np.diag(A)
    R = A - np.diag(D)
    k = 0
    r = b - A @ x
    while np.abs(r).max() > tol:
        x = (b - R @ x) / D
        r = b - A @ x
        k += 1
        if k > maxit:
            return x, k
    return x, k


def newton_sqrt_logged(a, maxit=50):
    x = np.ones_like(a)
    for it in range(maxit):
        dx = (x * x - a) / (2 * x)
        x = x - dx
        print("it", it)
        if np.abs(dx).max() < 1e-12:
            return x, it
    return x, maxit


def halve_until_small(x):
    steps = 0
    while np.linalg.norm(x) > 1e-3:
        x = x * 0.5
        steps += 1
        if steps >= 40:
            return x, -1
    return x, steps


def power_iteration_early(A, maxit=100):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    for it in range(maxit):
        w = A @ v
        new = float(v @ w)
        v = w / np.linalg.norm(w)
        if abs(new - lam) < 1e-10:
            print("converged at", it)
            return new, v
        lam = new
    return lam, v


def _spd(n, seed=0):
    m = np.random.default_rng(seed).standard_normal((n, n))
    return m @ m.T + n * np.eye(n)


_rng = np.random.default_rng(19)
_x = _rng.random(7)
_wide = np.array([0, 10, 21, 40, 52, 70, 99, 120])
_mel_bins = np.array([0, 1, 3, 4, 7, 9, 12, 16, 17, 20])

# (name, fn, args, BOUND: the most compiles of one code object over two calls, written
# before the program first ran)
PROGRAMS = [
    ("Jukes-Cantor distances", jukes_cantor, (_rng.integers(0, 4, (7, 20)),), 2),
    ("triangle with a print", triangle_printed, (_x,), 2),
    ("upper pairs flagged by data", upper_pairs_flagged, (_x, 0.3), 2),
    ("rows then a print", rows_then_print, (_rng.random((6, 6)),), 2),
    ("three levels with a print", three_levels, (_rng.random(5),), 2),
    ("shrinking rows", shrinking_rows, (_x,), 2),
    ("window sums printed", window_sums_printed, (_x,), 2),
    ("lower solve logging big entries", lower_solve_logged,
     (np.tril(_rng.random((6, 6))) + 6 * np.eye(6), _rng.random(6)), 2),
    ("pair energy with close pairs skipped", pair_energy, (_rng.random((6, 2)),), 2),
    ("segment scan over wide array offsets", segment_scan, (_rng.random(120), _wide), 2),
    ("labelled runs over wide array edges", labelled_runs, (_rng.random(120), _wide), 2),
    ("runs bounded by a list of ints", list_bounded_runs,
     (_rng.random(120), [0, 10, 21, 40, 52, 70, 99, 120]), 2),
    # (8 at HEAD f120309 and fcc36d1: short ranges from array elements were unrolled, an
    # entry per range, up to the cache limit; 4 since ``dynamo/break_ranges.py``: the
    # range made at the break has changing bounds and is a node: at most 4, checked at
    # its own bound in tests/dynamo/test_break_ranges.py)
    ("mel-like triangular filters", mel_like, (_mel_bins, 24), 8),
    ("Jacobi until converged, returning at maxit", jacobi_until,
     (_spd(5), np.ones(5)), 2),
    ("Newton sqrt with a log and an early return", newton_sqrt_logged,
     (np.linspace(1.0, 9.0, 6),), 2),
    ("halve until small, returning early", halve_until_small, (np.full(4, 3.0),), 2),
    ("power iteration returning when converged", power_iteration_early, (_spd(5),), 2),
]


# The bounds written before the first run that this round does not meet: (the most
# compiles of one code object measured now, why). At HEAD f120309 every program of
# the first two shapes but "rows then a print" compiled 6-8 times per code object
# (once per outer trip, n = 7), the convergence loops 2.
NOT_MET = {
    # a short inner loop over range(i + 1) in the outer body: counts 1 and 2 pinned (a
    # loop node's count is a size: 0 and 1 are specialized), one node for the rest
    "rows then a print": (3, "counts of 1 and 2 trips are entries of their own"),
    # the same for range(i) and range(j); and an inner loop's variable left as the
    # marker of an unbound local by a loop of no trips (its type is guarded)
    "three levels with a print": (3, "small counts, and a marker's type guarded"),
    # x[i:j] of two changing ints pinned i (7, to HEAD fcc36d1); now decided in bounds,
    # its length a size of its own (symbolic/slice_windows.py): ``s`` a float then a
    # NumPy float, a window of one element, and the rest
    "window sums printed": (3, "s's type, and windows of one element"),
}
if sys.version_info >= (3, 13):
    # the break is at the comparison (``... < 1e-12`` on 3.13+), whose bool is carried to
    # the resume function: an entry per outcome, and one for the first trip's number
    # (``it == 0``; ``e`` a float, then an np.float64); at HEAD Newton's was 3 too
    NOT_MET["Newton sqrt with a log and an early return"] = (3, "3.13+: the test's bool")
    NOT_MET["pair energy with close pairs skipped"] = (3, "3.13+: the test's bool")


def _compiles(fn, args) -> collections.Counter:
    """Compiles per code object over two calls (eager backend), output silenced."""
    dynamo.reset()
    with contextlib.redirect_stdout(io.StringIO()), \
            dynamo.explain(fn, backend="eager") as compiled:
        for _ in range(2):
            compiled(*args)
    return collections.Counter(r.code.co_qualname for r in compiled.report.records)


@pytest.mark.parametrize("name,fn,args,bound", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program(name, fn, args, bound):
    for backend in BACKENDS:
        check(fn, *args, backend=backend)
    counts = _compiles(fn, args)
    assert max(counts.values()) <= NOT_MET.get(name, (bound,))[0], dict(counts)



def sum_over(x, r):
    total = np.zeros(())
    for k in r:
        total = total + x[k] * 2.0
    return total


def sum_and_count(x, r):
    return sum_over(x, r), len(r), 3 in r


def test_range_argument_that_changes():
    """A ``range`` argument whose bounds change between calls has changing bounds once
    they changed (``variables/changing_ranges.py``): one more compile, not one per
    range. (``len(r)`` or ``k in r`` reads the range: its bounds pinned, an entry per
    range, as before.) Ranges of other steps, an empty one: eager's values."""
    x = np.arange(40.0)
    with dynamo.explain(sum_over, backend="eager") as recorder:
        for lo in (0, 3, 5, 1, 7):
            assert recorder(x, range(lo, lo + 12)) == sum_over(x, range(lo, lo + 12))
    # (written as <= 2 before it ran: 3, as the loop node's start is a size, 0 and 1
    # specialized: starts 0, 1 and the rest; at HEAD one entry per range, 5)
    assert len(recorder.report.records) <= 3, [str(r) for r in recorder.report.recompiles]
    for r in (range(10, 0, -1), range(2, 2), range(0, 20, 3), range(5, 30), range(3, 15)):
        for backend in BACKENDS:
            check(sum_and_count, x, r, backend=backend)
