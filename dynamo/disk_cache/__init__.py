"""The on-disk cache of compiles: warm worker processes skip tracing.

Off by default. ``dynamo.config.disk_cache_dir = "/path"`` (or the environment variable
``DYNAMO_CACHE_DIR``, which worker processes inherit) turns it on. A frame that misses
its in-memory cache is then looked up on disk before it is traced: an entry made by
another process for the same code, versions and settings whose guards hold for this
call is rebuilt from its stored text and runs at once, without tracing (logged on the
``cache`` channel: ``loaded from disk cache: f at app.py:12``). A frame traced here is
stored afterwards when everything it produced can be written down as data.

What an entry holds (one JSON file, never pickled code):

- the guards: the source of the check function and the values it refers to;
- the glue (the function that runs the graph and rebuilds the frame's values): its
  source and the values it refers to;
- the backend's function (the ``eager`` printout, the ``numpy`` backend's fused code):
  its source and the values it refers to, nested where the glue calls it; the native
  tier's ``Tiered`` as its tier 1, kernel and settings (written by the native package:
  backends/native/stored_tier.py).

Each such value is stored as data (``encode``): numbers, strings, tuples, dtypes,
NumPy scalars; a constant of the function's own code by its index; library objects
(``numpy.ndarray``, ``numpy.tanh``, dynamo's runtime helpers) by their import path;
the program's functions that the trace inlined (and its modules) by module and name,
with a digest of their code and defaults that must match when read; a few runtime
objects of generated code (buffer caches) by the arguments that make them. Anything
else (another object or class of the program, a closure, an array constant, a frame
that breaks: its bytecode and resume functions) is not stored: that compile stays in
memory only, and the ``cache`` channel says why.

Hash order: CPython hashes strings (bytes, dates) with a secret each process draws
anew (a spawned worker too) unless ``PYTHONHASHSEED`` fixes it, so a set of strings
iterates in another order in another process. A trace that reads such an order
(``for k in {"a", "b"}``, ``list(s)``, ``",".join(fs)``) or such a hash
(``hash("a")``) bakes this process's answer into its code; the trace notes it
(:mod:`dynamo.hash_order`), and its entry is stored with a probe of this process's
secret (its file named for it) and used only by a process whose probe matches: the
others pass over it (``disk cache: skipped 1 entry file(s) of f at app.py:3 made
for processes with another string hash secret``) and trace as usual. A trace that reads
no such order (sets of ints or floats, ``x in {"a", "b"}``, ``sorted(s)``, ``len(s)``,
set operators) is used by every process. One whose order follows objects' addresses
(a set holding ``None`` on 3.11) is not stored.

Trust model (see docs/distributed.md, "Warm workers"): an entry is code that will run,
so it is read only from a directory owned by this user and not writable by group or
others (else the cache is ignored, with a warning), only from files owned by this
user with that mode, and only when the sha256 of its content matches the one it
carries and it was made by the same Python, NumPy and dynamo (else it is ignored,
with a log line). Reading it never raises: a bad entry is skipped and the frame is
traced as usual.

Example::

    >>> dynamo.config.disk_cache_dir = "/tmp/dynamo-cache"
    >>> f = dynamo.compile(g); f(x)     # traced, stored
    >>> # another process, same directory:
    >>> f = dynamo.compile(g); f(x)     # loaded from disk cache: g at app.py:3

The modules: :mod:`.files` (the directory and entry files, what may be trusted),
:mod:`.keys` (what an entry is filed under and must have been made by),
:mod:`.values` (values as data: ``encode``, ``decode``), :mod:`.entries` (a compile
as a stored entry and back: ``store``, ``load``); here, the hook around
``convert.convert_frame``.
"""

from __future__ import annotations

import types

from .. import convert, hash_order, logs
from ..config import config
from . import entries
from .files import trusted
from .keys import cache_key, where

log = logs.get("cache")


def convert_frame(fn: types.FunctionType, args: tuple, closure, ctx, previous=()):
    """``convert.convert_frame`` with the disk cache around it (the compile context's
    ``convert_frame``, injected by :mod:`dynamo.compile_settings`). With the cache off it only
    calls through: nothing changes, and a cache hit never comes here."""
    directory = config.disk_cache_dir
    if directory is None:
        return convert.convert_frame(fn, args, closure, ctx, previous)
    root = trusted(directory)
    try:
        key = cache_key(fn.__code__, ctx) if root is not None else None
    except Exception as e:  # noqa: BLE001 (the cache is optional: compile as usual)
        log.warning("dynamo: the disk cache is not used for %s: %s: %s",
                    where(fn.__code__), type(e).__name__, str(e))
        key = None
    if key is not None:
        entry = entries.load(root, key, fn, args, closure)
        if entry is not None:
            return entry
    with hash_order.watching() as notes:   # (what of it only this process's hashes decide)
        entry = convert.convert_frame(fn, args, closure, ctx, previous)
    if key is not None:
        entries.store(root, key, fn, entry, notes)
    return entry
