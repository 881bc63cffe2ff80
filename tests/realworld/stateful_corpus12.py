"""Issue #16's twelfth stateful corpus, written before it was run: 24 programs of the
patterns corpus 11 left open. This file holds 12: vocabularies that grow across calls
(``if w not in vocab: vocab[w] = len(vocab)``, ``setdefault``, character and bigram
counts, a fixed vocabulary with an unknown id, hashed words), beam search over tuples
built in Python (``beams = [(score + lp, seq + [tok]) ...]``, ``sorted(..., key=...)[:k]``,
persistent and per call), an LRU cache of windows, a memo keyed by a tag string, and
a step-decay learning-rate schedule. ``stateful_corpus12_agents.py``
holds the other 12 (REINFORCE episodes with lists, replay buffers, running statistics
in dicts, early stopping); ``PROGRAMS`` here is all 24.

Each scenario makes fresh state, compiles one callable (``wrap``), calls it ``CALLS``
(20) times with the same shapes and changing values, and returns each call's result
with a copy of the state after it (``snap``) and, where the call mutates a container
in place, whether it is still the very object it was, all compared with plain
Python's (``test_stateful_corpus12.py``). ``recompiles`` is the target written with the
program before the first run; a ``known`` note holds the count measured where a program
recompiles more, and the cause found.

Example::

    @program(recompiles=2, why=TEXT)
    def vocab_not_in_then_append(wrap):
        t = GrowingTokenizer()
        f = wrap(t.encode)
        return [(f(ws), dict(t.vocab)) for ws in SENTENCES]
"""

from __future__ import annotations

import collections

import numpy as np
import stateful_corpus12_agents
from stateful_corpus4 import snap
from stateful_corpus12_data import COUNTER, GS, LOGPS, SENTENCES, SIDES, TAGS, TEXT, XS
from stateful_programs import registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

EMB = np.cos(np.arange(96.0)).reshape(32, 3)   # an embedding table: 32 ids x 3


# ===================================================================== vocabularies

class GrowingTokenizer:
    """The issue's tokenizer: a new word gets the next id, the sentence's ids embedded
    (``EMB[np.array(ids)]``) and mean-pooled."""

    def __init__(self):
        self.vocab = {}

    def encode(self, words):
        ids = []
        for w in words:
            if w not in self.vocab:
                self.vocab[w] = len(self.vocab)
            ids.append(self.vocab[w])
        return EMB[np.array(ids)].mean(axis=0)


@program(recompiles=2, why=TEXT)
def vocab_not_in_then_append(wrap):
    t = GrowingTokenizer()
    f = wrap(t.encode)
    vocab = t.vocab
    return [(f(ws), dict(t.vocab), t.vocab is vocab) for ws in SENTENCES]


class SetdefaultTokenizer:
    """``setdefault(w, len(vocab))`` in a comprehension; the ids returned too."""

    def __init__(self):
        self.vocab = {"<pad>": 0}

    def encode(self, words, x):
        ids = [self.vocab.setdefault(w, len(self.vocab)) for w in words]
        return EMB[ids].sum(axis=0) * x[:3], ids


@program(recompiles=2, why=TEXT)
def vocab_setdefault_comprehension(wrap):
    t = SetdefaultTokenizer()
    f = wrap(t.encode)
    return [(f(ws, x), dict(t.vocab)) for ws, x in zip(SENTENCES, XS)]


class CharCounter:
    """Character counts in a dict that grows (``counts.get(c, 0) + 1``); the call's
    characters as ids of a fixed alphabet, a bag-of-characters vector by ``np.bincount``."""

    def __init__(self):
        self.counts = {}

    def bag(self, words):
        ids = []
        for w in words:
            for c in w:
                self.counts[c] = self.counts.get(c, 0) + 1
                ids.append((ord(c) - 97) % 26)
        return np.bincount(np.array(ids), minlength=26) / len(ids)


@program(recompiles=2, why=TEXT)
def char_counts_bag(wrap):
    c = CharCounter()
    f = wrap(c.bag)
    return [(f(ws), dict(c.counts)) for ws in SENTENCES]


class BigramModel:
    """Bigram counts keyed by word pairs (tuples of strings), the sentence scored by
    the log of its pairs' counts so far (a list of floats made in Python)."""

    def __init__(self):
        self.pairs = collections.Counter()

    def score(self, words, x):
        logs = []
        for a, b in zip(words, words[1:]):
            self.pairs[(a, b)] += 1
            logs.append(float(self.pairs[(a, b)]))
        return np.log(np.array(logs)).sum() + x.sum()


@program(recompiles=2, why=TEXT)
def bigram_counter_pairs(wrap):
    m = BigramModel()
    f = wrap(m.score)
    return [(f(ws, x), dict(m.pairs)) for ws, x in zip(SENTENCES, XS)]


class FixedVocab:
    """A fixed vocabulary with an unknown id (``vocab.get(w, UNK)``): nothing grows,
    but the words change every call."""

    def __init__(self):
        self.vocab = {w: i + 1 for i, w in enumerate(["the", "cat", "dog", "sat", "ran"])}
        self.seen = 0

    def encode(self, words):
        ids = [self.vocab.get(w, 0) for w in words]
        self.seen += len(ids)
        return EMB[np.array(ids)] @ np.ones(3)


@program(recompiles=2, why=TEXT + "; " + COUNTER)
def fixed_vocab_unknown_id(wrap):
    v = FixedVocab()
    f = wrap(v.encode)
    return [(f(ws), v.seen) for ws in SENTENCES]


def hashed_bag(words, x):
    """The hashing trick: a word's id is a sum of its characters' codes mod 32."""
    ids = [sum(ord(c) for c in w) % 32 for w in words]
    return EMB[np.array(ids)].mean(axis=0) + x[:3]


@program(recompiles=2, why=TEXT)
def hashing_trick_ids(wrap):
    f = wrap(hashed_bag)
    return [f(ws, x) for ws, x in zip(SENTENCES, XS)]


# ===================================================================== beam search

def beam_search(logp, k=2):
    """Beam search over a table of log-probabilities (3 steps x 5 tokens): the beams
    tuples ``(score, seq)`` built in Python, sorted by a key, the best ``k`` kept."""
    beams = [(0.0, [])]
    for t in range(logp.shape[0]):
        row = logp[t].tolist()
        cand = []
        for score, seq in beams:
            for tok, lp in enumerate(row):
                cand.append((score + lp, seq + [tok]))
        beams = sorted(cand, key=lambda b: -b[0])[:k]
    best_score, best_seq = beams[0]
    return best_seq, best_score, EMB[np.array(best_seq)].sum(axis=0)


@program(recompiles=2, why="the best sequence a list of ints that changes: data after "
                           "its first change")
def beam_search_tuples(wrap):
    f = wrap(beam_search)
    return [f(lp) for lp in LOGPS]


class PersistentBeams:
    """Beams kept across calls: each call extends them by one step of the call's table
    (``seq + (tok,)``), keeps the best 3, and embeds the best sequence's last 2 tokens."""

    def __init__(self):
        self.beams = [(0.0, ())]
        self.steps = 0

    def step(self, logp):
        row = logp[self.steps % 3]
        cand = [(s + float(row[tok]), seq + (tok,)) for s, seq in self.beams
                for tok in range(5)]
        self.beams = sorted(cand, key=lambda b: b[0], reverse=True)[:3]
        self.steps += 1
        return EMB[list(self.beams[0][1][-2:])].sum(axis=0)


@program(recompiles=2, why="the beams' tuples grow every call (their lengths and ids "
                           "change); " + COUNTER,
         known=(6, (
                   "float(row[tok]) breaks the comprehension, so the frame and two resume "
                   "functions each pay their own first changes: len(self.beams) 1 -> 3 and "
                   "the candidates 5 -> 15 at the first call, the beams' token tuples "
                   "(seq + (tok,)) a new length at the second (from the third they break: "
                   "data_tuples.check_growing), and the last two tokens, carried over a "
                   "break as an index, a first change of their own. Was 14 (each length "
                   "an entry in each of the three codes)")))
def beams_kept_across_calls(wrap):
    b = PersistentBeams()
    f = wrap(b.step)
    return [(f(lp), snap(b.beams), b.steps) for lp in LOGPS]


def greedy_with_length_penalty(logp, alpha=0.6):
    """Greedy decoding with the score normalised by a length penalty computed in
    Python (``((5 + n) / 6) ** alpha``) each step."""
    seq, score = [], 0.0
    for t in range(logp.shape[0]):
        tok = int(np.argmax(logp[t]))
        seq.append(tok)
        score += float(logp[t, tok])
    penalty = ((5 + len(seq)) / 6) ** alpha
    return seq, score / penalty, EMB[seq].mean(axis=0)


@program(recompiles=2, why="the tokens a list of ints that changes: data after its "
                           "first change")
def greedy_length_penalty(wrap):
    f = wrap(greedy_with_length_penalty)
    return [f(lp) for lp in LOGPS]


# ===================================================================== caches, schedules

class LRUWindows:
    """An LRU cache of window arrays keyed by an int size class (``OrderedDict``,
    ``move_to_end``, ``popitem(last=False)`` past 2 entries), hits counted."""

    def __init__(self):
        self.cache, self.hits = collections.OrderedDict(), 0

    def apply(self, x, k):
        if k in self.cache:
            self.cache.move_to_end(k)
            self.hits += 1
        else:
            self.cache[k] = np.hanning(6) * (k + 1)
            if len(self.cache) > 2:
                self.cache.popitem(last=False)
        return x * self.cache[k]


@program(recompiles=6, why="the kind an int that selects the cache entry: an entry per "
                           "kind and per hit/miss side" + SIDES)
def lru_windows_by_kind(wrap):
    c = LRUWindows()
    f = wrap(c.apply)
    kinds = [i % 3 for i in range(len(XS))]
    return [(f(x, k), list(c.cache), c.hits) for x, k in zip(XS, kinds)]


class TagMemo:
    """Per-tag running sums in a dict keyed by a split name (``"train"``, ``"val"``,
    ``"test"``): the tag selects the entry, as a mode string does."""

    def __init__(self):
        self.sums = {}
        self.counts = collections.defaultdict(int)

    def add(self, tag, x):
        self.sums[tag] = self.sums.get(tag, 0.0) + x
        self.counts[tag] += 1
        return self.sums[tag] / self.counts[tag]


@program(recompiles=5, why="the tag a string that selects the dict entry (3 tags), then "
                           "a first present/absent side per tag")
def tag_keyed_running_sums(wrap):
    m = TagMemo()
    f = wrap(m.add)
    return [(f(t, x), snap(m.sums), dict(m.counts)) for t, x in zip(TAGS, XS)]


class StepDecay:
    """Step decay: ``lr = base * gamma ** (epoch // step_size)``, the epoch an int the
    call steps."""

    def __init__(self):
        self.epoch, self.base, self.gamma, self.step_size = 0, 0.1, 0.5, 4
        self.history = []

    def step(self, w, g):
        lr = self.base * self.gamma ** (self.epoch // self.step_size)
        self.epoch += 1
        self.history.append(lr)
        return w - lr * g


@program(recompiles=1, why=COUNTER)
def step_decay_schedule(wrap):
    s = StepDecay()
    f = wrap(s.step)
    return [(f(x, g), s.epoch, list(s.history)) for x, g in zip(XS, GS)]


PROGRAMS += stateful_corpus12_agents.PROGRAMS
