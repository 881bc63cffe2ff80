"""What users read has no internal names (issue #19): guards in words, no ``___``
parameters, no internal exception classes in break reasons."""

import contextlib
import io

import numpy as np

import dynamo


def _report(fn, *args):
    with contextlib.redirect_stdout(io.StringIO()):
        return dynamo.explain(fn, backend="eager")(*args)


def _guards_section(report) -> str:
    text = str(report)
    start = text.index("Guards:")
    return text[start:]


def counts_then_prints(x):
    for i in range(20):
        x = x + i
    # complex(): by the glue, carried over the print (a float: a changing number there)
    return complex(x.sum()), print(i), x


def test_builtin_guards_say_what_they_mean():
    guards = _guards_section(_report(counts_then_prints, np.ones(3)))
    assert "range is the builtin range\n" in guards
    assert "range is not shadowed by a global (the builtin range is used)" in guards
    assert "is not defined" not in guards and "builtins.range" not in guards


def test_values_carried_over_a_break_are_not_named_by_their_parameter():
    guards = _guards_section(_report(counts_then_prints, np.ones(3)))
    assert "___" not in guards, guards
    line = counts_then_prints.__code__.co_firstlineno + 4      # the print()'s
    assert f"value 1 of the 2 carried over the break at line {line} == (573+0j)" in guards, \
        guards


def test_a_recompile_names_a_carried_value_by_its_break():
    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(counts_then_prints,
                                backend="eager").calls([(np.ones(3),), (np.ones(3) * 2,)])
    (recompile,) = report.recompiles
    line = counts_then_prints.__code__.co_firstlineno + 4
    assert recompile.reasons[0].startswith(
        f"entry 0: value 1 of the 2 carried over the break at line {line}: expected "
        f"(573+0j), got (576+0j)"), recompile.reasons


def test_explain_prints_no_generated_name_anywhere():
    """The generated check functions stay out of the report (``check_sources`` has them):
    no ``___`` of generated code, no ``<value 0 carried ov...``."""
    report = _report(counts_then_prints, np.ones(3))
    text = str(report)
    assert "___" not in text and "<value" not in text, text
    assert any("def ___check_" in src for src in report.check_sources)


def test_a_data_dependent_size_break_says_why_in_words():
    def positive_sum(x):
        y = x[x > 0]
        if len(y) > 1:
            return y.sum()
        return "too few"   # (a str: a NumPy scalar or 0.0 is a choice the glue makes)
    (record,) = _report(positive_sum, np.arange(-2.0, 3.0)).break_reasons
    assert record.reason.startswith("a data-dependent size (the number of elements x[mask] "
                                     "selects, at test_messages.py:"), record.reason
    assert record.reason.endswith("used as a Python value: a comparison (u0 > 1)")
    assert "MetaError" not in str(record)
    assert record.explanation == ("That size is known only when the graph runs (it depends "
                                  "on array values); the trace can keep it in the graph but "
                                  "not read it.")
    # the line that needs the number, and what stays in the graph (size_values.py)
    assert "x.sum() / max(len(idx), 1)" in record.hint
    assert "if len(y) > 1:) needs the length as a number, and the " \
        "length is only known when the graph runs" in record.hint
