"""What ``dynamo.compile`` was given besides the callable, and the compile contexts made
from it: a new one for each ``compile`` call, one shared by every copy a process
unpickles with the same settings.

Example::

    >>> settings = CompileSettings("numpy", False, None, None)
    >>> ctx = settings.context()                  # fresh caches, the backend bound
    >>> received_context(settings) is received_context(settings)   # copies share one
    True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from dynamo.backends import bind_options, lookup_backend

from . import convert, disk_cache, hook
from .config import config
from .interrupt_locks import new_lock, under_lock


def backend_name(backend) -> str:
    """The name a context reports for ``backend`` (a registered name, or a callable's)."""
    return backend if isinstance(backend, str) else getattr(backend, "__name__", repr(backend))


class CompileSettings(NamedTuple):
    """What ``dynamo.compile`` was given besides the callable. A compiled object pickles
    with these and what it wraps, never its cache: the process that unpickles it makes
    a fresh context from them and compiles on its first call. ``backend`` is the name or
    the callable as given (a callable backend pickles as itself)."""

    backend: str | Callable
    fullgraph: bool
    dynamic: bool | None
    options: dict | None

    def context(self) -> hook.CompileContext:
        """A new compile context (empty caches) with these settings."""
        compiler = bind_options(lookup_backend(self.backend), self.options)
        # the disk cache is read where it is on when the context is made (compile(), or
        # unpickling in a worker); off, frames go straight to convert (one frame less
        # in every traceback of a compile)
        convert_frame = disk_cache.convert_frame if config.disk_cache_dir is not None \
            else convert.convert_frame
        return hook.CompileContext(compiler, backend_name(self.backend), self.fullgraph,
                                   self.dynamic, self.options, convert_frame=convert_frame)

    def same_as(self, other: CompileSettings) -> bool:
        """Equal settings, a backend given as a callable being the same object (one
        sent by value, a lambda, arrives as a new one each time: not the same)."""
        backend = self.backend
        same_backend = backend == other.backend if isinstance(backend, str) \
            else backend is other.backend
        try:
            return same_backend and self[1:] == other[1:]
        except Exception:   # options whose == is not a bool (arrays): not equal
            return False


# The compile contexts of the compiled objects this process unpickled, by settings, the
# most recently used last. A framework may unpickle a new copy for every task (dask
# does); copies with the same settings share one context, so a worker compiles once,
# not once a task. Sharing is always correct: a context's caches are per code object
# (and globals) and every entry is guarded like any other.
_received: list[tuple[CompileSettings, hook.CompileContext]] = []
_received_lock = new_lock()
_RECEIVED_KEPT = 32   # settings kept at once; one dropped only costs a compile again


def received_context(settings: CompileSettings) -> hook.CompileContext:
    """The context for an object unpickled (or copied) with ``settings``: the one copies
    with the same settings share in this process (new on the first), found under a
    lock no interrupt leaves held (interrupt_locks)."""
    return under_lock(_received_lock, _received_or_new, settings)


def _received_or_new(settings: CompileSettings) -> hook.CompileContext:
    for i, (known, ctx) in enumerate(_received):
        if known.same_as(settings):
            _received.append(_received.pop(i))
            return ctx
    ctx = settings.context()
    _received.append((settings, ctx))
    del _received[:-_RECEIVED_KEPT]
    return ctx
