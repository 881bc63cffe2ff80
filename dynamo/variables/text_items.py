"""Strings in a list that change between calls are text, not constants (issue #16).

A string read from an input is a constant of the trace, guarded by value: right for a
mode or a tag that selects code (``if mode == "train"``), an entry per value. A list of
words that changes every call (a sentence handed to a tokenizer) would make an entry per
sentence until the cache is full. So once an earlier entry guarded another string at the
same item of a list of strings (``words[0]``: ``'the'``, then ``'a'``), the trace does not
read that item at all: reading it raises ``Unsupported``, a graph break, and the code
that uses the words (the vocabulary's lookups, inserts, ``ord(c)``) runs as Python. What
it makes from them, a list of int ids, reaches the graph after the break as data (a list
of ints whose items changed: ``builder._list_data``), so the tokenizer compiles twice in
all, not once per sentence. A lone string argument or attribute (``mode``) is not an
item of a list of strings and keeps its guard; so does a string field of a record (a
heap's ``(time, kind)`` tuples), whose value selects what the program does with it.

Example::

    def encode(self, words):
        ids = []
        for w in words:                 # call 2 with other words: a break here, the
            if w not in self.vocab:     # loop runs as Python
                self.vocab[w] = len(self.vocab)
            ids.append(self.vocab[w])
        return EMB[np.array(ids)].mean(axis=0)   # compiled, ids an input of data
"""

from __future__ import annotations

from dynamo.guards import ItemSource
from dynamo.guards.sources import STACK_PARAM

from ..exc import Unsupported


def note_text_list(policy, value: list, source) -> None:
    """Note ``source`` as a list of words: a list, not empty, whose items are all
    strings (``["the", "cat"]``). A string in a tuple or beside other values (a heap's
    ``(time, kind)`` records, ``[x, "tag"]``) is a field of a record, not text: it
    keeps its guard.

        >>> note_text_list(policy, ["the", "cat"], LocalSource("words"))
        >>> LocalSource("words") in policy.text_lists
        True
    """
    if value and all(type(v) is str for v in value):
        policy.text_lists.add(source)


def is_text_item(policy, source) -> bool:
    """Is ``source`` an item of a list of words (``note_text_list``), where changing
    strings are text data? ``L['words'][2]``, ``L['batch'][0][1]`` of a list of
    sentences; not ``L['mode']``, ``L['cfg']['mode']`` (a setting) or a field of a
    record (``self.heap[0][1]`` of ``(time, kind)`` tuples)."""
    return isinstance(source, ItemSource) and type(source.key) is int and \
        source.base in policy.text_lists


def in_resume_prologue(tx) -> bool:
    """Is the instruction being traced part of a resume function's prologue, which
    loads (and deletes) the values carried over a break, ``___stack0``...? A break
    there cannot resume (the prologue rebuilds the stack the break left): a value read
    there keeps its guards, and a later read in the body breaks instead.

        >>> tx.current      # LOAD_FAST ___stack1
        >>> in_resume_prologue(tx)
        True
    """
    inst = getattr(tx, "current", None)
    if inst is None or not inst.name.startswith(("LOAD_FAST", "DELETE_FAST")):
        return False
    # (a super-instruction of 3.13+, LOAD_FAST_LOAD_FAST, names two locals)
    names = inst.arg if isinstance(inst.arg, tuple) else (inst.arg,)
    return any(isinstance(n, str) and n.startswith(STACK_PARAM) for n in names)


def check_text_item(tx, value: str, source) -> None:
    """Raise the graph break for a string item that changed between calls (see the
    module's docstring); return for any other string, which is guarded by value (and
    for one read in a resume function's prologue: ``in_resume_prologue``).

        >>> check_text_item(tx, "a", ItemSource(LocalSource("words"), 0))
        Unsupported: a string that changes between calls (words[0]: 'the', then 'a')
    """
    policy = tx.output.shape_env.dynamic
    if not is_text_item(policy, source) or in_resume_prologue(tx):
        return
    seen = policy.previous_texts.get(source, ())
    before = next((s for s in seen if s != value), None)
    if before is None:
        return
    raise Unsupported(   # (its why and hint: hints_flow.py)
        f"a string that changes between calls ({source.name()}: {before!r}, then "
        f"{value!r})", cause="changing_text")



def iterated_text(tx, value: str, source) -> str | None:
    """For a lone string (an argument, an attribute) that changed between calls and is
    loaded to be iterated (``for ch in text``: ``GET_ITER`` comes next), what changed
    (``"L['text']: 'ab', then 'ba'"``): the builder gives it unguarded by value, and
    its loop runs as Python at a break (``text_iterators.py``). None for any other
    string or use (``if mode == "train"``, a dict key): it keeps its guard.

        >>> tx.current, tx.info.insts[tx.current.index + 1]      # LOAD_FAST text, GET_ITER
        >>> iterated_text(tx, "ba", LocalSource("text"))
        "L['text']: 'ab', then 'ba'"
    """
    inst = getattr(tx, "current", None)
    insts = getattr(getattr(tx, "info", None), "insts", None)
    if inst is None or insts is None or inst.index + 1 >= len(insts) or \
            insts[inst.index + 1].name != "GET_ITER" or in_resume_prologue(tx):
        return None
    seen = tx.output.shape_env.dynamic.previous_texts.get(source, ())
    before = next((s for s in seen if s != value), None)
    return None if before is None else f"{source.name()}: {before!r}, then {value!r}"
