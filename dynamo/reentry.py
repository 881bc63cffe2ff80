"""Re-entry: a compiled function called again while its own code after a break runs.

A compiled call that breaks runs through the frame entry, the dispatcher (with the
entry's runner, ``break_entry.FrameRunner``, and ``resume.run_break_code`` pasted into
it: ``FrameRunner.dispatch_lines``) and the code at the break: three Python frames
where plain Python takes one (five before the runner was pasted, 2026-12-05). A
recursion through a compiled global (``@dynamo.compile`` on a function that calls
itself by name), where each level calls the next from its code after a break, would
then pass ``sys.getrecursionlimit()`` at a fraction of plain Python's depth (issue #17
``compiled-recursion-depth``).

So the code after a break is marked running, per thread, while it runs, and a call
of the same code under it (its own frame entry or wrapper, through the dispatcher)
runs the original code instead of its compiled entry: a hit whose entry would break
asks for that (``RerunEagerly``, before it ran anything), and a miss does not
compile. Through a frame entry that is the entry's own frame (one Python frame a
level, as plain Python), and the rest of the recursion is plain Python from there on.
Only the outermost call of a recursion runs compiled; the nested ones give the same
results as the outermost one's own code would (the original code, uncompiled).

A hit whose entry captured the whole frame (no break) is untouched: it cannot call
itself (a call it makes is inlined into its graph, or it would break), so its
dispatch path pays nothing for this. Per thread: a recursion in one thread does not
change how another thread's calls run.

Example::

    @dynamo.compile
    def walk(x, d):
        if d == 0:
            return x
        print(d)                  # a break: the code after it runs ...
        return walk(x + 1, d - 1)  # ... and calls walk: running(walk's code) is True,
                                   # so that call runs walk's own code, in its frame

    walk(np.ones(3), 900)         # finishes, as plain Python does
"""

from __future__ import annotations

import threading
import types


class _State(threading.local):
    """This thread's state: ``codes``, the ids of the code objects whose code after a
    break runs now in this thread (a code object stays alive while its break code
    runs: its runner holds it). An attribute of a ``threading.local`` subclass, made
    per thread by ``__init__``: the break path reads it without a Python call."""

    def __init__(self) -> None:
        self.codes: set[int] = set()


state = _State()


def running(code: types.CodeType) -> bool:
    """Whether ``code``'s code after a break runs now in this thread (this call of
    ``code`` is then nested in another)."""
    return id(code) in state.codes
