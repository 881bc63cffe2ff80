"""Round 35, windows of growing lists and deques changed between calls by other means
than ``append`` (``variables/list_windows.py``, ``float_windows.py``, ``deques.py``):
``lst[-k:]``, ``lst[-k:-j]``, ``if lst`` / ``not lst``, ``sum``/``max``/``np.mean``
of windows and of deques, where between calls the list is popped, cleared, has an item
set (NaN, an int, a NumPy float, a bool), is reassigned, gets an item inserted at 0,
is shared by two holders, loses its last item, is sorted or reversed; and windows the
trace returns, stores, appends to, or takes past the list's length.

    >>> def _tail_sum(h, x, loss):
    ...     h.lst.append(loss)
    ...     return x * sum(h.lst[-3:])
"""

import collections
import math

import numpy as np
from hostile_check import Programs

reg = Programs("round35_windows")

deque = collections.deque
X = np.array([1.0, -2.0, 0.5])
INF, NAN = math.inf, math.nan
LOSSES = [0.5, 2.0, NAN, -0.0, 4.0, INF, 0.125, -3.0]


class Holder:
    def __init__(self, lst):
        self.lst = lst


# ---------------------------------------------------------------- the traced functions
def _tail_sum(h, x, loss):
    h.lst.append(loss)
    return x * sum(h.lst[-3:])


def _tail_mean_np(h, x, loss):
    h.lst.append(loss)
    return np.mean(h.lst[-4:]) * x


def _tail_max_len(h, x, loss):
    h.lst.append(loss)
    w = h.lst[-2:]
    return x + max(w), len(w)


def _previous(h, x, loss):          # [-k:-j]: the previous values
    h.lst.append(loss)
    h.lst.append(loss * 2.0)
    w = h.lst[-5:-2]
    return sum(w), len(w), x * len(w)


def _truthy(h, x, loss):            # no append: the list may be empty
    if h.lst:
        return x * h.lst[-1]
    return x - loss


def _not_then_append(h, x, loss):
    if not h.lst:
        h.lst.append(-1.0)
    h.lst.append(loss)
    return x * sum(h.lst[-2:])


def _returned_window(h, x, loss):
    h.lst.append(loss)
    return h.lst[-3:]


def _stored_window(h, x, loss):
    h.lst.append(loss)
    h.last = h.lst[-2:]
    return x * len(h.last)


def _window_appended_to(h, x, loss):   # the window is a new list: lst keeps its items
    h.lst.append(loss)
    w = h.lst[-3:]
    w.append(100.0)
    return sum(w), len(h.lst)


def _long_window(h, x, loss):          # k past the list's length
    h.lst.append(loss)
    return x * sum(h.lst[-50:]), len(h.lst[-50:])


def _np_array_window(h, x, loss):
    h.lst.append(loss)
    a = np.array(h.lst[-3:])
    return a * 2.0, a.dtype


def _pop_inside(h, x, loss):          # the trace itself pops after the window
    h.lst.append(loss)
    w = h.lst[-3:]
    h.lst.pop(0)
    return sum(w) * x, len(h.lst)


FNS = (_tail_sum, _tail_mean_np, _tail_max_len, _previous, _truthy, _not_then_append,
       _returned_window, _stored_window, _window_appended_to, _long_window,
       _np_array_window, _pop_inside)


# ---------------------------------------------------------------- changed between calls
def _pop(h, k):
    if h.lst:
        h.lst.pop()


def _clear(h, k):
    if k % 3 == 0:
        h.lst.clear()


def _set_item(h, k):
    if h.lst:
        h.lst[-1] = (NAN, 7, np.float64(2.5), True)[k % 4]


def _reassign(h, k):
    h.lst = [float(k)] * (k % 3)


def _insert0(h, k):
    h.lst.insert(0, float(-k))


def _del_last(h, k):
    if len(h.lst) > 1:
        del h.lst[-1]


def _sort_reverse(h, k):
    if k % 2:
        h.lst.reverse()
    else:
        h.lst.sort(key=lambda v: (v != v, v))     # (NaN last; sort never compares it)


def _slice_assign(h, k):
    h.lst[:] = h.lst[-2:] + [0.25]


MUTS = {"pop": _pop, "clear": _clear, "set_item": _set_item, "reassign": _reassign,
        "insert0": _insert0, "del_last": _del_last, "sort_reverse": _sort_reverse,
        "slice_assign": _slice_assign}


def _program(fn, mname, mut, start):
    def scenario(r):
        h = Holder(list(start))
        f = r.compile(fn)
        for k, loss in enumerate(LOSSES):
            if k:
                mut(h, k)
            r.call(f, h, X.copy(), loss)
            r.see("list", (list(h.lst), getattr(h, "last", None)))
    reg._add(f"{fn.__name__.removeprefix('_')}_{mname}", scenario, "")


for _i, _fn in enumerate(FNS):
    for _j, (_mname, _mut) in enumerate(MUTS.items()):
        if (_i + _j) % 2:
            continue        # half the (fn, mutation) pairs (CI time)
        _program(_fn, _mname, _mut, [1.0, 3.0] if _j % 3 else [])


# ---------------------------------------------------------------- shared and aliased
def _s_shared_by_two(r):
    """Two holders share one list: an append through one is in the other's window."""
    def step(a, b, x, loss):
        a.lst.append(loss)
        b.lst.append(-loss)
        return sum(a.lst[-3:]), max(b.lst[-2:]), len(a.lst[-4:])
    lst = [0.5]
    a, b = Holder(lst), Holder(lst)
    f = r.compile(step)
    for k, loss in enumerate(LOSSES):
        if k == 4:
            b.lst = list(lst)          # no longer shared from here
        r.call(f, a, b, X.copy(), loss)
        r.see("lists", (list(a.lst), list(b.lst), a.lst is b.lst))


reg._add("shared_by_two", _s_shared_by_two, "")


def _s_window_of_argument_list(r):
    """The list itself is the argument (no holder), appended to by the caller too."""
    def step(lst, x):
        lst.append(float(x.sum()))
        return lst[-2:], bool(lst), not lst[-1:]
    lst = []
    f = r.compile(step)
    for k in range(7):
        lst.append(-float(k)) if k % 2 else None
        r.call(f, lst, X.copy() * k)
        r.see("list", list(lst))


reg._add("argument_list_appended_outside", _s_window_of_argument_list, "")


def _s_int_window_mean(r):
    """``np.mean`` of windows of ints, with a huge int and a bool put in between calls."""
    def step(h, x, n):
        h.lst.append(n)
        return np.mean(h.lst[-3:]), np.sum(h.lst[-2:])
    h = Holder([1, 2])
    f = r.compile(step)
    for k, n in enumerate([3, -4, 5, 2**62, 7, 0, -1]):
        if k == 3:
            h.lst.append(2**64)        # an int past int64: NumPy makes an object array
        if k == 5:
            h.lst[-1] = True
        r.call(f, h, X.copy(), n)
        r.see("list", list(h.lst))


reg._add("int_window_mean_huge_and_bool", _s_int_window_mean, "")


# ---------------------------------------------------------------- deques
def _dq_mean(h, x, loss):
    h.lst.append(loss)
    return np.mean(h.lst) * x, sum(h.lst), max(h.lst)


def _dq_truth(h, x, loss):
    if h.lst:
        return x * np.mean(h.lst)
    h.lst.append(loss)
    return x


def _dq_ints(h, x, loss):
    h.lst.append(int(loss * 4) if loss == loss and abs(loss) != INF else 0)
    return np.mean(h.lst), np.asarray(h.lst).dtype


DQ_MUTS = {"popleft": lambda h, k: h.lst.popleft() if h.lst else None,
           "clear": lambda h, k: h.lst.clear() if k % 2 else None,
           "appendleft": lambda h, k: h.lst.appendleft(float(k)),
           "rotate": lambda h, k: h.lst.rotate(1),
           "new_maxlen": lambda h, k: setattr(h, "lst", deque(h.lst, maxlen=1 + k % 3)),
           "set_item": lambda h, k: h.lst.__setitem__(0, (NAN, 3, np.float32(0.1))[k % 3])
           if h.lst else None}

for _i, _fn in enumerate((_dq_mean, _dq_truth, _dq_ints)):
    for _j, (_mname, _mut) in enumerate(DQ_MUTS.items()):
        if (_i + _j) % 2:
            continue

        def _scenario(r, fn=_fn, mut=_mut, maxlen=(3, None, 2)[_j % 3]):
            h = Holder(deque([1.0], maxlen=maxlen))
            f = r.compile(fn)
            for k, loss in enumerate(LOSSES):
                if k:
                    mut(h, k)
                r.call(f, h, X.copy(), loss)
                r.see("deque", (list(h.lst), h.lst.maxlen))
        reg._add(f"deque_{_fn.__name__.removeprefix('_dq_')}_{_mname}", _scenario, "")


# ---------------------------------------------------------------- through other names
ALIAS = []


def _via_global(h, x, loss):       # the list is also the global ALIAS
    ALIAS.append(loss * 10.0)
    h.lst.append(loss)
    return sum(h.lst[-3:]), len(ALIAS)


def _arrays_window(h, x, loss):    # arrays held, written in place by the caller later
    h.lst.append(x)
    return np.stack(h.lst[-2:]) * loss


def _zero_maxlen(h, x, loss):
    h.lst.append(loss)
    return np.mean(h.lst), len(h.lst), bool(h.lst)


def _empty_slices(h, x, loss):     # [-2:-5] is empty; [-0:] is the whole list
    h.lst.append(loss)
    return h.lst[-2:-5], h.lst[-0:], sum(h.lst[-1:-1])


def _s_via_global(r):
    h = Holder(ALIAS)
    ALIAS.clear()
    f = r.compile(_via_global)
    for k, loss in enumerate(LOSSES):
        if k == 4:
            h.lst = list(ALIAS)
        r.call(f, h, X.copy(), loss)
        r.see("lists", (list(h.lst), list(ALIAS)))
    ALIAS.clear()


def _s_arrays_window(r):
    h = Holder([])
    f = r.compile(_arrays_window)
    x = X.copy()
    for k, loss in enumerate(LOSSES[:6]):
        x[0] = k            # the array held by the list changes in place
        r.call(f, h, x, loss)
        if k == 3:
            x = X.copy() * 2   # a new array from here
    r.see("held", [a.tolist() for a in h.lst])


def _s_zero_maxlen(r):
    h = Holder(deque(maxlen=0))
    f = r.compile(_zero_maxlen)
    for k, loss in enumerate(LOSSES[:4]):
        if k == 2:
            h.lst = deque([1.0, 2.0], maxlen=2)
        r.call(f, h, X.copy(), loss)


def _s_empty_slices(r):
    h = Holder([2.0])
    f = r.compile(_empty_slices)
    for k, loss in enumerate(LOSSES[:5]):
        if k == 3:
            h.lst.clear()
        r.call(f, h, X.copy(), loss)


for _name, _s in (("via_global", _s_via_global), ("arrays_held_written", _s_arrays_window),
                  ("zero_maxlen", _s_zero_maxlen), ("empty_slices", _s_empty_slices)):
    reg._add(_name, _s, "")
