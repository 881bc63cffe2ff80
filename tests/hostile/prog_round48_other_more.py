"""Round 48, other kinds (2 of 2): ``__index__`` objects as sizes, slice bounds, repeat
counts, axes and ``range`` bounds (one that raises, one that answers differently on
every call), ``__len__``/``__bool__``/``__array__`` that disagree with the array
inside, int subclasses as sizes, errors after writes through views, and ``with``
blocks that swallow an exception inside a loop. The first part is
``prog_round48_other.py``.

    >>> class Idx:
    ...     def __index__(self): return 4     # np.zeros(Idx()) has 4 elements
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round48_other")
case, scenario = reg.case, reg.scenario


def _v(n=14, k=0.0):
    return np.arange(n, dtype=np.float64) * 0.5 - 2.0 + k


# ----------------------------------------------------------------------------- __index__

class Idx:
    def __init__(self, n):
        self.n = n
        self.calls = 0

    def __index__(self):
        self.calls += 1
        return self.n


def _index_as_size(n, x):
    return np.zeros(n) + x[:3].sum(), n.calls


case(_index_as_size, (Idx(4), _v()), (Idx(6), _v()))


def _index_as_slice(k, x):
    return x[k:] * 2.0, x[:k].sum()


case(_index_as_slice, (Idx(3), _v()), (Idx(5), _v()))


def _index_as_repeat(k, x):
    return np.repeat(x[:2], k), np.tile(x[:2], k)


case(_index_as_repeat, (Idx(2), _v()), (Idx(3), _v()))


def _index_as_axis(ax, m):
    return m.sum(axis=ax)


case(_index_as_axis, (Idx(0), np.ones((2, 3))), (Idx(1), np.ones((2, 3))))


def _index_in_range_loop(k, x):
    for i in range(k):
        x[i] += i
    return x


case(_index_in_range_loop, (Idx(10), _v()), (Idx(12), _v()))


class BadIndex:
    def __index__(self):
        raise RuntimeError("no index")


def _bad_index(k, x):
    try:
        return x[k]
    except RuntimeError as e:
        return str(e)


case(_bad_index, (BadIndex(), _v()))


class Shifty:
    """``__index__`` answers a different number on every call."""

    def __init__(self):
        self.n = 1

    def __index__(self):
        self.n += 1
        return self.n


def _shifty_index(k, x):
    return x[k], x[k], np.ones(k).shape


case(_shifty_index, (Shifty(), _v()), calls=3)


class Lenny:
    def __init__(self, a):
        self.a = a

    def __len__(self):
        return 3

    def __bool__(self):
        return False

    def __array__(self, dtype=None, copy=None):
        return self.a


def _len_bool_disagree(o):
    n = len(o)
    b = bool(o)
    return n, b, np.asarray(o).sum()


case(_len_bool_disagree, (Lenny(_v(5)),))


def _array_protocol_alias(o, x):
    a = np.asarray(o)
    a[0] = 77.0
    return x[0], a is x


case(_array_protocol_alias, lambda: (lambda x: (Lenny(x), x))(_v(5)), (Lenny(_v(5)), _v(5)))


class FloatLike:
    def __float__(self):
        return 2.5


def _float_like_scalar(x, f):
    return x * float(f), np.full(2, float(f))


case(_float_like_scalar, (_v(3), FloatLike()))


def _int_subclass_size(n, x):
    return np.ones(n) * x[0], n + 1


class MyInt(int):
    def __add__(self, other):
        return MyInt(int(self) + int(other) + 100)


case(_int_subclass_size, (MyInt(3), _v()), (MyInt(4), _v()))


def _range_len_index(k, x):
    r = range(0, 20, k)
    return len(r), x[r[1]], np.arange(len(r)).sum()


case(_range_len_index, (Idx(3), _v()), (Idx(4), _v()))


def _np_int_index_overflow(i, x):
    try:
        return x[i]
    except IndexError as e:
        return str(e)


case(_np_int_index_overflow, (np.int64(3), _v()), (np.int64(2**40), _v()), (np.uint8(250), _v()))


def _error_after_view_write(x, k):
    w = x[2:6]
    w += 1.0
    if k > 0:
        raise ValueError("after writing a view")
    return x


case(_error_after_view_write, (_v(), 0), (_v(), 1))


def _divide_error_after_out(x, y):
    with np.errstate(divide="raise"):
        np.add(x, 1.0, out=x)
        return np.divide(y, x)


case(_divide_error_after_out, (_v(), np.ones(14)), (np.full(14, -1.0), np.ones(14)))


def _exception_context_kept(x):
    try:
        x[20]
    except IndexError:
        try:
            return x[:3] / np.array([1.0, 0.0, 1.0]).astype(int)
        except ZeroDivisionError as e:
            return e.__context__ is not None
    return None


case(_exception_context_kept, (_v(),))


class Swallow:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, tp, value, tb):
        self.log.append(tp.__name__ if tp else "clean")
        return True


def _swallowed_in_loop(x, log):
    for i in range(10):
        with Swallow(log):
            x[i] = x[i + 5] * 2.0
    return x


case(_swallowed_in_loop, (_v(), []))


class Funky:
    def __init__(self, a):
        self.a = a

    def __array_function__(self, func, types, args, kwargs):
        if func is np.concatenate:
            return "concatenated"
        return NotImplemented


def _array_function_override(o, x):
    try:
        s = np.sum(o)
    except TypeError as e:
        s = type(e).__name__
    return np.concatenate([o, x]), s


case(_array_function_override, (Funky(np.ones(2)), np.zeros(2)))


def _generator_left_suspended(x, keep):
    def squares():
        for i in range(x.shape[0]):
            x[i] = x[i] ** 2
            yield float(x[i])

    g = squares()
    keep.append(next(g))
    keep.append(next(g))
    return x.copy(), len(keep)


case(_generator_left_suspended, (_v(), []))
