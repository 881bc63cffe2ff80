"""Round 34, gathers along a later axis whose buffers the numpy backend lends to the ufuncs
of them (``backends/numpy_backend/gather_layout.py``): ``x[:, idx]``, ``x[..., idx]``,
``x[:, :, idx]`` of C-ordered, Fortran-ordered, strided and negative-stride inputs, with
index arrays that are empty, of one item, repeated, negative, out of bounds, bools;
chains of ufuncs of the gathers (the box filter's shape), results returned, returned
twice, aliased, written in place, reshaped, transposed, ``.base`` and flags checked by
the program, and inputs written after the gather. Last, tier 2's BLAS dots
(``backends/native/dots.py``): a per-sample ``w @ u`` loop fed NaN, inf, denormals,
empty and strided vectors.

    >>> def _box(ii, r0, r1, c0, c1):
    ...     return ii[r1][:, c1] - ii[r0][:, c1] - ii[r1][:, c0] + ii[r0][:, c0]
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round34_gathers")

BASE = np.arange(48.0).reshape(6, 8) * 0.5 - 3.0
CUBE = np.arange(60.0).reshape(3, 4, 5)

def _readonly(a):
    a.flags.writeable = False
    return a


LAYOUTS = {
    "c": lambda: BASE.copy(),
    "f": lambda: np.asfortranarray(BASE),
    "strided": lambda: np.repeat(BASE, 2, axis=1)[:, ::2],
    "negstride": lambda: BASE[::-1, ::-1].copy()[::-1, ::-1],
    "reversed": lambda: BASE[::-1],
    "cols_reversed": lambda: BASE[:, ::-1],
    "rows_step2": lambda: np.repeat(BASE, 2, axis=0)[::2],
    "bcast_col": lambda: np.broadcast_to(BASE[:, :1], BASE.shape),
    "bcast_row": lambda: np.broadcast_to(BASE[:1], BASE.shape),
    "readonly": lambda: _readonly(BASE.copy()),
}

IDX = {
    "plain": np.array([1, 3, 4]),
    "repeat": np.array([2, 2, 0, 2]),
    "negative": np.array([-1, 0, -8]),
    "one": np.array([5]),
    "empty": np.array([], dtype=np.intp),
    "oob": np.array([1, 8]),
}


def _box(x, i, j):
    return x[:, i] - x[:, j] * 2.0 + np.abs(x[:, i])


def _box_rows(x, i, j):
    r0, r1 = np.array([0, 2]), np.array([3, 5])
    return x[r1][:, i] - x[r0][:, i] - x[r1][:, j] + x[r0][:, j]


def _ellipsis(x, i, j):
    return np.sqrt(np.abs(x[..., i])) + x[..., j] * x[..., i]


def _returned_gather(x, i, j):
    g = x[:, i]
    return g, g * 2.0 + 1.0


def _returned_twice(x, i, j):
    g = x[:, i] + x[:, j]
    return g, g


def _aliased(x, i, j):
    g = x[:, i] * 3.0
    h = g
    h += 1.0
    return g - 0.5, h.base is None, g.flags.c_contiguous, g.flags.f_contiguous


def _inplace_then_ufunc(x, i, j):
    g = x[:, i]
    g *= 2.0
    return np.exp(g * 0.01) - g


def _written_input(x, i, j):
    g = x[:, i] - 1.0
    x[:, 0] = 99.0
    return g + x[:, j], x


def _transposed(x, i, j):
    return (x[:, i] * x[:, j]).T.copy(), (x[:, i] - 1).T


def _reshaped(x, i, j):
    g = x[:, i] + x[:, j]
    return g.reshape(-1), g.ravel(order="K")


def _strides_seen(x, i, j):
    g = (x[:, i] - x[:, j]) * 0.5
    return g, g.strides, g.flags.owndata


def _out_arg(x, i, j):
    g = x[:, i]
    out = np.empty_like(g)
    np.add(g, x[:, j], out=out)
    return out * 2, out.flags.c_contiguous


def _divide_zero(x, i, j):
    return x[:, i] / (x[:, j] - x[:, j]) + x[:, i]


def _int_gather(x, i, j):
    xi = x.astype(np.int64)
    return xi[:, i] // 2 - xi[:, j] * 3


def _bool_idx(x, i, j):
    mask = np.zeros(x.shape[1], bool)
    mask[1::3] = True
    return x[:, mask] * 2 - x[:, mask]


def _where_of_gathers(x, i, j):
    a, b = x[:, i], x[:, j]
    return np.where(a > b, a - b, b - a) + 0.0


def _float32(x, i, j):
    y = x.astype(np.float32)
    return y[:, i] * np.float32(1.5) - y[:, j]


FNS = (_box, _box_rows, _ellipsis, _returned_gather, _returned_twice, _aliased,
       _inplace_then_ufunc, _written_input, _transposed, _reshaped, _strides_seen,
       _out_arg, _divide_zero, _int_gather, _bool_idx, _where_of_gathers, _float32)

_pairs = [(ln, ix) for ln in LAYOUTS for ix in IDX]
for _k, _fn in enumerate(FNS):
    # each function on three (layout, index) pairs, together every pair at least once
    for _ln, _ix in (_pairs[(_k * 3 + t * 19) % len(_pairs)] for t in range(3)):
        def _make(ln=_ln, ix=_ix):
            return (LAYOUTS[ln](), IDX[ix].copy(), IDX["plain"][::-1].copy())

        def _make_c():
            return (BASE.copy(), IDX["plain"].copy(), IDX["repeat"].copy())
        reg.case(_fn, _make, _make_c, calls=2, name=f"{_fn.__name__[1:]}_{_ln}_{_ix}")


def _cube(x, i):
    return x[:, :, i] * 2.0 - x[..., i] + x[:, :, i] ** 2


def _cube_middle(x, i):
    return x[:, i] + x[:, i[::-1]] * 0.5


for _name, _make in (("c", lambda: CUBE.copy()), ("neg", lambda: CUBE[::-1, :, ::-1])):
    reg.case(_cube, lambda m=_make: (m(), np.array([0, 4, 2])),
             lambda m=_make: (m(), np.array([1, 1])), name=f"cube_last_{_name}")
    reg.case(_cube_middle, lambda m=_make: (m(), np.array([0, 2])),
             lambda m=_make: (m(), np.array([-1, 1, 0])), name=f"cube_middle_{_name}")


# ---------------------------------------------------------------- tier 2's BLAS dots
def _lms(x, d):
    w = np.zeros(4)
    e = np.zeros(len(x))
    for n in range(4, len(x)):
        u = x[n - 4:n][::-1]
        e[n] = d[n] - w @ u
        w = w + 0.02 * e[n] * u
    return w, e


def _lms_inputs(x):
    return x, np.convolve(x, np.array([0.5, -0.3, 0.2, 0.1]), mode="full")[:len(x)]


_X = np.random.default_rng(34).standard_normal(40)


def _with(v, at):
    y = _X.copy()
    y[at] = v
    return _lms_inputs(y)


reg.tiers("lms_dot", _lms, lambda: _lms_inputs(_X.copy()),
          lambda: _with(np.nan, 12), lambda: _with(np.inf, 20),
          lambda: _lms_inputs(_X * 5e-320), lambda: _lms_inputs(_X[:4].copy()),
          lambda: _lms_inputs(np.repeat(_X, 2)[::2].copy()))


def _forward(L, b):
    n = b.shape[0]
    x = np.zeros(n)
    for i in range(n):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]
    return x


_L = np.tril(np.random.default_rng(3).uniform(0.5, 1.5, (8, 8)))
reg.tiers("forward_dot", _forward, lambda: (_L.copy(), np.arange(8.0)),
          lambda: (np.where(np.eye(8) > 0, 0.0, _L), np.arange(8.0)),
          lambda: (np.asfortranarray(_L), np.full(8, 1e308)),
          lambda: (_L[:0, :0].copy(), np.zeros(0)))
