"""Round 42, buffers a later call reuses (``reuse.donors`` with creations and inverses
as donors, ``scratch.py`` sites, ``idle_sites.trim`` giving up sites idle at a call's
peak): results of several calls kept (a list, a global, a dict, views of them, a
result's ``.T`` and ``.real``, a reshape) and recorded again after every call has run,
``np.shares_memory`` between the results of different calls and with the inputs, a
result fed back as the next call's input, a result that is the input written in place
(``pos += vel; return pos``), an integral image (``cumsum(0).cumsum(1)``) beside an
int64 product of the same shape (the box filter whose sites ``trim`` gives up),
``np.zeros``/``np.ones``/``np.empty`` accumulators returned or read after, and two
functions of one shape called in turn. Arrays of 1.2 MB (past ``scratch.MIN_BYTES``).

    >>> def _acc(x, y):
    ...     a = np.zeros(x.shape)
    ...     a += np.exp(x)
    ...     return a * y
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round42_state")
SHAPE = (256, 600)
KEPT = {}


def _x(seed=0, shape=SHAPE, dtype=np.float64):
    return (np.random.default_rng(seed).random(shape) - 0.25).astype(dtype)


def _acc(x, y):
    a = np.zeros(x.shape)
    a += np.exp(x)
    return a * y


def _ones_then(x, y):
    a = np.ones_like(x)
    b = a - x
    c = b * y
    return c + 1.0, b.sum()


def _empty_filled(x, y):
    a = np.empty(x.shape)
    a[...] = x
    return np.sqrt(np.abs(a)) + y


def _box(img, r):
    ii = img.cumsum(0).cumsum(1)
    rows = np.arange(r, img.shape[0])
    area = (rows[:, None] - rows[:, None] + r) * np.full((1, img.shape[1]), r, dtype=np.int64)
    s = ii[r:] - ii[:-r]
    return s / np.maximum(area, 1), area


def _inverse_like(x, y):
    a = 1.0 / (np.abs(x) + 1.0)
    b = -a
    return b * y + a


def _pos_vel(pos, vel):
    pos += vel
    return pos * 2 + 1, pos


def _returns_view_and_sum(x, y):
    a = np.tanh(x) * y
    return a.T, a[::3], a.sum()


def _real_of(x, y):
    a = np.exp(x) + 1j * y
    return a.real, a.imag, np.abs(a)


def _reshaped(x, y):
    a = (np.exp(x) - y).reshape(-1)
    return a[: a.size // 2], a.reshape(SHAPE[1], SHAPE[0])


def _where_chain(x, y):
    a = np.exp(x)
    b = np.where(a > 1.2, a, y)
    return b * 2.0


def _astype_chain(x, y):
    a = (np.exp(x) * 100).astype(np.int64)
    return a + 1, (a * 2).astype(np.float32)


def _keep_all(fns, make=lambda k: (_x(k), _x(k + 10)), calls=6):
    def scenario(r):
        fs = [r.compile(fn) for fn in fns]
        kept = []
        for k in range(calls):
            out = r.call(fs[k % len(fs)], *make(k))
            kept.append(out)
            KEPT[k] = out
        r.see("kept", kept)
        r.see("shares", [[bool(np.shares_memory(np.asarray(a), np.asarray(b)))
                          for b in _arrays(kept)] for a in _arrays(kept)])
    return scenario


def _arrays(kept):
    out = []
    for v in kept:
        for w in (v if isinstance(v, tuple) else (v,)):
            if isinstance(w, np.ndarray) and w.size:
                out.append(w)
    return out


for _name, _fns in (("keep_acc", (_acc,)), ("keep_ones_then", (_ones_then, _acc)),
                    ("keep_empty_filled", (_empty_filled,)),
                    ("keep_inverse_like", (_inverse_like, _acc)),
                    ("keep_views", (_returns_view_and_sum, _where_chain)),
                    ("keep_real_of", (_real_of,)), ("keep_reshaped", (_reshaped, _acc)),
                    ("keep_where_chain", (_where_chain,)),
                    ("keep_astype_chain", (_astype_chain, _acc))):
    reg._add(_name, _keep_all(_fns), "")
reg._add("keep_box", _keep_all((_box,), make=lambda k: (_x(k, (200, 200)), 3 + k % 2),
                               calls=4), "")
reg._add("keep_pos_vel", _keep_all((_pos_vel,), calls=5), "")


def _fed(fn):
    def scenario(r):
        f = r.compile(fn)
        x, y = _x(0), _x(1)
        outs = []
        for _ in range(4):
            out = r.call(f, x, y)
            outs.append(out)
            first = out[0] if isinstance(out, tuple) else out
            x = np.clip(np.asarray(first, dtype=np.float64).reshape(SHAPE), -3, 3)
        r.see("outs", outs)
    return scenario


for _fn in (_acc, _ones_then, _inverse_like, _where_chain):
    reg._add(f"fed_{_fn.__name__[1:]}", _fed(_fn), "")


def _global_result(x, y):
    a = np.exp(x) * y
    b = a + 1.0
    GLOBAL["last"] = b
    return b - a


GLOBAL = {}


@reg.scenario
def s_result_in_global(r):
    """A result stored in a global by the function itself, then more calls."""
    GLOBAL.clear()
    f = r.compile(_global_result)
    seen = []
    for k in range(4):
        r.call(f, _x(k), _x(k + 1))
        seen.append(GLOBAL["last"])
    r.see("globals kept", seen)


@reg.scenario
def s_view_outlives_result(r):
    """Only a view of each result is kept; the result itself is dropped."""
    f = r.compile(_acc)
    views = []
    for k in range(5):
        out = r.call(f, _x(k), _x(k + 3))
        views.append(out[10:20, ::7])
        del out
    r.see("views", views)


@reg.scenario
def s_shares_with_input(r):
    """Whether each result shares memory with the inputs of its call or of others."""
    f = r.compile(_pos_vel)
    pos = [_x(k) for k in range(3)]
    vel = _x(9)
    outs = [r.call(f, p, vel) for p in pos]
    r.see("shares", [[bool(np.shares_memory(o[i], p)) for p in pos]
                     for o in outs for i in range(2)])
