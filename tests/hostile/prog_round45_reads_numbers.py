"""Round 45, reads that run the program's code (2 of 4): items and numbers. Dict
subclasses whose ``__getitem__``/``__contains__`` count or drift, keys whose
``__eq__``/``__hash__`` count or change, ``__len__``/``__index__``/``__float__``/
``__bool__`` that count or drift between calls, an int subclass whose ``__index__``
lies. Each is run as often compiled as plainly.

    >>> class Idx:
    ...     def __index__(self):
    ...         SEEN.append("index")            # x[i] + x[i]: two a call
    ...         return 2
"""

import numpy as np
from hostile_check import Programs
from round45_support import SEEN, _run, _x

reg = Programs("round45_reads")


# ----------------------------------------------------------------------------- items

class _CountingDict(dict):
    def __getitem__(self, key):
        SEEN.append(("get", key))
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        SEEN.append(("in", key))
        return dict.__contains__(self, key)


def _dict_reads(d, x):
    if 5 in d:
        return x * d[5] + d[5], d["w"].shape
    return x, None


@reg.scenario
def s_dict_subclass_getitem_counts(r):
    d = _CountingDict({5: np.arange(4.0), "w": np.ones(2)})
    _run(r, _dict_reads, (d, _x()))
    del d[5]
    _run(r, _dict_reads, (d, _x()), times=2)


class _DriftDict(dict):
    """Each read of a key answers one more than the last."""

    def __getitem__(self, key):
        v = dict.__getitem__(self, key) + 1
        dict.__setitem__(self, key, v)
        return v


def _drift_dict_reads(d, x):
    return x * d["k"] + d["k"], d["k"]


@reg.scenario
def s_dict_subclass_drifts(r):
    d = _DriftDict(k=1.0)
    _run(r, _drift_dict_reads, (d, _x()), watch=lambda: dict(d))


class _Key:
    """Equal to every _Key with the same name; counts ``__eq__`` and ``__hash__``."""

    def __init__(self, name):
        self.name = name

    def __hash__(self):
        SEEN.append("hash")
        return hash(self.name)

    def __eq__(self, other):
        SEEN.append("eq")
        return isinstance(other, _Key) and other.name == self.name


def _keyed(d, k, x):
    return x * d[k] + d[k]


@reg.scenario
def s_key_eq_hash_counted(r):
    d = {_Key("a"): 2.0, _Key("b"): 3.0}
    _run(r, _keyed, (d, _Key("a"), _x()), (d, _Key("b"), _x()))


class _Moody:
    """Its hash changes after three hashes: the dict no longer finds it."""

    def __init__(self):
        self.hashes = 0

    def __hash__(self):
        self.hashes += 1
        return 1 if self.hashes <= 3 else 2

    def __eq__(self, other):
        return self is other


def _moody_lookup(d, k, x):
    try:
        return x * d[k]
    except KeyError:
        return None


@reg.scenario
def s_key_hash_changes_between_calls(r):
    k = _Moody()
    d = {k: 2.0}
    _run(r, _moody_lookup, (d, k, _x()), times=5, watch=lambda: k.hashes)


class _Nan:
    """Never equal to itself (like NaN), hashing alike."""

    def __hash__(self):
        return 7

    def __eq__(self, other):
        SEEN.append("eq")
        return False


def _nan_key(d, k, x):
    return (k in d), x * len(d)


@reg.scenario
def s_key_never_equal_to_itself(r):
    k = _Nan()
    d = {k: 1.0}
    _run(r, _nan_key, (d, k, _x()), (d, _Nan(), _x()))


# ----------------------------------------------------------------------------- numbers

class _Len:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        SEEN.append("len")
        return self.n


def _len_twice(o, x):
    return x[:len(o)] * len(o)


@reg.scenario
def s_len_counted(r):
    o = _Len(3)
    _run(r, _len_twice, (o, _x(6)))
    o.n = 5
    _run(r, _len_twice, (o, _x(6)), times=2)


class _GrowingLen:
    def __init__(self):
        self.n = 0

    def __len__(self):
        self.n += 1
        return self.n


def _growing_len(o, x):
    a = len(o)
    return x[:a], len(o)


@reg.scenario
def s_len_drifts_each_call(r):
    o = _GrowingLen()
    _run(r, _growing_len, (o, _x(12)), times=5)


class _Idx:
    def __init__(self, k):
        self.k = k

    def __index__(self):
        SEEN.append("index")
        return self.k


def _index_twice(x, i):
    return x[i] + x[i] * 2, np.zeros(i)


@reg.scenario
def s_index_counted(r):
    i = _Idx(2)
    _run(r, _index_twice, (_x(), i))
    i.k = 3
    _run(r, _index_twice, (_x(), i), times=2)
    i.k = -1
    _run(r, _index_twice, (_x(), i), times=1)


class _DriftIdx:
    def __init__(self):
        self.k = 0

    def __index__(self):
        self.k += 1
        return self.k % 4


def _drift_index(x, i):
    return x[i], x[i], range(i)


@reg.scenario
def s_index_drifts(r):
    _run(r, _drift_index, (_x(), _DriftIdx()), times=5)


class _Flt:
    def __init__(self, v):
        self.v = v

    def __float__(self):
        SEEN.append("float")
        return self.v


def _float_twice(x, o):
    return x * float(o) + float(o)


@reg.scenario
def s_float_counted_nan_negzero(r):
    o = _Flt(2.0)
    _run(r, _float_twice, (_x(), o))
    for v in (float("nan"), -0.0, 1e308, 0.0):
        o.v = v
        _run(r, _float_twice, (_x(), o), times=2)


class _DriftFloat:
    def __init__(self):
        self.n = 0

    def __float__(self):
        self.n += 1
        return self.n * 1.5


def _drift_float(x, o):
    a = float(o)
    return x * a, float(o)


@reg.scenario
def s_float_drifts(r):
    _run(r, _drift_float, (_x(), _DriftFloat()), times=5)


class _Truthy:
    def __init__(self):
        self.n = 0

    def __bool__(self):
        self.n += 1
        SEEN.append("bool")
        return self.n % 2 == 1


def _truth_twice(x, o):
    y = x * 2 if o else x
    return y + 1 if o else y - 1


@reg.scenario
def s_bool_alternates(r):
    _run(r, _truth_twice, (_x(), _Truthy()), times=5)


class _IntSub(int):
    """An int whose ``__index__`` differs from its value."""

    def __index__(self):
        SEEN.append("index")
        return 1


def _int_sub_index(x, i):
    return x[i], x[:i], i + 1


@reg.scenario
def s_int_subclass_index_lies(r):
    _run(r, _int_sub_index, (_x(), _IntSub(3)), (_x(), _IntSub(0)))
