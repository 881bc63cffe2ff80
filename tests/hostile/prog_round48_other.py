"""Round 48, other kinds (issue #17): exceptions raised inside loop nodes (an index out
of range at trip k, a FloatingPointError under ``errstate``, a callback that raises)
after the loop wrote its input; generators and iterators dropped mid-way (their
``finally`` and the values they had produced); descriptors on the arrays' holders
(``__get__`` that counts, data descriptors that validate, ``__set_name__``);
``__array_ufunc__`` classes that rewrite an op, count calls or return ``NotImplemented``;
``__index__`` objects as sizes, repeat counts, axes and slice bounds; ``__len__`` and
``__bool__`` that disagree with the array inside.

    >>> def _raise_at_trip(x, k):
    ...     for i in range(12):
    ...         x[i] += 1.0
    ...         if i == k:
    ...             x[100]             # IndexError at trip k, x written up to it
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round48_other")
case, scenario = reg.case, reg.scenario


def _v(n=14, k=0.0):
    return np.arange(n, dtype=np.float64) * 0.5 - 2.0 + k


# ----------------------------------------------------------------------------- exceptions in loops

def _index_error_at_trip(x, k):
    for i in range(12):
        x[i] += 1.0
        x[i + k] = x[i] * 2.0
    return x


case(_index_error_at_trip, (_v(), 1), (_v(), 5))


def _caught_index_error(x, k):
    try:
        for i in range(12):
            x[i] = x[i + k] + 1.0
    except IndexError as e:
        return "caught", str(e), x.copy()
    return "done", x


case(_caught_index_error, (_v(), 1), (_v(), 3))


def _fp_raise_in_loop(x):
    with np.errstate(divide="raise"):
        for i in range(10):
            x[i] = 1.0 / (x[i] - 1.0)
    return x


case(_fp_raise_in_loop, (_v(),), (_v(k=0.25),))


def _fp_caught_in_loop(x):
    out = []
    for i in range(10):
        try:
            with np.errstate(invalid="raise"):
                out.append(float(np.sqrt(x[i])))
        except FloatingPointError:
            out.append(None)
    return out


case(_fp_caught_in_loop, (_v(),))


def _raise_after_append(x, log):
    for i in range(10):
        log.append(i)
        if x[i] > 1.0:
            raise ValueError(f"too big at {i}")
        x[i] *= 3.0
    return x


case(_raise_after_append, (_v(), []), (_v(k=-5.0), []))


def _key_error_in_loop(x, table):
    total = 0.0
    for i in range(10):
        total += table[int(x[i])]
    return total


case(_key_error_in_loop, (np.arange(10.0), {i: i * 0.5 for i in range(10)}),
     (np.arange(10.0), {i: i * 0.5 for i in range(9)}))


def _exception_note_in_loop(x):
    try:
        for i in range(10):
            if x[i] > 0:
                raise KeyError(i)
    except KeyError as e:
        e.add_note("from the loop")
        raise
    return x


case(_exception_note_in_loop, (_v(),), (_v(k=-20.0),))


# ----------------------------------------------------------------------------- generators

def _gen_with_finally(x, log):
    try:
        for i in range(x.shape[0]):
            yield x[i] * 2.0
    finally:
        log.append("closed")


def _take_two(x, log):
    g = _gen_with_finally(x, log)
    a = next(g)
    b = next(g)
    log.append("took")
    return a + b


case(_take_two, (_v(), []))


def _zip_stops_early(x, y):
    out = []
    for a, b in zip(x, (v * 2.0 for v in y)):
        out.append(a + b)
    return np.array(out)


case(_zip_stops_early, (_v(5), _v(8)), (_v(8), _v(5)))


def _iter_partially(x):
    it = iter(x)
    first = next(it)
    rest = sum(v for v in it if v > 0)
    return first, rest


case(_iter_partially, (_v(),))


def _gen_sends(x):
    def acc():
        total = 0.0
        while True:
            v = yield total
            total += v

    g = acc()
    next(g)
    for i in range(4):
        last = g.send(float(x[i]))
    g.close()
    return last


case(_gen_sends, (_v(),))


def _gen_array_views(x):
    def rows():
        for i in range(0, x.shape[0], 2):
            yield x[i:i + 2]

    for w in rows():
        w *= -1.0
        if w[0] > 0:
            break
    return x


case(_gen_array_views, (_v(),), (_v(k=-10.0),))


# ----------------------------------------------------------------------------- descriptors

class Counting:
    def __init__(self):
        self.reads = 0

    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        self.reads += 1
        return getattr(obj, self.name) * self.reads


class Holder:
    w = Counting()

    def __init__(self, w):
        self._w = w


def _descriptor_reads(h, x):
    return x * h.w + h.w


@scenario
def s_counting_descriptor(r):
    Holder.w.reads = 0
    f = r.compile(_descriptor_reads)
    h = Holder(np.ones(3))
    r.call(f, h, np.arange(3.0))
    r.call(f, h, np.arange(3.0))
    r.see("reads", Holder.w.reads)


class Positive:
    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, owner=None):
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        if np.any(value < 0):
            raise ValueError("negative")
        setattr(obj, self.name, value)


class Params:
    p = Positive()

    def __init__(self):
        self._p = np.ones(4)


def _descriptor_set(o, x):
    o.p = o.p + x
    return o.p.sum()


case(_descriptor_set, (Params(), np.ones(4)), (Params(), np.full(4, -5.0)))


class ArrayView:
    """A descriptor that hands out a view of the owner's buffer."""

    def __get__(self, obj, owner=None):
        return obj.buf[1:]


class Owner:
    tail = ArrayView()

    def __init__(self):
        self.buf = np.arange(6.0)


def _descriptor_view_write(o):
    t = o.tail
    t += 1.0
    return o.buf.sum(), o.tail[0]


case(_descriptor_view_write, (Owner(),), calls=3)


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a):
        self.a = a
        self.b = a[::2]


def _slots_alias(s):
    s.b[:] = 0.0
    return s.a.sum()


case(_slots_alias, lambda: (Slotted(_v()),))


# ----------------------------------------------------------------------------- __array_ufunc__

class Tagged:
    def __init__(self, a):
        self.a = np.asarray(a)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        args = [i.a if isinstance(i, Tagged) else i for i in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(o.a if isinstance(o, Tagged) else o for o in kwargs["out"])
        return Tagged(getattr(ufunc, method)(*args, **kwargs))


def _tagged_math(t, x):
    y = np.add(t, x)
    return np.multiply(y, 2.0).a


case(_tagged_math, (Tagged([1.0, 2.0]), np.ones(2)))


def _tagged_out(t, x):
    np.add(x, 1.0, out=t)
    return t.a


case(_tagged_out, lambda: (Tagged(np.zeros(3)), np.arange(3.0)))


class Refuses:
    def __repr__(self):
        return "Refuses()"

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return NotImplemented

    def __radd__(self, other):
        return "radd"


def _not_implemented(x, o):
    try:
        return np.add(x, o)
    except TypeError as e:
        return type(e).__name__, x + o


case(_not_implemented, (np.ones(2), Refuses()))


class Counts(np.ndarray):
    calls = 0

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        Counts.calls += 1
        inputs = [i.view(np.ndarray) if isinstance(i, Counts) else i for i in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(o.view(np.ndarray) if isinstance(o, Counts) else o
                                  for o in kwargs["out"])
        return getattr(ufunc, method)(*inputs, **kwargs)


def _subclass_counts(c):
    c += 1.0
    return np.sqrt(c * c), Counts.calls


@scenario
def s_subclass_ufunc_counts(r):
    Counts.calls = 0
    f = r.compile(_subclass_counts)
    r.call(f, np.arange(4.0).view(Counts))
    r.call(f, np.arange(4.0).view(Counts))
    r.see("calls", Counts.calls)


class NoOverride:
    __array_ufunc__ = None

    def __rmul__(self, other):
        return ("rmul", len(other))


def _ufunc_none(x, o):
    return x * o


case(_ufunc_none, (np.ones(3), NoOverride()))
