"""A lock held over a call in a way no interrupt can leave held (issue #17): the
numpy backend's recyclers, the frontend's compile lock (``hook._compile_lock``) and the
lock of the generated sources' lines (``source._lock``), the listeners' lock and the lock
of the contexts copies share (``compile_settings._received_lock``).

CPython raises KeyboardInterrupt (SIGINT's ``default_int_handler``, or any signal
handler's exception) in the main thread right after a call returns, before its result
is used. On 3.14 ``with lock:`` calls ``lock.__enter__`` as a plain call that ends
*before* the ``with``'s protected range begins: an interrupt raised there leaves the
lock held and ``__exit__`` never runs, so the next ``with lock:`` (the runtime's
recycler on the next call) waits forever (3.11-3.13 enter without that check;
tests/hostile/prog_round22_interrupts.py). ``lock.acquire()`` followed by ``try:``
has the same gap on every version.

``under_lock`` acquires inside its ``try:`` and releases as its ``finally:``'s first
call. The lock is re-entrant (``threading.RLock``), whose ``release`` raises
RuntimeError in a thread that does not hold it: an interrupt raised inside a blocked
``acquire`` (which then did not acquire) makes that release fail harmlessly rather
than release another thread's hold. Raised after the ``acquire`` returned, the
exception is inside the ``try:``; raised after the ``release``, the lock is free.

    >>> lock = new_lock()
    >>> under_lock(lock, sum, [1, 2])
    3
    >>> lock._is_owned()               # not left held
    False
"""

from __future__ import annotations

import threading


def new_lock():
    """A lock for ``under_lock`` (re-entrant: see the module docstring)."""
    return threading.RLock()


def under_lock(lock, fn, *args):
    """``fn(*args)`` with ``lock`` (from ``new_lock``) held; no interrupt leaves it held."""
    try:
        lock.acquire()
        return fn(*args)
    finally:
        try:
            lock.release()
        except RuntimeError:   # interrupted inside a blocked acquire: never held
            pass
