"""A ``maxlen`` deque of arrays read item by item (a comprehension, ``zip``) that the
frame also pops has an entry per length while it fills; the recompile log says so where
the length guard fails and names what compiles once (``deques._item_by_item_note``,
issue #16): the deque read whole, ``np.stack(d)``, which this file checks compiles at
most twice. (A deque the frame only appends to runs uncompiled until it is full:
``tests/dynamo/test_filling_deques.py``.)
"""

import collections
import logging

import numpy as np

import dynamo


class Weighted:
    def __init__(self):
        self.win = collections.deque(maxlen=3)

    def by_items(self, x):
        self.win.appendleft(x)
        parts = [w * k for w, k in zip(self.win, (0.5, 0.3, 0.2))]
        return sum(parts)

    def by_items_trimmed(self, x):   # (the pop: its length may stay below maxlen)
        self.win.appendleft(x)
        parts = [w * k for w, k in zip(self.win, (0.5, 0.3, 0.2))]
        if len(self.win) > 2:
            self.win.pop()
        return sum(parts)

    def whole(self, x):
        self.win.appendleft(x)
        return np.stack(self.win).mean(axis=0)


def test_an_item_by_item_read_while_filling_names_the_cure(caplog):
    caplog.set_level(logging.DEBUG, logger="dynamo.recompiles")
    plain, traced = Weighted(), Weighted()
    dynamo.reset()
    compiled = dynamo.compile(traced.by_items_trimmed, backend="eager")
    for i in range(13):   # (the entry that runs uncompiled gives up, then a refill)
        if i == 10:
            traced.win.clear(), plain.win.clear()
        x = np.arange(4.0) + i
        np.testing.assert_array_equal(compiled(x), plain.by_items_trimmed(x))
        assert [a.tolist() for a in traced.win] == [a.tolist() for a in plain.win]
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "dynamo.recompiles")
    assert "L['self'].win did not fill to maxlen in 4 calls" in text
    assert "len(self.win): expected 2, got 0" in text
    assert "a deque read item by item: an entry per length while it fills to maxlen=3" in text
    assert "np.stack(d)" in text and "ring buffer" in text


def test_the_advised_whole_read_compiles_at_most_twice():
    plain, traced = Weighted(), Weighted()
    dynamo.reset()
    with dynamo.explain(traced.whole, backend="eager") as compiled:
        for i in range(6):
            x = np.arange(4.0) + i
            np.testing.assert_array_equal(compiled(x), plain.whole(x))
    assert compiled.report.compile_count <= 2
