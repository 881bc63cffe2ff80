"""``sum(v for v in self.losses)``, ``max(s for s in self.scores)``: a generator
expression that yields each item of a list unchanged, read whole by a
reducing builtin, is that builtin of the container itself (issue #16).

Python gives the same value either way: the generator takes the container's items in
order from ``iter(container)`` and hands each to the builtin as it is; nothing else
runs between two items. So where ``float_windows.reduced`` reads ``sum(L)`` of a list
of floats whose length changes as one changing float (one entry for every length),
the generator's form gets the same, instead of an entry per length while the trace
unrolls the generator item by item.

Recognised by the generator's code alone: a ``<genexpr>`` with one loop over its
argument ``.0`` whose body is exactly "store the item in a name, load that name,
yield it" (``STORE_FAST v; LOAD_FAST v``, or 3.13's ``STORE_FAST_LOAD_FAST (v, v)``)
and no other yield: no filter, no projection. The generator must not have started and
its iterator must be ``iter()`` of a list at its first item. Once the builtin
has read the container, the iterator is marked run out, so a generator object that is
kept and advanced later stops at once, as the exhausted one does in Python.

Example::

    def update(self, x, loss):
        self.losses.append(loss)
        return x * (sum(v for v in self.losses) / len(self.losses))
    # sum: a float read from sum((*L['self'].losses, L['loss'])), as for sum(self.losses)
"""

from __future__ import annotations

import dis

from .iterators import GeneratorVariable, SequenceIteratorVariable

_STORE_LOAD = ("STORE_FAST", "LOAD_FAST")


def yielded_container(var):
    """(the container, its iterator) that the generator ``var`` yields unchanged, item
    by item, or None where ``var`` is not such a generator, not fresh, or not over a
    sequence at its first item."""
    if not isinstance(var, GeneratorVariable) or var.started or var.tx.done:
        return None
    code = var.tx.code
    if code.co_name != "<genexpr>" or not _yields_items(code):
        return None
    it = var.tx.locals.get(".0")
    if type(it) is not SequenceIteratorVariable or it.reverse or it.done or it.index:
        return None
    return it.seq, it


def exhaust(iterator) -> None:
    """The generator's iterator after the builtin took every item: run out."""
    iterator.done = True


def _yields_items(code) -> bool:
    """One FOR_ITER and one YIELD_VALUE, with exactly "store the item, load it back"
    between them (see the module docstring)."""
    ops = [(i.opname, i.argval) for i in dis.get_instructions(code)]
    names = [op for op, _ in ops]
    if names.count("FOR_ITER") != 1 or names.count("YIELD_VALUE") != 1:
        return False
    body = ops[names.index("FOR_ITER") + 1:names.index("YIELD_VALUE")]
    if len(body) == 1 and body[0][0] == "STORE_FAST_LOAD_FAST":
        store, load = body[0][1]
        return store == load
    return len(body) == 2 and (body[0][0], body[1][0]) == _STORE_LOAD and \
        body[0][1] == body[1][1]
