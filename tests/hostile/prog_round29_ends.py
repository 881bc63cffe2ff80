"""Round 29, items of a list whose length changes between calls read alone
(``variables/sequences.py`` ``ListVariable._from_end``: ``tokens[-1]`` guarded as the
item at ``L[...][-1]`` with ``len(...) >= 1`` as a decision; ``getitem`` with
``builder._item_at``: ``lrs[self.i]`` at a changing int, ``guards/sources.py``
``IndexedItemSource``). A holder's list grows a step each call; then its last item
changes type (int to float, to a list, an array, None, a bool, a NumPy scalar, a
string), the list shrinks to empty (``IndexError`` as eager, also inside ``try``), is
replaced by a tuple or another list, or is changed at other positions. The index
``self.i`` goes negative, out of range, becomes a bool, an ``np.int64``, a float, and
the list becomes a tuple, a dict or a list subclass with its own ``__getitem__``.

    >>> def _last(h, x):
    ...     return x * h.tokens[-1]
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round29_ends")

X = np.arange(4.0)
EMB = np.arange(40.0).reshape(10, 4)


class Holder:
    def __init__(self, tokens=None, i=0):
        self.tokens = [1, 2] if tokens is None else tokens
        self.i = i
        self.lrs = [0.1, 0.2, 0.3, 0.4]


class Spy(list):
    """A list subclass whose items are read through its own ``__getitem__``."""

    reads = 0

    def __getitem__(self, k):
        Spy.reads += 1
        return list.__getitem__(self, k) * 10 if isinstance(k, int) else \
            list.__getitem__(self, k)


# what runs between calls: ("append", v), ("pop",), ("clear",), ("set", k, v),
# ("tokens", new value), ("i", new index), ("lrs", new value)
def _apply(h, step):
    kind = step[0]
    if kind == "append":
        h.tokens.append(step[1])
    elif kind == "pop":
        if h.tokens:
            h.tokens.pop()
    elif kind == "clear":
        h.tokens.clear()
    elif kind == "set":
        h.tokens[step[1]] = step[2]
    elif kind == "tokens":
        h.tokens = step[1]() if callable(step[1]) else step[1]
    elif kind == "i":
        h.i = step[1]
    elif kind == "lrs":
        h.lrs = step[1]() if callable(step[1]) else step[1]


def _grow(name, fn, steps, make=Holder):
    def run(r):
        h = make()
        f = r.compile(fn)
        r.call(f, h, X.copy())
        for step in steps:
            _apply(h, step)
            r.call(f, h, X.copy())
            r.see("holder", (h.tokens, h.i, h.lrs))
    reg._add(name, run, (fn.__doc__ or "").strip())


# ------------------------------------------------------------------ lst[-1], lst[-k]

def _last(h, x):
    return x * h.tokens[-1]


def _last_embedded(h, x):
    return EMB[h.tokens[-1]] + x


def _last_two(h, x):
    return x * h.tokens[-1] - h.tokens[-2]


def _third_from_end(h, x):
    return x + h.tokens[-3]


def _last_try(h, x):
    try:
        v = h.tokens[-1]
    except IndexError as e:
        return "empty", str(e), x
    return "got", v, x * 2


def _last_type(h, x):
    v = h.tokens[-1]
    return type(v).__name__, v, x


def _last_is_none(h, x):
    if h.tokens[-1] is None:
        return x
    return x + 1


def _append_then_last(h, x):
    h.tokens.append(len(h.tokens))
    return x * h.tokens[-1], h.tokens[-2]


def _last_compared(h, x):
    if h.tokens[-1] > 3:
        return "big", x
    return "small", x * h.tokens[-1]


def _last_and_first(h, x):
    return x * h.tokens[-1] + h.tokens[0]


def _last_and_len(h, x):
    return x * h.tokens[-1], len(h.tokens)


def _last_stored(h, x):
    h.seen = h.tokens[-1]
    return x


def _last_local_list(h, x):
    toks = h.tokens
    return x * toks[-1]


INT_STEPS = [("append", 3), ("append", 4), ("append", 5)]
ENDS = {
    "grow": INT_STEPS + [("append", 6)],
    "to_float": INT_STEPS + [("append", 2.5), ("append", 7)],
    "to_list": INT_STEPS + [("append", [1, 2]), ("append", 6)],
    "to_array": INT_STEPS + [("append", np.array([1.0, 2.0, 3.0, 4.0])), ("append", 6)],
    "to_none": INT_STEPS + [("append", None), ("append", 6)],
    "to_bool": INT_STEPS + [("append", True), ("append", False), ("append", 6)],
    "to_npint": INT_STEPS + [("append", np.int64(7)), ("append", np.int8(3)), ("append", 6)],
    "to_str": INT_STEPS + [("append", "a"), ("append", 6)],
    "shrink": INT_STEPS + [("pop",), ("pop",), ("pop",), ("pop",), ("pop",), ("pop",),
                           ("append", 2)],
    "clear": INT_STEPS + [("clear",), ("append", 1), ("append", 2)],
    "to_tuple": INT_STEPS + [("tokens", (1, 2, 3, 4, 9)), ("tokens", lambda: [1, 2, 3])],
    "new_list": INT_STEPS + [("tokens", lambda: [5, 6, 7, 8, 2]),
                             ("tokens", lambda: [1, 2, 3, 4, 5, 6])],
    "set_others": INT_STEPS + [("set", 0, 9), ("set", -2, 8), ("append", 1),
                               ("set", -1, 4)],
    "to_spy": INT_STEPS + [("tokens", lambda: Spy([1, 2, 3, 4, 5])), ("append", 6)],
}
LAST_FUNCS = {
    "last": _last, "last_embedded": _last_embedded, "last_two": _last_two,
    "third_from_end": _third_from_end, "last_try": _last_try, "last_type": _last_type,
    "last_is_none": _last_is_none, "append_then_last": _append_then_last,
    "last_compared": _last_compared, "last_and_first": _last_and_first,
    "last_and_len": _last_and_len, "last_stored": _last_stored,
    "last_local_list": _last_local_list,
}
PICKS = {
    "last": ("grow", "to_float", "to_list", "to_array", "to_none", "to_bool", "to_npint",
             "to_str", "shrink", "clear", "to_tuple", "new_list", "set_others", "to_spy"),
    "last_embedded": ("grow", "to_float", "to_npint", "to_bool", "shrink", "to_tuple",
                      "to_spy", "set_others"),
    "last_two": ("grow", "to_float", "shrink", "clear", "set_others", "to_tuple"),
    "third_from_end": ("grow", "shrink", "set_others", "new_list"),
    "last_try": ("shrink", "clear", "to_str", "to_tuple", "to_spy"),
    "last_type": ("to_float", "to_list", "to_array", "to_none", "to_bool", "to_npint"),
    "last_is_none": ("to_none", "to_float", "shrink"),
    "append_then_last": ("grow", "shrink", "clear", "to_tuple", "set_others"),
    "last_compared": ("grow", "to_float", "to_bool", "to_npint", "to_str", "shrink"),
    "last_and_first": ("grow", "set_others", "new_list", "shrink"),
    "last_and_len": ("grow", "shrink", "clear", "new_list"),
    "last_stored": ("grow", "to_list", "shrink"),
    "last_local_list": ("grow", "to_float", "to_tuple", "shrink"),
}
for fname, seqs in PICKS.items():
    for sname in seqs:
        _grow(f"{fname}_{sname}", LAST_FUNCS[fname], ENDS[sname])


# ------------------------------------------------------------------------ lrs[self.i]

def _lr(h, x):
    return x * h.lrs[h.i]


def _lr_try(h, x):
    try:
        return "ok", x * h.lrs[h.i]
    except (IndexError, TypeError, KeyError) as e:
        return type(e).__name__, str(e)


def _lr_next(h, x):
    h.i += 1
    return x * h.lrs[h.i - 1]


def _lr_compared(h, x):
    lr = h.lrs[h.i]
    if lr > 0.25:
        return "high", x * lr
    return "low", x


def _lr_offset(h, x):
    return x + h.lrs[h.i + 1] - h.lrs[h.i]


def _lr_type(h, x):
    v = h.lrs[h.i]
    return type(v).__name__, v, x


IDX_STEPS = [("i", 1), ("i", 2)]
INDEXED = {
    "walk": IDX_STEPS + [("i", 3), ("i", 0)],
    "negative": IDX_STEPS + [("i", -1), ("i", -4), ("i", 1)],
    "out_of_range": IDX_STEPS + [("i", 4), ("i", -5), ("i", 2)],
    "bool": IDX_STEPS + [("i", True), ("i", False), ("i", 3)],
    "npint": IDX_STEPS + [("i", np.int64(3)), ("i", np.int32(1)), ("i", 2)],
    "float": IDX_STEPS + [("i", 1.0), ("i", 3)],
    "tuple": IDX_STEPS + [("lrs", (0.5, 0.6, 0.7, 0.8)), ("i", 3)],
    "dict": IDX_STEPS + [("lrs", lambda: {0: 9.0, 1: 8.0, 2: 7.0, 3: 6.0}), ("i", 3)],
    "spy": IDX_STEPS + [("lrs", lambda: Spy([0.5, 0.6, 0.7, 0.8])), ("i", 3)],
    "new_list": IDX_STEPS + [("lrs", lambda: [1.0, 2.0, 3.0, 4.0]), ("i", 1)],
    "shorter": IDX_STEPS + [("lrs", lambda: [1.0, 2.0]), ("i", 1), ("i", 2)],
    "item_types": IDX_STEPS + [("lrs", lambda: [0.1, 2, None, np.float64(0.3)]),
                               ("i", 1), ("i", 2), ("i", 3)],
}
IDX_FUNCS = {"lr": _lr, "lr_try": _lr_try, "lr_next": _lr_next, "lr_compared": _lr_compared,
             "lr_offset": _lr_offset, "lr_type": _lr_type}
IDX_PICKS = {
    "lr": tuple(INDEXED),
    "lr_try": ("out_of_range", "negative", "float", "dict", "shorter", "bool", "item_types"),
    "lr_next": ("walk", "out_of_range", "npint", "tuple"),
    "lr_compared": ("walk", "negative", "bool", "item_types", "spy"),
    "lr_offset": ("walk", "negative", "out_of_range", "shorter"),
    "lr_type": ("npint", "bool", "item_types", "dict"),
}
for fname, seqs in IDX_PICKS.items():
    for sname in seqs:
        _grow(f"{fname}_{sname}", IDX_FUNCS[fname], INDEXED[sname])


# ------------------------------------- the list changed in the trace around the read

def _read_then_reverse(h, x):
    v = h.lrs[h.i]
    h.lrs.reverse()
    return x * v, h.lrs[h.i]


def _read_across_break(h, x):
    v = h.lrs[h.i]
    print("break")
    w = h.lrs[h.i]
    return x * v + w


def _store_then_read(h, x):
    h.lrs[h.i] = 9.0
    return x * h.lrs[h.i]


def _last_then_pop(h, x):
    t = h.tokens[-1]
    h.tokens.pop()
    return x * t, h.tokens[-1] if h.tokens else None


def _last_then_insert(h, x):
    t = h.tokens[-1]
    h.tokens.insert(0, 7)
    return x * t * h.tokens[-1]


def _read_then_advance(h, x):
    v = h.lrs[h.i]
    h.i = h.i + 1
    return x * v * h.lrs[h.i % 4]


def _last_incremented(h, x):
    t = h.tokens[-1]
    h.tokens[-1] = t + 1
    return x + t


def _negated_index(h, x):
    return x * h.lrs[-h.i - 1]


def _computed_indices(h, x):
    return x * h.lrs[h.i // 2], h.lrs[h.i * 2 % 4]


def _last_two_sliced(h, x):
    return [x * v for v in h.tokens[-2:]]


def _walk_step(h):
    h.i = (h.i + 1) % 4
    h.tokens.append(len(h.tokens))


def _negative_step(h):
    h.i = -3


def _shrink_step(h):
    h.tokens[:] = h.tokens[:1]


WALK = [_walk_step, _walk_step, _walk_step, _negative_step, _walk_step, _shrink_step,
        _walk_step, _walk_step]


def _walked(name, fn):
    def run(r):
        h = Holder()
        f = r.compile(fn)
        r.call(f, h, X.copy())
        for step in WALK:
            step(h)
            r.call(f, h, X.copy())
            r.see("holder", (h.tokens, h.i, h.lrs))
    reg._add(name, run, (fn.__doc__ or "").strip())


for _fn in (_read_then_reverse, _read_across_break, _store_then_read, _last_then_pop,
            _last_then_insert, _read_then_advance, _last_incremented, _negated_index,
            _computed_indices, _last_two_sliced):
    _walked("walked" + _fn.__name__, _fn)


# ----------------------------------- reads the guards must not repeat or add

READS = []


class CountingList(list):
    """A list subclass that logs its item and length reads."""

    def __getitem__(self, k):
        READS.append(("get", k if isinstance(k, int) else "slice"))
        return list.__getitem__(self, k)

    def __len__(self):
        READS.append("len")
        return list.__len__(self)


class PropHolder(Holder):
    """``i`` is a property that logs each read."""

    def __init__(self):
        super().__init__()
        self._i = 0

    @property
    def i(self):
        READS.append("i")
        return self._i

    @i.setter
    def i(self, value):
        self._i = value


def _counted_step(h):
    h.i = (h.i + 1) % 4
    h.tokens.append(3)


def _to_counting(h):
    h.lrs = CountingList(h.lrs)
    h.tokens = CountingList(h.tokens)


def _counting_holder():
    h = Holder()
    _to_counting(h)
    return h


def _counted(name, fn, make, steps):
    def run(r):
        READS.clear()
        h = make()
        f = r.compile(fn)
        r.call(f, h, X.copy())
        for step in steps:
            step(h)
            r.call(f, h, X.copy())
            r.see("reads", list(READS))
    reg._add(name, run, "")


_STEPS = [_counted_step] * 3 + [_to_counting, _counted_step, _counted_step]
_counted("reads_property_index", _lr, PropHolder, [_counted_step] * 4)
_counted("reads_property_index_last", _last, PropHolder, [_counted_step] * 4)
_counted("reads_counting_index", _lr, Holder, _STEPS)
_counted("reads_counting_last", _last, Holder, _STEPS)
_counted("reads_counting_from_start", _lr, _counting_holder, [_counted_step] * 3)
_counted("reads_counting_last_from_start", _last, _counting_holder, [_counted_step] * 3)


# ----------------------------- the list grown or cut in the trace, then read from the end

def _extended(h, x):
    h.tokens.extend([7, 8])
    return x * h.tokens[-3], h.tokens[-1]


def _added_in_place(h, x):
    h.tokens += [9]
    return x * h.tokens[-2]


def _read_append_read(h, x):
    a = h.tokens[-1]
    h.tokens.append(a + 1)
    return x * a + h.tokens[-1] + h.tokens[-2]


def _deleted_then_read(h, x):
    del h.tokens[-1]
    try:
        return x * h.tokens[-1]
    except IndexError as e:
        return str(e)


def _popped_then_read(h, x):
    v = h.tokens.pop()
    return x * v, h.tokens[-1] if h.tokens else None


def _two_appended_deep(h, x):
    h.tokens.append(5)
    h.tokens.append(6)
    try:
        return x * h.tokens[-4]
    except IndexError as e:
        return str(e)


def _cleared_then_read(h, x):
    h.tokens.clear()
    h.tokens.append(3)
    return x * h.tokens[-1]


def _cut(name, fn):
    def run(r):
        h = Holder()
        f = r.compile(fn)
        for k in range(9):
            if k == 6:
                h.tokens[:] = []
            if k == 7:
                h.tokens.append(1.5)
            r.call(f, h, X.copy())
            r.see("tokens", list(h.tokens))
            h.tokens.append(k % 3)
    reg._add(name, run, "")


for _fn in (_extended, _added_in_place, _read_append_read, _deleted_then_read,
            _popped_then_read, _two_appended_deep, _cleared_then_read):
    _cut("cut" + _fn.__name__, _fn)
