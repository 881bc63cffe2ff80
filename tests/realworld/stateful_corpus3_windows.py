"""Issue #16's third corpus, its second half (``stateful_corpus3.py`` has the first):
windows of growing lists as real code takes them (with a step, ``h[-6::2]``; looped
over, ``for v in self.hist[-3:]``; 0 and 1 long; reversed), token lists for decoding,
and optimizer state made on the first call (``if k not in self.m``, ``dict.get``).
Each runs 12 or more calls, the lists' lengths crossing 0, 1 and the window's width.

Example::

    @program(recompiles=1, why=NUMBER)
    def window_with_step(wrap):
        s = StridedHistory()
        f = wrap(s.step)
        return [f(XS[i], LOSSES[i]) for i in range(CALLS)], s.h
"""

from __future__ import annotations

import numpy as np
from stateful_corpus3 import CALLS, EMB, GS, LOSSES, XS, W4x3, _data
from stateful_programs import NUMBER, registrar

PROGRAMS: list = []
program = registrar(PROGRAMS)

# ===================================================================== windows

class StridedHistory:
    """``np.mean(self.h[-6::2])``: every other value of the last six."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        return x * np.mean(self.h[-6::2])


@program(recompiles=3, why=NUMBER + "; the held part's length modulo 2 decides whether the "
                                    "appended v is in (an entry per remainder); a 1-long "
                                    "held part without v is data of length 1 (it may broadcast)")
def window_with_step(wrap):
    s = StridedHistory()
    f = wrap(s.step)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], s.h


class LoopWindow:
    """``for v in self.hist[-3:]: acc += v``: a loop over a window of floats."""

    def __init__(self):
        self.hist = []

    def step(self, x, v):
        self.hist.append(v)
        acc = 0.0
        for u in self.hist[-3:]:
            acc += u
        return x * acc


@program(recompiles=1, why=NUMBER,
         known=(2, "a loop over a window is unrolled: an entry per length of its held "
                   "part while it fills (1, then 2)"))
def loop_over_window(wrap):
    s = LoopWindow()
    f = wrap(s.step)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], s.hist


class LoopArrayWindow:
    """A loop over the last 3 arrays kept: a weighted sum of frames."""

    def __init__(self):
        self.frames = []

    def step(self, x):
        self.frames.append(x)
        out = np.zeros_like(x)
        for i, fr in enumerate(self.frames[-3:]):
            out = out + (i + 1) * fr
        return out


@program(recompiles=2, why="the window holds 1, 2 then 3 frames (a Python loop over them)")
def loop_over_array_window(wrap):
    s = LoopArrayWindow()
    f = wrap(s.step)
    return [f(x) for x in XS], s.frames


class ShortWindow:
    """``self.h[-1:]`` and ``self.h[-2:]`` of a list that starts empty (lengths 0, 1, 2)."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        prev = sum(self.h[-2:])
        last = sum(self.h[-1:])
        self.h.append(v)
        return x * (prev - last)


@program(recompiles=1, why=NUMBER)
def windows_zero_one_long(wrap):
    s = ShortWindow()
    f = wrap(s.step)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], s.h


class ReversedWindow:
    """``self.h[-4:][::-1]`` weighted by position: the newest weighs most."""

    def __init__(self):
        self.h = []

    def step(self, x, v):
        self.h.append(v)
        w = np.array(self.h[-4:][::-1])
        return x * float(np.sum(w * 0.5 ** np.arange(w.shape[0])))


@program(recompiles=1, why=NUMBER + " (the window newest first is a window of h: "
                                    "list_windows._view)")
def reversed_window_weights(wrap):
    s = ReversedWindow()
    f = wrap(s.step)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], s.h


class LossHistory:
    """``if self.losses: prev = self.losses[-1]``: the previous loss, none at first."""

    def __init__(self):
        self.losses = []

    def step(self, x, loss):
        delta = loss - self.losses[-1] if self.losses else 0.0
        self.losses.append(loss)
        return x * delta


@program(recompiles=2, why=NUMBER + "; the list is empty at first (one entry)")
def previous_loss_from_history(wrap):
    h = LossHistory()
    f = wrap(h.step)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], h.losses


# ===================================================================== decoding

class GreedyDecoder:
    """Greedy decode with a context of the last 4 token ids (``EMB[ctx]``)."""

    def __init__(self, prompt):
        self.tokens = list(prompt)

    def next_token(self, W):
        ctx = self.tokens[-4:]
        h = EMB[ctx].mean(0)
        tok = int(np.argmax(W @ h))
        self.tokens.append(tok)
        return h


@program(recompiles=2, why="the context fills to 4 tokens; token ids are data")
def greedy_decode_token_window(wrap):
    d = GreedyDecoder([1])
    f = wrap(d.next_token)
    W = _data(3400, 10, 4)
    return [f(W) for _ in range(CALLS)], d.tokens


class BlockDecoder:
    """``self.tokens[-self.block:]`` with the block size an attribute."""

    def __init__(self, block=3):
        self.tokens = []
        self.block = block
        self.rng = np.random.default_rng(11)

    def step(self, x):
        self.tokens.append(int(self.rng.integers(10)))
        ctx = self.tokens[-self.block:]
        return x[:4] * EMB[ctx].sum(0)


@program(recompiles=2, why="the context fills to its block; token ids are data")
def decode_block_from_attribute(wrap):
    d = BlockDecoder()
    f = wrap(d.step)
    return [f(x) for x in XS], d.tokens, d.rng.bit_generator.state


# ===================================================================== optimizer state

class LazyAdam:
    """Adam whose moment dicts are filled on the first call for each parameter."""

    def __init__(self):
        self.m, self.v, self.t = {}, {}, 0

    def step(self, params, grads):
        self.t += 1
        out = {}
        for k, p in params.items():
            if k not in self.m:
                self.m[k] = np.zeros_like(p)
                self.v[k] = np.zeros_like(p)
            g = grads[k]
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            out[k] = p - 0.01 * mh / (np.sqrt(vh) + 1e-8)
        return out


@program(recompiles=2, why=NUMBER + "; the moment dicts are empty on the first call")
def adam_lazy_state_dicts(wrap):
    opt = LazyAdam()
    f = wrap(opt.step)
    params = {"w": W4x3.copy(), "b": np.zeros(3)}
    for i in range(CALLS):
        params = f(params, {"w": GS[i], "b": XS[i][:3]})
    return params, opt.m, opt.v, opt.t


class LazyMomentum:
    """SGD with momentum whose velocity starts as ``None`` via ``dict.get``."""

    def __init__(self):
        self.vel = {}

    def step(self, name, p, g):
        v = self.vel.get(name)
        v = g if v is None else 0.9 * v + g
        self.vel[name] = v
        return p - 0.05 * v


@program(recompiles=3, why="the name selects the velocity: an entry per name while the dict "
                           "fills (its keys guarded, the velocity None), and one per name after")
def momentum_lazy_dict_get(wrap):
    opt = LazyMomentum()
    f = wrap(opt.step)
    p = {"a": W4x3.copy(), "b": W4x3.copy() * 2}
    for i in range(CALLS):
        k = "ab"[i % 2]
        p[k] = f(k, p[k], GS[i])
    return p, opt.vel




# ===================================================================== more windows

class LengthLog:
    """Ints appended (sequence lengths), ``np.mean`` of the last 5 as data."""

    def __init__(self):
        self.lengths = []

    def step(self, x, n):
        self.lengths.append(n)
        return x * np.mean(self.lengths[-5:])


@program(recompiles=1, why=NUMBER)
def int_window_mean(wrap):
    s = LengthLog()
    f = wrap(s.step)
    return [f(XS[i], 3 + i % 4) for i in range(CALLS)], s.lengths


class StepLossLog:
    """``self.log[self.step] = loss``: a write-only dict keyed by a growing int."""

    def __init__(self):
        self.log = {}
        self.step = 0

    def record(self, x, loss):
        self.step += 1
        self.log[self.step] = loss
        return x * loss


@program(recompiles=1, why=NUMBER + "; a dict only written is guarded by nothing but its "
                                    "type, its changing-int key written back by the glue")
def write_only_dict_keyed_by_step(wrap):
    s = StepLossLog()
    f = wrap(s.record)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], s.log, s.step


class KVWindow:
    """A key cache of arrays, attention over the last 4 (``np.stack(self.keys[-4:])``)."""

    def __init__(self):
        self.keys = []

    def attend(self, q, k):
        self.keys.append(k)
        K = np.stack(self.keys[-4:])
        s = K @ q
        p = np.exp(s - s.max())
        return (p / p.sum()) @ K


@program(recompiles=1, why="the window's length (a symbolic size) is 1 at first")
def kv_cache_stacked_window(wrap):
    c = KVWindow()
    f = wrap(c.attend)
    return [f(XS[i], XS[(i + 1) % CALLS]) for i in range(CALLS)], c.keys


class BestOfLast:
    """``max(self.h[-3:])``: the best of the last three rewards."""

    def __init__(self):
        self.h = []

    def step(self, x, r):
        self.h.append(r)
        return x * max(self.h[-3:]) - min(self.h[-3:])


@program(recompiles=1, why=NUMBER)
def best_of_last_three(wrap):
    s = BestOfLast()
    f = wrap(s.step)
    return [f(XS[i], LOSSES[i]) for i in range(CALLS)], s.h
