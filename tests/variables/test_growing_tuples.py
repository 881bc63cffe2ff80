"""A tuple of numbers that grows from call to call and is read item by item (issue #16,
``data_tuples.check_growing``): a beam's token ids (``seq + (tok,)``), a decoder's
prefix. Its length is part of what reading its items relies on, so each length was an
entry until the cache limit (then every call ran uncompiled); once earlier entries saw
two other lengths, reading it is a graph break and the code that reads it runs as
Python. A tuple whose length alternates between two keeps an entry per length, and
no break. Each sequence of calls runs plainly and compiled side by side.
"""

import re

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]
EMB = np.cos(np.arange(30.0)).reshape(10, 3)


def decayed(x, seq):
    h = 0.0
    for t in seq:
        h = 0.9 * h + t
    return x * h


class Beams:
    """Beams kept across calls, each call one token longer; the best one's last two
    tokens embedded."""

    def __init__(self):
        self.beams = [(0.0, ())]

    def step(self, row):
        cand = [(s + row[tok], seq + (tok,)) for s, seq in self.beams for tok in range(3)]
        self.beams = sorted(cand, key=lambda b: b[0], reverse=True)[:2]
        return EMB[list(self.beams[0][1][-2:])].sum(axis=0)


def _recompiles(report):
    return [r for r in report.recompiles if r.call >= 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_growing_tuple_read_item_by_item_stops_recompiling(backend):
    """Before: an entry per length, 7 recompiles in 12 calls (then the cache limit);
    now 2: the first and second new lengths, then a break."""
    calls = [(np.arange(3.0) + i, tuple(range(1, i + 2))) for i in range(12)]
    with dynamo.explain(decayed, backend=backend) as f:
        for args in calls:
            same(decayed(*args), f(*args))
    assert len(_recompiles(f.report)) <= 2, "\n".join(map(str, _recompiles(f.report)))
    reasons = [str(b) for b in f.report.break_reasons]
    assert any(re.search(r"a tuple of numbers whose length changes every call, read "
                         r"item by item \(L\['seq'\]: lengths 1, 2, then 3\)", r) and
               "for t in seq:" in r for r in reasons), reasons


def test_a_tuple_alternating_between_two_lengths_keeps_two_entries():
    calls = [(np.arange(3.0), (1, 2) if i % 2 else (1, 2, 3)) for i in range(8)]
    with dynamo.explain(decayed, backend="eager") as f:
        for args in calls:
            same(decayed(*args), f(*args))
    assert not f.report.break_reasons
    assert f.report.compile_count == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_beams_kept_across_calls_give_plain_results(backend):
    rows = [np.log(np.random.default_rng(i).dirichlet(np.ones(3))) for i in range(14)]
    eager, compiled = Beams(), Beams()
    with dynamo.explain(compiled.step, backend=backend) as f:
        for i, row in enumerate(rows):
            same(eager.step(row), f(row), path=f"call {i}")
            same(eager.beams, compiled.beams, path=f"beams after call {i}")
    assert len(_recompiles(f.report)) <= 7, "\n".join(map(str, _recompiles(f.report)))


def test_no_break_in_a_resume_functions_prologue():
    """A read in a resume function's prologue (``LOAD_FAST ___stack0``, the values
    carried over a break) keeps its guard: a break there made a resume function whose
    prologue deleted a carried value twice (``UnboundLocalError: ___stack1``). Seen
    before ``lifetimes.visible_ends_held`` stopped reading unread tuples of numbers at
    the prologue's ``DELETE_FAST``; held here on its own."""
    from types import SimpleNamespace

    from dynamo.guards import LocalSource

    from dynamo.variables.data_tuples import check_growing
    from dynamo.variables.text_items import in_resume_prologue

    policy = SimpleNamespace(previous_lengths={LocalSource("___stack0"): {1, 2},
                                               LocalSource("seq"): {1, 2}})

    def tx(name, arg):
        return SimpleNamespace(current=SimpleNamespace(name=name, arg=arg),
                               output=SimpleNamespace(shape_env=SimpleNamespace(
                                   dynamic=policy)))

    assert in_resume_prologue(tx("DELETE_FAST", "___stack0"))
    assert in_resume_prologue(tx("LOAD_FAST_LOAD_FAST", ("x", "___stack1")))
    assert not in_resume_prologue(tx("LOAD_FAST", "seq"))
    assert not in_resume_prologue(tx("BINARY_OP", 0))
    check_growing(tx("DELETE_FAST", "___stack0"), (1, 2, 3), LocalSource("___stack0"))
    with pytest.raises(dynamo.Unsupported, match="length changes every call"):
        check_growing(tx("BINARY_OP", 0), (1, 2, 3), LocalSource("seq"))

