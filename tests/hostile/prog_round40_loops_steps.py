"""Round 40, stepped loops over sizes that change between calls (issue #17): an outer
``range(a, b, k)`` with ``k`` in 2, 3, -2, -3 over ``len(x)`` (symbolic once a second
size is seen), trip counts that cross a multiple of ``k`` from one call to the next
(sizes 9, 10, 11, 12, 13: 5, 5, 6, 6, 7 trips for ``k = 2``; one entry reused), start
and stop next to each other, empty ranges and one trip, bounds from arguments, the index
in float math, as a slice bound (``x[i:i + k]`` past the end on the last trip), after
the loop (unbound when the range was empty), in a list, ``x[::k]`` slices and their
sizes (a ceiling division no linear size holds), ``len(range(...))``, ``reversed``,
``enumerate``, a ``while`` written by hand, a step made from the size (``n // 4``),
NumPy int8/uint8 counters stepped in the loop (wrapping, warning), nested stepped loops.

    >>> def _fill(x):
    ...     for i in range(0, len(x), 3):   # 3, 4, 4, 4, 5 trips over sizes 9..13
    ...         x[i] = i * 0.5
    ...     return x
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round40_loops")

SIZES = (9, 10, 11, 12, 13, 9, 1, 0, 2)      # a second size makes the sizes symbolic
STEPS = (2, 3, -2, -3)


def _v(n, dtype=np.float64, seed=0):
    return (np.random.default_rng(seed + n).random(n) * 4 - 1).astype(dtype)


def _sized(fn, make=_v, sizes=SIZES, name=None):
    reg.case(fn, *[(lambda n=n: (make(n),)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


def _span(k, n):
    """range(start, stop) covering 0..n-1 in the direction of k."""
    return (0, n) if k > 0 else (n - 1, -1)


def _named(fn, name):
    fn.__name__ = name
    return fn


# ------------------------------------------------------------- one stepped loop per k
def _make_fill(k):
    def f(x):
        a, b = _span(k, len(x))
        for i in range(a, b, k):
            x[i] = i * 0.5 + x[i]
        return x
    return _named(f, f"fill_{k}".replace("-", "m"))


def _make_window(k):
    def f(x):
        a, b = _span(k, len(x))
        out = []
        for i in range(a, b, k):
            out.append(x[i:i + abs(k)].sum())     # past the end on the last trip
        return np.array(out), len(out)
    return _named(f, f"window_{k}".replace("-", "m"))


def _make_float_index(k):
    def f(x):
        a, b = _span(k, len(x))
        acc = 0.0
        for i in range(a, b, k):
            acc += x[i] * (i / abs(k)) + float(i) ** 0.5
        return acc, type(acc).__name__
    return _named(f, f"float_index_{k}".replace("-", "m"))


def _make_last(k):
    def f(x):
        a, b = _span(k, len(x))
        for i in range(a, b, k):
            x[i] -= 1.0
        return x, i                                # unbound when the range is empty
    return _named(f, f"last_index_{k}".replace("-", "m"))


def _make_indices(k):
    def f(x):
        a, b = _span(k, len(x))
        seen = []
        for i in range(a, b, k):
            seen.append(i)
            x[i] = len(seen)
        return seen, x
    return _named(f, f"indices_{k}".replace("-", "m"))


def _make_carry(k):
    def f(x):
        a, b = _span(k, len(x))
        s = x[a] if len(x) else 0.0
        for i in range(a, b, k):
            s = 0.5 * s + x[i]
            x[i] = s
        return s, x
    return _named(f, f"carry_{k}".replace("-", "m"))


for _k in STEPS:
    for _mk in (_make_fill, _make_window, _make_float_index, _make_last, _make_indices,
                _make_carry):
        _sized(_mk(_k))


# ------------------------------------------------------------- sizes of strided slices
def _strided_sizes(x):
    return (len(x[::3]), x[1::3].shape, x[::-2].shape[0], len(x[2::2]),
            len(range(0, len(x), 3)), len(range(len(x) - 1, -1, -2)))


def _strided_alloc(x):
    a = np.zeros(x[::3].shape) + 1.0
    b = np.full(len(x[1::2]), 7.0)
    return a, b, np.arange(len(x[::-3]))


def _strided_math(x):
    return x[::3] * 2.0 + x[::3].sum(), x[1::2].mean() if len(x) > 1 else None


def _strided_mix(x):
    a = x[::2]
    b = x[1::2]
    n = min(len(a), len(b))
    return a[:n] - b[:n], n


def _strided_concat(x):
    return np.concatenate([x[::3], x[1::3], x[2::3]])


def _strided_write(x):
    x[::3] = np.arange(len(x[::3])) * 1.5
    x[1::3] += 1.0
    return x


for _fn in (_strided_sizes, _strided_alloc, _strided_math, _strided_mix, _strided_concat,
            _strided_write):
    _sized(_fn)


# ------------------------------------------------------------- bounds from arguments
def _between(x, a, b, k):
    out = []
    for i in range(a, b, k):
        out.append(float(x[i % len(x)]) * i)
    return out, len(range(a, b, k))


def _between_array(x, a, b, k):
    for i in range(a, b, k):
        x[i] += 0.25 * i
    return x


_BOUNDS = ((0, 10, 2), (1, 10, 2), (0, 11, 2), (2, 3, 2), (3, 2, 2), (5, 5, 3), (0, 9, 3),
           (0, 10, 3), (9, 0, -3), (9, -1, -3), (8, 7, -2), (7, 8, -2), (0, 12, 3))
reg.case(_between, *[(np.arange(12.0), a, b, k) for a, b, k in _BOUNDS], calls=1)
reg.case(_between_array, *[(np.arange(12.0), a, b, k) for a, b, k in _BOUNDS], calls=1)


def _near(x, a):
    r = [i for i in range(a, a + 1, 2)] + [i for i in range(a, a, 3)] \
        + [i for i in range(a, a - 1, -2)] + [i for i in range(a, a + 2, -3)]
    return r, x[a:a + 1] * 2.0


reg.case(_near, *[(np.arange(6.0), a) for a in (0, 1, 5, 4, 0, 6)], calls=1)


# ------------------------------------------------------------- other ways to step
def _reversed_steps(x):
    for i in reversed(range(0, len(x), 3)):
        x[i] = x[i] * 2.0 + i
    return x


def _enumerate_steps(x):
    tot = 0.0
    for t, i in enumerate(range(1, len(x), 2)):
        tot += t * x[i]
    return tot


def _hand_while(x):
    i = len(x) - 1
    n = 0
    while i >= 0:
        x[i] += n
        i -= 3
        n += 1
    return x, i, n


def _size_step(x):
    n = len(x)
    k = max(1, n // 4)
    for i in range(0, n, k):
        x[i] = -x[i]
    return x, k


def _mod_start(x):
    n = len(x)
    for i in range(n % 3, n, 3):
        x[i] += 10.0
    return x


def _rows_by_two(m):
    out = np.zeros(m.shape[1])
    for i in range(0, m.shape[0], 2):
        out += m[i:i + 2].sum(axis=0)
    return out


def _int8_counter(x):
    c = np.int8(100)
    for i in range(0, len(x), 2):
        c += np.int8(7)                      # wraps past 127 (a RuntimeWarning)
        x[i] = c
    return x, c


def _uint8_counter(x):
    c = np.uint8(3)
    for i in range(len(x) - 1, -1, -3):
        c -= np.uint8(1)                     # wraps below 0
        x[i] = c
    return x, c, type(c).__name__


def _int8_array_counter(x):
    c = np.zeros(1, dtype=np.int8) + 120
    for i in range(0, len(x), 3):
        c += 3
        x[i] = c[0]
    return x, c


def _nested_steps(x):
    n = len(x)
    s = 0.0
    for i in range(0, n, 2):
        for j in range(i, n, 3):
            s += x[j] * (i + 1)
    return s


def _nested_down(x):
    n = len(x)
    for i in range(n - 1, -1, -3):
        for j in range(0, i, 2):
            x[i] = x[i] + 0.5 * x[j]
    return x


for _fn in (_reversed_steps, _enumerate_steps, _hand_while, _size_step, _mod_start,
            _int8_counter, _uint8_counter, _int8_array_counter, _nested_steps,
            _nested_down):
    _sized(_fn)
_sized(_rows_by_two, lambda n: np.arange(n * 3.0).reshape(n, 3))
_sized(_int8_counter, lambda n: np.zeros(n, dtype=np.int8), name="int8_counter_int8")
_sized(_uint8_counter, lambda n: np.zeros(n, dtype=np.uint8), name="uint8_counter_uint8")
