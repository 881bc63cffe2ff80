"""The dispatcher's checks read a repeated attribute once into a name of their own
(guards/hoisted_reads.py), hand it to the graph's call (dynamo/checked_reads.py) and let
go of it right after the check or the call (``dispatch._dropped``, ``release``): a value
the program replaces dies when it would in plain Python, and the calls give plain
Python's results."""

import re
import weakref

import numpy as np
import pytest

import dynamo


class Holder:
    def __init__(self, n):
        self.buf, self.log, self.n = np.zeros(n), [], 0

    def step(self, x):
        self.buf = self.buf + x        # the old buffer dies here
        self.log.append(1)
        self.n += 1
        return self.buf * 2.0


def _run(step_of, holder, calls):
    """Per call: the result, and how long ``holder.log`` was when the replaced buffer
    died (its weakref callback), or None if it outlived the call."""
    out = []
    for x in calls:
        seen = []
        ref = weakref.ref(holder.buf, lambda _r, seen=seen: seen.append(len(holder.log)))
        got = step_of(holder)(x)
        out.append((got.tolist(), holder.n, seen[0] if seen else None))
        del ref
    return out


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_replaced_attribute_dies_where_plain_python_drops_it(backend):
    dynamo.reset()
    calls = [np.full(3, float(i)) for i in range(8)]
    plain, compiled = Holder(3), Holder(3)
    want = _run(lambda h: h.step, plain, calls[:6])
    fn = dynamo.compile(compiled.step, backend=backend)
    got = _run(lambda h: fn, compiled, calls[:6])
    assert got == want
    # the check reads ``self.buf`` more than once: it is read into a name, and that
    # name is let go of after the check
    dispatch = fn.__call__.__func__.__kwdefaults__
    entry = next(iter(dispatch.values()))
    src = entry.cache.dispatch.__dynamo_source__
    assert ":= self.buf)" in src and "= None\n    if ___ok:" in src, src
    # and hands it to the graph's call (checked_reads.py), letting go of it after
    call = next(line for line in src.splitlines() if "___e0_glue_graph" in line)
    assert "self.buf" not in call and re.search(r"___e0_s\d", call), src
    # an int buffer: the first entry's check binds ``self.buf`` and fails on its dtype;
    # the buffer it read must not outlive what the call does next
    for h in (plain, compiled):
        h.__init__(3)
        h.buf = np.zeros(3, np.int64)
    assert _run(lambda h: fn, compiled, calls[6:]) == _run(lambda h: h.step, plain, calls[6:])
