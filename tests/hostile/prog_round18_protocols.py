"""Round 18, Python's protocols answered by the program's own objects inside compiled
code: ``__index__``, ``__int__``, ``__float__``, ``__complex__``, ``__bool__``,
``__len__``, ``__iter__``, the old ``__getitem__`` iteration, ``__contains__``,
``__format__``, ``__repr__``, ``__call__``, ``__enter__``/``__exit__``, ``__iadd__``
returning another object, reflected operators beside arrays; dict and set keys whose
``__hash__`` or ``__eq__`` log, raise or change between calls (collisions, NaN keys,
``True``/``1``/``1.0`` merging, NumPy scalar keys); ``in``/``list.index``/``remove`` of
arrays (an ambiguous truth value); each protocol run as often as plainly, raising as
plainly, and changing its answer between calls (an int-like that grows: a new size).
(Arrays in containers, other dunders, protocols between graphs and ``__del__`` at
drops: ``prog_round18_dunders.py``.)

    >>> def _index_as_size(x, i):
    ...     return np.zeros(i) + x.sum()     # i.__index__ logs and grows every call
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round18_protocols")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
G = np.arange(12.0).reshape(3, 4)
LOG: list = []


def _reset():
    LOG.clear()
    GROWING.v = 2          # the plain and the compiled run start alike


def _watch():
    return list(LOG)


def _brk():
    print("break")


def logged(fn, calls=2, **kw):
    """``case`` with LOG cleared first and recorded after every call."""
    case(fn, *kw.pop("inputs"), calls=calls, setup=_reset, watch=_watch, **kw)


# ------------------------------------------------------------------------- numbers

class Idx:
    """An int-like: ``__index__`` logs; ``step`` makes it grow on every use."""

    def __init__(self, v, step=0):
        self.v, self.step = v, step

    def __index__(self):
        LOG.append(("index", self.v))
        v = self.v
        self.v += self.step
        return v


class BadIdx:
    def __index__(self):
        LOG.append("bad index")
        raise ArithmeticError("no index today")


class FloatIdx:
    def __index__(self):
        return 2.5


class Num:
    """``__int__``, ``__float__``, ``__complex__`` and ``__bool__`` that log."""

    def __init__(self, v):
        self.v = v

    def __int__(self):
        LOG.append("int")
        return int(self.v)

    def __float__(self):
        LOG.append("float")
        return float(self.v)

    def __complex__(self):
        LOG.append("complex")
        return complex(self.v, 1)

    def __bool__(self):
        LOG.append("bool")
        return self.v > 0


class BadBool:
    def __bool__(self):
        LOG.append("bad bool")
        raise ValueError("no truth")


class IntSub(int):
    """An int subclass: indexing takes the int itself, ``__index__`` never runs."""

    def __index__(self):
        LOG.append("int sub index")
        return 0


class FloatSub(float):
    def __rmul__(self, other):
        LOG.append("float sub rmul")
        return "rmul"


GROWING = Idx(2, step=1)


def _index_subscript(x, i):
    return x[i] * 2


def _index_size(x, i):
    return np.zeros(i) + x.sum()


def _index_slice(x, i):
    return x[:i].sum(), x[i:]


def _index_range(x, i):
    acc = x * 0
    for k in range(i):
        acc = acc + x * k
    return acc


def _index_twice(x, i):
    return x[i] + x[i]


def _index_reshape(x, i):
    return x.reshape(i, -1)


def _index_repeat(x, i):
    return np.repeat(x, i)


def _index_raises(x, i):
    try:
        return x[i]
    except ArithmeticError as e:
        return str(e), x + 1


def _index_float(x, i):
    try:
        return x[i]
    except TypeError as e:
        return str(e)


def _index_break(x, i):
    y = x * 2
    _brk()
    return y[i]


def _int_of(x, o):
    return x + int(o), int(o)


def _float_of(x, o):
    return x * float(o)


def _complex_of(x, o):
    return x * complex(o)


def _bool_of(x, o):
    if o:
        return x + 1
    return x - 1


def _bool_and_array(x, o):
    return o and x.sum() > 0


def _bool_raises(x, o):
    try:
        if o:
            return x
    except ValueError as e:
        return str(e), x * 2
    return None


def _np_float_of(x, o):
    return np.float64(o) * x, np.int64(o)


def _int_sub_index(x, i):
    return x[i], type(i).__name__


def _float_sub_reflected(x, f):
    return x.sum() * f, 2.0 * f


logged(_index_subscript, inputs=[(X, Idx(1)), (X, Idx(-1))])
logged(_index_size, inputs=[(X, Idx(2)), (X, Idx(0)), (X, Idx(5))])
logged(_index_slice, inputs=[(X, Idx(2)), (X, Idx(-3)), (X, Idx(99))])
logged(_index_range, inputs=[(X, Idx(2)), (X, Idx(3)), (X, Idx(0))])
logged(_index_twice, inputs=[(X, Idx(1)), (X, Idx(3))])
logged(_index_reshape, inputs=[(G, Idx(3)), (G, Idx(2)), (G, Idx(5))])
logged(_index_repeat, inputs=[(X, Idx(2)), (X, Idx(0))])
logged(_index_raises, inputs=[(X, BadIdx())])
logged(_index_float, inputs=[(X, FloatIdx())])
logged(_index_break, inputs=[(X, Idx(2))])
logged(_index_size, inputs=[lambda: (X, GROWING)], calls=4, name="index_grows_size")
logged(_index_subscript, inputs=[lambda: (X, GROWING)], calls=4, name="index_grows_subscript")
logged(_int_of, inputs=[(X, Num(3)), (X, Num(-2.7))])
logged(_float_of, inputs=[(X, Num(3)), (X, Num(0.5))])
logged(_complex_of, inputs=[(X, Num(3))])
logged(_bool_of, inputs=[(X, Num(3)), (X, Num(-1))])
logged(_bool_and_array, inputs=[(X, Num(3)), (X, Num(0))])
logged(_bool_raises, inputs=[(X, BadBool())])
logged(_np_float_of, inputs=[(X, Num(3))])
logged(_int_sub_index, inputs=[(X, IntSub(2)), (X, IntSub(3))])
logged(_float_sub_reflected, inputs=[(X, FloatSub(2.0))])


@scenario
def s_index_grows_between_calls(r):
    """One Idx object kept across calls; its value grows every use (a new size)."""
    _reset()
    i = Idx(1, step=1)
    f = r.compile(_index_size)
    for _ in range(4):
        r.call(f, X, i)
    r.see("log", list(LOG))


# ------------------------------------------------------------------------- containers

class Seq:
    """``__len__``, ``__iter__`` and ``__contains__`` that log."""

    def __init__(self, items):
        self.items = list(items)

    def __len__(self):
        LOG.append("len")
        return len(self.items)

    def __iter__(self):
        LOG.append("iter")
        return iter(self.items)

    def __contains__(self, v):
        LOG.append(("contains", v))
        return v in self.items


class BadLen:
    def __len__(self):
        return -1


class HugeLen:
    def __len__(self):
        return 2**70


class OldIter:
    """Iterated through ``__getitem__`` until IndexError."""

    def __init__(self, n):
        self.n = n

    def __getitem__(self, k):
        LOG.append(("getitem", k))
        if k >= self.n:
            raise IndexError(k)
        return k * 1.5


class BreaksMidway:
    def __iter__(self):
        yield 1.0
        LOG.append("second")
        yield 2.0
        raise KeyError("midway")


def _len_size(x, s):
    return np.zeros(len(s)) + x[0]


def _iter_sum(x, s):
    acc = x * 0
    for v in s:
        acc = acc + x * v
    return acc


def _contains(x, s):
    if 3 in s:
        return x + 3
    return x


def _bad_len(x, s):
    try:
        return len(s)
    except (ValueError, OverflowError) as e:
        return type(e).__name__, str(e), x


def _old_iter(x, s):
    return [x * v for v in s]


def _iter_raises(x, s):
    out = []
    try:
        for v in s:
            out.append(x * v)
    except KeyError as e:
        out.append(str(e))
    return out


def _unpack(x, s):
    a, b = s
    return x * a + b


def _sorted_log(x, s):
    return np.array(sorted(s)) + x[:len(s)]


def _list_of_obj(x, s):
    return np.array(list(s)) * x.sum(), tuple(s)


logged(_len_size, inputs=[(X, Seq([1, 2])), (X, Seq([])), (X, Seq(range(5)))])
logged(_iter_sum, inputs=[(X, Seq([1, 2])), (X, Seq([3.5]))])
logged(_contains, inputs=[(X, Seq([1, 3])), (X, Seq([]))])
logged(_bad_len, inputs=[(X, BadLen())], name="bad_len_negative")
logged(_bad_len, inputs=[(X, HugeLen())], name="bad_len_huge")
logged(_old_iter, inputs=[(X, OldIter(2)), (X, OldIter(0))])
logged(_iter_raises, inputs=[(X, BreaksMidway())])
logged(_unpack, inputs=[(X, Seq([2, 3])), (X, Seq([1])), (X, Seq([1, 2, 3]))])
logged(_sorted_log, inputs=[(X, Seq([3, 1, 2]))])
logged(_list_of_obj, inputs=[(X, Seq([3, 1])), (X, Seq([]))])


# ------------------------------------------------------------------------- dict keys

class Key:
    """A dict key with a fixed hash and an ``__eq__`` that logs (or raises)."""

    def __init__(self, name, h=7, raises=False):
        self.name, self.h, self.raises = name, h, raises

    def __hash__(self):
        LOG.append(("hash", self.name))
        return self.h

    def __eq__(self, other):
        LOG.append(("eq", self.name, getattr(other, "name", other)))
        if self.raises:
            raise RuntimeError(f"eq of {self.name}")
        return isinstance(other, Key) and other.name == self.name

    def __repr__(self):
        return f"Key({self.name})"


class MutableKey:
    """A key whose hash follows a field the program changes."""

    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return hash(self.v)

    def __eq__(self, other):
        return isinstance(other, MutableKey) and other.v == self.v


class HashRaises:
    def __hash__(self):
        LOG.append("hash raises")
        raise TypeError("not today")


def _dict_lookup(x, a, b):
    d = {a: x * 2}
    return d.get(b, x)


def _dict_collision_raises(x, a, b):
    d = {a: 1}
    try:
        d[b] = 2
    except RuntimeError as e:
        return str(e), len(d), x
    return len(d), x


def _dict_store_then_lookup(x, a, b):
    d = {}
    d[a] = x.sum()
    d[b] = x.max()
    return sorted(d.values()), len(d)


def _set_of_keys(x, a, b):
    s = {a, b}
    return len(s), x * len(s)


def _mutated_key(x, k):
    d = {k: x}
    k.v = 99
    return k in d, d.get(k), len(d)


def _hash_raises(x, h):
    try:
        return {h: x}
    except TypeError as e:
        return str(e)


def _array_key(x):
    try:
        return {x: 1}
    except TypeError as e:
        return str(e), x


def _nan_keys(x):
    d = {x.max(): "max", float("nan"): "nan"}
    return len(d), d.get(x.max(), "missing")


def _bool_int_float_keys(x):
    d = {True: "a", 1: "b", 1.0: "c", np.int64(1): "d"}   # noqa: F601 (the merge is the point)
    return d, x.any()


def _numpy_scalar_keys(x):
    d = {1: "int", 2.0: "float"}
    return d.get(x.argmax()), d.get(x.max()), d.get(np.float32(2.0))


def _key_in_break(x, a, b):
    d = {a: x}
    _brk()
    return b in d, x


def _dict_eq_between(x, a, b):
    return {a: 1} == {b: 1}, x


logged(_dict_lookup, inputs=[(X, Key("a"), Key("a")), (X, Key("a"), Key("b"))])
logged(_dict_lookup, inputs=[(X, Key("a"), Key("b", h=8))], name="dict_lookup_no_collision")
logged(_dict_collision_raises, inputs=[(X, Key("a"), Key("b", raises=True)),
                                        (X, Key("a", raises=True), Key("b"))])
logged(_dict_store_then_lookup, inputs=[(X, Key("a"), Key("a")), (X, Key("a"), Key("b"))])
logged(_set_of_keys, inputs=[(X, Key("a"), Key("a")), (X, Key("a"), Key("b"))])
logged(_mutated_key, inputs=[(X, MutableKey(1))])
logged(_hash_raises, inputs=[(X, HashRaises())])
logged(_array_key, inputs=[(X,)])
logged(_nan_keys, inputs=[(X,), (np.array([np.nan, 1.0]),)])
logged(_bool_int_float_keys, inputs=[(X,), (np.zeros(2),)])
logged(_numpy_scalar_keys, inputs=[(X,), (np.array([2.0, 1.0]),)])
logged(_key_in_break, inputs=[(X, Key("a"), Key("a")), (X, Key("a"), Key("b"))])
logged(_dict_eq_between, inputs=[(X, Key("a"), Key("a")), (X, Key("a", raises=True),
                                                           Key("b"))])
