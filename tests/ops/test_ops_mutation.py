"""Mutation and aliasing: in-place writes in compiled code leave every array (inputs,
views of inputs, arrays held by objects) exactly as eager execution leaves them, and
every alias sees every write. ``check`` compares results and the arguments after the
call; the identity tests check that the same objects come back."""

import numpy as np
import pytest
from harness import check, rand

import dynamo


def stencil(a, steps):
    for _ in range(steps):
        a[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] +
                               a[1:-1, 2:])
    return a


def jacobi(a, b, steps):
    for _ in range(steps):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a, b = b, a
    return a


def inplace_ops(x, y):
    x += y
    x *= 2
    x -= x.mean()
    y **= 2
    y /= 3
    return x


def int_inplace(a):
    a //= 2
    a %= 5
    a <<= 1
    a |= 1
    a ^= 3
    return a


def out_into_views(x, y):
    np.add(x, y, out=x)
    np.multiply(x[::2], 2.0, out=y[::2])
    np.exp(y[1], out=x[0])
    return x, y


def writes_through_views(x):
    v = x[1:]
    v[0] = 5.0
    v += 1
    t = x.T
    t[0] = -1.0
    r = x.reshape(-1)
    r[:3] = 0.0
    return x


def alias_then_write(x):
    y = x
    y += 1
    return x, y


def view_sees_later_write(x):
    row = x[0]
    x[0] = 9.0
    x[:, 1] += 1
    return row


def overlapping_assignment(x):
    x[1:] = x[:-1]
    x[:-2] += x[2:]
    return x


def local_buffer(x):
    buf = np.zeros((3,) + x.shape, x.dtype)
    for i in range(3):
        buf[i] = x * i
        buf[i, 0] += 1
    return buf.sum(0)


def inplace_library_writes(x):
    np.copyto(x[0], 1.0)
    np.putmask(x, x < 0, 0.0)
    x[1].fill(2.0)
    x[2].sort()
    return None


def reduction_out_into_input(x, y):
    np.sum(x, axis=0, out=y[0])
    np.cumsum(x, axis=1, out=x)
    return x, y


class Model:
    def __init__(self):
        self.state = rand(4, 5, seed=9)
        self.count = np.zeros(1, np.int64)

    def step(self, x):
        self.state *= 0.5
        self.state[:, 0] += x.sum(1)
        self.count += 1
        return self.state


X = rand(6, 6)
Y = rand(6, 6, seed=1)
V = rand(8)
INTS = rand(4, 5, dtype=np.int32, seed=2, low=0.0, high=3.0)

PROGRAMS = [
    ("stencil_loop", lambda a: stencil(a, 4), (X,)),
    ("jacobi_swap", lambda a, b: jacobi(a, b, 3), (V, rand(8, seed=3))),
    ("inplace_ops_on_inputs", inplace_ops, (X, Y)),
    ("int_inplace_on_input", int_inplace, (INTS,)),
    ("out_into_views", out_into_views, (X, Y)),
    ("writes_through_views", writes_through_views, (X,)),
    ("alias_then_write", alias_then_write, (X,)),
    ("view_sees_later_write", view_sees_later_write, (X,)),
    ("overlapping_assignment", overlapping_assignment, (V,)),
    ("local_buffer", local_buffer, (X,)),
    ("inplace_library_writes", inplace_library_writes, (X,)),
    ("reduction_out_into_input", reduction_out_into_input, (X, Y)),
    ("positional_out", lambda x, y: (np.add(x, y, x), np.multiply(x[0], 2, y[0]), x.sum(), y),
     (X, Y)),
]


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_mutation_matches_eager(name, fn, args):
    check(fn, *args, graphs=1, breaks=0)


def test_mutated_input_is_returned_as_the_same_object():
    x = rand(6, 6)
    out = dynamo.compile(lambda a: stencil(a, 2), backend="eager")(x)
    assert out is x
    x2, y2 = dynamo.compile(alias_then_write, backend="eager")(x)
    assert x2 is x and y2 is x


def test_result_views_alias_the_input():
    x = rand(6, 6)
    row = dynamo.compile(view_sees_later_write, backend="eager")(x)
    assert np.shares_memory(row, x)
    row[0] = 123.0
    assert x[0, 0] == 123.0


def test_object_state_mutated_in_place():
    m1, m2 = Model(), Model()
    x = rand(4, 5, seed=4)
    step = dynamo.compile(m2.step, backend="eager")
    for _ in range(3):
        expected = m1.step(x)
        got = step(x)
        np.testing.assert_array_equal(expected, got)
    assert got is m2.state
    np.testing.assert_array_equal(m1.state, m2.state)
    np.testing.assert_array_equal(m1.count, m2.count)


def test_read_only_input_write_raises_like_eager():
    x = rand(3, 3)
    x.flags.writeable = False
    with pytest.raises(ValueError) as eager:
        _write_row(x)
    with pytest.raises(ValueError) as compiled:
        dynamo.compile(_write_row, backend="eager")(x)
    assert str(compiled.value) == str(eager.value)
    assert (x == rand(3, 3)).all()


def _write_row(x):
    x[0] = 1.0
    return x
