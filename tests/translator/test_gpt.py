"""A small GPT written the way NumPy users write one, captured as one graph.

Parameter dicts unpacked with ``**``, a list of blocks, heads split with ``np.split`` and
merged with ``np.hstack``, a list comprehension over heads (after picoGPT's style).
"""

import numpy as np
from harness import check


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def layer_norm(x, g, b, eps: float = 1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return g * (x - mean) / np.sqrt(variance + eps) + b


def linear(x, w, b):
    return x @ w + b


def ffn(x, c_fc, c_proj):
    return linear(gelu(linear(x, **c_fc)), **c_proj)


def attention(q, k, v, mask):
    return softmax(q @ k.T / np.sqrt(q.shape[-1]) + mask) @ v


def mha(x, c_attn, c_proj, n_head):
    x = linear(x, **c_attn)
    qkv = np.split(x, 3, axis=-1)
    qkv_heads = list(map(lambda x: np.split(x, n_head, axis=-1), qkv))
    causal_mask = (1 - np.tri(x.shape[0], dtype=x.dtype)) * -1e10
    out_heads = [attention(q, k, v, causal_mask) for q, k, v in zip(*qkv_heads)]
    x = np.hstack(out_heads)
    return linear(x, **c_proj)


def transformer_block(x, mlp, attn, ln_1, ln_2, n_head):
    x = x + mha(layer_norm(x, **ln_1), **attn, n_head=n_head)
    x = x + ffn(layer_norm(x, **ln_2), **mlp)
    return x


def gpt2(inputs, wte, wpe, blocks, ln_f, n_head):
    x = wte[inputs] + wpe[range(len(inputs))]
    for block in blocks:
        x = transformer_block(x, **block, n_head=n_head)
    x = layer_norm(x, **ln_f)
    return x @ wte.T


def make_params(n_vocab=50, n_ctx=16, n_embd=32, n_layer=2, seed=0):
    rng = np.random.default_rng(seed)

    def w(*shape):
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    def lin(a, b):
        return {"w": w(a, b), "b": np.zeros(b, np.float32)}

    def ln():
        return {"g": np.ones(n_embd, np.float32), "b": np.zeros(n_embd, np.float32)}

    blocks = [{"mlp": {"c_fc": lin(n_embd, 4 * n_embd), "c_proj": lin(4 * n_embd, n_embd)},
               "attn": {"c_attn": lin(n_embd, 3 * n_embd), "c_proj": lin(n_embd, n_embd)},
               "ln_1": ln(), "ln_2": ln()} for _ in range(n_layer)]
    return {"wte": w(n_vocab, n_embd), "wpe": w(n_ctx, n_embd), "blocks": blocks,
            "ln_f": ln()}


def run_gpt(inputs, params, n_head):
    return gpt2(inputs, **params, n_head=n_head)


def test_gpt_is_one_graph():
    params = make_params()
    inputs = [3, 14, 15, 9, 2, 6]
    report = check(run_gpt, inputs, params, 4, graphs=1, breaks=0)
    assert report.ops_per_graph[0] > 100
