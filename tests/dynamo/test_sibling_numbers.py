"""A number one resume function of a frame learned is changing is changing for the
frame's other resume functions too (``dynamo/sibling_numbers.py``, issue #16): a
reward read after a scalar draw (a graph break) and, on one side, after a second break
became an input in the first resume function at its first change; the other side, first traced calls later, held it as
a constant again and recompiled at its next change (stateful corpus 11's
``q_table_epsilon_decay``: 3 recompiles, now 1).

Checked against eager: results and the object's state after each call, on both CPU
backends; the recompiles counted by ``dynamo.explain``; a value that truly selects
control flow still guards it.

Example::

    if self.rng.random() < 0.5:    # a break: the rest runs in a resume function
        y = x - 1.0
    else:
        y = x * int(np.argmax(x))  # a break: this side in a resume of that one
    return y + r                   # r: learned changing in one, for both
"""

import numpy as np
import pytest
from harness import same

import dynamo

SIGNS = [1, 1, -1, -1, 1, -1, -1, 1, 1, -1]


class Agent:
    def __init__(self):
        self.total, self.calls = 0.0, 0
        self.rng, self.w = np.random.default_rng(7), np.eye(3)

    def step(self, x, r):
        self.calls += 1
        if self.rng.random() < 0.5:   # a scalar draw: a break; the rest resumes ...
            y = x - 1.0
        else:
            y = x * int(np.argmax(self.w @ x))   # ... this side in a resume of that one
        self.total = self.total + r
        return y + r * self.calls


def _calls(f, agent):
    out = []
    for i, s in enumerate(SIGNS):
        x = s * np.full(3, 1.0 + i)
        out.append((f(x, 0.5 * i - 1.0), agent.total, agent.calls,
                    agent.rng.bit_generator.state))
    return out


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_number_learned_on_one_side_is_changing_on_the_other(backend):
    """The reward's first change in the first resume function (1 recompile); the
    second's first trace takes it as changing already (before: 1 more at its next
    change, 2 in all)."""
    dynamo.reset()
    want_agent, got_agent = Agent(), Agent()
    want = _calls(want_agent.step, want_agent)
    with dynamo.explain(got_agent.step, backend=backend) as f:
        got = _calls(f, got_agent)
    same(want, got)
    recompiles = [str(r) for r in f.report.recompiles if r.call >= 1]
    assert len(recompiles) <= 1, "\n".join(recompiles)


def test_a_mode_string_still_selects_its_side():
    """A string that selects control flow after the breaks still guards (an entry per
    mode, each right)."""
    def g(x, mode, rng):
        y = x - 1.0 if rng.random() < 0.5 else x * int(np.argmax(x))
        return y + 1.0 if mode == "train" else y - 1.0

    dynamo.reset()
    f = dynamo.compile(g)
    want_rng, got_rng = np.random.default_rng(3), np.random.default_rng(3)
    for i, mode in enumerate(["train", "eval", "train", "eval", "eval", "train"]):
        x = (-1) ** i * np.full(2, 1.0 + i)
        same(g(x, mode, want_rng), f(x, mode, got_rng))
        same(want_rng.bit_generator.state, got_rng.bit_generator.state)
