"""The frontend flows one way: no import cycle in ``dynamo/``, ``guards/`` or ``backends/``.

The graph is read from the source with ``ast``, not from ``sys.modules``: every import
counts, at module level and inside functions (an import placed in a function to dodge
a cycle is still a cycle; it only moves the failure from import time to call time).
An edge goes from a module to each project module it imports:

- ``import a.b`` and ``from a.b import name``: to ``a.b``, or to ``a.b.name`` when that
  is a module (``from pkg import sub``);
- relative imports are resolved against the importing module's package;
- an import of something outside the three packages (numpy, networkx) is no edge.

The packages may be installed under ``dynamo`` (``dynamo.guards`` from the folder
``guards/``): a module is named as it is imported, and both spellings lead to it.

Run one package: ``pytest tests/test_import_graph.py -k guards``.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("dynamo", "guards", "backends")


def _installed_name(folder: str) -> str:
    """How the package in ``ROOT/folder`` is imported: ``guards``, or ``dynamo.guards``
    once it is installed inside ``dynamo``."""
    if folder != "dynamo":
        try:
            spec = importlib.util.find_spec(f"dynamo.{folder}")
        except ImportError:
            spec = None
        if spec is not None and spec.origin and \
                Path(spec.origin).resolve().parent == ROOT / folder:
            return f"dynamo.{folder}"
    return folder


def _modules() -> dict[str, tuple[str, Path]]:
    """Module name -> (folder it lives in, file)."""
    mods = {}
    for folder in FOLDERS:
        prefix = _installed_name(folder).split(".")
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            mods[".".join(prefix + parts)] = (folder, path)
    return mods


def _targets(module: str, is_package: bool, node: ast.stmt, known: dict) -> set[str]:
    """The project modules one import statement of ``module`` imports."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[:len(package) - node.level + 1]
            head = ".".join(package + ([node.module] if node.module else []))
        else:
            head = node.module or ""
        # ``from pkg import sub`` imports the module pkg.sub; ``from pkg import name``, pkg
        names = [f"{head}.{a.name}" if _resolve(f"{head}.{a.name}", known) == f"{head}.{a.name}"
                 else head for a in node.names]
    return {t for t in (_resolve(n, known) for n in names) if t and t != module}


def _resolve(name: str, known: dict) -> str | None:
    """The project module ``name`` is or lies in (``guards.X`` for ``dynamo.guards.X``
    while guards is a top-level package, and the reverse), or None."""
    spellings = [name]
    for folder in FOLDERS[1:]:
        if name == f"dynamo.{folder}" or name.startswith(f"dynamo.{folder}."):
            spellings.append(name[len("dynamo."):])
        elif name == folder or name.startswith(f"{folder}."):
            spellings.append(f"dynamo.{name}")
    best, best_dropped = None, None
    for spelled in spellings:   # the spelling that keeps most of the name wins
        dropped = 0
        while spelled and spelled not in known:
            spelled, dropped = spelled.rpartition(".")[0], dropped + 1
        if spelled and (best is None or dropped < best_dropped):
            best, best_dropped = spelled, dropped
    return best


def build_graph() -> nx.DiGraph:
    """The import graph of the three packages; each edge has ``where`` (file:line of
    the first import statement that makes it)."""
    mods = _modules()
    graph = nx.DiGraph()
    for module, (folder, path) in mods.items():
        graph.add_node(module, folder=folder)
    for module, (_folder, path) in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in _targets(module, path.name == "__init__.py", node, mods):
                if not graph.has_edge(module, target):
                    graph.add_edge(module, target,
                                   where=f"{path.relative_to(ROOT)}:{node.lineno}")
    return graph


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return build_graph()


def _describe(graph: nx.DiGraph, cycle: list[tuple[str, str]]) -> str:
    return "\n".join(f"  {a} -> {b}   ({graph.edges[a, b]['where']})" for a, b in cycle)


def _in(graph: nx.DiGraph, folders) -> nx.DiGraph:
    return graph.subgraph(n for n, f in graph.nodes(data="folder") if f in folders)


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_import_cycle(graph, folder):
    """No module of the package reaches itself through imports, function-level ones too."""
    sub = _in(graph, [folder])
    assert len(sub) > 3, f"no modules found under {ROOT / folder}"
    try:
        cycle = nx.find_cycle(sub)
    except nx.NetworkXNoCycle:
        return
    pytest.fail(f"import cycle in {folder}/ ({len(cycle)} imports):\n"
                f"{_describe(graph, cycle)}", pytrace=False)


def test_no_import_cycle_across_packages(graph):
    """Nor through the other packages (dynamo -> backends -> dynamo)."""
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    pytest.fail(f"import cycle ({len(cycle)} imports):\n{_describe(graph, cycle)}",
                pytrace=False)


def test_guards_is_a_leaf(graph):
    """``guards`` imports nothing from ``dynamo`` or ``backends``."""
    out = [(a, b) for a, b in graph.edges
           if graph.nodes[a]["folder"] == "guards" and graph.nodes[b]["folder"] != "guards"]
    assert not out, "guards imports from the rest of the project:\n" + _describe(graph, out)


# dynamo/variables/, bottom to top: a module imports only modules before it (a Variable
# that makes a later kind gets it through the translator: tx.wrap, tx.call_builtin...).
VARIABLE_LAYERS = ("base", "constant", "changing_ranges", "list_sort", "sequences", "text_items", "data_tuples", "sets", "set_displays", "dicts",
                   "named_tuples", "container_ops", "iterators", "text_iterators", "first_key_iterators", "ndindex", "functions", "folding",
                   "library_names", "loop_exit_tests", "layout_flags", "graph_numbers", "loop_ints",
                   "snapshots", "scalar_inputs", "arrays", "size_values", "stacked_lists", "ring_rows", "trip_rows",
                   "formatted",
                   "formatted_calls", "linspace_step", "polynomials", "number_casts", "library_calls",
                   "dask_arrays",
                   "errstate", "class_facts", "class_writes", "library_attributes", "opaque",
                   "objects", "super_lookup",
                   "random_objects", "lifetimes", "deques", "deque_stacks", "list_windows",
                   "identity_generators", "float_windows", "int_choices", "unread_dicts", "unread_sets", "unread_ordered_dicts",
                   "loggers",
                   "iteration", "combinatoric", "made_deques", "conversions", "builtin_call_breaks", "builtins", "value_kinds",
                   "builder")


def test_variables_are_layered(graph):
    """The order documented in ``dynamo/variables/__init__.py``; and no Variable module
    imports the translator, the output graph, the code generator or the API."""
    pkg = "dynamo.variables"
    rank = {f"{pkg}.{name}": i for i, name in enumerate(VARIABLE_LAYERS)}
    modules = [n for n in graph if n.startswith(f"{pkg}.")]
    assert sorted(modules) == sorted(rank), "a module was added: give it its layer"
    upward = [(a, b) for a in modules for b in graph.successors(a)
              if b in rank and rank[b] >= rank[a]]
    assert not upward, "imports of a later layer:\n" + _describe(graph, upward)
    above = {"dynamo.translator", "dynamo.output_graph", "dynamo.codegen", "dynamo.api",
             "dynamo.convert", "dynamo.hook", "dynamo.bytecode.resume", "dynamo.bytecode.break_code",
             pkg,
             # the parts of convert and hook
             "dynamo.frame_records", "dynamo.raising", "dynamo.glue", "dynamo.break_entry",
             "dynamo.break_calls", "dynamo.wrappers", "dynamo.code_keyed",
             "dynamo.frame_entries", "dynamo.sibling_numbers",
             # the parts of the API
             "dynamo.compile_settings", "dynamo.compiled_calls", "dynamo.compiled_methods"}
    out = [(a, b) for a in modules for b in graph.successors(a)
           if b in above or b.startswith("dynamo.translator.")]
    assert not out, "Variables import from above them:\n" + _describe(graph, out)


def test_the_graph_sees_function_level_and_relative_imports(graph):
    """The reader itself: imports inside functions and relative ones make edges (the
    hook's use of the frame signature is a module-level relative import; an import
    placed inside a function is found as well)."""
    assert graph.has_edge("dynamo.hook", "dynamo.bytecode.instructions")
    src = "def f():\n    from .x import y\n    import dynamo.hook\n"
    node_from, node_import = [n for n in ast.walk(ast.parse(src))
                              if isinstance(n, (ast.Import, ast.ImportFrom))]
    known = {"dynamo": 0, "dynamo.hook": 0, "dynamo.variables": 0, "dynamo.variables.x": 0}
    assert _targets("dynamo.variables.base", False, node_from, known) == {"dynamo.variables.x"}
    assert _targets("dynamo.variables", True, node_from, known) == {"dynamo.variables.x"}
    assert _targets("dynamo.api", False, node_import, known) == {"dynamo.hook"}
    pkg_import = ast.parse("from dynamo.variables import wrap").body[0]
    assert _targets("dynamo.api", False, pkg_import, known) == {"dynamo.variables"}
    # guards under either name: the top-level folder, or installed in dynamo
    both = {"dynamo": 0, "guards": 0, "guards.sources": 0}
    for src in ("from dynamo.guards.sources import X", "from guards import sources"):
        node = ast.parse(src).body[0]
        assert _targets("dynamo.api", False, node, both) == {"guards.sources"}
