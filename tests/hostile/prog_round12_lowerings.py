"""Round 12, the numpy backend's lowerings of NumPy's Python functions to their last
C calls (``backends/numpy_backend/``: ``pad_copies`` for ``np.pad``, ``small_linalg`` for
``solve``/``inv``/``det``/``norm``, ``closeness`` for ``np.isclose``/``allclose``,
``precomputed`` for a literal ``np.linspace``, ``library_calls`` for ``clip``, ``diff``,
``cumsum``/``cumprod``, ``einsum``, ``hstack``/``vstack``): singular, non-finite, batched,
0-size, F-ordered, strided and read-only inputs of int, bool, float16/32, complex and
object dtypes; widths, modes and constants NumPy rejects or casts with a warning;
tolerances at the edges; results written afterwards; error states and warning filters
set by the caller (``errstate``, ``seterr``, ``"error"`` filters) around each call.

    >>> def _solve(a, b): return np.linalg.solve(a, b) * 1.0
    >>> # called with a singular a: LinAlgError("Singular matrix") on every backend
"""

import warnings

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round12_lowerings")
case = reg.case
scenario = reg.scenario

A3 = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 2.0]])
B3 = np.array([1.0, -2.0, 0.25])
SING = np.array([[1.0, 2.0], [2.0, 4.0]])
NANM = np.array([[1.0, np.nan], [0.0, 1.0]])
INFM = np.array([[np.inf, 1.0], [1.0, 2.0]])
BATCH = np.stack([A3, A3 * 2.0, np.eye(3)])
BATCH_SING = np.stack([A3, np.zeros((3, 3)), np.eye(3)])
X = np.array([1.0, -2.0, 0.5, np.nan, -0.0, 7.25])
M = np.arange(12.0).reshape(3, 4) - 5.5
I8 = np.array([[-128, 5], [127, 0]], np.int8)


def _f(a):
    return lambda: (np.asfortranarray(a.copy()),)


def _ro(a):
    def make():
        b = a.copy()
        b.flags.writeable = False
        return (b,)
    return make


def _strided(a):
    return lambda: (np.repeat(a, 2, axis=-1)[..., ::2],)


# ============================================================ np.linalg.solve / inv / det

def _solve(a, b):
    return np.linalg.solve(a, b) + 0.0


def _inv(a):
    return np.linalg.inv(a) * 1.0


def _det(a):
    return np.linalg.det(a) + 0.0


def _inv_then_write(a):
    r = np.linalg.inv(a)
    r[..., 0, 0] = -1.0
    return r, a


for dt in (np.int64, np.int8, np.bool_, np.float16, np.float32, np.complex64,
           np.complex128, object):
    def _typed(a=A3, dt=dt):
        return lambda: (a.astype(dt),)
    name = getattr(dt, "__name__", str(dt))
    case(_inv, _typed(), _typed(SING), name=f"inv_{name}")
    case(_det, _typed(), _typed(SING), name=f"det_{name}")
    case(_solve, lambda dt=dt: (A3.astype(dt), B3.astype(dt)),
         lambda dt=dt: (SING.astype(dt), np.ones(2, dt)), name=f"solve_{name}")

case(_inv, (SING,), (A3,), name="inv_singular_first")
case(_inv, (A3,), (SING,), name="inv_singular_later")
case(_inv, (NANM,), (INFM,), (A3,), name="inv_non_finite")
case(_det, (NANM,), (INFM,), (SING,), name="det_non_finite")
case(_inv, (BATCH,), (BATCH_SING,), name="inv_batched_one_singular")
case(_det, (BATCH,), (BATCH_SING,), name="det_batched")
case(_inv, _f(A3), _strided(A3), _ro(A3), name="inv_layouts")
case(_det, _f(A3), _strided(A3), _ro(A3), name="det_layouts")
case(_inv, (np.zeros((0, 0)),), (np.zeros((2, 0, 0)),), name="inv_empty")
case(_det, (np.zeros((0, 0)),), (np.zeros((3, 0, 0)),), name="det_empty")
case(_inv, (np.zeros((2, 3)),), (np.zeros(3),), (np.array(2.0),), name="inv_not_square")
case(_inv_then_write, (A3,), _f(A3), name="inv_result_written")
case(_solve, (A3, B3), (A3, np.ones((3, 2))), (BATCH, B3), (BATCH, np.ones((3, 3, 1))),
     name="solve_b_shapes")
case(_solve, (A3, np.ones(4)), (A3, np.ones((2, 3))), (A3, np.array(1.0)),
     name="solve_bad_b")
case(_solve, (SING, np.ones(2)), (NANM, np.ones(2)), (np.zeros((0, 0)), np.zeros(0)),
     name="solve_singular_nan_empty")
case(_solve, lambda: (np.asfortranarray(A3), B3[::-1]), lambda: (A3, B3),
     name="solve_layouts")


def _solve_errstate(a, b, mode):
    with np.errstate(all=mode):
        return np.linalg.solve(a, b) * 2.0


def _inv_errstate(a, mode):
    with np.errstate(all=mode):
        return np.linalg.inv(a) + 1.0


def _det_errstate(a, mode):
    with np.errstate(all=mode):
        return np.linalg.det(a) * 1e308


for mode in ("raise", "ignore", "warn", "call", "print"):
    case(_solve_errstate, (SING, np.ones(2), mode), (NANM, np.ones(2), mode),
         (A3, B3, mode), name=f"solve_errstate_{mode}")
    case(_inv_errstate, (SING, mode), (NANM, mode), (A3 * 1e300, mode),
         name=f"inv_errstate_{mode}")
    case(_det_errstate, (A3 * 1e200, mode), (NANM, mode), (INFM, mode),
         name=f"det_errstate_{mode}")


def _inv_caught(a, log):
    try:
        r = np.linalg.inv(a)
    except np.linalg.LinAlgError as e:
        log.append(str(e))
        return None
    log.append("ok")
    return r * 1.0


case(_inv_caught, (SING, []), (A3, []), (NANM, []), name="inv_caught")


def _inv_text(a):
    try:
        return np.linalg.inv(a) + 0
    except np.linalg.LinAlgError as e:
        return type(e).__name__, e.args


case(_inv_text, (SING,), (BATCH_SING,), name="inv_error_text")


def _solve_matrix_subclass(a, b):
    return np.linalg.solve(a, b) * 1


def _mat():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return (np.matrix(A3), np.matrix(B3).T)


case(_solve_matrix_subclass, _mat, name="solve_matrix")


def _newton(a, b, n):
    x = np.zeros(3)
    for _ in range(n):
        x = x + np.linalg.solve(a, b - a @ x)
    return x


case(_newton, (A3, B3, 3), (SING[:1, :1].repeat(3, 0).repeat(3, 1), B3, 2),
     name="solve_in_loop")


def _norm(x):
    return np.linalg.norm(x) + 0.0


def _norm_fro(x):
    return np.linalg.norm(x, "fro") * 1.0


def _norm_two(x):
    return np.linalg.norm(x, 2) * 1.0


def _norm_keep(x):
    return np.linalg.norm(x, keepdims=True) * 1.0


for dt in (np.int8, np.uint8, np.int64, np.bool_, np.float16, np.float32, np.complex64,
           object):
    name = getattr(dt, "__name__", str(dt))
    case(_norm, lambda dt=dt: (X[[0, 1, 2, 5]].astype(dt),),
         lambda dt=dt: (M.astype(dt),), name=f"norm_{name}")

case(_norm, (X,), (np.zeros(0),), (np.array(3.0),), (np.array([1e200, 1e200]),),
     (np.array([np.inf, np.nan]),), name="norm_edges")
case(_norm_fro, (M,), (np.zeros((0, 3)),), (X,), name="norm_fro")
case(_norm_two, (X,), (M,), (np.array([3e200, -4e200]),), name="norm_two")
case(_norm_keep, (X,), (M,), name="norm_keepdims")
case(_norm, _f(M), _strided(M), (np.array([65000.0, 65000.0], np.float16),),
     name="norm_layouts_and_f16_overflow")


# ============================================================ np.pad

def _pad(a, width, mode):
    return np.pad(a, width, mode) * 1


def _pad_literal_1(a):
    return np.pad(a, 1) + 0


def _pad_literal_edge(a):
    return np.pad(a, (2, 0), "edge") + 0


def _pad_literal_reflect(a):
    return np.pad(a, ((3, 1), (0, 5)), "reflect") + 0


def _pad_literal_symmetric(a):
    return np.pad(a, 4, "symmetric") + 0


def _pad_literal_wrap(a):
    return np.pad(a, ((5, 7), (1, 0)), "wrap") + 0


def _pad_const_float_int(a):
    return np.pad(a, 1, constant_values=2.75)


def _pad_const_bool(a):
    return np.pad(a, 1, constant_values=True)


def _pad_const_pairs(a):
    return np.pad(a, ((1, 2), (0, 1)), constant_values=((-1, 300), (0.5, 7)))


def _pad_const_nan(a):
    return np.pad(a, 1, constant_values=float("nan"))


def _pad_const_neg(a):
    return np.pad(a, 1, constant_values=-1)


def _pad_const_big(a):
    return np.pad(a, 1, constant_values=1e300)


def _pad_negative_width(a):
    return np.pad(a, -1) + 0


def _pad_bad_kw(a):
    return np.pad(a, 1, "edge", constant_values=3) + 0


def _pad_odd(a):
    return np.pad(a, 2, "reflect", reflect_type="odd") + 0


def _pad_bad_reflect_type(a):
    return np.pad(a, 2, "reflect", reflect_type="weird") + 0


def _pad_bad_mode(a):
    return np.pad(a, 2, "nope") + 0


def _pad_width_bool(a):
    return np.pad(a, True) + 0


def _pad_width_float(a):
    return np.pad(a, 1.0) + 0


def _pad_width_too_many(a):
    return np.pad(a, ((1, 1), (1, 1), (1, 1))) + 0


def _pad_then_write(a):
    p = np.pad(a, 1, "edge")
    p[0, 0] = 99
    return p, a


for fn in (_pad_literal_1, _pad_literal_edge, _pad_literal_reflect, _pad_literal_symmetric,
           _pad_literal_wrap, _pad_const_float_int, _pad_const_bool, _pad_const_pairs,
           _pad_const_nan, _pad_const_neg, _pad_const_big, _pad_negative_width,
           _pad_bad_kw, _pad_odd, _pad_bad_reflect_type, _pad_bad_mode, _pad_width_bool,
           _pad_width_float, _pad_width_too_many, _pad_then_write):
    case(fn, (M,), (I8,), (np.ones((1, 1), np.uint8),), _f(M), _ro(I8))
    case(fn, lambda: (np.array([[True, False]]),), lambda: (M.astype(np.float16),),
         lambda: (M.astype(np.complex64)[:, ::-1],), (np.zeros((0, 3)),),
         name=fn.__name__.lstrip("_") + "_dtypes")

for mode in ("constant", "edge", "reflect", "symmetric", "wrap", "maximum", "empty"):
    case(_pad, (M, 1, mode), (X, (0, 9), mode), (I8, ((1, 0), (2, 3)), mode),
         name=f"pad_mode_{mode}")


# ============================================================ np.isclose / allclose

def _isclose(x, y):
    return np.isclose(x, y)


def _isclose_nan(x, y):
    return np.isclose(x, y, equal_nan=True)


def _isclose_tols(x, y):
    return np.isclose(x, y, 0.5, 2, False), np.isclose(x, y, 0, 0)


def _isclose_literal_b(x):
    return np.isclose(x, 2), np.isclose(x, -0.0), np.isclose(x, 3)


def _isclose_literal_a(y):
    return np.isclose(7, y), np.isclose(-0.5, y, atol=1)


def _allclose(x, y):
    return np.allclose(x, y), np.allclose(x, y, equal_nan=True)


def _isclose_overflow(x, y):
    return np.isclose(x, y, rtol=1e308)


def _isclose_neg_tol(x, y):
    return np.isclose(x, y, atol=-1, rtol=-0.5)


def _isclose_under(x, y, mode):
    with np.errstate(all=mode):
        return np.isclose(x, y, rtol=1e300)


PAIRS = [
    (X, X[::-1].copy()),
    (np.array([1, 2, -128], np.int8), np.array([1, 3, 127], np.int8)),
    (np.array([0, 255], np.uint8), np.array([255, 0], np.uint8)),
    (np.array([True, False]), np.array([1.0, 1e-9])),
    (np.array([1e308, -1e308, np.inf]), np.array([-1e308, 1e308, np.inf])),
    (np.array([1 + 1j, np.nan + 0j]), np.array([1 + 1.000001j, np.nan + 0j])),
    (np.array([1.0, 2.0], np.float16), np.array([1.0009, 65504], np.float16)),
    (np.zeros((0, 3)), np.zeros(3)),
    (np.array(1.0), np.array(1.0 + 1e-9)),
    (np.ones(3), np.ones(4)),
    (np.array([np.iinfo(np.int64).min, 0]), np.array([np.iinfo(np.int64).min, 1])),
]
# (in two programs each: eleven dtypes and shapes would pass config.cache_size_limit)
for fn in (_isclose, _isclose_nan, _isclose_tols, _allclose, _isclose_overflow,
           _isclose_neg_tol):
    case(fn, *[(a, b) for a, b in PAIRS[:6]])
    case(fn, *[(a, b) for a, b in PAIRS[6:]], name=fn.__name__.lstrip("_") + "_more")
case(_isclose_literal_b, *[(a,) for a, _ in PAIRS[:6]])
case(_isclose_literal_b, *[(a,) for a, _ in PAIRS[6:]], name="isclose_literal_b_more")
case(_isclose_literal_a, *[(b,) for _, b in PAIRS[:6]])
case(_isclose_literal_a, *[(b,) for _, b in PAIRS[6:]], name="isclose_literal_a_more")
for mode in ("raise", "warn", "ignore"):
    case(_isclose_under, *[(a, b, mode) for a, b in PAIRS[:7]], name=f"isclose_{mode}")


def _isclose_error_filter(x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        return np.isclose(x, y, rtol=1e308)


case(_isclose_error_filter, *[(a, b) for a, b in PAIRS[:7]])


def _isclose_written(x, y):
    r = np.isclose(x, y)
    r[...] = True
    return r, x, y


case(_isclose_written, (X, X), (np.ones((2, 2)), np.ones(2)))


# ============================================================ np.linspace of literals

def _lin_basic(x):
    return np.linspace(0, 1, 5) + x


def _lin_int_dtype(x):
    return np.linspace(-3, 7, 4, dtype=int) * x


def _lin_no_endpoint(x):
    return np.linspace(0.1, 0.7, 3, endpoint=False) - x


def _lin_overflow(x):
    return np.linspace(-1e308, 1e308, 3) + x


def _lin_subnormal(x):
    return np.linspace(0, 5e-324, 3) + x


def _lin_empty(x):
    return np.linspace(0, 1, 0), x


def _lin_one(x):
    return np.linspace(2, 3, 1) + x


def _lin_negative(x):
    return np.linspace(0, 1, -1) + x


def _lin_float16(x):
    return np.linspace(0, 70000, 3, dtype=np.float16) + x


def _lin_uint8(x):
    return np.linspace(-5, 300, 4, dtype=np.uint8), x


def _lin_written(x):
    a = np.linspace(0, 1, 3)
    a[0] = x[0]
    return a, np.linspace(0, 1, 3)


def _lin_flags(x):
    a = np.linspace(0, 1, 4)
    return a.flags.owndata, a.base is None, a.flags.writeable, a.strides


def _lin_in_loop(x):
    out = []
    for _ in range(3):
        v = np.linspace(0, 1, 3)
        v *= x[0]
        out.append(v)
    return out


def _lin_object(x):
    return np.linspace(0, 1, 3, dtype=object), x


def _lin_bool_endpoint(x):
    return np.linspace(0, 1, 3, endpoint=1) + x


for fn in (_lin_basic, _lin_int_dtype, _lin_no_endpoint, _lin_overflow, _lin_subnormal,
           _lin_empty, _lin_one, _lin_negative, _lin_float16, _lin_uint8, _lin_written,
           _lin_flags, _lin_in_loop, _lin_object, _lin_bool_endpoint):
    case(fn, (np.ones(1),), (np.array([np.nan]),))


def _lin_under(x, mode):
    with np.errstate(all=mode):
        return np.linspace(-1e308, 1e308, 3) + x, np.linspace(0, 5e-324, 3)


for mode in ("raise", "warn", "ignore", "print"):
    case(_lin_under, (np.ones(1), mode), name=f"linspace_errstate_{mode}")


def _lin_filter_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return np.linspace(-1e308, 1e308, 3) + x


case(_lin_filter_error, (np.ones(1),))


@scenario
def lin_seterr_between(r):
    """np.seterr changed between calls of a literal linspace that overflows."""
    f = r.compile(_lin_overflow)
    old = np.seterr(all="warn")
    try:
        r.call(f, np.ones(1))
        np.seterr(over="raise")
        r.call(f, np.ones(1))
        np.seterr(over="ignore")
        r.call(f, np.ones(1))
    finally:
        np.seterr(**old)


# ============================================================ clip, diff, cumsum, einsum, stacks

def _clip(a, lo, hi):
    return np.clip(a, lo, hi)


def _clip_lit(a):
    return np.clip(a, -1, 2.5)


def _clip_int_lit(a):
    return np.clip(a, -1000, 1000)


def _clip_none(a):
    return np.clip(a, None, 1)


def _clip_swapped(a):
    return np.clip(a, 3, -3)


CLIP_INPUTS = [(X,), (I8,), (np.array([0, 255], np.uint8),), (M.astype(np.float16),),
               (np.array([1 + 5j, -2 - 1j]),), (np.array([True, False]),), _f(M), _ro(M),
               (np.zeros(0),), (np.array(4.0),)]
for fn in (_clip_lit, _clip_int_lit, _clip_none, _clip_swapped):
    case(fn, *CLIP_INPUTS)
case(_clip, (X, 0.0, np.nan), (X, np.nan, 1.0), (I8, np.int8(-5), np.int16(300)),
     (M, X[:4], 0.0), (X, -0.0, 0.0))


def _diff(a, axis):
    return np.diff(a, axis=axis)


def _diff_lit(a):
    return np.diff(a), np.diff(a, axis=0)


for_inputs = [(X,), (I8,), (np.array([0, 255, 1], np.uint8),), (np.array([True, True,
                                                                          False]),),
              (M,), _f(M), (np.zeros(0),), (np.zeros((2, 0)),), (np.array(3.0),),
              (np.array(["2020-01-01", "2021-01-01"], "datetime64[D]"),),
              (np.array([np.inf, np.inf, -np.inf]),)]
case(_diff_lit, *for_inputs)
case(_diff, (M, 1), (M, -2), (M, 2), (X, True), name="diff_axis_args")


def _cumsum(a):
    return np.cumsum(a), np.cumprod(a, axis=0)


def _cumsum_dtype(a):
    return np.cumsum(a, dtype=np.int8), np.cumprod(a, dtype=np.float32)


def _cumsum_axis(a):
    return np.cumsum(a, axis=-1), np.cumprod(a, axis=1)


case(_cumsum, *for_inputs)
case(_cumsum_dtype, *for_inputs[:8])
case(_cumsum_axis, (M,), _f(M), (I8,), (X,), (np.zeros((0, 2)),))


def _einsum(a, b):
    return np.einsum("ij,j->i", a, b)


def _einsum_trace(a):
    return np.einsum("ii", a), np.einsum("ij->ji", a)


def _einsum_scalar(a):
    return np.einsum("i,->i", a, 2.5), np.einsum("i,->i", a, 3)


def _einsum_dtype(a):
    return np.einsum("i->", a, dtype=np.int8), np.einsum("i", a, order="F")


def _einsum_bad(a):
    return np.einsum("ij,k->", a, a)


case(_einsum, (M, np.ones(4)), (I8, np.array([1, 2], np.int8)), (M, np.ones(3)),
     (np.zeros((0, 2)), np.ones(2)))
case(_einsum_trace, (A3,), (I8,), (M,), _f(A3))
case(_einsum_scalar, (X,), (np.array([100, 100], np.int8),), (np.zeros(0),))
case(_einsum_dtype, (np.array([100, 100, 3]),), (X,), (np.array([True, True]),))
case(_einsum_bad, (M,), (A3,))


def _hstack(a, b):
    return np.hstack((a, b)), np.vstack([a, b])


def _hstack_dtype(a, b):
    return np.hstack((a, b), dtype=np.int8), np.vstack((a, b), casting="unsafe",
                                                       dtype=np.uint8)


def _hstack_same(a):
    r = np.hstack([a, a])
    r[0] = -1
    return r, a


case(_hstack, (X, X), (M, M), (X, M), (I8, M), (np.zeros(0), X), (np.array(1.0), X),
     (M, np.asfortranarray(M)), (np.array([True]), np.array([2 ** 40])))
case(_hstack_dtype, (X, X), (M, M), (I8, I8), (np.array([300.0]), np.array([-1.0])))
case(_hstack_same, (X,), (M,), (I8,))


def _stack_kw(a, b):
    return np.stack((a, b), axis=-1, dtype=np.float32), np.stack([a, b], casting="no")


case(_stack_kw, (X, X), (I8, I8), (M, M), (X, X.astype(np.float32)))


def _outer_mixed(a, b):
    return np.outer(a, b)


case(_outer_mixed, (X, I8), (np.array(2.0), M), (np.zeros(0), X), (I8, I8),
     (np.array([True]), np.array([3 + 1j])))


def _lowerings_under_raise(a):
    with np.errstate(all="raise"):
        return (np.cumprod(a), np.clip(a, -1e308, 1e308) * 1e10, np.diff(a),
                np.einsum("i,i", a, a))


case(_lowerings_under_raise, (X[[0, 1, 2, 5]],), (np.array([1e200, -1e200]),),
     (np.array([np.inf, 1.0]),), Args(np.array([1e300, 1e300])))


# ============================================================ unused calls that raise or warn; twins

def _dead_calls(a, k):
    """Each call's result is unused: one that raises or warns must still do so."""
    if k == 0:
        np.linalg.inv(a)
    elif k == 1:
        np.linalg.solve(a, np.ones(a.shape[-1]))
    elif k == 2:
        np.pad(a, -1)
    elif k == 3:
        np.einsum("ij,k->", a, a)
    elif k == 4:
        np.isclose(a, a[:1, :1].ravel()[:0])
    elif k == 5:
        np.hstack((a, a.ravel()))
    elif k == 6:
        np.linalg.det(a * 1e300)
    elif k == 7:
        np.clip(a.astype(np.float16), 0, 1e10)
    elif k == 8:
        np.linalg.norm(a, "nuc2")
    return a.sum()


for k in range(9):
    case(_dead_calls, (SING, k), (A3, k), (np.zeros((2, 3)), k), name=f"dead_call_{k}")


def _twins_written(a):
    r1 = np.linalg.inv(a)
    r1[0, 0] = 123.0
    r2 = np.linalg.inv(a)
    p1 = np.pad(a, 1)
    p1[0, 0] = -5
    p2 = np.pad(a, 1)
    h1 = np.hstack((a, a))
    h1 *= 2
    h2 = np.hstack((a, a))
    l1 = np.linspace(0, 1, 3)
    l1 += 1
    l2 = np.linspace(0, 1, 3)
    return r1, r2, p1, p2, h1, h2, l1, l2


case(_twins_written, (A3,), _f(A3))


def _twins_same_object(a):
    c1 = np.cumsum(a)
    c2 = np.cumsum(a)
    d1 = np.diff(a)
    d2 = np.diff(a)
    return c1 is c2, d1 is d2, np.shares_memory(c1, c2), c1, d2


case(_twins_same_object, (X,), (M,))


def _input_written_between(a):
    r1 = np.linalg.det(a)
    a[0, 0] = 100.0
    r2 = np.linalg.det(a)
    n1 = np.linalg.norm(a)
    a *= -1
    n2 = np.linalg.norm(a)
    return r1, r2, n1, n2


case(_input_written_between, lambda: (A3.copy(),), lambda: (np.asfortranarray(A3),))


def _solve_into_input(a, b):
    b[...] = np.linalg.solve(a, b)
    a[...] = np.linalg.inv(a)
    return a, b


case(_solve_into_input, lambda: (A3.copy(), B3.copy()), lambda: (SING.copy(), np.ones(2)))
