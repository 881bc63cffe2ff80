"""f-strings of traced values are made by the glue after the graph (issue #19,
kernels_corpus5.py ``dominant_frequency`` and ``report_stats``): returned or stored they
need no break and give eager's text; a use that needs the text while tracing breaks
there, as the f-string did before (cause ``format``)."""

# ruff: noqa: UP030, UP031, UP032   (str.format and % are the forms under test)
from __future__ import annotations

import numpy as np
import pytest
from harness import check

import dynamo

X = np.array([1.25, -2.5, 3.125, 0.1])
INTS = np.array([3, 1, 4, 1, 5], dtype=np.int32)


def stats_line(x):
    return f"n={x.size} mean={x.mean():.3f} std={x.std():.2e} max={x.max()}"


def peak(x):
    k = np.argmax(x)
    return x[k], f"peak {k} at {x[k]:>8.2f}"


def conversions(x):
    m = x.mean()
    return f"{m!r} {m!s} {m!a} {m!r:>30}", {"line": f"{x.sum()}"}


def whole_array(x, i):
    return f"x={x} i={i}, {i.sum():d} {i.max():+05d}"


def snapshot_before_write(x):
    s = f"{x[0]:.2f}"
    x[0] = 99.0
    return s, x * 2


def deferred_numbers(x):
    loss = float((x ** 2).mean())
    return f"loss={loss:.4f} ok={np.allclose(x, x)} item={x.sum().item()}"


def zero_d_and_float32(x):
    a = np.asarray(x.sum())                   # a 0-d array, not a scalar
    b = x.astype(np.float32).mean()
    return f"{a} {a:.1f} {b} {b!r} {np.float32(0.1) * b}"


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,args", [
    (stats_line, (X,)), (peak, (X,)), (conversions, (X,)), (whole_array, (X, INTS)),
    (snapshot_before_write, (X,)), (deferred_numbers, (X,)), (zero_d_and_float32, (X,)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_formatted_after_the_graph(fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend)


def printed(x):
    s = f"mean={x.mean():.3f}"
    print(s)
    return x + 1


def concatenated(x):
    s = f"{x.mean():.3f}" + "!"
    return s, len(s), x * 2


def bad_spec(x):
    return f"{x.mean():d}"          # ValueError: float has no 'd' presentation


def char_spec(i):
    return f"{i.sum():c}"           # value-dependent OverflowError: never deferred


def stored_and_compared(x):
    s = f"{x.max():.1f}"
    return s == "3.1", x - 1


@pytest.mark.parametrize("fn,args,cause", [
    (printed, (X,), "print"), (concatenated, (X,), "format"), (bad_spec, (X,), "format"),
    (char_spec, (INTS,), "format"), (stored_and_compared, (X,), "format"),
], ids=lambda v: getattr(v, "__name__", ""))
def test_text_needed_while_tracing_breaks(fn, args, cause):
    check(fn, *args)                                  # results (or errors) equal eager's
    report = dynamo.explain(fn, backend="eager")(*args)
    assert report.graph_break_count >= 1
    assert report.break_reasons[0].cause == cause


def chosen_in_fstring(x):
    r = min(1.0, x.max())           # a Python float or an np.float64: the data decides
    return f"{r}", x * 2


def test_a_number_whose_type_is_data_keeps_its_own_break():
    check(chosen_in_fstring, X)
    report = dynamo.explain(chosen_in_fstring, backend="eager")(X)
    assert report.graph_break_count == 1
    assert "min()" in report.break_reasons[0].reason


# ------------------------------------------------------- str.format, %, and str.join

def format_method_rows(names, x):
    rows = []
    for name, v in zip(names, x):
        rows.append("{:<6s} {:8.3f} {}".format(name, v, 7))
    return "\n".join(rows), "{a} / {b!r:>20}".format(a=x.max(), b=x.min())


def percent_forms(x, i):
    return ("%.3e" % np.linalg.norm(x), "%s and %5.2f" % (x.sum(), x[0]),
            "%d items, %x max" % (i.size, i.max()), "%r" % x.mean())


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,args", [
    (format_method_rows, (["a", "bb", "ccc", "d"], X)), (percent_forms, (X, INTS)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_format_calls_after_the_graph(fn, args, backend):
    check(fn, *args, graphs=1, breaks=0, backend=backend)


def percent_int_of_float(x):
    return "%d" % x.max()           # int() of a float: raises for NaN and inf


def format_char(i):
    return "{:c}".format(i.max())   # raises for large integers


def format_attribute(x):
    return "{0.real}".format(x.max())


def percent_star(x):
    return "%*.2f" % (8, x.max())


def joined_with_a_number(x):
    return ",".join([f"{x.max()}", 3])   # Python's own TypeError


@pytest.mark.parametrize("fn,args", [
    (percent_int_of_float, (X,)), (format_char, (INTS,)), (format_attribute, (X,)),
    (percent_star, (X,)), (joined_with_a_number, (X,)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_format_calls_that_may_raise_stay_breaks(fn, args):
    check(fn, *args)                # results (or errors) equal eager's
    assert dynamo.explain(fn, backend="eager")(*args).graph_break_count >= 1


def test_nan_with_an_integer_conversion_raises_as_eagerly():
    y = np.array([np.nan, 1.0])
    check(percent_int_of_float, y)


def texts_of_texts(x):
    parts = [f"{v:.2f}" for v in x]
    return "%s|%s" % (parts[0], x[1]), "[{}]".format(parts[-1]), f"<{parts[1]}>"


@pytest.mark.parametrize("backend", ["eager", "numpy"])
def test_formatted_texts_inside_other_formats(backend):
    check(texts_of_texts, X, graphs=1, breaks=0, backend=backend)
