"""Straight-line NumPy programs: compiled equals eager, in one graph."""

import math

import numpy as np
import pytest
from harness import check, rand

X = rand(4, 8)
Y = rand(4, 8, seed=1)
W = rand(8, 16, seed=2)
V = rand(8, seed=3)
I32 = rand(4, 8, dtype=np.int32, seed=4)
F64 = rand(4, 8, dtype=np.float64, seed=5)
B = rand(4, 8, dtype=np.bool_, seed=6)
POS = rand(4, 8, low=0.1, high=2.0, seed=7)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm(x, g, b, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


PROGRAMS = [
    ("add", lambda x, y: x + y, (X, Y)),
    ("sub_mul_div", lambda x, y: (x - y) * y / (x + 3.0), (X, Y)),
    ("floordiv_mod_int", lambda a: (a // 3, a % 4), (I32,)),
    ("pow2", lambda x: x ** 2, (X,)),
    ("pow3", lambda x: x ** 3, (X,)),
    ("pow_half", lambda x: x ** 0.5, (POS,)),
    ("neg_pos_abs", lambda x: (-x, +x, abs(x)), (X,)),
    ("invert_bool", lambda b: ~b, (B,)),
    ("bitwise_int", lambda a: (a & 3) | (a ^ 5) << 1, (I32,)),
    ("compare", lambda x, y: (x < y, x <= y, x == y, x != y, x > y, x >= y), (X, Y)),
    ("matmul", lambda x, w: x @ w, (X, W)),
    ("matvec", lambda x, v: x @ v, (X, V)),
    ("dot", lambda x, w: np.dot(x, w), (X, W)),
    ("method_dot", lambda x, w: x.dot(w), (X, W)),
    ("ufuncs", lambda x: np.exp(x) + np.log(np.abs(x) + 1) + np.sin(x) * np.cos(x), (X,)),
    ("sqrt_tanh", lambda x: np.sqrt(x) + np.tanh(x), (POS,)),
    ("maximum_minimum", lambda x, y: np.maximum(x, 0) + np.minimum(x, y), (X, Y)),
    ("where", lambda x, y: np.where(x > 0, x, y), (X, Y)),
    ("where_scalar", lambda x: np.where(x > 0, x, 0.0), (X,)),
    ("sum_all", lambda x: x.sum(), (X,)),
    ("sum_axis", lambda x: np.sum(x, axis=0), (X,)),
    ("sum_keepdims", lambda x: x.sum(axis=-1, keepdims=True), (X,)),
    ("mean_var", lambda x: (x.mean(axis=1), np.var(x, axis=0), x.var()), (X,)),
    ("max_min", lambda x: (x.max(), np.min(x, axis=1), np.amax(x, axis=0)), (X,)),
    ("sum_tuple_axis", lambda x: x.sum(axis=(0, 1)), (X,)),
    ("reshape", lambda x: x.reshape(8, 4) + 1, (X,)),
    ("reshape_minus1", lambda x: x.reshape(-1), (X,)),
    ("reshape_fn", lambda x: np.reshape(x, (2, 16)), (X,)),
    ("transpose_T", lambda x: x.T @ x, (X,)),
    ("transpose_axes", lambda x: np.transpose(x.reshape(2, 2, 8), (2, 0, 1)), (X,)),
    ("astype", lambda x: x.astype(np.float64) * 2, (X,)),
    ("astype_int", lambda x: (x * 10).astype(np.int32), (X,)),
    ("zeros_ones_full", lambda x: x + np.zeros((4, 8)) + np.ones(8, np.float32) +
     np.full((4, 1), 2.0, np.float32), (X,)),
    ("like", lambda x: np.zeros_like(x) + np.ones_like(x) * 3 + np.full_like(x, 0.5), (X,)),
    ("arange", lambda x: x * np.arange(8), (X,)),
    ("arange_float", lambda x: np.arange(0.0, 1.0, 0.125, dtype=np.float32) + x, (X,)),
    ("shape_attrs", lambda x: x.reshape(x.shape[1], x.shape[0]) * x.ndim + x.size, (X,)),
    ("dtype_attr", lambda x: x.astype(x.dtype) + 1, (X,)),
    ("int_promotion", lambda a: a + 1.5, (I32,)),
    ("nep50_scalar", lambda x: x * 2 + 1.0, (X,)),
    ("mixed_precision", lambda x, y: x + y, (X, F64)),
    ("int_float_arrays", lambda a, x: a * x, (I32, X)),
    ("bool_arith", lambda b, x: b * x, (B, X)),
    ("softmax", softmax, (X,)),
    ("layernorm", layernorm, (X, V, V)),
    ("gelu", gelu, (X,)),
    ("tuple_return", lambda x, y: (x + y, x - y), (X, Y)),
    ("list_return", lambda x, y: [x * 2, y], (X, Y)),
    ("dict_return", lambda x: {"a": x, "b": x.sum(), "n": 3}, (X,)),
    ("scalar_return", lambda x: (x.shape[0] * 2, 2.5, "s", None, x + 1), (X,)),
    ("unpack_shape", lambda x: _unpack(x), (X,)),
    ("tuple_unpack", lambda x, y: (lambda t: t[0] + t[1])((x, y)), (X, Y)),
    ("index_basic", lambda x: x[1:3, ::2] + x[0, ::2] + x[1:3, -1:] + x[..., None][0, :4, 0], (X,)),
    ("index_none", lambda x: x[:, None, :] * x[None], (X,)),
    ("inplace_add_local", lambda x: _inplace(x), (X,)),
    ("math_module", lambda x: x * math.pi + math.sqrt(2.0), (X,)),
    ("float64", lambda x: np.exp(x) / (1 + np.exp(x)), (F64,)),
    ("scalar_chain", lambda x: (x.sum() * 2 + 1) / x.size, (X,)),
]


def _unpack(x):
    rows, cols = x.shape
    a, b = x[0], x[1]
    return x.reshape(cols, rows) * (a + b).sum()


def _inplace(x):
    y = x * 2
    y += 1
    y *= y
    return y


@pytest.mark.parametrize("name,fn,args", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_program(name, fn, args):
    check(fn, *args, graphs=1, breaks=0)


def test_returns_input_itself():
    def f(x):
        return x

    x = rand(3)
    import dynamo
    assert dynamo.compile(f, backend="eager")(x) is x


def test_inplace_on_input_mutates_it():
    def f(x, y):
        x += y
        x[0] = 5.0
        return x

    check(f, rand(4, 8), rand(4, 8, seed=1), graphs=1, breaks=0)


def test_setitem_slices():
    def f(a, b):
        a[1:-1, 1:-1] = 0.2 * (b[:-2, 1:-1] + b[2:, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:])
        return a

    check(f, rand(6, 6), rand(6, 6, seed=1), graphs=1, breaks=0)


def test_view_of_input_stays_a_view():
    import dynamo

    def f(x):
        return x[1:]

    x = rand(5)
    v = dynamo.compile(f, backend="eager")(x)
    v[0] = 100.0
    assert x[1] == 100.0
