"""NumPy functions written in Python, called in generated code by their last step.

``np.roll``, ``np.stack`` and ``np.outer`` are Python functions of NumPy's: each call
re-derives, from its arguments, what the graph already fixed when it was compiled
(the axis normalized, the shapes compared, the slices of a roll built, ``itertools.
product`` over them) and then runs one or two C calls. Generated code calls those C
calls directly, with the decisions made once at compile time: the same copies or the
same ufunc over the same operands, so the result is NumPy's bit for bit (its dtype,
its layout: ``np.empty_like`` as ``np.roll`` does). A roll of a (150, 150) array
took 11.5 us through ``np.roll`` and 6.0 us this way (best of 5 x 2,000 calls,
``time.process_time``); a Jacobi step of four rolls does four of them.

For a ``roll`` node of a (128, 128) float64 ``u`` by ``1`` along axis 0::

    >>> fast_form(m, node, name_of)
    '_roll_copies(u, _roll_plan)'

where ``_roll_plan`` is ``(((slice(1, None), slice(None)), (slice(None, -1), ...)), ...)``:
the (result index, source index) pairs ``np.roll`` itself would copy, in its order.

Only ndarrays of static shape with literal shifts and axes take these forms, or a
literal axis and a shift that is an integer scalar of the graph (``np.roll(f, c[i, 0],
axis=0)``: the plan of its offset, ``RollPlans``); anything else (a symbolic size, a
float or tuple shift computed at run time, ``axis=None``) stays NumPy's own call, which
also raises NumPy's errors for bad arguments.

The same for the other NumPy functions whose Python layer is most of a call on small
arrays: ``np.outer`` of any ndarrays, ``np.pad`` (``pad_copies``), ``np.linalg.solve``
/``inv``/``det``/``norm``/``eigh``/``lstsq`` (``small_linalg``), ``np.clip``
(``umath.clip`` for a float ``a``: ``_methods._clip`` adjusts only integer bounds),
``np.diff`` with ``n=1`` (one ``subtract`` of two slices), ``np.cumsum``/``np.cumprod``
(the method ``_wrapfunc`` calls), ``np.einsum`` without ``optimize=`` (``c_einsum``),
``np.hstack``/``np.vstack`` (``np.concatenate`` of their ``atleast_1d``/``atleast_2d``
views), ``np.isclose`` its last step (``closeness``), ``np.linspace`` of literals a copy
of its compile-time result (``precomputed``), ``np.meshgrid``/``np.cross``/``np.triu``/
``np.tril``/``np.split``/``np.array_split`` (``grid_calls``), ``np.take_along_axis``/
``np.expand_dims`` (``axis_calls``)::

    np.clip(x, 0, 1)        ->  _clip_ufunc(x, 0, 1)
    np.diff(x, axis=0)      ->  _subtract(x[1:], x[:-1])
    np.einsum("ij,j", A, v) ->  _c_einsum('ij,j', A, v)
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from dynamo import ops
from dynamo.graph import Node
from dynamo.ops.node_facts import array_meta

from . import axis_calls, grid_calls, small_linalg
from .closeness import isclose_form, isclose_signature
from .pad_copies import pad_copies, pad_plan
from .plan import static_shape
from .precomputed import linspace_form, linspace_signature


def fast_form(m, node: Node, name_of) -> str | None:
    """Source for ``node`` by the C calls its NumPy function ends in, or None."""
    form = _FORMS.get(node.target)
    if form is None or ops.get(node.target).impl is not _IMPLS[node.target]:
        return None
    try:
        params = _SIGNATURES[node.target](*node.args, **node.kwargs)
    except TypeError:   # arguments NumPy would reject: let it say so
        return None
    return form(m, params, name_of)


def roll_copies(a: np.ndarray, plan) -> np.ndarray:
    """``np.roll``'s last step: a new array like ``a``, filled by the planned copies."""
    result = np.empty_like(a)
    for res_index, arr_index in plan:
        result[res_index] = a[arr_index]
    return result


def roll_plan(shape: tuple, shift, axis) -> tuple:
    """The (result index, source index) pairs ``np.roll(a, shift, axis)`` copies for an
    ``a`` of ``shape``, in its order (numpy/_core/numeric.py, ``roll``).

        >>> roll_plan((4,), 1, 0)     # result[1:] = a[:-1]; result[:1] = a[-1:]
        (((slice(1, None, None),), (slice(None, -1, None),)),
         ((slice(None, 1, None),), (slice(-1, None, None),)))
    """
    axes = normalize_axis_tuple(axis, len(shape), allow_duplicate=True)
    broadcasted = np.broadcast(shift, axes)
    if broadcasted.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = dict.fromkeys(range(len(shape)), 0)
    for sh, ax in broadcasted:
        shifts[ax] += int(sh)
    rolls = [((slice(None), slice(None)),)] * len(shape)
    for ax, offset in shifts.items():
        offset %= shape[ax] or 1
        if offset:
            rolls[ax] = ((slice(None, -offset), slice(offset, None)),
                         (slice(-offset, None), slice(None, offset)))
    plan = []
    for indices in itertools.product(*rolls):
        arr_index, res_index = zip(*indices)
        plan.append((res_index, arr_index))
    return tuple(plan)


def _array(value) -> bool:
    """An ndarray value of the graph with a static shape of one or more dimensions."""
    meta = array_meta(value) if isinstance(value, Node) else None
    return meta is not None and not meta.scalar and meta.kind == "numpy" and \
        len(meta.shape) > 0 and static_shape(meta.shape)


def _ndarray(value) -> bool:
    """An ndarray value of the graph, of any shape (static or not)."""
    meta = array_meta(value) if isinstance(value, Node) else None
    return meta is not None and not meta.scalar and meta.kind == "numpy"


def _ints(value) -> bool:
    """A literal int or a tuple/list of them (not a value computed at run time)."""
    if isinstance(value, (tuple, list)):
        return all(type(v) is int for v in value)
    return type(value) is int


class RollPlans(dict):
    """``roll_plan``s of one shape and axis by offset, made on first use: ``np.roll(a, s,
    axis)`` with ``s`` an integer the graph reads at run time (``c[i, 0]`` of a lattice's
    velocity table). ``np.roll`` adds ``int(s)`` and takes it modulo the axis length, so
    the offset (at most that many plans) picks the same copies.

        >>> plans = RollPlans((4,), 0)
        >>> plans[-1 % 4] == roll_plan((4,), -1, 0)
        True
    """

    __slots__ = ("shape", "axis")

    def __init__(self, shape: tuple, axis: int):
        super().__init__()
        self.shape, self.axis = shape, axis

    def __missing__(self, offset: int):
        plan = self[offset] = roll_plan(self.shape, offset, self.axis)
        return plan


def _roll_by_value(m, a, shift, axis, name_of) -> str | None:
    """``np.roll`` of a static-shape ndarray along one literal axis by an integer (or
    bool) scalar or 0-d array of the graph: the copies of its offset's plan."""
    meta = array_meta(shift)
    if meta is None or meta.kind != "numpy" or meta.dtype.kind not in "biu" or \
            len(meta.shape) != 0 or type(axis) is not int:
        return None
    shape = array_meta(a).shape
    try:
        axis = normalize_axis_index(axis, len(shape))
    except np.exceptions.AxisError:
        return None
    plans = m.bind(RollPlans(shape, axis), "roll_plans")
    fn = m.bind(roll_copies, "roll_copies")
    return (f"{fn}({name_of(a)}, {plans}[{m.bind(int, 'int')}({name_of(shift)}) % "
            f"{shape[axis] or 1}])")


def _roll(m, params: dict, name_of) -> str | None:
    a, shift, axis = params["a"], params["shift"], params["axis"]
    if _array(a) and isinstance(shift, Node):
        return _roll_by_value(m, a, shift, axis, name_of)
    if not _array(a) or axis is None or not _ints(shift) or not _ints(axis):
        return None
    try:
        plan = roll_plan(array_meta(a).shape, shift, axis)
    except (ValueError, TypeError, np.exceptions.AxisError):
        return None
    fn = m.bind(roll_copies, "roll_copies")
    return f"{fn}({name_of(a)}, {m.bind(plan, 'roll_plan')})"


def _stack(m, params: dict, name_of) -> str | None:
    arrays, axis = params["arrays"], params["axis"]
    if params["out"] is not None or not isinstance(arrays, (tuple, list)) or not arrays \
            or not all(_array(x) for x in arrays) or type(axis) is not int:
        return None
    shapes = {array_meta(x).shape for x in arrays}
    if len(shapes) != 1:
        return None
    ndim = len(next(iter(shapes))) + 1
    try:
        axis = normalize_axis_index(axis, ndim)
    except np.exceptions.AxisError:
        return None
    if params["dtype"] is not None and not isinstance(params["dtype"], (type, np.dtype)):
        return None
    if type(params["casting"]) is not str:
        return None
    index = ":, " * axis + "None"
    members = "".join(f"{name_of(x)}[{index}], " for x in arrays)
    fn = m.bind(np.concatenate, "concatenate")
    return (f"{fn}(({members}), axis={axis}, dtype={m.fmt(params['dtype'], name_of)}, "
            f"casting={params['casting']!r})")


def _joined(vertical: bool):
    """``np.hstack``/``np.vstack`` of ndarrays of one or more dimensions: the
    ``np.concatenate`` they end in, of the same ``atleast_1d``/``atleast_2d`` views
    (an ndarray itself, or ``x[None, :]`` for a 1-D one in a vstack)."""
    def form(m, params: dict, name_of) -> str | None:
        arrays, dtype = params["tup"], params["dtype"]
        if not isinstance(arrays, (tuple, list)) or not arrays or \
                not all(_ndarray(x) and len(array_meta(x).shape) >= 1 for x in arrays) or \
                not (dtype is None or isinstance(dtype, (type, np.dtype))) or \
                type(params["casting"]) is not str:
            return None
        if vertical:
            members = [f"{name_of(x)}[None, :]" if len(array_meta(x).shape) == 1
                       else name_of(x) for x in arrays]
            axis = 0
        else:
            members = [name_of(x) for x in arrays]
            axis = 0 if len(array_meta(arrays[0]).shape) == 1 else 1
        fn = m.bind(np.concatenate, "concatenate")
        return (f"{fn}(({', '.join(members)},), {axis}, dtype={m.fmt(dtype, name_of)}, "
                f"casting={params['casting']!r})")
    return form


def _outer(m, params: dict, name_of) -> str | None:
    a, b = params["a"], params["b"]
    if params["out"] is not None or not _ndarray(a) or not _ndarray(b):
        return None
    fn = m.bind(np.multiply, "multiply")
    return f"{fn}({name_of(a)}.ravel()[:, None], {name_of(b)}.ravel()[None, :])"


def _literal(value, leaf: tuple) -> bool:
    """A literal of the ``leaf`` types, or a (nested) tuple/list of them."""
    if isinstance(value, (tuple, list)):
        return all(_literal(v, leaf) for v in value)
    return type(value) in leaf


def _pad(m, params: dict, name_of) -> str | None:
    a, kwargs = params["array"], params["kwargs"]
    if not _array(a) or type(params["mode"]) is not str or \
            not _literal(params["pad_width"], (int,)) or \
            not _literal(kwargs.get("constant_values", 0), (int, float, bool)) or \
            not _literal(kwargs.get("reflect_type", "even"), (str,)):
        return None
    meta = array_meta(a)
    plan = pad_plan(meta.shape, meta.dtype, params["pad_width"], params["mode"], kwargs)
    if plan is None:
        return None
    fn = m.bind(pad_copies, "pad_copies")
    shape, middle, steps = (m.bind(part, "pad_plan") for part in plan)
    return f"{fn}({name_of(a)}, {shape}, {middle}, {steps})"


def _bound(value) -> bool:
    """A clip bound that is never None at run time: a graph value or a number literal."""
    return array_meta(value) is not None if isinstance(value, Node) else \
        type(value) in (int, float)


def _clip(m, params: dict, name_of) -> str | None:
    """``np.clip(a, lo, hi)`` is ``a.clip(lo, hi)`` for an ndarray (``_wrapfunc``),
    which for a float or complex ``a`` is ``umath.clip(a, lo, hi)`` (``_methods._clip``
    changes only integer bounds out of an integer dtype's range)."""
    a, lo, hi = params["a"], params["a_min"], params["a_max"]
    if not _ndarray(a) or params["out"] is not None or params["kwargs"] or \
            params["min"] is not np._NoValue or params["max"] is not np._NoValue or \
            not _bound(lo) or not _bound(hi):
        return None
    x, lo, hi = name_of(a), m.fmt(lo, name_of), m.fmt(hi, name_of)
    if array_meta(a).dtype.kind in "fc" and _UMATH_CLIP is not None:
        return f"{m.bind(_UMATH_CLIP, 'clip_ufunc')}({x}, {lo}, {hi})"
    return f"{x}.clip({lo}, {hi})"


def _clip_signature(a, a_min=np._NoValue, a_max=np._NoValue, out=None, *,
                    min=np._NoValue, max=np._NoValue, **kwargs):  # noqa: A002 (NumPy's)
    return {"a": a, "a_min": a_min, "a_max": a_max, "out": out, "min": min, "max": max,
            "kwargs": kwargs}


def _diff(m, params: dict, name_of) -> str | None:
    """``np.diff(a)`` (n=1, no prepend/append) is its one ufunc call on two slices:
    ``subtract``, ``not_equal`` for booleans."""
    a, axis = params["a"], params["axis"]
    if not _ndarray(a) or type(params["n"]) is not int or params["n"] != 1 or \
            type(axis) is not int or params["prepend"] is not np._NoValue or \
            params["append"] is not np._NoValue:
        return None
    meta = array_meta(a)
    try:
        axis = normalize_axis_index(axis, meta.ndim)
    except (np.exceptions.AxisError, TypeError):
        return None
    op = np.not_equal if meta.dtype == np.bool_ else np.subtract
    x, before = name_of(a), ":, " * axis
    return f"{m.bind(op, op.__name__)}({x}[{before}1:], {x}[{before}:-1])"


def _cumulative(method: str):
    """``np.cumsum``/``np.cumprod`` of an ndarray: its method (``_wrapfunc``)."""
    def form(m, params: dict, name_of) -> str | None:
        a, axis, dtype = params["a"], params["axis"], params["dtype"]
        if not _ndarray(a) or params["out"] is not None or \
                not (axis is None or type(axis) is int) or \
                not (dtype is None or isinstance(dtype, (type, np.dtype))):
            return None
        return f"{name_of(a)}.{method}(axis={axis!r}, dtype={m.fmt(dtype, name_of)})"
    return form


def _stack_signature(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    return {"arrays": arrays, "axis": axis, "out": out, "dtype": dtype, "casting": casting}


_UMATH_CLIP = getattr(getattr(getattr(np, "_core", None), "umath", None), "clip", None)
try:   # what np.einsum calls without optimize= (numpy/_core/einsumfunc.py)
    from numpy._core.einsumfunc import c_einsum as _C_EINSUM
except ImportError:
    _C_EINSUM = None


def _einsum(m, params: dict, name_of) -> str | None:
    """``np.einsum`` without ``optimize`` is ``c_einsum`` of the same arguments (its
    first branch), for operands that are NumPy values or literals (nothing that could
    take the call through ``__array_function__``)."""
    operands, kwargs = params["operands"], params["kwargs"]
    if _C_EINSUM is None or params["out"] is not None or params["optimize"] is not False \
            or not operands or type(operands[0]) is not str or \
            set(kwargs) - {"dtype", "order", "casting"}:
        return None
    for value in (*operands[1:], *kwargs.values()):
        meta = array_meta(value) if isinstance(value, Node) else None
        if meta is None and not isinstance(value, (int, float, str, type, np.dtype)) \
                or meta is not None and meta.kind != "numpy":
            return None
    parts = [m.fmt(v, name_of) for v in operands]
    parts += [f"{k}={m.fmt(v, name_of)}" for k, v in kwargs.items()]
    return f"{m.bind(_C_EINSUM, 'c_einsum')}({', '.join(parts)})"


def _linalg(target: str):
    """np.linalg.solve/inv/det by their gufunc (``small_linalg``)."""
    return lambda m, params, name_of: small_linalg.fast_form(m, target, params, name_of)


_FORMS = {"roll": _roll, "stack": _stack, "outer": _outer, "pad": _pad, "clip": _clip,
          "diff": _diff, "cumsum": _cumulative("cumsum"), "cumprod": _cumulative("cumprod"),
          "solve": _linalg("solve"), "inv": _linalg("inv"), "det": _linalg("det"),
          "norm": small_linalg.norm_form, "einsum": _einsum, "hstack": _joined(False),
          "vstack": _joined(True), "isclose": isclose_form,
          "linspace": linspace_form, "meshgrid": grid_calls.meshgrid_form,
          "cross": grid_calls.cross_form, "triu": grid_calls.triangle_form(True),
          "tril": grid_calls.triangle_form(False), "split": grid_calls.split_form(True),
          "array_split": grid_calls.split_form(False), "eigh": small_linalg.eigh_form,
          "lstsq": small_linalg.lstsq_form,
          "take_along_axis": axis_calls.take_along_axis_form,
          "expand_dims": axis_calls.expand_dims_form}
# the NumPy function each form is the last step of (another implementation: no form)
_IMPLS = {"roll": np.roll, "stack": np.stack, "outer": np.outer, "pad": np.pad,
          "clip": np.clip, "diff": np.diff, "cumsum": np.cumsum, "cumprod": np.cumprod,
          "solve": np.linalg.solve, "inv": np.linalg.inv, "det": np.linalg.det,
          "norm": np.linalg.norm, "einsum": np.einsum, "hstack": np.hstack,
          "vstack": np.vstack, "isclose": np.isclose,
          "linspace": np.linspace, "meshgrid": np.meshgrid, "cross": np.cross,
          "triu": np.triu, "tril": np.tril, "split": np.split,
          "array_split": np.array_split, "eigh": np.linalg.eigh,
          "lstsq": np.linalg.lstsq, "take_along_axis": np.take_along_axis,
          "expand_dims": np.expand_dims}
_SIGNATURES = {
    "roll": lambda a, shift, axis=None: {"a": a, "shift": shift, "axis": axis},
    "stack": _stack_signature,
    "outer": lambda a, b, out=None: {"a": a, "b": b, "out": out},
    "clip": _clip_signature,
    "diff": lambda a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue: {
        "a": a, "n": n, "axis": axis, "prepend": prepend, "append": append},
    "cumsum": lambda a, axis=None, dtype=None, out=None: {
        "a": a, "axis": axis, "dtype": dtype, "out": out},
    "cumprod": lambda a, axis=None, dtype=None, out=None: {
        "a": a, "axis": axis, "dtype": dtype, "out": out},
    "solve": lambda a, b: {"a": a, "b": b},
    "inv": lambda a: {"a": a},
    "det": lambda a: {"a": a},
    "norm": lambda x, ord=None, axis=None, keepdims=False: {  # noqa: A002 (NumPy's)
        "x": x, "ord": ord, "axis": axis, "keepdims": keepdims},
    "hstack": lambda tup, *, dtype=None, casting="same_kind": {
        "tup": tup, "dtype": dtype, "casting": casting},
    "vstack": lambda tup, *, dtype=None, casting="same_kind": {
        "tup": tup, "dtype": dtype, "casting": casting},
    "einsum": lambda *operands, out=None, optimize=False, **kwargs: {
        "operands": operands, "out": out, "optimize": optimize, "kwargs": kwargs},
    "isclose": isclose_signature,
    "linspace": linspace_signature,
    "meshgrid": grid_calls.meshgrid_signature,
    "cross": grid_calls.cross_signature,
    "triu": grid_calls.triangle_signature,
    "tril": grid_calls.triangle_signature,
    "split": grid_calls.split_signature,
    "array_split": grid_calls.split_signature,
    "eigh": lambda a, UPLO="L": {"a": a, "UPLO": UPLO},  # noqa: N803 (NumPy's)
    "lstsq": lambda a, b, rcond=None: {"a": a, "b": b, "rcond": rcond},
    "take_along_axis": axis_calls.take_along_axis_signature,
    "expand_dims": axis_calls.expand_dims_signature,
    "pad": lambda array, pad_width, mode="constant", **kwargs: {
        "array": array, "pad_width": pad_width, "mode": mode, "kwargs": kwargs},
}
