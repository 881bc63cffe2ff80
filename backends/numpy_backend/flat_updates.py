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
                and multiply.strides == (1600, 8) and _b.ndim == 1 and _b.size >= 39598):
            return _add(getitem, multiply, out=getitem)       # eager's op
        _t = u.reshape(-1)
        _o = _t[201:39799]
        _g0 = _t[399:39799].reshape(197, 200)[:, :2].view(_gap)[..., 0]   # u's boundary columns
        _gs = _update_gaps0.take()
        _gs[0][...] = _g0
        _vg0 = _b[198:39598].reshape(197, 200)[:, :2].view(_gap_1)[..., 0]  # the value's
        _gc = _gc_isenabled()
        try:
            _gc_disable()               # no collection (no __del__) sees the gaps
            _copyto(_g0, _gap_zero)     # 0 + 1 in the gaps: no floating-point condition
            _copyto(_vg0, _gap_one)
            # app.py:12
            _add(_o, _b[:39598], _o)
        finally:
            try:
                _g0[...] = _gs[0]       # u's boundary columns as they were
            finally:
                if _gc:
                    _gc_enable()
                _update_gaps0.give(_gs)
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

Chosen (``flat_update``) where the value is the output of a 2-D or 3-D flat plan and
its only reader is ``np.add``, ``np.subtract``, ``np.multiply`` or ``np.divide`` of
the form ``f(w, value, out=w)`` (what ``w += value`` ... ``w /= value`` become), ``w``
a unit-step window of the domain's shape of an array ``u`` with the flat plan's shape
after the first axis (rows of ``m``, and planes of ``p`` such rows in 3-D, whose
gaps are each plane's boundary rows too: ``flat_windows.gap_views``). ``u`` and ``w``
share a dtype; the value's may differ, and both may be integers, where NumPy resolves
the in-place call (``same_kind``) to a loop that ``0 op 1`` runs through without a
condition (``exact_in_place``): the same loop with the same casts as eager's, and
integers wrap as eager's do. Where eager's op raises (``int_u[1:-1, 1:-1] += 0.5 *
lap``: UFuncTypeError, the float result cannot be cast to the window's integers), it
stays eager's op, which raises the same. Checked per call: ``u`` is C-contiguous and
writeable and the value is the flat pass's view (its base a 1-D buffer, its strides
the buffer's rows and planes; the group's op-by-op fallback returns a fresh array,
which takes eager's op); and, where the window has gaps, that no other Python thread
runs and no trace, monitoring or signal handler function is set (``runtime.alone``,
``program_hooks.py``: they run between the pass's calls) and no code of the
program's can run inside the op while the gaps hold 0
(``runtime.reports_run_no_program_code``: an ``np.seterrcall`` function or a
warnings hook of its own would read them; hostile round 21).

A 1-D window (``u[1:-1] += r * (u[2:] - 2 * u[1:-1] + u[:-2])``) needs none of this:
the window and the value are contiguous, eager's op is one 1-D pass already, and the
value's ops run in place in buffers freed as they die (1-D heat, 100000 elements, 10
steps: plain 7.6 ms, numpy backend 0.88 ms, CPU time 2026-12-05).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dynamo.graph import CALL, Node, location_comment
from dynamo.ops.node_facts import array_meta

from .flat import FlatPlan
from .flat_direct import gap_names, restore_gaps, save_gaps
from .flat_windows import gap_views, has_gaps, strides, window_offset
from .module import Module, plain_name
from .plan import static_shape
from .runtime import alone, reports_run_no_program_code

# the in-place ufuncs whose ``0 op 1`` meets no floating-point condition
UPDATES = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
           "divide": np.divide, "true_divide": np.divide}


@dataclass
class FlatUpdate:
    """``ufunc(window, value, out=window)``, ``window = array[index]`` (module docstring)."""

    node: Node
    array: Node
    ufunc: np.ufunc
    domain: tuple          # (h, w), or (h, q, w)
    row: int               # m
    offset: int            # of the window's first element in ``array.reshape(-1)``
    length: int            # L = (h - 1) * m + w, or (h - 1) * p * m + (q - 1) * m + w
    trailing: tuple        # the array's shape after the first axis: (m,) or (p, m)
    dtype: np.dtype        # the value's (the window's may differ: a cast in the loop)


def flat_update(plan: FlatPlan) -> FlatUpdate | None:
    """The ``FlatUpdate`` that reads ``plan``'s value, or None (module docstring)."""
    if len(plan.domain) > 3:
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
    shape = tuple(metas[0].shape)
    if len(shape) != len(plan.domain) or not static_shape(shape) or \
            tuple(int(n) for n in shape[1:]) != tuple(plan.trailing) or \
            metas[0].dtype != metas[1].dtype or metas[1].dtype != metas[3].dtype or \
            not exact_in_place(ufunc, metas[1].dtype, metas[2].dtype):
        return None
    offset = window_offset(index, shape, plan.domain)
    if offset is None:
        return None
    return FlatUpdate(node, array, ufunc, plan.domain, plan.row, offset, plan.length,
                      tuple(plan.trailing), metas[2].dtype)


def exact_in_place(ufunc: np.ufunc, window, value) -> bool:
    """``ufunc(w, v, out=w)`` of a ``window``-dtype ``w`` and a ``value``-dtype ``v``
    runs as one 1-D pass exactly: both numbers (no bools, objects, datetimes), and
    NumPy resolves the call (``same_kind`` casting) to a loop whose ``0 op 1`` meets
    no condition. Where eager raises (``int_array[1:-1] += 0.5 * lap``: the float
    result cannot be cast to the integer window, UFuncTypeError; ``int /= int``
    likewise), the update keeps eager's op, which raises it.

        >>> exact_in_place(np.add, np.dtype("int64"), np.dtype("int32"))
        True
        >>> exact_in_place(np.add, np.dtype("int64"), np.dtype("float64"))
        False
        >>> exact_in_place(np.divide, np.dtype("float32"), np.dtype("float64"))
        True
    """
    if window.kind not in "iufc" or value.kind not in "iufc":
        return False
    w = np.zeros(1, window)
    try:
        with np.errstate(all="raise"):
            ufunc(w, np.ones(1, value), out=w)
    except Exception:   # noqa: BLE001 (a cast refused, or a condition: eager's op)
        return False
    return True


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
    first, length = u.offset, u.length
    op = m.bind(u.ufunc, u.ufunc.__name__)
    fn = f"_update{index}"
    gaps = has_gaps(u.domain, u.trailing)
    # with gaps, ``array``'s own elements there are changed for the pass and put back:
    # only while no other Python thread may read them meanwhile (flat_direct.direct_check)
    # and only while no code of the program's can run inside the op (np.seterrcall's
    # function, a warnings hook of its own: they could read them too)
    quiet = m.bind(reports_run_no_program_code, "quiet")
    only = f" and {m.bind(alone, 'alone')}() and {quiet}()" if gaps else ""
    m.emit(0, f"def {fn}({window}, {value}, {array}):")
    # the flat pass's view of its buffer: its rows (and planes) the array's apart
    seen = tuple(s * u.dtype.itemsize for s in strides(u.trailing))
    m.emit(1, f"_b = {value}.base")
    m.emit(1, f"if not ({array}.flags.c_contiguous and {array}.flags.num & 1024 and "
              f"_b is not None and {value}.strides == {seen} and _b.ndim == 1 "
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
    # each row's tail (and in 3-D each plane's head) as one item of raw bytes
    # (flat_windows.gap_views; flat_direct's write into a target does the same)
    wdtype = array_meta(u.node).dtype
    # (the value buffer's gap views first: save_gaps ends in its ``try:``)
    fills = gap_names(m, "_b", 0, u.domain, u.trailing, u.dtype, 1, "_vg")
    names, saved = save_gaps(m, "_t", first, u.domain, u.trailing, wdtype, 1,
                             f"update_gaps{index}")
    copyto = m.bind(np.copyto, "copyto")
    # (inside save_gaps's ``try:``, the collector off)
    views = gap_views("_", 0, u.domain, u.trailing, 1)   # (item sizes in elements)
    for name, (_, nbytes, _) in zip(names, views):
        zero = np.zeros(nbytes, wdtype).view(np.dtype((np.void, nbytes * wdtype.itemsize)))
        m.emit(2, f"{copyto}({name}, {m.bind(zero, 'gap_zero')})")
    for (name, _), (_, nbytes, _) in zip(fills, views):
        one = np.ones(nbytes, u.dtype).view(np.dtype((np.void, nbytes * u.dtype.itemsize)))
        m.emit(2, f"{copyto}({name}, {m.bind(one, 'gap_one')})")
    if loc:
        m.emit(2, loc)
    m.emit(2, call)
    m.emit(1, "finally:")
    restore_gaps(m, names, saved, 2)
    m.emit(1, f"return {window}")
    m.emit(0, "")
    return fn
