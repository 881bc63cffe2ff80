"""Round 25, reductions over short axes (lengths 0 to 8, which the backends may unroll
or take by a special path): ``sum``, ``mean``, ``prod``, ``max``, ``np.linalg.norm``
(``ord=`` 1, 2, inf, -inf, 0, ``'fro'``), ``np.hypot`` chains and ``sqrt((a*a).sum())``
with ``axis=`` (negative, a tuple), ``keepdims=``, ``dtype=`` (float32 into float64,
int8 into int8 that wraps, bool), ``out=`` (another dtype, a view, the input's own
row), ``where=`` (all False, with ``initial=``), float16 and int8 data, NaN, -0.0 and
inf, and non-contiguous operands (transposed, strided, reversed, Fortran); 600 to 1024
rows for the numpy backend's ``short_sum`` and ``mean_exact`` (reduction_finish.py).

    >>> def _rows(a):
    ...     return a.sum(axis=1)
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round25_axes")
case = reg.case

RNG = np.random.default_rng(2525)


def _shape(n):
    return RNG.standard_normal((5, n))


SHORTS = tuple((_shape(n),) for n in (3, 0, 1, 2, 4, 8))
A3 = SHORTS[0][0]
A8 = SHORTS[-1][0]
F16 = (A3 * 300).astype(np.float16)
I8 = (A3 * 60).astype(np.int8)
NAN = A3.copy()
NAN[1, 2] = np.nan
ZERO = -np.abs(A3) * 0.0
INF = A3.copy()
INF[2, 0] = np.inf
INF[2, 1] = -np.inf
LAYOUTS = ((A8,), (A8.T,), (A8[:, ::2],), (A8[::-1, ::-3],), (np.asfortranarray(A8),),
           (A3,))
VALUES = ((A3,), (F16,), (NAN,), (ZERO,), (INF,), (I8,))


# ------------------------------------------------------------ axis=, keepdims=

def _rows(a):
    return a.sum(axis=1)


def _rows_keep(a):
    return a.sum(axis=-1, keepdims=True)


def _cols(a):
    return a.sum(axis=0)


def _both_axes(a):
    return a.sum(axis=(0, 1)), a.sum(axis=(1, 0), keepdims=True)


def _mean_rows(a):
    return a.mean(axis=1)


def _prod_rows(a):
    return a.prod(axis=1, keepdims=True)


def _max_rows(a):
    try:
        return a.max(axis=1)
    except ValueError as e:
        return str(e)


def _min_initial(a):
    return a.min(axis=1, initial=0.5)


def _norm_rows(a):
    return np.linalg.norm(a, axis=1)


def _norm_rows_keep(a):
    return np.linalg.norm(a, axis=-1, keepdims=True)


def _norm_ords(a):
    return (np.linalg.norm(a, ord=1, axis=1), np.linalg.norm(a, ord=np.inf, axis=1),
            np.linalg.norm(a, ord=0, axis=1))


def _norm_neg_inf(a):
    try:
        return np.linalg.norm(a, ord=-np.inf, axis=1)
    except ValueError as e:
        return str(e)


def _norm_fro(a):
    return np.linalg.norm(a), np.linalg.norm(a, "fro")


def _sqrt_sum_sq(a):
    return np.sqrt((a * a).sum(axis=1))


def _hypot_chain(a):
    out = np.zeros(a.shape[0], a.dtype)
    for k in range(a.shape[1]):
        out = np.hypot(out, a[:, k])
    return out


def _normalize(a):
    n = np.linalg.norm(a, axis=1, keepdims=True)
    return a / n


def _centered(a):
    return a - a.mean(axis=1, keepdims=True)


def _softmax_rows(a):
    e = np.exp(a - a.max(axis=1, keepdims=True)) if a.shape[1] else a
    return e / e.sum(axis=1, keepdims=True)


def _var_rows(a):
    return a.var(axis=1), a.std(axis=1, ddof=1)


def _cumsum_rows(a):
    return np.cumsum(a, axis=1)[:, -1:] if a.shape[1] else a.sum(axis=1)


def _any_all(a):
    return (a > 0).any(axis=1), (a > 0).all(axis=1), np.count_nonzero(a > 0, axis=1)


for _fn in (_rows, _rows_keep, _cols, _both_axes, _mean_rows, _prod_rows, _max_rows,
            _min_initial, _norm_rows, _norm_rows_keep, _norm_ords, _norm_neg_inf, _norm_fro,
            _sqrt_sum_sq, _hypot_chain, _normalize, _centered, _softmax_rows, _var_rows,
            _cumsum_rows, _any_all):
    case(_fn, *SHORTS)

for _fn in (_rows, _rows_keep, _cols, _mean_rows, _norm_rows, _sqrt_sum_sq, _prod_rows,
            _max_rows, _normalize, _any_all):
    case(_fn, *VALUES, name=_fn.__name__.lstrip("_") + "_values")

for _fn in (_rows, _norm_rows, _cols, _centered, _both_axes, _hypot_chain):
    case(_fn, *LAYOUTS, name=_fn.__name__.lstrip("_") + "_layouts")


# ------------------------------------------------------------ dtype=, out=, where=

def _sum_dtype_f64(a):
    return a.astype(np.float32).sum(axis=1, dtype=np.float64)


def _sum_dtype_int8(a):
    return (a * 60).astype(np.int8).sum(axis=1, dtype=np.int8)


def _sum_int8_default(a):
    s = (a * 60).astype(np.int8).sum(axis=1)
    return s, s.dtype


def _sum_bool(a):
    return (a > 0).sum(axis=1), (a > 0).sum(axis=1, dtype=bool)


def _sum_float16(a):
    h = (a * 3000).astype(np.float16)
    return h.sum(axis=1), h.mean(axis=1), np.linalg.norm(h, axis=1)


def _sum_out(a):
    out = np.zeros(a.shape[0])
    a.sum(axis=1, out=out)
    return out


def _sum_out_int(a):
    out = np.zeros(a.shape[0], np.int32)
    try:
        np.sum(a, axis=1, out=out)
    except TypeError as e:
        return type(e).__name__, str(e)
    return out


def _sum_out_view(a):
    out = np.zeros((a.shape[0], 2))
    r = a.sum(axis=1, out=out[:, 1])
    return out, r is out[:, 1], np.shares_memory(r, out)


def _sum_out_own_column(a):
    b = a.copy()
    if b.shape[1]:
        np.sum(b, axis=1, out=b[:, 0])
    return b


def _sum_out_keepdims(a):
    out = np.empty((a.shape[0], 1))
    return np.add.reduce(a, axis=1, keepdims=True, out=out) is out, out


def _sum_where(a):
    return a.sum(axis=1, where=a > 0), a.sum(axis=1, where=np.zeros_like(a, bool))


def _max_where(a):
    return a.max(axis=1, where=a > 0, initial=-np.inf)


def _mean_where(a):
    return a.mean(axis=1, where=a > 0)


def _norm_float32(a):
    b = a.astype(np.float32)
    n = np.linalg.norm(b, axis=1)
    return n, n.dtype


def _norm_int(a):
    b = (a * 10).astype(np.int64)
    return np.linalg.norm(b, axis=1), np.abs(b).sum(axis=1)


def _norm_complex(a):
    c = a + 1j * a[::-1]
    return np.linalg.norm(c, axis=1), c.sum(axis=1)


def _sum_transposed_out(a):
    out = np.zeros((1, a.shape[0])).T
    a.sum(axis=1, keepdims=True, out=out)
    return out


for _fn in (_sum_dtype_f64, _sum_dtype_int8, _sum_int8_default, _sum_bool, _sum_float16,
            _sum_out, _sum_out_int, _sum_out_view, _sum_out_own_column, _sum_out_keepdims,
            _sum_where, _max_where, _mean_where, _norm_float32, _norm_int, _norm_complex,
            _sum_transposed_out):
    case(_fn, *SHORTS)


# ------------------------------------------------------------ many rows: the short-sum path

# From 512 results (C-contiguous float32/float64, an axis of 2-7) the numpy backend adds
# the axis' slices instead of calling np.add.reduce (reduction_finish.short_sum), and
# must give NumPy's bits: the +0.0 start (all -0.0 rows), inf - inf, NaN, overflow to
# inf (the warning from NumPy's own rerun), subnormals, cancellation (1e16 + 1 - 1e16).

def _tall(n, rows=600, dtype=np.float64):
    return RNG.standard_normal((rows, n)).astype(dtype)


with np.errstate(over="ignore"):
    HUGE = _tall(3) * 1e308
INFS = _tall(3)
INFS[5, 1] = np.inf
INFS[7] = (np.inf, -np.inf, 1.0)
INFS[9, 0] = np.nan
CANCEL = _tall(3)
CANCEL[:, 0], CANCEL[:, 1], CANCEL[:, 2] = 1e16, 1.0, -1e16
NEG_ZERO = np.full((600, 3), -0.0)
NEG_ZERO[::3, 1] = 0.0
TALL = tuple((_tall(n),) for n in (3, 2, 4, 5, 7)) + (
    (_tall(3, 1024, np.float32),), (NEG_ZERO,), (INFS,), (HUGE,), (_tall(4) * 1e-320,),
    (CANCEL,), (RNG.standard_normal((300, 5, 4)),), (RNG.standard_normal((300, 3, 32)),),
    (_tall(8),), (_tall(3)[:, ::-1],), (np.asfortranarray(_tall(3)),))
INNER = ((RNG.standard_normal((300, 5, 4)),), (RNG.standard_normal((300, 3, 32)),),
         (RNG.standard_normal((600, 2, 1)),), (np.full((300, 3, 4), -0.0),),
         (RNG.standard_normal((300, 7, 2)).astype(np.float32),))


def _sum_last(a):
    return a.sum(axis=-1)


def _sum_last_keep(a):
    return a.sum(axis=-1, keepdims=True)


def _mean_last(a):
    return a.mean(axis=-1)


def _sum_sq_last(a):
    return np.sqrt((a * a).sum(axis=-1))


def _pair_distances(z):
    return ((z[:, None] - z[None]) ** 2).sum(-1)


def _sum_middle(a):
    return a.sum(axis=1)


def _mean_middle_keep(a):
    return a.mean(axis=1, keepdims=True)


for _fn in (_sum_last, _sum_last_keep, _mean_last, _sum_sq_last, _norm_rows):
    case(_fn, *TALL, name=_fn.__name__.lstrip("_") + "_tall")
for _fn in (_sum_middle, _mean_middle_keep, _sum_last):
    case(_fn, *INNER, name=_fn.__name__.lstrip("_") + "_inner")
case(_pair_distances, (RNG.standard_normal((40, 3)),), (RNG.standard_normal((30, 3)) * 1e200,),
     (RNG.standard_normal((50, 2)).astype(np.float32),))


# ------------------------------------------------------------ many rows: means, dtypes, out=

# The numpy backend's mean_exact (NumPy's _mean without its Python layers: the same sum,
# the same np.intp count, float16 back to float16) and short_sum's refusals (another
# dtype, float16, where=, out=) on 600-row inputs.

def _mean_f16(a):
    return a.astype(np.float16).mean(axis=-1)


def _mean_int8(a):
    return (a * 40).astype(np.int8).mean(axis=-1)


def _mean_dtype32(a):
    return a.mean(axis=-1, dtype=np.float32)


def _mean_all(a):
    return a.mean(), a.mean(axis=(0, 1))


def _mean_bool(a):
    return (a > 0).mean(axis=-1)


def _mean_complex(a):
    return (a + 1j).mean(axis=-1)


def _sum_f32_as_f64(a):
    return a.astype(np.float32).sum(axis=-1, dtype=np.float64)


def _sum_f16_tall(a):
    return a.astype(np.float16).sum(axis=-1)


def _var_std_tall(a):
    return a.var(axis=-1), a.std(axis=-1)


def _sum_where_tall(a):
    return a.sum(axis=-1, where=a > 0)


def _sum_out_tall(a):
    o = np.empty(a.shape[0])
    a.sum(axis=-1, out=o)
    return o


def _sum_int32_tall(a):
    return (a * 100).astype(np.int32).sum(axis=-1)


TALL_HIGH = _tall(3) * 1e5       # float16: inf after the cast, as eager
TALL2 = TALL[:4] + ((NEG_ZERO,), (INFS,), (TALL_HIGH,))
for _fn in (_mean_f16, _mean_int8, _mean_dtype32, _mean_all, _mean_bool, _mean_complex,
            _sum_f32_as_f64, _sum_f16_tall, _var_std_tall, _sum_where_tall, _sum_out_tall,
            _sum_int32_tall, _mean_middle_keep):
    case(_fn, *TALL2, name=_fn.__name__.lstrip("_") + "_rows")
