"""A Python bool that a loop's exit sets (``converged = True; break``), chosen by the
loop's last test after a ``while_loop`` node (issue #19, task t5).

::

    converged = False
    for _ in range(maxit):
        x_new = (b - R @ x) / d
        if np.abs(x_new - x).max() < tol:
            converged = True                 # E: the exit's code
            break
        x = x_new
    return x, converged

``loop_returns`` traces the exit's code (``E``) and the loop's normal end (``T``) on
the state after the node and joins them by the last test (``branch_selects``' join).
Where the two ways leave the two Python bools (``True`` one way, ``False`` the
other), the value is the last test's truth, or its negation: a bool the glue makes
with ``bool()`` of a 0-d bool array the graph computes (``ExitFlagVariable``), as it
makes ``np.allclose``'s. Returned or stored it needs no break; a use that needs it
while tracing (``if converged:``) breaks there ("a Python bool a loop's exit sets is
needed while tracing"): the loop stays one node, and the code after the break runs
as another graph.

Exact: Python leaves by ``E`` exactly where the last test said "leave"
(``bool(test) != keep``), NaN included (``nan < tol`` is False: "go on", and the
range ran out), so ``converged`` is ``bool(test)`` or ``not bool(test)`` as the
ways say; the snapshot is a copy (a later write into the test's array, a 0-d
``done`` the program holds, does not change it).

Example::

    >>> dynamo.explain(jacobi_converged_flag)(A, b, 1e-10).graph_break_count
    0
"""

from __future__ import annotations

import copy

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..graph import CALL
from ..variables import ConstantVariable, Variable
from ..variables.arrays import DeferredNumberVariable


class ExitFlagVariable(DeferredNumberVariable):
    """The Python bool a loop's exit set: ``bool()`` of the graph's 0-d bool array,
    made by the glue after the graph. A use that needs it while tracing breaks there
    with ``error`` ("a Python bool a loop's exit sets is needed while tracing")."""

    def __init__(self, snapshot, error: Unsupported):
        super().__init__(bool, snapshot)
        self.error = error

    def describe(self) -> str:
        return "a Python bool a loop's exit sets (converged = True; break)"

    def needed(self):
        again = copy.copy(self.error)     # raised where it is used, with its location
        again.location = None
        return again


def joins_bools(a: Variable, b: Variable) -> bool:
    """``a`` and ``b`` are the two Python bools (``True`` and ``False``)."""
    return all(isinstance(v, ConstantVariable) and type(v.value) is bool for v in (a, b)) \
        and a.value != b.value


def exit_flag(tx, flag, if_true: Variable, merged: dict, before: set) -> Variable | None:
    """The bool that is ``if_true``'s value where ``flag`` (the loop's last test, a
    0-d array of the graph) is true and the other where it is false: an
    ``ExitFlagVariable`` of ``flag``'s copy, or of its ``logical_not``. None where
    ``flag`` is no bool (the join then refuses, as before)."""
    if flag.meta.dtype != np.dtype(np.bool_) or flag.meta.shape != ():
        return None
    key = ("exit flag", if_true.value)
    if key not in merged:
        op = "copy" if if_true.value else "logical_not"
        snapshot = tx.output.call_op(ops.get(op), [flag], {})
        # (no ``branch_select`` stands for the ways: their ops run guarded, so an
        # untaken way's ``x / 0`` reruns the frame instead of warning, as ``_chosen``)
        for node in tx.output.graph.nodes:
            if node not in before and node.op == CALL:
                node.meta["may_raise"] = True
        merged[key] = ExitFlagVariable(snapshot, Unsupported(
            "a Python bool a loop's exit sets is needed while tracing (converged = "
            "True; break, then if converged:)"))
    return merged[key]
