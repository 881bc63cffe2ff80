"""Issue #16's fourth corpus, its second half (``stateful_corpus4.py`` has the first):
reversed and stepped windows of a held list (``h[-4:][::-1]``, ``reversed(h[-3:])``),
loops over a window (``for v in self.hist[-k:]``), and sets of seen ids. Each runs
``CALLS`` calls, the lists' lengths crossing 0, 1 and the window's width; results,
state after each call and printed output are compared with plain Python's.

Example::

    @program(recompiles=1, why=NUMBER)
    def reversed_builtin_window(wrap):
        s = ReversedSum()
        f = wrap(s.step)
        return [(f(XS[i], LOSSES[i]), snap(s.h)) for i in range(CALLS)]
"""

from __future__ import annotations

import sys

import numpy as np
from stateful_corpus4 import CALLS, LOSSES, XS, snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

FILLS = "the window fills: an entry per length of its held part up to its width"
LOOP = ("a loop over a window is unrolled: an entry per length of its held part while it "
        "fills (up to the width less 1)")


# ===================================================================== reversed windows

class ReversedWeights:
    """``np.array(self.h[-4:][::-1])`` weighted by position: the newest weighs most."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        w = np.array(self.h[-4:][::-1])
        return x * float(np.sum(w * 0.5 ** np.arange(w.shape[0])))


@program(recompiles=1, why=NUMBER + " (the window newest first is a window of h: "
                                    "list_windows._view)")
def reversed_slice_weights(wrap):
    s = ReversedWeights()
    f = wrap(s.step)
    return [(f(XS[i], LOSSES[i]), snap(s.h)) for i in range(CALLS)]


class ReversedSum:
    """``reversed(self.h[-3:])`` zipped with fixed weights."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        acc = 0.0
        for w, u in zip((0.6, 0.3, 0.1), reversed(self.h[-3:])):
            acc += w * u
        return x * acc


@program(recompiles=1, why=NUMBER,
         known=(2, "reversed() iterates the window: an entry per length of its held part "
                   "while it fills"))
def reversed_builtin_window(wrap):
    s = ReversedSum()
    f = wrap(s.step)
    return [(f(XS[i], LOSSES[i]), snap(s.h)) for i in range(CALLS)]


class ReversedFrames:
    """``np.stack(list(reversed(self.frames[-2:])))``: the last two frames, newest first."""

    def __init__(self):
        self.frames = []

    def step(self, x):
        self.frames.append(x)
        return np.stack(list(reversed(self.frames[-2:]))).sum(0)


@program(recompiles=1, why="the list is empty at first (one entry); the window of "
                           "frames reversed is read item by item")
def reversed_array_frames(wrap):
    s = ReversedFrames()
    f = wrap(s.step)
    return [(f(XS[i]), snap(s.frames)) for i in range(CALLS)]


class SteppedTail:
    """``self.h[-5:][::2]``: every other of the last five."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        return x * np.mean(self.h[-5:][::2])


@program(recompiles=1, why=NUMBER,
         known=(3, "as h[-5::2] (a window of h: list_windows._view): the held part's "
                   "length modulo 2 decides whether the appended v is in (an entry per "
                   "remainder), and the held part 1 long is data of length 1"))
def stepped_slice_of_window(wrap):
    s = SteppedTail()
    f = wrap(s.step)
    return [(f(XS[i], LOSSES[i]), snap(s.h)) for i in range(CALLS)]


class ReversedTokens:
    """A token context newest first: ``EMB[self.tokens[-3:][::-1]]``."""

    EMB = np.random.default_rng(4300).standard_normal((10, 5))

    def __init__(self):
        self.tokens = [1]

    def step(self, x):
        ctx = self.tokens[-3:][::-1]
        h = self.EMB[ctx] * np.arange(1, len(ctx) + 1)[:, None]
        tok = int(np.argmax(h.sum(0) @ self.EMB.T))
        self.tokens.append(tok)
        return x + h.sum(0)


@program(recompiles=1, why="the list's first change of length (then the context "
                           "newest first is a window of it, list_windows._view)")
def reversed_token_context(wrap):
    d = ReversedTokens()
    f = wrap(d.step)
    return [(f(XS[i]), snap(d.tokens)) for i in range(CALLS)]


# ===================================================================== loops over windows

class LoopK:
    """``for v in self.hist[-4:]: acc += v``: a float loop over the last four."""

    def __init__(self):
        self.hist = []

    def step(self, x, v):
        self.hist.append(v)
        acc = 0.0
        for u in self.hist[-4:]:
            acc += u
        return x * acc


@program(recompiles=1, why=NUMBER,
         known=(3, LOOP))
def loop_over_last_four(wrap):
    s = LoopK()
    f = wrap(s.step)
    return [(f(XS[i], LOSSES[i]), snap(s.hist)) for i in range(CALLS)]


class LoopAttrK:
    """``for v in self.hist[-self.k:]`` with the width an attribute (3)."""

    def __init__(self):
        self.hist, self.k = [], 3

    def step(self, x, v):
        self.hist.append(v)
        best = -1e9
        for u in self.hist[-self.k:]:
            if u > best:
                best = u
        return x * best


@program(recompiles=5, why=NUMBER + "; " + FILLS + "; the comparisons decide which is "
                                    "best (an entry per outcome)")
def loop_max_over_window_attr(wrap):
    s = LoopAttrK()
    f = wrap(s.step)
    return [(f(XS[i], LOSSES[i]), snap(s.hist)) for i in range(CALLS)]


class LoopArrays:
    """``for i, fr in enumerate(self.frames[-3:])``: a weighted sum of the last frames."""

    def __init__(self):
        self.frames = []

    def step(self, x):
        self.frames.append(x * 0.5)
        out = np.zeros_like(x)
        for i, fr in enumerate(self.frames[-3:]):
            out = out + (i + 1) * fr
        return out


@program(recompiles=2, why=FILLS + " (a loop over arrays: each frame is a graph input)")
def loop_enumerate_array_window(wrap):
    s = LoopArrays()
    f = wrap(s.step)
    return [(f(XS[i]), snap(s.frames)) for i in range(CALLS)]


class PairDiffs:
    """``zip(self.h[-3:], self.h[-4:-1])``: the last three differences."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        d = 0.0
        for a, b in zip(self.h[-3:], self.h[-4:-1]):
            d += a - b
        return x * d


@program(recompiles=1, why=NUMBER,
         known=(3, LOOP))
def loop_over_paired_windows(wrap):
    s = PairDiffs()
    f = wrap(s.step)
    return [(f(XS[i], LOSSES[i]), snap(s.h)) for i in range(CALLS)]


class SquaresGen:
    """``sum(v * v for v in self.h[-5:])``: a generator over a window."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        return x * sum(u * u for u in self.h[-5:])


# (measured: 3.13 recompiles once here, 3.11 once per held length while the window fills)
@program(recompiles=1, why=NUMBER,
         known=(4, LOOP) if sys.version_info < (3, 12) else None)
def generator_sum_over_window(wrap):
    s = SquaresGen()
    f = wrap(s.step)
    return [(f(XS[i], LOSSES[i]), snap(s.h)) for i in range(CALLS)]


class PrintingWindow:
    """Prints the mean of the last 3 losses each call (a loop builds it)."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        total = 0.0
        for u in self.h[-3:]:
            total += u
        mean = total / len(self.h[-3:])
        print(f"mean3 {mean:.4f}")
        return x * mean


@program(recompiles=2, why=NUMBER + "; print() is a break",
         known=(3, LOOP))
def printed_loop_window_mean(wrap):
    from stateful_corpus3 import printed
    s = PrintingWindow()
    f = wrap(s.step)
    return printed(lambda: [(f(XS[i], LOSSES[i]), snap(s.h)) for i in range(CALLS)])


# ===================================================================== sets of seen ids

class SeenIds:
    """``if i not in self.seen: self.seen.add(i)``: first visits weigh more."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        w = 1.0
        if i not in self.seen:
            self.seen.add(i)
            w = 2.0
        return x * w


@program(recompiles=3, why="set.add is a break: the resume functions guard the id and "
                           "whether it was seen")
def set_of_seen_ids(wrap):
    s = SeenIds()
    f = wrap(s.visit)
    ids = [3, 1, 3, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9]
    return [(f(XS[i], ids[i]), snap(s.seen)) for i in range(CALLS)]


class SeenCount:
    """``self.seen.add(i)`` only, and ``len(self.seen)`` as a scale."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        self.seen.add(i % 4)
        return x * len(self.seen)


@program(recompiles=2, why="set.add is a break: the resume functions guard the id and "
                           "the length carried over")
def set_add_then_len(wrap):
    s = SeenCount()
    f = wrap(s.visit)
    return [(f(XS[i], i), snap(s.seen)) for i in range(CALLS)]
