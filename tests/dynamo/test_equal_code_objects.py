"""Two ``exec`` of one source make equal code objects (code compares by value), and so
do the resume functions made for each: what dynamo marks or caches per code object is
kept by identity (``dynamo.code_keyed``), never in a ``WeakSet`` or
``WeakKeyDictionary``, where the second code shares the first one's slot and loses it
when the first dies (issue #17: a random-program search compiled and dropped programs
in one process, re-``exec``'d per dtype, and a later call raised ``TypeError:
prog_resume_at_L6() missing 5 required positional arguments``: the resume function's
new entry took its arguments flat, where the break hands them over in a list)."""

import gc
import types

import numpy as np

import dynamo
from dynamo.bytecode.resume import is_resume_code
from dynamo.code_keyed import CodeKeyed, CodeSet

SOURCE = '''def prog(x, t):
    i = 0
    n = len(x)
    s = x[0] * 0.0
    while i < n and x[i] < t:
        s += x[i]
        i += 1
    return s, i
'''
FILENAME = "<test_equal_code_objects program>"


def _program():
    scope = {"np": np}
    exec(compile(SOURCE, FILENAME, "exec"), scope)
    return scope["prog"]


def _resume_codes() -> list:
    """The codes of the program's resume functions alive now (found through their
    functions: code objects are not tracked by the garbage collector); not the code at
    a break in one (which holds the program's function, through its constants)."""
    return [o.__code__ for o in gc.get_objects() if isinstance(o, types.FunctionType)
            and o.__code__.co_filename == FILENAME and is_resume_code(o.__code__)]


def _run(comp, fn, n: int, dtype) -> None:
    x = np.arange(n, dtype=dtype) - 2
    got, want = comp(x, 1), fn(x, 1)
    assert got == want and type(got[0]) is type(want[0])


def test_a_program_execd_again_after_the_first_is_dropped():
    """The first program's resume function outlives the program (here: held by the
    test; in the search, by a reference cycle not yet collected); the second program,
    equal to the first, gets an equal resume function; then the first one's goes. The
    second's calls that compile a new entry of its resume function (another dtype)
    still hand their arguments over in a list, as the break does."""
    first = _program()
    comp = dynamo.compile(first, backend="eager")
    _run(comp, first, 5, np.int64)
    held = _resume_codes()
    assert held, "the program breaks at its while loop: it has a resume function"
    dynamo.reset()
    del first, comp
    gc.collect()
    second = _program()
    comp = dynamo.compile(second, backend="eager")
    _run(comp, second, 5, np.int64)
    del held
    gc.collect()
    for dtype in (np.int8, np.float32, np.int32):   # new entries of the resume function
        _run(comp, second, 6, dtype)
    dynamo.reset()


def test_code_keyed_and_code_set_tell_equal_codes_apart():
    a, b = (compile(SOURCE, FILENAME, "exec") for _ in range(2))
    assert a == b and a is not b
    marks, keyed = CodeSet(), CodeKeyed()
    marks.add(a)
    keyed[a] = "a"
    assert a in marks and b not in marks
    assert keyed.get(b) is None and keyed.setdefault(b, "b") == "b" and keyed[a] == "a"
    del a
    gc.collect()
    assert len(marks) == 0 and keyed[b] == "b" and len(keyed) == 1
