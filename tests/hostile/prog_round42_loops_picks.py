"""Round 42, numbers picked per trip of a loop node (``translator/picked_numbers.py``)
and the Python ints the numpy backend carries for them (``carried_ints.py``,
``carried_choices.py``): a running argmin / argmax over NaN (every comparison false),
``-0.0`` against ``0.0``, ties (``<`` keeps the first, ``<=`` the last), int8 / uint8 /
float32 data (the picked value is eager's NumPy scalar, the index a Python int), 0 and
1 trips, a Python float start never picked (it stays a Python float), a bool start,
counters near and past int64, the number read after the loop as a dict key, a list
index, an f-string, an ``is`` test, a size. Sizes past the unroll limit, then 0, 1, 2.

    >>> def _argmin(d):
    ...     best, arg = d[0], 0
    ...     for i in range(1, len(d)):
    ...         if d[i] < best:
    ...             best = d[i]
    ...             arg = i
    ...     return best, arg
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round42_loops")
SIZES = (12, 1, 2, 16, 0, 12, 3)
NAN, INF = float("nan"), float("inf")
ZERO, BIG = 0, 300


def _data(n, seed=5, specials=(NAN, -0.0, INF, 0.0, -INF)):
    x = np.random.default_rng(seed + n).random(n) * 6 - 3
    for k, s in enumerate(specials):
        if 3 * k + 2 < n:
            x[3 * k + 2] = s
    return x


def _sized(fn, make=None, sizes=SIZES, name=None):
    make = make or (lambda n: (_data(n),))
    reg.case(fn, *[(lambda n=n: make(n)) for n in sizes], calls=1,
             name=name or fn.__name__.removeprefix("_"))


def _nan_first(n):
    x = _data(n)
    if n:
        x[0] = NAN
    return (x,)


def _ties(n):
    return (np.round(_data(n, specials=()) * 0.5),)


def _zeros(n):
    x = np.zeros(n)
    x[1::2] = -0.0
    return (x,)


def _i8(n):
    return (np.random.default_rng(n).integers(-128, 128, n).astype(np.int8),)


def _u8(n):
    return (np.random.default_rng(n).integers(0, 256, n).astype(np.uint8),)


def _f32(n):
    return (_data(n).astype(np.float32),)


def _argmin(d):
    best, arg = d[0], 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg, type(best).__name__, type(arg).__name__


def _argmax_le(d):
    best, arg = d[0], 0
    for i in range(1, len(d)):
        if d[i] >= best:          # a tie moves it: the last of equal values
            best = d[i]
            arg = i
    return best, arg


def _min_from_inf(d):
    """``best`` starts as a Python float: never picked, it stays one (``inf``)."""
    best, arg = INF, -1
    for i in range(len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    return best, arg, type(best).__name__


def _max_from_int(d):
    """``best`` starts as the Python int 0; picked, it is the array's scalar."""
    best = 0
    for i in range(len(d)):
        if d[i] > best:
            best = d[i]
    return best, type(best).__name__


def _found_bool(d):
    """A bool start, rebound to True: a bool, never 1."""
    found = False
    for i in range(len(d)):
        if d[i] > 2.0:
            found = True
    return found, type(found).__name__, found is True


def _where_bool(d):
    where = None
    for i in range(len(d)):
        if d[i] > 2.0:
            where = i
    return where


def _count(d):
    count = 0
    for i in range(len(d)):
        if d[i] > 0.5:
            count += 1
    return count, type(count).__name__


def _count_steps(d):
    up, down = 0, 100
    for i in range(len(d)):
        if d[i] > 0:
            up = up + 3
            down -= 2
    return up, down


def _count_reversed_add(d):
    count = -5
    for i in range(len(d)):
        if d[i] < 0:
            count = 1 + count
    return count


def _count_near_int64(d):
    """Starts 3 below int64's max and steps by one: past it after 4 hits (Python's int
    keeps going; the node's bounds refuse)."""
    count = 2 ** 63 - 3
    for i in range(len(d)):
        if d[i] == d[i]:
            count += 1
    return count


def _count_below_int64(d):
    count = -(2 ** 63) + 2
    for i in range(len(d)):
        if d[i] < 10:
            count -= 1
    return count


def _count_past_int64(d):
    count = 2 ** 70
    for i in range(len(d)):
        if d[i] > 0:
            count += 1
    return count


def _count_big_step(d):
    count = 0
    for i in range(len(d)):
        if d[i] > -10:
            count += 2 ** 40
    return count


def _arg_as_key(d):
    best, arg = d[0], 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
    table = {0: "first", 1: "one", 2.0: "float two"}
    return table.get(arg, "other"), {arg: best}, [10, 20, 30][arg % 3]


def _arg_as_text(d):
    best, arg = d[0], 0
    for i in range(1, len(d)):
        if d[i] > best:
            best = d[i]
            arg = i
    return f"{arg}:{best!r}:{arg:03d}", repr(arg), str(best)


def _arg_is(d):
    best, arg = d[0], ZERO
    for i in range(1, len(d)):
        if d[i] > best:
            best = d[i]
            arg = i
    return arg is ZERO, arg == BIG, arg is not None


def _count_as_size(d):
    count = 0
    for i in range(len(d)):
        if d[i] > 0:
            count += 1
    return np.zeros(count), d[:count], list(range(count)), d.reshape(-1)[count:]


def _argmin_and_argmax(d):
    lo, hi, ilo, ihi = d[0], d[0], 0, 0
    for i in range(1, len(d)):
        if d[i] < lo:
            lo = d[i]
            ilo = i
        if d[i] > hi:
            hi = d[i]
            ihi = i
    return lo, hi, ilo, ihi


def _argmin_elif(d):
    best, arg, ties = d[0], 0, 0
    for i in range(1, len(d)):
        if d[i] < best:
            best = d[i]
            arg = i
        elif d[i] == best:
            ties += 1
    return best, arg, ties


def _nested_argmin(A):
    out = []
    for r in range(A.shape[0]):
        best, arg = A[r, 0], 0
        for c in range(1, A.shape[1]):
            if A[r, c] < best:
                best = A[r, c]
                arg = c
        out.append(arg)
    return out


def _mat(n):
    return (_data(n * 11).reshape(n, 11),)


def _arg_shifted(d):
    arg = 0
    for i in range(1, len(d)):
        if d[i] > d[i - 1]:
            arg = i - 1
    return arg


def _count_by_index(d):
    """``count += i``: not a constant step."""
    count = 0
    for i in range(len(d)):
        if d[i] > 0:
            count += i
    return count


def _arg_read_in_loop(d):
    arg = 0
    for i in range(len(d)):
        if arg > 3 and d[i] > 0:
            arg -= 1
        if d[i] > 1:
            arg += 2
    return arg


def _numpy_int_start(d):
    arg = np.int64(-1)
    for i in range(len(d)):
        if d[i] > 0:
            arg = i
    return arg, type(arg).__name__


def _threshold(d, t):
    count, arg = 0, -1
    for i in range(len(d)):
        if d[i] > t:
            count += 1
            arg = i
    return count, arg


def _swap_picks(d):
    a, b = 0, 1
    for i in range(len(d)):
        if d[i] > 0:
            a, b = b, a
    return a, b


def _picked_after_break(d):
    count, arg = 0, -1
    for i in range(len(d)):
        if d[i] > 0:
            count += 1
            arg = i
        if count >= 4:
            break
    return count, arg


for _f in (_argmin, _argmax_le, _min_from_inf, _max_from_int, _found_bool, _where_bool,
           _count, _count_steps, _count_reversed_add, _count_near_int64, _count_below_int64,
           _count_past_int64, _count_big_step, _arg_as_key, _arg_as_text, _arg_is,
           _count_as_size, _argmin_and_argmax, _argmin_elif, _arg_shifted, _count_by_index,
           _numpy_int_start, _swap_picks, _picked_after_break):
    _sized(_f)
_sized(_arg_read_in_loop, sizes=(12, 1, 0, 16))    # (unrolled: CI time)
for _make, _tag in ((_nan_first, "nan_first"), (_ties, "ties"), (_zeros, "signed_zeros"),
                    (_i8, "i8"), (_u8, "u8"), (_f32, "f32")):
    _sized(_argmin, make=_make, name=f"argmin_{_tag}")
    _sized(_argmax_le, make=_make, name=f"argmax_le_{_tag}")
_sized(_count, make=_i8, name="count_i8")
_sized(_max_from_int, make=_u8, name="max_from_int_u8")
_sized(_nested_argmin, make=_mat, sizes=(3, 0, 12))
reg.case(_threshold, *[(lambda t=t: (_data(12), t)) for t in (0.0, NAN, -INF, 5, 1.5)],
         calls=1)
