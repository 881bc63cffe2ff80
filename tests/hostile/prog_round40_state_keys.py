"""Round 40, state in loops (the category of ``prog_round40_state_hash.py``):
``lru_cache`` results inside compiled loops (hits and misses in one call, eviction at
``maxsize`` within the loop, the cache cleared mid-loop), ``next(iter(d))`` after
deletes, ``pop``, ``move_to_end`` and re-inserts in the loop, rounded float keys near
``.5`` (``round(2.5)`` is 2, ``round(0.125, 2)`` is 0.12, ``round(2.675, 2)`` is 2.67),
``OrderedDict``/``defaultdict``/``Counter`` changed on every trip of a loop over an
array, a list appended in a loop (a loop node) and read after it, an attribute counter
``self.n += 1`` in a loop (also of a class attribute, and of a property).

    >>> def _evict(x, d):
    ...     for i in range(len(x)):
    ...         d[i] = x[i]
    ...         if len(d) > 3:
    ...             del d[next(iter(d))]     # the oldest key
    ...     return d
"""

import collections
import functools

import numpy as np
from hostile_check import Programs

reg = Programs("round40_state")
X = np.array([0.5, -1.0, 2.0, 3.5, 4.0, -2.5, 1.5, 0.25])


def _sized(fn, *makes, name=None):
    reg.case(fn, *makes, calls=1, name=name or fn.__name__.removeprefix("_"))


def _xs(*ns):
    return [(lambda n=n: (X[:n].copy(),)) for n in ns]


# ------------------------------------------------------------- next(iter(d)) in loops
def _evict(x, d):
    for i in range(len(x)):
        d[i] = x[i]
        if len(d) > 3:
            del d[next(iter(d))]
    return d, list(d)


def _evict_od(x, d):
    for i in range(len(x)):
        d[i % 5] = x[i]
        d.move_to_end(i % 5, last=bool(i % 2))
        if len(d) > 3:
            d.popitem(last=False)
    return list(d.items()), next(iter(d))


def _pop_then_first(x, d):
    for i in range(len(x)):
        d[i] = float(x[i])
        if i % 3 == 2:
            d.pop(next(iter(d)))
            d[next(iter(d))] = -1.0
    return list(d.items())


def _reinsert(x, d):
    for i in range(len(x)):
        k = next(iter(d))
        v = d.pop(k)
        d[k] = v + x[i]                       # the first key goes to the back
    return list(d.items())


_sized(_evict, *[(lambda n=n: (X[:n].copy(), {})) for n in (8, 3, 5, 8)])
_sized(_evict, *[(lambda n=n: (X[:n].copy(), {"a": 0, "b": 1})) for n in (6, 2, 6)],
       name="evict_prefilled")
_sized(_evict_od, *[(lambda n=n: (X[:n].copy(), collections.OrderedDict(z=0)))
                    for n in (8, 4, 7, 8)])
_sized(_pop_then_first, *[(lambda n=n: (X[:n].copy(), {10: 0.0, 11: 1.0}))
                          for n in (8, 5, 3, 8)])
_sized(_reinsert, *[(lambda n=n: (X[:n].copy(), {"p": 0.0, "q": 1.0, "r": 2.0}))
                    for n in (8, 4, 1, 8)])


# ------------------------------------------------------------- rounded float keys
def _rounded_keys(x):
    seen = {}
    for v in x:
        k = round(float(v) * 0.5 + 0.25, 1)
        seen[k] = seen.get(k, 0) + 1
    return list(seen.items())


def _round_halves(x):
    return [round(float(v) + 0.5) for v in x], [round(float(v) / 4, 2) for v in x]


def _round_np(x):
    out = {}
    for v in x:
        out.setdefault(round(v * 0.25, 2), []).append(float(v))
    return [(type(k).__name__, k, vs) for k, vs in out.items()]


def _round_ties(x):
    ties = [0.5, 1.5, 2.5, 0.125, 0.375, 2.675, -0.5, -1.5]
    return x[:2] * 2, [round(t + float(x[0]) * 0) for t in ties], \
        [round(t + float(x[0]) * 0, 2) for t in ties]


_HALVES = np.array([0.5, 1.5, 2.5, -0.5, 0.125, 2.675, 0.375, -2.5])
_sized(_rounded_keys, *_xs(8, 3, 6))
_sized(_round_halves, (lambda: (_HALVES.copy(),)), (lambda: (_HALVES[:3].copy(),)))
_sized(_round_np, (lambda: (_HALVES.copy(),)), (lambda: (X.copy(),)))
_sized(_round_ties, *_xs(8, 2))


# ------------------------------------------------------------- Counter/defaultdict/OD
def _counted(x):
    c = collections.Counter()
    for v in x:
        c["pos" if v > 0 else "neg"] += 1
        c[int(v)] += 1
    return c.most_common(2), list(c), sum(c.values())


def _default_lists(x):
    d = collections.defaultdict(list)
    for i in range(len(x)):
        d[i % 3].append(x[i] * 2)
    return {k: np.array(v) for k, v in d.items()}, list(d)


def _default_int_arg(x, d):
    for v in x:
        d[v > 1.0] += 1
    return dict(d), d.default_factory is int


def _counter_subtract(x, c):
    for v in x:
        c.subtract({"n": 1})
        if v < 0:
            c["neg"] += 1
    return +c, list(c.elements())[:5], c.total()


def _od_moves(x, od):
    for i in range(len(x)):
        key = "k%d" % (i % 3)   # noqa: UP031 (the %-format of a changing int, traced)
        od[key] = od.get(key, 0.0) + x[i]
        od.move_to_end(key, last=i % 2 == 0)
    return list(od.items())


_sized(_counted, *_xs(8, 2, 5))
_sized(_default_lists, *_xs(8, 4, 1))
_sized(_default_int_arg, *[(lambda n=n: (X[:n].copy(), collections.defaultdict(int, {True: 5})))
                           for n in (8, 3, 8)])
_sized(_counter_subtract, *[(lambda n=n: (X[:n].copy(), collections.Counter(n=2, neg=1)))
                            for n in (8, 3, 6)])
_sized(_od_moves, *[(lambda n=n: (X[:n].copy(), collections.OrderedDict(k2=1.0)))
                    for n in (8, 4, 7)])


# ------------------------------------------------------------- lists and counters in loops
def _appended(x):
    out = []
    for i in range(len(x)):
        out.append(x[i] * i)
    return np.array(out), len(out), out[-1] if out else None


def _appended_arg(x, log):
    for i in range(len(x)):
        log.append(x[i] + 1.0)
    return sum(log), len(log)


def _appended_then_read(x):
    acc = []
    for v in x:
        acc.append(v * v)
    total = 0.0
    for a in acc:
        total += a
    return total, acc[::2]


class Tally:
    n = 0

    def __init__(self):
        self.hits = 0
        self.w = 0.0


def _attr_counter(x, t):
    for i in range(len(x)):
        t.hits += 1
        t.w = t.w + x[i] * t.hits
    return t.hits, t.w


def _class_counter(x, t):
    for v in x:
        type(t).n += 1
    return type(t).n


class Watched:
    def __init__(self):
        self._n = 0
        self.log = []

    @property
    def n(self):
        self.log.append("get")
        return self._n

    @n.setter
    def n(self, v):
        self.log.append(("set", v))
        self._n = v


def _property_counter(x, w):
    for v in x:
        w.n += 1
    return w.n, len(w.log)


def _class_reset():
    Tally.n = 0


_sized(_appended, *_xs(8, 1, 0, 5))
_sized(_appended_arg, *[(lambda n=n: (X[:n].copy(), [1.0])) for n in (8, 3, 0, 8)])
_sized(_appended_then_read, *_xs(8, 4, 1))
_sized(_attr_counter, *[(lambda n=n: (X[:n].copy(), Tally())) for n in (8, 3, 0, 6)])
reg.case(_class_counter, *[(lambda n=n: (X[:n].copy(), Tally())) for n in (8, 3, 5)],
         calls=1, setup=_class_reset, watch=lambda: Tally.n)
_sized(_property_counter, *[(lambda n=n: (X[:n].copy(), Watched())) for n in (4, 2, 4)])


# ------------------------------------------------------------- lru_cache in loops
def _fresh():
    @functools.lru_cache(maxsize=2)
    def decay(k):
        print("miss", k)
        return 0.5 ** k

    @functools.cache
    def width(k):
        return k % 3 + 1

    @functools.lru_cache(maxsize=4)
    def table(k):
        return np.arange(float(k + 1))
    return decay, width, table


def _loop_decay(x, h):
    decay = h[0]
    for i in range(len(x)):
        x[i] = x[i] * decay(i % 3)
    return x, tuple(decay.cache_info())


def _loop_width(x, h):
    width = h[1]
    s = 0.0
    for i in range(len(x)):
        s += x[: width(i)].sum()
    return s, width.cache_info().currsize


def _loop_table(x, h):
    table = h[2]
    out = []
    for i in range(len(x)):
        t = table(i % 5)
        t[0] += 1.0                       # the cached array itself
        out.append(t.sum())
    return out


def _loop_cleared(x, h):
    decay = h[0]
    s = 0.0
    for i in range(len(x)):
        s += decay(i % 2)
        if i == 2:
            decay.cache_clear()
    return s * x, decay.cache_info().misses


def _lru_run(fn, ns):
    def s(r):
        h = _fresh()
        f = r.compile(fn)
        for n in ns:
            r.call(f, X[:n].copy(), h)
        r.see("infos", [tuple(w.cache_info()) for w in h])
    reg._add(fn.__name__.removeprefix("_"), s, "")


for _fn in (_loop_decay, _loop_width, _loop_table, _loop_cleared):
    _lru_run(_fn, (8, 3, 8, 5))
