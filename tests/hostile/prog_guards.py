"""Guards: something the first trace relied on changes between calls (an instance
attribute now shadows a method, an attribute appears, a helper's ``__code__`` or
``__defaults__`` is replaced, NumPy is monkeypatched, a class attribute or a global is
rebound, an ABC registers a class, an input's dtype/shape/layout changes). The next call
must recompile or otherwise give plain Python's result."""

import abc
import functools
import math
import types
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("guards")
case, scenario = reg.case, reg.scenario

X = np.linspace(-2, 2, 6)
X32 = X.astype(np.float32)
M = np.arange(12, dtype=np.float64).reshape(3, 4)
SCALE = 2.0
FLAG = True
BIAS = None
ACT = np.tanh
TABLE = {"k": 1.0}
GARR = None              # set by s_global_array_replaced_and_written


def helper(x):
    return x * 2


def other_helper(x):
    return x - 100


def with_default(x, k=2.0):
    return x * k


def with_kwdefault(x, *, k=2.0):
    return x * k


class Scaled:
    def scale(self, x):
        return x * 3


def _call_scale(o, x):
    return o.scale(x)


@scenario
def s_instance_attr_shadows_method(r):
    o = Scaled()
    f = r.compile(_call_scale)
    r.call(f, o, X)
    o.scale = lambda x: x * 100
    r.call(f, o, X)
    del o.scale
    r.call(f, o, X)


@scenario
def s_instance_attr_shadows_method_before_first_call(r):
    o = Scaled()
    o.scale = lambda x: x + 1
    f = r.compile(_call_scale)
    r.call(f, o, X)
    del o.scale
    r.call(f, o, X)


class Opt:
    pass


def _getattr_default(o, x):
    return x * getattr(o, "scale", 1.0)


@scenario
def s_getattr_default_attribute_appears(r):
    o = Opt()
    f = r.compile(_getattr_default)
    r.call(f, o, X)
    o.scale = 5.0
    r.call(f, o, X)
    o.scale = np.float32(0.5)
    r.call(f, o, X)
    del o.scale
    r.call(f, o, X)


def _hasattr_bias(o, x):
    if hasattr(o, "bias"):
        return x + o.bias
    return x


@scenario
def s_hasattr_attribute_appears(r):
    o = Opt()
    f = r.compile(_hasattr_bias)
    r.call(f, o, X)
    o.bias = np.ones(6)
    r.call(f, o, X)
    del o.bias
    r.call(f, o, X)


@scenario
def s_class_attribute_appears_for_hasattr(r):
    class K:
        pass
    o = K()
    f = r.compile(_hasattr_bias)
    r.call(f, o, X)
    K.bias = 3.0
    r.call(f, o, X)


def _calls_helper(x):
    return helper(x) + 1


@scenario
def s_helper_code_replaced(r):
    f = r.compile(_calls_helper)
    old = helper.__code__
    try:
        r.call(f, X)
        helper.__code__ = other_helper.__code__
        r.call(f, X)
    finally:
        helper.__code__ = old
    r.call(f, X)


def _calls_with_default(x):
    return with_default(x)


@scenario
def s_helper_defaults_replaced(r):
    f = r.compile(_calls_with_default)
    r.patch(with_default, "__defaults__", (2.0,))
    r.call(f, X)
    with_default.__defaults__ = (-3.0,)
    r.call(f, X)
    with_default.__defaults__ = (np.ones(6),)
    r.call(f, X)


def _calls_with_kwdefault(x):
    return with_kwdefault(x)


@scenario
def s_helper_kwdefaults_replaced(r):
    f = r.compile(_calls_with_kwdefault)
    r.patch(with_kwdefault, "__kwdefaults__", {"k": 2.0})
    r.call(f, X)
    with_kwdefault.__kwdefaults__ = {"k": 10.0}
    r.call(f, X)
    with_kwdefault.__kwdefaults__["k"] = 0.5       # mutated in place
    r.call(f, X)


def _own_default(x, k=2.0):
    return x * k


@scenario
def s_own_defaults_replaced(r):
    r.patch(_own_default, "__defaults__", (2.0,))
    f = r.compile(_own_default)
    r.call(f, X)
    _own_default.__defaults__ = (7.0,)
    r.call(f, X)


def _own_kwdefault(x, *, k=2.0):
    return x * k


@scenario
def s_own_kwdefaults_mutated(r):
    r.patch(_own_kwdefault, "__kwdefaults__", {"k": 2.0})
    f = r.compile(_own_kwdefault)
    r.call(f, X)
    _own_kwdefault.__kwdefaults__["k"] = -1.0
    r.call(f, X)


def _own_code(x):
    return x + 1


def _own_code_other(x):
    return x - 1


@scenario
def s_own_code_replaced(r):
    r.patch(_own_code, "__code__", _own_code.__code__)
    f = r.compile(_own_code)
    r.call(f, X)
    _own_code.__code__ = _own_code_other.__code__
    r.call(f, X)


def _uses_tanh(x):
    return np.tanh(x) * 2


@scenario
def s_numpy_tanh_monkeypatched(r):
    f = r.compile(_uses_tanh)
    r.call(f, X)
    r.patch(np, "tanh", lambda x: x * 0 + 42)
    r.call(f, X)


@scenario
def s_numpy_tanh_patched_before_first_call(r):
    r.patch(np, "tanh", np.sin)
    f = r.compile(_uses_tanh)
    r.call(f, X)


def _uses_np_pi(x):
    return x * np.pi


@scenario
def s_numpy_constant_patched(r):
    f = r.compile(_uses_np_pi)
    r.call(f, X)
    r.patch(np, "pi", 3.0)
    r.call(f, X)


def _uses_math_pi(x):
    return x * math.pi + math.sqrt(2.0)


@scenario
def s_math_patched(r):
    f = r.compile(_uses_math_pi)
    r.call(f, X)
    r.patch(math, "pi", 3.0)
    r.patch(math, "sqrt", lambda v: -1.0)
    r.call(f, X)


def _uses_np_global(x):
    return np.exp(x)


@scenario
def s_np_name_rebound_in_module(r):
    f = r.compile(_uses_np_global)
    r.call(f, X)
    r.patch(globals(), "np", types.SimpleNamespace(exp=lambda x: "fake exp"))
    r.call(f, X)


def _uses_helper_global(x):
    return helper(x)


@scenario
def s_global_function_rebound(r):
    f = r.compile(_uses_helper_global)
    r.call(f, X)
    r.patch(globals(), "helper", other_helper)
    r.call(f, X)
    r.patch(globals(), "helper", lambda x: (x, "lambda"))
    r.call(f, X)


def _uses_scale(x):
    return x * SCALE


@scenario
def s_global_float_changed(r):
    f = r.compile(_uses_scale)
    r.call(f, X)
    r.patch(globals(), "SCALE", 3.0)
    r.call(f, X)
    r.patch(globals(), "SCALE", -0.0)
    r.call(f, X)
    r.patch(globals(), "SCALE", float("nan"))
    r.call(f, X)


@scenario
def s_global_int_to_float_same_value(r):
    f = r.compile(_uses_scale)
    xi = np.arange(4, dtype=np.int16)
    r.patch(globals(), "SCALE", 2)
    r.call(f, xi)
    r.patch(globals(), "SCALE", 2.0)
    r.call(f, xi)
    r.patch(globals(), "SCALE", True)
    r.call(f, xi)
    r.patch(globals(), "SCALE", np.int64(2))
    r.call(f, xi)
    r.patch(globals(), "SCALE", np.float32(2))
    r.call(f, xi)


@scenario
def s_global_scalar_to_array(r):
    f = r.compile(_uses_scale)
    r.call(f, X)
    r.patch(globals(), "SCALE", np.full(6, 0.5))
    r.call(f, X)
    globals()["SCALE"][0] = 100.0      # written in place: no retrace, fresh value
    r.call(f, X)
    r.patch(globals(), "SCALE", [1, 2])
    r.call(f, X)


@scenario
def s_global_deleted(r):
    f = r.compile(_uses_scale)
    r.call(f, X)
    r.patch(globals(), "SCALE", 1.0)
    del globals()["SCALE"]
    r.call(f, X)


def _uses_flag(x):
    if FLAG:
        return x + 1
    return x - 1


@scenario
def s_global_bool_flipped(r):
    f = r.compile(_uses_flag)
    r.call(f, X)
    r.patch(globals(), "FLAG", False)
    r.call(f, X)
    r.patch(globals(), "FLAG", 0)
    r.call(f, X)
    r.patch(globals(), "FLAG", np.ones(1))      # truthy array
    r.call(f, X)
    r.patch(globals(), "FLAG", [])
    r.call(f, X)


def _uses_bias(x):
    if BIAS is not None:
        return x + BIAS
    return x


@scenario
def s_global_none_to_array(r):
    f = r.compile(_uses_bias)
    r.call(f, X)
    r.patch(globals(), "BIAS", np.ones(6))
    r.call(f, X)
    r.patch(globals(), "BIAS", None)
    r.call(f, X)


def _uses_act(x):
    return ACT(x)


@scenario
def s_global_ufunc_swapped(r):
    f = r.compile(_uses_act)
    r.call(f, X)
    r.patch(globals(), "ACT", np.sin)
    r.call(f, X)
    r.patch(globals(), "ACT", abs)
    r.call(f, X)


def _uses_table(x):
    return x * TABLE["k"] + len(TABLE)


@scenario
def s_global_dict_mutated(r):
    r.patch(globals(), "TABLE", {"k": 1.0})
    f = r.compile(_uses_table)
    r.call(f, X)
    TABLE["k"] = 4.0
    r.call(f, X)
    TABLE["extra"] = 1
    r.call(f, X)
    TABLE["k"] = 4          # int now
    r.call(f, X)


def _len_shadow(x):
    return len(x) * x


@scenario
def s_builtin_shadowed_by_global(r):
    f = r.compile(_len_shadow)
    r.call(f, X)
    r.patch(globals(), "len", lambda v: 100)
    r.call(f, X)


class Act:
    kind = "tanh"

    def __call__(self, x):
        return np.tanh(x) if self.kind == "tanh" else np.maximum(x, 0)


class Relu(Act):
    pass


def _apply_act(a, x):
    return a(x)


@scenario
def s_class_attribute_changed(r):
    f = r.compile(_apply_act)
    a = Act()
    r.patch(Act, "kind", "tanh")
    r.call(f, a, X)
    Act.kind = "relu"
    r.call(f, a, X)


@scenario
def s_base_class_attribute_changed_seen_by_subclass(r):
    f = r.compile(_apply_act)
    a = Relu()
    r.patch(Act, "kind", "tanh")
    r.call(f, a, X)
    Act.kind = "relu"
    r.call(f, a, X)
    Relu.kind = "tanh"
    r.call(f, a, X)
    del Relu.kind


@scenario
def s_instance_attribute_shadows_class_attribute(r):
    f = r.compile(_apply_act)
    a = Act()
    r.call(f, a, X)
    a.kind = "relu"
    r.call(f, a, X)


@scenario
def s_method_replaced_on_class(r):
    class K:
        def scale(self, x):
            return x * 3
    f = r.compile(_call_scale)
    o = K()
    r.call(f, o, X)
    K.scale = lambda self, x: x * -1
    r.call(f, o, X)


@scenario
def s_instance_class_swapped(r):
    class K1:
        def scale(self, x):
            return x * 3

    class K2:
        def scale(self, x):
            return x * 4
    f = r.compile(_call_scale)
    o = K1()
    r.call(f, o, X)
    o.__class__ = K2
    r.call(f, o, X)


@scenario
def s_call_replaced_on_class_of_compiled_object(r):
    class Model:
        def __call__(self, x):
            return x + 1
    m = Model()
    f = r.compile(m)
    r.call(f, X)
    Model.__call__ = lambda self, x: x - 1
    r.call(f, X)


class Base(abc.ABC):  # noqa: B024 (registration is the point)
    pass


def _isinstance_abc(o, x):
    if isinstance(o, Base):
        return x * 2
    return x


@scenario
def s_abc_register_after_first_call(r):
    class Plain:
        pass
    f = r.compile(_isinstance_abc)
    o = Plain()
    r.call(f, o, X)
    Base.register(Plain)
    r.call(f, o, X)


def _issubclass_abc(cls, x):
    return x + 1 if issubclass(cls, Base) else x - 1


@scenario
def s_abc_register_issubclass(r):
    class Plain:
        pass
    f = r.compile(_issubclass_abc)
    r.call(f, Plain, X)
    Base.register(Plain)
    r.call(f, Plain, X)


def _isinstance_subclasshook(o, x):
    return x * 2 if isinstance(o, Sized) else x


class Sized(abc.ABC):  # noqa: B024
    @classmethod
    def __subclasshook__(cls, C):
        return True if any("size_hint" in B.__dict__ for B in C.__mro__) else NotImplemented


@scenario
def s_abc_subclasshook_method_added(r):
    class Plain:
        pass
    f = r.compile(_isinstance_subclasshook)
    r.call(f, Plain(), X)

    class Plain2:
        size_hint = 1
    r.call(f, Plain2(), X)


def _dtype_branch(x):
    if x.dtype == np.float32:
        return x * 2
    return x + 1


case(_dtype_branch, (X32,), (X,), (X.astype(np.int32),), (X.astype(np.float16),))


def _ndim_branch(x):
    if x.ndim == 1:
        return x.sum()
    return x.sum(axis=0)


case(_ndim_branch, (X,), (M,), (np.float64(3.0),), (np.array(3.0),))


def _shape_branch(x):
    return x[0] if x.shape[0] > 3 else x


case(_shape_branch, (X,), (X[:2],), (X[:4],), (X[:3],))


def _strides_dependent(x):
    y = x.ravel()
    y[0] = -7.0
    return x, x.flags.c_contiguous, x.strides


case(_strides_dependent, lambda: (M.copy(),), lambda: (M.copy().T,),
     lambda: (M.copy()[:, ::2],), lambda: (M.copy()[::-1],))


def _flags_branch(x):
    if x.flags.f_contiguous and not x.flags.c_contiguous:
        return x.T.copy()
    return x.copy()


case(_flags_branch, lambda: (M.copy(),), lambda: (np.asfortranarray(M),))


def _write_input(x):
    x += 1
    return x


def _readonly():
    x = X.copy()
    x.setflags(write=False)
    return (x,)


case(_write_input, lambda: (X.copy(),), _readonly)


def _byteorder(x):
    return x + 1, x.dtype.byteorder


case(_byteorder, (X,), (X.astype(">f8"),))


def _subclass_input(x):
    return x * 2


class MyArray(np.ndarray):
    pass


def _matrix():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)   # np.matrix itself
        return (np.matrix(M),)


case(_subclass_input, (X,), lambda: (X.view(MyArray),), _matrix,
     lambda: (np.ma.masked_array(X, mask=X > 1),))


def _list_or_array(x):
    return np.asarray(x) * 2


case(_list_or_array, (X,), ([1.0, 2.0],), ((1, 2),), (3,))


def _python_or_numpy_scalar(s, x):
    return x * s, type(s * 2).__name__


case(_python_or_numpy_scalar, (2.0, X32), (np.float64(2.0), X32), (np.float32(2.0), X32),
     (2, X32), (True, X32))


def _zero_or_negzero(s, x):
    return x * s, 1.0 / s if s else math.copysign(1.0, s)


case(_zero_or_negzero, (0.0, X), (-0.0, X), (float("nan"), X), (float("inf"), X))


def _none_or_value(x, b=None):
    if b is None:
        return x
    return x + b


case(_none_or_value, (X,), (X, 1.0), (X, None), (X, X))


def _string_mode(x, mode):
    if mode == "sum":
        return x.sum()
    if mode == "max":
        return x.max()
    return x


case(_string_mode, (X, "sum"), (X, "max"), (X, "other"))


def _tuple_len(xs):
    return sum(xs)


case(_tuple_len, ((X, X),), ((X, X, X),), ((X,),), ([X, X],))


def _dict_order(d):
    return list(d), [v * 2 for v in d.values()]


case(_dict_order, ({"a": 1.0, "b": 2.0},), ({"b": 2.0, "a": 1.0},), ({"a": X},))


def _int_arg(x, n):
    return x[:n] * n, np.full(n, 1.0), [i for i in range(n)]


case(_int_arg, (X, 3), (X, 4), (X, 0), (X, 5), (X, 1), (X, -2))


def _bool_arg(x, flag):
    return x * 2 if flag else -x


case(_bool_arg, (X, True), (X, False), (X, 1), (X, 0), (X, np.True_))


def _attr_type_changes(o, x):
    return x * o.n


@scenario
def s_attribute_type_changes(r):
    class Obj:
        n = 2
    o = Obj()
    f = r.compile(_attr_type_changes)
    xi = np.arange(4, dtype=np.int8)
    r.call(f, o, xi)
    o.n = 2.0
    r.call(f, o, xi)
    o.n = np.int64(2)
    r.call(f, o, xi)
    o.n = 300
    r.call(f, o, xi)


def _list_attr(m, x):
    for w in m.layers:
        x = x @ w
    return x


@scenario
def s_layers_appended_and_replaced(r):
    m = Opt()
    m.layers = [np.eye(2)]
    f = r.compile(_list_attr)
    x = np.ones((3, 2))
    r.call(f, m, x)
    m.layers.append(np.full((2, 2), 0.5))
    r.call(f, m, x)
    m.layers[0] = np.zeros((2, 2), np.float32)
    r.call(f, m, x)
    m.layers = (np.eye(2),)
    r.call(f, m, x)


class Prop:
    def __init__(self):
        self._v = 1.0

    @property
    def v(self):
        return self._v


def _read_prop(o, x):
    return x * o.v


@scenario
def s_property_backing_changed(r):
    o = Prop()
    f = r.compile(_read_prop)
    r.call(f, o, X)
    o._v = 5.0
    r.call(f, o, X)


@scenario
def s_property_replaced_on_class(r):
    class P(Prop):
        pass
    o = P()
    f = r.compile(_read_prop)
    r.call(f, o, X)
    P.v = property(lambda self: -2.0)
    r.call(f, o, X)
    P.v = 3.0
    r.call(f, o, X)


@scenario
def s_getattr_hook_added_to_class(r):
    class K:
        pass
    o = K()
    f = r.compile(_getattr_default)
    r.call(f, o, X)
    K.__getattr__ = lambda self, name: 9.0
    r.call(f, o, X)


def _make_closure(k):
    def f(x):
        return x * k
    def set_k(v):
        nonlocal k
        k = v
    return f, set_k


@scenario
def s_closure_cell_rebound(r):
    f, set_k = _make_closure(2.0)
    cf = r.compile(f)
    r.call(cf, X)
    set_k(5.0)
    r.call(cf, X)
    set_k(np.ones(6))
    r.call(cf, X)


@scenario
def s_closure_cell_contents_assigned(r):
    f, _ = _make_closure(2.0)
    cf = r.compile(f)
    r.call(cf, X)
    f.__closure__[0].cell_contents = -1.0
    r.call(cf, X)


def _calls_partial(p, x):
    return p(x)


@scenario
def s_partial_keywords_mutated(r):
    p = functools.partial(with_default, k=2.0)
    f = r.compile(_calls_partial)
    r.call(f, p, X)
    p.keywords["k"] = 10.0
    r.call(f, p, X)


@scenario
def s_seterr_changed_between_calls(r):
    def div(x, y):
        return x / y
    f = r.compile(div)
    old = np.seterr(divide="warn")
    try:
        r.call(f, X, np.zeros(6))
        np.seterr(divide="raise")
        r.call(f, X, np.zeros(6))
        np.seterr(divide="ignore")
        r.call(f, X, np.zeros(6))
    finally:
        np.seterr(**old)


@scenario
def s_seterr_invalid_raise_after_first_call(r):
    def sq(x):
        return np.sqrt(x) + np.log(x)
    f = r.compile(sq)
    old = np.geterr()
    try:
        r.call(f, X)
        np.seterr(invalid="raise")
        r.call(f, X)
    finally:
        np.seterr(**old)


def _dataclass_field(c, x):
    return x * c.scale


@scenario
def s_dataclass_field_changed(r):
    import dataclasses

    @dataclasses.dataclass
    class Cfg:
        scale: float = 0.5
    c = Cfg()
    f = r.compile(_dataclass_field)
    r.call(f, c, X)
    c.scale = 2
    r.call(f, c, X)
    c.scale = np.float16(1.5)
    r.call(f, c, X)


def _method_default(o, x):
    return o.go(x)


@scenario
def s_method_defaults_replaced(r):
    class K:
        def go(self, x, k=2.0):
            return x * k
    f = r.compile(_method_default)
    o = K()
    r.call(f, o, X)
    K.go.__defaults__ = (-5.0,)
    r.call(f, o, X)


def _global_array(x):
    return x + GARR


@scenario
def s_global_array_replaced_and_written(r):
    r.patch(globals(), "GARR", np.ones(6))
    f = r.compile(_global_array)
    r.call(f, X)
    globals()["GARR"][:] = 3.0
    r.call(f, X)
    r.patch(globals(), "GARR", np.ones(6, np.float32))
    r.call(f, X)
    r.patch(globals(), "GARR", np.ones((2, 6)))
    r.call(f, X)


def _module_attr(x):
    return x * types.SimpleNamespace(k=2).k + np.e


@scenario
def s_numpy_e_patched(r):
    f = r.compile(_module_attr)
    r.call(f, X)
    r.patch(np, "e", 0.0)
    r.call(f, X)


def _uses_np_float32(x):
    return x.astype(np.float32)


@scenario
def s_numpy_type_alias_patched(r):
    f = r.compile(_uses_np_float32)
    r.call(f, X)
    r.patch(np, "float32", np.float16)
    r.call(f, X)


def _uses_ndarray_method(x):
    return x.sum()


@scenario
def s_ndarray_subclass_overrides_method(r):
    class Odd(np.ndarray):
        def sum(self, *a, **k):
            return "overridden"
    f = r.compile(_uses_ndarray_method)
    r.call(f, X)
    r.call(f, X.view(Odd))
    r.call(f, X)


def _isinstance_int(v, x):
    return x * 2 if isinstance(v, int) else x


case(_isinstance_int, (1, X), (True, X), (1.0, X), (np.int64(1), X))
