"""Round 37, dicts read by key and never iterated (``dynamo/variables/unread_dicts.py``:
guarded only on the keys the trace touches): keys added and removed between calls,
keys that are equal but of other types (``1``, ``1.0``, ``True``, ``np.int64(1)``,
``-0.0``), NaN keys (found by identity), a changing int key meeting a constant one,
a dict mutated by a callee, a dict that is also a global or a closure cell, two names
for one dict, ``get`` with defaults, ``in``, ``setdefault``, ``pop``, ``len``, and
subclasses of dict with ``__getitem__`` or ``__missing__``.

    >>> def _scaled(x, d):
    ...     return x * d["a"]              # guards "a" in d, reads d["a"] alone
"""

import collections
import math

import numpy as np
from hostile_check import Programs

reg = Programs("round37_keyed")
X = np.arange(4.0) - 1.5
NAN_KEY = float("nan")
G = {"a": 2.0}
LOG = []


# ---------------------------------------------------------------- the traced functions
def _scaled(x, d):
    return x * d["a"]


def _get_default(x, d):
    return x * d.get("a", 10.0) + d.get("b", -1.0)


def _get_none(x, d):
    v = d.get("a")
    return x if v is None else x * v


def _contains(x, d):
    if "a" in d:
        return x + 1.0
    return x - 1.0


def _not_contains(x, d):
    return x * 2.0 if "b" not in d else x * d["b"]


def _setdefault(x, d):
    v = d.setdefault("a", 3.0)
    return x * v


def _setdefault_list(x, d):
    lst = d.setdefault("log", [])
    lst.append(float(x.sum()))
    return x * len(lst)


def _pop(x, d):
    v = d.pop("a", 5.0)
    return x * v, len(d)


def _pop_missing(x, d):
    return x * d.pop("zz")


def _write_then_read(x, d):
    d["a"] = x.sum()
    return x + d["a"], len(d)


def _delete(x, d):
    del d["a"]
    return x * ("a" in d), len(d)


def _int_key(x, d, k):             # k may be 1, 1.0, True, np.int64(1)
    return x * d[k]


def _int_key_in(x, d, k):
    return (x + 1.0) if k in d else x


def _int_key_write(x, d, k):       # d[1.0] = v on {1: ...}: the key stays 1
    d[k] = x.sum()
    return x * d[1], list(d.items())


def _two_keys(x, d, i, j):         # a changing int key and another: equal on some calls
    d[i] = x.sum()
    return x * d[j]


def _two_keys_get(x, d, i, j):
    d[i] = 1.5
    return x * d.get(j, 0.0), len(d)


def _step_log(x, d, step):
    d[step] = float(x[0])
    d[step + 1] = float(x[1])
    return x * len(d)


def _tuple_key(x, d, e):
    d[(e, "loss")] = float(x.sum())
    return x * d.get((e - 1, "loss"), 1.0)


def _memo(x, d, k):                # a stale memo value is eager's answer too
    if k not in d:
        d[k] = x * 2.0
    return d[k]


def _nan_key(x, d, k):             # nan keys match by identity only
    return x * (k in d), d.get(k, -1.0)


def _neg_zero_key(x, d, k):
    return x * d.get(k, 9.0)


def _helper_adds(d):
    d["b"] = 4.0


def _callee_mutates(x, d):
    _helper_adds(d)
    return x * d["b"], len(d)


def _helper_deletes(d):
    d.pop("a", None)


def _callee_deletes(x, d):
    _helper_deletes(d)
    return x * d.get("a", 0.5)


def _global_read(x):
    return x * G["a"] + G.get("b", 0.0)


def _global_and_arg(x, d):         # d is G on some calls
    d["a"] = 7.0
    return x * G["a"]


def _aliased(x, d, e):             # d is e on some calls
    d["k"] = 3.0
    return x * e.get("k", 2.0), len(e)


def _value_mutated(x, d):
    d["lst"].append(1)
    return x * len(d["lst"])


def _keyerror_caught(x, d):
    try:
        return x * d["missing"]
    except KeyError as e:
        return x, repr(e)


def _unhashable(x, d, k):
    try:
        return d.get(k, 0.0)
    except TypeError as e:
        return str(e)


def _counter(x, d, k):             # a defaultdict(int)
    d[k] += 1
    return x * d[k]


def _len_truth(x, d):
    if d:
        return x * len(d)
    return -x


def _incr(x, d):
    d["n"] = d.get("n", 0) + 1
    return x + d["n"]


def _bool_key(x, d):               # True and 1 are one key
    d[True] = "t"
    return x * (1 in d), d[1]


def _float_key_read(x, d):         # 2.0 finds 2
    return x * d[2.0]


def _big_key(x, d, k):             # -1 and -2 hash alike
    return x * d.get(k, 0.0)


class Missing(dict):
    def __missing__(self, key):
        return len(key) * 1.0


class Getter(dict):
    def __getitem__(self, key):
        return dict.get(self, key, 0.0) + 100.0


class Counting(dict):
    hits = 0

    def __contains__(self, key):
        Counting.hits += 1
        return dict.__contains__(self, key)


def _subclass_read(x, d):
    return x * d["abc"] + d.get("abc", -1.0)


def _subclass_in(x, d):
    return x * ("a" in d), Counting.hits


def _ordered_move(x, d):
    d["a"] = 1.0
    d.move_to_end("a")
    return x * len(d), list(d)


# ---------------------------------------------------------------- the inputs
def _d(**kw):
    return dict(kw)


BASIC = [(X, _d(a=2.0)), (X, _d(a=2.0, b=3.0)), (X, _d(b=3.0)), (X, _d()),
         (X, _d(a=-0.0))]
for _fn in (_scaled, _get_default, _get_none, _contains, _not_contains, _setdefault,
            _pop, _write_then_read, _delete, _len_truth, _incr):
    reg.case(_fn, *BASIC, calls=1)

reg.case(_get_none, (X, {"a": None}), (X, {"a": 0.0}), (X, {}), calls=1, name="get_none_values")
reg.case(_setdefault_list, (X, {}), (X, {"log": [1.0]}), (X, {"log": []}), calls=1)
reg.case(_pop_missing, (X, {"zz": 2.0}), (X, {}), (X, {"zz": 1}), calls=1)
reg.case(_value_mutated, (X, {"lst": []}), (X, {"lst": [1, 2]}), calls=1)
reg.case(_keyerror_caught, (X, {}), (X, {"missing": 3.0}), calls=1)

KEYS = (1, 1.0, True, np.int64(1), 2, 1 + 0j)
reg.case(_int_key, *[(X, {1: 5.0, 2: 7.0}, k) for k in KEYS], calls=1)
reg.case(_int_key, *[(X, {1.0: 5.0, 2: 7.0}, k) for k in KEYS], calls=1, name="float_stored_key")
reg.case(_int_key, *[(X, {True: 5.0, 2: 7.0}, k) for k in KEYS], calls=1, name="bool_stored_key")
reg.case(_int_key_in, *[(X, {1: 5.0}, k) for k in KEYS + (0, False, -1)], calls=1)
reg.case(_int_key_write, *[(X, {1: 5.0}, k) for k in KEYS[:4]], calls=1)
reg.case(_two_keys, *[(X, {1: 1.0, 2: 2.0, 3: 3.0}, i, j)
                      for i, j in ((1, 2), (2, 2), (3, 1), (1, 1), (2, 3))], calls=1)
reg.case(_two_keys_get, *[(X, {}, i, j) for i, j in ((1, 2), (2, 2), (3, 1), (4, 4))],
         calls=1)
reg.case(_step_log, *[(X, {}, s) for s in (0, 1, 2, 5)], (X, {3: 1.0}, 2), calls=1)
reg.case(_tuple_key, *[(X, {(0, "loss"): 2.0}, e) for e in (1, 2, 1, 0)], calls=1)
reg.case(_memo, *[(X * k, {}, k) for k in (1, 2)], (X, {1: X}, 1), calls=2)
reg.case(_nan_key, (X, {NAN_KEY: 3.0}, NAN_KEY), (X, {NAN_KEY: 3.0}, float("nan")),
         (X, {math.nan: 4.0}, math.nan), calls=1)
reg.case(_neg_zero_key, (X, {0.0: 2.0}, -0.0), (X, {-0.0: 3.0}, 0.0), (X, {0: 4.0}, -0.0),
         (X, {}, 0.0), calls=1)
reg.case(_callee_mutates, (X, {"a": 1.0}), (X, {"b": 2.0}), (X, {}), calls=1)
reg.case(_callee_deletes, (X, {"a": 1.0}), (X, {"b": 2.0}), calls=1)
reg.case(_counter, *[(X, collections.defaultdict(int), k) for k in (1, 2)],
         (X, collections.defaultdict(int, {1: 5}), 1), calls=2)
reg.case(_bool_key, (X, {1: "one"}), (X, {}), (X, {1.0: "f"}), calls=1)
reg.case(_float_key_read, (X, {2: 1.5}), (X, {2.0: 2.5}), (X, {True + True: 3.5}), calls=1)
reg.case(_big_key, *[(X, {-1: 1.0, 2**64: 2.0}, k) for k in (-1, -2, 2**64, 2**64 + 1, -1)],
         calls=1)
reg.case(_unhashable, (X, {}, "a"), (X, {}, [1]), (X, {"a": 1}, "a"), calls=1)
reg.case(_subclass_read, (X, Missing(abc=2.0)), (X, Missing()), (X, Getter(abc=1.0)),
         (X, Getter()), (X, {"abc": 3.0}), calls=1)
reg.case(_subclass_in, (X, Counting(a=1)), (X, Counting()), calls=1,
         setup=lambda: setattr(Counting, "hits", 0))
reg.case(_ordered_move, (X, collections.OrderedDict(b=1, a=2)),
         (X, collections.OrderedDict()), calls=1)
reg.case(_scaled, (X, collections.OrderedDict(a=2.0)), (X, Missing(a=3.0)),
         (X, collections.defaultdict(float, a=4.0)), (X, collections.defaultdict(float)),
         calls=1, name="scaled_subclasses")


# ---------------------------------------------------------------- scenarios
def _s_keys_change_between_calls(r):
    """One dict: a key added, changed, removed, re-added between calls."""
    d = {"a": 1.0}
    f = r.compile(_get_default)
    for change in ("", "b", "a-", "a", "b-", "a2"):
        if change == "b":
            d["b"] = 5.0
        elif change == "a-":
            del d["a"]
        elif change == "a":
            d["a"] = 3.0
        elif change == "b-":
            d.pop("b")
        elif change == "a2":
            d["a"] = -0.0
        r.call(f, X, d)
    r.see("d", d)


def _s_key_type_changes(r):
    """One dict, the stored key replaced by an equal key of another type between calls."""
    d = {1: 2.0}
    f = r.compile(_int_key_write)
    r.call(f, X, d, 1)
    d.clear()
    d[True] = 3.0
    r.call(f, X, d, 1.0)
    d.clear()
    d[1.0] = 4.0
    r.call(f, X, d, np.int64(1))
    r.call(f, X, d, True)
    r.see("d", d)


def _s_global_changes(r):
    """G read by key; between calls a key is added, the value replaced, G rebound."""
    global G
    saved = G
    G = {"a": 2.0}
    try:
        f = r.compile(_global_read)
        r.call(f, X)
        G["b"] = 1.0
        r.call(f, X)
        G["a"] = -3.0
        r.call(f, X)
        G = {"a": 0.5}
        r.call(f, X)
        del G["a"]
        r.call(f, X)
    finally:
        G = saved


def _s_global_is_arg(r):
    """The argument is the global dict itself on some calls."""
    global G
    saved = G
    G = {"a": 2.0}
    try:
        f = r.compile(_global_and_arg)
        r.call(f, X, {"a": 1.0})
        r.call(f, X, G)
        G["a"] = 1.0
        r.call(f, X, {})
        r.call(f, X, G)
        r.see("G", G)
    finally:
        G = saved


def _s_aliased_args(r):
    """Two names for one dict: d is e on the second and fourth calls."""
    f = r.compile(_aliased)
    a = {}
    r.call(f, X, {}, {})
    r.call(f, X, a, a)
    r.call(f, X, {"k": 1.0}, {})
    b = {"k": 5.0}
    r.call(f, X, b, b)
    r.see("a, b", (a, b))


def _s_closure_dict(r):
    """A dict in a closure cell, changed between calls and rebound."""
    cfg = {"scale": 2.0}

    def f(x):
        return x * cfg["scale"] + cfg.get("shift", 0.0)
    g = r.compile(f)
    r.call(g, X)
    cfg["shift"] = 1.0
    r.call(g, X)
    cfg["scale"] = 3.0
    del cfg["shift"]
    r.call(g, X)
    cfg = {"scale": -1.0}   # rebinds the cell f reads
    r.call(g, X)


def _s_closure_written(r):
    """The compiled function writes the dict of its closure; the caller reads it."""
    state = {}

    def f(x):
        state["n"] = state.get("n", 0) + 1
        state["last"] = float(x.sum())
        return x * state["n"]
    g = r.compile(f)
    for k in range(3):
        r.call(g, X + k)
        r.see("state", dict(state))
    state.clear()
    r.call(g, X)


def _s_dict_and_method(r):
    """An object's dict attribute read by key; the key set changes between calls."""
    class Box:
        def __init__(self):
            self.cache = {}
            self.step = 0

        def run(self, x):
            self.step += 1
            if self.step - 1 in self.cache:
                return x + self.cache[self.step - 1]
            self.cache[self.step] = float(x.sum())
            return x
    b = Box()
    g = r.compile(b.run)
    for k in range(4):
        r.call(g, X * k)
    b.cache[b.step] = 9.0
    r.call(g, X)
    b.cache.clear()
    r.call(g, X)
    r.see("cache", b.cache)


def _s_mutated_by_callee_between(r):
    """A callback the compiled code calls writes the dict (one call adds, one removes)."""
    d = {"a": 1.0}
    mode = ["add"]

    def cb(dd):
        if mode[0] == "add":
            dd["a"] = dd.get("a", 0.0) + 1.0
        else:
            dd.pop("a", None)

    def f(x, dd):
        cb(dd)
        return x * dd.get("a", -1.0), "a" in dd
    g = r.compile(f)
    r.call(g, X, d)
    mode[0] = "del"
    r.call(g, X, d)
    mode[0] = "add"
    r.call(g, X, d)
    r.see("d", d)


for _s in (_s_keys_change_between_calls, _s_key_type_changes, _s_global_changes,
           _s_global_is_arg, _s_aliased_args, _s_closure_dict, _s_closure_written,
           _s_dict_and_method, _s_mutated_by_callee_between):
    reg._add(_s.__name__[3:], _s, (_s.__doc__ or "").strip())
