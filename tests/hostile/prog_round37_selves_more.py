"""Round 37, objects and their ``__dict__`` continued (split from
``prog_round37_selves.py``, the same category): dicts shared or replaced by the trace
itself, a nested object's dict, an object sharing a global object's dict, a helper that
writes, slotted objects with a shared ``__dict__`` slot, ``__class__`` swapped, a
property added to the class, an object whose attribute is its own ``__dict__``, a dict
subclass as ``__dict__``, ``__getattr__`` replaced, a frozen slotted dataclass, and an
object whose ``__dict__`` is the module's namespace.

    >>> def _share_inside(x, o, p):
    ...     p.__dict__ = o.__dict__
    ...     o.a = x.sum()
    ...     return x + p.a
"""

from dataclasses import dataclass

from hostile_check import Programs
from prog_round37_selves import Plain, SlottedDict, X, _sharing

reg = Programs("round37_selves")   # the category of prog_round37_selves.py


# ---------------------------------------------------------------- more: dicts shared or
# replaced inside the trace, a nested object's dict, globals
def _share_inside(x, o, p):        # the trace itself makes p share o's dict
    p.__dict__ = o.__dict__
    o.a = x.sum()
    return x + p.a


def _replace_inside(x, o):
    old = o.__dict__
    o.__dict__ = {"a": 3.0}
    old["a"] = -1.0
    return x * o.a, old


def _child_dict(x, o, d):          # d may be o.child.__dict__
    d["a"] = 2.0
    return x * o.child.a


class Parent:
    def __init__(self):
        self.child = Plain(1.0)


def _child_pair():
    o = Parent()
    return (X, o, o.child.__dict__)


GOBJ = Plain(1.0)


def _global_shares(x, o):          # o may share the global object's dict
    o.a = x.max()
    return x * GOBJ.a


def _global_pair():
    o = Plain(4.0)
    o.__dict__ = GOBJ.__dict__
    return (X, o)


def _reset_global():
    GOBJ.__dict__ = {"a": 1.0}


def _callee_writes(x, o, p):       # a helper writes o; p (its dict's sharer) is read
    _set_a(o, x.sum())
    return x + p.a


def _set_a(o, v):
    o.a = v


def _both_read(x, o, p):           # read only: sharing needs no guard
    return x * o.a + p.a


def _slots_shared(x, o, p):        # a __dict__ slot: shared dicts of slotted objects
    o.c = x.sum()
    return x + p.c


def _slot_sharing():
    o, p = SlottedDict(1.0), SlottedDict(2.0)
    o.c = 1.0
    p.__dict__ = o.__dict__
    return (X, o, p)


reg.case(_share_inside, lambda: (X, Plain(1.0), Plain(2.0)), calls=2)
reg.case(_replace_inside, lambda: (X, Plain(1.0)), calls=2)
reg.case(_child_dict, lambda: (X, Parent(), {}), _child_pair, lambda: (X, Parent(), {}),
         calls=1)
reg.case(_global_shares, lambda: (X, Plain(2.0)), _global_pair, lambda: (X, Plain(2.0)),
         calls=1, setup=_reset_global, watch=lambda: vars(GOBJ))
reg.case(_callee_writes, lambda: (X, Plain(1.0), Plain(5.0)), _sharing,
         lambda: (X, Plain(1.0), Plain(5.0)), calls=1)
reg.case(_both_read, lambda: (X, Plain(1.0), Plain(5.0)), _sharing, calls=1)
reg.case(_slots_shared, lambda: (X, SlottedDict(), _slotted_c()), _slot_sharing,
         lambda: (X, SlottedDict(), _slotted_c()), calls=1)


def _slotted_c():
    o = SlottedDict()
    o.c = 7.0
    return o


# ---------------------------------------------------------------- more: the class
# swapped or given a property, a dict that is its own object's attribute, a dict
# subclass as __dict__, a frozen dataclass with slots


class Other:
    scale = 3.0


def _scale_and_a(x, o):
    return x * o.scale + o.a


def _s_class_swapped(r):
    """o.__class__ changed between calls (another class's attribute, then back)."""
    o = Plain(2.0)
    f = r.compile(_scale_and_a)
    r.call(f, X, o)
    o.__class__ = Other
    r.call(f, X, o)
    o.__class__ = Plain
    r.call(f, X, o)


def _s_property_added(r):
    """A property added to the class between calls shadows the instance's attribute."""
    class C:
        scale = 1.0

        def __init__(self):
            self.a = 2.0
    o = C()
    f = r.compile(_scale_and_a)
    r.call(f, X, o)
    C.a = property(lambda self: 100.0)
    r.call(f, X, o)
    del C.a
    r.call(f, X, o)


def _swap_inside(x, o):
    y = x * o.scale
    o.__class__ = Other if type(o) is Plain else Plain
    return y + o.scale


def _own_dict_attr(x, o):          # o.d may be o.__dict__ itself
    o.d["a"] = x.sum()
    return x + o.a


def _with_own_dict():
    o = Plain(1.0)
    o.d = o.__dict__
    return (X, o)


def _with_other_dict():
    o = Plain(1.0)
    o.d = {}
    return (X, o)


class Fortytwo(dict):
    def __getitem__(self, key):
        return 42.0


def _dict_subclass(x, o):          # attribute lookup bypasses the subclass' __getitem__
    return x * o.a + vars(o)["a"], o.__dict__.get("a")


def _with_subclass_dict():
    o = Plain()
    o.__dict__ = Fortytwo(a=1.0)
    return (X, o)


def _in_list(x, box):              # box[1] may be box[0].__dict__
    box[1]["a"] = x.sum()
    return x + box[0].a


def _boxed(shared):
    o = Plain()
    return (X, [o, o.__dict__ if shared else {}])


def _s_getattr_replaced(r):
    """The class's __getattr__ replaced between calls, then shadowed by an attribute."""
    class G:
        def __getattr__(self, name):
            if name.startswith("__"):
                raise AttributeError(name)
            return 1.0

    def f(x, o):
        return x * o.zz
    o = G()
    g = r.compile(f)
    r.call(g, X, o)
    G.__getattr__ = lambda self, name: 5.0
    r.call(g, X, o)
    o.zz = 7.0
    r.call(g, X, o)


@dataclass(frozen=True, slots=True)
class Frozen:
    a: float = 1.0


def _frozen_write(x, o):
    try:
        o.a = 5.0
    except Exception as e:  # noqa: BLE001 (dataclasses.FrozenInstanceError)
        return x * o.a, type(e).__name__
    return x, ""


for _s in (_s_class_swapped, _s_property_added, _s_getattr_replaced):
    reg._add(_s.__name__[3:], _s, (_s.__doc__ or "").strip())
reg.case(_swap_inside, lambda: (X, Plain()), calls=2)
reg.case(_own_dict_attr, _with_other_dict, _with_own_dict, _with_other_dict, calls=1)
reg.case(_own_dict_attr, _with_own_dict, _with_other_dict, calls=1, name="own_dict_attr_first")
reg.case(_dict_subclass, lambda: (X, Plain()), _with_subclass_dict, calls=1)
reg.case(_in_list, lambda: _boxed(False), lambda: _boxed(True), calls=1)
reg.case(_frozen_write, lambda: (X, Frozen()), calls=2)


# ---------------------------------------------------------------- more: an object whose
# __dict__ is the module's namespace
SCALE = 1.0


def _namespace_object(x, o):
    o.SCALE = 5.0
    return x * SCALE


def _global_write_object_read(x, o):
    global SCALE
    SCALE = 6.0
    return x * getattr(o, "SCALE", 0.0)


def _on_globals():
    o = Plain()
    o.__dict__ = globals()
    return (X, o)


def _reset_scale():
    global SCALE
    SCALE = 1.0
    # (a warning filtered while the compiled code runs in this module's frame leaves an
    # empty registry here, which the namespace's snapshot would show: made up front)
    globals().setdefault("__warningregistry__", {})


for _fn in (_namespace_object, _global_write_object_read):
    reg.case(_fn, lambda: (X, Plain()), _on_globals, lambda: (X, Plain()), calls=1,
             setup=_reset_scale, watch=lambda: SCALE)
    reg.case(_fn, _on_globals, lambda: (X, Plain()), calls=1, setup=_reset_scale,
             watch=lambda: SCALE, name=f"{_fn.__name__[1:]}_first")
