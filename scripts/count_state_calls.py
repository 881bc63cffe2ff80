"""Instructions per call of two ``state`` rows of ``bench.py`` (issue #16), by callgrind.

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=starmap_next \\
        --callgrind-out-file=/dev/null python scripts/count_state_calls.py adam numpy 38

runs ``adam int step`` or ``fresh float list`` (``adam``, ``flist``), or ``x + y`` on
10-element arrays through three signatures (``xy``: positional, ``xy_kwonly``: ``y`` a
keyword-only default, ``xy_star``: ``*args``; ``xy_break``: ``x + y``, a ``print`` that
breaks the graph, ``+ y``), plainly
(``plain``) or compiled with a backend (``eager``, ``numpy``): 80 warm calls, then
``n`` calls inside ``itertools.starmap``, the only code callgrind counts with the
options above. "Collected" divided by ``n`` is the instructions of one call:
deterministic where times on a shared machine are not (a 2-4 us call moves by 10%
between runs). Run it on two trees (``PYTHONPATH``) to compare them.

Example::

    >>> main(["adam", "eager", "2"])
"""

from __future__ import annotations

import collections
import itertools
import sys

import numpy as np

import dynamo


def _adam_step(g, m, t):
    m = 0.9 * m + 0.1 * g
    return m / (1 - 0.9 ** t)


def _weighted(xs, a):
    return a * np.array(xs)


_Y = np.arange(10.0)


def _add(x, y):
    return x + y


def _add_kwonly(x, *, y=_Y):
    return x + y


def _add_star(*args):
    return args[0] + args[1]


def _add_break(x, y):
    z = x + y
    print(end="")   # a graph break: the hit runs the frame's code after it too
    return z + y


def main(argv: list[str]) -> None:
    program, backend, n = argv[0], argv[1], int(argv[2])
    rng = np.random.default_rng(0)
    g = rng.standard_normal(4096).astype(np.float32)
    m, x = np.zeros(4096, np.float32), np.ones(4096, np.float32)
    f, calls = {"adam": (_adam_step, [(g, m, t) for t in range(1, 41)]),
                "flist": (_weighted, [([0.5 * i + k for k in range(64)], x[:64])
                                      for i in range(40)]),
                "xy": (_add, [(_Y + 1.0, _Y)] * 40),
                "xy_kwonly": (_add_kwonly, [(_Y + 1.0,)] * 40),
                "xy_star": (_add_star, [(_Y + 1.0, _Y)] * 40),
                "xy_break": (_add_break, [(_Y + 1.0, _Y)] * 40)}[program]
    c = f if backend == "plain" else dynamo.compile(f, backend=backend)
    for args in calls * 2:
        c(*args)
    collections.deque(itertools.starmap(c, calls[2:2 + n]), maxlen=0)


if __name__ == "__main__":
    main(sys.argv[1:])
