"""Round 42, what the trace reads whole or carries over a break (issue #16's mechanisms):
generators that hand a list's items to ``sum``/``max``/``min`` unchanged
(``variables/identity_generators.py``: a list subclass whose ``__iter__`` lies, a
generator started before the builtin, kept and advanced after it, an empty list, NaN
items, mixed ints and floats, arrays as items), ``d.values()`` of a dict the call adds
keys to (``unread_dicts``: a live view taken before the adds, an overwritten key, a
deleted one, values of mixed types), draws of ``random.Random`` and NumPy generators
carried over a break as changing numbers (seeded between calls, drawn twice, an int
draw used as a size), and chained comparisons of sizes (``size_chains.py``: bounds
that are floats, NaN, crossed; a longer chain; a right link with a side effect).

    >>> class _Losses:
    ...     def __init__(self):
    ...         self.losses = []
    ...     def update(self, x, loss):
    ...         self.losses.append(loss)
    ...         return x * (sum(v for v in self.losses) / len(self.losses))
"""

import random

import numpy as np
from hostile_check import Programs

reg = Programs("round42_state")
X = np.linspace(-1.0, 2.0, 6)
NAN = float("nan")
LOSSES = (0.5, 0.25, 2.0, NAN, -0.0, 1, 3.5, 0.125)


class _Losses:
    def __init__(self, items=None):
        self.losses = list(items or [])
        self.d = {}
        self.epoch = 0


def _sum_gen(o, x, loss):
    o.losses.append(loss)
    return x * (sum(v for v in o.losses) / len(o.losses))


def _max_gen(o, x, loss):
    o.losses.append(loss)
    return x * max(v for v in o.losses), min(s for s in o.losses)


def _sum_gen_start(o, x, loss):
    o.losses.append(loss)
    return x * sum((v for v in o.losses), 10.0)


def _gen_kept(o, x, loss):
    o.losses.append(loss)
    g = (v for v in o.losses)
    total = sum(g)
    return x * total, next(g, "exhausted"), list(g)


def _gen_started(o, x, loss):
    o.losses.append(loss)
    g = (v for v in o.losses)
    first = next(g)
    return x * sum(g), first


def _gen_of_empty(o, x, loss):
    if loss > 1:
        o.losses.clear()
    return x * sum(v for v in o.losses), len(o.losses)


def _max_of_empty(o, x, loss):
    if loss > 1:
        o.losses.clear()
    else:
        o.losses.append(loss)
    return x * max(v for v in o.losses)


def _gen_mutated_after(o, x, loss):
    o.losses.append(loss)
    s = sum(v for v in o.losses)
    o.losses.append(s)
    return x * s, len(o.losses)


class _Lying(list):
    def __iter__(self):
        return iter([v * 2 for v in list.__iter__(self)])


def _lying_list(n):
    def make(k):
        return (_Losses(_Lying([1.0, 2.0])), X.copy(), LOSSES[k % len(LOSSES)])
    return make


def _values_sum(o, x, loss):
    o.d[o.epoch] = loss
    o.epoch += 1
    return x * sum(o.d.values())


def _values_max(o, x, loss):
    o.d[o.epoch] = loss
    o.epoch += 1
    return x * max(o.d.values()) - min(o.d.values())


def _view_before_add(o, x, loss):
    vals = o.d.values()
    o.d[o.epoch] = loss
    o.epoch += 1
    return x * sum(vals), len(vals)


def _values_overwrite(o, x, loss):
    o.d[o.epoch % 3] = loss
    o.epoch += 1
    return x * sum(o.d.values())


def _values_delete(o, x, loss):
    o.d[o.epoch] = loss
    if o.epoch - 2 in o.d:
        del o.d[o.epoch - 2]
    o.epoch += 1
    return x * sum(o.d.values()), list(o.d)


def _values_returned(o, x, loss):
    o.d[o.epoch] = loss
    o.epoch += 1
    return x * 2.0, o.d.values()


def _sequence(fn, make=None, calls=8):
    def scenario(r):
        o = _Losses()
        f = r.compile(fn)
        for k in range(calls):
            if make is None:
                r.call(f, o, X.copy(), LOSSES[k % len(LOSSES)])
            else:
                r.call(f, *make(k))
        r.see("object", o)
    reg._add(fn.__name__.removeprefix("_") if make is None else
             f"{fn.__name__.removeprefix('_')}_lying", scenario, "")


for _fn in (_sum_gen, _max_gen, _sum_gen_start, _gen_kept, _gen_started, _gen_of_empty,
            _max_of_empty, _gen_mutated_after, _values_sum, _values_max, _view_before_add,
            _values_overwrite, _values_delete, _values_returned):
    _sequence(_fn)
_sequence(_sum_gen, make=_lying_list(0))
_sequence(_max_gen, make=_lying_list(0))


class _Arrays:
    def __init__(self):
        self.items = []


def _sum_of_arrays(o, x):
    o.items.append(x * 2.0)
    return sum(v for v in o.items)


@reg.scenario
def s_sum_gen_of_arrays(r):
    o = _Arrays()
    f = r.compile(_sum_of_arrays)
    for k in range(5):
        r.call(f, o, X + k)
    r.see("items", o.items)


# ---- random draws over a break -------------------------------------------------------

class _Noisy:
    def __init__(self, seed=5):
        self.rng, self.gen = random.Random(seed), np.random.default_rng(seed)


def _gauss_twice(o, x):
    a = o.rng.gauss(0.0, 1.0)
    b = o.rng.random()
    return x * a + b


def _randrange_size(o, x):
    n = o.rng.randrange(0, 4)
    return np.zeros(n), x[:n] * 2.0


def _binomial_break(o, x):
    k = o.gen.binomial(10, 0.5)
    print("drew", k)
    return x * k, o.gen.random()


def _draw_then_choice(o, x):
    a = o.rng.uniform(-1, 1)
    if a > 0:
        return x * a
    return x - a


def _global_random(x):
    a = random.random()
    print("a")
    return x + a + random.random()


def _draws(fn, reseed=False, calls=6):
    def scenario(r):
        o = _Noisy()
        random.seed(11)
        f = r.compile(fn)
        for k in range(calls):
            if reseed and k == 3:
                o.rng.seed(5)
                random.seed(11)
            if fn is _global_random:
                r.call(f, X + k)
            else:
                r.call(f, o, X + k)
        r.see("rng", o.rng.getstate()[1][:3] if fn is not _global_random else
              random.getstate()[1][:3])
        r.see("gen", o.gen.bit_generator.state["state"])
    reg._add(f"{fn.__name__.removeprefix('_')}{'_reseeded' if reseed else ''}", scenario, "")


for _fn in (_gauss_twice, _randrange_size, _binomial_break, _draw_then_choice,
            _global_random):
    _draws(_fn)
    _draws(_fn, reseed=True)


# ---- chained comparisons of sizes ----------------------------------------------------

def _size_chain(x, lo, hi):
    kept = x[x > 0]
    if lo <= len(kept) <= hi:
        return kept.sum()
    return -1.0


def _size_chain_lt(x, lo, hi):
    kept = x[x > 0.5]
    if lo < kept.shape[0] < hi:
        return kept * 2.0
    return kept[:0]


def _size_chain_value(x, lo, hi):
    kept = x[x > 0]
    ok = lo <= len(kept) <= hi
    return ok, kept.size


def _size_chain_long(x, lo, hi):
    kept = x[x > 0]
    if lo <= len(kept) <= hi <= 100:
        return kept.sum()
    return 0.0


LOG = []


def _size_chain_effect(x, lo, hi):
    kept = x[x > 0]
    if lo <= len(kept) <= LOG.append(hi) or hi:
        return kept.sum(), len(LOG)
    return 0.0, len(LOG)


def _v(n, seed=2):
    return np.random.default_rng(seed + n).random(n) * 2 - 1


for _fn in (_size_chain, _size_chain_lt, _size_chain_value, _size_chain_long,
            _size_chain_effect):
    reg.case(_fn, *[(lambda n=n, lo=lo, hi=hi: (_v(n), lo, hi))
                    for n, lo, hi in ((12, 2, 8), (12, 0, 0), (20, 1.5, 9.5), (7, 5, 2),
                                      (0, 0, 3), (12, NAN, 8), (30, -1, 100))],
             calls=1, setup=LOG.clear)
