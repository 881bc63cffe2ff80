"""Python source for a partitioned graph: plain statements and block-wise group functions.

For a layernorm over (10000, 1000) float32 the generated code reads::

    def _group0(x, g, b):
        if not (x.flags.c_contiguous):
            return _plain0(x, g, b)                  # eager's op-by-op code, eager's layout
        _o_add_1 = _empty((10000, 1000), _float32)
        def _block(_i, _s):
            _q = _i
            _lo = _q * 52
            _hi = _lo + 52
            if _hi > 10000:                          # a short last block
                _hi = 10000
                _s = (_s[0][:_hi - _lo], _s[1][:_hi - _lo], _s[2][:_hi - _lo],)
            _s0, _s1, _s2, = _s                      # this thread's scratch buffers
            _b_x = x[_lo:_hi]
            mean = _mean_exact(_b_x, (-1,), None, True, _count1000_2, None)
            subtract = _subtract(_b_x, mean, out=_s0)
            v_pow = _square(subtract, out=_s1)
            mean_1 = _mean_exact(v_pow, (-1,), None, True, _count1000_3, None)
            add = _add(mean_1, 1e-05, out=_s2)
            sqrt = _sqrt(add, out=_s2)
            divide = _divide(subtract, sqrt, out=_s0)
            multiply = _multiply(divide, g, out=_s0)
            add_1 = _add(multiply, b, out=_o_add_1[_lo:_hi])   # each output written once
        _run(_block, 193, _scratch0, 2)
        return (_o_add_1, )

    def forward0(x, g, b):
        try:
            _token = _guard()       # visible floating-point conditions raise (Guarding)
            try:
                add_1, = _group0(x, g, b)
                return (add_1, )
            finally:
                _unguard(_token)
        except Exception as _error:
            _rerun.failed(_error)
        return _rerun(x, g, b)      # eager, op by op: its warnings, its exception

Names starting with ``_`` are the generator's (graph node names never do).
"""

from __future__ import annotations

import builtins
import math
import operator
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dynamo import ops
from dynamo.graph import CALL, CONSTANT, OUTPUT, PLACEHOLDER, Graph, Node, location_comment
from dynamo.ops import ELEMENTWISE
from dynamo.ops.indexing import getitem
from dynamo.symbolic import Sym

from ..fusion import Group, reduction_info
from ..fusion.fusible import array_meta
from ..passes import may_signal
from ..passes.signals import REPORTS_DIFFER
from . import runtime
from .inline import Inliner, Pending
from .order import schedule
from .plan import BlockPlan, plain_row_buffer, static_shape, uses_out
from .reuse import donors

_LITERALS = (bool, int, str, type(None))

# Reductions that are one ufunc's reduce on an ndarray: (ufunc, forced dtype).
_UFUNC_REDUCE = {"sum": (np.add, None), "prod": (np.multiply, None),
                 "max": (np.maximum, None), "min": (np.minimum, None),
                 "any": (np.logical_or, np.dtype(bool)), "all": (np.logical_and, np.dtype(bool))}

# Ops whose implementation is one Python operator (or ``x[i]``) are written as that
# operator: the same call, without a function call's overhead, which dominates scalar
# code (a recursion over NumPy scalars ran 2x slower through ``operator.mul(a, b)``).
_SYNTAX = {operator.add: "({} + {})", operator.sub: "({} - {})", operator.mul: "({} * {})",
           operator.truediv: "({} / {})", operator.floordiv: "({} // {})",
           operator.mod: "({} % {})", operator.pow: "({} ** {})",
           operator.and_: "({} & {})", operator.or_: "({} | {})", operator.xor: "({} ^ {})",
           operator.lshift: "({} << {})", operator.rshift: "({} >> {})",
           operator.neg: "(-{})", operator.pos: "(+{})", operator.invert: "(~{})",
           operator.abs: "abs({})", operator.lt: "({} < {})", operator.le: "({} <= {})",
           operator.eq: "({} == {})", operator.ne: "({} != {})", operator.gt: "({} > {})",
           operator.ge: "({} >= {})", getitem: "{}[{}]"}


class Module:
    """Generated source lines and the objects they refer to by name."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.scope: dict[str, Any] = {"__builtins__": builtins,
                                      "_empty": np.empty, "_run": runtime.run_blocks,
                                      "_finish_partial": runtime.finish_partial,
                                      "_finish_mean": runtime.finish_mean,
                                      "_mean_exact": runtime.mean_exact,
                                      "_row_buffer": runtime.row_buffer,
                                      "_rows": runtime.rows,
                                      "_row_major": runtime.row_major,
                                      "_guard": runtime.guard,
                                      "_unguard": runtime.unguard,
                                      "_set_ufunc_state": runtime.switch_ufunc_state}
        self._bound: dict[int, str] = {}
        # a loop body's trip counter -> (step, base) of its loop variable, which is
        # ``step * trip + base`` (``loop_variable``): ``x[trip + 2]`` prints as ``x[trip]``
        self.loop_variables: dict[Node, tuple[int, int]] = {}

    def bind(self, value: Any, hint: str) -> str:
        """A global name for ``value`` in the generated module."""
        if id(value) in self._bound:
            return self._bound[id(value)]
        base = "_" + (re.sub(r"\W", "_", hint).strip("_") or "c")
        name, i = base, 1
        while name in self.scope:
            name, i = f"{base}_{i}", i + 1
        self.scope[name] = value
        self._bound[id(value)] = name
        return name

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def fmt(self, value: Any, name_of) -> str:
        """Source for an argument: node names, literals, or bound constants."""
        if isinstance(value, Node):
            return name_of(value)
        if isinstance(value, tuple):
            return "(" + "".join(self.fmt(v, name_of) + ", " for v in value) + ")"
        if isinstance(value, list):
            return "[" + ", ".join(self.fmt(v, name_of) for v in value) + "]"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k!r}: {self.fmt(v, name_of)}"
                                   for k, v in value.items()) + "}"
        if isinstance(value, slice):
            parts = (value.start, value.stop, value.step)
            return f"slice({', '.join(self.fmt(v, name_of) for v in parts)})"
        if hasattr(value, "graph_expr"):   # an int computed from int inputs (a loop index)
            sym = value.sym
            for symbol, p in value.nodes.items():   # in terms of the loop variable
                if p in self.loop_variables:
                    sym = in_loop_variable(sym, symbol, *self.loop_variables[p])
            return f"({sym.render({n: name_of(p) for n, p in value.nodes.items()})})"
        if type(value) in _LITERALS or (type(value) is float and math.isfinite(value)):
            return repr(value)
        if type(value) is complex and all(map(math.isfinite, (value.real, value.imag))):
            return repr(value)
        if value is Ellipsis:
            return "..."
        return self.bind(value, getattr(value, "__name__", None) or type(value).__name__)

    def subscript(self, index: Any, name_of) -> str:
        """An index as the program would write it between brackets: ``x[i + 1:, i]``
        (a slice in brackets is built by one instruction, ``slice(...)`` by a call)."""
        def part(v):
            if not isinstance(v, slice):
                return self.fmt(v, name_of)
            bounds = ["" if b is None else self.fmt(b, name_of)
                      for b in (v.start, v.stop, v.step)]
            return ":".join(bounds if v.step is not None else bounds[:2])
        if isinstance(index, tuple) and index:
            return ", ".join(map(part, index)) + ("," if len(index) == 1 else "")
        return part(index)

    def call(self, node: Node, name_of, args=None, extra: str = "") -> str:
        impl = ops.get(node.target).impl
        args = node.args if args is None else args
        if impl is getitem and len(args) == 2 and not node.kwargs and not extra:
            return f"{self.fmt(args[0], name_of)}[{self.subscript(args[1], name_of)}]"
        parts = [self.fmt(a, name_of) for a in args]
        syntax = _SYNTAX.get(impl)
        if syntax is not None and not node.kwargs and not extra and \
                syntax.count("{}") == len(parts):
            return syntax.format(*parts)
        fn = self.bind(impl, node.target)
        parts += [f"{k}={self.fmt(v, name_of)}" for k, v in node.kwargs.items()]
        if extra:
            parts.append(extra)
        return f"{fn}({', '.join(parts)})"

    def expr(self, node: Node, name_of) -> str:
        """The call computing ``node`` in straight-line code (fast exact reductions)."""
        info = reduction_info(node)
        src = array_meta(node.args[0]) if node.args else None
        if info is not None and src is not None and not src.scalar:
            fast = self.reduce(node, name_of(node.args[0]), info.axes, info.keepdims)
            if fast is not None:
                return fast
            if node.target == "mean" and not static_shape(src.shape):
                return self._mean_per_trip(node, name_of, info)
        return self.call(node, name_of)

    def _mean_per_trip(self, node: Node, name_of, info) -> str:
        """A mean over a count that changes per loop trip (``x[:i].mean()``): the exact
        mean with the count read off the array; NumPy's own call where it is 0 (its
        "Mean of empty slice" warning and NaN)."""
        src, meta = name_of(node.args[0]), array_meta(node.args[0])
        count = " * ".join(f"{src}.shape[{a}]" for a in info.axes) \
            if info.axes is not None else f"{src}.size"
        acc = runtime.mean_dtype(meta.dtype, info.dtype)
        half = meta.dtype if info.dtype is None and meta.dtype == np.float16 else None
        intp = self.bind(np.intp, "intp")
        return (f"(_mean_exact({src}, {info.axes!r}, {self.fmt(acc, str)}, {info.keepdims}, "
                f"{intp}(_count), {self.fmt(half, str)}) if (_count := {count}) "
                f"else {self.call(node, name_of)})")

    def reduce(self, node: Node, src: str, axes, keepdims: bool) -> str | None:
        """``ufunc.reduce`` (or the exact mean) for a reduction of an ndarray ``src``.

        ``np.sum(a, ...)`` on an ndarray is ``np.add.reduce(a, ...)`` after two Python
        wrapper layers (``fromnumeric._wrapreduction``); ``np.any`` reduces with
        ``dtype=bool``; ``np.mean`` is ``runtime.mean_exact``. Same loops, same result.
        None for reductions without such a form (var, argmax, ...).
        """
        info = reduction_info(node)
        if node.target == "sum" and len(axes or ()) == 1 and _short_float_axis(node):
            fn = self.bind(runtime.short_sum, "short_sum")
            return f"{fn}({src}, {axes[0]!r}, {self.fmt(info.dtype, str)}, {keepdims})"
        if node.target in _UFUNC_REDUCE:
            ufunc, forced = _UFUNC_REDUCE[node.target]
            dtype = forced if forced is not None else info.dtype
            fn = self.bind(ufunc.reduce, f"{ufunc.__name__}_reduce")
            return f"{fn}({src}, {axes!r}, {self.fmt(dtype, str)}, None, {keepdims})"
        if node.target == "mean":
            meta = array_meta(node.args[0])
            count = math.prod(meta.shape[a] for a in info.axes)
            if count == 0 or not static_shape(meta.shape):
                return None   # the empty-slice warning: let NumPy give it
            acc = runtime.mean_dtype(meta.dtype, info.dtype)
            half = meta.dtype if info.dtype is None and meta.dtype == np.float16 else None
            return (f"_mean_exact({src}, {axes!r}, {self.fmt(acc, str)}, {keepdims}, "
                    f"{self.bind(np.intp(count), f'count{count}')}, {self.fmt(half, str)})")
        return None

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


def _short_float_axis(node: Node) -> bool:
    """``node`` sums a float array over one axis short enough for ``runtime.short_sum``."""
    info, src = reduction_info(node), array_meta(node.args[0])
    if info is None or src is None or len(info.axes) != 1 or src.dtype.kind != "f":
        return False
    n = src.shape[info.axes[0]]
    return static_shape((n,)) and n in runtime.SHORT_AXIS


def plain_name(m: Module):
    """Names of values in straight-line code: constants are bound globals."""
    def name_of(node: Node) -> str:
        if node.op == CONSTANT:
            return m.bind(node.args[0], node.name)
        return node.name
    return name_of


@dataclass(frozen=True)
class Guarding:
    """How the generated function keeps eager's exceptions and floating-point reports.

    Fused code runs ops in another order than eager (groups), per block (one report
    per block), renamed (strength reduction) or merged (cse), so it runs under
    ``runtime.guard`` (every floating-point condition the caller would see raises)
    and, when something raises, the same ops run again op by op as eager:

    - ``rerun`` set (the bound name of a ``_Rerun``; graphs without effects): the
      whole function is guarded, and the original graph runs again.
    - ``rerun`` None (graphs with writes, random draws or ``np.errstate`` blocks,
      which must not run twice): each stretch between two effects that needs it
      (block-wise groups, ops out of program order) is guarded, and on an exception
      that stretch's ops run again in program order (its inputs are unchanged:
      no buffer is lent across a stretch, see ``reuse.donors``).

    ``catch_all``: run again on any exception (option ``rerun_on_error``), not only
    on a floating-point condition.
    """

    rerun: str | None = None
    catch_all: bool = True

    @property
    def catch(self) -> str:
        return "Exception" if self.catch_all else "FloatingPointError"


@dataclass
class LayoutCheck:
    """The inputs' layout a function checks before it reuses 2-D buffers (``cond``,
    see ``reuse.donors``). Where it fails, the function runs ``fallback``, the same
    code without that reuse; a loop body checks it each trip instead, and makes the
    reuses in ``per_trip`` (``out=`` a dead buffer) only on trips where it holds."""

    cond: str
    fallback: str | None = None
    per_trip: frozenset = frozenset()


def emit_forward(m: Module, graph: Graph, groups: list[Group], plans: list, name: str,
                 guarding: Guarding = Guarding()) -> None:
    """``def <name>(placeholders): ...``: the steps in ``order.schedule``'s order (the
    program's, for plain-path ops), then the outputs.

    ``guarding`` says how exceptions and floating-point conditions keep eager's form
    (see ``Guarding``). Dead private intermediates lend their buffers to the op that
    reads them last (``reuse.donors``); when a reused buffer of two or more
    dimensions is C-contiguous only if some inputs are, the function checks them
    (``LayoutCheck``): on entry, running ``_<name>_any_layout`` (the same code without
    that reuse) where they fail, or, in a loop body, on every trip.
    """
    if is_loop_body(graph):
        m.loop_variables[next(iter(graph.placeholders))] = loop_variable(graph)
    fns = {i: emit_group(m, p, i) for i, p in enumerate(plans) if p is not None}
    steps = schedule(graph, groups, plans)
    returned = graph.outputs
    segments = guarding.rerun is None
    reuse, checks = donors(graph, groups, steps, returned, layout_checked=True,
                           same_segment=segments)
    entry = None
    if checks and is_loop_body(graph):
        # a loop body's inputs may change layout from trip to trip: each trip checks
        # them, and a reuse that needs the check writes into ``out=None`` (a fresh
        # array, as eager) on a trip where it fails
        cond = " and ".join(_row_major(n.name) for n in graph.placeholders if n in checks)
        always, _ = donors(graph, groups, steps, returned, layout_checked=False,
                           same_segment=segments)
        entry = LayoutCheck(cond, per_trip=frozenset(n for n in reuse
                                                     if always.get(n) is not reuse[n]))
    elif checks:
        fallback = f"_{name}_any_layout"
        plain, _ = donors(graph, groups, steps, returned, layout_checked=False,
                          same_segment=segments)
        _emit_function(m, graph, groups, plans, steps, fns, plain, fallback, guarding, None)
        cond = " and ".join(_row_major(n.name) for n in graph.placeholders if n in checks)
        entry = LayoutCheck(cond, fallback)
    _emit_function(m, graph, groups, plans, steps, fns, reuse, name, guarding, entry)


def _emit_function(m: Module, graph: Graph, groups: list[Group], plans: list, steps: list,
                   fns: dict, reuse: dict, name: str, guarding: Guarding, entry) -> None:
    name_of = plain_name(m)
    returned = graph.outputs
    # (source, nodes it reads, nodes it makes, nodes it hands over: see HANDOVER)
    statements: list[tuple[str, list, tuple, tuple]] = []
    group_of: list[int] = []                           # the group of each statement
    written_back = _written_back(graph)
    guarded = _guarded_segments(graph, groups, plans, steps) if guarding.rerun is None \
        else set()
    donors_ = set(reuse.values())
    inliner = Inliner(graph, name_of, lambda n: n not in reuse and n not in donors_ and
                      n.target != "setitem" and not plain_row_buffer(n),
                      _next_trip_values(graph) - written_back)
    group_index: dict[Node, int] = {}

    def add(text: str, reads, made, handed, index: int) -> None:
        statements.append((text, reads, made, handed))
        group_of.append(index)

    def flush(pending) -> None:
        for p in pending:
            add(_located(p.node, f"{p.node.name} = {p.expr}"), p.reads, (p.node,), (),
                group_index[p.node])

    for index, node in steps:
        group = groups[index]
        if node is None or _takes_carried(node) or plain_row_buffer(node) or \
                group.segment in guarded:   # (see inline.py)
            flush(inliner.flush())
        if node is not None:
            text = _statement(m, node, inliner.name_of, reuse, entry, written_back)
            text, reads = inliner.resolve(node, text, node.inputs())
            if text is None:   # it reads pending values out of order: they get names
                flush(inliner.flush())
                text = _statement(m, node, name_of, reuse, entry, written_back)
            group_index[node] = index
            if group.segment not in guarded and inliner.candidate(node):
                inliner.pending.append(Pending(node, text.partition(" = ")[2], reads))
                continue
            flush(inliner.flush())
            row = plain_row_buffer(node)
            if row:   # a column broadcast over long rows (runtime.row_buffer)
                text = f"with _rows({row}):\n    {text}"
            handed = tuple(node.args[2]) if _takes_carried(node) else ()
            add(_located(node, text), reads, (node,), handed, index)
        else:
            outs = "".join(f"{n.name}, " for n in group.outputs)
            ins = ", ".join(name_of(n) for n in group.inputs)
            # (a group of unused ops, kept because they may warn, has no outputs)
            call = f"{outs}= {fns[index]}({ins})" if outs else f"{fns[index]}({ins})"
            add(_located(group.nodes[0], call), group.inputs, group.outputs, (), index)
    # the last value a loop trip computes, when only the next trip reads it, is
    # written into the statement that hands it over (``alpha = -(r[k] + alpha) / beta``)
    last = inliner.pending.pop() if inliner.pending and \
        inliner.pending[-1].node in inliner.next_trip else None
    flush(inliner.flush())
    params = ", ".join(n.name for n in graph.placeholders)
    if is_loop_body(graph):
        _emit_loop(m, graph, groups, plans, statements, group_of, name, guarding,
                   entry.cond if entry is not None else None, last)
        return
    m.emit(0, f"def {name}({params}):")
    if entry is not None:
        cond, fallback = entry.cond, entry.fallback
        m.emit(1, f"if not ({cond}):")
        m.emit(2, f"return {fallback}({params})")
    result = f"return {m.fmt(tuple(returned), name_of)}"
    if guarding.rerun is None:
        regions = _stretches(m, graph, groups, plans, group_of, name_of)
        _emit_with_dels(m, statements, set(returned), 1, regions, guarding.catch)
        m.emit(1, result)
    else:
        position = {n: i for i, n in enumerate(graph.nodes)}.__getitem__
        guard = _needs_guard(groups, plans, position)
        if not guard and not guarding.catch_all:
            _emit_with_dels(m, statements, set(returned), 1)
            m.emit(1, result)
        else:
            # the whole graph: on a visible floating-point condition (or any exception
            # with catch_all) the original graph runs op by op; outside the except
            # clause, so eager's exception is not chained to the fused code's
            m.emit(1, "try:")
            depth = 2
            if guard:
                m.emit(2, "_token = _guard()")
                m.emit(2, "try:")
                depth = 3
            _emit_with_dels(m, statements, set(returned), depth)
            m.emit(depth, result)
            if guard:
                m.emit(2, "finally:")
                m.emit(3, "_unguard(_token)")
            m.emit(1, f"except {guarding.catch} as _error:")
            m.emit(2, f"{guarding.rerun}.failed(_error)")
            m.emit(1, f"return {guarding.rerun}({params})")
    m.emit(0, "")


def _statement(m: Module, node: Node, name_of, reuse: dict, entry, written_back) -> str:
    """The statement computing ``node`` in straight-line code (without its location)."""
    if node in reuse:   # the donor dies here: write into it, no allocation
        out = reuse[node].name
        if entry is not None and node in entry.per_trip:
            out = f"({out} if _layout else None)"
        return f"{node.name} = {_call_out(m, node, name_of, out)}"
    if _takes_carried(node):
        # the loop gets its carried values in a list it empties, and the names that
        # die here go before it runs (HANDOVER): arrays the loop rebinds are not held
        # by this frame for the whole loop
        body, trips, carried, free = node.args
        fn = m.bind(body.__dynamo_takes_carried__, "loop")
        return (f"_carried = {m.fmt(list(carried), name_of)}\n{HANDOVER}\n"
                f"{node.name} = {fn}({m.fmt(trips, name_of)}, _carried"
                + "".join(f", {m.fmt(v, name_of)}" for v in free) + ")")
    if node.target == "setitem" and len(node.args) == 3 and not node.kwargs \
            and not plain_row_buffer(node):
        # a statement, as the program wrote it (no call of ops.setitem)
        x, value = (m.fmt(a, name_of) for a in (node.args[0], node.args[2]))
        text = f"{x}[{m.subscript(node.args[1], name_of)}] = {value}"
        return text if node in written_back else f"{text}\n{node.name} = {x}"
    return f"{node.name} = {m.expr(node, name_of)}"


def _guarded_segments(graph: Graph, groups: list[Group], plans: list, steps: list) -> set:
    """The segments whose statements run under the floating-point guard, with a
    fallback that reruns their ops by name (``_stretches``)."""
    position = {n: i for i, n in enumerate(graph.nodes)}.__getitem__
    members: dict[int, dict] = {}
    for index, _ in steps:
        members.setdefault(groups[index].segment, {})[index] = None
    return {seg for seg, ids in members.items()
            if _needs_guard([groups[g] for g in ids], [plans[g] for g in ids], position)}


# A line of a statement where the values it hands over (a loop's carried values, in a
# list the loop empties) are deleted when it reads them for the last time
# (``_emit_with_dels``), rather than after it.
HANDOVER = "# (hand-over)"


def _takes_carried(node: Node) -> bool:
    """A loop node whose body the numpy backend compiled (``_emit_loop``)."""
    return node.target == "fori_loop" and \
        hasattr(node.args[0], "__dynamo_takes_carried__")


def _located(node: Node, text: str) -> str:
    """``text`` after the comment that says where the program wrote ``node``: the
    compiled code gets the program's file and line (warnings, tracebacks;
    ``dynamo.source.compile_source(user_lines=True)``)."""
    loc = location_comment(node)
    return f"{loc}\n{text}" if loc else text


def is_loop_body(graph: Graph) -> bool:
    """The body of a loop node (``dynamo/ops/loops.py``): its first input is the trip."""
    first = next(iter(graph.placeholders), None)
    return first is not None and "loop_index" in first.meta


def loop_variable(graph: Graph) -> tuple[int, int]:
    """``(step, base)``: a loop body's loop variable runs ``base, base + step, ...``,
    the index expression its body uses most, so that it computes no index it need not.
    ``x[i] += x[i - 1]`` traced from ``i = 1`` (two trips peeled, the body reads
    ``x[trip + 2]`` and ``x[trip + 1]``) runs ``for trip in range(2, 2 + trips):``
    with ``x[trip]`` and ``x[(trip - 1)]``; ``for i in range(n - 1, -1, -1)`` runs
    ``for trip in range(17, 17 - trips, -1)``. ``(1, 0)`` (the trip count itself)
    where the trip counter is a value of the body, not only inside index expressions,
    or where some index steps by other than a multiple of that step."""
    trip = next(iter(graph.placeholders))
    forms: Counter = Counter()
    values = [graph.outputs] + [(n.args, n.kwargs) for n in graph.nodes]
    while values:
        value = values.pop()
        if value is trip:
            return 1, 0
        if isinstance(value, (tuple, list)):
            values.extend(value)
        elif isinstance(value, dict):
            values.extend(value.values())
        elif isinstance(value, slice):
            values.extend((value.start, value.stop, value.step))
        elif hasattr(value, "graph_expr"):
            forms.update((dict(value.sym.terms)[symbol], value.sym.const)
                         for symbol, p in value.nodes.items() if p is trip)
    if not forms:
        return 1, 0
    (step, base), _ = forms.most_common(1)[0]
    if any(c % step for c, _ in forms):
        return 1, 0
    return step, base


def in_loop_variable(sym: Sym, symbol: str, step: int, base: int) -> Sym:
    """``sym``, affine in the trip counter ``symbol``, in terms of the loop variable
    ``v = step * trip + base``: ``c * trip + k`` is ``(c // step) * v + k - (c // step)
    * base`` (``loop_variable`` chose ``step`` so that it divides ``c``)."""
    terms = dict(sym.terms)
    ratio = terms[symbol] // step
    terms[symbol] = ratio
    return replace(sym, terms=tuple(sorted(terms.items())), const=sym.const - ratio * base)


def _emit_loop(m: Module, graph: Graph, groups: list[Group], plans: list, statements: list,
               group_of: list[int], name: str, guarding: Guarding,
               layout: str | None = None, last: Pending | None = None) -> None:
    """A loop body as the loop itself (``Graph.python_code`` prints the same)::

        def _forward3(trips, x, w):
            for trip in range(trips):
                ...                           # the body's statements, guarded by stretch
                x, = (setitem_1, )            # the next trip's carried values
            return (x, )                      # and the temporaries' last values
    """
    name_of = plain_name(m)
    trip, *inputs = graph.placeholders
    carried = "".join(f"{n.name}, " for n in inputs if n.meta.get("carried"))
    free = [p.name for p in inputs if not p.meta.get("carried")]
    values = graph.outputs
    n = carried.count(",")
    # ops.fori_loop calls name(trips, *carried, *free); generated callers hand the
    # carried values over in a list that the loop empties (``_takes_carried``)
    m.emit(0, f"def {name}({', '.join(['trips', *(p.name for p in inputs)])}):")
    m.emit(1, f"return {name}_taking(trips, [{carried}]{''.join(', ' + f for f in free)})")
    m.emit(0, "")
    m.emit(0, f"def {name}_taking({', '.join(['trips', '_carried', *free])}):")
    if carried:
        m.emit(1, f"{carried}= _carried")
    m.emit(1, "_carried.clear()")
    step, base = m.loop_variables.get(trip, (1, 0))
    stop = f"{base} + trips" if step == 1 else f"{base} - trips" if step == -1 else \
        f"{base} + {step} * trips" if step > 0 else f"{base} - {-step} * trips"
    counted = "trips" if (step, base) == (1, 0) else \
        f"{base}, {stop}" if step == 1 else f"{base}, {stop}, {step}"
    m.emit(1, f"for {trip.name} in range({counted}):")
    start = len(m.lines)
    if layout is not None:   # the inputs' layout this trip (reuse.donors' checks)
        m.emit(2, f"_layout = {layout}")
    regions = _stretches(m, graph, groups, plans, group_of, name_of)
    # (what the last value reads lives until it is handed over)
    _emit_with_dels(m, statements, set(values) | set(last.reads if last else ()), 2,
                    regions, guarding.catch)
    if carried:
        written_back = _written_back(graph)
        slots = [p for p in inputs if p.meta.get("carried")]
        sources = [p.name if v in written_back else
                   last.expr if last is not None and v is last.node else m.fmt(v, name_of)
                   for p, v in zip(slots, values[:n])]
        if last is not None:
            m.emit(2, location_comment(last.node))
        for line in _next_trip(slots, sources, last.expr if last is not None else None):
            m.emit(2, line)
    if len(m.lines) == start:   # a body that changes nothing (``x = y`` every trip)
        m.emit(2, "pass")
    rest = "".join(m.fmt(v, name_of) + ", " for v in values[n:])
    m.emit(1, f"return ({carried}{rest})")
    m.emit(0, "")


def _written_back(graph: Graph) -> set[Node]:
    """The writes ``x[i] = v`` of a loop body whose result is only the carried ``x``
    itself for the next trip: they need no name (``setitem = x``; ``x = setitem``)."""
    if not is_loop_body(graph):
        return set()
    carried = [p for p in graph.placeholders if p.meta.get("carried")]
    read = {r for n in graph.nodes if n.op != OUTPUT for r in n.inputs()}
    read.update(v for v in graph.outputs[len(carried):] if isinstance(v, Node))
    return {v for p, v in zip(carried, graph.outputs)
            if isinstance(v, Node) and v.target == "setitem" and v.args[0] is p
            and v not in read and list(graph.outputs).count(v) == 1}


def _next_trip(carried: list[Node], sources: list[str], expr: str | None = None) -> list[str]:
    """The statements that give the carried values their next trip's values: one plain
    assignment each (a value the trip did not change needs none), or one tuple
    assignment when a carried name is also read as a source (``A, B = B, A``).
    ``expr``, one of the sources, is the trip's last op written in (it may read the
    carried names): its assignment comes first, before any of them is rebound."""
    pairs = [(p.name, src) for p, src in zip(carried, sources) if src != p.name]
    targets = {t for t, _ in pairs}
    if any(src in targets for _, src in pairs):
        return [f"{''.join(t + ', ' for t, _ in pairs)}= "
                f"({''.join(src + ', ' for _, src in pairs)})"]
    pairs.sort(key=lambda pair: pair[1] != expr)
    return [f"{t} = {src}" for t, src in pairs]


def _next_trip_values(graph: Graph) -> set[Node]:
    """The values a loop body computes for its carried slots (none outside a body)."""
    if not is_loop_body(graph):
        return set()
    n = sum(1 for p in graph.placeholders if p.meta.get("carried"))
    return {v for v in graph.outputs[:n] if isinstance(v, Node) and v.op == CALL}


def _needs_guard(groups: list[Group], plans: list, position) -> bool:
    """Running these groups as generated may report a floating-point condition
    otherwise than eager would: some op may signal one (``passes.may_signal``), and
    a group runs block-wise, or ops that may signal run out of program order
    (``position``: a node's place in the graph; a view moved ahead of them changes
    nothing), or a pass merged or renamed an op that may
    (``passes.signals.REPORTS_DIFFER``). Otherwise the code is eager's calls in
    eager's order (with eager's reductions and ``out=``), and needs no guard."""
    nodes = [n for g in groups for n in g.nodes]
    signalling = [n for n in nodes if may_signal(n)]
    if not signalling:
        return False
    return (any(p is not None for p in plans)
            or any(position(a) > position(b) for a, b in zip(signalling, signalling[1:]))
            or any(n.meta.get(REPORTS_DIFFER) for n in signalling))


def _stretches(m: Module, graph: Graph, groups: list[Group], plans: list,
               group_of: list[int], name_of) -> list[tuple[int, int, list[str] | None]]:
    """The statements cut into stretches between effects: (first, end, fallback).

    ``fallback`` (None: the stretch runs unguarded) is the stretch's ops in program
    order, one eager call each, for a stretch that needs the guard (``_needs_guard``).
    """
    position = {n: i for i, n in enumerate(graph.nodes)}.__getitem__
    regions = []
    i = 0
    while i < len(group_of):
        j = i
        while j < len(group_of) and groups[group_of[j]].segment == groups[group_of[i]].segment:
            j += 1
        members = list(dict.fromkeys(group_of[i:j]))
        fallback = None
        if _needs_guard([groups[g] for g in members], [plans[g] for g in members], position):
            nodes = [n for g in members for n in groups[g].nodes]
            fallback = [line for n in sorted(nodes, key=position)
                        for line in _located(n, f"{n.name} = {m.call(n, name_of)}").split("\n")]
        regions.append((i, j, fallback))
        i = j
    return regions


def _emit_with_dels(m: Module, statements: list, keep: set, depth: int,
                    regions: list | None = None, catch: str = "Exception") -> None:
    """Emit statements, dropping each intermediate after its last reader.

    Without the ``del`` every intermediate lives until the function returns: the
    memory of an unrolled time-stepping loop grows with its trip count, and fresh
    allocations miss the caches that freed ones would hit (a 64x64 stencil over 30 steps
    ran 5x slower and held 8 MB instead of 0.2 MB). A ``del`` costs tens of
    nanoseconds, so every intermediate gets one, small or big.

    ``regions`` (``_stretches``) puts each stretch with a fallback under the guard:
    on ``catch`` its fallback runs instead. The values the stretch reads from before
    it are dropped only after the stretch (the fallback reads them again); those it
    makes are dropped at their last reader inside it, and after the fallback, which
    makes them again.
    """
    last: dict[Node, int] = {}
    for i, (_, reads, _, _) in enumerate(statements):
        for n in reads:
            last[n] = i
    dies: dict[int, list[Node]] = {}
    for n, i in last.items():   # (a NumPy scalar is not worth a del: scalar loops)
        meta = array_meta(n)
        if n not in keep and n.op not in (PLACEHOLDER, CONSTANT) and \
                not (meta is not None and meta.scalar):
            dies.setdefault(i, []).append(n)

    def dels(dead: list[Node], depth: int) -> None:
        if dead:
            m.emit(depth, f"del {', '.join(n.name for n in dead)}")

    for first, end, fallback in regions or [(0, len(statements), None)]:
        if fallback is None:
            for i in range(first, end):
                text, _, _, handed = statements[i]
                dead = dies.get(i, [])
                for line in text.split("\n"):
                    if line == HANDOVER:   # the values it hands over go before it runs
                        dels([n for n in dead if n in handed], depth)
                        dead = [n for n in dead if n not in handed]
                    else:
                        m.emit(depth, line)
                dels(dead, depth)
            continue
        made = {n for i in range(first, end) for n in statements[i][2]}
        m.emit(depth, "try:")
        m.emit(depth + 1, "_token = _guard()")
        m.emit(depth + 1, "try:")
        for i in range(first, end):
            for line in statements[i][0].split("\n"):
                if line != HANDOVER:
                    m.emit(depth + 2, line)
            dels([n for n in dies.get(i, []) if n in made], depth + 2)
        m.emit(depth + 1, "finally:")
        m.emit(depth + 2, "_unguard(_token)")
        m.emit(depth + 1, "_redo = False")
        m.emit(depth, f"except {catch}:")
        m.emit(depth + 1, "_redo = True")
        # outside the except clause: eager's exception is not chained to the fused code's
        m.emit(depth, "if _redo:   # again op by op, as eager")
        for line in fallback:
            m.emit(depth + 1, line)
        dying = [n for i in range(first, end) for n in dies.get(i, [])]
        dels([n for n in dying if n in made], depth + 1)
        dels([n for n in dying if n not in made], depth)


# --------------------------------------------------------------------------- groups

def emit_group(m: Module, plan: BlockPlan, index: int) -> str:
    """Define ``_group<index>`` (block-wise) and ``_plain<index>``; return the former."""
    group = plan.group
    name_of = plain_name(m)
    params = ", ".join(name_of(n) for n in group.inputs)
    outs = "(" + "".join(f"{n.name}, " for n in group.outputs) + ")"
    plain = f"_plain{index}"
    m.emit(0, f"def {plain}({params}):")
    for node, dead in _last_reads(group):
        for line in _located(node, f"{node.name} = {m.expr(node, name_of)}").split("\n"):
            m.emit(1, line)
        if dead:   # free it now, as eager's temporaries are: malloc hands it out again
            m.emit(1, "del " + ", ".join(n.name for n in dead))
    m.emit(1, f"return {outs}")
    m.emit(0, "")

    fn = f"_group{index}"
    m.emit(0, f"def {fn}({params}):")
    checks = [_row_major(name_of(n)) for n in group.inputs
              if n.op != CONSTANT and array_meta(n) is not None and array_meta(n).ndim >= 2
              and not array_meta(n).scalar]
    if checks:
        # eager gives other layouts (strides) for other inputs' layouts: keep eager's
        m.emit(1, f"if not ({' and '.join(checks)}):")
        m.emit(2, f"return {plain}({params})")
    results = _emit_allocations(m, plan)
    _emit_block(m, plan)
    scratch = m.bind(runtime.ScratchCache([(s.shape, s.dtype) for s in plan.slots]),
                     f"scratch{index}")
    m.emit(1, f"_run(_block, {plan.nblocks}, {scratch}, {plan.threads})")
    _emit_finish(m, plan)
    m.emit(1, "return (" + "".join(f"{results[n]}, " for n in group.outputs) + ")")
    m.emit(0, "")
    return fn


def _last_reads(group: Group) -> list[tuple[Node, list[Node]]]:
    """Each member with the members it reads for the last time (none of them an
    output of the group)."""
    last = {n: i for i, member in enumerate(group.nodes) for n in member.inputs()}
    members, outputs = set(group.nodes), set(group.outputs)
    return [(node, [n for n in dict.fromkeys(node.inputs()) if n in members
                    and n not in outputs and last[n] == i])
            for i, node in enumerate(group.nodes)]


def _row_major(name: str) -> str:
    """The test that ``name`` is laid out in C order (``runtime.row_major``); the
    attribute first, since most arrays are C-contiguous."""
    return f"({name}.flags.c_contiguous or _row_major({name}))"


def _partial(plan: BlockPlan, node: Node) -> bool:
    return plan.partial and node in plan.group.reductions


def _emit_allocations(m: Module, plan: BlockPlan) -> dict[Node, str]:
    """Allocate each output (or each partial-result vector); name what is returned."""
    results = {}
    for node in plan.group.outputs:
        meta = array_meta(node)
        if _partial(plan, node):
            dtype = _partial_dtype(node)
            m.emit(1, f"_p_{node.name} = _empty({plan.nblocks}, {m.bind(dtype, str(dtype))})")
            results[node] = node.name
        elif plan.recycle:
            recycler = m.bind(runtime.Recycler(meta.shape, meta.dtype), f"out_{node.name}")
            m.emit(1, f"_o_{node.name} = {recycler}.take()")
            results[node] = f"_o_{node.name}"
        else:
            m.emit(1, f"_o_{node.name} = _empty({meta.shape!r}, "
                      f"{m.bind(meta.dtype, str(meta.dtype))})")
            results[node] = f"_o_{node.name}"
    return results


def _partial_dtype(node: Node) -> np.dtype:
    if node.target == "mean":
        src = array_meta(node.args[0]).dtype
        return runtime.mean_dtype(src, reduction_info(node).dtype) or src
    return array_meta(node).dtype


def _emit_block(m: Module, plan: BlockPlan) -> None:
    group, k, d = plan.group, plan.axis, plan.domain
    if plan.row_buffer:
        m.emit(1, f"_wide, _narrow = _row_buffer({plan.row_buffer})")
    m.emit(1, "def _block(_i, _s):")
    if k == 0:
        m.emit(2, "_q = _i")
    else:
        m.emit(2, f"_r, _q = divmod(_i, {plan.per_axis})")
        for a in reversed(range(1, k)):
            m.emit(2, f"_r, _i{a} = divmod(_r, {d[a]})")
        m.emit(2, "_i0 = _r")
    m.emit(2, f"_lo = _q * {plan.block}")
    m.emit(2, f"_hi = _lo + {plan.block}")
    if plan.per_axis * plan.block != d[k]:
        m.emit(2, f"if _hi > {d[k]}:")
        m.emit(3, f"_hi = {d[k]}")
        if any(s.sliced for s in plan.slots):
            cut = ", ".join(f"_s[{j}][:_hi - _lo]" if s.sliced else f"_s[{j}]"
                            for j, s in enumerate(plan.slots))
            m.emit(3, f"_s = ({cut},)")
    if plan.slots:
        m.emit(2, "".join(f"_s{j}, " for j in range(len(plan.slots))) + "= _s")
    names: dict[Node, str] = {}
    for node in group.inputs:
        meta = array_meta(node)
        outer = plain_name(m)(node)
        index = plan.index(meta.shape) if meta is not None and not meta.scalar else ""
        if index:
            names[node] = f"_b_{node.name}"
            m.emit(2, f"_b_{node.name} = {outer}{index}")
        else:
            names[node] = outer
    name_of = lambda n: names.get(n, n.name)
    outputs = set(group.outputs)
    narrow = False
    for node in group.nodes:
        names[node] = node.name
        if plan.row_buffer and narrow != (node.meta.get("kind") == ELEMENTWISE):
            narrow = not narrow   # elementwise ops by rows; anything else as the caller's
            m.emit(2, f"_set_ufunc_state({'_narrow' if narrow else '_wide'})")
        if node in group.reductions:
            _emit_reduction(m, plan, node, name_of, node in outputs)
            continue
        meta = array_meta(node)
        target = f"_o_{node.name}{plan.index(meta.shape) or '[...]'}"
        repeats = plan.repeats(meta.shape)
        if node in plan.slot_of:
            m.emit(2, f"{node.name} = {_call_out(m, node, name_of, f'_s{plan.slot_of[node]}')}")
        elif node in outputs and uses_out(node):
            m.emit(2, f"{node.name} = {_call_out(m, node, name_of, target)}")
            continue
        else:
            m.emit(2, f"{node.name} = {m.call(node, name_of)}")
        if node in outputs:
            if repeats:   # the same values in many blocks: write them once
                m.emit(2, f"if {' and '.join(repeats)}:")
                m.emit(3, f"{target} = {node.name}")
            else:
                m.emit(2, f"{target} = {node.name}")
    if narrow:   # the next block starts as the caller's
        m.emit(2, "_set_ufunc_state(_wide)")


def _call_out(m: Module, node: Node, name_of, out: str) -> str:
    """A ufunc call writing into ``out``, always as the keyword ``out=``.

    Positional outputs (``np.maximum(a, 0, a)``) are deprecated for ``np.maximum`` and
    ``np.minimum`` since NumPy 2.4 (a DeprecationWarning eager code does not emit); the
    keyword costs about 10 ns a call.
    """
    return m.call(node, name_of, extra=f"out={out}")


def _emit_reduction(m: Module, plan: BlockPlan, node: Node, name_of, is_output: bool) -> None:
    info = reduction_info(node)
    src = name_of(node.args[0])
    if _partial(plan, node):
        # a full reduction of the block: one partial result per block
        if node.target == "mean":
            acc = runtime.mean_dtype(array_meta(node.args[0]).dtype, info.dtype)
            fn = m.bind(np.add.reduce, "add_reduce")
            m.emit(2, f"_p_{node.name}[_i] = {fn}({src}, None, {m.fmt(acc, str)})")
        else:
            m.emit(2, f"_p_{node.name}[_i] = {m.reduce(node, src, None, False)}")
        return
    ndim = len(plan.domain)
    axes = tuple(a - ndim for a in info.axes)   # negative: the same axes in a block
    expr = m.reduce(node, src, axes, info.keepdims)
    if expr is None:
        fn = m.bind(ops.get(node.target).impl, node.target)
        extra = "".join(f", {k}={m.fmt(v, name_of)}" for k, v in
                        (("dtype", info.dtype), ("ddof", info.ddof)) if v is not None)
        axis = axes[0] if node.target in ("argmax", "argmin") else axes
        expr = f"{fn}({src}, axis={axis!r}, keepdims={info.keepdims}{extra})"
    m.emit(2, f"{node.name} = {expr}")
    if is_output:
        index = ", ".join([f"_i{a}" for a in range(plan.axis)] + ["_lo:_hi"])
        m.emit(2, f"_o_{node.name}[{index}] = {node.name}")


def _emit_finish(m: Module, plan: BlockPlan) -> None:
    """Combine the per-block partial results of full reductions."""
    for node in plan.group.reductions:
        if not _partial(plan, node):
            continue
        meta = array_meta(node)
        if node.target == "mean":
            src = array_meta(node.args[0])
            dtype = reduction_info(node).dtype
            m.emit(1, f"{node.name} = _finish_mean(_p_{node.name}, {src.size}, "
                      f"{m.bind(src.dtype, str(src.dtype))}, {m.fmt(dtype, str)}, "
                      f"{meta.shape!r}, {meta.scalar})")
        else:
            m.emit(1, f"{node.name} = _finish_partial({node.target!r}, _p_{node.name}, "
                      f"{meta.shape!r}, {meta.scalar})")
