"""Every graph break tells the user why and what to do (issue #19, "Messages").

The first tests read every ``Unsupported(...)`` raised in ``dynamo/`` with ``ast`` and
check that the hint table (``dynamo/hints.py``) gives each one a specific explanation
and hint, never the last-resort default. The others run real programs and read the
``graph_breaks`` log: reason, the user's file:line and source line, why, hint.
"""

import ast
import logging
import pathlib
import re

import numpy as np
import pytest

import dynamo
from dynamo import hints
from dynamo.exc import Unsupported
from dynamo.ops.breaks import KNOWN_BREAKS

ROOT = pathlib.Path(dynamo.__file__).parent
PLACEHOLDER = "a value"   # stands for each {...} of an f-string reason


def _text(node) -> str | None:
    """A reason's text, with PLACEHOLDER for each formatted part; None if not literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else PLACEHOLDER
                       for v in node.values)
    return None


def _sites():
    """(file:line, reason text or None, constant cause or None, has own hint) of every
    ``Unsupported(...)`` in dynamo/."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and (
                    getattr(node.func, "id", None) == "Unsupported"
                    or getattr(node.func, "attr", None) == "Unsupported")):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            reason = _text(node.args[0]) if node.args else None
            cause = kw.get("cause")
            cause = cause.value if isinstance(cause, ast.Constant) else None
            own_hint = len(node.args) > 2 or "hint" in kw
            out.append((f"{path.relative_to(ROOT)}:{node.lineno}", reason, cause, own_hint))
    return out


SITES = _sites()

# Raise sites whose reason is not written out at the site: (file, reason as scanned)
# -> the reasons they can give.
DYNAMIC = {
    # pyversion.UNSUPPORTED_REASON
    ("convert.py", None): ["CPython 3.99 is not supported yet (dynamo translates ...)"],
    # np.<path>() <why> of dynamo.ops.breaks.KNOWN_BREAKS
    ("variables/library_calls.py", f"{PLACEHOLDER}() {PLACEHOLDER}"):
        [f"np.{path}() {why}" for path, (_, why) in KNOWN_BREAKS.items()],
    # the builtins of variables.builtins._CAUSES
    ("variables/builtins.py", f"call to {PLACEHOLDER}()"): ["call to print()"],
}


def test_the_sites_are_found():
    """The scan is not vacuous: the translator raises Unsupported in ~200 places."""
    assert len(SITES) > 150
    assert sum(1 for _, reason, _, _ in SITES if reason is not None) > 150


@pytest.mark.parametrize("site,reason,cause,own_hint", SITES, ids=[s[0] for s in SITES])
def test_every_break_gets_a_specific_hint(site, reason, cause, own_hint):
    samples = DYNAMIC.get((site.rsplit(":", 1)[0], reason))
    if samples is None and (reason is None or not re.sub(re.escape(PLACEHOLDER), "",
                                                         reason).strip(" .():")):
        assert cause is not None and cause in hints.BY_CAUSE, \
            f"{site}: a reason with no literal text needs a cause in hints.BY_CAUSE"
        samples = ["SomeError: the program's own message"]
    samples = samples or [reason]
    for text in samples:
        advice = hints.advice_for(text, cause or "")
        assert advice is not hints.DEFAULT, f"{site}: no entry in dynamo/hints.py for {text!r}"
        assert advice.hint and advice.explanation
        e = Unsupported(text, cause=cause or "unsupported")
        assert e.hint == advice.hint and e.explanation == advice.explanation


def test_entries_are_specific():
    """No entry matches anything: each needs words of its reasons."""
    for entry in hints.TABLE:
        assert not re.search(entry.pattern, "zzz qqq"), entry.pattern
        assert len(entry.hint) > 15 and len(entry.explanation) > 15, entry


def test_many_different_hints_are_used():
    """The sites spread over the table; not one hint for all."""
    used = {hints.advice_for(reason, cause or "").hint
            for _, reason, cause, _ in SITES if reason is not None}
    assert len(used) > 60, len(used)


def test_own_hints_stay():
    e = Unsupported("call to print()", "its own why", "its own hint", cause="print")
    assert (e.explanation, e.hint) == ("its own why", "its own hint")
    e = Unsupported("raise statement", "its own why", cause="raise")
    assert e.explanation == "its own why" and "check inputs" in e.hint


def test_python_errors_use_the_cause():
    """A Python error's message is the program's: it is not matched against the table."""
    advice = hints.advice_for("AttributeError: 'A' object has no attribute 'sorted() of'",
                              "python_error")
    assert advice is hints.BY_CAUSE["python_error"]


# ------------------------------------------------------------------ the log of real programs

def logged(caplog, run) -> list[str]:
    dynamo.set_logs("graph_breaks")
    try:
        with caplog.at_level(logging.DEBUG, logger="dynamo.graph_breaks"):
            run()
    finally:
        dynamo.set_logs()
    return [r.getMessage() for r in caplog.records if r.name == "dynamo.graph_breaks"]


def prints_in_a_loop(x):
    for i in range(3):
        x = x + 1
        print("step", i)
    return x


def branches_on_data(x):
    if x.sum() > 0:
        return x + 1
    return (x - 1).astype(np.float32)   # (ways of two dtypes: no branch_select, a break)


def calls_an_unregistered_op(x):
    y = x * 2
    return np.ediff1d(y) + 1


def calls_an_untraceable_builtin(x):
    y = x + 1
    s = sorted([3, 1, 2], key=lambda v: -v)
    return y * s[0]


def is_a_generator(x):
    yield x * 2
    yield x + 1


def raises_on_bad_input(x):
    y = x * 2
    if y.shape[0] > 2:
        raise ValueError("too long")
    return y


def reads_a_missing_key(x, d):
    y = x * 2
    return y + d["missing"]


class _Params:
    def __init__(self, w):
        self.w = w


def reads_vars_of_an_object(x):
    p = _Params(x * 2)
    return {k: v for k, v in vars(p).items()}


def _expect_full_record(text: str, reason_part: str, line: str, hint_part: str):
    lines = text.splitlines()
    assert reason_part in lines[0], text
    assert re.search(r"^  at .*test_hints\.py:\d+ in \w+", lines[1]), text
    assert lines[2].strip() == line, text
    assert lines[3].startswith("  why: ") and len(lines[3]) > 20, text
    assert lines[4].startswith("  hint: ") and hint_part in lines[4], text


CASES = [
    (prints_in_a_loop, (np.ones(3),), "call to print()", 'print("step", i)', "move it out"),
    (branches_on_data, (np.ones(3),), "truth value of an array", "if x.sum() > 0:",
     "np.where"),
    (calls_an_untraceable_builtin, (np.ones(3),), "sorted()",
     "s = sorted([3, 1, 2], key=lambda v: -v)", "np.sort"),
    (raises_on_bad_input, (np.ones(3),), "raise statement", 'raise ValueError("too long")',
     "check inputs"),
    (reads_vars_of_an_object, (np.ones(3),), "call to vars()",
     "return {k: v for k, v in vars(p).items()}", "read the attributes by name"),
]


@pytest.mark.parametrize("fn,args,reason,line,hint", CASES, ids=[c[0].__name__ for c in CASES])
def test_log_of_a_break_has_reason_location_why_and_hint(caplog, fn, args, reason, line, hint):
    def run():
        try:
            dynamo.compile(fn, backend="eager")(*args)
        except ValueError:
            pass
    records = logged(caplog, run)
    assert records, "no break logged"
    _expect_full_record(records[0].split(": ", 1)[1], reason, line, hint)


def test_log_of_an_unregistered_op(caplog):
    records = logged(caplog, lambda: dynamo.compile(calls_an_unregistered_op,
                                                    backend="eager")(np.ones(3)))
    assert len(records) == 1
    _expect_full_record(records[0].split(": ", 1)[1], "ediff1d", "return np.ediff1d(y) + 1",
                        "dynamo.register_op")


def test_log_of_a_python_error(caplog):
    def run():
        with pytest.raises(KeyError):
            dynamo.compile(reads_a_missing_key, backend="eager")(np.ones(3), {})
    records = logged(caplog, run)
    _expect_full_record(records[0].split(": ", 1)[1], "missing", 'return y + d["missing"]',
                        "d.get(key, default)")


def test_log_of_a_generator_function(caplog):
    def run():
        gen = dynamo.compile(is_a_generator, backend="eager")(np.ones(3))
        assert [v.tolist() for v in gen] == [[2.0] * 3, [2.0] * 3]
    records = logged(caplog, run)
    assert records, "no break logged"
    text = records[0]
    assert "generators and coroutines are not compiled as frames" in text
    assert "  why: " in text and "  hint: compile the function that calls the generator" in text


def test_fullgraph_error_has_why_and_hint():
    with pytest.raises(dynamo.Unsupported) as info:
        dynamo.compile(calls_an_untraceable_builtin, fullgraph=True, backend="eager")(np.ones(3))
    text = str(info.value)
    assert "sorted()" in text and "test_hints.py" in text
    assert "  Why: " in text and "  Hint: sort arrays with np.sort" in text


def test_explain_has_the_hint():
    report = dynamo.explain(branches_on_data, backend="eager")(np.ones(3))
    br = report.break_reasons[0]
    assert "np.where" in br.hint and br.explanation
    assert "np.where" in str(report)
