"""``np.linspace(start, stop, num, retstep=True)``: the samples in the graph, the step a
constant when the trace knows every argument but ``dtype`` and ``axis``.

NumPy computes the step from ``start``, ``stop``, ``num`` and ``endpoint`` alone
(``(stop - start) / div``, a NumPy float for Python numbers, or the Python float ``nan``
when ``div`` is 0), so the trace runs NumPy's own ``linspace`` on those constants for
the step, and the samples stay a graph node (the ``linspace`` op without ``retstep``).
Anything else (an array endpoint, whose step is an array; a number that changes between
calls, a SymInt or SymFloat; a call that warns or raises) returns None and the call
breaks as before.

Example::

    >>> xs, dx = np.linspace(0.0, 1.0, 11, retstep=True)   # traced
    xs: a linspace node of shape (11,); dx: the constant np.float64(0.1)
"""

from __future__ import annotations

import inspect

import numpy as np

from .. import ops
from ..ops.quiet import warnings_as
from ..symbolic import Symbolic
from .arrays import call_library
from .base import Variable
from .constant import is_pure_constant
from .sequences import TupleVariable, wrap_constant

_SIGNATURE = inspect.signature(np.linspace)
# The arguments the step depends on: they must be constants the trace knows.
_STEP_ARGUMENTS = ("start", "stop", "num", "endpoint")


def linspace_with_step(tx, args, kwargs) -> Variable | None:
    """``TupleVariable([samples, step])`` for ``np.linspace(..., retstep=True)``, or None
    when the step is not a constant the trace knows (the call then breaks)."""
    try:
        bound = _SIGNATURE.bind(*args, **kwargs)
    except TypeError:
        return None          # NumPy raises its own TypeError when the call runs
    params = bound.arguments
    retstep = params.get("retstep")
    if retstep is None or not retstep.is_constant() or not retstep.as_python_constant():
        return None
    static = {}
    for name in _STEP_ARGUMENTS:
        if name not in params:
            continue
        var = params[name]
        if not var.is_constant() or isinstance(var.as_python_constant(), Symbolic):
            return None
        static[name] = var.as_python_constant()
    try:
        with np.errstate(all="raise"), warnings_as("error"):
            _, step = np.linspace(**{"start": 0, "stop": 1, **static}, retstep=True)
    except Exception:  # noqa: BLE001 (it raises or warns when the program runs: break)
        return None
    if isinstance(step, np.ndarray) or not is_pure_constant(step):
        return None
    hit = ops.lookup_function(np.linspace)
    if hit is None:
        return None
    op, adapter = hit
    samples = {k: v for k, v in params.items() if k != "retstep"}
    array = call_library(tx, op, adapter, [], samples)
    return TupleVariable([array, wrap_constant(step)])
