"""Round 46, constants (1 of 2): what a graph's code prints (``dynamo/graph_printable.py``:
every op argument must print as code that runs on its own, or the frame falls back).
Arguments that might print as an internal object or as the wrong value: symbolic
sizes as loop bounds, slice bounds and ``np.arange``/``np.linspace``/``np.full``
counts (the sizes change over five calls), ``Ellipsis`` and ``None`` in indices, slice
objects held in globals, complex constants with signed zeros and NaN parts, NaN,
infinities and ``-0.0``, big ints (past int64, at its edges, NEP 50 overflow), bytes,
frozensets, enums (``Enum``, ``IntEnum``, ``IntFlag``), nested tuples of pads and
axes, dtype objects (big-endian, structured), ``Fraction`` and ``Decimal``.

    >>> def _neg_zero(x):
    ...     return x * -0.0, np.maximum(x, -0.0), np.full(3, -0.0)
"""

import enum
from decimal import Decimal
from fractions import Fraction

import numpy as np
from hostile_check import Programs

reg = Programs("round46_consts")
case = reg.case
NAN = float("nan")
INF = float("inf")


def _v(n, k=0.0):
    return np.arange(n) * 0.5 - 1.0 + k


SIZES = tuple((_v(n),) for n in (5, 6, 7, 9, 12))


def sized(fn, **kw):
    case(fn, *SIZES, calls=1, **kw)


# ----------------------------------------------------------------------------- symbolic sizes

def _loop_bound(x):
    s = 0.0
    for i in range(len(x) - 1):
        s += x[i] * x[i + 1]
    return s


sized(_loop_bound)


def _slice_of_symbols(x):
    n = len(x)
    return x[1:n - 1], x[n // 2:], x[-(n - 2):], x[: n // 3 + 1]


sized(_slice_of_symbols)


def _slice_object_of_symbols(x):
    n = x.shape[0]
    s = slice(1, n - 1, 2)
    return x[s], s.indices(n), (s.start, s.stop)


sized(_slice_object_of_symbols)


def _arange_linspace(x):
    n = len(x)
    return np.arange(n) * 1.5, np.linspace(0.0, 1.0, n), np.arange(n - 3, n + 2)


sized(_arange_linspace)


def _full_and_zeros(x):
    n = x.shape[0]
    return np.full(n - 1, 2.5), np.zeros((2, n)), np.ones(n // 2, dtype=np.int8)


sized(_full_and_zeros)


def _size_in_float_math(x):
    n = len(x)
    return x * (n / 3.0), x.sum() / n, x ** (1.0 / n), float(n) ** 0.5


sized(_size_in_float_math)


def _size_as_reshape(x):
    n = x.shape[0]
    return x.reshape(n, 1) * x.reshape(1, n), np.tile(x, (2, 1)).shape


sized(_size_as_reshape)


def _size_in_tuple_kw(x):
    n = len(x)
    return np.pad(x, ((1, n % 3),)), np.roll(x, n // 2), np.split(x[: n - n % 2], 2)


sized(_size_in_tuple_kw)


def _size_in_while(x):
    i = len(x) - 1
    acc = 0.0
    while i > 0:
        acc += x[i]
        i -= 2
    return acc, i


sized(_size_in_while)


def _size_in_string(x):
    n = len(x)
    return f"{n}:{x.shape}", str(x.shape[0] - 1), x[: n - 2]


sized(_size_in_string)


def _size_as_index(x):
    n = len(x)
    y = x.copy()
    y[n - 1] = -1.0
    y[-n] = 7.0
    return y, x[n - 2], x[n // 2 - 1]


sized(_size_as_index)


def _size_big_multiple(x):
    n = len(x)
    return np.int64(n) * (2 ** 60), n * 2 ** 61, x * (n * 2 ** 40)


sized(_size_big_multiple)


# ----------------------------------------------------------------------------- odd constants

X = _v(6)


def _ellipsis_none(x):
    return x[..., 0], x[Ellipsis], x[None, ..., None], x[..., None, 1:]


case(_ellipsis_none, (X.reshape(2, 3),), (X.reshape(3, 2),))

HALF = slice(None, None, 2)
TAIL = slice(-2, None)


def _global_slices(x):
    return x[HALF], x[TAIL], x[HALF][TAIL]


case(_global_slices, (X,), (_v(9),))


def _complex_consts(x):
    return (x * complex(0, -0.0), x + 1j, x * complex(NAN, -0.0), x - complex(-0.0, INF),
            np.full(2, complex(-0.0, -0.0)))


case(_complex_consts, (X,), (X.astype(np.float32),))


def _nan_inf_consts(x):
    return (np.where(x > 0, x, NAN), x * NAN, np.clip(x, -INF, INF), np.maximum(x, NAN),
            np.nan_to_num(x / 0.0, nan=-0.0, posinf=INF, neginf=-INF))


case(_nan_inf_consts, (X,), (_v(3, 1.0),))


def _neg_zero(x):
    return x * -0.0, np.maximum(x, -0.0), np.full(3, -0.0), x + -0.0, np.copysign(1.0, -0.0 * x)


case(_neg_zero, (X,), (np.array([0.0, -0.0]),))


def _big_ints(x):
    a = x.astype(np.int64)
    return (a + 2 ** 62, a * (2 ** 63 - 1), a - (-2 ** 63), np.full(2, 2 ** 63 - 1),
            x + 2 ** 70, np.uint64(2 ** 64 - 1) + np.uint64(0))


case(_big_ints, (X,), (np.array([1.0, 2.0]),))


def _int_too_big_for_dtype(x):
    try:
        return x.astype(np.int8) + 300
    except OverflowError as e:
        return "overflow", str(e)


case(_int_too_big_for_dtype, (X,), (np.array([3.0]),))


def _int_past_int64(x):
    try:
        return x.astype(np.int64) * 2 ** 64
    except OverflowError as e:
        return "overflow", str(e)


case(_int_past_int64, (X,))


def _bytes_consts(x):
    b = np.frombuffer(b"\x00\x01\x02\xff", dtype=np.uint8)
    return x[: b.shape[0]] * b, x.astype(np.float32).tobytes() == b"", np.array([b"ab", b"c"])


case(_bytes_consts, (X,), (_v(4),))


KEYS = frozenset({1, 3, 5})


def _frozenset_consts(x, k):
    hit = k in KEYS
    return x * hit, np.isin(x, sorted(KEYS)), x[sorted(frozenset({0, 2}))]


case(_frozenset_consts, (X, 3), (X, 2))


class Color(enum.Enum):
    RED = 1.5
    BLUE = -0.0


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 3


class Perm(enum.IntFlag):
    R = 4
    W = 2


def _enum_consts(x):
    return (x * Color.RED.value, x * Level.HIGH, np.full(2, Level.LOW), x[Level.HIGH],
            x * (Perm.R | Perm.W), x + Color.BLUE.value)


case(_enum_consts, (X,), (_v(5),))


def _enum_argument(x, lv):
    return x * lv, x[:lv], type(lv).__name__


case(_enum_argument, (X, Level.LOW), (X, Level.HIGH), (X, 2))


def _nested_tuple_consts(x):
    m = x.reshape(2, 3)
    return (np.pad(m, ((1, 0), (0, 2)), constant_values=((-0.0, NAN), (1.0, 2.0))),
            np.transpose(m, (1, 0)), m.sum(axis=(0, 1)), np.tile(m, ((2,), (1,))[0]),
            np.moveaxis(m[None], (0, 1), (-1, -2)))


case(_nested_tuple_consts, (X,), (X * 2,))


def _dtype_consts(x):
    return (x.astype(np.dtype(">f8")), x.astype(np.dtype([("a", "<f8")])),
            x.astype("<U4"), x.astype(np.dtype("complex64")), x.view(np.dtype(">i8")))


case(_dtype_consts, (X,), (_v(2),))


def _fraction_decimal(x):
    return x * Fraction(1, 3), x[:2] * Decimal("1.5"), float(Fraction(1, 3)) * x


case(_fraction_decimal, (X,))


def _bool_consts(x):
    return x * True, x + np.True_, x[True], np.where(False, x, -x), x[np.bool_(False)]


case(_bool_consts, (X,), (_v(3),))


def _float_edge_consts(x):
    return (x * 1e308 * 10, x * 5e-324, x + np.finfo(np.float64).max,
            x.astype(np.float32) + np.float32(0.1), x * np.float16(65504))


case(_float_edge_consts, (X,), (np.array([1.0, -1.0]),))


def _round_consts(x):
    return np.round(x * 123.456, -1), np.round(x, 2), np.round(x, 400), np.around(x, -400)


case(_round_consts, (X,), (_v(3, 0.123),))


def _range_index(x):
    return x[range(0, 3)], x[list(range(1, 4, 2))], np.array(range(4)) * x[:4]


case(_range_index, (X,), (_v(7),))


def _tuple_kw_args(x):
    return (np.percentile(x, (25, 75)), np.histogram(x, bins=3, range=(-1.0, 1.5)),
            np.einsum("i,i->", x, x), np.pad(x, 2, mode="reflect"))


case(_tuple_kw_args, (X,), (_v(8),))


def _string_consts_in_graph(x):
    return np.char.add(x.astype("<U3"), "!"), np.array(["a", "bc"]), x.astype("S3")


case(_string_consts_in_graph, (X,))


def _none_and_notimplemented(x):
    return x.sum(axis=None), np.sort(x, axis=None), x.__add__(None) is NotImplemented


case(_none_and_notimplemented, (X,), (X.reshape(2, 3),))


def _time_consts(x):
    t = np.arange(3).astype("M8[s]")
    return (t + np.timedelta64(1, "s"), t - np.datetime64("1970-01-01T00:00:00"),
            np.timedelta64(5, "ms") * x[:2].astype(np.int64))


case(_time_consts, (X,))


def _type_consts(x):
    return (x.astype(float), x.astype(complex), x.astype(int), np.dtype(int).str,
            x.view(np.uint8)[:3], np.zeros(2, dtype=bool))


case(_type_consts, (X,), (_v(3),))


def _callable_consts(x):
    return (np.apply_along_axis(np.sum, 0, x.reshape(2, -1)),
            np.piecewise(x, [x < 0, x >= 0], [lambda v: v * 2, 0.5]),
            np.frompyfunc(lambda a: a + 1, 1, 1)(x[:2]), np.vectorize(abs)(x))


case(_callable_consts, (X,), (_v(4),))


def _reduce_kwargs(x):
    m = x > 0
    return (np.sum(x, where=m), np.sum(x, initial=-0.0), np.max(x, initial=-np.inf, where=m),
            np.add.reduce(x, axis=()), np.einsum("i,i", x, x, optimize=True))


case(_reduce_kwargs, (X,), (np.array([-1.0, -2.0]),))


def _pad_callable(x):
    def edge(vector, width, axis, kwargs):
        vector[: width[0]] = -0.0
        vector[len(vector) - width[1]:] = kwargs.get("v", 1.0)
    return np.pad(x, 2, mode=edge, v=NAN), np.pad(x, (1, 0), mode="edge")


case(_pad_callable, (X,))
