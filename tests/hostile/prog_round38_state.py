"""Round 38, sets and frozensets from outside the trace read by the elements the trace
touches (``dynamo/variables/unread_sets.py``): ``add``/``discard``/``remove``/``update``/
``|=``/``-=``/``&=``/``^=``/``clear`` replayed after the graph, ``k in s`` guarded on
``k`` alone, ``len(s)`` as the starting length plus the call's changes. Keys equal but
of other types (``1``, ``1.0``, ``True``, ``np.int64(1)``, ``-0.0``/``0.0``, NaN by
identity), a key added then removed in one call, ``remove`` of a missing key (the
``KeyError`` after effects, what ``except`` sees), one set under two names (two
arguments, a global and an argument, an attribute), sets changed by a callee, by a
key's ``__hash__``/``__eq__``, between calls by other code, set subclasses with their
own ``add``, a frozenset argument replaced by a set, lengths read after a discard of a
key that may or may not be there, and graph breaks between the write and the read.

    >>> def _add_len(x, s, k):
    ...     s.add(k)                 # replayed after the graph: s.add(k)
    ...     return x * len(s)        # len(s) at the start (+1 unless k was there)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round38_state")
X = np.arange(4.0) - 1.5
NAN = float("nan")
G_SET = {1, 2}
LOG = []


class Holder:
    def __init__(self, seen=None):
        self.seen = set() if seen is None else seen
        self.n = 0


class LogSet(set):
    def add(self, k):
        LOG.append(("add", k))
        super().add(k)


class CountingKey:
    hashed = 0

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        CountingKey.hashed += 1
        return hash(self.v)

    def __eq__(self, other):
        return isinstance(other, CountingKey) and other.v == self.v


class MutatingKey:
    """A key whose ``__hash__`` adds to the set it is tested against."""

    def __init__(self, v, target):
        self.v, self.target = v, target

    def __hash__(self):
        self.target.add(("hashed", self.v))
        return hash(self.v)

    def __eq__(self, other):
        return isinstance(other, MutatingKey) and other.v == self.v


# ---------------------------------------------------------------- writes and lengths
def _add_len(x, s, k):
    s.add(k)
    return x * len(s)


def _add_in(x, s, k):
    s.add(k)
    return x + (1.0 if 1 in s else 0.0) + (2.0 if k in s else 0.0)


def _in_then_add(x, s, k):
    w = 1.0
    if k not in s:
        s.add(k)
        w = 2.0
    return x * w, len(s)


def _discard_len(x, s, k):
    s.discard(k)
    return x * len(s), k in s


def _add_remove(x, s, k):
    s.add(k)
    s.remove(k)
    return x + len(s), k in s


def _add_discard_add(x, s, k):
    s.add(k)
    s.discard(k)
    n = len(s)
    s.add(k)
    return x * n + len(s)


def _remove_missing(x, s, k):
    s.add(100)
    s.remove(k)
    return x * len(s)


def _remove_caught(x, s, k, log):
    log.append("before")
    s.add(-1)
    try:
        s.remove(k)
    except KeyError as e:
        log.append(("caught", e.args, len(s), -1 in s))
        return x - 1.0
    return x * len(s)


def _remove_twice(x, s, k):
    s.remove(k)
    try:
        s.remove(k)
    except KeyError:
        return x * len(s)
    return x


def _clear_add_len(x, s, k):
    n0 = len(s)
    s.clear()
    s.add(k)
    s.add(k + 1)
    return x * n0 + len(s) + (k in s), bool(s)


def _clear_truth(x, s):
    s.clear()
    if s:
        return x + 1.0
    return x - 1.0


def _truth_after_discard(x, s, k):
    s.discard(k)
    return x * 2.0 if s else x * 3.0


def _update_list(x, s, k):
    s.update([k, k + 1, k])
    return x * len(s)


def _update_two(x, s, k):
    s.update([k], (k + 2,))
    s.update()
    return x + len(s)


def _ior_const(x, s, k):
    s |= {k, 7}
    s |= frozenset({8})
    return x * len(s)


def _isub(x, s, k):
    s -= {k}
    return x * len(s)


def _iand(x, s, k):
    s &= {k, 1}
    return x + len(s)


def _ixor(x, s, k):
    s ^= {k}
    return x - len(s), k in s


def _update_made_set(x, s, k):
    t = {k, k + 1}
    t.discard(k + 1)
    s.update(t)
    return x + len(s)


def _update_str(x, s):
    s.update("ab")
    return x * len(s)


def _add_returns(x, s, k):
    r = s.add(k)
    d = s.discard(k + 50)
    return x if r is None and d is None else x * 0.0


def _len_as_shape(x, s, k):
    s.add(k)
    return np.full(len(s), 2.0) + x.sum(), x[:len(s)]


def _len_in_range(x, s, k):
    s.discard(k)
    acc = x.copy()
    for _ in range(len(s)):
        acc = acc * 0.5
    return acc


# ---------------------------------------------------------------- equal keys of other types
def _key_one(x, s):
    return x + (1.0 in s) + 2 * (True in s) + 4 * (np.int64(1) in s) + 8 * (1 in s)


def _add_one_float(x, s):
    s.add(1.0)
    return x * len(s)


def _add_true(x, s):
    s.add(True)
    s.discard(1.0)
    return x + len(s)


def _add_npint(x, s):
    s.add(np.int64(1))
    return x * len(s)


def _add_negzero(x, s):
    s.add(-0.0)
    return x + len(s) + (0 in s)


def _nan_in(x, s, k):
    return x + (1.0 if k in s else 0.0) + (2.0 if NAN in s else 0.0)


def _nan_add(x, s, k):
    s.add(k)
    return x * len(s)


def _complex_key(x, s):
    s.add(1 + 0j)
    return x * len(s) + (1 in s)


def _big_keys(x, s, k):
    s.add(2 ** 64 + k)
    return x + len(s) + (2 ** 64 in s)


def _neg_one_two(x, s, k):
    s.add(k)
    return x + len(s) + (-1 in s) * 10 + (-2 in s) * 100


def _tuple_keys(x, s, k):
    s.add((k, "a"))
    return x * len(s) + ((k, "a") in s) + ((1.0, "a") in s)


def _none_and_str(x, s, k):
    s.add(None)
    s.add(str(k))
    return x + len(s) + ("1" in s)


def _two_changing(x, s, i, j):
    s.add(i)
    s.discard(j)
    return x * len(s) + (i in s) + 10 * (j in s)


def _counting_key(x, s, k):
    s.add(CountingKey(k))
    return x * len(s), CountingKey.hashed > 0


def _mutating_key(x, s, k):
    key = MutatingKey(k, s)
    s.add(key)
    return x + len(s)


def _unhashable(x, s):
    try:
        s.add([1])
    except TypeError as e:
        return x * len(s), str(e)
    return x


def _array_key(x, s):
    try:
        s.add(x)
    except TypeError:
        return x + len(s)
    return x


# ---------------------------------------------------------------- two names, callees
def _two_args(x, s, t):
    s.add(5)
    t.discard(1)
    return x * len(s) + len(t) + (1 in s) * 10 + (5 in t) * 100


def _global_and_arg(x, s):
    s.add(9)
    G_SET.discard(2)
    return x + len(G_SET) + len(s) * 10 + (9 in G_SET) * 100


def _helper_add(s, k):
    s.add(k)
    s.discard(k - 1)


def _callee(x, s, k):
    _helper_add(s, k)
    return x * len(s) + (k - 1 in s)


def _attr_set(x, h, k):
    if k in h.seen:
        h.n += 1
        return x * 0.0
    h.seen.add(k)
    return x * len(h.seen)


def _attr_two(x, h, g, k):
    h.seen.add(k)
    return x + len(g.seen) + (k in g.seen) * 10


def _closure_set():
    seen = {0}

    def visit(x, k):
        if k in seen:
            return x * 0.0
        seen.add(k)
        return x + len(seen)
    return visit


def _subclass_add(x, s, k):
    s.add(k)
    return x * len(s), len(LOG)


def _frozen_in(x, s, k):
    return x + (k in s) + len(s)


def _frozen_or_add(x, s, k):
    if k in s:
        return x * len(s)
    s.add(k)
    return x + len(s)


def _break_between(x, s, k):
    s.add(k)
    print("between", k)
    return x * len(s) + (k in s)


def _break_id(x, s, k):
    s.discard(k)
    n = len(s)
    _ = id(s)
    s.add(k + 1)
    return x * n + len(s)


def _iterate_after_add(x, s, k):
    s.add(k)
    return x + sum(sorted(s))


def _copy_after_add(x, s, k):
    s.add(k)
    t = s.copy()
    s.add(k + 1)
    return x + len(t) + len(s) * 10


def _raise_after_add(x, s, k, log):
    s.add(k)
    log.append(len(s))
    if k > 2:
        raise ValueError(f"k={k}, n={len(s)}")
    return x * len(s)


def _array_after_add(x, s, k):
    s.add(k)
    y = np.linalg.inv(np.diag(x))   # raises for a zero on the diagonal
    return y.sum() + len(s)


def _loop_adds(x, s, n):
    for i in range(n):
        s.add(i % 3)
        x = x * 0.5 + 1.0
    return x, len(s)


def _set_in_dict(x, d, k):
    d["s"].add(k)
    return x * len(d["s"])


# ---------------------------------------------------------------- registration
KS = (1, 2, 1, 5)
reg.case(_add_len, *[(X, {1, 2}, k) for k in KS], calls=1)
reg.case(_add_len, *[(X, set(), k) for k in (0, -1, 2**62)], calls=1, name="add_len_empty")
reg.case(_add_in, *[(X, {3}, k) for k in (1, 2, True, 1.0)], calls=1)
reg.case(_in_then_add, *[(X, {1, 2, 3}, k) for k in (4, 1, 5, 3)], calls=1)
reg.case(_discard_len, *[(X, {1, 2}, k) for k in (1, 3, 2, 1.0, True)], calls=1)
reg.case(_add_remove, *[(X, {1}, k) for k in (1, 2, 1, 3)], calls=1)
reg.case(_add_discard_add, *[(X, {1, 2}, k) for k in (2, 4, 1)], calls=1)
reg.case(_remove_missing, *[(X, {1, 2}, k) for k in (1, 3, 2, 100)], calls=1)
reg.case(_remove_caught, *[(X, {1, 2}, k, []) for k in (1, 3, -1, 2)], calls=1)
reg.case(_remove_twice, *[(X, {1, 2, 3}, k) for k in (1, 2, 4)], calls=1)
reg.case(_clear_add_len, *[(X, set(range(n)), k) for n, k in ((3, 1), (0, 2), (5, 7))],
         calls=1)
reg.case(_clear_truth, (X, {1}), (X, set()), calls=1)
reg.case(_truth_after_discard, *[(X, s, 1) for s in ({1}, {1, 2}, set(), {2})], calls=1)
reg.case(_update_list, *[(X, {1}, k) for k in (1, 0, 5, 1)], calls=1)
reg.case(_update_two, *[(X, {3}, k) for k in (1, 3, 1)], calls=1)
reg.case(_ior_const, *[(X, {7}, k) for k in (1, 7, 8)], calls=1)
reg.case(_isub, *[(X, {1, 2}, k) for k in (1, 3, 2)], calls=1)
reg.case(_iand, *[(X, {1, 2}, k) for k in (1, 3, 2)], calls=1)
reg.case(_ixor, *[(X, {1, 2}, k) for k in (1, 3, 2)], calls=1)
reg.case(_update_made_set, *[(X, {1}, k) for k in (1, 2, 0)], calls=1)
reg.case(_update_str, (X, {"a"}), (X, set()), calls=1)
reg.case(_add_returns, *[(X, {1}, k) for k in (1, 2)], calls=1)
reg.case(_len_as_shape, *[(X, set(range(n)), k) for n, k in ((1, 0), (1, 5), (2, 9), (0, 0))],
         calls=1)
reg.case(_len_in_range, *[(X, set(range(n)), 1) for n in (3, 1, 4, 0)], calls=1)
reg.case(_key_one, *[(X, s) for s in ({1}, {1.0}, {True}, {2}, set())], calls=1)
reg.case(_add_one_float, *[(X, s) for s in ({1}, {True}, set(), {1.0})], calls=1)
reg.case(_add_true, *[(X, s) for s in ({1}, {1.0, 2}, set())], calls=1)
reg.case(_add_npint, *[(X, s) for s in ({1}, set(), {1.0})], calls=1)
reg.case(_add_negzero, *[(X, s) for s in ({0.0}, {0}, set(), {False})], calls=1)
reg.case(_nan_in, (X, {NAN}, NAN), (X, {NAN}, float("nan")), (X, set(), NAN),
         (X, {float("nan")}, NAN), calls=1)
reg.case(_nan_add, (X, {NAN}, NAN), (X, {NAN}, float("nan")), (X, set(), NAN), calls=1)
reg.case(_complex_key, *[(X, s) for s in ({1}, set(), {1j})], calls=1)
reg.case(_big_keys, *[(X, s, k) for s, k in (({2**64}, 0), (set(), 0), ({2**64}, 1))],
         calls=1)
reg.case(_neg_one_two, *[(X, {-1}, k) for k in (-2, -1, -2, 0)], calls=1)
reg.case(_tuple_keys, *[(X, {(1, "a")}, k) for k in (1, 2, 1.0, True)], calls=1)
reg.case(_none_and_str, *[(X, {"1"}, k) for k in (1, 2)], calls=1)
reg.case(_two_changing, *[(X, {1, 2, 3}, i, j) for i, j in ((1, 2), (4, 4), (2, 1),
                                                             (5, 6), (3, 3))], calls=1)
reg.case(_counting_key, *[(X, {CountingKey(1)}, k) for k in (1, 2)], calls=1)
reg.case(_mutating_key, *[(X, {1}, k) for k in (1, 2)], calls=1)
reg.case(_unhashable, (X, {1}), (X, set()), calls=1)
reg.case(_array_key, (X, {1}), calls=2)
reg.case(_subclass_add, *[(X, LogSet({1}), k) for k in (1, 2, 3)], calls=1,
         setup=LOG.clear)
reg.case(_frozen_in, *[(X, s, k) for s, k in ((frozenset({1}), 1), (frozenset({1}), 2),
                                              ({1, 2}, 1), (frozenset(), 1))], calls=1)
reg.case(_frozen_or_add, *[(X, s, k) for s, k in ((frozenset({1}), 1), ({1}, 2),
                                                  (frozenset({1}), 2), ({1}, 1))], calls=1)
reg.case(_break_between, *[(X, {1}, k) for k in (1, 2)], calls=1)
reg.case(_break_id, *[(X, {1, 2}, k) for k in (1, 3, 2)], calls=1)
reg.case(_iterate_after_add, *[(X, {5, 1}, k) for k in (1, 2)], calls=1)
reg.case(_copy_after_add, *[(X, {1}, k) for k in (1, 2, 0)], calls=1)
reg.case(_raise_after_add, *[(X, {1}, k, []) for k in (1, 3, 2, 5)], calls=1)
reg.case(_array_after_add, (X, {1}, 2), (X * 0.0, {1}, 3), (X, {3}, 3), calls=1)
reg.case(_loop_adds, (X, {7}, 12), (X, set(), 0), (X, {0, 1}, 13), calls=1)
reg.case(_set_in_dict, *[(X, {"s": {1}}, k) for k in (1, 2)], calls=1)


def _two(make):
    def spec():
        s = make()
        return (X, s, s)
    return spec


reg.case(_two_args, _two(lambda: {1, 5}), _two(lambda: {1}), _two(set), calls=1,
         name="two_args_one_set")
reg.case(_two_args, (X, {1}, {1, 5}), (X, {5}, {1}), calls=1, name="two_args_two_sets")


def _reset_g():
    G_SET.clear()
    G_SET.update({1, 2})


reg.case(_global_and_arg, lambda: (X, G_SET), lambda: (X, {1}), lambda: (X, G_SET),
         calls=1, setup=_reset_g, watch=lambda: sorted(G_SET))
reg.case(_callee, *[(X, {1, 2}, k) for k in (2, 3, 5)], calls=1)


@reg.scenario
def s_attr_set_kept(r):
    """One holder over calls: its set grows; a key comes back; other code discards."""
    h = Holder({0})
    f = r.compile(_attr_set)
    for k in (1, 2, 1, 3):
        r.call(f, X, h, k)
    h.seen.discard(1)
    r.call(f, X, h, 1)
    h.seen = {1, 2, 3, 4}
    r.call(f, X, h, 4)
    r.call(f, X, h, 5)
    r.see("holder", (sorted(h.seen), h.n))


@reg.scenario
def s_attr_two_holders_share(r):
    """Two holders share one set on some calls."""
    f = r.compile(_attr_two)
    a, b = Holder({1}), Holder({2})
    r.call(f, X, a, b, 3)
    r.call(f, X, a, b, 4)
    b.seen = a.seen
    r.call(f, X, a, b, 5)
    r.call(f, X, a, b, 5)
    b.seen = {9}
    r.call(f, X, a, b, 6)


@reg.scenario
def s_closure_set(r):
    """A set in a closure cell, changed between calls through the cell."""
    visit = _closure_set()
    f = r.compile(visit)
    for k in (1, 1, 2, 0, 3):
        r.call(f, X, k)
    visit.__closure__[0].cell_contents.discard(1)
    r.call(f, X, 1)
    visit.__closure__[0].cell_contents.clear()
    r.call(f, X, 0)


@reg.scenario
def s_mutated_between(r):
    """A set kept by the caller, changed between calls by other code: grown, shrunk,
    replaced by a frozenset, by a subclass."""
    f = r.compile(_in_then_add)
    s = {1, 2}
    r.call(f, X, s, 3)
    s.add(4)
    r.call(f, X, s, 4)
    s.discard(3)
    r.call(f, X, s, 3)
    r.call(f, X, frozenset(s), 5)
    r.call(f, X, LogSet(s), 6)
    r.call(f, X, s, 6)
    r.see("s", s)


@reg.scenario
def s_len_after_maybe_discard(r):
    """``len(s)`` after a discard of a key present on some calls only, the set kept."""
    f = r.compile(_discard_len)
    s = {1, 2, 3}
    for k in (1, 1, 2, 5, 3, 3):
        r.call(f, X, s, k)
    s.update({7, 8})
    r.call(f, X, s, 7)
    r.call(f, X, s, 1)
