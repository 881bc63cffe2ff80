"""A window updated in place by a flat stencil's value, as one 1-D pass (issue #15).

``u[1:-1, 1:-1] += dt * lap`` is, in the graph, ``w = u[1:-1, 1:-1]``, the value
``dt * lap`` (a flat group: ``flat.py``, which returns it as ``_r.reshape(h, m)[:, :w]``,
a strided view of its 1-D buffer ``_r``) and ``np.add(w, value, out=w)``. Eager's op
runs over two 2-D views whose rows are ``m`` apart: row by row, 0.9 ns an element
here against 0.35 for the same op over 1-D ranges (200x200: 35 of a step's 57 us).
Since ``u``'s rows are ``m`` long too, the window and the value line up in 1-D, as
the stencil's operands do, and the op runs once over both ranges::

    def _update0(getitem, multiply, u):
        _b = multiply.base
        if not (u.flags.c_contiguous and u.flags.num & 1024 and _b is not None
                and multiply.strides == getitem.strides and _b.ndim == 1 and _b.size >= 39598):
            return _add(getitem, multiply, out=getitem)       # eager's op
        _t = u.reshape(-1)
        _o = _t[201:39799]
        _g = _t[399:39799].reshape(197, 200)[:, :2].view(_gap)[:, 0]   # u's boundary columns
        _vg = _b[198:39598].reshape(197, 200)[:, :2].view(_gap)[:, 0]  # the value's gaps
        _gs = _gaps0.take()
        _copyto(_gs[0], _g)
        try:
            _copyto(_g, _zero)          # 0 + 1 in the gaps: no floating-point condition
            _copyto(_vg, _one)
            # app.py:12
            _add(_o, _b[:39598], out=_o)
        finally:
            _copyto(_g, _gs[0])         # u's boundary columns as they were
            _gaps0.give(_gs)
        return getitem

It is eager's op at eager's place in the program (outside any guarded stretch, under
the caller's floating-point settings), over the same elements of the window with the
same operands: the same values, and the same conditions reported once for the call
(warned, printed, raised or passed to ``np.seterrcall``'s function the caller's way)
after the whole window is written, as eager's op does. The gap elements between the
rows (``u``'s own elements outside the window, and the value buffer's unused ones) meet
no condition: ``u``'s are saved and set to 0, the value's to 1, and ``0 + 1``,
``0 - 1``, ``0 * 1``, ``0 / 1`` raise no flag; ``u``'s are put back afterwards, also
when the op raised.

Chosen (``flat_updates``) where the value is the output of a 2-D flat plan and its only
reader is ``np.add``, ``np.subtract``, ``np.multiply`` or ``np.divide`` of the form
``f(w, value, out=w)`` (what ``w += value`` ... ``w /= value`` become), ``w`` a unit-step
window of the domain's shape of a 2-D array ``u`` whose rows have the flat plan's
length ``m``, all three of one float or complex dtype (no cast; an integer op may raise
otherwise). Checked per call: ``u`` is C-contiguous and writeable and the value is the
flat pass's view (its base a 1-D buffer, its strides the window's; the group's op-by-op
fallback returns a fresh array, which takes eager's op).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynamo.graph import CALL, Node, location_comment
from dynamo.ops.node_facts import array_meta

from .flat import FlatPlan, _window
from .module import Module, plain_name
from .plan import static_shape
from .runtime import ScratchCache, alone

# the in-place ufuncs whose ``0 op 1`` meets no floating-point condition
UPDATES = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
           "divide": np.divide, "true_divide": np.divide}


@dataclass
class FlatUpdate:
    """``ufunc(window, value, out=window)``, ``window = array[index]`` (module docstring)."""

    node: Node
    array: Node
    ufunc: np.ufunc
    domain: tuple          # (h, w)
    row: int               # m
    offset: int            # of the window's first element in ``array.reshape(-1)``
    length: int            # L = (h - 1) * m + w


def flat_update(plan: FlatPlan) -> FlatUpdate | None:
    """The ``FlatUpdate`` that reads ``plan``'s value, or None (module docstring)."""
    if len(plan.domain) != 2:
        return None
    (value,) = plan.group.outputs
    users = list(value.users)
    if len(users) != 1:
        return None
    node = users[0]
    ufunc = UPDATES.get(node.target) if node.op == CALL else None
    if ufunc is None or set(node.kwargs) != {"out"} or len(node.args) != 2:
        return None
    window = node.kwargs["out"]
    if node.args[0] is not window or node.args[1] is not value or \
            not isinstance(window, Node) or window.op != CALL or \
            window.target != "getitem" or len(window.args) != 2 or window.kwargs:
        return None
    array, index = window.args
    metas = [array_meta(n) if isinstance(n, Node) else None
             for n in (array, window, value, node)]
    if any(m is None or m.scalar or m.kind != "numpy" for m in metas):
        return None
    dtypes = {m.dtype for m in metas}
    shape = tuple(metas[0].shape)
    if len(dtypes) != 1 or next(iter(dtypes)).kind not in "fc" or len(shape) != 2 or \
            not static_shape(shape) or shape[1] != plan.row:
        return None
    offset = _window(index, shape, plan.domain)
    if offset is None:
        return None
    return FlatUpdate(node, array, ufunc, plan.domain, plan.row, offset, plan.length)


def worth_it(plan):
    """``plan``, or None for a flat plan whose value an in-place update reads that
    would not run as a 1-D pass: the value's passes alone gain too little over
    NumPy's own ops (an upwind step 200x200 1.05x -> 0.96x plain, corpus 4's Euler
    fluxes with rows of another length 1.25x -> 1.18x; CPU time, 2026-12-04)."""
    if not isinstance(plan, FlatPlan):
        return plan
    (value,) = plan.group.outputs
    if all(u.target == "setitem" for u in value.users) or flat_update(plan) is not None:
        return plan
    return None


def flat_updates(m: Module, plans: list) -> dict[Node, tuple[str, Node]]:
    """``in-place node -> (its helper's name, the array it updates)`` for the flat plans'
    updates, each helper defined in ``m`` once (``emit_update``)."""
    made = getattr(m, "flat_update_fns", None)
    if made is None:
        made = m.flat_update_fns = {}
    for plan in plans:
        update = flat_update(plan) if isinstance(plan, FlatPlan) else None
        if update is not None and update.node not in made:
            made[update.node] = (emit_update(m, update, len(made)), update.array)
    return made


def emit_update(m: Module, u: FlatUpdate, index: int) -> str:
    """Define ``_update<index>(window, value, array)`` (module docstring); its name."""
    name_of = plain_name(m)
    window, value = (name_of(n) for n in u.node.args)
    array = name_of(u.array)
    (h, w), row, first, length = u.domain, u.row, u.offset, u.length
    op = m.bind(u.ufunc, u.ufunc.__name__)
    fn = f"_update{index}"
    gaps = h > 1 and row > w
    # with gaps, ``array``'s own elements there are changed for the pass and put back:
    # only while no other Python thread may read them meanwhile (flat._direct_check)
    only = f" and {m.bind(alone, 'alone')}()" if gaps else ""
    m.emit(0, f"def {fn}({window}, {value}, {array}):")
    m.emit(1, f"_b = {value}.base")
    m.emit(1, f"if not ({array}.flags.c_contiguous and {array}.flags.num & 1024 and "
              f"_b is not None and {value}.strides == {window}.strides and _b.ndim == 1 "
              f"and _b.size >= {length}{only}):")
    m.emit(2, f"return {op}({window}, {value}, out={window})")
    m.emit(1, f"_t = {array}.reshape(-1)")
    m.emit(1, f"_o = _t[{first}:{first + length}]")
    loc = location_comment(u.node)
    call = f"{op}(_o, _b[:{length}], out=_o)"
    if not gaps:
        if loc:
            m.emit(1, loc)
        m.emit(1, call)
        m.emit(1, f"return {window}")
        m.emit(0, "")
        return fn
    dtype = array_meta(u.node).dtype
    # each row's gap as one item of raw bytes (flat.py's direct write does the same)
    gap = np.dtype((np.void, (row - w) * dtype.itemsize))
    gap_name = m.bind(gap, "gap")
    zero = m.bind(np.zeros(row - w, dtype).view(gap), "gap_zero")
    one = m.bind(np.ones(row - w, dtype).view(gap), "gap_one")
    saved = m.bind(ScratchCache([((h - 1,), gap)]), f"update_gaps{index}")
    copyto = m.bind(np.copyto, "copyto")
    cut = f".reshape({h - 1}, {row})[:, :{row - w}].view({gap_name})[:, 0]"
    m.emit(1, f"_g = _t[{first + w}:{first + length}]{cut}")
    m.emit(1, f"_vg = _b[{w}:{length}]{cut}")
    m.emit(1, f"_gs = {saved}.take()")
    m.emit(1, f"{copyto}(_gs[0], _g)")
    m.emit(1, "try:")
    m.emit(2, f"{copyto}(_g, {zero})")
    m.emit(2, f"{copyto}(_vg, {one})")
    if loc:
        m.emit(2, loc)
    m.emit(2, call)
    m.emit(1, "finally:")
    m.emit(2, f"{copyto}(_g, _gs[0])")
    m.emit(2, f"{saved}.give(_gs)")
    m.emit(1, f"return {window}")
    m.emit(0, "")
    return fn
