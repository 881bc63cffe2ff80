"""What round 45's programs share (``prog_round45_*.py``): the list ``SEEN`` that
objects of the programs record their reads in, an argument maker, and the ways the
scenarios call (``_run`` records ``SEEN`` after each call; ``_exits`` turns
``config.defer_prints`` on, so that a loop exit's print is replayed by the glue).

    >>> _run(r, f, (o, _x()))              # f(o, x) three times, SEEN seen after each
"""

from __future__ import annotations

import numpy as np

import dynamo

NAN = float("nan")
SEEN: list = []


def _x(n=4, k=0.0, dtype=np.float64):
    return (np.arange(n) * 0.5 + 0.25 + k).astype(dtype)


A = _x(5) + 1.0


def _run(r, fn, *sets, times=3, watch=None):
    """Compile ``fn``; call it ``times`` on each argument set (used as given: objects
    persist across calls); record ``SEEN`` and ``watch()`` after each call."""
    SEEN.clear()
    f = r.compile(fn)
    for args in sets:
        for _ in range(times):
            r.call(f, *args)
            r.see("seen", list(SEEN))
            if watch is not None:
                r.see("watched", watch())
    return f


def _calls(r, f, make, n, watch=None):
    """``f(*make(k))`` for k in range(n), recording ``watch()`` after each."""
    for k in range(n):
        r.call(f, *make(k))
        if watch is not None:
            r.see("watched", watch())


def _exits(r, fn, sets):
    """``fn`` on each argument set (arrays copied), then on the first again, with
    ``config.defer_prints`` on."""
    r.patch(dynamo.config, "defer_prints", True)
    f = r.compile(fn)
    for args in sets + sets[:1]:
        r.call(f, *[a.copy() if isinstance(a, np.ndarray) else a for a in args])
