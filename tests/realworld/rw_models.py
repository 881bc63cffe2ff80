"""Neural-network forward passes written the way NumPy users write them.

A picoGPT-style transformer (parameter dicts unpacked with ``**``, a list of blocks,
heads split with ``np.split`` and merged with ``np.hstack``) and its greedy decode loop,
classes holding weights in attributes and lists of sub-layers, an LSTM and an RNN
unrolled over time, causal attention with masks from ``np.tri``/``np.triu``, batch
normalization that updates running statistics in place, a dataclass of
hyper-parameters. Each runs on two input sets of different shapes.
"""

import dataclasses

import numpy as np
from rw_check import (
    Program,
    rng_arrays,
)

# ---------------------------------------------------------------- picoGPT


def gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def softmax(x):
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=-1, keepdims=True)


def layer_norm(x, g, b, eps: float = 1e-5):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    x = (x - mean) / np.sqrt(variance + eps)
    return g * x + b


def linear(x, w, b):
    return x @ w + b


def ffn(x, c_fc, c_proj):
    a = gelu(linear(x, **c_fc))
    return linear(a, **c_proj)


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


def gpt_params(n_vocab=40, n_ctx=16, n_embd=16, n_layer=2, seed=0):
    rng = np.random.default_rng(seed)

    def w(*shape):
        return (rng.standard_normal(shape) * 0.2).astype(np.float32)

    def lin(a, b):
        return {"w": w(a, b), "b": w(b)}

    def ln():
        return {"g": 1 + w(n_embd), "b": w(n_embd)}

    blocks = [{"mlp": {"c_fc": lin(n_embd, 4 * n_embd), "c_proj": lin(4 * n_embd, n_embd)},
               "attn": {"c_attn": lin(n_embd, 3 * n_embd), "c_proj": lin(n_embd, n_embd)},
               "ln_1": ln(), "ln_2": ln()} for _ in range(n_layer)]
    return {"wte": w(n_vocab, n_embd), "wpe": w(n_ctx, n_embd), "blocks": blocks,
            "ln_f": ln()}


def gpt_forward(inputs, params, n_head):
    return gpt2(inputs, **params, n_head=n_head)


def gpt_generate(inputs, params, n_head, n_tokens_to_generate):
    """picoGPT's greedy decode loop: the sequence grows by one token per step."""
    for _ in range(n_tokens_to_generate):
        logits = gpt2(inputs, **params, n_head=n_head)
        next_id = np.argmax(logits[-1])
        inputs.append(int(next_id))
    return inputs[len(inputs) - n_tokens_to_generate:]


GPT_A, GPT_B = gpt_params(), gpt_params(n_embd=24, n_layer=1, seed=1)

# ---------------------------------------------------------------- layers as classes


class Linear:
    def __init__(self, n_in, n_out, rng):
        self.w = (rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)).astype(np.float32)
        self.b = np.zeros(n_out, dtype=np.float32)

    def __call__(self, x):
        return x @ self.w + self.b


class MLP:
    """Weights in attributes, sub-layers in a list, the activation picked by name."""

    def __init__(self, sizes, activation="relu", seed=0):
        rng = np.random.default_rng(seed)
        self.layers = [Linear(a, b, rng) for a, b in zip(sizes[:-1], sizes[1:])]
        self.activation = activation

    def act(self, x):
        if self.activation == "relu":
            return np.maximum(x, 0)
        elif self.activation == "tanh":
            return np.tanh(x)
        return x

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = self.act(layer(x))
        return softmax(self.layers[-1](x))


def mlp_classify(model, x):
    probs = model(x)
    return probs.argmax(axis=-1), probs.max(axis=-1)


# ---------------------------------------------------------------- recurrent nets


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def lstm_cell(x, h, c, W, U, b):
    z = x @ W + h @ U + b
    i, f, o, g = np.split(z, 4, axis=-1)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    h = sigmoid(o) * np.tanh(c)
    return h, c


def lstm_forward(xs, W, U, b):
    """xs: (T, batch, features); the hidden size comes from U's shape."""
    T, batch, _ = xs.shape
    hidden = U.shape[0]
    h = np.zeros((batch, hidden), dtype=xs.dtype)
    c = np.zeros_like(h)
    outputs = []
    for t in range(T):
        h, c = lstm_cell(xs[t], h, c, W, U, b)
        outputs.append(h)
    return np.stack(outputs), (h, c)


def rnn_forward(xs, Wxh, Whh, bh, h0=None):
    if h0 is None:
        h0 = np.zeros(Whh.shape[0], dtype=xs.dtype)
    h = h0
    hs = []
    for x in xs:                       # iterate over the rows of an array
        h = np.tanh(Wxh @ x + Whh @ h + bh)
        hs.append(h)
    return np.array(hs), h


def lstm_args(seed, T, batch, n_in, hidden):
    xs, W, U, b = rng_arrays(seed, (T, batch, n_in), (n_in, 4 * hidden), (hidden, 4 * hidden),
                             (4 * hidden,), scale=0.5)
    return xs, W, U, b


# ---------------------------------------------------------------- attention


def causal_self_attention(x, w_qkv, w_out, n_heads):
    seq, d_model = x.shape
    d_head = d_model // n_heads
    q, k, v = np.split(x @ w_qkv, 3, axis=1)
    # (seq, d_model) -> (heads, seq, d_head)
    q = q.reshape(seq, n_heads, d_head).transpose(1, 0, 2)
    k = k.reshape(seq, n_heads, d_head).transpose(1, 0, 2)
    v = v.reshape(seq, n_heads, d_head).transpose(1, 0, 2)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(d_head)
    mask = np.triu(np.ones((seq, seq), dtype=bool), k=1)
    scores = np.where(mask, -np.inf, scores)
    weights = softmax(scores)
    out = (weights @ v).transpose(1, 0, 2).reshape(seq, d_model)
    return out @ w_out, weights


def attention_with_padding(q, k, v, lengths):
    """Batched attention; keys past each sequence's length are masked out."""
    batch, seq, d = q.shape
    key_pos = np.arange(seq)[None, :]
    pad = key_pos >= lengths[:, None]                     # (batch, seq)
    scores = np.einsum("bqd,bkd->bqk", q, k) / np.sqrt(d)
    scores[np.broadcast_to(pad[:, None, :], scores.shape)] = -1e9
    return softmax(scores) @ v


# ---------------------------------------------------------------- normalization


class BatchNorm:
    def __init__(self, n, momentum=0.9, eps=1e-5):
        self.gamma = np.ones(n, np.float32)
        self.beta = np.zeros(n, np.float32)
        self.running_mean = np.zeros(n, np.float32)
        self.running_var = np.ones(n, np.float32)
        self.momentum, self.eps = momentum, eps
        self.training = True

    def __call__(self, x):
        if self.training:
            mean = x.mean(axis=0)
            var = x.var(axis=0)
            self.running_mean *= self.momentum
            self.running_mean += (1 - self.momentum) * mean
            self.running_var = self.momentum * self.running_var + (1 - self.momentum) * var
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean) / np.sqrt(var + self.eps)
        return self.gamma * x_hat + self.beta


def batchnorm_train_then_eval(bn, x_train, x_test):
    y_train = bn(x_train)
    bn.training = False
    y_test = bn(x_test)
    bn.training = True
    return y_train, y_test


# ---------------------------------------------------------------- dataclass config


@dataclasses.dataclass
class ModelConfig:
    d_model: int = 8
    n_layers: int = 2
    dropout: float = 0.1
    residual: bool = True
    norm_eps: float = 1e-6


def rms_norm(x, eps=1e-6):
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)


def residual_stack(x, weights, cfg: ModelConfig, rng):
    assert x.shape[-1] == cfg.d_model, f"expected width {cfg.d_model}, got {x.shape[-1]}"
    for layer in range(cfg.n_layers):
        h = np.maximum(rms_norm(x, eps=cfg.norm_eps) @ weights[layer], 0.0)
        keep = rng.random(h.shape) >= cfg.dropout
        h = h * keep / (1.0 - cfg.dropout)
        x = x + h if cfg.residual else h
    return x


def stack_args(seed, batch, cfg):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, cfg.d_model)).astype(np.float32)
    ws = [rng.standard_normal((cfg.d_model, cfg.d_model)).astype(np.float32) * 0.3
          for _ in range(cfg.n_layers)]
    return x, ws, cfg, np.random.default_rng(seed + 100)


# ---------------------------------------------------------------- embeddings


def bag_of_words_classifier(token_ids, embedding, w, b):
    vectors = embedding[token_ids]                 # (batch, seq, dim)
    pooled = vectors.mean(axis=1)
    logits = pooled @ w + b
    log_probs = logits - np.log(np.sum(np.exp(logits), axis=1, keepdims=True))
    return log_probs


def _bow_args(seed, batch, seq, vocab, dim, classes):
    rng = np.random.default_rng(seed)
    return (rng.integers(0, vocab, size=(batch, seq)),
            rng.standard_normal((vocab, dim)).astype(np.float32),
            rng.standard_normal((dim, classes)).astype(np.float32),
            np.zeros(classes, np.float32))


def _attn_args(seed, seq, d_model):
    x, w_qkv, w_out = rng_arrays(seed, (seq, d_model), (d_model, 3 * d_model),
                                 (d_model, d_model), scale=0.3)
    return x, w_qkv, w_out, 2


def _pad_args(seed, batch, seq, d):
    q, k, v = rng_arrays(seed, (batch, seq, d), (batch, seq, d), (batch, seq, d))
    lengths = np.random.default_rng(seed).integers(1, seq + 1, size=batch)
    return q, k, v, lengths


PROGRAMS = [
    Program("picogpt_forward", gpt_forward,
            [([3, 14, 15, 9, 2, 6], GPT_A, 4), ([1, 2, 3], GPT_B, 2),
             ([5, 6, 7, 8, 9, 10, 11, 12, 13, 14], GPT_A, 4), ([4, 4], GPT_A, 2)]),
    Program("picogpt_generate", gpt_generate,
            [([3, 14, 15], GPT_A, 4, 3), ([7, 1], GPT_B, 2, 2)],
            graphs=2, breaks=1,
            why="`int(next_id)` needs the argmax's value (expected); the decode loop then "
                "runs eagerly and `gpt2` is compiled twice: for the first length, then "
                "once more with the token list as int64 data of symbolic length (#16)"),
    Program("mlp_class_relu", mlp_classify,
            [(MLP([6, 16, 16, 3]), rng_arrays(0, (5, 6))),
             (MLP([4, 8, 2], activation="tanh", seed=1), rng_arrays(1, (7, 4))),
             (MLP([6, 16, 16, 3]), rng_arrays(2, (2, 6)))]),
    Program("lstm_unrolled", lstm_forward,
            [lstm_args(0, 5, 2, 3, 4), lstm_args(1, 3, 4, 2, 6), lstm_args(2, 5, 3, 3, 4)]),
    Program("rnn_rows_default_h0", rnn_forward,
            [tuple(rng_arrays(0, (4, 3), (5, 3), (5, 5), (5,), scale=0.5)),
             tuple(rng_arrays(1, (6, 2), (3, 2), (3, 3), (3,), scale=0.5)),
             tuple(rng_arrays(2, (2, 3), (5, 3), (5, 5), (5,), scale=0.5))]),
    Program("causal_attention_triu", causal_self_attention,
            [_attn_args(0, 5, 8), _attn_args(1, 7, 12), _attn_args(2, 3, 8)]),
    Program("attention_padding_mask", attention_with_padding,
            [_pad_args(0, 2, 4, 3), _pad_args(1, 3, 6, 5), _pad_args(2, 4, 4, 3)]),
    Program("batchnorm_running_stats", batchnorm_train_then_eval,
            [(BatchNorm(4), *rng_arrays(0, (8, 4), (3, 4))),
             (BatchNorm(6, momentum=0.5), *rng_arrays(1, (5, 6), (2, 6))),
             (BatchNorm(4), *rng_arrays(2, (3, 4), (5, 4))),
             (BatchNorm(256), *rng_arrays(3, (512, 256), (64, 256)))]),   # block-wise sizes
    Program("dataclass_dropout_stack", residual_stack,
            [stack_args(0, 4, ModelConfig()),
             stack_args(1, 3, ModelConfig(d_model=6, n_layers=3, residual=False))],
            why="`rng.random(...)` on the Generator argument is a random op in the graph"),
    Program("embedding_bag_classifier", bag_of_words_classifier,
            [_bow_args(0, 3, 5, 20, 4, 3), _bow_args(1, 2, 7, 30, 6, 4),
             _bow_args(2, 5, 2, 20, 4, 3)]),
]

