"""Arithmetic on a Python float the graph computes (``float(loss)``, ``x.item()``),
kept in the graph (issue #19).

``float(x)`` of a 0-d array is made by the glue after the graph has run
(``ArrayToPythonVariable`` in ``builtins.py``): returned or stored it needs no break.
Arithmetic on it needs a value while tracing, and used to break there. Here the float
becomes an *unbacked number* (``ShapeEnv.new_unbacked_number``, a ``SymFloat`` over
the symbol ``uf0``): the graph converts the 0-d snapshot with ``float`` when it runs
(the op ``sym_number``), and every expression over it is Python's own operators on that
very float: in the graph as an op's argument (``x * (uf0 * 2)``: NumPy sees a Python
float, so a float32 array stays float32, NEP 50), or in the glue (``return loss / 3``
is ``float(snapshot) / 3``). So values and types are eager's, bit for bit.

``int(x)`` of a 0-d integer or bool array is the same, an unbacked int (``ui0``,
``ShapeEnv.new_unbacked_int``; the graph converts with ``int``: exact, it cannot raise):
``tp / max(int(support), 1)``, ``x * int(np.argmax(x))``. ``int()`` of a float array is
not (NaN raises: its finite check is the glue's, ``conversions.py``).

Only operations that cannot raise for any value stay in the graph (``scalars.binary``:
``+``, ``-``, ``*``, and ``/``, ``//``, ``%`` by a nonzero constant; ``min``/``max``,
``sum``; an elementwise op's operand); whatever reads the number (a comparison, ``if``,
``str``, ``**``, ``math.log``, an op whose result could depend on it) pins it, and a
pin of an unbacked symbol is a graph break there (``sizes._refuse_unbacked``).

Example::

    def step(w, x, t, lr, history):
        loss = float(np.mean((x @ w - t) ** 2))
        history.append(loss)
        return w - lr * loss * x.sum(0), loss * 0.5    # one graph, no break
"""

from __future__ import annotations

from .. import ops
from ..symbolic import SymFloat
from ..symbolic.drawn_ranges import note_draw
from ..symbolic.sizes import is_unbacked_number
from .base import Variable
from .constant import ConstantVariable


def as_graph_number(tx, var: Variable) -> Variable:
    """``var`` as a ``ConstantVariable`` of an unbacked ``SymFloat`` where it is a float
    the glue would make from a 0-d array of this graph (a deferred number whose class
    sets ``graph_number``: ``float(x)``, ``x.item()`` of a float array); any other
    Variable as it is. One symbol per snapshot. Not in a loop body (its values are the
    loop node's), nor for a backend that takes static shapes only.

    A unit draw's number (``rng.random()``: in [0, 1)) made outside any loop has its
    range noted (``symbolic/drawn_ranges.py``: ``(rng.random() - 0.5) ** 2`` cannot
    raise). Not in a loop the trace unrolls: each trip's draw and conversion are then
    ops of the graph, which over small arrays ran slower than the Python loop the
    power's break leaves (``scripts/bench_removed_breaks.py``, jitter_walk 100)."""
    number = graph_number_of(tx.output, var)
    node = getattr(getattr(var, "snapshot", None), "node", None)
    if number is not var and getattr(node, "target", None) == "python_draw" and \
            not _in_a_loop(tx):
        name = next(iter(number.value.sym.symbols))
        note_draw(name, node.args[0], node.args[1:], node.kwargs)
    return number


def _in_a_loop(tx) -> bool:
    """Is the instruction ``tx`` traces, or a call that led to it, inside a loop of its
    code (between a backward jump's target and the jump)?"""
    while tx is not None:
        insts, at = tx.info.insts, tx.current.index
        if any(i.name.startswith("JUMP_BACKWARD") and i.target is not None and
               i.target <= at < i.index for i in insts):
            return True
        tx = getattr(tx, "parent", None)
    return False


def graph_number_of(out, var: Variable) -> Variable:
    """``as_graph_number`` in the output graph ``out`` (``np.array(hist[-3:])`` after
    ``hist.append(float(loss))``: ``list_windows.appended_data``)."""
    if not getattr(var, "graph_number", False) or var.fn not in (float, int):
        return var
    node, meta = var.snapshot.node, var.snapshot.meta
    if out.loop_scope is not None or not out.shape_env.dynamic.unbacked or \
            meta.kind != ops.NUMPY or meta.shape != () or node.graph is not out.root_graph:
        return var
    if var.fn is int and meta.dtype.kind not in _EXACT_INT_KINDS:
        return var   # int() of a float: not here (its finite check is the glue's)
    for name, (fn, owner) in out.unbacked_numbers.items():
        if owner is node and fn is var.fn:   # (a scalar is its own snapshot: int and
            # float of one NumPy scalar are two numbers, one node: snapshots.py)
            return ConstantVariable(out.number_symbols[name])
    what = f"{var.describe()}, at {_line(out)}"
    if var.fn is int:   # n_classes = int(y.max()) + 1: an int only the data decides
        number = out.shape_env.new_unbacked_int(what, _INT_HINT)
    else:
        number = out.shape_env.new_unbacked_number(what)
    name = next(iter(number.sym.symbols))
    out.unbacked_numbers[name] = (var.fn, node)
    out.number_symbols[name] = number
    return ConstantVariable(number)


# int() of a 0-d array of these kinds is exact and never raises (a float's may: NaN)
_EXACT_INT_KINDS = "iub"
# The made-up value rules see for an int() the graph reads: odd, past small test sizes
_INT_HINT = 4099


def is_graph_number(var: Variable) -> bool:
    """Is ``var`` a float made from an unbacked number (``float(loss) * 2``)?"""
    return isinstance(var, ConstantVariable) and isinstance(var.value, SymFloat) and \
        any(is_unbacked_number(s) for s in var.value.sym.symbols)


def _line(out) -> str:
    loc = out.current_loc.get("loc", "")
    # (an instruction with no line, the exit of a loop node: the file alone, never
    # "app.py:None")
    loc = loc.removesuffix(":None")
    return loc.rsplit("/", 1)[-1] or "this line"


__all__ = ["as_graph_number", "is_graph_number"]
