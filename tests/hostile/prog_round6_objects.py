"""Round 6, objects: descriptors with ``__set_name__`` and ``__delete__``, ``__slots__``
with defaults and weakrefs, ``__class_getitem__``, metaclasses with ``__call__`` and
``__prepare__``, ``functools`` chains (``partial`` of ``partial``, ``singledispatch``,
``lru_cache``, ``wraps``, ``reduce``, ``cached_property``), dataclasses (frozen,
``__post_init__``, ``field(default_factory)``, ``replace``, ``astuple``) and ``enum``
values in array math: each must be exact or fall back."""

import dataclasses
import enum
import functools
import operator
import typing

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round6_objects")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
M = np.arange(6.0).reshape(2, 3)


# ============================================================================ descriptors

class Named:
    """A descriptor that learns its name and logs every access on the instance."""

    def __set_name__(self, owner, name):
        self.public, self.private = name, "_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        obj.log.append(("get", self.public))
        return getattr(obj, self.private, 1.0)

    def __set__(self, obj, value):
        obj.log.append(("set", self.public))
        setattr(obj, self.private, value)

    def __delete__(self, obj):
        obj.log.append(("del", self.public))
        delattr(obj, self.private)


class WithNamed:
    a = Named()
    b = Named()

    def __init__(self):
        self.log = []


def _named_get_set(x, o):
    o.a = 3.0
    y = x * o.a
    o.b = o.a + 1
    return y + o.b


case(_named_get_set, (X, WithNamed()))


def _named_delete(x, o):
    o.a = 2.0
    y = x * o.a
    del o.a
    return y + o.a


case(_named_delete, (X, WithNamed()))


def _named_read_in_loop(x, o):
    o.a = 0.5
    for _ in range(3):
        x = x * o.a
    return x


case(_named_read_in_loop, (X, WithNamed()))


class Validated:
    """A descriptor that rejects negatives (raises in __set__)."""

    def __set_name__(self, owner, name):
        self.name = "_v_" + name

    def __get__(self, obj, owner=None):
        return self if obj is None else getattr(obj, self.name)

    def __set__(self, obj, value):
        if value < 0:
            raise ValueError(f"negative {value}")
        setattr(obj, self.name, value)


class HasValidated:
    k = Validated()


def _validated_raises(x, o, v):
    o.k = 1.0
    y = x * o.k
    o.k = v
    return y + o.k


case(_validated_raises, (X, HasValidated(), 2.0), (X, HasValidated(), -1.0))


def _descriptor_on_class_access(x):
    d = WithNamed.__dict__["a"]
    return x * len(d.public), d.private


case(_descriptor_on_class_access, (X,))


class Lazy:
    """A non-data descriptor that caches on the instance (a cached_property by hand)."""

    def __init__(self, fn):
        self.fn = fn

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name] = value
        return value


class HasLazy:
    def __init__(self, base):
        self.base = base
        self.computed = 0

    @Lazy
    def norm(self):
        self.computed += 1
        return np.sqrt((self.base ** 2).sum())


def _lazy_twice(x, o):
    return x / o.norm + o.norm, o.computed


case(_lazy_twice, (X, HasLazy(X)))


class CachedNorm:
    def __init__(self, v):
        self.v = v
        self.n = 0

    @functools.cached_property
    def norm(self):
        self.n += 1
        return float(np.abs(self.v).sum())


def _cached_property_reads(x, o):
    a = x * o.norm
    b = a + o.norm
    return b, o.n


case(_cached_property_reads, (X, CachedNorm(X)))


def _cached_property_invalidate(x, o):
    a = x * o.norm
    del o.norm
    o.v = o.v * 2
    return a + o.norm, o.n


case(_cached_property_invalidate, (X, CachedNorm(X)))


# ============================================================================ slots

class SlotsDefault:
    __slots__ = ("w", "b", "__weakref__")

    def __init__(self, w):
        self.w = w


def _slots_unset_read(x, o):
    y = x * o.w
    try:
        return y + o.b
    except AttributeError as e:
        return y, str(e)


case(_slots_unset_read, (X, SlotsDefault(2.0)))


def _slots_set_new_attr(x, o):
    y = x + o.w
    try:
        o.extra = 1
    except AttributeError as e:
        return y, type(e).__name__
    return y, "set"


case(_slots_set_new_attr, (X, SlotsDefault(2.0)))


def _slots_set_then_read(x, o):
    o.b = x.sum()
    return x * o.w + o.b


case(_slots_set_then_read, (X, SlotsDefault(3.0)))


class SlotsChild(SlotsDefault):
    __slots__ = ("c",)

    def __init__(self, w, c):
        super().__init__(w)
        self.c = c


def _slots_inherited(x, o):
    return x * o.w - o.c


case(_slots_inherited, (X, SlotsChild(2.0, 1.0)), (X, SlotsChild(np.float32(2), 3)))


def _slots_del(x, o):
    y = x * o.w
    del o.w
    return y, hasattr(o, "w")


case(_slots_del, (X, SlotsDefault(2.0)))


# ============================================================================ class_getitem

class Typed:
    seen = []

    def __class_getitem__(cls, item):
        cls.seen.append(item)
        return cls


def _class_getitem_in_body(x):
    t = Typed[float]
    return x * 2, t is Typed, len(Typed.seen) > 0


@scenario
def s_class_getitem_side_effect(r):
    Typed.seen.clear()
    f = r.compile(_class_getitem_in_body)
    r.call(f, X)
    r.call(f, X)
    r.see("seen", list(Typed.seen))


def _generic_alias(x):
    alias = list[int]
    return x + 1, repr(alias), typing.get_origin(alias) is list


case(_generic_alias, (X,))


class Box(typing.Generic[typing.TypeVar("T")]):
    def __init__(self, v):
        self.v = v


def _generic_class_subscript(x):
    B = Box[float]
    b = B(x)
    return b.v * 2, type(b).__name__


case(_generic_class_subscript, (X,))


# ============================================================================ metaclasses

class CountingMeta(type):
    made = 0

    def __call__(cls, *args, **kwargs):
        CountingMeta.made += 1
        obj = super().__call__(*args, **kwargs)
        obj.serial = CountingMeta.made
        return obj


class Counted(metaclass=CountingMeta):
    def __init__(self, v):
        self.v = v


def _metaclass_call(x):
    a = Counted(x * 2)
    b = Counted(x + 1)
    return a.v + b.v, b.serial - a.serial


case(_metaclass_call, (X,))


class Singleton(type):
    def __call__(cls, *args):
        if "_inst" not in cls.__dict__:
            cls._inst = super().__call__(*args)
        return cls._inst


class Config(metaclass=Singleton):
    def __init__(self, scale=2.0):
        self.scale = scale


def _singleton_metaclass(x, s):
    c = Config(s)
    return x * c.scale


@scenario
def s_singleton_metaclass(r):
    Config.__dict__.get("_inst") and delattr(Config, "_inst")
    f = r.compile(_singleton_metaclass)
    r.call(f, X, 3.0)
    r.call(f, X, 5.0)
    delattr(Config, "_inst")
    r.call(f, X, 7.0)
    delattr(Config, "_inst")


class AttrMeta(type):
    def __getattr__(cls, name):
        return len(name)


class Dyn(metaclass=AttrMeta):
    pass


def _metaclass_getattr(x):
    return x * Dyn.abc + Dyn.hello


case(_metaclass_getattr, (X,))


class OrderedMeta(type):
    @classmethod
    def __prepare__(mcs, name, bases):
        return {"_order": []}

    def __new__(mcs, name, bases, ns):
        ns["_fields"] = tuple(k for k in ns if not k.startswith("_"))
        return super().__new__(mcs, name, bases, ns)


class Fields(metaclass=OrderedMeta):
    z = 3.0
    a = 1.0


def _metaclass_prepare(x):
    return x * Fields.z + Fields.a, Fields._fields


case(_metaclass_prepare, (X,))


def _type_call_three_args(x):
    K = type("K", (), {"s": 2.0})
    return x * K().s, K.__name__


case(_type_call_three_args, (X,))


# ============================================================================ functools

def _scale(x, a, b=1.0):
    return x * a + b


def _partial_of_partial(x):
    p = functools.partial(functools.partial(_scale, a=2.0), b=3.0)
    return p(x), p.keywords


case(_partial_of_partial, (X,))


def _partial_overrides_keyword(x, p):
    return p(x, b=10.0)


case(_partial_overrides_keyword, (X, functools.partial(_scale, a=2.0, b=1.0)))


def _partial_positional_conflict(x, p):
    try:
        return p(x, 2.0)
    except TypeError as e:
        return str(e)


case(_partial_positional_conflict, (X, functools.partial(_scale, a=2.0)))


@functools.singledispatch
def _describe(v):
    return "object"


@_describe.register
def _(v: float):
    return "float"


@_describe.register
def _(v: np.ndarray):
    return f"array{v.ndim}"


def _singledispatch_on_array(x, v):
    return x * 2, _describe(x), _describe(v)


case(_singledispatch_on_array, (X, 1.0), (X, "s"), (M, M))


@scenario
def s_singledispatch_register_later(r):
    class Later:                 # a fresh class each run: the registration stays local
        pass
    f = r.compile(_singledispatch_on_array)
    r.call(f, X, Later())
    _describe.register(Later, lambda v: "later")
    r.call(f, X, Later())
    r.call(f, X, 3)


_calls = []


@functools.lru_cache(maxsize=4)
def _cached_factor(n):
    _calls.append(n)
    return n * 0.5


def _lru_cache_inside(x, n):
    return x * _cached_factor(n), _cached_factor.cache_info().hits


@scenario
def s_lru_cache_inside(r):
    _calls.clear()
    _cached_factor.cache_clear()
    f = r.compile(_lru_cache_inside)
    for n in (1, 2, 1, 3, 1):
        r.call(f, X, n)
    r.see("calls", list(_calls))


def _lru_cache_unhashable(x, key):
    try:
        return _cached_factor(key)
    except TypeError as e:
        return x, str(e)


case(_lru_cache_unhashable, (X, [1]))


def _logged(fn):
    @functools.wraps(fn)
    def inner(*args, **kwargs):
        inner.calls += 1
        return fn(*args, **kwargs)
    inner.calls = 0
    return inner


@_logged
def _wrapped_twice(x):
    return x * 3


_wrapped_twice_outer = _logged(_wrapped_twice)


def _wraps_chain(x):
    y = _wrapped_twice_outer(x)
    return y, _wrapped_twice_outer.__wrapped__.__name__, _wrapped_twice.calls


def _reset_wrapped_counts():
    _wrapped_twice.calls = _wrapped_twice_outer.calls = 0


case(_wraps_chain, (X,), setup=_reset_wrapped_counts)


def _reduce_arrays(xs):
    return functools.reduce(operator.add, xs, np.zeros(4))


case(_reduce_arrays, ([X, X * 2, X * 3],), ([X],))


def _reduce_empty_no_initial(xs):
    try:
        return functools.reduce(np.maximum, xs)
    except TypeError as e:
        return str(e)


case(_reduce_empty_no_initial, ([],), ([X, -X],))


def _cmp_to_key_sort(xs):
    def cmp(a, b):
        return int(np.sign(a.sum() - b.sum()))
    return sorted(xs, key=functools.cmp_to_key(cmp))


case(_cmp_to_key_sort, ([X * 3, X, -X],))


def _total_ordering_compare(x, a, b):
    return x * (a < b), a <= b, a > b


@functools.total_ordering
class Ranked:
    def __init__(self, r):
        self.r = r

    def __eq__(self, other):
        return self.r == other.r

    def __lt__(self, other):
        return self.r < other.r


case(_total_ordering_compare, (X, Ranked(1), Ranked(2)), (X, Ranked(3), Ranked(3)))


def _methodcaller_on_array(x):
    return operator.methodcaller("reshape", 2, 2)(x), operator.attrgetter("T.shape")(M)


case(_methodcaller_on_array, (X,))


def _itemgetter_multi(x):
    return operator.itemgetter(0, 2)(x), operator.itemgetter(slice(1, 3))(x)


case(_itemgetter_multi, (X,))


# ============================================================================ dataclasses

@dataclasses.dataclass(frozen=True)
class Frozen:
    a: float
    b: float = 2.0


def _frozen_assign(x, p):
    y = x * p.a
    try:
        p.a = 5.0
    except dataclasses.FrozenInstanceError as e:
        return y + p.b, type(e).__name__
    return y, "assigned"


case(_frozen_assign, (X, Frozen(3.0)))


def _frozen_replace(x, p):
    q = dataclasses.replace(p, b=x.sum())
    return x * q.a + q.b, q == p, hash(Frozen(1.0)) == hash(Frozen(1.0))


case(_frozen_replace, (X, Frozen(3.0)))


@dataclasses.dataclass
class Post:
    data: np.ndarray
    total: float = dataclasses.field(init=False)
    tags: list = dataclasses.field(default_factory=list)

    def __post_init__(self):
        self.total = float(self.data.sum())
        self.tags.append("made")


def _post_init_in_body(x):
    p = Post(x * 2)
    q = Post(x)
    q.tags.append("second")
    return p.total + q.total, p.tags, q.tags, p.tags is q.tags


case(_post_init_in_body, (X,))


def _dataclass_mutate_arg(x, p):
    p.data = p.data + x
    p.tags.append(len(p.tags))
    return p.data.sum()


case(_dataclass_mutate_arg, (X, Post(X.copy())))


def _astuple_with_array(x, p):
    t = dataclasses.astuple(p)
    d = dataclasses.asdict(p)
    return t[0] * 2, sorted(d), d["data"] is p.data


case(_astuple_with_array, (X, Post(X.copy())))


def _dataclass_eq_with_arrays(x, p, q):
    try:
        return p == q
    except ValueError as e:
        return x, str(e)


case(_dataclass_eq_with_arrays, (X, Post(X.copy()), Post(X.copy())))


@dataclasses.dataclass(order=True)
class Ord:
    k: int
    v: float = dataclasses.field(compare=False, default=0.0)


def _dataclass_order(x, a, b):
    return x * max(a, b).v, a < b, sorted([b, a])[0].k


case(_dataclass_order, (X, Ord(1, 2.0), Ord(2, 3.0)), (X, Ord(5, 1.0), Ord(2, 3.0)))


@dataclasses.dataclass
class WithSlots:
    __slots__ = ("a", "b")
    a: float
    b: float


def _dataclass_slots(x, o):
    o.a = o.a * 2
    return x * o.a + o.b


case(_dataclass_slots, (X, WithSlots(1.0, 2.0)))


def _dataclass_fields_introspect(x):
    names = [f.name for f in dataclasses.fields(Post)]
    return x * len(names), names


case(_dataclass_fields_introspect, (X,))


# ============================================================================ enum

class Mode(enum.Enum):
    SUM = 1
    MEAN = 2


class Weight(float, enum.Enum):
    LOW = 0.5
    HIGH = 2.0


class Flags(enum.IntFlag):
    A = 1
    B = 2
    C = 4


def _enum_dispatch(x, m):
    if m is Mode.SUM:
        return x.sum()
    return x.mean()


case(_enum_dispatch, (X, Mode.SUM), (X, Mode.MEAN))


def _float_enum_in_math(x, w):
    y = x * w
    return y, type(y).__name__, y.dtype


case(_float_enum_in_math, (X, Weight.LOW), (X, Weight.HIGH))


def _intflag_in_math(x, f):
    return x * f, x[int(f) % 4], bool(f & Flags.B)


case(_intflag_in_math, (X, Flags.A | Flags.B), (X, Flags.C))


def _intflag_array_from(f):
    return np.array([f, Flags.B]), np.full(2, f)


case(_intflag_array_from, (Flags.A | Flags.C,))


def _enum_value_attr(x, m):
    return x * m.value, m.name


case(_enum_value_attr, (X, Mode.MEAN))


def _enum_iteration(x):
    total = x * 0
    for w in Weight:
        total = total + x * w.value
    return total, [w.name for w in Weight]


case(_enum_iteration, (X,))


def _enum_lookup_by_value(x, v):
    try:
        return x * Mode(v).value
    except ValueError as e:
        return str(e)


case(_enum_lookup_by_value, (X, 2), (X, 7))


def _enum_as_dict_key(x, m):
    table = {Mode.SUM: np.sum, Mode.MEAN: np.mean}
    return table[m](x)


case(_enum_as_dict_key, (X, Mode.SUM), (X, Mode.MEAN))


class Strs(str, enum.Enum):  # noqa: UP042 (on purpose)
    LEFT = "left"
    RIGHT = "right"


def _str_enum_searchsorted(x, side):
    return np.searchsorted(np.sort(x), 1.0, side=side.value)


case(_str_enum_searchsorted, (X, Strs.LEFT), (X, Strs.RIGHT))


# ============================================================================ mixed

class Vec:
    """An object with arithmetic dunders returning new objects."""

    def __init__(self, a):
        self.a = a

    def __add__(self, other):
        return Vec(self.a + (other.a if isinstance(other, Vec) else other))

    __radd__ = __add__

    def __mul__(self, k):
        return Vec(self.a * k)


def _user_dunders(x):
    v = Vec(x) + Vec(x * 2)
    w = 1.0 + v * 3
    return w.a


case(_user_dunders, (X,))


def _array_plus_user_object(x, v):
    try:
        return x + v
    except TypeError as e:
        return str(e)


case(_array_plus_user_object, (X, Vec(1.0)))


class Indexish:
    def __init__(self, i):
        self.i = i
        self.calls = 0

    def __index__(self):
        self.calls += 1
        return self.i


def _index_object_twice(x, i):
    return x[i] + x[i], i.calls


case(_index_object_twice, (X, Indexish(2)))


class Floaty:
    def __float__(self):
        return 2.5


def _float_dunder_in_np(x, f):
    return x * float(f), np.float64(f)


case(_float_dunder_in_np, (X, Floaty()))


class BoolRaises:
    def __bool__(self):
        raise RuntimeError("no truth")


def _bool_raises_in_if(x, b):
    y = x * 2
    if b:
        return y
    return -y


case(_bool_raises_in_if, (X, BoolRaises()))


class LenObj:
    def __len__(self):
        return 3


def _len_user_object_as_size(x, o):
    return np.zeros(len(o)) + x[:len(o)]


case(_len_user_object_as_size, (X, LenObj()))


class Hashy:
    hashes = 0

    def __hash__(self):
        Hashy.hashes += 1
        return 7

    def __eq__(self, other):
        return isinstance(other, Hashy)


def _hash_counted_dict(x, h):
    d = {h: x}
    return d[h] * 2, Hashy.hashes


@scenario
def s_hash_counted_dict(r):
    Hashy.hashes = 0
    f = r.compile(_hash_counted_dict)
    h = Hashy()
    r.call(f, X, h)
    r.call(f, X, h)


def _getattr_default_chain(x, o):
    s = getattr(o, "scale", getattr(o, "fallback", 2.0))
    return x * s


case(_getattr_default_chain, (X, Frozen(1.0)), (X, WithNamed()), calls=1)


def _vars_of_object(x, o):
    o.extra = x.sum()
    return sorted(vars(o)), vars(o) is o.__dict__


case(_vars_of_object, (X, CachedNorm(X)))


def _setattr_builtin(x, o):
    setattr(o, "w", x * 2)  # noqa: B010 (on purpose)
    return o.w.sum(), getattr(o, "w") is o.w  # noqa: B009 (on purpose)


case(_setattr_builtin, (X, SlotsDefault(1.0)))


def _isinstance_tuple_of_abcs(x, v):
    import collections.abc as cabc
    return x * isinstance(v, (cabc.Sequence, cabc.Mapping)), isinstance(v, cabc.Iterable)


case(_isinstance_tuple_of_abcs, (X, [1]), (X, {"a": 1}), (X, 3))


def _args_kw_merge(x, **kw):
    return x * kw.get("a", 1.0) + kw.get("b", 0.0), sorted(kw)


case(_args_kw_merge, Args(X, a=2.0), Args(X, b=1.0, a=3.0), Args(X))
