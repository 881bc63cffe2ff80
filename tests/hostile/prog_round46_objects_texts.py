"""Round 46, objects (1 of 2): words and tuples that change between calls
(``dynamo/variables/text_items.py``: a list of strings whose items changed is text, read
at a graph break; ``data_tuples.check_growing``: a tuple read item by item whose length
changed twice breaks). Attacked with str subclasses (their own ``__eq__``, ``__hash__``,
``lower``), lists of words mutated during the call (appended to, an item replaced by an
int or a str subclass, cleared), words that differ by case or normalization only, empty
strings, nested sentences, lists of bytes, tuples holding arrays, ``+=`` on a tuple held
in an object or a global, tuples that grow then shrink, hold NaN and ``-0.0``.

    >>> def _encode(vocab, words, x):
    ...     ids = []
    ...     for w in words:                  # call 2 with other words: a break
    ...         ids.append(vocab.setdefault(w, len(vocab)))
    ...     return x[np.array(ids) % x.shape[0]].sum(), len(vocab)
"""

import unicodedata

import numpy as np
from hostile_check import Programs

reg = Programs("round46_objects")
case = reg.case
NAN = float("nan")

X = np.arange(8.0) * 0.5 - 1.0
SENTENCES = (["the", "cat", "sat"], ["a", "dog"], ["the", "the", "end", "now"],
             ["x"], ["cat", "a", "sat", "dog", "the"])


def _sets(*lists, extra=()):
    return tuple((list(w), *extra) for w in lists)


# ----------------------------------------------------------------------------- words

def _encode(words, x):
    vocab = {}
    ids = []
    for w in words:
        ids.append(vocab.setdefault(w, len(vocab)))
    return x[np.array(ids) % x.shape[0]].sum(), len(vocab), ids


case(_encode, *_sets(*SENTENCES, extra=(X,)))


def _encode_kept_vocab(vocab, words, x):
    ids = [vocab.setdefault(w, len(vocab)) for w in words]
    return x[np.array(ids) % x.shape[0]] * 2.0, sorted(vocab.items())


case(_encode_kept_vocab, lambda: ({}, ["a", "b"], X), lambda: ({"a": 3}, ["a", "c", "a"], X),
     lambda: ({}, ["zz"], X), lambda: ({"q": 0}, ["q", "q", "r", "s"], X))


class Word(str):
    """A str subclass that says it equals its lowercase self."""

    def __eq__(self, other):
        return str.lower(self) == str.lower(other) if isinstance(other, str) else False

    def __hash__(self):
        return hash(str.lower(self))


def _count_the(words, x):
    n = 0
    for w in words:
        if w == "the":
            n += 1
    return x * n, n


case(_count_the, lambda: ([Word("The"), Word("cat")], X), lambda: (["the", "THE"], X),
     lambda: ([Word("THE"), "the", Word("x")], X), lambda: (["a"], X))


class Shout(str):
    def lower(self):
        return "shout"


def _lowered(words, x):
    out = [w.lower() for w in words]
    return x[: len(out)], out, type(words[0]).__name__


case(_lowered, lambda: ([Shout("A"), "B"], X), lambda: (["C", "D", "E"], X),
     lambda: ([Shout("Q")], X), lambda: (["x", Shout("y"), "z", "w"], X))


def _append_during_call(words, x):
    n0 = len(words)
    words.append("extra")
    s = 0.0
    for w in words:
        s += len(w)
    return x * s, n0, words


case(_append_during_call, *_sets(*SENTENCES, extra=(X,)))


def _replace_item_during_call(words, x):
    first = words[0]
    words[0] = 7
    return x[: len(first)], first, words


case(_replace_item_during_call, *_sets(*SENTENCES, extra=(X,)))


def _clear_during_call(words, x):
    k = len(words[-1])
    words.clear()
    return x * k, words, len(words)


case(_clear_during_call, *_sets(*SENTENCES, extra=(X,)))


def _nfc_words(words, x):
    same = [unicodedata.normalize("NFC", w) == "caf\u00e9" for w in words]
    return x[: sum(same) + 1], same, [len(w) for w in words]


case(_nfc_words, lambda: (["caf\u00e9", "cafe\u0301"], X),
     lambda: (["cafe\u0301", "x"], X), lambda: (["CAF\u00c9"], X),
     lambda: (["caf\u00e9", "caf\u00e9", "a"], X))


def _empty_words(words, x):
    k = [i for i, w in enumerate(words) if not w]
    return x[np.array(k, dtype=np.intp)], k, [w.strip() for w in words]


case(_empty_words, lambda: (["", " ", "a"], X), lambda: ([" ", ""], X),
     lambda: (["a", "b"], X), lambda: (["", "", "", "q"], X))


def _nested_sentences(batch, x):
    lens = [len(s) for s in batch]
    first = [s[0] for s in batch]
    return x[: max(lens)] * len(batch), first, lens


case(_nested_sentences, lambda: ([["a", "b"], ["c"]], X), lambda: ([["d"], ["e", "f", "g"]], X),
     lambda: ([["h"]], X), lambda: ([["a", "b"], ["c"], ["i", "j"]], X))


def _bytes_words(words, x):
    return x[: len(words[0])], [w.upper() for w in words], type(words[0]).__name__


case(_bytes_words, lambda: (["ab", "c"], X), lambda: ([b"ab", b"cd"], X),
     lambda: (["xyz"], X), lambda: ([b"q"], X))


def _ord_sum(words, x):
    s = 0
    for w in words:
        for ch in w:
            s += ord(ch)
    return x * (s % 7), s


case(_ord_sum, *_sets(*SENTENCES, extra=(X,)))


def _join_and_split(words, x):
    text = " ".join(words)
    back = text.split(" ")
    return x[: len(back)], text, back == words


case(_join_and_split, *_sets(*SENTENCES, extra=(X,)))


def _word_as_key(table, words, x):
    return [table.get(w, -1) for w in words], x * len(table)


case(_word_as_key, lambda: ({"a": 1, "the": 2}, ["a", "b"], X),
     lambda: ({"a": 1, "the": 2}, ["the", "a", "the"], X),
     lambda: ({"x": 5}, ["x"], X), lambda: ({}, ["n", "o", "p", "q"], X))


def _mixed_list(items, x):
    return [type(v).__name__ for v in items], x * len(items)


case(_mixed_list, lambda: (["a", 1], X), lambda: (["b", "c"], X), lambda: ([2.0, "d", "e"], X),
     lambda: (["f", "g", "h", "i"], X))


# ----------------------------------------------------------------------------- tuples

def _tuple_of_arrays(t):
    s = 0.0
    for a in t:
        s += float(a.sum())
    return s, len(t), t[-1] * 2


case(_tuple_of_arrays, lambda: ((X, X[:2]),), lambda: ((X,),), lambda: ((X, X, X[1:]),),
     lambda: ((X[:1], X[:2], X[:3], X[:4]),))


class Beam:
    def __init__(self):
        self.seq = ()


def _grow_attr(o, x, tok):
    o.seq += (tok,)
    s = 0
    for t in o.seq:
        s += t
    return x * s, o.seq


def _beam_scenario(r):
    o = Beam()
    f = r.compile(_grow_attr)
    for tok in (3, 1, 4, 1, 5, 9):
        r.call(f, o, X, tok)
        r.see("seq", o.seq)


reg._add("tuple_grows_in_attribute", _beam_scenario, "o.seq += (tok,) each call")

SEQ = ()


def _grow_global(x, tok):
    global SEQ
    SEQ += (tok,)
    return x[: len(SEQ) % x.shape[0]], SEQ[0], SEQ[-1], sum(SEQ)


def _global_scenario(r):
    global SEQ
    SEQ = ()
    f = r.compile(_grow_global)
    for tok in (2, 7, 1, 8, 2, 8):
        r.call(f, X, tok)
        r.see("SEQ", SEQ)


reg._add("tuple_grows_in_global", _global_scenario, "SEQ += (tok,) each call")


def _tuple_items(t, x):
    a = t[0]
    s = 0.0
    for v in t:
        s += v
    return x * a + s, len(t)


case(_tuple_items, lambda: ((1.0, 2.0), X), lambda: ((1.0, 2.0, 3.0), X),
     lambda: ((4.0,), X), lambda: ((1.0, 2.0, 3.0, 4.0, 5.0), X), lambda: ((2.0, 1.0), X))


case(_tuple_items, lambda: ((NAN, 1.0), X), lambda: ((-0.0,), X), lambda: ((0.0, -0.0, NAN), X),
     lambda: ((NAN, NAN, NAN, 1.0), X), name="tuple_items_nan_zero")


def _tuple_unpack_head(t, x):
    head, *rest = t
    return x * head, rest, len(rest)


case(_tuple_unpack_head, lambda: ((1, 2), X), lambda: ((3, 4, 5), X), lambda: ((6,), X),
     lambda: ((7, 8, 9, 10), X))


def _tuple_as_data_then_items(t, x):
    a = np.array(t)
    m = a.mean()
    return x * m, t[-1], a


case(_tuple_as_data_then_items, lambda: ((1, 2, 3), X), lambda: ((4, 5), X),
     lambda: ((6, 7, 8, 9), X), lambda: ((1,), X))


def _tuple_concat(t, x, tok):
    t2 = t + (tok,)
    return x[: len(t2)], t2, t2.index(tok)


case(_tuple_concat, lambda: ((1, 2), X, 3), lambda: ((1, 2, 3), X, 3),
     lambda: ((), X, 0), lambda: ((5, 5, 5, 5), X, 5))


def _tuple_with_bool_items(t, x):
    return x * sum(t), [type(v).__name__ for v in t]


case(_tuple_with_bool_items, lambda: ((True, 2), X), lambda: ((1, False, True), X),
     lambda: ((3,), X), lambda: ((True, True, True, True), X))


def _tuple_index_of_array(t, x):
    return x[t], x[t[:1]]


case(_tuple_index_of_array, lambda: ((1,), X.reshape(2, 4)), lambda: ((1, 2), X.reshape(2, 4)),
     lambda: ((0, 1, 1), X.reshape(2, 2, 2)), lambda: ((0,), X.reshape(2, 4)))
