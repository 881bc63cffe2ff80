"""Strength reduction: replace slow ops by cheaper ones that compute the same thing.

Every rewrite here is exact: the same values bit for bit (signed zeros, infinities,
NaNs, wraparound), the same dtype and type, the same exceptions, and the same
floating-point conditions reported by the same op, or by another op only where the
``numpy`` backend reruns the graph as eager on any condition the caller would see:

========================================  ==========================  ===============
written                                   becomes                     why it is exact
========================================  ==========================  ===============
``x ** 2``, ``x ** -1``, ``x ** 0.5``     ``np.square(x)``,           what NumPy's
(``**`` of a float or complex array,      ``np.reciprocal(x)``,       ``**`` itself
Python ``int`` 2, -1 or ``float`` 0.5)    ``np.sqrt(x)``              calls
``x ** n``, ``np.power(x, n)``,           squarings and multiplies    integer products
integer ``x``, 2 <= n <= 16                                           wrap the same way
``x / c``, float result, c = +-2**k       ``x * (1 / c)``             the same real
(graphs without effects only)                                         number, rounded
``1.0 * x``, ``x * 1.0``, ``x / 1.0``     ``x`` (no pass at all)      ``x`` * 1 is ``x``
(``x`` a real float temporary that only                               for every float,
this op reads; ``1`` or ``1.0`` Python)                               NaNs quiet
========================================  ==========================  ===============

NumPy's ``**`` turns these three exponents into ``square``/``reciprocal``/``sqrt``
only for arrays, only for exactly these Python types, and only for float and
complex dtypes: ``np.float64(-inf) ** 0.5`` is ``inf`` (C ``pow``) but
``np.sqrt(-inf)`` is ``nan``; ``np.float64(-0.0) ** 0.5`` is ``0.0``, ``sqrt``
gives ``-0.0``; ``np.power(x, 0.5)`` and ``x ** 2.0`` call ``pow`` too, whose last
bit may differ from ``sqrt``'s or from ``x * x``, and name ``power`` in warnings;
``int_array ** -1`` raises where ``np.reciprocal`` returns garbage. So those stay.
Division by a power of two becomes a multiply only when the reciprocal is a power of
two that is a normal number in the result dtype: then both round the same real value
(subnormal results included) and report the same conditions, but a warning names
``multiply`` instead of ``divide``, which is why it is done only in graphs the backend
reruns on any visible floating-point condition (``signals.rerun_on_signal``).

Float powers ``x ** 3`` as multiplies round after each multiply (within about ``n``
ulp of ``pow``, not bit-identical): that is the separate pass ``fast_powers``, which
the ``numpy`` backend runs only with the option ``fast_powers=True``. (NumPy calls
``pow`` per element: 157 ms at 1e7 float32, ``x*x*x`` 22 ms.)

A rewrite is kept only when the new ops' result has exactly the old shape and dtype.

A multiply by one comes from parameters that happen to be 1 (``c * u_face`` with a
wave speed ``c=1.0``, ``omega * (feq - f)`` with a relaxation rate of 1): the graph
specializes on the float, and NumPy would make one more full pass over the array. It
is dropped only where that is invisible: ``x`` is a real floating array made by
``add``/``subtract``/``multiply``/``divide``, ``**`` or a math function (``sqrt``,
``exp``, ``log``, ``sin``, ``tanh``...: ``beta * x ** 3`` with ``beta=1.0``) (a fresh
array whose NaNs are quiet, so
``x * 1`` raises no "invalid" for a signaling NaN) without ``out=``, and this op is
its only reader (nothing else can see that the two are one array); the one is a
Python ``int`` or ``float`` (weak: the dtype stays ``x``'s; an ``np.float64(1.0)``
would promote a float32 ``x``).

Example::

    def f(x, n):                     # x: float32 array, n: int64 array
        return x ** 2 + n ** 3       # -> np.square(x) + np.multiply(np.square(n), n)
"""

from __future__ import annotations

import numpy as np

from dynamo import ops
from dynamo.graph import CALL, Graph, Node
from dynamo.ops import ELEMENTWISE
from dynamo.ops.node_facts import array_meta
from dynamo.ops.signals import REPORTS_DIFFER, rerun_on_signal

from .rewrite import exact_power_of_two, rewrite, same_meta

MAX_POWER = 16  # larger integer powers: more multiplies than one pow call is worth

_NUMBER = (int, float, np.integer, np.floating)
# np.timedelta64 is an np.signedinteger, but a duration, not a number: ``t / np.timedelta64(
# 1, "m")`` is a float array of minutes that no multiply by a float scale can make
_NOT_NUMBER = (bool, np.bool_, np.timedelta64)

# What NumPy's ``**`` on a float or complex ndarray calls for these exponents, keyed
# by (exact Python type, value) (numpy/_core/src/multiarray/number.c,
# fast_scalar_power).
_NUMPY_FAST_PATHS = {(int, 2): "square", (int, -1): "reciprocal", (float, 0.5): "sqrt"}


def strength_reduce(graph: Graph) -> Graph:
    renaming = rerun_on_signal(graph)

    def visit(rw, node: Node) -> bool:
        if node.kwargs or len(node.args) != 2:
            return False
        same = _times_one(node)
        if same is not None:
            rw.env[node] = rw.env[same]
            return True
        if not isinstance(node.args[0], Node):
            return False
        if node.target in ("pow", "power"):
            plan = _power_plan(node)
        elif node.target == "divide" and renaming:
            plan = _divide_plan(node)
            return plan is not None and _emit(rw, node, plan, renamed=True)
        else:
            return False
        return plan is not None and _emit(rw, node, plan)

    return rewrite(graph, visit)


def fast_powers(graph: Graph) -> Graph:
    """``x ** n`` of floats (3 <= n <= ``MAX_POWER``) as squarings and multiplies.

    Not exact: each multiply rounds, so results are within about ``n`` ulp of
    NumPy's ``pow``. Only in graphs the backend reruns as eager on a visible
    floating-point condition (an overflow then names ``power``, as in eager). Not in
    ``PIPELINE``; the ``numpy`` backend adds it with the option ``fast_powers=True``.
    """
    if not rerun_on_signal(graph):
        return graph

    def visit(rw, node: Node) -> bool:
        if node.target not in ("pow", "power") or node.kwargs or len(node.args) != 2 \
                or not isinstance(node.args[0], Node):
            return False
        x, e = array_meta(node.args[0]), node.args[1]
        if x is None or x.dtype.kind not in "fc" or not _small_integer(e, 3):
            return False
        return _emit(rw, node, _multiplies(int(e)), renamed=True)

    return rewrite(graph, visit)


class Ref:
    """An operand of a plan step: the input ``x`` (index -1) or step ``index``'s result."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index


X = Ref(-1)


# ops whose result is a fresh array with quiet NaNs (IEEE arithmetic never returns a
# signaling NaN), so that ``x * 1`` could not have raised "invalid" on it: the four
# operations, and the math functions, which compute their result by arithmetic on the
# input (``beta * x ** 3`` with ``beta=1.0``, ``A * np.exp(-k * t)`` with ``A=1``). Not
# the ones that copy bits (``negative``, ``absolute``, ``copysign``, ``maximum``,
# ``fmin``, ``where``, ``clip``): a signaling NaN passes through them unchanged.
_QUIET_FRESH = frozenset({
    "add", "subtract", "multiply", "divide", "true_divide", "pow", "power", "float_power",
    "square", "sqrt", "cbrt", "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10",
    "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh",
    "cosh", "tanh", "arcsinh", "arccosh", "arctanh"})


def _times_one(node: Node) -> Node | None:
    """The operand ``x`` when ``node`` is ``x * 1``, ``1 * x`` or ``x / 1`` and may be
    dropped (see the module docstring), else None.

        >>> _times_one(graph_node("multiply", (add_node, 1.0)))   # add_node's only user
        add_node
    """
    if node.target == "multiply":
        a, b = node.args
        x, one = (a, b) if isinstance(a, Node) else (b, a)
    elif node.target == "divide":
        x, one = node.args
    else:
        return None
    if type(one) not in (int, float) or one != 1 or not isinstance(x, Node) or \
            x.op != CALL or x.target not in _QUIET_FRESH or x.kwargs or \
            len(x.users) != 1:
        return None
    meta = array_meta(x)
    if meta is None or meta.dtype.kind != "f" or not same_meta(meta, array_meta(node)):
        return None
    return x


def _small_integer(e, low: int) -> bool:
    """``e`` is an int (Python or NumPy, not bool) with ``low <= e <= MAX_POWER``."""
    return isinstance(e, (int, np.integer)) and not isinstance(e, _NOT_NUMBER) \
        and low <= e <= MAX_POWER


def _power_plan(node: Node) -> list | None:
    """Steps computing ``node`` (``x ** e``) as [(target, operands)], or None."""
    x, e = array_meta(node.args[0]), node.args[1]
    if x is None:
        return None
    if x.dtype.kind in "iu" and _small_integer(e, 2):
        return _multiplies(int(e))   # integer pow is exact: so are the products
    fast = _NUMPY_FAST_PATHS.get((type(e), e)) if type(e) in (int, float) else None
    if node.target == "pow" and fast and not x.scalar and x.dtype.kind in "fc":
        return [(fast, (X,))]
    return None


def _multiplies(n: int) -> list:
    """``x ** n`` by left-to-right binary powering: squarings, and a multiply by ``x``
    for each further set bit."""
    plan: list = []
    acc = X
    for bit in bin(n)[3:]:
        plan.append(("square", (acc,)))
        acc = Ref(len(plan) - 1)
        if bit == "1":
            plan.append(("multiply", (acc, X)))
            acc = Ref(len(plan) - 1)
    return plan


def _divide_plan(node: Node) -> list | None:
    c = node.args[1]
    meta = array_meta(node)
    if isinstance(c, _NOT_NUMBER) or not isinstance(c, _NUMBER) or meta is None or \
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


def _emit(rw, node: Node, plan: list, renamed: bool = False) -> bool:
    """Add the plan's ops to the new graph if their result matches ``node`` exactly.

    ``renamed``: the new ops report floating-point conditions under other names than
    eager's op (``signals.REPORTS_DIFFER``)."""
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
        meta = {**_loc(node), "array": metas[i], "kind": ELEMENTWISE}
        if renamed:
            meta[REPORTS_DIFFER] = True
        made.append(rw.call(target, args, {}, meta, name))
    rw.env[node] = made[-1]
    return True


def _loc(node: Node) -> dict:
    return {"loc": node.meta["loc"]} if "loc" in node.meta else {}
