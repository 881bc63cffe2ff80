"""Command line: ``python -m dynamo annotate script.py [options] [-- script args]``.

Runs ``script.py`` as ``__main__``; the function it calls (``--function NAME``, a
top-level name of the script; by default the first function its ``__main__`` block
calls) is replaced by ``dynamo.annotate(NAME, ...)`` right after its ``def`` runs,
so the script's own call produces the report.

Example::

    $ python -m dynamo annotate examples/mlp.py --function forward -o mlp.html
    annotate: wrote mlp.html (forward: 2 graphs, 1 graph break, 0 recompiles)
"""

from __future__ import annotations
import __future__ as future

import argparse
import ast
import os
import sys
import types
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    ours, script_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) \
        if "--" in argv else (argv, [])
    parser = _parser()
    opts = parser.parse_args(ours)
    if opts.command != "annotate":
        parser.error(f"unknown command {opts.command!r}")
    return annotate_script(opts, script_args)


def _parser() -> argparse.ArgumentParser:
    from dynamo.backends import DEFAULT_BACKEND
    p = argparse.ArgumentParser(prog="python -m dynamo",
                                description="dynamo command line tools")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("annotate", help="run a script and write an annotated HTML report "
                       "of what dynamo captured from one of its functions",
                       description="Run SCRIPT as __main__ with FUNCTION compiled and "
                       "annotated; write one self-contained HTML report. Arguments after "
                       "'--' are passed to the script.")
    a.add_argument("script", help="path of the Python script to run")
    a.add_argument("--function", "-f", help="top-level function (or callable) of the script "
                   "to annotate; default: the first function its __main__ block calls")
    a.add_argument("--backend", "-b", default=DEFAULT_BACKEND,
                   help="backend name: auto (per graph: native or numpy for NumPy arrays, "
                   "cupy for CuPy's), eager (plain NumPy calls), numpy, native, cupy, ... "
                   f"(default: {DEFAULT_BACKEND})")
    a.add_argument("-o", "--output", help="HTML file to write (default: "
                   "<script>.annotate.html in the current directory)")
    a.add_argument("--calls", type=int, default=1, help="how many calls to record "
                   "(default 1; more shows recompiles between calls)")
    a.add_argument("--measure", type=int, default=0, metavar="N",
                   help="also time N eager and N compiled calls with the first call's "
                   "arguments (runs the function 2N more times)")
    a.add_argument("--layout", choices=("auto", "dot", "builtin"), default="auto",
                   help="graph drawing (default auto: Graphviz dot when installed)")
    return p


def annotate_script(opts, script_args: list[str]) -> int:
    from dynamo import annotate
    from dynamo.backends import lookup_backend

    script = Path(opts.script)
    if not script.is_file():
        return _fail(f"no such script: {script}")
    source = script.read_text(encoding="utf-8")
    try:
        tree = ast.parse(source, str(script))
    except SyntaxError as e:
        return _fail(f"{script} does not parse: {e}")
    name = opts.function or _first_called(tree)
    if name is None:
        defined = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
        return _fail(f"{script} has no __main__ block calling one of its functions; pass "
                     f"--function NAME (functions defined: {', '.join(defined) or 'none'})")
    output = Path(opts.output or f"{script.stem}.annotate.html")
    try:                                  # bad options fail before the script runs
        lookup_backend(opts.backend)
    except ValueError as e:
        return _fail(str(e))
    if opts.calls < 1 or opts.measure < 0:
        return _fail(f"--calls must be >= 1 and --measure >= 0, got {opts.calls} and "
                     f"{opts.measure}")

    def make(fn):
        return annotate(fn, output=output, backend=opts.backend, calls=opts.calls,
                        measure=opts.measure, layout=opts.layout)
    wrapped: list = []
    code = 0
    try:
        _run_as_main(script, tree, script_args, name, make, wrapped)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    if not wrapped:
        return _fail(f"{script} never defined a top-level callable named {name!r}")
    ann = wrapped[-1]
    if ann.report is None:
        return _fail(f"{script} never called {name}(); nothing to report "
                     f"(is the call under `if __name__ == \"__main__\":`?)")
    r = ann.report
    print(f"annotate: wrote {output} ({name}: {len(r.graphs)} graphs, {len(r.breaks)} graph "
          f"breaks, {len(r.recompiles)} recompiles)", file=sys.stderr)
    return code


def _first_called(tree: ast.Module) -> str | None:
    """The first top-level function called in the ``if __name__ == "__main__":`` block."""
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef,
                                                           ast.AsyncFunctionDef))}
    for node in tree.body:
        if isinstance(node, ast.If) and _is_main_test(node.test):
            for sub in ast.walk(ast.Module(body=node.body, type_ignores=[])):
                if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                        sub.func.id in defined:
                    return sub.func.id
    return None


def _is_main_test(test: ast.expr) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and \
        test.left.id == "__name__" and len(test.comparators) == 1 and \
        isinstance(test.comparators[0], ast.Constant) and \
        test.comparators[0].value == "__main__"


def _run_as_main(script: Path, tree: ast.Module, args: list[str], name: str, make,
                 wrapped: list) -> None:
    """Run the script statement by statement as ``__main__``, wrapping ``name`` as soon
    as a statement (re)binds it, so calls later in the script go through the annotator."""
    module = types.ModuleType("__main__")
    module.__file__ = str(script)
    module.__builtins__ = __builtins__
    g = module.__dict__
    saved = sys.modules.get("__main__"), list(sys.argv), list(sys.path)
    sys.modules["__main__"] = module
    sys.argv = [str(script), *args]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    flags = 0
    try:
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                for alias in stmt.names:
                    feature = getattr(future, alias.name, None)
                    flags |= getattr(feature, "compiler_flag", 0)
            code = compile(ast.Module(body=[stmt], type_ignores=[]), str(script), "exec",
                           flags=flags, dont_inherit=True)
            exec(code, g)
            fn = g.get(name)
            if fn is not None and callable(fn) and not (wrapped and fn is wrapped[-1]):
                wrapped.append(make(fn))
                g[name] = wrapped[-1]
    finally:
        sys.argv, sys.path[:] = saved[1], saved[2]
        if saved[0] is not None:
            sys.modules["__main__"] = saved[0]


def _fail(message: str) -> int:
    print(f"annotate: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
