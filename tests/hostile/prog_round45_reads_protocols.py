"""Round 45, reads that run the program's code (3 of 4): protocols. ``__float__`` and
``__index__`` that return subclasses (a DeprecationWarning each time) or raise,
``__len__`` negative or huge, ``__bool__`` returning an int, arrays searched in lists
of arrays; keys that collide with the key a guard looks up (their ``__eq__`` runs in
the lookup); ``__rmul__`` behind ``__array_ufunc__ = None``, ``__iter__``, the
``__getitem__`` iteration protocol, ``__contains__``, ``__reversed__``.

    >>> class Collider:
    ...     def __hash__(self):
    ...         return 5                         # a lookup of 5 asks its __eq__
"""

import numpy as np
from hostile_check import Programs
from round45_support import SEEN, _run, _x

reg = Programs("round45_reads")


# ----------------------------------------------------------------------------- protocols that warn or fail

class _FloatSub(float):
    pass


class _FloatGivesSubclass:
    def __float__(self):
        SEEN.append("float")
        return _FloatSub(1.5)   # DeprecationWarning: __float__ returned a float subclass


def _float_warns(x, o):
    return x * float(o), float(o)


@reg.scenario
def s_float_returns_subclass_warns(r):
    _run(r, _float_warns, (_x(), _FloatGivesSubclass()))


class _IntSubIndex(int):
    pass


class _IndexGivesSubclass:
    def __index__(self):
        SEEN.append("index")
        return _IntSubIndex(2)   # DeprecationWarning: __index__ returned an int subclass


def _index_warns(x, o):
    return x[o], x[:o], range(o)


@reg.scenario
def s_index_returns_subclass_warns(r):
    _run(r, _index_warns, (_x(), _IndexGivesSubclass()))


class _FailingIndex:
    def __init__(self):
        self.n = 0

    def __index__(self):
        self.n += 1
        if self.n == 3:
            raise ValueError("third read")
        if self.n == 5:
            return "five"   # TypeError: __index__ returned non-int
        return 1


def _failing_index(x, o):
    try:
        return x[o] * 2, o.n
    except ValueError as e:
        return str(e), o.n


@reg.scenario
def s_index_raises_on_some_reads(r):
    _run(r, _failing_index, (_x(), _FailingIndex()), times=6)


class _BadLen:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        SEEN.append("len")
        return self.n


def _bad_len(x, o):
    try:
        return x[:len(o)], bool(o)
    except (ValueError, OverflowError, TypeError) as e:
        return type(e).__name__, str(e)


@reg.scenario
def s_len_negative_huge_and_bool_via_len(r):
    o = _BadLen(2)
    _run(r, _bad_len, (o, _x()), times=2)
    for n in (-1, 2 ** 70, 0, 3):
        o.n = n
        _run(r, _bad_len, (o, _x()), times=2)


class _BadBool:
    def __init__(self):
        self.v = True

    def __bool__(self):
        SEEN.append("bool")
        return self.v


def _bad_bool(o, x):
    try:
        return x * 2 if o else x, not o
    except TypeError as e:
        return str(e), None


@reg.scenario
def s_bool_returns_non_bool(r):
    o = _BadBool()
    _run(r, _bad_bool, (o, _x()), times=2)
    o.v = 1
    _run(r, _bad_bool, (o, _x()), times=2)
    o.v = False
    _run(r, _bad_bool, (o, _x()), times=2)


def _array_in_list(items, x):
    try:
        return x in items, len(items)
    except ValueError as e:
        return str(e), len(items)


@reg.scenario
def s_array_searched_in_list_of_arrays(r):
    a = _x()
    _run(r, _array_in_list, ([a, a + 1], a), ([a + 1, a], a), ([1.0, a], a))


# ----------------------------------------------------------------------------- colliding keys

class _Collider:
    """Hashes as 5 does: a lookup of 5 in a dict holding it asks its ``__eq__``."""

    def __hash__(self):
        return 5

    def __eq__(self, other):
        SEEN.append(("eq", other))
        return False


class _CollidingCache:
    def __init__(self):
        self.cache = {_Collider(): "other", 5: np.arange(4.0)}


def _colliding_lookup(o, x):
    return x * o.cache[5] + 1.0


@reg.scenario
def s_guard_lookup_collides_with_user_key(r):
    o = _CollidingCache()
    _run(r, _colliding_lookup, (o, _x()))


def _colliding_keys_iterated(d, x):
    s = x
    for k in d:
        if k == 5:
            s = s + d[k]
    return s


@reg.scenario
def s_dict_keys_with_user_eq(r):
    d = {_Collider(): 1.0, 5: 2.0}
    _run(r, _colliding_keys_iterated, (d, _x()))


def _colliding_global(x):
    return x * TABLE[5]


TABLE = {_Collider(): 0.0, 5: 3.0}


@reg.scenario
def s_global_dict_lookup_collides(r):
    _run(r, _colliding_global, (_x(),))


class _Tree:
    pass


def _object_list_cycle(x):
    kids = []
    n = _Tree()
    n.owner = kids
    n.v = x * 2
    kids.append(n)
    kids.append(float(x[0]))
    return kids, n.owner is kids


@reg.scenario
def s_new_object_and_list_hold_each_other(r):
    _run(r, _object_list_cycle, (_x(),))


def _tuple_dict_cycle(x):
    d = {}
    t = (d, x + 1)
    d["t"] = t
    d["n"] = float(x[1])
    return t, d, d["t"] is t


@reg.scenario
def s_tuple_and_dict_hold_each_other(r):
    _run(r, _tuple_dict_cycle, (_x(),))


def _cycle_through_argument(log, x):
    t = (log, x * 3)
    log.append(t)
    return t[0] is log, len(log)


@reg.scenario
def s_argument_list_holds_trace_tuple_holding_it(r):
    log = []
    _run(r, _cycle_through_argument, (log, _x()), times=3,
         watch=lambda: [e[0] is log for e in log])


def _shared_tuple_in_two_lists(a, b, x):
    t = (x * 2, len(a))
    a.append(t)
    b.append(t)
    return a[-1] is b[-1]


@reg.scenario
def s_one_tuple_appended_to_two_lists(r):
    a, b = [], []
    _run(r, _shared_tuple_in_two_lists, (a, b, _x()), times=3,
         watch=lambda: [p is q for p, q in zip(a, b)])


# ----------------------------------------------------------------------------- operator protocols

class _RMul:
    __array_ufunc__ = None   # NumPy defers: ``x * o`` asks ``o.__rmul__``

    def __init__(self):
        self.n = 0

    def __rmul__(self, other):
        self.n += 1
        SEEN.append("rmul")
        return other * self.n


def _rmul(x, o):
    return x * o + x * o, o.n


@reg.scenario
def s_array_times_object_with_rmul(r):
    _run(r, _rmul, (_x(), _RMul()))


class _Iter:
    def __init__(self, n):
        self.n = n
        self.started = 0

    def __iter__(self):
        self.started += 1
        SEEN.append("iter")
        return iter(range(self.n + self.started % 2))


def _iterate_twice(o, x):
    s = x
    for k in o:
        s = s + k
    return s, sum(o), list(o)


@reg.scenario
def s_iter_counts_and_drifts(r):
    _run(r, _iterate_twice, (_Iter(2), _x()))


class _OldSeq:
    """Iterated by ``__getitem__`` until IndexError."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        SEEN.append(("item", i))
        if i >= self.n:
            raise IndexError(i)
        return float(i)


def _old_iteration(o, x):
    a, b = o
    return x * a + b, [v for v in o]


@reg.scenario
def s_getitem_iteration_protocol(r):
    o = _OldSeq(2)
    _run(r, _old_iteration, (o, _x()))
    o.n = 3
    _run(r, _old_iteration, (o, _x()), times=1)


class _Contains:
    def __contains__(self, v):
        SEEN.append(("contains", v))
        return len(SEEN) % 2 == 0


def _contains(o, x):
    return (x * 2 if 3 in o else x), 4 in o


@reg.scenario
def s_contains_alternates(r):
    _run(r, _contains, (_Contains(), _x()), times=4)


class _Rev:
    def __init__(self):
        self.items = [1.0, 2.0, 3.0]

    def __reversed__(self):
        SEEN.append("reversed")
        return iter(self.items[::-1])

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def _reversed(o, x):
    return [x * v for v in reversed(o)]


@reg.scenario
def s_reversed_protocol(r):
    _run(r, _reversed, (_Rev(), _x()))


# ----------------------------------------------------------------------------- number and text subclasses

class _LoudFloat(float):
    def __mul__(self, other):
        SEEN.append(("mul", other))
        return float(self) * other * 2

    def __eq__(self, other):
        SEEN.append(("eq", other))
        return float(self) == other

    __hash__ = float.__hash__


def _float_sub_ops(x, k):
    s = k * 3.0
    return x * s, k == 1.5, s


@reg.scenario
def s_float_subclass_operators_count(r):
    _run(r, _float_sub_ops, (_x(), _LoudFloat(1.5)), (_x(), _LoudFloat(2.5)))


class _LoudInt(int):
    def __add__(self, other):
        SEEN.append(("add", other))
        return int(self) + other + 100

    def __index__(self):
        SEEN.append("index")
        return int(self)


def _int_sub_ops(x, k):
    j = k + 1
    return x[: k], x * j, j


@reg.scenario
def s_int_subclass_add_and_index(r):
    _run(r, _int_sub_ops, (_x(6), _LoudInt(2)), (_x(6), _LoudInt(3)))


class _LoudStr(str):
    def __eq__(self, other):
        SEEN.append(("streq", other))
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class _Moded:
    def __init__(self, mode):
        self.mode = _LoudStr(mode)


def _by_loud_mode(o, x):
    if o.mode == "fast":
        return x * 2
    return x - 1


@reg.scenario
def s_str_subclass_attribute_compared(r):
    o = _Moded("fast")
    _run(r, _by_loud_mode, (o, _x()))
    o.mode = _LoudStr("slow")
    _run(r, _by_loud_mode, (o, _x()), times=2)


def _loud_key_lookup(d, x):
    return x * d["a"], "a" in d


@reg.scenario
def s_str_subclass_dict_keys(r):
    d = {_LoudStr("a"): 2.0, _LoudStr("b"): 3.0}
    _run(r, _loud_key_lookup, (d, _x()))
