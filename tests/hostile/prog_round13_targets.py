"""Round 13, the numpy backend's newest lowerings and the seeds that raise:
``fresh_targets.py`` (``f = np.zeros_like(x); f[1:-1] = expr`` written through
``out=``: targets that are no fresh array after all (``astype(copy=False)``, ``ravel``,
``asarray``, an alias by another name), dtypes that need a cast, Fortran and strided
inputs, 0-size and 1-element windows, the written window read in ``expr``, values that
raise under ``errstate`` after the window is half written); ``grid_calls.py``
(``np.meshgrid`` indexing/sparse/copy of 0-d, 2-D and 0-size inputs, results written
afterwards; ``np.cross`` with axis arguments, 2-vectors, int8 wrap-around, bad axes;
``np.triu``/``np.tril`` with every ``k``, 1-D and 3-D inputs; ``np.split``/
``np.array_split`` with bad sections, negative and unsorted points, views written
afterwards); ``axis_calls.py`` (``np.take_along_axis`` negative and out-of-range
indices, ``np.expand_dims`` repeated and negative axes); ``small_linalg.py`` (``eigh``
``UPLO``, ``lstsq`` ``rcond``); ``ops/random.py`` (``np.random.seed``,
``default_rng``, ``RandomState`` of a bad seed after Python effects).

    >>> def _laplacian(u, k):
    ...     f = np.zeros_like(u)
    ...     f[1:-1] = k * (u[2:] - 2 * u[1:-1] + u[:-2])
    ...     return f
"""

import numpy as np
from hostile_check import Args, Programs

reg = Programs("round13_targets")
case = reg.case
scenario = reg.scenario

U = np.array([1.0, 4.0, -2.0, 0.5, 3.0, 8.0])
G = np.arange(20.0).reshape(4, 5) ** 1.5


# ----------------------------------------------------------------- fresh targets

def _laplacian(u, k):
    f = np.zeros_like(u)
    f[1:-1] = k * (u[2:] - 2 * u[1:-1] + u[:-2])
    return f


def _laplacian_2d(u, k):
    f = np.zeros_like(u)
    f[1:-1, 1:-1] = k * (u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2]
                         - 4 * u[1:-1, 1:-1])
    return f


def _rows_window(u, k):
    f = np.empty_like(u)
    f[0] = 0.0
    f[-1] = 0.0
    f[1:-1] = u[1:-1] * k + u[:-2]
    return f


def _astype_no_copy(u, k):
    f = u.astype(u.dtype, copy=False)
    f[1:-1] = k * (u[2:] + u[:-2])
    return f


def _ravel_target(u, k):
    f = u.ravel()
    f[1:-1] = k * (u[2:] + u[:-2])
    return f


def _asarray_target(u, k):
    f = np.asarray(u)
    f[1:-1] = u[2:] * k + u[:-2]
    return f


def _contiguous_target(u, k):
    f = np.ascontiguousarray(u)
    f[1:-1] = u[2:] * k - u[:-2]
    return f


def _copy_target_reads_itself(u, k):
    f = u.copy()
    f[1:-1] = f[2:] * k + f[:-2]
    return f


def _fresh_alias_returned(u, k):
    f = np.zeros_like(u)
    g = f
    f[1:-1] = k * u[2:] - u[:-2]
    return g, f is g


def _window_view_returned(u, k):
    f = np.zeros_like(u)
    f[1:-1] = k * u[2:] - u[:-2]
    return f, f[1:-1]


def _cast_target(u, k):
    f = np.zeros_like(u, dtype=np.float32)
    f[1:-1] = k * (u[2:] - u[:-2])
    return f


def _int_target(u, k):
    f = np.zeros(u.shape, dtype=np.int8)
    f[1:-1] = k * (u[2:] - u[:-2])
    return f


def _int_values_float_target(u, k):
    f = np.zeros(u.shape)
    f[1:-1] = u.astype(np.int64)[2:] * k + 1
    return f


def _complex_target(u, k):
    f = np.zeros(u.shape, dtype=complex)
    f[1:-1] = u[2:] * k
    return f


def _full_nan_target(u, k):
    f = np.full_like(u, np.nan)
    f[1:-1] = np.sqrt(u[2:] * k)
    return f


def _fortran_target(u, k):
    f = np.ones(u.shape, order="F")
    f[1:-1] = u[2:] * k + u[:-2]
    return f


def _strided_window(u, k):
    f = np.zeros_like(u)
    f[::2] = u[::2] * k
    return f


def _augmented_window(u, k):
    f = np.ones_like(u)
    f[1:-1] += k * u[2:]
    return f


def _double_write(u, k):
    f = np.zeros_like(u)
    f[1:-1] = k * u[2:]
    f[1:-1] = f[1:-1] + u[:-2]
    return f


def _scalar_value(u, k):
    f = np.zeros_like(u)
    f[1:-1] = u[1:-1].sum() * k
    return f


def _broadcast_row(u, k):
    f = np.zeros_like(u)
    f[1:-1] = u[:1] * k
    return f


def _shape_mismatch(u, k):
    f = np.zeros_like(u)
    f[1:-1] = u[1:] * k
    return f


def _raise_half_written(u, k, log):
    f = np.zeros_like(u)
    log.append("before")
    with np.errstate(invalid="raise"):
        f[1:-1] = np.log(u[2:] * k)
    log.append("after")
    return f


def _warn_in_window(u, k):
    f = np.zeros_like(u)
    f[1:-1] = np.log(u[2:] * k)
    return f


def _input_target_raise(u, k):
    f = u.ravel()
    with np.errstate(invalid="raise"):
        f[1:-1] = np.log(u[2:] * k)
    return f


def _ufunc_result_target(u, k):
    f = u + 0.0
    f[1:-1] = k * u[:-2]
    return f, u


def _matmul_window(a, k):
    f = np.zeros((a.shape[0] + 2, a.shape[1]))
    f[1:-1] = a @ (np.eye(a.shape[1]) * k)
    return f


STENCILS = (_laplacian, _rows_window, _astype_no_copy, _ravel_target, _asarray_target,
            _contiguous_target, _copy_target_reads_itself, _fresh_alias_returned,
            _window_view_returned, _cast_target, _int_target, _int_values_float_target,
            _complex_target, _full_nan_target, _fortran_target, _strided_window,
            _augmented_window, _double_write, _scalar_value, _broadcast_row,
            _shape_mismatch, _warn_in_window, _input_target_raise, _ufunc_result_target)
for fn in STENCILS:
    case(fn, (U.copy(), 0.5), (U.copy(), 2.0), (U.copy(), -1.0), (np.ones(2), 1.0),
         (np.ones(1), 3.0), (np.ones(0), 3.0), (U[::-1].copy(), 1e308))

for fn in (_laplacian, _astype_no_copy, _ravel_target, _copy_target_reads_itself,
           _int_target, _cast_target):
    name = fn.__name__[1:]
    case(fn, lambda: (U[::2], 0.5), lambda: (U[::2], 1.5), name=name + "_strided_input")
    case(fn, (U.astype(np.float32), 0.5), (U.astype(np.float32), 1e39),
         name=name + "_float32")
    case(fn, (np.array([1, 5, -3, 7, 2]), 2), (np.array([1, 5, -3, 7, 2]), 3),
         name=name + "_int_input")

case(_laplacian_2d, (G.copy(), 0.5), (G.copy(), 2.0), (np.asfortranarray(G), 1.0),
     (np.ones((2, 2)), 1.0), (np.ones((3, 0)), 1.0), (np.ones((200, 200)), 0.25))
case(_raise_half_written, (U.copy(), 0.5, []), (U.copy(), -1.0, []), (U.copy(), 2.0, []))
case(_matmul_window, (np.arange(6.0).reshape(3, 2), 2.0), (np.arange(6.0).reshape(3, 2), 0.5),
     (np.ones((0, 2)), 1.0))


@scenario
def fresh_target_read_only_input(r):
    f = r.compile(_laplacian)
    u = U.copy()
    u.flags.writeable = False
    r.call(f, u, 0.5)
    r.call(f, u, 1.5)
    r.call(f, U.copy(), 1.5)


# ------------------------------------------------------------------- grid calls

def _meshgrid(x, y, kw):
    gx, gy = np.meshgrid(x, y, **kw)
    return gx, gy


def _meshgrid_written(x, y, kw):
    gx, gy = np.meshgrid(x, y, **kw)
    gx[0] = -1
    return gx, gy, x


def _meshgrid_three(x, y, z):
    return np.meshgrid(x, y, z, indexing="ij"), np.meshgrid(x, y, z)


def _meshgrid_one(x):
    return np.meshgrid(x), np.meshgrid(x, sparse=True)


A3 = np.array([1.0, 2.0, 3.0])
B2 = np.array([10, 20], np.int8)
for kw in ({}, {"indexing": "ij"}, {"sparse": True}, {"sparse": True, "indexing": "ij"},
           {"copy": False}, {"indexing": "zz"}, {"sparse": 1}, {"indexing": "IJ"}):
    name = "meshgrid_" + "_".join(f"{k}_{v}" for k, v in kw.items()) if kw else "meshgrid"
    case(_meshgrid, (A3, B2, kw), (A3[::-1], np.ones((2, 2)), kw), (np.zeros(0), B2, kw),
         (np.float64(2.0), A3, kw), name=name)
case(_meshgrid_written, (A3, B2, {}), (A3, B2, {"sparse": True}), (A3, B2, {"copy": False}),
     (A3, B2, {"indexing": "ij"}))
case(_meshgrid_three, (A3, B2, np.arange(4)), (np.zeros(0), B2, A3),
     (np.asfortranarray(np.ones((2, 2))), A3, B2))
case(_meshgrid_one, (A3,), (np.zeros(0),), (np.ones((2, 3)),))


def _cross(a, b, kw):
    return np.cross(a, b, **kw)


V3 = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
W3 = np.array([[0.0, 1.0, 0.0], [3.0, -2.0, 1.0]])
for kw in ({}, {"axis": 0}, {"axisa": 0}, {"axisc": 0}, {"axisa": -1, "axisb": 0},
           {"axis": 5}, {"axisc": 1}, {"axisa": True}):
    name = "cross_" + "_".join(f"{k}_{v}" for k, v in kw.items()) if kw else "cross"
    case(_cross, (V3, W3, kw), (V3.T.copy(), W3.T.copy(), kw), (V3[0], W3, kw),
         (np.ones((3, 3)), np.eye(3), kw), name=name)
case(_cross, (V3, W3, {}), (V3.astype(np.int8) * 60, W3.astype(np.int8) * 60, {}),
     (V3.astype(np.float16) * 3e2, W3.astype(np.float16) * 3e2, {}),
     (V3.astype(complex), W3, {}), (V3 > 0, W3 > 0, {}), (V3[:, :2], W3[:, :2], {}),
     (V3[:, :2], W3, {}), (np.ones((0, 3)), np.ones((0, 3)), {}),
     (np.full((2, 3), 1e200), np.full((2, 3), 1e200), {}), name="cross_dtypes")


def _triangles(m, k):
    return np.triu(m, k), np.tril(m, k)


def _triangles_literal(m):
    return np.triu(m, -1), np.tril(m, 1), np.triu(m, 100), np.tril(m, -100), np.triu(m)


case(_triangles, (G, 0), (G, 1), (G, -1), (G, 10), (G, -10), (G, True), (G, np.int64(2)))
case(_triangles_literal, (G,), (np.ones((2, 3, 4)),), (np.arange(5),), (G > 3,),
     (G.astype(np.int8),), (np.asfortranarray(G),), (np.ones((0, 3)),),
     (np.array(["a", "b", "c", "d"]).reshape(2, 2),),
     (np.array([[1, 2], [3, 4]], dtype="datetime64[D]"),))


def _split(a, sections, axis):
    return np.split(a, sections, axis=axis)


def _array_split(a, sections, axis):
    return np.array_split(a, sections, axis=axis)


def _split_literal(a):
    return np.split(a, 2), np.array_split(a, 3), np.split(a, [1, 3]), \
        np.array_split(a, [3, 1]), np.split(a, [-1])


def _split_written(a):
    parts = np.split(a, 2)
    parts[0][0] = 99.0
    return parts, a


for fn in (_split, _array_split):
    name = fn.__name__[1:]
    case(fn, (U, 2, 0), (U, 3, 0), (U, 4, 0), (U, 0, 0), (U, -1, 0), (U, [2, 4], 0),
         (U, [4, 2], 0), (U, [-2, 10], 0), (U, 7, 0), name=name)
    case(fn, (G, 5, 1), (G, 2, 1), (G, 2, -1), (G, 2, 2), (G, 2, -3), (G, (1, 3), 1),
         (G, [], 0), (np.float64(1.0), 1, 0), name=name + "_axes")
case(_split_literal, (U,), (np.arange(4.0),), (np.arange(8).reshape(4, 2),), (np.ones(0),))
case(_split_written, (U.copy(),), (np.arange(4.0),))


# ------------------------------------------------------------------ axis calls

def _take_along(a, idx, axis):
    return np.take_along_axis(a, idx, axis=axis)


def _take_along_default(a, idx):
    return np.take_along_axis(a, idx, -1)


def _sorted_take(a):
    idx = np.argsort(a, axis=1)
    return np.take_along_axis(a, idx, axis=1), np.take_along_axis(a, idx[:, :1], 1)


IDX = np.array([[0, 4], [1, -1], [-5, 2], [3, 3]])
case(_take_along, (G, IDX, 1), (G, IDX, -1), (G, IDX + 1, 1), (G, IDX - 1, 1),
     (G, IDX[:2], 0), (G, IDX.astype(np.int8), 1), (G, IDX.astype(float), 1),
     (G, IDX[0], 1), (G, IDX.ravel(), None), (G, IDX, 2), (G, np.zeros((4, 0), int), 1),
     (G, IDX.astype(np.uint8), 1))
case(_take_along_default, (G, IDX), (G, IDX[:, ::-1]), (np.asfortranarray(G), IDX),
     (G[:, ::2], IDX % 3), (G.astype(np.float32), IDX), (G, np.array([[10]] * 4)))
case(_sorted_take, (G[:, ::-1].copy(),), (np.array([[3.0, np.nan, 1.0]]),),
     (np.ones((0, 3)),))


def _expand(a, axis):
    return np.expand_dims(a, axis)


def _expand_written(a):
    b = np.expand_dims(a, 0)
    b[0, 0] = -7.0
    return b, a


case(_expand, (U, 0), (U, 1), (U, -1), (U, -2), (U, 2), (U, -3), (U, (0, 1)),
     (U, (0, 0)), (U, [0, -1]), (U, (0, 3)), (U, True), (U, np.int64(0)))
case(_expand, (G, 1), (G.T, 1), (G[::2], 0), (np.float64(3.0), 0), (np.ones((0, 2)), 2),
     (np.asfortranarray(G), (0, 3)), name="expand_layouts")
case(_expand_written, (U.copy(),), (np.arange(3.0),))


# ----------------------------------------------------------------------- linalg

def _eigh(a, uplo):
    w, v = np.linalg.eigh(a, UPLO=uplo)
    return w, np.abs(v)


def _lstsq(a, b, rcond):
    x, res, rank, s = np.linalg.lstsq(a, b, rcond=rcond)
    return np.round(x, 8), np.round(res, 8), rank, np.round(s, 8)


def _lstsq_default(a, b):
    x, res, rank, s = np.linalg.lstsq(a, b)
    return np.round(x, 8), res.shape, rank


S = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
NS = np.array([[2.0, 5.0, 0.0], [-1.0, 3.0, 1.0], [0.0, 7.0, 4.0]])
case(_eigh, (S, "L"), (S, "U"), (NS, "L"), (NS, "U"), (S, "l"), (S, "X"),
     (S.astype(np.float32), "L"), (S.astype(complex) * 1j, "U"), (S.astype(np.int8), "L"),
     (np.full((3, 3), np.nan), "L"), (np.ones((2, 3)), "L"), (np.ones((0, 0)), "L"),
     (np.stack([S, NS]), "U"))
A = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
Y = np.array([-1.0, 0.2, 0.9, 2.1])
case(_lstsq, (A, Y, None), (A, Y, -1), (A, Y, 1e-3), (A, Y, 10.0), (A, Y, 0),
     (A, np.stack([Y, Y * 2], 1), None), (A[:2], Y[:2], None), (A[:, :1], Y, None),
     (np.ones((4, 2)), Y, None), (A.astype(np.float32), Y, None), (A, Y[:3], None),
     (A * np.nan, Y, None), (A, Y.astype(complex), None), (A.T, Y[:2], None),
     (A, Y, True), (A, Y, np.float64(1e-3)))
case(_lstsq_default, (A, Y), (A[:2], Y[:2]), (np.ones((0, 2)), np.ones(0)),
     (A, np.ones((4, 0))), (np.ones((3, 5)), np.ones(3)))


# ----------------------------------------------------------------------- seeds

def _seed_after_effects(x, s, log):
    log.append("before")
    print("seeding", s)
    np.random.seed(s)
    log.append("after")
    return x + np.random.random(x.shape)


def _rng_after_effects(x, s, log):
    log.append("before")
    rng = np.random.default_rng(s)
    log.append("after")
    return x + rng.random(x.shape)


def _randomstate_after_effects(x, s, log):
    log.append("before")
    rs = np.random.RandomState(s)
    log.append("after")
    return x * rs.uniform(size=x.shape)


def _seed_after_input_write(x, s):
    x[0] = -5.0
    np.random.seed(s)
    return x + np.random.normal(size=x.shape)


def _seed_in_try(x, s, log):
    try:
        log.append("try")
        np.random.seed(s)
        return x + np.random.random()
    except (ValueError, TypeError) as e:
        log.append(type(e).__name__)
        return str(e)


def _seed_after_draw(x, s):
    a = np.random.random(x.shape)
    np.random.seed(s)
    return x + a, np.random.random()


SEEDS = (1, 2, -1, 2 ** 32, 2 ** 32 - 1, 0, True, np.int64(-3), 1.5, 7)   # (None: entropy)
X = np.array([1.0, 2.0])


def _reseed():
    np.random.seed(12345)


for fn in (_seed_after_effects, _rng_after_effects, _randomstate_after_effects, _seed_in_try):
    case(fn, *[(X, s, []) for s in SEEDS], setup=_reseed,
         watch=lambda: np.random.get_state()[1][:3].tolist())
case(_seed_after_input_write, *[(X.copy(), s) for s in SEEDS], setup=_reseed)
case(_seed_after_draw, *[(X, s) for s in (1, 2, -1, 3, 2 ** 40)], setup=_reseed,
     watch=lambda: np.random.get_state()[1][:3].tolist())


def _kw_seed(x, **kw):
    return x + np.random.default_rng(**kw).random()


case(_kw_seed, Args(X, seed=1), Args(X, seed=2), Args(X, seed=-2), Args(X, seed=[1, -1]),
     Args(X, seed=3))


# a write into an input that np.broadcast_arrays made: NumPy warns DeprecationWarning
# at the write; reading its ``flags.writeable`` (the guards did, at every call) warns
# FutureWarning too


def _write_broadcast_view(a, v):
    a[0] = v
    return a.sum()


def _broadcast_inputs(k):
    return lambda: (np.broadcast_arrays(np.arange(3.0), np.zeros((2, 1)))[0], k)


case(_write_broadcast_view, _broadcast_inputs(5.0), _broadcast_inputs(6.0),
     lambda: (np.zeros((2, 3)), 1.0))
