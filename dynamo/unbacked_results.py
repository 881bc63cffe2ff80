"""Sizes only the data decides, in an op's result (issue #19, docs/unbacked.md).

``OutputGraph.call_op`` asks an op's shape rule for its result; where the rule marks a
dimension ``DataSize`` (``x[mask]``, ``np.nonzero``, ``np.unique``, ``np.bincount``),
``with_unbacked_sizes`` gives it an *unbacked* symbolic size, shared with the size
already made for the same argument and measure (``x[m]`` and ``w[m]`` have one
length; ``a[lo:hi]`` and ``b[lo:hi]`` too, when their axes have one length), and
``own_unbacked`` records where the graph can read it when it runs. Where
a rule rejects arguments holding such sizes at their made-up hints,
``rejected_for_some_counts`` keeps the op if every count NumPy takes gives one answer
(``one_answer``), and otherwise breaks in the user's terms.

Example::

    >>> # x: float64[10], m: bool[10]; the rule of x[m] says (DataSize(nonzero_of=1),)
    >>> meta, new = with_unbacked_sizes(output, getitem, meta, data_sizes, call, metas)
    >>> meta.shape, new
    ((u0,), [('u0', 0, 0)])
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from . import ops
from .exc import Unsupported
from .graph import Node
from .ops.computed_shapes import StandIn
from .ops.rules import metas_in
from .symbolic import Symbolic, substitute, symbols_in
from .tree import tree_leaves
from .variables import ArrayVariable, ListVariable, SliceVariable, TupleVariable, Variable


def with_unbacked_sizes(output, op: ops.OpDef, meta, data_sizes: list, call, meta_call):
    """The op's result with each dimension its rule marked ``DataSize`` made an
    unbacked size, and ``[(symbol, result index, dimension)]``: where each new size
    can be read when the graph runs (see ``own_unbacked``).

    Marks with one key are one size. A mark that counts the nonzero elements of an
    argument (``x[m]``, ``np.nonzero(m)``), or measures its values otherwise
    (``DataSize.measure``: ``np.bincount``'s length), takes the size already made
    for that argument's node and measure, if any: ``x[m]`` and ``w[m]`` have one
    length (two sizes are otherwise different, and an op that needs them equal
    breaks)."""
    line = os.path.basename(output.current_loc.get("loc", ""))
    what = ("the length of a slice with a bound read from an array"
            if op.name == "getitem" and _sliced_by_arrays(meta_call) else
            "the length of a slice of a data-dependent length"
            if any(m.measure[:1] == ("clamped",) for _, _, m in data_sizes
                   if isinstance(m.measure, tuple)) else
            "the number of elements x[mask] selects" if op.name == "getitem" else
            f"the length of np.{op.name}'s result") + (f", at {line}" if line else "")
    arrays = _array_arguments(call, metas_in(meta_call))
    sizes, new = {}, []
    # a size is read off a dimension that is exactly it (offset 0: the counts of
    # np.histogram, not its edges, which are one more)
    for k, d, mark in sorted(data_sizes, key=lambda size: size[2].offset != 0):
        if mark.key in sizes:
            continue
        assert mark.offset == 0, f"np.{op.name}: a DataSize key with no offset-0 mark"
        counted = (_same_values(arrays[mark.nonzero_of].node), mark.measure,
                   _symbolic_parameters(mark.measure, meta_call)) \
            if arrays is not None and mark.nonzero_of is not None else \
            _computed_int_key(meta_call, mark) or \
            _slice_length_key(call, meta_call, mark.measure)
        size = output.nonzero_counts.get(counted) if counted is not None else None
        if size is None:
            size = output.shape_env.new_unbacked(
                what if mark.measure != "value" else  # np.zeros((n, labels.max() + 1))
                what.replace("the length of", "a size read from an array's value, in"))
            new.append((size.sym.terms[0][0], k, d))
            if counted is not None:
                output.nonzero_counts[counted] = size
        sizes[mark.key] = size
    metas = list(meta) if isinstance(meta, tuple) else [meta]
    for k, d, mark in data_sizes:
        shape = list(metas[k].shape)
        shape[d] = sizes[mark.key] + mark.offset if mark.offset else sizes[mark.key]
        metas[k] = metas[k].with_(shape=tuple(shape))
    return (tuple(metas) if isinstance(meta, tuple) else metas[0]), new


def _computed_int_key(meta_call, mark) -> Any:
    """The key of a size read from an int the graph computes (``np.zeros(k)``, ``k =
    int(y.max()) + 1``: the rule saw a ``computed_shapes.StandIn``): its expression and
    the measure, so ``np.zeros((k, d))`` and ``np.ones(k)`` have one size; else None."""
    metas = metas_in(meta_call)
    if mark.nonzero_of is None or mark.nonzero_of >= len(metas):
        return None
    stand_in = metas[mark.nonzero_of]
    if not isinstance(stand_in, StandIn) or not stand_in.expression:
        return None
    return ("computed int", stand_in.expression, mark.measure)


def _symbolic_parameters(measure, meta_call) -> tuple:
    """The symbolic ints and floats of the call (not the arrays' shapes), as written,
    where the size's ``measure`` holds parameters of the call: the rule saw them at
    their hints, and two ints the graph reads (``int(a.max()) + 1``, ``int(b.max()) +
    1``) have one made-up hint, so ``np.bincount(a, minlength=...)`` of each must not
    share a size on the strength of the hint. Sizes that read the argument's values
    alone (its nonzero count, its value) share whatever the call's other ints."""
    if not isinstance(measure, tuple):
        return ()
    return tuple(v.sym.render() for v in tree_leaves(meta_call) if isinstance(v, Symbolic))


def rejected_for_some_counts(output, op: ops.OpDef, meta_call, error: Exception):
    """An op's rule rejected arguments holding unbacked sizes at their made-up hints
    (``x[m] * w`` with a static ``w``, ``x[m] + x[n]``): NumPy takes them for some
    counts only, which the trace cannot know. An elementwise op whose every taken
    count gives one answer returns ``(meta, why)`` (``one_answer``); otherwise
    break, saying so in the user's terms (the hint is no size of theirs: the message
    names the symbol instead). None when the call holds no unbacked size."""
    names = sorted(symbols_in(meta_call) & output.shape_env.unbacked.keys())
    if not names:
        return one_value_answer(output.shape_env, op, meta_call, error)
    answer = one_answer(output.shape_env, op, meta_call, names, error)
    if answer is not None:
        return answer
    text = ops.error_text(error)
    for name in names:
        text = text.replace(str(output.shape_env.hints[name]), name)
    what = "; ".join(f"{n}: {output.shape_env.unbacked[n]}" for n in names)
    hint = ("make the sizes agree by construction (index both arrays with the same "
            "mask), or accept the graph break")
    if any("bound read from an array" in output.shape_env.unbacked[n] for n in names):
        # two slices share a length only with the same bounds on axes of one length
        hint = ("slice with the same bounds (the same lo and hi) arrays of the same "
                "length along the sliced axis, or accept the graph break")
    if any("np.bincount" in output.shape_env.unbacked[n] for n in names):
        # np.bincount(y, minlength=k) is longer than k when y holds k or more
        hint = ("np.bincount(y, minlength=k) has max(y) + 1 counts when that is more "
                "than k; for exactly k counts, count into a fixed array (c = "
                "np.zeros(k, int); np.add.at(c, y, 1)), or accept the graph break")
    raise Unsupported(f"np.{op.name} of a data-dependent size ({what}) that fits the "
                      f"other arguments for some counts only: {text}",
                      "That size is known only when the graph runs; NumPy would take "
                      "these arguments for some counts and raise for others.",
                      hint=hint, cause="data_dependent_shape") from error


def one_value_answer(shape_env, op: ops.OpDef, meta_call, error: Exception):
    """``one_answer`` for an int the graph computes (an unbacked int ``ui0``: ``int()``
    of an integer array, ``1 if fast > slow else -1``) written into an array or given
    to an elementwise op, which the rule refused at its made-up hint only: ``signal[t]
    = 1 if fast > slow else -1`` into an ``int8`` array, where NumPy refuses 4099 (the
    hint) with an ``OverflowError`` but takes 1 and -1. The dtype and shape of such an
    op do not depend on the int's value (NEP 50: a Python int takes the array's dtype),
    only whether NumPy raises does, which the graph sees when it runs, as eagerly (the
    node may raise). The values tried are ``one_answer``'s counts, -2, -1 and the hint.
    None where the call holds no such int, or where the values give more than one
    answer (the caller breaks: ``made_up_values``).

        >>> one_value_answer(env, setitem, ((signal_i8, t, ui0), {}), overflow)[1]
        'np.setitem raises for some data (OverflowError when the value is 4099)'
    """
    names = sorted(n for n in symbols_in(meta_call)
                   if n in shape_env.unbacked_numbers and n.startswith("ui"))
    if not names:
        return None
    return one_answer(shape_env, op, meta_call, names, error, values=True)


def one_answer(shape_env, op: ops.OpDef, meta_call, names: list, error: Exception,
               values: bool = False):
    """``(meta, why)`` for an elementwise op of one unbacked size that NumPy takes
    for some counts only, where every count it takes gives one answer: adding the
    counts ``np.bincount(y, minlength=3)`` to a ``(12, 3)`` array takes ``u0`` of 1
    or 3 and gives ``(12, 3)`` float64 for both, and NumPy raises its own
    broadcasting error for any other count when the graph runs, as eagerly (the
    node may raise: ``why``). None where no count or more than one answer is found.

    Broadcasting takes a size only where it is 1 or the size of another operand
    on that axis: the counts tried (0 to 3, every static size of the call, and one
    and two past the largest) hold every count it could take, so the answer is the
    rule's for every count where NumPy does not raise.

    A reshape of ``u0`` elements to a shape of static ints with no ``-1``
    (``np.bincount(y, minlength=9).reshape(3, 3)``: ``u0`` is ``max(9, y.max() +
    1)``) takes exactly one count, the shape's product, which is tried too: its
    answer is the result, and NumPy raises its own ValueError for any other count
    when the graph runs, as eagerly. With a ``-1`` the counts 0 and the product of
    the other sizes give two answers: it keeps breaking.

    A write ``z[:len(kept)] = kept`` (``setitem``) keeps the target's shape and dtype
    at every count: the region ``z[:u0]`` is ``min(u0, len(z))`` long, so NumPy takes
    the counts up to ``len(z)`` and raises its own ValueError past it, when the graph
    runs, as eagerly; every count it takes gives the target's meta.

    ``values``: ``names`` holds an int used as a value, not a size
    (``one_value_answer``): negative values and the made-up hint are tried too."""
    if op.kind != ops.ELEMENTWISE and op.name not in ("reshape", "setitem") or \
            len(names) != 1 or \
            symbols_in(meta_call) != set(names):
        return None
    statics = {int(d) for m in metas_in(meta_call) for d in m.shape
               if not isinstance(d, Symbolic)}
    if op.name == "reshape":   # the product of the new shape: its only count
        shape = [v for v in tree_leaves(meta_call[0][1:]) if type(v) is int]
        statics.add(abs(int(np.prod(shape, dtype=np.int64))))
    counts = {0, 1, 2, 3} | statics | {max(statics | {3}) + k for k in (1, 2)}
    if values:   # (an int may be negative; the hint is where the rule refused it)
        counts |= {-2, -1, int(shape_env.hints[names[0]])}
    answers, raised = [], []
    for count in sorted(counts):
        at = dict(shape_env.hints, **{names[0]: count})
        try:
            answer = op.meta(op, *substitute(meta_call, at))
        except ops.MetaError:
            return None
        except Exception:  # noqa: BLE001 (NumPy raises at this count)
            raised.append(count)
            continue
        answers.append(answer)
    if not answers or not raised or ops.data_sizes(answers[0]) or \
            any(a != answers[0] for a in answers[1:]):
        return None
    what = "value" if values else "size"
    return answers[0], (f"np.{op.name} raises for some data ({type(error).__name__} "
                        f"when the {what} is {raised[-1] if values else raised[0]})")


def own_unbacked(output, unbacked: list, results: list) -> None:
    """Remember, per unbacked symbol, the node and dimension that hold its value when
    the graph runs (``symbol_placeholder`` reads it there; the glue too)."""
    for name, k, d in unbacked:
        output.unbacked_sizes[name] = (results[k], d)


_KEY_CONSTANTS = (int, float, str, bool, type(None))


class _NoKey(Exception):
    """An argument a key cannot compare by value (an array, a symbolic size)."""


_VALUES_DEPTH = 3   # (elementwise keys nest this deep at most: two operands each, so a
#                    long chain of ops, x = x * 2 + x, costs no exponential key)


def _same_values(node: Node, depth: int = 0) -> Any:
    """A key equal for two nodes that hold the same values when the graph runs: a view
    op (``ravel``, ``reshape``, ``transpose``...) or an elementwise op (``x > 0``,
    written twice: ``x[x > 0] * w[x > 0]``) of the same nodes with the same constant
    arguments, or else the node itself.

    ``np.bincount(r.ravel(), w)`` and ``np.bincount(r.ravel())`` count the values of two
    ``ravel`` nodes of one ``r``: one length. A write into an array gives every alias
    of it a new node (``call_op``), so views of one node with one set of arguments see
    the same values.

        >>> _same_values(ravel_1) == _same_values(ravel_2)     # both r.ravel()
        True
    """
    op = ops.REGISTRY.get(node.target) if node.op == "call" else None
    if op is None or op.kind not in (ops.VIEW, ops.ELEMENTWISE) or op.random or \
            op.effect or "out" in node.kwargs or \
            (op.kind == ops.ELEMENTWISE and depth >= _VALUES_DEPTH):
        return node
    try:   # (an elementwise op of the same values computes the same values: x > 0 twice)
        return ("view" if op.kind == ops.VIEW else "values", node.target,
                _frozen(node.args, depth + 1), _frozen(sorted(node.kwargs.items()), depth + 1))
    except _NoKey:
        return node


def _frozen(value: Any, depth: int = 0) -> Any:
    """``value`` as a hashable key: nodes by ``_same_values``, slices as tuples."""
    if isinstance(value, Node):
        return _same_values(value, depth)
    if isinstance(value, slice):
        return ("slice", _frozen(value.start, depth), _frozen(value.stop, depth),
                _frozen(value.step, depth))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(_frozen(v, depth) for v in value))
    if type(value) in _KEY_CONSTANTS:
        return (type(value).__name__, value)
    raise _NoKey


def _slice_length_key(call, meta_call, measure) -> Any:
    """A key equal for two array-bounded slices that have one length when the graph
    runs, or None. ``x[lo:hi]``'s length is ``lo`` and ``hi`` clamped to the length of
    the axis it cuts, nothing else: two slices whose bounds are the same nodes (or
    constants) on axes of one static or symbolic length are one size, so
    ``np.dot(data[lo:hi], v[idx[lo:hi]])`` needs no check. Axes of different or
    unknown lengths clamp differently: then each slice keeps a size of its own.
    ``measure`` is the mark's ``("slice", component, axis)``
    (``ops.indexing.array_bounded_meta``); a write clears the keys (``call_op``), as
    it may change a bound's values under its old node.

        >>> _slice_length_key(([x, sl], {}), ((xm, slm), {}), ("slice", 0, 0))
        ('slice', <bound keys>, ('static', 10))
    """
    if isinstance(measure, tuple) and measure[:1] == ("clamped",):
        return measure    # (b[1:] of b[m]: its length's function of the axis, clamped_slices)
    if not (isinstance(measure, tuple) and measure[:1] == ("slice",)) or measure[2] is None:
        return None
    (args, _), (metas, _) = call, meta_call
    index = args[1] if len(args) > 1 else None
    parts = list(index.items) if isinstance(index, TupleVariable) else [index]
    part = parts[measure[1]] if measure[1] < len(parts) else None
    if not isinstance(part, SliceVariable) or not isinstance(metas[0], ops.ArrayMeta):
        return None
    length = metas[0].shape[measure[2]]
    try:
        bounds = tuple(_bound_key(p) for p in part.parts)
    except _NoKey:
        return None
    axis = ("symbolic", length.sym.render()) if isinstance(length, Symbolic) else \
        ("static", int(length))
    return ("slice", bounds, axis)


def _bound_key(bound: Variable) -> Any:
    """A slice bound as a key: a traced array by the values its node holds, a
    constant by value (``_frozen``); anything else raises ``_NoKey``."""
    if isinstance(bound, ArrayVariable):
        return _same_values(bound.node)
    if bound.is_constant():
        return _frozen(bound.as_python_constant())
    raise _NoKey


def _sliced_by_arrays(meta_call) -> bool:
    """``x[lo:hi]`` with a traced bound (``ops.indexing.array_bounded_meta``), as
    opposed to ``x[mask]``: the metas of getitem's call are ``((x, index), {})``."""
    args = meta_call[0] if isinstance(meta_call, tuple) and meta_call else ()
    index = args[1] if isinstance(args, (tuple, list)) and len(args) > 1 else None
    parts = index if isinstance(index, tuple) else (index,)
    return any(isinstance(p, slice) and metas_in(p) for p in parts)


def _array_arguments(call, metas: list) -> list | None:
    """The ArrayVariables of an op's call (``(args, kwargs)``, inside tuples and lists
    too) in the order of ``metas``, the ArrayMetas its rule saw (``rules.metas_in``);
    None where the two do not line up (then no size is shared)."""
    found = []

    def walk(value):
        for leaf in tree_leaves(value, is_leaf=_is_variable):
            if isinstance(leaf, ArrayVariable):
                found.append(leaf)
            elif isinstance(leaf, (TupleVariable, ListVariable)):
                walk(list(leaf.items))
    walk(call)
    if len(found) != len(metas) or any((v.meta.dtype, v.meta.ndim) != (m.dtype, m.ndim)
                                       for v, m in zip(found, metas)):
        return None
    return found


def _is_variable(value: Any) -> bool:
    return isinstance(value, Variable)
