"""A compile as a stored entry, and back: ``store`` writes what a traced frame produced
(its guard check and glue) as one JSON file; ``load`` finds a stored entry whose guards
hold for a call and rebuilds it (``LoadedCheck``, the glue) without tracing.

An entry file holds ``{"sha256": ..., "entry": {"versions", "where", "hash_secret",
"check", "run"}}``: the check's source and the values its names stand for (and the same
guards as the expression the hook inlines into its dispatcher); the glue as a generated
function (:mod:`.values`); and, for a trace that read a set's order that the string hash
secret decides (:mod:`dynamo.hash_order`), the ``probe`` of the secret it needs (the
file is then named ``<probe>-<digest>.json``; None: any process may use it). Reading
it never raises: a bad, stale or untrusted entry is skipped with a log line.

Example::

    >>> store(directory, key, fn, entry)                  # logged: stored, or why not
    >>> load(directory, key, fn, args, closure).check     # or None
    <dynamo.disk_cache.entries.LoadedCheck ...>
"""

from __future__ import annotations

import builtins
import json
import re
import types
from pathlib import Path

from .. import break_entry, hash_order, hook, logs
from ..config import config
from ..frame_records import FrameRecord
from ..source import compile_source
from .files import Ignored, entry_files, read_trusted, write_atomically
from .keys import entry_digest, versions, where
from .values import Context, NotStorable, Rebuild, decode, encode

log = logs.get("cache")

def store(directory: Path, key: str, fn: types.FunctionType, entry, notes=()) -> None:
    """Write ``entry`` under ``key`` when it can be written down as data; else log why.
    ``notes`` are its trace's ``hash_order`` notes: an entry that depends on the string
    hash secret is stored for processes with this one's only (``_hash_secret``)."""
    code = fn.__code__
    try:
        data = {"versions": versions(), "where": where(code),
                "hash_secret": _hash_secret(notes),
                "check": _encode_check(entry.check, fn),
                "run": _encode_run(entry.run, fn)}
    except NotStorable as e:   # (logged as text: a record that holds the exception
        # holds its frames, and the program's objects in them, while a handler keeps it)
        log.debug("not stored in the disk cache: %s: %s", where(code), str(e))
        return
    except Exception as e:  # noqa: BLE001 (the compile is made: storing it is optional)
        log.debug("not stored in the disk cache: %s: internal error %s: %s", where(code),
                  type(e).__name__, str(e))
        return
    digest = entry_digest(data)
    text = json.dumps({"sha256": digest, "entry": data})
    # (named for the hash secret it needs: ``load`` passes over others' unread)
    name = digest[:32] + ".json" if data["hash_secret"] is None else \
        f"{data['hash_secret']['probe']}-{digest[:32]}.json"
    try:
        path = write_atomically(directory / key, name, text)
    except OSError as e:
        log.debug("not stored in the disk cache: %s: %s", where(code), str(e))
        return
    if data["hash_secret"] is None:
        log.debug("stored in the disk cache: %s (%s)", where(code), path)
    else:
        log.debug("stored in the disk cache for processes with this string hash secret "
                  "only: %s (%s): %s", where(code), path, data["hash_secret"]["why"])


def _hash_secret(notes) -> dict | None:
    """What an entry whose trace depends on how this process hashes (``hash_order``) is
    for: None when it depends on nothing of it (usable by every process), else the
    ``probe`` of this process's string hash secret and the first reason; NotStorable
    where it depends on objects' addresses (no other process hashes them alike)."""
    address = [why for kind, why in notes if kind == hash_order.ADDRESS]
    if address:
        raise NotStorable(f"the trace depends on hashes by address ({address[0]}): "
                          "no other process shares its order")
    secret = [why for kind, why in notes if kind == hash_order.SECRET]
    return {"probe": hash_order.probe(), "why": secret[0]} if secret else None


def load(directory: Path, key: str, fn: types.FunctionType, args: tuple, closure):
    """A stored entry for ``fn``'s code whose guards hold for ``args``, or None.
    Every file that cannot be trusted or read is skipped with a log line."""
    files = entry_files(directory / key)
    mine = [p for p in files if p.name.partition("-")[1] == "" or
            p.name.partition("-")[0] == hash_order.probe()]
    if len(mine) < len(files):
        log.debug("disk cache: skipped %d entry file(s) of %s made for processes with "
                  "another string hash secret (give every process the same PYTHONHASHSEED "
                  "to share them)", len(files) - len(mine), where(fn.__code__))
    for path in mine[:max(config.cache_size_limit, 1)]:
        try:
            entry = _read(path, fn, args, closure)
        except Ignored as e:
            log.debug("disk cache entry %s ignored: %s", path, str(e))
            continue
        except Exception as e:  # noqa: BLE001 (a bad entry is never fatal)
            log.debug("disk cache entry %s ignored: it cannot be read (%s: %s)", path,
                      type(e).__name__, str(e))
            continue
        if entry is not None:
            log.debug("loaded from disk cache: %s", where(fn.__code__))
            return entry
    return None


def _read(path: Path, fn, args: tuple, closure):
    """The entry in ``path`` if it is trusted and its guards hold, else None (or raises)."""
    data = json.loads(read_trusted(path))
    entry = data["entry"]
    if entry_digest(entry) != data["sha256"]:
        raise Ignored("its content does not match its sha256 (corrupt or changed)")
    if entry["versions"] != versions():
        raise Ignored("stale: made by another version of Python, NumPy or dynamo "
                      f"({_version_difference(entry['versions'])})")
    made_for = entry["hash_secret"]
    if made_for is not None and made_for["probe"] != hash_order.probe():
        raise Ignored("made for processes with another string hash secret: its trace "
                      f"depends on it ({made_for['why']}); give every process the same "
                      "PYTHONHASHSEED to share it")
    rb = Rebuild(fn.__globals__, fn.__code__.co_consts)
    check = _build_check(entry["check"], rb)
    if not check(*args, closure):
        return None
    run = decode(entry["run"], rb)
    if not callable(run):
        raise Ignored("its code is not a function")
    record = FrameRecord(fn.__code__, check_source=check.source,
                         glue_source=getattr(run, "__dynamo_source__", ""))
    return hook.CacheEntry(check, run, record)


# The prefix and indent the inline form of a check is stored with; LoadedCheck.inline
# puts the dispatcher's own in their place.
_PREFIX = "___dynamo_disk_"


def _encode_check(check, fn) -> dict:
    """A guard check as data: its function's source and the values its names stand for,
    and the same guards as the expression the hook inlines into its dispatcher."""
    source, names = getattr(check, "source", None), getattr(check, "names", None)
    if not isinstance(source, str) or not isinstance(names, dict):
        raise NotStorable(f"the guard check is a {type(check).__name__}, not generated source")
    ctx = Context(fn)
    expr, inline_names = check.inline(_PREFIX, check.params, "")
    used, empty = _used_names(source, names)
    inline_used, inline_empty = _used_names(expr, inline_names)
    return {"source": source, "name": check.name,
            "names": {k: encode(v, ctx, f"guard value {k}") for k, v in used.items()},
            "empty": empty,
            "inline": {"params": check.params, "expr": expr, "empty": inline_empty,
                       "names": {k: encode(v, ctx, f"guard value {k}")
                                 for k, v in inline_used.items()}}}


def _used_names(text: str, names: dict) -> tuple[dict, list]:
    """``names`` split into the values to store and the names of empty dicts that
    generated ``text`` does not use: data for the hook (the values a check binds for
    the glue to reuse), made again as they were (an empty dict is all it can be)."""
    mentioned = set(re.findall(r"\w+", text))
    empty = sorted(k for k, v in names.items()
                   if k not in mentioned and type(v) is dict and not v)
    return {k: v for k, v in names.items() if k not in empty}, empty


def _encode_run(run, fn) -> dict:
    """What an entry runs: the glue (a generated function), as data."""
    if isinstance(run, break_entry.FrameRunner):
        raise NotStorable("the frame has a graph break: its new bytecode and resume "
                          "functions are not stored (the resume functions' own frames are)")
    if type(run) is not types.FunctionType or not hasattr(run, "__dynamo_source__"):
        raise NotStorable(f"the entry runs a {type(run).__name__}, not generated source")
    return encode(run, Context(fn))

class LoadedCheck:
    """The guard check of an entry read from disk: its generated function and source,
    and, like ``guards.CheckFunction``, its expression for the hook to inline into the
    dispatcher (so a hit costs what it costs for an entry traced here)."""

    def __init__(self, source: str, fn, params: list, expr: str, names: dict):
        self.source, self.fn = source, fn
        self.params, self._expr, self._names = list(params), expr, names

    def __call__(self, *args) -> bool:
        return self.fn(*args)

    def inline(self, prefix: str, params=None, indent: str = "") -> tuple[str, dict]:
        """(expression, names) with the names starting with ``prefix``, as
        ``CheckFunction.inline`` gives them."""
        if params is not None and list(params) != self.params:
            # (the dispatcher of this code has these very parameters; just in case)
            return f"{prefix}check({', '.join(params)})", {f"{prefix}check": self}
        expr = re.sub(rf"(?<!\w){_PREFIX}", prefix, self._expr).replace("\n", "\n" + indent)
        names = {(prefix + k[len(_PREFIX):] if k.startswith(_PREFIX) else k): v
                 for k, v in self._names.items()}
        return expr, names


def _build_check(data: dict, rb: Rebuild) -> LoadedCheck:
    name = data["name"]
    if not re.fullmatch(r"___check_\w+", name):
        raise Ignored(f"bad check name {name!r}")
    scope = {k: decode(v, rb) for k, v in data["names"].items()}
    scope.update((k, {}) for k in data["empty"])
    scope.setdefault("__builtins__", builtins)
    compile_source(data["source"], f"<dynamo guards {name}>", scope)
    inline = data["inline"]
    compile(f"({inline['expr']})", "<dynamo loaded guards>", "eval")   # (a syntax check)
    names = {k: decode(v, rb) for k, v in inline["names"].items()}
    names.update((k, {}) for k in inline["empty"])
    return LoadedCheck(data["source"], scope.pop(name), inline["params"], inline["expr"],
                       names)


def _version_difference(stored: dict) -> str:
    now = versions()
    diff = [f"{k} {stored.get(k)!r:.40} here {now[k]!r:.40}" for k in now
            if stored.get(k) != now[k]]
    return "; ".join(diff) or "unknown"
