"""Dtype questions about traced arrays, answered while tracing: ``np.result_type(x, k)``.

``np.result_type``, ``np.promote_types``, ``np.can_cast``, ``np.common_type``,
``np.iscomplexobj``, ``np.isrealobj`` and ``np.min_scalar_type`` (of an array with at
least one dimension) depend on their arguments' dtypes only (NEP 50: no value-based
casting), so a call with traced arrays folds to a constant: each array is replaced by a
0-d probe of its dtype (a NumPy scalar stays a NumPy scalar) and the real function
runs. Python scalars stay themselves (they are weak, as in the real call). Whatever
NumPy raises on the probes it raises on the real arrays: the call then runs eagerly.

Example::

    >>> fold_dtype_query(np.result_type, (ArrayMeta((3, 4), np.dtype("f4")), 2.0), {})
    dtype('float32')
"""

from __future__ import annotations

import numpy as np

from . import rules
from .meta import probe
from .rules import MetaError

DTYPE_QUERIES = (np.result_type, np.promote_types, np.can_cast, np.common_type,
                 np.iscomplexobj, np.isrealobj, np.min_scalar_type)


def is_dtype_query(fn) -> bool:
    return any(fn is q for q in DTYPE_QUERIES)


def fold_dtype_query(fn, args, kwargs):
    """The value of ``fn(*args, **kwargs)`` where arrays are ``ArrayMeta``s."""
    if fn is np.min_scalar_type and rules.metas_in(args):
        (a,) = args
        if a.ndim == 0:
            raise MetaError("np.min_scalar_type of a 0-d array depends on its value")
        return a.dtype   # "for non-scalar array a, returns the vector's dtype unmodified"
    return fn(*rules.substitute(args, probe), **rules.substitute(kwargs, probe))
