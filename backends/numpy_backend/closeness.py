"""``np.isclose`` (and so ``np.allclose``, which the graph holds as ``isclose`` and an
``all``) as the ufunc expression it ends in.

``np.isclose`` spends most of a small call deciding what the graph fixed when it was
compiled: ``asanyarray`` of each argument, ``result_type(y, 1.)``, and
``np.all(np.isfinite(atol))``/``rtol`` (two reductions) to warn about bad tolerances.
For ndarray or number-literal operands and finite number-literal tolerances, those
decisions are made once at compile time and the call runs NumPy's own last step
(numpy/_core/numeric.py, ``isclose``, NumPy 2.4 and 2.5) with the same operands in the
same order, so the result is NumPy's bit for bit.

For ``np.isclose(x, y)`` of two float64 arrays::

    >>> isclose_form(m, {"a": x, "b": y, "rtol": 1e-05, "atol": 1e-08,
    ...                  "equal_nan": False}, name_of)
    '_isclose_last_step(x, y, 1e-05, 1e-08, False, _isclose_dtype)'

where ``_isclose_dtype`` is ``dtype('float64')``, ``result_type(y, 1.)``. Anything
else (a tolerance computed at run time, a NaN or infinite tolerance, which NumPy warns
about, a NumPy scalar, ``timedelta``/object/string dtypes, another NumPy version) stays
NumPy's own call.
"""

from __future__ import annotations

import math

import numpy as np

from dynamo import npversion
from dynamo.graph import Node
from dynamo.ops.node_facts import array_meta

# ``isclose``'s body was checked against this NumPy (``isclose_last_step``;
# npversion.CHECKED)
CHECKED = npversion.NUMPY in npversion.CHECKED

_asanyarray, _errstate = np.asanyarray, np.errstate
_less_equal, _isfinite, _isnan = np.less_equal, np.isfinite, np.isnan


def isclose_last_step(x, y, rtol, atol, equal_nan: bool, dtype):
    """``np.isclose``'s body after its argument checks, ``y`` made ``dtype`` as it makes
    it (``dtype`` None: ``y`` is a Python number, kept as NumPy keeps it)."""
    if dtype is not None:
        y = _asanyarray(y, dtype=dtype)
    with _errstate(invalid="ignore"):
        # NumPy's expression, in its order: the same ufuncs on the same operands
        result = (_less_equal(abs(x - y), atol + rtol * abs(y))
                  & _isfinite(y)
                  | (x == y))
        if equal_nan:
            result |= _isnan(x) & _isnan(y)
    return result[()]


def _operand(value) -> bool:
    """An ndarray of a number dtype, or a Python int/float literal (NumPy keeps those
    as Python scalars; a bool or a NumPy scalar takes its own path there)."""
    if isinstance(value, Node):
        meta = array_meta(value)
        return meta is not None and not meta.scalar and meta.kind == "numpy" and \
            meta.dtype.kind in "biufc"
    return _tolerance(value)


def _tolerance(value) -> bool:
    """A finite Python int/float literal: NumPy's finiteness check cannot fire."""
    return type(value) is int or type(value) is float and math.isfinite(value)


def isclose_form(m, params: dict, name_of) -> str | None:
    """Source for ``np.isclose`` by its last step, or None (NumPy's own call)."""
    a, b = params["a"], params["b"]
    if not CHECKED or not _operand(a) or not _operand(b) or \
            not _tolerance(params["rtol"]) or not _tolerance(params["atol"]) or \
            type(params["equal_nan"]) is not bool:
        return None
    if isinstance(b, Node):
        dtype = m.bind(np.result_type(array_meta(b).dtype, 1.0), "isclose_dtype")
        y = name_of(b)
    else:   # NumPy: ``elif isinstance(y, int): y = float(y)``
        dtype, y = "None", repr(float(b))
    x = name_of(a) if isinstance(a, Node) else repr(a)
    fn = m.bind(isclose_last_step, "isclose_last_step")
    return (f"{fn}({x}, {y}, {params['rtol']!r}, {params['atol']!r}, "
            f"{params['equal_nan']!r}, {dtype})")


def isclose_signature(a, b, rtol=1.e-5, atol=1.e-8, equal_nan=False):
    return {"a": a, "b": b, "rtol": rtol, "atol": atol, "equal_nan": equal_nan}
