"""What one trace produces: the graph, its inputs, its guards and its side effects.

The root translator and every function it inlines share one ``OutputGraph``. Array
ops go in through ``call_op``; values from outside come in through
``add_input`` (called by :func:`dynamo.variables.builder.wrap`). At a RETURN or a
graph break, :mod:`dynamo.codegen` turns it into glue code around the compiled graph.

Example::

    >>> out = OutputGraph(fn_globals, config)
    >>> x = out.add_input(np.zeros(3, "f4"), LocalSource("x"))
    >>> y = out.call_op(ops.get("exp"), [x], {})
    >>> print(out.graph)
    def forward(x):
        exp = ops.exp(x)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from dynamo.guards import ARRAY, EXPR, ArraySpec, Guard, GuardSet, ShapeSource, Source

from . import ops
from .exc import Unsupported
from .graph import Graph
from .ops import ArrayMeta, meta_of
from .ops.identity import NEVER, possible_layouts
from .symbolic import (
    DynamicPolicy,
    Sym,
    SymArg,
    SymbolClasses,
    SymInt,
    substitute,
    symbolic_shape,
    symbols_in,
)
from .variables import (
    ArrayVariable,
    CellVariable,
    ClassVariable,
    ConstantVariable,
    DictVariable,
    LibraryFunctionVariable,
    ListVariable,
    NamedTupleVariable,
    ObjectVariable,
    SequenceVariable,
    SliceVariable,
    TupleVariable,
    Variable,
)
from .variables.objects import RandomObjectVariable


class SideEffects:
    """Mutations of objects that exist outside the trace, in first-mutation order.

    ``mutated`` holds lists, dicts, objects (attribute writes) and closure cells with a
    source; ``globals`` maps global names to their new Variables.
    """

    def __init__(self, on_first_mutation=None) -> None:
        self.mutated: dict[int, Variable] = {}
        self.globals: dict[str, Variable] = {}
        self.version = 0
        # called with a sourced Variable when it is first mutated (OutputGraph uses it
        # to guard that no other input is the same object, see ``register_input``)
        self.on_first_mutation = on_first_mutation

    def mutate(self, var: Variable) -> None:
        self.version += 1
        if getattr(var, "source", None) is not None and id(var) not in self.mutated:
            self.mutated[id(var)] = var
            if self.on_first_mutation is not None:
                self.on_first_mutation(var)

    def store_global(self, name: str, value: Variable) -> None:
        self.version += 1
        self.globals[name] = value

    def __bool__(self) -> bool:
        return bool(self.mutated or self.globals)


class OutputGraph:
    def __init__(self, fn_globals: dict, config, layout_guards: bool = False,
                 dynamic: DynamicPolicy | None = None):
        self.graph = Graph()
        self.guards = GuardSet()
        self.fn_globals = fn_globals
        self.config = config
        self.layout_guards = layout_guards       # True/"strides", "contiguity" or
        #                                          "dynamic-contiguity" (see add_input)
        self.input_vars: dict[Source, Variable] = {}
        self.input_objects: dict[Source, Any] = {}  # the real values, while tracing
        # one Variable per runtime object (see register_input): id -> (Variable, first
        # source) for arrays, lists, dicts and user objects; the mutable ones by type
        self.inputs_by_id: dict[int, tuple[Variable, Source]] = {}
        self.mutable_inputs: dict[type, list[tuple[Variable, Source]]] = {}
        self.input_cells: dict[int, tuple[Any, CellVariable]] = {}
        self.example_inputs: dict[Any, Any] = {}  # placeholder node -> the real value
        self.object_nodes: dict[Source, Any] = {}  # source -> placeholder (object_input)
        self.side_effects = SideEffects(on_first_mutation=self._guard_unaliased)
        self.kind: str | None = None              # numpy or cupy, fixed by the first array
        self.current_loc: dict = {}                # set by the translator per instruction
        self.writes_inputs = False                 # an op writes into an input's memory
        self.catching = False                      # set by the translator: see call_op
        self.ops_in_try = False                    # an op was added while catching
        self.draws = False                         # an op drew random numbers
        self.dynamic = dynamic or DynamicPolicy()  # which input sizes are symbolic
        self.symbols: dict[str, Source] = {}       # symbol name -> ShapeSource
        self.symbol_hints: dict[str, int] = {}
        self.symbol_nodes: dict = {}
        self.symbol_classes = SymbolClasses()
        self.trace = None                          # symbolic.Trace, set by convert

    def release(self) -> None:
        """Drop the real values the trace read (arguments, globals, their objects), once
        the entry is built. The trace's Variables and this graph refer to each other;
        without this, the call's arguments would live on in that reference cycle until
        the cyclic GC runs (a generator argument's ``finally`` at ``del g``, an object's
        ``__del__``, the memory of the traced call's arrays)."""
        for table in (self.input_vars, self.input_objects, self.inputs_by_id,
                      self.mutable_inputs, self.input_cells, self.example_inputs):
            table.clear()

    # ------------------------------------------------------------------ inputs
    def add_input(self, value: Any, source: Source) -> ArrayVariable:
        meta = self._symbolic_dims(meta_of(value), source, value)
        self._check_kind(meta.kind)
        name = _placeholder_name(source)
        node = self.graph.placeholder(name, meta={"array": meta, "source": source})
        self.example_inputs[node] = value
        # layout_guards: a backend that depends on memory layout pins it, exactly
        # (True: strides) or loosely ("contiguity": the C/F contiguity flags);
        # "dynamic-contiguity": strides, except for a contiguous input with a symbolic
        # size, whose strides follow from its shape and change with it (the flags)
        layout = self.layout_guards if not meta.scalar else False
        if layout == "dynamic-contiguity":
            contiguous = value.flags.c_contiguous or value.flags.f_contiguous
            dynamic = any(isinstance(d, SymInt) for d in meta.shape)
            layout = "contiguity" if contiguous and dynamic else True
        spec = ArraySpec(
            cls=type(value), dtype=value.dtype,
            shape=tuple(None if isinstance(d, SymInt) else d for d in meta.shape),
            strides=tuple(value.strides) if layout and layout != "contiguity" else None,
            contiguity=(bool(value.flags.c_contiguous), bool(value.flags.f_contiguous))
            if layout == "contiguity" else None,
            device=value.device.id if meta.kind == ops.CUPY else None)
        self.guards.add(Guard(source, ARRAY, spec))
        return ArrayVariable(node, meta, source)

    def input_alias(self, value: Any, source: Source) -> Variable | None:
        """The Variable of ``value`` when the trace already holds this very object under
        another source (``f(l, l)``, an argument that is a global, ``o.items is lst``),
        else None. One object is one Variable, so a write through one name is seen
        through the other and written back once; the entry is guarded to serve only
        calls where the two sources are again one object."""
        known = self.inputs_by_id.get(id(value))
        if known is None:
            return None
        var, first = known
        self.guards.add(_identity_guard(source, first, same=True))
        return var

    def register_input(self, value: Any, var: Variable, source: Source) -> None:
        """Remember an input whose identity the trace relies on, for ``input_alias``.

        Arrays, lists, dicts and user objects. ``value`` stays alive in
        ``input_objects`` while tracing, so its ``id`` is not reused. A mutable input
        that is distinct from an input of its type that the trace mutates is guarded
        distinct (see ``_guard_unaliased``)."""
        if isinstance(var, ArrayVariable):
            self.inputs_by_id[id(value)] = (var, source)
        elif isinstance(var, (ListVariable, DictVariable, ObjectVariable)):
            self.inputs_by_id[id(value)] = (var, source)
            group = self.mutable_inputs.setdefault(type(value), [])
            for other, other_source in group:
                if id(other) in self.side_effects.mutated:
                    self.guards.add(_identity_guard(source, other_source, same=False))
            group.append((var, source))

    def _guard_unaliased(self, var: Variable) -> None:
        """``var`` is mutated for the first time: guard that it is not the same object
        as any other input of its type. Traced as distinct, the two are independent
        Variables, which is wrong when one call passes one object for both (``f(l, l)``
        after ``f(l, m)``): that call must miss this entry and trace its own.

        Only pairs with a mutated object need the guard (reading two aliases as two
        Variables gives the same values, and ``is`` between inputs guards itself, see
        ``is_same_object``), and only within one type (other types are never the
        same object), which keeps the check short."""
        for group in self.mutable_inputs.values():
            if any(v is var for v, _ in group):
                source = next(s for v, s in group if v is var)
                for other, other_source in group:
                    if other is not var:
                        self.guards.add(_identity_guard(source, other_source, same=False))
                return

    def object_input(self, value: Any, source: Source):
        """A graph input that is no array (a ``np.random.Generator``), one per source."""
        node = self.object_nodes.get(source)
        if node is None:
            node = self.graph.placeholder(_placeholder_name(source),
                                          meta={"object": type(value), "source": source})
            self.example_inputs[node] = value
            self.object_nodes[source] = node
        return node

    # ------------------------------------------------------------------ symbolic sizes
    def _symbolic_dims(self, meta: ArrayMeta, source: Source, value) -> ArrayMeta:
        """Make the dynamic dimensions of an input symbolic (sizes 0 and 1 stay static:
        NumPy treats them specially, so an entry never generalizes over them)."""
        dims = self.dynamic.dims(source, value) if not meta.scalar else ()
        shape = list(meta.shape)
        for d in dims:
            if shape[d] < 2:
                continue
            shape[d] = self.new_symbol(ShapeSource(source, d), shape[d], "a dynamic size")
        return meta.with_(shape=tuple(shape)) if dims else meta

    def new_symbol(self, source: Source, value: int, what: str) -> SymInt:
        """A symbolic int read from ``source`` (a size, or an int argument), guarded
        ``>= 2``: NumPy treats 0 and 1 specially, so those keep their own entries."""
        name = self.dynamic.symbol_for(source)
        self.symbols[name] = source
        self.symbol_hints[name] = value
        self.guards.add(Guard(source, EXPR, f"{source.expr()} >= 2",
                              note=f"{what} (0 and 1 are specialized)"))
        return SymInt(value, Sym.symbol(name, source.expr()))

    def symbol_placeholder(self, name: str):
        """The graph input that carries the runtime value of a symbolic size."""
        node = self.symbol_nodes.get(name)
        if node is None:
            source = self.symbols[name]
            node = self.graph.placeholder(name, meta={"symbol": name, "source": source})
            self.example_inputs[node] = self.symbol_hints[name]
            self.symbol_nodes[name] = node
        return node

    def graph_arg(self, value: Any) -> Any:
        """A symbolic int as a graph argument: an expression over symbol inputs."""
        if isinstance(value, SymInt):
            return SymArg(value.sym, {n: self.symbol_placeholder(n) for n in value.sym.symbols})
        return value

    def _fit(self, op, meta_args, meta_kwargs, meta):
        """Every output dimension of an op with symbolic inputs, as an affine SymInt."""
        if not symbols_in((meta_args, meta_kwargs)):
            return meta
        rule = lambda a, k: op.meta(op, a, k)  # noqa: E731
        sources = {n: s.expr() for n, s in self.symbols.items()}
        return symbolic_shape(rule, meta_args, meta_kwargs, meta, self.symbol_hints, sources,
                              self.symbol_classes, self._guard_equal)

    def add_symbolic_guards(self) -> None:
        """Guards from what the trace learned: branches taken on sizes, and the sizes it
        had to use concretely (pinned: static for this entry)."""
        trace = self.trace
        if trace is None or not self.symbols:
            return
        note = "a branch on a dynamic size"
        for expr in dict.fromkeys(trace.decisions):
            self.guards.add(Guard(next(iter(self.symbols.values())), EXPR, expr, note=note))
        for expr in dict.fromkeys(trace.ranges):
            self.guards.add(Guard(next(iter(self.symbols.values())), EXPR, expr,
                                  note="the sizes an op's fitted shape holds for"))
        for name in sorted(self._pinned_names()):
            src = self.symbols[name]
            self.guards.add(Guard(src, EXPR, f"{src.expr()} == {self.symbol_hints[name]}",
                                  note="a dynamic size used as a plain int: pinned"))

    def _pinned_names(self) -> set[str]:
        classes = self.symbol_classes
        reps = {classes.find(s) for s in (self.trace.pins if self.trace else ())}
        return {s for s in self.symbols if classes.find(s) in reps}

    def pinned_sizes(self) -> set:
        """Sizes a later compile should keep static (they were pinned here)."""
        return {self.symbols[s] for s in self._pinned_names()}

    def _guard_equal(self, group) -> None:
        """Sizes an op needs equal (``x + y`` with both lengths dynamic): guard it."""
        first, *rest = sorted(group)
        for other in rest:
            a, b = self.symbols[first], self.symbols[other]
            self.guards.add(Guard(b, EXPR, f"{b.expr()} == {a.expr()}",
                                  note="sizes used together"))

    def _keep_rerunnable(self, op: ops.OpDef, target) -> None:
        """Ops inside a ``try`` (``self.catching``: some frame of the trace is in a
        ``try`` or ``finally`` block) may raise, and the program's handler must see it.
        The hook makes sure it does by running the frame's original code when the graph
        raises (``dynamo.exc.RerunEagerly``), which is exact only for a graph that writes
        no input and draws no random numbers. So such an op and such a write or draw are
        never in one graph: whichever comes second is a graph break (inside the ``try``,
        the block runs eagerly)."""
        changes_state = op.random or (target is not None and bool(_buffer_roots(target.node)))
        if self.catching and (changes_state or self.writes_inputs or self.draws):
            raise Unsupported("an array op inside a try block after a write or a random draw",
                              "If the op raises, the handler must see the inputs as they "
                              "were; the block runs eagerly.", cause="try")
        if changes_state and self.ops_in_try:
            raise Unsupported("a write or a random draw after an array op inside a try block",
                              "The graph before it must stay safe to rerun when it raises.",
                              cause="try")
        self.ops_in_try |= self.catching
        self.draws |= op.random

    def _guard_writeable(self, node) -> None:
        """The trace writes into ``node``'s memory: every input it may be a view of must
        stay writeable (a read-only input makes NumPy raise, so that write runs eagerly)."""
        for root in _buffer_roots(node):
            self.writes_inputs = True
            value = self.example_inputs[root]
            source = root.meta["source"]
            if root.meta["array"].kind != ops.NUMPY:
                continue  # CuPy arrays have no read-only flag
            if not isinstance(value, np.ndarray) or not value.flags.writeable:
                raise Unsupported(f"a write into the read-only array {source.name()}",
                                  "NumPy raises here; the write runs eagerly so that it "
                                  "raises the same error.", cause="read_only_input")
            spec = self.guards.get(source, ARRAY).expected
            self.guards.add(Guard(source, ARRAY, replace(spec, writeable=True)))

    def _check_kind(self, kind: str) -> None:
        if self.kind is None:
            self.kind = kind
        elif kind != self.kind:
            raise Unsupported("one graph mixes NumPy and CuPy arrays",
                              hint="move data between libraries outside the compiled code")

    # ------------------------------------------------------------------ ops
    def call_op(self, op: ops.OpDef, args: list, kwargs: dict, kind: str | None = None):
        """Add ``op(*args, **kwargs)`` to the graph; return the result Variable(s)."""
        node_args = tuple(to_graph(a, self) for a in args)
        node_kwargs = {k: to_graph(v, self) for k, v in kwargs.items()}
        meta_args = tuple(to_meta(a) for a in args)
        meta_kwargs = {k: to_meta(v) for k, v in kwargs.items()}
        try:   # rules see plain ints: symbolic sizes at their hints (see _fit)
            meta = op.meta(op, *substitute((meta_args, meta_kwargs), self.symbol_hints))
        except Unsupported:
            raise
        except Exception as e:  # noqa: BLE001 (NumPy would raise here, or we cannot say)
            raise Unsupported(f"np.{op.name}: {type(e).__name__}: {e}",
                              "The op's shape/dtype rule rejected these arguments; the call "
                              "runs eagerly so NumPy itself decides (and raises if it must).",
                              cause="op_rule") from e
        named = type(meta) if hasattr(type(meta), "_fields") else None  # np.linalg.eigh's
        meta = self._fit(op, meta_args, meta_kwargs, meta)
        if kind is not None and op.kind == ops.CREATION:
            meta = meta.with_(kind=kind)
        as_list = isinstance(meta, list)  # np.split returns a list of arrays
        meta = tuple(meta) if as_list else meta
        metas = meta if isinstance(meta, tuple) else (meta,)
        for m in metas:
            self._check_kind(m.kind)
        target = _written_array(op, args, kwargs)
        returned = self._returned_arguments(op, args, kwargs, meta_args, meta_kwargs, metas)
        if not isinstance(meta, tuple) and returned[0][1]:
            return returned[0][0]         # np.asarray(x) is x: the same object, no node
        self._keep_rerunnable(op, target)
        if target is not None:
            self._guard_writeable(target.node)
        node = self.graph.call(op.name, node_args, node_kwargs,
                               meta={"array": meta, **self.current_loc, "kind": op.kind})
        self._check_size()
        if target is not None:
            target.node = node            # every alias of the object now reads the new node
            return target
        if isinstance(meta, tuple):
            getitem = ops.get("getitem")
            items = [_as_returned(ArrayVariable(self.graph.call("getitem", (node, i), meta={
                "array": m, "kind": getitem.kind}), m), *same)
                for i, (m, same) in enumerate(zip(meta, returned))]
            if named is not None:     # EighResult, QRResult...: fields read by name too
                return NamedTupleVariable(items, named)
            return (ListVariable if as_list else TupleVariable)(items)
        return _as_returned(ArrayVariable(node, meta), *returned[0])

    def _returned_arguments(self, op, args, kwargs, meta_args, meta_kwargs, metas) -> list:
        """Per result of the call: ``(var, True)`` when it is the argument ``var`` itself
        (``np.asarray(x)``), ``(var, False)`` when it may be ``var`` (the answer depends on
        a layout the trace does not know), ``(None, False)`` when it is a new object.

        The op's ``same_object`` rule says for which layouts of the argument NumPy
        returns it (see ops/identity.py); an input's layout is guarded when the answer
        depends on it (``_layout_of``)."""
        new = [(None, False)] * len(metas)
        if op.same_object is None or _written_array(op, args, kwargs) is not None:
            return new
        answer = op.same_object(op, *substitute((meta_args, meta_kwargs), self.symbol_hints))
        answers = answer if isinstance(answer, tuple) else (answer,)
        positional = list(args) or list(kwargs.values())   # item i is about argument i
        out = []
        for layouts, meta, arg in zip(answers, metas, positional):
            if not isinstance(arg, ArrayVariable) or layouts == NEVER:
                out.append((None, False))
            elif layouts is None or (meta.dtype, meta.kind, meta.scalar, meta.ndim) != \
                    (arg.meta.dtype, arg.meta.kind, arg.meta.scalar, arg.meta.ndim):
                out.append((arg, False))          # the rule cannot tell
            elif possible_layouts(arg.meta.ndim) <= layouts:
                out.append((arg, True))           # whatever the layout
            else:
                flags = self._layout_of(arg)
                out.append((arg, False) if flags is None else
                           (arg, True) if flags in layouts else (None, False))
        return out + new[len(out):]

    def _layout_of(self, var: ArrayVariable) -> tuple[bool, bool] | None:
        """``var``'s (C-contiguous, F-contiguous) flags at run time, where the trace can
        know them: an array of at most one element is contiguous both ways; an input's
        flags are read and guarded (unless its strides already are). The layout of an
        op's result is the backend's business: unknown (None)."""
        static = [d for d in var.meta.shape if not isinstance(d, SymInt)]
        if 0 in static or len(static) == var.meta.ndim and var.meta.size <= 1:
            return (True, True)
        node = _same_object_root(var.node)
        value = self.example_inputs.get(node) if getattr(node, "op", None) == "placeholder" \
            else None
        if not isinstance(value, np.ndarray):
            return None
        flags = (bool(value.flags.c_contiguous), bool(value.flags.f_contiguous))
        source = node.meta["source"]
        spec = self.guards.get(source, ARRAY).expected
        if spec.strides is None and spec.contiguity is None:
            self.guards.add(Guard(source, ARRAY, replace(spec, contiguity=flags)))
        return flags

    def effect_op(self, name: str, args: tuple, kwargs: dict):
        """Add an op that only changes state (``errstate_enter``); return its node.

        Its arguments are constants or earlier nodes; it has no array result.
        """
        op = ops.get(name)
        node = self.graph.call(op.name, args, dict(kwargs),
                               meta={**self.current_loc, "kind": op.kind})
        self._check_size()
        return node

    def _check_size(self) -> None:
        if len(self.graph) > self.config.max_graph_nodes:
            raise Unsupported(f"graph larger than config.max_graph_nodes "
                              f"({self.config.max_graph_nodes})")


def _written_array(op, args, kwargs) -> ArrayVariable | None:
    """The array an op writes into: ``out=``, or the first argument of a mutation."""
    out = kwargs.get("out")
    if isinstance(out, TupleVariable) and len(out.items) == 1:
        out = out.items[0]
    if isinstance(out, ArrayVariable):
        return out
    if op.kind == ops.MUTATION and args and isinstance(args[0], ArrayVariable):
        return args[0]
    return None


def _as_returned(result: ArrayVariable, arg: ArrayVariable | None, known: bool):
    """An op's result Variable, given what ``_returned_arguments`` says of it."""
    if known:
        return arg
    result.may_be = arg
    return result


def _same_object_root(node):
    """The node of the array object ``node`` holds: in-place writes (a mutation op,
    ``out=``) give their target back, so they are followed to the node before them."""
    while getattr(node, "op", None) == "call":
        out = node.kwargs.get("out")
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if out is not None and hasattr(out, "op"):
            node = out
        elif node.meta.get("kind") == ops.MUTATION and node.args:
            node = node.args[0]
        else:
            break
    return node


# Ops whose result may be their first argument's memory (astype(copy=False) is the
# array itself when the dtype already matches).
_MAY_ALIAS = {"astype", "asarray", "array"}  # np.asarray(x), np.array(x, copy=False): x


def _buffer_roots(node) -> list:
    """The input placeholders whose memory ``node`` may share: through views, ops that
    may return their argument, and earlier in-place writes (which return their target)."""
    roots, todo, seen = [], [node], set()
    while todo:
        n = todo.pop()
        if n in seen or not hasattr(n, "op"):
            continue
        seen.add(n)
        if n.op == "placeholder":
            roots.append(n)
        elif n.op == "call":
            kind = n.meta.get("kind")
            if "out" in n.kwargs:
                out = n.kwargs["out"]
                todo += list(out) if isinstance(out, tuple) else [out]
            elif (kind in (ops.VIEW, ops.MUTATION) or n.target in _MAY_ALIAS) and n.args:
                todo.append(n.args[0])
    return roots


def _identity_guard(a: Source, b: Source, same: bool) -> Guard:
    """``a is b`` (``same``) or ``not (a is b)``, on the deeper of the two sources so that
    the check reads both only after the guards on their bases."""
    expr = f"{a.expr()} is {b.expr()}"
    on = a if a.depth() >= b.depth() else b
    if same:
        return Guard(on, EXPR, expr, note="one object under two names")
    return Guard(on, EXPR, f"not ({expr})", note="distinct objects while tracing")


def _placeholder_name(source: Source) -> str:
    return (source.name().replace("L[", "").replace("G[", "G_").replace("]", "")
            .replace("'", "").replace(".", "_").replace("[", "_"))


def to_graph(var: Variable, output: OutputGraph | None = None) -> Any:
    """A Variable as a graph argument: a node, a symbolic size, or a Python value."""
    if isinstance(var, ArrayVariable):
        return var.node
    if isinstance(var, TupleVariable):
        return tuple(to_graph(v, output) for v in var.items)
    if isinstance(var, ListVariable):
        return [to_graph(v, output) for v in var.items]
    if isinstance(var, (tuple, list)):  # built by an op adapter from Variables
        return type(var)(to_graph(v, output) for v in var)
    if isinstance(var, SliceVariable):
        return slice(*(to_graph(p, output) for p in var.parts))
    if isinstance(var, ConstantVariable) and isinstance(var.value, SymInt):
        return output.graph_arg(var.value)
    if isinstance(var, RandomObjectVariable):
        return var.graph_input(output)
    if isinstance(var, (ConstantVariable, ClassVariable, LibraryFunctionVariable)):
        return var.as_python_constant()
    if isinstance(var, (DictVariable, ObjectVariable, SequenceVariable)):
        raise Unsupported(f"{var.describe()} as an argument of an array op")
    if var.is_constant():
        return var.as_python_constant()
    raise Unsupported(f"{var.describe()} as an argument of an array op")


def to_meta(var: Variable) -> Any:
    """A Variable as a rule argument: ArrayMeta for arrays, Python values otherwise."""
    if isinstance(var, ArrayVariable):
        return var.meta
    if isinstance(var, TupleVariable):
        return tuple(to_meta(v) for v in var.items)
    if isinstance(var, ListVariable):
        return [to_meta(v) for v in var.items]
    if isinstance(var, (tuple, list)):
        return type(var)(to_meta(v) for v in var)
    if isinstance(var, SliceVariable):
        return slice(*(to_meta(p) for p in var.parts))
    if isinstance(var, ConstantVariable) and isinstance(var.value, SymInt):
        return var.value
    if isinstance(var, RandomObjectVariable):
        return var.obj           # rules read its type only
    return to_graph(var)


__all__ = ["ArrayMeta", "OutputGraph", "SideEffects", "to_graph", "to_meta"]
