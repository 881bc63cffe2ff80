"""Which memory order NumPy gives a 2-D value of the graph, where a kernel's new
array (always C-ordered) would differ from eager's only by it: ``A[:, cols]``.

NumPy fills ``A[:, cols]`` (A (n, k), cols (m,)) as a buffer of shape (m, n) in C order
and returns it transposed: an F-ordered (n, m) array. A kernel holds it C-ordered; the
values are the same, so only what NumPy derives from the order can tell: a graph
output (its strides), and NumPy's ops whose results follow their operands' order
(``A[:, cols] - 1.0`` is F-ordered too). ``transposed_gather_ok`` allows such a
gather where every value that carries its order ends where the order is gone:

- an elementwise ufunc (``+``, ``np.exp``, ``np.where``...: NumPy's iterator, order
  ``K``) is C-ordered where any operand of its full shape is C-ordered ("C order wins
  conflicts", NumPy's ``npyiter_find_best_axis_ordering``), F-ordered where only
  F-ordered ones are; operands that broadcast ((n, 1), (m,), scalars) have a stride 0
  and take no part. Checked against NumPy 2.4 over C, F, transposed, broadcast and
  scalar operands of ``negative``, ``subtract`` and ``where`` (2026-12-05);
- a store's value (``B[...] = A[:, cols]``) is read element by element.

Anything else that reads an F-ordered value (an output, a reduction, a NumPy call, a
view of it, a loop) keeps the graph in tier 1: a float sum's order, a call's result
layout would follow the memory; unless ``gather_layout`` lays the kernel's array out
as NumPy does (below). The integral-image box filter lowers so::

    s = ii[r1][:, c1] - ii[r0][:, c1] - ii[r1][:, c0] + ii[r0][:, c0]   # F-ordered
    area = (r1 - r0)[:, None] * (c1 - c0)[None, :]                     # C (no votes)
    return s / area                                                    # C: area votes C
"""

from __future__ import annotations

from dynamo.graph import CALL, Node
from dynamo.ops.registry import MATMUL, REGISTRY

from .calls import eligible
from .creation import CREATION
from .ops import _BINARY, _UNARY, Unsupported

# ops whose result order NumPy's iterator picks from the operands' (order "K")
_UFUNCS = frozenset(_BINARY) | frozenset(_UNARY) | {"where", "pow"}
# creation ops that are C-ordered whatever their arguments (not the ``_like`` forms)
_C_CREATION = frozenset(c for c in CREATION if not c.endswith("_like"))


def _shape(node) -> tuple | None:
    meta = node.meta.get("array") if isinstance(node, Node) else None
    return None if meta is None or meta.scalar else tuple(meta.shape)


def _full(shape) -> bool:
    return shape is not None and len(shape) == 2 and all(
        type(d) is int and d > 1 for d in shape)


def _is_transposed_gather(node: Node) -> bool:
    """``A[:, cols]`` of a 2-D ``A`` and a 1-D integer ``cols`` array."""
    if node.op != CALL or node.target != "getitem" or len(node.args) != 2:
        return False
    base, index = node.args
    return (isinstance(index, tuple) and len(index) == 2 and index[0] == slice(None)
            and isinstance(index[1], Node) and _shape(index[1]) is not None
            and len(_shape(index[1])) == 1 and _shape(base) is not None
            and len(_shape(base)) == 2)


def order_of(node, memo: dict, depth: int = 0) -> str | None:
    """``"C"`` or ``"F"``: NumPy's order for ``node``, a value of 2 dimensions of
    size > 1; None where this module cannot tell (an input, an op it does not model)."""
    if node in memo:
        return memo[node]
    memo[node] = None
    if depth > 200 or not isinstance(node, Node) or node.op != CALL:
        return None
    shape = _shape(node)
    if not _full(shape):
        return None
    target = node.target
    got = None
    if _is_transposed_gather(node):
        got = "F"
    elif target in _C_CREATION:
        got = "C"
    elif target in _UFUNCS and not node.kwargs:
        votes = []
        for arg in node.args:
            if _shape(arg) == shape:   # (broadcast operands have a stride 0: no vote)
                votes.append(order_of(arg, memo, depth + 1))
        got = None if None in votes else "C" if "C" in votes or not votes else "F"
    memo[node] = got
    return got


def transposed_gather_ok(graph, node: Node) -> None:
    """Unsupported unless every value that carries ``A[:, cols]``'s F order (the
    gather ``node`` and the ufuncs it makes F-ordered) is read only by ufuncs of its
    shape or as a store's value."""
    if not _is_transposed_gather(node) or not _full(_shape(node)):
        raise Unsupported("array indices after a slice (NumPy's result is not C-ordered)")
    memo: dict = {}
    todo, seen = [node], set()
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        for user in f.users:
            if _store_value(user, f):
                continue   # a store's value: read element by element
            if user.op == CALL and user.target in _UFUNCS and not user.kwargs and \
                    _shape(user) == _shape(node):
                order = order_of(user, memo)
                if order == "C":
                    continue
                if order == "F":
                    todo.append(user)
                    continue
            raise Unsupported("an F-ordered value of ``A[:, cols]`` read where its "
                              f"order shows ({user.op} {user.target})")


def _store_value(user: Node, f: Node) -> bool:
    """``user`` is a ``setitem`` that reads ``f`` only as its value (element by element)."""
    return user.op == CALL and user.target == "setitem" and len(user.args) == 3 \
        and user.args[2] is f and user.args[0] is not f \
        and f not in (user.args[1] if isinstance(user.args[1], tuple) else (user.args[1],))


def read_by_numpy_products(node: Node) -> bool:
    """Every user of ``node`` is a product called through NumPy (``einsum``,
    ``matmul``...: calls.py, which passes the kernel's array with its strides) or a
    store's value: nothing the kernel computes itself depends on the array's memory
    order."""
    return bool(node.users) and all(
        _store_value(u, node) or (
            u.op == CALL and REGISTRY.get(u.target) is not None
            and REGISTRY[u.target].kind == MATMUL and eligible(u)
            and node not in u.kwargs.values())
        for u in node.users)


def gather_layout(graph, node: Node) -> bool:
    """For a gather whose index arrays stand together after a slice (``x[:, idx]``):
    False where a C-ordered kernel array cannot be told from NumPy's (the 2-D rule
    above, ``transposed_gather_ok``); True where the kernel must lay its array out as
    NumPy does (every user a NumPy product or a store: ``read_by_numpy_products``);
    Unsupported otherwise.

    NumPy's layout: a C-ordered buffer of the index's broadcast shape first, then the
    sliced axes in order, transposed to the result's axes. ``x[:, idx]``, x (6, 12),
    idx (8, 5): a buffer (8, 5, 6), the result (6, 8, 5) with strides (8, 240, 48);
    x (6, 12, 3): a buffer (8, 5, 6, 3), strides (24, 720, 144, 8) (NumPy 2.4). An
    einsum of that result iterates in its strides' order (order ``K``), so a C-ordered
    array would be summed in another order: the conv net by gathered windows,
    ``np.einsum("bpw,wc->bpc", x[:, idx], kern)``."""
    try:
        transposed_gather_ok(graph, node)
        return False
    except Unsupported:
        if read_by_numpy_products(node):
            return True
        raise
