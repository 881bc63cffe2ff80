"""Running a program with checks on array data compiled and eager, call by call
(tests/breaks/test_data_checks.py, test_quiet_ops.py, test_size_checks.py).

Passing and failing arguments in turn, on one compiled object: results, exceptions
(type, message, the traceback's lines below the caller, none in dynamo's own files),
printed output and arguments afterwards must be eager's::

    compiled = dynamo.compile(fn, backend="numpy")
    calls_match_eager(fn, compiled, passing, failing, "jacobi_checked")
"""

import copy
import traceback

from harness import outcome, same_outcome


def frames(exc):
    """(function, line, source) of the traceback's frames below the caller's own."""
    return [(f.name, f.lineno, f.line) for f in traceback.extract_tb(exc.__traceback__)][1:]


def call(fn, args):
    """``harness.outcome`` of ``fn(*args)``, called from a frame of its own."""
    def outer(*a):
        return fn(*a)
    return outcome(outer, args)


def calls_match_eager(fn, compiled, passing, failing, name) -> None:
    """passing, failing, passing again, failing again: each call's outcome is eager's."""
    for i, args in enumerate([*passing, *failing, *passing, *failing]):
        want = call(fn, copy.deepcopy(args))
        got = call(compiled, copy.deepcopy(args))
        same_outcome(want, got, f"{name} call {i}")
        if isinstance(want[0], Exception):
            assert frames(got[0]) == frames(want[0]), name
            assert not any("dynamo" in f.filename
                           for f in traceback.extract_tb(got[0].__traceback__)), name
