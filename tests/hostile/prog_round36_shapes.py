"""Round 36, shapes computed from array data (``dynamo/ops/computed_shapes.py``):
``np.zeros(int(a.sum()))``, ``np.empty(int(x.max()) + 1)`` (filled before it is
read), ``np.arange``/``np.eye``/``np.full``/``np.ones`` of such ints, negative counts
(NumPy's ValueError, as eager), float sums truncated by ``int()`` (-0.5 -> 0, NaN:
ValueError, inf: OverflowError), counts past int64 (OverflowError) and past NumPy's
dimension limit, ``np.repeat`` by counts (negative: ValueError), ``np.bincount`` with
``minlength`` from the data (negative: ValueError), and the computed length read back
by Python (``len``, ``.shape``, a branch, a loop over it).

    >>> def _zeros_of_sum(a):
    ...     z = np.zeros(int(a.sum()))
    ...     return z, z.shape
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round36_shapes")
NAN, INF = math.nan, math.inf


# ---------------------------------------------------------------- the traced functions
def _zeros_of_sum(a):
    z = np.zeros(int(a.sum()))
    return z, z.shape


def _empty_of_max(a):
    e = np.empty(int(a.max()) + 1)
    e[:] = 2.5
    return e, len(e)


def _arange_of_sum(a):
    return np.arange(int(a.sum())) * 2


def _eye_of_max(a):
    return np.eye(int(a.max()) + 1)


def _full_2d(a):
    return np.full((int(a.max()), 2), 1.5)


def _ones_cols(a):
    o = np.ones((2, int(a.sum())))
    return o.sum(axis=1), o.shape[1]


def _negative_count(a):            # negative: NumPy's ValueError when the graph runs
    try:
        return np.zeros(int(a.sum()) - 4)
    except ValueError as e:
        return str(e)


def _count_times_big(a):           # past int64 or NumPy's dimension limit
    try:
        return np.zeros(int(a.min()) * 2**62).shape
    except (ValueError, OverflowError, MemoryError) as e:
        return type(e).__name__


def _length_branch(a):
    z = np.zeros(int(a.sum()))
    if len(z) > 3:
        return z + 1.0, "long"
    return z - 1.0, "short"


def _length_loop(a):
    z = np.zeros(int(a.max()) + 1)
    for k in range(len(z)):
        z[k] = k * 0.5
    return z


def _two_from_one(a):              # one count, two shapes: broadcast together
    k = int(a.max()) + 1
    return np.zeros((k, 2)) + np.arange(k)[:, None]


def _count_and_data(a):
    k = int(a.sum())
    z = np.zeros(k)
    z[: min(k, 2)] = a[:1].astype(np.float64).sum() if a.size else 0.0
    return z, k * 3


def _sliced_result(a):
    z = np.arange(int(a.sum()))
    return z[1:], z[-2:], z[::2]


def _reshaped_result(a):
    z = np.arange(2 * int(a.max()))
    return z.reshape(2, -1)


def _repeat_counts(a):
    return np.repeat(np.arange(a.size) * 1.5, a)


def _repeat_scalar(a):
    return np.repeat(a, int(a.max()))


def _bincount_minlength(a):
    return np.bincount(a, minlength=int(a.max()) + 2)


def _bincount_weights(a):
    return np.bincount(a, weights=a * 0.5, minlength=int(a.sum()))


def _float_truncation(x):          # int() of a float sum truncates toward zero
    try:
        n = int(x.sum())
    except (ValueError, OverflowError) as e:
        return type(e).__name__
    return np.zeros(max(n, 0)), n


def _float_max_shape(x):
    return np.ones(int(x.max() * 2))


INT_FNS = (_zeros_of_sum, _empty_of_max, _arange_of_sum, _eye_of_max, _full_2d, _ones_cols,
           _negative_count, _count_times_big, _length_branch, _length_loop, _two_from_one,
           _count_and_data, _sliced_result, _reshaped_result)
COUNT_FNS = (_repeat_counts, _repeat_scalar, _bincount_minlength, _bincount_weights)
FLOAT_FNS = (_float_truncation, _float_max_shape, _zeros_of_sum, _length_branch)

INT_SETS = {
    "int64": [(np.array([1, 2]),), (np.array([0, 0]),), (np.array([3, 4, 0]),),
              (np.array([5]),), (np.array([2, 2]),)],
    "negative": [(np.array([2, 3]),), (np.array([-3, 1]),), (np.array([0, -1]),),
                 (np.array([6, 1]),)],
    "small_ints": [(np.array([3, 1], np.int8),), (np.array([100, 100], np.int8),),
                   (np.array([2], np.uint8),), (np.array([True, True, False]),)],
}
for _i, _fn in enumerate(INT_FNS):
    for _j, (_sname, _sets) in enumerate(INT_SETS.items()):
        if _j == 2 and _i % 2:
            continue
        reg.case(_fn, *_sets, calls=1, name=f"{_fn.__name__[1:]}_{_sname}")

COUNT_SETS = {
    "counts": [(np.array([1, 0, 2]),), (np.array([0, 0, 0]),), (np.array([3, 1]),),
               (np.array([0, 4, 1, 1]),)],
    "negative": [(np.array([1, 2]),), (np.array([2, -1]),), (np.array([0, 1]),)],
}
for _fn in COUNT_FNS:
    for _sname, _sets in COUNT_SETS.items():
        reg.case(_fn, *_sets, calls=1, name=f"{_fn.__name__[1:]}_{_sname}")

FLOAT_SETS = {
    "floats": [(np.array([1.7, 1.0]),), (np.array([-0.5, 0.2]),), (np.array([2.99]),),
               (np.array([-1.5, -2.0]),), (np.array([0.9, 0.9, 0.9]),)],
    "nan_inf": [(np.array([1.0, 2.0]),), (np.array([NAN, 1.0]),), (np.array([INF]),),
                (np.array([-0.0]),)],
}
for _fn in FLOAT_FNS:
    for _sname, _sets in FLOAT_SETS.items():
        reg.case(_fn, *_sets, calls=1, name=f"{_fn.__name__[1:]}_{_sname}")


# ---------------------------------------------------------------- scenarios
def _s_count_in_a_loop(r):
    """A computed shape per loop trip, each from a different row."""
    def f(A):
        out = []
        for i in range(A.shape[0]):
            out.append(np.zeros(int(A[i].sum())))
        return out
    g = r.compile(f)
    for a in (np.array([[1, 1], [0, 2]]), np.array([[0, 0]]), np.array([[3, 0], [1, -1]]),
              np.array([[2, 0], [0, 1], [1, 1]])):
        r.call(g, a)


def _s_count_stored(r):
    """The computed array is stored on an object and read by the next call."""
    class Box:
        pass

    def f(box, a):
        prev = getattr(box, "z", None)
        box.z = np.zeros(int(a.max()) + 1)
        return None if prev is None else prev.shape
    g = r.compile(f)
    box = Box()
    for a in (np.array([1, 2]), np.array([0]), np.array([4, 0]), np.array([1, 2])):
        r.call(g, box, a)
    r.see("box", box.z.shape)


reg._add("count_in_a_loop", _s_count_in_a_loop, "")
reg._add("count_stored", _s_count_stored, "")


# ---------------------------------------------------------------- where the count sits
def _arange_start(a):              # the count is arange's start, not its stop
    return np.arange(int(a.sum()), 6)


def _arange_both(a):
    k = int(a.max())
    return np.arange(k - 3, k), np.arange(1, k + 1, 2)


def _arange_step(a):
    return np.arange(0, 10, max(int(a.max()), 1))


def _arange_dtype(a):              # a count past int8 with an int8 dtype
    try:
        return np.arange(int(a.sum()) + 120, dtype=np.int8)
    except (ValueError, OverflowError) as e:
        return type(e).__name__


def _eye_rect(a):                  # the count as eye's M and k
    k = int(a.max())
    return np.eye(3, k + 1), np.eye(k + 1, 2, k=1)


def _full_of_count(a):             # the count is the fill value too
    k = int(a.sum())
    return np.full(k, k), np.full((2, k), k * 0.5)


def _keyword_shape(a):
    k = int(a.max())
    return np.zeros(shape=(k, 1)), np.ones(shape=k, dtype=np.int8)


def _list_shape_order(a):
    k = int(a.max())
    z = np.zeros([2, k], order="F")
    return z, z.flags.f_contiguous


def _two_counts(a):                # two different counts in one shape
    return np.zeros((int(a.max()), int(a.sum())))


def _identity_of_count(a):
    return np.identity(int(a.max()))


def _zeros_like_count(a):          # *_like does not take the count; np.resize does
    z = np.zeros(int(a.sum()))
    return np.ones_like(z), np.resize(a, int(a.max()) + 1)


def _tile_count(a):
    return np.tile(np.array([1.0, 2.0]), int(a.max()))


def _linspace_count(a):
    return np.linspace(0.0, 1.0, int(a.max()) + 1)


EXTRA_FNS = (_arange_start, _arange_both, _arange_step, _arange_dtype, _eye_rect,
             _full_of_count, _keyword_shape, _list_shape_order, _two_counts,
             _identity_of_count, _zeros_like_count, _tile_count, _linspace_count)
for _fn in EXTRA_FNS:
    for _sname in ("int64", "negative"):
        reg.case(_fn, *INT_SETS[_sname], calls=1, name=f"{_fn.__name__[1:]}_{_sname}")
