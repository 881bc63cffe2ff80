"""``names[i]`` of a Python list (or tuple) of str constants at a NumPy integer scalar
the graph computes: the text the glue picks after the graph.

::

    order = np.argsort(scores)[::-1][:3]
    return [f"{names[i]}: {scores[i]:.2f}" for i in order]   # one graph, no break

``i`` (``np.argmax(p)``, an item of an ``argsort``) is only known when the graph runs,
so the item is not a constant of the trace; but a text is only read back by the
program (returned, stored, formatted, joined), never computed with, so the glue takes
it after the graph, ``('red', 'green', 'blue')[i]``: the very str object eager's
``names[i]`` gives (the tuple holds the list's items as the trace read them, so a later
change to the list does not change it). It is a ``FormattedStringVariable``: an
f-string, ``"".join`` or ``+`` of texts takes it as a piece.

Python raises ``IndexError`` for an ``i`` out of range, where the program indexes: the
graph checks ``-n <= i < n`` (a ``data_check``, as ``raising_checks.finite_check`` makes
one), and where it fails the frame's original code runs instead, raising at eager's
line. Where a rerun is not exact (the graph writes an input, draws, warns at Python
level), in a loop node's body, for items other than str constants, or a use that needs
the text while tracing (a dict key, a comparison), it is the break it was.

Example::

    >>> picked_text(tx, names_list, argmax_var, error)   # adds the check
    PickedTextVariable                                     # glue: ('a', 'b')[___o1]
"""

from __future__ import annotations

import copy

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..output_graph import PYTHON_EFFECTS
from ..raising import errstate_reports, rerun_on_raise
from ..variables import ArrayVariable, ConstantVariable
from ..variables.formatted import FormattedStringVariable
from ..variables.sequences import SequenceVariable
from .raising_checks import _root


class _Pick:
    """A piece of a text: ``items[index]``, made by the glue."""

    def __init__(self, items: tuple, index: ArrayVariable):
        self.items, self.index = items, index

    def reconstruct(self, cg) -> str:
        return f"{cg.const(self.items)}[{cg.value(self.index)}]"


class PickedTextVariable(FormattedStringVariable):
    """The str ``items[index]`` the glue picks after the graph (module docstring); a
    use that needs it while tracing breaks there with the subscript's own reason."""

    def __init__(self, items: tuple, index: ArrayVariable, error: Unsupported):
        super().__init__([_Pick(items, index)], index)
        self.error = error

    def describe(self) -> str:
        return "a text picked from a list by array data"

    def needed(self) -> Unsupported:
        again = copy.copy(self.error)   # the subscript's break, where the text is used
        again.location = None
        return again


def picked_text(tx, seq, index, error: Unsupported) -> PickedTextVariable | None:
    """``seq[index]`` as a ``PickedTextVariable``, or None (the caller raises ``error``,
    the break it was) where it does not apply."""
    if not isinstance(seq, SequenceVariable) or not isinstance(index, ArrayVariable):
        return None
    m = index.meta
    if not (m.scalar and m.kind == ops.NUMPY and m.dtype.kind in "iu"):
        return None
    items = seq.items
    if not items or not all(isinstance(v, ConstantVariable) and type(v.value) is str
                            for v in items):
        return None
    if not _index_check(tx, index, len(items), error):
        return None
    return PickedTextVariable(tuple(v.value for v in items), index, error)


def _index_check(tx, index: ArrayVariable, n: int, error: Unsupported) -> bool:
    """A graph check that ``-n <= index < n``; False (nothing added) where a failed
    check could not rerun the frame exactly, or the trace restarted to break here."""
    output, inst = tx.output, tx.current
    if inst is None or not tx.config.data_checks or output.loop_scope is not None or \
            output.writes.warns or not rerun_on_raise(output, loops=True) or \
            errstate_reports(output.graph):
        return False
    root = _root(tx)
    point, restart = root.check_restart(tx.code, inst.index, error)
    if point.key in root.break_points:
        return False
    low = output.call_op(ops.get("greater_equal"), [index, ConstantVariable(-n)], {})
    high = output.call_op(ops.get("less"), [index, ConstantVariable(n)], {})
    flag = output.call_op(ops.get("logical_and"), [low, high], {})
    output.graph.call("data_check", (flag.node, True), {}, meta={
        "array": flag.meta.with_(dtype=np.dtype(np.bool_)), **output.current_loc,
        "kind": ops.OPAQUE, PYTHON_EFFECTS: output.side_effects.pending()})
    output.writes.checks.append(restart)   # (raised by a later write: WriteGuard)
    return True
