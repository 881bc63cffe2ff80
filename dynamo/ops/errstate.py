"""``with np.errstate(...)`` as two graph ops, and NumPy's ufunc settings as a value.

``np.errstate`` decides what a floating-point error in a NumPy op does (ignore, warn,
raise, ...). A ``with`` block of it in a compiled function becomes::

    errstate_enter = ops.errstate_enter(divide='ignore', invalid='ignore')
    divide = ops.divide(num, den)                   # runs with the block's settings
    log = ops.log(divide)
    errstate_exit = ops.errstate_exit(errstate_enter)

``errstate_enter`` enters a new ``np.errstate`` and returns it (the graph's only
non-array value); ``errstate_exit`` leaves it. Both are *effects* (``OpDef.effect``):
no pass drops, merges, folds or moves them, and fused groups never span one, so every
op between them runs with the block's settings, and every other op without them.
A graph that holds them runs behind ``restoring``, which puts the caller's settings
back when the graph raises between the two (eager's ``with`` would have left).

CuPy kernels never consult these settings (CuPy eager ignores ``np.errstate``), so
the ``cupy`` and ``cudagraphs`` backends drop the two ops (``without_errstate``).

Example::

    >>> token = errstate_enter(divide="ignore"); np.geterr()["divide"]
    'ignore'
    >>> errstate_exit(token); np.geterr()["divide"] == "warn"
    True
"""

from __future__ import annotations

import functools

import numpy as np

# every ufunc setting lives in one context variable (NumPy 2; dynamo.npversion.FLOOR)
from numpy._core._ufunc_config import _extobj_contextvar as UFUNC_STATE

from .registry import OPAQUE, OpDef, no_array, register

# What np.errstate accepts, and what the translator captures (``call=`` is a callable:
# it runs eagerly).
SETTINGS = frozenset({"all", "divide", "over", "under", "invalid"})
MODES = frozenset({"ignore", "warn", "raise", "call", "print", "log"})
OPS = frozenset({"errstate_enter", "errstate_exit"})


def ufunc_state():
    """This thread's ufunc settings: error handling, error callback, buffer size."""
    return UFUNC_STATE.get()


def set_ufunc_state(state) -> None:
    """Make ``state`` (from ``ufunc_state``) this thread's settings again."""
    UFUNC_STATE.set(state)


def errstate_enter(**settings) -> np.errstate:
    state = np.errstate(**settings)
    state.__enter__()
    return state


def errstate_exit(state: np.errstate) -> None:
    state.__exit__(None, None, None)


register(OpDef("errstate_enter", errstate_enter, no_array, OPAQUE, cupy=errstate_enter,
               effect=True, doc="enters `with np.errstate(...)`"))
register(OpDef("errstate_exit", errstate_exit, no_array, OPAQUE, cupy=errstate_exit,
               effect=True, doc="leaves `with np.errstate(...)`"))


def raising() -> object:
    """Enter this thread's ufunc settings with every floating-point condition they make
    visible (warn, call, print, log) set to raise (``GUARD_LEAVE`` sets the caller's
    settings again).

    A graph that may be rerun eagerly when it raises runs so (``dynamo.raising.on_raise``):
    it then raises at its first visible condition, before reporting anything the rerun
    would report again. Conditions the caller ignores stay ignored. (The numpy backend's
    fused code uses the same idea: ``backends/numpy_backend/runtime.guard``.) The glue
    does the same in C calls only (``GLUE_SCOPE``, ``GUARD_ENTER``)."""
    return UFUNC_STATE.set(_RAISING[UFUNC_STATE.get()])


def raises_now() -> bool:
    """Do this thread's ufunc settings make some floating-point condition raise
    (``np.seterr(divide="raise")``, ``with np.errstate(all="raise")``)?"""
    return _RAISES[UFUNC_STATE.get()]


def entered_by_glue(state) -> bool:
    """Whether ``state`` is ufunc settings the glue's guard entered (``GUARD_ENTER``, a
    value of ``_RAISING``): only a graph the frame's original code runs again when it
    raises runs under them, and such a graph writes no input (``dynamo.raising.
    rerun_on_raise``). The numpy backend reads this: an array that graph made and writes
    straight into is never seen by the rerun (``backends/numpy_backend/ufunc_guard``).

        >>> caller = UFUNC_STATE.get(); entered_by_glue(caller)
        False
        >>> entered_by_glue(_RAISING[caller])
        True
    """
    return any(guarded is state for guarded in _RAISING.values())


def raising_modes(modes: dict) -> dict:
    """``np.geterr()``'s ``modes`` with every visible one (all but ``ignore``) at
    ``raise``: ``{"divide": "warn", "under": "ignore"}`` -> ``{"divide": "raise",
    "under": "ignore"}`` (the frontend's guard, and the numpy backend's:
    ``backends/numpy_backend/ufunc_guard.py``)."""
    return {k: "raise" if v != "ignore" else v for k, v in modes.items()}


class _PerState(dict):
    """``{ufunc settings object: what ``derive`` makes of it}``, filled on a miss (a
    lookup is one C-level dict subscript). NumPy makes a new settings object for each
    ``with np.errstate()``, so the table is emptied when it grows large."""

    def __init__(self, derive):
        super().__init__()
        self.derive = derive

    def __missing__(self, state):
        if len(self) >= 256:
            self.clear()
        token = UFUNC_STATE.set(state)
        try:
            value = self.derive()
        finally:
            UFUNC_STATE.reset(token)
        self[state] = value
        return value


def _guarded_state():
    np.seterr(**raising_modes(np.geterr()))
    return UFUNC_STATE.get()


_RAISING = _PerState(_guarded_state)                            # settings -> guarded
_RAISES = _PerState(lambda: "raise" in np.geterr().values())    # settings -> raises?

# How generated glue enters and leaves the guard, and asks ``raises_now``: statements
# over the names of ``GLUE_SCOPE``, which the glue adds to its globals. With NumPy 2 they
# are C calls and dict lookups only (no Python frame: a cached call pays about 0.15 us
# for the guard instead of 0.6 us); ``{saved}`` is the variable holding the caller's
# settings. The glue reads them (``GUARD_SAVE``) before its ``try:``, enters the guard
# (``GUARD_ENTER``) as the try's first statement and leaves it (``GUARD_LEAVE``, setting
# the saved settings again) as its ``finally:``'s first, so that an exception raised
# between two statements (KeyboardInterrupt from SIGINT, which CPython raises right
# after a call returns, before its result is stored) never splits the switch from its
# undo: raised after ``GUARD_ENTER``'s set, it is inside the ``try:``; raised after
# ``GUARD_LEAVE``'s, the settings are back already (a token kept from the set, as
# ``___token = set(...)``, would be lost right there: issue #17,
# tests/hostile/prog_round22_interrupts.py).
GUARD_SAVE = "___ufunc_get()"
GUARD_LEAVE = "___ufunc_set({saved})"
GLUE_SCOPE = {"___ufunc_get": UFUNC_STATE.get, "___ufunc_set": UFUNC_STATE.set,
              "___raising_of": _RAISING, "___raises_of": _RAISES}
GUARD_ENTER = "___ufunc_set(___raising_of[{saved}])"
RAISES_NOW = "___raises_of[___ufunc_get()]"
RAISES_OF = "___raises_of[{saved}]"   # RAISES_NOW of settings ``GUARD_SAVE`` read


def has_errstate(graph) -> bool:
    return any(n.target in OPS for n in graph.call_nodes())


def restoring(fn):
    """``fn`` (a compiled graph with errstate ops) that restores the caller's ufunc
    settings when it raises: a ``with`` it entered is left as eager's would be."""
    @functools.wraps(fn)
    def run(*args):
        state = ufunc_state()
        try:
            return fn(*args)
        except BaseException:
            set_ufunc_state(state)
            raise
    return run
