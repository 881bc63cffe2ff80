"""A lone string that changes between calls, iterated: ``for ch in text`` (issue #16).

A string argument or attribute is a constant of the trace, guarded by value: right for
a mode compared in an ``if`` (an entry per mode). A text iterated character by
character (character counts of the call's text) would make an entry per text until
the cache is full. So once an earlier entry guarded another string at the same source
and the string is loaded to be iterated (the next instruction is ``GET_ITER``:
``text_items.iterated_text``), the builder gives a ``ChangingTextVariable``: guarded by
type only, its value never read by the trace. Its iterator breaks at the loop's first
``FOR_ITER`` (the loop runs as Python, as a loop over changing words does), and the
glue builds the real iterator from the string's source, this call's text.

Example::

    def update(self, x, text):
        for ch in text:             # call 2 with another text: a break here; the loop
            self.counts[ch] = ...   # runs as Python
        return x * len(self.counts)  # compiled after the loop
"""

from __future__ import annotations

from ..exc import Unsupported
from .base import Variable
from .iterators import IteratorVariable


class ChangingTextVariable(Variable):
    """A string from ``source`` whose value the trace does not read (only its type is
    guarded): iterated, it breaks (``TextIteratorVariable``); any other use is
    unsupported, which ``text_items.iterated_text`` rules out (it is made only where
    ``GET_ITER`` comes next).

        >>> ChangingTextVariable("ba", LocalSource("text"), "L['text']: 'ab', then 'ba'")
    """

    def __init__(self, value: str, source, why: str):
        self.value, self.source, self.why = value, source, why

    def describe(self) -> str:
        return "a string that changes between calls"

    def python_type(self) -> type:
        return str

    def make_iterator(self, tx) -> TextIteratorVariable:
        return TextIteratorVariable(self)

    def reconstruct(self, cg) -> str:
        return self.source.expr()   # this call's text


class TextIteratorVariable(IteratorVariable):
    """``iter(text)`` of a ``ChangingTextVariable``: taking an item is the graph break
    (the loop runs as Python); the glue rebuilds it as ``iter(text)`` from the source,
    nothing taken yet."""

    def __init__(self, text: ChangingTextVariable):
        self.text = text

    def describe(self) -> str:
        return "str_ascii_iterator"

    def python_type(self) -> type:
        return type(iter(self.text.value))

    def next(self, tx):
        raise Unsupported(   # (its why and hint: hints_flow.py)
            f"a string that changes between calls, iterated ({self.text.why})",
            cause="changing_text")

    def reconstruct(self, cg) -> str:
        return f"{cg.const(iter)}({self.text.reconstruct(cg)})"


__all__ = ["ChangingTextVariable", "TextIteratorVariable"]
