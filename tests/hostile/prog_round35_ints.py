"""Round 35, ``int()`` of 0-d integer arrays used as graph numbers (a shape, a range, a
slice bound, a dict key), formatted (f-strings with specs and ``!r``, ``str() +``,
``"x" * n``), made huge (``n ** 40``, ``n << 70``), divided by zero; ``int()`` of 0-d
bool, float16 (NaN: ValueError, inf: OverflowError), complex (TypeError) and 1-element
1-d arrays (a DeprecationWarning); and ``np.zeros_like``/``ones_like``/``full_like`` of
Python constants, NumPy scalars and 0-d results. Values change between calls: 0, 1,
-1, 127, -128, a sum that wraps in int8.

    >>> def _shape_of(x):
    ...     n = int(x.sum())
    ...     return np.ones(max(n, 0)) * n
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round35_ints")


def _shape_of(x):
    n = int(x.sum())
    return np.ones(max(n, 0)) * n


def _range_loop(x):
    n = int(x.sum())
    acc = 0
    for k in range(min(abs(n), 5)):
        acc += k * n
    return acc, x * acc


def _slice_bound(x):
    n = int(np.argmax(x))
    return x[n:], x[:n], x[-n:]


def _fstring(x):
    n = int(x.sum())
    return f"{n}|{n:+05d}|{n!r}|{n:x}|{n:,}", np.full(2, n)


def _str_concat(x):
    n = int(x[0])
    return "n=" + str(n) + ";" + "#" * max(n, 0) % 7, x * n


def _huge(x):
    n = int(x.sum())
    big = n ** 40 + (n << 70)
    return big, float(big) if abs(big) < 10 ** 300 else "too big", x * n


def _floordiv(x):
    n = int(x.min())
    try:
        return 100 // n, x / n
    except ZeroDivisionError as e:
        return str(e), x


def _dict_key(x):
    n = int(x.max())
    table = {0: "zero", 1: "one", -1: "minus", 127: "max"}
    return table.get(n, "other"), x + n


def _compare_chain(x):
    n = int(x.sum())
    if 0 < n < 5:
        return x * n
    if n == 0:
        return x - 1
    return -x


def _reshape(x):
    n = int(x.size // 2)
    return x.reshape(n, -1) if n else x.reshape(0, -1)


def _nested_int(x):           # int of int of a 0-d array; a hash; math
    n = int(int(x.sum()))
    return hash(n), math.factorial(abs(n) % 8), math.gcd(n, 12), x * n


def _int_of_item(x):
    a = x[0]
    return int(a), int(x[-1:].reshape(())), type(int(a)).__name__


FNS = (_shape_of, _range_loop, _slice_bound, _fstring, _str_concat, _huge, _floordiv,
       _dict_key, _compare_chain, _reshape, _nested_int, _int_of_item)

# int8 sums wrap: [100, 100] sums to -56 in int8 (NumPy's sum of int8 is int64 though)
VALUES = {
    "int8": [np.array([1, 2], np.int8), np.array([0, 0], np.int8),
             np.array([-128, 127], np.int8), np.array([100, 100], np.int8),
             np.array([-1, 0], np.int8)],
    "uint8": [np.array([1, 2], np.uint8), np.array([0, 0], np.uint8),
              np.array([255, 255], np.uint8), np.array([0, 1], np.uint8)],
    "int64": [np.array([3, 4], np.int64), np.array([-2**62, -2**62], np.int64),
              np.array([0, 1], np.int64), np.array([-1, -1], np.int64)],
    "bool": [np.array([True, False]), np.array([True, True]),
             np.array([False, False])],
}

for _i, _fn in enumerate(FNS):
    for _j, (_vname, _vals) in enumerate(VALUES.items()):
        if (_i + _j) % 4 == 3:
            continue

        def _scenario(r, fn=_fn, vals=_vals):
            f = r.compile(fn)
            for v in vals + vals[:1]:
                r.call(f, v.copy())
        reg._add(f"{_fn.__name__.removeprefix('_')}_{_vname}", _scenario, "")


# ---------------------------------------------------------------- int() of other 0-d
def _int_of_float(x):
    return int(x.sum()), int(x.max())


def _int_of_complex(x):
    try:
        return int(x.sum())
    except TypeError as e:
        return "TypeError", str(e)


def _int_of_1d(x):            # ndim 1, size 1: a DeprecationWarning
    return int(x[:1]), float(x[-1:])


for _name, _fn, _vals in (
        ("float16", _int_of_float, [np.array([1.5, 2.25], np.float16),
                                    np.array([np.nan, 1], np.float16),
                                    np.array([np.inf, 1], np.float16),
                                    np.array([-0.5, 0.25], np.float16),
                                    np.array([60000, 60000], np.float16)]),
        ("float32", _int_of_float, [np.array([1e10, 3.5], np.float32),
                                    np.array([-np.inf, 0], np.float32),
                                    np.array([2.5, -2.5], np.float32)]),
        ("complex", _int_of_complex, [np.array([1 + 0j, 2]), np.array([1j, 1j])]),
        ("one_element_1d", _int_of_1d, [np.array([3, 4]), np.array([-7]),
                                        np.array([2.9, 1.0])])):
    def _scenario(r, fn=_fn, vals=_vals):
        f = r.compile(fn)
        for v in vals + vals[:1]:
            r.call(f, v.copy())
    reg._add(f"int_of_{_name}", _scenario, "")


# ---------------------------------------------------------------- *_like of constants
def _zeros_like_consts(x):
    return (np.zeros_like(3), np.zeros_like(3.5), np.zeros_like(True),
            np.zeros_like(-0.0), np.zeros_like(1j), x * 2)


def _ones_like_scalars(x):
    return np.ones_like(np.int8(3)), np.ones_like(np.float16(2)), np.ones_like(x.sum())


def _full_like_int(x):
    n = int(x.sum())
    return np.full_like(1, 7.5), np.full_like(n, n), np.zeros_like(n) + x


def _zeros_like_list(x):
    return np.zeros_like([1, 2.5]), np.zeros_like([[True], [False]]), x.sum()


def _like_then_write(x):       # each call a fresh array: writes do not carry over
    z = np.zeros_like(0.0)
    z[...] = x.sum()
    a = np.zeros_like(5)
    a += 1
    return z, a


def _like_dtype_arg(x):
    return np.zeros_like(3, dtype=np.float16), np.ones_like(2.0, dtype=np.uint8), \
        np.empty_like(1, dtype=bool).shape


for _fn in (_zeros_like_consts, _ones_like_scalars, _full_like_int, _zeros_like_list,
            _like_then_write, _like_dtype_arg):
    def _scenario(r, fn=_fn):
        f = r.compile(fn)
        for v in (np.array([1, 2]), np.array([0, 0]), np.array([-5, 2]),
                  np.array([1, 2])):
            r.call(f, v.copy())
    reg._add(f"like_{_fn.__name__.removeprefix('_')}", _scenario, "")
