"""Building a frame's break code reads no argument's ``__class__`` (hostile round 32,
``round32_classes/bump_in_try_liar``): ``break_entry._largest_array`` asked
``isinstance(v, np.ndarray)`` of the arguments the trace had not read, and
``isinstance`` falls back to ``v.__class__``, which a program may make a property
that counts its reads. The first call then ran the program's property once more than
Python does.

    >>> class Liar:
    ...     @property
    ...     def __class__(self):      # counts its reads
    ...         ...
    >>> def bump(o, x):
    ...     try:                      # the try block runs eagerly (a break)
    ...         o.__class__.n += 1
    ...     except AttributeError as e:
    ...         return str(e)
    ...     return x * o.n
"""

import numpy as np
import pytest

import dynamo

BACKENDS = ("eager", "numpy")


def _classes():
    class Other:
        n = 100

    class Liar:
        n = 0
        reads = 0

        @property
        def __class__(self):
            type(self).reads += 1
            return Other

    return Other, Liar


def _bump(o, x):
    try:
        o.__class__.n += 1
    except AttributeError as e:
        return str(e)
    return x * o.n


def _bump_unread(x, o):
    try:
        o.__class__.n += 2
    except AttributeError as e:
        return str(e)
    return x + o.n


def _run(fn, compile_fn):
    """The property's reads and the counter after each of three calls."""
    other, liar = _classes()
    f = compile_fn(fn)
    seen = []
    for k in range(3):
        x = np.arange(3.0) + k
        args = (liar(), x) if fn is _bump else (x, liar())
        before = vars(liar)["reads"]
        result = f(*args)
        seen.append((vars(liar)["reads"] - before, other.n, result.tolist()))
    return seen


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [_bump, _bump_unread], ids=["first", "second"])
def test_break_code_reads_no_class_property(fn, backend):
    dynamo.reset()
    want = _run(fn, lambda f: f)
    got = _run(fn, lambda f: dynamo.compile(f, backend=backend))
    assert got == want
