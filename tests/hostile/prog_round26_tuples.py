"""Round 26, long tuples and lists as arguments (``variables/builder.py``
``_long_tuple``, ``MAX_TRACED_ITEMS`` = 1000): past 1,000 items a tuple of Python
numbers, strings and None is one input under one CONSTANT guard on the whole value, its
items constants of the trace; any other long tuple, and the items of a long list, make
the frame run as it is. Each program passes tuples just below, at and past the limit
whose items tell apart what ``==`` does not: ``-0.0`` vs ``0.0``, NaN (never equal to
itself), ``1`` vs ``1.0`` vs ``True``, ``np.float64`` items, nested tuples, one item
changed between calls, a long list mutated between calls or inside the function; they
use the items as data (``np.array(t)``), index them, take ``len``, ``sum``, and loop.

    >>> def _as_data(t):
    ...     return np.array(t).sum()
"""

import math

import numpy as np
from hostile_check import Programs, logs_on

reg = Programs("round26_tuples")
case = reg.case
scenario = reg.scenario

N = 1_200
INTS = tuple(range(N))
FLOATS = tuple(float(i) / 4 for i in range(N))
AT = tuple(range(1_000))
PAST = tuple(range(1_001))


def _with(t, i, v):
    """``t`` with item ``i`` replaced by ``v``."""
    return t[:i] + (v,) + t[i + 1:]


NEG_ZERO = _with(FLOATS, 0, -0.0)
POS_ZERO = _with(FLOATS, 0, 0.0)
NAN = _with(FLOATS, 7, math.nan)
NAN2 = _with(FLOATS, 7, float("nan"))
ONE_INT = _with(INTS, 3, 1)
ONE_FLOAT = _with(INTS, 3, 1.0)
ONE_TRUE = _with(INTS, 3, True)
NP_ITEM = _with(FLOATS, 5, np.float64(1.25))
NP_INT = _with(INTS, 5, np.int64(5))
NESTED = _with(INTS, 9, (1, 2))
NESTED2 = _with(INTS, 9, (1, 2.0))
STRS = tuple(str(i) for i in range(N))
MIXED = tuple([1, 1.0, True, None, "a", b"b", -0.0, 2j] * 150)
MIXED2 = _with(MIXED, 6, 0.0)
LAST = _with(INTS, N - 1, -1)
X = np.arange(6.0)


# ------------------------------------------------------------ the items as values

def _as_data(t):
    return np.array(t)


def _as_data_sum(t):
    return np.array(t).sum(), np.asarray(t, dtype=np.float64)[:3]


def _length(t):
    return len(t), len(t) > 1000, len(t) % 7


def _builtin_sum(t):
    return sum(t)


def _index(t):
    return t[0], t[3], t[5], t[7], t[9], t[-1], t[-2]


def _slice(t):
    return t[:4], t[-3:], t[::400]


def _loop(t):
    acc = 0
    for v in t:
        if v == v:   # (NaN skipped)
            acc += v
    return acc


def _loop_range(t):
    acc = 0.0
    for i in range(0, len(t), 97):
        acc = acc + t[i]
    return acc


def _first_sign(t):
    return math.copysign(1.0, t[0]), t[0] == 0.0


def _types(t):
    return type(t[3]).__name__, type(t[5]).__name__, type(t[9]).__name__


def _item_repr(t):
    return repr(t[0]), repr(t[3]), str(t[7])


def _times_array(x, t):
    return x * t[3] + t[0]


def _index_array(x, t):
    return x[t[3] % 6], x * len(t)


def _contains(t):
    return 1 in t, -0.0 in t, None in t, (1, 2) in t


def _count(t):
    return t.count(1), t.count(0.0), t.index(t[-1])


def _hash_key(t):
    d = {t: 1}
    return d.get(t), hash(t) == hash(tuple(t))


def _max_min(t):
    return max(t[:20]), min(t[:20])


def _unpack(t):
    a, b, *rest = t
    return a, b, len(rest)


def _nested_tuple(t):
    return (t, t)


def _returned(t):
    return t


def _is_arg(t):
    s = t
    return s is t, t[2:3]


def _as_float_array(x, t):
    return x + np.array(t[:6], dtype=float)


LONGS = ((INTS,), (FLOATS,), (NEG_ZERO,), (POS_ZERO,), (NAN,), (NAN2,), (ONE_INT,),
         (ONE_FLOAT,), (ONE_TRUE,), (NP_ITEM,), (NP_INT,), (NESTED,), (NESTED2,),
         (LAST,))
NUMERIC = ((INTS,), (FLOATS,), (NEG_ZERO,), (POS_ZERO,), (NAN,), (ONE_INT,),
           (ONE_FLOAT,), (ONE_TRUE,), (NP_ITEM,), (NP_INT,), (LAST,))
for _fn in (_as_data_sum, _builtin_sum, _loop_range, _max_min):
    case(_fn, *NUMERIC)
for _fn in (_length, _index, _slice, _types, _item_repr, _contains, _count, _hash_key,
            _unpack, _nested_tuple, _returned, _is_arg, _loop):
    case(_fn, *LONGS)
case(_as_data, *NUMERIC, (NESTED,), (STRS,))
case(_first_sign, (NEG_ZERO,), (POS_ZERO,), (NEG_ZERO,))
case(_times_array, *((X, t) for (t,) in NUMERIC))
case(_index_array, *((X, t) for (t,) in NUMERIC))
case(_as_float_array, *((X, t) for (t,) in NUMERIC))


# ------------------------------------------------------------ around the limit

def _limit_sum(x, t):
    return x + sum(t[:10]), len(t)


case(_limit_sum, (X, AT), (X, PAST), (X, AT + (-0.0,)), (X, PAST[:-1] + (1.0,)),
     name="limit_edges")
case(_types, (_with(AT, 9, (1,)),), (_with(PAST, 9, (1,)),), (_with(PAST, 9, (1.0,)),),
     name="limit_types")


def _strings(t):
    return "".join(t[:5]), t[-1].upper(), len("".join(t))


case(_strings, (STRS,), (_with(STRS, N - 1, "x"),), (_with(STRS, 0, "\u00e9"),))


def _mixed(t):
    return [type(v).__name__ for v in t[:8]], t[6], t.count(True), t.count(0.0)


case(_mixed, (MIXED,), (MIXED2,), (MIXED,))


# ------------------------------------------------------------ one item changes between calls

@scenario
def s_one_item_changes(r):
    """The same function, the same length, item 500 a different value each call."""
    f = r.compile(lambda t: t[500] * 2 + t[0])
    t = INTS
    for v in (500, 500.0, True, -0.0, 0.0, math.nan, np.float64(2.0), "ab", None, 500):
        try:
            t = _with(t, 500, v)
            r.call(f, t)
        except Exception:  # noqa: BLE001 (recorded by r.call already)
            pass


@scenario
def s_sign_of_zero(r):
    """Item 0 flips between 0.0 and -0.0: ``==`` holds, the sign does not."""
    f = r.compile(lambda t: (math.copysign(3.0, t[0]), 1 / t[1]))
    for z in (0.0, -0.0, 0.0, -0.0):
        r.call(f, (z,) + FLOATS[1:])


@scenario
def s_nan_then_nan(r):
    """Two different NaN objects at one item: the guard must not fail for ever nor
    hold for a number."""
    f = r.compile(lambda t: t[7] != t[7])
    for v in (math.nan, float("nan"), 1.0, math.nan, np.nan):
        r.call(f, _with(FLOATS, 7, v))


@scenario
def s_int_float_bool(r):
    """1, 1.0 and True at one item: equal, hash the same, different types."""
    f = r.compile(lambda x, t: (x * t[3], type(t[3]), t[3] / 2))
    for v in (1, 1.0, True, 1, np.int64(1), np.float64(1.0), np.True_):
        r.call(f, X.copy(), _with(INTS, 3, v))


@scenario
def s_nested_changes(r):
    """A nested tuple inside a long tuple: its own item changes type."""
    f = r.compile(lambda t: (t[9][1] * 2, len(t[9])))
    for v in ((1, 2), (1, 2.0), (1, True), (1, 2, 3), (1, -0.0), (1, 0.0)):
        r.call(f, _with(INTS, 9, v))


@scenario
def s_mutable_inside(r):
    """A long tuple holding a list: the list changes between calls."""
    f = r.compile(lambda t: sum(t[9]) + t[0])
    inner = [1, 2]
    t = _with(INTS, 9, inner)
    r.call(f, t)
    inner.append(3)
    r.call(f, t)
    inner[0] = 1.5
    r.call(f, t)


@scenario
def s_array_inside(r):
    """A long tuple holding an array: written between calls."""
    f = r.compile(lambda t: t[9] * 2 + t[0])
    a = np.arange(3.0)
    t = _with(INTS, 9, a)
    r.call(f, t)
    a[0] = 100.0
    r.call(f, t)


@scenario
def s_object_inside(r):
    """A long tuple holding an object whose attribute changes."""
    class Box:
        v = 1
    f = r.compile(lambda t: t[9].v + t[0])
    b = Box()
    t = _with(INTS, 9, b)
    r.call(f, t)
    b.v = 2.5
    r.call(f, t)


@scenario
def s_many_lengths(r):
    """A new length each call: each a new entry, then the cache is full."""
    f = r.compile(lambda t: (len(t), t[-1]))
    for n in (1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1001):
        r.call(f, tuple(range(n)))


@scenario
def s_as_keyword(r):
    """A long tuple passed by keyword and as a default."""
    def g(x, t=INTS):
        return x + t[3]
    f = r.compile(g)
    r.call(f, X.copy())
    r.call(f, X.copy(), t=ONE_FLOAT)
    r.call(f, X.copy(), t=ONE_TRUE)
    r.call(f, X.copy())


@scenario
def s_star_args(r):
    """``f(*t)`` of a long tuple: the varargs tuple is the long tuple."""
    def g(*t):
        return len(t), t[3], type(t[3]).__name__
    f = r.compile(g)
    for t in (INTS, ONE_FLOAT, ONE_TRUE, INTS):
        r.call(f, *t)


# ------------------------------------------------------------ long lists

def _list_data(lst):
    return np.array(lst).sum(), len(lst), lst[3]


def _list_append(lst):
    lst.append(len(lst))
    return lst[-1], len(lst)


def _list_write(lst):
    lst[3] = -0.0
    return sum(lst[:5]), lst[3]


def _list_sort(lst):
    lst.sort(reverse=True)
    return lst[0], lst[-1]


def _list_loop(lst):
    acc = 0
    for v in lst:
        acc += v
    return acc


def _list_pop_loop(lst):
    out = 0
    while len(lst) > 1100:
        out += lst.pop()
    return out, len(lst)


def _list_in_tuple(t):
    t[9].append(1)
    return len(t[9])


LISTS = (lambda: (list(INTS),), lambda: (list(FLOATS),), lambda: (list(ONE_TRUE),),
         lambda: (list(NEG_ZERO),))
for _fn in (_list_data, _list_append, _list_write, _list_sort, _list_loop,
            _list_pop_loop):
    case(_fn, *LISTS)
case(_list_in_tuple, lambda: (_with(INTS, 9, []),), lambda: (_with(INTS, 9, [0]),))


@scenario
def s_list_mutated_between(r):
    """One long list, written between calls: the next call sees every write."""
    f = r.compile(lambda x, lst: x + lst[3] + len(lst))
    lst = list(INTS)
    r.call(f, X.copy(), lst)
    lst[3] = 1.5
    r.call(f, X.copy(), lst)
    lst.append(0)
    r.call(f, X.copy(), lst)
    del lst[:300]
    r.call(f, X.copy(), lst)
    lst[3] = True
    r.call(f, X.copy(), lst)


@scenario
def s_list_shrinks_past_limit(r):
    """A list shrinks from past the limit to below it and grows again."""
    f = r.compile(lambda lst: (sum(lst), lst[-1]))
    lst = list(range(1002))
    r.call(f, lst)
    del lst[-5:]
    r.call(f, lst)
    lst.extend([0.5] * 10)
    r.call(f, lst)


@scenario
def s_list_and_tuple_alias(r):
    """A long tuple and a list built from it: the list is written."""
    f = r.compile(lambda t, lst: (t[0], lst.__setitem__(0, -1), lst[0]))
    t = INTS
    r.call(f, t, list(t))
    r.call(f, t, list(t))


# ------------------------------------------------------------ odd items, with the logs on

BIG = 10 ** 5000


def _odd_items(t):
    return t[1] % 7, t[2], t[3][:5], len(t)


@scenario
def s_odd_items_logged(r):
    """Items whose repr raises (an int of 5,001 digits) or looks like generated code,
    with the recompiles and guards logs on, over more lengths than the cache holds."""
    with logs_on():
        f = r.compile(_odd_items)
        for k in range(10):
            t = (0, BIG + k, float("inf"), "___G['x'] L['\\\\x']") + INTS[:1000 + k]
            r.call(f, t)
