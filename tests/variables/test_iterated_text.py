"""A lone string iterated (``for ch in text``) that changes between calls is text, read
as Python at a break (issue #16, ``variables/text_iterators.py``): character counts
over 11 texts compile twice, where each text was an entry until the cache limit
(7 recompiles, then the calls ran uncompiled with a warning). A string that selects
code (``if mode == "train"``) still guards and recompiles, and a string iterated that
never changes keeps its constant (no break). Plain and compiled side by side.
"""

import re

import numpy as np
import pytest
from test_text_items import BACKENDS, _recompiles, _run


class CharCounts:
    def __init__(self):
        self.counts = {}

    def update(self, x, text):
        for ch in text:
            self.counts[ch] = self.counts.get(ch, 0) + 1
        return x * len(self.counts)


TEXTS = ["ab", "ba", "ab", "bc", "ca", "ab", "cc", "ba", "ab", "bc", "ca"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_character_counts_compile_twice(backend):
    """Before: 7 recompiles (``text: expected 'ab', got 'ba'``...), then the cache limit."""
    report = _run(CharCounts, "update", lambda i: (np.arange(3.0), TEXTS[i]), len(TEXTS),
                  backend)
    assert report.compile_count <= 2, report.recompiles
    assert len(_recompiles(report)) <= 1, report.recompiles


def test_the_break_names_the_string_and_the_loop():
    report = _run(CharCounts, "update", lambda i: (np.arange(3.0), TEXTS[i]), 3, "eager")
    reasons = [str(b) for b in report.break_reasons]
    assert any(re.search(r"a string that changes between calls, iterated \(L\['text'\]: "
                         r"'ab', then 'ba'\)", r) and "for ch in text:" in r
               for r in reasons), reasons


class ModeLetters:
    def __init__(self):
        self.n = 0

    def run(self, x, mode):
        self.n += 1
        if mode == "train":
            return x * 2.0
        return x - float(len(mode))


def test_a_mode_string_compared_still_recompiles():
    """Compared, not iterated: the guard stays and each new mode is an entry."""
    modes = ["train", "eval", "train", "test", "eval"]
    report = _run(ModeLetters, "run", lambda i: (np.arange(3.0), modes[i]), 5, "eager")
    assert not report.break_reasons
    assert len(_recompiles(report)) == 2, report.recompiles


def test_an_iterated_string_that_never_changes_stays_constant():
    report = _run(CharCounts, "update", lambda i: (np.arange(3.0), "abc"), 4, "eager")
    assert not report.break_reasons
    assert not any("text: expected" in str(r) for r in _recompiles(report)), report.recompiles


class CountsAfterWork:
    def __init__(self):
        self.counts = {}

    def update(self, x, text):
        y = np.tanh(x) * 2.0
        for ch in text:
            self.counts[ch] = self.counts.get(ch, 0) + 1
        return np.exp(y) * len(self.counts) + 1.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_work_before_the_loop_stays_compiled(backend):
    """The break is at the loop (its first ``FOR_ITER``), not before the frame: the
    arrays made before it are a graph of the second entry too (before, loading the
    text was the break and the whole frame ran as Python)."""
    report = _run(CountsAfterWork, "update", lambda i: (np.arange(3.0), TEXTS[i]),
                  len(TEXTS), backend)
    assert len(_recompiles(report)) <= 1, report.recompiles
    assert report.graph_count == 2 and min(report.ops_per_graph) >= 2, str(report)
