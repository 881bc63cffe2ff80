"""Ufuncs of later-axis gathers (``x[:, idx]``) write into a dead gather or ufunc result
(``gather_layout.permuted``), and every result still equals eager's (values, dtype,
shape, strides), with the arguments unchanged.

The integral-image box filter of corpus 6 allocated a fresh full-size array for each of
``ii[r1][:, c1] - ii[r0][:, c1] - ii[r1][:, c0] + ii[r0][:, c0]``: those results are laid
out with the gathered axis outermost (F order for 2-D), which the buffer reuse did not
know, so no buffer was lent::

    subtract_2 = _subtract_2(getitem_1, ((setitem[clip])[:, clip_3]), getitem_1)
    subtract_3 = _subtract_2(subtract_2, ((setitem[clip_1])[:, clip_2]), subtract_2)
"""

import re

import numpy as np
import pytest
from harness import rand
from test_numpy_backend import compiled_graph
from test_numpy_backend_inplace import differential

import dynamo


def box(ii, r0, r1, c0, c1):
    s = ii[r1][:, c1] - ii[r0][:, c1] - ii[r1][:, c0] + ii[r0][:, c0]
    area = (r1 - r0)[:, None] * (c1 - c0)[None, :]
    return s / area


def middle_axis(a, b, i):
    # 3-D, gathered along axis 1: layout (1, 0, 2); the chain is read by a reduction
    return (np.exp(a[:, i]) * 2.0 - b[:, i]).sum(axis=0)


def last_axis_3d(a, b, i):
    return np.sqrt(a[:, :, i] ** 2 + b[:, :, i] ** 2).max(axis=-1)


def mixed_layouts(a, b, c, i, k):
    # ``a[:, i]`` (axis 1 outermost) and ``b[:, :, k]`` (axis 2 outermost), and ``c``
    # (C order): eager's results follow NumPy's choice among them; no buffer is lent
    t = a[:, i] - b[:, :, k]
    u = a[:, i] + c
    return t.sum(axis=0), u.sum(axis=0)


def returned_chain(x, y, i):
    # the chain is returned: eager's result owns its data, so it stays a fresh array
    return x[:, i] - y[:, i] + 1.0


def writes_into(src: str) -> set[str]:
    """Names that an op writes into (``out=`` by position or keyword)."""
    return set(borrowers(src).values())


def borrowers(src: str) -> dict[str, str]:
    """``result -> the dead value it was written into``."""
    names = {}
    for line in src.splitlines():
        m = re.match(r"\s*(\w+) = _\w+\((.*), (?:out=)?(\w+)\)$", line)
        if m and m[3] in re.findall(r"\w+", m[2]) and not m[3].startswith("_"):
            names[m[1]] = m[3]
    return names


II = rand(41, 41).astype(np.float64)
ROWS = np.arange(40)
R0, R1 = np.clip(ROWS - 3, 0, 40), np.clip(ROWS + 4, 0, 40)
IDX = np.array([3, 0, 5, 5, 1, 2, 4])
A3, B3 = rand(4, 6, 5, seed=1), rand(4, 6, 5, seed=2)
CASES = [
    ("box", box, (II, R0, R1, R0, R1), 3),
    ("middle_axis", middle_axis, (A3, B3, IDX), 2),
    ("last_axis_3d", last_axis_3d, (A3, B3, IDX[:5] % 5), 3),
]


@pytest.mark.parametrize("name,fn,args,count", CASES, ids=[c[0] for c in CASES])
def test_a_ufunc_writes_into_a_dead_gather(name, fn, args, count):
    src = compiled_graph(fn, *args).__dynamo_source__
    # fails before the change: every op of the chain allocated a fresh array
    assert len(writes_into(src.split("_any_layout")[-1])) >= count, src
    differential(fn, *args, rtol=1e-12, atol=1e-12,
                 layouts=("C", "F", "strided", "C"))


def test_no_buffer_between_layouts_or_into_a_returned_result():
    a, b, c = rand(4, 6, 5, seed=3), rand(4, 7, 6, seed=4), rand(4, 7, 5, seed=5)
    i, k = np.array([0, 2, 1, 1, 5, 3, 4]), np.array([5, 0, 2, 2, 1])
    src = compiled_graph(mixed_layouts, a, b, c, i, k).__dynamo_source__
    assert not writes_into(src), src
    differential(mixed_layouts, a, b, c, i, k, rtol=1e-12, atol=1e-12,
                 layouts=("C", "F", "strided"))
    x, y = rand(30, 20, seed=6), rand(30, 20, seed=7)
    j = np.arange(19, -1, -1)
    src = compiled_graph(returned_chain, x, y, j).__dynamo_source__
    (result,) = set(re.findall(r"return (\w+)$", src, re.M))
    assert result not in borrowers(src), src
    differential(returned_chain, x, y, j, rtol=1e-12, atol=1e-12)
    dynamo.reset()
    got = dynamo.compile(returned_chain, backend="numpy")(x, y, j)
    assert got.flags.owndata == returned_chain(x, y, j).flags.owndata
    dynamo.reset()


def written_then_returned(x, i):
    # hostile round 34 (round34_gathers/aliased_*): ``g``, a ufunc of a gather, is not
    # returned itself, but ``g += 1`` (``add(..., out=multiply)``) is, so ``g``'s
    # buffer reaches the caller: eager's owns its data
    g = x[:, i] * 3.0
    g += 1.0
    return g - 0.5, g


def test_no_gather_buffer_lent_to_a_result_written_then_returned():
    fn = written_then_returned
    x, i = rand(6, 8, seed=8), np.array([1, 3, 4])
    dynamo.reset()
    got = dynamo.compile(fn, backend="numpy")(x.copy(), i)
    want = fn(x.copy(), i)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
        # fails before the fix: the result was a view of the gather's internal array
        assert (g.base is None) == (w.base is None) and \
            (g.base is None or (g.base.base is None) == (w.base.base is None))
    differential(fn, x, i, rtol=1e-12, atol=1e-12, layouts=("C", "F", "strided"))
    dynamo.reset()
