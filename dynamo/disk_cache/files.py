"""The cache's directory and entry files, and what of them may be trusted.

An entry is code that will run, so the cache directory is used only when it is owned
by this user and not writable by group or others (else it is ignored, with a warning
once), and an entry file is read only when it is a regular file with that owner and
mode, opened through no symbolic link. Entries are written whole or not at all (a
temporary file renamed into place), with mode 0600 in folders of mode 0700.

Example::

    >>> folder = trusted("/tmp/dynamo-cache")      # None: not to be trusted
    >>> path = write_atomically(folder / key, "3f2a.json", text)
    >>> read_trusted(path) == text.encode()
    True
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from .. import logs

log = logs.get("cache")

_warned: set = set()


class Ignored(Exception):
    """An entry that must not be used (the message says why)."""


def trusted(directory: str) -> Path | None:
    """The cache directory, made (mode 0700) if missing; None, with a warning once,
    when it is not a directory owned by this user and closed to group and others."""
    path = Path(directory)
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        problem = unsafe(path.stat(), dir=True)
    except OSError as e:
        problem = f"cannot be used ({e})"
    if problem is None:
        return path
    if directory not in _warned:
        _warned.add(directory)
        log.warning("dynamo: the disk cache %s is ignored: it %s", directory, problem)
    return None


def unsafe(st: os.stat_result, dir: bool = False) -> str | None:
    """Why a file or directory with this status must not be trusted (None: it may)."""
    if dir and not stat.S_ISDIR(st.st_mode):
        return "is not a directory"
    if not dir and not stat.S_ISREG(st.st_mode):
        return "is not a regular file"
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return "is owned by another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "is writable by group or others"
    return None


def entry_files(folder: Path) -> list[Path]:
    """The entry files in ``folder``, newest first; none when there is no such folder
    yet, or when it must not be trusted (with a log line)."""
    try:
        problem = unsafe(folder.stat(), dir=True)
        if problem is not None:
            log.debug("disk cache entries %s ignored: the folder %s", folder, problem)
            return []
        return sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:   # no entry for this code yet
        return []


def write_atomically(folder: Path, name: str, text: str) -> Path:
    """Write ``text`` to ``folder / name`` (the folder made with mode 0700, the file
    with mode 0600): readers see the whole file or none. Raises OSError."""
    folder.mkdir(mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")   # mode 0600
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, folder / name)
    except BaseException:
        os.unlink(tmp)
        raise
    return folder / name


def read_trusted(path: Path) -> bytes:
    """The content of the entry file ``path``, opened through no symbolic link; raises
    ``Ignored`` when the file must not be trusted (and OSError)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))   # not a symlink
    with os.fdopen(fd, "rb") as f:
        problem = unsafe(os.fstat(f.fileno()))
        if problem is not None:
            raise Ignored(f"the file {problem}")
        return f.read()
