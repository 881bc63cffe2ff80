"""Whether a trace's result depends on how its process hashes: the iteration order of a
set (or frozenset) of strings, or ``hash("a")`` itself.

CPython hashes ``str``, ``bytes`` and ``datetime`` objects with a secret drawn anew by
every process (unless ``PYTHONHASHSEED`` sets it), and some objects by their address
(``None`` before 3.12, classes, functions). A set's iteration order follows its
elements' hashes, so ``list({"alpha", "beta"})`` differs between two processes, where
``list({3, 1})`` never does: ints, floats, complex numbers, bools (and ``None`` since
3.12) hash alike in every process, and so do tuples and frozensets of them. A trace
that iterates a set bakes the order it saw into the code it makes (``[x * 0 + len(k)
for k in s]`` becomes a list of constants). That is right in the process that traced
it, and the on-disk cache (:mod:`dynamo.disk_cache`) must not hand it to a process
that hashes otherwise.

So while the disk cache is on, a frame's trace runs under ``watching()``, and the few
choke points where an order or a hash leaves a hash-ordered container call ``note_*``:
``SetVariable.ordered_keys`` (every iteration of a set made in the trace: ``for``,
``list()``, unpacking, comprehensions, ``next(iter(s))``), ``ConstantVariable.unpack``
(a frozenset constant), ``constant.fold`` (a builtin or method run on constants:
``",".join(fs)``, ``str(fs)``, ``hash(k)``) and the f-string of a constant. Each note is
``(kind, why)``: ``"secret"`` where the order follows the hash secret only (an entry
for processes with the same ``probe()``), ``"address"`` where it follows addresses
(no entry at all). Orders that no process can see differently note nothing: a set of
fewer than two elements, ``sorted()`` of strings, ``len``, ``in``, set operators
(their result is a set again, rebuilt by the glue as the program made it).

Example::

    >>> with watching() as notes:
    ...     note_order(["eps", "beta"], "iterating a set")
    ...     note_order([3, 1], "iterating a set")          # ints: the same everywhere
    >>> notes
    [('secret', 'iterating a set of str')]
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import operator
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from . import pyversion

SAME, SECRET, ADDRESS = "same", "secret", "address"
_RANK = {SAME: 0, SECRET: 1, ADDRESS: 2}

_SAME_TYPES = (int, float, complex, bool, np.integer, np.floating, np.complexfloating,
               np.bool_)
# hashed by the process's secret (siphash of their text or bytes): the same in every
# process with the same PYTHONHASHSEED
_SECRET_TYPES = (str, bytes, datetime.date, datetime.time, datetime.timedelta)

# Calls on constants whose result no iteration order changes: sizes, membership,
# comparisons, set operators (a set or frozenset again), an item of a tuple.
_ORDER_FREE = frozenset({len, bool, any, all, frozenset, set, operator.contains,
                         operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
                         operator.ge, operator.is_, operator.is_not, operator.or_,
                         operator.and_, operator.sub, operator.xor, operator.getitem})
_ORDER_FREE_METHODS = frozenset({"union", "intersection", "difference",
                                 "symmetric_difference", "issubset", "issuperset",
                                 "isdisjoint", "copy", "__contains__", "__len__"})

_local = threading.local()


def hash_kind(value) -> str:
    """How ``hash(value)`` varies between processes: ``SAME`` (never), ``SECRET`` (with
    the string hash secret) or ``ADDRESS`` (with where objects live, or unknown)::

        >>> hash_kind((1, 2.5)), hash_kind(("a", 1)), hash_kind(int)
        ('same', 'secret', 'address')
    """
    if isinstance(value, _SAME_TYPES) or (value is None and pyversion.PY312):
        return SAME   # (hash(None) is a constant since 3.12; before, its address)
    if isinstance(value, _SECRET_TYPES):
        return SECRET
    if type(value) in (tuple, frozenset):   # (combined from the items' hashes)
        return max((hash_kind(v) for v in value), key=_RANK.__getitem__, default=SAME)
    return ADDRESS


@contextmanager
def watching() -> Iterator[list]:
    """Collect the notes made in this thread while the block runs (a list of ``(kind,
    why)``). A nested watch's notes reach the outer one too."""
    notes: list = []
    stack = _stack()
    stack.append(notes)
    try:
        yield notes
    finally:
        stack.pop()
        if stack and stack[-1] is not None:
            stack[-1].extend(notes)


@contextmanager
def order_free() -> Iterator[None]:
    """Note nothing while the block runs: the caller reads a set in its order but makes
    nothing of that order (``set(s)``, ``sorted(s)``: it checks for itself)."""
    stack = _stack()
    stack.append(None)
    try:
        yield
    finally:
        stack.pop()


def note_order(elements, how: str) -> None:
    """``elements`` (a set's, in its order) were read in that order: ``how``."""
    notes = _notes()
    if notes is None:
        return
    elements = list(elements)
    if len(elements) < 2:   # (one order only)
        return
    kind = max((hash_kind(e) for e in elements), key=_RANK.__getitem__)
    if kind != SAME:
        types = sorted({type(e).__name__ for e in elements if hash_kind(e) != SAME})
        notes.append((kind, f"{how} of {', '.join(types)}"))


def note_value(value, how: str) -> None:
    """``value`` was made into something that shows its sets' orders (``str(fs)``,
    ``",".join(fs)``): each set or frozenset in it (in tuples too) was read in order."""
    if _notes() is None:
        return
    if type(value) in (set, frozenset):
        note_order(value, how)
    if type(value) in (tuple, set, frozenset):
        for v in value:
            note_value(v, how)


def note_call(fn, values) -> None:
    """``fn(*values)`` runs on constants while tracing (``constant.fold``): ``hash`` of a
    value hashed by the secret bakes its hash; any other call but an order-free one
    may show the order of a set among its arguments (or the object of a method)."""
    if _notes() is None:
        return
    name = getattr(fn, "__name__", type(fn).__name__)
    if fn is hash:
        for v in values:
            kind = hash_kind(v)
            if kind != SAME:
                _notes().append((kind, f"hash() of {type(v).__name__}"))
        return
    owner = getattr(fn, "__self__", None)
    if _is_order_free(fn) or (type(owner) in (set, frozenset)
                              and name in _ORDER_FREE_METHODS):
        return
    for v in (owner, *values):
        note_value(v, f"{name}() of a frozenset")


def sorts_alike(elements: list | None) -> bool:
    """Whether ``sorted()`` of a set of ``elements`` gives one list whatever the set's
    order: strings only, or bytes only (a total order; no two equal)."""
    return elements is not None and (all(type(e) is str for e in elements) or
                                     all(type(e) is bytes for e in elements))


@functools.lru_cache(maxsize=1)
def probe() -> str:
    """What tells two processes' string hash secrets apart (a digest of hashes: the
    hashes themselves are not written down). A forked process keeps its parent's."""
    text = repr((hash("dynamo"), hash(b"dynamo"), hash(datetime.date(2000, 1, 1))))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _is_order_free(fn) -> bool:
    try:
        return fn in _ORDER_FREE
    except TypeError:   # (an unhashable callable)
        return False


def _stack() -> list:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


def _notes() -> list | None:
    """The list the innermost watch collects into, or None (nobody watches, or an
    ``order_free`` block)."""
    stack = getattr(_local, "stack", None)
    return stack[-1] if stack else None
