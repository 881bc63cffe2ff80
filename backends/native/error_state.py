"""NumPy's error state as the native tier needs it: whether a tier-2 call may run at all
(``default_errstate``) and whether a flagged call's rerun in tier 1 runs to its end
(``rerun_completes``). Both answers are kept per NumPy settings object, which
``np.errstate`` replaces, so a call pays a dict lookup.

Example::

    >>> default_errstate()
    True
    >>> with np.errstate(over="ignore"):
    ...     default_errstate()
    False
"""

from __future__ import annotations

import numpy as np

from dynamo.ops.errstate import UFUNC_STATE, ufunc_state

from ..numpy_backend.warning_display import warnings_never_raise

_DEFAULT_ERR = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
# The same with every visible condition raising: the frontend's floating-point guard
# (``numpy_backend.runtime.guard``, around a graph the frame reruns eagerly when it
# raises) or ``np.seterr(divide/over/invalid="raise")``. A flagged call runs tier 1,
# which raises where eager would (the kernel reports the same conditions either way).
_RAISING_ERR = {"divide": "raise", "over": "raise", "under": "ignore", "invalid": "raise"}
_DEFAULT_STATES: dict = {}   # NumPy's ufunc settings object -> whether it is the default
# The last settings object found to be the default (``np.errstate`` swaps another in
# and puts this one back on exit): the generated fast call path (``call_helpers.fast_native``)
# compares with it by identity before it asks ``default_errstate``.
KNOWN_DEFAULT: list = [object()]
get_state = UFUNC_STATE.get


def default_errstate() -> bool:
    """NumPy's error handling is the default one, or the default one with its visible
    conditions raising (``_RAISING_ERR``): the kernel reports what both report
    (``np.geterr()`` costs microseconds: the answer is kept per settings object,
    which ``np.errstate`` replaces)."""
    state = ufunc_state()
    try:
        found = _DEFAULT_STATES[state]
    except KeyError:
        if len(_DEFAULT_STATES) >= 256:
            _DEFAULT_STATES.clear()
        found = _DEFAULT_STATES[state] = np.geterr() in (_DEFAULT_ERR, _RAISING_ERR)
    if found:
        KNOWN_DEFAULT[0] = state
    return found


_WARNING_STATES: dict = {}   # NumPy's ufunc settings object -> whether it is _DEFAULT_ERR


def rerun_completes() -> bool:
    """A flagged call's rerun in tier 1 cannot raise midway: NumPy's error state is
    the default one (reports warn, ``_DEFAULT_ERR``, not ``_RAISING_ERR``) and a
    ``RuntimeWarning`` would be shown without raising (no filter makes it an error, no
    replaced ``showwarning``/``formatwarning``, a ``stderr`` that takes any text: the
    numpy backend's ``warning_display.warnings_never_raise``). Then the written inputs
    ``saves.free_inputs`` finds need no backup: tier 1 stores their first store again
    before anything reads them. (A kernel with draws or NumPy calls, which can raise
    in any error state, never asks: ``Tiered._try_native``.) About 1-2 us with
    Python's default filters (scanned again only when they change)."""
    state = ufunc_state()
    try:
        found = _WARNING_STATES[state]
    except KeyError:
        if len(_WARNING_STATES) >= 256:
            _WARNING_STATES.clear()
        found = _WARNING_STATES[state] = np.geterr() == _DEFAULT_ERR
    return found and warnings_never_raise()


