"""Round 44, quiet sym ints and float floors. *Quiet sym ints*
(``dynamo/ops/quiet_sym_ints.py``: an unread ``i // 2`` over a loop's trip is dead code,
only ``+ - *``, ``abs``, ``max``/``min`` and ``//``/``%`` by a nonzero constant are
quiet): unread ``i // d`` and ``i % d`` with ``d`` an argument that becomes 0,
``divmod``, ``pow(i, 2, d)``, ``1 << (i - k)`` (negative shift count), ``math.comb``
of a negative, ``range(0, i, d)``, ``np.empty(n - 5)`` of a negative size, sizes read
as ``len(x) - 5`` that go negative. *Float floors* (``dynamo/symbolic/float_floors.py``:
``math.floor/ceil/trunc``/``int()`` of a float made from one changing int): step
counters past ``2 ** 53`` (``k / 3`` is correctly rounded from the int, not from
``float(k)``), negative counters (``ceil`` of ``-0.25``), products near ``.5``,
floats as arguments: inf (OverflowError), NaN (ValueError), ``-0.0``, ``1e308``,
``np.float32`` values, the floor used as a size and an index.

    >>> def f(x, n, d):
    ...     for i in range(n):
    ...         h = i // d          # unread: dead only where d != 0
    ...         x[i] = x[i] * 2.0
    ...     return x
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round44_loops")
NAN, INF = float("nan"), float("inf")
BIG = 2547907239577469241   # floor(BIG / 3) != floor(float(BIG) / 3)


def _x(n=12):
    return np.arange(n, dtype=np.float64) * 0.5 - 1.0


def case(fn, *sets, calls=1, name=None):
    reg.case(fn, *sets, calls=calls, name=name)


# ----------------------------------------------------------------------------- quiet sym ints

def _unread_floordiv(x, n, d):
    for i in range(n):
        h = i // d   # noqa: F841
        x[i] = x[i] * 2.0
    return x


case(_unread_floordiv, (_x(), 12, 2), (_x(), 11, 3), (_x(), 12, 0), (_x(), 0, 0), (_x(), 10, -1))


def _unread_mod(x, n, d):
    for i in range(n):
        h = i % d   # noqa: F841
        x[i] = x[i] + i
    return x


case(_unread_mod, (_x(), 12, 5), (_x(), 11, 7), (_x(), 12, 0), (_x(), 10, -3))


def _unread_divmod(x, n, d):
    for i in range(n):
        q, r = divmod(i, d)   # noqa: F841
        x[i] = x[i] - 1.0
    return x


case(_unread_divmod, (_x(), 12, 5), (_x(), 11, 4), (_x(), 12, 0))


def _unread_pow_mod(x, n, d):
    for i in range(n):
        p = pow(i, 2, d)   # noqa: F841
        x[i] = x[i] * 3.0
    return x


case(_unread_pow_mod, (_x(), 12, 5), (_x(), 11, 4), (_x(), 12, 0))


def _unread_shift(x, n, k):
    for i in range(n):
        s = 1 << (i - k)   # noqa: F841
        x[i] = x[i] * 0.5
    return x


case(_unread_shift, (_x(), 12, 0), (_x(), 11, 0), (_x(), 12, 3), (_x(), 12, 40))


def _unread_comb(x, n, k):
    for i in range(n):
        c = math.comb(i - k, 2)   # noqa: F841
        x[i] = -x[i]
    return x


case(_unread_comb, (_x(), 12, 0), (_x(), 11, 0), (_x(), 12, 4))


def _unread_range(x, n, d):
    for i in range(n):
        r = range(0, i, d)   # noqa: F841
        x[i] = x[i] + 0.25
    return x


case(_unread_range, (_x(), 12, 2), (_x(), 11, 3), (_x(), 12, 0))


def _unread_outer_floordiv(x, d):
    h = len(x) // d   # noqa: F841
    return x * 2


case(_unread_outer_floordiv, (_x(), 2), (_x(11), 3), (_x(), 0), (_x(0), 0))


def _unread_size_quotient(x, k):
    h = x.shape[0] // (x.shape[0] - k)   # noqa: F841
    return x + 1


case(_unread_size_quotient, (_x(12), 2), (_x(11), 2), (_x(2), 2), (_x(5), 5))


def _unread_nested_quotient(x, n, d):
    for i in range(n):
        for j in range(n):
            h = (i * j) // d + (i - j) % d   # noqa: F841
        x[i] = x[i] * 1.5
    return x


case(_unread_nested_quotient, (_x(), 12, 3), (_x(), 11, 2), (_x(), 12, 0))


def _read_floordiv_store(x, n, d):
    for i in range(n):
        x[i] = i // d
    return x


case(_read_floordiv_store, (_x(), 12, 2), (_x(), 11, 3), (_x(), 12, -2), (_x(), 12, 0))


def _read_mod_index(x, n, d):
    s = 0.0
    for i in range(n):
        s = s + x[i % d]
    return s


case(_read_mod_index, (_x(), 12, 5), (_x(), 11, 7), (_x(), 12, -3), (_x(), 12, 13),
     (_x(), 12, 0))


def _unread_empty(x, n):
    tmp = np.empty(n - 5)   # noqa: F841
    return x * 2


case(_unread_empty, (_x(), 10), (_x(), 11), (_x(), 3), (_x(), 5))


def _unread_zeros_of_len(x):
    tmp = np.zeros(len(x) - 5)   # noqa: F841
    return x.sum()


case(_unread_zeros_of_len, (_x(10),), (_x(11),), (_x(3),), (_x(5),))


def _negative_size_read(x):
    return np.full(len(x) - 5, 7.0)


case(_negative_size_read, (_x(10),), (_x(11),), (_x(3),), (_x(5),))


def _unread_huge_product(x, n):
    for i in range(n):
        big = i * 10 ** 30   # noqa: F841 (Python ints: no overflow)
        x[i] = x[i] + 1.0
    return x


case(_unread_huge_product, (_x(), 12), (_x(), 11))


def _store_past_int64(a, n, k):
    for i in range(n):
        a[i] = i * k
    return a


case(_store_past_int64, (np.zeros(12, np.int64), 12, 3), (np.zeros(12, np.int64), 11, 5),
     (np.zeros(12, np.int64), 12, 10 ** 18), (np.zeros(12, np.int8), 12, 11))


def _unread_abs_min_max(x, n, d):
    for i in range(n):
        h = max(abs(i - 5), 1) // min(d, 3)   # noqa: F841
        x[i] = x[i] * 2.0
    return x


case(_unread_abs_min_max, (_x(), 12, 2), (_x(), 11, 5), (_x(), 12, 0), (_x(), 12, -4))


def _unread_true_div(x, n, d):
    for i in range(n):
        h = i / d   # noqa: F841
        x[i] = x[i] * 2.0
    return x


case(_unread_true_div, (_x(), 12, 2), (_x(), 11, 5), (_x(), 12, 0))


def _unread_float_floordiv(x, n, d):
    for i in range(n):
        h = i // d   # noqa: F841
        x[i] = x[i] + 2.0
    return x


case(_unread_float_floordiv, (_x(), 12, 2.0), (_x(), 11, 0.5), (_x(), 12, 0.0),
     (_x(), 12, -0.0))


# ----------------------------------------------------------------------------- float floors

class _Sched:
    def __init__(self, it, step=2):
        self.it, self.step = it, step

    def lr(self, x):
        cycle = math.floor(1 + self.it / (2 * self.step))
        xx = abs(self.it / self.step - 2 * cycle + 1)
        self.it += 1
        return x * max(0.0, 1 - xx), cycle


def _triangular(s, x):
    return s.lr(x)


def _sched_sets(*its):
    return [(lambda it=it: (_Sched(it), _x(4))) for it in its]


case(_triangular, *_sched_sets(0, 1, 2, 3, 7, 2 ** 53 + 1, BIG, -BIG, -3, 2 ** 63 - 1),
     name="triangular_counters")


def _floor_third(k, x):
    c = math.floor(k / 3)
    return x + c, c


case(_floor_third, (1, _x(3)), (2, _x(3)), (5, _x(3)), (BIG, _x(3)), (-BIG, _x(3)),
     (2 ** 62 + 1, _x(3)), (3, _x(3)))


def _ceil_trunc_int(k, x):
    return (math.ceil(k / 4), math.trunc(-k / 4), int(k / 4), int(-k * 0.25),
            math.floor(-k / 4), x * 2)


case(_ceil_trunc_int, (1, _x(3)), (2, _x(3)), (3, _x(3)), (-1, _x(3)), (0, _x(3)),
     (BIG, _x(3)), (-2 ** 63, _x(3)))


def _near_half(k, x):
    return int(k * 0.1), math.floor(k * 0.1 + 0.5), math.ceil(k * 0.1 - 0.5), x[:1]


case(_near_half, (5, _x(3)), (15, _x(3)), (25, _x(3)), (35, _x(3)), (3, _x(3)),
     (-5, _x(3)), (-15, _x(3)))


def _floor_as_size(k, x):
    n = math.floor(k / 2 + 1)
    return np.zeros(n), x[:n]


case(_floor_as_size, (1, _x(6)), (2, _x(6)), (4, _x(6)), (9, _x(6)), (-2, _x(6)),
     (-6, _x(6)))


def _floor_as_index(k, x):
    return x[math.floor(k / 3) % 4], x[math.ceil(k / 5) - 3]


case(_floor_as_index, (1, _x(6)), (2, _x(6)), (7, _x(6)), (40, _x(6)), (-7, _x(6)))


def _floor_huge_scale(k, x):
    return math.floor(k * 1e300), x[0]


case(_floor_huge_scale, (1, _x(3)), (2, _x(3)), (3, _x(3)), (0, _x(3)))


def _floor_overflows(k, x):
    return math.floor(k * 1e300 * 1e10), x[0]


case(_floor_overflows, (0, _x(3)), (0, _x(3)), (1, _x(3)), (0, _x(3)))


def _floor_of_float(f, x):
    return math.floor(f), math.ceil(f), math.trunc(f), int(f), x * 2


case(_floor_of_float, (2.5, _x(3)), (3.5, _x(3)), (-0.0, _x(3)), (-2.5, _x(3)),
     (1e308, _x(3)), (INF, _x(3)), (NAN, _x(3)), (-INF, _x(3)), (0.49999999999999994, _x(3)))


def _floor_of_np_float(f, x):
    return math.floor(f), int(f), math.ceil(f), x[:2]


case(_floor_of_np_float, (np.float32(2.5), _x(3)), (np.float32(-0.0), _x(3)),
     (np.float32(3e38), _x(3)), (np.float64(NAN), _x(3)), (np.float32(INF), _x(3)),
     (np.float16(-7.5), _x(3)), (np.float64(4.5), _x(3)))


def _floor_data(x):
    f = float(x.sum())
    return math.floor(f), int(f * 0.5), x


case(_floor_data, (_x(3),), (_x(5),), (np.array([NAN]),), (np.array([INF, 1.0]),),
     (np.array([-0.0]),), (np.array([1e308, 1e308]),))


def _floor_counter_loop(x, k0, n):
    """``int()`` of a changing float inside a loop node: the counter is carried."""
    k = k0
    for i in range(n):
        x[i % len(x)] += int(k / 4)
        k = k + 3
    return x, k


case(_floor_counter_loop, (_x(4), 0, 12), (_x(4), 1, 12), (_x(4), -5, 12),
     (_x(4), 2 ** 62, 12), (_x(4), 7, 0))


def _floor_of_bool(b, x):
    return math.floor(b / 2 + 0.5), int(b * 1.5), x


case(_floor_of_bool, (True, _x(2)), (False, _x(2)), (True, _x(2)), (1, _x(2)), (2, _x(2)))


def _floor_of_float_counter(s, x):
    """A float counter (not an int): may be inf or NaN."""
    c = math.floor(s.it / 2)
    s.it = s.it * 10.0
    return x * c, c


case(_floor_of_float_counter, *_sched_sets(1.0, 2.0, 3.0, 1e307, INF, NAN, -0.0),
     name="floor_float_counter")
