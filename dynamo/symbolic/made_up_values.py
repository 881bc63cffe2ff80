"""Errors met at made-up values: an expression over a data-dependent size or number
(``len(x[x > 0])``, ``float(loss)``: an *unbacked* symbol, ``sizes.is_unbacked``) is
computed while tracing at a value the trace made up (4099, 4197...: see
``ShapeEnv.new_unbacked``), since no real one is known until the graph runs. Where
Python raises at that value (``4099 ** 200 * 0.5``: ``OverflowError``, the int is too
large for a float), the error says nothing about the program: for the real count (3)
eager raises nothing. So it must not be reported as the program's own error ("Python
raises this error here"), nor handed to the program's ``except``: it is a plain graph
break that says what happened, and the line runs in Python with the real values.

Example::

    >>> float_at_hint(SymInt(4001, Sym.symbol("u0", "u0")))           # fine
    4001.0
    >>> float_at_hint(SymInt(4001 ** 200, Sym.symbol("ui0", "ui0")))  # n ** 200
    Traceback (most recent call last):
    dynamo.exc.Unsupported: float() of a data-dependent value (ui0), too large to trace
    (OverflowError at the value used for tracing)
"""

from __future__ import annotations

from .sizes import _local, is_unbacked


def refuse_made_up(symbols, error: BaseException, what: str) -> None:
    """``error`` was raised computing ``what`` (an operator, ``float()``) at the hints of
    ``symbols``: if one of them is unbacked (its hint made up), raise a graph break
    that says so; otherwise return (the hints are this call's values, and the error is
    the program's own for them: the caller raises it)."""
    unbacked = sorted(s for s in symbols if is_unbacked(s))
    if not unbacked:
        return
    from ..exc import Unsupported  # (a leaf module: no cycle)

    trace = getattr(_local, "trace", None)
    names = getattr(trace, "unbacked", {})
    what_of = ", ".join(names.get(s, s) for s in unbacked)
    kind = type(error).__name__
    large = "too large to trace" if isinstance(error, OverflowError) else "not traceable"
    raise Unsupported(
        f"{what} of a data-dependent value ({what_of}), {large} ({kind} at the value "
        "used for tracing)",
        "The value is known only when the graph runs; the trace computed this line at "
        f"a made-up value, where Python raises {kind}. That says nothing about the "
        "program's own values, so the line runs in Python, with the real ones (it "
        "raises there only if Python does).",
        hint=_OVERFLOW_HINT if isinstance(error, OverflowError) else _SHAPE_HINT,
        cause="data_dependent_shape")


_OVERFLOW_HINT = ("accept this break (the code stays correct); to keep it in the graph, "
                  "compute with NumPy floats (np.power(np.float64(n), k)), where inf (with "
                  "NumPy's overflow warning) stands in for a number no float holds")
# Any other error: an op's rule refused the made-up value as a size or an argument
# (x.reshape(int(y.max()) + 1, -1), which fits some values only)
_SHAPE_HINT = ("the value is only known when the graph runs, and this op needs it while "
               "tracing (as a shape, an axis or a count): pass the number in as a Python "
               "int (n_classes), or accept the graph break (the code stays correct)")


def float_at_hint(value) -> float:
    """``float(int(value))`` of a symbolic int, Python's conversion (``OverflowError``
    past 1e308): at a made-up value, that error is a graph break (``refuse_made_up``)."""
    try:
        return float(int(value))
    except OverflowError as e:
        refuse_made_up(value.sym.symbols, e, "float()")
        raise


__all__ = ["float_at_hint", "refuse_made_up"]
