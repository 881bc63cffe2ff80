"""Round 14, objects the program passes in or makes: ndarray subclasses (with
``__array_finalize__``, ``__array_wrap__``, ``__array_priority__``), objects with
``__array_ufunc__`` / ``__array_function__`` / ``__array__``, structured and object
dtypes, metaclasses whose ``__module__``, ``__name__``, ``__qualname__``, ``__mro__``,
``__dict__``, ``__eq__`` or ``__hash__`` run code (raise or count), classes that claim a
library's ``__module__``, and class attributes read through a metaclass property.

    >>> def _ufunc_on(x, o):
    ...     return np.add(o, x)        # o.__array_ufunc__ answers
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round14_objects")
case = reg.case
scenario = reg.scenario

X = np.array([1.0, -2.0, 0.5, 4.0])
M = np.arange(6.0).reshape(2, 3)


def _brk():
    """A graph break: a print."""
    print("break")


# --------------------------------------------------------------------- ndarray subclasses

class Tagged(np.ndarray):
    """A subclass that carries a tag through views and ufuncs."""

    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "none")


def _tagged(tag="t"):
    a = X.copy().view(Tagged)
    a.tag = tag
    return a


class Counted(np.ndarray):
    calls = []

    def __array_wrap__(self, obj, context=None, return_scalar=False):
        Counted.calls.append(context[0].__name__ if context else None)
        return super().__array_wrap__(obj, context, return_scalar)


def _sub_add(x):
    return x + 1


def _sub_sum(x):
    return x.sum()


def _sub_view_tag(x):
    y = x[1:]
    return y, getattr(y, "tag", None)


def _sub_ufunc(x):
    return np.sin(x) * 2


def _sub_type(x):
    return type(x).__name__, x * 2


def _sub_isinstance(x):
    return isinstance(x, np.ndarray), isinstance(x, Tagged), x - 1


def _sub_break(x):
    y = x * 2
    _brk()
    return y + 1


def _sub_asarray(x):
    return np.asarray(x) * 2


def _sub_asanyarray(x):
    return np.asanyarray(x) * 2


def _sub_mean_axis(x):
    return x.reshape(2, 2).mean(axis=0)


for fn in (_sub_add, _sub_sum, _sub_view_tag, _sub_ufunc, _sub_type, _sub_isinstance,
           _sub_break, _sub_asarray, _sub_asanyarray, _sub_mean_axis):
    case(fn, lambda: (_tagged(),), lambda: (X.copy(),), name="tagged" + fn.__name__)


def _counted_input():
    Counted.calls.clear()
    return (X.copy().view(Counted),)


case(_sub_add, _counted_input, watch=lambda: list(Counted.calls), name="counted_wrap_add")
case(_sub_ufunc, _counted_input, watch=lambda: list(Counted.calls), name="counted_wrap_sin")
case(_sub_add, lambda: (np.matrix([[1.0, 2.0], [3.0, 4.0]]),), name="matrix_add")
case(lambda x: x * x, lambda: (np.matrix([[1.0, 2.0], [3.0, 4.0]]),), name="matrix_mul")
case(lambda x: (x + 1).filled(0.0),
     lambda: (np.ma.masked_array(X.copy(), mask=[0, 1, 0, 0]),), name="masked_fill")
case(lambda x: x.sum(), lambda: (np.ma.masked_array(X.copy(), mask=[1, 1, 0, 0]),),
     name="masked_sum")


# --------------------------------------------------------- __array_ufunc__ / __array_function__

class UfuncSpy:
    def __init__(self, log, v=2.0):
        self.log, self.v = log, v

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        self.log.append((ufunc.__name__, method))
        vals = [i.v if isinstance(i, UfuncSpy) else i for i in inputs]
        return getattr(ufunc, method)(*vals, **kwargs)


class FunctionSpy:
    def __init__(self, log):
        self.log = log

    def __array_function__(self, func, types, args, kwargs):
        self.log.append(func.__name__)
        return "handled"


class ArrayLike:
    def __init__(self, log):
        self.log = log

    def __array__(self, dtype=None, copy=None):
        self.log.append("array")
        return np.array([1.0, 2.0, 3.0, 4.0], dtype=dtype)


class NoUfunc:
    __array_ufunc__ = None

    def __radd__(self, other):
        return "radd"


def _ufunc_spy(x, o):
    return np.add(x, o), o.log


def _ufunc_spy_operator(x, o):
    y = x * 2
    return y + o, o.log


def _ufunc_spy_break(x, o):
    y = x + 1
    _brk()
    return np.multiply(y, o), len(o.log)


def _function_spy(x, o):
    return np.concatenate([x, o]), np.sum(o), o.log


def _array_like(x, o):
    return x + np.asarray(o), o.log


def _array_like_ufunc(x, o):
    return np.sqrt(o) + x, o.log


def _no_ufunc(x, o):
    return x + o


case(_ufunc_spy, lambda: (X.copy(), UfuncSpy([])), name="ufunc_spy_call")
case(_ufunc_spy_operator, lambda: (X.copy(), UfuncSpy([])), name="ufunc_spy_operator")
case(_ufunc_spy_break, lambda: (X.copy(), UfuncSpy([])), name="ufunc_spy_break")
case(_function_spy, lambda: (X.copy(), FunctionSpy([])), name="function_spy")
case(_array_like, lambda: (X.copy(), ArrayLike([])), name="array_like_asarray")
case(_array_like_ufunc, lambda: (X.copy(), ArrayLike([])), name="array_like_ufunc")
case(_no_ufunc, lambda: (X.copy(), NoUfunc()), name="array_ufunc_none")


@scenario
def ufunc_spy_then_array(r):
    """The same parameter is an __array_ufunc__ object, then an array."""
    f = r.compile(_ufunc_spy)
    log = []
    r.call(f, X.copy(), UfuncSpy(log))
    r.call(f, X.copy(), X.copy())
    r.call(f, X.copy(), UfuncSpy(log, 5.0))
    r.see("log", list(log))


# ------------------------------------------------------------- structured and object dtypes

REC = np.dtype([("a", "f8"), ("b", "i4")])


def _rec():
    out = np.zeros(3, dtype=REC)
    out["a"] = [1.5, -2.0, 3.0]
    out["b"] = [1, 2, 3]
    return out


def _field_sum(r):
    return r["a"].sum() + r["b"].sum()


def _field_write(r):
    r["a"] *= 2
    return r


def _field_names(r):
    return r.dtype.names, r["b"] * 2


def _record_item(r):
    return r[1]["a"], r[0]


def _obj_sum(o):
    return o.sum()


def _obj_mul(o):
    return o * 2


def _obj_items(o):
    return [type(v).__name__ for v in o], o[0]


def _obj_break(o):
    y = o + 1
    _brk()
    return y


case(_field_sum, lambda: (_rec(),))
case(_field_write, lambda: (_rec(),))
case(_field_names, lambda: (_rec(),))
case(_record_item, lambda: (_rec(),))
case(_obj_sum, lambda: (np.array([1, 2.5, 3], dtype=object),),
     lambda: (np.array([[1], 2], dtype=object),), name="obj_sum")
case(_obj_mul, lambda: (np.array(["a", 2, [1]], dtype=object),), name="obj_mul_mixed")
case(_obj_items, lambda: (np.array([1, "s", None], dtype=object),), name="obj_items")
case(_obj_break, lambda: (np.array([1, 2**70, 3.5], dtype=object),), name="obj_break_big")


# ------------------------------------------------------------------- hostile metaclasses

class LoudMeta(type):
    """Every one of a class's names is a metaclass property that counts its reads."""
    reads = []

    @property
    def __module__(cls):
        LoudMeta.reads.append("module")
        return "numpy"

    @property
    def __mro__(cls):
        LoudMeta.reads.append("mro")
        return (cls, object)


class Loud(metaclass=LoudMeta):
    def __init__(self, k=2.0):
        self.k = k

    def act(self, y):
        return y * self.k


class RaisingMeta(type):
    def __getattribute__(cls, name):
        if name in ("__module__", "__name__", "__mro__", "__dict__"):
            raise RuntimeError(f"{name} read")
        return type.__getattribute__(cls, name)


class Raising(metaclass=RaisingMeta):
    scale = 3.0

    def act(self, y):
        return y - self.scale


def _method_of(x, o):
    return o.act(x * 2)


def _method_of_break(x, o):
    y = x * 2
    _brk()
    return o.act(y)


def _make_inside(x, k):
    o = Loud(k)
    return o.act(x)


def _isinstance_of(x, o):
    return isinstance(o, Loud), x + 1


def _type_name(x, o):
    return type(o).__name__, x * 3


def _loud_watch():
    return list(LoudMeta.reads)


case(_method_of, lambda: (X.copy(), Loud()), watch=_loud_watch, name="loud_method")
case(_method_of_break, lambda: (X.copy(), Loud()), watch=_loud_watch,
     name="loud_method_break")
case(_make_inside, (X, 2.0), (X, 3.0), watch=_loud_watch, name="loud_made_inside")
case(_isinstance_of, lambda: (X.copy(), Loud()), watch=_loud_watch, name="loud_isinstance")
case(_type_name, lambda: (X.copy(), Loud()), watch=_loud_watch, name="loud_type_name")
case(_method_of, lambda: (X.copy(), Raising()), name="raising_meta_method")
case(_method_of_break, lambda: (X.copy(), Raising()), name="raising_meta_method_break")


class CountingMeta(type):
    """A class attribute answered by the metaclass (a property): read on every access."""
    reads = []

    @property
    def factor(cls):
        CountingMeta.reads.append(1)
        return len(CountingMeta.reads)


class Counting(metaclass=CountingMeta):
    pass


def _meta_property(x):
    return x * Counting.factor


def _meta_property_twice(x):
    return x * Counting.factor + Counting.factor


case(_meta_property, (X,), watch=lambda: list(CountingMeta.reads),
     setup=CountingMeta.reads.clear, name="meta_property_read")
case(_meta_property_twice, (X,), watch=lambda: list(CountingMeta.reads),
     setup=CountingMeta.reads.clear, name="meta_property_read_twice")


class GetattrMeta(type):
    """A metaclass __getattr__: answers names the class lacks, counting."""
    log = []

    def __getattr__(cls, name):
        GetattrMeta.log.append(name)
        if name == "bonus":
            return 10.0
        raise AttributeError(name)


class WithMetaGetattr(metaclass=GetattrMeta):
    def __init__(self):
        self.k = 2.0


def _meta_getattr(x):
    return x + WithMetaGetattr.bonus


def _meta_getattr_absent(x, o):
    return x * o.k, getattr(o, "missing", 1.0)


case(_meta_getattr, (X,), watch=lambda: list(GetattrMeta.log),
     setup=GetattrMeta.log.clear, name="meta_getattr_class_read")
case(_meta_getattr_absent, lambda: (X.copy(), WithMetaGetattr()),
     watch=lambda: list(GetattrMeta.log), setup=GetattrMeta.log.clear,
     name="meta_getattr_instance_absent")


# ------------------------------------------------------- classes that claim a library module

class FakeNumpy:
    __module__ = "numpy"
    scale = 2.0

    def __init__(self, k):
        self.k = k


class FakeBuiltin:
    __module__ = "builtins"
    scale = 3.0


def _fake_class_attr(x):
    return x * FakeNumpy.scale


def _fake_builtin_attr(x):
    return x * FakeBuiltin.scale


def _fake_instance(x, o):
    return x * o.k


@scenario
def fake_numpy_class_attr_changed(r):
    """A class whose body says ``__module__ = "numpy"``: its attribute still changes."""
    FakeNumpy.scale = 2.0
    f = r.compile(_fake_class_attr)
    r.call(f, X.copy())
    FakeNumpy.scale = 5.0
    r.call(f, X.copy())
    FakeNumpy.scale = 2.0


@scenario
def fake_builtin_class_attr_changed(r):
    FakeBuiltin.scale = 3.0
    f = r.compile(_fake_builtin_attr)
    r.call(f, X.copy())
    FakeBuiltin.scale = -1.0
    r.call(f, X.copy())
    FakeBuiltin.scale = 3.0


@scenario
def fake_numpy_instance_changed(r):
    f = r.compile(_fake_instance)
    o = FakeNumpy(2.0)
    r.call(f, X.copy(), o)
    o.k = 7.0
    r.call(f, X.copy(), o)


class ModuleNotStr:
    __module__ = 5

    def act(self, y):
        return y + 5


case(_method_of, lambda: (X.copy(), ModuleNotStr()), name="module_not_a_string")
case(_method_of_break, lambda: (X.copy(), ModuleNotStr()), name="module_not_a_string_break")


class EqMeta(type):
    def __eq__(cls, other):
        raise TypeError("no comparing classes")

    __hash__ = type.__hash__


class EqHater(metaclass=EqMeta):
    def __eq__(self, other):
        return isinstance(other, EqHater)

    __hash__ = object.__hash__

    def act(self, y):
        return y * 4


def _compare_objects(x, a, b):
    return a == b, a.act(x)


def _super_call(x, o):
    return o.act(x)


class EqChild(EqHater):
    def act(self, y):
        return super().act(y) + 1


case(_compare_objects, lambda: (X.copy(), EqHater(), EqHater()), name="meta_eq_compare")
case(_super_call, lambda: (X.copy(), EqChild()), name="meta_eq_super")
