"""``fmt.format(...)`` and ``fmt % (...)`` of traced values, made by the glue after the
graph has run, like f-strings (:mod:`dynamo.variables.formatted`): the glue calls the
same method on the format string with the graph's snapshots and the program's
constants, so the text is Python's own.

Only where the call cannot raise for some values but not others: every traced value is
a NumPy array or scalar of a bool/integer/float/complex dtype or a deferred Python
number; the call must succeed on probes of the same types while tracing; no ``c``
presentation (a character: raises for large integers); for ``%``, no integer
conversion (``%d``, ``%x``...) of a float (NaN and inf raise), no ``*`` width and no
mapping keys; for ``str.format``, no nested replacement field in a spec and no
attribute or index in a field name. Anything else is the break it was.

Example: ``"{:<6s} {:8.3f}".format(name, v)`` of a str constant and a float64 scalar
``v`` is ``FormattedStringVariable`` whose glue is ``'{:<6s} {:8.3f}'.format('a',
___out0[()])``; ``"%.3e" % np.linalg.norm(r)`` is ``('%.3e' % (___out1[()],))``.
"""

from __future__ import annotations

import re
import string

import numpy as np

from ..exc import Unsupported
from .arrays import ArrayVariable, DeferredNumberVariable
from .base import Variable
from .constant import ConstantVariable
from .formatted import FormattedStringVariable, format_value, probe_of, snapshot

# a %-conversion: (mapping key or None, conversion character); `*` found separately
_PERCENT = re.compile(r"%(\()?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(.)")
_INTEGER_CONVERSIONS = set("diouxXc")


def _traced(v: Variable) -> bool:
    return isinstance(v, (ArrayVariable, DeferredNumberVariable))


def _is_float(probe) -> bool:
    kind = probe.dtype.kind if isinstance(probe, (np.ndarray, np.generic)) else \
        "f" if isinstance(probe, (float, complex)) else "i"
    return kind in "fc"


class _Applied:
    """``fmt.format(*args, **kwargs)`` or ``fmt % tuple(args)`` in the glue: ``args``
    are ``(variable or None, constant, scalar)``."""

    def __init__(self, how: str, fmt: str, args: list, kwargs: dict):
        self.how, self.fmt, self.args, self.kwargs = how, fmt, args, kwargs

    def reconstruct(self, cg) -> str:
        def one(arg):
            var, const, scalar = arg
            return cg.const(const) if var is None else cg.value(var) + ("[()]" if scalar else "")
        items = "".join(f"{one(a)}, " for a in self.args)
        if self.how == "%":
            return f"({cg.const(self.fmt)} % ({items}))"
        kw = ", ".join(f"{cg.const(k)}: {one(a)}" for k, a in self.kwargs.items())
        return f"{cg.const(self.fmt)}.format({items}**{{{kw}}})"


def _probes(values: list[Variable]):
    """The probe (or constant) of each value, or None where one cannot be formatted."""
    out = []
    for v in values:
        if _traced(v):
            p = probe_of(v)
            if p is None:
                return None
            out.append(p)
        elif v.is_constant():
            out.append(v.as_python_constant())
        else:
            return None
    return out


def _snap(tx, v):
    """(snapshot or None, constant, scalar) of one argument."""
    if not _traced(v):
        return (None, v.as_python_constant(), False)
    var, scalar = snapshot(tx, v)
    return (var, None, scalar)


def format_method(tx, fmt: str, args: list, kwargs: dict) -> Variable | None:
    """``fmt.format(*args, **kwargs)`` with traced values, or None (the old break)."""
    if not any(_traced(v) for v in [*args, *kwargs.values()]):
        return None
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return None
    for _, name, spec, _ in fields:
        if name is None:
            continue
        if "{" in (spec or "") or "." in name or "[" in name or (spec or "").endswith("c"):
            return None
    probes, kw_probes = _probes(args), _probes(list(kwargs.values()))
    if probes is None or kw_probes is None:
        return None
    try:
        fmt.format(*probes, **dict(zip(kwargs, kw_probes)))
    except Exception:
        return None
    return _made(tx, "format", fmt, args, kwargs)


def format_percent(tx, fmt: str, values: Variable) -> Variable | None:
    """``fmt % values`` with traced values (one, or a tuple of them), or None."""
    from .sequences import TupleVariable
    args = list(values.items) if isinstance(values, TupleVariable) else [values]
    if not any(_traced(v) for v in args) or "*" in fmt:
        return None
    conversions = [(key, c) for key, c in _PERCENT.findall(fmt) if c != "%"]
    if any(key for key, _ in conversions) or len(conversions) != len(args):
        return None
    probes = _probes(args)
    if probes is None:
        return None
    for (_, c), v, p in zip(conversions, args, probes):
        if _traced(v) and c in _INTEGER_CONVERSIONS and (c == "c" or _is_float(p)):
            return None
    try:
        fmt % tuple(probes)
    except Exception:
        return None
    return _made(tx, "%", fmt, args, {})


def _made(tx, how, fmt, args, kwargs) -> Variable:
    first = next(v for v in [*args, *kwargs.values()] if _traced(v))
    return FormattedStringVariable(
        [_Applied(how, fmt, [_snap(tx, v) for v in args],
                  {k: _snap(tx, v) for k, v in kwargs.items()})], first)


def formatted_builtin(tx, fn, args: list, kwargs: dict) -> Variable | None:
    """``str(v)``, ``repr(v)``, ``ascii(v)`` or ``format(v, spec)`` of a traced array
    ``v``: the text the glue makes after the graph, as for ``f"{v!s}"``, ``f"{v!r}"``,
    ``f"{v!a}"`` and ``f"{v:spec}"`` (``formatted.format_value``, with its limits: a
    dtype and spec whose formatting cannot fail for some values only). None where it
    does not apply (the break it was): ``", ".join(str(v) for v in np.round(x, 2))``
    is one text (``builtins.call_builtin``)."""
    if kwargs or not args or not isinstance(args[0], ArrayVariable):
        return None
    if fn is format:
        spec = args[1] if len(args) == 2 else ConstantVariable("")
        if len(args) > 2 or not spec.is_constant() or \
                type(spec.as_python_constant()) is not str:
            return None
        spec, conversion = spec.as_python_constant(), None
    elif len(args) == 1:
        spec, conversion = "", {str: "s", repr: "r", ascii: "a"}[fn]
    else:
        return None
    try:
        return format_value(tx, args[0], spec, conversion)
    except Unsupported:
        return None
