"""NumPy scalars the trace does not take as scalar inputs (``builder._wrap``: a graph
break instead; hostile round 46).

- A user's subclass of a NumPy scalar type (``class F64(np.float64)``): traced as an
  input it became its base type (``type(s)`` said ``float64``, ``repr(s)`` lost the
  subclass's own ``__repr__``).
- ``np.void``, a record of a structured array (``r = a[i]``): no value but a view of
  its array (a write to ``a`` shows through ``r``), and, writeable, unhashable: the
  numpy backend's size variants, keyed by their scalar inputs, raised ``TypeError``.

Example::

    >>> check_scalar_input(F64(2.5))
    Unsupported: NumPy scalar subclass F64
    >>> check_scalar_input(np.float64(2.5))      # returns: a scalar input
"""

from __future__ import annotations

import numpy as np

from dynamo.guards.type_slots import qualname_of

from ..exc import Unsupported


def check_scalar_input(value) -> None:
    """Raise the graph break for a NumPy scalar ``value`` that is no scalar input of the
    trace (see the module docstring); return for every other value."""
    if not isinstance(value, np.generic):
        return
    if type(value).__module__ != "numpy":
        raise Unsupported(f"NumPy scalar subclass {qualname_of(type(value))}")
    if isinstance(value, np.void):
        raise Unsupported("NumPy scalar np.void (a record of a structured array, a view "
                          "of it)")
