"""Scalar reads: a Python number made from an array is read as the NumPy scalar itself.

``u = int(np.argmin(d))`` or ``b = int(idx[k])`` is a Python int the program computes
once; the graph keeps it as a *snapshot*, a 0-d copy of the array value
(``copy = ops.copy(argmin)``: a later write must not change it), and reads it back as
the NumPy integer scalar ``copy[()]`` at each use as an index (``x[u]``,
``dynamo/translator/base.py`` ``_array_index``). Where the value copied is already a
NumPy scalar (``np.argmin`` of an array, ``idx[k]`` of a 1-D array: ``meta.scalar``),
it is immutable: no write can change it, and ``copy[()]`` is a scalar of the same type
and value. So each such read is the scalar itself, and the copy, then unread, is
dropped (``np.copy`` cannot fail; ``dce`` keeps it, as it keeps every call it cannot
tell is quiet)::

    for trip in range(trips):                          for trip in range(trips):
        copy = _copy((idx[(trip)]))                        getitem = idx[(trip)]
        scalar_add = ((hist[(copy[()])]) + (w[(trip)]))  ->  hist[getitem] = ((hist[getitem]) + ...)
        getitem_4 = copy[()]
        hist[getitem_4] = scalar_add

A loop trip of a histogram by index then runs one indexing op where it ran a copy (a
``np.copy`` call, about 1 us) and one ``[()]`` per use: the loop node of a 1000-trip
histogram on 32 bins ran at 0.25x the Python loop (scripts/bench_small_loop_nodes.py).
The translator now makes no such copy of a scalar the graph computes
(``dynamo/variables/snapshots.py``, for every backend); the pass still reads the
copies other graphs hold (a scalar input's, a hand-built graph's).

Only where nothing else can tell: every other reader of the copy only reads it (a
ufunc's operand: an op that returns a new array, no view, no write, no ``out=``), and a
read the graph returns is kept (two returned values stay two objects).
``getitem(s, ())`` of a NumPy scalar ``s`` (no copy between) is ``s`` too.

Example::

    >>> [n.target for n in graph.call_nodes()]        # b = int(idx[k]); hist[b] += w[k]
    ['getitem', 'copy', 'getitem', 'getitem', 'getitem', 'scalar_add', 'getitem', 'setitem']
    >>> [n.target for n in scalar_reads(graph).call_nodes()]
    ['getitem', 'getitem', 'getitem', 'scalar_add', 'setitem']
"""

from __future__ import annotations

from dynamo.graph import CALL, OUTPUT, Graph, Node
from dynamo.ops.node_facts import array_meta, returns_fresh

from .rewrite import rewrite


def scalar_reads(graph: Graph) -> Graph:
    """``graph`` with each ``x[()]`` of a NumPy scalar, or of a copy of one that only
    reads see, read as that scalar (``scalar_of``)."""
    def visit(rw, node: Node) -> bool:
        if _unread_copy(node):
            return True       # (dropped: ``dce`` keeps every call that is no ufunc)
        scalar = scalar_of(node)
        if scalar is None:
            return False
        rw.env[node] = rw.env[scalar]
        return True
    if not any(scalar_of(n) is not None for n in graph.call_nodes()):
        return graph
    return rewrite(graph, visit)


def scalar_of(node: Node) -> Node | None:
    """The NumPy scalar ``s`` that ``node``, ``s[()]`` or ``copy(s)[()]``, reads, where
    it is the same value and type; else None."""
    if not _unit_read(node) or any(u.op == OUTPUT for u in node.users):
        return None
    source = node.args[0]
    if _scalar(source):
        return source
    if isinstance(source, Node) and source.op == CALL and source.target == "copy" and \
            len(source.args) == 1 and not source.kwargs and _scalar(source.args[0]) and \
            array_meta(source.args[0]).dtype == array_meta(node).dtype and \
            all(_only_reads(u) for u in source.users):
        return source.args[0]
    return None


def _unread_copy(node: Node) -> bool:
    """``node`` is a copy that only reads ``scalar_reads`` replaces read."""
    return node.op == CALL and node.target == "copy" and bool(node.users) and \
        all(scalar_of(u) is not None for u in node.users)


def _unit_read(node: Node) -> bool:
    """``node`` is ``x[()]`` giving a NumPy scalar."""
    meta = array_meta(node)
    return node.op == CALL and node.target == "getitem" and len(node.args) == 2 and \
        not node.kwargs and type(node.args[1]) is tuple and node.args[1] == () and \
        meta is not None and meta.scalar


def _scalar(value) -> bool:
    meta = array_meta(value)
    return meta is not None and meta.scalar


def _only_reads(user: Node) -> bool:
    """``user`` of a copy reads it and keeps nothing of it while the graph runs:
    ``copy[()]``, an op that returns a new array (``returns_fresh``: a ufunc's operand,
    no view, no write, no ``out=``), or the graph's output (handed back after every
    read)."""
    return user.op == OUTPUT or _unit_read(user) or returns_fresh(user)
