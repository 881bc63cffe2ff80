"""The two parts of a cache entry made from a finished trace: the glue (the compiled
graph, checked against the backend contract, wrapped in generated code that rebuilds
the frame's values, :mod:`dynamo.codegen`) and the guards' check function.

Example::

    >>> cg = GlueCodegen(output, params, fn.__code__.co_name)
    >>> result = _codegen(cg, lambda: cg.value(tx.result))
    >>> glue = _finish(fn, cg, result, output, ctx, record)
    >>> hook.CacheEntry(_check(fn, output, params, record), glue, record)
"""

from __future__ import annotations

import logging

from dynamo.backends import builtin_backend, is_builtin
from dynamo.guards import TYPE, CheckFunction, LocalSource, shared_reads

from . import listeners, logs
from .bytecode.instructions import code_name
from .bytecode.signature import Params
from .codegen import GlueCodegen
from .config import config
from .exc import BackendError, SkipFrame, Unsupported
from .frame_records import _break_record, _log_break, _phase
from .graph_printable import check_printable
from .guard_words import entry_text
from .ops.errstate import has_errstate, restoring
from .output_graph import OutputGraph
from .raising import OnRaise, guarded_for_values, on_raise
from .symbolic import SymInt, not_recording

log_graph = logs.get("graph")
log_guards = logs.get("guards")
log_guards_code = logs.guards_code
log_internal = logging.getLogger("dynamo.internal")


def _codegen(cg, build) -> str:
    try:
        return build()
    except Unsupported as e:
        raise SkipFrame(f"cannot rebuild the frame's values: {e.reason}") from None
    except RecursionError:
        raise SkipFrame(_TOO_DEEP) from None


# Values nested deeper than the glue can rebuild: a tuple in a tuple 250 deep (``t = (t,
# 1)`` in a loop) rebuilds by recursion, and its source would nest past the 200
# parentheses CPython's parser takes; the frame runs as it is (issue #17)
_TOO_DEEP = "the frame's values nest too deeply for the glue to rebuild"


def _glue_code(cg: GlueCodegen, result: str, *args, **kwargs):
    """``cg.finish(result, ...)``: the glue function, or SkipFrame where its source
    nests too deeply to compile ("too many nested parentheses", or the compiler's own
    recursion limit)."""
    try:
        return cg.finish(result, *args, **kwargs)
    except RecursionError:
        raise SkipFrame(_TOO_DEEP) from None
    except SyntaxError as e:
        if "too many nested" not in str(e) and "too complex" not in str(e):
            raise
        raise SkipFrame(f"{_TOO_DEEP} ({e.msg})") from None


def _finish(fn, cg: GlueCodegen, result: str, output: OutputGraph, ctx, record,
            boxed: bool = False, slots: list[str] | None = None):
    _codegen(cg, cg.side_effects)
    graph = output.graph
    graph.output(tuple(cg.out_nodes))
    graph_fn, inputs, reads, single = None, [], {}, None
    if graph.call_nodes():
        # a translator bug that would raise only when the graph runs (issue #17):
        # an internal error now, so the frame falls back to eager (hook._compile_entry)
        check_printable(graph)
        example = [output.example_inputs[n] for n in graph.placeholders]
        mark_fixed_inputs(graph, output.shape_env.pinned_symbols())
        try:
            # the trace is over: a backend's comparisons of symbolic sizes (it groups
            # ops by shape) are no guards of the entry, and an unbacked size's made-up
            # hint is no answer (a backend keeps such sizes out of its static plans)
            with not_recording():
                graph_fn = ctx.backend(graph, example)
        except BackendError:
            raise
        except Exception as e:  # noqa: BLE001
            graph_fn = _on_eager_instead(fn, graph, example, ctx, e)
        graph_fn = _checked(graph_fn, len(cg.out_nodes), ctx)
        # a builtin backend's graph of one output: call the function that returns it
        # (``_checked`` wraps a user backend's result, which then has no such function)
        single = getattr(graph_fn, "__dynamo_bare__", None) if len(cg.out_nodes) == 1 \
            else None
        if single is not None:
            graph_fn = single
        if has_errstate(graph):   # leave a `with np.errstate` the graph raised inside
            graph_fn = restoring(graph_fn)
        sources = [n.meta["source"] for n in graph.placeholders]
        inputs, reads = shared_reads([src.expr() for src in sources], sources, "___")
        record.graph = graph
        listeners.emit("on_graph", graph, ctx)
        log_graph.debug("graph of %s (%s:%d), %d ops:\n%s", code_name(fn.__code__),
                        fn.__code__.co_filename, fn.__code__.co_firstlineno,
                        len(graph.call_nodes()), graph)
    try:
        plan = on_raise(output) if graph_fn is not None else OnRaise(False, False)
        cg.check_raising_values(graph_fn is not None, plan.rerun)
        if graph_fn is not None and cg.reruns_raising_values():
            plan = guarded_for_values(plan, output.graph)
    except Unsupported as e:   # the graph cannot raise exactly: the frame runs eagerly
        _log_break(e, fn.__code__, whole_frame=True)
        record.breaks.append(_break_record(e, fn.__code__))
        raise SkipFrame(e.reason) from None
    glue = _glue_code(cg, result, graph_fn, inputs, rerun=plan.rerun, guard=plan.guard,
                      eager_if_raising=plan.eager_if_raising,
                      guard_if_raising=plan.guard_if_raising, boxed=boxed, slots=slots,
                      bare=single is not None,
                      reads={name: src.expr() for src, name in reads.items()})
    # the dispatcher hands over what its guards computed of these (dispatch.handed_reads)
    glue.__dynamo_reads__ = reads
    record.glue_source = glue.__dynamo_source__
    return glue


def _on_eager_instead(fn, graph, example, ctx, error: Exception):
    """The graph compiled by the eager backend, after ``ctx``'s backend raised ``error``
    compiling it; a ``BackendError`` where that is the better answer.

    A built-in backend's failure is dynamo's own bug: as for an internal error of the
    translator, the program runs all the same (this graph on the eager backend: its own
    NumPy calls, eager's results) and the ``internal`` log channel says what failed.
    A user's backend failing (or any, with ``config.strict_backends``) is a
    ``BackendError`` that names it and chains to its error::

        backend 'mine' failed to compile a graph of 3 ops from f: RuntimeError: kaboom.
        Try backend='eager' to check the graph, or report the graph printed with
        DYNAMO_LOGS=graph.
    """
    what = (f"backend {ctx.backend_name!r} failed to compile a graph of "
            f"{len(graph.call_nodes())} ops from {code_name(fn.__code__)}: "
            f"{type(error).__name__}: {error}")
    if config.strict_backends or not is_builtin(ctx.backend):
        raise BackendError(f"{what}. Try backend='eager' to check the graph, or report "
                           f"the graph printed with DYNAMO_LOGS=graph.") from error
    log_internal.warning("dynamo: %s; this graph runs on the eager backend (a bug in "
                         "dynamo: please report it with the graph DYNAMO_LOGS=graph "
                         "prints)", what, exc_info=config.verbose)
    return builtin_backend("eager")(graph, example)


def mark_fixed_inputs(graph, pinned: frozenset) -> None:
    """Mark ``meta["fixed"]`` on each graph input of symbolic size that the entry's
    guards fix all the same: every symbol of its shape (or, for a size passed in, the
    size itself) is pinned, guarded ``== value``. A backend that picks code by the
    sizes of a call (the numpy backend's ``PerSize``) need not look those up: they
    cannot differ between the calls that reach the graph.

    Example: ``a * np.array(xs)`` with ``a`` of static shape (64,) pins the list's
    length ``s0`` (``np.asarray(xs).shape[0] == 64``): the input ``np_asarray_xs``,
    of shape ``(s0,)``, is marked, and the graph runs its one variant with no lookup.
    """
    for node in graph.placeholders:
        symbol = node.meta.get("symbol")
        if symbol is not None:
            fixed = symbol in pinned
        else:
            dims = [d for d in getattr(node.meta.get("array"), "shape", ())
                    if isinstance(d, SymInt)]
            fixed = bool(dims) and all(d.sym.symbols <= pinned for d in dims)
        if fixed:
            node.meta["fixed"] = True


def _made_by_the_call(code) -> dict:
    """``{LocalSource("args"): tuple, LocalSource("kw"): dict}``: the frame's ``*args``
    and ``**kwargs`` and the types Python makes them whatever the caller passes. A
    guard that one of them has its type holds on every call: the check leaves it out
    (``type(args) is tuple``: about 150 instructions of a cached call, issue #16)."""
    p = Params.of(code)
    made = {LocalSource(p.varargs): tuple} if p.varargs is not None else {}
    if p.varkw is not None:
        made[LocalSource(p.varkw)] = dict
    return made


def _checked(graph_fn, n_outputs: int, ctx):
    """``graph_fn`` as a backend returned it, checked against the backend contract: a
    callable returning a tuple (or list) of ``n_outputs`` values. A user's backend's
    results are checked on every call, so a wrong one is a clear ``BackendError``, not
    a ``NameError`` or ``IndexError`` deep in generated code."""
    name = ctx.backend_name
    if not callable(graph_fn):
        raise BackendError(f"backend {name!r} returned {type(graph_fn).__name__} "
                           f"{graph_fn!r:.40}, not a callable; a backend returns a "
                           f"function(*arrays) -> tuple of the graph's outputs")
    if is_builtin(ctx.backend):
        return graph_fn

    def checked(*args):
        out = graph_fn(*args)
        if type(out) not in (tuple, list) or len(out) != n_outputs:
            got = f"{len(out)} values" if type(out) in (tuple, list) else \
                f"{type(out).__name__} {out!r:.40}"
            raise BackendError(f"backend {name!r}: the compiled graph returned {got}; "
                               f"it must return a tuple of {n_outputs} output(s)")
        return out
    return checked


def _check(fn, output: OutputGraph, params, record) -> CheckFunction:
    output.shape_env.add_guards()
    made = _made_by_the_call(fn.__code__)
    guards = [g for g in output.guards.ordered()
              if not (g.kind == TYPE and made.get(g.source) is g.expected)]
    with _phase(record, "guards"):
        check = CheckFunction(guards, params, fn.__code__.co_name, fn.__globals__,
                              has_closure=True)
    record.guards = guards
    record.check_source = check.source
    if log_guards.isEnabledFor(logging.DEBUG):
        log_guards.debug("%s", entry_text(fn.__code__, check.guards))
    if log_guards_code.isEnabledFor(logging.DEBUG):   # DYNAMO_LOGS=+guards
        log_guards_code.debug("check function of %s:\n%s", code_name(fn.__code__),
                              check.explained())
    return check
