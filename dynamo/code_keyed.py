"""A mapping from code objects, by identity, held weakly (``CodeKeyed``): how a
compile context keeps one cache per code object (:mod:`dynamo.hook`); and a set of
them (``CodeSet``), for the marks on generated code (resume functions, code at the
program's lines).

Example::

    >>> caches = CodeKeyed()
    >>> code = compile("x + 1", "<expr>", "eval")
    >>> caches[code] = "entries"
    >>> caches.get(code), code in caches, len(caches)
    ('entries', True, 1)
    >>> del code               # the last reference to the code object
    >>> len(caches)
    0
"""

from __future__ import annotations

import weakref
from typing import Any


class CodeKeyed:
    """A mapping from code objects, by identity, held weakly: an entry goes when its
    code object goes. (Code objects compare equal by value, so two ``exec`` of one
    source would share a ``WeakKeyDictionary`` slot, and the first one's death would
    drop the second one's cache.)"""

    def __init__(self) -> None:
        self._data: dict[int, tuple[weakref.ref, Any]] = {}

    def get(self, code, default=None):
        hit = self._data.get(id(code))
        return hit[1] if hit is not None and hit[0]() is code else default

    def __getitem__(self, code):
        hit = self._data.get(id(code))
        if hit is None or hit[0]() is not code:
            raise KeyError(code)
        return hit[1]

    def __setitem__(self, code, value) -> None:
        key = id(code)
        data = self._data

        def gone(ref, key=key):
            if data.get(key, (None,))[0] is ref:
                del data[key]
        data[key] = (weakref.ref(code, gone), value)

    def setdefault(self, code, default):
        hit = self.get(code, _MISSING)
        if hit is _MISSING:
            self[code] = hit = default
        return hit

    def __contains__(self, code) -> bool:
        return self.get(code, _MISSING) is not _MISSING

    def __len__(self) -> int:
        return len(self._data)

    def values(self) -> list:
        return [v for _, v in list(self._data.values())]

    def items(self) -> list:
        """(code, value) pairs of the codes still alive."""
        return [(code, v) for ref, v in list(self._data.values()) if (code := ref())
                is not None]


class CodeSet:
    """A set of code objects, by identity, held weakly: what ``weakref.WeakSet`` is
    not for code objects. Two equal code objects (two ``exec`` of one source, or the
    same resume function made for each) share one ``WeakSet`` slot: the second is then
    a member only while the first lives, and lost when it dies (a resume function
    called with its arguments in a list that the hook took for a flat call: issue #17).

    Example::

        >>> made = CodeSet()
        >>> a, b = (compile("x + 1", "<expr>", "eval") for _ in range(2))
        >>> made.add(a)
        >>> a == b, a in made, b in made
        (True, True, False)
    """

    def __init__(self) -> None:
        self._keyed = CodeKeyed()

    def add(self, code) -> None:
        self._keyed[code] = True

    def __contains__(self, code) -> bool:
        return code in self._keyed

    def __len__(self) -> int:
        return len(self._keyed)


_MISSING = object()
