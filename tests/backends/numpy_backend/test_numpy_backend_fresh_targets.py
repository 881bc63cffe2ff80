"""Ops written straight into the window of a fresh array (``fresh_targets.py``).

``f = np.zeros_like(u); f[1:-1] = k * (u[2:] - 2 * u[1:-1] + u[:-2])`` runs its last
op with ``out=f[1:-1]`` instead of into a temporary that the ``setitem`` copies. Every
test compares compiled with eager NumPy (``test_numpy_backend_inplace.differential``:
values bit for bit, dtypes, strides, the arguments afterwards, warnings, exceptions),
and the generated source says where the write went.
"""

import numpy as np
import pytest
from dynamo.backends.numpy_backend.fresh_targets import window_shape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_numpy_backend import compiled_graph
from test_numpy_backend_inplace import differential


def laplacian(u, k):
    f = np.zeros_like(u)
    f[1:-1] = k * (u[2:] - 2 * u[1:-1] + u[:-2])
    return f


def source(fn, *args):
    return compiled_graph(fn, *args).__dynamo_source__


def test_the_last_op_writes_into_the_window():
    src = source(laplacian, np.arange(10.0) ** 2, 0.5)
    assert ", zeros_like[1:-1])" in src, src
    differential(laplacian, np.arange(10.0) ** 2, 0.5)


def time_steps(x, v, steps):
    """Velocity Verlet with forces from neighbours: a fresh force array each trip."""
    def force(x):
        f = np.zeros_like(x)
        f[1:-1] = 1.5 * (x[2:] - 2 * x[1:-1] + x[:-2])
        return f
    a = force(x)
    for _ in range(steps):
        x = x + v * 0.01 + 0.5 * a * 1e-4
        a_new = force(x)
        v = v + 0.5 * (a + a_new) * 0.01
        a = a_new
    return x, v


def test_loop_bodies_write_into_the_window():
    rng = np.random.default_rng(0)
    x, v = rng.standard_normal(50), rng.standard_normal(50)
    assert ", zeros_like" in source(time_steps, x, v, 6)
    differential(time_steps, x, v, 6)


# ------------------------------------------------------------- where it must not


def read_before_the_write(u):
    f = np.zeros_like(u)
    s = f.sum()                       # another reader of f
    f[1:-1] = u[1:-1] * 2
    return f, s


def broadcast_value(u):
    f = np.zeros((4, u.shape[0]))
    f[1:-1] = u * 2                   # a row broadcast over the window
    return f


def cast_value(u):
    f = np.zeros(u.shape, np.float32)
    f[1:-1] = u[1:-1] * 2             # float64 cast into float32
    return f


def input_target(f, u):
    f[1:-1] = u[1:-1] * 2             # not this code's array
    return f


def returned_value(u):
    f = np.zeros_like(u)
    v = u[1:-1] * 2
    f[1:-1] = v
    return f, v                       # the value is seen by the caller


def self_read(u):
    f = u * 1.0
    f[1:] = f[:-1] * 2                # the op reads the target's memory
    return f


def gathered_window(u, idx):
    f = np.zeros_like(u)
    f[idx] = u[idx] * 2               # an index array: not a window
    return f


def small_strided_window(u):
    f = np.zeros_like(u)
    f[1:-1, 1:-1] = u[1:-1, 1:-1] * 2  # rows apart: slower into the window when small
    return f


@pytest.mark.parametrize("fn, args", [
    (small_strided_window, (np.ones((6, 5)),)),
    (read_before_the_write, (np.arange(8.0),)),
    (broadcast_value, (np.arange(8.0),)),
    (cast_value, (np.arange(8.0),)),
    (input_target, (np.zeros(8), np.arange(8.0))),
    (returned_value, (np.arange(8.0),)),
    (self_read, (np.arange(8.0),)),
    (gathered_window, (np.arange(8.0), np.array([1, 3, 5]))),
], ids=lambda v: getattr(v, "__name__", ""))
def test_forms_that_keep_the_temporary(fn, args):
    src = source(fn, *args)
    # (by keyword or, for a ufunc that takes it so, as the last positional argument)
    for target in ("zeros", "f[", "multiply["):
        assert f"out={target}" not in src and f", {target}" not in src, src
    differential(fn, *args)


# ------------------------------------------------------------- eager's outcome


def overflow_warns(u):
    f = np.ones_like(u)
    f[1:-1] = u[1:-1] * 1e308
    return f


def overflow_raises(u):
    f = np.zeros_like(u)
    with np.errstate(over="raise"):
        f[1:-1] = u[1:-1] * 1e308
    return f


def test_floating_point_conditions_as_eager():
    u = np.array([1.0, 2.0, 1e-300, 3.0, 0.5])
    assert ", ones_like[1:-1])" in source(overflow_warns, u)
    differential(overflow_warns, u)
    differential(overflow_raises, u, graphs=None)
    differential(overflow_raises, np.array([1.0, 1e-300, 2e-300, 0.0]), graphs=None)


def rows_of_a_new_grid(u):
    f = np.zeros(u.shape)
    f[1:-1] = u[2:] - u[:-2]           # whole rows of a C-ordered array: contiguous
    g = u.copy()
    g[2, 1:] = u[2, 1:] * 3            # part of one row
    return f, g


def large_strided_window(u):
    f = np.zeros_like(u)
    f[1:-1, 1:-1] = u[1:-1, 1:-1] * 2
    return f


def test_contiguous_windows_and_large_strided_ones():
    u = np.arange(40.0).reshape(8, 5)
    src = source(rows_of_a_new_grid, u)
    assert ", zeros[1:-1])" in src and ", copy_method[2, 1:])" in src, src
    differential(rows_of_a_new_grid, u, layouts=("C", "F", "strided"))
    big = np.arange(200.0 * 200).reshape(200, 200)
    assert ", zeros_like[1:-1, 1:-1])" in source(large_strided_window, big)
    differential(large_strided_window, big, layouts=("C", "F"))


def test_window_shape():
    assert window_shape((5, 6), (slice(1, -1), slice(None, -2))) == (3, 4)
    assert window_shape((5, 6), (Ellipsis, 0)) == (5,)
    assert window_shape((5,), slice(None, None, 2)) == (3,)
    assert window_shape((5,), [0, 1]) is None
    assert window_shape((5,), 7) is None


# ------------------------------------------------------------- random windows

CREATE = {
    "zeros_like": lambda u: np.zeros_like(u),
    "ones": lambda u: np.ones(u.shape, u.dtype),
    "full_like": lambda u: np.full_like(u, 7),
    "copy": lambda u: u.copy(),
    "product": lambda u: u * 3,
}
OPS = {
    "add": lambda a, b: a + b,
    "multiply": lambda a, b: a * b,
    "subtract": lambda a, b: a - b,
    "maximum": np.maximum,
    "divide": lambda a, b: a / b,
}


def program(create, op, lo, hi, step):
    """``f = create(u); f[window] = op(u[window] * 2, u[shifted window])``."""
    make, apply = CREATE[create], OPS[op]

    def fn(u):
        f = make(u)
        f[lo:hi:step] = apply(u[lo:hi:step] * 2, u[lo + 1:hi + 1 if hi != -1 else None:step])
        return f
    return fn


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(create=st.sampled_from(sorted(CREATE)), op=st.sampled_from(sorted(OPS)),
       n=st.integers(4, 40), lo=st.integers(0, 2), hi=st.sampled_from([-1, -2, -3]),
       step=st.sampled_from([None, 1, 2, 3]),
       dtype=st.sampled_from([np.float64, np.float32, np.int64, np.complex128]),
       two_d=st.booleans(), data=st.data())
def test_random_windows_match_eager(create, op, n, lo, hi, step, dtype, two_d, data):
    if op == "divide" and np.dtype(dtype).kind == "i":
        dtype = np.float64            # true division of integers: a float result
    shape = (n, 3) if two_d else (n,)
    values = data.draw(st.lists(st.sampled_from([0.0, -0.0, 1.0, -2.5, 1e300, 3.0, 7.0]),
                                min_size=int(np.prod(shape)), max_size=int(np.prod(shape))))
    u = np.array(values).reshape(shape)
    with np.errstate(over="ignore"):   # (1e300 as float32 is inf)
        u = u.astype(dtype) if np.dtype(dtype).kind != "i" else np.arange(u.size).reshape(shape) - 5
    differential(program(create, op, lo, hi, step), u, graphs=None)
