"""``np.linalg``'s LAPACK functions: ``solve``, ``inv``, ``pinv``, ``det``, ``slogdet``,
``cholesky``, ``qr``, ``eigh``, ``eigvalsh``, ``svd``, ``matrix_power``, ``lstsq``,
``matrix_rank`` (of matrices: one count each).

Their results' *values* depend on the data, but their shapes do not: every one works
on stacks of matrices (the last two axes), and its result's shape is a formula of the
input shapes, checked here as NumPy checks it (at least 2-d, square where required,
``solve``'s operands aligned). Dtypes and dtype errors (``float16 is unsupported in
linalg``) come from running the function on a *well-conditioned* probe of the same
ndim: every dimension ``min(d, 1)``, each matrix an identity, so it is invertible and
positive definite and nothing raises that the real call would not raise for its shapes.
Errors that come from values (``LinAlgError: Singular matrix``, a matrix that is not
positive definite) are raised by NumPy when the graph runs, as eagerly; inside a
``try`` block such a call is a graph break (``extras["raises"]``), so that the
``except`` clause, which runs eagerly, sees the error.

Functions that return NumPy's named tuples (``EighResult``, ``QRResult``,
``SVDResult``, ``SlogdetResult``) have rules that return the same named tuple of metas,
so the translator rebuilds the same type (``res.eigenvalues`` works, and a returned
result is an ``EighResult``).

Not here, and why (graph breaks naming the function): ``eig``/``eigvals`` (the result
is complex or real depending on the data), ``matrix_rank`` of a vector (a Python int),
``cond``, ``tensorinv``, ``tensorsolve`` (not registered; ``multi_dot`` is in
``routines.py``). ``lstsq``'s residuals are empty or not
depending on the rank of the data: their length is an unbacked size (docs/unbacked.md).

Example::

    >>> op = get("qr")
    >>> q, r = op.meta(op, (ArrayMeta((5, 7, 3), np.dtype("f4")),), {})
    >>> q.shape, r.shape, q.dtype
    ((5, 7, 3), (5, 3, 3), dtype('float32'))
"""

from __future__ import annotations

import operator

import numpy as np

from . import rules
from .listed import takes_lists
from .meta import ArrayMeta, DataSize
from .registry import OPAQUE, OpDef, register
from .rules import MetaError

L = np.linalg


def _meta(value, name: str) -> ArrayMeta:
    """An operand as a meta (a constant becomes the meta of the array NumPy makes)."""
    if isinstance(value, ArrayMeta):
        return value
    value = np.asarray(rules.static(value, name))
    return ArrayMeta(value.shape, value.dtype)


def _stack(value, name: str, square: bool) -> ArrayMeta:
    m = _meta(value, name)
    if m.ndim < 2:
        raise L.LinAlgError(f"{m.ndim}-dimensional array given. Array must be at least "
                            "two-dimensional")
    if square and m.shape[-1] != m.shape[-2]:
        raise L.LinAlgError("Last 2 dimensions of the array must be square")
    return m


def well_conditioned(m: ArrayMeta) -> np.ndarray:
    """A tiny stand-in for ``m``: every dimension ``min(d, 1)``; a stack of matrices is
    a stack of identities (invertible, positive definite), a vector holds ones."""
    shape = tuple(min(int(d), 1) for d in m.shape)
    out = np.zeros(shape, m.dtype)
    if out.size:
        out[...] = 1  # 1x1 matrices: identities
    return out


def _given(op, args, kwargs):
    """The arguments the call passed, by name (defaults are left to NumPy: ``pinv``
    tells ``rtol=None`` from no ``rtol``); a bad call raises TypeError as NumPy does."""
    rules.require_cupy(op, args, kwargs)
    sig = rules.signature_of(op.impl)
    if sig is None:
        raise MetaError(f"cannot bind the arguments of {op.name}")
    return sig.bind(*args, **kwargs).arguments


def _probe(op, given, operands: dict):
    """Run the function with every operand replaced by its well-conditioned stand-in
    (bound again, so positional-only parameters stay positional)."""
    sig = rules.signature_of(op.impl)
    ba = sig.bind_partial()
    ba.arguments.update({k: well_conditioned(operands[k]) if k in operands else v
                         for k, v in given.items()})
    return rules.run_quietly(op.impl, *ba.args, **ba.kwargs)


def _options(given: dict, operands, what: str) -> dict:
    return rules.static({k: v for k, v in given.items() if k not in operands}, what)


def _kind(args, kwargs) -> str:
    return rules.array_kind((args, kwargs))


def _like(value, shape: tuple, kind: str) -> ArrayMeta:
    return rules.result_meta(value, shape, kind)


def _same_tuple(value: tuple, metas: list) -> tuple:
    """``metas`` in the tuple type NumPy returned (a named tuple, or a plain tuple; CuPy
    returns plain tuples)."""
    if hasattr(type(value), "_fields") and metas[0].kind != "cupy":
        return type(value)(*metas)
    return tuple(metas)


def same_shape(op, args, kwargs) -> ArrayMeta:
    """inv, cholesky, matrix_power: the result has the input's shape."""
    given = _given(op, args, kwargs)
    a = _stack(given.get("a"), "a", square=True)
    options = _options(given, ("a",), f"{op.name}'s options")
    if "n" in options:
        operator.index(options["n"])
    value = _probe(op, given, {"a": a})
    return _like(value, a.shape, _kind(args, kwargs))


def det(op, args, kwargs) -> ArrayMeta:
    """det: one value per matrix (a NumPy scalar for one matrix)."""
    given = _given(op, args, kwargs)
    a = _stack(given.get("a"), "a", square=True)
    return _like(_probe(op, given, {"a": a}), a.shape[:-2], _kind(args, kwargs))


def slogdet(op, args, kwargs):
    given = _given(op, args, kwargs)
    a = _stack(given.get("a"), "a", square=True)
    value, kind = _probe(op, given, {"a": a}), _kind(args, kwargs)
    return _same_tuple(value, [_like(v, a.shape[:-2], kind) for v in value])


def eigh(op, args, kwargs):
    """eigh: eigenvalues (..., M) (real) and eigenvectors (..., M, M); eigvalsh: values."""
    given = _given(op, args, kwargs)
    a = _stack(given.get("a"), "a", square=True)
    _options(given, ("a",), "UPLO")
    value, kind = _probe(op, given, {"a": a}), _kind(args, kwargs)
    w = a.shape[:-1]
    if op.name == "eigvalsh":
        return _like(value, w, kind)
    return _same_tuple(value, [_like(value[0], w, kind), _like(value[1], a.shape, kind)])


def pinv(op, args, kwargs) -> ArrayMeta:
    """pinv: (..., M, N) -> (..., N, M); rcond/rtol must be constants."""
    given = _given(op, args, kwargs)
    options = _options(given, ("a",), "pinv's rcond, rtol and hermitian")
    a = _stack(given.get("a"), "a", square=False)
    if options.get("hermitian") and a.shape[-1] != a.shape[-2] and a.shape[-1] * a.shape[-2]:
        raise L.LinAlgError("Last 2 dimensions of the array must be square")  # (NumPy
        # returns an empty result for 0-element matrices before it looks at hermitian)
    value = _probe(op, given, {"a": a})
    return _like(value, a.shape[:-2] + (a.shape[-1], a.shape[-2]), _kind(args, kwargs))


def qr(op, args, kwargs):
    """qr: K = min(M, N); 'reduced' (Q (..., M, K), R (..., K, N)), 'complete'
    (Q (..., M, M), R (..., M, N)), 'r' (R only) or 'raw' ((..., N, M), (..., K))."""
    given = _given(op, args, kwargs)
    a = _stack(given.get("a"), "a", square=False)
    mode = _options(given, ("a",), "mode").get("mode", "reduced")
    if mode not in ("reduced", "complete", "r", "raw"):
        raise MetaError(f"qr(mode={mode!r}): deprecated or unknown modes run eagerly")
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    value, kind = _probe(op, given, {"a": a}), _kind(args, kwargs)
    shapes = {"reduced": [(m, k), (k, n)], "complete": [(m, m), (m, n)], "r": [(k, n)],
              "raw": [(n, m), (k,)]}[mode]
    if mode == "r":
        return _like(value, batch + shapes[0], kind)
    return _same_tuple(value, [_like(v, batch + s, kind) for v, s in zip(value, shapes)])


def svd(op, args, kwargs):
    """svd: U, S (..., K) and Vh, full or reduced; ``compute_uv=False``: S only."""
    given = _given(op, args, kwargs)
    options = _options(given, ("a",), "svd's options")
    a = _stack(given.get("a"), "a", square=bool(options.get("hermitian")))
    batch, (m, n) = a.shape[:-2], a.shape[-2:]
    k = min(m, n)
    value, kind = _probe(op, given, {"a": a}), _kind(args, kwargs)
    if not options.get("compute_uv", True):
        return _like(value, batch + (k,), kind)
    full = options.get("full_matrices", True)
    shapes = [(m, m) if full else (m, k), (k,), (n, n) if full else (k, n)]
    return _same_tuple(value, [_like(v, batch + s, kind) for v, s in zip(value, shapes)])


def solve(op, args, kwargs) -> ArrayMeta:
    """solve(a, b): b is one vector (M,) for every matrix of a, or a stack (..., M, K)
    whose batch broadcasts with a's (NumPy 2's rule)."""
    given = _given(op, args, kwargs)
    a = _stack(given.get("a"), "a", square=True)
    b = _meta(given.get("b"), "b")
    m = a.shape[-1]
    if b.ndim == 0:
        raise ValueError("solve: b must be at least one-dimensional")
    if b.ndim == 1:
        if b.shape[0] != m:
            raise ValueError(f"solve: b has {b.shape[0]} rows, a has {m}")
        shape = a.shape[:-1]
    else:
        if b.shape[-2] != m:
            raise ValueError(f"solve: b has {b.shape[-2]} rows, a has {m}")
        shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    value = _probe(op, given, {"a": a, "b": b})
    return _like(value, shape, _kind(args, kwargs))


def lstsq(op, args, kwargs):
    """lstsq(a, b, rcond): ``a`` (M, N), ``b`` (M,) or (M, K). The solution is (N,) or
    (N, K), the singular values ``min(M, N)``, the rank a NumPy int. The residuals are
    one per column of ``b`` when ``a`` has full column rank N < M and none otherwise:
    the data decides, so their length is a size of its own (``DataSize``), also for
    M <= N, where they are always empty (see the comment below)."""
    given = _given(op, args, kwargs)
    a, b = _meta(given.get("a"), "a"), _meta(given.get("b"), "b")
    if a.ndim != 2:
        raise L.LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-"
                            "dimensional")
    if b.ndim not in (1, 2):
        raise L.LinAlgError(f"{b.ndim}-dimensional array given. Array must be one or "
                            "two-dimensional")
    m, n = a.shape
    if b.shape[0] != m:
        raise L.LinAlgError("Incompatible dimensions")
    _options(given, ("a", "b"), "lstsq's rcond")
    value = _probe(op, given, {"a": a, "b": b})
    kind = _kind(args, kwargs)
    # (a size the data decides even where M <= N makes it 0: a DataSize is 0 to the
    # fit of symbolic sizes, so a literal 0 here would be fitted for every M and N, and
    # an entry made at a square ``a`` would return no residuals once M > N)
    residuals = DataSize()
    return _same_tuple(value, [_like(value[0], (n,) + b.shape[1:], kind),
                               ArrayMeta((residuals,), value[1].dtype, kind, False),
                               _like(value[2], (), kind),
                               _like(value[3], (min(m, n),), kind)])


def matrix_rank(op, args, kwargs) -> ArrayMeta:
    """matrix_rank(A, tol, hermitian, rtol): one count per matrix of a stack (an intp;
    a NumPy int for one matrix), from the singular values, so when the graph runs.
    ``A`` of fewer than 2 dimensions gives a Python int (NumPy's ``int(not all(A ==
    0))``): not an op, it breaks. The tolerances and ``hermitian`` must be constants."""
    given = _given(op, args, kwargs)
    a = _meta(given.get("A"), "A")
    if a.ndim < 2:
        raise MetaError("the rank of a vector or a number is a Python int")
    options = _options(given, ("A",), "matrix_rank's tol, rtol and hermitian")
    _stack(a, "A", square=bool(options.get("hermitian")))
    value = _probe(op, given, {"A": a})
    return _like(value, a.shape[:-2], _kind(args, kwargs))


_SINGULAR = "raises LinAlgError for a singular or not positive definite matrix"
_NO_CONVERGENCE = "raises LinAlgError when the computation does not converge (NaN in the data)"
for _fn, _rule, _raises in (
        (L.solve, solve, _SINGULAR), (L.inv, same_shape, _SINGULAR),
        (L.cholesky, same_shape, _SINGULAR), (L.matrix_power, same_shape, _SINGULAR),
        (L.pinv, pinv, _NO_CONVERGENCE), (L.eigh, eigh, _NO_CONVERGENCE),
        (L.eigvalsh, eigh, _NO_CONVERGENCE), (L.svd, svd, _NO_CONVERGENCE),
        (L.lstsq, lstsq, _NO_CONVERGENCE), (L.matrix_rank, matrix_rank, _NO_CONVERGENCE),
        (L.det, det, None), (L.slogdet, slogdet, None), (L.qr, qr, None)):
    # (np.linalg.det([[a, b], [c, d]]): a list of graph values, listed.takes_lists)
    register(OpDef(_fn.__name__, _fn, takes_lists(_rule), OPAQUE,
                   cupy=f"linalg.{_fn.__name__}",
                   extras={"raises": _raises} if _raises else {},
                   doc=f"np.linalg.{_fn.__name__}: shapes from the input shapes; values "
                       "(and LinAlgError) when the graph runs"),
             functions=[_fn])
