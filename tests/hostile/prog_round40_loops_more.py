"""Round 40, stepped loops continued (the category of ``prog_round40_loops_steps.py``):
slices with steps from arguments and from sizes (``x[a:b:k]``, ``x[n - 1::-3]``,
``m[::2, 1::3]``, a step of ``n - 1`` that is 0 at ``n = 1``: ValueError), interleaved
writes ``x[i::k] += i``, index arrays made of stepped ranges (``x[list(range(0, n,
3))]``, ``np.add.at``), ``zip(x[::2], x[1::2])``, NumPy int bounds and steps
(``np.int64``, ``np.uint8``), int8 indices that wrap to negative ones, uint8 sums in a
loop, ``break``/``continue`` in stepped loops, counts decided by the data, arrays made
per trip with the index as their size, a ``while`` whose condition crosses ``n - 1``.

    >>> def _size_step(x):
    ...     return [i for i in range(1, len(x), len(x) - 1)]   # step 0 at len(x) == 1
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round40_loops")
SIZES = (9, 10, 11, 12, 9, 1, 0, 2)


def _v(n, dtype=np.float64, seed=3):
    return (np.random.default_rng(seed + n).random(n) * 4 - 1).astype(dtype)


def _sized(fn, make=_v, sizes=SIZES, name=None):
    reg.case(fn, *[(lambda n=n: (make(n),)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


# ------------------------------------------------------------- slices with steps
def _back_slices(x):
    n = len(x)
    return x[n - 1::-3].copy(), x[-2::-2].sum(), x[:-1:-2].shape, x[::-4] * 2.0


def _size_step(x):
    n = len(x)
    try:
        return [i for i in range(1, n, n - 1)], x[1::max(n - 1, 1)]
    except ValueError as e:
        return str(e)


def _interleaved(x):
    k = 3
    for i in range(k):
        x[i::k] += i * 10.0
    return x


def _stepped_index_list(x):
    n = len(x)
    idx = list(range(0, n, 3))
    return x[idx], x[np.arange(1, n, 3)], np.arange(n)[::3]


def _add_at(x):
    np.add.at(x, list(range(0, len(x), 2)), 1.0)
    np.add.at(x, np.arange(len(x) - 1, -1, -3), -0.5)
    return x


def _zip_pairs(x):
    return [a * b for a, b in zip(x[::2], x[1::2])]


def _enumerate_strided(x):
    s = 0.0
    for i, v in enumerate(x[1::3]):
        s += i * v
    return s


def _window_write(x):
    for i in range(0, len(x), 4):
        x[i:i + 3] = i * 1.0                 # the last window is cut short
    return x


def _index_slices(x):
    n = len(x)
    out = []
    for i in range(0, n, 3):
        out.append(x[:i].sum())
        out.append(x[i:].shape[0])
    return out


for _fn in (_back_slices, _size_step, _interleaved, _stepped_index_list, _add_at,
            _zip_pairs, _enumerate_strided, _window_write, _index_slices):
    _sized(_fn)


def _grid(m):
    return m[::2, 1::3].copy(), m[1::2, ::-2].sum(axis=0), m[::3].shape


_sized(_grid, lambda n: np.arange(n * 7.0).reshape(n, 7))


def _args_slice(x, a, b, k):
    try:
        return x[a:b:k].copy(), len(range(a, b, k)) == len(x[a:b:k])
    except ValueError as e:
        return str(e)


reg.case(_args_slice, *[(np.arange(12.0), a, b, k) for a, b, k in
                        ((0, 10, 2), (1, 10, 3), (10, 0, -3), (11, None, -2), (None, None, 5),
                         (-1, -12, -4), (2, 3, 0), (0, 12, 7))], calls=1)


# ------------------------------------------------------------- NumPy ints as bounds
def _np_bounds(x):
    n = np.int64(len(x))
    out = []
    for i in range(np.int64(0), n, np.int64(2)):
        out.append(x[i] * i)
    return out, type(n).__name__


def _uint8_stop(x):
    s = 0.0
    for i in range(np.uint8(len(x)) - np.uint8(1), -1, -2):
        s += x[i]
    return s


def _int8_index(x):
    c = np.int8(125)
    out = []
    for _ in range(len(x)):
        c += np.int8(1)                      # 126, 127, -128, ...: negative indices
        out.append(x[int(c) % len(x)] if len(x) else None)
        out.append(int(c))
    return out


def _uint8_sums(x):
    acc = np.zeros(3, dtype=np.uint8)
    for i in range(0, len(x), 2):
        acc[i % 3] += 200                    # wraps (no warning for an array)
    return acc


def _int8_trip(x):
    t = np.int8(0)
    for i in range(0, len(x), 3):
        t = t + np.int8(i * 20)              # int8 + int8 wraps, with a warning
    return t, type(t).__name__


for _fn in (_np_bounds, _uint8_stop, _int8_index, _uint8_sums, _int8_trip):
    _sized(_fn)


# ------------------------------------------------------------- flow inside stepped loops
def _break_on_data(x):
    s = 0.0
    for i in range(0, len(x), 2):
        if x[i] > 2.0:
            break
        s += x[i]
    return s, i if len(x) else -1


def _continue_on_index(x):
    for i in range(len(x) - 1, -1, -3):
        if i % 2:
            continue
        x[i] = -x[i]
    return x


def _data_count(x):
    m = int((x > 0).sum())
    out = 0.0
    for i in range(0, m, 2):
        out += x[i]
    return out, m


def _made_per_trip(x):
    out = []
    for i in range(1, len(x), 3):
        out.append(np.zeros(i) + x[:i])
    return [a.sum() for a in out], [a.shape for a in out]


def _while_cross(x):
    i, n = 0, len(x)
    while i < n - 1:
        x[i] += x[i + 1]
        i += 3
    return x, i


def _mod_gather(x):
    n = len(x)
    return [x[(i * 3) % n] for i in range(0, n, 2)]


def _float_stop(x):
    n = len(x)
    return [x[i] for i in range(0, int(n * 0.5), 2)], int(n * 0.5)


def _down_to_zero(x):
    for i in range(len(x), 0, -2):
        x[i - 1] *= 3.0
    return x


for _fn in (_break_on_data, _continue_on_index, _data_count, _made_per_trip, _while_cross,
            _mod_gather, _float_stop, _down_to_zero):
    _sized(_fn)
