"""A ``print`` in a loop's exit (``if err < tol: print("converged", it); break``),
replayed by the glue on the way the loop's last test chose (issue #19, task t5).

::

    for it in range(maxit):
        dx = (x * x - a) / (2.0 * x)
        if np.abs(dx).max() < tol:
            print("converged")                # E: printed only where the loop broke
            break
        x = x - dx

``loop_returns`` traces the exit's code (``E``) and the loop's normal end (``T``)
after the ``while_loop`` node, each on the state after it, and joins them by the last
test. A print in either way is a deferred print (``deferred_prints``: the glue
replays it after the graph, in program order, where the graph may run again); here
each way's prints are marked to happen only where that way was taken
(``SideEffects.print_only_if``): the glue writes ``if bool(<taken>): print(...)``,
``<taken>`` the last test's truth (or its negation) as a 0-d bool the graph computes
(``exit_flags.exit_flag``). Python prints in ``E`` exactly where the last test said
"leave" (NaN included: ``nan < tol`` says "go on"), once, after the loop's trips,
and before anything after the loop: so does the glue, as prints keep their order and
the code after the join prints after them.

``ExitState`` is the state the ways start from: as ``branch_selects._State``, but a
way may print (the prints are its only change to Python state; any other still
refuses the join). Every other condition of a deferred print holds (``defer_print``
refuses the print where the graph cannot run again, and a later write or warning
restarts the trace so that the loop breaks at its test, as before).

Example::

    >>> dynamo.config.defer_prints = True      # (off by default: a print breaks)
    >>> dynamo.explain(newton_print_exit)(a, 1e-10).graph_break_count
    0
"""

from __future__ import annotations

from ..variables import ConstantVariable
from .branch_selects import NotASelect, _effects, _State
from .exit_flags import exit_flag


class ExitState(_State):
    """The frame's state at a loop's exit, to trace a way from (``restore``), where the
    way may print: ``printed`` is where its prints start in ``SideEffects.prints``."""

    def restore(self, tx) -> None:
        super().restore(tx)
        self.printed = len(tx.output.side_effects.prints)
        self.base = _effects(tx)

    def changed(self, tx) -> str | None:
        """As ``_State.changed``, less the way's prints (each one step of the effects'
        version)."""
        new = len(tx.output.side_effects.prints) - self.printed
        now = _effects(tx)
        if now[1:] != self.base[1:] or now[0] - new != self.base[0]:
            return "a Python object, a write or a warning"
        self.effects = now
        return super().changed(tx)


def only_on_ways(tx, flag, spans: list, before: set) -> None:
    """Make each way's prints happen only where it was taken: ``spans`` holds
    ``(truth, lo, hi)`` per way, the way taken where ``bool(flag)`` is ``truth``, its
    prints ``SideEffects.prints[lo:hi]``."""
    merged: dict = {}
    for truth, lo, hi in spans:
        if lo == hi:
            continue
        when = exit_flag(tx, flag, ConstantVariable(truth), merged, before)
        if when is None:
            raise NotASelect("a way prints, and the loop's exit test is no bool")
        tx.output.side_effects.print_only_if(lo, hi, when)
