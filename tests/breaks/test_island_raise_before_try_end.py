"""An island that enters a ``try`` range whose last instruction is a ``raise``
(``for ...: try: raise E(c) finally: return``, ``c`` undefined: the island starts at
the ``raise`` statement) is assembled with the stack its prologue needs
(``dynamo/bytecode/copies.py _entry_depth``).

``bytecode``'s analysis of the whole code measured the ``finally`` handler from the
depth at the code's entry, not at the range's (the prologue jumps past its
``TryBegin``), and raised "Failed to compute stacksize, got negative size": the frame
fell back to eager after an internal error (``scripts/loop_program_search.py
--generator mixed --start 1134``, where the island is in a resume function whose
prologue also jumps over its unrun ``MAKE_CELL``s).
"""

import logging

import numpy as np
import pytest

import dynamo


class Errors(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def raise_in_finally_loop(x, log):
    a = x * 1.0
    for i in range(a.size):
        try:
            log.append(i)
            raise ValueError(c)  # noqa: F821 (undefined on purpose: a NameError)
        finally:
            return ("finally", i, len(log))  # noqa: B012 (the case under test)
    return a


def with_cells_after_a_break(x, log, k):
    a = x * 1.0
    c = 0

    def bump(v):
        nonlocal c
        c += v
        return c
    c += int(np.uint8(k) - np.uint8(3))     # a break (int of an array)
    for i in range(a.size):
        try:
            raise ValueError(f"bad {d} {k}")  # noqa: F821
        finally:
            return ("finally", c, bump(1))  # noqa: B012
    return a


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn, args", [
    (raise_in_finally_loop, lambda n: (np.arange(n), [])),
    (with_cells_after_a_break, lambda n: (np.arange(n), [], n % 4)),
])
def test_the_island_compiles_and_matches_plain(fn, args, backend):
    errors = Errors()
    logger = logging.getLogger("dynamo.internal")
    logger.addHandler(errors)
    try:
        f = dynamo.compile(fn, backend=backend)
        for n in (6, 1, 6, 3):
            assert f(*args(n)) == fn(*args(n))
    finally:
        logger.removeHandler(errors)
    assert errors.messages == []
