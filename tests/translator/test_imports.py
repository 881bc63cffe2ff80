"""``import`` inside a compiled function (dynamo/translator/imports.py, issue #19): a
module that is already imported is a lookup the trace makes and guards; anything that
may run module code still breaks, and runs as plain Python runs it."""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import sys

import pytest
from harness import check, rand

import dynamo

BACKENDS = ["eager", "numpy"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_imports_of_loaded_modules_are_traced(backend):
    def f(x):
        import os.path
        from collections import defaultdict

        import numpy.linalg as la
        from numpy.lib.stride_tricks import sliding_window_view as windows
        counts = defaultdict(int)
        counts["n"] += 1
        return la.norm(x) + counts["n"], windows(x, 2).sum(1), os.path.sep, dict(counts)

    check(f, rand(5), graphs=1, breaks=0, backend=backend)


def test_a_module_kept_over_a_break():
    def f(x):
        import numpy.linalg as la
        y = x * 2
        print("step")
        return la.norm(y), la

    check(f, rand(4), breaks=1)


def test_a_module_not_imported_yet_breaks_with_a_hint(monkeypatch):
    monkeypatch.delitem(sys.modules, "fractions", raising=False)

    def f(x):
        import fractions
        return x + 1, fractions.__name__

    with contextlib.redirect_stdout(io.StringIO()):
        report = dynamo.explain(f, backend="eager")(rand(3))
    [brk] = report.break_reasons
    assert brk.reason == ("import inside the traced function (module 'fractions' is not "
                          "imported yet)")
    assert brk.hint == "import at module level"
    assert "fractions" in sys.modules        # the statement ran, as plain Python runs it


def test_the_import_runs_again_when_the_module_is_gone(monkeypatch):
    importlib.import_module("fractions")

    def f(x):
        import fractions
        return x + 1, fractions.__name__

    compiled = dynamo.compile(f, backend="eager")
    compiled(rand(3))
    monkeypatch.delitem(sys.modules, "fractions")
    compiled(rand(3))
    assert "fractions" in sys.modules


def test_an_import_hook_sees_every_statement(monkeypatch):
    calls = []
    real = builtins.__import__

    def hook(name, *args, **kwargs):
        calls.append(name)
        return real(name, *args, **kwargs)

    def f(x):
        import numpy.linalg as la
        return la.norm(x)

    compiled = dynamo.compile(f, backend="eager")
    compiled(rand(3))                       # traced: no __import__ call, guarded
    monkeypatch.setattr(builtins, "__import__", hook)
    compiled(rand(3))
    compiled(rand(3))
    assert calls.count("numpy.linalg") == 2
