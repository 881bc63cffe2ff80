"""Round 18, dtypes and values at their edges, and the numpy backend's large paths:
float16 and int8/uint8 overflow, bool arithmetic, complex ordering and casts, integer
division by zero and negative integer powers, ``%``/``fmod`` signs, NaN in
``minimum``/``fmin``; object arrays (ints past int64, ``None``, lists); ``np.matrix``,
masked arrays and a tagged subclass flowing through ops; ``np.errstate``/``seterr``
nested around exceptions and breaks; globals, class attributes, closures and a
generator holding arrays the caller changes between calls, recursion, a compiled
function re-entered through a callback; and arrays of 2 MiB (kept result buffers) and
4M elements (block-wise groups on 2 threads): writes before reads, overlapping
``out=``, views of written temporaries, full float sums, errors mid-group.

    >>> def _big_sums(x):           # 4M float32: eager's pairwise sum, bit for bit
    ...     return (x * 3).sum(), x.mean()
"""

import warnings

import numpy as np
from hostile_check import Programs
from round18_values import I8, U8, B, G, X, Z, _brk, _readonly

reg = Programs("round18_dtypes")
case = reg.case
scenario = reg.scenario



# ------------------------------------------------------------------------- dtype corners

def _f16_overflow(x):
    h = x.astype(np.float16)
    return h * np.float16(30000), (h * 1e4).dtype


def _f16_sum(x):
    h = (x * 0 + 0.1).astype(np.float16)
    return h.sum(), h.cumsum()[-1], np.add.reduce(h, dtype=np.float32)


def _i8_wraps(x):
    return x * 2, x + x, -x, np.abs(x)


def _i8_scalar_overflow(x):
    return x[0] * np.int8(2), x[3] - np.int8(1), abs(x[3])


def _u8_subtract(x):
    return x - 1, x - np.uint8(1), np.uint8(0) - x[0]


def _bool_subtract(b):
    try:
        return b - b
    except TypeError as e:
        return str(e)


def _bool_negate(b):
    try:
        return -b
    except TypeError as e:
        return str(e), ~b


def _bool_arith(b):
    return b + b, b * b, b.sum(), b.mean(), (b * 1.5).dtype, b ^ True


def _complex_ops(z):
    return np.abs(z), np.angle(z), np.sqrt(z), np.sort(z), np.maximum(z, z[::-1])


def _complex_to_float(z):
    return z.astype(np.float64), z.real.copy()


def _complex_compare(z):
    return (z > 0), z.max(), np.argmax(z)


def _int_negative_power(x):
    try:
        return x ** -1
    except ValueError as e:
        return str(e)


def _int_floordiv_zero(x):
    return x // 0, x % 0, np.divmod(x, 0)


def _float_mod_signs(x):
    return x % -3.0, np.fmod(x, -3.0), np.remainder(-x, 3.0), x // -0.0


def _nan_min_max(x):
    return np.minimum(x, np.nan), np.fmin(x, np.nan), np.nanmax(x), x.max()


def _mixed_int_float32(x):
    return (x.astype(np.int32) + np.float32(1)).dtype.str, (x.astype(np.int64) * 1.5).dtype


case(_f16_overflow, (X,), (np.array([1.0, 3.0]),))
case(_f16_sum, (np.zeros(1000),), (np.zeros(3),))
case(_i8_wraps, (I8,), (U8,))
case(_i8_scalar_overflow, (I8,))
case(_u8_subtract, (U8,))
case(_bool_subtract, (B,))
case(_bool_negate, (B,))
case(_bool_arith, (B,), (np.zeros(0, dtype=bool),))
case(_complex_ops, (Z,))
case(_complex_to_float, (Z,))
case(_complex_compare, (Z,))
case(_int_negative_power, (np.arange(1, 4),), (np.arange(1.0, 4.0),))
case(_int_floordiv_zero, (np.arange(-2, 3),), (I8,))
case(_float_mod_signs, (X,), (np.array([-0.0, np.inf, 3.0]),))
case(_nan_min_max, (X,), (np.array([np.nan, 1.0]),))
case(_mixed_int_float32, (X,))


# ------------------------------------------------------------------------- object arrays

def _obj_big_ints(a):
    return a * 2, a.sum(), (a > 2**64).tolist()


def _obj_none(a):
    try:
        return a + 1
    except TypeError as e:
        return str(e)


def _obj_lists(a):
    return a.sum(), a + a


def _obj_to_float(a):
    try:
        return a.astype(np.float64)
    except (TypeError, OverflowError) as e:
        return type(e).__name__, str(e)


def _obj_mixed_with_float(a, x):
    return a[:x.size] * x[: a.size]


case(_obj_big_ints, lambda: (np.array([1, 2**70, -3], dtype=object),))
case(_obj_none, lambda: (np.array([1, None], dtype=object),))
case(_obj_lists, lambda: (np.array([None, None], dtype=object),))
case(_obj_to_float, lambda: (np.array([1, 2**2000], dtype=object),),
     lambda: (np.array([1.5, "2"], dtype=object),))
case(_obj_mixed_with_float, lambda: (np.array([1, 2.5, 2**65], dtype=object), X.copy()))


# ------------------------------------------------------------------------- subclasses

class Tagged(np.ndarray):
    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "none")


def _tagged():
    a = X.copy().view(Tagged)
    a.tag = "t"
    return (a,)


def _matrix_ops(m):
    return m * m, m.sum(axis=0), m[0], m.T @ m, np.asarray(m).sum(axis=0)


def _masked_ops(a):
    return (a + 1).filled(-1.0), a.sum(), (a / 0).filled(-2.0), a.mean()


def _tagged_flow(a):
    y = np.sqrt(np.abs(a)) + 1
    z = y[::2]
    return type(y).__name__, getattr(y, "tag", None), getattr(z, "tag", None), z


def _tagged_break(a):
    y = a * 2
    _brk()
    return getattr(y, "tag", None), y.sum()


case(_matrix_ops, lambda: (np.matrix([[1.0, 2.0], [3.0, 4.0]]),))
case(_masked_ops, lambda: (np.ma.masked_array(X.copy(), mask=[0, 1, 0, 0]),))
case(_tagged_flow, _tagged)
case(_tagged_break, _tagged)


# ------------------------------------------------------------------------- error state

def _errstate_nested(x):
    with np.errstate(divide="raise"):
        with np.errstate(divide="ignore"):
            a = 1.0 / x
        try:
            b = 1.0 / x
        except FloatingPointError as e:
            b = str(e)
    return a, b


def _seterr_finally(x):
    old = np.seterr(all="raise")
    try:
        return x / 0.0
    except FloatingPointError as e:
        return str(e)
    finally:
        np.seterr(**old)


def _errstate_escapes(x):
    with np.errstate(over="raise"):
        return x * 1e308


def _errstate_decorated(x):
    @np.errstate(invalid="ignore")
    def inner(v):
        return np.sqrt(v)
    return inner(x), np.sqrt(x)


def _seterr_leaks(x):
    np.seterr(over="ignore", invalid="raise")
    return x * 2


def _errstate_break_inside(x):
    with np.errstate(divide="ignore"):
        y = 1.0 / x
        _brk()
        z = np.log(x * 0)
    return y, z


case(_errstate_nested, (X,), (np.array([0.0, 1.0]),))
case(_seterr_finally, (X,), (np.zeros(2),))
case(_errstate_escapes, (X,), (np.array([0.5]),))
case(_errstate_decorated, (X,))
case(_seterr_leaks, (X,))
case(_errstate_break_inside, (X,), (np.array([0.0, 2.0]),))


# ------------------------------------------------------------------------- state around calls

W = np.array([1.0, 2.0, 3.0, 4.0])


def _set_w():
    global W
    W = np.array([1.0, 2.0, 3.0, 4.0])


def _global_array(x):
    return x * W


def _mutate_w(k):
    W[0] = 10.0 * k


def _rebind_w(k):
    global W
    W = np.ones(2 + k) * k


class Cfg:
    w = np.array([1.0, 2.0, 3.0, 4.0])


def _class_attr(x):
    return x * Cfg.w


def _set_cfg():
    Cfg.w = np.array([1.0, 2.0, 3.0, 4.0])


def _cfg_mutate(k):
    Cfg.w[1] = -k


def _cfg_rebind(k):
    Cfg.w = np.full(4, float(k))


case(_global_array, (X,), setup=_set_w, between=_mutate_w, calls=3, name="global_array_mutated")
case(_global_array, (X,), (G,), setup=_set_w, between=_rebind_w, calls=2,
     name="global_array_rebound")
case(_class_attr, (X,), setup=_set_cfg, between=_cfg_mutate, calls=3,
     name="class_attr_array_mutated")
case(_class_attr, (X,), setup=_set_cfg, between=_cfg_rebind, calls=3,
     name="class_attr_array_rebound")


@scenario
def s_closure_array_mutated(r):
    """A closure over an array the caller writes (and then rebinds through the cell)."""
    w = np.array([1.0, 2.0, 3.0, 4.0])

    def f(x):
        return x * w + w.sum()

    g = r.compile(f)
    r.call(g, X)
    w[2] = -9.0
    r.call(g, X)
    w = np.zeros(4)  # noqa: F841 (rebinding the cell is the point)
    r.call(g, X)


@scenario
def s_generator_over_mutated_array(r):
    """A generator over an array consumed one item per call while the array changes."""
    a = np.arange(6.0)
    gen = iter(a)

    def f(x, gen):
        return x * next(gen)

    g = r.compile(f)
    r.call(g, X, gen)
    a[1:] = 100.0
    r.call(g, X, gen)
    r.call(g, X, gen)


def _recurse(x, n):
    if n <= 0:
        return x
    return _recurse(x * 2 - 1, n - 1) + n


case(_recurse, (X, 3), (X, 0), (X, 6))


@scenario
def s_reentrant_callback(r):
    """The compiled function calls a callback that calls the compiled function."""
    box = {}

    def f(x, depth, cb):
        y = x * 2
        if depth > 0:
            y = y + cb(x, depth - 1)
        return y

    g = r.compile(f)
    box["g"] = g

    def cb(x, depth):
        return box["g"](x + 1, depth, cb)

    r.call(g, X, 0, cb)
    r.call(g, X, 2, cb)
    r.call(g, X, 3, cb)


@scenario
def s_reentrant_mutates_input(r):
    """A re-entered call writes the array the outer call is still using."""
    box = {}

    def f(x, depth):
        y = x.sum()
        if depth > 0:
            box["g"](x, depth - 1)
            x += 1
        return y, x.sum()

    g = r.compile(f)
    box["g"] = g
    x = X.copy()
    r.call(g, x, 0)
    r.call(g, x, 2)
    r.call(g, x, 1)


# ------------------------------------------------------------------------- large arrays
# The numpy backend's block-wise groups (from ``min_blocked_elements``, 4M elements) and
# its kept buffers (results of 1 MiB and more): the same aliasing, in-place and dtype
# programs where a fused loop or a reused buffer could see a write too early or late.

NB = 1 << 22
_RNG = np.random.default_rng(18)
BIG32 = (_RNG.standard_normal(NB)).astype(np.float32)
BIG64 = _RNG.standard_normal(1 << 18)
BIG_ZERO_LAST = np.linspace(1.0, 2.0, 1 << 18)
BIG_ZERO_LAST[-1] = 0.0
BIG_F = np.asfortranarray(BIG32.reshape(2048, 2048))


def _big_inplace_then_read(x):
    y = x * 2
    x += 1
    return y + x


def _big_overlap_iadd(x):
    x[1:] += x[:-1]
    return x


def _big_out_shifted(x):
    np.add(x[:-1], x[1:], out=x[1:])
    return x


def _big_view_after_write(x):
    v = x[::-1]
    x *= 2
    return v + 1


def _big_view_of_temp(x):
    a = x * 2
    b = a[::2]
    a += 1
    return b, a


def _big_sums(x):
    return (x * 3).sum(), x.mean(), (x * x).sum(dtype=np.float64), np.add.reduce(x + 1)


def _big_f16_sum(x):
    h = (x * 0.01).astype(np.float16)
    return (h * 2).sum(), h.max(), np.float16(h.mean())


def _big_int8_chain(x):
    i = (x * 50).astype(np.int8)
    return (i * 3 + 100) // 7, (i * i).sum()


def _big_raise_after_write(x):
    x[0] = 5.0
    with np.errstate(divide="raise"):
        try:
            y = 1.0 / x
        except FloatingPointError as e:
            return str(e), x[:3]
    return y


def _big_readonly(x):
    y = x * 2 + 1
    try:
        x += 1
    except ValueError as e:
        return str(e), y
    return y


def _big_where_out(x):
    np.add(x, 1, out=x, where=x > 0)
    return x * 2


def _big_returned_views(x):
    y = x * 2
    return y, y[::2], y.reshape(2, -1)


def _big_out_chain(x, o):
    np.multiply(x, 2, out=o)
    o += x
    return o * 1


def _big_out_is_input_chain(x):
    np.sin(x, out=x)
    np.add(x, 1, out=x)
    x *= x
    return x


def _big_log_warnings(x):
    return np.log(x - 1.0), np.sqrt(x - 1.5)


def _big_strided(x):
    return x[::2] * 2 + x[1::2], x[::-1] * 3


def _big_fortran(a):
    return a * 2 + 1, (a * a).sum(axis=0), np.exp(a.T)


def _big_mask(x):
    return x[x > 0].sum(), (x > 0).sum(), np.where(x > 0, x, -x)


def _big_clip_self(x):
    np.clip(x, 0, 1, out=x)
    return x * 2


@scenario
def s_big_seterrcall_once_per_op(r):
    """A ``seterrcall`` callback counts its calls: once per op per call, as plainly."""
    seen = []

    def cb(kind, flag):
        seen.append(kind)

    def f(x):
        with np.errstate(all="call", call=cb):
            return np.log(x - 1.0) * 2

    g = r.compile(f)
    for _ in range(2):
        r.call(g, BIG32)
        r.see("callback calls", list(seen))


@scenario
def s_big_results_kept_across_calls(r):
    """Large results kept by the caller while the next call runs; then written."""
    def f(x):
        return x * 2 + 1

    g = r.compile(f)
    a = r.call(g, BIG64)
    b = r.call(g, BIG64 * 3)
    a[:10] = -1.0
    c = r.call(g, BIG64)
    r.see("a, b, c", [a[:12], b[:12], c[:12], a is c])


case(_big_inplace_then_read, (BIG32,), (BIG64,), calls=1)
case(_big_overlap_iadd, (BIG64,), calls=1)
case(_big_out_shifted, (BIG64,), calls=1)
case(_big_view_after_write, (BIG64,), calls=1)
case(_big_view_of_temp, (BIG32,), (BIG64,), calls=1)
case(_big_sums, (BIG32,), (BIG64,), calls=1)
case(_big_f16_sum, (BIG32,), calls=1)
case(_big_int8_chain, (BIG64,), calls=1)
case(_big_raise_after_write, (BIG_ZERO_LAST,), (BIG64 * 0 + 2.0,), calls=1)
case(_big_readonly, lambda: (_readonly(BIG64),), calls=1)
case(_big_where_out, (BIG64,), calls=1)
case(_big_returned_views, (BIG64,), calls=1)
case(_big_out_chain, (BIG32, np.empty_like(BIG32)), lambda: (BIG64.copy(), np.empty(1 << 18)),
     calls=1)
case(_big_out_is_input_chain, (BIG32,), (BIG64,), calls=1)
case(_big_log_warnings, (BIG64,), calls=1)
case(_big_strided, (BIG64,), calls=1)
case(_big_fortran, (BIG_F,), calls=1)
case(_big_mask, (BIG64,), calls=1)
case(_big_clip_self, (BIG64,), calls=1)


BIG_I64 = np.arange(NB, dtype=np.int64) % 7
BIG_ZERO32 = BIG32.copy()
BIG_ZERO32[NB - 3] = 0.0


def _big_int_div_raise(x):
    x += 1
    with np.errstate(divide="raise"):
        try:
            return x // (x % 7)
        except FloatingPointError as e:
            return str(e), x[:4]


def _big_write_then_raise(x):
    x *= 2
    with np.errstate(divide="raise"):
        y = 1.0 / x
    return y


def _big_warning_filter_error(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return np.log(x * 2)
        except RuntimeWarning as e:
            return str(e)


case(_big_int_div_raise, (BIG_I64,), calls=1)
case(_big_write_then_raise, (BIG_ZERO32,), calls=1)
case(_big_warning_filter_error, (BIG_ZERO32,), calls=1)
