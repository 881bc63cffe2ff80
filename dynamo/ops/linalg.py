"""Linear algebra: ``matmul`` (``@``, batched, broadcasting), ``dot``, ``vdot``, ``inner``,
``outer``, ``tensordot``, ``einsum``, ``trace``, ``diag``, ``diagflat``, ``diagonal``.

Shapes follow NumPy's documented formulas (1-d operands promoted and the added axis
removed again, batch dimensions broadcast); ``tensordot``, ``einsum`` and ``trace``
run the real function on *shrunk* ghosts (:func:`dynamo.ops.rules.shrunk_run`), which
keeps every size equality NumPy checks while doing almost no work. ``linalg.norm``
is a reduction (see :mod:`dynamo.ops.reductions`).

Example::

    >>> op = get("matmul")
    >>> f32 = np.dtype("float32")
    >>> op.meta(op, (ArrayMeta((5, 1, 3, 4), f32), ArrayMeta((2, 4, 6), f32)), {}).shape
    (5, 2, 3, 6)
"""

from __future__ import annotations

import numpy as np

from . import rules
from .listed import constant_list_meta, holds_arrays, listed_meta, takes_lists
from .meta import NUMPY, ArrayMeta
from .registry import MATMUL, OPAQUE, VIEW, OpDef, register
from .rules import MetaError


def _two_arrays(op, args) -> tuple[ArrayMeta, ArrayMeta]:
    a, b = args
    if not (isinstance(a, ArrayMeta) and isinstance(b, ArrayMeta)):
        raise MetaError(f"{op.name} of a Python value")
    return a, b


def matmul_shape(a: tuple, b: tuple) -> tuple:
    if len(a) == 0 or len(b) == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    ashape = (1,) + a if len(a) == 1 else a
    bshape = b + (1,) if len(b) == 1 else b
    if ashape[-1] != bshape[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n?,k),(k,m?)->(n?,m?) "
                         f"(size {bshape[-2]} is different from {ashape[-1]})")
    shape = np.broadcast_shapes(ashape[:-2], bshape[:-2]) + (ashape[-2], bshape[-1])
    if len(a) == 1:
        shape = shape[:-2] + shape[-1:]
    if len(b) == 1:
        shape = shape[:-1]
    return shape


def matmul(op, args, kwargs) -> ArrayMeta:
    """``a @ b`` with NumPy's 1-d promotion and batch broadcasting; ``out=``, ``dtype=``."""
    kind = rules.array_kind((args, kwargs))
    if set(kwargs) - {"out", "dtype", "casting"}:
        raise MetaError(f"matmul keywords {sorted(kwargs)}")
    a, b = _two_arrays(op, args)
    shape = matmul_shape(a.shape, b.shape)
    if kwargs.get("out") is not None:
        return rules.out_result(op, args, kwargs, shape, kind)
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    return rules.result_meta(value, shape, kind)


def dot(op, args, kwargs) -> ArrayMeta:
    """``np.dot``: matmul for ndim <= 2, a product with scalars, a sum-product otherwise."""
    if kwargs.get("out") is not None or set(kwargs) - {"out"}:
        raise MetaError("dot(out=) needs a C-contiguous out of the exact dtype")
    a, b = args
    if (holds_arrays(a) or holds_arrays(b)) and \
            all(m.kind == NUMPY for m in rules.metas_in(args)):
        # np.dot([a, b], w): NumPy converts a list of graph values (listed.py); the
        # graph keeps the list, and the backend's np.dot converts it as the program's
        a, b = (listed_meta(v, "an operand") if holds_arrays(v) else v for v in args)
        args = (a, b)
    if not isinstance(a, ArrayMeta) or not isinstance(b, ArrayMeta) or a.ndim == 0 or \
            b.ndim == 0:
        if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
            raise MetaError("dot of a Python sequence")
        return rules.elementwise(op, args, {})
    kind = rules.array_kind(args)
    if a.ndim <= 2 and b.ndim <= 2:
        shape = matmul_shape(a.shape, b.shape)
    else:
        k = b.shape[-2] if b.ndim >= 2 else b.shape[0]
        if a.shape[-1] != k:
            raise ValueError(f"shapes {a.shape} and {b.shape} not aligned")
        shape = a.shape[:-1] + (b.shape[:-2] + b.shape[-1:] if b.ndim >= 2 else ())
    value = rules.probe_result(op, args, {}, keep_ndim=True)
    return rules.result_meta(value, shape, kind)


def vdot(op, args, kwargs) -> ArrayMeta:
    a, b = _two_arrays(op, args)
    if a.size != b.size:
        raise ValueError("cannot reshape array: vdot needs equal sizes")
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    return rules.result_meta(value, (), rules.array_kind(args))


def inner(op, args, kwargs) -> ArrayMeta:
    a, b = args
    if not isinstance(a, ArrayMeta) or not isinstance(b, ArrayMeta) or a.ndim == 0 or \
            b.ndim == 0:
        if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
            raise MetaError("inner of a Python sequence")
        return rules.elementwise(op, args, {})
    if a.shape[-1] != b.shape[-1]:
        raise ValueError("shapes not aligned: last dimensions differ")
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    return rules.result_meta(value, a.shape[:-1] + b.shape[:-1], rules.array_kind(args))


def outer(op, args, kwargs) -> ArrayMeta:
    params = rules.bind(op, args, kwargs)
    if params.get("out") is not None:
        raise MetaError("outer(out=)")
    a, b = _two_arrays(op, (params["a"], params["b"]))
    value = rules.probe_result(op, args, kwargs, keep_ndim=True)
    return ArrayMeta((a.size, b.size), value.dtype, rules.array_kind(args), False)


def shrunk(op, args, kwargs) -> ArrayMeta:
    """tensordot, trace: every output size is an input size."""
    params = rules.bind(op, args, kwargs)
    arrays = [k for k in ("a", "b") if k in params]
    if params.get("out") is not None:
        raise MetaError(f"{op.name}(out=)")
    if not all(isinstance(params[k], ArrayMeta) for k in arrays):
        raise MetaError(f"{op.name} of a Python value")
    rules.static({k: v for k, v in params.items() if k not in arrays}, f"{op.name}'s axes")
    value, shape = rules.shrunk_run(op, args, kwargs)
    return rules.result_meta(value, shape, rules.array_kind((args, kwargs)))


def einsum(op, args, kwargs) -> ArrayMeta:
    """``np.einsum('ij,jk->ik', a, b)``: the subscript form only."""
    if not args or not isinstance(args[0], str):
        raise MetaError("einsum's interleaved (operand, sublist) form")
    if kwargs.get("out") is not None:
        raise MetaError("einsum(out=)")
    operands = args[1:]
    if not all(isinstance(a, ArrayMeta) for a in operands):
        raise MetaError("einsum of a Python value")
    rules.static(kwargs, "einsum's keywords")
    value, shape = rules.shrunk_run(op, args, kwargs)
    return rules.result_meta(value, shape, rules.array_kind(operands))


def diag(op, args, kwargs) -> ArrayMeta:
    """1-d: a new (n+|k|)-square matrix; 2-d: the k-th diagonal (a view)."""
    params = rules.bind(op, args, kwargs)
    listed = holds_arrays(params["v"])
    if listed:   # np.diag([a, b]), np.diag([[a, b], [c, d]]): NumPy converts the list
        params["v"] = listed_meta(params["v"], "v")   # (listed.py)
    elif isinstance(params["v"], (list, tuple)):
        # a list of constants (``Q = q * np.diag([dt ** 4 / 4, dt ** 2, 1.0])``): the
        # array np.asarray makes of it, which the backend's call makes again
        listed = True
        params["v"] = constant_list_meta(params["v"], "v")
    v, k = rules.first_array(params, "v"), rules.static(params.get("k", 0), "k")
    if v.ndim == 2:   # (of a list of rows: the diagonal of the array NumPy makes of it)
        return rules.on_ghosts(op, (v, k), {}) if listed else rules.on_ghosts(op, args, kwargs)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    n = v.shape[0] + abs(int(k))
    return ArrayMeta((n, n), v.dtype, v.kind, False)


def diagflat(op, args, kwargs) -> ArrayMeta:
    """``np.diagflat(v, k)``: ``v`` flattened (any ndim, 0-d too) on the k-th diagonal
    of a new square matrix of side ``v.size + |k|``.

    Example: ``np.diagflat(d)`` of a (5,) float64 ``d`` is (5, 5) float64, and of a
    (2, 3) ``d`` with ``k=-1`` it is (7, 7)."""
    params = rules.bind(op, args, kwargs)
    v, k = rules.first_array(params, "v"), rules.static(params.get("k", 0), "k")
    size = 1
    for d in v.shape:        # a symbolic size stays symbolic
        size = size * d
    n = size + abs(int(k))
    return ArrayMeta((n, n), v.dtype, v.kind, False)


# (a list of graph values as an operand, ``np.outer([a, b], w)``: listed.takes_lists)
register(OpDef("matmul", np.matmul, takes_lists(matmul), MATMUL), functions=[np.matmul])
register(OpDef("dot", np.dot, dot, MATMUL), functions=[np.dot], methods=["dot"])
register(OpDef("vdot", np.vdot, takes_lists(vdot), MATMUL), functions=[np.vdot])
register(OpDef("inner", np.inner, takes_lists(inner), MATMUL), functions=[np.inner])
register(OpDef("outer", np.outer, takes_lists(outer), MATMUL), functions=[np.outer])
register(OpDef("tensordot", np.tensordot, takes_lists(shrunk), MATMUL),
         functions=[np.tensordot])
register(OpDef("einsum", np.einsum, einsum, MATMUL), functions=[np.einsum])
register(OpDef("trace", np.trace, takes_lists(shrunk, (0,)), MATMUL), functions=[np.trace],
         methods=["trace"])
register(OpDef("diagonal", np.diagonal, rules.on_ghosts, VIEW), functions=[np.diagonal],
         methods=["diagonal"])
register(OpDef("diag", np.diag, diag, VIEW, doc="2-d: a view of the diagonal; 1-d: new"),
         functions=[np.diag])
register(OpDef("diagflat", np.diagflat, takes_lists(diagflat, (0,)), OPAQUE),
         functions=[np.diagflat])
