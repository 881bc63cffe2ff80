"""Lists built one item per trip of a count only the data knows (issue #19).

::

    means = []
    for c in np.unique(y):                        # one loop node, no break:
        means.append(X[y == c].mean(0))           #   rows[trip] = mean(...)
    return np.array(means)                        #   data_check(u0 >= 1); array(rows)

A loop over ``classes`` (a length the data decides) can be one loop node
(``data_trips``). One that appends to a list is one too, where the list is stacked
after the loop: the list becomes ``variables.trip_rows.TripRowsVariable``, whose items
are the rows of an array the graph preallocates, ``empty((count, *item.shape))``,
each trip writing its row (``out[trip] = item``), and ``np.array(means)``
(``np.asarray``, ``np.stack``, ``np.vstack`` of 1-d items) is a copy of it. With no
trip eager's result differs (``np.array([])`` is float64 of shape ``(0,)``,
``np.stack([])`` raises ``ValueError``): the graph checks ``count >= 1`` (a
``data_check``), and at no trip the frame's own code runs instead (a graph that may be
rerun only, as for any data check; otherwise the loop breaks as before).

It is tried in two traces. The first traces the loop node as usual; where it fails
and a list the loop's frame made empty just before the loop (``means = []``, the only
store to ``means`` in the code, not read between it and the loop) holds one item, an
array of static shape, the trace starts over with that plan ("rows", the name and the
item's shape and dtype: ``plan_rows``). The second makes the list such a variable
(``install_rows``) and traces the node; each trip must append exactly once
(``check_rows``), an array the trip made (no view of a carried or outer array, no
array written after the append: eager's list holds the object itself, so a later write
would show in it). Anything else (another use of the list: ``len(means)``,
``means[0]``, a loop around, a condition in a comprehension) starts the trace over with
the loop unrolled, where it breaks at its ``GET_ITER`` as before, with this hint
(``HINT``, ``builds_list_per_trip``), which names the rewrite that is one loop node.

A list comprehension stacked after it, ``np.array([X[y == c].mean(0) for c in
classes])``, is the same loop: its list is the stack item under the iterator
(``comprehension_list``, planned as ``COMPREHENSION``), ``LIST_APPEND`` its append,
and ``loop_of_iterator`` finds its ``FOR_ITER`` from the ``GET_ITER`` (3.11: in the
``<listcomp>`` function called with the iterator; 3.12+: after the inlined prologue).

The forms ``builds_list_per_trip`` knows, from the ``GET_ITER``:

- 3.11 comprehension: ``MAKE_FUNCTION`` of a ``<listcomp>`` code, the iterable,
  ``GET_ITER; PRECALL 0; CALL 0``;
- 3.12+ comprehension (inlined): ``GET_ITER; LOAD_FAST_AND_CLEAR; SWAP 2;
  BUILD_LIST 0; SWAP 2; [GET_ITER (3.13);] FOR_ITER``;
- a ``for`` loop whose body calls ``.append``.

    >>> builds_list_per_trip(tx.info.insts, get_iter.index)    # the comprehension above
    True
"""

from __future__ import annotations

import types

import numpy as np

from .. import ops
from ..bytecode.instructions import CodeInfo
from ..exc import RestartAnalysis, Unsupported
from ..graph import CALL
from ..output_graph import PYTHON_EFFECTS
from ..pyversion import INLINED_COMPREHENSIONS
from ..raising import errstate_reports, rerun_on_raise
from ..symbolic import Sym, SymInt
from ..variables import ArrayVariable, ConstantVariable, TupleVariable
from ..variables.sequences import ListVariable
from ..variables.size_values import size_operator
from ..variables.trip_rows import TripRowsVariable
from .loop_exits import names
from .loop_facts import NotALoopNode, memory_base

HINT = ("this loop builds a list one item per trip of a count only the data knows; "
        "`items = []` just before the loop, one items.append(array) a trip and "
        "np.array(items) / np.stack(items) after it stay in the graph, as does "
        "np.array([f(c) for c in classes]), other uses of the list (len(items), a "
        "condition in the comprehension) do not, so the loop runs in Python: "
        "preallocate the result "
        "(out = np.zeros((len(classes), X.shape[1]))) and write out[i] = ... in "
        "`for i in range(len(classes))` (one loop node, no break), or pass the count in")

# The break at ``np.array(items)`` where the graph cannot check that a trip ran
STACKED_WHY = ("The loop stays one loop node; with no trip eager's np.array(items) is "
               "np.array([]) (float64, shape (0,)) and np.stack(items) raises, which the "
               "graph can only check in a graph it may rerun (one that warns at Python "
               "level, like a mean of a selection that may be empty, cannot be), so the "
               "call runs in Python on the list.")
STACKED_HINT = ("preallocate the result (out = np.zeros((len(classes), X.shape[1]))) and "
                "write out[i] = ... in `for i in range(len(classes))`, or compute the "
                "items with ops that cannot warn (X[m].sum(0) / max(m.sum(), 1) for a "
                "mean), or accept this break (the loop stays in the graph)")

# How far back of the GET_ITER the 3.11 comprehension's MAKE_FUNCTION may be (the
# iterable's own instructions lie between)
_BACK = 40


def builds_list_per_trip(insts, at: int) -> bool:
    """Does the loop whose iterator the ``GET_ITER`` at ``at`` makes build a list one
    item per trip (a list comprehension, or ``.append`` in a ``for`` body)?"""
    names = [i.name for i in insts[at + 1:at + 7]]
    if names[:2] == ["PRECALL", "CALL"] or names[:1] == ["CALL"]:   # 3.11: <listcomp>
        return any(_listcomp(insts, j) for j in range(at - 1, max(at - _BACK, 0), -1))
    if "BUILD_LIST" in names and "FOR_ITER" in names:    # 3.12+: inlined comprehension
        return names.index("BUILD_LIST") < names.index("FOR_ITER")
    loop = insts[at + 1] if at + 1 < len(insts) else None
    if loop is None or loop.name != "FOR_ITER" or loop.target is None:
        return False
    return any(i.name in ("LOAD_METHOD", "LOAD_ATTR") and _attr(i.arg) == "append"
               for i in insts[loop.index + 1:loop.target])


def _listcomp(insts, j: int) -> bool:
    return insts[j].name == "MAKE_FUNCTION" and j >= 1 and any(
        i.name == "LOAD_CONST" and isinstance(i.arg, types.CodeType) and
        i.arg.co_name == "<listcomp>" for i in insts[max(j - 3, 0):j])


def _attr(arg) -> str | None:
    if isinstance(arg, str):
        return arg
    if isinstance(arg, tuple) and len(arg) == 2 and isinstance(arg[1], str):
        return arg[1]   # (3.12+: LOAD_ATTR's (method?, name))
    return None


# ---------------------------------------------------------------- comprehensions
# A list comprehension's list has no name: it is the stack item under the iterator at
# the ``FOR_ITER`` (the comprehension's own frame on 3.11, the enclosing one on 3.12+),
# which ``LIST_APPEND 2`` appends to. Plans name it so.
COMPREHENSION = "<comprehension>"

# 3.12+ (PEP 709): between the GET_ITER of the iterable and the loop's FOR_ITER, the
# prologue saves the loop variables (LOAD_FAST_AND_CLEAR), makes the list under the
# iterator (SWAP 2, BUILD_LIST 0, SWAP 2) and, on 3.13, takes the iterator's iterator
_PROLOGUE = frozenset({"LOAD_FAST_AND_CLEAR", "SWAP", "BUILD_LIST", "GET_ITER"}
                      if INLINED_COMPREHENSIONS else ())


def loop_of_iterator(tx, get_iter) -> tuple | None:
    """The loop the ``GET_ITER`` at ``get_iter`` makes the iterator of, as
    ``(code, info, for_iter)``: the next instruction, the ``FOR_ITER`` after a 3.12+
    comprehension's prologue, or (3.11) the first ``FOR_ITER`` of the ``<listcomp>``
    function called with it (``GET_ITER; PRECALL 0; CALL 0``, the function under the
    iterable); None for anything else (a generator expression, a set comprehension).
    ``enumerate_data_trips`` asks at the ``enumerate`` call, before the ``GET_ITER``.

        >>> loop_of_iterator(tx, inst)   # [X[y == c].sum(0) for c in classes], 3.13
        (<code f>, <CodeInfo f>, Inst(FOR_ITER))
    """
    insts = tx.info.insts
    after = insts[get_iter.index + 1:get_iter.index + 9]
    if not INLINED_COMPREHENSIONS and [i.name for i in after[:2]] == ["PRECALL", "CALL"] \
            and after[0].arg == 0:
        # (the function is under the iterable; where an ``enumerate(classes)`` call is
        # about to make it, the top of the stack, its arguments taken: the topmost one)
        made = next((v for v in reversed(tx.stack)
                     if isinstance(getattr(v, "code", None), types.CodeType)), None)
        code = getattr(made, "code", None)
        if not isinstance(code, types.CodeType) or code.co_name != "<listcomp>":
            return None
        info = CodeInfo.of(code)
        # (its code: [COPY_FREE_VARS, RESUME,] BUILD_LIST 0, LOAD_FAST .0, FOR_ITER)
        loop = next((i for i in info.insts if i.name == "FOR_ITER"), None)
        if loop is None or loop.index < 2 or \
                [i.name for i in info.insts[loop.index - 2:loop.index]] != \
                ["BUILD_LIST", "LOAD_FAST"]:
            return None
        return code, info, loop
    for inst in after:
        if inst.name == "FOR_ITER":
            return tx.code, tx.info, inst
        if inst.name not in _PROLOGUE or inst.name == "BUILD_LIST" and inst.arg != 0:
            return None
    return None


def comprehension_list(tx, loop) -> ListVariable | None:
    """At the ``FOR_ITER`` ``loop``: the comprehension's list (empty, under the
    iterator, made by the ``BUILD_LIST 0`` of its prologue), or None."""
    if len(tx.stack) < 2 or type(tx.stack[-2]) is not ListVariable:
        return None
    lst, insts = tx.stack[-2], tx.info.insts
    if lst.items or lst.source is not None:
        return None
    j = loop.index - 1       # back over the prologue to its BUILD_LIST 0
    while j >= 0 and insts[j].name in ("SWAP", "GET_ITER", "LOAD_FAST"):
        j -= 1
    if j < 0 or insts[j].name != "BUILD_LIST" or insts[j].arg != 0:
        return None
    # (only LIST_APPEND 2 in the body: the list under the iterator)
    body = insts[loop.index + 1:loop.target] if loop.target is not None else []
    if any(i.name == "LIST_APPEND" and i.arg != 2 for i in body):
        return None
    return lst


# ---------------------------------------------------------------- stacked per-trip lists
def fresh_empty_lists(tx, loop) -> dict[str, ListVariable]:
    """The lists the loop at ``loop`` (its ``FOR_ITER``) may stack: locals bound to an
    empty list by ``name = []``, the only store to ``name`` in the code, with no
    instruction naming ``name`` between it and the loop (so nothing else holds it)."""
    insts, out = tx.info.insts, {}
    for name, var in tx.locals.items():
        if type(var) is not ListVariable or var.items or var.source is not None or \
                not isinstance(name, str):
            continue
        stores = [i for i in insts if i.name.startswith(("STORE_FAST", "DELETE_FAST")) and
                  name in names(getattr(i.arg, "name", i.arg))]
        if len(stores) != 1 or stores[0].index >= loop.index or stores[0].index < 1:
            continue
        made = insts[stores[0].index - 1]
        if made.name != "BUILD_LIST" or made.arg != 0 or any(
                name in names(getattr(i.arg, "name", i.arg))
                for i in insts[stores[0].index + 1:loop.index]
                if i.name.startswith(("LOAD_", "STORE_", "DELETE_"))):
            continue
        out[name] = var
    lst = comprehension_list(tx, loop)
    if lst is not None:
        out[COMPREHENSION] = lst
    return out


def plan_rows(lists: dict[str, ListVariable]) -> dict:
    """After a failed first trace: the lists that got one item, an array of static shape
    (not a 0-d array: rebuilt, its rows would be scalars), as the plan
    ``{name: (shape, dtype, scalar)}``; empty where there is none."""
    plan = {}
    for name, var in lists.items():
        if len(var.items) != 1 or not isinstance(var.items[0], ArrayVariable):
            continue
        meta = var.items[0].meta
        if not isinstance(meta, ops.ArrayMeta) or meta.kind != ops.NUMPY or \
                meta.dtype.hasobject or not all(type(d) is int for d in meta.shape) or \
                (meta.ndim == 0 and not meta.scalar):
            continue
        plan[name] = (tuple(meta.shape), meta.dtype, meta.scalar)
    return plan


def install_rows(tx, loop, count, plan: dict) -> list[TripRowsVariable]:
    """The second trace, at the loop's first ``FOR_ITER``: each planned list as a
    ``TripRowsVariable`` over ``empty((count, *shape), dtype)``; NotALoopNode where a
    list is not as planned."""
    lists, made = fresh_empty_lists(tx, loop), []

    def refuse(why: str) -> RestartAnalysis:
        try:
            tx.refuse_loop_node(loop, f"a list built one item per trip: {why}")
        except RestartAnalysis as e:
            return e
        raise AssertionError("refuse_loop_node returned")

    for name, (shape, dtype, scalar) in plan.items():
        if name not in lists:
            raise NotALoopNode(f"the list {name!r} is not as planned")
        dims = TupleVariable([ConstantVariable(d) for d in (count, *shape)])
        rows = tx.output.call_op(ops.get("empty"), [dims],
                                 {"dtype": ConstantVariable(np.dtype(dtype))})
        item = ops.ArrayMeta(shape, np.dtype(dtype), ops.NUMPY, scalar)
        var = TripRowsVariable(rows, item, _on_append(loop), _on_stack(tx, loop, count),
                               refuse)
        if name == COMPREHENSION:
            tx.stack[-2] = var      # (under the iterator: ``comprehension_list``)
        else:
            tx.locals[name] = var
        made.append(var)
    return made


def _on_append(loop):
    def on_append(tx, lst: TripRowsVariable, item):
        """One trip's ``lst.append(item)``: ``rows[trip] = item``."""
        scope = tx.output.loop_scope
        if scope is None or getattr(scope, "inst", None) is not loop or \
                not getattr(scope, "data_trips", False):
            raise lst.refuse("an append outside its loop's body")
        if not isinstance(item, ArrayVariable) or item.meta != lst.item:
            raise NotALoopNode("a trip appends an item of another shape or dtype")
        base = memory_base(item.node)
        if base.op != CALL or base.graph is not scope.body:
            raise NotALoopNode("a trip appends an array it did not make")
        trip = ConstantVariable(SymInt(0, Sym(((scope.symbol, 1),), 0,
                                              ((scope.symbol, scope.symbol),))))
        tx.setitem(lst.stacked, trip, item)
        lst.appended.append((base, len(scope.body.nodes)))
        return ConstantVariable(None)
    return on_append


def check_rows(scope, made: list[TripRowsVariable]) -> None:
    """After the body's trace: every list was appended to once, and its item was
    written by no op after the append, nor carried to the next trip, where it could be
    (eager's list holds the object itself: ``acc += 1`` at the next trip shows in it)."""
    tx = scope.tx
    for lst in made:
        if len(lst.appended) != 1:
            raise NotALoopNode("a trip appends to the list more or less than once")
        base, at = lst.appended[0]
        held = [v for name, v in tx.locals.items() if scope.watched.first.get(name) != "write"]
        if any(isinstance(v, ArrayVariable) and memory_base(v.node) is base
               for v in [*held, *tx.stack]):
            raise NotALoopNode("a trip appends an array it carries to the next trip")
        for node in scope.body.nodes[at:]:
            if node.op == CALL and (node.meta.get("kind") == ops.MUTATION or
                                    "out" in node.kwargs) and memory_base(node) is base:
                raise NotALoopNode("a trip writes the item it appended")


def _on_stack(tx, loop, count):
    def on_stack(op, lst: TripRowsVariable):
        """``np.array(lst)`` after the loop: a copy of the rows, checked to have one at
        least (else the frame's own code runs: eager's result at no trip)."""
        output = tx.output
        root = tx
        while root.parent is not None:
            root = root.parent
        if output.loop_scope is not None or (op.name == "vstack" and lst.item.ndim != 1):
            raise lst.refuse(f"np.{op.name}() of the list in a loop node, or of 0-d items")
        error = Unsupported(
            f"np.{op.name}() of a list built one item per trip of a count only the data "
            "knows, where no trip may have run", STACKED_WHY, hint=STACKED_HINT,
            cause="data_dependent_shape")
        point, restart = root.check_restart(tx.code, loop.index, error)
        if not tx.config.data_checks or output.writes.warns or \
                not rerun_on_raise(output, loops=True) or errstate_reports(output.graph) or \
                point.key in root.break_points:
            raise error   # (the loop node stays; the list is rebuilt for the call)
        flag = size_operator(tx, "greater_equal", ConstantVariable(count), ConstantVariable(1))
        if flag is None:
            raise error
        snapshot = flag.snapshot
        output.graph.call("data_check", (snapshot.node, True), {}, meta={
            "array": snapshot.meta, **output.current_loc, "kind": ops.OPAQUE,
            PYTHON_EFFECTS: output.side_effects.pending()})
        output.writes.checks.append(restart)   # (a later write: the loop breaks as before)
        return output.call_op(ops.get("array"), [lst.stacked], {})
    return on_stack
