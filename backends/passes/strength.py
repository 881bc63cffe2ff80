"""Strength reduction: replace slow ops by cheaper ones that compute the same thing.

=====================  ==================================  ========================
written                becomes                             result
=====================  ==================================  ========================
``x ** 2``             ``np.square(x)``                    bit-identical
``x ** 0.5``           ``np.sqrt(x)``                      bit-identical
``x ** 1`` / ``-1``    ``np.positive(x)`` / ``np.reciprocal(x)``  bit-identical
``x ** n``, 3<=n<=16   squarings and multiplies            within float rounding
``x / c``, c = +-2**k  ``x * (1 / c)``                     bit-identical
=====================  ==================================  ========================

NumPy already takes these fast paths for 2, 0.5, 1 and -1, but as ``np.square`` and
friends the fused backends can run them with ``out=``. ``x ** 3`` is the real win:
NumPy calls ``pow`` per element (157 ms at 1e7 float32, ``x*x*x`` 22 ms). Products
round after each multiply, so ``x ** n`` may differ from ``pow`` in the last bits
(at most about ``n`` ulp); integer powers of integers are exact. Division by a
constant becomes a multiply only when the reciprocal is a power of two that is a
normal number in the result dtype: then both round the same real value. A rewrite
is kept only when the new ops' result has exactly the old shape and dtype.

Example::

    def gelu(x):
        return 0.5 * x * (1.0 + np.tanh(0.79788456 * (x + 0.044715 * x ** 3)))
    # x ** 3 -> t = np.square(x); np.multiply(t, x)
"""

from __future__ import annotations

import numpy as np

from dynamo import ops
from dynamo.graph import Graph, Node
from dynamo.ops import ELEMENTWISE

from ..fusion.fusible import array_meta
from .rewrite import exact_power_of_two, rewrite, same_meta

MAX_POWER = 16  # larger integer powers: more multiplies than one pow call is worth

_NUMBER = (int, float, np.integer, np.floating)


def strength_reduce(graph: Graph) -> Graph:
    def visit(rw, node: Node) -> bool:
        if node.kwargs or len(node.args) != 2 or not isinstance(node.args[0], Node):
            return False
        if node.target in ("pow", "power"):
            plan = _power_plan(node.args[1])
        elif node.target == "divide":
            plan = _divide_plan(node)
        else:
            return False
        return plan is not None and _emit(rw, node, plan)

    return rewrite(graph, visit)


class Ref:
    """An operand of a plan step: the input ``x`` (index -1) or step ``index``'s result."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index


X = Ref(-1)


def _power_plan(exponent) -> list | None:
    """Steps computing ``x ** exponent`` as [(target, operands)], or None."""
    if isinstance(exponent, bool) or not isinstance(exponent, _NUMBER):
        return None
    e = float(exponent)
    if e == 0.5:
        return [("sqrt", (X,))]
    if e == 1:
        return [("positive", (X,))]
    if e == -1:
        return [("reciprocal", (X,))]
    if not e.is_integer() or not 2 <= e <= MAX_POWER:
        return None
    plan: list = []
    acc = X
    for bit in bin(int(e))[3:]:   # left-to-right binary powering after the top bit
        plan.append(("square", (acc,)))
        acc = Ref(len(plan) - 1)
        if bit == "1":
            plan.append(("multiply", (acc, X)))
            acc = Ref(len(plan) - 1)
    return plan


def _divide_plan(node: Node) -> list | None:
    c = node.args[1]
    meta = array_meta(node)
    if isinstance(c, bool) or not isinstance(c, _NUMBER) or meta is None or \
            meta.dtype.kind != "f":
        return None
    c_float = float(c)
    if not exact_power_of_two(c_float):
        return None
    info = np.finfo(meta.dtype)
    r = 1.0 / c_float
    for v in (c_float, r):
        if not float(info.smallest_normal) <= abs(v) <= float(info.max):
            return None
    if isinstance(c, np.floating):
        scale = type(c)(r)
    elif isinstance(c, np.integer):
        scale = np.float64(r)
    else:
        scale = r
    return [("multiply", (X, scale))]


def _emit(rw, node: Node, plan: list) -> bool:
    """Add the plan's ops to the new graph if their result matches ``node`` exactly."""
    x = node.args[0]
    metas: list = []

    def meta_of(v):
        if isinstance(v, Ref):
            return x.meta.get("array") if v.index < 0 else metas[v.index]
        return v

    for target, operands in plan:
        op = ops.get(target)
        try:
            metas.append(op.meta(op, tuple(meta_of(o) for o in operands), {}))
        except Exception:  # noqa: BLE001 (the rule refuses: keep the original op)
            return False
    if not same_meta(metas[-1], node.meta.get("array")):
        return False
    made: list[Node] = []
    for i, (target, operands) in enumerate(plan):
        args = tuple((rw.env[x] if o.index < 0 else made[o.index]) if isinstance(o, Ref)
                     else o for o in operands)
        name = node.name if i == len(plan) - 1 else f"{node.name}_{target}"
        made.append(rw.call(target, args, {}, {**_loc(node), "array": metas[i],
                                                "kind": ELEMENTWISE}, name))
    rw.env[node] = made[-1]
    return True


def _loc(node: Node) -> dict:
    return {"loc": node.meta["loc"]} if "loc" in node.meta else {}
