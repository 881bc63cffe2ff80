"""``np.linspace`` of literal arguments: NumPy's own result, computed once when the
graph is compiled and copied per call.

``np.linspace(0, 1, 50)`` runs about 40 lines of Python (``_array_converter``,
``arange``, in-place scaling, the end point set) to make an array that depends only on
its arguments. With every argument a literal of the code, generated code copies the
array ``np.linspace`` itself returned at compile time: the same values, dtype and
shape bit for bit, a fresh array per call (callers may write into it), and the same
kind of array (NumPy returns a view of its ``arange``; the copy is viewed the same way
so ``flags.owndata`` agrees).

For ``np.linspace(0, 1, 50)``::

    >>> linspace_form(m, {"start": 0, "stop": 1, "num": 50, ...}, name_of)
    '_linspace_values.copy().reshape((50,))'

Anything else stays NumPy's own call: an argument computed at run time, ``retstep``,
an ``axis`` other than 0, a call that raised or warned at compile time (so NumPy says
it again at run time), or more than ``MAX_ELEMENTS`` values (the copy would be held by
the compiled code; past a few thousand values the arithmetic is most of the call).
"""

from __future__ import annotations

import warnings

import numpy as np

MAX_ELEMENTS = 1 << 16


def _number(value) -> bool:
    return type(value) in (int, float)


def linspace_form(m, params: dict, name_of) -> str | None:
    """Source for ``np.linspace`` as a copy of its compile-time result, or None."""
    dtype = params["dtype"]
    if not _number(params["start"]) or not _number(params["stop"]) or \
            type(params["num"]) is not int or not 0 <= params["num"] <= MAX_ELEMENTS or \
            type(params["endpoint"]) is not bool or params["retstep"] is not False or \
            not (dtype is None or isinstance(dtype, (type, np.dtype))) or \
            type(params["axis"]) is not int or params["axis"] != 0 or \
            params["device"] is not None:
        return None
    # (under "warn" whatever the caller's error state: a call that would signal a
    # floating-point error in any state is left to NumPy, at run time)
    with warnings.catch_warnings(record=True) as shown, np.errstate(all="warn"):
        warnings.simplefilter("always")
        try:
            values = np.linspace(params["start"], params["stop"], params["num"],
                                 params["endpoint"], dtype=dtype)
        except Exception:   # noqa: BLE001 (NumPy raises it again at run time)
            return None
    if shown or type(values) is not np.ndarray or not values.flags.c_contiguous:
        return None
    const = m.bind(values, "linspace_values")
    if values.base is None:
        return f"{const}.copy()"
    if values.base.base is None and values.base.shape == values.shape:
        return f"{const}.copy().reshape({values.shape!r})"
    return None


def linspace_signature(start, stop, num=50, endpoint=True, retstep=False, dtype=None,
                       axis=0, *, device=None):
    return {"start": start, "stop": stop, "num": num, "endpoint": endpoint,
            "retstep": retstep, "dtype": dtype, "axis": axis, "device": device}
