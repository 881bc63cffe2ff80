"""Programs over user objects, dataclasses, class attributes, nested models, more builtins."""

import collections
import dataclasses
import functools
import math
import operator
import typing

import numpy as np

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
Y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)
W = np.linspace(-0.5, 0.5, 36, dtype=np.float32).reshape(6, 6)


@dataclasses.dataclass
class Config:
    width: int = 6
    scale: float = 0.5
    act: str = "relu"
    eps: float = 1e-5


@dataclasses.dataclass
class Params:
    w: np.ndarray
    b: np.ndarray


class Activation:
    kind = "tanh"           # a class attribute

    def __call__(self, x):
        return np.tanh(x) if self.kind == "tanh" else np.maximum(x, 0)


class Relu(Activation):
    kind = "relu"


class Linear:
    def __init__(self, w, b, act=None):
        self.w, self.b, self.act = w, b, act

    def __call__(self, x):
        y = x @ self.w + self.b
        return self.act(y) if self.act is not None else y


class Block:
    def __init__(self):
        self.attn = Linear(W, np.zeros(6, np.float32), Relu())
        self.mlp = [Linear(W, np.ones(6, np.float32), Activation()), Linear(W.T, np.zeros(6,
                    np.float32))]

    def __call__(self, x):
        x = x + self.attn(x)
        for layer in self.mlp:
            x = layer(x)
        return x


class Net:
    def __init__(self, n=2):
        self.blocks = [Block() for _ in range(n)]
        self.head = Params(W, np.full(6, 0.1, np.float32))

    def __call__(self, x):
        for i in range(len(self.blocks)):
            x = self.blocks[i](x)
        return x @ self.head.w + self.head.b


class WithProperty:
    def __init__(self):
        self._w = W

    @property
    def w(self):
        return self._w * 2

    @property
    def n(self):
        return self._w.shape[0]


class Counter:
    total = 0

    def __init__(self):
        self.history = []

    def record(self, x):
        self.history.append(x.shape)
        return x


def o_dataclass(x, cfg):
    y = x * cfg.scale
    if cfg.act == "relu":
        y = np.maximum(y, 0)
    return y / np.sqrt(cfg.eps + 1)


def o_dataclass_arrays(p, x):
    return x @ p.w + p.b


def o_class_attr(x, act):
    return act(x)


def o_nested_model(net, x):
    return net(x)


def o_nested_attr_chain(net, x):
    return x @ net.blocks[1].attn.w + net.blocks[0].mlp[1].b


def o_property(obj, x):
    return x @ obj.w + obj.n


def o_method_record(counter, x):
    counter.record(x)
    counter.record(x * 2)
    return x + len(counter.history)


def o_functools_reduce(x, y):
    return functools.reduce(operator.add, [x, y, x])


def o_operator_module(x, y):
    return operator.mul(x, y) + operator.neg(x)


def o_abs_round(x):
    return abs(x) + round(x, 2) if False else abs(x) + np.round(x, 2)


def o_sum_arrays(x, y):
    return sum([x, y]) + sum((x, y), 1.0)


def o_enumerate_arrays(x):
    out = np.zeros_like(x)
    for i, row in enumerate(x):
        out[i] = row * i
    return out


def o_zip_arrays(x, y):
    return [a + b for a, b in zip(x, y)]


def o_tuple_shape_math(x):
    n, m = x.shape
    return x.reshape(n * m // 2, 2), math.prod(x.shape), x.size // n


def o_string_ops(x, name):
    key = name.lower().replace("-", "_")
    table = {"layer_a": 2.0, "layer_b": 3.0}
    return x * table[key]


def o_default_mutable_arg(x, scales=(1.0, 2.0)):
    for s in scales:
        x = x * s
    return x


def o_kwargs_passthrough(x, **kw):
    return o_kw_inner(x, **kw)


def o_kw_inner(x, scale=1.0, shift=0.0):
    return x * scale + shift


def o_args_passthrough(*args):
    return o_args_inner(*args)


def o_args_inner(a, b, c=None):
    return a - b if c is None else a - b + c


def o_isinstance_dispatch(x, v):
    if isinstance(v, (int, float)):
        return x + v
    if isinstance(v, np.ndarray):
        return x * v
    return x


def o_type_name(x, obj):
    if type(obj).__name__ == "Config":
        return x * 2
    return x


def o_getattr_default(x, cfg):
    return x * getattr(cfg, "missing", 3.0) + cfg.scale


def o_hasattr_branch(x, obj):
    if hasattr(obj, "blocks"):
        return x * len(obj.blocks)
    return x


def o_lambda_sort_keys(x):
    d = {"b": 2.0, "a": 1.0, "c": 3.0}
    for k in sorted(d, key=None):
        x = x + d[k]
    return x


def o_nested_closures(x):
    def outer(a):
        def inner(b):
            return a * b
        return inner
    return outer(2.0)(x) + outer(x)(3.0)


def o_closure_counter(x):
    def make():
        n = 0

        def inc():
            nonlocal n
            n += 1
            return n
        return inc
    inc = make()
    inc()
    return x * inc()


def o_conditional_function(x, flag):
    fn = np.tanh if flag else np.exp
    return fn(x)


def o_list_of_functions(x):
    fns = [np.sin, np.cos, lambda v: v * 2]
    return [f(x) for f in fns]


def o_dict_of_functions(x, name):
    acts = {"relu": lambda v: np.maximum(v, 0), "tanh": np.tanh}
    return acts[name](x)


def o_recursive_structure(x, depth):
    if depth == 0:
        return [x]
    return [x * depth] + o_recursive_structure(x, depth - 1)


def o_chained_methods(x):
    return x.reshape(2, 12).T.sum(axis=1).reshape(3, 4).astype(np.float64).mean()


def o_numpy_constants(x):
    return x * np.pi + np.e - np.float32(1.5) + (np.newaxis is None)


def o_dtype_dispatch(x):
    if x.dtype == np.float32:
        return x.astype(np.float64)
    return x


def o_shape_arithmetic(x, y):
    assert x.shape == y.shape
    n = x.shape[0] * 2
    return np.concatenate if False else x.reshape(-1)[: n] + y.reshape(-1)[-n:]


def o_star_in_call(x):
    shape = (2, 12)
    return x.reshape(*shape)


def o_unpack_in_for(x):
    pairs = [(x, 1.0), (x * 2, 2.0)]
    out = 0
    for arr, w in pairs:
        out = out + arr * w
    return out


def o_while_with_list(x):
    todo = [1.0, 2.0, 3.0]
    while todo:
        x = x * todo.pop()
    return x


def o_global_function_table(x):
    return TABLE["double"](x) + TABLE["half"](x)


TABLE = {"double": lambda v: v * 2, "half": lambda v: v / 2}


Stats = collections.namedtuple("Stats", "mean std count", defaults=[0])


class Pair(typing.NamedTuple):
    left: np.ndarray
    right: np.ndarray
    scale: float = 1.0


def o_namedtuple_build(x):
    return Stats(x.mean(axis=0), std=x.std(axis=0))


def o_namedtuple_input_fields(p):
    return (p.left - p.right) * p.scale, p.scale


def o_namedtuple_unpack_index_slice(p):
    left, right, scale = p
    return left @ right.T * scale, p[1], p[:2], len(p)


def o_namedtuple_methods(x):
    s = Stats(x.sum(), x.max(), 3)
    d = s._asdict()
    t = s._replace(count=s.count + 1)
    return d["mean"] / d["std"], t, t.count, s._fields


def o_namedtuple_through_helper(x, y):
    def halves(a):
        return Pair(a[:2], a[2:])
    p = halves(x)
    q = halves(y)
    return Pair(p.left + q.left, p.right * q.right, p.scale + q.scale)


PROGRAMS = [
    ("dataclass", o_dataclass, (X, Config())),
    ("dataclass_arrays", o_dataclass_arrays, (Params(W, np.ones(6, np.float32)), X)),
    ("class_attr", o_class_attr, (X, Relu())),
    ("class_attr_base", o_class_attr, (X, Activation())),
    ("nested_model", o_nested_model, (Net(), X)),
    ("nested_attr_chain", o_nested_attr_chain, (Net(), X)),
    ("property", o_property, (WithProperty(), X)),
    ("method_record", o_method_record, (Counter(), X)),
    ("functools_reduce", o_functools_reduce, (X, Y)),
    ("operator_module", o_operator_module, (X, Y)),
    ("abs_round", o_abs_round, (X,)),
    ("sum_arrays", o_sum_arrays, (X, Y)),
    ("enumerate_arrays", o_enumerate_arrays, (X,)),
    ("zip_arrays", o_zip_arrays, (X, Y)),
    ("tuple_shape_math", o_tuple_shape_math, (X,)),
    ("string_ops", o_string_ops, (X, "Layer-B")),
    ("default_mutable_arg", o_default_mutable_arg, (X,)),
    ("kwargs_passthrough", o_kwargs_passthrough, (X,), 1),
    ("args_passthrough", o_args_passthrough, (X, Y)),
    ("args_passthrough3", o_args_passthrough, (X, Y, X)),
    ("isinstance_dispatch_num", o_isinstance_dispatch, (X, 2)),
    ("isinstance_dispatch_arr", o_isinstance_dispatch, (X, Y)),
    ("type_name", o_type_name, (X, Config())),
    ("getattr_default", o_getattr_default, (X, Config())),
    ("hasattr_branch", o_hasattr_branch, (X, Net())),
    ("sort_keys", o_lambda_sort_keys, (X,)),
    ("nested_closures", o_nested_closures, (X,)),
    ("closure_counter", o_closure_counter, (X,)),
    ("conditional_function", o_conditional_function, (X, True)),
    ("list_of_functions", o_list_of_functions, (X,)),
    ("dict_of_functions", o_dict_of_functions, (X, "relu")),
    ("recursive_structure", o_recursive_structure, (X, 3)),
    ("chained_methods", o_chained_methods, (X,)),
    ("numpy_constants", o_numpy_constants, (X,)),
    ("dtype_dispatch", o_dtype_dispatch, (X,)),
    ("shape_arithmetic", o_shape_arithmetic, (X, Y)),
    ("star_in_call", o_star_in_call, (X,)),
    ("unpack_in_for", o_unpack_in_for, (X,)),
    ("while_with_list", o_while_with_list, (X,)),
    ("global_function_table", o_global_function_table, (X,)),
    ("namedtuple_build", o_namedtuple_build, (X,)),
    ("namedtuple_input_fields", o_namedtuple_input_fields, (Pair(X, Y, 0.5),)),
    ("namedtuple_unpack_index_slice", o_namedtuple_unpack_index_slice, (Pair(X, Y),)),
    ("namedtuple_methods", o_namedtuple_methods, (X,)),
    ("namedtuple_through_helper", o_namedtuple_through_helper, (X, Y)),
]
