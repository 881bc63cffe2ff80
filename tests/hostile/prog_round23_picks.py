"""Round 23, Python's ``max``/``min`` of a graph value and a Python number
(``dynamo/variables/iteration.py`` ``_select``, ``ChosenNumberVariable``;
``backends/numpy_backend/scalar_select.py`` ``pick``): Python returns one of its
arguments itself, the first of the largest (``max(z, 1.0)`` of ``z == 1.0`` is ``z``,
``max(1.0, z)`` the float), and compares with ``>``/``<``: NaN is never larger, so
``max(nan, 1.0)`` is the NaN and ``max(1.0, nan)`` is ``1.0``; ``-0.0 == 0.0``, so the
first of them is kept with its sign. The programs mix 0-d arrays, NumPy scalars of
every width (a float32 against ``0.1``, a float16 against ``1e10``, a uint64 against
``-1``, an int64 against ``2 ** 70``), bools, complex (which cannot be ordered), three
arguments, ``key=``, ``default=``, iterables, and use the choice: returned, stored,
compared with ``is``, written in place, used in arithmetic and in a loop.

    >>> def _max_zero_d(u):
    ...     z = u.sum(keepdims=True).reshape(())
    ...     return max(z, 1.0), min(2.5, z)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round23_picks")
case = reg.case
scenario = reg.scenario


def zd(u):
    return u.sum(keepdims=True).reshape(())


F8 = np.array([0.25, 0.5, 0.25])                # sum 1.0: ties with 1.0
F4 = F8.astype(np.float32)
NEG0 = np.array([-0.0, -0.0])                   # sum -0.0
NAN = np.array([np.nan, 1.0])
INF = np.array([np.inf, 1.0])
I8 = np.array([1, 0], np.int8)
U64 = np.array([2 ** 63, 1], np.uint64)
I64 = np.array([2 ** 62, 2 ** 62 - 1], np.int64)
BO = np.array([True, False])
F2 = np.array([1.0, 0.0], np.float16)
C16 = np.array([1 + 1j, 0j])
NUMS = ((F8,), (F4,), (NEG0,), (NAN,), (INF,), (I8,), (F2,))
WIDE = ((U64,), (I64,), (BO,), (F8 * 3,))


def _max_zero_d(u):
    z = zd(u)
    return max(z, 1.0), min(2.5, z), max(1.0, z), min(z, 1.0)


def _max_scalar(u):
    s = u.sum()
    return max(s, 1.0), min(1.0, s), max(1.0, s), min(s, 1.0)


def _max_int_number(u):
    s = u.sum()
    return max(s, 1), min(1, s), max(0, zd(u)), min(zd(u), 0)


def _max_zero(u):
    s = u.sum()
    return max(s, 0.0), max(0.0, s), min(s, -0.0), min(-0.0, s), max(s, -0.0)


def _max_nan_number(u):
    s = u.sum()
    nan = float("nan")
    return max(s, nan), max(nan, s), min(s, nan), min(nan, zd(u))


def _max_inf(u):
    s = u.max()
    return max(s, float("inf")), min(s, -float("inf")), max(-float("inf"), zd(u))


def _max_inexact_number(u):
    s = u.sum()
    return max(s, 0.1), min(s, 1e10), max(s, 1e-40), max(s, 2 ** 53 + 1)


def _max_huge_int(u):
    s = u.sum()
    return max(s, 2 ** 70), min(s, -2 ** 70), max(s, 2 ** 63), min(s, -1)


def _max_bool(u):
    s = u.max()
    return max(s, True), min(s, False), max(False, s), max(s, 0.5)


for _fn in (_max_zero_d, _max_scalar, _max_int_number, _max_zero, _max_nan_number, _max_inf,
            _max_inexact_number):
    case(_fn, *NUMS)
case(_max_huge_int, *WIDE, (I8,), (F8,))
case(_max_bool, (BO,), (I8,), (F8,), (F2,))
for _fn in (_max_zero_d, _max_scalar, _max_int_number):
    case(_fn, *WIDE, name=_fn.__name__.removeprefix("_") + "_wide")


def _max_complex(u):
    return max(u.sum(), 1.0)


case(_max_complex, (C16,), (F8,))


def _chosen_identity(u):
    z = zd(u)
    m = max(z, 1.0)
    return m is z, type(m).__name__, m


def _chosen_then_written(u):
    z = zd(u)
    m = max(z, -1.0)
    m += 1
    return z, m


def _chosen_times_array(u):
    return u * max(zd(u), 1.0), u * min(u.sum(), 0.5)


def _chosen_in_dict(u):
    return {"hi": max(zd(u), 1.0), "lo": min(1.0, u.sum()), "s": max(u.max(), 0)}


def _chosen_compared(u):
    m = max(u.sum(), 1.0)
    return m == 1.0, m > 0.5, float(m)


def _chosen_as_index(u):
    k = max(u.argmax(), 1)
    return u[k], k


def _chosen_as_bound(u):
    n = min(u.argmax() + 1, 2)
    return u[:n].copy()


def _chosen_printed(u):
    m = max(zd(u), 1.0)
    print("chosen", m, type(m).__name__)
    return m


for _fn in (_chosen_identity, _chosen_then_written, _chosen_times_array, _chosen_in_dict,
            _chosen_compared, _chosen_printed):
    case(_fn, *NUMS)
case(_chosen_as_index, (F8,), (I8,), (NAN,))
case(_chosen_as_bound, (F8,), (I8,), (NAN,))


def _three_args(u):
    s = u.sum()
    return max(s, 1.0, zd(u)), min(0.5, s, 2), max(u[0], u[-1], 0.0)


def _list_argument(u):
    s = u.sum()
    return max([s, 1.0]), min((1.0, s)), max([u[0], u[-1]])


def _key_argument(u):
    s = u.sum()
    return max(s, -3.0, key=abs), min(s, -3.0, key=lambda v: -v)


def _default_argument(u):
    return max([], default=u.sum()), min([u.sum()], default=1.0)


def _array_itself(u):
    return max(u[:1], 0.5)


def _two_elements(u):
    return max(u, 0.5)


case(_three_args, *NUMS)
case(_list_argument, *NUMS)
case(_key_argument, *NUMS[:5])
case(_default_argument, *NUMS[:5])
case(_array_itself, *NUMS[:5])
case(_two_elements, *NUMS[:5])


def _clamp_loop(x):
    lo = x[0]
    for v in x[1:]:
        lo = min(lo, v)
    return lo, type(lo).__name__


def _relu_unrolled(x):
    return [max(v, 0.0) for v in x]


def _running_max(x):
    best = -1.0
    for i in range(len(x)):
        best = max(best, x[i])
    return best


LOOP = ((np.array([3.0, -0.0, 0.0, 2.0]),), (np.array([np.nan, 1.0, 2.0, 0.0]),),
        (np.array([1.0, np.nan, 5.0, -1.0]),), (np.array([1, 2, 0, -5], np.int32),))
case(_clamp_loop, *LOOP)
case(_relu_unrolled, *LOOP)
case(_running_max, *LOOP)


def _coordinate_descent(x, lam):
    w = np.zeros(len(x))
    for j in range(len(x)):
        r = x[j] - lam
        w[j] = max(r, 0.0) - max(-x[j] - lam, 0.0)
    return w


case(_coordinate_descent, (np.array([1.0, -2.0, 0.1, 0.0]), 0.5),
     (np.array([1.0, -2.0, 0.1, 0.0], np.float32), 0.5),
     (np.array([np.nan, -0.0, 0.5, -0.5]), 0.5))


def _where_scalar(u):
    s = u.sum()
    return np.where(s > 0.5, s, 0.5)[()], np.where(s < 0, 0, s)[()]


def _where_scalar_python_first(u):
    s = u.max()
    return np.where(s > 1.0, 1.0, s)[()], np.where(s != s, -0.0, s)[()]


case(_where_scalar, *NUMS)
case(_where_scalar_python_first, *NUMS)


def _max_under_errstate(u):
    with np.errstate(invalid="raise"):
        return max(u.sum(), 1.0), min(zd(u), 0.0)


case(_max_under_errstate, *NUMS)


class _Number:
    def __init__(self, v):
        self.v = v

    def __gt__(self, other):
        return self.v > other

    def __lt__(self, other):
        return self.v < other


def _max_with_object(u, o):
    return max(u.sum(), o).__class__.__name__, min(o, zd(u)).__class__.__name__


case(_max_with_object, (F8, _Number(0.5)), (F8, _Number(5.0)), (NAN, _Number(0.0)))


def _max_numpy_constant(u):
    s = u.sum()
    return max(s, np.float32(1)), min(np.int8(1), s), max(zd(u), np.float64(-0.0))


def _max_two_zero_d(u):
    z, w = zd(u), u[..., 0]
    return max(z, w), min(w, z), max(z, w) is z


def _max_in_try(u):
    try:
        return max(u.sum(), "a")
    except TypeError as e:
        return str(e)


def _sorted_members(u):
    return sorted([u.sum(), 1.0, zd(u)]), sorted((1.0, u.max()), reverse=True)


def _max_then_view_written(u):
    z = u[..., 0]
    m = max(z, 0.5)
    u[0] = 100.0
    return m, z


def _max_abs_python(u):
    return max(abs(u.sum()), 0.5), min(-u.max(), round(0.4))


case(_max_numpy_constant, *NUMS)
case(_max_two_zero_d, *NUMS)
case(_max_in_try, *NUMS[:4])
case(_sorted_members, *NUMS[:5])
case(_max_then_view_written, *NUMS[:5])
case(_max_abs_python, *NUMS)
