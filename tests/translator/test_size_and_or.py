"""``and`` / ``or`` of size comparisons stay in the graph (issue #19,
``dynamo/translator/size_and_or.py``).

``len(a) > 0 and len(b) > 0`` of data-dependent sizes is Python's ``and`` of two bools
only the graph knows: the graph's ``&`` of them (``or``: ``|``), a Python bool as
eagerly, one graph with no break, at every count. Where evaluating the right operand
when Python would not could show (a division by the count, a function with an
effect, an array op that may warn) or the result is not a bool, the jump breaks as
before, and the results are still eager's. On 3.11 ``and`` is ``JUMP_IF_FALSE_OR_POP``;
on 3.12+ ``COPY 1; [TO_BOOL;] POP_JUMP_IF_FALSE; POP_TOP`` (3.14: ``NOT_TAKEN`` before
the ``POP_TOP``, and the right operand's locals loaded by ``LOAD_FAST_BORROW``): each is
exercised by the version that runs the test.
"""

from __future__ import annotations

import numpy as np
import pytest
from harness import nested_types, outcome, same_outcome

import dynamo

BACKENDS = ("eager", "numpy")

# 0, 1 and 3 positive elements: every count the comparisons below tell apart
XS = [np.array(v) for v in ([-1.0, -2.0, -3.0], [1.0, -2.0, -3.0], [1.0, 2.0, 3.0])]
PAIRS = [(x, y) for x in XS for y in XS]


def both_kept(x, y):
    a, b = x[x > 0], y[y > 0]
    return len(a) > 0 and len(b) > 0


def either(x, y):
    a, b = x[x > 0], y[y > 0]
    return len(a) > 1 or b.size == 0


def chains(x, y):
    a, b = x[x > 0], y[y > 0]
    return (len(a) > 0 and len(b) > 0 and len(a) != len(b),
            len(a) == 0 or len(b) == 0 or True)


def with_static(x, y):
    a = x[x > 0]
    return len(a) > 0 and len(y) > 1, len(a) > 0 or False


def as_data(x, y):
    a, b = x[x > 0], y[y > 0]
    ok = len(a) > 0 and max(len(b), 1) > 1
    return x * ok, ok, np.unique(y).shape[0] > 2 or len(a) == 1


KEPT = [("both_kept", both_kept), ("either", either), ("chains", chains),
        ("with_static", with_static), ("as_data", as_data)]



@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", KEPT, ids=[k[0] for k in KEPT])
def test_one_graph_and_eagers_bools(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*PAIRS[4])
    assert report.graph_break_count == 0, [r.reason for r in report.break_reasons]
    assert report.graph_count == 1
    compiled = dynamo.compile(fn, backend=backend)
    for i, (x, y) in enumerate(PAIRS):
        want, got = outcome(fn, [x, y]), outcome(compiled, [x, y])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"


LOG: list = []


def _effect():
    LOG.append(1)
    return True


def _printed(b):
    print("checked", len(b))
    return len(b) > 0


def prints(x, y):
    a, b = x[x > 0], y[y > 0]
    return len(a) > 0 and _printed(b)             # prints only where a is kept


def divides(x, y):
    a = x[x > 0]
    return len(a) > 0 and 6 // len(a) > 2        # 6 // 0 where Python never divides


def calls_effect(x, y):
    a = x[x > 0]
    return len(a) > 0 and _effect()               # the append only where a is kept


def array_op(x, y):
    a = x[x > 0]
    return len(a) > 0 and np.log(y).sum() > 0     # warns only where Python evaluates it


def returns_int(x, y):
    a = x[x > 0]
    return len(a) > 0 and len(a)                  # an int, or False: no graph bool


BROKEN = [("prints", prints), ("divides", divides), ("calls_effect", calls_effect), ("array_op", array_op),
          ("returns_int", returns_int)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,fn", BROKEN, ids=[k[0] for k in BROKEN])
def test_a_right_operand_python_may_skip_keeps_the_break(name, fn, backend):
    report = dynamo.explain(fn, backend=backend)(*PAIRS[4])
    # (at the `and`; 3.12+ trace the resumed code too, where the print breaks again)
    assert report.graph_break_count >= 1
    assert "data-dependent size" in report.break_reasons[0].reason
    compiled = dynamo.compile(fn, backend=backend)
    for i, (x, y) in enumerate(PAIRS):
        LOG.clear()
        want = outcome(fn, [x, y - 2.0])
        eager_log = len(LOG)
        LOG.clear()
        got = outcome(compiled, [x, y - 2.0])
        same_outcome(want, got, f"{name} inputs {i}")
        assert nested_types(got[0]) == nested_types(want[0]), f"{name} inputs {i}"
        assert len(LOG) == eager_log, f"{name} inputs {i}: the effect ran {len(LOG)} times"
