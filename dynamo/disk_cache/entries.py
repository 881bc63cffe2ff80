"""A compile as a stored entry, and back: ``store`` writes what a traced frame produced
(its guard check and glue) as one JSON file; ``load`` finds a stored entry whose guards
hold for a call and rebuilds it (``LoadedCheck``, the glue) without tracing.

An entry file holds ``{"sha256": ..., "entry": {"versions", "where", "check", "run"}}``:
the check's source and the values its names stand for (and the same guards as the
expression the hook inlines into its dispatcher); the glue as a generated function
(:mod:`.values`). Reading it never raises: a bad, stale or untrusted entry is skipped
with a log line.

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

from .. import break_entry, hook, logs
from ..config import config
from ..frame_records import FrameRecord
from ..source import compile_source
from .files import Ignored, entry_files, read_trusted, write_atomically
from .keys import entry_digest, versions, where
from .values import Context, NotStorable, Rebuild, decode, encode

log = logs.get("cache")

def store(directory: Path, key: str, fn: types.FunctionType, entry) -> None:
    """Write ``entry`` under ``key`` when it can be written down as data; else log why."""
    code = fn.__code__
    try:
        data = {"versions": versions(), "where": where(code),
                "check": _encode_check(entry.check, fn),
                "run": _encode_run(entry.run, fn)}
    except NotStorable as e:
        log.debug("not stored in the disk cache: %s: %s", where(code), e)
        return
    except Exception as e:  # noqa: BLE001 (the compile is made: storing it is optional)
        log.debug("not stored in the disk cache: %s: internal error %s: %s", where(code),
                  type(e).__name__, e)
        return
    digest = entry_digest(data)
    text = json.dumps({"sha256": digest, "entry": data})
    try:
        path = write_atomically(directory / key, digest[:32] + ".json", text)
    except OSError as e:
        log.debug("not stored in the disk cache: %s: %s", where(code), e)
        return
    log.debug("stored in the disk cache: %s (%s)", where(code), path)


def load(directory: Path, key: str, fn: types.FunctionType, args: tuple, closure):
    """A stored entry for ``fn``'s code whose guards hold for ``args``, or None.
    Every file that cannot be trusted or read is skipped with a log line."""
    for path in entry_files(directory / key)[:max(config.cache_size_limit, 1)]:
        try:
            entry = _read(path, fn, args, closure)
        except Ignored as e:
            log.debug("disk cache entry %s ignored: %s", path, e)
            continue
        except Exception as e:  # noqa: BLE001 (a bad entry is never fatal)
            log.debug("disk cache entry %s ignored: it cannot be read (%s: %s)", path,
                      type(e).__name__, e)
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
