"""The floating-point guard of generated code: every condition the caller would see
raises, and the caller's own settings come back whatever is raised where.

Fused code does not report conditions as eager does (one per block, under another
op's name, once for two merged ops), so it runs under raising settings and, when one
raises, again op by op under the caller's (``guard``'s doc). The switch and its undo
are written so that no interrupt splits them (``raising_of``)::

    _caller = _ufunc_get()
    try:
        _ufunc_set(_raising_of(_caller))
        ...                                # the fused code
    finally:
        _ufunc_set(_caller)

(Split out of ``runtime.py``, which re-exports these names: generated code and tests
read them as ``runtime.<name>``.)
"""

from __future__ import annotations

import numpy as np

from dynamo.ops.errstate import UFUNC_STATE as _UFUNC_STATE
from dynamo.ops.errstate import entered_by_glue, raising_modes

from .warning_display import warnings_never_raise

# What generated code reads and sets the ufunc settings with: the context variable's own
# C methods (no Python frame, so no interrupt between a call's start and its effect)
UFUNC_GET = _UFUNC_STATE.get
UFUNC_SET = _UFUNC_STATE.set


def guard():
    """Enter the caller's ufunc settings with every floating-point condition they make
    visible (``warn``, ``raise``, ``call``, ``print``, ``log``) set to ``raise``;
    return the token ``unguard`` takes.

    Fused code does not report conditions as eager does: a block-wise op reports
    one per block that meets it (six RuntimeWarnings, six calls of the
    ``np.seterrcall`` function, lines printed by pool threads), a strength-reduced
    op under another name, a merged op once for two. So generated code runs under
    this guard, where the first such condition raises FloatingPointError, and then
    runs the same ops again op by op, under the caller's settings, as eager does:
    every warning, call, print or exception happens once per op, in program order,
    naming eager's op. Conditions the caller ignores (underflow, by default) raise
    nothing, so the usual call costs a context-variable switch (about 0.1 us).
    (Generated code enters the same settings through ``raising_of``, which no
    interrupt can leave switched; ``guard``/``unguard`` serve tests and tools.)

        >>> token = guard(); np.geterr()["divide"], np.geterr()["under"]
        ('raise', 'ignore')
        >>> unguard(token); np.geterr()["divide"]
        'warn'
    """
    return _UFUNC_STATE.set(raising_of(_UFUNC_STATE.get()))


def unguard(token) -> None:
    """Leave ``guard``: the caller's settings again."""
    _UFUNC_STATE.reset(token)


def raising_of(state):
    """The settings ``guard`` enters from the caller's ``state`` (``ufunc_state``).

    Generated code does not call ``guard``, whose token an interrupt can take away
    between the switch and the ``try:`` that undoes it (KeyboardInterrupt from SIGINT,
    raised right after a call returns, before its result is stored: the caller was left
    with ``np.geterr()`` at ``raise``; issue #17, prog_round22_interrupts.py). It reads
    the caller's settings first, then switches inside the ``try:`` and sets them again
    as the ``finally:``'s first call, C calls on NumPy 2 (``UFUNC_GET``, ``UFUNC_SET``)::

        _caller = _ufunc_get()
        try:
            _ufunc_set(_raising_of(_caller))
            ...                            # the fused code
        finally:
            _ufunc_set(_caller)

    Raised after the switch, the exception is inside the ``try:``; raised after the
    undo, the settings are back already.

        >>> caller = UFUNC_GET(); _ = UFUNC_SET(raising_of(caller)); np.geterr()["divide"]
        'raise'
        >>> _ = UFUNC_SET(caller); np.geterr()["divide"]
        'warn'
    """
    try:
        return _GUARDED[state]
    except KeyError:
        guarded = _GUARDED[state] = _guarded(state)
        return guarded



def _guarded(state):
    """``state`` (NumPy's ufunc settings object) with its visible conditions raising."""
    if len(_GUARDED) >= 256:     # each `with np.errstate()` makes new settings
        _GUARDED.clear()
        _CALLER.clear()
    token = _UFUNC_STATE.set(state)
    try:
        modes = np.geterr()
        np.seterr(**raising_modes(modes))
        guarded = _UFUNC_STATE.get()
    finally:
        _UFUNC_STATE.reset(token)
    # ("call" and "log" run the caller's object, which may raise; "warn" raises when
    # a warnings filter says "error": checked per call, in ``eager_goes_on``). Settings
    # the glue's own guard entered raise, but there a raise reruns the whole frame from
    # its original code, which sees no array the graph made (a graph run so writes no
    # input, dynamo/raising.py): eager goes on as far as a direct write can tell.
    # (Without this, every such graph lost its direct writes: corpus 6's gradient
    # histogram wrote both gradients through a buffer and a copy, 0.93x plain.)
    _CALLER[guarded] = state, (entered_by_glue(state) or
                               all(v in ("ignore", "print", "warn") for v in modes.values()))
    return guarded


_GUARDED: dict = {}
# guarded settings -> (the caller's, whether a condition under the caller's raises nothing)
_CALLER: dict = {}


def eager_goes_on() -> bool:
    """Whether eager's code, under the settings ``guard`` replaced, would go on after
    any floating-point condition (ignore it, print it, or warn without raising) rather
    than raise. False when unsure: not under ``guard``, a ``call``/``log``/
    ``raise`` mode (but for the glue's own guard, where a raise reruns the frame:
    ``_guarded``), a warnings filter (or default action) that may make a
    RuntimeWarning an error or is not one the warnings module made, context-local
    warnings filters, or a way of showing a warning that is not the warnings
    module's own (``_stock_display``).

    A group that writes its value straight into the array a ``setitem`` of it writes
    (``flat.py``) asks this first: when the fused code then raises under the guard,
    eager would have warned and written the same values, whereas where eager raises,
    the array must be left as it was (which writing straight into it cannot undo).

        >>> token = guard(); eager_goes_on()          # NumPy's defaults: warn, ignore
        True
        >>> warnings.showwarning = print_and_raise    # the program shows warnings its way
        >>> eager_goes_on()
        False
        >>> unguard(token); eager_goes_on()           # not under the guard
        False
    """
    if not _CALLER.get(_UFUNC_STATE.get(), (None, False))[1]:
        return False
    return warnings_never_raise()


def reports_run_no_program_code() -> bool:
    """A floating-point condition that an op meets now, under the caller's own settings
    (not under ``guard``), runs none of the program's code while the op runs: no mode is
    ``call`` or ``log`` (np.seterrcall's function or object), and where one is ``warn``,
    the warning is filtered and shown the warnings module's own way
    (``warnings_never_raise``: no ``showwarning``, ``formatwarning``, ``sys.stderr`` or
    filter matcher of the program's). An in-place update that holds other values in its
    array's elements outside the window while its op runs (``flat_updates.py``: the
    gaps) asks this, as such code could read them meanwhile
    (tests/hostile/prog_round21_flat.py ``edges_seen_by_*``).

        >>> reports_run_no_program_code()                 # NumPy's defaults
        True
        >>> with np.errstate(divide="call"):
        ...     reports_run_no_program_code()
        False
    """
    state = _UFUNC_STATE.get()
    reports = _REPORTS.get(state)
    if reports is None:
        modes = set(np.geterr().values())
        reports = "code" if modes & {"call", "log"} else "warn" if "warn" in modes else ""
        if len(_REPORTS) >= 256:     # each `with np.errstate()` makes new settings
            _REPORTS.clear()
        _REPORTS[state] = reports
    return not reports or reports == "warn" and warnings_never_raise()


# the caller's ufunc settings -> "code" (a mode is call or log), "warn" (one warns), ""
_REPORTS: dict = {}


def as_caller(fn, *args):
    """``fn(*args)`` under the settings ``guard`` replaced (the caller's own), in the
    middle of guarded code: eager's warnings and prints, where eager has them."""
    caller = _CALLER.get(_UFUNC_STATE.get(), (None,))[0]
    if caller is None:
        return fn(*args)
    token = _UFUNC_STATE.set(caller)
    try:
        return fn(*args)
    finally:
        _UFUNC_STATE.reset(token)
