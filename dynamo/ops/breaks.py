"""Library functions that are graph breaks on purpose, and why.

A function that is not in the registry breaks with "not in the op registry" and a hint
at ``dynamo.register_op``. The functions listed here break for a reason no shape rule
can remove, and the break says that reason instead (the translator looks them up by
their NumPy path, so CuPy's functions of the same name break the same way).

Example::

    >>> break_reason(np.linalg.eig)[0]
    'data_dependent_dtype'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dynamo.guards.type_slots import module_of_value

DATA_SHAPE = "data_dependent_shape"
TO_PYTHON = "array_to_python"
DATA_DTYPE = "data_dependent_dtype"
CALLBACK = "python_callback"

# Functions that call a Python function of the user's once per element, row or piece:
# NumPy runs it as a Python loop, and what it returns decides the result's dtype and
# shape, so no rule can know them before it has run.
_PER_ELEMENT = ("calls a Python function once per element (np.vectorize is a Python "
                "loop, not a vectorized kernel)")
_PER_SLICE = "calls a Python function once per slice of the array (a Python loop)"

# path -> (cause, why); the message reads "np.<path>() <why>".
KNOWN_BREAKS: dict[str, tuple[str, str]] = {
    "einsum_path": (TO_PYTHON, "returns a contraction plan (a Python list and a string), "
                               "not arrays: compute it outside the compiled function and "
                               "pass it as np.einsum(..., optimize=path)"),
    "linalg.eig": (DATA_DTYPE, "returns real or complex eigenvalues depending on the data "
                               "(use np.linalg.eigh for symmetric matrices)"),
    "linalg.eigvals": (DATA_DTYPE, "returns real or complex eigenvalues depending on the "
                                   "data (use np.linalg.eigvalsh for symmetric matrices)"),
    # as many roots as the leading zeros leave (an unbacked size would do), but
    # float64 when they are all real (or none) and complex otherwise: no rule can know
    "vectorize": (CALLBACK, _PER_ELEMENT),
    "frompyfunc": (CALLBACK, _PER_ELEMENT),
    "apply_along_axis": (CALLBACK, _PER_SLICE),
    "apply_over_axes": (CALLBACK, _PER_SLICE),
    "piecewise": (CALLBACK, "calls a Python function once per condition, on the "
                            "elements it selects (a data-dependent number of them)"),
    "fromfunction": (CALLBACK, "calls a Python function on index grids; what it returns "
                               "is the result"),
    "roots": (DATA_DTYPE, "returns real or complex roots depending on the coefficients' "
                          "values (its length too: leading zeros are dropped)"),
}


def library_path(fn: Any) -> str | None:
    """``'linalg.eig'`` for ``np.linalg.eig`` (and ``cupy.linalg.eig``), ``'bincount'``."""
    mod = module_of_value(fn)
    name = getattr(fn, "__name__", None)
    if name is None or mod.split(".")[0] not in ("numpy", "cupy"):
        return None
    return f"linalg.{name}" if "linalg" in mod else name


def break_reason(fn: Any) -> tuple[str, str] | None:
    """``(cause, why)`` when calling ``fn`` is a break on purpose, else None (an
    ``np.vectorize`` object, as made by ``np.vectorize(f)``, too)."""
    if isinstance(fn, np.vectorize):
        return KNOWN_BREAKS["vectorize"]
    path = library_path(fn)
    return KNOWN_BREAKS.get(path) if path is not None else None
