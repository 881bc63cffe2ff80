"""Round 30, class attribute writes replayed after the graph
(``variables/class_writes.py``): ``Counter.n += 1`` and ``type(self).n += 1`` where the
class is not what the first calls saw: a subclass shadowing the attribute, an instance
attribute shadowing it, a metaclass, ``__slots__``, ``__init_subclass__``, a descriptor
or a property of that name, the class (or global) replaced between calls, two classes in
one frame, the write followed by an exception, the attribute read back through the
instance after the write.

    >>> def _bump_type_self(o, x):
    ...     type(o).n += 1
    ...     return x * o.n
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round30_classes")

X = np.arange(3.0)


def _fresh_classes():
    class Base:
        n = 0
        step = 1

        def __init__(self):
            self.v = 1.0

    class Sub(Base):
        pass

    class Shadow(Base):
        n = 100

    class Meta(type):
        pass

    class WithMeta(metaclass=Meta):
        n = 0

    class Slotted:
        __slots__ = ("v",)
        n = 0

        def __init__(self):
            self.v = 1.0

    class Hooked:
        n = 0
        seen = []

        def __init_subclass__(cls, **kw):
            super().__init_subclass__(**kw)
            Hooked.seen.append(cls.__name__)

    class HookedSub(Hooked):
        pass

    class Desc:
        def __get__(self, obj, owner=None):
            return 7

        def __set__(self, obj, v):
            raise AttributeError("read only")

    class WithDesc:
        n = Desc()

    class WithProp:
        _n = 0

        @property
        def n(self):
            return type(self)._n * 2

    class SetAttrMeta(type):
        log = []

        def __setattr__(cls, name, value):
            SetAttrMeta.log.append(name)
            super().__setattr__(name, value)

    class Logged(metaclass=SetAttrMeta):
        n = 0

    class FloatN:
        n = 0.5

    class ArrN:
        n = np.zeros(3)

    return dict(Base=Base, Sub=Sub, Shadow=Shadow, WithMeta=WithMeta, Slotted=Slotted,
                Hooked=Hooked, HookedSub=HookedSub, WithDesc=WithDesc, WithProp=WithProp,
                Logged=Logged, FloatN=FloatN, ArrN=ArrN)


def _make(cls):
    try:
        return cls()
    except TypeError:
        return cls.__new__(cls)


# --------------------------------------------------------- type(self) writes, by class

def _bump_type_self(o, x):
    type(o).n += 1
    return x * o.n


def _bump_then_read_class(o, x):
    type(o).n += 1
    return x + type(o).n


def _bump_twice(o, x):
    type(o).n += 1
    type(o).n += 2
    return x * type(o).n


def _bump_then_raise(o, x):
    type(o).n += 1
    if x[0] > 0:
        raise RuntimeError("after write")
    return x * o.n


def _bump_then_index_error(o, x):
    type(o).n += 1
    return x[type(o).n]


def _bump_in_try(o, x):
    try:
        type(o).n += 1
        return x[5]
    except IndexError:
        return x * type(o).n


def _set_float(o, x):
    type(o).n = float(x.sum())
    return o.n


def _set_array(o, x):
    type(o).n = x * 2
    return o.n + 1


def _instance_then_class(o, x):
    o.n = 5
    type(o).n += 1
    return x * o.n + type(o).n


def _class_then_instance(o, x):
    type(o).n += 1
    o.n = type(o).n * 3
    return x * o.n


def _del_after(o, x):
    type(o).n += 1
    try:
        del type(o).n
    except AttributeError as e:
        return str(e)
    return x * 1


def _read_mro(o, x):
    type(o).n += 1
    return x * type(o).__mro__[-2].n


def _read_dict(o, x):
    type(o).n += 1
    return type(o).__dict__.get("n", -1)


def _getattr_class(o, x):
    type(o).n += 1
    return x * getattr(type(o), "n") + getattr(o, "n", 0)   # noqa: B009 (the builtin)


def _loop_bump(o, x):
    for i in range(3):
        type(o).n += i
    return x * o.n


TYPE_FNS = (_bump_type_self, _bump_then_read_class, _bump_twice, _bump_then_raise,
            _bump_then_index_error, _bump_in_try, _set_float, _set_array,
            _instance_then_class, _class_then_instance, _del_after, _read_mro,
            _read_dict, _getattr_class, _loop_bump)

# two groups, each under the cache size limit (8 entries), so every call is compiled
CLASS_GROUPS = {"plain": ("Base", "Sub", "Shadow", "HookedSub", "FloatN", "ArrN"),
                "odd": ("WithMeta", "Slotted", "Logged", "WithDesc", "WithProp", "Base")}


def _state(cs):
    """Each class's own ``n`` (a descriptor or property shown by its type's name)."""
    out = {}
    for k, c in cs.items():
        v = c.__dict__.get("n", "<none>")
        out[k] = type(v).__name__ if hasattr(type(v), "__get__") else v
    return out


for (_group, _order), _fn in [(g, fn) for g in CLASS_GROUPS.items() for fn in TYPE_FNS]:
    def _scenario(r, fn=_fn, order=_order):
        cs = _fresh_classes()
        f = r.compile(fn)
        for name in order:
            o = _make(cs[name])
            for x in (X - 1, X + 1, X - 1):
                r.call(f, o, x.copy())
            r.see(name, (_state(cs), getattr(o, "__dict__", None),
                         type(cs["Logged"]).log if hasattr(type(cs["Logged"]), "log")
                         else None))
    reg._add(_fn.__name__.lstrip("_") + "_" + _group, _scenario,
             (_fn.__doc__ or "").strip())


# --------------------------------------------------------- named class writes (globals)

class Counter:
    n = 0


class Other:
    n = 10


class SubCounter(Counter):
    pass


def _setup():
    Counter.n = 0
    Other.n = 10
    SubCounter.__dict__.get("n") is not None and delattr(SubCounter, "n")
    globals()["Counter"] = _ORIGINAL_COUNTER


_ORIGINAL_COUNTER = Counter


def _watch():
    c = globals()["Counter"]
    return (c.__name__, c.n, Other.n, SubCounter.n, "n" in SubCounter.__dict__)


def _global_bump(x):
    Counter.n += 1
    return x * Counter.n


def _two_classes(x):
    Counter.n += 1
    Other.n -= 1
    return x * Counter.n + Other.n


def _two_same(x):
    Counter.n += 1
    SubCounter.n += 1
    return x + Counter.n + SubCounter.n


def _global_raise(x):
    Counter.n += 1
    Other.n += 1
    return x[Counter.n]


def _global_then_instance(x):
    Counter.n += 1
    c = Counter()
    return x * c.n


def _global_float_div(x):
    Counter.n += 1
    return 10 // (Counter.n % 3)


def _write_global_array(x):
    Counter.n = x.sum()
    return x / Counter.n


def _read_before_write(x):
    a = Counter.n
    Counter.n = a + 1
    b = Counter.n
    return x * a + b


GLOBAL_FNS = (_global_bump, _two_classes, _two_same, _global_raise, _global_then_instance,
              _global_float_div, _write_global_array, _read_before_write)


for _fn in GLOBAL_FNS:
    def _scenario(r, fn=_fn):
        _setup()
        f = r.compile(fn)
        for k in range(3):
            r.call(f, X + k)
            r.see("state", _watch())
        SubCounter.n = 50                 # a subclass now shadows the attribute
        r.call(f, X)
        r.see("state", _watch())
        del SubCounter.n

        class Replacement:
            n = 1000

        globals()["Counter"] = Replacement    # the class replaced between calls
        r.call(f, X)
        r.see("state", _watch())
        globals()["Counter"] = _ORIGINAL_COUNTER
        r.call(f, X)
        r.see("state", _watch())
        _setup()
    reg._add(_fn.__name__.lstrip("_"), _scenario, (_fn.__doc__ or "").strip())


@reg.scenario
def s_instance_shadows_later(r):
    """An instance attribute appears after the first calls: ``o.n`` reads it."""
    cs = _fresh_classes()
    f = r.compile(_bump_type_self)
    o = cs["Base"]()
    r.call(f, o, X)
    r.call(f, o, X)
    o.n = -3
    r.call(f, o, X)
    del o.n
    r.call(f, o, X)
    r.see("n", cs["Base"].n)


@reg.scenario
def s_subclass_shadows_later(r):
    cs = _fresh_classes()
    f = r.compile(_bump_type_self)
    o = cs["Sub"]()
    r.call(f, o, X)
    r.see("base", (cs["Base"].n, "n" in cs["Sub"].__dict__))
    cs["Base"].n = 40
    r.call(f, o, X)
    r.see("base", (cs["Base"].n, cs["Sub"].n))


@reg.scenario
def s_class_swapped_on_instance(r):
    cs = _fresh_classes()
    f = r.compile(_bump_then_read_class)
    o = cs["Base"]()
    r.call(f, o, X)
    o.__class__ = cs["Shadow"]
    r.call(f, o, X)
    o.__class__ = cs["Sub"]
    r.call(f, o, X)
    r.see("ns", (cs["Base"].n, cs["Shadow"].n, cs["Sub"].__dict__.get("n")))


@reg.scenario
def s_two_instances_two_classes(r):
    cs = _fresh_classes()

    def both(a, b, x):
        type(a).n += 1
        type(b).n += 10
        return x * a.n + b.n

    f = r.compile(both)
    a, b = cs["Base"](), cs["Shadow"]()
    r.call(f, a, b, X)
    r.call(f, a, a, X)
    r.call(f, b, a, X)
    s = cs["Sub"]()
    r.call(f, s, a, X)
    r.see("ns", (cs["Base"].n, cs["Shadow"].n, cs["Sub"].__dict__.get("n")))


@reg.scenario
def s_write_then_setattr_hook(r):
    """``__init_subclass__`` runs when a subclass is made between calls."""
    cs = _fresh_classes()
    f = r.compile(_bump_type_self)
    o = cs["HookedSub"]()
    r.call(f, o, X)

    class Later(cs["HookedSub"]):
        pass

    r.call(f, Later(), X)
    r.call(f, o, X)
    r.see("seen", (cs["Hooked"].seen, Later.__dict__.get("n"), cs["HookedSub"].n))
