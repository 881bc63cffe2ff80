"""A fresh array written by ``x[...] = v`` lends its buffer to its last reader (#15).

``lap = np.zeros_like(v); lap[1:-1] = ...; v + dt * (D * lap - w)`` made ``D * lap``
a new array although ``lap`` dies there: the write's result did not count as private
(``reuse.private``), and the write is an effect, a stretch of its own, so its value
could not lend its buffer to the next stretch either. Now a write into an array this
code allocated and that nothing else reads is as private as a fresh result
(``reuse._written_alone``), and an op of a stretch that never runs again (no guard,
``statements.guarded_segments``) may write into an earlier stretch's value::

    zeros_like[1:-1] = divide
    setitem = zeros_like
    multiply_1 = _multiply(_float32_1_0, setitem, setitem)   # was without the buffer

Each program is compared with eager by ``test_numpy_backend_inplace.differential``
(result, its layout, the caller's arrays afterwards, warnings) on the plain and the
block-wise path.
"""

import re

import numpy as np
import pytest
from harness import rand
from test_numpy_backend import BLOCKED, compiled_graph
from test_numpy_backend_inplace import differential


def cable_step(v, w):
    """FitzHugh-Nagumo's Laplacian into a zeroed array, then read once."""
    lap = np.zeros_like(v)
    lap[1:-1] = (v[2:] - 2 * v[1:-1] + v[:-2]) / 0.25
    return v + 0.05 * (1.0 * lap + v - w)


def ends_copied(x):
    """A fresh result written twice (a chain of writes), the value read out of it."""
    a = x + 1.0
    a[0] = a[1]
    a[-1] = a[-2]
    return a * 2.0


def copy_then_written(u):
    """``un = u.copy()`` written, then read by an elementwise op."""
    un = u.copy()
    un[0] = 0.0
    return np.sqrt(un * un + 1.0)


def input_written(x):
    """The caller's array written: never a buffer to reuse."""
    x[0] = 5.0
    return x * 2.0


def base_read_elsewhere(x):
    """The allocated array is read before the write by another op: not lent."""
    z = np.ones_like(x)
    t = z * 3.0
    z[1:] = x[1:]
    return t + z * 2.0


def written_returned(x):
    """The written array is returned: not lent."""
    z = np.zeros_like(x)
    z[1:] = x[1:]
    return z, z * 2.0


def written_viewed(x):
    """A view of the written array is returned: not lent."""
    z = np.zeros_like(x)
    z[1:] = x[1:]
    return z[::2], z + 1.0


def written_then_overflows(x):
    """The value read after the write overflows: eager's warning, eager's values."""
    z = np.zeros_like(x)
    z[1:-1] = x[1:-1] * 1e200
    return z * 1e200 + x


V, W = rand(300), rand(300, seed=1)


def _source(fn, *args, **options):
    return compiled_graph(fn, *args, **options).__dynamo_source__


@pytest.mark.parametrize("fn, args, reader", [
    # (the float constants are float32 scalars of float32 V and W: typed_constants.py)
    (cable_step, (V, W), r"_multiply\(_float32_1_0, setitem, setitem\)"),
    (ends_copied, (V,), r"_multiply\(setitem_1, _float32_2_0, setitem_1\)"),
    (copy_then_written, (V,), r"_multiply\(setitem, setitem, setitem\)|"
                              r"_square\(setitem, setitem\)"),
])
def test_written_fresh_array_lends_its_buffer(fn, args, reader):
    src = _source(fn, *args)
    assert re.search(reader, src), src


@pytest.mark.parametrize("fn", [input_written, base_read_elsewhere, written_returned,
                                written_viewed])
def test_written_array_others_can_see_is_not_lent(fn):
    src = _source(fn, V.copy())
    assert "out=setitem" not in src and ", setitem)" not in src, src


@pytest.mark.parametrize("options", [{}, BLOCKED], ids=["plain", "blocked"])
@pytest.mark.parametrize("fn, args", [
    (cable_step, (V, W)), (ends_copied, (V,)), (copy_then_written, (V,)),
    (input_written, (V,)), (base_read_elsewhere, (V,)), (written_returned, (V,)),
    (written_viewed, (V,)), (written_then_overflows, (V,)),
    (cable_step, (rand(4, 50), rand(4, 50, seed=1))),
    (ends_copied, (rand(6, 7).astype(np.float32),)),
])
def test_written_donors_equal_eager(fn, args, options):
    differential(fn, *args, options=options, graphs=None)


@pytest.mark.parametrize("setting", ["raise", "warn", "ignore"])
def test_overflow_after_the_write_as_eager(setting):
    # the reader of the written array overflows: eager's warning or exception, and on
    # the block-wise path (a guarded stretch, which may run again) no lending at all
    for options in ({}, BLOCKED):
        with np.errstate(over=setting):
            differential(written_then_overflows, V, options=options, graphs=None)
