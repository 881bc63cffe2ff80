"""``lst[-1]`` of a list that grows between calls reads the last item alone
(``ListVariable._from_end``): guarded as any value read at ``L['tokens'][-1]`` (an
int that changes is a number), with ``len(L['tokens']) >= 1`` as a decision, not the
list's length. Issue #16: a greedy decoder that appends a token each call and embeds
the last one compiles two or three times in all, not once per length.

Checked against eager: results and the lists after each call (items, identity),
an empty list and ``lst[-3]`` of a shorter list (Python's ``IndexError``), the last
item changing type, an item that is also an argument written in place before the
read, an item appended in the trace read back, and items set at an index.
"""

import numpy as np
import pytest
from harness import outcome, same, same_outcome

import dynamo

V, D = 10, 4
RNG = np.random.default_rng(49)
EMB, WH, WO = (RNG.standard_normal(s) for s in ((V, D), (D, D), (D, V)))


class Decoder:
    """Greedy RNN decoding: the last token (an int) and the last hidden state."""

    def __init__(self):
        self.tokens = [1]
        self.hiddens = [np.zeros(D)]

    def step(self):
        x = EMB[self.tokens[-1]]
        h = np.tanh(x + self.hiddens[-1] @ WH)
        self.hiddens.append(h)
        logits = h @ WO
        self.tokens.append(int(np.argmax(logits)))
        return logits


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_greedy_decoder_compiles_once_per_change(backend):
    want, got = Decoder(), Decoder()
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(10):
            same(want.step(), f(), rtol=1e-12, path=f"call {i}")
            assert got.tokens == want.tokens
            same(want.hiddens, got.hiddens, rtol=1e-12)
    # the first call, the second (the lengths change), and once more where the last
    # token first differs from the one an entry saw (here [1, 1, 1, 1, 3, ...])
    assert f.report.compile_count <= 3, [str(r) for r in f.report.recompiles]
    assert not f.report.skipped


def last_scaled(x, hist, k):
    return hist[k] * x


def test_out_of_bounds_and_type_changes_are_eager():
    """The bound ``len >= -k`` is guarded as a decision: an empty list and ``[-3]`` of
    two items raise Python's own IndexError; an int then a float at ``[-1]``."""
    f = dynamo.compile(last_scaled, backend="eager")
    x = np.arange(3.0)
    calls = [([1, 2], -1), ([1, 2, 3], -1), ([4, 5, 6, 7], -1), ([], -1),
             ([1, 2], -3), ([1, 2, 3, 4, 5], -3), ([1, 2, 2.5], -1),
             ([np.ones(3), np.ones(3)], -1), (list(range(9)), -2)]
    for i, (hist, k) in enumerate(calls):
        same_outcome(outcome(last_scaled, (x, list(hist), k)),
                     outcome(f, (x, list(hist), k)), f"call {i}")


def write_then_read_last(x, hist):
    """``hist[-1]`` is ``x``: the write before the read must show in it."""
    x += 1.0
    return hist[-1] * 2.0


def test_an_item_that_is_also_an_argument():
    f = dynamo.compile(write_then_read_last, backend="eager")
    for n in range(1, 6):
        want_x, got_x = np.zeros(3), np.zeros(3)
        want_h = [np.full(3, 5.0)] * (n - 1) + [want_x]
        got_h = [np.full(3, 5.0)] * (n - 1) + [got_x]
        same_outcome(outcome(write_then_read_last, (want_x, want_h)),
                     outcome(f, (got_x, got_h)), f"{n} items")
        other = np.full(3, 7.0)           # the last item another array: not aliased
        same_outcome(outcome(write_then_read_last, (np.zeros(3), want_h + [other])),
                     outcome(f, (np.zeros(3), got_h + [other])), f"{n} items, other")


def append_then_read(x, hist):
    """The appended item read back at ``[-1]`` is the trace's own; ``[-2]`` the list's."""
    hist.append(x * 2.0)
    return hist[-1] + hist[-2], hist[-1]


def set_then_read(x, hist):
    """An item set at an index, then ``[-1]`` read: the items are read as before."""
    hist[0] = x
    return hist[-1] + 1.0


@pytest.mark.parametrize("fn", [append_then_read, set_then_read])
def test_appended_and_set_items(fn):
    f = dynamo.compile(fn, backend="eager")
    want_h, got_h = [np.ones(3)], [np.ones(3)]
    for i in range(6):
        x = np.full(3, float(i))
        want, got = outcome(fn, (x, want_h)), outcome(f, (x, got_h))
        same_outcome(want, got, f"call {i}")
        if fn is append_then_read:
            assert got[0][1] is got_h[-1]
        want_h.append(np.full(3, -float(i)))
        got_h.append(np.full(3, -float(i)))
