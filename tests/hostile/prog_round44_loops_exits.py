"""Round 44, loop exits with code of their own (``dynamo/translator/loop_returns.py``: a
``for ... in range`` loop whose exit on data returns, or runs code before its
``break``, or has an ``else:``, becomes one ``while_loop`` node and the exit's code is
chosen after it): exit tests on NaN (never true, or true through ``not``), exits on
the first and the last trip, ranges of zero trips (the loop variable unbound after),
``for ... else``, the two ways returning other types and dtypes (a NumPy scalar and a
Python float, float32 and float64, an int and None, a view and a copy, the argument
itself), exits that append, set an attribute, print, warn or raise, nested loops
with such exits, and int8 state that overflows before the exit.

    >>> def newton(x, a, tol):
    ...     for i in range(20):
    ...         x_new = 0.5 * (x + a / x)
    ...         if np.max(np.abs(x_new - x)) < tol:
    ...             return x_new, i + 1         # E: the exit's code
    ...         x = x_new
    ...     return x, 20                        # T: the range ran out
"""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round44_loops")
NAN = float("nan")


def _v(n=6, seed=3, dtype=np.float64):
    return (np.random.default_rng(seed + n).random(n) * 4 + 0.5).astype(dtype)


def case(fn, *sets, calls=1, name=None):
    """``fn`` once on each input set (deep copies), then on the first again."""
    reg.case(fn, *sets, calls=calls, name=name)


# --------------------------------------------------------------------- newton and kin

def _newton(x, a, tol, n):
    for i in range(n):
        x_new = 0.5 * (x + a / x)
        if np.max(np.abs(x_new - x)) < tol:
            return x_new, i + 1
        x = x_new
    return x, n


A = _v(5)
case(_newton, (A.copy(), A, 1e-9, 30), (A.copy(), A, 1e9, 30), (A.copy(), A, 1e-9, 0),
     (A.copy(), A, 1e-9, 2), (A.copy(), A, NAN, 30), name="newton_tol_first_zero_nan")
case(_newton, (np.array([NAN, 1.0]), np.array([2.0, 3.0]), 1e-9, 10),
     (np.array([1.0, 1.0]), np.array([1.0, 1.0]), 1e-9, 10),
     (np.array([-0.0, 1.0]), np.array([2.0, 3.0]), 1e-9, 10),
     (np.array([np.inf, 1.0]), np.array([2.0, 3.0]), 1e-9, 10), name="newton_nan_inf_data")
case(_newton, (A.astype(np.float32), A.astype(np.float32), np.float32(1e-3), 20),
     (A.astype(np.float32), A.astype(np.float32), 1e-30, 20), name="newton_float32")


def _newton_not(x, a, tol, n):
    """``not (err >= tol)``: NaN leaves at once."""
    for i in range(n):
        x_new = 0.5 * (x + a / x)
        if not (np.max(np.abs(x_new - x)) >= tol):
            return x_new, i
        x = x_new
    return x, -1


case(_newton_not, (A.copy(), A, 1e-9, 30), (np.array([NAN, 2.0]), np.array([1.0, 1.0]), 1e-9, 30),
     (A.copy(), A, 1e-9, 0))


def _newton_types(x, a, tol, n):
    """The exit returns a Python float and an int, the end a NumPy scalar and None."""
    for i in range(n):
        x_new = 0.5 * (x + a / x)
        err = np.max(np.abs(x_new - x))
        if err < tol:
            return float(err), i
        x = x_new
    return err, None


case(_newton_types, (A.copy(), A, 1e-9, 30), (A.copy(), A, 1e-9, 3), (A.copy(), A, 1e-9, 1))


def _newton_dtypes(x, a, tol, n):
    for i in range(n):
        x_new = 0.5 * (x + a / x)
        if np.max(np.abs(x_new - x)) < tol:
            return x_new.astype(np.float32)
        x = x_new
    return x


case(_newton_dtypes, (A.copy(), A, 1e-9, 30), (A.copy(), A, 1e-9, 2), (A.copy(), A, 1e-9, 0))


def _exit_returns_argument(x, t, n):
    """The exit returns the argument itself, the end a new array."""
    y = x
    for i in range(n):
        y = y * 0.5
        if np.max(y) < t:
            return x
    return y


case(_exit_returns_argument, (A.copy(), 1.0, 10), (A.copy(), 1e-9, 10), (A.copy(), 1.0, 0))


def _exit_returns_view(x, t, n):
    for i in range(n):
        x = x * 0.5
        if np.max(x) < t:
            return x[1:]
    return x[::-1]


case(_exit_returns_view, (A.copy(), 1.0, 10), (A.copy(), 1e-9, 10), (A.copy(), 1.0, 0))


def _exit_int_vs_float(x, t, n):
    s = 0
    for i in range(n):
        s = s + x[i % len(x)]
        if s > t:
            return i
    return s


case(_exit_int_vs_float, (A.copy(), 3.0, 10), (A.copy(), 1e9, 10), (A.copy(), 1e9, 0),
     (A.copy(), -1.0, 10))


def _exit_first_trip(x, n):
    for i in range(n):
        x = x + 1.0
        if np.all(x > 0):
            return x, i
    return x, n


case(_exit_first_trip, (A.copy(), 5), (-A * 10, 5), (-A * 10, 0), (np.array([NAN]), 3))


def _exit_last_trip(x, n):
    """Leaves on the last trip exactly: both ways return the same numbers."""
    for i in range(n):
        x = x + 1.0
        if x[0] >= n:
            return x, i, "exit"
    return x, n, "end"


case(_exit_last_trip, (np.array([0.0, 1.0]), 5), (np.array([0.0, 1.0]), 6),
     (np.array([1.0, 1.0]), 5), (np.array([0.5, 1.0]), 5))


# --------------------------------------------------------------------- break with code

def _break_code(x, t, n):
    hit = -1
    for i in range(n):
        x = x * 1.5
        if np.sum(x) > t:
            hit = i
            x = x - t
            break
    return x, hit


case(_break_code, (A.copy(), 100.0, 20), (A.copy(), 1e30, 20), (A.copy(), 100.0, 0),
     (A.copy(), NAN, 20), (A.copy(), -1.0, 20))


def _break_unbound(x, t, n):
    """``r`` is bound only on the exit's way: UnboundLocalError at the end's."""
    for i in range(n):
        x = x + 1.0
        if x[0] > t:
            r = x * 2
            break
    return r


case(_break_unbound, (A.copy(), 3.0, 10), (A.copy(), 100.0, 10), (A.copy(), 3.0, 0))


def _loop_var_after(x, t, n):
    for i in range(n):
        x = x + 1.0
        if x[0] > t:
            x = -x
            break
    return x, i


case(_loop_var_after, (A.copy(), 3.0, 10), (A.copy(), 100.0, 10), (A.copy(), 3.0, 0))


def _for_else(x, t, n):
    found = None
    for i in range(n):
        x = x * 2.0
        if np.max(x) > t:
            found = i
            break
    else:
        found = "none"
        x = x - 1.0
    return x, found


case(_for_else, (A.copy(), 10.0, 8), (A.copy(), 1e30, 8), (A.copy(), 10.0, 0), (A.copy(), NAN, 8))


def _for_else_return(x, t, n):
    for i in range(n):
        x = x * 2.0
        if np.max(x) > t:
            break
    else:
        return "ran out", x
    return i, x


case(_for_else_return, (A.copy(), 10.0, 8), (A.copy(), 1e30, 8), (A.copy(), 10.0, 0))


def _break_dtype_change(x, t, n):
    for i in range(n):
        x = x + 0.25
        if x[0] > t:
            x = x.astype(np.int8)
            break
    return x, x.dtype


case(_break_dtype_change, (A.copy(), 2.0, 10), (A.copy(), 99.0, 10), (A.copy(), 2.0, 0))


def _break_shape_change(x, t, n):
    for i in range(n):
        x = x * 1.1
        if np.sum(x) > t:
            x = x[:2]
            break
    return x


case(_break_shape_change, (A.copy(), 20.0, 10), (A.copy(), 1e9, 10))


# --------------------------------------------------------------------- exits with effects

def _exit_appends(x, log, t, n):
    for i in range(n):
        x = x * 1.5
        if np.max(x) > t:
            log.append(i)
            return x
    log.append("end")
    return x


case(_exit_appends, (A.copy(), [], 20.0, 10), (A.copy(), [], 1e9, 10), (A.copy(), [0], 20.0, 0))


class _Box:
    def __init__(self):
        self.where = None


def _exit_sets_attr(x, box, t, n):
    for i in range(n):
        x = x * 1.5
        if np.max(x) > t:
            box.where = i
            break
    else:
        box.where = -1
    return x, box


case(_exit_sets_attr, (A.copy(), _Box(), 20.0, 10), (A.copy(), _Box(), 1e9, 10),
     (A.copy(), _Box(), 20.0, 0))


def _exit_prints(x, t, n):
    for i in range(n):
        x = x * 1.5
        if np.max(x) > t:
            print("left at", i)
            return x
    print("ran out")
    return x


case(_exit_prints, (A.copy(), 20.0, 10), (A.copy(), 1e9, 10), (A.copy(), 20.0, 0))


def _exit_warns(x, t, n):
    for i in range(n):
        x = x * 1.5
        if np.max(x) > t:
            warnings.warn(f"left at {i}", stacklevel=1)
            return x
    return x


case(_exit_warns, (A.copy(), 20.0, 10), (A.copy(), 1e9, 10))


def _exit_raises(x, t, n):
    for i in range(n):
        x = x * 1.5
        if np.max(x) > t:
            raise ValueError(f"too big at {i}")
    return x


case(_exit_raises, (A.copy(), 20.0, 10), (A.copy(), 1e9, 10), (A.copy(), 20.0, 0))


def _exit_writes_input(x, out, t, n):
    for i in range(n):
        x = x * 1.5
        if np.max(x) > t:
            out[0] = i
            return x
    out[0] = -1
    return x


case(_exit_writes_input, (A.copy(), np.zeros(2), 20.0, 10), (A.copy(), np.zeros(2), 1e9, 10))


def _exit_divides(x, d, n):
    """The exit's code divides by a Python number that may be 0 (both ways' ops run)."""
    for i in range(n):
        x = x - 1.0
        if x[0] < 0:
            return x / d
    return x * d


case(_exit_divides, (A.copy(), 0.0, 10), (A.copy(), 2.0, 10), (A.copy() + 100, 0.0, 10),
     (A.copy(), 0, 10))


def _exit_divides_array(x, n):
    """The untaken way divides by zero: its warning must not show."""
    z = x * 0.0
    for i in range(n):
        x = x - 1.0
        if x[0] < 0:
            return x / z
    return x


case(_exit_divides_array, (A.copy() + 100, 5), (A.copy(), 10))


def _exit_log_errstate(x, n):
    with np.errstate(all="raise"):
        for i in range(n):
            x = x - 1.0
            if x[0] < 0:
                return np.log(x)
        return x


case(_exit_log_errstate, (A.copy() + 100, 5), (A.copy(), 10))


# --------------------------------------------------------------------- ints and nesting

def _int8_carried(x, n):
    c = np.int8(100)
    for i in range(n):
        c = c + np.int8(10)
        if x[i % len(x)] > 4.0:
            return c, i
    return c, n


case(_int8_carried, (A.copy(), 5), (A.copy() * 0, 5), (A.copy() * 0, 0))


def _int8_array_carried(x, n):
    c = np.full(3, 120, np.int8)
    for i in range(n):
        c = c + np.int8(3)
        if x[i % len(x)] > 4.0:
            return c
    return c.astype(np.int16)


case(_int8_array_carried, (A.copy(), 6), (A.copy() * 0, 6))


def _nested_exits(x, t, n, m):
    for i in range(n):
        for j in range(m):
            x = x * 1.1
            if np.max(x) > t:
                return x, i, j
        x = x - 0.1
    return x, n, m


case(_nested_exits, (A.copy(), 20.0, 5, 5), (A.copy(), 1e9, 5, 5), (A.copy(), 20.0, 0, 5),
     (A.copy(), 20.0, 5, 0))


def _nested_inner_break(x, t, n, m):
    hits = 0
    for i in range(n):
        for j in range(m):
            x = x * 1.1
            if np.max(x) > t:
                x = x / 4
                hits = hits + 1
                break
    return x, hits


case(_nested_inner_break, (A.copy(), 8.0, 6, 6), (A.copy(), 1e9, 6, 6))


def _reversed_range_exit(x, t):
    for i in range(len(x) - 1, -1, -1):
        if x[i] > t:
            return i, x[i]
    return -1, None


case(_reversed_range_exit, (A.copy(), 3.0), (A.copy(), 99.0), (np.array([NAN, 5.0]), 4.0),
     (np.zeros(0), 0.0))


def _stepped_exit(x, t, n):
    for i in range(1, n, 3):
        x = x + i
        if x.sum() > t:
            return x, i
    return x, None


case(_stepped_exit, (A.copy(), 50.0, 30), (A.copy(), 1e9, 30), (A.copy(), 50.0, 1))


def _empty_array_exit(x, n):
    for i in range(n):
        x = x * 2
        if x.sum() > 10:
            return x, i
    return x, -1


case(_empty_array_exit, (np.zeros(0), 5), (A.copy(), 5))


def _exit_on_int_state(x, n):
    k = 0
    for i in range(n):
        k = k * 3 + 1
        x = x + k
        if x[0] > 1000:
            return k, x
    return k + 0.5, x


case(_exit_on_int_state, (A.copy(), 12), (A.copy(), 3), (A.copy(), 0))


def _exit_big_int(x, n):
    k = 2 ** 62
    for i in range(n):
        k = k * 2
        x = x + 1.0
        if x[0] > 4:
            return k
    return k


case(_exit_big_int, (A.copy(), 6), (A.copy() - 100, 6))
