"""A last check of a traced graph before a backend gets it: every argument of every
op (loop bodies included) prints as code that runs on its own.

A graph is code: the eager backend compiles its printout, and every backend compiles
a loop body's printout as a function of its own inputs (``backends/common.py``). A
symbolic size in an argument prints through its ``SymArg``: an affine expression
over the graph's size inputs. If the translator leaves something in an argument that
does not print that way, the error comes only when the graph runs, as an internal
error the user sees (issue #17: a loop counter whose start was itself symbolic put a
``SymInt`` into the constant of a ``Sym``; the body printed ``trip + SymInt(12, s1 +
1)`` and raised ``NameError: name 'SymInt' is not defined`` on the second size, or
``Specialize`` on the numpy backend). Found here, at the end of the trace, it is an
internal error of the translator: the frame falls back to eager with a warning on the
``internal`` log channel (``hook._compile_entry``), as for any other.

Example::

    >>> unprintable_args(graph)
    ["scalar_add in fori_loop_1_body: the size expression (('trip', 1),) + SymInt(12,
    s1 + 1) has a constant or coefficient that is no plain int"]
"""

from __future__ import annotations

from .graph import Graph, Node
from .symbolic import Sym, Symbolic
from .symbolic.exprs import Expr
from .symbolic.graph_args import SymArg
from .tree import tree_leaves


class UnprintableGraph(Exception):
    """The traced graph has an argument its code cannot print (a translator bug)."""


def check_printable(graph: Graph) -> None:
    """Raise ``UnprintableGraph`` naming each argument of ``graph`` that would not
    print as runnable code (``unprintable_args``)."""
    problems = unprintable_args(graph)
    if problems:
        raise UnprintableGraph("; ".join(problems[:3]))


def unprintable_args(graph: Graph, where: str = "forward") -> list[str]:
    """What in ``graph``'s op arguments (and its loop bodies', recursively) would not
    print as code of the graph alone, one line each; empty when all of it does.

    Three ways to fail: a node of another graph (a body reads an outer value only as
    an input of its own); a ``SymArg`` whose expression is not plain ints over symbols
    its own graph's nodes give; a bare symbolic number (``SymInt``, ``SymFloat``),
    which would print as the number it was in this trace."""
    problems = []
    for node in graph.nodes:
        for leaf in tree_leaves((node.args, node.kwargs)):
            what = f"{node.name} in {where}"
            if isinstance(leaf, Graph):
                problems += unprintable_args(leaf, f"{node.name}_body")
            elif isinstance(leaf, Node) and leaf.graph is not graph:
                problems.append(f"{what}: {leaf.name} is a node of another graph")
            elif isinstance(leaf, SymArg):
                problems += [f"{what}: {p}" for p in _sym_arg_problems(leaf, graph)]
            elif isinstance(leaf, Symbolic):
                problems.append(f"{what}: a bare {type(leaf).__name__} {leaf!r}")
    return problems


def _sym_arg_problems(arg: SymArg, graph: Graph) -> list[str]:
    bad = [sym for sym in _affine_parts(arg.sym)
           if type(sym.const) is not int or any(type(c) is not int for _, c in sym.terms)]
    if bad:
        # (not rendered: ``render`` tests the constant for truth, and a SymInt's truth
        # is a decision about the sizes, which would become a guard of the entry)
        return [f"the size expression {bad[0].terms} + {bad[0].const!r} has a constant "
                "or coefficient that is no plain int"]
    text = f"the expression {arg.sym.render()}"
    problems = []
    missing = arg.sym.symbols - set(arg.nodes)
    if missing:
        problems.append(f"{text} reads {sorted(missing)}, which no input gives")
    foreign = [n.name for n in arg.nodes.values() if n.graph is not graph]
    if foreign:
        problems.append(f"{text} reads {foreign}, nodes of another graph")
    return problems


def _affine_parts(expr) -> list[Sym]:
    """The affine ``Sym`` expressions in ``expr``: itself, or a float ``Expr``'s int
    leaves (``Expr.of(k)`` of a SymInt ``k``), at any depth."""
    if isinstance(expr, Sym):
        return [expr]
    if not isinstance(expr, Expr):
        return []
    if expr.op == "int":
        return [expr.args[0]]
    return [sym for a in expr.args for sym in _affine_parts(a)]
