"""Round 40, state: the disk cache and the orders of sets and dicts that follow the
string hash secret (``dynamo/hash_order.py``, ``dynamo/disk_cache``) (issue #17).

In one process (the cache on, every program compiled, run, then ``dynamo.reset()`` and
compiled again: the entries come back from disk): sets of str, bytes and tuples of str,
frozensets, set operators, ``sorted`` against ``list`` of a set, a set as ``str``/
``repr``, ``set.pop``, comprehensions over a set, a dict built from a set, ``",".join``,
``hash("a")`` as an index, ``next(iter(s))``, ``enumerate``/``zip`` over a set, a set
holding ``None`` (its hash is an address before 3.12); between the two compiles a
global, a helper's code or an input's dtype changed. Across processes
(``prog_round40_state_procs.py``): the same entries read by a process with another
``PYTHONHASHSEED``.

    >>> def _listed(x):
    ...     s = {"alpha", "beta", "gamma", "delta"}
    ...     return x * 0 + len(s), list(s)     # the order is this process's
"""

import os
import tempfile

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round40_state")
WORDS = ("alpha", "beta", "gamma", "delta", "eps")
X = np.array([0.5, -1.0, 2.0, 3.5, 4.0, -2.5])


def _disk_twice(fn, inputs, between=None, name=None):
    """``fn`` compiled and called on each input; the in-memory caches dropped (the
    next compile loads from disk); ``between()`` changes something; called again."""
    def s(r):
        with tempfile.TemporaryDirectory(prefix="dynamo-r40-") as d:
            os.chmod(d, 0o700)
            r.patch(dynamo.config, "disk_cache_dir", d)
            f = r.compile(fn)
            for make in inputs:
                r.call(f, *make())
            if r.compiled:
                dynamo.reset()
            if between is not None:
                between(r)
            g = r.compile(fn)
            for make in inputs:
                r.call(g, *make())
    reg._add(name or "disk_" + fn.__name__.removeprefix("_"), s, (fn.__doc__ or "").strip())


_TWO = ((lambda: (X.copy(),)), (lambda: (X[:4].copy(),)))


# ------------------------------------------------------------- orders of str sets
def _listed(x):
    s = {"alpha", "beta", "gamma", "delta"}
    return x * 0 + len(s), list(s)


def _sorted_vs_listed(x):
    s = set(WORDS)
    return x + 1.0, sorted(s), list(s) == sorted(s)


def _comprehension(x):
    s = {"alpha", "beta", "gamma"}
    return [x * len(k) for k in s]


def _as_text(x):
    s = frozenset(WORDS)
    return x * 2.0, str(s), repr(set(WORDS))


def _popped(x):
    s = set(WORDS)
    first = s.pop()
    return x * len(first), first, len(s)


def _dict_from_set(x):
    s = {"u", "v", "w", "z"}
    d = {k: i for i, k in enumerate(s)}
    return x + d["w"], list(d)


def _fromkeys(x):
    d = dict.fromkeys({"p", "q", "r"}, 0)
    d["q"] += 1
    return x * len(d), list(d.items())


def _joined(x):
    fs = frozenset(("a1", "b2", "c3", "d4"))
    return x - 1.0, ",".join(fs)


def _union_listed(x):
    s = {"a", "b"} | {"c", "d"}
    t = s - {"b"}
    return x * len(t), list(t), sorted(s ^ {"a", "z"})


def _bytes_set(x):
    s = {b"ab", b"cd", b"ef"}
    return x + 0.5, list(s), [len(b) for b in s]


def _tuples_of_str(x):
    s = {("a", 1), ("b", 2), ("c", 3)}
    return [x * n for _, n in s], [k for k, _ in s]


def _frozen_tuples(x):
    fs = frozenset({("x", "y"), ("y", "z"), ("z", "x")})
    return x * 3.0, list(fs)


def _hash_index(x):
    return x[hash("alpha") % len(x)], hash("beta") % 7


def _first_of_set(x):
    s = {"k1", "k2", "k3", "k4"}
    return x * 0 + ord(next(iter(s))[1])


def _enumerated(x):
    s = {"aa", "bbb", "c", "dddd"}
    out = x.copy()
    for i, k in enumerate(s):
        out[i] = out[i] * len(k)
    return out


def _zipped(x):
    s = {"m", "n", "o"}
    return {k: float(v) for k, v in zip(s, x)}


def _mixed_set(x):
    s = {1, "one", 2.5, "two", (3, "three")}
    return x * len(s), [type(e).__name__ for e in s]


def _none_in_set(x):
    s = {None, 1, 2, 3}
    return x + 1.0, list(s)


def _int_set(x):                           # the same order in every process
    s = {40, 3, 17, 1, 9}
    return x * 2.0, list(s), [x[i % len(x)] for i in s]


def _set_arg(x, words):
    s = set(words)
    return x * len(s), list(s)


def _min_max(x):
    s = set(WORDS)
    return x * len(min(s)), max(s), len(s)


def _keys_of_dict(x):                      # a dict keeps its insertion order
    d = {"zeta": 1, "alpha": 2, "mid": 3}
    return [x * v for v in d.values()], list(d)


for _fn in (_listed, _sorted_vs_listed, _comprehension, _as_text, _popped, _dict_from_set,
            _fromkeys, _joined, _union_listed, _bytes_set, _tuples_of_str, _frozen_tuples,
            _hash_index, _first_of_set, _enumerated, _zipped, _mixed_set, _none_in_set,
            _int_set, _min_max, _keys_of_dict):
    _disk_twice(_fn, _TWO)
_disk_twice(_set_arg, ((lambda: (X.copy(), ["b", "a", "c", "a"])),
                       (lambda: (X.copy(), ("q", "r"))), (lambda: (X.copy(), ["b", "a"]))))


# ------------------------------------------------------------- changed between compiles
SCALE = [2.0]
LABELS = {"a", "b", "c"}


def _scaled(x):
    return x * SCALE[0] + len(LABELS), sorted(LABELS)


def _rescale(r):
    SCALE[0] = 5.0
    LABELS.add("d")


def _reset_globals():
    SCALE[0] = 2.0
    LABELS.clear()
    LABELS.update({"a", "b", "c"})


def _helper(v):
    return v * 3.0


def _uses_helper(x):
    return _helper(x) + 1.0


def _swap_helper_code(r):
    def other(v):
        return v - 100.0
    r.patch(_helper, "__code__", other.__code__)


def _rebind_helper(r):
    r.patch(globals(), "_helper", lambda v: v * -1.0)


def _f32(x):
    return x * 0.1 + x.sum()


def _disk_globals(r):
    _reset_globals()
    with tempfile.TemporaryDirectory(prefix="dynamo-r40-") as d:
        os.chmod(d, 0o700)
        r.patch(dynamo.config, "disk_cache_dir", d)
        f = r.compile(_scaled)
        r.call(f, X.copy())
        if r.compiled:
            dynamo.reset()
        _rescale(r)
        g = r.compile(_scaled)
        r.call(g, X.copy())
        r.call(g, X[:3].copy())
    _reset_globals()


reg._add("disk_globals_changed", _disk_globals, "")
_disk_twice(_uses_helper, _TWO, _swap_helper_code, name="disk_helper_code_swapped")
_disk_twice(_uses_helper, _TWO, _rebind_helper, name="disk_helper_rebound")
_disk_twice(_f32, ((lambda: (X.copy(),)), (lambda: (X.astype(np.float32),)),
                   (lambda: (X.astype(np.int8),)), (lambda: (X.astype(np.float16),))),
            name="disk_dtypes_changed")


def _dtype_then(x):
    return (x * 2).dtype.name, x.astype(np.float32) + 1


_disk_twice(_dtype_then, ((lambda: (np.arange(4, dtype=np.int8) * 40,)),
                          (lambda: (np.arange(4, dtype=np.uint8),)),
                          (lambda: (np.arange(4.0),))), name="disk_int8_wraps")
