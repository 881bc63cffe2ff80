"""Round 37, dicts read by key continued (split from ``prog_round37_keyed.py``, the same
category): writes the trace does not see as key writes (``operator.setitem``,
``update``, ``|=``, ``clear``), a value or a dict reached two ways, ``d[len(d)] = v``,
defaultdicts with a counting factory, absent keys incremented and deleted, a mutable
default, ``**kwargs``, a class attribute's dict, loops of 10 trips over a dict, and the
module's own namespace as the dict.

    >>> def _namespace_write(x, d):       # d may be globals()
    ...     d["SCALE"] = 3.0
    ...     return x * SCALE
"""

import collections
import operator

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round37_keyed")   # the category of prog_round37_keyed.py
X = np.arange(4.0) - 1.5


# ---------------------------------------------------------------- more: writes the
# trace does not see as key writes, values reached two ways, lengths as keys


def _opaque_writes(x, d):
    v = d["a"]
    operator.setitem(d, "a", v + 1.0)
    dict.__setitem__(d, "b", 2.0)
    return x * d["a"] + d.get("b", 0.0), len(d)


def _update_then_get(x, d):
    v = d.get("a", 0.0)
    d.update(a=v + 1.0, c=3.0)
    return x * d["a"], "c" in d


def _ior_then_get(x, d):
    d["a"] = 1.0
    d |= {"a": 4.0}
    return x * d["a"]


def _clear_then_get(x, d):
    v = d["a"]
    d.clear()
    return x * v, d.get("a", -1.0), len(d)


def _value_aliased(x, d, lst):     # d["lst"] may be lst itself
    lst.append(1)
    return x * len(d["lst"])


class Holder:
    def __init__(self, d):
        self.d = d


def _dict_two_ways(x, d, o):       # o.d may be d itself
    d["a"] = 3.0
    return x * o.d.get("a", 1.0)


def _length_key(x, d):             # d[len(d)] = v: a key the length names
    d[len(d)] = float(x.sum())
    return x * len(d), d.get(0, -1.0)


def _factory_counted(x, d, k):     # a defaultdict whose factory has an effect
    d[k].append(float(x[0]))
    return x * len(d[k]), FACTORY_CALLS[0]


FACTORY_CALLS = [0]


def _factory():
    FACTORY_CALLS[0] += 1
    return []


def _missing_incr(x, d, k):        # d[k] += 1 of an absent key: KeyError caught
    try:
        d[k] += 1
    except KeyError as e:
        return x, repr(e)
    return x * d[k], ""


def _del_absent(x, d, k):
    try:
        del d[k]
    except KeyError:
        return x, len(d)
    return -x, len(d)


reg.case(_opaque_writes, (X, {"a": 1.0}), (X, {"a": 2.0, "b": 0.5}), calls=1)
reg.case(_update_then_get, (X, {"a": 1.0}), (X, {}), (X, {"c": 0.0}), calls=1)
reg.case(_ior_then_get, (X, {}), (X, {"a": 2.0}), calls=1)
reg.case(_clear_then_get, (X, {"a": 1.0}), (X, {"a": 2.0, "b": 1}), calls=1)


def _shared_value():
    lst = [0]
    return (X, {"lst": lst}, lst)


reg.case(_value_aliased, (X, {"lst": [0]}, [0]), _shared_value, (X, {"lst": [0, 1]}, []),
         calls=1)


def _shared_holder():
    d = {"a": 0.5}
    return (X, d, Holder(d))


reg.case(_dict_two_ways, lambda: (X, {}, Holder({})), _shared_holder,
         lambda: (X, {"a": 2.0}, Holder({})), calls=1)


def _s_length_keys(r):
    """d[len(d)] = v on one dict over calls, a key deleted between calls (the length
    then names a key that is there)."""
    d = {}
    f = r.compile(_length_key)
    for k in range(3):
        r.call(f, X + k, d)
    del d[0]
    r.call(f, X, d)
    r.call(f, X, d)
    d.clear()
    r.call(f, X, d)
    r.see("d", d)


def _s_factory_counted(r):
    FACTORY_CALLS[0] = 0
    d = collections.defaultdict(_factory)
    f = r.compile(_factory_counted)
    for k in (1, 2, 1, 3):
        r.call(f, X, d, k)
    r.see("d", dict(d))


reg._add("length_keys", _s_length_keys, "")
reg._add("factory_counted", _s_factory_counted, "")
reg.case(_missing_incr, (X, {1: 1}, 1), (X, {1: 1}, 2), (X, {}, 1), (X, {2: 5}, 2), calls=1)
reg.case(_del_absent, (X, {1: 1}, 1), (X, {1: 1}, 2), (X, {2: 1, 3: 1}, 3), calls=1)


def _default_cache(x, k, cache={}):   # noqa: B006 (a mutable default on purpose)
    if k not in cache:
        cache[k] = float(x.sum())
    return x * cache[k], len(cache)


def _kwargs_get(x, **kw):
    return x * kw.get("scale", 1.0) + kw.get("shift", 0.0), len(kw)


class Registry:
    table = {}


def _class_table(x, k):
    Registry.table[k] = Registry.table.get(k, 0) + 1
    return x * Registry.table[k]


def _s_default_cache(r):
    _default_cache.__defaults__[0].clear()
    f = r.compile(_default_cache)
    for k in (1, 2, 1, 3):
        r.call(f, X + k, k)
    r.see("cache", dict(_default_cache.__defaults__[0]))


def _s_class_table(r):
    Registry.table = {}
    f = r.compile(_class_table)
    for k in (1, 1, 2):
        r.call(f, X, k)
    Registry.table = {1: 10}
    r.call(f, X, 1)
    r.see("table", Registry.table)


reg._add("default_cache", _s_default_cache, "")
reg._add("class_table", _s_class_table, "")
reg.case(_kwargs_get, Args(X, scale=2.0), Args(X), Args(X, shift=1.0, scale=-1.0),
         Args(X, other=1), calls=1)


# ---------------------------------------------------------------- more: a dict read and
# written in a loop of 10 trips (a loop node: its keys are the trips' ints)
X12 = np.arange(12.0)


def _loop_write(x, d):
    for k in range(10):
        d[k] = x[k] * 2.0
    return len(d)


def _loop_read(x, d):
    out = np.zeros(10)
    for k in range(10):
        out[k] = x[k] * d.get(k % 3, 1.0)
    return out


def _loop_read_trip(x, d):
    out = np.zeros(10)
    for k in range(10):
        out[k] = x[k] * d.get(k, 1.0)
    return out


def _loop_in(x, d):
    out = np.zeros(10)
    for k in range(10):
        if k in d:
            out[k] = x[k]
    return out


def _loop_counter(x, d):
    for k in range(10):
        d["n"] = d.get("n", 0) + 1
        x[k] = x[k] + d["n"]
    return x


def _loop_offset_key(x, d, s):
    for k in range(10):
        d[s + k] = 1
    return len(d)


for _fn in (_loop_write, _loop_read, _loop_read_trip, _loop_in, _loop_counter):
    reg.case(_fn, (X12, {}), (X12, {1: 2.0, 3: 4.0}), (X12, {0: 1.0, 1: 5.0, 2: -1.0}),
             calls=1)
reg.case(_loop_offset_key, (X12, {}, 0), (X12, {5: 0}, 3), (X12, {}, 100), calls=1)


# ---------------------------------------------------------------- more: the module's
# own namespace as the dict (a write through it is a global the function reads)
SCALE = 1.0


def _namespace_write(x, d):
    d["SCALE"] = 3.0
    return x * SCALE


def _global_write_dict_read(x, d):
    global SCALE
    SCALE = 4.0
    return x * d.get("SCALE", 0.0)


def _reset_scale():
    global SCALE
    SCALE = 1.0


for _fn in (_namespace_write, _global_write_dict_read):
    reg.case(_fn, (X, {}), lambda: (X, globals()), (X, {"SCALE": 2.0}), calls=1,
             setup=_reset_scale, watch=lambda: SCALE)
    reg.case(_fn, lambda: (X, globals()), (X, {}), calls=1, setup=_reset_scale,
             watch=lambda: SCALE, name=f"{_fn.__name__[1:]}_first")
