"""Round 22, Python numbers the graph computes (``dynamo/variables/graph_numbers.py``,
the op ``sym_number``) and Python float constants passed as typed NumPy scalars
(``backends/numpy_backend/typed_constants.py``).

``float(x)``, ``x.item()`` and ``int(x)`` of 0-d results of every dtype (float16/32/64,
int8..uint64, bool, complex: TypeError or ComplexWarning as plainly), of NaN, infinities,
``-0.0``, subnormals and huge values, then used in Python arithmetic whose algebra is
not a field's (``v - v`` of inf, ``v * 0`` of NaN, ``v + 1 - 1``, ``(v * 3) / 3``,
``v / v``, ``sum`` starting at int 0 with ``-0.0``, ``min``/``max`` with NaN and signed
zeros), comparisons, ``round``, ``math.*``, ``%``, ``//``, ``**``, list indices, range
bounds, dict keys, f-strings, attributes, and returned. Then float constants beside
float16/float32/int/bool/complex arrays and 0-d arrays: subnormal, ``-0.0``, NaN,
``1e308 * 10``, float16 overflow, floats that change every call, ``np.float32``
scalars, and an ndarray subclass whose ``__array_ufunc__`` sees the operand's type.

    >>> def _inf_minus_itself(x):
    ...     v = float(x.sum())      # inf
    ...     return v - v            # nan plainly; an algebra would say 0
"""

import math
import warnings

import numpy as np
from hostile_check import Programs

reg = Programs("round22_numbers")
case = reg.case
scenario = reg.scenario

F = np.linspace(0.5, 4.0, 8)
SPECIAL = [np.array([np.inf]), np.array([np.nan]), np.array([-0.0]), np.array([5e-324]),
           np.array([1.7e308, 1.7e308]), np.array([-np.inf]), np.array([0.1, 0.2])]


def num(fn, *inputs, name=None):
    case(fn, *(inputs or tuple((a,) for a in SPECIAL)), name=name)


# ------------------------------------------------------------- algebra that is not

def _inf_minus_itself(x):
    v = float(x.sum())
    return v - v


def _times_zero(x):
    v = float(x.sum())
    return v * 0, 0 * v, v * 0.0


def _plus_one_minus_one(x):
    v = float(x.sum()) * 1e-17
    return v + 1 - 1, (v + 1.0) - 1.0


def _times_three_over_three(x):
    v = float(x.mean())
    return (v * 3) / 3, v * 3 / 3 == v


def _over_itself(x):
    v = x.sum().item()
    return v / v if v else -1.0


def _sum_from_int_zero(x):
    v = float(x.sum())
    return sum([v, v]), sum([v], start=-0.0), sum((v,))


def _min_max(x):
    v = float(x.sum())
    return max(v, 0.0), max(0.0, v), min(v, 0.0), min(0.0, v), max(v, -0.0), min(-0.0, v)


def _double_negation(x):
    v = float(x.sum())
    return -(v * -1.0), v - 0.0, v + 0.0, 0.0 - v, -v + 0.0


def _associativity(x):
    v = float(x.sum())
    return (v + 1e16) + -1e16, v + (1e16 + -1e16), v * 1e308 * 1e-308, v * (1e308 * 1e-308)


def _distributive(x):
    v = float(x.mean())
    return 3 * (v + 0.1), 3 * v + 3 * 0.1, (v * 0.1) * 10


def _division_by_constant(x):
    v = float(x.sum())
    return v / 3, v // 3, v % 3, v % -3, v // -3, divmod(v, 7)


def _mod_of_negative_zero(x):
    v = float(x.sum())
    return v % 1.0, (-v) % 1.0, v // 1.0


num(_inf_minus_itself)
num(_times_zero)
num(_plus_one_minus_one)
num(_times_three_over_three, (F,), (F / 7,), (np.array([1e-320]),), (np.array([np.nan]),))
num(_over_itself)
num(_sum_from_int_zero)
num(_min_max)
num(_double_negation)
num(_associativity)
num(_distributive, (F,), (F * 1e300,), (np.array([np.nan]),))
num(_division_by_constant)
num(_mod_of_negative_zero)


# ------------------------------------------------------------- every dtype's 0-d value

DTYPES = ["float16", "float32", "float64", "longdouble", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "complex128"]


def _conversions(x):
    s = x.sum(dtype=x.dtype) if x.dtype != bool else x.any()
    out = []
    for conv in (float, int, lambda v: v.item()):
        try:
            v = conv(s)
            out.append((type(v).__name__, v * 2, v + 1))
        except (TypeError, ValueError, OverflowError) as e:
            out.append((type(e).__name__, str(e)))
    return out


def _float_only(x):
    v = float(x[0])
    return v, type(v).__name__, v * 3 + 1


def _item_only(x):
    v = x[0].item()
    return v, type(v).__name__, v * 3 + 1


def _int_only(x):
    v = int(x[0])
    return v, v * 3 + 1


for _dt in DTYPES:
    _vals = np.array([3, 1, 2]).astype(_dt)
    case(_conversions, (_vals,), name=f"conversions_{_dt}")
    case(_float_only, (_vals,), name=f"float_of_{_dt}")

case(_item_only, (np.array([2.5], np.float16),), (np.array([2.5], np.float32),),
     (np.array([7], np.uint64),), (np.array([1 + 2j]),), (np.array([True]),), name="item_kinds")
case(_int_only, (np.array([np.nan]),), (np.array([np.inf]),), (np.array([1e300]),),
     (np.array([-2.5], np.float16),), (np.array([2**63], np.uint64),), name="int_kinds")


def _huge_float16(x):
    v = float(x.astype(np.float16).sum())
    return v, v * 2, v - v


case(_huge_float16, (np.array([6e4, 6e4]),), (np.array([1.0, 2.0]),), name="float16_sum_overflows")


# ------------------------------------------------------------- what reads the number

def _compare(x):
    v = float(x.sum())
    return v > 0, v == v, v != v, v <= 0, 0 < v < 10


def _round(x):
    v = float(x.sum())
    return round(v, 2), round(v)


def _math_calls(x):
    v = float(x.sum())
    return math.floor(v), math.sqrt(v), math.log(v)


def _math_quiet(x):
    v = float(x.sum())
    return math.isnan(v), math.isinf(v), math.copysign(1.0, v), math.fabs(v), math.isfinite(v)


def _power(x):
    v = float(x.mean())
    return v ** 2, 2 ** v, v ** 0.5, v ** -1


def _as_index(x, items):
    v = int(x.sum())
    return items[v], items[v - 1]


def _as_range(x):
    return list(range(int(x.sum())))


def _as_key(x, d):
    v = float(x.sum())
    d[v] = d.get(v, 0) + 1
    return d


def _fstring(x):
    v = float(x.sum())
    return f"{v}", f"{v:.3e}", f"{v!r}", f"{v:+08.2f}", str(v * 2), repr(v / 3)


class Holder:
    pass


def _stored(x, h):
    v = float(x.sum())
    h.loss = v * 0.5
    h.history = getattr(h, "history", []) + [v]
    return h.loss


def _returned_twice(x):
    v = float(x.sum())
    w = v * 2
    return w, w, v is w


def _elementwise_operand(x):
    v = float(x.sum())
    return x.astype(np.float32) * (v * 2), x.astype(np.float16) + v, x * v


def _bool_of_number(x):
    v = float(x.sum())
    return bool(v), not v, v or 5.0, v and 5.0


def _hash_and_int(x):
    v = float(x.mean())
    return hash(v) == hash(v * 1), v.is_integer(), v.hex()


num(_compare)
num(_round)
num(_math_calls)
num(_math_quiet)
num(_power, (F,), (F * 1e200,), (np.array([-2.0]),), (np.array([0.0]),), (np.array([np.nan]),))
case(_as_index, (np.array([1, 2]), list(range(10))), (np.array([5, 9]), list(range(10))),
     (np.array([-3]), list(range(10))), name="as_list_index")
case(_as_index, (np.array([1.5, 2.0]), "abcdefgh"), (np.array([np.nan]), "abc"),
     name="float_as_index")
case(_as_range, (np.array([3]),), (np.array([2.9]),), (np.array([-1]),), (np.array([np.inf]),))
case(_as_key, (np.array([1.0]), {}), (np.array([np.nan]), {}), (np.array([-0.0]), {0.0: 5}),
     name="as_dict_key")
num(_fstring)
case(_stored, (F, Holder()), (np.array([np.nan]), Holder()), name="stored_on_object")
num(_returned_twice)
num(_elementwise_operand)
num(_bool_of_number)
num(_hash_and_int)


# ------------------------------------------------------------- typed float constants

def _typed_ops(x):
    return x * 0.1, 0.1 * x, x + 0.3, x - 0.7, 0.7 - x, x / 3.0, 3.0 / x, \
        np.maximum(x, 0.5), np.minimum(0.5, x)


def _typed_specials(x):
    return x * -0.0, x + -0.0, x - 0.0, np.maximum(x, -0.0), np.minimum(x, float("nan")), \
        x * (1e308 * 10), x + 1e-310, x * 5e-324


def _typed_big(x):
    return x * 65504.0, x * 65520.0, x + 1e5, x * 3.4e38, x * 3.5e38


def _typed_changing(x, t):
    return x * (1 - 0.9 ** t), x + t * 0.5


def _typed_0d(x):
    s = x.sum()
    a = np.asarray(s)
    return a * 0.1, s * 0.1, np.multiply(a, 0.1), a + 1e-8


def _typed_float32_scalar(x):
    return x * np.float32(0.1), x * np.float64(0.1), x * 0.1, np.float32(0.1) * 0.1


def _typed_int_and_bool(x):
    return x * 0.5, x + 0.25, x / 2.0, np.maximum(x, 0.5)


def _typed_complex(x):
    return x * 0.1, x + 0.5, np.maximum(x.real, 0.5)


def _typed_out_where(x):
    out = np.empty_like(x)
    np.multiply(x, 0.1, out=out)
    return out, np.add(x, 0.3, where=x > 1, out=np.zeros_like(x)), np.add(x, 0.3, dtype=np.float64)


def _typed_errstate(x):
    with np.errstate(over="raise"):
        return x * 1e30


def _typed_under(x):
    with np.errstate(under="raise"):
        return x * 1e-30


FLOATS = [np.linspace(-2, 2, 9).astype(t) for t in (np.float16, np.float32, np.float64)]
for _x in FLOATS:
    _t = _x.dtype.name
    case(_typed_ops, (_x,), name=f"typed_ops_{_t}")
    case(_typed_specials, (_x,), name=f"typed_specials_{_t}")
    case(_typed_big, (_x,), name=f"typed_big_{_t}")
    case(_typed_0d, (_x,), name=f"typed_0d_{_t}")
    case(_typed_float32_scalar, (_x,), name=f"typed_float32_scalar_{_t}")
    case(_typed_errstate, (_x,), name=f"typed_errstate_over_{_t}")
    case(_typed_under, (_x,), name=f"typed_errstate_under_{_t}")
case(_typed_changing, (FLOATS[0], 1), (FLOATS[0], 2), (FLOATS[1], 3), (FLOATS[1], 40),
     name="typed_changing")
case(_typed_int_and_bool, (np.arange(-3, 4, dtype=np.int8),), (np.arange(5) > 2,),
     (np.arange(5, dtype=np.uint64),), name="typed_int_and_bool")
case(_typed_complex, (np.linspace(0, 1, 4).astype(np.complex64),),
     (np.linspace(0, 1, 4) * 1j,), name="typed_complex")
case(_typed_out_where, (FLOATS[0],), (FLOATS[1],), name="typed_out_where")


class Seen(np.ndarray):
    """An ndarray subclass whose ufuncs record the types of their operands."""

    log: list = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        Seen.log.append((ufunc.__name__, [type(i).__name__ for i in inputs]))
        inputs = tuple(np.asarray(i) if isinstance(i, Seen) else i for i in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)


def _seen_ops(x):
    return x * 0.1, x + 0.5, np.maximum(x, 0.25)


case(_seen_ops, lambda: (np.linspace(0, 1, 5).astype(np.float32).view(Seen),),
     setup=Seen.log.clear, watch=lambda: list(Seen.log), name="subclass_sees_operand_types")


def _warned_conversion(x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return x * 1e300


case(_warned_conversion, (FLOATS[0],), (FLOATS[1],), (FLOATS[2],))


# ---------------------------------------------- the number's array written after the read

def _number_then_write(x):
    v = float(x[0:1].reshape(()))
    x[0] = 99.0
    return v * 2, v


def _item_then_inplace(x):
    s = x.sum()
    v = s.item()
    x += 1
    return v + 1, float(x.sum())


def _number_of_view_then_write(x):
    w = x[1:2].reshape(())
    v = float(w)
    w[...] = -5.0
    return v - 1, float(w) * 2


def _number_in_list_then_write(x, out):
    out.append(float(x.max()))
    x *= 0
    out.append(float(x.max()) + 1)
    return out


num(_number_then_write, (F,), (np.array([np.nan, 1.0]),))
num(_item_then_inplace, (F,), (np.array([np.inf, 1.0]),))
num(_number_of_view_then_write, (F,), (np.array([0.0, -0.0]),))
num(_number_in_list_then_write, (F, []), (np.array([np.nan]), []), name="number_in_list_then_write")


# ------------------------------------------------- ints, big ints and NumPy scalars beside it

def _min_max_ints(x):
    v = float(x.sum())
    return min(v, 2), max(v, 1), max(v, True), min(v, np.float32(1)), max(v, 2, 7.5), \
        min(v, 100)


def _times_huge_int(x):
    v = float(x.sum())
    try:
        return v * (10 ** 400)
    except OverflowError as e:
        return str(e)


def _floordiv_huge_int(x):
    v = float(x.sum())
    try:
        return v // (10 ** 400)
    except OverflowError as e:
        return str(e)


def _big_int_constants(x):
    v = float(x.sum())
    return v + (10 ** 17 + 1), v * (2 ** 53 + 1), v - 2 ** 63, (v * 3) % 2 ** 70


def _two_numbers(x):
    v = float(x.sum())
    w = x.sum().item()
    return v + w, v * w, max(v, w), v - w, (v, w)


def _sums_of_numbers(x):
    v = float(x.sum())
    return sum([v, 1]), sum([1, v, 2]), sum([v], 10), sum([v, v], -0.0)


def _odd_divisors(x):
    v = float(x.sum())
    return v / 10 ** 17, v % 7, v % -7.5, v // 0.1, v % 0.1


_MORE = [(np.array([3.0, 2.0]),), (np.array([np.nan]),), (np.array([-0.0]),),
         (np.array([np.inf]),), (np.array([1e308, 1e308]),)]
for _fn in (_min_max_ints, _times_huge_int, _floordiv_huge_int, _big_int_constants,
            _two_numbers, _sums_of_numbers, _odd_divisors):
    case(_fn, *_MORE)
