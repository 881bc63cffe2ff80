"""A histogram by hand into a Python list breaks: say what to write instead (issue #19).

::

    counts = [0] * n
    for v in x:
        counts[int(v) % n] += 1     # int() of array data: a break, with this hint

The index is array data, so which item the ``+=`` changes is only known when the
graph runs, and a Python list's items are the frame's own objects: the loop runs as
Python. ``np.bincount`` (or ``np.add.at`` into an array) computes the same counts in
one graph op. ``hint_list_counts`` adds that to a break whose instruction starts such
an augmented store into a list: the rest of the line is ``COPY 2; COPY 2; <the item>;
<+=>; SWAP 3; SWAP 2; STORE_SUBSCR`` (every version's form of ``a[k] += v``), and the
stack holds a list.

    >>> hint_list_counts(e, insts, call.index, [counts_list, NULL, int_fn, x_i])
    >>> e.hint.endswith("np.add.at(counts, idx, 1)")
    True

Where ``int(v)`` is deferred (a number the glue makes after the graph), the break is at
the read ``counts[k]`` of the ``+=``, right after its ``COPY 2; COPY 2``: the same hint.
"""

from __future__ import annotations

from ..exc import Unsupported
from ..variables.sequences import ListVariable

HINT = ("this counts into a Python list at an index the array data decides "
        "(counts[int(v) % n] += 1), which runs as Python; count in the graph instead: "
        "counts = np.bincount(idx, minlength=n).tolist() with "
        "idx = x.astype(np.int64) % n, or np.add.at(counts, idx, 1) into an array")

# (a break of array data made a Python value: ``int(v)``, ``counts[x[i] > 0]``)
_CAUSES = frozenset({"array_to_python", "data_dependent"})


def hint_list_counts(e: Unsupported, insts, index: int, stack: list) -> None:
    """Add ``HINT`` to ``e`` (a break at ``insts[index]`` because array data would
    become a Python value) where the instruction computes the index of ``a[k] += v``
    into a list on the ``stack``."""
    if e.cause not in _CAUSES or HINT in e.hint or \
            not any(isinstance(v, ListVariable) for v in stack) or \
            not _augmented_store_after(insts, index):
        return
    e.hint = f"{e.hint}; {HINT}" if e.hint else HINT


def _augmented_store_after(insts, index: int) -> bool:
    """Does the line of ``insts[index]`` go on with ``COPY 2; COPY 2`` and end that
    statement with ``STORE_SUBSCR`` (``a[k] += v``)? Or is ``insts[index]`` the read
    ``a[k]`` right after those copies, where the break is once ``int(v)`` is a number
    the glue makes (``ArrayToPythonVariable``): its use as the list's index breaks."""
    line = insts[index].lineno
    copies = index >= 2 and all(i.name == "COPY" and i.arg == 2
                                for i in insts[index - 2:index])
    for i in range(index + 1, min(len(insts) - 1, index + 40)):
        inst = insts[i]
        if inst.lineno not in (line, None):
            return False
        if inst.name == "COPY" and inst.arg == 2 and insts[i + 1].name == "COPY" and \
                insts[i + 1].arg == 2:
            copies = True
        elif inst.name == "STORE_SUBSCR":
            return copies
    return False

