"""What one trace produces: the graph, its inputs, its guards and its side effects.

The root translator and every function it inlines share one ``OutputGraph``. Array
ops go in through ``call_op``; values from outside come in through
``add_input`` (called by :func:`dynamo.variables.builder.wrap`). At a RETURN or a
graph break, :mod:`dynamo.codegen` turns it into glue code around the compiled graph.

It builds the graph and registers its inputs (one Variable per input object, guarded
by layout and identity); two concerns have their own classes, which it owns:

- ``shape_env`` (:class:`dynamo.symbolic.ShapeEnv`): the symbols for dynamic sizes, the
  fitting of op results over them, and the guards learned about them;
- ``writes`` (:class:`dynamo.writes.WriteGuard`): writes into inputs, random draws and
  ops in ``try`` blocks, and what one graph may hold of them.

A Variable becomes an op argument through its own ``as_graph_arg(output)`` (a node, a
symbolic size's expression, a constant) and ``as_meta()`` (what the op's shape rule
sees).

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

from dynamo.guards import ARRAY, EXPR, Guard, GuardSet, Source
from dynamo.ops.signals import warns_in_python

from . import ops
from .array_specs import array_spec
from .clamped_slices import clamped_slices
from .equal_sizes import checked_equal
from .exc import Unsupported
from .graph import Graph
from .instance_dicts import guard_instance_dicts
from .ops import ArrayMeta, meta_of
from .ops.computed_shapes import stand_ins
from .ops.data_sizes import NEGATIVE_SIZE, raises_for_data
from .ops.identity import NEVER, possible_layouts
from .side_effects import SideEffects
from .symbolic import (
    DynamicPolicy,
    ShapeEnv,
    SymArg,
    Symbolic,
    SymInt,
    substitute,
    symbols_in,
)
from .symbolic.indices import RAISES as INDEX_RAISES
from .symbolic.indices import guard_in_bounds, meta_out_of_bounds, value_blind
from .symbolic.made_up_values import refuse_made_up
from .symbolic.slice_windows import window_fit
from .tree import tree_map
from .unbacked_results import own_unbacked, rejected_for_some_counts, with_unbacked_sizes
from .variables import (
    ArrayVariable,
    CellVariable,
    DictVariable,
    ListVariable,
    NamedTupleVariable,
    ObjectVariable,
    TupleVariable,
    Variable,
)
from .variables.base import program_error
from .variables.constant import SymRangeVariable
from .variables.data_tuples import DataTupleVariable
from .variables.deque_stacks import stacked_deque
from .variables.deques import DequeVariable
from .variables.list_windows import appended_data, deque_data
from .variables.ring_rows import ring_stacked
from .variables.stacked_lists import stacked_list
from .variables.trip_rows import trip_rows_stacked
from .variables.unread_sets import UnreadSetVariable
from .writes import WriteGuard, same_object_root, written_array

# Node meta: how many Python objects the trace had changed when the node was added.
PYTHON_EFFECTS = "python_effects"


class OutputGraph:
    def __init__(self, fn_globals: dict, config, layout_guards: bool = False,
                 dynamic: DynamicPolicy | None = None):
        self.graph = Graph()       # where ops go: the root graph, or a loop body's
        self.root_graph = self.graph   # where inputs go (placeholders)
        self.loop_scope = None     # the loop whose body is being traced (translator.loops)
        self.loop_trips = 0        # the trips of the loop nodes made so far (their work)
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
        # writes into inputs, random draws, ops in try blocks: what one graph may hold
        self.writes = WriteGuard(self.guards, self.example_inputs)
        # the symbols for dynamic sizes, and the guards learned about them
        self.shape_env = ShapeEnv(self.guards, dynamic, locate=self.location)
        self.symbol_nodes: dict = {}               # symbol name -> its placeholder
        # unbacked symbol (x[mask]'s length) -> (the node whose result has it, dimension)
        self.unbacked_sizes: dict[str, tuple] = {}
        # unbacked number (float(loss) in arithmetic) -> (float, the 0-d snapshot's node)
        self.unbacked_numbers: dict[str, tuple] = {}
        self.number_symbols: dict = {}             # unbacked number -> its SymFloat
        # (node, measure) -> the unbacked size of that measure of the node's values (its
        # nonzero count: "nonzero"; see DataSize.measure)
        self.nonzero_counts: dict = {}
        self.size_checker = None   # weak: checks sizes equal here (raising_checks, per step)
        # deque source -> (maxlen, length held, holds arrays, DequeVariable): read item
        # by item while not full; ``full_deques``: read so when full (filling_deques.py)
        self.filling_deques: dict = {}
        self.full_deques: set = set()

    @property
    def writes_inputs(self) -> bool:
        """Does the graph write into the memory of an input?"""
        return self.writes.writes_inputs

    @property
    def catching(self) -> bool:
        """Set by the translator before each instruction: is some frame of the trace
        inside a ``try`` block? (See ``WriteGuard.check_op``.)"""
        return self.writes.catching

    @catching.setter
    def catching(self, value: bool) -> None:
        self.writes.catching = value

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
    def add_input(self, value: Any, source: Source, dynamic_dims=(),
                  least: int = 2) -> ArrayVariable:
        """An array from outside the trace: a placeholder, guarded by ``array_spec``;
        its dynamic dimensions (and ``dynamic_dims``) are symbols of the ShapeEnv
        (guarded ``>= least``: see ``ShapeEnv.symbolic_dims``)."""
        meta = self.shape_env.symbolic_dims(meta_of(value), source, value, dynamic_dims,
                                            least)
        self._check_kind(meta.kind)
        name = _placeholder_name(source)
        node = self.root_graph.placeholder(name, meta={"array": meta, "source": source})
        self.example_inputs[node] = value
        spec = array_spec(value, meta, self.layout_guards)
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
        elif isinstance(var, (ListVariable, DictVariable, ObjectVariable, DequeVariable,
                              UnreadSetVariable)):
            self.inputs_by_id[id(value)] = (var, source)
            group = self.mutable_inputs.setdefault(type(value), [])
            for other, other_source in group:
                if id(other) in self.side_effects.mutated:
                    self.guards.add(_identity_guard(source, other_source, same=False))
            group.append((var, source))
            guard_instance_dicts(self, var, mutated=False)

    def _guard_unaliased(self, var: Variable) -> None:
        """``var`` is mutated for the first time: guard that it is not the same object
        as any other input of its type. Traced as distinct, the two are independent
        Variables, which is wrong when one call passes one object for both (``f(l, l)``
        after ``f(l, m)``): that call must miss this entry and trace its own.

        Only pairs with a mutated object need it (two aliases read as two Variables give
        the same values), within one type (but see ``instance_dicts``)."""
        for group in self.mutable_inputs.values():
            if any(v is var for v, _ in group):
                source = next(s for v, s in group if v is var)
                for other, other_source in group:
                    if other is not var:
                        self.guards.add(_identity_guard(source, other_source, same=False))
        guard_instance_dicts(self, var)   # (a dict input that is an object input's own)

    def object_input(self, value: Any, source: Source):
        """A graph input that is no array (a ``np.random.Generator``), one per source."""
        node = self.object_nodes.get(source)
        if node is None:
            node = self.root_graph.placeholder(_placeholder_name(source),
                                          meta={"object": type(value), "source": source})
            self.example_inputs[node] = value
            self.object_nodes[source] = node
        return node

    def location(self) -> str:
        """``file:line: code`` of the instruction being traced (for guards' notes)."""
        loc = self.current_loc
        if not loc:
            return ""
        code = (loc.get("source_line") or "").strip()
        return f"{loc['loc']}: {code}" if code else loc["loc"]

    # ------------------------------------------------------------------ symbolic sizes
    def symbol_placeholder(self, name: str):
        """The graph input that carries the runtime value of a symbolic size."""
        node = self.symbol_nodes.get(name)
        if node is None and name in self.unbacked_numbers:
            # a Python number only the data decides (float(loss)): converted when the
            # graph runs, where the snapshot is made (variables/graph_numbers.py)
            fn, owner = self.unbacked_numbers[name]
            where = self.current_loc or {k: v for k, v in owner.meta.items()
                                         if k in ("loc", "site", "source_line")}
            node = owner.graph.call("sym_number", (owner, fn.__name__), meta={
                "symbol": name, "kind": ops.OPAQUE, **where})
            self.symbol_nodes[name] = node
        elif node is None and name in self.unbacked_sizes:
            # a size only the data decides: read off its array when the graph runs, in
            # the graph that made the array (a loop body reads it as a free input)
            owner, dim = self.unbacked_sizes[name]
            # (after the trace, as the glue asks for it, the array's own place)
            where = self.current_loc or {k: v for k, v in owner.meta.items()
                                         if k in ("loc", "site", "source_line")}
            node = owner.graph.call("sym_size", (owner, dim), meta={
                "symbol": name, "kind": ops.OPAQUE, **where})
            self.symbol_nodes[name] = node
        elif node is None:
            source = self.shape_env.symbols[name]
            node = self.root_graph.placeholder(name, meta={"symbol": name, "source": source})
            self.example_inputs[node] = self.shape_env.hints[name]
            self.symbol_nodes[name] = node
        return node

    def graph_arg(self, value: Any) -> Any:
        """A symbolic int or float as a graph argument: an expression over symbol inputs."""
        if isinstance(value, Symbolic):
            if isinstance(value, SymInt):
                self._guard_int64(value)
            return SymArg(value.sym, {n: self.symbol_placeholder(n) for n in value.sym.symbols})
        return value

    def _guard_int64(self, value: SymInt) -> None:
        """Guard an int expression that becomes a graph value within int64: NumPy types a
        Python int by its size (``np.full(3, 4 * k)`` is int64, uint64 from 2**63,
        object from 2**64), and the trace typed it int64. (Each int argument is guarded
        so when it becomes a symbol, ``builder._symbolic_int``; sums and multiples of
        it here. Sizes read off arrays, and unbacked ones, always fit.)"""
        sym = value.sym
        sources = {n: self.shape_env.symbols.get(n) for n in sym.symbols}
        if sym.is_constant() or any(s is None for s in sources.values()) or \
                (sym.const == 0 and [c for _, c in sym.terms] == [1]):
            return
        expr = sym.render({n: s.expr() for n, s in sources.items()})
        on = max(sources.values(), key=lambda s: s.depth())
        self.guards.add(Guard(on, EXPR, f"{-2 ** 63} <= {expr} < {2 ** 63}",
                              note="an int expression typed int64 in the graph"))

    def _check_kind(self, kind: str, dtype: np.dtype | None = None) -> None:
        if dtype is not None and dtype.hasobject:   # (its items: any Python objects)
            raise Unsupported("arrays of Python objects are not traced")
        if self.kind is None:
            self.kind = kind
        elif {kind, self.kind} == {ops.NUMPY, ops.DASK}:
            self.kind = ops.DASK          # NumPy arrays meet dask arrays, as in dask
        elif kind != self.kind:
            raise Unsupported("one graph mixes NumPy and CuPy arrays",
                              hint="move data between libraries outside the compiled code")

    # ------------------------------------------------------------------ ops
    def call_op(self, op: ops.OpDef, args: list, kwargs: dict, kind: str | None = None):
        """Add ``op(*args, **kwargs)`` to the graph; return the result Variable(s)."""
        stacked = stacked_list(self, op, list(args), kwargs) or \
            ring_stacked(self, op, list(args), kwargs) or \
            stacked_deque(self, op, list(args), kwargs) or \
            trip_rows_stacked(self, op, list(args), kwargs)   # (a list per loop trip)
        if stacked is not None:
            return stacked
        args = self._as_data(op, list(args))
        node_args = tuple(to_graph(a, self) for a in args)
        node_kwargs = to_graph(dict(kwargs), self)
        if self.loop_scope is not None:   # values from before the loop: body inputs
            node_args, node_kwargs = self.loop_scope.localize((node_args, node_kwargs))
        meta_args = tuple(to_meta(a) for a in args)
        meta_kwargs = to_meta(dict(kwargs))   # (np.zeros(int(y.max()) + 1): a 0-d array)
        meta_args, meta_kwargs = stand_ins(op.name, meta_args, meta_kwargs)
        one_answer = None  # (meta, why): an op NumPy takes for some counts only
        try:   # rules see plain ints: symbolic sizes at their hints (see ShapeEnv.fit)
            meta = op.meta(op, *substitute((meta_args, meta_kwargs), self.shape_env.hints))
        except Unsupported:
            raise
        except Exception as e:  # noqa: BLE001 (NumPy would raise here, or we cannot say)
            meta = self._index_out_of_bounds(op, meta_args, meta_kwargs, e)
            try:
                one_answer = None if meta is not None else \
                    rejected_for_some_counts(self, op, (meta_args, meta_kwargs), e)
            except Unsupported as refused:   # ends - starts: sizes equal in fact, checked
                meta_args, meta_kwargs, meta = checked_equal(
                    self, op, meta_args, meta_kwargs, refused)
            if meta is None and one_answer is None:
                if not isinstance(e, ops.MetaError):   # (x * len(x[m]) ** 200: the error
                    # is the made-up value's, not the program's: a break that says so)
                    refuse_made_up(symbols_in((meta_args, meta_kwargs)), e, f"np.{op.name}")
                self._raise_as_numpy(op, (meta_args, meta_kwargs), e)
                # (a MetaError's own words say why: dynamo/hints.py explains each kind)
                raise Unsupported(f"np.{op.name}: {ops.error_text(e)}",
                                  "" if isinstance(e, ops.MetaError) else
                                  "The op's shape/dtype rule rejected these arguments; the "
                                  "call runs eagerly so NumPy itself decides (and raises if "
                                  "it must).", cause="op_rule") from e
            meta = meta if one_answer is None else one_answer[0]
        named = type(meta) if hasattr(type(meta), "_fields") else None  # np.linalg.eigh's
        op, meta = clamped_slices(self.shape_env, op, meta_args, meta,
                                  meta_kwargs)   # b[1:] of b[m]
        data_sizes = ops.data_sizes(meta)    # x[mask]: sizes only the data decides
        self.shape_env.raises = None
        if one_answer is None:
            meta = self._fit(op, meta_args, meta_kwargs, meta)
        may_raise = self.shape_env.raises or (one_answer and one_answer[1])
        if may_raise is None and any(raises_for_data(m) for _, _, m in data_sizes):
            may_raise = f"np.{op.name} {NEGATIVE_SIZE}"  # np.zeros((n, k)), k a 0-d array
        if data_sizes:
            meta, unbacked = with_unbacked_sizes(self, op, meta, data_sizes, (args, kwargs),
                                                 (meta_args, meta_kwargs))
        if kind is not None and op.kind == ops.CREATION:
            meta = meta.with_(kind=kind)
        as_list = isinstance(meta, list)  # np.split returns a list of arrays
        meta = tuple(meta) if as_list else meta
        metas = meta if isinstance(meta, tuple) else (meta,)
        for m in metas:
            self._check_kind(m.kind, m.dtype)
        target = written_array(op, args, kwargs)
        returned = self._returned_arguments(op, args, kwargs, meta_args, meta_kwargs, metas)
        if not isinstance(meta, tuple) and returned[0][1]:
            return returned[0][0]         # np.asarray(x) is x: the same object, no node
        self.writes.check_op(op, target)
        if target is not None:
            self.writes.guard_writeable(target.node)
            # a view made before the write reads the written memory under its old node:
            # a count of its values taken before may not hold for it any more
            self.nonzero_counts.clear()
        node = self.graph.call(op.name, node_args, node_kwargs,
                               meta={"array": meta, **self.current_loc, "kind": op.kind,
                                     PYTHON_EFFECTS: self.side_effects.pending(),
                                     **({"may_raise": may_raise} if may_raise else {})})
        if warns_in_python(node):
            self.writes.check_warns(node)
        self._check_size()
        if target is not None:
            target.node = node            # every alias of the object now reads the new node
            return target
        if isinstance(meta, tuple):
            getitem = ops.get("getitem")
            items = [_as_returned(ArrayVariable(self.graph.call("getitem", (node, i), meta={
                "array": m, "kind": getitem.kind, **self.current_loc}), m), *same)
                for i, (m, same) in enumerate(zip(meta, returned))]
            if data_sizes:
                own_unbacked(self, unbacked, [item.node for item in items])
            if named is not None:     # EighResult, QRResult...: fields read by name too
                return NamedTupleVariable(items, named)
            return (ListVariable if as_list else TupleVariable)(items)
        if data_sizes:
            own_unbacked(self, unbacked, [node])
        return _as_returned(ArrayVariable(node, meta), *returned[0])

    def _raise_as_numpy(self, op: ops.OpDef, meta_call, error: Exception) -> None:
        """Inside a ``try``: the rule says NumPy raises for these shapes and dtypes
        (``x + y`` of mismatched shapes, ``x[10]`` past the end). When NumPy raises the
        same class for them (``rules.numpy_error``), that error is the program's at this
        instruction (``program_error``): the program's ``except`` catches it in the
        trace, with no break. Not for symbolic sizes: the error holds for this size
        only, and no guard would say so."""
        if not self.catching or isinstance(error, ops.MetaError) or symbols_in(meta_call):
            return
        found = ops.rules.numpy_error(op, *meta_call, error)
        if found is not None:   # (exact: its words name no value, see numpy_error)
            raise program_error(found[0], exact=found[1]) from None

    def _as_data(self, op: ops.OpDef, args: list) -> list:
        """The argument that ``op`` reads as array data (an index, ``np.array``'s
        object) as an array, where it is a changing list of ints (``ListVariable.as_data``)
        or a symbolic range (``SymRangeVariable.as_data``): NumPy makes an int64 array
        of either, so the graph takes or makes that array, of symbolic length, instead
        of a constant that pins the length and guards every item."""
        at = _DATA_ARGUMENT.get(op.name)
        if at is None or len(args) <= at:
            return args

        def data(var):
            if isinstance(var, TupleVariable) and op.name == "getitem":  # x[ids, :]
                items = [data(v) for v in var.items]
                changed = any(a is not b for a, b in zip(items, var.items))
                return TupleVariable(items) if changed else var
            if isinstance(var, DataTupleVariable):   # np.array(ids) of a tuple (not x[t])
                array = var.as_data()
                return var if array is None else array
            if isinstance(var, ListVariable):   # (appended numbers: list_windows)
                array = var.as_data() or appended_data(self, var)
                return var if array is None else array
            if isinstance(var, SymRangeVariable):
                return var.as_data(self)
            if isinstance(var, DequeVariable) and op.name != "getitem":   # np.mean(d)
                array = deque_data(self, var)
                return var if array is None else array
            return var
        return [*args[:at], data(args[at]), *args[at + 1:]]

    def _fit(self, op, meta_args, meta_kwargs, meta):
        """The op's result over the symbols in its arguments: the ShapeEnv's fit, or,
        for a loop index, the loop's check that the result is one for every index."""
        scope = self.loop_scope
        if scope is not None and scope.reads_index((meta_args, meta_kwargs)):
            return scope.fit(op, meta_args, meta_kwargs, meta)
        windowed = window_fit(self.shape_env, op, meta_args, meta_kwargs, meta)
        if windowed is not None:   # (``x[i:j]``: decided in bounds, ``j - i`` long)
            return windowed
        # a changing int index (buf[ptr] = obs): a value NumPy bounds-checks when the
        # graph runs, unless the graph raising there would lose Python effects traced
        # before it (then it is fitted, and pinned where its rule needs the value)
        # (there, with a static axis, it is guarded in bounds instead: indices.py)
        pending = self.side_effects.pending()
        blind = (guard_in_bounds if pending else value_blind)(
            op.name, meta_args, self.shape_env.classes, self.shape_env.hints)
        if blind is None:
            return self.shape_env.fit(op, meta_args, meta_kwargs, meta)
        fitted = self.shape_env.fit(op, blind[0], meta_kwargs, meta)
        if not pending:
            self.shape_env.raises = self.shape_env.raises or INDEX_RAISES
        return fitted

    def _index_out_of_bounds(self, op, meta_args, meta_kwargs, error):
        """``buf[ptr]`` whose changing ``ptr`` is out of bounds at this call: its meta
        at a position in bounds, the op marked by ``_fit`` (NumPy raises when the graph
        runs, as for any other value), or None (see ``indices.meta_out_of_bounds``)."""
        scope = self.loop_scope
        # (inside a ``try`` the trace goes on past this op to the ``except``: a later
        # instruction's error, seen first at trace time, would be what it catches)
        if self.side_effects.pending() or self.catching or \
                (scope is not None and scope.reads_index((meta_args, meta_kwargs))):
            return None
        return meta_out_of_bounds(op, meta_args, meta_kwargs, self.shape_env.hints,
                                  self.shape_env.classes, error)

    def _returned_arguments(self, op, args, kwargs, meta_args, meta_kwargs, metas) -> list:
        """Per result of the call: ``(var, True)`` when it is the argument ``var`` itself
        (``np.asarray(x)``), ``(var, False)`` when it may be ``var`` (the answer depends on
        a layout the trace does not know), ``(None, False)`` when it is a new object.

        The op's ``same_object`` rule says for which layouts of the argument NumPy
        returns it (see ops/identity.py); an input's layout is guarded when the answer
        depends on it (``_layout_of``)."""
        new = [(None, False)] * len(metas)
        if op.same_object is None or written_array(op, args, kwargs) is not None:
            return new
        answer = op.same_object(op, *substitute((meta_args, meta_kwargs), self.shape_env.hints))
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
        node = same_object_root(var.node)
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
        if self.loop_scope is not None:
            args, kwargs = self.loop_scope.localize((args, kwargs))
        node = self.graph.call(op.name, args, dict(kwargs),
                               meta={**self.current_loc, "kind": op.kind})
        self._check_size()
        return node

    def _check_size(self) -> None:
        if len(self.graph) > self.config.max_graph_nodes:
            raise Unsupported(f"graph larger than config.max_graph_nodes "
                              f"({self.config.max_graph_nodes})")


# constants a view's key may hold: compared by type and value, never by identity
# The ops that read one argument as array data (its index): see ``OutputGraph._as_data``.
_DATA_ARGUMENT = {"getitem": 1, "array": 0, "asarray": 0, "mean": 0}


def _as_returned(result: ArrayVariable, arg: ArrayVariable | None, known: bool):
    """An op's result Variable, given what ``_returned_arguments`` says of it."""
    if known:
        return arg
    result.may_be = arg
    return result


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


def _is_variable(value: Any) -> bool:
    return isinstance(value, Variable)


def to_graph(args: Any, output: OutputGraph) -> Any:
    """Variables as graph arguments (``Variable.as_graph_arg``), inside the plain
    tuples and lists an op adapter builds around them."""
    return tree_map(lambda v: v.as_graph_arg(output), args, is_leaf=_is_variable)


def to_meta(args: Any) -> Any:
    """Variables as rule arguments (``Variable.as_meta``): ArrayMeta for arrays, Python
    values otherwise."""
    return tree_map(lambda v: v.as_meta(), args, is_leaf=_is_variable)


__all__ = ["ArrayMeta", "OutputGraph", "SideEffects", "to_graph", "to_meta"]
