"""The newest features, attacked: data-dependent sizes (masks, ``nonzero``, ``unique``,
``bincount``: unbacked sizes, docs/unbacked.md), outlined ``while`` loops
(docs/loops.md), Python numbers passed into graphs as inputs (an int step in
``0.9 ** t``, numbers in attributes and globals), append-only state
(``self.log.append(x)`` with no guard on the list's length), lists of ints as data
(``wte[ids]``) and loop nodes over symbolic sizes.

Each program varies, over its calls, what the feature made dynamic: a mask of all
False and all True, an empty input, an int that becomes a bool, a float, a NumPy int,
an ``__index__`` or ``__float__`` object, a subclass of int, float or list, a huge int;
a list aliased, read after an append, mutated by a callback between calls; an
exception at trip k."""

import collections

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("newest")
case, scenario = reg.case, reg.scenario

BIG = 40000   # elements: a loop over arrays this large is outlined


def _v(*values, dtype=np.float64):
    return np.array(values, dtype=dtype)


V = _v(-1.5, 0.25, 2.0, -0.5, 3.0, 0.0)
NEG = _v(-1.0, -2.0, -3.0)
POS = _v(1.0, 2.0, 3.0)
EMPTY = np.zeros(0)
NANS = _v(np.nan, 1.0, -np.nan, 2.0)
IV = np.array([3, -1, 0, 2, 2, 5], dtype=np.int64)


class Idx:
    """An object that is an index (``__index__``), not an int."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


class Flt:
    """An object that converts to float (``__float__``), not a float."""

    def __init__(self, v):
        self.v = v

    def __float__(self):
        return self.v


class MyInt(int):
    pass


class MyFloat(float):
    pass


class LoudList(list):
    """A list subclass whose ``append`` also counts (the count is observable)."""

    appended = 0

    def append(self, x):
        LoudList.appended += 1
        super().append(x)


class QuietList(list):
    pass


# ============================================================================ masks

def _mask_pos(x):
    return x[x > 0] * 2.0


case(_mask_pos, (V,), (NEG,), (POS,), (EMPTY,), (NANS,))


def _mask_sum_len(x):
    y = x[x > 0]
    return y.sum(), len(y), y.shape


case(_mask_sum_len, (V,), (NEG,), (EMPTY,), (POS,))


def _mask_mean_of_none(x):
    return x[x > 10].mean()     # an empty mean: RuntimeWarning, nan


case(_mask_mean_of_none, (V,), (POS,))


def _mask_max_of_none(x):
    return x[x > 10].max()      # ValueError: zero-size array


case(_mask_max_of_none, (V,), (_v(11.0, 12.0),), (EMPTY,))


def _mask_len_as_python(x):
    y = x[x > 0]
    if len(y) > 2:
        return "many", y
    return "few", len(y)


case(_mask_len_as_python, (V,), (NEG,), (POS,), (EMPTY,))


def _mask_from_list(x, keep):
    return x[keep]


case(_mask_from_list, (POS, [True, False, True]), (POS, [False, False, False]),
     (POS, [True, True]), (POS, [1, 0, 1]))


def _mask_shape_mismatch(x, m):
    return x[m]


case(_mask_shape_mismatch, (POS, POS > 1), (POS, _v(1.0, 2.0) > 1), (POS, V > 0))


def _mask_write_input(x):
    x[x < 0] = 0.0
    return x


case(_mask_write_input, (V.copy(),), (NEG.copy(),), (EMPTY.copy(),))


def _mask_alias_write(x, y):
    x[y > 0] = -y[y > 0]
    return x, y


case(_mask_alias_write, lambda: (lambda a: (a, a))(V.copy()),
     lambda: (V.copy(), V.copy()), lambda: (lambda a: (a, a))(NEG.copy()))


def _mask_of_ints(v):
    return v[v % 2 == 0] // 2, v[v > 100]


case(_mask_of_ints, (IV,), (np.array([1, 3], dtype=np.int64),), (IV.astype(np.int8),))


def _mask_result_is_copy(x):
    y = x[x > 0]
    y += 100
    return x, y


case(_mask_result_is_copy, (V,), (NEG,))


def _mask_nan_compare(x):
    return x[x == x], x[~(x == x)]


case(_mask_nan_compare, (NANS,), (V,))


def _mask_iadd_twice(x):
    m = x > 0
    x[m] += 1
    x[m] *= 2
    return x, m.sum()


case(_mask_iadd_twice, (V.copy(),), (NEG.copy(),))


def _mask_changed_after(x):
    m = x > 0
    a = x[m]
    m[:] = True
    return a, x[m]


case(_mask_changed_after, (V,), (EMPTY,))


def _nonzero_then_index(x, other):
    idx = np.nonzero(x > 0)[0]
    return other[idx]


case(_nonzero_then_index, (V, np.arange(6.0)), (V, np.arange(3.0)), (NEG, np.arange(2.0)))


def _nonzero_2d(a):
    i, j = np.nonzero(a)
    return i, j, a[i, j].sum()


case(_nonzero_2d, (np.eye(3),), (np.zeros((2, 2)),), (np.ones((1, 4)),))


def _nonzero_count_int(x):
    n = np.count_nonzero(x > 0)
    return np.zeros(n), int(n) * 2


case(_nonzero_count_int, (V,), (NEG,), (POS,))


def _argwhere_empty(a):
    w = np.argwhere(a > 5)
    return w, w.shape, w.sum(axis=0)


case(_argwhere_empty, (np.arange(6.0).reshape(2, 3),), (np.arange(12.0).reshape(3, 4),))


def _flatnonzero_arange(x):
    idx = np.flatnonzero(x > 0)
    return np.arange(len(idx)) + idx


case(_flatnonzero_arange, (V,), (NEG,), (POS,))


def _unique_basic(x):
    return np.unique(np.round(x))


case(_unique_basic, (V,), (EMPTY,), (NANS,), (_v(1.0, 1.0, 1.0),))


def _unique_counts_argmax(x):
    values, counts = np.unique(x, return_counts=True)
    return values[np.argmax(counts)]


case(_unique_counts_argmax, (_v(1.0, 2.0, 2.0),), (EMPTY,), (POS,))


def _unique_inverse_2d(a):
    values, inverse = np.unique(a, return_inverse=True)
    return values, inverse, values[inverse]


case(_unique_inverse_2d, (np.array([[1, 2], [2, 1]]),), (np.array([[3, 3, 3]]),))


def _unique_bools(m):
    return np.unique(m), np.unique(m, return_counts=True)[1]


case(_unique_bools, (V > 0,), (NEG > 0,), (np.zeros(0, dtype=bool),))


def _bincount_basic(labels):
    return np.bincount(labels)


case(_bincount_basic, (np.array([0, 1, 1, 3]),), (np.array([], dtype=np.int64),),
     (np.array([2, -1]),), (np.array([0.0, 1.0]),))


def _bincount_minlength(labels, n):
    return np.bincount(labels, minlength=n)


case(_bincount_minlength, (np.array([0, 1, 1]), 5), (np.array([0, 1, 1]), 1),
     (np.array([0, 4]), 0), (np.array([0, 1]), -1), (np.array([0, 1]), np.int64(4)))


def _bincount_weights_dtype(labels, w):
    return np.bincount(labels, weights=w)


case(_bincount_weights_dtype, (np.array([0, 2]), np.array([1.5, 2.0], dtype=np.float32)),
     (np.array([0, 2]), np.array([1, 2])), (np.array([0, 2]), np.array([1.0])))


def _bincount_of_mask(labels):
    return np.bincount(labels[labels >= 0])


case(_bincount_of_mask, (IV,), (np.array([-1, -2]),))


def _selection_into_list(x, out):
    out.append(x[x > 0])
    out.append(len(out))
    return out


case(_selection_into_list, (V, []), (NEG, [1]), (POS, []))


def _selection_sort_search(x):
    y = np.sort(x[x > -1])
    return y, np.searchsorted(y, 0.0)


case(_selection_sort_search, (V,), (NEG,), (EMPTY,))


def _selection_cumsum_last(x):
    c = np.cumsum(x[x > 0])
    return c[-1]          # IndexError when nothing is selected


case(_selection_cumsum_last, (V,), (NEG,), (POS,))


def _add_at_selection(x):
    idx = np.nonzero(x > 0)[0]
    acc = np.zeros(3)
    np.add.at(acc, idx % 3, x[idx])
    return acc


case(_add_at_selection, (V,), (NEG,), (POS,))


def _where_one_arg_two_d(a):
    r, c = np.where(a > 1)
    return r * 10 + c


case(_where_one_arg_two_d, (np.arange(6.0).reshape(2, 3),), (np.zeros((3, 0)),))


@scenario
def s_mask_global_threshold(r):
    """A global threshold read by a mask, rebound between calls (int, float, bool)."""
    f = r.compile(_mask_above_threshold)
    for t in (0, 0.5, True, np.float32(2.5), -10, MyFloat(1.0)):
        r.patch(globals(), "THRESHOLD", t)
        r.call(f, V)


THRESHOLD = 0


def _mask_above_threshold(x):
    return x[x > THRESHOLD], THRESHOLD


# ============================================================================ numbers as inputs

def _decay(x, t):
    return x * 0.9 ** t


case(_decay, (POS, 1), (POS, 2), (POS, 3), (POS, True), (POS, 2.5), (POS, np.int64(4)),
     (POS, -1), (POS, 0), calls=1)


def _decay_big_int(x, t):
    return x * 0.5 ** t


case(_decay_big_int, (POS, 3), (POS, 4), (POS, 2 ** 70), (POS, -(2 ** 70)), (POS, 10 ** 400),
     calls=1)


def _int_times_int8(x, k):
    return x + k      # NEP 50: a Python int outside int8 raises OverflowError


case(_int_times_int8, (np.array([1, 2], dtype=np.int8), 3),
     (np.array([1, 2], dtype=np.int8), 4), (np.array([1, 2], dtype=np.int8), 300),
     (np.array([1, 2], dtype=np.int8), np.int64(300)), (np.array([1, 2], dtype=np.int8), 1.5),
     calls=1)


def _float_keeps_float32(x, lr):
    return x * lr


case(_float_keeps_float32, (np.ones(3, np.float32), 0.1), (np.ones(3, np.float32), 0.2),
     (np.ones(3, np.float32), np.float64(0.2)), (np.ones(3, np.float32), 1e300),
     (np.ones(3, np.float32), 2), (np.ones(3, np.float32), 1j), calls=1)


def _index_object(x, t):
    return x * 0.9 ** t


case(_index_object, (POS, 1), (POS, 2), (POS, Idx(3)), (POS, Flt(2.0)), (POS, MyInt(2)),
     (POS, MyFloat(0.5)), calls=1)


def _int_in_shape(n):
    return np.zeros(n) + n, np.arange(n)


case(_int_in_shape, (3,), (4,), (0,), (True,), (np.int32(2),), (-1,), (2.0,), (Idx(2),),
     calls=1)


def _int_as_index(x, i):
    return x[i], x[i:], x[-i]


case(_int_as_index, (V, 1), (V, 2), (V, 0), (V, 5), (V, 6), (V, -7), (V, True),
     (V, np.int8(3)), (V, Idx(1)), (V, 1.0), calls=1)


def _float_div(x, d):
    return x / d, 1.0 / d


case(_float_div, (POS, 2.0), (POS, 3.0), (POS, 0.0), (POS, -0.0), (POS, 0), (POS, float("inf")),
     (POS, float("nan")), calls=1)


def _int_floordiv(x, d):
    return x // d, 7 // d


case(_int_floordiv, (IV, 2), (IV, 3), (IV, 0), (IV, -2), (IV, True), calls=1)


def _power_int_exponent(x, p):
    return x ** p


case(_power_int_exponent, (IV, 2), (IV, 3), (IV, -1), (IV.astype(np.float64), -1), (IV, 0.5),
     calls=1)


def _bool_flag_number(x, flag):
    return x * flag + flag


case(_bool_flag_number, (POS, True), (POS, False), (POS, 1), (POS, 0.0), (POS, np.bool_(True)),
     calls=1)


class Model:
    def __init__(self, lr, step=0):
        self.lr, self.step = lr, step

    def update(self, w, g):
        self.step += 1
        return w - self.lr * (0.9 ** self.step) * g


@scenario
def s_attribute_numbers_change(r):
    """``self.lr`` and ``self.step`` are graph inputs; they change, and change type."""
    m = Model(0.1)
    f = r.compile(Model.update)
    w = POS.copy()
    for lr in (0.1, 0.2, 1, True, np.float32(0.5), MyFloat(0.25), 2 ** 80):
        m.lr = lr
        w = r.call(f, m, w, POS)
        r.see("step", m.step)
        if w is None:
            w = POS.copy()


@scenario
def s_attribute_step_becomes_float(r):
    m = Model(0.1, step=0)
    f = r.compile(Model.update)
    for step in (1, 2, 2.5, -3, np.int64(5)):
        m.step = step
        r.call(f, m, POS, POS)
        r.see("step", (type(m.step).__name__, m.step))


SCALE = 2


def _global_scale(x):
    return x * SCALE + SCALE ** 2


@scenario
def s_global_number_rebinds(r):
    f = r.compile(_global_scale)
    for s in (2, 3, 2.5, True, np.int16(7), 10 ** 30, Flt(1.0)):
        r.patch(globals(), "SCALE", s)
        r.call(f, POS)


def _number_then_python_use(x, n):
    y = x * n
    return y, [n] * 2, str(n), n == 2


case(_number_then_python_use, (POS, 2), (POS, 3), (POS, 2.0), (POS, True), calls=1)


def _number_compared(x, t):
    if t > 2:
        return x + t
    return x - t


case(_number_compared, (POS, 1), (POS, 2), (POS, 3), (POS, 2.5), (POS, float("nan")), calls=1)


def _number_mod_neg(x, k):
    return x % k, -7 % k


case(_number_mod_neg, (IV, 3), (IV, 4), (IV, -3), (IV.astype(float), 2.5), calls=1)


def _number_accumulates(x, acc):
    for i in range(3):
        acc = acc + x.sum() * i
    return acc


case(_number_accumulates, (POS, 0), (POS, 1), (POS, 0.5), (POS, np.float32(1)), calls=1)


def _number_int_overflow_shift(x, k):
    return x << k


case(_number_int_overflow_shift, (IV, 1), (IV, 2), (IV, 63), (IV, 64), (IV, -1), calls=1)


def _number_complex(x, c):
    return x * c, abs(c)


case(_number_complex, (POS, 1.0), (POS, 2.0), (POS, 1j), (POS, 1 + 2j), calls=1)


def _number_round_trip(x, t):
    return float(x.sum() * t), int(x[0] * t)


case(_number_round_trip, (POS, 1), (POS, 2), (POS, 1e308), (POS, float("inf")), calls=1)


# ============================================================================ append-only state

class Tracker:
    def __init__(self, log=None):
        self.log = [] if log is None else log

    def step(self, x):
        y = np.tanh(x)
        self.log.append(float(y.sum()))
        return y * 2


@scenario
def s_log_aliased_by_caller(r):
    """The caller keeps the same list and reads it between calls."""
    t = Tracker()
    f = r.compile(Tracker.step)
    for _ in range(3):
        r.call(f, t, V)
        r.see("log", list(t.log))
        r.see("log is", t.log is t.__dict__["log"])


@scenario
def s_log_cleared_between_calls(r):
    t = Tracker()
    f = r.compile(Tracker.step)
    r.call(f, t, V)
    t.log.clear()
    r.call(f, t, V)
    t.log = []
    r.call(f, t, POS)
    r.see("log", t.log)


@scenario
def s_log_replaced_by_tuple(r):
    t = Tracker()
    f = r.compile(Tracker.step)
    r.call(f, t, V)
    t.log = ()
    r.call(f, t, V)          # AttributeError: 'tuple' object has no attribute 'append'
    t.log = collections.deque()
    r.call(f, t, V)
    r.see("log", list(t.log))


@scenario
def s_log_becomes_subclass(r):
    LoudList.appended = 0
    t = Tracker()
    f = r.compile(Tracker.step)
    r.call(f, t, V)
    t.log = LoudList(t.log)
    r.call(f, t, V)
    r.call(f, t, V)
    t.log = QuietList()
    r.call(f, t, V)
    r.see("log", (type(t.log).__name__, list(t.log), LoudList.appended))


@scenario
def s_log_shared_by_two_trackers(r):
    shared = []
    a, b = Tracker(shared), Tracker(shared)
    f = r.compile(Tracker.step)
    r.call(f, a, V)
    r.call(f, b, POS)
    r.call(f, a, NEG)
    r.see("shared", shared)


@scenario
def s_log_mutated_by_callback(r):
    t = Tracker()
    f = r.compile(Tracker.step)

    def callback():
        t.log.insert(0, "cb")
        del t.log[-1:]
    for _ in range(3):
        r.call(f, t, V)
        callback()
        r.see("log", list(t.log))


def _append_then_read(log, x):
    log.append(x.sum())
    last = log[-1]
    n = len(log)
    return last * n, n


case(_append_then_read, ([], V), ([1.0, 2.0], POS), (QuietList([3.0]), NEG))


def _append_same_array_twice(log, x):
    y = x + 1
    log.append(y)
    log.append(y)
    return y


@scenario
def s_append_identity(r):
    log = []
    f = r.compile(_append_same_array_twice)
    y = r.call(f, log, V)
    r.see("same", [a is b for a, b in zip(log[::2], log[1::2])])
    r.see("result is appended", log[-1] is y)


def _append_view_then_write(log, x):
    log.append(x[:2])
    x[0] = 99.0
    return len(log)


case(_append_view_then_write, ([], V.copy()), ([], POS.copy()))


def _append_and_raise(log, x):
    log.append("before")
    y = x[x > 0].max()      # ValueError when nothing is positive
    log.append(float(y))
    return y


case(_append_and_raise, ([], V), ([], NEG), ([], POS))


def _append_in_loop(log, x, n):
    for i in range(n):
        x = x * 0.5 + 1.0
        log.append(i)
    return x, len(log)


case(_append_in_loop, ([], POS, 3), ([], POS, 4), ([], POS, 0), ([9], POS, 2), calls=1)


def _append_then_raise_at_trip(log, x, k):
    for i in range(5):
        log.append(i)
        if i == k:
            raise ValueError(i, len(log))
        x = x + i
    return x


case(_append_then_raise_at_trip, ([], POS, 2), ([], POS, 3), ([], POS, 9), ([], POS, 0),
     calls=1)


def _log_is_argument_twice(a, b, x):
    a.append(x.sum())
    b.append(x.max())
    return a is b, len(a), len(b)


case(_log_is_argument_twice, lambda: (lambda s: (s, s, V))([]), lambda: ([], [], V),
     lambda: (lambda s: (s, s, POS))([1]))


def _extend_and_iadd(log, x):
    log.extend([x.min(), x.max()])
    log += [x.sum()]
    log.insert(0, len(log))
    return log


case(_extend_and_iadd, ([], V), ([0], POS), (QuietList(), NEG))


def _append_returns_none(log, x):
    r = log.append(x)
    return r, log[-1] is x


case(_append_returns_none, ([], V), ([1], POS))


HISTORY = []


def _append_global(x):
    HISTORY.append(x.mean())
    return x - HISTORY[-1], len(HISTORY)


case(_append_global, (V,), (POS,), setup=HISTORY.clear, watch=lambda: list(HISTORY))


@scenario
def s_append_global_rebound(r):
    global HISTORY
    f = r.compile(_append_global)
    r.patch(globals(), "HISTORY", [])
    r.call(f, V)
    r.patch(globals(), "HISTORY", [1.0, 2.0])
    r.call(f, V)
    r.patch(globals(), "HISTORY", LoudList())
    r.call(f, V)
    r.see("history", list(HISTORY))


def _append_to_frozen(log, x):
    log.append(x)
    return x


case(_append_to_frozen, ([], V), ((), V), ([], POS))


def _append_float_of_loss(hist, w, x):
    for _ in range(3):
        loss = ((w * x) ** 2).sum()
        hist.append(float(loss))
        w = w - 0.1 * w
    return w, hist


case(_append_float_of_loss, ([], POS, V[:3]), ([0.5], NEG, V[:3]), ([], POS, POS))


def _deque_maxlen(d, x):
    d.append(x.sum())
    return list(d), len(d)


case(_deque_maxlen, (collections.deque(maxlen=2), V), (collections.deque([1, 2], maxlen=2), POS))


def _append_to_dict_of_lists(logs, key, x):
    logs.setdefault(key, []).append(x.sum())
    return logs


case(_append_to_dict_of_lists, ({}, "a", V), ({"a": [1]}, "a", POS), ({}, 1, NEG))


# ============================================================================ lists of ints as data

WTE = np.arange(20.0).reshape(10, 2)


def _embed(wte, ids):
    return wte[ids]


case(_embed, (WTE, [1, 2, 3]), (WTE, [4, 5]), (WTE, []), (WTE, [9, -1, -10]),
     (WTE, [10]), (WTE, [True, False]), (WTE, [np.int64(2), 3]), (WTE, [Idx(1), 2]),
     (WTE, QuietList([0, 1])), (WTE, [1.0, 2.0]), (WTE, [[1, 2], [3, 4]]),
     (WTE, [2 ** 70]), calls=1)


def _embed_tuple(wte, ids):
    return wte[ids]          # a tuple indexes several dimensions


case(_embed_tuple, (WTE, (1, 0)), (WTE, (2, 1)), (WTE, (1,)), (WTE, (1, 2, 3)), calls=1)


@scenario
def s_ids_appended_between_calls(r):
    ids = [0, 1]
    f = r.compile(_embed)
    for k in range(4):
        r.call(f, WTE, ids)
        ids.append(k + 2)
    ids[0] = 9
    r.call(f, WTE, ids)
    ids.clear()
    r.call(f, WTE, ids)


def _ids_python_and_data(wte, ids):
    return wte[ids].sum(axis=0) + sum(ids), len(ids), max(ids)


case(_ids_python_and_data, (WTE, [1, 2]), (WTE, [3, 4, 5]), (WTE, []), (WTE, [1, 1]), calls=1)


def _ids_as_array_and_index(wte, ids):
    a = np.array(ids)
    return wte[a] * a[:, None], a.dtype


case(_ids_as_array_and_index, (WTE, [1, 2]), (WTE, [3, 4, 5]), (WTE, [True]), (WTE, [1, 2.5]),
     calls=1)


def _ids_mutated_after(wte, ids):
    out = wte[ids]
    ids.append(0)
    ids[0] = 7
    return out, wte[ids]


case(_ids_mutated_after, (WTE, [1, 2]), (WTE, [3]), (WTE, []), calls=1)


def _ids_same_list_twice(a, b, wte):
    return wte[a] + wte[b], a is b


case(_ids_same_list_twice, lambda: (lambda s: (s, s, WTE))([1, 2]),
     lambda: ([1, 2], [3, 4], WTE), lambda: ([1, 2], [3], WTE))


def _ids_positional_embed(wte, wpe, ids):
    pos = list(range(len(ids)))
    return wte[ids] + wpe[pos]


case(_ids_positional_embed, (WTE, WTE[::-1].copy(), [1, 2]), (WTE, WTE[::-1].copy(), [3, 4, 5]),
     (WTE, WTE[::-1].copy(), list(range(11))), calls=1)


def _ids_loop_sum(wte, ids):
    total = np.zeros(2)
    for i in ids:
        total = total + wte[i]
    return total


case(_ids_loop_sum, (WTE, [1, 2]), (WTE, [3, 4, 5]), (WTE, []), (WTE, [1, 99]), calls=1)


def _ids_write(table, ids, v):
    table[ids] = v
    return table


case(_ids_write, (np.zeros(5), [1, 2], 1.0), (np.zeros(5), [1, 1], 2.0), (np.zeros(5), [], 3.0),
     (np.zeros(5), [5], 1.0), calls=1)


def _ids_add_at(table, ids):
    np.add.at(table, ids, 1.0)
    return table


case(_ids_add_at, (np.zeros(4), [0, 0, 1]), (np.zeros(4), [3]), (np.zeros(4), []), calls=1)


def _ids_of_int8(ids):
    a = np.array(ids, dtype=np.int8)
    return a * 2


case(_ids_of_int8, ([1, 2],), ([3, 4, 5],), ([200],), ([-129],), calls=1)


def _ids_nested_lengths(wte, ids):
    return wte[ids]


case(_ids_nested_lengths, (WTE, [[1, 2], [3, 4]]), (WTE, [[1], [2]]), (WTE, [[1, 2], [3]]),
     calls=1, name="ids_ragged")


@scenario
def s_ids_list_subclass_with_getitem(r):
    class Weird(list):
        def __getitem__(self, i):
            return super().__getitem__(i) + 1

    f = r.compile(_ids_loop_sum)
    r.call(f, WTE, [1, 2])
    r.call(f, WTE, Weird([1, 2]))
    r.call(f, WTE, Weird([8, 2]))
    f2 = r.compile(_embed)
    r.call(f2, WTE, Weird([1, 2]))


# ============================================================================ loop nodes, symbolic sizes

def _loop_over_rows(a):
    out = np.zeros(a.shape[1])
    for i in range(a.shape[0]):
        out = out * 0.5 + a[i]
    return out


case(_loop_over_rows, (np.ones((3, 2)),), (np.ones((4, 2)),), (np.ones((5, 2)),),
     (np.ones((0, 2)),), (np.ones((1, 2)),), calls=1)


def _loop_prefix(x):
    y = x.copy()
    for i in range(1, len(x)):
        y[i] = y[i - 1] + x[i]
    return y


case(_loop_prefix, (POS,), (V,), (np.ones(7),), (EMPTY,), (_v(1.0),), calls=1)


def _loop_trip_from_int(x, n):
    for _ in range(n):
        x = x * 1.5 - 0.25
    return x


case(_loop_trip_from_int, (POS, 3), (POS, 5), (POS, 8), (POS, 0), (POS, -2), (POS, True),
     (POS, np.int64(4)), (POS, Idx(2)), calls=1)


def _loop_step_arg(x, step):
    acc = 0.0
    for i in range(0, len(x), step):
        acc = acc + x[i]
    return acc


case(_loop_step_arg, (V, 1), (V, 2), (V, 3), (V, -1), (V, 0), calls=1)


def _loop_reversed(x):
    y = np.zeros_like(x)
    for i in reversed(range(len(x))):
        y[i] = x[i] * i
    return y


case(_loop_reversed, (POS,), (V,), (EMPTY,), calls=1)


def _loop_int8_accumulator(x):
    acc = np.int8(0)
    for i in range(len(x)):
        acc = acc + x[i]
    return acc


case(_loop_int8_accumulator, (np.array([100, 20], dtype=np.int8),),
     (np.array([100, 20, 10], dtype=np.int8),), (np.array([100, 100, 100], dtype=np.int8),),
     calls=1)


def _loop_raises_at_k(x, k):
    y = x.copy()
    for i in range(len(x)):
        y[i] = y[i] / (i - k) if i != k else x[i + 100]
    return y


case(_loop_raises_at_k, (POS, 1), (V, 2), (V, 10), (POS, 0), calls=1)


def _loop_triangular(a):
    n = a.shape[0]
    out = np.zeros(n)
    for i in range(n):
        out[i] = a[i, :i + 1].sum()
    return out


case(_loop_triangular, (np.ones((3, 3)),), (np.arange(16.0).reshape(4, 4),),
     (np.ones((0, 0)),), (np.ones((5, 5)),), calls=1)


def _loop_break_on_value(x):
    total = 0.0
    for i in range(len(x)):
        if x[i] < 0:
            break
        total += x[i]
    return total, i if len(x) else None


case(_loop_break_on_value, (POS,), (V,), (_v(1.0, -1.0, 5.0),), (EMPTY,), calls=1)


def _loop_two_sizes(a, b):
    s = 0.0
    for i in range(len(a)):
        for j in range(len(b)):
            s = s + a[i] * b[j]
    return s


case(_loop_two_sizes, (POS, V), (V, POS), (POS[:1], V), (EMPTY, V), calls=1)


def _loop_appends_selection(x, out):
    for i in range(len(x)):
        if x[i] > 0:
            out.append(i)
    return out


case(_loop_appends_selection, (V, []), (NEG, []), (POS, [7]), calls=1)


def _loop_over_list_of_ints(x, ks):
    for k in ks:
        x = x * k
    return x


case(_loop_over_list_of_ints, (POS, [1, 2]), (POS, [3, 4, 5]), (POS, []), (POS, [True, 2.5]),
     (POS, QuietList([2])), calls=1)


def _loop_carries_python_int(x):
    n = 0
    for i in range(len(x)):
        n = n * 31 + 7
        x = x + 1
    return x, n


case(_loop_carries_python_int, (np.ones(3),), (np.ones(30),), (np.ones(4),), calls=1)


# ============================================================================ while loops

def _while_halving(x, tol):
    n = 0
    while np.abs(x).max() > tol:
        x = x * 0.5
        n += 1
    return x, n


case(_while_halving, (POS, 0.5), (POS, 0.1), (POS, 5.0), (EMPTY + 1, 0.1), calls=1)


def _while_print_small(x, n):
    i = 0
    while i < n:
        x = np.sin(x) + 0.5
        print(i, end=",")
        i += 1
    return x, i


case(_while_print_small, (POS, 3), (POS, 0), (POS, 5), calls=1)


def _while_big_print(x, n):
    i = 0
    while i < n:
        x = np.tanh(x) * 1.01 + 0.5
        print(i)
        i += 1
    return x.sum(), i


case(_while_big_print, (np.ones(BIG), 3), (np.ones(BIG), 4), (np.ones(BIG), 0), calls=1)


def _while_big_break(x, limit):
    i = 0
    while True:
        x = x * 0.5 + 0.1
        print(i)
        if i >= limit:
            break
        i += 1
    return x.sum(), i


case(_while_big_break, (np.ones(BIG), 2), (np.ones(BIG), 0), (np.ones(BIG), 3), calls=1)


def _while_big_raise(x, k, log):
    i = 0
    while i < 5:
        log.append(i)
        print(i)
        if i == k:
            raise KeyError(i)
        x = x + i
        i += 1
    return x.sum(), log


case(_while_big_raise, (np.ones(BIG), 2, []), (np.ones(BIG), 9, []), (np.ones(BIG), 0, []),
     calls=1)


def _while_big_continue(x):
    i = 0
    s = 0.0
    while i < 4:
        i += 1
        print(i)
        if i % 2:
            continue
        x = x * 2
        s += float(x[0])
    return s, x.sum()


case(_while_big_continue, (np.ones(BIG),), (np.zeros(BIG),), calls=1)


def _while_big_else(x, stop):
    i = 0
    while i < 3:
        print(i)
        x = x + 1
        if i == stop:
            break
        i += 1
    else:
        x = x * 100
    return x.sum(), i


case(_while_big_else, (np.ones(BIG), 1), (np.ones(BIG), 9), calls=1)


def _while_big_return_inside(x, k):
    i = 0
    while i < 5:
        print(i)
        x = x - 1
        if i == k:
            return "early", x.sum(), i
        i += 1
    return "late", x.sum(), i


case(_while_big_return_inside, (np.ones(BIG), 1), (np.ones(BIG), 7), calls=1)


def _while_big_test_on_data(x):
    n = 0
    while x.sum() > 1.0:
        print(n)
        x = x * 0.25
        n += 1
    return n, x.sum()


case(_while_big_test_on_data, (np.ones(BIG),), (np.zeros(BIG),), (np.full(BIG, 1e-3),),
     calls=1)


def _while_big_appends(x, log):
    while len(log) < 3:
        print(len(log))
        x = x + 1
        log.append(float(x[0]))
    return x.sum(), log


case(_while_big_appends, (np.ones(BIG), []), (np.ones(BIG), [1, 2, 3]), (np.ones(BIG), [0]),
     calls=1)


def _while_big_rebinds_dtype(x):
    i = 0
    while i < 3:
        print(i)
        x = (x * 2).astype(np.float32) if i == 1 else x + 1
        i += 1
    return x.dtype, x.sum()


case(_while_big_rebinds_dtype, (np.ones(BIG),), calls=1)


def _while_big_inplace(x, n):
    i = 0
    while i < n:
        print(i)
        x += 1
        i += 1
    return i


case(_while_big_inplace, (np.ones(BIG), 2), (np.ones(BIG), 3), calls=1)


def _while_big_nested(x):
    i = 0
    while i < 2:
        j = 0
        while j < 2:
            print(i, j)
            x = x + i * j
            j += 1
        i += 1
    return x.sum()


case(_while_big_nested, (np.ones(BIG),), calls=1)


def _while_big_mask_inside(x):
    i = 0
    while i < 3:
        print(i)
        x[x > i] -= 1
        i += 1
    return x.sum(), np.count_nonzero(x > 0)


case(_while_big_mask_inside, (np.linspace(0, 5, BIG),), (np.zeros(BIG),), calls=1)


def _while_big_float_counter(x, step):
    t = 0.0
    while t < 1.0:
        print(t)
        x = x * 0.9
        t += step
    return x.sum(), t


case(_while_big_float_counter, (np.ones(BIG), 0.5), (np.ones(BIG), 0.3), (np.ones(BIG), 2),
     calls=1)


@scenario
def s_while_small_outlined_on_purpose(r):
    """``outline_min_elements = 0``: small bodies are outlined too."""
    r.patch(dynamo.config, "outline_min_elements", 0)
    f = r.compile(_while_print_small)
    for n in (2, 3, 0, 4):
        r.call(f, POS, n)
    g = r.compile(_while_big_raise)
    for k in (1, 7, 0):
        r.call(g, POS, k, [])
    h = r.compile(_while_big_appends)
    log = []
    r.call(h, POS, log)
    r.call(h, POS, log)
    r.see("log", log)


# ============================================================================ more: types that change

def _bool_array_times(m, k):
    return m * k, m + k     # bool * True stays bool; bool * 2 is int64


case(_bool_array_times, (V > 0, 2), (V > 0, 3), (V > 0, True), (V > 0, 1.0), (V > 0, False),
     calls=1)


def _uint8_minus(x, k):
    return x - k, x + k


case(_uint8_minus, (np.array([5, 9], np.uint8), 1), (np.array([5, 9], np.uint8), 2),
     (np.array([5, 9], np.uint8), -1), (np.array([5, 9], np.uint8), 256), calls=1)


def _int64_plus_huge(x, k):
    return x + k


case(_int64_plus_huge, (IV, 1), (IV, 2), (IV, 2 ** 62), (IV, 2 ** 63), (IV, -(2 ** 63)),
     calls=1)


def _sqrt_power(x, p):
    return x ** p


case(_sqrt_power, (V, 2), (V, 3), (V, 0.5), (V, -1), (V, 2.0), calls=1)


def _zero_d_array_number(x, t):
    return x * t, type(t).__name__


case(_zero_d_array_number, (POS, 2.0), (POS, 3.0), (POS, np.array(2.0)), (POS, np.float16(2)),
     calls=1)


def _number_becomes_none(x, t):
    return x * (1 if t is None else t)


case(_number_becomes_none, (POS, 2), (POS, 3), (POS, None), (POS, 4), calls=1)


def _number_used_twice_in_graph_and_python(x, t):
    y = x * t
    if t:
        y = y + 1
    return y, t * 2


case(_number_used_twice_in_graph_and_python, (POS, 2), (POS, 3), (POS, 0), (POS, 0.0),
     (POS, -0.0), (POS, False), (POS, float("nan")), calls=1)


def _append_array_then_mutate(log, x):
    y = x * 2
    log.append(y)
    y += 1
    return log[-1] is y, log[-1]


case(_append_array_then_mutate, ([], POS), ([1], V))


def _append_print_append(log, x):
    log.append(1)
    print("between", len(log))
    y = np.exp(x)
    log.append(float(y[0]))
    return len(log)


case(_append_print_append, ([], POS), ([0, 0], V))


def _append_pop(log, x):
    log.append(x.sum())
    log.append(x.max())
    a = log.pop()
    log[-1] = log[-1] * 2
    return a, log


case(_append_pop, ([], POS), ([5.0], V), ([], EMPTY))


def _ids_iadd_duplicates(table, ids):
    table[ids] += 1
    return table


case(_ids_iadd_duplicates, (np.zeros(4), [0, 0, 1]), (np.zeros(4), [2, 2, 2, 3]),
     (np.zeros(4), []), (np.zeros(4), [-1, 3]), calls=1)


def _loop_wraps_around(x):
    y = x.copy()
    for i in range(len(x)):
        y[i] = y[i - 1] * 2 + 1       # i - 1 is -1 at i = 0: the last element
    return y


case(_loop_wraps_around, (POS,), (V,), (np.ones(1),), calls=1)


def _loop_slices_clamp(x):
    out = []
    for i in range(len(x)):
        out.append(x[i:i + 2].sum())
    return out


case(_loop_slices_clamp, (POS,), (V,), (EMPTY,), calls=1)


def _while_symbolic_len(x):
    i = 0
    s = 0.0
    while i < len(x):
        s = s + x[i] * i
        i += 2
    return s, i


case(_while_symbolic_len, (POS,), (V,), (EMPTY,), (np.ones(7),), calls=1)


def _mask_then_number_input(x, t):
    y = x[x > t]
    return y * t, len(y)


case(_mask_then_number_input, (V, 0), (V, 1), (V, 0.5), (V, True), (V, 100), (V, np.nan),
     calls=1)


def _unique_of_list_of_ints(ids):
    return np.unique(ids), np.bincount(ids)


case(_unique_of_list_of_ints, ([1, 1, 2],), ([3, 0],), ([],), ([2, -1],), calls=1)


def _nonzero_of_list(ids):
    return np.nonzero(ids)


case(_nonzero_of_list, ([0, 1, 2],), ([0, 0],), ([True, False, True],), calls=1)


def _bincount_of_list_weights(ids, w):
    return np.bincount(ids, weights=w)


case(_bincount_of_list_weights, ([0, 1, 1], [0.5, 1.0, 2.0]), ([2], [1]), ([0, 1], [1.0]),
     calls=1)


def _mask_assign_number(x, v):
    y = x.copy()
    y[y > 0] = v
    return y


case(_mask_assign_number, (V, 1.0), (V, 2.0), (V, 5), (V, True), (V, np.nan),
     (IV, 2.7), (IV, 2 ** 70), calls=1)


class Scheduler:
    def __init__(self):
        self.t = 0
        self.history = []

    def __call__(self, x):
        self.t += 1
        lr = 0.5 ** self.t
        self.history.append(lr)
        return x * lr


@scenario
def s_scheduler_object(r):
    s = Scheduler()
    f = r.compile(s)
    for k in range(4):
        r.call(f, POS)
        r.see("state", (s.t, list(s.history)))
        if k == 1:
            s.t = 2.5
        if k == 2:
            s.t = True


@scenario
def s_scheduler_history_aliased(r):
    s = Scheduler()
    keep = s.history
    f = r.compile(s)
    r.call(f, POS)
    s.history = keep[:]       # another list, same contents
    r.call(f, POS)
    r.call(f, POS)
    r.see("lists", (keep, s.history, keep is s.history))


def _gpt_like_step(wte, ids, log, temp):
    h = wte[ids].mean(axis=0) / temp
    p = np.exp(h - h.max())
    p = p / p.sum()
    nxt = int(np.argmax(p))
    ids.append(nxt % wte.shape[0])
    log.append(nxt)
    return p, ids, log


case(_gpt_like_step, (WTE, [1, 2], [], 1.0), (WTE, [3], [], 0.5), (WTE, [1, 2, 3, 4], [9], 2),
     (WTE, [0], [], np.float32(1.5)), calls=2)


@scenario
def s_generate_loop(r):
    """A generation loop: the ids list grows by one every call, the temperature
    changes type."""
    f = r.compile(_gpt_like_step)
    ids, log = [1], []
    for temp in (1.0, 0.7, 1, True, np.float64(0.3), MyFloat(2.0)):
        r.call(f, WTE, ids, log, temp)
    r.see("final", (list(ids), list(log)))
