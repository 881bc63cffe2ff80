"""``np.stack(d)`` of a ``collections.deque`` of arrays that the trace has not read
(:mod:`.deques`): the rows the deque held when the call started come in as one graph
input (stacked by the check), the rows the trace appended are stacked by the graph, and
the two are joined in the order the deque's ops left them (``maxlen`` applied), instead
of one input and guard per item. ``np.array(d)``, ``np.asarray(d)``, ``np.vstack(d)``
and reductions NumPy computes on ``np.asarray(d)`` (``np.mean(d, axis=0)``) too.

Example::

    def smooth(self, x):                      # self.window = deque(maxlen=4), full
        self.window.append(x)                 # held: list(self.window)[-3:], one input
        return np.mean(self.window, axis=0)   # graph: mean(concatenate([held, stack([x])]))

While the deque's length has not changed between calls, the whole deque held is one
input of that length (``deques._held_stack``); once it has, the rows held that survive
the appends are one input of symbolic length (``_symbolic_stack``), so a window that
fills and then slides needs no new entry. Called by ``OutputGraph.call_op`` before an
op's own rule.
"""

from __future__ import annotations

from .. import ops
from .arrays import ArrayVariable
from .constant import ConstantVariable
from .deques import WRITES, DequeVariable
from .sequences import ListVariable, SliceVariable


def stacked_deque(output, op, args: list, kwargs: dict):
    """``np.stack(d)`` (``np.array``, ``np.asarray``, ``np.vstack`` of 1-d items) of an
    unread deque of arrays: the rows it held (one input) and the ones the trace wrote,
    in the order the ops left them (``maxlen`` applied), from the graph; None where it
    is traced as before (the items read one by one). A reduction of the deque
    (``np.mean(d, axis=0)``: NumPy makes ``np.asarray(d)`` first) is that of the
    stack.

    Once the deque's length changed between calls, the rows held that survive the
    trace's writes are one input of symbolic length (``_symbolic_stack``); before,
    or where the writes go to both ends of a ``maxlen`` deque, the whole deque held
    is one input of its length (``_held_stack``)."""
    if op.name in _REDUCING and args and isinstance(args[0], DequeVariable):
        stacked = stacked_deque(output, ops.get("asarray"), args[:1], {})
        if stacked is None:
            return None
        return output.call_op(op, [stacked, *args[1:]], kwargs)
    if not _stacks_whole(op, args, kwargs):
        return None
    d = args[0]
    if not isinstance(d, DequeVariable) or not d.is_unread() or d.held is None or \
            output.writes_inputs or output.loop_scope is not None or \
            any(name not in WRITES for name, _ in d.ops) or \
            not all(isinstance(v, ArrayVariable) or _float_item(v)
                    for _, new in d.ops for v in new):
        return None
    symbolic = _symbolic_stack(output, op, d)
    if symbolic is not None:
        return symbolic
    held = d.held()
    if held is False:
        return None
    n = 0 if held is None else int(held.meta.shape[0])
    item = None if held is None else tuple(held.meta.shape[1:])
    rows: list = [("held", i) for i in range(n)]
    for name, new in d.ops:           # the ops as deque runs them, on row tokens
        for v in new:
            if item is None:
                item = _row_shape(v)
            if _row_shape(v) != item:
                return None            # (NumPy's own error, eagerly)
            if name in ("append", "extend"):
                rows.append(("new", v))
                if d.maxlen is not None and len(rows) > d.maxlen:
                    del rows[0]
            else:
                rows.insert(0, ("new", v))
                if d.maxlen is not None and len(rows) > d.maxlen:
                    del rows[-1]
    if not rows or (op.name == "vstack" and len(item) != 1):
        return None
    parts, i = [], 0
    while i < len(rows):               # runs of held rows (one slice) and of new ones
        j = i
        while j < len(rows) and rows[j][0] == rows[i][0] and \
                (rows[i][0] == "new" or rows[j][1] == rows[i][1] + (j - i)):
            j += 1
        run = rows[i:j]
        if run[0][0] == "held":
            key = SliceVariable(ConstantVariable(run[0][1]), ConstantVariable(run[-1][1] + 1),
                                ConstantVariable(None))
            parts.append(output.call_op(ops.get("getitem"), [held, key], {}))
        else:
            parts.append(_stacked(output, [v for _, v in run]))
        i = j
    if len(parts) == 1:
        return output.call_op(ops.get("array"), [parts[0]], {})   # (a copy, as np.stack's)
    return output.call_op(ops.get("concatenate"), [ListVariable(parts)], {})


def _float_item(v) -> bool:
    """A Python float the trace wrote into the deque (a constant or a changing float:
    ``d.appendleft(sample)``): a row of a deque of floats, whose held items the check
    makes one float64 input (``deques._held_stack``)."""
    return isinstance(v, ConstantVariable) and v.python_type() is float


def _row_shape(v) -> tuple:
    """The shape of the row ``v`` is in the stack: a float's is ``()``."""
    return () if _float_item(v) else tuple(v.meta.shape)


def _stacked(output, run: list):
    """``np.stack(run)`` of written rows; of floats, ``np.array(run)``: the same float64
    row of them (as ``np.array(d)`` makes it), in one op."""
    name = "array" if all(_float_item(v) for v in run) else "stack"
    return output.call_op(ops.get(name), [ListVariable(run)], {})


# Reductions NumPy computes on ``np.asarray`` of their first argument
_REDUCING = frozenset({"mean", "sum", "prod", "max", "min", "amax", "amin", "std", "var",
                       "median", "average"})


def _symbolic_stack(output, op, d: DequeVariable):
    """``np.stack(d)`` of a deque whose length changes between calls: the rows held
    that survive the trace's writes (one input of symbolic length, ``_held_rows``),
    then (or, for ``appendleft``, after) the rows written, stacked by the graph.

    Appends to a ``maxlen`` deque keep at most ``maxlen - k`` of the rows held (``k``
    rows appended): the last ones, taken by the check (``list(d)[-3:]``), so the
    stack's length is ``m + k`` for a symbolic ``m``, whether the deque is filling or
    full, and dropping needs no branch. Writes to both ends of a ``maxlen`` deque, or
    a length that never changed: None (``_held_stack``)."""
    new = [(name, v) for name, vs in d.ops for v in vs]
    sides = {"right" if name in ("append", "extend") else "left" for name, _ in new}
    if d.maxlen is not None and len(sides) > 1:
        return None
    shapes = {_row_shape(v) for _, v in new}
    if len(shapes) > 1:
        return None                # (NumPy's own error, eagerly)
    keep = None if d.maxlen is None or not new else d.maxlen - len(new)
    held = None
    if keep is None or keep > 0:
        if d.held_rows is None:
            return None
        held = d.held_rows(keep, "right" if "right" in sides else "left",
                           1 if new else 2)
        if held is None or held is False or \
                any(s != tuple(held.meta.shape[1:]) for s in shapes):
            return None
    item = tuple(held.meta.shape[1:]) if held is not None else shapes.pop()
    if op.name == "vstack" and len(item) != 1:
        return None
    tokens: list = [] if held is None else [held]
    for name, v in new:            # (past maxlen only where no row held survives)
        if name in ("append", "extend"):
            tokens.append(v)
            if held is None and d.maxlen is not None and len(tokens) > d.maxlen:
                del tokens[0]
        else:
            tokens.insert(0, v)
            if held is None and d.maxlen is not None and len(tokens) > d.maxlen:
                del tokens[-1]
    if not tokens:
        return None
    parts, run = [], []
    for t in tokens:               # the held rows, and runs of written rows stacked
        if t is held:
            if run:
                parts.append(_stacked(output, run))
                run = []
            parts.append(held)
        else:
            run.append(t)
    if run:
        parts.append(_stacked(output, run))
    if len(parts) == 1:
        # (the rows held alone: a copy, as np.stack's; a stack is a new array already)
        return output.call_op(ops.get("array"), [held], {}) if parts[0] is held \
            else parts[0]
    return output.call_op(ops.get("concatenate"), [ListVariable(parts)], {})


def _stacks_whole(op, args: list, kwargs: dict) -> bool:
    """``np.stack(d)`` or ``np.stack(d, axis=0)`` (``np.array(d)``, ``np.asarray(d)``,
    ``np.vstack(d)``): the deque's items stacked along a new first axis."""
    if op.name not in ("stack", "array", "asarray", "vstack") or not args:
        return False
    if op.name != "stack":
        return len(args) == 1 and not kwargs
    axis = list(args[1:]) + [v for k, v in kwargs.items() if k == "axis"]
    return len(args) <= 2 and not set(kwargs) - {"axis"} and len(axis) <= 1 and all(
        a.is_constant() and type(a.as_python_constant()) is int and
        a.as_python_constant() == 0 for a in axis)
