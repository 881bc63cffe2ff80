"""A mapping from code objects, by identity, held weakly (``CodeKeyed``): how a
compile context keeps one cache per code object (:mod:`dynamo.hook`).

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

    def __contains__(self, code) -> bool:
        return self.get(code, _MISSING) is not _MISSING

    def __len__(self) -> int:
        return len(self._data)

    def values(self) -> list:
        return [v for _, v in list(self._data.values())]


_MISSING = object()
