"""Round 38, state the glue writes back after the graph (split from
``prog_round38_state.py``, the same category): OrderedDicts read key by key with
``move_to_end`` replayed (``dynamo/variables/unread_ordered_dicts.py``: ``last=False``,
missing keys, subclasses, ``popitem``, order-sensitive ``==`` after the call, an LRU),
and Python numbers computed from the call's values that raise after list appends and
attribute writes (``dynamo/raising.py``, ``guarded_for_values``,
``codegen.reruns_raising_values``): ``ZeroDivisionError`` and ``OverflowError`` inside
``try``/``except`` that inspects the state, with warnings filters set to "error".

    >>> def _lru_get(x, cache, k):
    ...     if k in cache:
    ...         cache.move_to_end(k)       # replayed: cache.move_to_end(k, True)
    ...         return x + cache[k]
    ...     return x
"""

import collections
import math
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round38_state")   # the category of prog_round38_state.py
X = np.arange(4.0) - 1.5
OD = collections.OrderedDict


class LoggedOD(collections.OrderedDict):
    def __setitem__(self, k, v):
        self.log = getattr(self, "log", 0) + 1
        super().__setitem__(k, v)


class MovingOD(collections.OrderedDict):
    def move_to_end(self, key, last=True):
        super().move_to_end(key, last=not last)


class MissingOD(collections.OrderedDict):
    def __missing__(self, k):
        return -1.0


class State:
    def __init__(self, t=0, w=1.0):
        self.t, self.w = t, w
        self.log = []


def _od(*keys):
    return OD((k, float(i)) for i, k in enumerate(keys))


# ---------------------------------------------------------------- OrderedDicts
def _lru_get(x, cache, k):
    if k in cache:
        cache.move_to_end(k)
        return x + cache[k]
    return x


def _move_first(x, cache, k):
    cache.move_to_end(k, last=False)
    return x * cache[k]


def _move_positional(x, cache, k, last):
    cache.move_to_end(k, last)
    return x + len(cache)


def _move_missing(x, cache, k):
    cache["new"] = 1.0
    cache.move_to_end(k)
    return x


def _move_missing_caught(x, cache, k, log):
    cache["z"] = 9.0
    try:
        cache.move_to_end(k)
    except KeyError as e:
        log.append(("missing", e.args, len(cache)))
        return x - 1.0
    return x + cache[k]


def _set_then_move(x, cache, k):
    cache[k] = x.sum()
    cache.move_to_end(k, last=False)
    return x + len(cache)


def _del_then_set(x, cache, k):
    del cache[k]
    cache[k] = 5.0
    return x + cache[k]


def _set_existing(x, cache, k):
    cache[k] = cache[k] + 1.0
    return x * cache[k]


def _move_twice(x, cache, a, b):
    cache.move_to_end(a)
    cache.move_to_end(b, last=False)
    cache.move_to_end(a, last=False)
    return x + cache[a] - cache[b]


def _add_remove_move(x, cache, k):
    cache[k] = 1.0
    del cache[k]
    cache.move_to_end(k)
    return x


def _pop_move(x, cache, k):
    v = cache.pop(k, 0.0)
    cache.move_to_end("b")
    return x + v + len(cache)


def _setdefault_move(x, cache, k):
    v = cache.setdefault(k, 3.0)
    cache.move_to_end(k, last=False)
    return x * v


def _popitem(x, cache):
    k, v = cache.popitem(last=False)
    return x + v, k


def _popitem_last(x, cache, k):
    cache[k] = 7.0
    kk, v = cache.popitem()
    return x + v, kk


def _compare_after(x, cache, k):
    cache.move_to_end(k)
    same = cache == OD([("b", 1.0), ("a", 0.0)])
    return x + same


def _lru_put(x, cache, k, cap):
    if k in cache:
        cache.move_to_end(k)
        return x + cache[k]
    cache[k] = float(len(cache))
    if len(cache) > cap:
        cache.popitem(last=False)
    return x * 2.0


def _lru_put_no_evict(x, cache, k):
    if k in cache:
        cache.move_to_end(k)
        return x + cache[k]
    cache[k] = 1.5
    return x * len(cache)


def _equal_keys_move(x, cache, k):
    cache.move_to_end(k)
    return x + cache[1.0] + cache[True]


def _array_values(x, cache, k):
    cache[k] += x
    cache.move_to_end(k)
    return cache[k] * 2.0


def _get_missing(x, cache, k):
    return x + cache.get(k, -5.0) + len(cache)


def _subclass_get(x, cache, k):
    v = cache[k]
    cache.move_to_end(k)
    return x + v


def _callee_moves(cache, k):
    cache.move_to_end(k, last=False)


def _through_callee(x, cache, k):
    _callee_moves(cache, k)
    cache["last"] = 0.5
    return x + cache[k]


def _move_break_read(x, cache, k):
    cache.move_to_end(k, last=False)
    print("moved")
    return x + list(cache)[0].__len__()


def _move_then_keys(x, cache, k):
    cache.move_to_end(k)
    return x + len(cache), list(cache.keys())


def _last_variable(x, cache, k, last):
    cache.move_to_end(k, last=last)
    return x * cache[k]


# ---------------------------------------------------------------- numbers that raise
def _inv_count(x, o):
    o.t += 1
    o.log.append(o.t)
    return x * (1.0 / (o.t - 3))


def _inv_len(x, log):
    log.append(len(x))
    return x / (len(x) - 3.0)


def _int_div_len(x, log):
    log.append("a")
    return x[: 12 // (len(x) - 3)]


def _mod_len(x, o):
    o.w = float(x.shape[0])
    return x + (7 % (len(x) - 4))


def _pow_overflow(x, o, k):
    o.t = k
    o.log.append(k)
    return x * 2.0 ** o.t


def _pow_float_overflow(x, o):
    o.t += 100
    return x + float(o.t) ** 200


def _exp_overflow(x, o, k):
    o.t = k
    return x * math.exp(o.t)


def _caught_zero(x, o):
    o.t += 1
    o.log.append("try")
    try:
        s = 1.0 / (o.t - 2)
    except ZeroDivisionError as e:
        o.log.append(("caught", str(e), o.t))
        return x * 0.0
    return x * s


def _caught_overflow(x, o, k):
    o.log.append(k)
    try:
        s = 10.0 ** k
    except OverflowError as e:
        o.log.append(("overflow", e.args))
        return x - 1.0, len(o.log)
    return x * s, len(o.log)


def _graph_then_raise(x, o):
    y = x / (x - X)              # warns (0/0) on every call
    o.t += 1
    o.log.append(o.t)
    return y, 1.0 / (o.t - 2)


def _graph_then_raise_quiet(x, o):
    with np.errstate(all="ignore"):
        y = x / (x - X)
    o.t += 1
    return y, 1.0 / (o.t - 2)


def _warnings_error(x, o):
    o.t += 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            y = x / (x * 0.0)
        except RuntimeWarning as e:
            o.log.append(("warned", str(e), o.t))
            y = x
    return y * (2.0 / (o.t - 2))


def _seterr_raise(x, o):
    o.t += 1
    o.log.append(o.t)
    old = np.seterr(all="raise")
    try:
        return x * (1.0 / (o.t - 2)) + x / (x - 0.5)
    finally:
        np.seterr(**old)


def _two_writes_raise(x, o, lst):
    lst.append(x.sum())
    o.w = o.w * 2.0
    o.t -= 1
    return x * (o.w / o.t)


def _raise_in_loop_glue(x, o, n):
    for _ in range(n):
        o.t += 1
        x = x * 0.5
    return x * (1.0 / (o.t - 12))


def _float_arg_zero(x, o, d):
    o.log.append(d)
    o.w = o.w + d
    return x * (1.0 / d)


def _divmod_len(x, log):
    log.append(0)
    q, r = divmod(len(x), len(x) - 4)
    return x * q + r


def _sqrt_negative(x, o):
    o.t -= 1
    o.log.append(o.t)
    return x * math.sqrt(o.t)


def _nested_try_state(x, o):
    try:
        o.t += 1
        try:
            v = 2.0 ** (o.t * 400)
        finally:
            o.log.append(("finally", o.t))
    except OverflowError:
        return x, o.t, list(o.log)
    return x * v, o.t, None


def _raise_returns_nothing(x, o):
    o.t += 1
    z = 1.0 / (o.t - 2)
    o.log.append(z)
    return x


def _raise_then_except_reads(x, o, lst):
    lst.append(1)
    o.t += 3
    try:
        r = x * (o.w ** o.t)
    except OverflowError:
        r = x * -1.0
    lst.append(len(lst))
    return r


# ---------------------------------------------------------------- set orders
# (a set's order is its table's: ints 0, 32, 64... collide, so these orders are the
# same on every run; strings hash per process, so their programs differ per run)
W = [f"k{i}" for i in range(30)]


def _order_union(x, s, a, b):
    s.update({a, 32, "q1"} | {b, 96, "q3", "q4"})
    return x * len(s)


def _order_ior_made(x, s, a, b):
    t = {a, b}
    t |= {"u", "v", 160, 192}
    s |= t
    return x, list(t)


def _order_churn(x, s, a, b):
    t = {a, 64, b, 128}
    t.discard(64)
    t.add(b + "x" if isinstance(b, str) else b + 256)
    s.update(t)
    return x, list(t)


def _order_set_of_set(x, s, a, b):
    t = set({a, b, 32, 64, 96})
    s.clear()
    s.add(a)
    s.discard(a)
    s.add(b)
    return x, list(t), list(s)


def _order_ops(x, s, a, b):
    t = {a, 32, 64}.symmetric_difference([b, 64, 96])
    u = t.copy()
    u.discard(32)
    u.add(160)
    s.update(u)
    return x, list(t), list(u), list(t - {a}), list(t & {b, 96, 32}), frozenset(u)


def _cleared_inplace(x, s, a):
    s.clear()
    s.add(a)
    s.add(a + 1)
    s -= {a}
    s.add(a + 2)
    s &= {a + 1, a + 2, 7}
    s ^= {a + 2, 9}
    s.difference_update([9])
    s.intersection_update({a + 1, 3})
    return x * len(s)


def _order_scenario(fn, keys):
    def scenario(r):
        f = r.compile(fn)
        s = {0, 5, "k0"}
        for i in range(4):
            r.call(f, X, s, keys[2 * i], keys[2 * i + 1])
            r.see("order", list(s))
    return scenario


for _fn in (_order_union, _order_ior_made, _order_churn, _order_set_of_set, _order_ops):
    for _kind, _keys in (("ints", [32 * i for i in range(3, 11)]), ("strs", W[1:9])):
        reg._add(f"{_fn.__name__[1:]}_{_kind}", _order_scenario(_fn, _keys),
                 "the set's order after each call (list(s)), as CPython's table gives it")


# ---------------------------------------------------------------- registration
reg.case(_lru_get, *[(X, _od("a", "b", "c"), k) for k in ("a", "c", "z", "b")], calls=1)
reg.case(_move_first, *[(X, _od("a", "b", "c"), k) for k in ("c", "a", "b")], calls=1)
reg.case(_move_positional, *[(X, _od("a", "b"), k, last) for k, last in
                             (("a", True), ("a", False), ("b", False), ("a", 0), ("b", 1))],
         calls=1)
reg.case(_move_missing, *[(X, _od("a", "b"), k) for k in ("a", "q", "new")], calls=1)
reg.case(_move_missing_caught, *[(X, _od("a", "b"), k, []) for k in ("a", "q", "z", "b")],
         calls=1)
reg.case(_set_then_move, *[(X, _od("a", "b"), k) for k in ("b", "c", "a")], calls=1)
reg.case(_del_then_set, *[(X, _od("a", "b", "c"), k) for k in ("a", "c", "b", "q")], calls=1)
reg.case(_set_existing, *[(X, _od("a", "b"), k) for k in ("a", "b", "q")], calls=1)
reg.case(_move_twice, *[(X, _od("a", "b", "c"), a, b) for a, b in
                        (("a", "b"), ("c", "c"), ("b", "a"), ("a", "q"))], calls=1)
reg.case(_add_remove_move, *[(X, _od("a"), k) for k in ("a", "b")], calls=1)
reg.case(_pop_move, *[(X, _od("a", "b", "c"), k) for k in ("a", "b", "q")], calls=1)
reg.case(_setdefault_move, *[(X, _od("a", "b"), k) for k in ("b", "c", "a")], calls=1)
reg.case(_popitem, (X, _od("a", "b")), (X, _od("b")), (X, OD()), calls=1)
reg.case(_popitem_last, *[(X, _od("a", "b"), k) for k in ("a", "c")], calls=1)
reg.case(_compare_after, *[(X, _od("a", "b"), k) for k in ("a", "b")], calls=1)
reg.case(_lru_put, *[(X, _od(1, 2), k, 2) for k in (1, 3, 2, 4)], calls=1)
reg.case(_equal_keys_move, *[(X, OD([(1, 2.0), (2, 3.0)]), k) for k in (1, True, 1.0, 2)],
         calls=1)
reg.case(_array_values, *[(X, OD([("a", X.copy()), ("b", X * 2)]), k) for k in ("a", "b")],
         calls=1)
reg.case(_get_missing, *[(X, _od("a"), k) for k in ("a", "b")], calls=1)
reg.case(_subclass_get, *[(X, c, k) for c, k in ((LoggedOD(a=1.0, b=2.0), "a"),
                                                (MovingOD(a=1.0, b=2.0), "a"),
                                                (MissingOD(a=1.0), "a"),
                                                (MissingOD(a=1.0), "q"))], calls=1)
reg.case(_through_callee, *[(X, _od("a", "b"), k) for k in ("b", "a", "last")], calls=1)
reg.case(_move_break_read, *[(X, _od("aa", "b"), k) for k in ("b", "aa")], calls=1)
reg.case(_move_then_keys, *[(X, _od("a", "b", "c"), k) for k in ("a", "b")], calls=1)
reg.case(_last_variable, *[(X, _od("a", "b"), k, last) for k, last in
                           (("a", False), ("a", True), ("b", False), ("b", None))], calls=1)


@reg.scenario
def s_lru_kept(r):
    """An LRU kept over calls, evicting with ``popitem(last=False)``, its order seen
    after every call and compared with order-sensitive ``==``."""
    cache = OD()
    f = r.compile(_lru_put)
    for k in (1, 2, 1, 3, 2, 4, 4, 1, 5):
        r.call(f, X, cache, k, 3)
        r.see("order", list(cache.items()))
    r.see("equal", cache == OD([(4, 2.0), (1, 2.0), (5, 2.0)]))


@reg.scenario
def s_lru_no_evict_kept(r):
    """Hits move keys to the end over calls; other code moves one back between calls."""
    cache = OD()
    f = r.compile(_lru_put_no_evict)
    for k in ("a", "b", "a", "c", "b"):
        r.call(f, X, cache, k)
    cache.move_to_end("c", last=False)
    r.call(f, X, cache, "c")
    del cache["a"]
    r.call(f, X, cache, "a")
    r.see("order", list(cache))


def _state(t=0, w=1.0):
    return lambda: (X, State(t, w))


reg.case(_cleared_inplace, *[(X, {5, 6}, a) for a in (1, 2, 6)], calls=1)
reg.case(_inv_count, _state(0), _state(1), _state(2), _state(5), calls=1)


@reg.scenario
def s_inv_count_kept(r):
    """One object over calls: its counter reaches 3 on the third call (1/0)."""
    o = State()
    f = r.compile(_inv_count)
    for _ in range(5):
        r.call(f, X, o)
    r.see("o", (o.t, o.log))


reg.case(_inv_len, *[(np.arange(n, dtype=float), []) for n in (5, 6, 3, 7)], calls=1)
reg.case(_int_div_len, *[(np.arange(n, dtype=float), []) for n in (5, 6, 3, 4)], calls=1)
reg.case(_mod_len, *[(np.arange(n, dtype=float), State()) for n in (6, 7, 4, 5)], calls=1)
reg.case(_pow_overflow, *[(X, State(), k) for k in (3, 5, 1024, -1100, 4)], calls=1)
reg.case(_pow_float_overflow, _state(0), _state(5), _state(1000), calls=1)
reg.case(_exp_overflow, *[(X, State(), k) for k in (1, 2, 800, 3)], calls=1)
reg.case(_caught_zero, _state(0), _state(3), _state(1), _state(-4), calls=1)
reg.case(_caught_overflow, *[(X, State(), k) for k in (1, 2, 400, 3.5, 1e3)], calls=1)
reg.case(_graph_then_raise, _state(0), _state(3), _state(1), calls=1)
reg.case(_graph_then_raise_quiet, _state(0), _state(3), _state(1), calls=1)
reg.case(_warnings_error, _state(0), _state(3), _state(1), calls=1)
reg.case(_seterr_raise, _state(0), _state(3), _state(1), calls=1)
reg.case(_two_writes_raise, *[(X, State(t, 1.5), []) for t in (3, 5, 1, 4)], calls=1)
reg.case(_raise_in_loop_glue, *[(X, State(t), n) for t, n in ((0, 13), (1, 13), (0, 12),
                                                           (0, 14))], calls=1)
reg.case(_float_arg_zero, *[(X, State(), d) for d in (1.0, 2.0, 0.0, -0.0, 3.0)], calls=1)
reg.case(_divmod_len, *[(np.arange(n, dtype=float), []) for n in (6, 7, 4, 8)], calls=1)
reg.case(_sqrt_negative, _state(3), _state(5), _state(0), _state(4), calls=1)
reg.case(_nested_try_state, _state(0), _state(-1), _state(2), _state(-3), calls=1)
reg.case(_raise_returns_nothing, _state(0), _state(3), _state(1), calls=1)
reg.case(_raise_then_except_reads, *[(X, State(t, w), []) for t, w in
                                     ((0, 2.0), (1, 2.0), (2000, 2.0), (3, 1.5),
                                      (3000, 0.5), (3000, -2.0))], calls=1)


@reg.scenario
def s_warnings_filter_around(r):
    """The caller sets warnings to "error" around some calls: the graph's warning
    raises before the number that would raise after the attribute write."""
    o = State()
    f = r.compile(_graph_then_raise)

    def erroring(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return f(*args)
    r.call(f, X, o)
    r.call(erroring, X, o)
    r.call(erroring, X + 1.0, o)
    r.call(f, X, o)
    r.call(f, X, o)
    r.see("o", (o.t, o.log))


@reg.scenario
def s_errstate_around(r):
    """``np.errstate(divide="raise")`` around some calls of a function whose number
    raises after its writes."""
    o = State()
    f = r.compile(_graph_then_raise)
    r.call(f, X, o)
    with np.errstate(invalid="raise"):
        r.call(f, X, o)
        r.call(f, X + 1.0, o)
    r.call(f, X, o)
    r.see("o", (o.t, o.log))
