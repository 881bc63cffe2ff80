"""Round 11, ``np.roll``, ``np.stack`` and ``np.outer`` as the C calls they end in
(``backends/numpy_backend/library_calls.py``: ``roll_plan``/``roll_copies``, the
``concatenate`` of ``stack``, the ``multiply`` of ``outer``): shifts that are negative,
huge (beyond int64), zero, a multiple of the length, tuples of shifts and axes with
repeats, negative axes; 0-size, 0-d and 1-element inputs; F-ordered, negative-stride,
strided and read-only views; object, str, bytes, structured, bool, complex and
datetime dtypes; subclasses (``np.matrix``, masked arrays, a user subclass); results
written afterwards (a roll must be a copy), and stacks of mixed dtypes, shapes, axes,
``dtype=``/``casting=`` whose errors must be NumPy's own."""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round11_calls")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, np.nan, -0.0, 7.25])
M = np.arange(12.0).reshape(3, 4) - 5.5
MF = np.asfortranarray(M)
I8 = np.array([-128, 5, 127, 0], np.int8)
E = np.zeros(0)
E2 = np.zeros((0, 3))
C = np.array([1 + 2j, -0.0 - 1j, np.nan + 0j])


def _mat(rows):
    """An np.matrix (made per call: creating one warns PendingDeprecationWarning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix(rows)


def _rev(a):
    return lambda: (a.copy()[::-1],)


def _ro(a):
    def make():
        b = a.copy()
        b.flags.writeable = False
        return (b,)
    return make


def _strided(a):
    return lambda: (np.repeat(a, 2, axis=-1)[..., ::2],)


# ============================================================ roll: shifts

def _roll_pos(x):
    return np.roll(x, 2, 0) + 1


def _roll_neg(x):
    return np.roll(x, -3, 0) * 2


def _roll_zero(x):
    return np.roll(x, 0, 0) - x


def _roll_len_multiple(x):
    return np.roll(x, 12, 0) + np.roll(x, -6, 0)


def _roll_huge(x):
    return np.roll(x, 2 ** 70, 0) + 0.0


def _roll_huge_negative(x):
    return np.roll(x, -2 ** 63, 0) * 1.0


def _roll_int64_max(x):
    return np.roll(x, 2 ** 63 - 1, 0) + 1


for fn in (_roll_pos, _roll_neg, _roll_zero, _roll_len_multiple, _roll_huge,
           _roll_huge_negative, _roll_int64_max):
    case(fn, (X,), (E,), (np.array([3.0]),), _rev(X), _strided(X), _ro(X), (I8,), (C,))


def _roll_tuple(m):
    return np.roll(m, (1, -1), (0, 1)) * 2


def _roll_repeat_axis(m):
    return np.roll(m, (1, 1, -5), (1, 1, 1)) + 0


def _roll_negative_axes(m):
    return np.roll(m, (2, 3), (-1, -2)) - 1


def _roll_shift_tuple_one_axis(m):
    return np.roll(m, (1, 2), 0) + 0


def _roll_axis_out_of_range(m):
    return np.roll(m, 1, 2) + 0


def _roll_mismatched(m):
    return np.roll(m, (1, 2, 3), (0, 1)) + 0


def _roll_nested_shift(m):
    return np.roll(m, ((1, 2), (3, 4)), (0, 1)) + 0


def _roll_axis_none(m):
    return np.roll(m, 5) + 0


def _roll_bool_shift(m):
    return np.roll(m, True, 0) + 0


def _roll_list_shift(m):
    return np.roll(m, [1, -1], [0, 1]) + 0


for fn in (_roll_tuple, _roll_repeat_axis, _roll_negative_axes, _roll_shift_tuple_one_axis,
           _roll_axis_out_of_range, _roll_mismatched, _roll_nested_shift, _roll_axis_none,
           _roll_bool_shift, _roll_list_shift):
    case(fn, (M,), (MF,), (E2,), (M[::-1, ::-2],), (M.astype(np.int8),))


# ============================================================ roll: dtypes, subclasses, results

def _roll_dtype_kinds(a):
    r = np.roll(a, 1, 0)
    return r, r.dtype, r.flags.c_contiguous, r.flags.f_contiguous


case(_roll_dtype_kinds, (np.array(["a", "bb", "ccc"]),), (np.array([b"x", b"yy"]),),
     (np.array([1, "two", None], object),),
     (np.array([(1, 2.0), (3, -0.0)], dtype=[("i", "i4"), ("f", "f8")]),),
     (np.array([True, False, False]),), (C,),
     (np.array(["2020-01-01", "NaT"], dtype="datetime64[D]"),), (MF,), (M.T,))


def _roll_zero_d(a):
    return np.roll(a, 1, 0)


case(_roll_zero_d, (np.float64(3.0),), (np.array(2.0),), (X,))


def _roll_matrix(a):
    r = np.roll(a, 1, 0)
    return type(r).__name__, np.asarray(r)


case(_roll_matrix, lambda: (_mat([[1.0, 2.0], [3.0, 4.0]]),),
     (np.ma.masked_array([1.0, 2.0, 3.0], mask=[False, True, False]),), (M,))


def _roll_result_written(x):
    r = np.roll(x, 1, 0)
    r[0] = 99.0
    return r, x


case(_roll_result_written, (X,), (MF,), _rev(X))


def _roll_then_written_input(x):
    r = np.roll(x, 2, 0)
    x[...] = -1
    return r


case(_roll_then_written_input, (X,), (M,), (MF,))


def _roll_jacobi(u):
    return 0.25 * (np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1)
                   + np.roll(u, -1, 1))


case(_roll_jacobi, (M,), (MF,), (np.ones((1, 1)),), (np.zeros((2, 0)),),
     (M.astype(np.float32),), (M[:, ::-1],))


def _roll_of_roll_same(x):
    a = np.roll(x, 1, 0)
    b = np.roll(a, -1, 0)
    return a is b, np.shares_memory(a, x), b


case(_roll_of_roll_same, (X,), (M,))


# ============================================================ stack

def _stack_mixed_dtypes(a, b):
    s = np.stack((a, b))
    return s, s.dtype


case(_stack_mixed_dtypes, (X, X.astype(np.float32)), (I8, np.array([1, 2, 3, 4], np.uint64)),
     (I8, np.array([True, False, True, True])), (X, C.repeat(2)),
     (np.array(["a", "b"]), np.array([1, 2])), (X, X.astype(object)))


def _stack_shapes_differ(a, b):
    try:
        return np.stack([a, b])
    except ValueError as e:
        return "caught", str(e)


case(_stack_shapes_differ, (X, X[:3]), (M, M.T), (E, E), (E2, np.zeros((3, 0))))


def _stack_axes(a):
    return [np.stack((a, a + 1), axis=k) for k in (0, 1, -1, -2)]


case(_stack_axes, (X,), (np.zeros(0),), (np.array([5]),))


def _stack_bad_axis(a):
    return np.stack((a, a), axis=3)


case(_stack_bad_axis, (X,), (M,))


def _stack_dtype_kw(a):
    return np.stack((a, a * 2), dtype=np.int8, casting="unsafe"), np.stack((a, a), dtype=float)


case(_stack_dtype_kw, (X[:3] * 100,), (I8,), (M,))


def _stack_casting_error(a):
    return np.stack((a, a), dtype=np.int32)


case(_stack_casting_error, (X,), (I8,))


def _stack_bad_casting(a):
    return np.stack((a, a), casting="nope")


case(_stack_bad_casting, (X,))


def _stack_one_and_many(a):
    return np.stack([a]), np.stack([a] * 5, axis=1)


case(_stack_one_and_many, (X,), (M,), (MF,))


def _stack_empty_list(a):
    try:
        return np.stack([])
    except ValueError as e:
        return str(e), a.sum()


case(_stack_empty_list, (X,))


def _stack_views(a):
    s = np.stack((a[::-1], a.T if a.ndim > 1 else a, a))
    s[0] = 0
    return s, a


case(_stack_views, (X,), (np.ones((3, 3)),), (np.asfortranarray(np.ones((2, 2))),))


def _stack_zero_d(a, b):
    return np.stack((a, b)) + 1


case(_stack_zero_d, (np.array(1.0), np.array(2)), (np.float32(1), np.int8(3)), (1.5, 2))


def _stack_structured(a):
    return np.stack((a, a))


case(_stack_structured, (np.array([(1, 2.0)], dtype=[("i", "i4"), ("f", "f8")]),),
     (np.array(["x", "yy"]),))


def _stack_matrix(a):
    r = np.stack((a, a))
    return type(r).__name__, np.asarray(r)


case(_stack_matrix, lambda: (_mat([[1.0, 2.0]]),),
     (np.ma.masked_array([1.0, 2.0], mask=[True, False]),))


def _stack_generator(a):
    return np.stack(v * 2 for v in (a, a))


case(_stack_generator, (X,))


# ============================================================ outer

def _outer_basic(a, b):
    o = np.outer(a, b)
    return o, o.dtype, o.flags.c_contiguous


case(_outer_basic, (X, X[:3]), (M, X[:2]), (MF, MF), (I8, I8), (E, X))
case(_outer_basic, (X, np.float32(2.0)), (C, X[:2]),
     (np.array([True, False]), np.array([True, True])), (X[::-1], M[::2, ::-1]),
     name="outer_basic_more")


def _outer_zero_d(a, b):
    return np.outer(a, b) - 1


case(_outer_zero_d, (np.array(2.0), X), (3, X), (X, 0.5))


def _outer_object(a, b):
    return np.outer(a, b)


case(_outer_object, (np.array([1, 2], object), np.array([3, 4.5], object)),
     (np.array(["a", "b"]), np.array([1, 2])),
     (np.array([2 ** 62, 3], np.int64), np.array([4, 1], np.int64)))


def _outer_matrix(a, b):
    r = np.outer(a, b)
    return type(r).__name__, np.asarray(r)


case(_outer_matrix, lambda: (_mat([[1.0, 2.0]]), _mat([[3.0], [4.0]])),
     (np.ma.masked_array([1.0, 2.0], mask=[True, False]), X[:2]))


def _outer_out_kw(a, b):
    out = np.zeros((a.size, b.size))
    r = np.outer(a, b, out=out)
    return r is out, out


case(_outer_out_kw, (X[:3], X[:2]), (I8[:2], X[:2]))


def _outer_overflow_warn(a):
    return np.outer(a, a)


case(_outer_overflow_warn, (np.array([1e200, -1e200, 0.0]),), (np.array([np.inf, 0.0]),),
     (np.array([2 ** 40, 2 ** 40], np.int64),))


def _outer_errstate_raise(a):
    with np.errstate(all="raise"):
        try:
            return np.outer(a, a)
        except FloatingPointError as e:
            return "fpe", str(e)


case(_outer_errstate_raise, (np.array([1e200, 1.0]),), (np.array([np.inf, 0.0]),), (X[:3],))


def _outer_aliased_write(a):
    o = np.outer(a, a)
    a[0] = 100.0
    return o, np.outer(a, a)


case(_outer_aliased_write, (X[:3].copy(),), (M,))


# ============================================================ mixed

def _roll_stack_outer(a, b):
    s = np.stack((np.roll(a, 1, 0), np.roll(b, -1, 0)), axis=-1)
    return np.outer(s[:, 0], s[:, 1]).sum(), s


case(_roll_stack_outer, (X, X[::-1]), (I8, I8.astype(np.float64)), (E, E), (C, C))


class Sub(np.ndarray):
    pass


def _subclass_through(a):
    r = np.roll(a, 1, 0)
    s = np.stack((a, a))
    o = np.outer(a, a)
    return type(r).__name__, type(s).__name__, type(o).__name__, np.asarray(o)


case(_subclass_through, lambda: (X.view(Sub),), (X,))


# ============================================================ shifts, axes, dtypes as arguments

def _roll_arg_shift(x, s):
    return np.roll(x, s, 0) * 1


case(_roll_arg_shift, (X, 1), (X, 2), (X, -7), (X, True), (X, np.int64(3)), (X, 2 ** 65),
     (X, (1,)))


def _roll_arg_axis(m, s, ax):
    return np.roll(m, s, ax) + 0


case(_roll_arg_axis, (M, 1, 0), (M, 1, 1), (M, 1, -1), (M, (1, 2), (0, 1)), (M, 1, 2),
     (M, 1, None), (M, 1, (0, 0)))


def _roll_dynamic(x):
    return np.roll(x, 2, 0) + np.roll(x, -1, 0)


case(_roll_dynamic, (np.arange(5.0),), (np.arange(6.0),), (np.arange(7.0),),
     (np.arange(1.0),), (np.zeros(0),), (np.arange(2.0),))


def _stack_arg_axis(a, b, ax):
    return np.stack((a, b), axis=ax)


case(_stack_arg_axis, (X, X, 0), (X, X, 1), (X, X, -1), (X, X, 2), (X, X, -3),
     (X, X, np.int64(1)), (X, X, 1.0))


def _stack_arg_dtype(a, dt):
    return np.stack((a, a * 3), dtype=dt, casting="unsafe")


case(_stack_arg_dtype, (X, np.int8), (X, "f4"), (X, np.dtype("c16")), (X, bool), (X, "nope"),
     (X, None))


def _stack_list_mutated(a):
    parts = [a, a + 1]
    s = np.stack(parts)
    parts.append(a)
    return s, len(parts), np.stack(parts, axis=1)


case(_stack_list_mutated, (X,), (M,))


def _outer_of_views(a):
    return np.outer(a[::-1], a[1::2]), np.outer(a.T, a) if a.ndim > 1 else np.outer(a, a[:1])


case(_outer_of_views, (X,), (M,), (MF,))


def _roll_inplace_assign(x):
    x[...] = np.roll(x, 1, 0)
    x[:] = np.roll(x, -1, 0) + x
    return x


case(_roll_inplace_assign, (X,), (M,), (MF,), lambda: (X.copy()[::-1],))


def _roll_stack_outer_int_overflow(a):
    r = np.roll(a, 1, 0)
    return np.outer(r, a), np.stack((r, a)) * 2


case(_roll_stack_outer_int_overflow, (I8,), (np.array([2 ** 62, -2 ** 63], np.int64),),
     (np.array([255, 1], np.uint8),))


def _stack_out_kw(a):
    out = np.empty((2,) + a.shape, dtype=a.dtype)
    r = np.stack((a, a[::-1]), out=out)
    return r is out, out


case(_stack_out_kw, (X,), (M,))


def _stack_out_aliases_input(a):
    out = np.zeros((2, a.shape[0]))
    try:
        np.stack((out[0], a), out=out)
    except ValueError as e:
        return "error", str(e)
    return out


case(_stack_out_aliases_input, (X,), (X[:2],))


def _roll_read_only_result(x):
    r = np.roll(x, 1, 0)
    return r.flags.writeable, r.flags.owndata, r.base is None


case(_roll_read_only_result, _ro(X), (X,), (np.broadcast_to(X[:1], (4,)),))
