"""Whether a RuntimeWarning warned now would raise, or run code of the program's.

A pass that writes into an array while it runs (``flat.py``, ``flat_direct.py``,
``flat_updates.py``) and the native tier's reruns ask ``warnings_never_raise`` before
they go on: where the program's warnings filters could make a floating-point warning
an error, or where a warning is shown by a hook of the program's (``showwarning``,
``formatwarning``, a ``sys.stderr`` that may raise, a filter's matcher), eager's op
could stop half-way or run program code in the middle, which a fused pass cannot
reproduce. Every answer is cheap, and sure: anything it does not know is "no".

Example::

    >>> warnings_never_raise()                   # the stock filters and display
    True
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error")
    ...     warnings_never_raise()
    False
"""

from __future__ import annotations

import _warnings
import io
import re
import sys
import warnings


def warnings_never_raise() -> bool:
    """A RuntimeWarning warned now would be shown (or ignored) and raise nothing: no
    filter or default action makes it an error, the filters are not context-local
    (3.14's context-aware warnings), and it would be shown the warnings module's own
    way (``_stock_display``). Also asked by the native tier (``error_state.rerun_completes``)."""
    if getattr(sys.flags, "context_aware_warnings", False):
        return False
    return _no_error_filter() and _stock_display()


# Filter actions after which a warning is shown (or not) but never raised.
_SHOWN_OR_NOT = frozenset({"ignore", "always", "default", "module", "once"})
# What a filter's message and module may be: matching them runs no code of the
# program's (None matches everything, a str is compared, a pattern's ``match`` runs).
_MATCHERS = frozenset({type(None), str, type(re.compile(""))})


def _no_error_filter() -> bool:
    """No filter, nor the default action, can make a RuntimeWarning raise: each is a
    well-formed 5-tuple (a category that is not a plain class, or a message that is
    not a string or a regular expression, may raise where the C code matches it)
    whose action only shows or ignores, or whose category RuntimeWarning is not in.
    Every filter counts, not only the first that matches: cheap, and sure."""
    filters = warnings.filters
    if type(filters) is not list:
        return False
    global _FILTERS_SEEN
    ids = tuple(map(id, filters))
    seen_ids, _, seen = _FILTERS_SEEN
    if ids == seen_ids:
        # the very filter objects seen last time (held there, so no other object has
        # their ids), in the same order: immutable tuples of immutable parts (or
        # found odd then), so the same answer, in about 0.6 us instead of 2 us a
        # call with the nine stock filters (asked once per stencil step)
        return seen and warnings.defaultaction in _SHOWN_OR_NOT and \
            getattr(_warnings, "_defaultaction", "default") in _SHOWN_OR_NOT
    result = _filters_show_or_ignore(filters)
    _FILTERS_SEEN = ids, list(filters), result
    return result and warnings.defaultaction in _SHOWN_OR_NOT and \
        getattr(_warnings, "_defaultaction", "default") in _SHOWN_OR_NOT


# (ids of the filters last checked, the filters themselves, whether they passed)
_FILTERS_SEEN: tuple = ((), [], True)


def _filters_show_or_ignore(filters: list) -> bool:
    """Every item of ``filters`` is a well-formed filter that only shows or ignores a
    RuntimeWarning (``_no_error_filter``)."""
    for item in filters:
        if type(item) is not tuple or len(item) != 5:
            return False
        action, message, category, module, lineno = item
        if type(category) is not type or type(lineno) is not int or \
                type(message) not in _MATCHERS or type(module) not in _MATCHERS:
            return False
        if type(action) is not str or \
                action not in _SHOWN_OR_NOT and issubclass(RuntimeWarning, category):
            return False
    return True


# The globals of the warnings module's own functions (``_py_warnings`` on 3.14): a
# hook of the program's may raise, so each must be the module's own. Compared with
# the module's own records of its originals (``_showwarning_orig``...), never with
# what they were when this module was imported (a program may replace
# ``warnings.showwarning`` before that).
_WARNINGS_OWN = getattr(warnings._showwarning_orig, "__globals__", None)

# Error handlers with which a text stream encodes any text.
_ENCODES_ANYTHING = frozenset({"backslashreplace", "replace", "ignore", "namereplace",
                               "xmlcharrefreplace"})


def _own(fn) -> bool:
    return getattr(fn, "__globals__", _MISSING) is _WARNINGS_OWN


_MISSING = object()


def _stock_display() -> bool:
    """A warning would be shown the warnings module's own way, which raises nothing:
    recorded (``catch_warnings(record=True)``: a list's ``append``), or formatted by
    ``formatwarning`` and written to a ``sys.stderr`` that cannot raise (``_quiet``)."""
    w = warnings
    if not (_own(w._showwarnmsg) and w.showwarning is w._showwarning_orig and
            _own(w._showwarning_orig)):
        return False
    impl = w._showwarnmsg_impl
    log = getattr(impl, "__self__", None)
    if type(log) is list and impl == log.append:
        return True
    return (_own(impl) and _own(w._formatwarnmsg) and _own(w._formatwarnmsg_impl) and
            w.formatwarning is w._formatwarning_orig and _own(w._formatwarning_orig) and
            _quiet(sys.stderr))


def _quiet(stream) -> bool:
    """Writing text to ``stream`` raises nothing but OSError (which the warnings
    module's writer swallows): None (warnings are dropped), an open ``io.StringIO``,
    or an open ``io.TextIOWrapper`` that encodes any text onto a file or a
    ``BytesIO`` (io's own ``write``: a subclass that overrides it may raise)."""
    if stream is None:
        return True
    kind = type(stream)
    if kind.write is io.StringIO.write:
        return not stream.closed
    if kind.write is not io.TextIOWrapper.write or stream.closed or \
            stream.errors not in _ENCODES_ANYTHING:
        return False
    buffer = stream.buffer
    if type(buffer) in (io.BufferedWriter, io.BufferedRandom):
        buffer = buffer.raw
    return type(buffer) in (io.FileIO, io.BytesIO)
