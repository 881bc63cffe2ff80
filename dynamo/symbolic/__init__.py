"""Symbolic sizes: one compiled entry for every length of a dynamic dimension.

A dynamic dimension of an input is a *symbol* (``s0`` for ``L['x'].shape[0]``). While
tracing it is a ``SymInt``: an ``int`` whose value is the size seen in this call (the
*hint*) and which also carries an affine expression over symbols (``2*s0 + 1``).

- Python arithmetic on SymInts (``T * 2``, ``T - 1``) gives SymInts.
- Comparisons and truth tests give plain bools and *record a guard* (``x.shape[0] > 8``),
  so the entry is reused only where the program would branch the same way.
- Anything else that needs the concrete value (``range(T)``, ``str(T)``, ``T * T``)
  *pins* the symbol: the trace goes on with the concrete value and the entry gets the
  guard ``x.shape[0] == 5``, so that dimension is static for this entry (documented).
- Op rules never see symbols: ``output_graph.call_op`` runs the rule at the hints and at
  perturbed values of each symbol and fits every output dimension as an affine
  function of the symbols (``symbolic_shape``), then guards each symbol to the range in
  which that fit is the rule's answer (``ranges``: ``x[-5:]`` is 5 for
  ``x.shape[0] >= 5`` only).
- One trace's symbols, their hints and the guards learned about them are a
  ``ShapeEnv`` (``shape_env.py``), owned by the trace's OutputGraph.

Example::

    >>> T = SymInt(5, Sym.symbol("s0", "x.shape[0]"))
    >>> (T * 2 + 1).sym.render()
    '2*s0 + 1'
    >>> with recording() as trace:
    ...     T > 3
    >>> trace.decisions
    ['x.shape[0] > 3']
"""

from .fit import SymbolClasses, substitute, symbolic_shape, symbols_in
from .graph_args import SymArg
from .policy import DynamicPolicy, mark_dynamic, marked_dims
from .scalars import Expr, SymFloat
from .shape_env import ShapeEnv
from .sizes import (
    Specialize,
    Sym,
    Symbolic,
    SymInt,
    Trace,
    concrete,
    is_symbolic,
    is_unbacked,
    not_recording,
    pin,
    pinned,
    record,
    recording,
    symbols_of,
)

__all__ = [
    "DynamicPolicy", "Expr", "ShapeEnv", "Specialize", "Sym", "SymArg", "SymFloat", "SymInt",
    "SymbolClasses", "Symbolic", "Trace",
    "concrete", "is_symbolic", "is_unbacked", "mark_dynamic", "marked_dims", "not_recording", "pin",
    "pinned", "record", "recording", "substitute", "symbolic_shape", "symbols_in",
    "symbols_of",
]
