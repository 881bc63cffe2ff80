"""Round 21, tuples of ints that change between calls (``policy.note_tuple``;
continued from ``prog_round21_calls.py``, the same category): as shapes of ``zeros``,
``reshape`` arguments (with ``-1``, impossible ones), indices and store indices (with
``True``, NumPy ints, out of range), ``transpose`` and reduction axes, slice bounds,
``range`` arguments, ``tile``/``pad``/``broadcast_to`` shapes, Python tuple operations,
negative and huge items, namedtuples, dict keys, compared with ``x.shape``, grown inside;
and islands calling functions made anew on every pass (``eval``, ``def`` with its
``__code__`` swapped, ``types.FunctionType`` of alternating code).

    >>> def _reshape(x, t):
    ...     return x.reshape(t)         # t: (4, 6), (6, 4), (-1, 8), (2, -1, 3)...
"""

import types
from collections import namedtuple

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round21_calls")
case = reg.case
scenario = reg.scenario


# ------------------------------------------------------------ tuples of ints that change

def _zeros_shape(t):
    a = np.zeros(t)
    return a.shape, a.ndim, a.size


case(_zeros_shape, ((2, 3),), ((2, 4),), ((3, 4),), ((2, 3, 1),), ((0, 5),), ((2, -1),),
     name="tuple_as_shape")


def _reshape(x, t):
    return x.reshape(t)


Y = np.arange(24.0)
case(_reshape, (Y, (4, 6)), (Y, (6, 4)), (Y, (-1, 8)), (Y, (2, -1, 3)), (Y, (5, 5)),
     (Y, (-1, -1)), name="tuple_as_reshape")


def _index(x, t):
    return x[t]


M = np.arange(12.0).reshape(3, 4)
case(_index, (M, (1, 2)), (M, (2, 1)), (M, (-1, 0)), (M, (3, 0)), (M, (True, 1)),
     (M, (np.int64(1), 2)), name="tuple_as_index")


def _index_write(x, t, v):
    x[t] = v
    return x


case(_index_write, (M, (1, 2), 9.0), (M, (2, 3), -1.0), (M, (0, -4), 5.0),
     (M, (False, 0), 7.0), name="tuple_as_store_index")


def _bool_then_int(x, t):
    return x[t].shape, x[t].sum()


case(_bool_then_int, (M, (1, 1)), (M, (True, 1)), (M, (1, True)), (M, (True, True)),
     name="tuple_bool_items")


def _transpose(x, t):
    return np.transpose(x, t).shape, x.sum(axis=t[:1])


T3 = np.arange(24.0).reshape(2, 3, 4)
case(_transpose, (T3, (0, 1, 2)), (T3, (2, 0, 1)), (T3, (1, 2, 0)), (T3, (0, 0, 1)),
     (T3, (-1, 0, 1)), name="tuple_as_axes")


def _sum_axes(x, t):
    return x.sum(axis=t), x.max(axis=t)


case(_sum_axes, (T3, (0,)), (T3, (1,)), (T3, (0, 2)), (T3, (2, 1)), (T3, (1, 1)),
     name="tuple_as_reduction_axes")


def _slice_bounds(x, t):
    a, b = t
    return x[a:b], x[a:b].size, x[b:a]


case(_slice_bounds, (Y, (1, 5)), (Y, (2, 9)), (Y, (-3, 30)), (Y, (5, 5)), (Y, (20, 3)),
     name="tuple_as_slice_bounds")


def _range_of(t):
    return [i * 2 for i in range(*t)], len(range(*t))


case(_range_of, ((1, 5),), ((1, 9, 2),), ((9, 1, -3),), ((0, 5, 0),), name="tuple_as_range")


def _tile_pad(x, t):
    return np.tile(x, t).shape, np.pad(x, t).shape, np.broadcast_to(x[:1], t).shape


case(_tile_pad, (np.ones(3), (2, 3)), (np.ones(3), (1, 4)), (np.ones(3), (3, 2)),
     (np.ones(3), (0, 2)), name="tuple_as_tile_pad_broadcast")


def _tuple_math(t):
    return len(t), sum(t), t * 2, t + (1,), max(t), np.prod(t), t[::-1], t.index(t[-1])


case(_tuple_math, ((1, 2),), ((3, 4),), ((5, 6, 7),), ((2, 2),), name="tuple_python_ops")


def _tuple_identity(t, x):
    y = np.ones(t) * x
    return t, y.shape is t, y.shape == t


case(_tuple_identity, ((2, 3), 1.0), ((2, 4), 2.0), ((3, 3), 3.0), name="tuple_returned_itself")


def _huge_items(t):
    return np.zeros(t).shape


case(_huge_items, ((2, 3),), ((2, 4),), ((2**40, 2**40),), ((2**70, 1),), ((-2, 3),),
     name="tuple_huge_and_negative_items")


Shape = namedtuple("Shape", "rows cols")


def _named_shape(t, x):
    return x.reshape(t).shape, t.rows * 2, type(t).__name__


case(_named_shape, (Shape(3, 4), np.arange(12.0)), (Shape(4, 3), np.arange(12.0)),
     (Shape(6, 2), np.arange(12.0)), (Shape(2, 6), np.arange(12.0)), name="namedtuple_shape")


def _mixed_types(t):
    return np.zeros(t).shape, [type(v).__name__ for v in t]


case(_mixed_types, ((2, 3),), ((np.int64(2), 3),), ((2, np.int32(4)),), ((True, 2),),
     ((2.0, 3),), name="tuple_item_types")


def _loop_over_shape(x, t):
    acc = 0
    for d in t:
        acc = acc * 10 + d
    return x.reshape(t).sum(axis=-1), acc


case(_loop_over_shape, (Y, (2, 12)), (Y, (3, 8)), (Y, (2, 3, 4)), (Y, (4, 3, 2)),
     name="tuple_looped_and_reshaped")


def _tuple_in_dict(cache, t):
    if t not in cache:
        cache[t] = np.zeros(t)
    cache[t] += 1
    return cache[t].sum(), len(cache)


@scenario
def s_tuple_as_dict_key(r):
    cache = {}
    f = r.compile(_tuple_in_dict)
    for t in ((2, 3), (2, 4), (2, 3), (3, 3), (2, 4), (True, 3), (1, 3)):
        r.call(f, cache, t)
    r.see("keys", list(cache))


def _shape_compare(x, t):
    if x.shape == t:
        return "same"
    if x.shape[0] == t[0]:
        return "rows"
    return x.reshape(t[::-1]).shape if x.size == np.prod(t) else "other"


case(_shape_compare, (M, (3, 4)), (M, (3, 5)), (M, (4, 3)), (M, (2, 6)), (M, (1, 1)),
     name="tuple_compared_with_shape")


def _grown_tuple(x, t):
    t = t + (1,)
    return x.reshape(t).shape, t


case(_grown_tuple, Args(Y, (4, 6)), Args(Y, (3, 8)), Args(Y, t=(24,)), name="tuple_grown_inside")


# ------------------------------------- (calls) functions made anew on every pass

X = np.array([1.0, -2.0, 0.5, 4.0])


def _eval_lambdas(x, ks):
    """A new code object each pass: the island's memo (by function identity, held
    weakly) may see a new function at a dead one's address."""
    out = []
    for k in ks:
        h = eval(f"lambda v: v * {k}")
        x = h(x)
        out.append(float(x.sum()))
    return x, out


case(_eval_lambdas, (X, [0.5, 2.0, 3.0, 0.25, 1.5, 7.0]), (X, [1.0, -1.0] * 5),
     name="eval_lambdas_each_pass")


def _fresh_defs_code_swapped(x, n):
    out = []
    i = 0
    while float(np.abs(x).max()) < 1e6 and i < n:
        def h(v, i=i):
            return v * (i + 1)
        if i % 2:
            h.__code__ = (lambda v, i=0: v - i).__code__
        x = h(x)
        out.append(float(x.sum()))
        i += 1
    return x, out


case(_fresh_defs_code_swapped, (X, 8), (X, 3), name="fresh_defs_code_swapped")


def _fresh_functions(x, n):
    out = []
    i = 0
    while float(np.abs(x).max()) < 1e9 and i < n:
        code = (lambda v: v * 2).__code__ if i % 2 else (lambda v: v + 1).__code__
        f = types.FunctionType(code, {"np": np})
        x = f(x)
        out.append(float(x.sum()))
        i += 1
    return x, out


case(_fresh_functions, (X, 9), name="fresh_functions_alternate_code")
