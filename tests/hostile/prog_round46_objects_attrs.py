"""Round 46, objects (2 of 2): attribute reads that make no ``__dict__``
(``dynamo/made_dicts.py``: on 3.11/3.12 an object whose dict was never made is read
through ``object.__getattribute__`` where no class entry of the name exists). Attacked
with classes whose ``__slots__`` include ``__dict__``, ``__getattr__`` fallbacks,
attributes that appear (or go) after the first call, a class attribute shadowed later
by an instance attribute (and a property or a method added to the class later under
the name), ``__dict__`` replaced or made by ``vars``, ``__getattribute__`` on a
subclass, instances of a slotted base with a dict-keeping subclass.

    >>> class P: pass
    >>> def _scale(o, x):
    ...     return x * getattr(o, "k", 1.0)     # o.k set after the first call
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round46_objects")
X = np.arange(6.0) - 2.0


def _calls(r, f, o, n=2, x=X):
    for _ in range(n):
        r.call(f, o, x)


def _scale(o, x):
    return x * o.k


def _scale_default(o, x):
    return x * getattr(o, "k", 1.0), hasattr(o, "k")


class Plain:
    pass


class SlotsDict:
    __slots__ = ("a", "__dict__")


class Fallback:
    def __init__(self):
        self.seen = []

    def __getattr__(self, name):
        self.seen.append(name)
        if name == "k":
            return 3.0
        raise AttributeError(name)


class WithClassK:
    k = 2.0


@reg.scenario
def s_attribute_appears_after_first_call(r):
    o = Plain()
    f = r.compile(_scale_default)
    _calls(r, f, o)
    o.k = 4.0
    _calls(r, f, o)
    del o.k
    _calls(r, f, o)


@reg.scenario
def s_slots_with_dict(r):
    o = SlotsDict()
    o.a = 1.0
    o.k = 5.0
    f = r.compile(_scale)
    _calls(r, f, o)
    o.k = -1.0
    _calls(r, f, o)
    o.__dict__["k"] = 0.5
    _calls(r, f, o)


def _slot_and_dict(o, x):
    return x * o.a + getattr(o, "b", 0.0), sorted(vars(o))


@reg.scenario
def s_slots_with_dict_slot_then_dict_attr(r):
    o = SlotsDict()
    o.a = 2.0
    f = r.compile(_slot_and_dict)
    _calls(r, f, o)
    o.b = 1.5
    _calls(r, f, o)
    del o.a
    _calls(r, f, o)


@reg.scenario
def s_getattr_fallback(r):
    o = Fallback()
    f = r.compile(_scale_default)
    _calls(r, f, o)
    r.see("seen", list(o.seen))
    o.k = 10.0
    _calls(r, f, o)
    r.see("seen", list(o.seen))


@reg.scenario
def s_class_attribute_shadowed_later(r):
    o = WithClassK()
    f = r.compile(_scale)
    _calls(r, f, o)
    o.k = 7.0
    _calls(r, f, o)
    del o.k
    _calls(r, f, o)
    WithClassK.k = 2.0


@reg.scenario
def s_class_attribute_changed_later(r):
    class C:
        k = 1.0
    o = C()
    f = r.compile(_scale)
    _calls(r, f, o)
    C.k = 9.0
    _calls(r, f, o)


@reg.scenario
def s_property_added_to_class_later(r):
    class C:
        pass
    o = C()
    o.k = 2.0
    f = r.compile(_scale)
    _calls(r, f, o)
    C.k = property(lambda self: -5.0)
    _calls(r, f, o)
    del C.k
    _calls(r, f, o)


@reg.scenario
def s_non_data_descriptor_added_later(r):
    """A non-data descriptor (a function) added to the class: the instance attribute
    still wins."""
    class C:
        pass
    o = C()
    o.k = 2.0
    f = r.compile(_scale)
    _calls(r, f, o)
    C.k = lambda self: 100.0
    _calls(r, f, o)


@reg.scenario
def s_dict_replaced(r):
    o = Plain()
    o.k = 1.0
    f = r.compile(_scale)
    _calls(r, f, o)
    o.__dict__ = {"k": 6.0}
    _calls(r, f, o)


@reg.scenario
def s_dict_made_by_vars_before(r):
    o = Plain()
    o.k = 3.0
    vars(o)
    f = r.compile(_scale)
    _calls(r, f, o)
    vars(o)["k"] = 4.0
    _calls(r, f, o)


def _write_read(o, x):
    o.k = float(x.sum())
    o.n = getattr(o, "n", 0) + 1
    return x * o.k, o.n


@reg.scenario
def s_attributes_written_in_call(r):
    o = Plain()
    f = r.compile(_write_read)
    for k in range(4):
        r.call(f, o, X + k)
        r.see("o", vars(o))


@reg.scenario
def s_getattribute_on_subclass_later(r):
    class Base:
        pass

    class Spy(Base):
        def __getattribute__(self, name):
            if name == "k":
                return 50.0
            return object.__getattribute__(self, name)
    a = Base()
    a.k = 1.0
    f = r.compile(_scale)
    _calls(r, f, a)
    b = Spy()
    b.k = 1.0
    _calls(r, f, b)
    _calls(r, f, a)


class SlotBase:
    __slots__ = ("k",)


class DictChild(SlotBase):
    pass


@reg.scenario
def s_slotted_base_dict_child(r):
    o = DictChild()
    o.k = 2.0
    f = r.compile(_scale_default)
    _calls(r, f, o)
    o.__dict__["k"] = 99.0     # the slot wins
    _calls(r, f, o)
    del o.k
    _calls(r, f, o)


@reg.scenario
def s_class_reassigned(r):
    class A:
        k = 1.0

    class B:
        k = 2.0
    o = A()
    f = r.compile(_scale_default)
    _calls(r, f, o)
    o.__class__ = B
    _calls(r, f, o)
    o.k = 3.0
    _calls(r, f, o)


def _method_or_attr(o, x):
    return o.act(x)


@reg.scenario
def s_instance_shadows_method_then_deleted(r):
    class M:
        def act(self, x):
            return x + 1
    o = M()
    f = r.compile(_method_or_attr)
    _calls(r, f, o)
    o.act = lambda x: x * 10
    _calls(r, f, o)
    del o.act
    _calls(r, f, o)


@reg.scenario
def s_setattr_hook_counts(r):
    class Counted:
        def __init__(self):
            object.__setattr__(self, "writes", 0)

        def __setattr__(self, name, value):
            object.__setattr__(self, "writes", self.writes + 1)
            object.__setattr__(self, name, value)
    o = Counted()
    f = r.compile(_write_read)
    for k in range(3):
        r.call(f, o, X + k)
        r.see("o", vars(o))


@reg.scenario
def s_many_objects_one_without_attr(r):
    f = r.compile(_scale_default)
    objs = [Plain() for _ in range(4)]
    objs[1].k = 2.0
    objs[3].k = -0.0
    for o in objs + objs:
        r.call(f, o, X)


@reg.scenario
def s_dict_subclass_as_dict(r):
    class LoudDict(dict):
        def __getitem__(self, key):
            return 1000.0
    o = Plain()
    o.k = 1.0
    f = r.compile(_scale)
    _calls(r, f, o)
    o.__dict__ = LoudDict(k=2.0)
    _calls(r, f, o)


@reg.scenario
def s_property_added_to_base_later(r):
    class Base:
        pass

    class Child(Base):
        pass
    o = Child()
    o.k = 2.0
    f = r.compile(_scale)
    _calls(r, f, o)
    Base.k = property(lambda self: -3.0)
    _calls(r, f, o)
    del Base.k
    _calls(r, f, o)


@reg.scenario
def s_base_class_attribute_appears(r):
    class Base:
        pass

    class Child(Base):
        pass
    o = Child()
    f = r.compile(_scale_default)
    _calls(r, f, o)
    Base.k = 8.0
    _calls(r, f, o)
    Child.k = 0.5
    _calls(r, f, o)
    o.k = -2.0
    _calls(r, f, o)


@reg.scenario
def s_slots_only_class_attr_later(r):
    class S:
        __slots__ = ("v",)
    o = S()
    o.v = 1.0
    f = r.compile(_scale_default)
    _calls(r, f, o)
    S.k = 4.0
    _calls(r, f, o)


@reg.scenario
def s_bases_swapped(r):
    class A:
        k = 1.0

    class B:
        k = 5.0

    class C(A):
        pass
    o = C()
    f = r.compile(_scale_default)
    _calls(r, f, o)
    C.__bases__ = (B,)
    _calls(r, f, o)


@reg.scenario
def s_getattr_added_to_class_later(r):
    class C:
        pass
    o = C()
    f = r.compile(_scale_default)
    _calls(r, f, o)
    C.__getattr__ = lambda self, name: 6.0 if name == "k" else object.__getattribute__(self, name)
    _calls(r, f, o)
    del C.__getattr__
    _calls(r, f, o)


def _iterate_text(text, x):
    n = 0
    for ch in text:
        if ch in "aeiou":
            n += 1
    return x * n, n


reg.case(_iterate_text, ("banana", X), ("kiwi", X), ("", X), ("aeiouaeiou", X),
         ("xyz", X), calls=1)


def _iterate_text_attr(o, x):
    return x[: len([c for c in o.text if c.isupper()]) + 1], o.text.lower()


@reg.scenario
def s_text_attribute_changes(r):
    o = Plain()
    f = r.compile(_iterate_text_attr)
    for t in ("AbC", "xyZ", "QQQQ", Shouting("MiXed"), "", "AbC"):
        o.text = t
        r.call(f, o, X)


class Shouting(str):
    def lower(self):
        return "!" + str.lower(self)

    def __iter__(self):
        return iter(str.upper(self))
