"""What users see at a graph break: fullgraph errors, the debug log, explain, tracebacks."""

import logging
import traceback
import warnings

import numpy as np
import pytest
from harness import rand

import dynamo
from dynamo import source


def logged(caplog, channel: str, run) -> list[str]:
    """The messages of log ``channel`` while ``run()`` runs, with the channel on."""
    dynamo.set_logs(channel)
    try:
        with caplog.at_level(logging.DEBUG, logger=f"dynamo.{channel}"):
            run()
    finally:
        dynamo.set_logs()
    return [r.getMessage() for r in caplog.records if r.name == f"dynamo.{channel}"]


def prints_between(x):
    y = x * 2
    print("between")
    return np.exp(y)


def test_fullgraph_raises_with_location_and_hint():
    c = dynamo.compile(prints_between, fullgraph=True, backend="eager")
    with pytest.raises(dynamo.Unsupported) as info:
        c(rand(3))
    text = str(info.value)
    assert "call to print()" in text
    assert "test_user_facing.py" in text and 'print("between")' in text
    assert "Hint:" in text


def test_fullgraph_error_shows_the_users_frames_not_the_translators():
    c = dynamo.compile(prints_between, fullgraph=True, backend="eager")
    with pytest.raises(dynamo.Unsupported) as info:
        c(rand(3))
    frames = traceback.extract_tb(info.tb)
    # the test's call, then the function at its unsupported line: nothing of dynamo's
    assert [f.filename for f in frames] == [__file__, __file__], frames
    assert frames[-1].name == "prints_between" and frames[-1].line == 'print("between")'


def test_fullgraph_error_points_at_the_call_of_the_helper_that_breaks():
    c = dynamo.compile(calls_a_printing_helper, fullgraph=True, backend="eager")
    with pytest.raises(dynamo.Unsupported) as info:
        c(rand(3))
    frames = traceback.extract_tb(info.tb)
    assert [f.filename for f in frames] == [__file__, __file__], frames
    assert frames[-1].name == "calls_a_printing_helper" and frames[-1].line == "y = _middle(x)"


def test_verbose_keeps_dynamos_frames_for_debugging(monkeypatch):
    monkeypatch.setattr(dynamo.config, "verbose", True)
    c = dynamo.compile(prints_between, fullgraph=True, backend="eager")
    with pytest.raises(dynamo.Unsupported) as info:
        c(rand(3))
    files = [frame.filename for frame in traceback.extract_tb(info.tb)]
    assert any(f.endswith("convert.py") for f in files), files


def _failing_backend(graph, example_inputs):
    raise RuntimeError("this backend cannot compile")


def test_a_backend_error_shows_the_users_frames():
    """The BackendError and the backend's own error it chains to: no frame of dynamo's."""
    c = dynamo.compile(lambda x: np.exp(x) + 1, backend=_failing_backend)
    with pytest.raises(dynamo.BackendError) as info:
        c(rand(3))
    files = [f.filename for f in traceback.extract_tb(info.tb)]
    assert files == [__file__, __file__], files
    cause = info.value.__cause__
    assert isinstance(cause, RuntimeError)
    (frame,) = traceback.extract_tb(cause.__traceback__)
    assert frame.name == "_failing_backend"


def test_fullgraph_must_be_a_bool():
    with pytest.raises(TypeError, match="fullgraph must be True or False, got 'yes'"):
        dynamo.compile(prints_between, fullgraph="yes", backend="eager")


def test_fullgraph_passes_when_one_graph():
    c = dynamo.compile(lambda x: np.exp(x) + 1, fullgraph=True, backend="eager")
    x = rand(3)
    assert np.array_equal(c(x), np.exp(x) + 1)


def test_graph_break_log_record(caplog):
    records = logged(caplog, "graph_breaks", lambda: dynamo.compile(prints_between,
                                                                    backend="eager")(rand(3)))
    assert len(records) == 1
    lines = records[0].splitlines()
    assert lines[0] == "graph break: call to print()"
    assert lines[1].startswith("  at ") and lines[1].endswith(" in prints_between")
    assert "test_user_facing.py:" in lines[1]
    assert lines[2].strip() == 'print("between")'
    assert lines[3].startswith("  why: print() writes output")
    assert lines[4].startswith("  hint: it runs eagerly at a graph break")


def test_repeated_break_is_summarised(caplog):
    def loop_body(x):
        y = x + 1
        print("tick")
        return y

    dynamo.set_logs("graph_breaks")
    try:
        with caplog.at_level(logging.DEBUG, logger="dynamo.graph_breaks"):
            c = dynamo.compile(loop_body, backend="eager")
            c(rand(3))
            dynamo.reset()
            c(rand(3))
    finally:
        dynamo.set_logs()
    records = [r.getMessage() for r in caplog.records if r.name == "dynamo.graph_breaks"]
    assert records[0].startswith("graph break: call to print()")
    assert records[1].startswith("graph break again (2 times): call to print()")


def _inner_prints(x):
    print("inner")
    return x * 2


def _middle(x):
    return _inner_prints(x) + 1


def calls_a_printing_helper(x):
    y = _middle(x)
    return y - 1


def test_a_break_in_a_helper_is_reported_once(caplog):
    """The caller breaks at the call, then the middle frame, then the helper's own
    compile, all at the print: one break for the user, logged once."""
    records = logged(caplog, "graph_breaks",
                     lambda: dynamo.compile(calls_a_printing_helper, backend="eager")(rand(3)))
    assert len(records) == 1, records
    assert records[0].startswith("graph break: call to print()")


def test_explain_lists_a_break_in_a_helper_once():
    """explain keeps a record per frame the helper's break ends a graph in (three), and
    lists the break once, at the helper's line, naming those frames."""
    report = dynamo.explain(calls_a_printing_helper, backend="eager")(rand(3))
    assert report.graph_break_count == 3
    assert len(report.break_sites) == 1
    record, frames = report.break_sites[0]
    assert record.reason == "call to print()" and len(frames) == 3
    text = str(report)
    assert "Graph breaks: 3 (at 1 place)" in text
    assert text.count("call to print()") == 1, text
    mid, top = (_middle.__code__.co_firstlineno + 1,
                calls_a_printing_helper.__code__.co_firstlineno + 1)
    assert f"in {frames[-1]} (called from _middle at line {mid}, from " \
        f"calls_a_printing_helper at line {top}), ending the graphs of {frames[0]}, " \
        f"{frames[1]} and {frames[2]}" in text


def test_the_break_log_names_the_helper_whose_line_it_is(caplog):
    """A print() in a helper is logged at the helper's line *in the helper*, with the
    calls that led there, not in the compiled (outer) frame (issue #19)."""
    def helper(x):
        print("in helper")
        return x * 2

    def outer(x):
        y = x + 1
        z = helper(y)
        return z - 1

    line = outer.__code__.co_firstlineno
    records = logged(caplog, "graph_breaks", lambda: dynamo.compile(outer,
                                                                    backend="eager")(rand(3)))
    where = records[0].splitlines()[1]
    assert where.endswith(f":{line - 3} in {helper.__qualname__} (called from "
                          f"{outer.__qualname__} at line {line + 2})"), where


def test_fullgraph_names_the_helper_and_its_callers():
    c = dynamo.compile(calls_a_printing_helper, fullgraph=True, backend="eager")
    with pytest.raises(dynamo.Unsupported) as info:
        c(rand(3))
    text = str(info.value)
    line, mid, top = (f.__code__.co_firstlineno + 1
                      for f in (_inner_prints, _middle, calls_a_printing_helper))
    assert f'test_user_facing.py", line {line}, in _inner_prints\n' in text, text
    assert f"(called from _middle at line {mid}, from calls_a_printing_helper at line " \
        f"{top})" in text, text


def test_graph_and_bytecode_channels(caplog):
    dynamo.set_logs("graph", "bytecode", "+guards")
    try:
        with caplog.at_level(logging.DEBUG, logger="dynamo"):
            dynamo.compile(prints_between, backend="eager")(rand(3))
    finally:
        dynamo.set_logs()
    by_channel = {}
    for r in caplog.records:
        by_channel.setdefault(r.name, []).append(r.getMessage())
    graphs = "\n".join(by_channel["dynamo.graph"])
    assert "ops.multiply(x, 2)" in graphs and "ops.exp(y)" in graphs
    code = "\n".join(by_channel["dynamo.bytecode"])
    assert "original bytecode of prints_between" in code
    assert "rewritten bytecode of prints_between" in code
    assert "resume function prints_between_resume_at_L" in code
    guards = "\n".join(by_channel["dynamo.guards"])
    assert "guards of prints_between (x):\n" in guards and "  x.shape == (3,)\n" in guards
    # +guards: the generated check function too, on its own logger
    assert "def ___check_" in "\n".join(by_channel["dynamo.guards.code"])


def test_unknown_channel_is_an_error():
    with pytest.raises(ValueError, match="unknown log channel"):
        dynamo.set_logs("nope")


def test_explain_report_text():
    report = dynamo.explain(prints_between, backend="eager")(rand(3))
    text = str(report)
    assert report.graph_count == 2 and report.graph_break_count == 1
    assert report.ops_per_graph == [1, 1]
    br = report.break_reasons[0]
    assert br.reason == "call to print()" and br.lineno is not None
    assert br.source_line == 'print("between")' and br.filename.endswith("test_user_facing.py")
    assert "Graphs: 2" in text and "Graph breaks: 1" in text
    assert "1. call to print()" in text and "ops.exp(y)" in text
    assert report.compile_time > 0 and report.guards


def raises_after_break(x):
    y = x * 2
    print("about to fail")
    return y @ np.ones((5, 5), np.float32)     # shape mismatch: (3,) @ (5, 5)


def test_traceback_points_at_user_line():
    c = dynamo.compile(raises_after_break, backend="eager")
    with pytest.raises(ValueError) as info:
        c(rand(3))
    frames = [fr for fr in traceback.extract_tb(info.tb) if fr.filename == __file__]
    last = frames[-1]
    assert last.name.startswith("raises_after_break")   # the function or its resume function
    assert last.line.startswith("return y @ np.ones((5, 5), np.float32)")


def test_exception_same_as_eager():
    with pytest.raises(ValueError) as eager:
        raises_after_break(rand(3))
    with pytest.raises(ValueError) as compiled:
        dynamo.compile(raises_after_break, backend="eager")(rand(3))
    assert str(eager.value) == str(compiled.value)


def test_messages_name_a_resume_function_by_where_it_resumes(caplog, monkeypatch):
    """No internal name (``f_resume_at_L6``) in what the user reads."""
    monkeypatch.setattr(dynamo.config, "automatic_dynamic", False)

    def run():
        c = dynamo.compile(prints_between, backend="eager")
        c(rand(3))
        c(rand(4))
    text = "\n".join(logged(caplog, "recompiles", run))
    assert "prints_between, after the break at line" in text
    assert "_resume_at_L" not in text


_helper_of_guarded = np.tanh


def _scaled(x):
    return x * 2


def guarded(x, n):
    y = _scaled(x) + n
    print("between")
    return _helper_of_guarded(y) + 1


def test_the_guards_log_shows_the_values_a_guard_expects(caplog):
    """One readable list per entry, the values inline, in the program's names; a value a
    break carried over named by the break; no generated name (issue #19)."""
    text = "\n".join(logged(caplog, "guards",
                            lambda: dynamo.compile(guarded, backend="eager")(np.ones(3), 3)))
    assert "___" not in text, text
    first, second = text.split("\nguards of ")
    lines = first.splitlines()
    assert lines[0] == "guards of guarded (x, n):"
    for line in ("type(x) is numpy.ndarray", "x.shape == (3,)", "x.dtype == float64",
                 "n == 3", f"_scaled (global) is {_scaled!r}"):
        assert f"  {line}" in lines, (line, lines)
    assert len(lines) == len(set(lines)), lines         # each fact once
    line = guarded.__code__.co_firstlineno + 2
    assert second.startswith(f"guarded, after the break at line {line} (y):"), second
    assert "  type(y) is numpy.ndarray" in second.splitlines()
    assert f"  the value carried over the break at line {line} == None" in second


def test_the_guards_log_has_the_check_function_only_on_request(caplog):
    def f(x):
        return np.tanh(x) + 1

    dynamo.set_logs("+guards")
    try:
        with caplog.at_level(logging.DEBUG, logger="dynamo"):
            dynamo.compile(f, backend="eager")(np.ones(2))
            dynamo.set_logs("guards")
            dynamo.compile(lambda x: x + 1, backend="eager")(np.ones(2))
    finally:
        dynamo.set_logs()
    (code,) = [r.getMessage() for r in caplog.records if r.name == "dynamo.guards.code"]
    assert "x.shape == ___c" in code and "# where ___c" in code and "= (2,)" in code


def test_an_array_is_type_checked_once():
    """A TYPE guard and the ARRAY guard of one source were both rendered
    (``type(x) is ___c2 and type(x) is ___c3``): the ARRAY guard's is enough."""
    report = dynamo.explain(guarded, backend="eager")(np.ones(3), 3)
    (check, _) = report.check_sources
    assert check.count("type(x) is ") == 1, check


# ------------------------------------------------------------------ warnings at the user's line

def _warnings(fn, *args) -> list[tuple]:
    """What ``fn(*args)`` warns: (category, message, file, line) of each warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args)
    return [(w.category, str(w.message), w.filename, w.lineno) for w in caught]


def logs_of_zero(x):
    y = x * 2
    z = np.log(y - 2)
    return z + 1


def _sqrt_helper(v):
    return np.sqrt(v) * 3


def warns_in_a_helper(x):
    y = x - 1
    return _sqrt_helper(y) + 1


def fused_chain(x):
    a = x * 2 - 3
    b = np.sqrt(a) + 1
    return b * b - a


def _warns(x):
    warnings.warn("deprecated input", DeprecationWarning, stacklevel=1)
    return x


def calls_a_warning_helper(x):
    y = x * 2
    z = _warns(y)
    return z + 1


def writes_a_root(x, out):
    out[...] = np.sqrt(x * 2 - 3) + 1
    return out


WARNING_CASES = [
    (logs_of_zero, lambda: (np.array([0.0, 1.0, 2.0]),)),
    (warns_in_a_helper, lambda: (np.array([-1.0, 0.0, 4.0]),)),
    # block-wise, then its rerun: the graph again, op by op
    (fused_chain, lambda: (np.linspace(-1.0, 1.0, 300_000),)),
    # block-wise with an input in another layout: the group's op-by-op code
    (fused_chain, lambda: (np.linspace(-1.0, 1.0, 300_000).reshape(600, 500).T,)),
    # a graph with a write: its guarded stretch runs again op by op
    (writes_a_root, lambda: (np.linspace(-1.0, 1.0, 300_000), np.empty(300_000))),
    (calls_a_warning_helper, lambda: (np.ones(3),)),
]


@pytest.mark.parametrize("backend", ["eager", "numpy"])
@pytest.mark.parametrize("fn,make", WARNING_CASES,
                         ids=[f"{c[0].__name__}{i}" for i, c in enumerate(WARNING_CASES)])
def test_warnings_point_at_the_users_line(backend, fn, make):
    """A warning raised inside a graph names the program's file and line, as eager's."""
    eager = _warnings(fn, *make())
    assert eager and all(w[2] == __file__ for w in eager), eager
    compiled = dynamo.compile(fn, backend=backend)
    assert _warnings(compiled, *make()) == eager
    assert _warnings(compiled, *make()) == eager     # and from the cached code


def test_warning_line_of_a_graph_frame_reads_the_users_source():
    """The graph's own frame carries the program's location (tracebacks, warnings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning) as info:
            dynamo.compile(logs_of_zero, backend="eager")(np.array([0.0, 1.0]))
    last = traceback.extract_tb(info.tb)[-1]
    assert last.filename == __file__ and last.line == "z = np.log(y - 2)"


def test_generated_code_gets_the_programs_lines():
    """The line table written for a graph's code (dynamo.source) reads back as the
    program's lines, jumping back and forth, with the program's filename."""
    src = ("def f(x):\n    # /p/app.py:12\n    y = x + 1\n    # /p/app.py:400\n"
           "    z = y * 2\n    # /p/app.py:3\n    return z\n")
    scope = {}
    source.compile_source(src, "<dynamo test lines>", scope, user_lines=True)
    code = scope.pop("f").__code__
    assert code.co_filename == "/p/app.py" and code.co_firstlineno == 12
    lines = [line for _, _, line in code.co_lines() if line is not None]
    assert lines[0] == 12 and set(lines) == {12, 400, 3}
    assert lines.index(400) < lines.index(3)


def test_code_of_several_files_keeps_its_generated_name():
    src = "def f(x):\n    # /p/a.py:1\n    y = x + 1\n    # /p/b.py:2\n    return y\n"
    scope = {}
    name = source.compile_source(src, "<dynamo test two files>", scope, user_lines=True)
    assert scope.pop("f").__code__.co_filename == name


def _dynamo_frames(tb) -> list[str]:
    return [f"{f.filename}:{f.name}" for f in traceback.extract_tb(tb)
            if f.filename != __file__]


@pytest.mark.parametrize("make", [
    lambda: dynamo.compile(prints_between, backend="numpi"),
    lambda: dynamo.compile(prints_between, options={"thread": 0}, backend="eager"),
    lambda: setattr(dynamo.config, "cache_size_limit", -1),
    lambda: setattr(dynamo.config, "cache_size_limt", 8),
], ids=["backend", "options", "config-value", "config-name"])
def test_an_option_error_shows_one_frame_of_dynamos(make):
    """A mistake in the program's options is raised from the function it called
    (compile(), the config's assignment), not from the registry's lookup below it."""
    with pytest.raises((ValueError, AttributeError)) as info:
        make()
    frames = _dynamo_frames(info.tb)
    assert len(frames) == 1 and frames[0].split(":")[-1] in ("compile", "__setattr__"), \
        frames
