"""Watching a function of the project being called, without replacing it.

Tests that need to know *whether* (or in what state) an internal function runs use
``calls_to``: it observes calls through ``sys.setprofile`` (this thread only), so the
function itself stays as it is (see tests/test_no_runtime_patching.py).

Example::

    >>> with calls_to(hook._run_original) as calls:
    ...     compiled(x)
    >>> len(calls)
    1
"""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def collector_off() -> Iterator[None]:
    """The garbage collector run once, then off until the block ends (then as it was):
    a test that raises at every call point (an interrupt sweep) must not meet a
    finalizer of an earlier test's objects instead of its own code."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@contextmanager
def calls_to(fn: Callable, on_call: Callable | None = None) -> Iterator[list]:
    """A list that gets one item per call of the Python function ``fn`` inside the
    block: ``on_call(frame)`` (the callee's frame at entry), or the frame's locals
    when no ``on_call`` is given."""
    code = getattr(fn, "__func__", fn).__code__
    seen: list = []
    old = sys.getprofile()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is code:
            seen.append(on_call(frame) if on_call is not None else dict(frame.f_locals))
        if old is not None:
            old(frame, event, arg)

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(old)


def backend_log(compiled: Callable, *args) -> str:
    """The ``dynamo.backend`` log's messages (the numpy backend's generated code among
    them) while ``compiled(*args)`` runs, at DEBUG, one per line::

        >>> "np.concatenate" in backend_log(dynamo.compile(f, backend="numpy"), x)
        True
    """
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    log = logging.getLogger("dynamo.backend")
    level = log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        compiled(*args)
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    return "\n".join(lines)
