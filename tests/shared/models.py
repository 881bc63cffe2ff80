"""The model suite shared by the tests, the demo and the benchmarks (``scripts/`` put
``tests/`` on ``sys.path`` for it: it is user code, traced like any, so it does not
live in the ``dynamo`` package, whose own code is never traced).

Every model is written the way a NumPy user writes it, takes arrays from one library
(``xp`` is numpy or cupy) and returns arrays of the same library.

Example::

    >>> model, inputs = make("mlp", np)
    >>> model(*inputs).shape
    (32, 10)
"""

from __future__ import annotations

import math

import numpy as np


def gelu(x):
    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm(x, g, b):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + 1e-5) * g + b


class MLP:
    """Two hidden layers with ReLU and a softmax head."""

    def __init__(self, xp, sizes=(512, 1024, 1024, 10), seed=0):
        rng = np.random.default_rng(seed)
        self.layers = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            w = rng.standard_normal((a, b)).astype(np.float32) / math.sqrt(a)
            self.layers.append((xp.asarray(w), xp.asarray(np.zeros(b, np.float32))))

    def __call__(self, x):
        (w1, b1), (w2, b2), (w3, b3) = self.layers
        h = np.maximum(x @ w1 + b1, 0)
        h = np.maximum(h @ w2 + b2, 0)
        return softmax(h @ w3 + b3)


class TransformerBlock:
    """Pre-norm causal self-attention and an MLP, heads split by reshape."""

    def __init__(self, xp, width=256, heads=4, seed=0):
        rng = np.random.default_rng(seed)

        def param(*shape, scale=None):
            scale = scale or 1 / math.sqrt(shape[0])
            return xp.asarray((rng.standard_normal(shape) * scale).astype(np.float32))

        self.heads = heads
        self.xp = xp          # the mask is made on the inputs' library (CuPy refuses NumPy)
        self.p = {
            "ln1_g": xp.asarray(np.ones(width, np.float32)),
            "ln1_b": xp.asarray(np.zeros(width, np.float32)),
            "w_qkv": param(width, 3 * width), "w_o": param(width, width),
            "ln2_g": xp.asarray(np.ones(width, np.float32)),
            "ln2_b": xp.asarray(np.zeros(width, np.float32)),
            "w_fc": param(width, 4 * width), "w_proj": param(4 * width, width),
        }

    def attention(self, x):
        T, C = x.shape
        H = self.heads
        qkv = x @ self.p["w_qkv"]
        q, k, v = qkv[:, :C], qkv[:, C:2 * C], qkv[:, 2 * C:]
        q = q.reshape(T, H, C // H).transpose(1, 0, 2)
        k = k.reshape(T, H, C // H).transpose(1, 0, 2)
        v = v.reshape(T, H, C // H).transpose(1, 0, 2)
        att = q @ k.transpose(0, 2, 1) / math.sqrt(C // H)
        att = att + self.causal_mask(T, att)
        y = softmax(att) @ v
        return y.transpose(1, 0, 2).reshape(T, C) @ self.p["w_o"]

    def causal_mask(self, T, like):
        # upper triangle -inf: built from arange so it stays inside the graph
        i = self.xp.arange(T)
        return np.where(i[:, None] >= i[None, :], 0.0, -1e9).astype(like.dtype)

    def __call__(self, x):
        p = self.p
        x = x + self.attention(layernorm(x, p["ln1_g"], p["ln1_b"]))
        h = gelu(layernorm(x, p["ln2_g"], p["ln2_b"]) @ p["w_fc"])
        return x + h @ p["w_proj"]


def make(name: str, xp=np, size: str = "small", seed: int = 0):
    """(callable, inputs) for one model of the suite on library ``xp``."""
    rng = np.random.default_rng(seed)

    def arr(*shape):
        return xp.asarray(rng.standard_normal(shape).astype(np.float32))

    big = size == "large"
    if name == "gelu":
        return gelu, (arr(1 << 26) if big and xp is not np else arr(10_000_000 if big
                                                                    else 1000),)
    if name == "softmax":
        return softmax, (arr(8192, 4096) if big and xp is not np else
                         arr(10_000, 1000) if big else arr(64, 100),)
    if name == "layernorm":
        shape = (8192, 4096) if big and xp is not np else (10_000, 1000) if big else (64, 100)
        c = shape[1]
        g = xp.asarray(np.ones(c, np.float32))
        b = xp.asarray(np.zeros(c, np.float32))
        return layernorm, (arr(*shape), g, b)
    if name == "mlp":
        return MLP(xp), (arr(32, 512),)
    if name == "transformer":
        return TransformerBlock(xp), (arr(64, 256),)
    raise ValueError(f"unknown model {name!r}")


MODELS = ("gelu", "softmax", "layernorm", "mlp", "transformer")
