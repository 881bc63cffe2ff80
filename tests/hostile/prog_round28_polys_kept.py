"""Round 28, ``np.poly1d`` arithmetic (the second half of ``prog_round28_polys.py``,
the same category): polynomials passed in (``_coeffs`` and ``_variable`` rebound or
written between calls, a global replaced), poly1d subclasses (``coeffs`` or ``order``
overridden), results passed to helpers, kept in containers and closures, alive over a
break, used as arrays and sizes, and results never used that warn or raise.

    >>> def _given_add(p, q):
    ...     return _full(p + q), p(1.0)
"""

import numpy as np
from hostile_check import Programs
from prog_round28_polys import (
    C_BOOL,
    C_CPLX,
    C_F32,
    C_I8,
    C_INT,
    C_ONE,
    C_U8,
    C_ZERO,
    D_INT,
    PAIRS,
    XF,
    C,
    D,
    _full,
    _mul,
)

reg = Programs("round28_polys")
case = reg.case
scenario = reg.scenario

# ------------------------------------------------------------------ polynomials passed in

def _given_add(p, q):
    return _full(p + q), p(1.0)


def _given_deriv(p, q):
    return _full(p.deriv()), len(p), p[0]


def _given_mul_scalar(p, q):
    return _full(p * 3), _full(-q)


case(_given_add, (np.poly1d(C), np.poly1d(D)), (np.poly1d(C_INT), np.poly1d(C_CPLX)),
     (np.poly1d(C_ZERO), np.poly1d(C_F32)))
case(_given_deriv, (np.poly1d(C), None), (np.poly1d(C_ONE), None),
     (np.poly1d(C_BOOL), None), (np.poly1d(C, variable="z"), None))
case(_given_mul_scalar, (np.poly1d(C, variable="y"), np.poly1d(D)),
     (np.poly1d(C_I8), np.poly1d(C_U8)))


class Poly(np.poly1d):
    """A poly1d subclass (NumPy's arithmetic returns plain poly1d)."""

    def area(self):
        return float(self.integ()(1.0) - self.integ()(0.0))


def _subclass_ops(p, q):
    return _full(p + q), _full(p * 2), _full(p.deriv()), type(p).__name__


def _subclass_made(c, d):
    p = Poly(c)
    return _full(p + 1), p.area(), len(p)


case(_subclass_ops, (Poly(C), Poly(D)), (Poly(C_INT), np.poly1d(D)), (np.poly1d(C), Poly(D)))
case(_subclass_made, (C, D), (C_INT, D))


@scenario
def s_coeffs_rebound_between_calls(r):
    """``p._coeffs`` rebound to another array (another length, dtype) after a call."""
    f = r.compile(_given_deriv)
    p = np.poly1d(C)
    r.call(f, p, None)
    r.call(f, p, None)
    p._coeffs = np.array([5, 0, 0, 1])
    r.call(f, p, None)
    p._coeffs = np.array([2.0j])
    r.call(f, p, None)


@scenario
def s_coeffs_written_between_calls(r):
    """``p.coeffs[0] = 0`` (a leading zero written in, not trimmed) between calls."""
    f = r.compile(_given_add)
    p, q = np.poly1d(C.copy()), np.poly1d(D.copy())   # (NumPy's coeffs are views)
    r.call(f, p, q)
    r.call(f, p, q)
    p.coeffs[0] = 0.0
    r.call(f, p, q)
    q.coeffs[:] = 0.0
    r.call(f, p, q)


@scenario
def s_coeffs_attribute_set(r):
    """``p.coeffs = ...`` raises AttributeError (a property without a setter) in NumPy
    2; the program catches it."""
    def g(p, c):
        try:
            p.coeffs = c
        except AttributeError as e:
            return "refused", str(e)[:40], _full(p + 1)
        return _full(p + 1)
    f = r.compile(g)
    p = np.poly1d(C)
    r.call(f, p, D)
    r.call(f, p, C_INT)


@scenario
def s_variable_rebound(r):
    """``p._variable`` changed between calls: ``(p + 1).variable`` stays 'x', but
    ``p.variable`` and ``str(p)`` follow."""
    def g(p):
        return p.variable, (p + 1).variable, str(p.deriv())
    f = r.compile(g)
    p = np.poly1d(C)
    r.call(f, p)
    r.call(f, p)
    p._variable = "w"
    r.call(f, p)


@scenario
def s_result_kept_and_mutated(r):
    """A result polynomial returned, its coefficients written, then another call."""
    f = r.compile(_mul)
    got = r.call(f, C.copy(), D.copy())
    if got is not None:
        got[0][0] = 100.0
    r.call(f, C.copy(), D.copy())
    r.call(f, C_INT.copy(), D_INT.copy())


@scenario
def s_global_poly(r):
    """A module-global poly1d replaced between calls."""
    g = globals()

    def use(x):
        return (G_POLY * 2 + 1)(x), len(G_POLY)
    r.patch(g, "G_POLY", np.poly1d(C))
    f = r.compile(use)
    r.call(f, XF)
    r.call(f, XF)
    r.patch(g, "G_POLY", np.poly1d(C_INT))
    r.call(f, XF)
    r.patch(g, "G_POLY", Poly(C_CPLX))
    r.call(f, XF)


G_POLY = np.poly1d(C)


def _errstate_pow(c, d):
    with np.errstate(over="raise"):
        try:
            return _full(np.poly1d(c * 1e200) ** 2)
        except FloatingPointError as e:
            return "fpe", str(e)


def _warn_pow(c, d):
    return _full(np.poly1d(c * 1e200) ** 2)


def _int_overflow(c, d):
    return _full(np.poly1d(c) ** 9)


case(_errstate_pow, (C, D), (C_INT, D), (C_F32, D))
case(_warn_pow, (C, D), (C_F32, D), (C_ZERO, D))
case(_int_overflow, (C_INT * 100, D), (C_I8, D), (C_U8, D), (C, D))


# ------------------------------------------------------------------ results travelling

def _helper_scale(p, k):
    return p * k + p.deriv()


def _through_helper(c, d):
    p = _helper_scale(np.poly1d(c), 2)
    return _full(p), p(XF)


def _kept_in_containers(c, d):
    p = np.poly1d(c)
    polys = [p + 1, p * p]
    table = {"d": p.deriv(), "i": p.integ()}
    return [_full(q) for q in polys], {k: _full(v) for k, v in table.items()}


def _alive_over_break(c, d):
    p = np.poly1d(c) * 2
    print("order", p.order)
    q = p + np.poly1d(d)
    print("len", len(q))
    return _full(p), _full(q), p is not q


def _in_closure(c, d):
    p = np.poly1d(c) - 1

    def at(t):
        return p(t) + p[0]
    return at(XF), at(2.0)


def _as_array(c, d):
    q = np.poly1d(c) * np.poly1d(d)
    return np.asarray(q), np.array(q), np.sum(q), np.polyval(q, XF), np.roots(q + 0.0)


def _used_as_size(c, d):
    q = np.poly1d(c) * np.poly1d(d)
    return np.zeros(len(q)), np.arange(q.order + 1), q.coeffs[: len(q)]


def _mul_huge_warns(c, d):
    return _full(np.poly1d(c) * 1e300)


def _coeffs_of_result_mutated(c, d):
    q = np.poly1d(c) + 0
    q.coeffs[0] = 0
    return _full(q), q[0], len(q), q.deriv().coeffs


for _fn in (_through_helper, _kept_in_containers, _alive_over_break, _in_closure,
            _as_array, _used_as_size, _mul_huge_warns, _coeffs_of_result_mutated):
    case(_fn, *PAIRS)


class DoubledCoeffs(np.poly1d):
    """``coeffs`` overridden: NumPy's arithmetic reads the property."""

    @property
    def coeffs(self):
        return self._coeffs * 2


class ShorterCoeffs(np.poly1d):
    """``coeffs`` one shorter than ``_coeffs``: ``len`` and ``order`` read ``_coeffs``."""

    @property
    def coeffs(self):
        return self._coeffs[1:]


class OwnOrder(np.poly1d):
    @property
    def order(self):
        return 7


def _overridden(p, q):
    return _full(p + 1), len(p), p[0], p[1], _full(p.deriv()), p.order, _full(p * 2), p(2.0)


case(_overridden, (DoubledCoeffs(C), None), (ShorterCoeffs(C), None), (OwnOrder(C), None),
     (np.poly1d(C), None))


def _rebind_scenario(name, values):
    def s(r):
        f = r.compile(_overridden)
        p = np.poly1d(C.copy())
        r.call(f, p, None)
        r.call(f, p, None)
        for v in values:
            p._coeffs = v
            r.call(f, p, None)
    s.__name__ = f"coeffs_rebound_{name}"
    s.__doc__ = f"``p._coeffs`` rebound to {name} between calls."
    return s


for _name, _values in (("list", ([3.0, 4.0, 5.0], [1, 2])),
                       ("2d", (np.ones((2, 2)),)),
                       ("leading_zeros", (np.array([0.0, 0.0, 1.0]), np.zeros(2))),
                       ("int_then_float", (np.array([1, 2]), np.array([1.0, 2.0, 3.0]))),
                       ("empty", (np.zeros(0),)),
                       ("0d", (np.array(2.0),))):
    scenario(_rebind_scenario(_name, _values))


# ------------------------------------------------------------------ results never used

def _unused_overflow(c, d):
    np.poly1d(c) * 1e300            # warns (overflow) though nothing reads it
    np.poly1d(d) ** 40
    return c.sum()


def _unused_under_raise(c, d):
    with np.errstate(over="raise", invalid="raise"):
        try:
            np.poly1d(c) * 1e300
            (np.poly1d(c) * np.inf) - (np.poly1d(c) * np.inf)
        except FloatingPointError as e:
            return "fpe", str(e)
    return "quiet"


def _unused_item_and_len(c, d):
    p = np.poly1d(c) + np.poly1d(d)
    p[3]
    len(p)
    p.deriv(3)
    return 0


for _fn in (_unused_overflow, _unused_under_raise, _unused_item_and_len):
    case(_fn, *PAIRS)
