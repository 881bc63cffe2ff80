"""Strings in a list that change between calls are text, read as Python at a break
(issue #16, ``dynamo/variables/text_items.py``): a tokenizer whose vocabulary grows,
a fixed vocabulary looked up word by word and the hashing trick compile twice over
20 sentences, where each sentence that met a new word (or a vocabulary of a new size)
was an entry until the cache limit; results and the vocabulary equal plain Python's.
A string that is not an item of a list (``mode``) still guards and still recompiles
when it changes, and a list of strings that does not change keeps its constants.
Each sequence of calls runs plainly and compiled side by side on equal state.
"""

import re

import numpy as np
import pytest
from harness import same

import dynamo

BACKENDS = ["eager", "numpy"]
EMB = np.cos(np.arange(96.0)).reshape(32, 3)
_LEXICON = ["the", "a", "one", "cat", "dog", "bird", "sat", "ran", "flew", "down",
            "up", "far", "home", "fish", "swam"]
SENTENCES = [[_LEXICON[(7 * i + 3 * j * j + j) % len(_LEXICON)] for j in range(4)]
             for i in range(20)]


def _run(make, method, args_of, calls, backend):
    """``calls`` calls of ``make().method`` plainly and compiled, compared after each
    (result and the object's state); the report of the compiled calls."""
    eager, compiled = make(), make()
    dynamo.reset()
    with dynamo.explain(getattr(compiled, method), backend=backend) as f:
        for i in range(calls):
            want = getattr(eager, method)(*args_of(i))
            got = f(*args_of(i))
            same(want, got, path=f"call {i}")
            same(vars(eager), vars(compiled), path=f"state after call {i}")
    return f.report


class Tokenizer:
    def __init__(self):
        self.vocab = {}

    def encode(self, words):
        ids = []
        for w in words:
            if w not in self.vocab:
                self.vocab[w] = len(self.vocab)
            ids.append(self.vocab[w])
        return EMB[np.array(ids)].mean(axis=0)


class SetdefaultTokenizer:
    def __init__(self):
        self.vocab = {"<pad>": 0}

    def encode(self, words, x):
        ids = [self.vocab.setdefault(w, len(self.vocab)) for w in words]
        return EMB[ids].sum(axis=0) * x, ids


class HashedWords:
    def __init__(self):
        self.calls = 0

    def embed(self, words):
        self.calls += 1
        ids = [sum(ord(c) for c in w) % 32 for w in words]
        return EMB[np.array(ids)].mean(axis=0)


def _recompiles(report):
    return [r for r in report.recompiles if r.call >= 1]


@pytest.mark.parametrize("backend", BACKENDS)
def test_growing_vocabulary_compiles_twice(backend):
    """Before: 7 recompiles (``words[0]: expected 'the', got 'ran'``, then the cache
    limit ran the last 12 calls uncompiled); now the first change of a word makes the
    loop over the words an island, 1 recompile in all."""
    report = _run(Tokenizer, "encode", lambda i: (SENTENCES[i],), 20, backend)
    assert len(_recompiles(report)) <= 1, "\n".join(map(str, _recompiles(report)))
    assert report.compile_count <= 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_setdefault_comprehension_and_ids_returned(backend):
    report = _run(SetdefaultTokenizer, "encode",
                  lambda i: (SENTENCES[i], np.arange(3.0) + i), 20, backend)
    assert len(_recompiles(report)) <= 2, "\n".join(map(str, _recompiles(report)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_hashing_trick_over_characters(backend):
    report = _run(HashedWords, "embed", lambda i: (SENTENCES[i],), 20, backend)
    assert len(_recompiles(report)) <= 2, "\n".join(map(str, _recompiles(report)))


def test_the_break_names_the_string_and_the_line():
    """The break says which item changed, from what to what, at the loop's line."""
    report = _run(Tokenizer, "encode", lambda i: (SENTENCES[i],), 3, "eager")
    reasons = [str(b) for b in report.break_reasons]
    assert any(re.search(r"a string that changes between calls \(L\['words'\]\[\d\]: "
                         r"'\w+', then '\w+'\)", r) and "for w in words:" in r
               for r in reasons), reasons


class Moded:
    def __init__(self):
        self.n = 0

    def run(self, x, mode):
        self.n += 1
        if mode == "train":
            return x * 2.0
        return x - 1.0


def test_a_mode_string_still_guards_and_recompiles():
    """A string argument that selects code is no item of a list: it keeps its guard,
    and a new mode is a recompile (not a break)."""
    modes = ["train", "train", "eval", "eval", "train", "eval"]
    report = _run(Moded, "run", lambda i: (np.arange(3.0), modes[i]), 6, "eager")
    assert not report.break_reasons
    assert any("mode" in str(r) for r in _recompiles(report)), report.recompiles


def test_a_list_of_strings_that_never_changes_stays_constant():
    """Tags that are the same every call are constants of one entry: no break."""
    def scale(x, tags):
        for t in tags:
            x = x * 2.0 if t == "double" else x + 1.0
        return x

    f = dynamo.explain(scale, backend="eager")
    with f as g:
        for i in range(5):
            same(scale(np.arange(3.0) + i, ["double", "inc"]),
                 g(np.arange(3.0) + i, ["double", "inc"]))
    assert not g.report.break_reasons and g.report.compile_count == 1


def test_strings_that_select_code_per_item_run_as_python():
    """Items that change and select code (``if t == "double"``) give plain Python's
    results once they run at the break, on every combination."""
    def scale(x, tags):
        for t in tags:
            x = x * 2.0 if t == "double" else x + 1.0
        return x

    combos = [["double", "inc"], ["inc", "double"], ["inc", "inc"], ["double", "double"],
              ["inc", "double"], ["double", "inc"]]
    with dynamo.explain(scale, backend="eager") as g:
        for tags in combos:
            same(scale(np.arange(3.0), tags), g(np.arange(3.0), tags))
    assert len(_recompiles(g.report)) <= 2, "\n".join(map(str, _recompiles(g.report)))
