"""Values NumPy lays out in another order than C, carried through the kernel with
NumPy's own strides (issue #23): an einsum's result, a gather ``x[:, idx]`` that only
NumPy's products read, and what elementwise ops and reductions make of them.

Why it matters: a kernel reads and writes every array through its strides (Numba's
indexing), so the values never depend on the layout; but NumPy's choices do. A float
sum adds pairwise along the axis it reads contiguously and one element after the other
along the others, ``np.einsum`` iterates in its operands' memory order (order ``K``),
and a graph output shows its strides. So a value whose eager layout is not C is given
that very layout in the kernel (a C buffer of the axes in memory order, seen
transposed), and every op that reads it must be one whose result this module can
predict: an elementwise op, a reduction over one axis, NumPy's products. Anything else
keeps the graph in tier 1 (``check_reader``).

A layout is an ``order``: the logical axes from the outermost in memory to the
innermost; None for C. NumPy picks it from its operands' strides, so the order of a
result is read from NumPy itself (``probe``): the op run on zeros of the operands'
layouts with every length over 3 cut to 3 (the strides of a transposed C buffer keep
their order when lengths shrink; lengths 0 and 1 are kept).

    >>> probe(np.tanh, [((6, 8, 3), np.dtype("float64"), (1, 0, 2))], {})
    (1, 0, 2)                   # tanh of an einsum's (b, p, c) result: p outermost
    >>> alloc_lines("a4", "g5", (6, 8, 3), "np.float64", (1, 0, 2))
    ['g5 = np.empty((8, 6, 3), np.float64)', 'a4 = g5.transpose((1, 0, 2))']
"""

from __future__ import annotations

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops import impl_table
from dynamo.ops.quiet import warnings_as
from dynamo.ops.registry import ELEMENTWISE, MATMUL, REDUCTION, REGISTRY, VIEW

from .ops import _ELEMENTWISE, _REDUCTIONS, Unsupported

NP_OPS = impl_table("numpy")   # what eager calls for each op
# views that permute axes (their arguments are axes, never lengths: probed as they are)
_AXES_VIEWS = frozenset({"transpose", "swapaxes", "moveaxis"})


def strides_for(shape: tuple, itemsize: int, order: tuple | None) -> tuple:
    """The strides of a C buffer of ``shape``'s axes in ``order`` (None: C), seen in
    the logical order: ``strides_for((6, 8, 3), 8, (1, 0, 2))`` is (24, 144, 8)."""
    order = tuple(range(len(shape))) if order is None else order
    out, step = [0] * len(shape), itemsize
    for ax in reversed(order):
        out[ax] = step
        step *= shape[ax]
    return tuple(out)


def order_of(a: np.ndarray) -> tuple | None:
    """The order of ``a``'s axes in memory (None: C order), or Unsupported where ``a``
    is no transposed C buffer (a view with gaps, an empty array). A length-1 axis ties
    with the axis outside it: it goes inside that one, where its stride comes from."""
    if a.ndim < 2 or a.flags.c_contiguous and a.strides == strides_for(
            a.shape, a.itemsize, None):
        return None
    if a.size == 0:
        raise Unsupported("an empty array in a non-C layout")
    order = tuple(sorted(range(a.ndim), key=lambda k: (-a.strides[k], a.shape[k] == 1)))
    if strides_for(a.shape, a.itemsize, order) != a.strides:
        raise Unsupported("NumPy's result is no transposed C buffer")
    return None if order == tuple(range(a.ndim)) else order


def inverse(order: tuple) -> tuple:
    """The transposition that shows a buffer in ``order`` in the logical axes."""
    return tuple(int(k) for k in np.argsort(order))


def alloc_lines(name: str, buf: str, shape: tuple, dtype_src: str, order) -> list:
    """The kernel's allocation of a new array ``name`` of ``shape`` in ``order``."""
    if order is None:
        return [f"{name} = np.empty({tuple(shape)}, {dtype_src})"]
    return [f"{buf} = np.empty({tuple(shape[k] for k in order)}, {dtype_src})",
            f"{name} = {buf}.transpose({inverse(order)})"]


def _cut(shape) -> tuple:
    return tuple(min(d, 3) for d in shape)


def _zeros(shape, dtype, order):
    if order is None:
        return np.zeros(_cut(shape), dtype)
    return np.zeros(_cut(tuple(shape[k] for k in order)), dtype).transpose(inverse(order))


def probe(fn, operands: list, kwargs: dict) -> tuple | None:
    """The order of ``fn``'s result on arrays of the ``operands``' layouts (each a
    ``(shape, dtype, order)``, or any other value, passed as it is)."""
    args = [_zeros(*o) if isinstance(o, tuple) and len(o) == 3 and isinstance(o[1], np.dtype)
            else o for o in operands]
    try:
        # (no warning either: the lengths cut to 3 may make one the program's own call
        # never shows, ``x.var(axis=0, ddof=4)`` of 6 rows: "Degrees of freedom <= 0")
        with np.errstate(all="ignore"), warnings_as("ignore"):
            r = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (no prediction: the graph stays in tier 1)
        raise Unsupported(f"the layout of {getattr(fn, '__name__', fn)}'s result: "
                          f"{type(e).__name__}") from None
    if not isinstance(r, np.ndarray):
        return None
    return order_of(r)


def _array_meta(value):
    meta = value.meta.get("array") if isinstance(value, Node) else None
    return None if meta is None or getattr(meta, "scalar", True) else meta


def node_order(orders: dict, node) -> tuple | None:
    """NumPy's order for the value of ``node`` (None: C), assuming C-ordered inputs:
    recorded for the values that make a layout (``orders``: gathers, NumPy calls,
    reductions), probed for elementwise ops of laid-out operands; Unsupported where
    a laid-out value meets an op this module does not model."""
    if not isinstance(node, Node) or node.op != CALL:
        return None
    if node in orders:
        return orders[node]
    out = node.kwargs.get("out")
    if out is not None:   # ``x += y``: the value is the ``out=`` array itself
        out = out[0] if isinstance(out, tuple) and len(out) == 1 else out
        orders[node] = node_order(orders, out)
        return orders[node]
    inputs = [a for a in node.inputs() if _array_meta(a) is not None]
    got = [node_order(orders, a) for a in inputs]
    if all(o is None for o in got):
        # (``A.T`` of a C array counts as C, as before: made at its NumPy call, it
        # is NumPy's own there, and the call's check flags a result in another order)
        orders[node] = None
        return None
    if node.target in _AXES_VIEWS:   # ``h.T`` of a laid-out ``h``: NumPy's strides
        orders[node] = probe(_numpy_fn(node), operands(orders, node.args),
                             dict(node.kwargs))
        return orders[node]
    if node.target not in _ELEMENTWISE or node.target in ("copy_method",):
        raise Unsupported(f"{node.target} of a value NumPy lays out in order {got}")
    orders[node] = probe(_numpy_fn(node), operands(orders, node.args), {
        k: v for k, v in node.kwargs.items() if k != "out"})
    return orders[node]


def operands(orders: dict, args) -> list:
    """A node's arguments as ``probe`` takes them."""
    out = []
    for a in args:
        meta = _array_meta(a)
        if meta is not None:
            out.append((tuple(meta.shape), meta.dtype, node_order(orders, a)))
        elif isinstance(a, Node):
            m = a.meta.get("array")
            out.append(m.dtype.type(1) if m is not None and getattr(m, "scalar", False)
                       else 1)
        elif isinstance(a, (tuple, list)):
            out.append(type(a)(operands(orders, a)))
        else:
            out.append(a)
    return out


def _numpy_fn(node: Node):
    try:
        return getattr(NP_OPS, node.target)
    except (AttributeError, NotImplementedError):
        raise Unsupported(f"{node.target} has no NumPy function to probe") from None


def check_reader(orders: dict, node: Node) -> bool:
    """Whether ``node`` reads a value laid out other than C; Unsupported where it reads
    one in a way whose result this module cannot predict (module docstring)."""
    if not _laid_out(orders, node):
        return False
    target = node.target
    if target in _ELEMENTWISE or target in _REDUCTIONS or target == "setitem":
        return True    # (elementwise and stores read through strides; reductions:
                       # ``pairwise_agrees``)
    op = REGISTRY.get(target)
    if op is not None and op.kind in (MATMUL, ELEMENTWISE, REDUCTION):
        return True    # a NumPy call on the very strides eager has (calls.py: ``tanh``)
    if target in _AXES_VIEWS and op is not None and op.kind == VIEW:
        return True    # a view made at its NumPy call (calls.Deferred)
    raise Unsupported(f"{target} reads a value NumPy lays out in another order than C")


def _laid_out(orders: dict, node: Node) -> list:
    """The inputs of ``node`` the kernel holds in another order than C (a view made
    at its NumPy call, ``A.T``, is NumPy's own there: not the kernel's)."""
    return [a for a in node.inputs() if node_order(orders, a) is not None and not (
        isinstance(a, Node) and a.op == CALL and a.target in _AXES_VIEWS)]


def call_order(orders: dict, node: Node) -> tuple | None:
    """The order of the result of ``node``, called through NumPy (calls.py): probed
    for an einsum and for a call that reads a value the kernel holds laid out; for
    one that reads ``h.T`` made at the call, probed where NumPy can run the op on
    zeros, else C (the call's check flags a result in another order)."""
    if node.target == "einsum" or node in orders or _laid_out(orders, node):
        return reader_order(orders, node)
    if all(node_order(orders, a) is None for a in node.inputs()):
        orders[node] = None
        return None
    try:
        return reader_order(orders, node)
    except Unsupported:   # (``solve(h.T, b)``: a LinAlgError on zeros)
        orders[node] = None
        return None


def reader_order(orders: dict, node: Node) -> tuple | None:
    """The order of a NumPy call's or a view's result that ``check_reader`` allowed."""
    if node in orders:
        return orders[node]
    orders[node] = probe(_numpy_fn(node), operands(orders, node.args), dict(node.kwargs))
    return orders[node]


def pairwise_agrees(order: tuple, shape: tuple, axis: int, kernel_pairwise: bool) -> bool:
    """Whether a float sum over ``axis`` of an array in ``order`` adds as the kernel
    does: NumPy sums pairwise along the axis it reads contiguously (the innermost in
    memory of the axes longer than 1), along any other axis one element after the
    other; the kernel (reductions.py) pairwise where the axes after ``axis`` have
    length 1."""
    inner = [k for k in order if shape[k] > 1]
    return (bool(inner) and inner[-1] == axis) == kernel_pairwise
