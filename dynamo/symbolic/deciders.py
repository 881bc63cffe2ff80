"""Comparisons of symbolic ints that a trace answers itself instead of recording them.

A comparison of two symbolic ints (``SymInt._compare`` in ``sizes.py``) is normally a
*decision*: recorded, and guarded on later calls. A loop node's comparison of its own
indices (``if i == 0`` in a loop over ``range(1, n)``) may have one value on every trip
the node runs; ``translator/index_splits.py`` knows that, and answers it through
``deciding`` so that no decision is recorded::

    >>> with deciding(lambda diff, op: False):
    ...     answer(diff="loop0 - 3", op="==")        # what SymInt._compare asks
    False
    >>> answer(diff="loop0 - 3", op="==") is None    # outside: not known, recorded
    True

A leaf module (it imports nothing of the project), so ``sizes.py`` can ask it.
"""

from __future__ import annotations

import contextlib
import threading

_local = threading.local()


def answer(diff, op: str) -> bool | None:
    """``diff op 0`` as the innermost ``deciding`` callable answers it, or None (no
    callable, or it does not know)."""
    decider = getattr(_local, "decider", None)
    return None if decider is None else decider(diff, op)


@contextlib.contextmanager
def deciding(decider):
    """Let ``decider(diff, op) -> bool | None`` answer comparisons ``diff op 0`` of
    symbolic ints (``diff`` a ``Sym``) while the block runs, in this thread."""
    outer = getattr(_local, "decider", None)
    _local.decider = decider
    try:
        yield
    finally:
        _local.decider = outer
