"""Round 10, stencil chains that run as 1-D passes and accumulate in their target
(``backends/numpy_backend/flat.py``: ``flat_plan``, ``in_target``, the direct path from
``MIN_DIRECT_ELEMENTS`` on): targets that alias their sources (the same array written
in place, overlapping slices of one buffer, views through ``reshape`` and ``.T``, a
reversed view, a target read shifted by the chain itself), boundary columns (the gaps of
the 1-D passes) holding values that raise, warn or overflow where the window's values do
not (and the other way round), ``errstate`` and ``seterrcall`` mid-chain, a warnings
filter of ``"error"``, NaN, integer overflow and integer powers, mixed and narrow dtypes,
targets that are read-only, Fortran-ordered or strided, and chains whose values another
member reads after the next one. Arrays are 190 x 190 (the window passes
``MIN_DIRECT_ELEMENTS``) or 60 x 60 (the flat path without the direct one)."""

import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round10_stencils")
case = reg.case
scenario = reg.scenario

N = 190
rng = np.random.default_rng(10)
A = rng.standard_normal((N, N))
B0 = rng.standard_normal((N, N))
S = rng.standard_normal((60, 60))
S0 = np.zeros((60, 60))


def _jacobi(a, b):
    b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return b


def _five(a, b):
    b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[:-2, 1:-1] + a[2:, 1:-1]
                           + a[1:-1, :-2] + a[1:-1, 2:])
    return b


def _reuse_value(a, b):
    t = a[:-2, 1:-1] + a[2:, 1:-1]
    b[1:-1, 1:-1] = (t * a[1:-1, 1:-1] - a[1:-1, 2:]) / t
    return b


def _two_dying(a, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] - 2 * a[1:-1, 1:-1]) - (a[2:, 1:-1] - a[1:-1, 2:])
    return b


def _reads_target(a, b):
    b[1:-1, 1:-1] = b[1:-1, 1:-1] + 0.1 * (a[:-2, 1:-1] + a[2:, 1:-1] - 2 * a[1:-1, 1:-1])
    return b


def _reads_target_shifted(a, b):
    b[1:-1, 1:-1] = b[:-2, 1:-1] + b[2:, 1:-1] + a[1:-1, 1:-1] * 0.5
    return b


def _divide(a, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1]
    return b


def _sqrt_chain(a, b):
    b[1:-1, 1:-1] = np.sqrt(a[1:-1, 1:-1]) + np.sqrt(a[:-2, 1:-1]) * 2.0
    return b


def _square_chain(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] * a[1:-1, 1:-1] + a[:-2, 1:-1] * a[2:, 1:-1]
    return b


def _maximum_chain(a, b):
    b[1:-1, 1:-1] = np.maximum(a[:-2, 1:-1], a[2:, 1:-1]) + np.fmin(a[1:-1, :-2], a[1:-1, 2:])
    return b


CHAINS = (_jacobi, _five, _reuse_value, _two_dying, _reads_target, _divide, _sqrt_chain,
          _square_chain, _maximum_chain)


# ============================================================ targets aliasing sources

def _same_array():
    a = A.copy()
    return a, a


def _overlap_rows():
    base = np.concatenate([A.ravel(), B0.ravel()])
    return base[:N * N].reshape(N, N), base[N:N + N * N].reshape(N, N)


def _overlap_one_element():
    base = np.concatenate([A.ravel(), B0.ravel()])
    return base[:N * N].reshape(N, N), base[1:1 + N * N].reshape(N, N)


def _disjoint_halves():
    base = np.concatenate([A.ravel(), B0.ravel()])
    return base[:N * N].reshape(N, N), base[N * N:].reshape(N, N)


def _target_transposed_view():
    a = A.copy()
    return a, a.T


def _target_reversed():
    a = A.copy()
    return a, a[::-1]


def _source_reversed():
    return A.copy()[::-1], B0.copy()


def _target_fortran():
    return A.copy(), np.asfortranarray(B0)


def _target_wider_rows():
    wide = np.zeros((N, N + 10))
    wide[:, :N] = B0
    return A.copy(), wide[:, :N]


LAYOUTS = {"same_array": _same_array, "overlap_rows": _overlap_rows,
           "overlap_one_element": _overlap_one_element, "disjoint_halves": _disjoint_halves,
           "target_transposed": _target_transposed_view, "target_reversed": _target_reversed,
           "source_reversed": _source_reversed, "target_fortran": _target_fortran,
           "target_strided_rows": _target_wider_rows}

for _chain in (_jacobi, _reuse_value, _two_dying, _reads_target, _reads_target_shifted):
    for _lname, _layout in LAYOUTS.items():
        if _chain in (_two_dying, _reads_target_shifted) and _lname not in (
                "same_array", "overlap_rows", "target_transposed"):
            continue
        case(_chain, _layout, (A, B0), name=f"{_chain.__name__[1:]}_{_lname}")


def _through_reshape(flat):
    a = flat.reshape(N, N)
    b = flat.reshape(N, N)
    b[1:-1, 1:-1] = a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] * 0.5
    return flat.sum(), a is b


case(_through_reshape, lambda: (A.ravel().copy(),))


def _in_place_steps(a, k):
    for _ in range(k):
        a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return a


case(_in_place_steps, (A, 3))


def _swap_steps(a, b, k):
    for _ in range(k):
        b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        a, b = b, a
    return a, b


case(_swap_steps, (A, B0, 3), (A, B0, 0))


def _two_targets(a, b, c):
    v = a[:-2, 1:-1] + a[2:, 1:-1] * 3.0
    b[1:-1, 1:-1] = v
    c[1:-1, 1:-1] = v
    return b, c


case(_two_targets, (A, B0, B0), lambda: (A.copy(), B0.copy(), B0.copy()))


def _target_returned_and_view(a, b):
    w = b[1:-1, 1:-1]
    b[1:-1, 1:-1] = a[:-2, 1:-1] - a[2:, 1:-1] + a[1:-1, 1:-1]
    return w, b


case(_target_returned_and_view, (A, B0))


def _target_read_only(a, b):
    b[1:-1, 1:-1] = a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 2:]
    return b


def _read_only_target():
    b = B0.copy()
    b.flags.writeable = False
    return A.copy(), b


case(_target_read_only, _read_only_target, (A, B0))


# ============================================================ floating-point conditions

def _gaps_only(value, where="gaps"):
    """A with ``value`` in the boundary columns (the passes' gaps) or the window."""
    def make():
        a = np.abs(A) + 1.0
        if where == "gaps":
            a[:, 0] = value
            a[:, -1] = value
        else:
            a[N // 2, N // 2] = value
        return a, B0.copy()
    return make


def _divide_raise(a, b):
    with np.errstate(divide="raise", invalid="raise"):
        b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1]
    return b


def _divide_warn(a, b):
    with np.errstate(divide="warn", invalid="warn"):
        b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[1:-1, 2:]) / a[1:-1, 1:-1] + a[1:-1, :-2]
    return b


def _divide_caught(a, b):
    try:
        with np.errstate(all="raise"):
            b[1:-1, 1:-1] = (a[:-2, 1:-1] - a[2:, 1:-1]) / a[1:-1, 1:-1] * 2.0
    except FloatingPointError as e:
        return "caught", str(e), b
    return "ok", b


def _sqrt_invalid_raise(a, b):
    with np.errstate(invalid="raise"):
        b[1:-1, 1:-1] = np.sqrt(a[1:-1, 1:-1] - 1.0) + a[:-2, 1:-1] * a[2:, 1:-1]
    return b


def _overflow_raise(a, b):
    with np.errstate(over="raise"):
        b[1:-1, 1:-1] = a[1:-1, 1:-1] * a[:-2, 1:-1] * 1e300 + a[2:, 1:-1]
    return b


def _warnings_error_filter(a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(divide="warn"):
            try:
                b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1] - 1.0
            except RuntimeWarning as w:
                return "warned", str(w), b
    return "ok", b


for _fn in (_divide_raise, _divide_warn, _divide_caught, _sqrt_invalid_raise,
            _overflow_raise, _warnings_error_filter):
    for _v, _vname in ((0.0, "zero"), (-4.0, "negative"), (np.nan, "nan"), (np.inf, "inf"),
                       (1e300, "huge")):
        if _fn is _divide_warn and _vname in ("negative", "huge"):
            continue
        if _fn in (_sqrt_invalid_raise, _overflow_raise) and _vname in ("zero", "nan"):
            continue
        case(_fn, _gaps_only(_v, "gaps"), _gaps_only(_v, "window"),
             name=f"{_fn.__name__[1:]}_{_vname}")


CALLBACKS = []


def _callback(kind, flag):
    CALLBACKS.append(kind)


def _seterrcall_chain(a, b):
    old = np.seterrcall(_callback)
    try:
        with np.errstate(all="call"):
            b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) / a[1:-1, 1:-1] + np.log(a[1:-1, 2:])
    finally:
        np.seterrcall(old)
    return b


case(_seterrcall_chain, _gaps_only(0.0, "gaps"), _gaps_only(0.0, "window"),
     _gaps_only(-1.0, "window"), setup=CALLBACKS.clear, watch=lambda: list(CALLBACKS))


@scenario
def s_global_seterr_raise_between(r):
    f = r.compile(_divide)
    a, b = _gaps_only(0.0, "window")()
    r.call(f, a, b)
    old = np.seterr(all="raise")
    try:
        a, b = _gaps_only(0.0, "window")()
        r.call(f, a, b)
        r.see("b kept", b)
        a, b = _gaps_only(0.0, "gaps")()
        r.call(f, a, b)
    finally:
        np.seterr(**old)
    a, b = _gaps_only(0.0, "window")()
    r.call(f, a, b)


@scenario
def s_gap_first_then_window(r):
    """The flat pass turned off by a gap condition, then the window's values change."""
    f = r.compile(_divide_raise)
    for where in ("gaps", "window", "gaps", "none"):
        a, b = _gaps_only(0.0, where)() if where != "none" else (np.abs(A) + 1, B0.copy())
        r.call(f, a, b)
        r.see("b", b)


# ============================================================ dtypes

def _cast(dtype, target_dtype):
    def make():
        a = (A * 50).astype(dtype)
        b = np.zeros((N, N), target_dtype)
        return a, b
    return make


for _src, _dst in ((np.float32, np.float64), (np.float64, np.float32), (np.int64, np.float64),
                   (np.float64, np.int64), (np.complex128, np.complex128),
                   (np.float16, np.float16), (np.int8, np.int8), (np.float32, np.complex64)):
    case(_jacobi, _cast(_src, _dst),
         name=f"jacobi_{np.dtype(_src).name}_into_{np.dtype(_dst).name}")


def _int_overflow(a, b):
    b[1:-1, 1:-1] = a[:-2, 1:-1] * a[2:, 1:-1] + a[1:-1, 1:-1] * np.int64(2 ** 40)
    return b


case(_int_overflow, lambda: ((A * 1e6).astype(np.int64), np.zeros((N, N), np.int64)))


def _int_power(a, b, k):
    b[1:-1, 1:-1] = a[:-2, 1:-1] ** k + a[2:, 1:-1]
    return b


def _int_gaps_negative():
    a = np.ones((N, N), np.int64) * 2
    a[:, 0] = -1
    return a, np.zeros((N, N), np.int64), 3


case(_int_power, _int_gaps_negative,
     lambda: (np.ones((N, N), np.int64) * 2, np.zeros((N, N), np.int64), -1))


def _floor_divide_zero(a, b):
    b[1:-1, 1:-1] = a[:-2, 1:-1] // a[1:-1, 1:-1] + a[2:, 1:-1] % a[1:-1, 1:-1]
    return b


def _int_zero_somewhere(where):
    def make():
        a = np.arange(N * N, dtype=np.int64).reshape(N, N) % 7 + 1
        if where == "gaps":
            a[:, 0] = 0
        else:
            a[5, 5] = 0
        return a, np.zeros((N, N), np.int64)
    return make


case(_floor_divide_zero, _int_zero_somewhere("gaps"), _int_zero_somewhere("window"))


def _complex_nan(a, b):
    b[1:-1, 1:-1] = a[:-2, 1:-1] * a[2:, 1:-1] / (a[1:-1, 1:-1] + 1j)
    return b


def _complex_with_nan():
    a = (A + 1j * B0).astype(np.complex128)
    a[3, 0] = complex(np.nan, np.inf)
    a[7, 7] = complex(np.inf, 0)
    return a, np.zeros((N, N), np.complex128)


case(_complex_nan, _complex_with_nan)


def _negative_zero(a, b):
    b[1:-1, 1:-1] = a[1:-1, 1:-1] * -0.0 + a[:-2, 1:-1] * 0.0
    return b


case(_negative_zero, (A, B0))


# ============================================================ small domains, sizes change

for _chain in (_jacobi, _divide, _reads_target):
    case(_chain, (S, S0), lambda: (S.copy(), S.copy()), name=f"{_chain.__name__[1:]}_small")


@scenario
def s_sizes_change(r):
    f = r.compile(_five)
    for n, m in ((N, N), (N + 20, N - 10), (40, 40), (N, N), (3, 3), (2, 5)):
        a = np.arange(n * m, dtype=float).reshape(n, m) % 13
        b = np.ones((n, m))
        r.call(f, a, b)


@scenario
def s_alias_after_distinct(r):
    """Distinct arrays first (the direct path taken), the same array next."""
    f = r.compile(_jacobi)
    r.call(f, A.copy(), B0.copy())
    r.call(f, A.copy(), B0.copy())
    a = A.copy()
    r.call(f, a, a)
    base = np.concatenate([A.ravel(), B0.ravel()])
    r.call(f, base[:N * N].reshape(N, N), base[N:N + N * N].reshape(N, N))
    r.see("base", base)
    r.call(f, A.copy(), B0.copy())


def _exception_after_chain(a, b, idx):
    b[1:-1, 1:-1] = a[:-2, 1:-1] + a[2:, 1:-1] * 2.0
    return b[idx]


case(_exception_after_chain, (A, B0, 3), (A, B0, 10 ** 6))


def _chain_then_inv(a, b):
    b[1:-1, 1:-1] = a[:-2, 1:-1] + a[2:, 1:-1]
    return np.linalg.inv(b[:2, :2] * 0)


case(_chain_then_inv, (A, B0))


# ============================================================ scalars' dtypes, other windows

def _f32_times_f64_scalar(a, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) * np.float64(0.25) + a[1:-1, 1:-1]
    return b


def _f32_times_python_float(a, b):
    b[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1]) * 0.25 + a[1:-1, 1:-1]
    return b


def _f32_pair():
    return A.astype(np.float32), B0.astype(np.float32)


def _f32_huge():
    a = A.astype(np.float32)
    a[:, 0] = 3e38
    return a, B0.astype(np.float32)


for _fn in (_f32_times_f64_scalar, _f32_times_python_float):
    case(_fn, _f32_pair, _f32_huge)


def _offset_windows(a, b):
    b[:-2, 2:] = a[1:-1, 1:-1] * a[2:, :-2] + a[:-2, 1:-1]
    return b


case(_offset_windows, (A, B0), _same_array)


def _whole_rows(a, b):
    b[1:-1, :] = a[:-2, :] + a[2:, :] * 0.5
    return b


case(_whole_rows, (A, B0), _same_array, _overlap_rows)


def _column_window(a, b):
    b[:, 1:-1] = a[:, :-2] - a[:, 2:] * 2.0
    return b


case(_column_window, (A, B0), _same_array, _target_reversed)


def _chain_reads_output_view(a, b):
    w = b[1:-1, 1:-1]
    b[1:-1, 1:-1] = a[:-2, 1:-1] + a[2:, 1:-1] + w
    return b


case(_chain_reads_output_view, (A, B0))


def _augmented_target(a, b):
    b[1:-1, 1:-1] += 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] - a[1:-1, :-2] - a[1:-1, 2:])
    return b


case(_augmented_target, (A, B0), _same_array, _overlap_rows)


# ============================================================ the same chains in tier 2

NATIVE = {"after_calls": 1, "background": False, "prefer": "native"}


def native(fn, *inputs, name=None):
    """``fn`` compiled for the native tier, tier 2 forced from the second call, three
    calls per input set (each a callable making fresh arrays), then the first again."""
    import dynamo

    def s(r):
        f = dynamo.compile(fn, backend="native", options=NATIVE) if r.compiled else fn
        for make in inputs + inputs[:1]:
            for _ in range(3):
                r.call(f, *make())
    s.__name__ = name or "native_" + fn.__name__.removeprefix("_")
    reg.scenario(s)


def _small_same():
    a = S.copy()
    return a, a


def _small_distinct():
    return S.copy(), S0.copy()


def _small_overlap():
    base = np.concatenate([S.ravel(), S.ravel()])
    return base[:3600].reshape(60, 60), base[60:3660].reshape(60, 60)


for _chain in (_jacobi, _two_dying, _reads_target_shifted, _augmented_target):
    native(_chain, _small_distinct, _small_same, _small_overlap)


def _one_d_in_place(x):
    x[1:-1] = x[:-2] + x[2:] * 0.5
    return x


native(_one_d_in_place, lambda: (S[0].copy(),))


def _native_steps(a):
    for _ in range(2):
        a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return a


native(_native_steps, lambda: (S.copy(),))
