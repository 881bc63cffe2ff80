"""Round 13, changing ints as indices (``dynamo/symbolic/indices.py``,
``OutputGraph._fit``/``_index_out_of_bounds``): an int that changes between calls and
is a component of an index (``x[i]``, ``grid[i, j]``, ``buf[ptr] = v``, ``t[[i, j]]``)
is a graph input that NumPy bounds-checks when the graph runs. Attacked here: indices
in and out of bounds, negative, huge (past int64), bools and NumPy ints where ints
were, floats; reads that are never used, inside and outside ``try``; writes with
broadcasting, casts that fail, read-only targets; 0-size axes; the order of the
``IndexError`` against prints, list appends, input writes and warnings before and
after it; indices reached through attributes, lists, globals and closures.

    >>> def _store(buf, i, v):
    ...     buf[i] = v
    ...     return buf
    >>> # i = 0, 1, 3, 4 (out of bounds), -4, -5: NumPy's IndexError on the right calls
"""

import warnings

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round13_indices")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
G = np.arange(12.0).reshape(3, 4)
I8 = np.array([1, 2, 3, 4], np.int8)


def _seq(*values, arg=X):
    return [(arg, v) for v in values]


# --------------------------------------------------------------------------- reads

def _read(x, i):
    return x[i]


def _read_scaled(x, i):
    return x[i] * 2.0 + i


def _read_unused(x, i):
    y = x[i]          # noqa: F841 (an unused read still raises)
    return x * 2.0


def _read_in_try(x, i):
    try:
        return x[i]
    except IndexError as e:
        return str(e)


def _unused_in_try(x, i):
    try:
        x[i]
        return x + 1.0
    except IndexError as e:
        return "caught " + str(e)


def _two_reads(x, i, j):
    return x[i] + x[j]


def _two_reads_try(x, i, j):
    try:
        a = x[i]
    except IndexError:
        a = -1.0
    return a + x[j]


def _read_row(g, i):
    return g[i]


def _read_col(g, j):
    return g[:, j]


def _read_cell(g, i, j):
    return g[i, j]


def _read_chain(g, i, j):
    return g[i][j]


def _read_ellipsis(g, j):
    return g[..., j]


def _read_row_slice(g, i):
    return g[i, 1:]


def _read_newaxis(g, i):
    return g[None, i]


def _fancy(x, i, j):
    return x[[i, j, 0]]


def _fancy_tuple(x, ids):
    return x[list(ids)]


def _tuple_index(g, ij):
    return g[ij]


for fn in (_read, _read_scaled, _read_unused, _read_in_try, _unused_in_try):
    case(fn, *_seq(0, 1, 3, 4, -4, -5, 2))
    case(fn, *_seq(1, 2, 2 ** 63, -2 ** 63 - 1, 3), name=fn.__name__[1:] + "_huge")
    case(fn, *_seq(1, 2, True, False, np.int64(3), np.int8(-1), np.uint64(9), 0),
         name=fn.__name__[1:] + "_kinds")
    case(fn, *_seq(1, 2, 1.5, 3), name=fn.__name__[1:] + "_float")

case(_read, *_seq(1, 2, 0, 5, arg=np.zeros((0, 3))), name="read_zero_rows")
case(_read, *_seq(1, 2, 0, -1, 3, arg=np.zeros((3, 0))), name="read_zero_cols")
case(_read, *_seq(1, 2, 0, arg=np.array(5.0)), name="read_zero_d")
case(_read, *_seq(1, 2, 0, 7, -8, arg=np.arange(8)[::-2]), name="read_reversed")
case(_read, *_seq(1, 2, 0, 3, arg=I8), name="read_int8")
case(_two_reads, (X, 1, 2), (X, 2, 3), (X, 9, 1), (X, 1, 9), (X, 5, 6), (X, -1, -4))
case(_two_reads_try, (X, 1, 2), (X, 2, 3), (X, 9, 1), (X, 1, 9), (X, 5, 6))
case(_read_row, *_seq(0, 1, 2, 3, -3, -4, arg=G))
case(_read_col, *_seq(0, 1, 3, 4, -4, -5, arg=G))
case(_read_cell, (G, 0, 1), (G, 1, 2), (G, 2, 3), (G, 3, 0), (G, 0, 4), (G, -3, -4),
     (G, 5, 9))
case(_read_chain, (G, 0, 1), (G, 1, 2), (G, 3, 0), (G, 0, 4), (G, -1, -1))
case(_read_ellipsis, *_seq(0, 1, 3, 4, -5, arg=G))
case(_read_row_slice, *_seq(0, 1, 2, 3, -4, arg=G))
case(_read_newaxis, *_seq(0, 1, 2, 3, arg=G))
case(_fancy, (X, 1, 2), (X, 2, 3), (X, 4, 1), (X, -1, -5), (X, True, 2))
case(_fancy_tuple, (X, (1, 2)), (X, (2, 3)), (X, (0, 9)), (X, (1, 2, 3)), (X, ()))
case(_tuple_index, (G, (0, 1)), (G, (1, 2)), (G, (2, 5)), (G, (1,)), (G, (0, 1, 2)))


# --------------------------------------------------------------------------- writes

def _store(buf, i, v):
    buf[i] = v
    return buf


def _store_returns_none(buf, i, v):
    buf[i] = v


def _store_row(g, i, row):
    g[i] = row
    return g.sum()


def _store_cell(g, i, j, v):
    g[i, j] = v
    return g


def _augmented(buf, i):
    buf[i] += 1.5
    return buf


def _swap(buf, i, j):
    buf[i], buf[j] = buf[j], buf[i]
    return buf


def _store_then_read(buf, i, j):
    buf[i] = 7.0
    return buf[j]


case(_store, *[(X.copy(), i, 9.0) for i in (0, 1, 3, 4, -4, -5, 2)])
case(_store_returns_none, *[(X.copy(), i, 9.0) for i in (0, 1, 3, 4, -5)])
case(_store, *[(G.copy(), i, np.array([1.0, 2.0, 3.0, 4.0])) for i in (0, 1, 2, 3, -4)],
     name="store_row_broadcast")
case(_store, *[(G.copy(), i, np.array([1.0, 2.0])) for i in (0, 1, 2, 3)],
     name="store_row_bad_shape")
case(_store, *[(I8.copy(), i, v) for i, v in ((0, 5), (1, 6), (2, 300), (9, 300),
                                               (3, 2.7), (1, float("nan")))],
     name="store_int8_casts")
case(_store, *[(I8.copy(), i, 5) for i in (0, 1, 2 ** 64, -2 ** 70, True, np.int16(2))],
     name="store_int8_huge_index")
case(_store_row, (G.copy(), 0, 1.0), (G.copy(), 1, 2.0), (G.copy(), 5, 3.0),
     (G.copy(), -3, np.arange(4.0)), (G.copy(), 2, np.arange(3.0)))
case(_store_cell, (G.copy(), 0, 1, 5.0), (G.copy(), 1, 2, 6.0), (G.copy(), 2, 4, 7.0),
     (G.copy(), 3, 0, 8.0), (G.copy(), -1, -4, 9.0))
case(_augmented, *[(X.copy(), i) for i in (0, 1, 3, 4, -5, -1)])
case(_swap, (X.copy(), 0, 1), (X.copy(), 1, 2), (X.copy(), 0, 4), (X.copy(), 4, 0),
     (X.copy(), 2, 2))
case(_store_then_read, (X.copy(), 0, 1), (X.copy(), 1, 2), (X.copy(), 1, 7),
     (X.copy(), 7, 1), (X.copy(), 3, 3))
case(_store, *[(np.zeros((0, 3)), i, 1.0) for i in (0, 1, 2)], name="store_zero_rows")
case(_store, *[(np.zeros((3, 0)), i, 1.0) for i in (0, 1, 2, 3)], name="store_zero_cols")


def _readonly_buffer():
    b = X.copy()
    b.flags.writeable = False
    return b


case(_store, *[(lambda i=i: (_readonly_buffer(), i, 1.0)) for i in (0, 1, 9, -9)],
     name="store_read_only")


# ------------------------------------------------------------- order against effects

LOG: list = []


def _reset_log():
    LOG.clear()


def _append_then_read(x, i, log):
    log.append("before")
    v = x[i]
    log.append("after")
    return v


def _print_then_read(x, i):
    print("before", i)
    v = x[i]
    print("after")
    return v


def _global_append_then_read(x, i):
    LOG.append(i)
    return x[i] * 2


def _write_input_then_read(x, i):
    x[0] = 100.0
    return x[i]


def _warn_then_read(x, i):
    y = np.log(x)           # RuntimeWarning: invalid value (x holds -2.0)
    return y[i]


def _python_warn_then_read(x, i):
    warnings.warn("first", UserWarning, stacklevel=1)
    return x[i]


def _read_then_divide(x, i, k):
    v = x[i]
    return v / k


def _read_then_python_error(x, i, d):
    v = x[i]
    return v + d["missing"]


def _read_then_append(x, i, log):
    v = x[i]
    log.append(v)
    return v


def _errstate_then_read(x, i):
    with np.errstate(divide="raise"):
        y = 1.0 / (x - 0.5)
    return y[i]


def _oob_in_loop(x, i, log):
    for k in range(3):
        log.append(k)
        x[k] = x[i + k]
    return x


case(_append_then_read, *[(X, i, []) for i in (0, 1, 3, 4, -5, 2)])
case(_print_then_read, *_seq(0, 1, 4, -5, 2))
case(_global_append_then_read, *_seq(0, 1, 4, -5, 2), setup=_reset_log,
     watch=lambda: list(LOG))
case(_write_input_then_read, *[(X.copy(), i) for i in (1, 2, 4, -5, 3)])
case(_warn_then_read, *_seq(0, 1, 4, -5, 3))
case(_python_warn_then_read, *_seq(0, 1, 4, -5, 3))
case(_read_then_divide, (X, 0, 2.0), (X, 1, 3.0), (X, 5, 0.0), (X, 2, 0.0), (X, -9, 1.0))
case(_read_then_python_error, (X, 0, {"missing": 1}), (X, 1, {"missing": 2}), (X, 5, {}),
     (X, 2, {}))
case(_read_then_append, *[(X, i, []) for i in (0, 1, 3, 4, -5)])
case(_errstate_then_read, *_seq(0, 1, 4, 2, -5))
case(_oob_in_loop, *[(np.arange(8.0), i, []) for i in (0, 1, 5, 6, -8, -9)])


# ----------------------------------------------------------- indices from elsewhere

class Ring:
    """A ring buffer whose pointer is an attribute that changes on every call."""

    def __init__(self, n, ptr=0):
        self.buf = np.zeros(n)
        self.ptr = ptr

    def push(self, v):
        self.buf[self.ptr] = v
        self.ptr = (self.ptr + 1) % len(self.buf)
        return self.buf.sum()

    def push_unwrapped(self, v):
        self.buf[self.ptr] = v
        self.ptr += 1
        return self.buf.copy()


@scenario
def ring_push(r):
    ring = Ring(4)
    f = r.compile(Ring.push)
    for v in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0):
        r.call(f, ring, v)
    r.see("ring", ring)


@scenario
def ring_push_past_end(r):
    """The pointer is never wrapped: the fifth push raises, the object keeps ptr 4."""
    ring = Ring(4)
    f = r.compile(Ring.push_unwrapped)
    for v in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0):
        r.call(f, ring, v)
        r.see("ptr", ring.ptr)


@scenario
def ring_negative_pointer(r):
    ring = Ring(3, ptr=-2)
    f = r.compile(Ring.push_unwrapped)
    for v in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0):
        r.call(f, ring, v)
        r.see("ptr", ring.ptr)


POS = {"i": 0}


def _global_index(x):
    return x[POS["i"]] + 1.0


@scenario
def index_from_global_dict(r):
    f = r.compile(_global_index)
    for i in (0, 1, 2, 5, -4, -5, 3):
        POS["i"] = i
        r.call(f, X)
    POS["i"] = 0


def _index_from_list(x, idx):
    return x[idx[0]] - x[idx[-1]]


case(_index_from_list, (X, [0, 1]), (X, [1, 2]), (X, [2, 7]), (X, [-5, 0]), (X, [3]))


def _make_closure(i):
    def read(x):
        return x[i]
    return read


@scenario
def index_from_closure_cell(r):
    for i in (0, 1, 2, 4, -5):
        f = r.compile(_make_closure(i))
        r.call(f, X)


def _index_of_index(x, i):
    return x[int(x[i]) % 4]


case(_index_of_index, (np.array([3.0, 0.0, 1.0, 2.0]), 0), (np.array([3.0, 0.0, 1.0, 2.0]), 1),
     (np.array([3.0, 0.0, 1.0, 2.0]), 7), (np.array([3.0, 0.0, 1.0, 2.0]), 3))


def _index_and_value(x, i):
    return x[i] * i, x * i


case(_index_and_value, *_seq(0, 1, 2, 3, 4, -1, True))


def _index_with_size(x, i):
    return x[i], x[len(x) - 1 - i]


case(_index_with_size, (X, 0), (X, 1), (np.ones(6), 2), (np.ones(3), 3), (np.ones(2), -1),
     (np.ones(5), 4))


def _sizes_change(x, i):
    return x[i] + x.shape[0]


case(_sizes_change, (np.ones(4), 1), (np.ones(5), 2), (np.ones(6), 5), (np.ones(3), 5),
     (np.ones(7), -7), (np.ones(2), -3))


def _slice_and_index(x, i):
    return x[i:i + 2], x[i]


case(_slice_and_index, *_seq(0, 1, 2, 3, 4, -1, -5))


def _index_kw(x, *, at=0):
    return x[at]


case(_index_kw, Args(X, at=0), Args(X, at=1), Args(X, at=9), Args(X, at=-2), Args(X))


def _index_bool_mask_mix(x, i):
    m = x > 0
    return x[m][i]


case(_index_bool_mask_mix, *_seq(0, 1, 2, 3, -1, -3))


def _take_method(x, i):
    return x.take(i), np.take(x, i, mode="wrap")


case(_take_method, *_seq(0, 1, 3, 4, -5))


def _item_method(x, i):
    return x.item(i)


case(_item_method, *_seq(0, 1, 3, 4, -5))


def _put_at(x, i):
    np.put(x, i, 5.0)
    return x


case(_put_at, *[(X.copy(), i) for i in (0, 1, 3, 4, -5)])


def _setitem_in_try_effect(x, i, log):
    try:
        log.append("try")
        x[i] = 1.0
        log.append("stored")
    except IndexError as e:
        log.append(str(e))
    return x


case(_setitem_in_try_effect, *[(X.copy(), i, []) for i in (0, 1, 5, -5, 2)])


def _nested_try_reraise(x, i):
    try:
        try:
            return x[i]
        except IndexError as e:
            raise KeyError(i) from e
    except KeyError as e:
        return repr(e), type(e.__cause__).__name__


case(_nested_try_reraise, *_seq(0, 1, 4, -5, 2))


def _finally_after_oob(x, i, log):
    try:
        return x[i]
    finally:
        log.append("finally")


case(_finally_after_oob, *[(X, i, []) for i in (0, 1, 4, -5)])


# an earlier write in the same graph that is not idempotent; indices made from the int
# (sums, negations, quotients); reads inside loop nodes; Python containers by the int

def _augment_then_oob(x, i):
    x[0] += 1.0
    x[i] = 2.0
    return x


def _scale_then_oob(x, i):
    x *= 2.0
    return x[i]


def _derived_indices(x, i):
    return x[i + 1], x[-i], x[2 * i - 1], x[i // 2], x[i % 3]


def _read_in_for_loop(x, i, n):
    acc = 0.0
    for k in range(n):
        acc = acc + x[i] * k
    return acc


def _read_in_while_loop(x, i, tol):
    err = np.abs(x).max()
    while err > tol:
        x = x * 0.5
        err = np.abs(x[i])
    return x


def _python_containers(i, lst, tup, s, d):
    return lst[i], tup[i], s[i], d[i], range(10)[i]


def _list_store(lst, i):
    lst[i] = "new"
    return lst


case(_augment_then_oob, *[(X.copy(), i) for i in (1, 2, 4, -5, 3)])
case(_scale_then_oob, *[(X.copy(), i) for i in (1, 2, 4, -5, 3)])
case(_derived_indices, *_seq(1, 2, 3, 0, -1, 5))
case(_read_in_for_loop, (X, 0, 3), (X, 1, 4), (X, 7, 3), (X, 7, 0), (X, -5, 2), (X, 2, 5))
case(_read_in_while_loop, (X, 0, 1e-3), (X, 1, 1e-3), (X, 7, 1e-3), (X, -5, 1e-3),
     (X, 2, 10.0))
case(_python_containers, *[(i, [1, 2, 3], (4, 5, 6), "abc", {0: "a", 1: "b", 2: "c", -1: "z"})
                           for i in (0, 1, 2, -1, 3, True)])
case(_list_store, *[([1, 2, 3], i) for i in (0, 1, 2, 3, -4, True)])
