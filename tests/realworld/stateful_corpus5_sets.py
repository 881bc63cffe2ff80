"""Issue #16's fifth corpus, its first half (``stateful_corpus5_caches.py`` has the LRU
and memo caches): sets kept between calls, as dedupe and visit logs keep them:
``self.seen.add(key)``, ``if key in self.seen``, ``seen |= {...}``, ``update``,
``discard``/``remove``, a set of tuples or of ids, ``len(self.seen)`` in arithmetic,
sets passed in, global and closed over. Each runs ``CALLS`` calls with the same shapes
and changing values; each call's result, a copy of the state after it and what the
program returns are compared with plain Python's (``test_stateful_corpus5.py``).

Example::

    @program(recompiles=1, why=NUMBER)
    def add_only_by_int(wrap):
        s = AddOnly()
        f = wrap(s.visit)
        return [(f(XS[i], IDS[i]), snap(s.seen)) for i in range(CALLS)]
"""

from __future__ import annotations

import numpy as np
from stateful_corpus4 import CALLS, LOSSES, XS, snap
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

IDS = [3, 1, 3, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9]
SIDES = NUMBER + "; a key looked up is guarded present or absent (an entry per side)"
LENGTH = NUMBER + "; len() is the set's length at the start, a changing int once it changed"


class AddOnly:
    """``self.seen.add(i)``: a set only written."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        self.seen.add(i)
        return x * 2.0


@program(recompiles=1, why=NUMBER)
def add_only_by_int(wrap):
    s = AddOnly()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i]), snap(s.seen)) for i in range(CALLS)]


class AddConstant:
    """``self.tags.add("seen")`` of one constant key every call."""

    def __init__(self):
        self.tags = set()

    def visit(self, x):
        self.tags.add("seen")
        return x + 1.0


@program(recompiles=0)
def add_constant_key(wrap):
    s = AddConstant()
    f = wrap(s.visit)
    return [(f(XS[i]), snap(s.tags)) for i in range(CALLS)]


class SeenWeight:
    """``if i not in self.seen: self.seen.add(i)``: first visits weigh more."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        w = 1.0
        if i not in self.seen:
            self.seen.add(i)
            w = 2.0
        return x * w


@program(recompiles=2, why=SIDES)
def membership_then_add(wrap):
    s = SeenWeight()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i]), snap(s.seen)) for i in range(CALLS)]


class SeenCount:
    """``self.seen.add(i % 4)`` then ``x * len(self.seen)``."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        self.seen.add(i % 4)
        return x * len(self.seen)


@program(recompiles=3, why=LENGTH + "; the key added is guarded present or absent")
def add_then_len_scale(wrap):
    s = SeenCount()
    f = wrap(s.visit)
    return [(f(XS[i], i), snap(s.seen)) for i in range(CALLS)]


class LenInFloatMath:
    """``x / (1 + len(self.seen))`` after adding a tuple key."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        self.seen.add((i % 3, "k"))
        return x / (1.0 + len(self.seen))


@program(recompiles=3, why=LENGTH + "; the key added is guarded present or absent")
def len_in_float_math(wrap):
    s = LenInFloatMath()
    f = wrap(s.visit)
    return [(f(XS[i], i), snap(s.seen)) for i in range(CALLS)]


class OrLiteral:
    """``self.seen |= {i, i + 1}``: an in-place union with a set display."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        self.seen |= {i, i + 1}
        return x - 1.0


@program(recompiles=1, why=NUMBER + "; the set display {i, i + 1} is merged unhashed "
                                     "(set_displays.py)")
def ior_set_display(wrap):
    s = OrLiteral()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i]), snap(s.seen)) for i in range(CALLS)]


class UpdateList:
    """``self.seen.update([a, b])`` of two ints."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, a, b):
        self.seen.update([a, b])
        return x * 0.5


@program(recompiles=1, why=NUMBER)
def update_from_list(wrap):
    s = UpdateList()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i], i), snap(s.seen)) for i in range(CALLS)]


class PairDedupe:
    """A set of ``(i, j)`` tuples: a pair seen before is skipped."""

    def __init__(self):
        self.pairs = set()

    def visit(self, x, i, j):
        key = (i, j)
        if key in self.pairs:
            return x
        self.pairs.add(key)
        return x * 3.0


@program(recompiles=2, why=SIDES)
def tuple_pairs_dedupe(wrap):
    s = PairDedupe()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i] % 3, i % 2), snap(s.pairs)) for i in range(CALLS)]


def add_to_passed_set(x, seen, k):
    """A set passed in as an argument, added to."""
    seen.add(k)
    return np.tanh(x)


@program(recompiles=1, why=NUMBER)
def set_argument_added_to(wrap):
    seen = set()
    f = wrap(add_to_passed_set)
    return [(f(XS[i], seen, IDS[i]), snap(seen)) for i in range(CALLS)]


VISITED: set = set()


def mark_global(x, k):
    """A module-level set, added to."""
    VISITED.add(k)
    return x + 2.0


@program(recompiles=1, why=NUMBER)
def global_set_added_to(wrap):
    VISITED.clear()
    f = wrap(mark_global)
    return [(f(XS[i], IDS[i]), snap(VISITED)) for i in range(CALLS)]


def make_closure_marker():
    seen = set()

    def mark(x, k):
        seen.add(k)
        return x * 1.5
    return mark, seen


@program(recompiles=1, why=NUMBER)
def closure_set_added_to(wrap):
    mark, seen = make_closure_marker()
    f = wrap(mark)
    return [(f(XS[i], IDS[i]), snap(seen)) for i in range(CALLS)]


class ActiveSet:
    """``self.active.add(i)``, ``self.active.discard(i - 2)``: a sliding set."""

    def __init__(self):
        self.active = set()

    def visit(self, x, i):
        self.active.add(i)
        self.active.discard(i - 2)
        return x * 2.0


@program(recompiles=1, why=NUMBER)
def add_and_discard(wrap):
    s = ActiveSet()
    f = wrap(s.visit)
    return [(f(XS[i], i), snap(s.active)) for i in range(CALLS)]


class PendingRemove:
    """``if i in self.pending: self.pending.remove(i)`` else add it."""

    def __init__(self):
        self.pending = set()

    def toggle(self, x, i):
        if i in self.pending:
            self.pending.remove(i)
            return x - 1.0
        self.pending.add(i)
        return x + 1.0


@program(recompiles=2, why=SIDES)
def membership_then_remove(wrap):
    s = PendingRemove()
    f = wrap(s.toggle)
    return [(f(XS[i], IDS[i]), snap(s.pending)) for i in range(CALLS)]


class NewVisits:
    """Counts new visits: ``self.new += i not in self.seen``."""

    def __init__(self):
        self.seen, self.new = set(), 0

    def visit(self, x, i):
        self.new += i not in self.seen
        self.seen.add(i)
        return x * self.new


@program(recompiles=3, why=SIDES + "; the count a changing int")
def count_new_visits(wrap):
    s = NewVisits()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i]), snap(s.seen), s.new) for i in range(CALLS)]


class EmptyCheck:
    """``if not self.seen:`` on the first call only, then adds."""

    def __init__(self):
        self.seen, self.first = set(), None

    def visit(self, x, i):
        if not self.seen:
            self.first = i
        self.seen.add(i)
        return x + self.first


@program(recompiles=2, why=LENGTH + "; empty or not: an entry per side")
def truth_of_set(wrap):
    s = EmptyCheck()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i]), snap(s.seen), s.first) for i in range(CALLS)]


class Bounded:
    """A set cleared when it holds more than 4 keys."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        self.seen.add(i)
        if len(self.seen) > 4:
            self.seen.clear()
        return x * 2.0


@program(recompiles=4, why=LENGTH + "; the comparison with 4 decides an entry per side")
def bounded_then_cleared(wrap):
    s = Bounded()
    f = wrap(s.visit)
    return [(f(XS[i], IDS[i]), snap(s.seen)) for i in range(CALLS)]


class Allowed:
    """``k in self.allowed``, a frozenset never written."""

    def __init__(self):
        self.allowed = frozenset({1, 3, 5})

    def visit(self, x, k):
        return x * 2.0 if k in self.allowed else x


@program(recompiles=2, why=SIDES)
def frozenset_membership(wrap):
    s = Allowed()
    f = wrap(s.visit)
    return [f(XS[i], IDS[i]) for i in range(CALLS)]


def dedupe_params(params, g):
    """A set of ids made in the call: each parameter updated once."""
    seen = set()
    out = []
    for p in params:
        if id(p) in seen:
            continue
        seen.add(id(p))
        out.append(p - 0.1 * g)
    return out


@program(recompiles=0)
def local_set_of_ids(wrap):
    a, b = XS[0].copy(), XS[1].copy()
    f = wrap(dedupe_params)
    return [f([a, b, a], XS[i]) for i in range(CALLS)]


class SortedView:
    """``sorted(self.seen)`` read whole, to weigh the input."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, i):
        self.seen.add(i % 3)
        return x * sum(sorted(self.seen))


@program(recompiles=3, why="the set read whole: guarded by its keys, which change "
                           "while it fills (3 keys)")
def set_read_whole_sorted(wrap):
    s = SortedView()
    f = wrap(s.visit)
    return [(f(XS[i], i), snap(s.seen)) for i in range(CALLS)]


class LossSet:
    """Rounded losses seen, a float key (``round(loss, 1)``)."""

    def __init__(self):
        self.seen = set()

    def visit(self, x, loss):
        key = round(loss, 1)
        fresh = key not in self.seen
        self.seen.add(key)
        return x * loss if fresh else x


@program(recompiles=2, why=NUMBER + "; the rounded key (round(loss, 1)) is guarded present "
                                     "or absent as an expression of loss: an entry per side")
def float_keys(wrap):
    s = LossSet()
    f = wrap(s.visit)
    return [(f(XS[i], LOSSES[i]), snap(s.seen)) for i in range(CALLS)]
