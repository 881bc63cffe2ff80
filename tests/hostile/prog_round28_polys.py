"""Round 28, ``np.poly1d`` arithmetic kept in the graph (``variables/polynomials.py``,
the op ``poly1d_result``): ``p + q``, ``p - 1.0``, ``2.0 * p``, ``p * q``, ``p ** k``,
``-p``, ``+p``, ``p.deriv``, ``p.integ``, ``np.polyder``/``polyint``/``polyadd``/
``polysub``/``polymul``, ``len(p)``, ``p[k]``. The programs aim at leading-zero trimming
(``p - p`` is the zero polynomial, ``[0.]``), int, bool, complex, float32 and object
coefficients, NumPy scalars and 0-d arrays as operands, polynomials passed in (and their
``_coeffs`` rebound or written between calls), poly1d subclasses, variables other than
``x``, and what NumPy refuses (``p ** -1``, ``p ** 1.5``, ``p[1.0]``).

    >>> def _add(c, d):
    ...     p, q = np.poly1d(c), np.poly1d(d)
    ...     return (p + q).coeffs, (p + q).variable
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round28_polys")
case = reg.case
scenario = reg.scenario

C = np.array([1.0, -2.0, 0.5])
D = np.array([0.0, 3.0, 1.0])
C_INT = np.array([2, -3, 1])
D_INT = np.array([0, 1, 4])
C_BOOL = np.array([True, False, True])
C_CPLX = np.array([1 + 1j, 0, -2j])
C_F32 = np.array([1.5, 0.0, -0.25], np.float32)
C_F16 = np.array([1.0, 2.0], np.float16)
C_U8 = np.array([3, 1, 255], np.uint8)
C_I8 = np.array([100, -100, 1], np.int8)
C_ZERO = np.zeros(3)
C_ONE = np.array([4.0])
C_NAN = np.array([np.nan, 1.0, 0.0])
C_INF = np.array([np.inf, -1.0])
C_NEGZ = np.array([-0.0, 0.0, -0.0])
C_OBJ = np.array([1, 2.5, 3], dtype=object)
XF = np.linspace(-1.0, 2.0, 4)

PAIRS = ((C, D), (C_INT, D_INT), (C_BOOL, C_BOOL), (C_CPLX, C), (C_F32, D),
         (C_ZERO, C), (C_ONE, C_ONE), (C_NAN, D), (C_INF, C_INF), (C_NEGZ, C_NEGZ),
         (C_U8, C_INT), (C_I8, C_I8), (C_F16, C_F32), (C, C))


def _full(p):
    """Everything observable of a polynomial result."""
    return p.coeffs, p.order, p.variable, len(p), type(p).__name__


# ------------------------------------------------------------------ binary operators

def _add(c, d):
    return _full(np.poly1d(c) + np.poly1d(d))


def _sub(c, d):
    return _full(np.poly1d(c) - np.poly1d(d))


def _sub_self(c, d):
    p = np.poly1d(c)
    return _full(p - p)


def _mul(c, d):
    return _full(np.poly1d(c) * np.poly1d(d))


def _mul_self(c, d):
    p = np.poly1d(c)
    return _full(p * p)


def _add_float(c, d):
    return _full(np.poly1d(c) + 1.5)


def _add_int(c, d):
    return _full(np.poly1d(c) + 3)


def _radd(c, d):
    return _full(2 + np.poly1d(c))


def _rsub(c, d):
    return _full(1.0 - np.poly1d(c))


def _rmul(c, d):
    return _full(0.5 * np.poly1d(c))


def _mul_zero(c, d):
    return _full(np.poly1d(c) * 0)


def _mul_bool(c, d):
    return _full(np.poly1d(c) * True)


def _div_float(c, d):
    return _full(np.poly1d(c) / 2.0)


def _div_int(c, d):
    return _full(np.poly1d(c) / 4)


def _div_zero(c, d):
    try:
        return _full(np.poly1d(c) / 0.0)
    except ZeroDivisionError as e:
        return "zde", str(e)


def _pow0(c, d):
    return _full(np.poly1d(c) ** 0)


def _pow1(c, d):
    return _full(np.poly1d(c) ** 1)


def _pow3(c, d):
    return _full(np.poly1d(c) ** 3)


def _pow_neg(c, d):
    try:
        return _full(np.poly1d(c) ** -1)
    except ValueError as e:
        return "refused", str(e)


def _pow_float(c, d):
    try:
        return _full(np.poly1d(c) ** 2.0)
    except ValueError as e:
        return "refused", str(e)


def _neg(c, d):
    return _full(-np.poly1d(c))


def _pos(c, d):
    p = np.poly1d(c)
    q = +p
    return q is p, _full(q)


def _inplace_add(c, d):
    p = np.poly1d(c)
    q = p
    p += np.poly1d(d)
    return p is q, _full(p), _full(q)


def _inplace_mul(c, d):
    p = np.poly1d(c)
    p *= 2
    return _full(p)


def _chain(c, d):
    p, q = np.poly1d(c), np.poly1d(d)
    r = (p + q) * (p - q) - p ** 2 + q * q
    return _full(r), r(XF)


def _mul_array(c, d):
    return _full(np.poly1d(c) * d)


def _add_array(c, d):
    return _full(np.poly1d(c) + d)


def _mul_np_scalar(c, d):
    return _full(np.poly1d(c) * np.float64(2.0))


def _mul_0d(c, d):
    return _full(np.poly1d(c) * np.array(2.0))


def _np_scalar_left(c, d):
    r = np.float32(2.0) * np.poly1d(c)
    return type(r).__name__, r


def _array_left(c, d):
    r = d + np.poly1d(c)
    return type(r).__name__, r


def _eval_result(c, d):
    p = np.poly1d(c) * np.poly1d(d) + 1.0
    return p(XF), p(2), p(0.5j)


def _variable_kept(c, d):
    p = np.poly1d(c, variable="t")
    q = np.poly1d(d, variable="s")
    return (p + q).variable, (p * 2).variable, (-p).variable, p.deriv().variable, \
        (+p).variable


def _compare_results(c, d):
    p, q = np.poly1d(c), np.poly1d(d)
    return (p + q) == (q + p), (p - p) == np.poly1d([0.0]), (p * 1) != p


def _str_result(c, d):
    p = np.poly1d(c) + np.poly1d(d)
    return str(p), repr(p)


def _coeff_identity(c, d):
    p = np.poly1d(c)
    q = p * 1
    return q.coeffs is p.coeffs, np.shares_memory(q.coeffs, c), q.coeffs is q.c


def _write_result_coeffs(c, d):
    q = np.poly1d(c) + np.poly1d(d)
    q.coeffs[-1] = 7
    return _full(q), c, d


for _fn in (_add, _sub, _sub_self, _mul, _mul_self, _add_float, _add_int, _radd, _rsub,
            _rmul, _mul_zero, _mul_bool, _div_float, _div_int, _div_zero, _pow0, _pow1,
            _pow3, _pow_neg, _pow_float, _neg, _pos, _inplace_add, _inplace_mul, _chain,
            _mul_array, _add_array, _mul_np_scalar, _mul_0d, _np_scalar_left, _array_left,
            _eval_result, _variable_kept, _compare_results, _str_result, _coeff_identity,
            _write_result_coeffs):
    case(_fn, *PAIRS)


# ------------------------------------------------------------------ deriv, integ, funcs

def _deriv(c, d):
    p = np.poly1d(c)
    return _full(p.deriv()), _full(p.deriv(2)), _full(p.deriv(m=5))


def _deriv_zero(c, d):
    p = np.poly1d(c)
    q = p.deriv(0)
    return q is p, _full(q)


def _integ(c, d):
    p = np.poly1d(c)
    return _full(p.integ()), _full(p.integ(2, 1.5)), _full(p.integ(k=3))


def _integ_k_list(c, d):
    p = np.poly1d(c)
    return _full(p.integ(2, [1.0, 2.0]))


def _integ_k_array(c, d):
    p = np.poly1d(c)
    return _full(p.integ(1, d[:1]))


def _polyder(c, d):
    p = np.poly1d(c)
    return _full(np.polyder(p)), _full(np.polyder(p, 3)), _full(np.polyder(p, m=2))


def _polyint(c, d):
    p = np.poly1d(c)
    return _full(np.polyint(p)), _full(np.polyint(p, 2, [0.5, 1])), \
        _full(np.polyint(p, k=2.0))


def _polyadd(c, d):
    p = np.poly1d(c)
    return _full(np.polyadd(p, d)), _full(np.polyadd(c, p)), _full(np.polyadd(p, p))


def _polysub(c, d):
    p = np.poly1d(c)
    return _full(np.polysub(p, d)), _full(np.polysub(d, p)), _full(np.polysub(p, p))


def _polymul(c, d):
    p = np.poly1d(c)
    return _full(np.polymul(p, d)), _full(np.polymul(d, p)), _full(np.polymul(p, 3.0))


def _polydiv(c, d):
    p = np.poly1d(c)
    try:
        q, r = np.polydiv(p, np.poly1d(d))
        return _full(q), _full(r)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def _len_item(c, d):
    p = np.poly1d(c)
    return len(p), p[0], p[1], p[len(p)], p[len(p) + 3], p[-1], type(p[0]).__name__


def _item_float_index(c, d):
    p = np.poly1d(c)
    try:
        return p[1.0]
    except TypeError as e:
        return "type error", str(e)


def _item_of_result(c, d):
    q = np.poly1d(c) * np.poly1d(d)
    return q[0], q[2], q[10], len(q)


def _setitem(c, d):
    p = np.poly1d(c)
    p[0] = 9
    p[5] = 1
    return _full(p), c


def _roots_of_result(c, d):
    q = np.poly1d(c) + np.poly1d(d)
    try:
        return np.sort_complex(q.roots)
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def _compose(c, d):
    return _full(np.poly1d(c)(np.poly1d(d)))


def _deriv_in_loop(c, d):
    p = np.poly1d(c)
    out = []
    for _ in range(4):
        p = p.deriv()
        out.append(_full(p))
    return out


def _integ_deriv_roundtrip(c, d):
    p = np.poly1d(c)
    return _full(p.integ().deriv()), (p.integ().deriv() == p)


def _deriv_after_print(c, d):
    p = np.poly1d(c) + 1
    print(len(p), p.order)
    return _full(p.deriv())


def _len_in_range(c, d):
    p = np.poly1d(c) * np.poly1d(d)
    return [p[k] for k in range(len(p) + 1)]


for _fn in (_deriv, _deriv_zero, _integ, _integ_k_list, _integ_k_array, _polyder,
            _polyint, _polyadd, _polysub, _polymul, _polydiv, _len_item, _item_float_index,
            _item_of_result, _setitem, _roots_of_result, _compose, _deriv_in_loop,
            _integ_deriv_roundtrip, _deriv_after_print, _len_in_range):
    case(_fn, *PAIRS)


# ------------------------------------------------------------------ object coefficients

def _obj_ops(c, d):
    p = np.poly1d(c)
    return _full(p + 1), _full(p * 2), _full(p.deriv()), p[1]


case(_obj_ops, (C_OBJ, D), (C, D), (C_INT, D), name="obj_coeffs")
case(_add, (C_OBJ, C_OBJ), (C, D), name="obj_add")
case(_neg, (C_OBJ, D), (C_INT, D), name="obj_neg")
case(_integ, (C_OBJ, D), (C, D), name="obj_integ")
