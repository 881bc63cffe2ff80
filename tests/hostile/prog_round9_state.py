"""Round 9, append-only and other Python state written by a graph and read by code the
trace does not see in order: a callback, a ``__del__``, a ``weakref.finalize``, another
thread, a property, a logging handler, a NumPy error callback, a generator created
before the write; list subclasses whose ``append``/``extend``/``__iadd__``/``__len__``
are overridden (or raise on the third item); dicts with ``__missing__`` or
``__setitem__``; ``defaultdict``, ``Counter``, ``OrderedDict``, ``deque(maxlen=)``,
``heapq``, ``bisect``, ``array.array``; a list reached through a tuple, a class
attribute and two attributes at once; a list sorted while its key appends to it. Every
program shows the state afterwards (the arguments are recorded after each call; module
state through ``watch``)."""

import array
import bisect
import collections
import heapq
import logging
import threading
import weakref

import numpy as np
from hostile_check import Programs

reg = Programs("round9_state")
case = reg.case

X = np.array([1.0, 2.0, -3.0])
LOG: list = []


def _reset():
    LOG.clear()


def _watch():
    return list(LOG)


# ============================================================ readers the trace does not see in order

def _append_then_callback(x, log, cb):
    log.append(x.sum())
    return x * cb(log)


case(_append_then_callback, lambda: (X.copy(), [], len),
     lambda: (X.copy(), [1.0, 2.0], lambda lst: lst[-1]))


def _global_len():
    return len(LOG)


def _append_global_then_helper(x):
    LOG.append(float(x[0]))
    n = _global_len()
    LOG.append(n)
    return x * n


case(_append_global_then_helper, (X,), setup=_reset, watch=_watch)


def _argument_is_global_then_helper(x, log):
    log.append("a")
    LOG.append("b")
    return x + _global_len(), len(log)


case(_argument_is_global_then_helper, lambda: (X.copy(), LOG), lambda: (X.copy(), []),
     setup=_reset, watch=_watch)


class _Noisy:
    def __del__(self):
        LOG.append(("del", len(LOG)))


def _del_reads_log(x):
    d = _Noisy()
    LOG.append("a")
    del d
    LOG.append("b")
    return x + len(LOG)


case(_del_reads_log, (X,), setup=_reset, watch=_watch)


def _rebind_frees(x):
    d = _Noisy()
    LOG.append("a")
    d = x * 2
    LOG.append("b")
    return d


case(_rebind_frees, (X,), setup=_reset, watch=_watch)


class _Box:
    pass


def _finalize_reads_log(x):
    b = _Box()
    weakref.finalize(b, lambda: LOG.append(("fin", len(LOG))))
    LOG.append(x.sum())
    b = None
    LOG.append("after")
    return x


case(_finalize_reads_log, (X,), setup=_reset, watch=_watch)


def _thread_reads_list(x, log):
    log.append(x.sum())
    seen = []
    t = threading.Thread(target=lambda: seen.append(list(log)))
    t.start()
    t.join()
    log.append("after")
    return seen


case(_thread_reads_list, lambda: (X.copy(), []), lambda: (X.copy(), [0]))


def _thread_appends_while_graph(x, log):
    t = threading.Thread(target=lambda: log.append("thread"))
    log.append("before")
    t.start()
    t.join()
    y = x * len(log)
    log.append("after")
    return y


case(_thread_appends_while_graph, lambda: (X.copy(), []))


class _Counted:
    def __init__(self):
        self.log = []

    @property
    def n(self):
        return len(self.log)


def _property_reads_appended(x, o):
    o.log.append(1)
    a = x * o.n
    o.log.append(2)
    return a + o.n


case(_property_reads_appended, lambda: (X.copy(), _Counted()))


class _ListHandler(logging.Handler):
    def emit(self, record):
        LOG.append(record.getMessage())


_LOGGER = logging.getLogger("hostile.round9.state")
_LOGGER.propagate = False
_LOGGER.setLevel(logging.INFO)
_LOGGER.addHandler(_ListHandler())


def _logging_handler_appends(x):
    LOG.append("start")
    _LOGGER.info("sum %s", x.sum())
    return x * len(LOG)


case(_logging_handler_appends, (X,), setup=_reset, watch=_watch)


def _errcall_appends(x, log):
    old = np.seterrcall(lambda kind, flag: log.append(kind))
    try:
        with np.errstate(divide="call"):
            y = x / 0.0
        log.append("after")
    finally:
        np.seterrcall(old)
    return y, len(log)


case(_errcall_appends, lambda: (X.copy(), []))


def _generator_made_before_append(x, log):
    g = (len(log) for _ in range(1))
    log.append(x[0])
    return x * next(g)


case(_generator_made_before_append, lambda: (X.copy(), []), lambda: (X.copy(), [1, 2]))


def _bound_len_taken_before(x, log):
    n = log.__len__
    log.append(1)
    return x * n()


case(_bound_len_taken_before, lambda: (X.copy(), []))


def _closure_reads_appended(x):
    log = []

    def count():
        return len(log)

    log.append(x.sum())
    a = count()
    log.append(a)
    return x * count(), log


case(_closure_reads_appended, (X,))


def _append_then_raise_except_sees(x, log):
    try:
        log.append("a")
        x[5] = 1.0
        log.append("b")
    except IndexError as e:
        return len(log), str(e)
    return len(log), None


case(_append_then_raise_except_sees, lambda: (X.copy(), []))


def _append_array_then_write(x, log):
    log.append(x)
    x += 1
    log.append(x.sum())
    return log[0] is x


case(_append_array_then_write, lambda: (X.copy(), []))


# ============================================================ list subclasses

class Doubling(list):
    def append(self, v):
        super().append(v * 2)


class Limited(list):
    def append(self, v):
        if len(self) >= 2:
            raise OverflowError(f"full at {len(self)}")
        super().append(v)


class Printing(list):
    def append(self, v):
        print("append", v)
        super().append(v)

    def extend(self, vs):
        print("extend")
        super().extend(vs)


class Liar(list):
    def __len__(self):
        return 100


class IAdd(list):
    def __iadd__(self, other):
        self.append("iadd")
        return self


def _subclass_append(x, log):
    log.append(x.sum())
    log.append(1)
    return x + len(log), list(log)


case(_subclass_append, lambda: (X.copy(), Doubling()), lambda: (X.copy(), []))


def _subclass_append_raises(x, log):
    for i in range(4):
        log.append(i)
        x = x + i
    return x


case(_subclass_append_raises, lambda: (X.copy(), Limited()))


def _subclass_append_prints(x, log):
    log.append(x[0])
    y = x * 2
    log.extend([1, 2])
    return y


case(_subclass_append_prints, lambda: (X.copy(), Printing()))


def _subclass_len_lies(x, log):
    log.append(1)
    return x[: len(log)], len(log)


case(_subclass_len_lies, lambda: (X.copy(), Liar()), lambda: (X.copy(), []))


def _subclass_iadd(x, log):
    log += [x.sum()]
    return log, x * len(log)


case(_subclass_iadd, lambda: (X.copy(), IAdd()), lambda: (X.copy(), []))


def _subclass_append_unbound(x, log):
    list.append(log, x[0])
    log.append(x[1])
    return log


case(_subclass_append_unbound, lambda: (X.copy(), Doubling()))


# ============================================================ dicts

class Missing(dict):
    def __missing__(self, k):
        self[k] = 0
        return 0


class Shouting(dict):
    def __setitem__(self, k, v):
        super().__setitem__(str(k).upper(), v)


def _missing_iadd(x, d):
    d["a"] += 1
    d["b"]
    return x * d["a"], dict(d)


case(_missing_iadd, lambda: (X.copy(), Missing()), lambda: (X.copy(), Missing(a=5)))


def _missing_get_does_not_insert(x, d):
    v = d.get("z", 3)
    return x * v, "z" in d


case(_missing_get_does_not_insert, lambda: (X.copy(), Missing()))


def _missing_reads_list_len(x, d, log):
    log.append(1)
    return x + d[len(log)]


case(_missing_reads_list_len, lambda: (X.copy(), Missing(), []))


def _setitem_override(x, d):
    d["k"] = x.sum()
    return sorted(d), x


case(_setitem_override, lambda: (X.copy(), Shouting()), lambda: (X.copy(), {}))


def _defaultdict_append(x, d):
    d["s"].append(x.sum())
    d["n"].append(len(d))
    return x, len(d["s"])


case(_defaultdict_append, lambda: (X.copy(), collections.defaultdict(list)))


def _counter_update(x, c):
    c.update(["a", "b", "a"])
    c["z"] += int(x[0])
    return x * c["a"], c.most_common(1)


case(_counter_update, lambda: (X.copy(), collections.Counter()))


def _ordered_move(x, d):
    d["a"] = x[0]
    d["b"] = x[1]
    d.move_to_end("a")
    return list(d), x


case(_ordered_move, lambda: (X.copy(), collections.OrderedDict()))


def _setdefault_list(x, d):
    d.setdefault("k", []).append(x.sum())
    return x * len(d["k"])


case(_setdefault_list, lambda: (X.copy(), {}), lambda: (X.copy(), {"k": [0]}))


def _dict_iter_while_adding(x, d):
    for k in d:
        d[k + "!"] = x
    return d


case(_dict_iter_while_adding, lambda: (X.copy(), {"a": 1}))


# ============================================================ other containers

def _deque_maxlen_drops(x, d):
    for i in range(4):
        d.append(x * i)
    return len(d), d[0]


case(_deque_maxlen_drops, lambda: (X.copy(), collections.deque(maxlen=2)))


def _heap_push(x, h):
    heapq.heappush(h, float(x[2]))
    heapq.heappush(h, float(x[0]))
    return heapq.heappop(h), h


case(_heap_push, lambda: (X.copy(), [5.0]))


def _insort(x, s):
    bisect.insort(s, float(x.sum()))
    return s, x * s.index(float(x.sum()))


case(_insort, lambda: (X.copy(), [-1.0, 0.5, 10.0]))


def _array_array_append(x, a):
    a.append(float(x[0]))
    return x * len(a), a.tolist()


case(_array_array_append, lambda: (X.copy(), array.array("d", [1.0])))


def _list_in_tuple(x, t):
    t[0].append(x.sum())
    return x * len(t[0])


case(_list_in_tuple, lambda: (X.copy(), ([],)))


class _Shared:
    items: list = []


def _class_attribute_list(x, a, b):
    a.items.append(1)
    b.items.append(2)
    return x * len(a.items)


def _shared_args():
    _Shared.items = []
    return X.copy(), _Shared(), _Shared()


case(_class_attribute_list, _shared_args)


def _two_attributes_one_list(x, o):
    o.a.append("a")
    o.b.append("b")
    return x * len(o.a)


def _two_attr_args():
    o = _Box()
    o.a = o.b = []
    return X.copy(), o


case(_two_attributes_one_list, _two_attr_args)


def _sort_key_appends(x, log):
    def key(v):
        log.append(v)
        return -v

    try:
        log.sort(key=key)
    except ValueError as e:
        return str(e), x
    return log, x


case(_sort_key_appends, lambda: (X.copy(), [3, 1, 2]))


def _slice_assign_list(x, log):
    log[1:1] = [x[0], x[1]]
    del log[0]
    return x * len(log), log


case(_slice_assign_list, lambda: (X.copy(), [1, 2, 3]))


def _set_add_len(x, s):
    s.add(float(x[0]))
    s.add(float(x[0]))
    return x * len(s)


case(_set_add_len, lambda: (X.copy(), set()))


def _pop_insert(x, log):
    log.insert(0, x.sum())
    v = log.pop()
    return x * v, log


case(_pop_insert, lambda: (X.copy(), [2.0]), lambda: (X.copy(), []))
