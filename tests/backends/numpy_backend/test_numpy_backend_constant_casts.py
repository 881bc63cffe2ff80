"""A ufunc whose Python constant overflows in the cast NumPy makes of it (NEP 50:
``np.copysign(x32, 1e300)`` casts 1e300 to float32, "overflow encountered in cast";
``x8 + 300`` raises ``OverflowError``) may signal, although the ufunc itself is quiet:
the numpy backend keeps it where its result is unused (``dce``) and runs it as often as
eager (``cse``), so the caller's ``np.errstate`` settings see what eager shows
(``dynamo.ops.signals._quiet_ufunc``, issue #15). Checked by ``agree``: results bit for
bit, warnings, ``seterrcall`` calls and exceptions, call by call, against plain NumPy."""

import numpy as np
import pytest
from test_numpy_never_wrong import agree, traced

from dynamo.ops.signals import may_signal

ERRSTATES = [None, {"all": "raise"}, {"all": "warn"}, {"all": "call"}, {"all": "print"},
             {"over": "raise", "invalid": "ignore"}]


def unused_copysign(x):
    np.copysign(x, 1e300)          # its value unused: eager still reports the cast
    return x + 1


def copysign_twice(x):
    a = np.copysign(x, 1e300)      # two equal calls: eager reports twice
    b = np.copysign(x, -1e300)
    c = np.copysign(x, 1e300)
    return a * b + c


def unused_big_int(x):
    np.copysign(x, 10 ** 40)       # a Python int past float32's range
    return x - 1


def quiet_constant(x):
    np.copysign(x, 1e30)           # in float32's range: nothing to report
    return x * 3


X32 = np.linspace(-1, 1, 16, dtype=np.float32)


@pytest.mark.parametrize("errstate", ERRSTATES)
@pytest.mark.parametrize("fn", [unused_copysign, copysign_twice, unused_big_int,
                                quiet_constant])
@pytest.mark.parametrize("backend", ["numpy", "eager"])
def test_a_constant_that_overflows_in_the_cast_reports_as_eager(fn, errstate, backend):
    agree(fn, X32, errstate=errstate, backend=backend)


def test_which_copysigns_may_signal():
    (node,) = [n for n in traced(unused_copysign, X32).call_nodes() if n.target == "copysign"]
    assert may_signal(node)
    (node,) = [n for n in traced(quiet_constant, X32).call_nodes() if n.target == "copysign"]
    assert not may_signal(node)     # (dropped as dead code: nothing to report)


def test_an_int_constant_out_of_an_int_arrays_range_raises_as_eager():
    def unused_add(x):
        np.add(x, 300)              # NumPy 2: OverflowError, for every value of x
        return x

    agree(unused_add, np.arange(4, dtype=np.int8), errstate={"all": "raise"})
