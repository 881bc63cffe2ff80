"""f-strings of traced values, made by the glue after the graph has run.

``return freqs[k], f"peak at {freqs[k]:.2f} Hz"`` and ``log["line"] = f"mean={m:.3f}"``
need the text only after the function returns: the graph snapshots each array value
(``np.copy``, so that a later in-place write does not change it) and the glue formats
the snapshot with Python's own ``format`` (and ``str``/``repr``/``ascii`` for ``!s``,
``!r``, ``!a``): the same text eager makes. A use that needs the text while tracing
(``print``, ``len``, a comparison, a dict key) breaks there with the reason the
f-string had before (cause ``format``); ``+`` of two texts is one text (``concat_texts``).

Only where formatting cannot raise or warn for some values but not others, so that
doing it after the graph changes nothing the program sees: NumPy arrays and scalars of
bool, integer, float and complex dtypes, and the Python numbers of
``DeferredNumberVariable`` s (``float(loss)``, ``x.item()``); a spec is tried on a
probe of the same type while tracing (a spec the type rejects is the break it was),
and the ``c`` presentation (a character: raises for large integers) is never
deferred. An array of one or more dimensions only with an empty spec (``str(x)``).

Example::

    >>> s = format_value(tx, mean_var, ".3f", None)    # f"{x.mean():.3f}"
    >>> s.reconstruct(cg)
    "(format(___out0[()], '.3f'))"
"""

from __future__ import annotations

import importlib

import numpy as np

from dynamo.guards import EXPR, Guard, ModuleAttrSource

from .. import ops
from ..exc import Unsupported
from ..symbolic import SymFloat, SymInt, is_unbacked
from .arrays import ArrayVariable, DeferredNumberVariable
from .base import Variable
from .constant import ConstantVariable
from .graph_numbers import is_graph_number

_CONVERSIONS = {"s": str, "r": repr, "a": ascii}
_KINDS = "biufc"


def format_break(value) -> Unsupported:
    return Unsupported(f"f-string of {value.describe()}",
                       "Formatting needs the value, known only when the program runs.",
                       hint="format the result after the compiled call, or accept the "
                            "graph break", cause="format")


def _formats_alike(probe, spec: str, conversion: str | None) -> bool:
    """Does formatting the probe succeed quietly (then it does for every value of its
    type, the ``c`` presentation aside)?"""
    if spec.endswith("c"):
        return False
    try:
        if conversion is not None:
            probe = _CONVERSIONS[conversion](probe)
        format(probe, spec)
    except Exception:
        return False
    return True


def changing_number(var: Variable) -> bool:
    """Is ``var`` a changing number read from the frame (``self.n``, a symbolic int or
    float with a source)? Its text is the glue's, from the value the call computes:
    ``log.append(f"step {self.n}")`` neither pins ``n`` nor recompiles per step."""
    value = getattr(var, "value", None)
    return isinstance(var, ConstantVariable) and isinstance(value, (SymInt, SymFloat)) \
        and not any(is_unbacked(s) for s in value.sym.symbols)


def probe_of(value):
    """A value of ``value``'s Python type, or None where the glue cannot format it."""
    if changing_number(value):
        return 0 if isinstance(value.value, SymInt) else 0.0
    if isinstance(value, ArrayVariable):
        m = value.meta
        if m.kind != ops.NUMPY or m.dtype.kind not in _KINDS or \
                (not m.scalar and _user_formatter()):
            return None
        zero = np.zeros((), m.dtype)
        return zero[()] if m.scalar else zero if m.shape == () else np.zeros((1,), m.dtype)
    if isinstance(value, FormattedStringVariable):   # "%s|%s" % (text, x[1])
        return ""
    if isinstance(value, DeferredNumberVariable) and value.fn in (bool, int, float, complex):
        return value.fn(0)
    if is_graph_number(value):   # float(loss) * 2: its expression, in the glue
        return 0.0
    return None


class FormattedStringVariable(DeferredNumberVariable):
    """An f-string with traced values in it: ``parts`` are str constants and
    ``(value, spec, conversion, scalar, probe)`` pieces; ``value`` is a graph snapshot
    (read back as a NumPy scalar when ``scalar``) or a deferred number, and ``probe`` a
    value of its type (for 3.13's ``CONVERT_VALUE`` then ``FORMAT_WITH_SPEC``)."""

    def __init__(self, parts: list, first: Variable):
        super().__init__(str, None)
        self.parts, self.first = parts, first

    def describe(self) -> str:
        return f"an f-string of {self.first.describe()}"

    def needed(self) -> Unsupported:
        return format_break(self.first)

    def reconstruct(self, cg) -> str:
        pieces = []
        for part in self.parts:
            if isinstance(part, str):
                pieces.append(cg.const(part))
                continue
            if not isinstance(part, tuple):   # fmt.format(...), fmt % (...): its own code
                pieces.append(part.reconstruct(cg))
                continue
            value, spec, conversion, scalar, _ = part
            text = cg.value(value) + ("[()]" if scalar else "")
            if conversion is not None:
                text = f"{_CONVERSIONS[conversion].__name__}({text})"
            pieces.append(f"format({text}, {cg.const(spec)})")
        return "(" + " + ".join(pieces) + ")"


def format_value(tx, value, spec: str, conversion: str | None) -> Variable:
    """``f"{value:spec!conversion}"`` of a traced value: a ``FormattedStringVariable``,
    or the f-string's break where the glue could not make the same text."""
    if isinstance(value, FormattedStringVariable):
        return _format_again(value, spec, conversion)
    probe = probe_of(value)
    if probe is None or (spec and isinstance(probe, np.ndarray) and probe.ndim) or \
            not _formats_alike(probe, spec, conversion):
        # f"{float(loss):c}", f"{min(1.0, r)}": the deferred number's own break
        raise value.needed() if isinstance(value, DeferredNumberVariable) else \
            format_break(value)
    value, scalar = snapshot(tx, value)
    return FormattedStringVariable([(value, spec, conversion, scalar, probe)], value)


def snapshot(tx, value) -> tuple[Variable, bool]:
    """(what the glue formats, whether it reads it back as a NumPy scalar): an array's
    copy in the graph (a later in-place write must not change the text), a deferred
    number itself."""
    if not isinstance(value, ArrayVariable):
        return value, False
    if not value.meta.scalar:
        options = f"{_PRINT_OPTIONS.expr()}{_READ}"
        tx.output.guards.add(Guard(_PRINT_OPTIONS, EXPR, " and ".join(
            f"{options}.get({name!r}) is None" for name in _USER_CODE),
            note="no formatter or override_repr print option"))
    return tx.output.call_op(ops.get("copy"), [value], {}), value.meta.scalar


# An array's text (``str``, ``repr``, ``"%s"`` of an ndarray; not a NumPy scalar's,
# which is NumPy's own code whatever the options) runs the ``formatter`` and
# ``override_repr`` print options where they are set (``np.set_printoptions(
# formatter={"float": fn})``): the program's own code, with its effects and
# exceptions, which the glue would run after the program's later effects (and the
# trace-time probe once more). So such a text is the break it was while one is set,
# and guarded "neither is set" where it is deferred.
# (NumPy 2's context variable of the options, read in 0.1 us where
# ``np.get_printoptions()`` copies them in 3.6 us; the public call where it is absent)
try:
    _PRINT_OPTIONS, _READ = ModuleAttrSource(importlib.import_module(
        "numpy._core.printoptions"), "format_options"), ".get()"
    _PRINT_OPTIONS.read().get()
except (ImportError, AttributeError, KeyError):   # pragma: no cover (older NumPy)
    _PRINT_OPTIONS, _READ = ModuleAttrSource(np, "get_printoptions"), "()"
_USER_CODE = ("formatter", "override_repr")


def _user_formatter() -> bool:
    options = np.get_printoptions()
    return any(options.get(name) is not None for name in _USER_CODE)


def _format_again(value: FormattedStringVariable, spec: str, conversion: str | None):
    """A formatted piece formatted once more: 3.13 spells ``f"{x!r:>8}"`` as
    ``CONVERT_VALUE`` (``repr``) then ``FORMAT_WITH_SPEC`` (``>8``), and ``f"{x!r}"``
    as ``CONVERT_VALUE`` then ``FORMAT_SIMPLE`` (an empty spec: the text itself)."""
    if conversion == "s":   # str() of a text is the text ('%s' % t compiles to {t!s})
        conversion = None
    if not spec and conversion is None:
        return value
    part = value.parts[0] if len(value.parts) == 1 else None
    if conversion is None and not isinstance(part, str) and part is not None and \
            not part[1] and part[2] is not None and \
            _formats_alike(part[4], spec, part[2]):
        return FormattedStringVariable([(*part[:1], spec, *part[2:])], value.first)
    raise value.needed()


def join_parts(parts: list) -> Variable:
    """``BUILD_STRING``: constants joined while tracing, formatted pieces after."""
    if not any(isinstance(p, FormattedStringVariable) for p in parts):
        return ConstantVariable("".join(p.as_python_constant() for p in parts))
    out = []
    for p in parts:
        items = p.parts if isinstance(p, FormattedStringVariable) else \
            [p.as_python_constant()]
        for item in items:
            if isinstance(item, str) and out and isinstance(out[-1], str):
                out[-1] += item
            elif not (isinstance(item, str) and not item):
                out.append(item)
    first = next(p for p in parts if isinstance(p, FormattedStringVariable))
    return FormattedStringVariable(out, first.first)


def join_texts(sep: str, items: list) -> Variable | None:
    """``sep.join(items)`` of str constants and formatted texts (``"\\n".join(rows)``
    of rows made by ``"{:8.3f}".format(v)``): one formatted text, or None where an item
    is neither (Python's own TypeError, or a value: the old path)."""
    texts = [v for v in items if isinstance(v, FormattedStringVariable)]
    if not texts or not all(isinstance(v, FormattedStringVariable) or
                            (v.is_constant() and type(v.as_python_constant()) is str)
                            for v in items):
        return None
    parts = []
    for i, v in enumerate(items):
        if i and sep:
            parts.append(ConstantVariable(sep))
        parts.append(v)
    return join_parts(parts)


def concat_texts(name: str, a: Variable, b: Variable) -> Variable | None:
    """``a + b`` (``+=`` too) of two texts, one of them formatted after the graph
    (``f"{name}: " + ", ".join(parts)``, ``line += f" {v:.3f}"``): one formatted text,
    as ``str + str`` is the two texts one after the other. None for any other operator
    or operand (a number: Python's own TypeError, on the old path).

        >>> concat_texts("add", ConstantVariable("x: "), f_mean)   # "x: " + f"{m:.3f}"
        FormattedStringVariable(["x: ", (m, ".3f", None, True, 0.0)])
    """
    if name != "add" or not (isinstance(a, FormattedStringVariable) or
                             isinstance(b, FormattedStringVariable)):
        return None
    if not all(isinstance(v, FormattedStringVariable) or
               (v.is_constant() and type(v.as_python_constant()) is str) for v in (a, b)):
        return None
    return join_parts([a, b])
