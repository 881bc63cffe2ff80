"""Round 27, NumPy 2's dtype promotion at its corners, with the Python number passed in
(a graph input that changes between calls) as well as written in the code: NEP 50's
weak Python scalars beside uint8/int8/float16/float32 arrays and NumPy scalars, a
Python int too large for the array's dtype (OverflowError in NumPy 2, also inside the
program's ``try``), ``np.float32`` scalars beside Python floats, bool arithmetic
(``True + x``, ``b - b`` refused, ``-b``), integer ``//`` and ``%`` by zero and of
negative operands (warnings, signs, INT_MIN), ``**`` with negative int exponents
(ValueError), and complex-to-real casts (ComplexWarning, or TypeError for a scalar).

    >>> def _weak_add(x, s):
    ...     try:
    ...         y = x + s              # uint8 + 300: OverflowError in NumPy 2
    ...     except OverflowError as e:
    ...         return str(e)
    ...     return y, y.dtype.str
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round27_promotion")
case = reg.case
scenario = reg.scenario

U8 = np.array([0, 1, 200, 255], np.uint8)
I8 = np.array([-128, -1, 5, 127], np.int8)
F16 = np.array([0.5, -2.0, 60000.0, 1e-4], np.float16)
F32 = np.array([0.1, -2.5, 3.0e38, 1e-40], np.float32)
I64 = np.array([7, -7, 0, 2 ** 62], np.int64)
B = np.array([True, False, True, False])
C = np.array([1 + 2j, -3.5 + 0j, 0 - 1j, 2 + 0j])
SMALL = (U8, I8, F16, F32)

# Python numbers passed in, one per call (a graph input, not a constant)
PYTHON = (1, 300, -1, 1.5, 2 ** 70, True, 1j, -129, 1e300, 0)
_ERRORS = (OverflowError, TypeError, ValueError, ZeroDivisionError)


def _d(v):
    return v.dtype.str if hasattr(v, "dtype") else type(v).__name__


def _try(fn, *args):
    """``fn(*args)`` and its dtype, or the error it raised (for many corners in one
    program; the programs above it raise inside their own ``try``)."""
    try:
        v = fn(*args)
    except _ERRORS as e:
        return type(e).__name__, str(e)
    return v, _d(v)


# ------------------------------------------------------------------------- weak scalars

def _weak_add(x, s):
    try:
        y = x + s
    except _ERRORS as e:
        return type(e).__name__, str(e)
    return y, y.dtype.str


def _weak_mul(x, s):
    try:
        y = x * s + x
    except _ERRORS as e:
        return type(e).__name__, str(e)
    return y, y.dtype.str


def _weak_reflected(x, s):
    try:
        y = s - x
        z = s / (x + 1)
    except _ERRORS as e:
        return type(e).__name__, str(e)
    return y, z


def _weak_compare(x, s):
    try:
        return x < s, x == s, np.maximum(x, s)
    except _ERRORS as e:
        return type(e).__name__, str(e)


def _weak_inplace(x, s):
    try:
        x += s
    except _ERRORS as e:
        return type(e).__name__, str(e), x
    return x, _d(x)


def _weak_ufunc(x, s):
    try:
        return np.add(x, s), np.true_divide(x, s), np.power(x, 2) * s
    except _ERRORS as e:
        return type(e).__name__, str(e)


def _weak_where(x, s):
    try:
        return np.where(x > 0, x, s), np.clip(x, 0, s)
    except _ERRORS as e:
        return type(e).__name__, str(e)


def _weak_store(x, s):
    try:
        x[0] = s
        x[1:3] = s
    except _ERRORS as e:
        return type(e).__name__, str(e), x
    return x


def _weak_full(x, s):
    try:
        return np.full_like(x, s), np.full(2, s, dtype=x.dtype), x.sum() + s
    except _ERRORS as e:
        return type(e).__name__, str(e)


for _fn in (_weak_add, _weak_mul, _weak_reflected, _weak_compare, _weak_inplace,
            _weak_ufunc, _weak_where, _weak_store, _weak_full):
    for _x in SMALL:
        case(_fn, *((_x, s) for s in PYTHON), calls=1,
             name=f"{_fn.__name__[1:]}_{_x.dtype.name}")


def _weak_literal_uint8(x):
    return (_try(lambda: x + 255), _try(lambda: x + 256), _try(lambda: x - 1),
            _try(lambda: x * -1), _try(lambda: x // 2.0), _try(lambda: x & 0xFF))


def _weak_literal_int8(x):
    return (_try(lambda: x + 127), _try(lambda: x + 128), _try(lambda: x * -128),
            _try(lambda: -x), _try(lambda: abs(x)), _try(lambda: x % 200))


def _weak_literal_float(x):
    return (_try(lambda: x + 1e300), _try(lambda: x * 1e10), _try(lambda: x + 2 ** 70),
            _try(lambda: x / 3), _try(lambda: x + 1), _try(lambda: x - 0.1))


case(_weak_literal_uint8, (U8,))
case(_weak_literal_int8, (I8,))
case(_weak_literal_float, (F16,), (F32,))

# ------------------------------------------------------------------------- NumPy scalars


def _f32_scalar(x, s):
    a = np.float32(s) if not isinstance(s, complex) else np.complex64(s)
    return _try(lambda: a + 0.1), _try(lambda: a * x), _try(lambda: a + np.float64(0.1)), \
        _try(lambda: x.sum() + 0.1), _try(lambda: np.float32(0.1) + s)


def _scalar_int_overflow(x, s):
    a = x[0]
    return (_try(lambda: a + s), _try(lambda: a * 2), _try(lambda: a - s),
            _try(lambda: type(a)(s)))


def _scalar_mixed(x, s):
    a, b = x[1], np.int64(3)
    return _try(lambda: a + b), _try(lambda: a + 1.0), _try(lambda: a / b), \
        _try(lambda: a ** 2)


for _fn in (_f32_scalar, _scalar_int_overflow, _scalar_mixed):
    for _x in SMALL:
        case(_fn, *((_x, s) for s in PYTHON[:6]), calls=1,
             name=f"{_fn.__name__[1:]}_{_x.dtype.name}")


def _uint64_mix(u, i):
    return (_try(lambda: u + i), _try(lambda: u + 1), _try(lambda: u - 2 ** 64),
            _try(lambda: np.uint64(5) - 6))


case(_uint64_mix, (np.array([1, 2 ** 63], np.uint64), np.array([-1, 1], np.int64)),
     (np.uint64(7), np.int64(-7)))

# ------------------------------------------------------------------------- bools


def _bool_arith(b, x):
    return (_try(lambda: True + b), _try(lambda: b + b), _try(lambda: b * 2),
            _try(lambda: b - b), _try(lambda: -b), _try(lambda: ~b),
            _try(lambda: b + x), _try(lambda: True * x), _try(lambda: x - True),
            _try(lambda: b.sum()), _try(lambda: np.True_ + np.True_))


def _bool_mask_math(b, x):
    return _try(lambda: x * b), _try(lambda: b / 2), _try(lambda: b // b), \
        _try(lambda: b ** 2), _try(lambda: np.mean(b)), _try(lambda: b.cumsum())


for _fn in (_bool_arith, _bool_mask_math):
    case(_fn, *((B, x) for x in (U8, I8, F16, I64)))

# ------------------------------------------------------------------------- integer division


def _int_div_zero(x, d):
    return x // d, x % d, np.fmod(x, d), np.divmod(x, d)


def _int_div_negative(x, d):
    return x // -d, x % -d, -x // d, np.remainder(-x, d), np.fmod(-x, d)


def _int_div_scalar(x, d):
    a = x[0]
    return _try(lambda: a // d), _try(lambda: a % d), _try(lambda: divmod(a, d))


def _int_min_div(x, d):
    m = np.iinfo(x.dtype).min if x.dtype.kind == "i" else 0
    lo = np.array([m, m], x.dtype)
    return lo // -1, lo % -1, np.abs(lo), -lo


def _int_div_raise(x, d):
    with np.errstate(divide="raise", over="raise"):
        try:
            return x // d
        except FloatingPointError as e:
            return str(e)


for _fn in (_int_div_zero, _int_div_negative, _int_div_scalar, _int_min_div,
            _int_div_raise):
    case(_fn, *((x, d) for x in (I8, U8, I64) for d in (0, 3, 7)), calls=1)

# ------------------------------------------------------------------------- powers


def _neg_power(x, e):
    return _try(lambda: x ** e), _try(lambda: np.power(x, e)), \
        _try(lambda: x[1] ** e), _try(lambda: x ** np.array(e))


def _neg_power_float(x, e):
    return _try(lambda: x ** float(e)), _try(lambda: x.astype(np.float64) ** e), \
        _try(lambda: np.float_power(x, e))


for _fn in (_neg_power, _neg_power_float):
    case(_fn, *((x, e) for x in (I8, U8, I64, B) for e in (-1, 2, 0, -2)), calls=1)

# ------------------------------------------------------------------------- complex to real


def _complex_astype(c):
    return c.astype(np.float64), c.astype(np.int64), c.real.copy()


def _complex_store(c, f):
    f[:] = c
    return f


def _complex_item_store(c, f):
    try:
        f[0] = c[0]
    except TypeError as e:
        return type(e).__name__, str(e), f
    return f


def _complex_scalar_float(c, f):
    return _try(lambda: float(c[0])), _try(lambda: np.float64(c[1])), \
        _try(lambda: int(c[3])), _try(lambda: f + c[0])


def _complex_out(c, f):
    try:
        np.add(c, 1, out=f)
    except TypeError as e:
        return type(e).__name__, str(e), f
    return f


def _complex_copyto(c, f):
    try:
        np.copyto(f, c, casting="unsafe")
    except TypeError as e:
        return type(e).__name__, str(e)
    return f


def _complex_sum_dtype(c, f):
    return _try(lambda: c.sum(dtype=np.float64)), _try(lambda: np.real_if_close(c)), \
        _try(lambda: c.real + f)


for _fn in (_complex_astype,):
    case(_fn, (C,), (C[::2],))
for _fn in (_complex_store, _complex_item_store, _complex_scalar_float, _complex_out,
            _complex_copyto, _complex_sum_dtype):
    case(_fn, (C, np.zeros(4)), (C.real + 0j, np.zeros(4, np.float32)))


@scenario
def s_python_number_kinds(r):
    """One function ``x + s`` on one uint8 array, ``s`` changing kind and size every
    call: a guard or the graph's input must follow it (1, 300, True, 1.5, -1, 2**70)."""
    def f(x, s):
        return _try(lambda: x + s), _try(lambda: (x * s).dtype)
    g = r.compile(f)
    for s in (1, 300, True, 1.5, -1, 2 ** 70, 255, 256, np.int64(300), np.uint8(1), 1):
        r.call(g, U8.copy(), s)


# ------------------------------------------------------------------------- casts of values


def _cast_python_int(x, s):
    out = []
    for make in (lambda: np.array(s, dtype=x.dtype), lambda: x.dtype.type(s),
                 lambda: np.asarray([s, 1]).astype(x.dtype),
                 lambda: np.full(2, s).astype(x.dtype) if abs(s) < 2 ** 63 else None):
        try:
            v = make()
            out.append((v, _d(v)))
        except _ERRORS as e:
            out.append((type(e).__name__, str(e)))
    return out


for _x in SMALL:
    case(_cast_python_int, *((_x, s) for s in (1, 300, -1, 2 ** 70, 65504, 70000)),
         calls=1, name=f"cast_python_int_{_x.dtype.name}")


def _cast_out_of_range(x):
    f = x.astype(np.float64) * 1e3
    return (f.astype(np.int8), f.astype(np.uint8), f.astype(np.float16),
            (f * np.nan).astype(np.int64), np.float64(1e300).astype(np.float32))


def _scalar_overflow_warnings(x):
    a, b = x[0], x[-1]
    return a + b, a * b, a - b, -a, abs(a), a // np.ones(1, x.dtype)[0]


def _sum_dtype_default(x):
    return (x.sum(), _d(x.sum()), x.prod(), _d(x.prod()), np.add.reduce(x), x.mean(),
            _d(x.mean()), np.cumsum(x).dtype.str)


for _fn in (_cast_out_of_range, _scalar_overflow_warnings, _sum_dtype_default):
    case(_fn, *((x,) for x in (U8, I8, F16, F32, I64, B)))


def _mixed_arrays(a, b):
    return (a + b, _d(a + b), a * b.astype(np.float32), np.result_type(a, b).str,
            np.promote_types(a.dtype, b.dtype).str, np.can_cast(a.dtype, b.dtype),
            np.concatenate([a, b]).dtype.str, np.where(a > 0, a, b).dtype.str)


case(_mixed_arrays, (U8, I8), (I8, F16), (F16, F32), (U8, np.array([1, 2, 3, 4], np.uint64)),
     (I64, np.array([1, 2, 3, 4], np.uint64)), (B, U8), (F32, I64), (C[:4], F16))


def _weak_float_precision(x, s):
    return x + s, (x + s).dtype.str, x == s, np.float32(s) == s, x.astype(np.float64) + s


case(_weak_float_precision, *((F32, s) for s in (0.1, 1 / 3, 1e-45, 3.4e38, 3.5e38)),
     calls=1)
case(_weak_float_precision, *((F16, s) for s in (0.1, 65504.0, 65520.0, 6e-8)),
     calls=1, name="weak_float_precision_f16")


def _numpy_scalar_vs_python(x, s):
    a = x.dtype.type(3)
    return (a + s, _d(a + s), s + a, a * s, a ** 2, a / s if s else None,
            a == s, type(a.item()).__name__)


for _x in SMALL:
    case(_numpy_scalar_vs_python, *((_x, s) for s in (1, 2.5, True, -1, 200)),
         calls=1, name=f"numpy_scalar_vs_python_{_x.dtype.name}")


# ------------------------------------------------------------------------- constants only
# NumPy scalars of constants, which the trace may fold: their warnings and errors must
# still come on every call.

def _constant_overflows(x):
    a = np.uint8(200) + 100
    b = np.int8(127) + np.int8(1)
    c = np.float16(60000) * 2
    d = np.float32(1e38) * 10
    return x + a, b, c, d, np.int64(2) ** 63


def _constant_errors(x):
    out = []
    for make in (lambda: np.uint8(200) + 300, lambda: np.int8(5) ** -1,
                 lambda: np.uint8(-1), lambda: np.int32(7) // 0, lambda: np.int32(-7) % 0,
                 lambda: divmod(np.int8(-128), np.int8(-1))):
        try:
            out.append(make())
        except _ERRORS as e:
            out.append((type(e).__name__, str(e)))
    return x * 2, out


def _constant_complex_casts(x):
    return (float(np.complex128(1 + 2j)), np.array([1 + 1j]).astype(float),
            int(np.complex64(2 + 0j)), x.astype(complex).real.dtype.str)


for _fn in (_constant_overflows, _constant_errors, _constant_complex_casts):
    case(_fn, (np.ones(2),), (np.zeros(3, np.float32),))
