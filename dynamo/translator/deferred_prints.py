"""``print(...)`` in traced code, replayed by the glue after the graph (issue #19).

``print("step", i, "loss", loss)`` used to be a graph break: the output must appear
when the program runs, in order. Here the print becomes an effect of the trace
(``SideEffects.prints``): the glue calls ``print`` after the graph has run, with the
same ``sep``, ``end`` and ``flush``, on texts made from the same values (``str`` of a
constant while tracing; of an array, a NumPy scalar or a number the graph computes,
formatted by the glue from a snapshot, as f-strings are: ``formatted.format_value``).
``print`` itself looks ``sys.stdout`` up when the glue calls it. Prints keep their
order, and a graph break replays them before the breaking instruction runs.

It is exact only where nothing can tell the difference, so a print is deferred only:

- to ``sys.stdout`` (no ``file=``) whose type writes in C (``io.TextIOWrapper``,
  ``io.StringIO``: guarded by type): a ``write`` in Python could read or change what
  the glue replays around it;
- in a graph that may run again (``raising.rerun_on_raise``): if the graph raises
  after the print, the frame's original code runs instead and prints once; a later op
  that would make it one that cannot (an input write, a draw, a Python-level warning)
  restarts the trace, which then breaks at the print (``WriteGuard.checks``), as
  after a data check;
- and such a graph runs under NumPy's floating-point guard (``raising.on_raise``):
  a condition that would warn (a ``RuntimeWarning`` on stderr, which eager shows after
  the print when the op comes after it) raises in the graph instead, and the frame's
  original code runs: its prints and warnings come in eager's order, each once;
- outside a loop node's body (whose trips the glue does not see) and ``try`` blocks;
- where the print cannot raise (``_writes_cleanly``: ``sys.stdout`` open, its encoding
  able to encode the texts; guarded): eager's raising print comes before the program's
  effects after it, which the glue writes back before it replays the print.

Everything else is the print's break, as before.

Example::

    def step(w, x, t, lr):
        loss = np.mean((x @ w - t) ** 2)
        w = w - lr * x.T @ (x @ w - t)
        print(f"loss {loss:.4f}", w.shape)    # replayed after the graph: no break
        return w
"""

from __future__ import annotations

import codecs
import sys
import types

import numpy as np

from dynamo.guards import EXPR, Guard, ModuleAttrSource

from ..exc import Unsupported
from ..raising import errstate_reports, rerun_on_raise
from ..symbolic import Symbolic
from ..variables import ArrayVariable, ConstantVariable, ListVariable, TupleVariable, Variable
from ..variables.arrays import DeferredNumberVariable
from ..variables.builder import wrap
from ..variables.formatted import FormattedStringVariable, format_value
from ..variables.graph_numbers import is_graph_number
from .raising_checks import _root

_STDOUT = ModuleAttrSource(sys, "stdout")
_OPTIONS = ("sep", "end", "flush")


def defer_print(tx, args: list, kwargs: dict, error: Unsupported) -> Variable:
    """``print(*args, **kwargs)`` as an effect the glue replays (see the module
    docstring), or ``error``, the print's break, where that is not exact."""
    output, root = tx.output, _root(tx)
    point, restart = root.check_restart(tx.code, tx.current.index, error)
    if output.loop_scope is not None or output.side_effects.log is not None or \
            output.writes.catching or \
            point.key in root.break_points or set(kwargs) - set(_OPTIONS) or \
            not rerun_on_raise(output, loops=True) or errstate_reports(output.graph):
        raise error
    options = {}
    for name, value in kwargs.items():
        option = _option(value)
        if option is _NO:
            raise error
        options[name] = option
    texts = [_text(tx, a) for a in args]
    if any(t is None for t in texts) or not _c_stdout(tx) or not _writes_cleanly(tx, texts):
        raise error
    output.side_effects.print(texts, options)
    output.writes.checks.append(restart)   # (a later write or warning: the break)
    return ConstantVariable(None)


_NO = object()


def _option(value: Variable):
    """A ``sep``/``end`` (a str or None) or ``flush`` (a bool) the trace knows."""
    if not isinstance(value, ConstantVariable) or isinstance(value.value, Symbolic):
        return _NO
    v = value.value
    return v if v is None or type(v) in (str, bool) else _NO


def _text(tx, value: Variable) -> Variable | None:
    """What ``print`` writes for ``value`` (``str(value)``): a str constant, or a text
    the glue formats (``format(v, "")``, which is ``str(v)`` for arrays, NumPy scalars
    and Python numbers); None where neither is exact."""
    if isinstance(value, FormattedStringVariable):
        return value
    if isinstance(value, ConstantVariable) and not is_graph_number(value):
        v = value.value
        if isinstance(v, np.dtype) and type(v).__module__ == "numpy.dtypes":
            return ConstantVariable(str(v))   # x.dtype: NumPy's own dtype classes
        return ConstantVariable(str(v)) if _plain(v) else None
    if type(value) in (TupleVariable, ListVariable):   # x.shape, [n, m]: str of items
        items = [i.value if isinstance(i, ConstantVariable) else _NO for i in value.items]
        if not all(_plain(i) for i in items):
            return None
        return ConstantVariable(str(tuple(items) if type(value) is TupleVariable else items))
    if isinstance(value, (ArrayVariable, DeferredNumberVariable)) or is_graph_number(value):
        try:
            return format_value(tx, value, "", None)
        except Unsupported:
            return None
    return None


def _plain(v) -> bool:
    """A constant whose text the trace makes exactly (``str``; in a tuple or a list,
    ``repr``): a str, a Python number (not a changing one: its text would pin it),
    True, False or None."""
    return type(v) in (str, int, float, bool, complex, type(None)) and \
        not isinstance(v, Symbolic)


def _c_stdout(tx) -> bool:
    """Is ``sys.stdout`` an object whose ``write`` and ``flush`` are C code (guarded
    by its type)? ``None`` (no stdout: print does nothing) is too."""
    stdout = sys.stdout
    if stdout is None:
        wrap(tx, stdout, _STDOUT)
        return True
    methods = [getattr(type(stdout), name, None) for name in ("write", "flush")]
    if not all(isinstance(m, (types.MethodDescriptorType, types.WrapperDescriptorType,
                              types.BuiltinFunctionType)) for m in methods):
        return False
    wrap(tx, stdout, _STDOUT)
    return True


def _writes_cleanly(tx, texts: list) -> bool:
    """Can the replayed ``print`` not raise (guarded)? A closed ``sys.stdout``
    (ValueError) or one whose encoding cannot encode a text (UnicodeEncodeError) makes
    the print raise, plainly before the program's effects after it, replayed after
    them (``codegen`` writes them back first): ``out.append(1)`` after the print would
    be done (round 22). Texts formatted when the graph has run must go to a UTF codec;
    the constant ones are encoded now. Still not seen: an ``OSError`` of the stream
    itself (a closed pipe, a full disk)."""
    stdout = sys.stdout
    if stdout is None:
        return True
    encoding, errors = getattr(stdout, "encoding", None), getattr(stdout, "errors", None)
    if stdout.closed or type(encoding) not in (str, type(None)) or \
            type(errors) not in (str, type(None)):
        return False
    if encoding is not None:
        try:
            utf = codecs.lookup(encoding).name.startswith("utf")
            for t in texts:
                if isinstance(t, ConstantVariable):
                    t.value.encode(encoding, errors or "strict")
                elif not utf:
                    return False
        except (LookupError, UnicodeError):
            return False
    e = _STDOUT.expr()
    test = f"not {e}.closed and {e}.encoding == {encoding!r} and {e}.errors == {errors!r}"
    tx.output.guards.add(Guard(_STDOUT, EXPR, test, note="sys.stdout open, same encoding"))
    return True


__all__ = ["defer_print"]
