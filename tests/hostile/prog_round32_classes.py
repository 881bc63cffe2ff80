"""Round 32, ``self.__class__`` counters (``variables/objects.py``: ``o.__class__`` read
through object's own slot is ``type(o)``, so ``self.__class__.n += 1`` is a class
write), where ``__class__`` is not that slot or not the class the trace saw: a
``__class__`` property (which lies, counts its reads, or raises), a class attribute
``__class__ = Other``, a subclass's own ``__getattribute__``, the instance's class
reassigned between calls (``o.__class__ = Other``) or inside the call, ``__slots__``,
a metaclass with a property ``n``, the counter deleted, made a float or an array, the
write followed by a raise.

    >>> def _bump(o, x):
    ...     o.__class__.n += 1
    ...     return x * o.__class__.n
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round32_classes")

X = np.array([1.0, 2.0, -0.5])


def _fresh_classes():
    """New classes for every run, so that the plain run and the compiled one each
    start from ``n == 0`` (a class attribute is state the runs would share)."""
    class Plain:
        n = 0

    class Other:
        n = 100

    class Sub(Plain):
        pass

    class Liar:
        n = 0
        reads = 0

        @property
        def __class__(self):
            type(self).reads += 1
            return Other

    class Raising:
        n = 0

        @property
        def __class__(self):
            raise AttributeError("no class here")

    class Overridden:
        n = 0
        __class__ = Other

    class Hooked:
        n = 0

        def __getattribute__(self, name):
            if name == "__class__":
                return Other
            return object.__getattribute__(self, name)

    class Slotted:
        __slots__ = ("v",)
        n = 0

        def __init__(self):
            self.v = 1.0

    class Meta(type):
        @property
        def n(cls):
            return cls._n

        @n.setter
        def n(cls, value):
            cls._n = value * 2

    class WithMeta(metaclass=Meta):
        _n = 0

    class Other2:
        n = -5

    return dict(Plain=Plain, Other=Other, Sub=Sub, Liar=Liar, Raising=Raising,
                Overridden=Overridden, Hooked=Hooked, Slotted=Slotted,
                WithMeta=WithMeta, Other2=Other2)


def _bump(o, x):
    o.__class__.n += 1
    return x * o.__class__.n


def _bump_read_type(o, x):
    o.__class__.n += 1
    return x + type(o).n, o.n


def _bump_by_sum(o, x):
    o.__class__.n += float(x.sum())
    return o.n


def _bump_then_raise(o, x):
    o.__class__.n += 1
    if x[0] > 1.5:
        raise ValueError(f"at {o.n}")
    return x * o.n


def _bump_twice(o, x):
    c = o.__class__
    c.n += 1
    o.__class__.n *= 2
    return x - c.n


def _bump_in_try(o, x):
    try:
        o.__class__.n += 1
    except AttributeError as e:
        return str(e)
    return x * o.n


def _set_array(o, x):
    o.__class__.n = x * 2
    return o.__class__.n + 1


def _class_is(o, x):
    o.__class__.n += 1
    return o.__class__ is type(o), o.__class__.__name__, x * o.n


def _swap_inside(o, x):
    o.__class__.n += 1
    if o.n > 2:
        o.__class__ = _OTHER[0]
    return x * o.n


_OTHER: list = []


FNS = (_bump, _bump_read_type, _bump_by_sum, _bump_then_raise, _bump_twice, _bump_in_try,
       _set_array, _class_is)

# What happens between calls: (name, make the object, change it after call k)
def _nothing(o, cs, k):
    pass


def _reassign(o, cs, k):
    if k == 1:
        o.__class__ = cs["Other"]
    if k == 3:
        o.__class__ = cs["Other2"]


def _reassign_to_sub(o, cs, k):
    if k == 1:
        o.__class__ = cs["Sub"]
    if k == 3:
        cs["Sub"].n = 50


def _delete_counter(o, cs, k):
    if k == 1:
        del cs["Plain"].n
    if k == 2:
        cs["Plain"].n = 1.5


def _float_counter(o, cs, k):
    if k == 1:
        cs[type(o).__name__].n = 0.25
    if k == 3:
        cs[type(o).__name__].n = np.float32(2.0)


def _swap_property(o, cs, k):
    if k == 1:
        o.__class__ = cs["Liar"]          # its __class__ is a property that lies
    if k == 3:
        object.__dict__["__class__"].__set__(o, cs["Hooked"])


VARIANTS = {
    "plain": ("Plain", _nothing),
    "sub": ("Sub", _nothing),
    "liar": ("Liar", _nothing),
    "raising": ("Raising", _nothing),
    "overridden": ("Overridden", _nothing),
    "hooked": ("Hooked", _nothing),
    "slotted": ("Slotted", _nothing),
    "meta": ("WithMeta", _nothing),
    "reassign": ("Plain", _reassign),
    "to_sub": ("Plain", _reassign_to_sub),
    "deleted": ("Plain", _delete_counter),
    "float": ("Plain", _float_counter),
    "property_later": ("Plain", _swap_property),
}


def _program(fn, variant):
    cls_name, between = VARIANTS[variant]

    def scenario(r):
        cs = _fresh_classes()
        _OTHER[:] = [cs["Other"]]
        o = cs[cls_name]()
        f = r.compile(fn)
        for k, x in enumerate((X, X + 1, X - 1, X * 2, X)):
            if k:
                between(o, cs, k)
            r.call(f, o, x)
            r.see("counters", {c: vars(v).get("n", "<unset>") for c, v in cs.items()})
            r.see("class", type(o).__name__)
        r.see("reads", vars(cs["Liar"])["reads"])

    reg._add(f"{fn.__name__.removeprefix('_')}_{variant}", scenario,
             (fn.__doc__ or "").strip())


for _fn in (_bump, _bump_read_type, _bump_then_raise, _bump_in_try):
    for _v in VARIANTS:
        _program(_fn, _v)
for _fn in (_bump_by_sum, _bump_twice, _set_array, _class_is):
    for _v in ("plain", "liar", "overridden", "hooked", "reassign", "property_later"):
        _program(_fn, _v)
for _v in ("plain", "sub", "slotted", "reassign"):
    _program(_swap_inside, _v)
