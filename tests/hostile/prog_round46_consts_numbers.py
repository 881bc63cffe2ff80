"""Round 46, constants: Python numbers that change between calls (graph inputs, not
constants: ``DynamicPolicy.is_dynamic_number``) used where a graph's code prints an
argument: counts (``np.arange(k)``, ``np.full(k, s)``, ``np.repeat``, ``np.tile``,
``np.roll``, ``np.pad``), slice bounds, reshape sizes, exponents, rounding digits,
``range(k)`` loop bounds, and arithmetic on them (``k // 2``, ``-k``, ``k % 3``,
``divmod``, ``abs``, ``round(s, 2)``, ``math.floor``, NaN compared with itself, ``-0.0``,
an int past int64). Each program runs on six (k, s) pairs.

    >>> def _counts(x, k, s):
    ...     return np.arange(k) * s, np.full(k, s), np.repeat(x[:2], k)
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round46_consts")
case = reg.case
NAN = float("nan")

X = np.arange(12.0) * 0.25 - 1.0
PAIRS = ((3, 0.5), (5, -1.25), (2, 0.0), (7, 2.5), (4, -0.0), (6, 1e-3))


def numbers(fn, pairs=PAIRS):
    case(fn, *((X.copy(), k, s) for k, s in pairs), calls=1, name=fn.__name__.lstrip("_"))


def _counts(x, k, s):
    return np.arange(k) * s, np.full(k, s), np.repeat(x[:2], k), np.tile(x[:2], k)


numbers(_counts)


def _shifts(x, k, s):
    return np.roll(x, k), np.roll(x, -k), np.pad(x[:3], k, constant_values=s)


numbers(_shifts)


def _bounds(x, k, s):
    return x[k:], x[:-k], x[k:2 * k], x[::k], x[-k::-1], x[k // 2: k * 3 // 2]


numbers(_bounds)


def _reshapes(x, k, s):
    m = 12 // k if 12 % k == 0 else 1
    return x[: k * m].reshape(k, m), x.reshape(-1, 12 // math.gcd(12, k)).shape


numbers(_reshapes)


def _exponents(x, k, s):
    return x ** k, np.power(x, -k) if k % 2 else x ** 0.5, x ** s, np.round(x * 10, k % 3)


numbers(_exponents)


def _int_arith(x, k, s):
    q, r = divmod(k, 3)
    return x[: q + 1] * r, -k, abs(-k), k // 2, k % 3, x * (k << 2), x * (k ^ 5)


numbers(_int_arith)


def _float_arith(x, k, s):
    return (x * round(s, 2), math.floor(s * 10), int(s * 10), float(k) ** 0.5,
            x * math.copysign(1.0, s), x / (s + 4.0), max(s, 0.1), min(k, 4))


numbers(_float_arith)


def _loop_bound(x, k, s):
    acc = s
    for i in range(k):
        acc = acc * 0.5 + x[i]
    return acc, k


numbers(_loop_bound)


def _while_bound(x, k, s):
    i = 0
    acc = 0.0
    while i < k:
        acc += x[i] * s
        i += 2
    return acc, i


numbers(_while_bound)


def _nan_numbers(x, k, s):
    return s == s, x * s, np.isnan(s), s != s, x[: k] + s


numbers(_nan_numbers, ((3, NAN), (2, 1.0), (4, NAN), (5, -0.0), (1, float("inf")),
                       (6, -float("inf"))))


def _big_ints(x, k, s):
    try:
        return x * k, np.full(2, k), k * 2, x[: k % 5]
    except OverflowError as e:
        return "overflow", str(e)


numbers(_big_ints, ((3, 0.0), (2 ** 63 - 1, 0.0), (-2 ** 63, 0.0), (2 ** 64, 0.0),
                    (5, 0.0), (2 ** 100, 0.0)))


def _bool_numbers(x, k, s):
    return x * k, x[: int(k) + 1], np.full(2, k), type(k).__name__


case(_bool_numbers, (X, True, 0.0), (X, False, 0.0), (X, 1, 0.0), (X, 0, 0.0), (X, True, 1.0),
     calls=1)


def _complex_from_numbers(x, k, s):
    c = complex(s, -k)
    return x * c, np.full(2, c), c.conjugate(), abs(c)


numbers(_complex_from_numbers)


def _linspace_numbers(x, k, s):
    return np.linspace(s, s + 1.0, k), np.linspace(0.0, 1.0, k, endpoint=False)


numbers(_linspace_numbers)


def _eye_tri(x, k, s):
    return np.eye(k, k=1) * s, np.tri(k, k, -1), np.triu(np.ones((k, k)), k // 2)


numbers(_eye_tri)


def _split_numbers(x, k, s):
    parts = np.array_split(x, k)
    return [p.sum() for p in parts], len(parts), np.split(x, [k, k + 2])


numbers(_split_numbers)


def _nested_shapes(x, k, s):
    return (np.pad(x, ((k, 1),)), x.reshape((k, -1)) if 12 % k == 0 else None,
            np.full((k, 2), s), np.zeros((2, k), dtype=np.float32), x[(slice(None, k), None)])


numbers(_nested_shapes)


def _fancy_from_numbers(x, k, s):
    return (x[[k, k + 1]], x[np.array([k, -k])], np.take(x, range(k)),
            np.add.reduceat(x, [0, k]), np.insert(x, k, s), np.delete(x, k))


numbers(_fancy_from_numbers)


def _order_stats(x, k, s):
    return (np.partition(x, k)[k], np.argpartition(x, k)[:k].size, np.sort(x)[-k:],
            np.argsort(x)[:k], np.searchsorted(np.sort(x), s), np.percentile(x, 50 + s * 10))


numbers(_order_stats)


def _sized_reductions(x, k, s):
    return (np.diff(x, n=k), np.convolve(x, np.ones(k)), x[: k + 2].std(ddof=k),
            np.bincount(np.arange(3), minlength=k), np.histogram(x, bins=k)[0])


numbers(_sized_reductions)


def _float_ranges(x, k, s):
    return (np.arange(s, s + 3.0), np.arange(0.0, k, abs(s) + 0.5),
            np.arange(k, dtype=np.float32) + s)


numbers(_float_ranges)


def _where_clip(x, k, s):
    return (np.where(x > s, k, -k), np.clip(x, -abs(s), abs(s)), np.full_like(x, k),
            np.nan_to_num(x / 0.0, nan=s, posinf=k))


numbers(_where_clip)
