"""An f-string of a changing number (``f"step {self.n}"``, ``f"{lr:.3f}"``) is made
by the glue from the value the call computes (``formatted.changing_number``): a logger
that appends a line per call neither pins its counter nor recompiles per step (issue
#16). A use that needs the text while tracing breaks there, as for other formatted
values.

Checked against eager: the lines (text), the counters, specs and conversions, a text
used as a dict key and by ``len`` (a break), and a print of one.
"""

import numpy as np
import pytest
from harness import outcome, same_outcome

import dynamo


class Logger:
    def __init__(self):
        self.n, self.lr, self.lines = 0, 0.1, []

    def step(self, x):
        self.n += 1
        self.lr *= 0.9
        self.lines.append(f"step {self.n:>4}: lr={self.lr:.5f} {self.n!r} shape={x.shape}")
        return x * self.lr


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_a_logger_of_changing_numbers_compiles_once(backend):
    want, got = Logger(), Logger()
    dynamo.reset()
    with dynamo.explain(got.step, backend=backend) as f:
        for i in range(8):
            x = np.full(3, float(i))
            same_outcome(outcome(want.step, (x,)), outcome(f, (x,)), f"call {i}")
            assert got.lines == want.lines and got.n == want.n and got.lr == want.lr
    # before: one entry per step (the f-string pinned n), then eager at the limit
    assert f.report.compile_count == 1, [str(r) for r in f.report.recompiles]


def keyed(d, x, k):
    d[f"layer{k}"] = x * k
    return len(f"{k:05d}"), d


def printed(x, k, t):
    print(f"k={k} t={t:.2f}")
    return x + k


@pytest.mark.parametrize("fn, args", [(keyed, lambda k: ({}, np.ones(2), k)),
                                      (printed, lambda k: (np.ones(2), k, k / 3))])
def test_texts_needed_while_tracing_are_eager_s(fn, args):
    f = dynamo.compile(fn, backend="eager")
    for k in (1, 2, 3, 10, -4, 2 ** 40):
        same_outcome(outcome(fn, args(k)), outcome(f, args(k)), f"k={k}")


def merged_percentiles(x, ps=(5, 50)):
    """A dict comprehension with text keys, merged into a dict made before it: the
    keys need their text (a break inside the comprehension), and the resumed frame
    merges into a dict from outside the trace (its items written back)."""
    return {"n": x.shape[0], **{f"p{p}": np.percentile(x, p) for p in ps}}


def merged_array_keys(x):
    return {"n": 1, **{f"k{x[i]}": x * i for i in range(2)}}


@pytest.mark.parametrize("fn, args", [
    (merged_percentiles, [(np.arange(5.0),), (np.arange(4.0), (25, 75)),
                          (np.arange(6.0), (30, 60))]),
    (merged_array_keys, [(np.arange(2.0),), (np.arange(2.0) + 1,), (np.arange(2.0) + 2,)])])
def test_text_keys_merged_after_a_break(fn, args):
    """(The merge dropped the comprehension's items before: ``DICT_UPDATE`` changed the
    carried dict without logging it for the write-back; ``containers.MAP_ADD``.)"""
    f = dynamo.compile(fn, backend="eager")
    for i, a in enumerate(args):
        same_outcome(outcome(fn, a), outcome(f, a), f"call {i}")
