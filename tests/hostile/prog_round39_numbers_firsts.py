"""Round 39, numbers continued (the category of ``prog_round39_numbers.py``): more
``next(iter(d))`` of dicts kept between calls (``variables/first_key_iterators.py``,
``UnreadDictVariable.first_key``): LRUs over dict subclasses whose ``__iter__`` logs or
reverses, OrderedDicts, defaultdicts and Counters, int subclass keys, keys past int64,
bools beside ints, user keys logging ``__hash__``/``__eq__`` (the guards must not call
them more often), several evictions in one call (``while len(d) > 2``), the first key
used as a number and an index, after ``del``/``pop``/``popitem``/``setdefault``/
``update`` in the same call, and after ``move_to_end`` moved it (found: the key first
when the call began was given, ``UnreadDictVariable.first_key``); OrderedDict and
defaultdict subclasses whose ``__iter__`` logs or reverses, evicting by ``next(iter())``
and by ``popitem(last=False)``; ``iter(d)`` returned or stored after ``next`` (also
exhausted), then the dict changed by the caller and the iterator read on.

    >>> def _od_front(x, od, k):
    ...     od[k] = 1.0
    ...     od.move_to_end(k, last=False)     # k is first now
    ...     return next(iter(od)), x
"""

import collections

import numpy as np
from hostile_check import Programs

reg = Programs("round39_numbers")
X = np.array([0.5, -1.0, 2.0, 3.5])
LOG = []


# ---------------------------------------------------------------- LRUs and first keys
def _evict_many(x, d, k):
    d[k] = 1
    while len(d) > 2:
        del d[next(iter(d))]
    return x + len(d)


def _first_value_math(x, d):
    k = next(iter(d))
    return x * k, k + 1, k * 2**10, str(k)


def _first_index(x, d):
    k = next(iter(d))
    return x[k]


def _del_then_first(x, d, k):
    del d[k]
    return next(iter(d)), x


def _write_then_first(x, d, k):
    d[k] = 5
    f = next(iter(d))
    del d[f]
    return f, x * len(d)


class LogIter(dict):
    def __iter__(self):
        LOG.append("iter")
        return super().__iter__()


class Newest(dict):
    def __iter__(self):
        return reversed(list(super().__iter__()))


class Key:
    """A key that logs its hashes and comparisons."""

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        LOG.append(("hash", self.v))
        return hash(self.v)

    def __eq__(self, o):
        LOG.append(("eq", self.v))
        return isinstance(o, Key) and o.v == self.v


def _evict3(x, d, k):
    d[k] = x.sum()
    if len(d) > 2:
        del d[next(iter(d))]
    return x + len(d)


def _lru_scen(make, keys):
    def s(r):
        LOG.clear()
        d = make()
        f = r.compile(_evict3)
        for k in keys:
            r.call(f, X, d, k)
            r.see("d", (list(d), list(LOG)))
    return s


class IntKey(int):
    pass


reg._add("lru_logiter", _lru_scen(LogIter, (1, 2, 3, 4, 2, 5)), "")
reg._add("lru_newest", _lru_scen(Newest, (1, 2, 3, 4, 2, 5)), "")
reg._add("lru_ordered", _lru_scen(collections.OrderedDict, (1, 2, 3, 4, 2, 5)), "")
reg._add("lru_int_subclass", _lru_scen(dict, (IntKey(1), 2, IntKey(3), 4, 2, 5, IntKey(7))),
         "")
reg._add("lru_huge_keys", _lru_scen(dict, (2**70, -2**63 - 1, 3, 2**63, 4, 2**64, 5)), "")
reg._add("lru_bools_ints", _lru_scen(dict, (0, 1, True, False, 2, 0, 3)), "")


def _keyed(r):
    LOG.clear()
    ks = [Key(i) for i in range(6)]
    d = {}
    f = r.compile(_evict3)
    for i in (0, 1, 2, 3, 1, 4):
        r.call(f, X, d, ks[i])
        r.see("log", list(LOG))


def _many(r):
    d = {}
    f = r.compile(_evict_many)
    for k in (1, 2, 3, 4, 3, 1, 9):
        r.call(f, X, d, k)
        r.see("d", list(d))


reg._add("lru_key_objects", _keyed, "")
reg._add("lru_evict_many", _many, "")
reg.case(_first_value_math, (X, {2**70: 1}), (X, {3: 1}), (X, {-2**63: 0}),
         (X, {2**63 - 1: 1}), calls=1)
reg.case(_first_index, (X, {1: 1}), (X, {-1: 0}), (X, {7: 1}), (X, {2: 0}), calls=1)
reg.case(_del_then_first, (X, {1: 1, 2: 2}, 1), (X, {1: 1, 2: 2}, 2),
         (X, {1: 1, 2: 2, 3: 3}, 3), (X, {1: 1}, 1), calls=1)
reg.case(_write_then_first, (X, {1: 1, 2: 2}, 1), (X, {1: 1, 2: 2}, 2),
         (X, {1: 1, 2: 2}, 3), (X, {}, 3), calls=1)


# ---------------------------------------------------------------- other dict kinds, moves
def _od_lru(x, od, k):
    if k in od:
        od.move_to_end(k)
    else:
        od[k] = x.sum()
    if len(od) > 2:
        del od[next(iter(od))]
    return x + len(od)


def _od_front(x, od, k):
    od[k] = 1.0
    od.move_to_end(k, last=False)
    return next(iter(od)), x


def _popitem_first(x, d):
    d.popitem()
    return next(iter(d), None), x


def _pop_first(x, d, k):
    d.pop(k)
    return next(iter(d), None), x


def _setdefault(x, d, k):
    d.setdefault(k, 0)
    return next(iter(d)), x


def _update(x, d, k):
    d.update({k: 1})
    return next(iter(d)), x


def _dd(x, d, k):
    d[k] += 1
    if len(d) > 2:
        del d[next(iter(d))]
    return x * len(d)


def _kept(fn, make, keys):
    def s(r):
        LOG.clear()
        d = make()
        f = r.compile(fn)
        for k in keys:
            r.call(f, X, d, k)
            r.see("d", (list(d.items()), list(LOG)))
    return s


def _od_back(x, od, k):
    od[k] = 2.0
    od.move_to_end(next(iter(od)))     # the first key goes last: the next is first
    first = next(iter(od))
    if len(od) > 3:
        del od[first]
    return x * first


def _od_start():
    return collections.OrderedDict({1: 0, 2: 0})


reg._add("od_lru_moved", _kept(_od_lru, collections.OrderedDict,
                               (1, 2, 1, 3, 1, 4, 3, 3, 5)), "")
reg._add("od_moved_front", _kept(_od_front, _od_start, (3, 4, 1, 2, 5, 6)), "")
reg._add("od_moved_back", _kept(_od_back, _od_start, (3, 4, 1, 5, 2, 6, 6)), "")
reg._add("defaultdict_lru", _kept(_dd, lambda: collections.defaultdict(int),
                                  (1, 2, 3, 1, 4, 5, 5, 6)), "")
reg._add("counter_lru", _kept(_dd, collections.Counter, (1, 2, 3, 1, 4, 5, 5, 6)), "")
reg._add("setdefault_first", _kept(_setdefault, dict, (1, 2, 3, 1, 4)), "")
reg._add("update_first", _kept(_update, dict, (1, 2, 3, 1, 4)), "")
reg.case(_popitem_first, (X, {1: 1}), (X, {1: 1, 2: 2}), (X, {5: 1, 2: 2, 3: 3}), calls=1)
reg.case(_pop_first, (X, {1: 1, 2: 0}, 1), (X, {1: 1, 2: 2}, 2), (X, {5: 1}, 5), calls=1)


# ---------------------------------------------------------------- subclasses with __iter__
class LogOD(collections.OrderedDict):
    def __iter__(self):
        LOG.append("iter")
        return super().__iter__()


class RevOD(collections.OrderedDict):
    def __iter__(self):
        return reversed(list(super().__iter__()))


class LogDD(collections.defaultdict):
    def __iter__(self):
        LOG.append("iter")
        return super().__iter__()


def _evict_popitem(x, d, k):
    if k in d:
        d.move_to_end(k)
    d[k] = 1.0
    if len(d) > 2:
        d.popitem(last=False)
    return x * len(d)


reg._add("lru_logging_od", _lru_scen(LogOD, (1, 2, 3, 4, 2, 5)), "")
reg._add("lru_reversed_od", _lru_scen(RevOD, (1, 2, 3, 4, 2, 5)), "")
reg._add("lru_logging_defaultdict", _lru_scen(lambda: LogDD(float), (1, 2, 3, 4, 2, 5)), "")
reg._add("od_popitem_logging", _kept(_evict_popitem, LogOD, (1, 2, 1, 3, 4, 3)), "")
reg._add("od_popitem_reversed", _kept(_evict_popitem, RevOD, (1, 2, 1, 3, 4, 3)), "")


# ---------------------------------------------------------------- iterators that escape
def _escape_empty(x, d):
    it = iter(d)
    try:
        next(it)
    except StopIteration:
        pass
    return it, x


def _escape_first(x, d):
    it = iter(d)
    k = next(it)
    return it, k, x


def _escape_fresh(x, d):
    return iter(d), x


def _escape_stored(x, d, box):
    box.it = iter(d)
    box.k = next(box.it)
    return x * 2.0


class ItBox:
    pass


def _use_escaped(r, fn, dicts, box=False):
    f = r.compile(fn)
    for d in dicts:
        b = ItBox()
        out = r.call(f, X, d, b) if box else r.call(f, X, d)
        if out is None:
            continue
        it = b.it if box else out[0]
        d[99] = 0
        try:
            rest = list(it)
        except RuntimeError as e:
            rest = ("RuntimeError", str(e))
        r.see("rest", rest)
        del d[99]
        d[100] = 1
        try:
            rest = list(it)
        except RuntimeError as e:
            rest = ("RuntimeError", str(e))
        r.see("rest2", rest)


def _escaped(fn, box=False):
    def s(r):
        _use_escaped(r, fn, [{}, {1: 1}, {2: 2, 3: 3}, {}, {1: 1}], box)
    return s


for _fn in (_escape_empty, _escape_first, _escape_fresh):
    reg._add("iterator" + _fn.__name__, _escaped(_fn), "")


def s_stored(r):
    f = r.compile(_escape_stored)
    for d in [{1: 1, 2: 2}, {3: 3}, {4: 4, 5: 5, 6: 6}]:
        b = ItBox()
        r.call(f, X, d, b)
        r.see("rest", (b.k, list(b.it)))
        d[7] = 7
        try:
            r.see("after", list(b.it))
        except RuntimeError as e:
            r.see("after", str(e))


reg._add("iterator_escape_stored", s_stored, "")
