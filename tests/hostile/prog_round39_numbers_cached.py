"""Round 39, numbers continued (the category of ``prog_round39_numbers.py``):
``functools.lru_cache``/``functools.cache`` helpers whose results are changing numbers
of the resume function after the break at their call (``dynamo/cached_call_results.py``):
helpers returning floats, ints used as sizes, arrays the caller mutates (the cached
object itself), tuples, None, NumPy scalars, a type that changes with the argument;
``cache_info()`` read in the function, ``maxsize`` eviction with a print on a miss,
``typed=True`` (1, 1.0, True), a helper raising on a miss (caught and not), the cache
cleared between calls and inside the function, a global the helper reads changed
between calls (the hit returns the old value).

    >>> @functools.lru_cache(maxsize=2)
    ... def _decay(k):
    ...     return 0.9 ** k
    >>> def _decayed(x, k):
    ...     return x * _decay(k)      # a break; the result is a graph input
"""

import enum
import functools
import math

import numpy as np
from hostile_check import Programs

reg = Programs("round39_numbers")
X = np.array([0.5, -1.0, 2.0, 3.5])
SCALE = [2.0]


def _fresh_helpers():
    """New cached helpers for one run (a cache kept between the reference run and the
    compiled one would make their hits differ)."""
    @functools.lru_cache(maxsize=2)
    def decay(k):
        print("miss", k)
        return 0.9 ** k

    @functools.cache
    def size(k):
        return k * 2 + 1

    @functools.lru_cache(maxsize=4)
    def table(k):
        return np.arange(float(k + 1))

    @functools.lru_cache(maxsize=None, typed=True)
    def typed(k):
        return (type(k).__name__, k * 1.5)

    @functools.lru_cache(maxsize=8)
    def checked(k):
        if k < 0:
            raise ValueError(f"negative {k}")
        return k / 4

    @functools.lru_cache(maxsize=8)
    def scaled(k):
        return k * SCALE[0]

    @functools.lru_cache(maxsize=8)
    def kinds(k):
        if k == 0:
            return None
        if k == 1:
            return np.float32(k) / 3
        if k == 2:
            return 7
        return k / 3

    return dict(decay=decay, size=size, table=table, typed=typed, checked=checked,
                scaled=scaled, kinds=kinds)


def _decayed(x, k, h):
    return x * h["decay"](k)


def _decayed_info(x, k, h):
    v = h["decay"](k)
    info = h["decay"].cache_info()
    return x * v, info.hits, info.misses, info.currsize


def _sized(x, k, h):
    n = h["size"](k)
    return np.zeros(n) + x[0], n, x[:n]


def _table_mutated(x, k, h):
    t = h["table"](k)
    t += 1.0
    return t.sum() * x


def _typed_pair(x, k, h):
    name, v = h["typed"](k)
    return x * v, name


def _checked_caught(x, k, h, log):
    log.append("before")
    try:
        v = h["checked"](k)
    except ValueError as e:
        log.append(("caught", str(e)))
        return x - 1.0
    return x * v


def _checked_raw(x, k, h):
    return x + h["checked"](k)


def _scaled_global(x, k, h):
    return x * h["scaled"](k)


def _kinds(x, k, h):
    v = h["kinds"](k)
    if v is None:
        return x
    return x * v, type(v).__name__


def _clear_inside(x, k, h):
    a = h["decay"](k)
    h["decay"].cache_clear()
    b = h["decay"](k)
    return x * a + b, h["decay"].cache_info().misses


def _branch_on(x, k, h):
    v = h["decay"](k)
    if v > 0.5:
        return x * v
    return x - v


def _run(fn, keys, between=None, extra=()):
    def scenario(r):
        h = _fresh_helpers()
        SCALE[0] = 2.0
        f = r.compile(fn)
        held = [list(e) if isinstance(e, list) else e for e in extra]   # (fresh per run)
        for i, k in enumerate(keys):
            if between is not None:
                between(i, h)
            r.call(f, X, k, h, *held)
        r.see("infos", {n: tuple(w.cache_info()) for n, w in h.items()})
    return scenario


def _clear_at_3(i, h):
    if i == 3:
        h["decay"].cache_clear()


def _rescale_at_2(i, h):
    if i == 2:
        SCALE[0] = 5.0


_KEYS = (1, 2, 1, 3, 1, 2, 4, 2)
reg._add("cached_decayed", _run(_decayed, _KEYS), "")
reg._add("cached_info", _run(_decayed_info, _KEYS), "")
reg._add("cached_cleared_between", _run(_decayed_info, _KEYS, _clear_at_3), "")
reg._add("cached_sized", _run(_sized, (1, 0, 1, 2, 3, 0)), "")
reg._add("cached_table_mutated", _run(_table_mutated, (1, 2, 1, 1, 3)), "")
reg._add("cached_typed", _run(_typed_pair, (1, 1.0, True, 2, 1, 1.0, False, 0)), "")
reg._add("cached_checked_caught", _run(_checked_caught, (1, -1, 2, -1, 1), extra=([],)), "")
reg._add("cached_checked_raw", _run(_checked_raw, (1, 2, -2, 1)), "")
reg._add("cached_scaled_global", _run(_scaled_global, (1, 2, 1, 2, 3), _rescale_at_2), "")
reg._add("cached_kinds", _run(_kinds, (3, 4, 1, 2, 0, 3, 1)), "")
reg._add("cached_clear_inside", _run(_clear_inside, (1, 2, 1, 2)), "")
reg._add("cached_branch", _run(_branch_on, (1, 2, 9, 1, 20)), "")


@functools.lru_cache(maxsize=3)
def _g_decay(k):
    print("global miss", k)
    return 0.5 ** k


@functools.cache
def _g_rows(k):
    return np.ones((k, 2)) * k


def _global_decay(x, k):
    v = _g_decay(k)
    info = _g_decay.cache_info()
    return x * v + k, info.hits, info.currsize


def _global_rows(x, k):
    rows = _g_rows(k)
    rows[0, 0] += 1.0
    return rows.sum(axis=0) * x[:2], rows.shape


def _global_run(fn, keys):
    def scenario(r):
        _g_decay.cache_clear()
        _g_rows.cache_clear()
        f = r.compile(fn)
        for k in keys:
            r.call(f, X, k)
        r.see("infos", (tuple(_g_decay.cache_info()), tuple(_g_rows.cache_info())))
    return scenario


reg._add("cached_global_decay", _global_run(_global_decay, (1, 2, 3, 4, 1, 4, 2, 2, 0)), "")
reg._add("cached_global_rows", _global_run(_global_rows, (1, 2, 1, 3, 2, 1)), "")


# ---------------------------------------------------------------- results of other types
class Level(enum.IntEnum):
    A = 1
    B = 2


@functools.cache
def h_bool(k): return k > 2
@functools.cache
def h_big(k): return 2 ** (60 + k)
@functools.cache
def h_negz(k): return -0.0 if k % 2 else float("nan") if k == 4 else k * 0.5
@functools.cache
def h_enum(k): return Level.A if k % 2 else Level.B if k == 2 else k
@functools.cache
def h_np(k): return np.float32(k) / 3 if k % 2 else np.int8(k)
@functools.cache
def h_npbool(k): return np.bool_(k > 2)
@functools.lru_cache(maxsize=1)
def h_list(k): return [k, k + 1]


def _use_bool(x, k):
    v = h_bool(k)
    return v, type(v).__name__, x * v, v + v, -v, str(v)


def _use_big(x, k):
    v = h_big(k)
    return x * v, v + 1, v * 4, v // 3, v / 3, str(v), float(v) == v


def _use_negz(x, k):
    v = h_negz(k)
    return v, x * v, str(v), v == v, math.copysign(1.0, v), v + 0.0


def _use_enum(x, k):
    v = h_enum(k)
    return v, type(v).__name__, repr(v), x * v, v + 1


def _use_np(x, k):
    v = h_np(k)
    return v, x * v, type(v).__name__, v * 300


def _use_npbool(x, k):
    v = h_npbool(k)
    return v, x * v, type(v).__name__


def _use_list(x, k):
    v = h_list(k)
    v.append(0)
    return len(v), x * v[0]


def _use_twice(x, k):
    a = h_big(k)
    b = h_big(k)
    return a is b, x * (a - b)


def _typed_run(fn, keys):
    def s(r):
        for h in (h_bool, h_big, h_negz, h_enum, h_np, h_npbool, h_list):
            h.cache_clear()
        f = r.compile(fn)
        for k in keys:
            r.call(f, X, k)
    return s


for _fn in (_use_bool, _use_big, _use_negz, _use_enum, _use_np, _use_npbool, _use_list,
            _use_twice):
    reg._add("cached" + _fn.__name__, _typed_run(_fn, (1, 2, 3, 4, 5, 1, 2, 6, 3)), "")
