"""Round 26, ``np.poly1d`` made inside the compiled function
(``variables/polynomials.py``: the coefficients are the op ``poly1d_coeffs``, NumPy's
own trim of the leading zeros, a view of the argument; ``p(x)`` and ``np.polyval`` are
``poly1d_value``). The programs check aliasing (``p.coeffs`` is a view of ``c`` or a
copy exactly where NumPy's is; writes through ``p.coeffs`` reach ``c``; ``p.coeffs is
p.c``), all-zero and 0-d coefficients, int, bool, complex and float32 coefficients,
``p(x)`` of ints, complex, 0-d arrays, Python scalars and lists, ``np.polyval`` of the
object, and what breaks (``p.roots``, ``p + q``, ``p[k]``, ``p.deriv()``).

    >>> def _value(c, x):
    ...     p = np.poly1d(c)
    ...     return p(x), p.order
"""

import numpy as np
from hostile_check import Programs

reg = Programs("round26_polys")
case = reg.case
scenario = reg.scenario

C = np.array([1.0, -2.0, 0.5])
C_LEAD0 = np.array([0.0, 0.0, 3.0, 1.0])
C_ZERO = np.zeros(3)
C_NEGZERO = np.array([-0.0, 0.0, 2.0])
C_INT = np.array([0, 2, -3, 1])
C_BOOL = np.array([False, True, True])
C_CPLX = np.array([1 + 1j, 0, -2j])
C_F32 = np.array([0.0, 1.5, -0.25], np.float32)
C_NAN = np.array([np.nan, 1.0])
C_ONE = np.array([4.0])
C_EMPTYISH = np.zeros(1)
C_0D = np.array(2.5)
C_BIG = np.array([1e308, 1e308, 1.0])
COEFFS = (C, C_LEAD0, C_ZERO, C_NEGZERO, C_INT, C_BOOL, C_CPLX, C_F32, C_NAN, C_ONE,
          C_EMPTYISH, C_0D, C_BIG)
XF = np.linspace(-1.0, 2.0, 5)
XI = np.arange(-2, 3)
XC = np.array([1j, 1 - 1j])
X0 = np.array(3.0)


def _value(c, x):
    p = np.poly1d(c)
    return p(x), p.order


def _polyval_obj(c, x):
    p = np.poly1d(c)
    return np.polyval(p, x)


def _coeffs_alias(c, x):
    p = np.poly1d(c)
    k = p.coeffs
    return k, k is p.c, k is p.coef, np.shares_memory(k, c) if k.size else None


def _write_through_coeffs(c, x):
    p = np.poly1d(c)
    p.coeffs[-1] = 9
    return c, p(x)


def _write_c_after(c, x):
    p = np.poly1d(c)
    c[-1] = 7
    return p(x), p.coeffs


def _inplace_coeffs(c, x):
    p = np.poly1d(c)
    p.coeffs *= 2
    return p(x), c


def _returned(c, x):
    p = np.poly1d(c)
    return p


def _returned_with_coeffs(c, x):
    p = np.poly1d(c)
    return p, p.coeffs


def _order_math(c, x):
    p = np.poly1d(c)
    return p.order + 1, p.o * 2, len(p.coeffs), p.variable


def _variable_name(c, x):
    p = np.poly1d(c, variable="t")
    return p.variable, p(x)


def _copy_of_poly(c, x):
    p = np.poly1d(c)
    q = np.poly1d(p)
    return q.coeffs is p.coeffs, q(x)


def _python_scalar(c, x):
    p = np.poly1d(c)
    return p(2), p(0.5), p(True), p(1j)


def _list_arg(c, x):
    p = np.poly1d(c)
    return p([1, 2, 3])


def _two_polys(c, x):
    p = np.poly1d(c)
    q = np.poly1d(c[::-1])
    return p(x) - q(x)


def _roots_break(c, x):
    p = np.poly1d(c)
    try:
        return p.roots
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


def _add_break(c, x):
    p = np.poly1d(c)
    return (p + p)(x)


def _getitem_break(c, x):
    p = np.poly1d(c)
    return p[0], p[5]


def _deriv_break(c, x):
    p = np.poly1d(c)
    return p.deriv()(x)


def _print_break(c, x):
    p = np.poly1d(c)
    print(p.coeffs)
    return p(x)


def _str_poly(c, x):
    p = np.poly1d(c)
    return str(p), repr(p)


def _eq_poly(c, x):
    p = np.poly1d(c)
    return p == np.poly1d(c), p != np.poly1d(C)


def _constant_poly(c, x):
    p = np.poly1d([1.0, 0.0, -1.0])
    q = np.poly1d([0, 0, 2])
    return p(x), q(x), q.coeffs, p.coeffs.flags.writeable


def _constant_written(c, x):
    p = np.poly1d([3.0, 2.0])
    p.coeffs[0] = -1.0
    return p(x), p.coeffs


def _polyval_array(c, x):
    return np.polyval(c, x), np.polyval(c[1:], x)


def _poly_in_loop(c, x):
    acc = np.zeros_like(x, dtype=np.result_type(c, x, 1.0))
    for k in range(3):
        acc = acc + np.poly1d(c)(x) * k
    return acc


def _poly_after_mask(c, x):
    p = np.poly1d(c[c != 0])
    return p(x), p.order


def _poly_errstate(c, x):
    with np.errstate(over="raise", invalid="raise"):
        try:
            return np.poly1d(c)(x * 1e200)
        except FloatingPointError as e:
            return str(e)


for _fn in (_value, _polyval_obj, _coeffs_alias, _write_through_coeffs, _write_c_after,
            _inplace_coeffs, _returned, _returned_with_coeffs, _order_math,
            _variable_name, _copy_of_poly, _python_scalar, _list_arg, _two_polys,
            _roots_break, _add_break, _getitem_break, _deriv_break, _print_break,
            _str_poly, _eq_poly, _constant_poly, _constant_written, _polyval_array,
            _poly_in_loop, _poly_after_mask, _poly_errstate):
    case(_fn, *((c, XF) for c in COEFFS))

for _i, _x in enumerate((XI, XC, X0, np.float32(2.0), 3, -0.0)):
    for _fn in (_value, _polyval_obj, _write_through_coeffs):
        case(_fn, *((c, _x) for c in COEFFS), name=f"{_fn.__name__[1:]}_x{_i}")


@scenario
def s_poly_kept_between_calls(r):
    """A poly1d returned by one call, its coeffs written, then another call."""
    f = r.compile(_returned_with_coeffs)
    c = C.copy()
    p, k = r.call(f, c, XF)
    k[0] = 100.0
    r.see("c", c)
    r.see("p(1)", p(1.0))
    r.call(f, c, XF)
    c2 = C_LEAD0.copy()
    p2, k2 = r.call(f, c2, XF)
    k2[0] = -5.0
    r.see("c2", c2)


def _odd_shapes(c, x):
    try:
        p = np.poly1d(c)
    except ValueError as e:
        return "refused: " + str(e)
    return p(x), p.order, p.coeffs.shape


case(_odd_shapes, (np.ones((2, 2)), XF), (np.array([]), XF), (np.zeros((1, 3)), XF),
     (np.array([[0.0, 1.0]]), XF), (C, XF))


def _from_list_arg(c, x):
    p = np.poly1d(c)
    return p(x), p.coeffs.dtype


case(_from_list_arg, ([1, 2, 3], XF), ([0, 0, 1.5], XF), ([True, False], XF),
     ([1j, 2], XF), ([0, 0], XF))
