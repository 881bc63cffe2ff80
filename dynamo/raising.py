"""How a compiled graph that raises while it runs stays exact (``on_raise``).

A graph may raise at an op for its values (``np.linalg.inv`` of a singular matrix,
``x[idx]`` out of bounds, an op inside ``np.errstate(invalid="raise")``): by then plain
Python would have made the Python effects traced before that op and reported the
floating-point conditions of the ops before it. ``on_raise`` decides, from the graph
and what the trace recorded, whether the glue reruns the frame's original code
(``rerun_on_raise``), runs the graph under NumPy's floating-point guard, or whether
the frame must run eagerly (``Unsupported``).

Example::

    >>> # output: the OutputGraph of the trace of ``np.linalg.inv(a) + 1``
    >>> [n.target for n in raising_nodes(output.graph)]
    ['inv']
    >>> on_raise(output).rerun         # it writes no input, draws no random numbers
    True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from dynamo.ops.signals import reports_fp

from . import ops
from .exc import Unsupported
from .graph import Graph, Node
from .ops.errstate import OPS as ERRSTATE_OPS
from .output_graph import PYTHON_EFFECTS, OutputGraph
from .symbolic import SymArg
from .tree import tree_leaves


@dataclass(frozen=True)
class OnRaise:
    """What the glue does about an exception of its graph (see ``on_raise``)."""

    rerun: bool   # it becomes RerunEagerly: the hook runs the frame's original code
    guard: bool   # the graph runs with every visible floating-point condition raising
    # (a graph that is not rerun) the frame runs eagerly instead of the graph when the
    # caller's settings make a floating-point condition raise (``np.seterr``)
    eager_if_raising: bool = False
    # (a graph that is rerun, without ``guard``) the graph runs under the guard on the
    # calls where the caller's settings make a floating-point condition raise
    guard_if_raising: bool = False


def on_raise(output: OutputGraph) -> OnRaise:
    """How a graph that raises while it runs stays exact (``Unsupported`` if it cannot).

    A graph raises at some op (``np.linalg.inv`` of a singular matrix, ``x[idx]`` out
    of bounds, an op inside ``np.errstate(invalid="raise")``). Plain Python would have
    made, by then, the Python effects traced before that op (``log.append``, attribute
    writes: the glue replays them only *after* the graph) and reported the
    floating-point conditions of the ops before it (warnings).

    - A graph that may be rerun (``rerun_on_raise``) reruns: the frame's original code
      makes the effects and raises the program's own exception. If the graph holds an
      op that may raise for its values (``raising_nodes``), it runs under NumPy's
      floating-point *guard* (visible conditions raise, see
      ``dynamo.ops.errstate.raising``): a graph that would warn before raising
      then raises at its first warning, before reporting anything, and the rerun
      reports each warning once.
    - An ``np.errstate`` block inside the graph that makes conditions warn (or call,
      print, log) sets its own settings over the guard; such a graph is not rerun
      (its warnings are reported once) unless an op of it is inside the program's own
      ``try`` (the handler must see the exception: the rerun is how it does).
    - A graph that may be rerun and holds no op that raises for its values runs under
      the guard only on calls where the caller's settings make some condition raise
      (``guard_if_raising``: ``np.errstate(divide="raise")`` around the call, or
      ``np.seterr``): there its ops may raise too, after warning. Where an
      ``np.errstate`` block of its own makes a condition warn (over the guard), the
      frame runs eagerly on such calls instead (``eager_if_raising``).
    - A graph that is not rerun and may raise at an op traced after Python effects
      cannot be exact (the effects would be lost): ``Unsupported``, and the frame runs
      eagerly.
    - A graph with an op that may warn at Python level (``WriteGuard.warns``: "Mean of
      empty slice", issued by NumPy's Python code, which no ufunc setting turns into an
      exception) is not rerun: the rerun would warn again. Such an op also signals
      floating-point conditions (the 0/0 of that mean), which the caller's settings may
      make raise (``np.seterr(all="raise")``) after its warning and after Python
      effects the glue replays later: when they do, the frame runs eagerly, decided
      before the graph runs (``eager_if_raising``).
    """
    rerun = rerun_on_raise(output)
    if output.writes.checks and (not rerun or errstate_reports(output.graph)):
        # (the translator keeps such graphs from holding a check, translator/
        # raising_checks.py and WriteGuard.checks: this is the last line of defence)
        raise Unsupported("a data check in a graph that cannot be rerun",
                          "A check on array data stays in the graph only where the frame "
                          "can run again when it fails; this graph writes an input, "
                          "draws random numbers or reports warnings of its own. The "
                          "frame runs eagerly.", cause="data_dependent")
    if output.side_effects.prints:
        # print() calls the glue replays after the graph (translator/deferred_prints.py):
        # a warning of the graph must not be reported before them, nor an exception
        # raised without them. Under the guard such a condition raises, and the frame's
        # original code runs instead: its prints and warnings come in eager's order.
        if rerun:
            return OnRaise(True, _reports_fp(output.graph))
        raise Unsupported("print() in a graph that cannot be rerun",
                          "The print is replayed after the graph, so the graph must be "
                          "able to run again when it warns or raises. The frame runs "
                          "eagerly.", cause="print")
    warns = output.writes.warns
    raising = raising_nodes(output.graph)
    if not raising:
        # No op raises for its values, but the caller's settings may make one raise
        # (``with np.errstate(divide="raise"): f(x)`` of ``np.sqrt(x) + 1 / x``): the
        # graph would warn at sqrt and raise at the divide, and its rerun warn again.
        # On such calls it runs under the guard, which makes that first warning raise.
        # An np.errstate block of its own that warns sets its settings over the guard
        # (its warning would come before the raise, and again in the rerun): on such
        # calls that frame runs eagerly instead.
        if rerun and errstate_reports(output.graph):
            return OnRaise(False, False, eager_if_raising=True)
        return OnRaise(rerun, False, warns,
                       guard_if_raising=rerun and _reports_fp(output.graph))
    if rerun and not errstate_reports(output.graph):
        return OnRaise(True, _reports_fp(output.graph))
    if rerun and output.writes.ops_in_try:
        return OnRaise(True, False)
    late = [n for n in raising if n.meta.get(PYTHON_EFFECTS, output.side_effects.pending())]
    if late:
        where = f" at {late[0].meta['loc']}" if late[0].meta.get("loc") else ""
        raise Unsupported(f"the op {late[0].target}{where} may raise after Python objects "
                          f"were changed, in a graph that cannot be rerun",
                          "The graph writes an input, draws random numbers or reports "
                          "warnings of its own, so it cannot run again; the changes "
                          "(replayed after the graph) would be lost when it raises. The "
                          "frame runs eagerly.", cause="raise_after_effects")
    if output.writes.ops_in_try:
        # (the handler sees an exception of the graph only through the rerun: a graph
        # that raised out of it would skip the program's `except`)
        raise Unsupported("an op inside a try block, in a graph that cannot be rerun",
                          "The except clause sees an error the graph raises only when "
                          "the frame can run again; this graph cannot. The frame runs "
                          "eagerly.", cause="try")
    return OnRaise(False, False, warns)


_INDEXING = frozenset({"getitem", "setitem", "flat_getitem", "flat_setitem"})


def raising_nodes(graph: Graph) -> list:
    """The nodes of ``graph`` that may raise for the *values* of their arguments (the
    trace checked shapes and dtypes): ops NumPy documents as raising
    (``extras["raises"]``: ``np.linalg.inv``, random draws with array parameters...),
    ops that raise for some count of a size the data decides (``node.meta["may_raise"]``:
    ``x[m].max()`` of an empty selection, see docs/unbacked.md), indexing with an index
    computed in the graph (or storing a value computed in the graph), every
    floating-point op inside an
    ``np.errstate`` block that makes a condition raise, ops that may warn at Python level
    (``node.meta["warns"]``: a warnings filter "error" raises there), and loops whose
    body holds one.
    (Raising conditions set globally, ``np.seterr(all="raise")``, are not seen here.)"""
    fp_raise = any(n.target == "errstate_enter" and "raise" in n.kwargs.values()
                   for n in graph.call_nodes())
    found = []
    for node in graph.call_nodes():
        if node.target in ERRSTATE_OPS:
            continue
        op = ops.REGISTRY.get(node.target)
        bodies = [a for a in node.args if isinstance(a, Graph)]
        if op is None or op.extras.get("raises") or node.meta.get("may_raise") or \
                node.meta.get("warns") or _computes_raising_number(node) or \
                (fp_raise and op.kind != ops.VIEW) \
                or any(raising_nodes(b) for b in bodies):
            found.append(node)
        elif node.target in _INDEXING and any(
                isinstance(a, Node) for a in tree_leaves((node.args[1:], node.kwargs))) \
                and not _full_mask_getitem(node) and not _argmax_index(node):
            found.append(node)
    return found


def _computes_raising_number(node: Node) -> bool:
    """Does ``node`` take a Python number the graph computes with an operator that may
    raise for some values (``2.0 ** float(s0)``: OverflowError; ``1.0 / float(s0)``:
    ZeroDivisionError; ``Expr.raises``, ``symbolic/scalars.py``)? Such a node raises
    where eager raised at that line (issue #17).

        >>> o.w -= 2.0 ** o.t * x        # ops.multiply(((2.0 ** float(s0))), x): True
    """
    return any(isinstance(a, SymArg) and getattr(a.sym, "raises", False)
               for a in tree_leaves((node.args, node.kwargs)))


_ARG_REDUCTIONS = frozenset({"argmax", "argmin"})


def _argmax_index(node: Node) -> bool:
    """``x[np.argmax(u)]`` (or ``x[i] = v``, ``x[i] += 1``) with ``x`` 1-D and as long
    as ``u`` has elements (or ``np.argmax(u, axis=k)`` and ``u.shape[k]``): the index
    lies in ``range(len(x))`` whatever the data, so it never raises (an empty ``u``
    raises in ``argmax`` itself, before). A stored value must cast safely into ``x``
    (``N[a] += 1`` of floats), else the cast may raise (NaN into an int array).

    Example::

        >>> a = np.argmax(ucb); N[a] += 1      # ucb and N of shape (5,): not raising
    """
    if node.target not in ("getitem", "setitem") or node.kwargs or \
            len(node.args) != (2 if node.target == "getitem" else 3):
        return False
    x, index = node.args[0], node.args[1]
    if not (isinstance(x, Node) and isinstance(index, Node)) or \
            index.target not in _ARG_REDUCTIONS or len(index.args) != 1:
        return False
    xm, um = x.meta.get("array"), index.args[0].meta.get("array") \
        if isinstance(index.args[0], Node) else None
    if not (isinstance(xm, ops.ArrayMeta) and isinstance(um, ops.ArrayMeta)) or \
            xm.ndim != 1 or not all(type(d) is int for d in (*xm.shape, *um.shape)):
        return False   # (symbolic sizes: their equality is not known here)
    axis = index.kwargs.get("axis")
    if set(index.kwargs) - {"axis"} or not (axis is None or type(axis) is int):
        return False
    if axis is None:
        bound = um.size
    elif -um.ndim <= axis < um.ndim:
        bound = um.shape[axis]
    else:
        return False
    if bound != xm.shape[0]:
        return False
    if node.target == "getitem":
        return True
    value = node.args[2]
    vm = value.meta.get("array") if isinstance(value, Node) else None
    if isinstance(value, Node):
        return isinstance(vm, ops.ArrayMeta) and np.can_cast(vm.dtype, xm.dtype, "safe")
    return not any(isinstance(v, Node) for v in tree_leaves(value))


def _full_mask_getitem(node: Node) -> bool:
    """``x[m]`` with ``m`` a boolean array of ``x``'s own shape (``x[x > 0]``): it selects
    and never raises, whatever the data."""
    if node.target != "getitem" or len(node.args) != 2 or node.kwargs:
        return False
    x, m = node.args
    if not (isinstance(x, Node) and isinstance(m, Node)):
        return False
    xm, mm = x.meta.get("array"), m.meta.get("array")
    return isinstance(xm, ops.ArrayMeta) and isinstance(mm, ops.ArrayMeta) and \
        mm.dtype == np.bool_ and tuple(mm.shape) == tuple(xm.shape)


def guarded_for_values(plan: OnRaise, graph: Graph) -> OnRaise:
    """``plan`` for a graph after which the glue computes a number that may raise and
    then writes Python objects back (``codegen.reruns_raising_values``): an exception
    there reruns the frame, which would report the graph's floating-point warnings a
    second time; so a graph that may report one runs under the guard (its first
    condition raises, before anything is reported, and the rerun reports it once).

        >>> # o.t += 1; y = x / d; return y, 2.0 ** o.t   (d may be 0.0)
        >>> guarded_for_values(OnRaise(True, False), graph).guard
        True
    """
    if plan.rerun and not plan.guard and _reports_fp(graph):
        return replace(plan, guard=True)
    return plan


def _reports_fp(graph: Graph) -> bool:
    """May an op of ``graph`` report a floating-point condition (warn, call the
    ``np.seterrcall`` function...)? Only then is the guard worth its cost (about 0.2 us
    a call, 1.4 us of a running argmin's 2 us at 10^3 elements): a graph of integer
    arithmetic without division, comparisons (of floats too), gathers (``wte[ids]``,
    whose only error is an ``IndexError``), safe casts and ``branch_select``s reports
    none, and when it raises the rerun repeats nothing
    (``dynamo.ops.signals.reports_fp``; a loop node reports what its body does)."""
    return any(reports_fp(n) for n in graph.call_nodes())


def errstate_reports(graph: Graph) -> bool:
    """Does an ``np.errstate`` block of ``graph`` make a condition warn, call a function,
    print or log (settings that override the floating-point guard)?"""
    return any(n.target == "errstate_enter" and
               any(v not in ("ignore", "raise") for v in n.kwargs.values())
               for n in graph.call_nodes())


def rerun_on_raise(output: OutputGraph, loops: bool | None = None) -> bool:
    """Whether the frame's original code may run in place of a graph that raised.

    It may when the graph left the program's state as it found it: it wrote into no
    input array, drew no random numbers (in a loop node's body neither) and held no op
    that may have warned at Python level (``WriteGuard.warns``: the rerun would warn
    again; an ``np.errstate`` block restores the settings itself when the graph
    raises). The rerun then makes the Python effects the glue had not replayed yet
    and raises the program's own exception, where its own ``try/except`` sees it
    (``log.append(...); np.linalg.inv(singular)``). A loop node may be rerun where its
    body may (``_undone_by_rerun``), in a graph that holds a check on array data or an
    op inside the program's ``try`` (``loops``: by default, whether it does): ``if
    np.any(np.isnan(u0)): raise`` before a time-stepping loop stays a check of the
    graph (docs/graph_breaks.md), and ``try: v = u[j] except IndexError:`` after one
    reaches its handler through the rerun. Elsewhere a
    loop node keeps the graph from being rerun, as before: a loop that warns at some
    trip reports it as it runs, and a rerun of the frame would cost it all again."""
    if output.writes_inputs or output.writes.warns or output.writes.draws:
        return False
    loops = bool(output.writes.checks or output.writes.ops_in_try) if loops is None \
        else loops
    return all(_undone_by_rerun(node) if loops else _no_effect(node)
               for node in output.graph.call_nodes())


def _no_effect(node: Node) -> bool:
    """``node`` draws no random number and is no effect but an ``np.errstate`` block."""
    op = ops.REGISTRY.get(node.target)
    return op is not None and not op.random and \
        (not op.effect or node.target.startswith("errstate"))


_LOOPS = frozenset({"fori_loop", "while_loop"})


def _undone_by_rerun(node: Node) -> bool:
    """Running ``node`` again, from the frame's original code, shows nothing that its
    first run showed: it draws no random number and is no effect other than an
    ``np.errstate`` block or a loop node whose body is made of such nodes. A loop node
    writes only arrays the graph made or inputs, and a written input is
    ``writes_inputs`` (``LoopScope._slots_after`` guards it writeable); an
    ``np.errstate`` block in its body must not report conditions itself (they would be
    reported twice)."""
    op = ops.REGISTRY.get(node.target)
    if op is None or op.random:
        return False
    if node.target in _LOOPS:
        bodies = [a for a in node.args if isinstance(a, Graph)]
        return all(_undone_by_rerun(n) for body in bodies for n in body.call_nodes()) and \
            not any(errstate_reports(body) for body in bodies)
    return _no_effect(node)
