"""Code the translator does not inline: the standard library and the array libraries.

Calls into it run for real at a graph break (``logging``, ``io``, ``numpy``'s own
Python functions); the reason says where the code lives, so users can tell a break in
their own code from a call they cannot avoid.

Example::

    >>> is_skipped(logging.Logger.info.__code__)
    True
"""

from __future__ import annotations

import functools
import os
import sysconfig

_STDLIB = tuple(os.path.realpath(p) + os.sep for p in
                {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]})
_SITE = tuple(os.path.realpath(p) + os.sep for p in
              {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
_LIBRARIES = ("numpy", "cupy", "cupyx", "cupy_backends")
# this project's own packages: a compiled function called from compiled code must not
# have dynamo's wrappers traced or intercepted again
_OWN = tuple(os.path.realpath(os.path.join(os.path.dirname(__file__), "..", pkg)) + os.sep
             for pkg in ("dynamo", "guards", "backends"))


def is_skipped(code) -> bool:
    """True for code of the standard library or of numpy/cupy (never inlined)."""
    return _skipped_file(code.co_filename)


@functools.lru_cache(maxsize=4096)
def _skipped_file(filename: str) -> bool:
    """Decided once per file name: the decision sits on the path of every call made
    from code that runs uncompiled, where ``realpath`` (a system call per path part)
    would cost more than the call itself."""
    path = os.path.realpath(filename)
    if path.startswith(_OWN) or filename.startswith("<dynamo"):
        return True
    if path.startswith(_SITE):
        rest = path[len(next(s for s in _SITE if path.startswith(s))):]
        return rest.split(os.sep, 1)[0] in _LIBRARIES
    return path.startswith(_STDLIB) or filename.startswith("<frozen")


def where(code) -> str:
    """'the standard library' / 'numpy' for a skipped code object's home."""
    path = os.path.realpath(code.co_filename)
    if path.startswith(_OWN) or code.co_filename.startswith("<dynamo"):
        return "dynamo itself"
    for lib in _LIBRARIES:
        if f"{os.sep}{lib}{os.sep}" in path:
            return lib
    return "the standard library"
