"""Round 6, arrays: ``__array_ufunc__``/``__array_function__`` classes and ndarray
subclasses with ``__array_finalize__`` (``np.matrix``, masked arrays), structured dtypes
and record arrays, ``np.errstate`` as a decorator, object-dtype arrays, ``np.nditer``,
in-place ops on views that alias the inputs, ``out=`` aliasing, ``np.int8`` scalar
overflow, ``np.longdouble``, datetime64/timedelta64 arithmetic and string arrays: each
must be exact or fall back."""

import fractions
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round6_arrays")
case, scenario = reg.case, reg.scenario

X = np.array([1.0, -2.0, 3.0, 0.5])
M = np.arange(6.0).reshape(2, 3)
I8 = np.array([100, 120, -128, 7], dtype=np.int8)


# ============================================================================ protocols

class Logged:
    """An array-like whose ufuncs and functions are logged, then run on its data."""

    def __init__(self, a):
        self.a = np.asarray(a)
        self.log = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        self.log.append((ufunc.__name__, method))
        inputs = [i.a if isinstance(i, Logged) else i for i in inputs]
        return Logged(getattr(ufunc, method)(*inputs, **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        self.log.append(func.__name__)
        args = [a.a if isinstance(a, Logged) else a for a in args]
        return func(*args, **kwargs)


def _array_ufunc_object(x, o):
    y = np.add(o, x)
    z = np.multiply.reduce(o)
    return y.a, z.a, o.log


case(_array_ufunc_object, (X, Logged(X)))


def _array_ufunc_operator(x, o):
    y = x * o
    return type(y).__name__, y.a, o.log


case(_array_ufunc_operator, (X, Logged(X)))


def _array_function_object(x, o):
    s = np.sum(o)
    c = np.concatenate([o, x]) if False else np.mean(o)
    return s, c, o.log


case(_array_function_object, (X, Logged(X)))


class NoUfuncs:
    __array_ufunc__ = None

    def __radd__(self, other):
        return "radd"


def _array_ufunc_none(x, o):
    r1 = x + o
    try:
        np.add(x, o)
    except TypeError as e:
        return r1, str(e)
    return r1, "no error"


case(_array_ufunc_none, (X, NoUfuncs()))


class Tagged(np.ndarray):
    """A user ndarray subclass with ``__array_finalize__`` copying a tag."""

    def __new__(cls, a, tag="t"):
        obj = np.asarray(a).view(cls)
        obj.tag = tag
        return obj

    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "none")


def _subclass_ops_keep_type(x):
    y = x * 2 + 1
    return type(y).__name__, y.tag, np.asarray(y), type(x[1:]).__name__, x[1:].tag


case(_subclass_ops_keep_type, lambda: (Tagged(X.copy(), "a"),))


def _subclass_reduction(x):
    s = x.sum()
    m = np.mean(x)
    return type(s).__name__, float(s), type(m).__name__


case(_subclass_reduction, lambda: (Tagged(X.copy(), "b"),))


def _subclass_made_inside(x):
    t = Tagged(x, "inside")
    u = t + x
    return type(u).__name__, u.tag, np.asarray(u)


case(_subclass_made_inside, (X,))


def _subclass_view_cast(x):
    v = x.view(Tagged)
    v[0] = 42.0
    return v.tag, x


case(_subclass_view_cast, (X.copy(),))


class Wrapping(np.ndarray):
    def __array_wrap__(self, arr, context=None, return_scalar=False):
        self.wrapped = getattr(self, "wrapped", 0) + 1
        return np.asarray(arr) * 0 + 7


def _array_wrap_override(x):
    return np.sin(x), type(np.sin(x)).__name__


case(_array_wrap_override, lambda: (X.copy().view(Wrapping),))


def _matrix_mul(a, b):
    c = a * b
    return type(c).__name__, np.asarray(c), (a ** 2).tolist()


def _matrix(rows):
    with warnings.catch_warnings():   # (np.matrix is "pending deprecation")
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix(rows)


case(_matrix_mul, lambda: (_matrix([[1.0, 2.0], [3.0, 4.0]]), _matrix([[0.0, 1.0], [1.0, 0.0]])))


def _matrix_row_is_2d(a):
    r = a[0]
    return r.shape, a.sum(axis=1).shape, a.ravel().shape


case(_matrix_row_is_2d, lambda: (_matrix([[1.0, 2.0], [3.0, 4.0]]),))


def _masked_array_ops(m):
    y = m * 2 + 1
    return np.ma.getdata(y), np.ma.getmaskarray(y), float(y.sum()), y.mean()


case(_masked_array_ops, lambda: (np.ma.masked_array(X.copy(), mask=[0, 1, 0, 0]),))


def _masked_divide_by_zero(m):
    y = 1.0 / m
    return np.ma.getdata(y), np.ma.getmaskarray(y)


case(_masked_divide_by_zero, lambda: (np.ma.masked_array([1.0, 0.0, 2.0]),))


def _masked_fill_value(m):
    return m.filled(-1.0), m.count(), np.ma.is_masked(m)


case(_masked_fill_value, lambda: (np.ma.masked_less(X.copy(), 0),))


def _masked_inplace(m):
    m += 1
    m[0] = np.ma.masked
    return np.ma.getdata(m), np.ma.getmaskarray(m)


case(_masked_inplace, lambda: (np.ma.masked_array(X.copy(), mask=[0, 0, 1, 0]),))


# ============================================================================ structured

REC = np.dtype([("x", "f8"), ("n", "i4"), ("name", "U3")])


def _structured_field_math(s):
    return s["x"] * s["n"], s["name"], s.dtype.names


case(_structured_field_math, lambda: (np.array([(1.5, 2, "ab"), (-1.0, 3, "c")], dtype=REC),))


def _structured_field_write(s, x):
    s["x"] = x[:2]
    s[0] = (9.0, 9, "z")
    return s


case(_structured_field_write, lambda: (np.zeros(2, dtype=REC), X.copy()))


def _structured_sort_by_field(s):
    return np.sort(s, order="n"), np.argsort(s, order=["x"])


case(_structured_sort_by_field, lambda: (np.array([(1.5, 2, "ab"), (-1.0, 1, "c"),
                                                   (0.0, 2, "d")], dtype=REC),))


def _record_array_attr(s):
    r = s.view(np.recarray)
    r.x += 1
    return r.x * 2, s["x"], type(r.n).__name__


case(_record_array_attr, lambda: (np.array([(1.5, 2, "ab"), (-1.0, 3, "c")], dtype=REC),))


def _structured_multi_field_view(s):
    v = s[["x", "n"]]
    return v.dtype.names, v.dtype.itemsize, v.tolist()


case(_structured_multi_field_view, lambda: (np.zeros(2, dtype=REC),))


def _structured_compare(s, t):
    return s == t, np.array_equal(s, t)


case(_structured_compare, lambda: (np.zeros(2, dtype=REC), np.zeros(2, dtype=REC)))


def _subarray_dtype(x):
    dt = np.dtype([("v", "f8", (2,))])
    a = np.zeros(2, dtype=dt)
    a["v"] = x.reshape(2, 2)
    return a["v"] * 2, a["v"].shape


case(_subarray_dtype, (X,))


# ============================================================================ errstate decorator

@np.errstate(divide="ignore", invalid="ignore")
def _quiet_divide(a, b):
    return a / b


def _errstate_decorator_callee(x):
    return _quiet_divide(x, x * 0)


case(_errstate_decorator_callee, (X,))


@np.errstate(all="raise")
def _raising_log(x):
    return np.log(x)


def _errstate_decorator_raise(x):
    try:
        return _raising_log(x)
    except FloatingPointError as e:
        return str(e)


case(_errstate_decorator_raise, (X,), (np.abs(X),))


def _errstate_decorated_compiled(x):
    return 1.0 / (x - x)


case(_errstate_decorated_compiled, (X,), compile_kwargs=None, name="errstate_plain_warns")


def _errstate_nested_restore(x):
    with np.errstate(divide="ignore"):
        a = 1 / (x * 0)
        with np.errstate(divide="raise"):
            try:
                b = 1 / (x * 0)
            except FloatingPointError:
                b = None
        c = 1 / (x * 0)
    return a, b, c, np.geterr()["divide"]


case(_errstate_nested_restore, (X,))


def _seterr_inside(x):
    old = np.seterr(invalid="ignore")
    try:
        return np.sqrt(-x)
    finally:
        np.seterr(**old)


case(_seterr_inside, (X,))


# ============================================================================ object dtype

def _object_array_fractions(a):
    return a * 2 + fractions.Fraction(1, 3), a.sum(), a.dtype


case(_object_array_fractions,
     lambda: (np.array([fractions.Fraction(1, 2), fractions.Fraction(2, 3)], dtype=object),))


def _object_array_mixed(a):
    return a + a, [type(v).__name__ for v in a]


case(_object_array_mixed, lambda: (np.array([1, 2.5, "s"], dtype=object),))


def _object_array_of_lists(a):
    a[0].append(99)
    return a, len(a[0])


case(_object_array_of_lists, lambda: (np.array([[1], [2, 3]], dtype=object),))


def _object_array_identity(a, o):
    a[1] = o
    return a[1] is o, a


case(_object_array_identity, lambda: (np.empty(2, dtype=object), [1, 2]))


def _object_array_ufunc_calls_method(a):
    return np.sqrt(a)


case(_object_array_ufunc_calls_method, lambda: (np.array([4.0, 9.0], dtype=object),),
     lambda: (np.array(["x"], dtype=object),))


def _object_array_bigint(a):
    return a * a * a, (a ** 5)[0]


case(_object_array_bigint, lambda: (np.array([10 ** 20, 3], dtype=object),))


# ============================================================================ nditer

def _nditer_readwrite(x):
    with np.nditer(x, op_flags=[["readwrite"]]) as it:
        for v in it:
            v[...] = v * 2
    return x


case(_nditer_readwrite, (X.copy(),))


def _nditer_multi_index(m):
    it = np.nditer(m, flags=["multi_index"])
    out = []
    for v in it:
        out.append((it.multi_index, float(v)))
    return out


case(_nditer_multi_index, (M,))


def _nditer_broadcast_pair(a, b):
    return [(float(p), float(q)) for p, q in np.nditer([a, b])]


case(_nditer_broadcast_pair, (X[:2], M[:, :1]))


def _ndindex_ndenumerate(m):
    s = 0.0
    for idx in np.ndindex(m.shape):
        s += m[idx]
    return s, [(i, float(v)) for i, v in np.ndenumerate(m)][:3]


case(_ndindex_ndenumerate, (M,))


def _flat_iter_assign(m):
    m.flat[::2] = -1.0
    return m, list(m.flat)[:3]


case(_flat_iter_assign, (M.copy(),))


# ============================================================================ aliasing views

def _inplace_reversed_view(x):
    x += x[::-1]
    return x


case(_inplace_reversed_view, (X.copy(),))


def _inplace_shifted_view(x):
    x[1:] += x[:-1]
    return x


case(_inplace_shifted_view, (X.copy(),))


def _inplace_transpose_self(m):
    m += m.T
    return m


case(_inplace_transpose_self, (np.arange(9.0).reshape(3, 3),))


def _out_aliases_input(x, y):
    np.add(x, y, out=y)
    np.multiply(y, 2, out=x)
    return x, y


case(_out_aliases_input, (X.copy(), X.copy() * 3))


def _out_same_array_twice(x):
    return np.add(x, x, out=x), np.subtract(x[1:], x[:-1], out=x[:-1])


case(_out_same_array_twice, (X.copy(),))


def _out_tuple_divmod(x):
    q = np.empty_like(x)
    r = np.empty_like(x)
    res = np.divmod(x, 2.0, out=(q, r))
    return res[0] is q, res[1] is r, q, r


case(_out_tuple_divmod, (X,))


def _out_wrong_dtype(x):
    out = np.zeros(4, dtype=np.int64)
    try:
        np.multiply(x, 2.5, out=out)
    except TypeError as e:
        return str(e)[:60]
    return out


case(_out_wrong_dtype, (X,))


def _views_of_same_arg_passed_twice(a, b):
    a[:] = b * 2
    return a, b


@scenario
def s_views_of_same_arg(r):
    base = X.copy()
    f = r.compile(_views_of_same_arg_passed_twice)
    r.call(f, base[:2], base[1:3])
    r.see("base", base)
    r.call(f, base[:2], base[1:3])
    r.see("base", base)


def _diagonal_write_through(m):
    d = np.einsum("ii->i", m)
    d += 10
    return m


case(_diagonal_write_through, (np.zeros((3, 3)),))


def _as_strided_overlap(x):
    from numpy.lib.stride_tricks import as_strided
    w = as_strided(x, shape=(3, 2), strides=(x.strides[0], x.strides[0]), writeable=False)
    return w.sum(axis=1), w.flags.writeable


case(_as_strided_overlap, (X,))


def _sliding_window_mean(x):
    from numpy.lib.stride_tricks import sliding_window_view
    return sliding_window_view(x, 2).mean(axis=-1)


case(_sliding_window_mean, (X,), (np.arange(7.0),))


def _broadcast_to_readonly_write(x):
    b = np.broadcast_to(x, (2, 4))
    try:
        b[0, 0] = 1
    except ValueError as e:
        return str(e)
    return b


case(_broadcast_to_readonly_write, (X,))


def _readonly_arg_write(x):
    try:
        x[0] = 5
    except ValueError as e:
        return str(e)
    return x


def _readonly_input():
    a = X.copy()
    a.flags.writeable = False
    return (a,)


case(_readonly_arg_write, _readonly_input)


def _readonly_arg_inplace_op(x):
    try:
        x *= 2
    except ValueError as e:
        return str(e)
    return x


case(_readonly_arg_inplace_op, _readonly_input)


# ============================================================================ integer scalars

def _int8_scalar_overflow(a):
    return a[0] + a[1], a[2] - np.int8(1), -a[2], abs(a[2])


case(_int8_scalar_overflow, (I8,))


def _int8_array_overflow(a):
    return a + a, a * np.int8(3), np.negative(a), a.sum(), a.sum(dtype=np.int8)


case(_int8_array_overflow, (I8,))


def _int8_times_python_int(a):
    try:
        return a * 300
    except OverflowError as e:
        return str(e)


case(_int8_times_python_int, (I8,))


def _int8_scalar_times_python_int(a):
    try:
        return a[0] * 300
    except OverflowError as e:
        return str(e)


case(_int8_scalar_times_python_int, (I8,))


def _uint8_wraparound(a):
    u = a.astype(np.uint8)
    return u - np.uint8(200), u[0] - u[1], (u + 1).dtype


case(_uint8_wraparound, (I8,))


def _int_floor_div_by_zero(a):
    return a // np.int8(0), a % np.int8(0)


case(_int_floor_div_by_zero, (I8,))


def _int64_min_abs(a):
    m = np.array([np.iinfo(np.int64).min, 5])
    return np.abs(m), m // -1, a


case(_int64_min_abs, (I8,))


def _int_power_negative(a):
    try:
        return a ** -1
    except ValueError as e:
        return str(e)


case(_int_power_negative, (np.arange(1, 4),))


def _bool_arithmetic(x):
    b = x > 0
    try:
        return b + b, b * 3, b - b
    except TypeError as e:
        return str(e)[:60]


case(_bool_arithmetic, (X,))


# ============================================================================ longdouble

def _longdouble_precision(x):
    a = x.astype(np.longdouble)
    return a + np.longdouble(1e-19), (a / 3).dtype, a.sum()


case(_longdouble_precision, (X,))


def _longdouble_scalar_math(x):
    s = np.longdouble(1) / np.longdouble(3)
    return x * s, type(s * 2).__name__


case(_longdouble_scalar_math, (X,))


def _float16_rounding(x):
    h = x.astype(np.float16)
    return h * np.float16(1000.1), (h + h).dtype, np.float16(65504) * 2


case(_float16_rounding, (X,))


def _complex_conj_angle(x):
    z = x + 1j * x[::-1]
    return z.conj() * z, np.angle(z), np.abs(z).dtype


case(_complex_conj_angle, (X,))


# ============================================================================ datetime

D = np.array(["2024-01-31", "2024-02-29", "2023-12-31"], dtype="datetime64[D]")


def _datetime_plus_timedelta(d):
    return d + np.timedelta64(1, "D"), (d - d[0]).astype(int), np.diff(d)


case(_datetime_plus_timedelta, (D,))


def _datetime_month_unit(d):
    m = d.astype("datetime64[M]")
    return m + np.timedelta64(1, "M"), (m - m[2]).dtype


case(_datetime_month_unit, (D,))


def _timedelta_division(d):
    td = d - np.datetime64("2024-01-01")
    return td / np.timedelta64(1, "h"), td // np.timedelta64(7, "D"), td.sum()


case(_timedelta_division, (D,))


def _datetime_nat(d):
    e = d.copy()
    e[1] = np.datetime64("NaT")
    return e, np.isnat(e), e.max(), (e - e[0])


case(_datetime_nat, (D,))


def _datetime_compare_sort(d):
    return np.sort(d), d > np.datetime64("2024-01-01"), np.argmax(d)


case(_datetime_compare_sort, (D,))


def _busday(d):
    return np.busday_count(d[2], d[0]), np.is_busday(d)


case(_busday, (D,))


def _datetime_arange(d):
    return np.arange(d[2], d[0], np.timedelta64(10, "D"))


case(_datetime_arange, (D,))


# ============================================================================ strings

S = np.array(["apple", "Bob", "", "cherry pie"])


def _string_array_ops(s):
    return np.char.upper(s), np.char.str_len(s), s + "!"


case(_string_array_ops, (S,))


def _string_compare_sort(s):
    return np.sort(s), s == "Bob", s < "b", np.unique(s)


case(_string_compare_sort, (S,))


def _string_truncation_on_assign(s):
    s[0] = "a much longer string than fits"
    return s, s.dtype


case(_string_truncation_on_assign, (S.copy(),))


def _bytes_array(b):
    return b + b"x", b.dtype, np.char.decode(b, "ascii")


case(_bytes_array, (np.array([b"ab", b"c"]),))


def _string_where_fill(s):
    return np.where(s == "", "<empty>", s)


case(_string_where_fill, (S,))


def _string_to_float(s):
    return s.astype(float) * 2


case(_string_to_float, (np.array(["1.5", "-2", "1e3"]),), (np.array(["x"]),))


def _strings_in_structured_sum(s):
    try:
        return s.sum()
    except TypeError as e:
        return type(e).__name__
    except Exception as e:  # noqa: BLE001 (numpy's error class varies by version)
        return type(e).__name__


case(_strings_in_structured_sum, (S,))
