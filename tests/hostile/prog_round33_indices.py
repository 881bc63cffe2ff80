"""Round 33, indices of ints that change after Python effects (``symbolic/indices.py``:
``guard_in_bounds``): ``x[self.n % 4]``, ``x[-self.n]``, ``x[self.n]`` walking out of
bounds (eager's very ``IndexError`` at that call), two-axis and column picks, slices
from a changing start, writes at a changing index, the index taken after a list append,
a print, an attribute write or a call of a helper, and the index read from an argument.

    >>> def _pick(c, x):
    ...     c.n += 1
    ...     c.log.append(c.n)
    ...     return x[c.n % 4] * 2
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round33_indices")

V = np.array([10.0, -1.0, 2.5, 7.0])
M = np.arange(12.0).reshape(3, 4)


class Walker:
    def __init__(self, start, step):
        self.n, self.step, self.log = start, step, []

    def bump(self):
        self.n += self.step
        return self.n


def _mod(c, x):
    c.n += c.step
    c.log.append(c.n)
    return x[c.n % 4] * 2


def _neg(c, x):
    c.n += c.step
    return x[-c.n] + 1


def _plain(c, x):
    c.n += c.step
    return x[c.n] - x[0]


def _shifted(c, x):
    c.n += c.step
    return x[c.n - 3], c.n


def _two_axes(c, x):
    c.n += c.step
    return np.sin(x)[c.n % 3, c.n - 2]


def _column(c, x):
    c.n += c.step
    return (x * 2)[:, c.n]


def _row_neg(c, x):
    c.n += c.step
    return x[-c.n] * x[c.n % 3]


def _slice_from(c, x):
    c.n += c.step
    return x[c.n:c.n + 2] * 3, x[-c.n:]


def _write_at(c, x):
    c.n += c.step
    x[c.n] = -1.0
    return x * 2


def _after_print(c, x):
    c.n += c.step
    print("n is", c.n)
    return x[c.n] + x[c.n % 2]


def _after_helper(c, x):
    k = c.bump()
    return x[k] * x[-1]


def _after_attr_write(c, x):
    c.n += c.step
    c.last = x[c.n % 4]
    return c.last * 2, x[c.n]


def _index_of_sum(c, x):
    c.n += c.step
    y = np.cumsum(x)
    return y[c.n], y[len(c.log) - c.n]


def _item_index(c, x):
    c.n += c.step
    return x[c.n].item(), float(x[c.n])


def _take(c, x):
    c.n += c.step
    return np.take(x, c.n), x.flat[c.n]


FNS_1D = (_mod, _neg, _plain, _shifted, _slice_from, _write_at, _after_print,
          _after_helper, _after_attr_write, _index_of_sum, _item_index, _take)
FNS_2D = (_two_axes, _column, _row_neg)
# (start, step): walks out of bounds upwards, downwards, and around zero
WALKS = {"up": (0, 1), "down": (2, -1), "jump": (-5, 3)}


def _program(fn, arr, walk):
    def scenario(r):
        start, step = WALKS[walk]
        f = r.compile(fn)
        c = Walker(start, step)
        for _ in range(7):
            r.call(f, c, arr.copy())
            r.see("walker", (c.n, list(c.log)))
    reg._add(f"{fn.__name__.removeprefix('_')}_{walk}", scenario, "")


for _fn in FNS_1D:
    for _walk in WALKS:
        _program(_fn, V, _walk)
for _fn in FNS_2D:
    for _walk in WALKS:
        _program(_fn, M, _walk)


def _arg_index(x, i):
    return x[i] * 2 + x[-i]


def _arg_two(x, i, j):
    return x[i, j], x[j % 3]


for _name, _fn, _calls in (
        ("arg_index", _arg_index, [(V, 1), (V, 3), (V, 4), (V, -4), (V, -5), (V, 0)]),
        ("arg_index_bool", _arg_index, [(V, True), (V, False), (V, 2)]),
        ("arg_index_np_int", _arg_index, [(V, np.int64(2)), (V, np.int8(3)), (V, 9)]),
        ("arg_two", _arg_two, [(M, 0, 1), (M, 2, 3), (M, 3, 0), (M, -3, -4), (M, 1, 4)])):
    def _scenario(r, fn=_fn, calls=_calls):
        f = r.compile(fn)
        for args in calls:
            r.call(f, *(a.copy() if isinstance(a, np.ndarray) else a for a in args))
    reg._add(_name, _scenario, "")


def _seq_index(c, x):
    c.n = c.seq[len(c.log)]
    c.log.append(c.n)
    return x[c.n] * 2, x[-1]


class SeqWalker:
    def __init__(self, seq):
        self.seq, self.log, self.n = seq, [], None


for _name, _seq in (("seq_float_index", [1, 2, 1.0, 3, 0]),
                    ("seq_bool_index", [1, True, False, 2, 3]),
                    ("seq_numpy_ints", [np.int64(1), 2, np.uint8(3), np.int8(-4), 2]),
                    ("seq_huge", [1, 2**64, 2, -(2**70), 3])):
    def _scenario(r, seq=_seq):
        f = r.compile(_seq_index)
        c = SeqWalker(seq)
        for _ in range(len(seq)):
            r.call(f, c, V.copy())
            r.see("log", list(c.log))
    reg._add(_name, _scenario, "")
