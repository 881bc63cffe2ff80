"""A list whose length changed between calls holds numbers that move from item to item
(a replay buffer of ``(obs, reward)`` that grows, then drops its oldest with
``pop(0)``; a window of losses): once the trace reads it item by item, each number in
it, and in its tuples, is a changing number from that trace on (``builder._unread_list``
adds the list to ``DynamicPolicy.changed_tuples``, as ``deques.py`` does for a deque).
Before, the first trace that read the items held each reward as a constant, and the
next call, whose items had all moved by one, recompiled (stateful corpus 11's
``replay_list_capacity``: 4 recompiles, now 2).

Checked against eager: results, the list after each call (items, types, order,
identity), on both CPU backends.

Example::

    self.buf.append((x, r))
    if len(self.buf) > 3:
        self.buf.pop(0)                 # read item by item: self.buf[0][1] was a constant
    return sum(xi * ri for xi, ri in self.buf[-2:])
"""

import numpy as np
import pytest
from harness import same

import dynamo

REWARDS = [0.0, 1.0, -0.5, 0.5, 1.0, 0.0, -1.0, 0.25, 1.0, 0.5, 2.0, -0.25]


class Replay:
    def __init__(self):
        self.buf = []

    def push(self, x, r):
        self.buf.append((x, r))
        if len(self.buf) > 3:
            self.buf.pop(0)
        return x * 2.0


class LossWindow:
    def __init__(self):
        self.losses = []

    def push(self, x, loss):
        self.losses.append(loss)
        if len(self.losses) > 3:
            self.losses.pop(0)
        return x * self.losses[-1]


def _run(obj, backend, method):
    """Results and state copies of 12 calls, with the recompile reasons (or None)."""
    out = []
    buf = obj.buf if hasattr(obj, "buf") else obj.losses
    ctx = dynamo.explain(getattr(obj, method), backend=backend) if backend else None
    f = ctx.__enter__() if ctx else getattr(obj, method)
    try:
        for i, r in enumerate(REWARDS):
            res = f(np.full(3, float(i)), r)
            now = obj.buf if hasattr(obj, "buf") else obj.losses
            out.append((res, [tuple(t) if isinstance(t, tuple) else t for t in now],
                        now is buf))
    finally:
        if ctx:
            ctx.__exit__(None, None, None)
    return out, ([str(r) for r in f.report.recompiles] if ctx else None)


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("cls", [Replay, LossWindow])
def test_numbers_of_a_sliding_list_are_changing(cls, backend):
    """The number's first change (1) and the length's branch turning (1): no recompile
    per call once the list slides. (``Replay`` recompiled 3 times without the fix; a
    list of plain floats, ``LossWindow``, passed before too: kept as a neighbour.)"""
    dynamo.reset()
    want, _ = _run(cls(), None, "push")
    got, reasons = _run(cls(), backend, "push")
    same(want, got)
    assert len(reasons) <= 2, "\n".join(reasons)


def test_a_number_that_selects_control_flow_still_guards():
    """A value of the sliding list that decides a branch still guards it (each side
    right), as a changing number's comparison."""
    class Gate:
        def __init__(self):
            self.buf = []

        def push(self, x, r):
            self.buf.append(r)
            if len(self.buf) > 2:
                self.buf.pop(0)
            return x + 1.0 if self.buf[0] > 0.4 else x - 1.0

    dynamo.reset()
    want, got = Gate(), Gate()
    f = dynamo.compile(got.push)
    for i, r in enumerate(REWARDS):
        x = np.full(2, float(i))
        same(want.push(x, r), f(x, r))
        assert want.buf == got.buf
