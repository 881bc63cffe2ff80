"""Round 45, reads that run the program's code (1 of 4): attributes. Hoisted guard reads
(``guards/hoisted_reads.py``, ``dynamo/checked_reads.py``: a check binds a read that
recurs to a name, and the glue reads the graph's inputs from it) attacked with objects
whose reads run code: ``__getattr__``, ``__getattribute__``, descriptors (also read
through the class), properties, metaclasses' ``__getattribute__``, a ``__dict__`` that
is a property, a module's own ``__getattr__``, ``functools.cached_property``, values
the program rebinds before it reads them again, objects whose ``__del__`` prints.
Plain Python reads each exactly as often, and in the order, the program does; the
compiled function must too (or break, or run the frame as it is).

    >>> class Spy:
    ...     def __getattr__(self, name):       # runs on every read of a missing name
    ...         SEEN.append(name)
    ...         return 2.0
    >>> def f(o, x):
    ...     return x * o.scale + o.scale       # two reads: SEEN grows by two a call
"""

import types

import numpy as np
from hostile_check import Programs
from round45_support import SEEN, _run, _x

reg = Programs("round45_reads")


# ----------------------------------------------------------------------------- attributes

class _Fallback:
    """``scale`` is missing: every read runs ``__getattr__``."""

    def __init__(self):
        self.w = np.ones(4)

    def __getattr__(self, name):
        SEEN.append(name)
        if name == "scale":
            return 2.0
        raise AttributeError(name)


def _two_fallback_reads(o, x):
    return x * o.scale + o.scale, o.w * o.scale


@reg.scenario
def s_getattr_fallback_counts(r):
    o = _Fallback()
    _run(r, _two_fallback_reads, (o, _x()))


class _Drifting:
    """``__getattr__`` answers another number on every read."""

    def __init__(self):
        self.n = 0

    def __getattr__(self, name):
        if name != "k":
            raise AttributeError(name)
        self.__dict__["n"] += 1
        SEEN.append(self.__dict__["n"])
        return float(self.__dict__["n"])


def _drift_reads(o, x):
    a = x * o.k
    b = x + o.k
    return a, b, o.n


@reg.scenario
def s_getattr_drifts(r):
    _run(r, _drift_reads, (_Drifting(), _x()))


class _Counted:
    """Every attribute read counts (``__getattribute__``)."""

    def __init__(self, w, s):
        self.w, self.s = w, s

    def __getattribute__(self, name):
        SEEN.append(name)
        return object.__getattribute__(self, name)


def _counted_reads(o, x):
    y = x * o.s + o.w
    return y * o.s, o.w.shape


@reg.scenario
def s_getattribute_counts(r):
    o = _Counted(np.full(4, 3.0), 0.5)
    _run(r, _counted_reads, (o, _x()))
    o.s = 2.0
    _run(r, _counted_reads, (o, _x()), times=2)


class _Flipping:
    """``__getattribute__`` answers a new array on each read of ``w``."""

    def __init__(self):
        object.__setattr__(self, "reads", 0)

    def __getattribute__(self, name):
        if name == "w":
            n = object.__getattribute__(self, "reads") + 1
            object.__setattr__(self, "reads", n)
            return np.full(4, float(n))
        return object.__getattribute__(self, name)


def _flip_reads(o, x):
    return x + o.w, x * o.w, o.reads


@reg.scenario
def s_getattribute_new_array_each_read(r):
    _run(r, _flip_reads, (_Flipping(), _x()))


class _CountingDescriptor:
    """A non-data descriptor on the class: each ``o.w`` runs ``__get__``."""

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        SEEN.append("get")
        return obj.base * len(SEEN)


class _WithDescriptor:
    w = _CountingDescriptor()

    def __init__(self):
        self.base = np.ones(3)


def _descriptor_reads(o, x):
    return x * o.w + o.w


@reg.scenario
def s_descriptor_counts_and_drifts(r):
    _run(r, _descriptor_reads, (_WithDescriptor(), np.arange(3.0)))


class _Prop:
    def __init__(self):
        self.calls = 0
        self.cache = {"w": np.ones(3), 5: np.full(3, 2.0)}

    @property
    def t(self):
        self.calls += 1
        return self.calls * 0.5


def _prop_and_cache(o, x):
    a = x * o.t + o.cache["w"]
    b = a + o.cache[5] * o.t
    return b, o.cache[5].shape, o.calls


@reg.scenario
def s_property_between_cache_reads(r):
    o = _Prop()
    _run(r, _prop_and_cache, (o, np.arange(3.0)))
    o.cache[5] = np.full(3, -1.0, np.float32)
    _run(r, _prop_and_cache, (o, np.arange(3.0)), times=2)


class _Cache:
    def __init__(self):
        self.cache = {5: np.arange(3.0), "w": np.ones(3)}


def _rebinds_then_reads(o, x):
    """The program replaces ``o.cache[5]`` before it reads it again: the read the
    check made (hoisted) is stale by then."""
    y = x * o.cache[5]
    o.cache[5] = o.cache[5] + 1.0
    return y + o.cache[5] + o.cache["w"]


@reg.scenario
def s_hoisted_source_rebound_by_program(r):
    o = _Cache()
    _run(r, _rebinds_then_reads, (o, np.arange(3.0)), watch=lambda: o.cache)


def _replaces_dict_then_reads(o, x):
    y = x * o.cache["w"]
    o.cache = {5: o.cache[5] * 2, "w": o.cache["w"] - 1}
    return y + o.cache["w"], o.cache[5]


@reg.scenario
def s_hoisted_dict_replaced_by_program(r):
    o = _Cache()
    _run(r, _replaces_dict_then_reads, (o, np.arange(3.0)), watch=lambda: o.cache)


class _FloatWrites:
    """``float(o)`` writes into the cache the function reads next."""

    def __init__(self, holder):
        self.holder = holder

    def __float__(self):
        self.holder.cache["w"] = self.holder.cache["w"] + 10.0
        SEEN.append("float")
        return 1.5


def _float_then_cache(o, k, x):
    s = float(k)
    return x * s + o.cache["w"] * o.cache["w"], o.cache["w"]


@reg.scenario
def s_float_writes_hoisted_source(r):
    o = _Cache()
    k = _FloatWrites(o)
    _run(r, _float_then_cache, (o, k, np.arange(3.0)), watch=lambda: o.cache)


class _Chain:
    def __init__(self, inner):
        self.inner = inner


class _Inner:
    def __init__(self):
        self.v = np.arange(3.0)

    def __getattr__(self, name):
        SEEN.append(name)
        if name == "scale":
            return 3.0
        raise AttributeError(name)


def _chain_reads(o, x):
    return x * o.inner.scale + o.inner.v * o.inner.scale, o.inner.v.shape


@reg.scenario
def s_chain_through_getattr(r):
    o = _Chain(_Inner())
    _run(r, _chain_reads, (o, np.arange(3.0)))
    o.inner = _Inner()
    _run(r, _chain_reads, (o, np.arange(3.0)), times=2)


class _Slotted:
    __slots__ = ("w", "n")

    def __init__(self):
        self.w = np.ones(3)
        self.n = 2


def _slot_reads(o, x):
    o.n += 1
    return x * o.w + o.n, o.w.shape, o.n


@reg.scenario
def s_slots_reads_and_write(r):
    o = _Slotted()
    _run(r, _slot_reads, (o, np.arange(3.0)), watch=lambda: (o.n, o.w))
    o.w = np.ones(3, np.float32)
    _run(r, _slot_reads, (o, np.arange(3.0)), times=2, watch=lambda: (o.n, o.w))


# ----------------------------------------------------------------------------- classes

class _LoudClassDescriptor:
    """Counts every ``__get__``, also through the class (``type(o).w``)."""

    def __get__(self, obj, owner=None):
        SEEN.append("class get" if obj is None else "get")
        return 2.0 if obj is None else obj.base


class _WithLoud:
    w = _LoudClassDescriptor()

    def __init__(self):
        self.base = np.ones(3)


def _loud_descriptor(o, x):
    return x * o.w + type(o).w


@reg.scenario
def s_descriptor_counts_through_class(r):
    _run(r, _loud_descriptor, (_WithLoud(), np.arange(3.0)))


class _Meta(type):
    def __getattribute__(cls, name):
        if not name.startswith("__"):
            SEEN.append(("meta", name))
        return type.__getattribute__(cls, name)


class _MetaUser(metaclass=_Meta):
    scale = 2.0

    def __init__(self):
        self.w = np.ones(3)

    def apply(self, x):
        return x * self.scale + self.w * type(self).scale


@reg.scenario
def s_metaclass_getattribute_counts(r):
    o = _MetaUser()
    _run(r, _MetaUser.apply, (o, np.arange(3.0)))
    _MetaUser.scale = 3.0
    _run(r, _MetaUser.apply, (o, np.arange(3.0)), times=2)
    _MetaUser.scale = 2.0


class _Mode:
    """Compares equal to a string, counting."""

    def __init__(self, name):
        self.name = name

    def __eq__(self, other):
        SEEN.append(("eq", other))
        return self.name == other

    __hash__ = None


class _Configured:
    def __init__(self, mode):
        self.mode = mode
        self.w = np.ones(3)


def _by_mode(o, x):
    if o.mode == "fast":
        return x * o.w
    return x + o.w


@reg.scenario
def s_attribute_eq_counts_and_flips(r):
    o = _Configured(_Mode("fast"))
    _run(r, _by_mode, (o, np.arange(3.0)))
    o.mode.name = "slow"
    _run(r, _by_mode, (o, np.arange(3.0)), times=2)


class _HashKey:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        SEEN.append("hash")
        return hash(self.k)

    def __eq__(self, other):
        return isinstance(other, _HashKey) and self.k == other.k


class _Keyed:
    def __init__(self):
        self.key = _HashKey(1)
        self.table = {_HashKey(1): np.ones(3), _HashKey(2): np.zeros(3)}


def _by_key(o, x):
    return x + o.table[o.key] * 2 + o.table[o.key]


@reg.scenario
def s_attribute_key_hash_counts(r):
    o = _Keyed()
    _run(r, _by_key, (o, np.arange(3.0)))
    o.key.k = 2
    _run(r, _by_key, (o, np.arange(3.0)), times=2)


# ----------------------------------------------------------------------------- modules and caches

def _make_module():
    import types
    m = types.ModuleType("round45_lazy_config")

    def __getattr__(name):
        SEEN.append(("module", name))
        if name == "scale":
            return 2.0
        raise AttributeError(name)
    m.__getattr__ = __getattr__
    m.w = np.ones(4)
    return m


CFG = _make_module()


def _module_getattr(x):
    return x * CFG.scale + CFG.w * CFG.scale


@reg.scenario
def s_module_getattr_counts(r):
    _run(r, _module_getattr, (_x(),))
    CFG.scale = 3.0
    _run(r, _module_getattr, (_x(),), times=2)
    del CFG.scale


class _Cached:
    def __init__(self):
        self.computed = 0

    @__import__("functools").cached_property
    def w(self):
        self.computed += 1
        SEEN.append("computed")
        return np.full(4, float(self.computed))


def _cached(o, x):
    return x * o.w + o.w, o.computed


@reg.scenario
def s_cached_property_computed_once(r):
    o = _Cached()
    _run(r, _cached, (o, _x()))
    del o.w
    _run(r, _cached, (o, _x()), times=2)


class _DictProperty:
    """``__dict__`` itself is a property of the class that counts."""

    def __init__(self):
        object.__setattr__(self, "w", np.ones(4))

    @property
    def __dict__(self):  # noqa: PLW3201
        SEEN.append("__dict__")
        return {"w": np.zeros(4)}


def _dict_property(o, x):
    return x * 2 + o.w, vars(o)["w"]


@reg.scenario
def s_dict_attribute_is_a_property(r):
    _run(r, _dict_property, (_DictProperty(), _x()))


class _DelLoud:
    def __init__(self, name):
        self.name = name
        self.scale = 2.0

    def __del__(self):
        print("del", self.name)


class _Holds:
    def __init__(self):
        self.cache = {5: _DelLoud("first"), "w": np.ones(4)}


def _replace_dying(o, x, k):
    y = x * o.cache[5].scale + o.cache["w"] * o.cache[5].scale
    o.cache[5] = _DelLoud(f"call {k}")
    print("after store")
    return y


@reg.scenario
def s_hoisted_value_dies_at_the_store(r):
    o = _Holds()
    f = r.compile(_replace_dying)
    for k in range(4):
        r.call(f, o, _x(), k)
    o.cache = None


# ----------------------------------------------------------------------------- descriptors reached other ways

class _LoudBase:
    w = _LoudClassDescriptor()

    def __init__(self):
        self.base = np.ones(3)


class _LoudChild(_LoudBase):
    def read(self, x):
        return x * super().w + type(self).w


@reg.scenario
def s_descriptor_through_super_and_subclass(r):
    o = _LoudChild()
    _run(r, _LoudChild.read, (o, np.arange(3.0)))


def _descriptor_by_getattr(o, x):
    return x * type(o).w + o.w


@reg.scenario
def s_descriptor_through_getattr_builtin(r):
    _run(r, _descriptor_by_getattr, (_WithLoud(), np.arange(3.0)))


class _LoudData:
    """A data descriptor of the program's: wins over the instance's own entry."""

    def __get__(self, obj, owner=None):
        SEEN.append("data get")
        return 3.0 if obj is None else obj.__dict__.get("_w", 1.0)

    def __set__(self, obj, value):
        SEEN.append("data set")
        obj.__dict__["_w"] = value


class _WithData:
    w = _LoudData()


def _data_descriptor(o, x):
    o.w = float(x[0]) + 1.0
    return x * o.w + _WithData.w


@reg.scenario
def s_data_descriptor_set_and_read(r):
    _run(r, _data_descriptor, (_WithData(), np.arange(3.0)))


class _PropModule(types.ModuleType):
    @property
    def scale(self):
        SEEN.append("module property")
        return 2.0


PMOD = _PropModule("round45_prop_module")
PMOD.w = np.ones(4)


def _module_property(x):
    return x * PMOD.scale + PMOD.w * PMOD.scale


@reg.scenario
def s_module_subclass_property_counts(r):
    _run(r, _module_property, (_x(),))
