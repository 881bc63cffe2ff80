"""Round 32, changing Python ints used as items of array data
(``symbolic/shape_env._as_array_data``): ``np.array([n, 2 * n])``,
``np.concatenate([x, [n]])``, ``np.full(3, n)``, ``np.append(x, n)``, ``np.hstack``,
``np.stack`` of an int that changes between calls, where the int is not what the first
calls saw: near and past the int64 limits (``2**63``, ``-2**63 - 1``: NumPy makes an
object or uint64 array, or raises OverflowError), a bool (``True`` is an int), an
IntEnum or an int subclass, a float or None, a NumPy integer; with ``dtype=`` (int8 and
uint8 that overflow, float16, object), ``n`` used as data and as a size in one call
(``np.full(n, n)``), negative, nested (``[[n]]``, ``ndmin=2``), mixed with float items,
and NEP 50 promotion against ``np.int8``.

    >>> def _full_n_n(x, n):
    ...     return np.full(n % 5, n)       # n is a size and the fill value
"""

import enum

import numpy as np
from hostile_check import Programs

reg = Programs("round32_data")

X = np.arange(3.0)


class Color(enum.IntEnum):
    RED = 4
    BLUE = -2


class Tagged(int):
    def __repr__(self):
        return f"Tagged({int(self)})"


class Doubling(int):
    def __mul__(self, other):
        return Doubling(int(self) * other * 2)

    __rmul__ = __mul__


# The changing ints, each sequence called in order on one compiled function (the first
# ones plain ints, so that the int is a changing value before the hostile one comes)
SEQS = {
    "small": (1, 2, 3, 0, -1, 7, 2),
    "limits": (1, 2, 3, 2**62, 2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64, 4),
    "bools": (1, 2, 3, True, False, 5, True),
    "subclasses": (1, 2, 3, Color.RED, Tagged(5), Color.BLUE, Doubling(3), 6),
    "changing_type": (1, 2, 3, 2.5, None, 4, np.int64(5), np.int8(-3), np.uint64(7)),
}


def _array_pair(x, n):
    return np.array([n, 2 * n]), x + n


def _concat_item(x, n):
    return np.concatenate([x, [n]])


def _full_three(x, n):
    return np.full(3, n), np.full(3, n).dtype


def _append_item(x, n):
    return np.append(x, n)


def _hstack_item(x, n):
    return np.hstack([x, [n, n + 1]])


def _stack_items(x, n):
    return np.stack([np.array([n, 1]), np.array([0, n])])


def _array_int8(x, n):
    return np.array([n, 1], dtype=np.int8)


def _array_uint8(x, n):
    return np.array([n], dtype=np.uint8) + 1


def _array_float16(x, n):
    return np.array([n, -n], dtype=np.float16)


def _array_object(x, n):
    return np.array([n, 3], dtype=object)


def _full_n_n(x, n):
    return np.full(abs(n) % 5 if isinstance(n, int) else 2, n)


def _nested(x, n):
    return np.array([[n]]), np.array([n], ndmin=2), np.array([[n, 1], [2, n]]).T


def _mixed_float(x, n):
    return np.array([n, 0.5]), np.concatenate([x, [n, 1.5]])


def _nep50(x, n):
    return np.array([n]) + np.int8(1), np.array([n]) * np.float32(2)


def _overflow_mul(x, n):
    a = np.array([n, n])
    return a * a * a, a.dtype


def _data_and_index(x, n):
    a = np.array([n, 1, 2])
    return a, a.sum(), x[a[1:]]


def _append_then_size(x, n):
    a = np.append(x, n)
    return a.size, a[-1], a.mean()


def _full_like_item(x, n):
    return np.full_like(x, n), np.full_like(x.astype(np.int16), n)


def _column_stack(x, n):
    return np.column_stack([x, x * 0 + n]), np.vstack([x, [n, n, n]])


def _asarray_list(x, n):
    a = np.asarray([n, -n, n * n])
    return a, a.dtype, (a > 0).sum()


def _full_int8(x, n):
    return np.full(3, n, dtype=np.int8), np.full((2, 1), n, dtype=np.uint16)


def _concat_int8_array(x, n):
    a = np.array([1, -2], dtype=np.int8)
    return np.concatenate([a, [n]]), np.hstack([a, [n]]), np.append(a, n)


def _array_bool_dtype(x, n):
    return np.array([n, 0], dtype=bool), np.array([n], dtype=np.complex64)


def _array_with_item(x, n):
    return np.array([n, x[1]]), np.array([x[0], n, 1])


def _array_then_dtype(x, n):
    a = np.array([n, n + 1])
    return a.astype(np.float32), a.view(np.uint8)[:4], a.tobytes()


EXTRA = (_full_int8, _concat_int8_array, _array_bool_dtype, _array_with_item,
         _array_then_dtype)


# Every function on every sequence whose ints it can take plainly (``_array_int8`` on
# "limits": Python raises OverflowError, which the compiled call must raise too)
FNS = (_array_pair, _concat_item, _full_three, _append_item, _hstack_item, _stack_items,
       _array_int8, _array_uint8, _array_float16, _array_object, _full_n_n, _nested,
       _mixed_float, _nep50, _overflow_mul, _data_and_index, _append_then_size,
       _full_like_item, _column_stack, _asarray_list)


def _program(fn, seq_name):
    seq = SEQS[seq_name]

    def scenario(r):
        f = r.compile(fn)
        for n in seq:
            r.call(f, X.copy(), n)
        r.call(f, X.copy(), seq[0])

    reg._add(f"{fn.__name__.removeprefix('_')}_{seq_name}", scenario,
             (fn.__doc__ or "").strip())


for _fn in FNS:
    for _name in ("small", "limits", "bools"):
        _program(_fn, _name)
for _fn in FNS[::2]:
    _program(_fn, "subclasses")
for _fn in FNS[1::2]:
    _program(_fn, "changing_type")
for _fn in EXTRA:
    for _name in SEQS:
        _program(_fn, _name)


# ------------------------------------------------------------------ state between calls

class Ids:
    def __init__(self):
        self.next_id = 0
        self.ids = np.zeros(0, dtype=np.int64)


def _next_ids(o, x):
    o.ids = np.concatenate([o.ids, [o.next_id]])
    o.next_id += 1
    return o.ids * x.sum()


@reg.scenario
def s_ids_grow_past_int64(r):
    f = r.compile(_next_ids)
    o = Ids()
    for k in range(4):
        r.call(f, o, X)
        if k == 1:
            o.next_id = 2**63 - 1
    r.see("ids", o.ids)


@reg.scenario
def s_ids_become_bool(r):
    f = r.compile(_next_ids)
    o = Ids()
    for k in range(5):
        r.call(f, o, X)
        if k == 2:
            o.next_id = True
    r.see("state", (o.next_id, o.ids))


def _overflow_warning(x, n):
    a = np.array([n], dtype=np.int64)
    return a + np.int64(2**62) + np.int64(2**62)


@reg.scenario
def s_overflow_warning(r):
    f = r.compile(_overflow_warning)
    for n in (1, 2, 3, 2**62, -2**62, 5):
        r.call(f, X, n)
