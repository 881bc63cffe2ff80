"""Programs that call user code: inlining, closures, methods, partials, recursion."""

import functools

import numpy as np

X = np.linspace(-1, 1, 24, dtype=np.float32).reshape(4, 6)
Y = np.linspace(0.5, 2, 24, dtype=np.float32).reshape(4, 6)
W = np.linspace(-0.5, 0.5, 36, dtype=np.float32).reshape(6, 6)


def helper(x, k=2):
    return x * k


def kwonly(x, *, scale=1.0, shift=0.0):
    return x * scale + shift


def varargs(*xs):
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total


def varkw(x, **params):
    return x * params["a"] + params.get("b", 0.0)


def linear(x, w, b=None):
    y = x @ w
    if b is not None:
        y = y + b
    return y


def recurse(x, n):
    if n == 0:
        return x
    return recurse(x * 0.5, n - 1)


def make_adder(c):
    def add(x):
        return x + c
    return add


ADD3 = make_adder(3.0)


class Layer:
    def __init__(self, w, act="relu"):
        self.w = w
        self.act = act

    def __call__(self, x):
        y = x @ self.w
        return np.maximum(y, 0) if self.act == "relu" else np.tanh(y)

    @property
    def width(self):
        return self.w.shape[1]

    @staticmethod
    def square(x):
        return x * x

    @classmethod
    def make(cls, w):
        return cls(w, "tanh")

    def scaled(self, x, s=2.0):
        return self(x) * s


class Base:
    def __init__(self):
        self.bias = 1.0

    def forward(self, x):
        return x + self.bias


class Child(Base):
    def forward(self, x):
        return super().forward(x) * 2


class Model:
    def __init__(self):
        self.layers = [Layer(W), Layer(W, "tanh"), Layer(W)]
        self.params = {"w": W, "b": np.ones(6, np.float32)}
        self.scale = 0.5

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x @ self.params["w"] + self.params["b"] * self.scale


def f_helper(x):
    return helper(x) + helper(x, 3) + helper(x, k=4)


def f_kwonly(x):
    return kwonly(x, scale=2.0) + kwonly(x, shift=1.0, scale=3.0)


def f_varargs(x, y):
    return varargs(x, y, x)


def f_star_call(x, y):
    args = (x, y)
    return varargs(*args) + linear(*[x, W])


def f_varkw(x):
    p = {"a": 2.0, "b": 1.0}
    return varkw(x, **p) + varkw(x, a=3.0)


def f_dict_merge(x):
    a = {"a": 1.0}
    b = {"b": 2.0}
    return varkw(x, **{**a, **b})


def f_default_none(x):
    return linear(x, W) + linear(x, W, b=np.float32(1.0))


def f_recursion(x):
    return recurse(x, 4)


def f_closure(x):
    c = 2.0

    def inner(y):
        return y * c
    return inner(x) + inner(x * 2)


def f_closure_global_factory(x):
    return ADD3(x)


def f_lambda(x):
    sq = lambda v: v * v  # noqa: E731
    return sq(x) + (lambda v, k=3: v * k)(x)


def f_nonlocal(x):
    count = 0

    def bump():
        nonlocal count
        count += 1
    bump()
    bump()
    return x * count


def f_nested_def_defaults(x):
    def g(v, s=2.0, *, t=1.0):
        return v * s + t
    return g(x) + g(x, 3.0, t=0.0)


def f_partial(x):
    h = functools.partial(helper, k=5)
    return h(x)


def f_partial_pos(x, y):
    return functools.partial(varargs, x)(y)


def f_method(x):
    layer = Layer(W)
    return layer(x) if False else x


def f_layer_object(layer, x):
    return layer(x) + layer.scaled(x) + Layer.square(x) + layer.width


def f_classmethod(x):
    return Layer.make(W)(x) if False else x * 2


def f_super(m, x):
    return m.forward(x)


def f_model(m, x):
    return m(x)


def f_map(x, y):
    return sum(map(helper, [x, y]))


def f_sorted_keys(x):
    d = {"b": 2.0, "a": 1.0}
    out = x
    for k in sorted(d):
        out = out * d[k]
    return out


def f_getattr_builtin(layer, x):
    act = layer.act
    missing = getattr(layer, "nope", None)
    return (x * 2 if act == "relu" else x) if missing is None else x


def f_hasattr(layer, x):
    return x + 1 if hasattr(layer, "w") and not hasattr(layer, "nope") else x


def f_isinstance(x, n):
    if isinstance(x, np.ndarray) and isinstance(n, int) and not isinstance(n, (float, str)):
        return x * n
    return x


def f_type_is(x):
    return x * 2 if type(x) is np.ndarray else x


def f_callable(x):
    return x * 2 if callable(helper) else x


PROGRAMS = [
    ("helper", f_helper, (X,)),
    ("kwonly", f_kwonly, (X,)),
    ("varargs", f_varargs, (X, Y)),
    ("star_call", f_star_call, (X, Y)),
    ("varkw", f_varkw, (X,)),
    ("dict_merge", f_dict_merge, (X,)),
    ("default_none", f_default_none, (X,)),
    ("recursion", f_recursion, (X,)),
    ("closure", f_closure, (X,)),
    ("closure_factory", f_closure_global_factory, (X,)),
    ("lambda", f_lambda, (X,)),
    ("nonlocal", f_nonlocal, (X,)),
    ("nested_defaults", f_nested_def_defaults, (X,)),
    ("partial", f_partial, (X,)),
    ("partial_pos", f_partial_pos, (X, Y)),
    ("layer_object", f_layer_object, (Layer(W), X)),
    ("super", f_super, (Child(), X)),
    ("model", f_model, (Model(), X)),
    ("map", f_map, (X, Y)),
    ("sorted_keys", f_sorted_keys, (X,)),
    ("getattr_builtin", f_getattr_builtin, (Layer(W), X)),
    ("hasattr", f_hasattr, (Layer(W), X)),
    ("isinstance", f_isinstance, (X, 3)),
    ("type_is", f_type_is, (X,)),
    ("callable", f_callable, (X,)),
]
