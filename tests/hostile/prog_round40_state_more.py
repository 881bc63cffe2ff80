"""Round 40, state continued (the category of ``prog_round40_state_hash.py``): dict
orders after deletes and re-inserts in a loop (``list(d)``, ``next(reversed(d))``,
``next(iter(d.values()))``, ``popitem()``), keys that compare equal (``True``, ``1``,
``1.0``: the first key stays), ``OrderedDict`` equality (order-sensitive) after moves,
views and ``sorted(d, key=d.get)``, ``set.pop`` in a loop (ints: the same order in every
process; strs from an argument), ``Counter`` of rounded keys (``-0.0`` and ``0.0``
one key), ``round`` of negative numbers (``round(-0.4)`` is ``0``, ``round(-0.4, 0)``
is ``-0.0``), a stack pushed and popped in a loop, a global list appended in a loop,
a ``nonlocal`` counter, a method that counts on its object called in a loop.

    >>> def _equal_keys(x):
    ...     d = {}
    ...     for i in range(len(x)):
    ...         d[(True, 1, 1.0)[i % 3]] = x[i]    # one key: True
    ...     return list(d.items())
"""

import collections

import numpy as np
from hostile_check import Programs

reg = Programs("round40_state")
X = np.array([0.5, -1.0, 2.0, 3.5, 4.0, -2.5, 1.5, 0.25])
NEG = np.array([-0.4, -0.5, -1.5, 0.4, -0.04, 0.05, -2.5, 2.5])


def _sized(fn, *makes, name=None, **kw):
    reg.case(fn, *makes, calls=1, name=name or fn.__name__.removeprefix("_"), **kw)


def _xs(*ns, a=X):
    return [(lambda n=n: (a[:n].copy(),)) for n in ns]


# ------------------------------------------------------------- dict orders
def _delete_reinsert(x):
    d = {"a": 0.0, "b": 1.0, "c": 2.0}
    for i in range(len(x)):
        k = "abc"[i % 3]
        v = d.pop(k)
        d[k] = v + x[i]
    return list(d), next(reversed(d)), next(iter(d.values()))


def _popitems(x):
    d = {}
    out = []
    for i in range(len(x)):
        d[i] = x[i]
        if i % 3 == 2:
            out.append(d.popitem())
    return out, list(d)


def _equal_keys(x):
    d = {}
    for i in range(len(x)):
        d[(True, 1, 1.0)[i % 3]] = x[i]
    return list(d.items()), type(next(iter(d))).__name__


def _od_equal(x):
    od = collections.OrderedDict(a=1, b=2, c=3)
    for i in range(len(x)):
        if x[i] > 0:
            od.move_to_end("abc"[i % 3])
    return od == collections.OrderedDict(a=1, b=2, c=3), od == {"c": 3, "b": 2, "a": 1}, \
        list(od)


def _views(x):
    d = {i: float(x[i]) for i in range(len(x))}
    for i in range(0, len(x), 2):
        del d[i]
    return sorted(d, key=d.get), list(d.keys() & {1, 3, 5, 9}), list(d.items())[:2]


def _set_pops(x):
    s = {7, 3, 11, 5, 19, 2}
    out = []
    for v in x:
        if s:
            out.append(s.pop() * float(v))
    return out, sorted(s)


def _str_set_pops(x, words):
    s = set(words)
    n = 0
    for v in x:
        if s and v > 0:
            s.discard(min(s))
            n += 1
    return n, sorted(s)


for _fn in (_delete_reinsert, _popitems, _equal_keys, _od_equal, _views, _set_pops):
    _sized(_fn, *_xs(8, 3, 5))
_sized(_str_set_pops, *[(lambda n=n: (X[:n].copy(), ["q", "a", "z", "m"])) for n in (8, 2)])


# ------------------------------------------------------------- rounding
def _round_negative(x):
    return [round(float(v)) for v in x], [round(float(v), 0) for v in x], \
        [round(float(v), 1) for v in x]


def _counter_rounded(x):
    c = collections.Counter(round(float(v) * 0.1, 0) for v in x)
    return list(c.items()), [str(k) for k in c]


def _round_in_loop(x):
    keys = []
    for v in x:
        k = round(v * 2.0) / 2.0
        if k not in keys:
            keys.append(k)
    return [(type(k).__name__, k) for k in keys]


_sized(_round_negative, *_xs(8, 4, a=NEG))
_sized(_counter_rounded, *_xs(8, 3, a=NEG))
_sized(_round_in_loop, *_xs(8, 5, a=NEG))


# ------------------------------------------------------------- lists and counters
LOG = []


def _global_log(x):
    for i in range(len(x)):
        LOG.append(i * x[i])
    return len(LOG)


def _stack(x):
    st = []
    for v in x:
        if v > 0:
            st.append(v)
        elif st:
            st.pop()
    return list(st), len(st)


def _nonlocal_counter(x):
    n = 0

    def bump(v):
        nonlocal n
        n += 1
        return v * n
    out = [bump(v) for v in x]
    return out, n


class Meter:
    def __init__(self):
        self.count = 0
        self.total = 0.0

    def add(self, v):
        self.count += 1
        self.total += v
        return self.count


def _method_counter(x, m):
    for i in range(len(x)):
        m.add(x[i])
    return m.count, m.total


def _extend_slice(x):
    buf = [0.0]
    for v in x:
        buf.extend([v, -v])
        buf = buf[-5:]
    return buf


_sized(_global_log, *_xs(8, 3, 0), setup=LOG.clear, watch=lambda: list(LOG))
_sized(_stack, *_xs(8, 3, 6))
_sized(_nonlocal_counter, *_xs(8, 2, 0))
_sized(_method_counter, *[(lambda n=n: (X[:n].copy(), Meter())) for n in (8, 3, 0, 8)])
_sized(_extend_slice, *_xs(8, 2, 5))
