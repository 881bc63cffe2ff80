"""Common-subexpression elimination: compute each pure value once.

Two calls with the same op and the same arguments (the same nodes, literals of the
same type and bits) give the same value, so the second one reads the first's result.
Only calls that return a fresh array qualify (elementwise, reductions, matrix
products; no writes, no random draws). Sharing one array must stay invisible, so a
pair is merged only when neither result is written to or viewed by another op, and
at most one of them is returned to the caller (two returned results must stay two
distinct arrays). A write (``out=``, ``x[i] = v``, ``x += y``) ends the stretch in
which values can be shared: the same call after it may read other contents (through
a view, ``x.reshape(-1)[:] *= 3`` changes ``x`` without a new node for ``x``).

Two calls also report their floating-point conditions twice (two RuntimeWarnings,
two calls of the ``np.seterrcall`` function), so a call that may signal one is merged
only in graphs the ``numpy`` backend reruns op by op on any visible condition
(``signals.rerun_on_signal``), and only when floating-point conditions are all it may
signal (``signals.fp_signals_only``); elsewhere only calls that cannot signal
anything (integer arithmetic) are merged.

Views are merged too: ``u[1:-1]`` read three times in one stencil line is one view.
Only views that are always views (basic indexing with static bounds, transposes;
``reshape`` may copy, ``x[i]`` with ``i`` a graph value may raise, ``x[0]`` of a 1-D
``x`` is a scalar copy). Two such views are the same window onto the same memory;
still a write ends their stretch too, so that a reader after a write keeps reading a
node made after it (the order a backend keeps). As for values, two returned views
stay two objects.

Example::

    def layernorm(x, g, b):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * g + b   # the second x - mu is the first

Reads at an index the graph computes are merged too, up to the next op with an
effect: ``X[i]`` twice in one trip of a loop body (``i`` the loop's index, ``trip + 1``;
or a NumPy integer ``u = int(np.argmin(d))``, ``sums[u]``). The index is an integer,
the same on both reads, so they are the same view, or (``x[i]`` of a 1-D ``x``) the
same NumPy scalar while nothing writes (any op with an effect ends their stretch: a
write, a nested loop node writing its carried arrays). Where the first raises
``IndexError``, the second is never reached. The element an ``if`` on the data keeps
(``x[i] = where(flag, v, x[i])``) stays its own read: the numpy backend skips it with
the write where the ``if`` was not taken.

Sharing keeps the first value alive until the second's readers, where eager freed it
at once. Across an op that works on a copy of a large array (``np.median`` and the
other sorting reductions, ``np.sort``, a solve, an FFT) that is one more large array
alive beside the op's own copy: the peak memory rises by the shared value's size.
So a large value (``LARGE_BYTES`` or a size only the call knows) is computed again
rather than held across such an op::

    mad = np.median(np.abs(X - med), axis=0)      # eager: X - med freed before the copy
    z = 0.6745 * (X - med) / mad                  # recomputed: one more pass, no more memory
"""

from __future__ import annotations

from dynamo.graph import CALL, OUTPUT, Graph, Node
from dynamo.ops import ELEMENTWISE, MATMUL, OPAQUE, REDUCTION, VIEW
from dynamo.ops.node_facts import array_meta, has_effect, is_inplace
from dynamo.ops.signals import REPORTS_DIFFER, fp_signals_only, may_signal, rerun_on_signal
from dynamo.symbolic.graph_args import SymArg
from dynamo.tree import tree_leaves

from .rewrite import literal_key, rewrite

_PURE = frozenset({ELEMENTWISE, REDUCTION, MATMUL})

# A value at least this large is not held across an op that copies a large input.
LARGE_BYTES = 1 << 16
# Reductions that sort (partition) a copy of their input.
_SORTING_REDUCTIONS = frozenset({"median", "nanmedian", "percentile", "nanpercentile",
                                 "quantile", "nanquantile"})


def _nbytes(node: Node) -> int | None:
    """The node's array size in bytes; None where a size is symbolic (or no array)."""
    meta = array_meta(node)
    if meta is None or not all(type(d) is int for d in meta.shape):
        return None
    count = 1
    for d in meta.shape:
        count *= d
    return count * meta.dtype.itemsize


def _copies_input(node: Node) -> bool:
    """``node`` works on a copy of (or allocates like) an array argument: an opaque
    library call or a sorting reduction."""
    if node.op != CALL:
        return False
    kind = node.meta.get("kind")
    return kind == OPAQUE or (kind == REDUCTION and node.target in _SORTING_REDUCTIONS)


def _held_across_copy(prev: Node, node: Node, order: list[Node],
                      position: dict[Node, int]) -> bool:
    """Sharing ``prev`` with ``node`` would keep a large array alive across an op that
    copies an input at least half its size (see the module docstring)."""
    size = _nbytes(prev)
    if size is not None and size < LARGE_BYTES:
        return False
    for n in order[position[prev] + 1:position[node]]:
        if _copies_input(n) and any(
                (b := _nbytes(a)) is None or size is None or 2 * b >= size
                for a in tree_leaves(n.args) if array_meta(a) is not None):
            return True
    return False


def _pure(node: Node) -> bool:
    return node.op == CALL and node.meta.get("kind") in _PURE and not has_effect(node)


def _window(node: Node) -> bool:
    """``node`` is always a view of its first argument, and cannot fail: ``x[1:-1, 0]``
    (ints, slices, ``None``, ``...``, no graph value in the index) or ``x.T``. Not
    ``x[0]`` of a 1-D ``x``: a NumPy scalar, a copy of what ``x`` held then."""
    meta = array_meta(node)
    if node.op != CALL or node.meta.get("kind") != VIEW or node.kwargs or \
            meta is None or meta.scalar or \
            any(isinstance(v, Node) or hasattr(v, "map_nodes")
                for v in tree_leaves(node.args[1:])):
        return False
    if node.target == "transpose":
        return len(node.args) == 1
    if node.target != "getitem" or len(node.args) != 2:
        return False
    index = node.args[1]
    parts = index if type(index) is tuple else (index,)
    return all(type(p) in (int, slice, type(None)) or p is Ellipsis for p in parts)


def _indexed_read(node: Node) -> bool:
    """``node`` is ``x[index]``, a basic index (ints, slices, ``None``, ``...``) with
    an integer the graph computes in it (a loop's index expression, a 0-d integer
    value): a view of ``x``, or the NumPy scalar it holds. (``_window`` takes those
    with no graph value; an index array would make a copy, a boolean a mask.)"""
    if node.op != CALL or node.target != "getitem" or len(node.args) != 2 or \
            node.kwargs or array_meta(node) is None:
        return False
    index = node.args[1]
    parts = index if type(index) is tuple else (index,)
    computed = False
    for p in parts:
        if isinstance(p, SymArg) or isinstance(p, Node) and _integer_0d(p):
            computed = True
        elif type(p) is slice:
            if any(isinstance(b, Node) for b in (p.start, p.stop, p.step)):
                return False
            computed = computed or any(isinstance(b, SymArg) for b in (p.start, p.stop, p.step))
        elif not (type(p) in (int, type(None)) or p is Ellipsis):
            return False
    return computed


def _kept_by_a_select(node: Node) -> bool:
    """``node`` is the element a held-back write keeps, ``x[i] = where(flag, v, x[i])``
    (``translator/select_writes.py`` marks the ``where``): its own read, which the numpy
    backend skips with the write on the way that keeps it (``select_code.py``)."""
    return any(u.meta.get("store_select") for u in node.users)


def _integer_0d(node: Node) -> bool:
    meta = array_meta(node)
    return meta is not None and meta.ndim == 0 and meta.dtype.kind in "iu"


def _aliased(node: Node) -> bool:
    """Some op other than a pure reader uses the node (a view, a write, ...)."""
    return any(u.op != OUTPUT and (not _pure(u) or is_inplace(u)) for u in node.users)


def _returned(node: Node) -> bool:
    return any(u.op == OUTPUT for u in node.users)


def cse(graph: Graph) -> Graph:
    seen: dict[tuple, Node] = {}
    views: dict[tuple, Node] = {}
    indexed: dict[tuple, Node] = {}
    returned: set[Node] = {n for n in graph.nodes if _returned(n)}
    guarded = rerun_on_signal(graph)
    order = list(graph.nodes)
    position = {n: i for i, n in enumerate(order)}

    def mergeable(node: Node) -> bool:
        return not may_signal(node) or (guarded and fp_signals_only(node))

    def visit(rw, node: Node) -> bool:
        if _window(node):
            return merge(rw, node, views, ("view", node.target, literal_key(rw.arg(node.args))))
        if _indexed_read(node) and not _kept_by_a_select(node):
            return merge(rw, node, indexed, ("indexed", literal_key(rw.arg(node.args))))
        if has_effect(node):
            indexed.clear()   # (a nested loop writes its carried arrays, no is_inplace)
        if is_inplace(node):
            # A write may change what any earlier value's arguments hold (`x` itself, or
            # through a view: `a = x * 2; x.reshape(-1)[:] *= 3; b = x * 2`): values
            # computed before it are not values computed after it.
            seen.clear()
            views.clear()
            return False
        if not _pure(node) or _aliased(node) or not mergeable(node):
            return False
        key = (node.target, literal_key(rw.arg(node.args)), literal_key(rw.arg(node.kwargs)))
        return merge(rw, node, seen, key)

    def merge(rw, node: Node, seen: dict, key: tuple) -> bool:
        """Read the first node of ``key`` for ``node``, if there is one."""
        prev = seen.get(key)
        if prev is None:
            seen[key] = node
            return False
        if prev in returned and node in returned:
            return False
        if _held_across_copy(prev, node, order, position):
            return False
        rw.env[node] = rw.env[prev]
        if may_signal(node):   # eager would report its conditions twice
            rw.env[prev].meta[REPORTS_DIFFER] = True
        if node in returned:
            returned.add(prev)
        return True

    return rewrite(graph, visit)
