"""Round 36, stepped windows of growing lists and window items as changing numbers
(``dynamo/variables/list_windows.py``, ``float_windows.py``): ``h[-6::2]``,
``h[::-1][:3]``, ``h[-1::-2]``, ``h[-5:-1:2]``, ``h[::-2][:2]``, ``h[-3::-1]``, where
between calls the list grows, shrinks (popped, cleared), has items that change type
(int -> float -> bool -> NumPy scalars: ``np.float32``, ``np.int64``, ``np.bool_``,
``np.float16``), NaN, inf and -0.0; windows summed, maxed, averaged, turned into arrays,
returned, compared and used as a count.

    >>> def _every_other(h, x, v):
    ...     h.lst.append(v)
    ...     return x * sum(h.lst[-6::2])
"""

import math

import numpy as np
from hostile_check import Programs

reg = Programs("round36_steps")
X = np.array([1.0, -2.0, 0.5])
NAN, INF = math.nan, math.inf

# values appended, one per call: the type changes from call to call
MIXED = [1, 2.5, True, np.float32(0.1), np.int64(7), -0.0, 3, np.float16(1.5), False, 0.25]
FLOATS = [0.5, 2.0, NAN, -0.0, 4.0, INF, 0.125, -3.0, 1e300, 1e300]
INTS = [3, -4, 2**53 + 1, 7, True, 0, np.int64(-9), 2**62, -1, 5]


class Holder:
    def __init__(self, lst):
        self.lst = lst


# ---------------------------------------------------------------- the traced functions
def _every_other(h, x, v):
    h.lst.append(v)
    return x * sum(h.lst[-6::2])


def _reversed_head(h, x, v):
    h.lst.append(v)
    w = h.lst[::-1][:3]
    return w, x * len(w)


def _back_by_two(h, x, v):
    h.lst.append(v)
    return max(h.lst[-1::-2]), len(h.lst[-1::-2])


def _stepped_middle(h, x, v):
    h.lst.append(v)
    w = h.lst[-5:-1:2]
    return sum(w), len(w), x + len(w)


def _reversed_every_other(h, x, v):
    h.lst.append(v)
    return h.lst[::-2][:2]


def _back_from_third(h, x, v):
    h.lst.append(v)
    return min(h.lst[-3::-1], default=-1.0), x


def _mean_stepped(h, x, v):
    h.lst.append(v)
    w = h.lst[-6::3]
    return np.mean(w) * x if w else x


def _array_stepped(h, x, v):
    h.lst.append(v)
    a = np.array(h.lst[-4::2])
    return a, a.dtype


def _compare_items(h, x, v):       # window items as changing numbers, compared
    h.lst.append(v)
    w = h.lst[-4::2]
    if w[-1] > 1:
        return x * w[-1]
    return x - len(w)


def _count_from_window(h, x, v):
    h.lst.append(v)
    n = len(h.lst[-7::2])
    return np.zeros(n) + x[0], n


def _no_append(h, x, v):           # the trace does not append: only the caller changes it
    w = h.lst[-4::2]
    return sum(w) * x if w else x


def _item_types(h, x, v):
    h.lst.append(v)
    return [type(t).__name__ for t in h.lst[-3::-1][:3]]


def _last_of_reversed(h, x, v):
    h.lst.append(v)
    r = h.lst[::-1]
    return r[0] + r[-1], x * r[0]


FNS = (_every_other, _reversed_head, _back_by_two, _stepped_middle, _reversed_every_other,
       _back_from_third, _mean_stepped, _array_stepped, _compare_items, _count_from_window,
       _no_append, _item_types, _last_of_reversed)


# ---------------------------------------------------------------- changed between calls
def _grow(h, k):
    h.lst.append(k * 0.5)


def _shrink(h, k):
    if h.lst:
        h.lst.pop()
    if k % 3 == 0 and h.lst:
        h.lst.pop(0)


def _clear_sometimes(h, k):
    if k % 4 == 2:
        h.lst.clear()


def _retype(h, k):
    if h.lst:
        h.lst[-1] = (1, 1.0, True, np.float32(1.0), np.bool_(False), np.int8(3))[k % 6]


MUTS = {"grow": _grow, "shrink": _shrink, "clear": _clear_sometimes, "retype": _retype}
VALUES = {"mixed": MIXED, "floats": FLOATS, "ints": INTS}


def _program(fn, mname, mut, vname, values, start):
    def scenario(r):
        h = Holder(list(start))
        f = r.compile(fn)
        for k, v in enumerate(values):
            if k:
                mut(h, k)
            r.call(f, h, X.copy(), v)
            r.see("list", list(h.lst))
    reg._add(f"{fn.__name__[1:]}_{mname}_{vname}", scenario, "")


for _i, _fn in enumerate(FNS):
    for _j, (_mname, _mut) in enumerate(MUTS.items()):
        _vname = tuple(VALUES)[(_i + _j) % 3]
        if (_i + _j) % 4 == 3:
            continue
        _program(_fn, _mname, _mut, _vname, VALUES[_vname][:8],
                 [1.0, 2.0, 3.0] if _j % 2 else [])


# ---------------------------------------------------------------- scenarios
def _s_two_windows_of_one_list(r):
    """Two stepped windows of one list, one through a second holder."""
    def f(a, b, x, v):
        a.lst.append(v)
        return sum(a.lst[-4::2]) - sum(b.lst[-3::-1][:2]), len(b.lst[::3])
    lst = [0.5, 1.5]
    a, b = Holder(lst), Holder(lst)
    g = r.compile(f)
    for k, v in enumerate(FLOATS[:7]):
        if k == 4:
            b.lst = list(lst)
        r.call(g, a, b, X.copy(), v)


def _s_window_of_argument(r):
    """The list is the argument, shrunk and regrown by the caller."""
    def f(lst, x):
        lst.append(float(x.sum()))
        return lst[-5::2], lst[::-1][:2]
    lst = [1.0]
    g = r.compile(f)
    for k in range(7):
        if k % 3 == 2:
            del lst[:2]
        r.call(g, lst, X.copy() * k)


reg._add("two_windows_of_one_list", _s_two_windows_of_one_list, "")
reg._add("window_of_argument_shrunk", _s_window_of_argument, "")


# ---------------------------------------------------------------- sums Python computes
class LoggedList(list):
    """A list subclass whose reads the program can see."""

    reads = 0

    def __getitem__(self, index):
        LoggedList.reads += 1
        return super().__getitem__(index)


def _compensated(h, x, v):         # 3.12+ sums floats with compensation, 3.11 does not
    h.lst.append(v)
    return sum(h.lst[-3:]), sum(h.lst[-5::2]), x * sum(h.lst)


def _scaled_append(h, x, n):       # n * 0.5 of a huge int raises OverflowError
    try:
        h.lst.append(n * 0.5)
    except OverflowError as e:
        return str(e)
    return sum(h.lst[-4:]), max(h.lst[-4::2])


def _logged_window(h, x, v):
    h.lst.append(v)
    return sum(h.lst[-4::2]), LoggedList.reads


def _s_compensated(r):
    h = Holder([1e16])
    f = r.compile(_compensated)
    for v in (1.0, -1e16, 1.0, 1e100, 1.0, -1e100, 3.0, 0.1):
        r.call(f, h, X.copy(), v)


def _s_scaled_append(r):
    h = Holder([0.5, 1.5])
    f = r.compile(_scaled_append)
    for n in (3, 4, 10**400, 2**60 + 1, -(10**309), 7):
        r.call(f, h, X.copy(), n)
        r.see("list", list(h.lst))


def _s_logged_window(r):
    LoggedList.reads = 0
    h = Holder(LoggedList([1.0, 2.0]))
    f = r.compile(_logged_window)
    for v in (0.5, 1.5, 2.5, -1.0, 4.0):
        r.call(f, h, X.copy(), v)
    r.see("reads", LoggedList.reads)


reg._add("compensated_sums", _s_compensated, "")
reg._add("scaled_append_overflow", _s_scaled_append, "")
reg._add("list_subclass_window", _s_logged_window, "")
