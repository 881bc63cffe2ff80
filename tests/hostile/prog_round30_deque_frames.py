"""Round 30, deques continued: a deque kept where the trace reaches it through a frame
(an Atari-style frame stack on ``self``, a module global, a dict item, a closure cell),
filled, windowed, replaced and cleared between calls (split from
``prog_round30_deques.py``, which holds the deque programs on arguments).

    >>> def _global_window(x):
    ...     FRAMES.append(x * 1)
    ...     return np.stack(FRAMES).sum(0), len(FRAMES)
"""

import collections

import numpy as np
from hostile_check import Programs

reg = Programs("round30_deques")   # the category of prog_round30_deques.py

deque = collections.deque
X = np.arange(4.0)


class Holder:
    def __init__(self, d):
        self.d = d

# ------------------------------------------------------------------ frames, globals

FRAMES = deque(maxlen=3)


def _frame_stack(h, x):
    if not h.d:
        for _ in range(3):
            h.d.append(x)
    h.d.append(x)
    return np.stack(h.d, axis=0).mean(0)


def _global_window(x):
    FRAMES.append(x * 1)
    return np.stack(FRAMES).sum(0), len(FRAMES)


def _in_dict(state, x):
    state["q"].append(float(x[0]))
    state["q"].popleft() if len(state["q"]) > 2 else None
    return x * sum(state["q"])


def _closure_deque():
    q = deque([1.0])

    def push(x):
        q.append(float(x[1]))
        return x + len(q), list(q)
    return push


@reg.scenario
def s_frame_stack(r):
    """An Atari-style frame stack on ``self``: filled on the first call, then a window."""
    f = r.compile(_frame_stack)
    h = Holder(deque(maxlen=4))
    for k in range(6):
        r.call(f, h, X + k)
    r.see("frames", [a.tolist() for a in h.d])
    h.d = deque(maxlen=2)
    r.call(f, h, X)
    h.d.append(np.ones(3))
    r.call(f, h, X)
    r.see("frames", [np.asarray(a).tolist() for a in h.d])


@reg.scenario
def s_global_window(r):
    FRAMES.clear()
    f = r.compile(_global_window)
    for k in range(5):
        r.call(f, X + k)
    r.see("frames", [a.tolist() for a in FRAMES])
    FRAMES.append(np.zeros(2))
    r.call(f, X)
    FRAMES.clear()


@reg.scenario
def s_deque_in_dict(r):
    f = r.compile(_in_dict)
    state = {"q": deque([0.5])}
    for k in range(4):
        r.call(f, state, X + k)
    state["q"] = deque([9.0], maxlen=1)
    r.call(f, state, X)
    state["q"] = [1.0, 2.0, 3.0]
    r.call(f, state, X)
    r.see("q", list(state["q"]))


@reg.scenario
def s_closure_deque(r):
    f = r.compile(_closure_deque())
    for k in range(4):
        r.call(f, X + k)
