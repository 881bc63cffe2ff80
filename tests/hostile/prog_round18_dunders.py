"""Round 18, more protocols inside compiled code (the objects of
``prog_round18_protocols.py``): ``in``/``list.index``/``remove``/``count`` of arrays
(an ambiguous truth value), ``__format__``/``__repr__``/``__str__``, ``__call__`` and
``__index__``/``__bool__``/``__len__``/``__hash__``/``__eq__`` changing between calls,
``__enter__``/``__exit__`` around a raising graph, reflected operators with
``__array_ufunc__ = None``, ``__iadd__`` returning another object; the protocols again
with array math on both sides of their call (graphs before and after); and objects
with a logging ``__del__`` dropped where plain Python frees them (a ``POP_TOP`` of a
popped value, tuples copied, unpacked, rebound and deleted).

    >>> def _around_len(x, s):
    ...     y = x * 3
    ...     n = len(s)                     # s.__len__ logs, between two graphs
    ...     return y[:n] + n, y.sum()
"""

import numpy as np
from hostile_check import Programs
from prog_round18_protocols import (
    LOG,
    BadBool,
    BadIdx,
    HashRaises,
    Idx,
    Key,
    MutableKey,
    Num,
    OldIter,
    Seq,
    _bool_of,
    _len_size,
    _reset,
    _watch,
)

reg = Programs("round18_dunders")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])


def logged(fn, calls=2, **kw):
    """``case`` with LOG cleared first and recorded after every call."""
    case(fn, *kw.pop("inputs"), calls=calls, setup=_reset, watch=_watch, **kw)


# ------------------------------------------------------------------------- arrays in containers

def _array_in_list(x, y):
    try:
        return y in [x, y], x in [x]
    except ValueError as e:
        return str(e)


def _array_in_list_raises(x, y):
    try:
        return y in [x]
    except ValueError as e:
        return str(e)


def _list_index_array(x, y):
    try:
        return [x, y].index(y)
    except ValueError as e:
        return str(e)


def _list_remove_array(x, y):
    items = [x, y]
    try:
        items.remove(y)
    except ValueError as e:
        return str(e), len(items)
    return len(items)


def _one_element_in(x):
    return x[:1] in [x[:1] * 1], np.array([2.0]) in [x[:1]]


def _count_arrays(x):
    return [x[:1], x[:1] * 1].count(x[:1])


logged(_array_in_list, inputs=[(X, X * 2)])
logged(_array_in_list_raises, inputs=[(X, X * 2), (X[:1], X[:1])])
logged(_list_index_array, inputs=[(X, X * 2)])
logged(_list_remove_array, inputs=[(X, X * 2)])
logged(_one_element_in, inputs=[(X,), (np.array([2.0, 3.0]),)])
logged(_count_arrays, inputs=[(X,)])


# ------------------------------------------------------------------------- other dunders

class Fmt:
    def __format__(self, spec):
        LOG.append(("format", spec))
        return f"<{spec}>"

    def __repr__(self):
        LOG.append("repr")
        return "Fmt()"

    def __str__(self):
        LOG.append("str")
        return "fmt"


class Scale:
    """``__call__``, ``__enter__``/``__exit__`` and reflected operators that log."""

    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        LOG.append(("call", self.k))
        return x * self.k

    def __enter__(self):
        LOG.append("enter")
        return self.k

    def __exit__(self, *exc):
        LOG.append(("exit", exc[0].__name__ if exc[0] else None))
        return False

    def __radd__(self, other):
        LOG.append("radd")
        return other + self.k

    def __rmatmul__(self, other):
        LOG.append("rmatmul")
        return other.sum() * self.k

    def __neg__(self):
        LOG.append("neg")
        return Scale(-self.k)

    def __abs__(self):
        LOG.append("abs")
        return abs(self.k)

    def __round__(self, n=None):
        LOG.append(("round", n))
        return round(self.k, n)

    __array_ufunc__ = None     # ndarray's operators return NotImplemented: ours answer


class Acc:
    """``__iadd__`` that returns a *new* object."""

    def __init__(self, total):
        self.total = total

    def __iadd__(self, other):
        LOG.append("iadd")
        return Acc(self.total + float(np.sum(other)))


class Swallow:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        LOG.append(("swallow", exc[0].__name__ if exc[0] else None))
        return True


def _format_of(x, o):
    return f"{o:>5}|{o}|{o!r}|{x.sum():.1f}", str(o), repr(o)


def _call_of(x, o):
    return o(x) + o(x[::-1])


def _with_value(x, o):
    with o as k:
        y = x * k
    return y


def _with_raises(x, o):
    try:
        with o:
            np.linalg.inv(np.zeros((2, 2)))
    except np.linalg.LinAlgError as e:
        return str(e), x
    return x


def _swallowed_index_error(x, i):
    with Swallow():
        x = x * 2
        x = x[i]
    return x


def _reflected_add(x, o):
    return x + o


def _reflected_matmul(x, o):
    return x @ o


def _unary(x, o):
    return (-o).k, abs(o), round(o, 1), x


def _iadd_new_object(x, a):
    b = a
    a += x
    return a.total, b.total, a is b



def _max_key(x):
    return max(range(len(x)), key=lambda i: x[i]), min(x, key=abs)


logged(_format_of, inputs=[(X, Fmt())])
logged(_call_of, inputs=[(X, Scale(2)), (X, Scale(-1))])
logged(_with_value, inputs=[(X, Scale(3))])
logged(_with_raises, inputs=[(X, Scale(3))])
logged(_swallowed_index_error, inputs=[(X, 1), (X, 9)])
logged(_reflected_add, inputs=[(X, Scale(2))])
logged(_reflected_matmul, inputs=[(X, Scale(2))])
logged(_unary, inputs=[(X, Scale(2.26))])
logged(_iadd_new_object, inputs=[(X, Acc(1.0))])
logged(_max_key, inputs=[(X,), (np.array([-5.0, 1.0, 5.0]),)])


@scenario
def s_call_protocol_changes(r):
    """A callable object's ``__call__`` replaced on its class between calls."""
    _reset()

    class Doubler:
        def __call__(self, x):
            return x * 2

    def f(x, o):
        return o(x) + 1

    g = r.compile(f)
    o = Doubler()
    r.call(g, X, o)
    r.call(g, X, o)
    Doubler.__call__ = lambda self, x: x * 10
    r.call(g, X, o)


@scenario
def s_index_changes_on_class(r):
    """``Idx.__index__`` answers differently after the class is changed."""
    _reset()

    class Small:
        def __index__(self):
            return 1

    def f(x, i):
        return x[i] * 2, np.zeros(i)

    g = r.compile(f)
    o = Small()
    r.call(g, X, o)
    r.call(g, X, o)
    Small.__index__ = lambda self: 3
    r.call(g, X, o)


@scenario
def s_hash_changes_between_calls(r):
    """A key's hash follows a field changed between calls: the lookup misses plainly."""
    k = MutableKey(1)
    d = {k: "one"}

    def f(x, d, k):
        return d.get(k, "missing"), x + 1

    g = r.compile(f)
    r.call(g, X, d, k)
    r.call(g, X, d, k)
    k.v = 2
    r.call(g, X, d, k)
    k.v = 1
    r.call(g, X, d, k)


@scenario
def s_eq_starts_raising(r):
    """A key's ``__eq__`` starts raising after two calls."""
    _reset()
    a, b = Key("a"), Key("b")
    d = {a: X}

    def f(x, d, k):
        try:
            return d[k] * 2
        except (KeyError, RuntimeError) as e:
            return type(e).__name__, x

    g = r.compile(f)
    r.call(g, X, d, b)
    r.call(g, X, d, b)
    b.raises = True
    r.call(g, X, d, b)
    r.see("log", list(LOG))


@scenario
def s_bool_changes_between_calls(r):
    """``__bool__`` answers from a field the caller flips."""
    _reset()
    o = Num(1)
    g = r.compile(_bool_of)
    r.call(g, X, o)
    r.call(g, X, o)
    o.v = -1
    r.call(g, X, o)
    r.see("log", list(LOG))


@scenario
def s_len_changes_between_calls(r):
    """``__len__`` of one object grows between calls: a new size each time."""
    _reset()
    s = Seq([1])
    g = r.compile(_len_size)
    for n in range(4):
        s.items.append(n)
        r.call(g, X, s)
    r.see("log", list(LOG))


# ------------------------------------------------------------------------- protocols between graphs
# The same protocols with array math on both sides, so the graph before the protocol's
# call and the one after it carry values across (and the protocol's log stays between).

def _around_index(x, i):
    y = np.exp(x) * 2
    z = y[i] + y[:i].sum()
    return z * x, y


def _around_len(x, s):
    y = x * 3
    n = len(s)
    return y[:n] + n, y.sum()


def _around_iter(x, s):
    y = np.sin(x)
    for v in s:
        y = y * v + 1
    return y, x.max()


def _around_bool(x, o):
    y = x - 1
    if o:
        y = y * 10
    return y.sum(), y


def _around_bool_raises(x, o):
    y = x * 2
    try:
        if o:
            y = y + 1
    except ValueError:
        y = -y
    return y


def _around_float(x, o):
    y = np.cumsum(x)
    return y * float(o) + int(o), y


def _around_dict(x, a, b):
    y = x + 1
    d = {a: y}
    w = d.get(b, y * 0)
    return w + y, len(LOG)


def _around_contains(x, s):
    y = x ** 2
    if 1 in s:
        y = y - 1
    return y


def _around_call(x, o):
    y = x * x
    z = o(y)
    return z + y


def _around_with(x, o):
    y = x + 5
    with o as k:
        y = y * k
        LOG.append("inside")
    return y - 1


def _around_format(x, o):
    y = x * 2
    s = f"{o:spec}"
    return y + len(s), s


def _around_iadd(x, a):
    y = x * 4
    a += y
    return y.sum() + a.total


def _around_reflected(x, o):
    y = x * 2
    z = y + o
    return z * 3


def _around_array_in_list(x, y):
    a = x * 2
    try:
        found = y in [a]
    except ValueError as e:
        found = str(e)
    return found, a + 1


def _around_index_raises(x, i):
    y = x * 2
    try:
        y = y[i]
    except ArithmeticError:
        y = y + 100
    return y


def _around_hash_raises(x, h):
    y = x + 1
    try:
        {h: 1}
    except TypeError:
        y = y * 2
    return y


def _around_unpack(x, s):
    y = x * 2
    try:
        a, b = s
    except ValueError as e:
        return str(e), y
    return y * a + b


def _around_old_iter(x, s):
    y = x - 1
    acc = y * 0
    for v in s:
        acc = acc + y * v
    return acc


logged(_around_index, inputs=[(X, Idx(1)), (X, Idx(3)), (X, Idx(-2))])
logged(_around_len, inputs=[(X, Seq([1, 2])), (X, Seq([])), (X, Seq(range(9)))])
logged(_around_iter, inputs=[(X, Seq([1, 2])), (X, Seq([])), (X, Seq([0.5] * 3))])
logged(_around_bool, inputs=[(X, Num(3)), (X, Num(-1))])
logged(_around_bool_raises, inputs=[(X, BadBool()), (X, Num(2))])
logged(_around_float, inputs=[(X, Num(3)), (X, Num(-0.5))])
logged(_around_dict, inputs=[(X, Key("a"), Key("a")), (X, Key("a"), Key("b")),
                             (X, Key("a"), Key("b", raises=True))])
logged(_around_contains, inputs=[(X, Seq([1, 3])), (X, Seq([]))])
logged(_around_call, inputs=[(X, Scale(2)), (X, Scale(-1))])
logged(_around_with, inputs=[(X, Scale(3))])
logged(_around_format, inputs=[(X, Fmt())])
logged(_around_iadd, inputs=[(X, Acc(1.0))])
logged(_around_reflected, inputs=[(X, Scale(2))])
logged(_around_array_in_list, inputs=[(X, X * 2), (X[:1], X[:1] * 2)])
logged(_around_index_raises, inputs=[(X, BadIdx()), (X, Idx(2))])
logged(_around_hash_raises, inputs=[(X, HashRaises()), (X, Key("a"))])
logged(_around_unpack, inputs=[(X, Seq([2, 3])), (X, Seq([1])), (X, Seq([1, 2, 3]))])
logged(_around_old_iter, inputs=[(X, OldIter(2)), (X, OldIter(0)), (X, OldIter(4))])


# ------------------------------------------------------------------------- __del__ at drops
# Where plain Python drops a value whose ``__del__`` logs: a value left on the stack
# (an expression statement), tuples bound, copied, unpacked, rebound and deleted.

class Noisy:
    def __init__(self, log, name):
        self.log, self.name = log, name

    def __del__(self):
        self.log.append(f"del {self.name}")


def _setdefault_statement(x, items, log):
    d = {}
    d.setdefault("k", items.pop())      # d holds it: nothing is freed at the statement
    log.append("set")
    d.clear()
    log.append("cleared")
    return x + 1


def _popped_statement_kept(x, items, log):
    keep = items[-1]
    items.pop()                          # keep holds it
    log.append("popped")
    del keep
    log.append("kept gone")
    return x * 2


def _tuple_copied_then_deleted(x, items, log):
    t = tuple(items)
    u = t
    items.clear()
    del t                                # u holds the tuple
    log.append("t gone")
    u = None                             # noqa: F841 (its end is the point)
    log.append("u gone")
    return x - 1


def _tuple_unpacked_then_deleted(x, items, log):
    t = tuple(items)
    a, b = t
    items.clear()
    del t                                # a and b hold the items
    log.append("t gone")
    del a
    log.append("a gone")
    return x + b.name.count("b")


def _tuple_rebound_in_loop(x, items, log):
    t = ()
    for k in range(2):
        t = (items.pop(),)   # noqa: F841 (each rebinding frees the last)
        log.append(f"trip {k}")
    log.append("loop done")
    return x * 3


def _pair_with_array(x, items, log):
    t = (x * 2, items.pop())
    log.append("made")
    y = t[0] + 1
    t = None
    log.append("dropped")
    return y


def _noisy_list_statement(x, items, log):
    [items.pop()]                        # a list made and dropped at once
    log.append("after")
    return x + 1


def _with_noisy(fn):
    def s(r):
        f = r.compile(fn)
        for _ in range(2):
            log = []
            items = [Noisy(log, "a"), Noisy(log, "b")]
            r.call(f, X.copy(), items, log)
            del items
            r.see("log at the end", log)
    reg._add(fn.__name__.removeprefix("_"), s, (fn.__doc__ or "").strip())


for _fn in (_setdefault_statement, _popped_statement_kept, _tuple_copied_then_deleted,
            _tuple_unpacked_then_deleted, _tuple_rebound_in_loop, _pair_with_array,
            _noisy_list_statement):
    _with_noisy(_fn)
