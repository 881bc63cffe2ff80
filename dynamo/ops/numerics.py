"""Polynomials, convolution and interpolation: ``polyval``, ``polyfit``, ``polyder``,
``vander``, ``convolve``, ``correlate``, ``interp``.

Shapes are NumPy's formulas: ``polyval(p, x)`` has ``x``'s shape (broadcast with the
coefficients' trailing shape), ``polyfit(x, y, deg)`` has ``deg + 1`` coefficients
(per column of a 2-d ``y``), ``polyder(p, m)`` has ``max(len(p) - m, 0)``,
``vander(x, N)`` is ``(len(x), N)``, ``convolve``/``correlate`` of lengths ``n`` and ``m``
give ``n + m - 1`` ('full'), ``max(n, m)`` ('same') or ``max(n, m) - min(n, m) + 1``
('valid'), and ``interp(x, xp, fp)`` has ``x``'s shape. Dtypes, scalar-ness and the
checks NumPy makes of modes and dtypes come from running the function on ``min(d, 1)``
probes (one coefficient, one sample point).

What breaks: ``polyfit(full=True)`` (the residuals are empty or not depending on the
rank of the data) and ``polyfit(cov=...)``; ``poly1d`` objects (not arrays: those made in
the trace are ``variables/polynomials.py``'s, whose coefficients are ``poly1d_coeffs``);
``polyder(p, 0)`` (NumPy returns ``p`` itself, not a new array).

Example::

    >>> op = get("convolve")
    >>> f8 = np.dtype("f8")
    >>> op.meta(op, (ArrayMeta((10,), f8), ArrayMeta((3,), f8)), {"mode": "valid"}).shape
    (8,)
"""

from __future__ import annotations

import operator

import numpy as np

from . import rules
from .meta import NUMPY, ArrayMeta, DataSize, probe
from .registry import OPAQUE, VIEW, OpDef, register
from .rules import MetaError


def _meta(value, name: str) -> ArrayMeta:
    """An operand as a meta (a constant becomes the meta of the array NumPy makes)."""
    if isinstance(value, ArrayMeta):
        return value
    if isinstance(value, np.poly1d):
        raise MetaError(f"a poly1d as {name}")
    value = np.asarray(rules.static(value, name))
    if value.dtype.hasobject:
        raise MetaError(f"{name} of Python objects")
    return ArrayMeta(value.shape, value.dtype)


def _tiny(m: ArrayMeta) -> np.ndarray:
    return probe(m.with_(scalar=False), keep_ndim=True)


def polyval_rule(op, args, kwargs) -> ArrayMeta:
    """``y = zeros_like(x); for c in p: y = y * x + c``."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    p, x = _meta(params["p"], "p"), _meta(params["x"], "x")
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    shape = x.shape if p.shape[0] == 0 else np.broadcast_shapes(x.shape, p.shape[1:])
    xs = probe(x) if x.scalar else _tiny(x)
    value = rules.run_quietly(op.impl, _tiny(p), xs)
    return rules.result_meta(value, shape, rules.array_kind((args, kwargs)))


def polyfit_rule(op, args, kwargs) -> ArrayMeta:
    """``deg + 1`` coefficients, per column of a 2-d ``y``."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    if params.get("full"):
        raise MetaError("polyfit(full=True): the residuals are empty or not depending on "
                        "the rank of the data")
    if params.get("cov"):
        raise MetaError("polyfit(cov=...)")
    x, y = _meta(params["x"], "x"), _meta(params["y"], "y")
    deg = operator.index(rules.static(params["deg"], "deg"))
    rules.static(params.get("rcond"), "rcond")
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1 or x.shape[0] == 0:
        raise TypeError("expected a non-empty 1D vector for x")
    if y.ndim not in (1, 2) or y.shape[0] != x.shape[0]:
        raise TypeError("expected a 1D or 2D y with as many rows as x")
    w = params.get("w")
    ones = lambda m: np.ones(_tiny(m).shape, m.dtype)  # noqa: E731 (zeros scale to NaN)
    call = {"x": ones(x), "y": ones(y), "deg": deg, "rcond": params.get("rcond")}
    if w is not None:
        w = _meta(w, "w")
        if w.shape != x.shape:
            raise TypeError("expected a 1-d w of the length of x")
        call["w"] = ones(w)
    value = rules.run_quietly(op.impl, **call)
    shape = (deg + 1,) + y.shape[1:]
    return ArrayMeta(shape, value.dtype, rules.array_kind((args, kwargs)), False)


_MODES = {"v": 0, "s": 1, "f": 2}


def _mode(mode) -> int:
    if isinstance(mode, str) and mode[:1].lower() in _MODES:
        return _MODES[mode[:1].lower()]
    if isinstance(mode, (int, np.integer)) and not isinstance(mode, bool) and 0 <= mode <= 2:
        return int(mode)
    raise MetaError(f"mode {mode!r}")


def convolve_rule(op, args, kwargs) -> ArrayMeta:
    """convolve (0-d operands count as length 1) and correlate (1-d only)."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    a, v = _meta(params["a"], "a"), _meta(params["v"], "v")
    default = "full" if op.name == "convolve" else "valid"
    mode = _mode(rules.static(params.get("mode", default), "mode"))
    lengths = []
    for m in (a, v):
        if m.ndim > 1:
            raise ValueError("object too deep for desired array")
        if m.ndim == 0 and op.name == "correlate":
            raise ValueError("object of too small depth for desired array")
        lengths.append(m.shape[0] if m.ndim else 1)
    n, k = lengths
    if n == 0 or k == 0:
        raise ValueError(f"{op.name} of an empty array")
    length = [max(n, k) - min(n, k) + 1, max(n, k), n + k - 1][mode]
    value = rules.run_quietly(op.impl, _tiny(a), _tiny(v), mode=params.get("mode", default))
    return ArrayMeta((length,), value.dtype, rules.array_kind((args, kwargs)), False)


def interp_rule(op, args, kwargs) -> ArrayMeta:
    """``interp(x, xp, fp)``: x's shape; xp and fp 1-d, of one length. Whether xp may be
    empty is NumPy's call, made on the probes (empty exactly when the arrays are):
    NumPy 2.5 accepts it when x is empty too, earlier versions never."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    x, xp, fp = (_meta(params[k], k) for k in ("x", "xp", "fp"))
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("xp and fp must be 1-d")
    if xp.shape != fp.shape:
        raise ValueError("fp and xp are not of the same length.")
    extra = {k: params.get(k) for k in ("left", "right", "period")}
    rules.static(extra["period"], "period")
    for k in ("left", "right"):
        if extra[k] is not None and rules.shape_of(extra[k]) != ():
            raise MetaError(f"interp({k}=) that is not a scalar")
    xs = probe(x) if x.scalar else _tiny(x)
    value = rules.run_quietly(op.impl, xs, _tiny(xp), _tiny(fp),
                              **rules.substitute(extra, probe))
    return rules.result_meta(value, x.shape, rules.array_kind((args, kwargs)))


def polyder_rule(op, args, kwargs) -> ArrayMeta:
    """``polyder(p, m)``: each derivative drops the constant term, down to none."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    p = _meta(params["p"], "p")
    m = operator.index(rules.static(params.get("m", 1), "m"))
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    if m == 0 or p.ndim != 1:
        raise MetaError("polyder(p, 0) returns p itself" if m == 0 else
                        "polyder of coefficients that are not 1-d")
    value = rules.run_quietly(op.impl, np.ones((m + 1,), p.dtype), m)   # dtype: 1 term
    return ArrayMeta((max(p.shape[0] - m, 0),), value.dtype,
                     rules.array_kind((args, kwargs)), False)


def vander_rule(op, args, kwargs) -> ArrayMeta:
    """``vander(x, N=len(x), increasing=False)``: the powers of 1-d ``x``, one column
    each."""
    rules.require_cupy(op, args, kwargs)
    params = rules.bind(op, args, kwargs)
    x = _meta(params["x"], "x")
    N = rules.static(params.get("N"), "N")
    rules.static(params.get("increasing", False), "increasing")
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    N = x.shape[0] if N is None else operator.index(N)
    if N < 0:
        raise MetaError("vander with N < 0")   # NumPy's own error, from the call
    value = rules.run_quietly(op.impl, _tiny(x), 1)
    return ArrayMeta((x.shape[0], N), value.dtype, rules.array_kind((args, kwargs)), False)


def poly1d_coeffs(c) -> np.ndarray:
    """``np.poly1d(c).coeffs``: ``c`` as 1-d without its leading zeros (a view of it),
    or ``[0]`` of its dtype where nothing is left (``variables/polynomials.py``)."""
    return np.poly1d(c).coeffs


def poly1d_coeffs_rule(op, args, kwargs) -> ArrayMeta:
    """How many zeros lead is data: an unbacked length (1 for a 0-d ``c``: one
    coefficient, or ``[0]``)."""
    (c,) = args
    if not isinstance(c, ArrayMeta) or kwargs or c.kind != NUMPY:
        raise MetaError("np.poly1d of other than one NumPy array")
    if c.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    rules.run_quietly(op.impl, _tiny(c))   # (NumPy's errors for the dtype)
    return ArrayMeta((1,) if c.ndim == 0 else (DataSize(),), c.dtype, c.kind, False)


def poly1d_value_rule(op, args, kwargs) -> ArrayMeta:
    """``np.polyval(p.coeffs, x)`` of a ``poly1d`` made in the trace: it has at least one
    coefficient, so the answer is the one of a single coefficient whatever their number
    (``polyval_rule`` answers for every length, 0 too: ``zeros_like(x)``)."""
    p, x = (_meta(v, name) for v, name in zip(args, ("p", "x")))
    if p.ndim != 1 or kwargs:
        raise MetaError("poly1d_value of other than 1-d coefficients")
    return polyval_rule(op, (p.with_(shape=(1,)), args[1]), {})


def rebuild_poly1d(coeffs: np.ndarray, variable: str = "x") -> np.poly1d:
    """The ``poly1d`` around coefficients that are already NumPy's (trimmed): what
    ``np.poly1d.__init__`` leaves (its two attributes), without trimming again.

        >>> rebuild_poly1d(np.array([1.0, 2.0]))
        poly1d([1., 2.])
    """
    p = object.__new__(np.poly1d)
    p._coeffs, p._variable = coeffs, variable
    return p


# NumPy's poly1d arithmetic, each returning a poly1d (``variables/polynomials.py``)
POLY1D_CALLS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "truediv": operator.truediv, "pow": operator.pow, "neg": operator.neg,
    "radd": lambda p, o: o + p, "rsub": lambda p, o: o - p, "rmul": lambda p, o: o * p,
    "deriv": lambda p, m: p.deriv(m), "integ": lambda p, m, k: p.integ(m, k),
    "polyder": np.polyder, "polyint": np.polyint, "polyadd": np.polyadd,
    "polysub": np.polysub, "polymul": np.polymul,
}


def poly1d_result(how: str, kinds: str, *operands) -> np.ndarray:
    """The coefficients of NumPy's own ``POLY1D_CALLS[how]`` on ``operands``, those
    marked ``"p"`` in ``kinds`` rebuilt as the poly1d whose coefficients they are
    (the rest as they are: arrays, numbers, orders):

        >>> poly1d_result("mul", "pc", np.array([1.0, 2.0]), 2.0)
        array([2., 4.])
    """
    args = [rebuild_poly1d(v) if k == "p" else v for k, v in zip(kinds, operands)]
    return POLY1D_CALLS[how](*args).coeffs


def poly1d_result_rule(op, args, kwargs) -> ArrayMeta:
    """A poly1d NumPy makes trims its leading zeros: an unbacked length. The dtype is
    the answer of the very call on probes of one leading coefficient 1 (for these
    dtypes and constants it depends on neither values nor lengths); any error there
    (a constant out of an int dtype's range) is the break, and Python raises it."""
    how, kinds, *operands = args
    if kwargs or how not in POLY1D_CALLS:
        raise MetaError("poly1d_result of other operands")
    probes = []
    for k, v in zip(kinds, operands):
        if isinstance(v, ArrayMeta):
            if v.kind != NUMPY or v.ndim > 1 or v.dtype.kind not in "iufc" or \
                    k == "p" and v.ndim != 1:
                raise MetaError("poly1d arithmetic of other than 1-d number arrays")
            # (a NumPy scalar is one for ``isscalar``: ``p * s`` scales, ``p * a`` of a
            # 0-d array multiplies polynomials)
            probes.append(v.dtype.type(1) if v.scalar else np.ones((1,) * v.ndim, v.dtype))
        elif isinstance(v, (bool, int, float)) or v is None:
            probes.append(v)
        else:
            raise MetaError("poly1d arithmetic of other than arrays and numbers")
    try:
        value = rules.run_quietly(poly1d_result, how, kinds, *probes)
    except Exception as e:  # noqa: BLE001 (NumPy refuses: eager raises it, at a break)
        raise MetaError(f"poly1d arithmetic NumPy refuses ({type(e).__name__})") from None
    return ArrayMeta((DataSize(),), value.dtype, NUMPY, False)


def poly1d_item(coeffs: np.ndarray, k: int):
    """``p[k]`` of the poly1d around ``coeffs``: the coefficient of ``x**k``, a NumPy
    scalar of their dtype (0 of it past either end)."""
    return rebuild_poly1d(coeffs)[k]


def poly1d_item_rule(op, args, kwargs) -> ArrayMeta:
    c, k = args
    if kwargs or not isinstance(c, ArrayMeta) or c.ndim != 1 or c.kind != NUMPY or \
            type(k) is not int:
        raise MetaError("poly1d_item of other than 1-d coefficients and an int")
    return ArrayMeta((), c.dtype, NUMPY, True)


register(OpDef("poly1d_result", poly1d_result, poly1d_result_rule, OPAQUE,
               doc="p + q, p * 2.0, p.deriv(), np.polyint(p)... of np.poly1d objects "
                   "made in the trace: NumPy's own, the result's coefficients"))
register(OpDef("poly1d_item", poly1d_item, poly1d_item_rule, OPAQUE,
               doc="p[k] of an np.poly1d made in the trace"))
register(OpDef("polyval", np.polyval, polyval_rule, OPAQUE), functions=[np.polyval])
register(OpDef("poly1d_value", np.polyval, poly1d_value_rule, OPAQUE,
               doc="p(x) of an np.poly1d made in the trace (one coefficient or more)"))
# (a view of ``c``, or a new ``[0]``: marked a view, which orders writes to either)
register(OpDef("poly1d_coeffs", poly1d_coeffs, poly1d_coeffs_rule, VIEW,
               doc="the coefficients np.poly1d(c) keeps (an unbacked length)"))
register(OpDef("polyder", np.polyder, polyder_rule, OPAQUE), functions=[np.polyder])
register(OpDef("vander", np.vander, vander_rule, OPAQUE), functions=[np.vander])
register(OpDef("polyfit", np.polyfit, polyfit_rule, OPAQUE,
               extras={"raises": "raises LinAlgError when the fit does not converge (NaN "
                                 "in the data)"}), functions=[np.polyfit])
register(OpDef("convolve", np.convolve, convolve_rule, OPAQUE), functions=[np.convolve])
register(OpDef("correlate", np.correlate, convolve_rule, OPAQUE), functions=[np.correlate])
register(OpDef("interp", np.interp, interp_rule, OPAQUE), functions=[np.interp])
