"""Nothing in the project or its tests replaces a function, method or class of the
project at run time.

Code that wants to watch the compiler subscribes to compile listeners
(``dynamo.listeners``); a test that needs another behaviour passes it in (a backend, a
``partition=``, a ``Setup``); a test that needs to know whether an internal function
runs observes it (``tests/observe.py``). This test reads every module of ``dynamo/``,
``guards/``, ``backends/``, ``scripts/`` and ``tests/`` with ``ast`` and fails on:

- ``monkeypatch.setattr(X, "name", ...)``, ``setattr(X, "name", ...)`` and
  ``X.name = ...`` where ``X`` is a project module or class (a name imported from
  ``dynamo``, ``guards`` or ``backends``, a relative import inside them, or a script
  loaded with ``load_script``) and ``name`` is a function, method or class defined in
  the project;
- ``monkeypatch.setattr("dynamo.x.name", ...)`` (the string form), and
  ``monkeypatch.setitem``/``delattr``/``delitem`` on a project object (a registry
  entry swapped for a test).

Not flagged, on purpose: patches of third-party and standard-library objects (a test
that simulates a missing or GPU-less CuPy puts a fake in ``sys.modules``; one that
needs a clean environment sets environment variables), options set on
``dynamo.config`` (configuration is data, set by design), and module-level data
constants and flags (``pyversion.SUPPORTED``, ``sizes.MAX_SIZES``): those are values,
not code.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("dynamo", "guards", "backends", "scripts", "tests")
SOURCE = ("dynamo", "guards", "backends", "scripts")      # where the project defines code
PROJECT = ("dynamo", "guards", "backends")               # its importable top-level names
PATCHERS = {"setattr", "setitem", "delattr", "delitem"}


def _files(folders) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py")
                  if "__pycache__" not in p.parts)


def project_callables() -> set[str]:
    """Every name the project defines with ``def`` or ``class`` (anywhere)."""
    names = set()
    for path in _files(SOURCE):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
    return names


def _project_names(tree: ast.AST, in_project: bool) -> set[str]:
    """Names bound to project modules or objects by imports (or ``load_script``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PROJECT:
                    names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if (node.level and in_project) or module.split(".")[0] in PROJECT:
                names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Name) and node.value.func.id == "load_script":
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _root(expr: ast.AST) -> str | None:
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def find_patches(source: str, filename: str, callables: set[str],
                 in_project: bool = False) -> list[str]:
    """``file:line: what`` for each runtime patch of the project in ``source``."""
    tree = ast.parse(source)
    project = _project_names(tree, in_project)
    found = []

    def flag(node, what):
        found.append(f"{filename}:{node.lineno}: {what}")

    def is_project(expr) -> bool:
        return _root(expr) in project

    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(el, ast.Attribute) and is_project(el.value) and \
                            el.attr in callables:
                        flag(node, f"assigns {ast.unparse(el)}")
        elif isinstance(node, ast.Call):
            func, args = node.func, node.args
            name = args[1].value if len(args) > 1 and isinstance(args[1], ast.Constant) \
                else None
            if isinstance(func, ast.Name) and func.id == "setattr" and args and \
                    is_project(args[0]) and name in callables:
                flag(node, f"setattr({ast.unparse(args[0])}, {name!r})")
            elif isinstance(func, ast.Attribute) and func.attr in PATCHERS and args and \
                    _root(func.value) in ("monkeypatch", "mp"):
                target = args[0]
                if isinstance(target, ast.Constant) and isinstance(target.value, str):
                    if target.value.split(".")[0] in PROJECT and \
                            target.value.rsplit(".", 1)[-1] in callables:
                        flag(node, f"monkeypatch.{func.attr}({target.value!r})")
                elif is_project(target) and (func.attr in ("setitem", "delitem") or
                                             name in callables):
                    flag(node, f"monkeypatch.{func.attr}({ast.unparse(target)}, ...)")
    return found


def test_nothing_patches_the_project_at_run_time():
    callables = project_callables()
    found = []
    for path in _files(SCANNED):
        rel = path.relative_to(ROOT)
        found += find_patches(path.read_text(encoding="utf-8"), str(rel), callables,
                              in_project=rel.parts[0] in PROJECT)
    assert found == [], "runtime patches of the project:\n" + "\n".join(found)


def test_the_check_sees_the_patches_it_forbids():
    """The patterns this suite used before compile listeners, and what stays allowed."""
    src = textwrap.dedent('''
        import sys
        import dynamo
        from dynamo import convert, config, pyversion
        from dynamo.translator.base import TranslatorBase
        from dynamo.backends import registry
        from script_modules import load_script
        bench = load_script("bench_cupy_backend")

        def test(monkeypatch):
            TranslatorBase.step, TranslatorBase.run = _step, _run
            convert.convert_frame = counting
            monkeypatch.setattr(convert, "convert_frame", counting)
            monkeypatch.setattr(dynamo.convert, "convert_frame", counting)
            monkeypatch.setattr("dynamo.convert.convert_frame", counting)
            setattr(TranslatorBase, "step", _step)
            monkeypatch.setitem(registry._REGISTRY, "cupy", fake)
            monkeypatch.setattr(bench, "gpu_available", lambda: True)
            # allowed: data, configuration, third-party modules
            monkeypatch.setattr(config, "cache_size_limit", 3)
            monkeypatch.setattr(pyversion, "SUPPORTED", False)
            monkeypatch.setitem(sys.modules, "cupy", None)
            monkeypatch.setattr(sys, "gettrace", lambda: None)
    ''')
    callables = {"step", "run", "convert_frame", "gpu_available"}
    found = find_patches(src, "t.py", callables)
    assert [f.split(": ", 1)[1] for f in found] == [
        "assigns TranslatorBase.step", "assigns TranslatorBase.run",
        "assigns convert.convert_frame",
        "monkeypatch.setattr(convert, ...)", "monkeypatch.setattr(dynamo.convert, ...)",
        "monkeypatch.setattr('dynamo.convert.convert_frame')",
        "setattr(TranslatorBase, 'step')",
        "monkeypatch.setitem(registry._REGISTRY, ...)",
        "monkeypatch.setattr(bench, ...)",
    ], found


def test_relative_imports_count_inside_the_project():
    src = "from .translator.base import TranslatorBase\nTranslatorBase.run = lambda self: 0\n"
    assert find_patches(src, "dynamo/x.py", {"run"}, in_project=True) == \
        ["dynamo/x.py:2: assigns TranslatorBase.run"]
    assert find_patches(src, "user.py", {"run"}, in_project=False) == []
