"""Compile listeners: code that watches the compiler without changing what it does.

A listener is any object with one or more of these methods; each is called at one
point of the pipeline, in the thread that compiles:

- ``on_frame_start(fn, ctx)``: ``convert.convert_frame`` begins on a frame of ``fn``;
- ``on_frame_end(fn, ctx)``: it ended, with an entry or with an exception (always
  paired with ``on_frame_start``);
- ``on_step(tx)``: the translator ``tx`` (the root frame or an inlined call) is about
  to run the instruction at ``tx.ip``;
- ``on_break(tx, brk)``: the trace of the root frame ``tx`` stopped at the graph break
  ``brk`` (a ``translator.GraphBreak``: ``brk.inst``, ``brk.point.kind``);
- ``on_graph(graph, ctx)``: the backend of ``ctx`` compiled ``graph``;
- ``on_compile(record, ctx)``: a frame's ``FrameRecord`` is complete (an entry was
  made, or the frame was skipped).

An exception a listener raises propagates from that point, as if the compiler had
raised it (a test can make a frame fail to compile: ``raise convert.SkipFrame``).

Listening costs nothing when nobody listens: the compiler reads the tuple of an
event's listeners once (the translator once per frame, not per instruction) and
calls nothing when it is empty.

Example::

    >>> class Count:
    ...     def __init__(self): self.frames = 0
    ...     def on_frame_start(self, fn, ctx): self.frames += 1
    >>> with listening(Count()) as count:
    ...     compiled(x)
    >>> count.frames
    1
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .interrupt_locks import new_lock, under_lock

EVENTS = ("on_frame_start", "on_frame_end", "on_step", "on_break", "on_graph", "on_compile")

_lock = new_lock()
_listeners: tuple = ()                            # every listener, in the order added
_by_event: dict[str, tuple] = dict.fromkeys(EVENTS, ())   # event -> bound methods


def of(event: str) -> tuple:
    """The callables listening to ``event`` now (an empty tuple when none)."""
    return _by_event[event]


def emit(event: str, *args) -> None:
    """Call every listener of ``event`` with ``args``."""
    for call in _by_event[event]:
        call(*args)


def add(listener) -> None:
    """Start calling ``listener``'s ``on_*`` methods (it must have at least one)."""
    if not any(callable(getattr(listener, e, None)) for e in EVENTS):
        raise TypeError(f"{listener!r} has none of the listener methods {EVENTS}")
    under_lock(_lock, _change, lambda listeners: listeners + (listener,))


def remove(listener) -> None:
    """Stop calling ``listener`` (added earlier with :func:`add`)."""
    def without(listeners: tuple) -> tuple:
        kept = list(listeners)
        kept.remove(listener)
        return tuple(kept)
    under_lock(_lock, _change, without)


def _change(change) -> None:
    # run through interrupt_locks.under_lock: a KeyboardInterrupt at the start of a
    # ``with lock:`` (3.14) would leave the lock held and hang the next add
    global _listeners
    _listeners = change(_listeners)
    _rebuild()


@contextmanager
def listening(listener) -> Iterator:
    """``with listening(obj): ...``: ``obj`` listens inside the block."""
    add(listener)
    try:
        yield listener
    finally:
        remove(listener)


def _rebuild() -> None:
    """Swap in new per-event tuples (readers never see a half-built one)."""
    global _by_event
    by_event = {}
    for event in EVENTS:
        by_event[event] = tuple(getattr(obj, event) for obj in _listeners
                                if callable(getattr(obj, event, None)))
    _by_event = by_event
