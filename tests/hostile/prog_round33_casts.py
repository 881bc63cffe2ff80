"""Round 33, NumPy scalar casts of changing numbers (``variables/number_casts.py``): a
scalar type called on an int or float that changes between calls (an attribute counted
up, an argument), cast when the graph runs: every float and int type, counters that
walk out of an int type's range (eager raises ``OverflowError`` at that call, and the
guard of the range must send that very value to eager), across ``2**24`` where
``float32`` rounds, negative values into unsigned types, huge ints, floats cast to
ints (``np.int32(2.7)``), the cast used as a value, a result, an index and a size.

    >>> def _scaled(c, x):
    ...     c.n += c.step
    ...     return np.float32(c.n) * x
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round33_casts")

X = np.array([1.0, -2.0, 0.5], dtype=np.float32)


class Counter:
    def __init__(self, start, step):
        self.n = start
        self.step = step


def _times(t):
    def fn(c, x):
        c.n += c.step
        return t(c.n) * x
    fn.__name__ = f"_times_{t.__name__}"
    return fn


def _plus(t):
    def fn(c, x):
        c.n += c.step
        return x + t(c.n), c.n
    fn.__name__ = f"_plus_{t.__name__}"
    return fn


def _alone(t):
    def fn(c, x):
        c.n += c.step
        v = t(c.n)
        return v, type(v).__name__, x.sum() * 2
    fn.__name__ = f"_alone_{t.__name__}"
    return fn


def _arg(t):
    def fn(n, x):
        return t(n) * x - t(n + 1)
    fn.__name__ = f"_arg_{t.__name__}"
    return fn


# (start, step) walks: inside every type, out of int8/uint8 soon, across 2**24
WALKS = {"small": (0, 1), "edge": (124, 1), "down": (2, -1), "big": (2**24 - 2, 1)}
TYPES = (np.float32, np.float64, np.float16, np.int8, np.uint8, np.int16, np.int32,
         np.int64, np.complex64, np.uint16)


def _walk_program(make, t, walk):
    fn = make(t)

    def scenario(r):
        start, step = WALKS[walk]
        f = r.compile(fn)
        c = Counter(start, step)
        for _ in range(5):
            r.call(f, c, X.copy())
            r.see("n", c.n)
    reg._add(f"{fn.__name__.removeprefix('_')}_{walk}", scenario, "")


for _t in TYPES:
    _walk_program(_times, _t, "small")
    _walk_program(_times, _t, "edge")
    _walk_program(_plus, _t, "down")
for _t in (np.float32, np.int8, np.uint8, np.int16, np.float16, np.int32):
    _walk_program(_alone, _t, "big" if _t in (np.float32, np.int32) else "edge")


def _arg_program(t, values):
    fn = _arg(t)

    def scenario(r):
        f = r.compile(fn)
        for n in values:
            r.call(f, n, X.copy())
    reg._add(f"{fn.__name__.removeprefix('_')}", scenario, "")


for _t, _values in ((np.int8, (1, 2, 126, 127, 3)), (np.uint8, (3, 1, 0, -1, 4)),
                    (np.float32, (2**24, 2**24 + 1, 7, 2**40 + 1)),
                    (np.int64, (5, 2**62, 2**63, 6)),
                    (np.float64, (1, 2**80, -3)), (np.int16, (100, 32766, 40000, 1))):
    _arg_program(_t, _values)


class FloatClock:
    def __init__(self, t, dt):
        self.t, self.dt = t, dt


def _float_cast(c, x):
    c.t += c.dt
    return np.float32(c.t) * x, np.float16(c.t) + x


def _float_to_int(c, x):
    c.t += c.dt
    return np.int32(c.t) * x


def _cast_as_index(c, x):
    c.n += c.step
    return x[np.int16(c.n) % 3] * 2


def _cast_as_size(c, x):
    c.n += c.step
    return np.zeros(np.int8(c.n)) + x.sum()


def _cast_compared(c, x):
    c.n += c.step
    if np.float32(c.n) > 2.5:
        return x * 2
    return x - np.int8(c.n)


def _cast_in_loop(c, x):
    for _ in range(3):
        c.n += c.step
        x = x * np.float32(c.n)
    return x


for _name, _fn, _obj in (
        ("float_cast_tenths", _float_cast, lambda: FloatClock(0.0, 0.1)),
        ("float_cast_huge", _float_cast, lambda: FloatClock(6.0e4, 3000.0)),
        ("float_to_int", _float_to_int, lambda: FloatClock(-1.5, 0.75)),
        ("float_to_int_nan", _float_to_int, lambda: FloatClock(float("inf"), 0.0)),
        ("cast_as_index", _cast_as_index, lambda: Counter(0, 2)),
        ("cast_as_size", _cast_as_size, lambda: Counter(124, 1)),
        ("cast_as_negative_size", _cast_as_size, lambda: Counter(2, -1)),
        ("cast_compared", _cast_compared, lambda: Counter(0, 1)),
        ("cast_compared_overflowing", _cast_compared, lambda: Counter(125, 1)),
        ("cast_in_loop", _cast_in_loop, lambda: Counter(0, 1)),
        ("cast_in_loop_int8_edge", _cast_in_loop, lambda: Counter(120, 3))):
    def _scenario(r, fn=_fn, obj=_obj):
        f = r.compile(fn)
        c = obj()
        for _ in range(5):
            r.call(f, c, X.copy())
            r.see("state", vars(c))
    reg._add(_name, _scenario, (_fn.__doc__ or "").strip())


def _changing_kind(c, x):
    c.n = c.seq[c.k]
    c.k += 1
    return np.float32(c.n) * x, np.int16(c.n) + 1


class Seq:
    def __init__(self, seq):
        self.seq, self.k, self.n = seq, 0, None


for _name, _seq in (("kind_int_bool_float", [1, True, 2.5, 3, False, -2]),
                    ("kind_huge_ints", [3, 2**70, 4, -(2**70), 5, 6]),
                    ("kind_numpy_ints", [np.int64(3), 4, np.int8(-5), np.uint8(200), 7, 8]),
                    ("kind_float_past_f32", [1.0, 3.5e38, 2.0, -1e300, 3.0, 4.0])):
    def _scenario(r, seq=_seq):
        f = r.compile(_changing_kind)
        c = Seq(seq)
        for _ in range(len(seq)):
            r.call(f, c, X.copy())
            r.see("n", c.n)
    reg._add(_name, _scenario, "")
