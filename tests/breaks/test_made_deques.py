"""``collections.deque(...)`` made inside the compiled function (issue #19, task t6):
modelled with its items known (``variables/made_deques.py``), no break; the glue builds
the real deque where it is returned, stored or live at a break, once (every reference
is the same object), with its ``maxlen``.
"""

from __future__ import annotations

import collections
from collections import deque

import numpy as np
import pytest
from harness import check

import dynamo


def queue_pair(x):
    q = collections.deque([x])
    q.append(x * 2)
    a = q.popleft()
    return a + q[0], len(q)


def window(x):
    q = deque(maxlen=2)
    for i in range(4):
        q.append(x * i)
    return sum(q), list(q), q.maxlen


def work_list(x):
    q = deque([0])
    seen = []
    while q:
        u = q.popleft()
        seen.append(u)
        if u < 3:
            q.append(u + 1)
        if u == 0:
            q.appendleft(10)
    return x[seen]


def kept_from_iterable(x):
    q = deque(range(5), 3)
    q.extendleft([7])
    return [x * v for v in q], q.pop()


def across_a_print(x):
    q = deque([x])
    print("between")
    q.append(x + 1)
    return list(q)


def empty_pop(x):
    q = deque()
    return q.popleft()


_X = np.arange(20.0)
CASES = {  # name -> (function, breaks)
    "queue_pair": (queue_pair, 0),
    "window": (window, 0),
    "work_list": (work_list, 0),
    "kept_from_iterable": (kept_from_iterable, 0),
    "across_a_print": (across_a_print, 1),       # the print's break, none of the deque
    "empty_pop": (empty_pop, 1),                 # IndexError, raised where eager does
}


@pytest.mark.parametrize("backend", ("eager", "numpy"))
@pytest.mark.parametrize("name", sorted(CASES))
def test_eagers_results_and_no_deque_break(name, backend):
    fn, breaks = CASES[name]
    dynamo.reset()
    report = check(fn, _X[:3] if name != "work_list" else _X, backend=backend, calls=3,
                   breaks=breaks)
    assert not any("instance of deque" in r.reason for r in report.break_reasons)


def kept(x, out):
    q = deque([x, x + 1], 3)
    out.append(q)
    q.append(x)
    return q, q


@pytest.mark.parametrize("backend", ("eager", "numpy"))
def test_a_returned_deque_is_one_object(backend):
    dynamo.reset()
    compiled = dynamo.compile(kept, backend=backend)
    for _ in range(2):
        out = []
        a, b = compiled(_X[:3], out)
        assert type(a) is deque and a is b and a is out[0] and a.maxlen == 3
        assert [list(v) for v in a] == [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0], [0.0, 1.0, 2.0]]
