"""Round 31, 3-D gathers, index stores into views and small-int wrap in the native tier
(``backends/native/gathers.py``, ``layouts.py``, ``scatters.py``): ``x[:, idx]``,
``x[idx, :, j]``, ``x[:, idx, j]`` of a 3-D ``x``; ``v = a[1:]; v[idx] = ...`` and stores
into arrays carried through a loop; int8 sums, products, shifts, negations and
quotients that wrap. Compiled with ``backend="native"`` and ``"auto"``, tier 2 forced
from the second call (``hostile_check.TIER2``), then called with indices that are
negative, repeated, out of range, bools, empty, int32 or uint8, ``j`` negative or out of
range, ``x`` int8, float32, F-ordered or strided, ``a`` int8 near its limits.

    >>> def _mid_gather(x, idx, j, a):
    ...     return x[:, idx] * 2.0
"""

import numpy as np
from hostile_check import TIER2, Programs

reg = Programs("round31_gathers")

RNG = np.random.default_rng(310)
X = RNG.standard_normal((4, 5, 6))
BIGX = RNG.standard_normal((8, 5, 12))
IDX = np.array([0, 2, 4])
A = np.linspace(-3.0, 6.0, 10)


# ----------------------------------------------------------------- gathers (x, idx, j, a)

def _mid_gather(x, idx, j, a):
    return x[:, idx] * 2.0


def _mid_gather_sum(x, idx, j, a):
    return x[:, idx].sum(1), x[:, idx].max()


def _first_and_last(x, idx, j, a):
    return x[idx % 4, :, j] + 1.0


def _first_and_last_raw(x, idx, j, a):
    return x[idx, :, j]


def _mid_and_last(x, idx, j, a):
    return x[:, idx, j] - x[0, 0, 0]


def _sliced_then_gather(x, idx, j, a):
    return x[1:, idx] * x[1:, idx]


def _pair_gather(x, idx, j, a):
    return x[:, idx, idx]


def _gather_ufuncs(x, idx, j, a):
    g = x[:, idx]
    return np.tanh(g) * g + np.exp(-g)


def _gather_reversed(x, idx, j, a):
    return x[:, idx][..., ::-1] + 0.0


def _gather_then_int(x, idx, j, a):
    return x[idx % 4][:, :, j]


def _gather_twice(x, idx, j, a):
    return x[:, idx] - x[:, idx[::-1]]


def _gather_written_after(x, idx, j, a):
    g = x[:, idx]
    x[:, 0] = -7.0
    return g + x[:, 0:1]


def _gather_in_loop(x, idx, j, a):
    acc = np.zeros(x.shape[0])
    for k in range(3):
        acc = acc + x[:, idx, k].sum(1)
    return acc


# ----------------------------------------------------------------- stores

def _view_store(x, idx, j, a):
    v = a[1:]
    v[idx] = -1.0
    return a


def _view_store_add(x, idx, j, a):
    v = a[1:]
    v[idx] += 1
    return a, v.sum()


def _strided_view_store(x, idx, j, a):
    v = a[::2]
    v[idx] = v[idx] * 2
    return a


def _store_wraps(x, idx, j, a):
    a[idx] = a[idx] + 100
    return a


def _store_in_loop(x, idx, j, a):
    for k in range(3):
        a[idx] = a[idx] * 2 + k
    return a


def _store_carried(x, idx, j, a):
    b = a.copy()
    for _ in range(3):
        b[idx] = b[idx] + b[0]
        b = b * 1
    return b


def _store_3d_view(x, idx, j, a):
    v = x[1:]
    v[:, idx] = j
    return x.sum(), v[0, 0]


def _store_first_last(x, idx, j, a):
    x[idx % 4, :, j] = -2.0
    return x


def _store_reversed_view(x, idx, j, a):
    v = a[::-1]
    v[idx] = np.arange(len(idx))
    return a


# ----------------------------------------------------------------- small ints that wrap

def _wrap_products(x, idx, j, a):
    return a * a + a, a * np.int8(100)


def _wrap_sum_dtype(x, idx, j, a):
    return a.sum(dtype=np.int8), (a + a).astype(np.int16)


def _wrap_negate(x, idx, j, a):
    return -a, np.abs(a), a - np.int8(-128)


def _wrap_shifts(x, idx, j, a):
    return a << 3, a >> 1, (a.astype(np.uint8) << 4)


def _wrap_quotients(x, idx, j, a):
    return a // np.int8(-3), a % np.int8(-3), a // np.int8(-1), a % np.int8(7)


def _wrap_divide_by_zero(x, idx, j, a):
    return a // (a - a[0]), a % (a - a[1])     # flags: tier 1 reruns the call


def _wrap_gathered(x, idx, j, a):
    return a[idx] * np.int8(7) + a[idx[::-1]]


# ----------------------------------------------------------------- gathers NumPy reads
# (``x[:, idx]`` lowers where only a product or a store reads it: layouts.gather_layout)

def _mid_gather_stored(x, idx, j, a):
    o = np.zeros((x.shape[0], idx.shape[0], x.shape[2]), x.dtype)
    o[...] = x[:, idx]
    return o


def _mid_gather_einsum(x, idx, j, a):
    return np.einsum("ajk,ajk->a", x[:, idx], x[:, idx])


def _mid_gather_matmul(x, idx, j, a):
    return np.matmul(x[:, idx], x[0, 0])


def _sliced_gather_einsum(x, idx, j, a):
    return np.einsum("ajk,k->aj", x[1:, idx], x[0, 0, :])


GATHERS_AND_STORES = (_mid_gather, _mid_gather_sum, _first_and_last, _first_and_last_raw,
          _mid_and_last, _sliced_then_gather, _pair_gather, _gather_ufuncs,
          _gather_reversed, _gather_then_int, _gather_twice, _gather_written_after,
          _gather_in_loop, _view_store, _view_store_add, _strided_view_store, _store_wraps,
          _store_in_loop, _store_carried, _store_3d_view, _store_first_last,
          _store_reversed_view)
WRAPS = (_wrap_products, _wrap_sum_dtype, _wrap_negate, _wrap_shifts, _wrap_quotients,
         _wrap_divide_by_zero, _wrap_gathered)
READ_BY_NUMPY = (_mid_gather_stored, _mid_gather_einsum, _mid_gather_matmul,
                 _sliced_gather_einsum)


def _make():
    return X.copy(), IDX.copy(), 1, A.copy()


def _make_int8():
    return X.copy(), IDX.copy(), 1, (A * 20).astype(np.int8)


def _with(base=None, **kw):
    def make():
        x, idx, j, a = (base or _make)()
        d = {"x": x, "idx": idx, "j": j, "a": a}
        d.update({k: (v() if callable(v) else v) for k, v in kw.items()})
        return d["x"], d["idx"], d["j"], d["a"]
    return make


# two groups of hostile inputs, each small enough that no call passes the cache limit
# (8 entries: a dtype, a layout and a shape are each an entry) and falls back uncompiled
INDICES = (
    _with(idx=lambda: np.array([-1, -2, -3])),                            # negative
    _with(idx=lambda: np.array([1, 1, 1, 3])),                            # repeated
    _with(idx=lambda: np.array([0, 5, 1])),                               # out of range
    _with(idx=lambda: np.array([True, False, True, False, True])),        # bools
    _with(idx=lambda: np.array([], dtype=np.int64)),                      # empty
    _with(idx=lambda: np.array([3, 0], dtype=np.int32)),
    _with(idx=lambda: np.array([4, 2], dtype=np.uint8)),
    _with(j=-1),
)
VALUES = (
    _with(j=6),
    _with(x=lambda: (X * 40).astype(np.int8), a=lambda: (A * 40).astype(np.int8)),
    _with(x=lambda: X.astype(np.float32), a=lambda: A.astype(np.float32)),
    _with(x=lambda: np.asfortranarray(X)),
    _with(x=lambda: BIGX.copy()[::2, :, ::2], a=lambda: np.linspace(0, 9, 20)[::2]),
    _with(a=lambda: np.array([127, -128, 100, 0, 1, -1, 64, 2, 3, 4], np.int8)),
    _with(x=lambda: np.full((4, 5, 6), np.nan), a=lambda: np.full(10, -0.0)),
)


def _split(name, fn, first, groups):
    """Two programs: ``fn`` on backend "native" with the first group of hostile inputs and
    on "auto" with the second (tier 2 forced from the second call of an entry): calls on
    ``first()`` twice (tier 1, then tier 2), each hostile input twice (one that makes a
    new entry reaches tier 2 on its second call), then ``first()`` again."""
    for backend, group in zip(("native", "auto"), groups):
        def s(r, backend=backend, group=group):
            f = r.compile_on(fn, backend, options=TIER2)
            for make in (first, first, *[h for h in group for _ in "12"], first):
                r.call(f, *make())
        s.__name__ = f"{name}_{backend}"
        s.__doc__ = fn.__doc__
        reg.scenario(s)


for _fn in GATHERS_AND_STORES + READ_BY_NUMPY:
    _split(_fn.__name__[1:], _fn, _make, (INDICES, VALUES))
# the int8 bodies: hostile values in the entry of ``_make_int8`` (same dtypes and shapes)
INT8_VALUES = (
    _with(_make_int8, a=lambda: np.array([127, -128, 100, 0, 1, -1, 64, -3, 3, 4], np.int8)),
    _with(_make_int8, a=lambda: np.full(10, -128, np.int8)),
    _with(_make_int8, a=lambda: np.arange(-5, 5, dtype=np.int8)),
    _with(_make_int8, idx=lambda: np.array([-1, 9, -10])),
)
for _fn in WRAPS:
    _split(_fn.__name__[1:], _fn, _make_int8, (INT8_VALUES, INDICES[:4] + VALUES[1:4]))

# hostile inputs first (tier 1 traced on them), the groups the other way round
for _fn in (_mid_gather, _first_and_last_raw, _mid_and_last, _view_store, _store_wraps,
            _store_in_loop, _mid_gather_einsum, _pair_gather, _store_3d_view):
    _split(f"{_fn.__name__[1:]}_hostile_first", _fn, INDICES[0], (VALUES, INDICES[::-1]))
