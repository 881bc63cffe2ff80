"""What an entry is filed under and must have been made by.

An entry's folder is named by ``cache_key``: a digest of the frame's code (in full,
nested code objects too), the backend and its options and dynamo's settings. The
entry itself carries ``versions()`` (this format, Python, NumPy and dynamo, with a
digest of dynamo's sources) and a sha256 of its content (``entry_digest`` of the
``canonical`` text), both checked when it is read.

Example::

    >>> cache_key(f.__code__, ctx)          # None: the settings are not plain data
    '9c1e...'
    >>> versions()["numpy"]
    '2.1.3'
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
import types
from pathlib import Path

import numpy as np

from .. import logs
from ..config import config

log = logs.get("cache")

FORMAT = 2   # 2: an entry says which string hash secret it needs ("hash_secret")
"""The layout of an entry; a change makes every older entry stale."""



def where(code: types.CodeType) -> str:
    """How log lines name a frame's code: ``f at app.py:12``."""
    return f"{code.co_qualname} at {code.co_filename}:{code.co_firstlineno}"


@functools.lru_cache(maxsize=1)
def versions() -> dict:
    """What an entry must have been made by: this format, Python, NumPy and dynamo
    (its version and a digest of its sources, so an edited checkout never reads the
    entries of an older one)."""
    try:
        from importlib.metadata import version
        dynamo_version = version("arraydynamo")
    except Exception:  # noqa: BLE001 (not installed as a distribution)
        dynamo_version = "unknown"
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[2]
    for folder in ("dynamo", "guards", "backends"):
        for file in sorted((root / folder).rglob("*.py")):
            digest.update(str(file.relative_to(root)).encode())
            digest.update(file.read_bytes())
    return {"format": FORMAT, "python": sys.version, "implementation": sys.implementation.name,
            "numpy": np.__version__, "dynamo": dynamo_version,
            "dynamo_sources": digest.hexdigest()}


def cache_key(code: types.CodeType, ctx) -> str | None:
    """The directory name of ``code``'s entries under ``ctx``'s settings, or None when
    the settings cannot be written down (a backend given as a callable, options that
    are not plain data)."""
    from dynamo.backends import is_builtin
    if not isinstance(ctx.backend_name, str) or not is_builtin(ctx.backend):
        log.debug("not stored in the disk cache: the backend %r is not a built-in one",
                  ctx.backend_name)
        return None
    settings = {f: getattr(config, f) for f in config.__dataclass_fields__
                if f not in ("disk_cache_dir", "verbose")}
    try:
        # (the entry carries every version and is checked against them when read: an
        # edited dynamo finds its older entries, says they are stale, and stores anew)
        coarse = {k: versions()[k] for k in ("format", "python", "numpy")}
        text = json.dumps({"versions": coarse, "code": code_data(code),
                           "backend": ctx.backend_name, "options": ctx.options,
                           "fullgraph": ctx.fullgraph, "dynamic": ctx.dynamic,
                           "config": settings}, sort_keys=True)
    except (TypeError, ValueError) as e:
        log.debug("not stored in the disk cache: %s: options are not plain data (%s)",
                  where(code), str(e))
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def code_data(code: types.CodeType) -> dict:
    """Everything that makes ``code`` what it is, as data (nested code objects too:
    their ``repr`` holds an address, which differs between processes)."""
    return {"co_code": code.co_code.hex(), "co_consts": [_const_data(c) for c in code.co_consts],
            "co_names": code.co_names, "co_varnames": code.co_varnames,
            "co_freevars": code.co_freevars, "co_cellvars": code.co_cellvars,
            "co_argcount": code.co_argcount, "co_posonlyargcount": code.co_posonlyargcount,
            "co_kwonlyargcount": code.co_kwonlyargcount, "co_flags": code.co_flags,
            "co_filename": code.co_filename, "co_qualname": code.co_qualname,
            "co_firstlineno": code.co_firstlineno,
            "co_linetable": code.co_linetable.hex(),
            "co_exceptiontable": code.co_exceptiontable.hex()}


def _const_data(value):
    if isinstance(value, types.CodeType):
        return code_data(value)
    if isinstance(value, tuple):
        return ["tuple", [_const_data(v) for v in value]]
    if isinstance(value, frozenset):   # (in an order that does not depend on str hashes)
        return ["frozenset", sorted((_const_data(v) for v in value), key=json.dumps)]
    return [type(value).__name__, repr(value)]



def canonical(data) -> str:
    """The text an entry's hash is taken over."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def entry_digest(data) -> str:
    """The sha256 of ``data``'s canonical text: what an entry carries and is checked
    against, and what names its file."""
    return hashlib.sha256(canonical(data).encode()).hexdigest()


def code_digest(code: types.CodeType) -> str:
    """A digest of everything that makes ``code`` what it is (``code_data``)."""
    return entry_digest(code_data(code))
