"""``np.linalg.solve``, ``inv``, ``det``, ``eigh`` and ``lstsq`` as the gufunc calls
they end in.

On small matrices these functions are mostly Python: each call converts its arguments
(``_makearray``), checks that ``a`` is square, derives the computation and result
types from the dtypes (``_commonType``), picks the gufunc and its signature, and
enters an ``np.errstate`` that turns a singular matrix into ``LinAlgError``. A graph
fixes the dtypes, the number of dimensions and here the square shape when it is
compiled, so generated code makes those decisions once and keeps per call only the
gufunc, under the same error state, and the same cast of its result. A 3x3
``np.linalg.solve`` took 4.2 us, this way 2.4 us (``time.process_time``, best of
5 x 20,000 calls); a Newton or Kalman step solves or inverts once or twice per trip.

For ``np.linalg.solve(A, b)`` of a float64 (3, 3) ``A`` and a float64 (3,) ``b``::

    >>> fast_form(m, "solve", params, name_of)
    "_solve_gufunc(_solve1, 'dd->d', _float64, A, b)"

``np.linalg.eigh`` of a 4x4 took 10-12 us, this way 7-9 us; ``np.linalg.lstsq`` of an
(8, 3) ``a`` 17-21 -> 12-14 us (``eigh_gufunc``, ``lstsq_gufunc``: the same gufunc,
error state, residual rule and casts, decided once; best of 5 x 5,000 calls at load
7-15, scripts/bench_wrappers.py).

The calls are NumPy's own ``numpy/linalg/_linalg.py`` of NumPy 2.0-2.5 (the same code
in each; eigh and lstsq read against 2.4 and 2.5 only, and gated to those); another
NumPy version, a matrix not known square at compile time, a subclass or a dtype
``_commonType`` rejects keeps the program's own call, which also raises NumPy's errors
for bad arguments.
"""

from __future__ import annotations

import numpy as np

from dynamo import npversion
from dynamo.graph import Node
from dynamo.ops.node_facts import array_meta

from .plan import static_shape
from .reduction_finish import short_sum

try:   # the gufuncs and rules np.linalg's own functions call
    from numpy.linalg import _linalg, _umath_linalg
    _SINGULAR = _linalg._raise_linalgerror_singular
    _COMMON_TYPE = _linalg._commonType
    _GUFUNCS = {name: getattr(_umath_linalg, name)
                for name in ("solve", "solve1", "inv", "det", "lstsq", "eigh_lo", "eigh_up")}
    _LSTSQ_ERROR = _linalg._raise_linalgerror_lstsq
    _EIGH_ERROR = _linalg._raise_linalgerror_eigenvalues_nonconvergence
    _EIGH_RESULT, _REAL_TYPE = _linalg.EighResult, _linalg._realType
except (ImportError, AttributeError):
    _GUFUNCS = None
# solve/inv/det, eigh/lstsq (``eigh_gufunc``/``lstsq_gufunc``) were read against this NumPy
_KNOWN = npversion.NUMPY in npversion.CHECKED


def solve_gufunc(gufunc, signature: str, result_type, *args):
    """``np.linalg.solve``/``inv``'s last steps: the gufunc under their error state
    (a singular matrix raises ``LinAlgError``), cast to the result type."""
    with np.errstate(call=_SINGULAR, invalid="call", over="ignore", divide="ignore",
                     under="ignore"):
        r = gufunc(*args, signature=signature)
    return r.astype(result_type, copy=False)


def fast_form(m, target: str, params: dict, name_of) -> str | None:
    """Source for ``solve``/``inv``/``det`` by their gufunc, or None (NumPy's call)."""
    if _GUFUNCS is None or not _KNOWN:
        return None
    a = params["a"]
    if not _square_stack(a):
        return None
    arrays = [a] if target != "solve" else [a, params["b"]]
    if not all(_ndarray(x) for x in arrays):
        return None
    try:
        t, result_type = _COMMON_TYPE(*(np.empty(0, array_meta(x).dtype) for x in arrays))
    except TypeError:
        return None
    complex_ = issubclass(t, np.complexfloating)
    names = ", ".join(name_of(x) for x in arrays)
    result = m.bind(result_type, result_type.__name__)
    if target == "det":
        gufunc = m.bind(_GUFUNCS["det"], "det_gufunc")
        signature = "D->D" if complex_ else "d->d"
        return f"{gufunc}({names}, signature={signature!r}).astype({result}, copy=False)"
    if target == "solve":
        name = "solve1" if len(array_meta(params["b"]).shape) == 1 else "solve"
        signature = "DD->D" if complex_ else "dd->d"
    else:
        name, signature = "inv", "D->D" if complex_ else "d->d"
    fn = m.bind(solve_gufunc, "solve_gufunc")
    return f"{fn}({m.bind(_GUFUNCS[name], name)}, {signature!r}, {result}, {names})"


def eigh_gufunc(gufunc, signature: str, real_type, result_type, a):
    """``np.linalg.eigh``'s last steps (numpy/linalg/_linalg.py, NumPy 2.4-2.5): the
    gufunc under its error state, both results cast, as an ``EighResult``."""
    with np.errstate(call=_EIGH_ERROR, invalid="call", over="ignore", divide="ignore",
                     under="ignore"):
        w, vt = gufunc(a, signature=signature)
    return _EIGH_RESULT(w.astype(real_type, copy=False), vt.astype(result_type, copy=False))


def eigh_form(m, params: dict, name_of) -> str | None:
    """``np.linalg.eigh(a, UPLO)`` of a square stack and a literal ``UPLO``."""
    a, uplo = params["a"], params["UPLO"]
    if _GUFUNCS is None or not _KNOWN or not _square_stack(a) or \
            type(uplo) is not str or uplo not in ("L", "U"):
        return None
    try:
        t, result_type = _COMMON_TYPE(np.empty(0, array_meta(a).dtype))
    except TypeError:
        return None
    complex_ = issubclass(t, np.complexfloating)
    gufunc = m.bind(_GUFUNCS["eigh_lo" if uplo == "L" else "eigh_up"], f"eigh_{uplo}")
    real = m.bind(_REAL_TYPE(result_type), "real_type")
    result = m.bind(result_type, result_type.__name__)
    fn = m.bind(eigh_gufunc, "eigh_gufunc")
    signature = "D->dD" if complex_ else "d->dd"
    return f"{fn}({gufunc}, {signature!r}, {real}, {result}, {name_of(a)})"


def lstsq_gufunc(a, b, rcond, signature: str, vector: bool, n: int, m: int, real_type,
                 result_type):
    """``np.linalg.lstsq``'s steps after its argument checks (numpy/linalg/_linalg.py,
    NumPy 2.4-2.5), for 2-D ``a`` and a ``b`` of one right-hand side or more: the
    gufunc under its error state, the residuals dropped where it says, the casts."""
    if vector:
        b = b[:, None]
    with np.errstate(call=_LSTSQ_ERROR, invalid="call", over="ignore", divide="ignore",
                     under="ignore"):
        x, resids, rank, s = _GUFUNCS["lstsq"](a, b, rcond, signature=signature)
    if vector:
        x = x.squeeze(axis=-1)
    if rank != n or m <= n:
        resids = np.array([], real_type)
    s = s.astype(real_type, copy=False)
    resids = resids.astype(real_type, copy=False)
    return x.astype(result_type, copy=True), resids, rank, s


def lstsq_form(m, params: dict, name_of) -> str | None:
    """``np.linalg.lstsq(a, b, rcond)`` of a static (m, n) ``a`` with m, n > 0, a ``b``
    of m rows (1-D, or 2-D with one column or more) and ``rcond`` None or a literal
    number (None: ``finfo(t).eps * max(m, n)``, computed here)."""
    a, b, rcond = params["a"], params["b"], params["rcond"]
    if _GUFUNCS is None or not _KNOWN or not _ndarray(a) or not _ndarray(b) or \
            not (rcond is None or type(rcond) in (int, float)):
        return None
    sa, sb = array_meta(a).shape, array_meta(b).shape
    if len(sa) != 2 or len(sb) not in (1, 2) or not static_shape(sa) or \
            not static_shape(sb) or sb[0] != sa[0] or 0 in sa or (len(sb) == 2 and sb[1] == 0):
        return None
    try:
        t, result_type = _COMMON_TYPE(np.empty(0, array_meta(a).dtype),
                                      np.empty(0, array_meta(b).dtype))
    except TypeError:
        return None
    rows, cols = sa
    if rcond is None:
        rcond = np.finfo(t).eps * max(cols, rows)
    signature = "DDd->Ddid" if issubclass(t, np.complexfloating) else "ddd->ddid"
    fn = m.bind(lstsq_gufunc, "lstsq_gufunc")
    real = m.bind(_REAL_TYPE(result_type), "real_type")
    result = m.bind(result_type, result_type.__name__)
    return (f"{fn}({name_of(a)}, {name_of(b)}, {m.bind(rcond, 'rcond')}, {signature!r}, "
            f"{len(sb) == 1}, {cols}, {rows}, {real}, {result})")


def vector_norm(x: np.ndarray, as_float: bool):
    """``np.linalg.norm(x)`` of a real ``x`` (``ord=None``, ``axis=None``): NumPy's own
    first case, without the argument checks before it."""
    if as_float:
        x = x.astype(float)
    x = x.ravel(order="K")
    return np.sqrt(x.dot(x))


def axis_norm(x: np.ndarray, axis: int, keepdims: bool, as_float: bool):
    """``np.linalg.norm(x, axis=axis, keepdims=keepdims)`` of a real ``x`` (``ord``
    None or 2, one axis): NumPy's own case, ``sqrt(add.reduce((x.conj() * x).real,
    axis))`` (``x.conj()`` of a real array is ``x``), its sum by ``short_sum``, which
    gives ``np.add.reduce``'s bits and adds the axis' slices where the axis is 2-7
    long: the speeds and lengths of particles' vectors, ``norm(v, axis=1)`` over 3
    coordinates, otherwise pay NumPy's per-row loop (5,000 quaternions of 4: 133 us,
    this way 31 us, best of 7 x 300 calls at load 6).

        >>> v = np.random.random((1000, 3))
        >>> np.array_equal(axis_norm(v, 1, True, False), np.linalg.norm(v, axis=1, keepdims=True))
        True
    """
    if as_float:
        x = x.astype(float)
    return np.sqrt(short_sum(np.multiply(x, x), axis, None, keepdims))


def _one_axis(axis, ndim: int):
    """The one axis of ``norm``'s ``axis`` argument (an int or a 1-tuple), else None."""
    if type(axis) is tuple and len(axis) == 1:
        axis = axis[0]
    return axis if type(axis) is int and -ndim <= axis < ndim else None


def norm_form(m, params: dict, name_of) -> str | None:
    """``np.linalg.norm`` as ``vector_norm`` where NumPy takes that path: an ndarray of
    a real (or integer, bool: cast to float first) dtype, ``axis=None`` and ``ord`` None,
    ``'fro'`` of a matrix or 2 of a vector, without ``keepdims``; over one axis with
    ``ord`` None or 2, as ``axis_norm``."""
    x, order = params["x"], params["ord"]
    if not _KNOWN or not _ndarray(x) or type(params["keepdims"]) is not bool:
        return None
    if params["axis"] is not None:
        meta = array_meta(x)
        axis = _one_axis(params["axis"], len(meta.shape))
        if axis is None or meta.dtype.kind not in "biuf" or \
                not (order is None or (type(order) is int and order == 2)):
            return None
        fn = m.bind(axis_norm, "axis_norm")
        return (f"{fn}({name_of(x)}, {axis}, {params['keepdims']}, "
                f"{meta.dtype.kind in 'biu'})")
    if params["keepdims"] is not False:
        return None
    meta = array_meta(x)
    ndim = len(meta.shape)
    if not (order is None or (type(order) is str and order in ("f", "fro") and ndim == 2)
            or (type(order) is int and order == 2 and ndim == 1)):
        return None
    if meta.dtype.kind not in "biuf":
        return None
    fn = m.bind(vector_norm, "vector_norm")
    return f"{fn}({name_of(x)}, {meta.dtype.kind in 'biu'})"


def _ndarray(value) -> bool:
    meta = array_meta(value) if isinstance(value, Node) else None
    return meta is not None and not meta.scalar and meta.kind == "numpy"


def _square_stack(value) -> bool:
    """An ndarray of two or more dimensions whose last two are one static size (what
    ``_assert_stacked_square`` lets through)."""
    if not _ndarray(value):
        return False
    shape = array_meta(value).shape
    return len(shape) >= 2 and static_shape(shape[-2:]) and shape[-1] == shape[-2]
