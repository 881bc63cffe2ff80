"""Round 5, objects: descriptors and ``__slots__``, metaclasses and
``__init_subclass__``, ``__getattr__``/``__getattribute__``, ``__eq__``/``__hash__`` of
objects the guards read, ``__index__`` objects as indices, array-likes
(``__array__``, ``__array_ufunc__``, ``__array_function__``) and ndarray subclasses
(``np.matrix``, ``np.ma``, recarrays): each must be exact or fall back."""

import functools
import math

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round5_objects")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
M = np.arange(6.0).reshape(2, 3)


# ============================================================================ descriptors

class Counted:
    """A data descriptor that counts its reads (the count is observable)."""

    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        obj.reads = getattr(obj, "reads", 0) + 1
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        setattr(obj, self.name, value * 2)


class HasCounted:
    scale = Counted()

    def __init__(self, s):
        self.scale = s


def _descriptor_read_twice(x, o):
    return x * o.scale + o.scale


case(_descriptor_read_twice, (X, HasCounted(2.0)), (X, HasCounted(3)))


def _descriptor_write_then_read(x, o):
    o.scale = 5.0
    return x + o.scale, o.reads


case(_descriptor_write_then_read, (X, HasCounted(1.0)))


class NonData:
    """A non-data descriptor: an instance attribute shadows it."""

    def __get__(self, obj, owner=None):
        return 10.0


class HasNonData:
    k = NonData()


def _nondata_shadowed(x, o):
    a = x * o.k
    o.k = 2.0
    return a + o.k


case(_nondata_shadowed, (X, HasNonData()))


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a):
        self.a = a


def _slots_set_unset(x, s):
    s.b = x.sum()
    return x * s.a + s.b


case(_slots_set_unset, (X, Slotted(2.0)), (X, Slotted(np.float32(3.0))))


def _slots_read_missing(x, s):
    try:
        return s.b
    except AttributeError as e:
        return x * 0 + 1, type(e).__name__


case(_slots_read_missing, (X, Slotted(2.0)))


def _slots_del(x, s):
    s.b = 1.0
    del s.a
    return x + s.b, hasattr(s, "a")


case(_slots_del, (X, Slotted(2.0)))


class Prop:
    def __init__(self):
        self._v = 1.0
        self.sets = 0

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self.sets += 1
        self._v = value


def _property_setter_counts(x, p):
    p.v = p.v + 1
    p.v += 1
    return x * p.v


case(_property_setter_counts, (X, Prop()))


class RaisingSetter:
    @property
    def v(self):
        return 1.0

    @v.setter
    def v(self, value):
        raise ValueError("read only v")


def _property_setter_raises(x, o):
    y = x + 1
    try:
        o.v = 3.0
    except ValueError as e:
        return y, str(e)
    return y


case(_property_setter_raises, (X, RaisingSetter()))


def _property_setter_raises_uncaught(x, o, log):
    log.append("before")
    o.v = x.sum()
    log.append("after")


case(_property_setter_raises_uncaught, (X, RaisingSetter(), []))


# ============================================================================ metaclasses

class Meta(type):
    made = []

    def __call__(cls, *args):
        Meta.made.append(cls.__name__)
        return super().__call__(*args)


class Made(metaclass=Meta):
    def __init__(self, v):
        self.v = v


def _metaclass_call(x):
    o = Made(2.0)
    return x * o.v, list(Meta.made)


case(_metaclass_call, (X,), setup=lambda: Meta.made.clear(), watch=lambda: Meta.made)


class MetaAttr(type):
    def __getattr__(cls, name):
        return 7.0


class WithMetaAttr(metaclass=MetaAttr):
    pass


def _metaclass_getattr(x):
    return x + WithMetaAttr.anything


case(_metaclass_getattr, (X,))


class Base:
    registry = []

    def __init_subclass__(cls, tag="none", **kw):
        super().__init_subclass__(**kw)
        Base.registry.append((cls.__name__, tag))


def _init_subclass_inside(x):
    class Child(Base, tag="child"):
        pass
    return x * len(Base.registry), Child.__name__


case(_init_subclass_inside, (X,), setup=lambda: Base.registry.clear(),
     watch=lambda: Base.registry)


def _class_made_each_call(x):
    class K:
        v = 2.0
    return x * K.v, K.__qualname__


case(_class_made_each_call, (X,))


# ============================================================================ __getattr__

class Lazy:
    def __init__(self):
        self.misses = []

    def __getattr__(self, name):
        if name.startswith("__") or name == "misses":
            raise AttributeError(name)
        self.misses.append(name)
        if name.startswith("w"):
            return 3.0
        raise AttributeError(name)


def _getattr_fallback(x, o):
    return x * o.weight + o.weight, len(o.misses)


case(_getattr_fallback, lambda: (X.copy(), Lazy()))


def _getattr_hasattr(x, o):
    return hasattr(o, "weight"), hasattr(o, "bias"), x + 1, o.misses


case(_getattr_hasattr, lambda: (X.copy(), Lazy()))


def _getattr_getattr_default(x, o):
    return x * getattr(o, "bias", 2.0) + getattr(o, "wz", 0.0)


case(_getattr_getattr_default, lambda: (X.copy(), Lazy()))


class Spy:
    def __init__(self):
        object.__setattr__(self, "seen", [])
        object.__setattr__(self, "k", 2.0)

    def __getattribute__(self, name):
        object.__getattribute__(self, "seen").append(name)
        return object.__getattribute__(self, name)


def _getattribute_spy(x, o):
    return x * o.k, x + o.k


case(_getattribute_spy, lambda: (X.copy(), Spy()))


class SetSpy:
    def __init__(self):
        object.__setattr__(self, "log", [])

    def __setattr__(self, name, value):
        self.log.append(name)
        object.__setattr__(self, name, value)


def _setattr_spy(x, o):
    o.a = x.sum()
    o.b = 1
    return x + o.b


case(_setattr_spy, lambda: (X.copy(), SetSpy()))


class DelSpy:
    def __init__(self):
        self.a = 1.0
        self.log = []

    def __delattr__(self, name):
        self.log.append(name)
        object.__delattr__(self, name)


def _delattr_spy(x, o):
    y = x * o.a
    del o.a
    return y, hasattr(o, "a")


case(_delattr_spy, (X, DelSpy()))


# ============================================================================ eq / hash

class WeirdEq:
    """Equal to everything; hash constant: a guard that compares with == is fooled."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 1


def _eq_everything_as_key(x, k, table):
    return x * table[k]


def _weird_tables():
    a, b = WeirdEq(1), WeirdEq(2)
    return (X, a, {a: 2.0}), (X, b, {b: 5.0})


@scenario
def s_eq_everything_as_key(r):
    f = r.compile(_eq_everything_as_key)
    for args in _weird_tables():
        r.call(f, *args)
        r.call(f, *args)


def _eq_object_in_list(x, o, items):
    return x * (o in items), items.index(o) if o in items else -1


case(_eq_object_in_list, (X, WeirdEq(3), [1, 2]), (X, 5, [1, 2]))


class Unhashable:
    __hash__ = None


def _unhashable_key(x, o):
    d = {}
    try:
        d[o] = 1
    except TypeError as e:
        return x, str(e)
    return x + 1


case(_unhashable_key, (X, Unhashable()))


class EqNan:
    def __eq__(self, other):
        return np.nan


def _eq_returns_nan(x, o):
    return (x * 2) if o == 3 else x


case(_eq_returns_nan, (X, EqNan()))


class EqArray:
    def __eq__(self, other):
        return np.array([True, False])


def _eq_returns_array(x, o):
    try:
        return (x * 2) if o == 3 else x
    except ValueError as e:
        return str(e)


case(_eq_returns_array, (X, EqArray()))


# ============================================================================ __index__

class Idx:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def _index_object_item(x, i):
    return x[i], x[i:], x[: i]


case(_index_object_item, (X, Idx(1)), (X, Idx(-1)), (X, Idx(3)))


def _index_object_reshape(x, n):
    return x.reshape(n, -1), np.zeros(n), np.arange(n)


case(_index_object_reshape, (X, Idx(2)), (X, Idx(4)))


def _index_object_range(x, n):
    s = 0.0
    for i in range(n):
        s = s + x[i]
    return s


case(_index_object_range, (X, Idx(2)), (X, Idx(3)))


def _index_object_repeat_list(x, n):
    return [x.sum()] * n, x[[n, 0]]


case(_index_object_repeat_list, (X, Idx(2)), (X, Idx(0)))


def _index_object_out_of_range(x, i):
    try:
        return x[i]
    except IndexError as e:
        return "caught", type(e).__name__


case(_index_object_out_of_range, (X, Idx(10)), (X, Idx(2)))


def _index_bool_as_index(x, b):
    return x[b], x[int(b)]


case(_index_bool_as_index, (X, True), (X, False))


# ============================================================================ array-likes

class ArrayLike:
    def __init__(self, data):
        self.data = np.asarray(data, dtype=float)
        self.calls = 0

    def __array__(self, dtype=None, copy=None):
        self.calls += 1
        return self.data if dtype is None else self.data.astype(dtype)


def _array_protocol(x, a):
    return x + np.asarray(a), np.sum(a)


case(_array_protocol, (X, ArrayLike([1, 2, 3, 4])))


def _array_protocol_add(x, a):
    return x * np.array(a)


case(_array_protocol_add, (X, ArrayLike([4, 3, 2, 1])))


class UfuncOverride:
    def __init__(self):
        self.log = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kw):
        self.log.append((ufunc.__name__, method))
        return "overridden"


def _array_ufunc_override(x, o):
    return np.add(x, o), x + o, np.multiply(o, 2)


case(_array_ufunc_override, (X, UfuncOverride()))


class FuncOverride:
    def __init__(self):
        self.log = []

    def __array_function__(self, func, types, args, kwargs):
        self.log.append(func.__name__)
        return "function " + func.__name__


def _array_function_override(x, o):
    return np.concatenate([x, o]), np.mean(o), x.sum()


case(_array_function_override, (X, FuncOverride()))


class PriorityRadd:
    __array_priority__ = 100

    def __radd__(self, other):
        return "radd"

    def __rmul__(self, other):
        return "rmul"


def _array_priority_radd(x, o):
    return x + o, x * o


case(_array_priority_radd, (X, PriorityRadd()))


class UfuncNone:
    __array_ufunc__ = None

    def __radd__(self, other):
        return ("radd", type(other).__name__)


def _array_ufunc_none(x, o):
    try:
        np.add(x, o)
    except TypeError as e:
        t = type(e).__name__
    return x + o, t


case(_array_ufunc_none, (X, UfuncNone()))


# ============================================================================ subclasses

def _matrix_mul(a, b):
    return a * b, a @ b, (a * b).sum(axis=0)


case(_matrix_mul, lambda: (np.matrix([[1.0, 2.0], [3.0, 4.0]]), np.matrix([[0.0, 1.0], [1.0, 0.0]])))


def _matrix_ravel_index(a):
    return a.ravel(), a[0], a.T, a.mean()


case(_matrix_ravel_index, lambda: (np.matrix([[1.0, 2.0], [3.0, 4.0]]),))


def _masked_sum(a, b):
    return a.sum(), (a + b).mean(), np.sqrt(a)


case(_masked_sum, (np.ma.array([1.0, -4.0, 9.0], mask=[False, True, False]),
                   np.array([1.0, 1.0, 1.0])))


def _masked_from_array(x):
    m = np.ma.masked_less(x, 0)
    return m.sum(), m.filled(0.0), m.mask


case(_masked_from_array, (X,))


def _masked_fill_inplace(a):
    a += 1
    return a, a.data


case(_masked_fill_inplace, (np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0]),))


def _recarray_fields(r):
    return r.x * 2 + r.y, r["x"].sum()


case(_recarray_fields, (np.rec.fromarrays([np.arange(3.0), np.ones(3)], names="x,y"),))


class Tagged(np.ndarray):
    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "fresh")


def _ndarray_subclass_ops(t):
    y = t * 2 + 1
    return y, type(y).__name__, getattr(y, "tag", None), np.sum(t)


def _tagged():
    t = np.arange(4.0).view(Tagged)
    t.tag = "mine"
    return (t,)


case(_ndarray_subclass_ops, _tagged)


def _subclass_and_plain(x, t):
    return x + t, type(x + t).__name__


case(_subclass_and_plain, lambda: (X, _tagged()[0]))


def _structured_dtype(s):
    return s["a"] * 2, s["b"].sum(), s[0]


case(_structured_dtype, (np.array([(1, 2.0), (3, 4.0)], dtype=[("a", "i4"), ("b", "f8")]),))


def _string_array(s):
    return np.char.upper(s), s == "b", s[::-1]


case(_string_array, (np.array(["a", "b", "c"]),))


def _object_array(o):
    return o * 2, o.sum(), o[0]


case(_object_array, (np.array([1, 2.5, 3], dtype=object),),
     (np.array([[1], [2]], dtype=object),))


def _datetime_ops(d):
    return d + np.timedelta64(1, "D"), (d - d[0]).astype(int), d.max()


case(_datetime_ops, (np.array(["2020-01-01", "2020-03-01"], dtype="datetime64[D]"),))


def _timedelta_mean(t):
    return t.mean(), t * 2, t / np.timedelta64(1, "h")


case(_timedelta_mean, (np.array([3600, 7200], dtype="timedelta64[s]"),))


def _bytes_array(b):
    return b[0], b.astype("U"), b.size


case(_bytes_array, (np.array([b"ab", b"c"]),))


def _complex_array(z):
    return z.conj(), abs(z), z.real * z.imag, np.angle(z)


case(_complex_array, (np.array([1 + 2j, -0.0 - 1j, 3j]),))


def _float16_ops(h):
    return h * 3, h.sum(), h.mean(), (h / 3).dtype


case(_float16_ops, (np.array([1000.0, 2000.0, 60000.0], dtype=np.float16),))


def _longdouble(h):
    return h * 3, h.sum(), np.sqrt(h)


case(_longdouble, (np.array([1.0, 2.0], dtype=np.longdouble),))


# ============================================================================ functools

def _scale(x, k):
    return x * k


half = functools.partial(_scale, k=0.5)


def _partial_helper(x):
    return half(x) + half(x, k=2.0)


case(_partial_helper, (X,))


def _partial_made_inside(x, k):
    p = functools.partial(_scale, k=k)
    return p(x), p.keywords


case(_partial_made_inside, (X, 2.0), (X, 3))


def _logged(fn):
    @functools.wraps(fn)
    def wrapper(*a, **kw):
        wrapper.calls += 1
        return fn(*a, **kw)
    wrapper.calls = 0
    return wrapper


@_logged
def _wrapped_helper(x):
    return x - 1


def _wraps_helper(x):
    return _wrapped_helper(x) * 2, _wrapped_helper.__name__, _wrapped_helper.calls


case(_wraps_helper, (X,), setup=lambda: setattr(_wrapped_helper, "calls", 0))


def _partial_of_method(x, o):
    p = functools.partial(Prop.v.fset, o)
    p(4.0)
    return x * o.v, o.sets


case(_partial_of_method, (X, Prop()))


def _reduce_ops(x):
    return functools.reduce(lambda a, b: a * b + 1, [x, x, x])


case(_reduce_ops, (X,))


def _kwargs_method(x, o):
    return o.apply(x, scale=2.0), o.apply(x)


class Applier:
    def apply(self, x, *, scale=1.0, **extra):
        return x * scale + len(extra)


case(_kwargs_method, (X, Applier()), Args(X, o=Applier()))


# ============================================================================ protocols

class GetattrKeyError:
    def __getattr__(self, name):
        raise KeyError(name)


def _getattr_default_non_attribute_error(x, o):
    try:
        return getattr(o, "w", 1.0)
    except KeyError as e:
        return "key", e.args, x


case(_getattr_default_non_attribute_error, lambda: (X.copy(), GetattrKeyError()))


class PropValueError:
    @property
    def p(self):
        raise ValueError("bad p")


def _hasattr_propagates(x, o):
    try:
        return hasattr(o, "p")
    except ValueError as e:
        return str(e), x


case(_hasattr_propagates, lambda: (X.copy(), PropValueError()))


class Lengthy:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


def _len_protocol(x, o):
    try:
        return x * len(o), bool(o)
    except (ValueError, TypeError, OverflowError) as e:
        return type(e).__name__, str(e)


case(_len_protocol, lambda: (X.copy(), Lengthy(2)), lambda: (X.copy(), Lengthy(-1)),
     lambda: (X.copy(), Lengthy(np.int64(3))), lambda: (X.copy(), Lengthy(2**70)),
     lambda: (X.copy(), Lengthy(0)), lambda: (X.copy(), Lengthy(2.0)))


class Truthy:
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        return self.v


def _bool_protocol(x, o):
    try:
        return x * 2 if o else x, not o
    except TypeError as e:
        return str(e)


case(_bool_protocol, lambda: (X.copy(), Truthy(True)), lambda: (X.copy(), Truthy(1)),
     lambda: (X.copy(), Truthy(np.True_)))


class BadIndex:
    def __index__(self):
        return 1.5


def _bad_index(x, i):
    try:
        return x[i]
    except (TypeError, IndexError) as e:
        return type(e).__name__, str(e)


case(_bad_index, lambda: (X.copy(), BadIndex()), (X, 1.0), (X, np.float64(1.0)), (X, "1"),
     (X, None))


class Contains:
    def __contains__(self, item):
        return "yes" if item else ""


def _contains_protocol(x, o):
    return (1 in o), (0 in o), (1 not in o), x


case(_contains_protocol, lambda: (X.copy(), Contains()))


class OldSeq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * 1.5


def _old_sequence_iteration(x, s):
    return [v for v in s], x * sum(s), 2 in s, list(reversed(list(s)))


case(_old_sequence_iteration, lambda: (X.copy(), OldSeq()))


def _sum_of_arrays(x):
    return sum([x, x * 2], x), sum((v for v in (x, x)), start=np.zeros(4)), sum([])


case(_sum_of_arrays, (X,))


def _min_max_key_default(x):
    rows = [x, x * -1, x + 1]
    return (max(rows, key=lambda r: r[0])[0], min([], default="none"),
            max(3, 1, 2), min((1, "a"), (1, "b")))


case(_min_max_key_default, (X,))


def _all_any_of_arrays(x):
    try:
        return all([x, x])
    except ValueError as e:
        return "ambiguous", str(e), any([]), all([]), any(v > 2 for v in x)


case(_all_any_of_arrays, (X,), (X[:1],))


def _chained_compare_array(x):
    try:
        return 0 < x < 1
    except ValueError as e:
        return "ambiguous", str(e)


case(_chained_compare_array, (X,), (X[:1],), (np.array([0.5]),))


def _and_or_arrays(x, y):
    try:
        return (x and y), (x or y)
    except ValueError as e:
        return "ambiguous", str(e)


case(_and_or_arrays, (X, X), (X[:1], X), (np.zeros(1), X), (np.zeros(0), X))


def _unpack_array(x):
    try:
        a, b = x
        return a, b
    except ValueError as e:
        head, *rest = x
        return "unpack", str(e), head, rest


case(_unpack_array, (X,), (X[:2],), (X[:1],), (np.arange(4.0).reshape(2, 2),))


def _isinstance_abcs(x):
    import collections.abc
    import numbers
    s = x.sum()
    return (isinstance(s, numbers.Number), isinstance(s, numbers.Real), isinstance(s, float),
            isinstance(x, collections.abc.Sequence), isinstance(x.shape, collections.abc.Sequence),
            isinstance(x[0], np.floating), isinstance(np.int64(1), numbers.Integral))


case(_isinstance_abcs, (X,), (X.astype(np.float32),))


def _type_call_constructs(x):
    s = x.sum()
    return type(s)(2), type(x)(2).shape, type(x.shape)([1, 2]), type(s).__name__


case(_type_call_constructs, (X,), (X.astype(np.float32),))


def _scalar_methods(x):
    s = x.sum()
    return s.is_integer(), s.as_integer_ratio(), float(s).hex(), s.item(), hash(s) == hash(float(s))


case(_scalar_methods, (X,), (X.astype(np.float32),), (X[:0],))


def _scalar_conversions(x):
    s = x[0]
    return (int(s * 1e20), complex(s), float(np.float32(s)), round(s), round(s, 1),
            type(round(s)).__name__, math.floor(s), math.trunc(-s))


case(_scalar_conversions, (X,), (np.array([2.5, 1.0]),), (np.array([-0.5]),),
     (np.array([1.5], dtype=np.float32),))


def _math_functions(x):
    return (math.fsum(x), math.isclose(x[0], 1.0), math.prod(x[:2]), math.hypot(*x[:2]),
            math.dist(x[:2], x[2:4]))


case(_math_functions, (X,))


def _statistics_module(x):
    import statistics
    return statistics.mean(x.tolist()), statistics.median(x), statistics.pstdev(x.tolist())


case(_statistics_module, (X,))


def _tolist_item_types(x):
    lst = x.tolist()
    return [type(v).__name__ for v in lst], type(x[0].item()).__name__, type(x[0]).__name__


case(_tolist_item_types, (X,), (X.astype(np.float32),), (np.arange(3),), (np.array([True]),),
     (np.array([1 + 1j]),))


def _print_star_sep(x):
    print(*x, sep=",", end="|\n")
    print(*x.shape, x.dtype, flush=True)
    return x


case(_print_star_sep, (X,), (X.astype(np.float32),))


def _operator_module(x, o):
    import operator
    get = operator.attrgetter("k")
    item = operator.itemgetter(0, -1)
    return operator.mul(x, get(o)), item(x), operator.neg(x), operator.index(3)


class HasK:
    k = 2.5


case(_operator_module, (X, HasK()))


class WithAbs:
    def __abs__(self):
        return "abs called"

    def __neg__(self):
        return "neg called"


def _unary_protocols(x, o):
    return abs(o), -o, abs(x), -x


case(_unary_protocols, lambda: (X.copy(), WithAbs()))


def _pow_three_args(x, n):
    return pow(n, 2, 7), pow(n, -1, 7), x ** 2


case(_pow_three_args, (X, 3), (X, 5))


def _divmod_arrays(x):
    q, r = divmod(x, 2.0)
    return q, r, divmod(x, -0.5), np.divmod(x, 3)


case(_divmod_arrays, (X,))
