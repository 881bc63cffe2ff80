"""``int()``, ``float()``, ``bool()`` and ``complex()`` of traced values (split from
``builtins.py``): of a 0-d array, a number the glue makes after the graph has run
(``ArrayToPythonVariable``), which arithmetic keeps in the graph (``graph_numbers.py``);
of an array NumPy refuses whatever its values, NumPy's own error; of constants, folded.

Example::

    >>> HANDLERS[float](tx, loss)      # loss: a traced 0-d float32 array
    ArrayToPythonVariable(float, copy of loss)
"""

from __future__ import annotations

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..hints_flow import BRANCH_ON_DATA
from .arrays import ArrayVariable, DeferredNumberVariable, call_library
from .base import Variable, program_error
from .constant import ConstantVariable, symbolic_number
from .folding import known_value
from .functions import fold
from .iteration import HANDLERS
from .size_values import holds_size
from .snapshots import snapshot


def _conversion_error(fn, array: ArrayVariable) -> Exception | None:
    """The error ``fn(x)`` (``int``, ``float``, ``complex``, ``bool``) raises for any
    array of ``x``'s static shape and dtype (more than one element, or none: NumPy
    refuses whatever the values), taken from NumPy itself on a zero-strided array of
    that shape; None where the result depends on the values."""
    m = array.meta
    if m.scalar or not all(type(d) is int for d in m.shape) or m.kind != ops.NUMPY:
        return None
    try:
        ops.rules.run_quietly(fn, ops.ghost(m))
    except (TypeError, ValueError) as e:
        return e
    return None


def _conversion_needed(name: str) -> Unsupported:
    return Unsupported(f"{name}() of an array converts array data to Python",
                       "The value is only known when the graph has run.",
                       hint=f"keep the value as an array: test, count and choose with "
                       f"array ops (x > limit, np.count_nonzero(x > limit), np.where(x > "
                       f"limit, a, b)) rather than {name}() of each element; else accept "
                       "the graph break",
                       cause="array_to_python")


# float(x) / int(x) / complex(x) of a 0-d array of these dtype kinds never raises nor
# warns (int() of a float NaN or inf would raise: not deferred)
_DEFERRED_KINDS = {float: "fiub", int: "iub", complex: "fiubc"}


class ArrayToPythonVariable(DeferredNumberVariable):
    """``float(x)`` (``int``, ``complex``) of a traced 0-d array, converted by the glue
    after the graph has run: ``return float(loss)``, ``history.append(float(loss))``
    and ``self.loss = float(loss)`` need no break.

    The value is snapshotted in the graph when the call is traced (``np.copy``, a new
    0-d array that only the glue reads: a later in-place write to ``x`` does not change
    it; a NumPy scalar, immutable, is its own snapshot: ``snapshots.py``), and the
    glue calls ``float`` itself on it: Python's own conversion, exact.
    Only where the conversion cannot raise or warn (``_DEFERRED_KINDS``), so doing it
    after the graph changes nothing the program sees. Any use that needs the number
    while tracing (arithmetic, a comparison, a branch, formatting, an array op) is the
    break the conversion itself used to be, with its reason, at that use."""

    graph_number = True   # a float one of these in arithmetic: graph_numbers.py

    @staticmethod
    def deferrable(fn, array: ArrayVariable) -> bool:
        m = array.meta
        return m.kind == ops.NUMPY and m.shape == () and \
            m.dtype.kind in _DEFERRED_KINDS.get(fn, "")

    def describe(self) -> str:
        return f"{self.fn.__name__}() of an array"

    def needed(self) -> Unsupported:
        return _conversion_needed(self.fn.__name__)


def _finite_checked(array: ArrayVariable) -> bool:
    """``int(x)`` of a 0-d float array of NumPy's: exact for every finite value, which
    a graph check makes sure of (``raising_checks.finite_check``)."""
    m = array.meta
    return m.kind == ops.NUMPY and m.shape == () and m.dtype.kind == "f"


class NegatedTruthVariable(ArrayToPythonVariable):
    """``not c`` of a traced 0-d NumPy array (``not (s > 0)``, stored or returned):
    Python's bool, ``bool(np.logical_not(c))`` made by the glue after the graph: for
    these dtypes ``not c`` is ``c == 0`` (NaN is true, as ``bool(nan)`` is), which
    ``logical_not`` computes into a fresh array only the glue reads. A use that needs
    it while tracing (``if``) is the truth test's break, there."""

    def describe(self) -> str:
        return "not of an array"

    def needed(self) -> Unsupported:
        return Unsupported("truth value of an array (data-dependent control flow)",
                           hint=BRANCH_ON_DATA, cause="data_dependent")


def negatable(value: Variable) -> bool:
    """Is ``value`` one ``negated_truth`` applies to?"""
    return isinstance(value, ArrayVariable) and value.meta.kind == ops.NUMPY and \
        value.meta.shape == () and value.meta.dtype.kind in "biufc"


def negated_truth(tx, value: Variable) -> Variable | None:
    """``not value`` for a 0-d NumPy array of numbers or bools (a comparison's
    ``np.bool``) whose value the trace does not know: a ``NegatedTruthVariable``; None
    otherwise (the truth test's own path).

        >>> negated_truth(tx, s_gt_0)      # not (x.sum() > 0)
        NegatedTruthVariable(bool of logical_not(s_gt_0))
    """
    if not negatable(value) or known_value(tx.output.graph, value.node) is not None:
        return None   # (made from constants only: the truth test folds it)
    op, adapter = ops.lookup_function(np.logical_not)
    return NegatedTruthVariable(bool, call_library(tx, op, adapter, [value], {}))


def needs_deferred_value(*values: Variable) -> None:
    """Raise the conversion's own break (``float() of an array converts array data to
    Python``, cause ``array_to_python``; a drawn number's: the draw's) where an operation
    needs the number of a ``DeferredNumberVariable`` while tracing (arithmetic, a
    comparison, formatting)."""
    for v in values:
        if isinstance(v, DeferredNumberVariable):
            raise v.needed()


def _to_python(name, fn):
    def handler(tx, *args, **kwargs):
        if len(args) == 1 and not kwargs and isinstance(args[0], ArrayVariable):
            error = _conversion_error(fn, args[0])
            if error is not None:   # Python's own: a break, or the program's `except`
                raise program_error(error, exact=True)
            if ArrayToPythonVariable.deferrable(fn, args[0]):
                return ArrayToPythonVariable(fn, snapshot(tx, args[0]))
            if fn is int and _finite_checked(args[0]) and hasattr(tx, "finite_check"):
                # NaN and infinities raise: a graph check, the rerun raises eager's error
                value = snapshot(tx, args[0])
                tx.finite_check(value, _conversion_needed(name))
                return ArrayToPythonVariable(fn, value)
        if any(isinstance(a, ArrayVariable) for a in args):
            raise _conversion_needed(name)
        if fn is int and len(args) == 1 and not kwargs and holds_size(tx, args[0]):
            return args[0]   # int(len(kept)): the int itself (a size is an int already)
        if len(args) == 1 and not kwargs and name == "bool":
            return ConstantVariable(args[0].truth(tx))
        number = None if kwargs else symbolic_number(tx, fn, list(args))
        return fold(fn, list(args), kwargs) if number is None else number
    return handler


for _fn in (int, float, bool, complex):
    HANDLERS[_fn] = _to_python(_fn.__name__, _fn)
