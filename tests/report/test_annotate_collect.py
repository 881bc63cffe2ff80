"""The data behind the report: which lines were captured, broke, or ran as Python.

Every test compares the report with ``dynamo.explain``'s records for the same program
(graphs, ops and break lines), so a translator that captures more or less still has to
be shown faithfully; the facts no correct translator can change (a ``print`` breaks,
an untaken branch does not run) are asserted directly.
"""

from __future__ import annotations

import logging
import sys

import annotate_programs as P
import numpy as np
import pytest
from annotate_programs import X, line_of

import dynamo
from dynamo import annotate
from dynamo.report.model import BREAK, GRAPH, IDLE, PYTHON, TRACED


def run(fn, *args, tmp_path, backend="eager", **kw):
    ann = annotate(fn, output=tmp_path / "r.html", backend=backend, **kw)
    result = ann(*args)
    assert (tmp_path / "r.html").is_file()
    return ann, ann.report, result


def status(report, fn, text):
    return report.view_of(fn).line(line_of(fn, text)).status


def op_lines(records) -> dict[tuple[str, int], set[int]]:
    """(file, line) -> graph indices holding an op traced there, from explain's records."""
    out: dict = {}
    graphs = [r.graph for r in records if r.graph is not None]
    for k, g in enumerate(graphs):
        for n in g.call_nodes():
            f, _, line = n.meta["loc"].rpartition(":")
            out.setdefault((f, int(line)), set()).add(k)
    return out


def check_against_explain(report, fn, args, capsys=None):
    """The report shows exactly what dynamo.explain records for one call."""
    ex = dynamo.explain(fn, backend="eager")(*args)
    assert len(report.graphs) == ex.graph_count
    assert [g.op_count for g in report.graphs] == ex.ops_per_graph
    assert [(b.filename, b.lineno, b.reason) for b in report.breaks] == \
        [(b.filename, b.lineno, b.reason) for b in ex.break_reasons]
    expected = op_lines(ex.records)
    for view in report.views:
        for ln in view.lines:
            want = expected.get((view.filename, ln.lineno), set())
            assert set(ln.graphs) == want, (view.qualname, ln.lineno, ln.text)
            if want:
                assert ln.status in (GRAPH, BREAK)
    for b in report.breaks:
        assert report.views[b.view].line(b.lineno).status == BREAK
    return ex


def test_print_between_array_ops(tmp_path, capsys):
    ann, r, out = run(P.print_between, X, tmp_path=tmp_path)
    assert capsys.readouterr().out == "between graphs\n"
    np.testing.assert_array_equal(out, P.print_between(X))
    check_against_explain(r, P.print_between, (X,))
    assert status(r, P.print_between, 'print("between') == BREAK
    first = r.view_of(P.print_between).line(line_of(P.print_between, "np.exp(x)"))
    after = r.view_of(P.print_between).line(line_of(P.print_between, "z = y * 2"))
    assert first.status == after.status == GRAPH
    # before the break: the function's own graph; after it: a resume function's graph
    assert r.frames[r.graphs[min(first.graphs)].frame].qualname == "print_between"
    assert "_resume_at_L" in r.frames[r.graphs[min(after.graphs)].frame].qualname
    assert status(r, P.print_between, "def print_between") == IDLE
    b = r.breaks[0]
    assert (b.cause, b.kind, b.lineno) == ("print", "break",
                                           line_of(P.print_between, 'print("between'))
    assert b.explanation and b.hint


def test_data_dependent_if(tmp_path):
    ann, r, _ = run(P.data_if, X + 1, tmp_path=tmp_path)   # the sum is positive
    check_against_explain(r, P.data_if, (X + 1,))
    assert status(r, P.data_if, "if y.sum() > 0") == BREAK
    assert status(r, P.data_if, "y = y + 1") in (GRAPH, PYTHON)   # taken
    assert status(r, P.data_if, "y = y - 1") == IDLE              # not taken
    assert status(r, P.data_if, "else:") == IDLE
    assert r.breaks[0].cause == "data_dependent"


def test_data_dependent_if_other_branch(tmp_path):
    ann, r, _ = run(P.data_if, X - 1, tmp_path=tmp_path)
    assert status(r, P.data_if, "y = y + 1") == IDLE
    assert status(r, P.data_if, "y = y - 1") in (GRAPH, PYTHON)


def test_float_of_array(tmp_path):
    ann, r, out = run(P.float_conv, X, tmp_path=tmp_path)
    np.testing.assert_array_equal(out, P.float_conv(X))
    check_against_explain(r, P.float_conv, (X,))
    # float() of the sum is read by the graph; the break comes where Python reads the
    # number (s ** 2), with the conversion's cause
    assert status(r, P.float_conv, "float(y.sum())") == GRAPH
    assert status(r, P.float_conv, "return y * s ** 2") == BREAK
    assert r.breaks[0].cause == "array_to_python"


def test_loop_with_print(tmp_path, capsys):
    ann, r, out = run(P.loop_print, X, tmp_path=tmp_path)
    assert capsys.readouterr().out == "step 0\nstep 1\nstep 2\n"
    ex = check_against_explain(r, P.loop_print, (X,))
    capsys.readouterr()
    assert status(r, P.loop_print, 'print("step"') == BREAK
    ops = op_lines(ex.records)
    for text in ("x = x + i", "return x * 2"):
        lineno = line_of(P.loop_print, text)
        want = GRAPH if (P.loop_print.__code__.co_filename, lineno) in ops else PYTHON
        assert status(r, P.loop_print, text) == want, text
    assert status(r, P.loop_print, "for i in range(3)") != IDLE
    for b in r.breaks:
        if b.kind == "island":   # the loop runs eagerly: the break lands on the loop
            assert b.site == line_of(P.loop_print, "for i in range(3)")


def test_helper_that_breaks(tmp_path, capsys):
    ann, r, out = run(P.helper_break, X, tmp_path=tmp_path)
    np.testing.assert_array_equal(out, P.helper_break(X))
    check_against_explain(r, P.helper_break, (X,))
    assert status(r, P.helper, 'print("in helper")') == BREAK
    # the caller's line is marked too: the call runs eagerly because the callee breaks
    call_site = r.view_of(P.helper_break).line(line_of(P.helper_break, "z = helper(y)"))
    assert call_site.status == BREAK
    assert any(r.breaks[i].lineno == line_of(P.helper, 'print("in helper")')
               for i in call_site.breaks + call_site.break_sites)
    assert status(r, P.helper, "return y + 1") == GRAPH
    assert status(r, P.helper_break, "np.cos(z)") == GRAPH
    # the break is in the helper, whichever frame's graph it ended (issue #19)
    call = line_of(P.helper_break, "z = helper(y)")
    assert {b.function for b in r.breaks} >= {f"helper (called from helper_break at line "
                                              f"{call})"}, [b.function for b in r.breaks]
    page = (tmp_path / "r.html").read_text()
    assert f"in helper (called from helper_break at line {call})" in page
    printed = line_of(P.helper, 'print("in helper")')
    assert f":{printed} in helper_break<" not in page


def test_no_break_lines_traced_away(tmp_path):
    ann, r, _ = run(P.no_break, X, tmp_path=tmp_path)
    check_against_explain(r, P.no_break, (X,))
    assert not r.breaks and len(r.graphs) == 1
    assert status(r, P.no_break, "n = x.shape[0]") == TRACED
    assert status(r, P.no_break, "np.exp(x) * n") == GRAPH
    assert not any(ln.python for v in r.views for ln in v.lines)
    g = r.graphs[0]
    assert [(n.source, n.shape, n.dtype) for n in g.inputs] == [("L['x']", (3, 4), "float64")]
    assert "x.shape == (3, 4)" in r.frames[g.frame].guards    # in words, values inline
    assert g.ends == "return" and not g.fused
    assert len(g.groups) == g.op_count       # eager: one library call per op


def test_callable_object(tmp_path, capsys):
    model = P.Scale(3.0)
    ann, r, out = run(model, X, tmp_path=tmp_path)
    np.testing.assert_array_equal(out, X * 3.0 + 1)
    view = r.view_of(P.Scale.__call__)
    assert view.qualname == "Scale.__call__"
    assert status(r, P.Scale.__call__, 'print("scaled")') == BREAK
    assert status(r, P.Scale.__call__, "x * self.k") == GRAPH
    assert ann.k == 3.0           # stands in for the object in a script


def test_recompile_names_the_failed_guard(tmp_path):
    ann = annotate(P.no_break, output=tmp_path / "r.html", calls=2, backend="eager")
    ann(X)
    ann(np.ones((4, 4)))
    ann(np.ones((5, 4)))          # past `calls`: runs compiled, not recorded
    r = ann.report
    assert len(r.calls) == 2
    assert len(r.recompiles) == 1
    rc = r.recompiles[0]
    assert rc.call == 1 and rc.qualname == "no_break"
    assert rc.failures == ["x shape[0]: expected 3, got 4"]   # (the program's names)
    made = [f for f in r.frames if f.recompile == 0]
    assert len(made) == 1 and made[0].graph == 1
    assert set(r.view_of(P.no_break).line(line_of(P.no_break, "np.exp(x)")).graphs) == {0, 1}


def test_cache_limit_is_a_recompile_that_runs_eagerly(tmp_path, caplog, monkeypatch):
    monkeypatch.setattr(dynamo.config, "cache_size_limit", 1)
    ann = annotate(P.no_break, output=tmp_path / "r.html", calls=2, backend="eager")
    ann(X)
    ann(np.ones((4, 4)))
    [rc] = ann.report.recompiles
    assert rc.level == "WARNING" and rc.qualname == "no_break"
    assert rc.failures == ["x shape[0]: expected 3, got 4"]   # (the program's names)
    # the warning still reaches the application's logging, as without the annotator
    assert any("cache_size_limit" in r.getMessage() for r in caplog.records)
    assert "cache limit reached: runs eagerly" in (tmp_path / "r.html").read_text()
    assert status(ann.report, P.no_break, "np.exp(x) * n") == GRAPH   # the first call's


def test_exception_reaches_the_caller_and_the_report(tmp_path, capsys):
    ann = annotate(P.raises, output=tmp_path / "r.html", backend="eager")
    with pytest.raises(ValueError) as info:
        ann(X)
    with pytest.raises(ValueError) as eager:
        P.raises(X)
    assert str(info.value) == str(eager.value)
    r = ann.report
    assert r.calls[0].error.startswith("ValueError")
    assert status(r, P.raises, 'print("about to fail")') == BREAK
    assert (tmp_path / "r.html").read_text().count("ValueError") >= 1


def test_measure_times_eager_and_compiled(tmp_path):
    ann, r, _ = run(P.no_break, X, tmp_path=tmp_path, measure=10)
    t = r.timing
    assert t is not None and t.calls == 10
    assert t.eager > 0 and t.compiled > 0 and t.speedup == t.eager / t.compiled


def softmax_cube(x, w):
    h = np.tanh(x @ w) * 2 + 1
    e = np.exp(h - h.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True), x ** 3


def compiled_by(backend_name, fn, *args) -> list:
    """What the backend itself compiles for each graph of ``fn`` (via dynamo.explain)."""
    from dynamo.backends import lookup_backend
    backend, out = lookup_backend(backend_name), []

    def watching(graph, example_inputs):
        out.append(backend(graph, example_inputs))
        return out[-1]
    dynamo.explain(fn, backend=watching)(*args)
    return out


def test_numpy_backend_kernels_are_its_own_groups(tmp_path):
    x, w = np.ones((16, 8), np.float32), np.ones((8, 4), np.float32)
    ann, r, out = run(softmax_cube, x, w, tmp_path=tmp_path, backend="numpy")
    [fn] = compiled_by("numpy", softmax_cube, x, w)
    said = [[n.name for n in g.nodes] for g, _ in fn.__dynamo_groups__]
    g = r.graphs[0]
    assert g.fused and [k.nodes for k in g.groups] == said
    assert len(said) < g.op_count                      # it did fuse something
    by_name = {n.name: n for n in g.nodes}
    for k in g.groups:
        for name in k.nodes:
            if name in by_name:                        # passes may add nodes of their own
                assert by_name[name].group == k.index
    assert g.backend_code and g.backend_code[0][0] == "generated Python"
    np.testing.assert_allclose(out[0], softmax_cube(x, w)[0], rtol=1e-6)


def test_backend_that_does_not_say_runs_one_call_per_op(tmp_path):
    def plain(graph, example_inputs):
        from dynamo.backends.eager import eager
        return eager(graph, example_inputs)
    ann, r, _ = run(P.no_break, X, tmp_path=tmp_path, backend=plain)
    g = r.graphs[0]
    assert not g.fused and [k.nodes for k in g.groups] == \
        [[n.name] for n in g.nodes if n.op == "call"]


def test_plan_steps_protocol(tmp_path):
    """The cupy backend's shape: ``fn.compiled.plan.steps``, each with kind and nodes,
    and its CUDA source in ``fn.compiled.cuda_source``."""
    from types import SimpleNamespace

    def kernels(graph, example_inputs):
        from dynamo.backends.eager import eager
        fn = eager(graph, example_inputs)
        calls = graph.call_nodes()
        steps = [SimpleNamespace(kind="kernel", nodes=calls[:-1]),
                 SimpleNamespace(kind="call", nodes=calls[-1:])]
        fn.compiled = SimpleNamespace(plan=SimpleNamespace(steps=steps),
                                      cuda_source="__global__ void k0() {}")
        return fn

    ann, r, _ = run(P.no_break, X, tmp_path=tmp_path, backend=kernels)
    g = r.graphs[0]
    names = [n.name for n in g.nodes if n.op == "call"]
    assert g.fused and [(k.kind, k.nodes) for k in g.groups] == \
        [("kernel", names[:-1]), ("call", names[-1:])]
    assert g.groups[0].outputs == [names[-2]] and g.groups[1].inputs == [names[-2]]
    assert ("CUDA kernels", "__global__ void k0() {}") in g.backend_code
    assert "__global__ void k0() {}" in (tmp_path / "r.html").read_text()


def test_fusion_groups_protocol(tmp_path):
    """A backend may also say how it groups with ``backend.fusion_groups(graph)``."""
    from dynamo.backends.fusion import partition

    def fusing(graph, example_inputs):
        from dynamo.backends.eager import eager
        return eager(graph, example_inputs)
    fusing.fusion_groups = partition

    ann, r, _ = run(P.no_break, X, tmp_path=tmp_path, backend=fusing)
    g = r.graphs[0]
    records = [rec for rec in ann.records if rec.graph is not None]
    assert g.fused
    assert [k.nodes for k in g.groups] == \
        [[n.name for n in grp.nodes] for grp in partition(records[0].graph)]


def test_recording_leaves_nothing_behind(tmp_path, capsys):
    from dynamo import convert
    from dynamo.translator.base import TranslatorBase
    step, run_, conv = TranslatorBase.step, TranslatorBase.run, convert.convert_frame
    logger = logging.getLogger("dynamo.recompiles")
    level, propagate = logger.level, logger.propagate
    trace = sys.gettrace()
    ann = annotate(P.helper_break, output=tmp_path / "r.html", backend="eager")
    ann(X)
    assert (TranslatorBase.step, TranslatorBase.run, convert.convert_frame) == \
        (step, run_, conv)
    assert (logger.level, logger.propagate, sys.gettrace()) == (level, propagate, trace)
    assert not any(isinstance(h, logging.Handler) and type(h).__name__ == "LogCapture"
                   for h in logger.handlers)

    def debugger(frame, event, arg):     # a debugger's trace function is put back
        return None
    sys.settrace(debugger)
    try:
        annotate(P.no_break, output=tmp_path / "r.html", backend="eager")(X)
        assert sys.gettrace() is debugger
    finally:
        sys.settrace(trace)


def test_nested_recordings_restore_the_outer_one():
    """An annotated call inside another (the outer's recorders come back after it)."""
    from dynamo.report import trace_hook
    from dynamo.report.recorder import Recorders
    outer, inner = Recorders(), Recorders()
    with outer.recording(0):
        assert trace_hook.active.trace is outer.trace
        with inner.recording(0):
            assert trace_hook.active.trace is inner.trace
            assert trace_hook.active.lines is inner.lines
        assert trace_hook.active.trace is outer.trace
        assert trace_hook.active.lines is outer.lines
        assert sys.gettrace() is not None
    assert getattr(trace_hook.active, "trace", None) is None
    assert getattr(trace_hook.active, "lines", None) is None
    assert sys.gettrace() is None


def test_recompile_log_stays_quiet_unless_enabled(tmp_path, caplog, capsys):
    ann = annotate(P.no_break, output=tmp_path / "r.html", calls=2, backend="eager")
    ann(X)
    ann(np.ones((4, 4)))
    assert ann.report.recompiles
    assert not [r for r in caplog.records if r.name == "dynamo.recompiles"]
    assert "recompiling" not in capsys.readouterr().err
    dynamo.set_logs("recompiles")            # switched on: the user sees it as usual
    try:
        ann = annotate(P.no_break, output=tmp_path / "r.html", calls=2, backend="eager")
        ann(X)
        ann(np.ones((4, 4)))
    finally:
        dynamo.set_logs()
    assert [r for r in caplog.records if r.name == "dynamo.recompiles"]


def test_bad_arguments():
    with pytest.raises(TypeError, match="callable"):
        annotate(3, backend="eager")
    with pytest.raises(ValueError, match="calls"):
        annotate(P.no_break, calls=0, backend="eager")
    with pytest.raises(ValueError, match="unknown backend"):
        annotate(P.no_break, backend="nope")
    with pytest.raises(ValueError, match="layout"):
        annotate(P.no_break, layout="circo", backend="eager")
