"""Round 42, choices written back as the program's ``if`` in a loop node's code
(``backends/numpy_backend/select_code.py``): an untaken way that would raise or warn
(``np.log`` of a negative, ``1 / 0`` under ``errstate(divide="raise")``, ``int(nan)``,
``sqrt`` of a negative under ``errstate(invalid="raise")``), a taken way that warns on
each trip, ``elif`` chains of three and four ways, two stores on one flag to the same
element, a store into an input that is also the other input, a flag read from the very
array being written (its element, its neighbour), int8 wrapping in a way.

    >>> def _log_pos(x):
    ...     y = np.zeros_like(x)
    ...     for i in range(len(x)):
    ...         if x[i] > 0:
    ...             y[i] = np.log(x[i])
    ...     return y
"""

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round42_loops")
NAN, INF = float("nan"), float("inf")


def _data(n, seed=21, specials=(NAN, -0.0, INF, 0.0, -INF)):
    x = np.random.default_rng(seed + n).random(n) * 6 - 3
    for k, s in enumerate(specials):
        if 2 * k + 1 < n:
            x[2 * k + 1] = s
    return x


def _sized(fn, make=None, sizes=(12, 0, 1, 2, 16, 12), name=None):
    make = make or (lambda n: (_data(n),))
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


def _log_pos(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if x[i] > 0:
            y[i] = np.log(x[i])
    return y


def _log_else(x):
    y = np.empty_like(x)
    for i in range(len(x)):
        if x[i] > 0:
            y[i] = np.log(x[i])
        else:
            y[i] = np.log(-x[i] + 1.0)
    return y


def _log_all(x):
    """The taken way warns (log of -0.0, 0.0, negatives) once per trip it runs."""
    y = x.copy()
    for i in range(len(x)):
        if x[i] < 1.0:
            y[i] = np.log(x[i])
    return y


def _div_raise(x):
    y = np.zeros_like(x)
    with np.errstate(divide="raise"):
        for i in range(len(x)):
            if x[i] != 0:
                y[i] = 1.0 / x[i]
    return y


def _div_raise_outside(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if x[i] != 0:
            y[i] = 1.0 / x[i]
    return y


def _sqrt_raise_outside(x):
    y = np.full_like(x, -1.0)
    for i in range(len(x)):
        if x[i] >= 0:
            y[i] = np.sqrt(x[i])
    return y


def _int_of_nan_untaken(x):
    y = np.zeros(len(x), dtype=np.int64)
    for i in range(len(x)):
        if x[i] == x[i] and abs(x[i]) < INF:
            y[i] = int(x[i] * 10)
    return y


def _elif3(x):
    y = x.copy()
    for i in range(len(y)):
        if y[i] < -1:
            y[i] = -1.0
        elif y[i] > 1:
            y[i] = 1.0
        elif y[i] == 0:
            y[i] = 0.5
    return y


def _elif4_else(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if x[i] < -2:
            y[i] = 1.0
        elif x[i] < 0:
            y[i] = np.sqrt(-x[i])
        elif x[i] < 2:
            y[i] = np.log1p(x[i])
        else:
            y[i] = 4.0
    return y


def _two_stores_same(x):
    y = x.copy()
    for i in range(len(y)):
        if y[i] > 0:
            y[i] = 1.0
            y[i] = y[i] + x[i]
    return y


def _store_twice_two_flags(x):
    y = x.copy()
    for i in range(len(y)):
        if x[i] > 0:
            y[i] = 2.0
        if x[i] > 1:
            y[i] = y[i] * 3.0
    return y


def _aliased_inputs(a, b):
    """``b`` is ``a`` in some calls: the store into ``b`` changes what ``a[i + 1]``
    reads next trip."""
    for i in range(len(a) - 1):
        if a[i] > 0:
            b[i + 1] = a[i] * 0.5
    return a.sum(), b.sum()


def _same(n):
    x = _data(n)
    return (x, x)


def _other(n):
    return (_data(n), _data(n, seed=3))


def _view_of_other(n):
    x = _data(n + 1)
    return (x[1:], x[:-1])


def _flag_from_written(x):
    y = x.copy()
    for i in range(1, len(y)):
        if y[i] > y[i - 1]:
            y[i] = y[i - 1]
    return y


def _flag_from_next(x):
    y = x.copy()
    for i in range(len(y) - 1):
        if y[i + 1] < y[i]:
            y[i + 1] = y[i] + 1.0
    return y


def _flag_from_self(x):
    y = x.copy()
    for i in range(len(y)):
        if y[i] < 0:
            y[i] = -y[i]
        if y[i] > 2:
            y[i] = 2.0
    return y


def _i8_wrap_taken(a):
    b = a.copy()
    for i in range(len(b)):
        if b[i] > 60:
            b[i] = b[i] * 2 + 1
    return b


def _i8_untaken_overflow(a):
    b = a.copy()
    for i in range(len(b)):
        if b[i] < -200:
            b[i] = b[i] * 100
    return b


def _i8(n):
    return (np.random.default_rng(n).integers(-128, 128, n).astype(np.int8),)


def _pick_value_cast(x):
    """A Python float into an int64 array: truncated, as eager's store does."""
    y = np.zeros(len(x), dtype=np.int64)
    for i in range(len(x)):
        if abs(x[i]) < 100:
            y[i] = x[i] * 1.5
    return y


def _errstate_arg(x, mode):
    y = np.zeros_like(x)
    with np.errstate(invalid=mode, divide=mode):
        for i in range(len(x)):
            if x[i] > -1:
                y[i] = np.log(x[i])
    return y


def _sqrt_between_flag_and_if(x):
    """``w`` is computed after the flag but before the ``if``: on every trip (a warning
    for each negative), not only where the flag holds (found here: it moved into the
    branch, ``select_code._closure``)."""
    y = np.zeros_like(x)
    for i in range(len(x)):
        flag = x[i] > 0
        w = np.sqrt(x[i])
        if flag:
            y[i] = w + 1.0
    return y


def _log_between_flag_and_if_pick(x):
    s = 0.0
    for i in range(len(x)):
        flag = x[i] > -1
        w = np.log(x[i] + 2.0) * 0.5
        if flag:
            s = s + w
    return s


def _sqrt_between_elif(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if x[i] > 1:
            y[i] = 1.0
        else:
            f = x[i] < 0
            w = np.sqrt(x[i] + 1.0)
            if f:
                y[i] = w
    return y


def _two_ifs_one_flag_between(x):
    """A ``sqrt`` on every trip between two ``if`` statements on one flag (found here:
    it moved into the second one's branch)."""
    y, z = np.zeros_like(x), np.zeros_like(x)
    for i in range(len(x)):
        f = x[i] > 0
        if f:
            y[i] = np.log(x[i])
        w = np.sqrt(x[i])
        if f:
            z[i] = w
    return y, z


def _pick_then_store_between(x):
    best, y = x[0], np.zeros_like(x)
    for i in range(len(x)):
        if x[i] > 0:
            best = x[i]
        w = np.sqrt(x[i])
        if x[i] > 0:
            y[i] = w
    return best, y


def _same_op_before_and_in_way(x):
    """``np.sqrt(x[i])`` before the flag and again in the way (one op after CSE)."""
    y = np.zeros_like(x)
    for i in range(len(x)):
        f = x[i] > 0
        a = np.sqrt(x[i])
        if f:
            y[i] = np.sqrt(x[i]) * 2.0
    return y, a


def _same_op_both_ways(x):
    y = np.zeros_like(x)
    for i in range(len(x)):
        if x[i] > 0:
            y[i] = np.sqrt(x[i]) + 1
        else:
            y[i] = np.sqrt(x[i]) - 1
    return y


def _old_value_read_after(x):
    m, out = x[0], np.zeros_like(x)
    for i in range(len(x)):
        old = m
        if x[i] < m:
            m = x[i]
        out[i] = old - m
    return out


def _flag_name_rebound(x):
    y, s = np.zeros_like(x), x[0]
    for i in range(len(x)):
        f = x[i] > 0
        if f:
            s = x[i]
        f = x[i] < -1
        if f:
            y[i] = s
    return y, s


for _f in (_two_ifs_one_flag_between, _pick_then_store_between, _same_op_before_and_in_way,
           _same_op_both_ways, _old_value_read_after, _flag_name_rebound,
           _sqrt_between_flag_and_if, _log_between_flag_and_if_pick, _sqrt_between_elif,
           _log_pos, _log_else, _log_all, _div_raise, _int_of_nan_untaken, _elif3,
           _elif4_else, _two_stores_same, _store_twice_two_flags, _flag_from_written,
           _flag_from_next, _flag_from_self, _pick_value_cast):
    _sized(_f)
for _f in (_i8_wrap_taken, _i8_untaken_overflow):
    _sized(_f, make=_i8)
for _make, _tag in ((_same, "same"), (_other, "other"), (_view_of_other, "view")):
    _sized(_aliased_inputs, make=_make, sizes=(12, 2, 16), name=f"aliased_inputs_{_tag}")


def _raise_around(fn, divide):
    def run(x):
        with np.errstate(divide=divide, invalid=divide):
            return fn(x)
    run.__name__ = fn.__name__
    return run


reg.case(_raise_around(_div_raise_outside, "raise"),
         *[(lambda n=n: (_data(n),)) for n in (12, 0, 16)], calls=1,
         name="div_errstate_around_call")
reg.case(_raise_around(_sqrt_between_flag_and_if, "raise"),
         *[(lambda n=n: (_data(n),)) for n in (12, 1, 16)], calls=1,
         name="sqrt_between_errstate_around_call")
reg.case(_raise_around(_sqrt_raise_outside, "raise"),
         *[(lambda n=n: (_data(n),)) for n in (12, 1, 16)], calls=1,
         name="sqrt_errstate_around_call")
reg.case(_errstate_arg, *[(lambda m=m: Args(_data(12), m))
                          for m in ("ignore", "warn", "raise", "ignore")], calls=1)
