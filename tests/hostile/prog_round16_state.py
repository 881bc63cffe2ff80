"""Round 16, Python state a trace leaves behind: values dropped in plain Python's order
across graph breaks (``__del__``, weakref callbacks and ``finalize``, objects rebound,
deleted, held by lists, closures, attributes and generators; 3.14 clears a returning
frame's slots last to first), and numbers a trace writes back to attributes and
globals (``self.count += 1``, ``self.scale *= 2``) that then change every call: used in
array math, as sizes, indices, shifts and slice bounds, in f-strings, comparisons,
``range``, dict keys, turned into bools, growing past int64, becoming ``np.int64``,
``np.float32`` or ``inf``.

    >>> def _count_as_size(x, o):
    ...     o.count += 1
    ...     return np.zeros(o.count) + x.sum()     # a new size on every call
"""

import gc
import weakref

import numpy as np
from hostile_check import Programs
from prog_round14_flow import Noisy, Plain

reg = Programs("round16_state")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
G = np.arange(12.0).reshape(3, 4)


def _brk():
    print("break")


# ------------------------------------------------------------ drops across breaks

def _two_die_at_return(x, log):
    a = Noisy(log, "a")
    y = x + 1
    _brk()
    b = Noisy(log, "b")
    log.append(a.name + b.name)
    return y * 2


def _three_one_break_each(x, log):
    a = Noisy(log, "a")
    x = x + 1
    _brk()
    b = Noisy(log, "b")
    x = x * 2
    _brk()
    c = Noisy(log, "c")
    log.append(len(a.name + b.name + c.name))
    return x


def _del_mid_then_break(x, log):
    a = Noisy(log, "a")
    b = Noisy(log, "b")
    y = x.sum()
    del a
    log.append("deleted")
    _brk()
    log.append(b.name)
    return y


def _rebound_in_loop(x, log):
    n = None
    for i in range(3):
        n = Noisy(log, str(i))
        x = x + i
        if i == 1:
            _brk()
    log.append("loop done")
    del n
    return x


def _held_by_list_cleared(x, log):
    keep = [Noisy(log, "l0"), Noisy(log, "l1")]
    y = x * 3
    _brk()
    keep.clear()
    log.append("cleared")
    return y


def _weakref_and_del_mixed(x, log):
    p = Plain()
    r = weakref.ref(p, lambda ref: log.append("weak cb"))
    n = Noisy(log, "n")
    y = x - 1
    _brk()
    log.append((r() is p, n.name))
    return y


def _finalize_then_del(x, log):
    p = Plain()
    weakref.finalize(p, log.append, "fin")
    y = x.max()
    _brk()
    del p
    log.append("after del")
    return y


def _closure_keeps(x, log):
    n = Noisy(log, "closed")
    y = x + 2

    def use():
        return n.name
    _brk()
    log.append(use())
    return y


def _returned_closure(x, log):
    n = Noisy(log, "kept")
    _brk()

    def use():
        return n.name
    return x * 2, use


def _attribute_replaced(x, log, o):
    o.h = Noisy(log, "first")
    y = x + 1
    _brk()
    o.h = Noisy(log, "second")
    log.append("replaced")
    return y


def _weakvalue_entry(x, log):
    d = weakref.WeakValueDictionary()
    p = Plain()
    d["k"] = p
    y = x * 5
    _brk()
    log.append(sorted(d.keys()))
    p = None
    gc.collect()
    log.append(sorted(d.keys()))
    return y


def _del_reads_state(x, log, o):
    o.count += 1

    class Reader:
        def __del__(self):
            log.append(("reader sees", o.count))
    rd = Reader()
    y = x * o.count
    _brk()
    o.count += 1
    del rd
    return y


def _made_in_helper(x, log):
    def helper(v):
        t = Noisy(log, "tmp")
        _brk()
        return v + len(t.name)
    y = helper(x)
    log.append("helper returned")
    return y


def _noisy_in_except(x, log):
    n = Noisy(log, "exc")
    try:
        x[10]
    except IndexError:
        log.append("caught")
        _brk()
    return x + len(n.name)


def _generator_local(x, log):
    def gen():
        n = Noisy(log, "gen local")
        yield n.name
        yield "second"
    g = gen()
    log.append(next(g))
    y = x * 2
    _brk()
    g = None
    log.append("gen dropped")
    return y


def _no_break_order(x, log):
    a = Noisy(log, "a")
    b = Noisy(log, "b")
    c = Noisy(log, "c")
    return x + len(a.name) + len(b.name) + len(c.name)


_logs = lambda: (X.copy(), [])   # noqa: E731 (fresh inputs per call)
case(_two_die_at_return, _logs)
case(_three_one_break_each, _logs)
case(_del_mid_then_break, _logs)
case(_rebound_in_loop, _logs)
case(_held_by_list_cleared, _logs)
case(_weakref_and_del_mixed, _logs)
case(_finalize_then_del, _logs)
case(_closure_keeps, _logs)
case(_returned_closure, _logs, calls=1)
case(_attribute_replaced, lambda: (X.copy(), [], Plain()))
case(_weakvalue_entry, _logs)
case(_made_in_helper, _logs)
case(_noisy_in_except, _logs)
case(_generator_local, _logs)
case(_no_break_order, _logs)


@scenario
def del_reads_written_count(r):
    o = Plain()
    o.count = 0
    f = r.compile(_del_reads_state)
    for _ in range(4):
        r.call(f, X.copy(), [], o)


# --------------------------------------------------- numbers written back by a trace

class Box:
    def __init__(self, count=0, scale=1.0):
        self.count, self.scale, self.hist = count, scale, []


def _count_scale(x, o):
    o.count += 1
    return x * o.count


def _scale_doubles(x, o):
    o.scale *= 2
    return x * o.scale


def _count_index(x, o):
    o.count += 1
    return x[o.count % 4]


def _count_size(x, o):
    o.count += 1
    return np.zeros(o.count) + x.sum()


def _count_fstring(x, o):
    o.count += 1
    return f"{o.count}:{x.sum():.2f}:{o.count:05d}:{hex(o.count)}"


def _count_compare(x, o):
    o.count += 1
    if o.count > 2:
        return x * -1
    return x


def _count_bool(x, o):
    o.count += 1
    return bool(o.count % 2), x if o.count % 3 else -x


def _count_big(x, o):
    o.count *= 1000
    return np.array([o.count]), x * (o.count % 7)


def _count_np_int(x, o):
    o.count = np.int64(o.count) + 1
    return x * o.count, type(o.count).__name__


def _scale_float32(x, o):
    o.scale = np.float32(o.scale * 1.5)
    return x * o.scale


def _count_range(x, o):
    o.count += 1
    t = 0.0
    for i in range(o.count):
        t += x[i % 4]
    return t


def _count_reshape(x, o):
    o.count += 1
    return np.arange(12.0).reshape(o.count, -1)


def _total_float(x, o):
    o.scale += x.sum()
    return int(o.scale), o.scale


def _count_bool_step(x, o):
    o.count += True
    return x * o.count


def _count_down_index(x, o):
    o.count -= 1
    return x[o.count]


def _count_key(x, o, d):
    o.count += 1
    d[o.count] = x.sum() * o.count
    return len(d)


def _count_repeat_text(x, o):
    o.count += 1
    return "ab" * o.count, x[: o.count]


def _count_roll(x, o):
    o.count += 1
    return np.roll(x, o.count)


def _count_hist(x, o):
    o.count += 1
    o.hist.append(o.count)
    return x * len(o.hist)


def _count_int_pow(x, o):
    o.count += 1
    return x ** o.count


def _count_raise_after(x, o):
    o.count += 1
    return x[o.count + 2]


def _count_grows_past_int64(x, o):
    o.count = o.count * 3 + 1
    return x + (o.count % 5), o.count > 2 ** 63


def _scale_to_inf(x, o):
    o.scale *= 1e200
    return x * o.scale, o.scale == float("inf")


def _count_slice_size(x, o):
    o.count += 1
    return x[: o.count].sum(), x[o.count:].shape


def _count_with_break(x, o):
    o.count += 1
    y = x * o.count
    _brk()
    o.count += 1
    return y + o.count


def _scale_halves_to_zero(x, o):
    o.scale *= 1e-160
    return x / o.scale if o.scale else x * 0


def _count_div(x, o):
    o.count -= 1
    return x / o.count, 10 // o.count


def _count_float_div(x, o):
    o.count += 1
    return o.count / 3, x * (o.count / 3)


_box = lambda: Box()   # noqa: E731


def _stateful(fn, make, calls=6, extra=()):
    """``fn(x, obj, *extra)`` called ``calls`` times on one object made by ``make``."""
    def s(r):
        o = make()
        f = r.compile(fn)
        for _ in range(calls):
            r.call(f, X.copy(), o, *extra)
        r.see("object", o)
    reg._add(fn.__name__.removeprefix("_"), s, "")


_stateful(_count_scale, _box)
_stateful(_scale_doubles, _box)
_stateful(_count_index, _box)
_stateful(_count_size, _box)
_stateful(_count_fstring, _box)
_stateful(_count_compare, _box)
_stateful(_count_bool, _box)
_stateful(_count_big, lambda: Box(count=7), calls=9)
_stateful(_count_np_int, lambda: Box(count=2 ** 63 - 3))
_stateful(_scale_float32, lambda: Box(scale=3e37), calls=5)
_stateful(_count_range, _box)
_stateful(_count_reshape, _box)
_stateful(_total_float, _box)
_stateful(_count_bool_step, lambda: Box(count=True))
_stateful(_count_down_index, lambda: Box(count=2), calls=8)
_stateful(_count_repeat_text, _box)
_stateful(_count_roll, lambda: Box(count=-3))
_stateful(_count_hist, _box)
_stateful(_count_int_pow, _box)
_stateful(_count_raise_after, _box)
_stateful(_count_grows_past_int64, lambda: Box(count=2 ** 60), calls=5)
_stateful(_scale_to_inf, lambda: Box(scale=1.0), calls=4)
_stateful(_count_slice_size, _box)
_stateful(_count_with_break, _box)
_stateful(_scale_halves_to_zero, _box, calls=4)
_stateful(_count_div, lambda: Box(count=3), calls=5)
_stateful(_count_float_div, _box)


@scenario
def count_key_dict(r):
    o, d = Box(), {}
    f = r.compile(_count_key)
    for _ in range(5):
        r.call(f, X.copy(), o, d)


@scenario
def aliased_boxes_count(r):
    def g(x, a, b):
        a.count += 1
        b.count += 1
        return x * a.count, b.count
    f = r.compile(g)
    o, p = Box(), Box()
    for _ in range(3):
        r.call(f, X.copy(), o, o)
    r.call(f, X.copy(), o, p)
    r.call(f, X.copy(), o, o)


@scenario
def class_attribute_counter(r):
    class K:
        n = 0

        def step(self, x):
            type(self).n += 1
            return x * type(self).n
    k = K()
    f = r.compile(K.step)
    for _ in range(4):
        r.call(f, k, X.copy())
    r.see("K.n", K.n)


COUNT = 0
SCALE = 1.0


def _global_count(x):
    global COUNT
    COUNT += 1
    return x * COUNT, f"{COUNT}"


def _global_scale(x):
    global SCALE
    SCALE *= -0.5
    return x / SCALE, SCALE < 0


def _reset_globals():
    global COUNT, SCALE
    COUNT, SCALE = 0, 1.0


case(_global_count, (X,), calls=5, setup=_reset_globals, watch=lambda: COUNT)
case(_global_scale, (X,), calls=5, setup=_reset_globals, watch=lambda: SCALE)


# ------------------------------------- values an input container drops, held elsewhere

def _two_noisy(log):
    return [Noisy(log, "a"), Noisy(log, "b")]


def _pop_dropped(x, items, log):
    items.pop()
    log.append("popped")
    return x * 2


def _del_item(x, items, log):
    del items[0]
    log.append("deleted")
    return x * 2


def _clear_dropped(x, items, log):
    items.clear()
    log.append("cleared")
    return x + 1


def _item_overwritten(x, items, log):
    items[0] = None
    log.append("replaced")
    return x


def _popped_held_by_local(x, items, log):
    v = items.pop()
    log.append("held")
    v = None   # noqa: F841 (its end is what counts)
    log.append("rebound")
    return x


def _slice_cleared(x, items, log):
    items[:] = []
    log.append("sliced")
    return x


def _pop_raise_after(x, items, log):
    items.pop()
    log.append("popped")
    return x[10]


def _popped_into_new_object(x, items, log):
    o = Plain()
    o.h = items.pop()
    log.append("moved")
    o.h = None
    log.append("dropped")
    return x


def _popped_into_dict(x, items, log):
    d = {"k": items.pop()}
    log.append("in dict")
    d.pop("k")
    log.append("popped")
    return x


def _tuple_outlives_clear(x, items, log):
    t = tuple(items)
    items.clear()
    log.append("cleared")
    del t
    log.append("tuple gone")
    return x


def _unpacked_outlive_clear(x, items, log):
    a, b = items
    items.clear()
    log.append(a.name)
    return x


def _with_fresh(fn, make):
    """``fn(x, held, log)`` with ``held = make(log)`` fresh each call (``Noisy`` objects
    in a list or an object); the log is seen right after the call and once ``held`` is
    gone."""
    def s(r):
        f = r.compile(fn)
        for _ in range(2):
            log = []
            r.call(f, X.copy(), make(log), log)
            r.see("log at the end", log)
    reg._add(fn.__name__.removeprefix("_"), s, "")


for _fn in (_pop_dropped, _del_item, _clear_dropped, _item_overwritten,
            _popped_held_by_local, _slice_cleared, _pop_raise_after,
            _popped_into_new_object, _popped_into_dict, _tuple_outlives_clear,
            _unpacked_outlive_clear):
    _with_fresh(_fn, _two_noisy)


# --------------------------------------- classes that gain __del__ or __init__ later

def _made_and_dropped(x, log):
    a = LateDel()
    a.log = log
    log.append("made")
    a = None
    log.append("dropped")
    return x * 2


def _made_no_init(x, log):
    a = LateInit()
    log.append(type(a).__name__)
    return x + 1


class LateDel:
    pass


class LateInit:
    pass


@scenario
def class_gains_del_between_calls(r):
    f = r.compile(_made_and_dropped)
    r.call(f, X.copy(), [])
    r.patch(LateDel, "__del__", lambda self: self.log.append("late del"))
    for _ in range(2):
        log = []
        r.call(f, X.copy(), log)
        r.see("log", log)


@scenario
def class_gains_init_between_calls(r):
    f = r.compile(_made_no_init)
    r.call(f, X.copy(), [])

    def init(self):
        print("late init")
    r.patch(LateInit, "__init__", init)
    r.call(f, X.copy(), [])
    r.call(f, X.copy(), [])


# ------------------------------- an input object's attribute or entry overwritten last

def _holder(log):
    o = Plain()
    o.h, o.d, o.g = Noisy(log, "h"), {"k": Noisy(log, "k")}, Noisy(log, "g")
    return o


def _attr_cleared(x, o, log):
    o.h = None
    log.append("after")
    return x


def _entry_cleared(x, o, log):
    log.append("before")
    o.d["k"] = None
    log.append("after")
    return x


def _attr_deleted(x, o, log):
    del o.h
    log.append("after")
    return x * 2


def _two_attrs_between_appends(x, o, log):
    o.h = 1
    log.append("after")
    o.g = 2
    log.append("after2")
    return x


def _entries_cleared_then_attr(x, o, log):
    o.d.clear()
    log.append("cleared")
    o.h = o.g
    log.append("moved")
    return x


def _attr_swap(x, o, log):
    log.append("a")
    o.h, o.g = o.g, None
    log.append("b")
    return x


def _attr_read_then_cleared(x, o, log):
    h = o.h
    o.h = None
    log.append("held")
    return x, h.name


def _attr_cleared_then_raise(x, o, log):
    o.h = None
    log.append("after")
    return x[10]


def _attr_cleared_across_break(x, o, log):
    o.h = None
    log.append(x.sum())
    _brk()
    o.g = None
    log.append("g")
    return x


for _fn in (_attr_cleared, _entry_cleared, _attr_deleted, _two_attrs_between_appends,
            _entries_cleared_then_attr, _attr_swap, _attr_read_then_cleared,
            _attr_cleared_then_raise, _attr_cleared_across_break):
    _with_fresh(_fn, _holder)
