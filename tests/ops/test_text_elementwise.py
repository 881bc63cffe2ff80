"""Elementwise ops on str and bytes arrays: the traced result has the dtype eager's
has, so ``(s + s).dtype`` read in the function is ``'<U6'`` for two ``'U3'`` arrays (a
probe of zeros would answer ``'<U0'``: a 0-d result is a NumPy scalar as wide as its
value), and a 0-d text result, whose width is its value's, is computed eagerly."""

import numpy as np
import pytest

import dynamo
from dynamo import ops
from dynamo.ops.meta import ArrayMeta

SU = np.array(["ab", "cde", "", "Zz"], "U3")
SB = np.array([b"x", b"yz", b"", b"\x00a"], "S2")


def _widths(s, t):
    u = s + t
    return u, u.dtype.str, u.itemsize, np.where(s == t, s, "longer!").dtype.str


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("args", [
    (SU, SU), (SB, SB), (SU, np.array("z")), (np.zeros((0,), "U3"), np.array("q")),
    (np.array("ab"), np.array("xyz")), (SU.reshape(2, 2), SU[:2]),
], ids=["U3+U3", "S2+S2", "U3+0d", "empty", "0d+0d", "2d"])
def test_text_widths_match_eager(backend, args):
    want = _widths(*args)
    got = dynamo.compile(_widths, backend=backend)(*args)
    assert type(got[0]) is type(want[0])
    assert got[0].dtype == want[0].dtype
    assert np.array_equal(got[0], want[0])
    assert got[1:] == want[1:]


def test_rule_gives_the_width_of_the_sum():
    op = ops.get("add")
    u3 = ArrayMeta((4,), np.dtype("U3"))
    assert op.meta(op, (u3, u3), {}).dtype == np.dtype("U6")
    s2 = ArrayMeta((2, 1), np.dtype("S2"))
    assert op.meta(op, (s2, ArrayMeta((3,), np.dtype("S5"))), {}).dtype == np.dtype("S7")


def test_rule_refuses_a_zero_d_text_result():
    op = ops.get("add")
    u3 = ArrayMeta((), np.dtype("U3"))
    with pytest.raises(ops.MetaError, match="as wide as its value"):
        op.meta(op, (u3, u3), {})
