"""Round 8, the native tier calling NumPy from inside its kernels
(``backends/native/calls.py``): ``matmul``, ``norm``, ``cumsum``, ``clip``, ``diff``,
``stack`` and friends on strided, 0-size, Fortran-ordered, int8-overflowing and NaN
inputs, around elementwise work the kernel does itself; calls that warn or raise
inside the kernel (the writes undone, tier 1 reruns the call and warns or raises as
eager), and graphs that write their inputs before such a call. Each program runs
compiled with ``backend="native"`` and tier 2 forced from the second call
(``after_calls=1, background=False, prefer="native"``), three calls per input set."""

import copy

import numpy as np
from hostile_check import Programs

import dynamo

reg = Programs("round8_native")
NATIVE = {"after_calls": 1, "background": False, "prefer": "native"}


def native(fn, *inputs, calls: int = 3):
    """``fn`` compiled for the native tier (plain in the reference run), called
    ``calls`` times with each input set (deep-copied per call)."""
    def s(r):
        f = dynamo.compile(fn, backend="native", options=NATIVE) if r.compiled else fn
        for spec in inputs:
            for _ in range(calls):
                r.call(f, *copy.deepcopy(spec) if isinstance(spec, tuple) else spec())
    s.__name__ = fn.__name__.removeprefix("_")
    reg.scenario(s)


M = np.arange(12.0).reshape(3, 4) - 5.5
MF = np.asfortranarray(M)
SQ = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.0], [0.5, 0.0, 2.0]])
SQN = np.array([[4.0, np.nan, 0.5], [1.0, 3.0, 0.0], [0.5, 0.0, 2.0]])
SING = np.array([[1.0, 2.0], [2.0, 4.0]])
V = np.array([1.5, -0.0, 0.0, -2.5, 4.0, 3.0, -7.25, 8.0])
VN = np.array([1.5, np.nan, 0.0, -2.5, np.inf, 3.0, -7.25, 8.0])
I8 = np.array([-128, -1, 0, 1, 127, 5, -7, 100], dtype=np.int8)
E = np.zeros(0)
E2 = np.zeros((0, 3))


def _strided(a):
    return lambda: (a[::2],)


def _reversed(a):
    return lambda: (a[::-1],)


# ============================================================ matmul

def _matmul_then_scale(a, b):
    return (a @ b) * 2.0 + 1.0


native(_matmul_then_scale, (SQ, SQ), (SQN, SQ), (np.asfortranarray(SQ), SQ),
       (E2.T.copy(), E2))


def _matmul_strided(a):
    return a[:, ::2] @ a[::2, :].T + 0.5


native(_matmul_strided, (M,), (MF,))


def _matvec_reversed(a, v):
    return a @ v[::-1] - v


native(_matvec_reversed, (SQ, np.array([1.0, 2.0, 3.0])),
       (SQN, np.array([1.0, -0.0, np.inf])))


def _matmul_int8_overflow(a):
    return (a @ a.T) + np.int8(1)


native(_matmul_int8_overflow, (I8.reshape(2, 4),), (np.full((3, 3), 100, np.int8),))


def _matmul_zero_inner(a, b):
    return a @ b * 3.0 - 1.0


native(_matmul_zero_inner, (np.zeros((3, 0)), np.zeros((0, 2))), (np.ones((2, 1)),
       np.ones((1, 2))))


def _matmul_transposed_f(a):
    return a.T @ a + np.eye(a.shape[1])


native(_matmul_transposed_f, (M,), (MF,), (M[::2],))


def _dot_vectors(x):
    return np.dot(x, x) + x


native(_dot_vectors, (V,), (VN,), (E,))


# ============================================================ norm

def _norm_normalize(x):
    return x / np.linalg.norm(x)


native(_norm_normalize, (V,), (VN,), (np.zeros(4),), _strided(V))


def _norm_axis(a):
    return a - np.linalg.norm(a, axis=0) * 0.1


native(_norm_axis, (M,), (MF,), (E2,))


def _norm_ord_inf(x):
    return np.linalg.norm(x, ord=np.inf) + x * 2


native(_norm_ord_inf, (V,), (VN,), _reversed(V))


def _norm_huge(x):
    # the plain sum of squares overflows; NumPy's norm does not scale: inf
    return np.linalg.norm(x) * 0.5 + x


native(_norm_huge, (np.array([1e200, 1e200, 1.0]),), (np.array([1e-200, 3e-200]),))


def _norm_frobenius_empty(a):
    return np.linalg.norm(a) + a.sum()


native(_norm_frobenius_empty, (E2,), (M,))


# ============================================================ cumsum / diff

def _cumsum_scaled(x):
    return np.cumsum(x * 2.0) - 1.0


native(_cumsum_scaled, (V,), (VN,), (E,), _strided(V), _reversed(V))


def _cumsum_int8_wraps(x):
    return np.cumsum(x) + x


native(_cumsum_int8_wraps, (I8,), (np.full(6, 100, np.int8),))


def _cumsum_int8_dtype(x):
    return np.cumsum(x, dtype=np.int8) * np.int8(3)


native(_cumsum_int8_dtype, (I8,), (np.arange(40, dtype=np.int64),))


def _cumsum_axis_f(a):
    return np.cumsum(a, axis=1) + a


native(_cumsum_axis_f, (M,), (MF,), (E2,))


def _cumprod_overflow(x):
    return np.cumprod(x) * 0.5


native(_cumprod_overflow, (np.array([1e200, 1e200, 1e200]),), (V,))


def _diff_squared(x):
    return np.diff(x) ** 2 + 1.0


native(_diff_squared, (V,), (VN,), (np.ones(1),), (E,), _strided(V))


def _diff_n2_axis0(a):
    return np.diff(a, n=2, axis=0) * 3.0


native(_diff_n2_axis0, (M,), (MF,), (np.ones((2, 3)),))


def _diff_int8_overflow(x):
    return np.diff(x) + np.int8(0)


native(_diff_int8_overflow, (I8,), (np.array([0, 200, 0], dtype=np.uint8),))


# ============================================================ clip

def _clip_scaled(x):
    return np.clip(x * 2.0, -3.0, 3.0) + 1.0


native(_clip_scaled, (V,), (VN,), (E,), _reversed(V))


def _clip_inverted_bounds(x):
    return np.clip(x, 2.0, -2.0) * x


native(_clip_inverted_bounds, (V,), (VN,))


def _clip_nan_bound(x):
    return np.clip(x, np.nan, 1.0) + 0.0


native(_clip_nan_bound, (V,))


def _clip_int8(x):
    return np.clip(x, -100, 100) + np.int8(27)


native(_clip_int8, (I8,))


def _clip_array_bounds(a, lo, hi):
    return np.clip(a, lo, hi) - a


native(_clip_array_bounds, (M, np.full(4, -1.0), np.array([0.0, 1.0, np.nan, 2.0])),
       (MF, -2.0, 2.0))


# ============================================================ stack and friends

def _stack_pair(x, y):
    return np.stack([x, y]) * 2.0 + 1.0


native(_stack_pair, (V, V[::-1].copy()), (E, E), (VN, V))


def _stack_axis1_strided(a):
    return np.stack([a[:, 0], a[:, 2]], axis=1) - 1.0


native(_stack_axis1_strided, (M,), (MF,))


def _concatenate_mixed_dtypes(x, y):
    return np.concatenate([x, y]) * 2


native(_concatenate_mixed_dtypes, (I8, np.ones(3, np.float32)), (I8, np.ones(2, np.int8)))


def _vstack_hstack(a):
    return np.vstack([a, a * 2.0]).sum(axis=0) + np.hstack([a[0], a[1]])[:4]


native(_vstack_hstack, (M,), (MF,))


def _outer_then_add(x):
    return np.outer(x, x) + 1.0


native(_outer_then_add, (V[:4].copy(),), (VN[:4].copy(),), (E,))


# ============================================================ warns / raises inside

def _inv_then_scale(a):
    return np.linalg.inv(a) * 2.0 + a


native(_inv_then_scale, (SQ,), (SING,), (SQ,))


def _solve_then_add(a, b):
    return np.linalg.solve(a, b) + b


native(_solve_then_add, (SQ, np.ones(3)), (SING, np.ones(2)), (SQN, np.ones(3)))


def _norm_then_divide_zero(x):
    return x / np.linalg.norm(x) + 1.0


native(_norm_then_divide_zero, (V,), (np.zeros(4),), (V,))


def _cumsum_then_log(x):
    return np.log(np.cumsum(x)) * 2.0


native(_cumsum_then_log, (np.array([1.0, 2.0, 3.0]),), (np.array([1.0, -2.0, 0.5]),))


def _write_input_then_inv(a, out):
    out[...] = a * 2.0
    return np.linalg.inv(out) + 1.0


native(_write_input_then_inv, (SQ, np.zeros((3, 3))), (SING, np.zeros((2, 2))),
       (SQ, np.zeros((3, 3))))


def _write_input_then_warn(x, out):
    out[:] = x + 1.0
    return np.cumsum(x) / np.cumsum(out - out)


native(_write_input_then_warn, (V, np.zeros(8)), (E, E.copy()))


def _inplace_add_then_matmul(a, v):
    v += 1.0
    return a @ v * 0.5


native(_inplace_add_then_matmul, (SQ, np.ones(3)), (SQN, np.ones(3)))


def _errstate_around_native(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.log(np.cumsum(x))
    return y * 2.0


native(_errstate_around_native, (np.array([1.0, -2.0, 0.5]),), (V,))


def _det_of_nan(a):
    return np.linalg.det(a) * a


native(_det_of_nan, (SQ,), (SQN,), (SING,))


def _matmul_inf_times_zero(a, b):
    return a @ b + 1.0


native(_matmul_inf_times_zero, (np.array([[np.inf, 0.0]]), np.array([[0.0], [1.0]])),
       (SQ, SQ))
