"""Stores into 1-D slices of run-time length, of elementwise values of such slices
(Levinson-Durbin's ``a[:k + 1] = a[:k + 1] + lam * a[k::-1]``, ``k`` a loop's index).

The nests elsewhere have constant extents; here the length is the kernel's: each
slice is a Numba slice of its base (Numba clamps the bounds as Python's
``slice.indices``, negative steps included), the length the target's, and every
operand slice must have it (another length, which NumPy broadcasts or refuses, flags
the call: tier 1 reruns it, and the loops run no trip meanwhile). The value is
computed whole into a new array first and then stored, as eager computes the
right-hand side before the store (``a[k::-1]`` reads what ``a[:k + 1]`` overwrites).

What is lowered (``run_part``): float64 only; ``getitem`` of a 1-D float64 array by
one slice with a run-time bound and a constant nonzero step, and ``add``,
``subtract``, ``multiply``, ``true_divide``, ``negative`` of such values and float64
scalars (variables of the kernel, Python numbers), every user of which is another
such node or the value of a ``setitem`` into such a slice of a new array of the
kernel (an input's store would need a backup of run-time extent: saves.py). No casts
(all float64); a result that is NaN or infinite flags the call (NumPy warns on some
of them; tier 1 reruns every one).

Example: ``a[:k + 1] = a[:k + 1] + lam * a[k::-1]`` in a loop node::

    v12 = c4[:np.int64((trip3 + 3))]
    s13 = v12.shape[0]
    v14 = c4[:np.int64((trip3 + 3))]
    v15 = c4[np.int64((trip3 + 2))::-1]
    _nf |= not (v14.shape[0] == s13 and v15.shape[0] == s13)
    s16 = s13 if v14.shape[0] == s13 and v15.shape[0] == s13 else 0
    a17 = np.empty(s16, np.float64)
    for i18 in range(s16):
        t19 = (v14[i18] + (s9 * v15[i18]))
        _nf |= (t19 - t19) != 0.0
        a17[i18] = t19
    for i18 in range(s16):
        v12[i18] = a17[i18]
"""

from __future__ import annotations

import math

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops.node_facts import has_effect

from .emitter import SEQ_FLAG
from .ops import Unsupported
from .values import Arr, Const, Lazy, Scal

_F64 = np.dtype(np.float64)
_OPS = {"add": "+", "subtract": "-", "multiply": "*", "true_divide": "/", "divide": "/"}


class RunPart:
    """A node of a run-time-length store's value, emitted at the store."""

    def __init__(self, node: Node):
        self.node = node


def _meta(node) -> object | None:
    return node.meta.get("array") if isinstance(node, Node) else None


def _run_vector(node) -> bool:
    """A 1-D float64 NumPy value whose length is not a constant."""
    meta = _meta(node)
    return meta is not None and getattr(meta, "kind", None) == "numpy" and \
        not getattr(meta, "scalar", True) and meta.dtype == _F64 and \
        len(meta.shape) == 1 and type(meta.shape[0]) is not int


def _one_slice(index):
    items = index if isinstance(index, tuple) else (index,)
    if len(items) != 1 or not isinstance(items[0], slice):
        return None
    step = items[0].step
    if step is not None and (type(step) is not int or step == 0):
        return None
    return items[0]


def _scalar_operand(arg) -> bool:
    if isinstance(arg, (bool, np.bool_)):
        return False
    if isinstance(arg, (int, float)):
        return math.isfinite(arg) and (type(arg) is float or abs(arg) < 2 ** 53)
    meta = _meta(arg)
    return meta is not None and getattr(meta, "scalar", False) and meta.dtype == _F64


def _shape_of(node: Node) -> bool:
    """Whether ``node`` itself is of the lowered forms (its operands aside)."""
    if node.op != CALL or node.kwargs or not _run_vector(node):
        return False
    if node.target == "getitem":
        base, index = node.args
        meta = _meta(base)
        return meta is not None and not getattr(meta, "scalar", True) and \
            meta.dtype == _F64 and len(meta.shape) == 1 and _one_slice(index) is not None
    if node.target == "negative":
        return len(node.args) == 1
    return node.target in _OPS and len(node.args) == 2


def _store_of(node: Node, user: Node) -> bool:
    """Whether ``user`` stores ``node`` into a run-time-length slice (the value only)."""
    if user.op != CALL or user.target != "setitem" or user.kwargs or len(user.args) != 3:
        return False
    base, index, value = user.args
    meta = _meta(base)
    return value is node and base is not node and index is not node and \
        meta is not None and not getattr(meta, "scalar", True) and meta.dtype == _F64 and \
        len(meta.shape) == 1 and _one_slice(index) is not None and \
        any(b is not None and not isinstance(b, int) for b in
            (_one_slice(index).start, _one_slice(index).stop))


def run_part(node: Node) -> bool:
    """Whether ``node`` is part of a run-time-length store's value (module docstring):
    its form, its operands' and its users'."""
    return _shape_of(node) and _operands_ok(node) and _users_ok(node)


def _operands_ok(node: Node) -> bool:
    if node.target == "getitem":
        return True
    return all((_shape_of(a) and _operands_ok(a)) if _run_vector(a) else _scalar_operand(a)
               for a in node.args)


def _users_ok(node: Node) -> bool:
    users = list(node.users)
    return bool(users) and all(_store_of(node, u) or (_shape_of(u) and _users_ok(u))
                               for u in users)


def _no_write_between(graph, value: Node, store: Node) -> None:
    """Unsupported unless nothing writes memory from the first node of the store's
    value to the store: the kernel computes the value at the store, eager where
    each node is."""
    parts, todo = set(), [value]
    while todo:
        n = todo.pop()
        if isinstance(n, Node) and n not in parts and _run_vector(n):
            parts.add(n)
            todo += list(n.args)
    order = {n: k for k, n in enumerate(graph.nodes)}
    first = min(order[n] for n in parts)
    for n in list(graph.nodes)[first + 1:order[store]]:
        if n.op == CALL and (n.target in ("setitem", "fori_loop") or has_effect(n)):
            raise Unsupported("a write while a run-time-length store's value is read")


class RunStores:
    """Methods of ``_Block`` (block.py): the run-time-length stores."""

    def run_slice(self, base, index) -> str:
        """``base[index]`` (one slice with run-time bounds) as a Numba view's name."""
        v = self.val(base)
        if isinstance(v, Lazy):
            v = self.force(base)
        if not isinstance(v, Arr) or len(v.shape) != 1 or v.dtype != _F64:
            raise Unsupported("a run-time-length slice of a view or a non-array")
        it = _one_slice(index)
        bounds = ["" if b is None else self.bound(b) for b in (it.start, it.stop)]
        step = "" if it.step is None else f":{it.step}"
        name = self.em.new("v")
        self.em.line(f"{name} = {v.name}[{bounds[0]}:{bounds[1]}{step}]")
        return name

    def run_store(self, node: Node):
        """``setitem`` of a ``RunPart`` into a slice with run-time bounds of a new
        array: the module docstring's loops."""
        base, index, value = node.args
        target = self.val(base)
        if isinstance(target, Lazy):
            target = self.force(base)
        if not isinstance(target, Arr) or target.save is not None or target.input is not None:
            raise Unsupported("a run-time-length store into an input or a view")
        _no_write_between(self.graph, value, node)
        self.written(target.key)
        em = self.em
        dest = self.run_slice(base, index)
        n = em.new("s")
        em.line(f"{n} = {dest}.shape[0]")
        leaves: dict = {}
        i = em.new("i")
        stmts: list = []
        expr = self._run_expr(value, i, leaves, stmts)
        m = em.new("s")
        same = " and ".join(f"{v}.shape[0] == {n}" for v in leaves.values()) or "True"
        em.line(f"{SEQ_FLAG} |= not ({same})")
        em.line(f"{m} = {n} if {same} else 0")
        tmp = em.new("a")
        em.line(f"{tmp} = np.empty({m}, np.float64)")
        em.line(f"for {i} in range({m}):")
        for s in stmts:
            em.line("    " + s)
        t = em.new("t")
        em.line(f"    {t} = {expr}")
        em.line(f"    {SEQ_FLAG} |= ({t} - {t}) != 0.0")
        em.line(f"    {tmp}[{i}] = {t}")
        em.line(f"for {i} in range({m}):")
        em.line(f"    {dest}[{i}] = {tmp}[{i}]")
        return target

    def _run_expr(self, arg, i: str, leaves: dict, stmts: list) -> str:
        if not isinstance(arg, Node):
            return repr(float(arg))
        v = self.env.get(arg)
        if isinstance(v, Scal):
            if v.dtype != _F64:
                raise Unsupported("a run-time-length store's scalar of another dtype")
            return v.name
        if isinstance(v, Const):
            return repr(float(v.value))
        if not isinstance(v, RunPart):
            raise Unsupported("a run-time-length store's operand")
        if arg.target == "getitem":
            if arg not in leaves:
                leaves[arg] = self.run_slice(*arg.args)
            return f"{leaves[arg]}[{i}]"
        ops = [self._run_expr(a, i, leaves, stmts) for a in arg.args]
        if arg.target == "negative":
            return f"(-{ops[0]})"
        return f"({ops[0]} {_OPS[arg.target]} {ops[1]})"
