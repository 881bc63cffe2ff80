"""Round 37, an object and its own ``__dict__`` (``dynamo/instance_dicts.py``: one
object under two kinds of Variable), ``vars(o)``, two objects sharing one ``__dict__``,
a ``__dict__`` replaced between calls, ``__slots__`` objects (with and without a
``__dict__`` slot), ``__getattr__`` with side effects, properties and
``cached_property``, class attributes shadowed by instance ones (and unshadowed) between
calls, data descriptors an instance dict cannot shadow, ``__setattr__`` that logs.

    >>> def _via_dict(x, o, d):
    ...     d["a"] = x.sum()              # d may be o.__dict__
    ...     return x + o.a
"""

import functools

import numpy as np
from hostile_check import Programs

reg = Programs("round37_selves")
X = np.arange(4.0) - 1.5
CALLS = []


class Plain:
    scale = 2.0

    def __init__(self, a=1.0):
        self.a = a


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a=1.0):
        self.a = a


class SlottedDict:
    __slots__ = ("a", "__dict__")

    def __init__(self, a=1.0):
        self.a = a


class Lazy:
    def __init__(self):
        self.a = 1.0

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)   # (copy's own probes)
        CALLS.append(name)
        if name.startswith("no_"):
            raise AttributeError(name)
        return float(len(name))


class Prop:
    def __init__(self):
        self._v = 2.0
        self.reads = 0

    @property
    def v(self):
        self.reads += 1
        return self._v

    @v.setter
    def v(self, value):
        self._v = value * 2


class Cached:
    def __init__(self, base):
        self.base = base
        self.computed = 0

    @functools.cached_property
    def heavy(self):
        self.computed += 1
        return self.base * 3.0


class Logged:
    def __init__(self):
        object.__setattr__(self, "log", [])

    def __setattr__(self, name, value):
        self.log.append(name)
        object.__setattr__(self, name, value)


class Method:
    def act(self, x):
        return x + 1.0


# ---------------------------------------------------------------- the traced functions
def _via_dict(x, o, d):
    d["a"] = x.sum()
    return x + o.a


def _via_attr(x, o, d):
    o.a = x.sum()
    return x + d.get("a", -1.0)


def _vars_write(x, o):
    vars(o)["a"] = x.max()
    return x * o.a


def _dunder_write(x, o):
    o.__dict__["a"] = 3.0
    return x * o.a


def _dunder_read(x, o):
    o.a = x.min()
    return x * o.__dict__["a"], "a" in vars(o)


def _vars_is(x, o):
    return x, vars(o) is o.__dict__, len(vars(o))


def _update(x, o):
    o.__dict__.update(a=5.0, b=6.0)
    return x * o.a + o.b


def _del_attr(x, o):
    del o.a
    return x, hasattr(o, "a"), "a" in o.__dict__


def _setattr_then_vars(x, o):
    setattr(o, "a", 4.0)  # noqa: B010 (setattr on purpose)
    return x * vars(o)["a"]


def _shared_dict(x, o, p):          # o and p may share one __dict__
    o.a = x.sum()
    return x + p.a


def _shadow(x, o):                  # o.scale: the class's or the instance's
    return x * o.scale


def _shadow_write(x, o):
    o.scale = o.scale + 1.0
    return x * o.scale, type(o).scale


def _class_read(x, o):
    return x * type(o).scale + o.a


def _slots_rw(x, o):
    o.a = x.sum()
    return x * o.a


def _slots_unset(x, o):
    try:
        return x * o.b
    except AttributeError as e:
        return str(e)


def _slots_vars(x, o):
    try:
        return vars(o)
    except TypeError as e:
        return str(e)


def _slots_dict_rw(x, o):
    o.c = 2.0
    o.a = 3.0
    return x * o.a * o.c, o.__dict__


def _getattr_hook(x, o):
    return x * o.missing + o.a, list(CALLS)


def _getattr_default(x, o):
    return x * getattr(o, "no_such", 0.5)


def _hasattr_hook(x, o):
    return x, hasattr(o, "no_x"), hasattr(o, "yes_x"), list(CALLS)


def _prop_twice(x, o):
    return x * o.v + o.v, o.reads


def _prop_set(x, o):
    o.v = 3.0
    return x * o.v


def _prop_dict_shadow(x, o):        # an instance dict entry cannot shadow a property
    o.__dict__["v"] = 100.0
    return x * o.v


def _cached(x, o):
    return x * o.heavy + o.heavy, o.computed, "heavy" in vars(o)


def _cached_reset(x, o):
    o.__dict__.pop("heavy", None)
    return x * o.heavy, o.computed


def _logged_setattr(x, o):
    o.a = x.sum()
    o.b = 2.0
    return x * o.a, list(o.log)


def _method_shadow(x, o):
    return o.act(x)


def _getattr_name(x, o, name):
    return x * getattr(o, name, 1.0)


def _dict_name(x, o, name):
    return x * vars(o).get(name, 1.0)


# ---------------------------------------------------------------- the inputs
def _plain(**kw):
    o = Plain()
    o.__dict__.update(kw)
    return o


def _self_pair():
    o = Plain(2.0)
    return (X, o, o.__dict__)


def _other_pair():
    return (X, Plain(2.0), {})


for _fn in (_via_dict, _via_attr):
    reg.case(_fn, _other_pair, _self_pair, _other_pair, calls=1)
    reg.case(_fn, _self_pair, _other_pair, calls=1, name=f"{_fn.__name__[1:]}_self_first")


def _plains():
    return [(X, Plain(2.0)), (X, _plain(b=1.0)), (X, _plain(scale=-1.0))]


for _fn in (_vars_write, _dunder_write, _dunder_read, _vars_is, _update, _del_attr,
            _setattr_then_vars, _shadow, _shadow_write, _class_read):
    reg.case(_fn, *_plains(), calls=1)


def _sharing():
    o, p = Plain(1.0), Plain(5.0)
    p.__dict__ = o.__dict__
    return (X, o, p)


reg.case(_shared_dict, lambda: (X, Plain(1.0), Plain(5.0)), _sharing,
         lambda: (X, Plain(1.0), Plain(5.0)), calls=1)
reg.case(_shared_dict, _sharing, lambda: (X, Plain(1.0), Plain(5.0)), calls=1,
         name="shared_dict_first")


def _same_object():
    o = Plain(1.0)
    return (X, o, o)


reg.case(_shared_dict, lambda: (X, Plain(1.0), Plain(3.0)), _same_object, calls=1,
         name="shared_dict_same_object")

reg.case(_slots_rw, (X, Slotted()), (X, Slotted(3.0)), (X, SlottedDict()), calls=1)
reg.case(_slots_unset, (X, Slotted()), lambda: (X, _slotted_b()), calls=1)
reg.case(_slots_vars, (X, Slotted()), (X, SlottedDict()), (X, Plain()), calls=1)
reg.case(_slots_dict_rw, (X, SlottedDict()), (X, SlottedDict(2.0)), calls=1)


def _slotted_b():
    o = Slotted()
    o.b = 4.0
    return o


def _clear_calls():
    CALLS.clear()


reg.case(_getattr_hook, (X, Lazy()), calls=2, setup=_clear_calls)
reg.case(_getattr_default, (X, Lazy()), (X, Plain()), calls=1, setup=_clear_calls)
reg.case(_hasattr_hook, (X, Lazy()), (X, Plain()), calls=1, setup=_clear_calls)
reg.case(_prop_twice, lambda: (X, Prop()), calls=2)
reg.case(_prop_set, lambda: (X, Prop()), calls=2)
reg.case(_prop_dict_shadow, lambda: (X, Prop()), calls=2)
reg.case(_cached, lambda: (X, Cached(1.0)), lambda: (X, Cached(2.0)), calls=1)
reg.case(_cached_reset, lambda: (X, Cached(1.0)), calls=2)
reg.case(_logged_setattr, lambda: (X, Logged()), calls=2)
reg.case(_getattr_name, *[(X, _plain(b=2.0, c=3.0), n) for n in ("a", "b", "c", "d", "a")],
         calls=1)
reg.case(_dict_name, *[(X, _plain(b=2.0), n) for n in ("a", "b", "scale", "a")], calls=1)


# ---------------------------------------------------------------- scenarios
def _s_shadow_between_calls(r):
    """An instance attribute shadows the class one, is deleted, the class one rebound."""
    class C:
        scale = 2.0
    o = C()
    f = r.compile(_shadow)
    r.call(f, X, o)
    o.scale = 5.0
    r.call(f, X, o)
    del o.scale
    r.call(f, X, o)
    C.scale = -1.0
    r.call(f, X, o)
    o.__dict__["scale"] = 7.0
    r.call(f, X, o)


def _s_method_shadow_between_calls(r):
    """An instance attribute shadows a method, then is removed through vars()."""
    o = Method()
    f = r.compile(_method_shadow)
    r.call(f, X, o)
    o.act = lambda x: x * 100.0
    r.call(f, X, o)
    del vars(o)["act"]
    r.call(f, X, o)


def _s_dict_replaced(r):
    """o.__dict__ replaced by another dict between calls, then by the dict of another
    object (the two share it), then written through the other object."""
    o, p = Plain(1.0), Plain(2.0)
    f = r.compile(_vars_write)
    r.call(f, X, o)
    o.__dict__ = {"a": 9.0}
    r.call(f, X, o)
    o.__dict__ = p.__dict__
    r.call(f, X, o)
    p.a = -4.0
    r.call(f, X, p)
    r.see("o, p", (vars(o), vars(p)))


def _s_vars_carried_over_break(r):
    """d = vars(o) before a break (print); writes through d, then o.a read."""
    def f(x, o):
        d = vars(o)
        print("break")
        d["a"] = x.sum()
        y = x * o.a
        o.a = 2.0
        return y, d["a"]
    g = r.compile(f)
    r.call(g, X, Plain())
    r.call(g, X + 1.0, Plain(3.0))


def _s_global_is_dict(r):
    """A global dict is an object's __dict__ on some calls."""
    global GD
    o = Plain(1.0)

    def f(x, ob):
        GD["a"] = 8.0
        return x * ob.a
    g = r.compile(f)
    GD = {}
    r.call(g, X, o)
    GD = o.__dict__
    r.call(g, X, o)
    GD = {}
    r.call(g, X, o)
    r.see("o", vars(o))


def _s_class_attr_written(r):
    """The compiled code writes the class attribute the instance later shadows."""
    class C:
        scale = 1.0

    def f(x, ob):
        type(ob).scale = type(ob).scale + 1.0
        return x * ob.scale
    g = r.compile(f)
    o = C()
    r.call(g, X, o)
    o.scale = 10.0
    r.call(g, X, o)
    del o.scale
    r.call(g, X, o)
    r.see("C.scale", C.scale)


GD = {}
for _s in (_s_shadow_between_calls, _s_method_shadow_between_calls, _s_dict_replaced,
           _s_vars_carried_over_break, _s_global_is_dict, _s_class_attr_written):
    reg._add(_s.__name__[3:], _s, (_s.__doc__ or "").strip())
