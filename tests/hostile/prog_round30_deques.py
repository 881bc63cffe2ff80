"""Round 30, ``collections.deque`` modelled with write ops replayed after the graph
(``variables/deques.py``): a deque passed in or kept on ``self``, written
(append/appendleft/extend/extendleft, ``maxlen`` dropping, ``maxlen=0``) and read (len,
truth, iteration, sum, ``d[i]``, pop/popleft of an empty deque inside ``try``,
``np.stack(d)``), where the deque is not what the first calls saw: reached through two
names (an argument and an attribute, two attributes), a deque subclass, a deque
replaced by a list, items of mixed types changing between calls; and where the trace
does what the model may not (rotate, remove, insert, count, index, reverse, copy,
mutation while iterating, a raise after an append).

    >>> def _append_then_raise(d, x):
    ...     d.append(float(x.sum()))
    ...     if x[0] > 1:
    ...         raise ValueError("late")
    ...     return x * len(d)
"""

import collections
import threading

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round30_deques")

deque = collections.deque
X = np.arange(4.0)


class Holder:
    def __init__(self, d=None, e=None):
        self.d = deque([1.0, 2.0], maxlen=3) if d is None else d
        self.e = e


class MyDeque(deque):
    def append(self, v):
        super().append(v * 10)


class TaggedDeque(deque):
    pass


# ------------------------------------------------------------------ programs on `d`

def _append_len(d, x):
    d.append(x[0])
    return x * len(d)


def _appendleft_sum(d, x):
    d.appendleft(1.0)
    return x + sum(d)


def _extend_iter(d, x):
    d.extend([x[1], 2.0])
    t = 0.0
    for v in d:
        t = t + v
    return x * t


def _extendleft_index(d, x):
    d.extendleft([3.0, 4.0])
    return x + d[0] + d[-1]


def _truth(d, x):
    if d:
        return x + 1
    return x - 1


def _pop_guarded(d, x):
    try:
        v = d.pop()
    except IndexError as e:
        return str(e)
    return x * v


def _popleft_guarded(d, x):
    try:
        v = d.popleft()
    except IndexError as e:
        return repr(e)
    return x + v


def _pop_unguarded(d, x):
    return x * d.pop()


def _append_pop(d, x):
    d.append(5.0)
    d.append(6.0)
    a = d.popleft()
    return x + a + d.pop()


def _write_only(d, x):
    d.append(float(x[0]))
    d.appendleft(-1.0)
    return x * 2


def _rotate(d, x):
    d.rotate(1)
    return x + d[0]


def _remove(d, x):
    try:
        d.remove(2.0)
    except ValueError as e:
        return str(e)
    return x * len(d)


def _insert(d, x):
    try:
        d.insert(0, 9.0)
    except IndexError as e:
        return str(e)
    return x + d[0]


def _count_index(d, x):
    try:
        return x * d.count(1.0) + d.index(2.0)
    except ValueError as e:
        return str(e)


def _reverse(d, x):
    d.reverse()
    return x + d[0]


def _copy_append(d, x):
    c = d.copy()
    c.append(7.0)
    d.append(8.0)
    return x * len(c) + len(d)


def _mutate_iterating(d, x):
    t = 0.0
    try:
        for v in d:
            d.append(v)
            t = t + v
    except RuntimeError as e:
        return str(e), t
    return x * t


def _append_then_raise(d, x):
    d.append(float(x.sum()))
    if x[0] > 1:
        raise ValueError("late")
    return x * len(d)


def _append_then_index_error(d, x):
    d.append(1.5)
    return x[len(d)]


def _maxlen_read(d, x):
    for i in range(4):
        d.append(float(i))
    return x * sum(d), d.maxlen


def _clear_then_len(d, x):
    d.append(2.0)
    d.clear()
    return x + len(d)


def _getitem_oob(d, x):
    try:
        return x * d[5]
    except IndexError as e:
        return str(e)


def _neg_index(d, x):
    d.append(3.0)
    return x * d[-2]


def _list_of(d, x):
    d.appendleft(0.5)
    return list(d), x.sum()


def _in_check(d, x):
    d.append(4.0)
    return (4.0 in d), (2.0 in d), x * 1


def _max_min(d, x):
    if not d:
        return x
    return x * max(d) - min(d)


def _extend_self(d, x):
    d.extend(d)
    return x * len(d)


def _iadd(d, x):
    d += [1.0]
    return x * len(d)


def _stack_arrays(d, x):
    d.append(x * 2)
    return np.stack(d)


def _stack_sum(d, x):
    d.appendleft(x + 1)
    return np.stack(d).sum(0)


def _arrays_iter(d, x):
    t = x * 0
    for a in d:
        t = t + a
    d.append(t)
    return t


DEQUE_FNS = (_append_len, _appendleft_sum, _extend_iter, _extendleft_index, _truth,
             _pop_guarded, _popleft_guarded, _pop_unguarded, _append_pop, _write_only,
             _rotate, _remove, _insert, _count_index, _reverse, _copy_append,
             _mutate_iterating, _append_then_raise, _append_then_index_error,
             _maxlen_read, _clear_then_len, _getitem_oob, _neg_index, _list_of,
             _in_check, _max_min, _extend_self, _iadd)


def _float_inputs():
    return (
        (deque([1.0, 2.0]), X),
        (deque([], maxlen=2), X + 1),
        (deque([2.0], maxlen=0), X),
        (deque([1.0, 2.0, 3.0], maxlen=3), X + 2),
        (MyDeque([1.0, 2.0]), X),
        (deque([1, 2.0, True]), X),
        (deque(), X),
    )


# The input sets in two groups of at most four deques (two calls each: eight
# entries at most, the cache size limit), so that every call runs compiled: a read
# guards the length and items, and most calls here change them.
GROUPS = {"plain": slice(0, 4), "odd": slice(4, None)}


def _float_programs(fns):
    for fn in fns:
        for group, part in GROUPS.items():
            def scenario(r, fn=fn, part=part):
                f = r.compile(fn)
                for d, x in _float_inputs()[part]:
                    r.call(f, d, x.copy())
                    r.see("deque", (type(d).__name__, list(d), d.maxlen))
                    r.call(f, d, x.copy())
                    r.see("deque again", (type(d).__name__, list(d), d.maxlen))
            reg._add(fn.__name__.lstrip("_") + "_" + group, scenario,
                     (fn.__doc__ or "").strip())


_float_programs(DEQUE_FNS)


def _array_inputs():
    return (
        (deque([np.ones(4), np.zeros(4)], maxlen=3), X),
        (deque([np.ones(4)]), X),
        (deque([], maxlen=2), X),
        (deque([np.ones(3)]), X),
        (deque([np.ones(4, np.int32)], maxlen=4), X),
        (deque([np.ones(4), 2.0]), X),
        (TaggedDeque([np.ones(4)]), X),
    )


for _fn in (_stack_arrays, _stack_sum, _arrays_iter):
    for _group, _part in GROUPS.items():
        def _scenario(r, fn=_fn, part=_part):
            f = r.compile(fn)
            for d, x in _array_inputs()[part]:
                r.call(f, d, x.copy())
                r.see("deque", (type(d).__name__, [np.asarray(v).tolist() for v in d]))
                r.call(f, d, x.copy())
                r.see("deque again", (type(d).__name__,
                                      [np.asarray(v).tolist() for v in d]))
        reg._add(_fn.__name__.lstrip("_") + "_" + _group, _scenario,
                 (_fn.__doc__ or "").strip())


# ------------------------------------------------------------------ two names, self

def _arg_and_attr(h, d, x):
    d.append(1.0)
    h.d.append(2.0)
    return x * len(d) + sum(h.d)


def _two_attrs(h, x):
    h.d.append(3.0)
    h.e.appendleft(4.0)
    return x + len(h.d) + h.e[0]


def _self_push(h, x):
    h.d.append(float(x[1]))
    return x * sum(h.d) / len(h.d)


def _self_replaced(h, x):
    h.d.append(1.0)
    return x + len(h.d)


@reg.scenario
def s_arg_is_attr(r):
    """The same deque as an argument and as ``h.d``, then two different deques."""
    f = r.compile(_arg_and_attr)
    h = Holder()
    r.call(f, h, h.d, X)
    r.see("d", list(h.d))
    r.call(f, h, h.d, X)
    other = deque([5.0])
    r.call(f, h, other, X)
    r.see("both", (list(h.d), list(other)))
    r.call(f, h, h.d, X)
    r.see("d", list(h.d))


@reg.scenario
def s_arg_is_attr_distinct_first(r):
    f = r.compile(_arg_and_attr)
    h = Holder()
    other = deque([5.0])
    r.call(f, h, other, X)
    r.call(f, h, other, X)
    r.call(f, h, h.d, X)
    r.see("both", (list(h.d), list(other)))


@reg.scenario
def s_two_attrs_one_deque(r):
    f = r.compile(_two_attrs)
    d = deque([1.0], maxlen=4)
    h = Holder(d, deque([0.0]))
    r.call(f, h, X)
    r.call(f, h, X)
    h.e = d
    r.call(f, h, X)
    r.call(f, h, X)
    r.see("d", list(d))
    h.e = deque([7.0], maxlen=1)
    r.call(f, h, X)
    r.see("e", (list(h.d), list(h.e)))


@reg.scenario
def s_self_window(r):
    f = r.compile(_self_push)
    h = Holder()
    for k in range(6):
        r.call(f, h, X + k)
    r.see("d", list(h.d))
    h.d = deque([1.0], maxlen=0)
    r.call(f, h, X)
    h.d = MyDeque([1.0])
    r.call(f, h, X)
    r.see("d", list(h.d))


@reg.scenario
def s_replaced_by_list(r):
    f = r.compile(_self_replaced)
    h = Holder()
    r.call(f, h, X)
    r.call(f, h, X)
    h.d = [1.0, 2.0]
    r.call(f, h, X)
    r.see("d", h.d)
    h.d = deque([1.0])
    r.call(f, h, X)
    h.d = (1.0,)
    r.call(f, h, X)
    r.see("d", list(h.d))


@reg.scenario
def s_arg_replaced_by_list(r):
    f = r.compile(_append_len)
    d = deque([1.0])
    r.call(f, d, X)
    r.call(f, d, X)
    lst = [1.0]
    r.call(f, lst, X)
    r.see("lst", lst)
    r.call(f, "ab", X)
    r.call(f, d, X)
    r.see("d", list(d))


@reg.scenario
def s_mixed_items_change(r):
    f = r.compile(_appendleft_sum)
    d = deque([1.0, 2.0])
    r.call(f, d, X)
    d.append(3)
    r.call(f, d, X)
    d.append(np.float32(0.5))
    r.call(f, d, X)
    d.append("s")
    r.call(f, d, X)
    r.see("d", list(d))
    d.clear()
    r.call(f, d, X)
    r.see("d", list(d))


@reg.scenario
def s_raise_state(r):
    """An item appended, then the program raises: the deque as eager leaves it."""
    f = r.compile(_append_then_raise)
    h = deque([0.0], maxlen=2)
    for x in (X, X + 2, X, X + 5, X - 1):
        r.call(f, h, x)
        r.see("d", list(h))


@reg.scenario
def s_threads(r):
    f = r.compile(_write_only)
    ds = [deque(maxlen=50) for _ in range(4)]

    def work(d):
        for k in range(20):
            f(d, X + k)

    ts = [threading.Thread(target=work, args=(d,)) for d in ds]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    r.see("deques", [list(d) for d in ds])
    r.call(f, ds[0], X)


@reg.scenario
def s_threads_shared(r):
    f = r.compile(_write_only)
    d = deque()

    def work():
        for k in range(25):
            f(d, X)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    r.see("len", len(d))
    r.see("sorted", sorted(d))


@reg.scenario
def s_maxlen_zero_self(r):
    f = r.compile(_self_push)
    h = Holder(deque(maxlen=0))
    r.call(f, h, X)
    r.call(f, h, X)
    r.see("d", list(h.d))


reg.case(_append_len, Args(deque([1.0]), X), Args(deque([1.0], maxlen=1), X),
         name="kw_case_maxlen")


def _pop_loop(d, x):
    t = x * 0
    while d:
        t = t + d.pop()
    return t


def _popleft_until_raise(d, x):
    t = x * 0
    try:
        for _ in range(3):
            t = t + d.popleft()
    except IndexError as e:
        return t, str(e)
    return t


def _extend_generator(d, x):
    d.extend(float(v) for v in x[:2])
    return x * len(d)


def _append_array_item(d, x):
    d.append(x[0])             # a NumPy scalar item
    return x + d[-1] * 2


_float_programs((_pop_loop, _popleft_until_raise, _extend_generator, _append_array_item))
