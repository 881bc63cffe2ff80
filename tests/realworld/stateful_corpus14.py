"""Issue #16's fourteenth stateful corpus (and #19's histograms), written before it was
run: 14 programs of the state shapes that still recompiled after corpus 13. Ring
buffers indexed by a counter (in a dict keyed by ``t % cap``, in a preallocated list,
in an array's rows), counters that pick a value from a dict, tuples of changing ints
(a position compared with a constant tuple, used as an array index, unpacked into
slice bounds), beams kept as lists of tuples whose contents change, and histograms
counted in a loop over array elements (into a dict, into a list, and the array forms
the break's hint names: ``np.add.at`` and ``np.bincount``).

Conventions as in corpus 12: each scenario makes fresh state, compiles one callable
(``wrap``), calls it ``CALLS`` (10) times with one shape and changing values, and
returns each call's result with a copy of the state after it (``snap``), compared with
plain Python's (``test_stateful_corpus14.py``). ``recompiles`` is the target written
before the first run; a ``known`` note holds the count measured where a program
recompiles more, and the cause found.

Example::

    @program(recompiles=1, why=COUNTER)
    def ring_rows_of_array(wrap):
        r = ArrayRing()
        f = wrap(r.push)
        return [(f(x), r.t, snap(r.buf)) for x in XS]
"""

from __future__ import annotations

import sys

import numpy as np
from stateful_corpus4 import snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

CALLS = 10
COUNTER = "a counter the call steps itself: a changing number from the first trace"
FILL = "the container fills (an entry per size until it is full)"
SIDES = "; a branch on a changing value: an entry per side"


def _data(seed, *shape):
    return np.random.default_rng(seed).standard_normal(shape)


XS = [_data(14000 + i, 6) for i in range(CALLS)]
UNIFORM = [np.random.default_rng(14100 + i).random(8) for i in range(CALLS)]  # [0, 1)
REWARDS = [0.0, 1.0, -0.5, 0.5, 1.0, 0.25, -1.0, 0.75, 0.0, 0.5]
LOGPS = [np.log(np.random.default_rng(14200 + i).dirichlet(np.ones(4))) for i in range(CALLS)]
SCALES = {0: 1.0, 1: 0.5, 2: 0.25}


# ===================================================================== rings and counters

class DictRing:
    """A ring of (obs, reward) pairs in a dict keyed by ``t % cap``; the call returns
    the observation scaled by the mean reward held (the replay buffer of corpus 12 with
    the counter kept unreduced)."""

    def __init__(self, cap=3):
        self.data, self.t, self.cap = {}, 0, cap

    def push(self, obs, reward):
        self.data[self.t % self.cap] = (obs, reward)
        self.t += 1
        total = 0.0
        for _, r in self.data.values():
            total += r
        return obs * (total / len(self.data))


@program(recompiles=4, why=FILL + " (3 sizes); " + COUNTER + "; the slot written a "
                            "changing key of a full dict",
         known=(7, (
                   "iterating self.data.values() after the store reads every key and "
                   "applies the store at a plain key: the counter's residue t % 3 is "
                   "pinned (\"a dynamic size used as a plain int\"), an entry per slot "
                   "on top of the 3 fill sizes and the reward's first change, until the "
                   "cache limit. The values are (array, float) pairs, so the list ring's "
                   "stacked rows (variables/ring_rows.py) do not apply; the sum over the "
                   "values in key order is order-sensitive in floating point, so no "
                   "reordering is exact")))
def ring_dict_mean_reward(wrap):
    r = DictRing()
    f = wrap(r.push)
    return [(f(x, rw), r.t, sorted(r.data), [w for _, w in r.data.values()])
            for x, rw in zip(XS, REWARDS)]


class ListRing:
    """A preallocated list of 4 arrays written at ``t % 4`` (a write-only slot); the
    call returns the mean of the 4 (a smoothing window over calls)."""

    def __init__(self):
        self.buf, self.t = [np.zeros(6) for _ in range(4)], 0

    def push(self, x):
        self.buf[self.t % 4] = x
        self.t += 1
        return np.mean(self.buf, axis=0)


@program(recompiles=2, why=COUNTER + "; the slot a changing index into a list of arrays")
def ring_list_modulo_slot(wrap):
    r = ListRing()
    f = wrap(r.push)
    return [(f(x), r.t, snap(r.buf)) for x in XS]


class ArrayRing:
    """The same ring as rows of one array (``buf[t % 4] = x``): the counter indexes
    array data, never a Python object."""

    def __init__(self):
        self.buf, self.t = np.zeros((4, 6)), 0

    def push(self, x):
        self.buf[self.t % 4] = x
        self.t += 1
        return self.buf.mean(axis=0)


@program(recompiles=1, why=COUNTER)
def ring_rows_of_array(wrap):
    r = ArrayRing()
    f = wrap(r.push)
    return [(f(x), r.t, snap(r.buf)) for x in XS]


class CyclicScale:
    """A counter that picks a float from a dict of 3 (``scales[t % 3]``): a
    cycling schedule."""

    def __init__(self):
        self.t = 0

    def apply(self, x):
        s = SCALES[self.t % 3]
        self.t += 1
        return x * s


@program(recompiles=3, why=COUNTER + "; the key picks one of 3 values (an entry per key "
                            "at most)")
def counter_keys_a_dict(wrap):
    c = CyclicScale()
    f = wrap(c.apply)
    return [(f(x), c.t) for x in XS]


# ===================================================================== tuples of ints

class Walker:
    """A position kept as a tuple of ints that moves one column per call on a 4x4
    torus; a bonus when it equals a constant tuple."""

    def __init__(self):
        self.pos = (1, 0)

    def step(self, x):
        r, c = self.pos
        self.pos = (r, (c + 1) % 4)
        bonus = 2.0 if self.pos == (1, 3) else 1.0
        return x * bonus


@program(recompiles=2, why="the position ints that change; the comparison" + SIDES)
def tuple_position_compared(wrap):
    w = Walker()
    f = wrap(w.step)
    return [(f(x), w.pos) for x in XS]


class GridVisits:
    """A visit grid (an array) indexed by a tuple position that changes each call:
    ``grid[self.pos] += x.sum()``."""

    def __init__(self):
        self.grid, self.pos = np.zeros((3, 3)), (0, 0)

    def visit(self, x):
        self.grid[self.pos] += x.sum()
        r, c = self.pos
        self.pos = ((r + 1) % 3, (c + 2) % 3)
        return self.grid.sum(axis=0)


@program(recompiles=1, why="the position, a tuple of changing ints, an array index")
def tuple_position_as_index(wrap):
    g = GridVisits()
    f = wrap(g.visit)
    return [(f(x), g.pos, snap(g.grid)) for x in XS]


class SlidingBounds:
    """A window kept as a (lo, hi) tuple of ints that slides by one each call (width 3):
    the call returns the window's part of the input."""

    def __init__(self):
        self.win = (0, 3)

    def take(self, x):
        lo, hi = self.win
        self.win = ((lo + 1) % 3, (lo + 1) % 3 + 3)
        return x[lo:hi] * 2.0


@program(recompiles=2, why="slice bounds from a tuple of changing ints (one width)")
def tuple_slice_bounds(wrap):
    s = SlidingBounds()
    f = wrap(s.take)
    return [(f(x), s.win) for x in XS]


# ===================================================================== beams

class ScoreBeams:
    """Beams as a list of (score, last token) tuples, width 2 from the first call;
    each call scores every beam with each of 4 tokens from the call's table (``float()``
    of array data) and keeps the best 2."""

    def __init__(self):
        self.beams = [(0.0, 0)]

    def step(self, logp):
        row = logp.tolist()
        cand = [(s + row[tok], tok) for s, _ in self.beams for tok in range(4)]
        self.beams = sorted(cand, reverse=True)[:2]
        return np.array([s for s, _ in self.beams])


@program(recompiles=3, why="the beams widen from 1 to 2 at the first call; their scores "
                            "and tokens " + NUMBER,
         known=(7, (
                   "logp.tolist() breaks, and sorted() of the candidates compares their "
                   "float scores: the order decides which tuples are kept, so each score "
                   "carried over the break into the resume function is pinned (\"a "
                   "changing float used as a plain value\"): an entry per call until the "
                   "cache limit. The order truly decides the result; guarding it as a "
                   "permutation instead would still change every call")))
def beams_of_score_token_pairs(wrap):
    b = ScoreBeams()
    f = wrap(b.step)
    return [(f(lp), snap(b.beams)) for lp in LOGPS]


class BeamHistory:
    """Beams whose token tuples grow by one each call, reset to empty every 3 calls;
    the call returns the best beam's score times the input sum."""

    def __init__(self):
        self.beams, self.n = [((), 0.0)], 0

    def step(self, logp):
        cand = [(toks + (t,), s + lp) for toks, s in self.beams
                for t, lp in enumerate(logp.tolist())]
        cand.sort(key=lambda c: -c[1])
        self.n += 1
        self.beams = cand[:2] if self.n % 3 else [((), 0.0)]
        return np.exp(np.array([s for _, s in cand[:2]]))


@program(recompiles=4, why="token tuples of 3 lengths (0, 1, 2), the beam count 1 or 2, "
                            "the reset" + SIDES,
         known=(13, (
                   "logp.tolist() breaks inside the comprehension and cand.sort(key=...) "
                   "breaks (\"attribute 'sort' of list of 4\", with a hint that does not "
                   "fit: the list is the trace's own): the frame and three resume "
                   "functions each pay the candidates' count (4 or 8), the token tuples' "
                   "length (1 to 3) and the reset side on their own, and the float "
                   "scores carried over the breaks are guarded by value: 18 compiles. "
                   "On 3.12 and later the comprehension is inlined (PEP 709) and the "
                   "program keeps its target")) if sys.version_info < (3, 12) else None)
def beams_grow_then_reset(wrap):
    b = BeamHistory()
    f = wrap(b.step)
    return [(f(lp), snap(b.beams), b.n) for lp in LOGPS]


# ===================================================================== histograms (#19)

class DictHistogram:
    """A histogram in a dict kept across calls: ``counts[k] = counts.get(k, 0) + 1``
    over the elements of each call's input (binned by ``int(v * 4)``)."""

    def __init__(self):
        self.counts = {}

    def add(self, u):
        for v in u:
            k = int(v * 4)
            self.counts[k] = self.counts.get(k, 0) + 1
        return u * len(self.counts)


@program(recompiles=2, why="the loop breaks at int() of array data (hint: np.unique / "
                            "np.bincount); the dict's keys fill")
def histogram_into_dict(wrap):
    h = DictHistogram()
    f = wrap(h.add)
    return [(f(u), dict(sorted(h.counts.items()))) for u in UNIFORM]


class ListHistogram:
    """A histogram in a list of 10 ints: ``hist[int(v * 10)] += 1``."""

    def __init__(self):
        self.hist = [0] * 10

    def add(self, u):
        for v in u:
            self.hist[int(v * 10)] += 1
        return np.array(self.hist) / sum(self.hist)


@program(recompiles=2, why="the loop breaks at int() of array data (hint: np.bincount); "
                            "the counts ints that change")
def histogram_into_list(wrap):
    h = ListHistogram()
    f = wrap(h.add)
    return [(f(u), list(h.hist)) for u in UNIFORM]


class AddAtHistogram:
    """The hint's form: ``np.add.at`` into an array kept across calls."""

    def __init__(self):
        self.hist = np.zeros(10, dtype=np.int64)

    def add(self, u):
        np.add.at(self.hist, (u * 10).astype(np.int64), 1)
        return self.hist / self.hist.sum()


@program(recompiles=0)
def histogram_add_at(wrap):
    h = AddAtHistogram()
    f = wrap(h.add)
    return [(f(u), snap(h.hist)) for u in UNIFORM]


class BincountHistogram:
    """The hint's other form: ``np.bincount(idx, minlength=10)`` added to a kept
    array."""

    def __init__(self):
        self.hist = np.zeros(10, dtype=np.int64)

    def add(self, u):
        self.hist = self.hist + np.bincount((u * 10).astype(np.int64), minlength=10)
        return self.hist / self.hist.sum()


@program(recompiles=0)
def histogram_bincount(wrap):
    h = BincountHistogram()
    f = wrap(h.add)
    return [(f(u), snap(h.hist)) for u in UNIFORM]


class StepLog:
    """A dict keyed by a step counter that is only written (``log[t] = x.mean()``)
    and a running total: write-only state."""

    def __init__(self):
        self.log, self.t, self.total = {}, 0, 0.0

    def record(self, x):
        m = x.mean()
        self.log[self.t] = m
        self.t += 1
        self.total += float(np.abs(x).sum())
        return x - m


@program(recompiles=2, why=COUNTER + " (a write-only key); float() of data a break")
def counter_keyed_write_only_log(wrap):
    s = StepLog()
    f = wrap(s.record)
    return [(f(x), s.t, snap(s.log), s.total) for x in XS]
