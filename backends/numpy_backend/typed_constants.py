"""A Python float constant of an arithmetic ufunc, passed as a NumPy scalar of the
array operand's dtype.

``np.multiply(0.9, m)`` with ``m`` a float32 array converts the Python float on every
call: NumPy finds its dtype (a "weak" scalar, NEP 50: it takes the array's), makes a
float32 from it and only then runs the loop, about 0.12 us of a 16 KB multiply's 1 us
here. The result is the array's dtype, its values those of the loop over
``float32(0.9)``. Passing ``np.float32(0.9)``, made once when the graph is compiled,
runs the same loop on the same two float32 operands, for the same result bit for bit,
without the conversion::

    m = 0.9 * m + 0.1 * g        # m, g: float32 arrays
    # multiply = _multiply(_float32_0_9, m)
    # add = _add(multiply, (_multiply(_float32_0_1, g)), out=multiply)

Only where that holds without a doubt: ``add``, ``subtract``, ``multiply``,
``divide``, ``maximum`` and ``minimum`` with two arguments and no keywords (no
``dtype=``, ``casting=``, ``where=``), one a finite Python float, the other an ndarray
or NumPy scalar (not a CuPy array) of a real floating dtype, and the float
converts to that dtype without overflow or underflow (``np.float16(1e5)`` is inf:
NumPy would warn or, before NumPy 2, promote, so that call keeps its Python float).
For such a pair NumPy 1.x's value-based casting also keeps the array's dtype. A float
that changes between calls (``1 - 0.9 ** t``) stays a Python float: converting it per
call costs more than NumPy's own conversion.

A NumPy scalar operand gains most: in a loop node over a small array every trip's
``0.1 * x[i]`` converted the Python float again, 78 ns a multiply against 64 ns for
``_float64_0_1 * x[i]`` (float32: 101 ns against 59 ns), on the loaded 2-core machine.
Under NEP 50 (NumPy 2, which the project requires) a Python float with a NumPy scalar
is weak just as with an array: it takes the scalar's dtype, and the two operands the
scalar loop runs on are the same::

    y[i] = a * x[i] + (1.0 - a) * y[i - 1]     # a = 0.1, in a loop node
    # y[(trip)] = ((_float64_0_1 * (x[(trip)])) + (_float64_0_9 * (y[(trip - 1)])))
"""

from __future__ import annotations

import math
import operator
import re
import warnings

import numpy as np

from dynamo.graph import Node
from dynamo.ops.meta import NUMPY
from dynamo.ops.node_facts import array_meta

# ``ops.get(name).impl`` of the ops this applies to: the ufuncs themselves, and the
# operators that call the first four on a NumPy operand (``0.1 * x[i]`` of NumPy
# scalars is ``operator.mul``: float64's ``__rmul__`` runs multiply's scalar loop)
UFUNCS = frozenset({np.add, np.subtract, np.multiply, np.divide, np.maximum, np.minimum,
                    operator.add, operator.sub, operator.mul, operator.truediv})


def typed_scalar(value: float, dtype: np.dtype):
    """``dtype``'s scalar for the Python float ``value``, or None where it overflows
    or underflows (NumPy's own conversion at run time could then warn or raise under
    the caller's ``np.errstate``)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        scalar = dtype.type(value)
    if not math.isfinite(float(scalar)):
        return None
    if value != 0.0 and abs(float(scalar)) < np.finfo(dtype).tiny:   # subnormal, or 0
        return None
    return scalar


def typed_parts(m, args: tuple, parts: list[str]) -> list[str]:
    """``parts`` (the sources of a ufunc call's two arguments ``args``) with a Python
    float constant written as a bound scalar of the other argument's dtype, where
    the module's text says it is the same call; else ``parts`` unchanged."""
    if len(args) != 2:
        return parts
    for i in (0, 1):
        value, other = args[i], args[1 - i]
        if type(value) is not float or not math.isfinite(value) or \
                not isinstance(other, Node):
            continue
        meta = array_meta(other)
        if meta is None or meta.kind != NUMPY or \
                not isinstance(meta.dtype, np.dtype) or meta.dtype.kind != "f":
            continue
        scalar = typed_scalar(value, meta.dtype)
        if scalar is None:
            continue
        constants = m.__dict__.setdefault("typed_constants", {})
        key = (meta.dtype, value.hex())          # (0.0 and -0.0 apart)
        if key not in constants:
            hint = meta.dtype.name + "_" + re.sub(r"\W", "_", repr(value))
            constants[key] = m.bind(scalar, hint)
        parts = list(parts)
        parts[i] = constants[key]
    return parts
