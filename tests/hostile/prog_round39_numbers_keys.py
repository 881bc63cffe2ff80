"""Round 39, numbers continued (the category of ``prog_round39_numbers.py``): keys.
``next(iter(d))`` of a dict kept between calls (``variables/first_key_iterators.py``):
LRU eviction ``del d[next(iter(d))]`` over int, bool, str, float and tuple keys, an
empty dict (the ``StopIteration`` and what ``except`` sees), a dict emptied by the
trace, changed by a callee, one dict under two names, subclasses with ``__iter__``.
Set displays of changing ints merged into a kept set (``variables/set_displays.py``):
``s |= {i, i + 1}`` where the two become equal, equal keys of other types (1, 1.0,
True), huge and negative ints (``hash(-1) == hash(-2)``), the set then iterated, len'd,
compared; displays of floats. Rounded float keys (``round(loss, 3)``): NaN, inf, -0.0,
ties, NumPy floats, ``ndigits`` None and negative.

    >>> def _evict(x, cache, k):
    ...     cache[k] = x.sum()
    ...     if len(cache) > 3:
    ...         del cache[next(iter(cache))]   # the first key, asked of the dict
"""

import collections

import numpy as np
from hostile_check import Programs

reg = Programs("round39_numbers")
X = np.array([0.5, -1.0, 2.0, 3.5])
NAN = float("nan")


# ---------------------------------------------------------------- first keys
def _evict(x, cache, k):
    cache[k] = x * k
    if len(cache) > 3:
        del cache[next(iter(cache))]
    return x + len(cache)


def _first_key_value(x, d):
    k = next(iter(d))
    return x * 2.0, k, type(k).__name__


def _first_key_caught(x, d, log):
    log.append("before")
    try:
        k = next(iter(d))
    except StopIteration as e:
        log.append(("stop", e.args, e.value))
        return x - 1.0
    return x + 1.0, k


def _first_default(x, d):
    return x * 2.0, next(iter(d), "none")


def _emptied(x, d):
    d.clear()
    try:
        return next(iter(d))
    except StopIteration:
        return x


def _popped_then_first(x, d, k):
    d.pop(k, None)
    first = next(iter(d))
    del d[first]
    return x + len(d), first


def _iter_then_change(x, d):
    it = iter(d)
    d["new"] = 1
    return next(it)


def _add_key(d, k):
    d[k] = 0


def _callee_then_first(x, d, k):
    _add_key(d, k)
    del d[next(iter(d))]
    return x * len(d)


def _aliased(x, a, b):
    del a[next(iter(b))]
    return x + len(a) + len(b), next(iter(a), None)


def _first_two(x, d):
    it = iter(d)
    a = next(it)
    b = next(it)
    return x * 2.0, a, b


def _first_of_views(x, d):
    return next(iter(d.values())) * x, next(iter(d.items()))[0], next(iter(d.keys()))


def _first_array_inplace(x, d):
    d[next(iter(d))] += x
    return x * 2.0


class ReversedIter(dict):
    def __iter__(self):
        return iter(list(super().__iter__())[::-1])


class LoggingDict(dict):
    log = []

    def __iter__(self):
        LoggingDict.log.append("iter")
        return super().__iter__()


def _fresh_dicts():
    return (X, dict([(True, 2), (1, 1), (2, 3)])), (X, {"b": 1, "a": 2}), (X, {1.5: 0, -0.0: 1}), \
        (X, {(1, 2): 0, None: 1}), (X, {NAN: 0})


reg.case(_first_key_value, *_fresh_dicts(), (X, ReversedIter(a=1, b=2)),
         (X, LoggingDict(z=1)), (X, collections.OrderedDict(q=1)), calls=1)
reg.case(_first_key_caught, (X, {}, []), (X, {3: 1}, []), (X, ReversedIter(), []), calls=2)
reg.case(_first_default, (X, {}), (X, {0: 1}), (X, {False: 1}), calls=2)
reg.case(_emptied, (X, {1: 2}), (X, {}), calls=2)
reg.case(_popped_then_first, (X, {1: 1, 2: 2}, 1), (X, {1: 1, 2: 2}, 3), (X, {1: 1}, 1),
         calls=2)
reg.case(_iter_then_change, (X, {"a": 1}), (X, {}), calls=2)
reg.case(_callee_then_first, (X, {}, 1), (X, {1: 0}, 1), (X, {2: 0}, 1), calls=2)
reg.case(_first_two, (X, {1: 1, 2: 2}), (X, {1: 1}), calls=2)
reg.case(_first_of_views, (X, {1: 2.0, 3: 4.0}), (X, {"k": 0.5}), calls=2)
reg.case(_first_array_inplace, (X, {0: np.zeros(4), 1: np.ones(4)}), calls=2)


@reg.scenario
def s_lru_int_keys(r):
    """An LRU over ints kept nine calls: the first key evicted each time."""
    cache = {}
    f = r.compile(_evict)
    for k in (1, 2, 3, 4, 2, 5, 1, 1, 6):
        r.call(f, X, cache, k)
        r.see("keys", list(cache))


@reg.scenario
def s_lru_mixed_keys(r):
    """Keys 1, True, 1.0, "1", -0.0, 0 into one LRU: equal keys keep the first object."""
    cache = {}
    f = r.compile(_evict)
    for k in (1, True, 1.0, 2, 0, -0.0, False, 3, 4.5, 1):
        r.call(f, X, cache, k)
        r.see("keys", [(type(k).__name__, k) for k in cache])


@reg.scenario
def s_lru_changed_between(r):
    """Other code reorders and empties the dict between calls."""
    cache = {}
    f = r.compile(_evict)
    for k in (1, 2, 3, 4):
        r.call(f, X, cache, k)
    cache[2] = cache.pop(2)
    r.call(f, X, cache, 7)
    cache.clear()
    r.call(f, X, cache, 8)
    r.see("keys", list(cache))


@reg.scenario
def s_aliased_dicts(r):
    """One dict under two parameters on some calls."""
    f = r.compile(_aliased)
    a = {1: 1, 2: 2, 3: 3}
    r.call(f, X, a, {1: 0})
    r.call(f, X, a, {2: 0})
    r.call(f, X, a, a)
    r.call(f, X, a, a)
    r.call(f, X, a, {})
    r.see("a", a)


# ---------------------------------------------------------------- set displays
def _ior_pair(x, s, i):
    s |= {i, i + 1}
    return x * 2.0


def _ior_same(x, s, i, j):
    s |= {i, j}
    return x - 1.0


def _ior_then_read(x, s, i):
    s |= {i, i - 1}
    return x * len(s), list(s), i in s, s == {i, i - 1}


def _update_display(x, s, i):
    s.update({i * 2, i * 2 + 1})
    return x + 1.0


def _ior_floats(x, s):
    m = float(x.mean())
    s |= {m, m + 0.5}
    return x * 2.0


def _ior_float_copies(x, s):
    m = float(x.sum())
    s |= {m * 1.0, m * 1.0}
    return x


def _ior_union_two(x, s, i):
    s |= {i} | {i + 2}
    return x


def _ior_signed_zero(x, s, i):
    s |= {i * 0.0, 0.0}
    return x


def _ior_compare(x, s, i):
    s |= {i > 2, 1}
    return x


def _kept_set_scenario(fn, keys, start=()):
    def scenario(r):
        s = set(start)
        f = r.compile(fn)
        for k in keys:
            args = k if isinstance(k, tuple) else (k,)
            r.call(f, X, s, *args)
            r.see("set", (list(s), [type(v).__name__ for v in s]))
    return scenario


reg._add("ior_pair", _kept_set_scenario(_ior_pair, (1, 2, 5, -1, -2, 2 ** 64, 0)), "")
reg._add("ior_same", _kept_set_scenario(_ior_same, ((1, 2), (3, 3), (1, 1.0), (True, 1),
                                                    (2.0, 2), (-1, -2), (2 ** 70, 2 ** 70))),
         "")
reg._add("ior_then_read", _kept_set_scenario(_ior_then_read, (1, 3, -1, 0, 2 ** 63)), "")
reg._add("update_display", _kept_set_scenario(_update_display, (0, 1, 1, -1, 7)), "")
reg._add("ior_union_two", _kept_set_scenario(_ior_union_two, (1, 2, -3, 0)), "")
reg._add("ior_signed_zero", _kept_set_scenario(_ior_signed_zero, (1, -1, 2, -3), (0,)), "")
reg._add("ior_compare", _kept_set_scenario(_ior_compare, (1, 3, 5, 0), (True,)), "")
reg._add("ior_mixed_start", _kept_set_scenario(_ior_pair, (0, 1, 2), (True, 1.0)), "")


@reg.scenario
def s_ior_floats(r):
    """Displays of floats from the data, NaN and -0.0 among them."""
    s = set()
    f = r.compile(_ior_floats)
    g = r.compile(_ior_float_copies)
    for x in (X, X + 1.0, np.array([np.nan, 1.0]), np.array([-0.0, 0.0]), X):
        r.call(f, x, s)
        r.call(g, x, s)
        r.see("set", sorted(map(repr, s)))


# ---------------------------------------------------------------- rounded float keys
def _seen_rounded(x, seen):
    loss = float(x.mean())
    seen.add(round(loss, 3))
    return x * 2.0, len(seen)


def _rounded_in(x, d, nd):
    key = round(float(x.sum()), nd)
    hit = key in d
    d[key] = d.get(key, 0) + 1
    return x + 1.0, hit, key


def _rounded_numpy(x, seen):
    m = x.mean()
    key = round(m, 2)
    seen.add(key)
    return type(key).__name__, key, x * 2.0


def _rounded_none(x, log):
    log.append(round(float(x.sum())))
    return x


def _rounded_counts(x, d):
    for v in x:
        k = round(float(v), 1)
        d[k] = d.get(k, 0) + 1
    return x * 2.0


def _kept_scenario(fn, arrays, extra=()):
    def scenario(r):
        held = {} if fn in (_rounded_in, _rounded_counts) else set() \
            if fn is not _rounded_none else []
        f = r.compile(fn)
        for x in arrays:
            r.call(f, x, held, *extra)
            # (a set's order is not compared: NaN hashes by its address)
            r.see("held", sorted(map(repr, held)) if isinstance(held, set) else repr(held))
    return scenario


_LOSSES = (X, X + 0.0005, np.array([np.nan, 1.0]), np.array([np.inf, 1.0]),
           np.array([-0.0, -0.0]), np.array([0.125, 0.125]), np.array([2.675, 2.675]),
           np.array([1e300, 1e300]), X)
reg._add("seen_rounded", _kept_scenario(_seen_rounded, _LOSSES), "")
reg._add("rounded_in_1", _kept_scenario(_rounded_in, _LOSSES, (1,)), "")
reg._add("rounded_in_negative", _kept_scenario(_rounded_in, _LOSSES, (-1,)), "")
reg._add("rounded_in_none", _kept_scenario(_rounded_in, _LOSSES[:3], (None,)), "")
reg._add("rounded_in_big", _kept_scenario(_rounded_in, _LOSSES, (400,)), "")
reg._add("rounded_numpy", _kept_scenario(_rounded_numpy, _LOSSES), "")
reg._add("rounded_none", _kept_scenario(_rounded_none, (X, X + 0.5, X + 1.5,
                                                        np.array([np.inf]))), "")
reg._add("rounded_counts", _kept_scenario(_rounded_counts, (X, X * 0.25, -X * 0.0,
                                                            np.array([0.05, 0.15, 0.25,
                                                                      np.nan]))), "")


# ---------------------------------------------------------------- more set displays
class Key:
    """A set element that logs its hashes and comparisons."""

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        LOG.append(("hash", self.v))
        return hash(self.v)

    def __eq__(self, o):
        LOG.append(("eq", self.v))
        return isinstance(o, Key) and o.v == self.v


class LogIorSet(set):
    def __ior__(self, other):
        LOG.append(("ior", sorted(other)))
        return super().__ior__(other)


LOG = []
G_SET = set()


def _nan_same(x, s):
    m = float(x.sum())
    s |= {m, m}
    s.add(m)
    return x


def _disp_key(x, s, i, key):
    s |= {i, key}
    return x


def _disp_then_add(x, s, i):
    t = {i, i + 1}
    s |= t
    t.add(i + 5)
    return x * len(t), sorted(t)


def _disp_twice(x, s, i):
    t = {i, i * 2}
    s |= t
    s -= {i * 2}
    s |= t
    return x


def _disp_of_float(x, s, i):
    s |= {i / 2, i // 2}
    return x


def _disp_np(x, s, i):
    s |= {i, np.int64(i) + 1}
    return x


def _frozen_display(x, s, i):
    s |= frozenset({i, i + 1})
    return x


def _rebound_after(x, s, i):
    s |= {i, i + 1}
    i = 100
    return x + i


def _break_after(x, s, i):
    s |= {i, i + 1}
    print("merged", i)
    return x * len(s)


def _looked_up_first(x, s, i):
    hit = i in s
    s |= {i, i + 1}
    return x + hit, len(s)


def _frozenset_arg(x, s, i):
    s |= {i, i + 1}
    return s, x


def _display_iterated(x, s, i):
    t = {i, i + 8, i + 16}
    s |= t
    return list(t), [v * 2 for v in t], x


def _ior_global(x, i):
    global G_SET
    G_SET |= {i, -i}
    return x


def _set_kept(fn, keys, start=(), make=set):
    def scenario(r):
        s = make(start)
        LOG.clear()
        f = r.compile(fn)
        for k in keys:
            r.call(f, X, s, *(k if isinstance(k, tuple) else (k,)))
            r.see("set", (sorted(map(repr, s)), list(LOG)))
    return scenario


def _s_nan_same(r):
    s = set()
    f = r.compile(_nan_same)
    for x in (np.array([np.nan]), np.array([np.nan]), X, np.array([-0.0])):
        r.call(f, x, s)
        r.see("set", (len(s), sorted(map(repr, s))))


def _s_ior_global(r):
    global G_SET
    G_SET = {0}
    f = r.compile(_ior_global)
    for i in (1, 2, 0, -1, 5):
        r.call(f, X, i)
        r.see("global set", list(G_SET))


reg._add("display_nan_same", _s_nan_same, "")
reg._add("display_key_objects", _set_kept(_disp_key, ((1, Key(1)), (2, Key(2)),
                                                      (3, Key(3)), (3, Key(3)))), "")
reg._add("display_then_add", _set_kept(_disp_then_add, (1, 2, 3, 1)), "")
reg._add("display_twice", _set_kept(_disp_twice, (1, 2, 0, -1)), "")
reg._add("display_of_floats", _set_kept(_disp_of_float, (1, 2, 3, -1, 4, -3)), "")
reg._add("display_numpy_int", _set_kept(_disp_np, (1, 2, 3)), "")
reg._add("display_frozen", _set_kept(_frozen_display, (1, 2, 3)), "")
reg._add("display_rebound_after", _set_kept(_rebound_after, (1, 2, 3, -2)), "")
reg._add("display_break_after", _set_kept(_break_after, (1, 2, 3, 2)), "")
reg._add("display_looked_up_first", _set_kept(_looked_up_first, (1, 2, 5, 0)), "")
reg._add("display_into_frozenset", _set_kept(_frozenset_arg, (1, 2, 1), (0,), frozenset), "")
reg._add("display_ior_subclass", _set_kept(_ior_pair, (1, 2, 1, 4), (), LogIorSet), "")
reg._add("display_ior_global", _s_ior_global, "")
reg._add("display_iterated", _set_kept(_display_iterated, (0, 8, 1, 16, -8)), "")


# ---------------------------------------------------------------- rounded keys of arguments
def _memo_rounded(x, memo, lr):
    key = round(lr * 0.1, 3)
    if key in memo:
        return memo[key] + x, len(memo)
    memo[key] = x * key
    return memo[key], len(memo)


def _memo_data(x, memo):
    key = round(float(x.mean()), 1)
    if key in memo:
        return memo[key] + x
    memo[key] = x * 2
    return memo[key]


def _od_first_rounded(x, od, lr):
    od[round(lr, 2)] = 1
    if len(od) > 2:
        od.popitem(last=False)
    return x, list(od)


def _seen_lr(x, seen, lr):
    seen.add(round(lr / 3, 4))
    return x * len(seen)


def _held_run(fn, make, vals):
    def s(r):
        d = make()
        f = r.compile(fn)
        for v in vals:
            if isinstance(v, np.ndarray):
                r.call(f, v, d)
            else:
                r.call(f, X, d, v)
            r.see("held", sorted(map(repr, d)) if isinstance(d, set) else repr(d))
    return s


LRS = (0.1, 0.2, 0.1, -0.0, 0.0, float("nan"), float("inf"), -1e-9, 1e-9, 1e308, 0.125, 2.675,
       0.3, np.float64(0.1), np.float32(0.2), 3, True)
reg._add("rounded_memo", _held_run(_memo_rounded, dict, LRS), "")
reg._add("rounded_od_popitem", _held_run(_od_first_rounded, collections.OrderedDict, LRS), "")
reg._add("rounded_seen_lr", _held_run(_seen_lr, set, LRS), "")
reg._add("rounded_memo_data", _held_run(_memo_data, dict, (X, X + 0.01, X + 1, np.array([np.nan]),
                                                       np.array([np.nan]), np.array([-0.01]),
                                                       np.array([0.01]), X)), "")
