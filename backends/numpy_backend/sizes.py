"""Graphs with symbolic sizes on the numpy backend: one trace, one static compile per size.

Block plans and generated code need concrete sizes (block lengths, scratch buffers,
reduction counts). The backend still declares ``dynamic_shapes``, so that dynamo
traces a function whose sizes vary at most twice instead of once per size up to
``config.cache_size_limit``. For a symbolic graph it returns a ``PerSize`` runner: the
first call with new input shapes runs the graph op by op (that call's result, exactly
eager's), records every value's shape and dtype, builds the static graph for those
sizes (``static_graph``) and compiles it; later calls with those shapes run the
compiled code. Changing numbers that shape nothing (``0.9 ** t``) are not part of a
variant's key: they stay inputs of its code (``value_symbols``). After
``GENERIC_AFTER`` variants, new sizes run one size-generic function instead: the
backend's generated code for the symbolic graph itself (``backend.generated_code``:
direct NumPy calls that read the sizes at run time, loop bodies as loops), compiled
once on the first call past the variants::

    def f(x):                                   # x: (T, 64) float32, T = 5, 6, ..., 40
        return np.exp(x - x.max(axis=-1, keepdims=True))

    fast = dynamo.compile(f, backend="numpy")   # 2 traces in all (T = 5, then symbolic)
    # T = 6: op by op, then forward<n> compiled for (6, 64); T = 6 again: forward<n>
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import numpy as np

from dynamo.graph import CALL, OUTPUT, Graph, Node, location_comment
from dynamo.logs import SizeVariant, log_size_variant
from dynamo.ops import NUMPY, ArrayMeta, impl_table
from dynamo.source import compile_source
from dynamo.symbolic import SymInt, is_unbacked, not_recording
from dynamo.tree import tree_leaves

from ..common import Interpreter, python_function, resolve
from .static_bodies import static_body, symbol_values

MAX_SIZES = 64    # compiled variants kept per graph (the oldest is dropped past it)
# After this many static variants, new sizes run one size-generic function (generated
# for the symbolic graph): a decode loop whose sequence grows by one each call would
# otherwise compile a variant (milliseconds) on every call.
GENERIC_AFTER = 4
# After this many static variants in a row that no call ran again before the next new
# size, new sizes run the size-generic function too: a size that grows on every call
# (a list appended to and concatenated each call, issue #15's rank tracker) would
# otherwise compile GENERIC_AFTER variants, one a call (milliseconds each), where one
# call of each size never repays its compile. Two, not one: a function traced for
# batches of 64 whose last batch has 17 rows compiles 17's variant, then 64's (the
# symbolic entry comes first), neither run again yet; with one, 64 ran generic code.
UNREUSED_AFTER = 2
log = logging.getLogger("dynamo.backend")


def is_symbolic(graph: Graph) -> bool:
    """Does the graph read symbol placeholders or take inputs of symbolic shape?"""
    for node in graph.placeholders:
        meta = node.meta.get("array")
        if "symbol" in node.meta or (isinstance(meta, ArrayMeta) and
                                     any(isinstance(d, SymInt) for d in meta.shape)):
            return True
    return False


def _observed(value: Any, meta: Any) -> Any:
    """The meta of a value seen at run time (a tuple for several outputs). A size the
    data decides (unbacked: ``x[mask]``'s length) stays symbolic: it differs from call
    to call with the same input shapes, so a variant must not specialize on it."""
    if isinstance(meta, tuple):
        return tuple(_observed(v, m) for v, m in zip(value, meta))
    if not isinstance(meta, ArrayMeta):
        return meta
    shape = tuple(d if _data_dependent(d) else seen for d, seen in zip(meta.shape,
                                                                       np.shape(value)))
    return ArrayMeta(shape, np.asarray(value).dtype, meta.kind, isinstance(value, np.generic))


def _data_dependent(size) -> bool:
    return isinstance(size, SymInt) and any(is_unbacked(s) for s in size.sym.symbols)


def unbacked_symbols(graph: Graph) -> frozenset:
    """The unbacked sizes the graph reads when it runs (its ``sym_size`` nodes)."""
    return frozenset(n.meta["symbol"] for n in graph.call_nodes() if "symbol" in n.meta)


def value_symbols(graph: Graph) -> frozenset:
    """Symbols no array's shape depends on: changing numbers (``0.9 ** t``, a learning
    rate), which stay inputs of the compiled code rather than keys of its variants."""
    shaped: set[str] = set()
    for node in graph.nodes:
        for meta in tree_leaves(node.meta.get("array")):
            if isinstance(meta, ArrayMeta):
                for d in meta.shape:
                    if isinstance(d, SymInt):
                        shaped |= d.sym.symbols
    return frozenset(p.meta["symbol"] for p in graph.placeholders
                     if "symbol" in p.meta and p.meta["symbol"] not in shaped)


def static_graph(graph: Graph, values: dict[Node, Any], sizes: dict[str, int],
                 keep: frozenset = frozenset()) -> Graph:
    """The graph with the sizes of one call: ints for symbolic arguments, and every
    array meta the shape and dtype its value had in that call. Expressions over the
    symbols in ``keep`` (``value_symbols``) stay expressions over their inputs. A loop
    node's body gets the call's sizes too (``static_bodies``)."""
    new, env = Graph(), {}
    symbols = symbol_values(graph, values, sizes)
    for node in graph.nodes:
        if node.op == OUTPUT:
            new.output(resolve(node.args[0], env, sizes, keep))
            continue
        meta = dict(node.meta)
        if node.op != CALL:   # (a sym_size call reads an unbacked size: it stays one)
            meta.pop("symbol", None)   # now a plain input, which only kept expressions read
        if node in values and "array" in meta:
            meta["array"] = _observed(values[node], meta["array"])
        args = resolve(node.args, env, sizes, keep)
        if node.target == "fori_loop":
            args = (static_body(args[0], symbols, keep), *args[1:])
        env[node] = new.create_node(node.op, node.target, args,
                                    resolve(node.kwargs, env, sizes, keep), name=node.name,
                                    meta=meta)
    return new


def variant_key(graph: Graph, values: frozenset):
    """``key(*args)``: what selects a static variant of ``graph`` (``key_source``),
    generated for this graph (a call of the compiled code pays for this, so it is one
    expression, not a loop over the arguments)."""
    params = [f"a{i}" for i in range(len(graph.placeholders))]
    src = f"lambda {', '.join(params)}: {key_source(graph, values, params)}"
    return eval(src, {})  # noqa: S307 (generated from the graph's placeholders)


def key_source(graph: Graph, values: frozenset, args: list[str]) -> str:
    """The expression, over the names ``args`` of the graph's inputs, of the key of
    the static variant a call runs: the shapes of its array inputs of symbolic shape
    and the other inputs' values (a tuple). Left out: the changing numbers
    (``values``), NumPy float scalars (no size is their value), arrays of static
    shape, which the dispatcher's guards already fix
    (``x.shape == (4096,)``), and inputs whose symbolic sizes they pin all the same
    (``meta["fixed"]``: ``np.asarray(xs).shape[0] == 64``, ``glue.mark_fixed_inputs``).
    A key of ``()`` leaves one variant, called with no lookup (``PerSize.keyless``)."""
    parts = []
    for i, (node, arg) in enumerate(zip(graph.placeholders, args)):
        meta = node.meta.get("array")
        if i in values or node.meta.get("fixed"):
            continue
        if isinstance(meta, ArrayMeta) and not meta.scalar:
            if any(isinstance(d, SymInt) for d in meta.shape):
                parts.append(f"{arg}.shape")
        elif isinstance(meta, ArrayMeta) and meta.dtype.kind in "fc":
            continue   # a NumPy float scalar (``self.m = 0.9 * self.m + 0.1 * x.mean()``):
            # no size is a float's value, and a variant reads it as an input (keyed by
            # value, it compiled a variant per call until GENERIC_AFTER)
        else:   # a size, a NumPy int or bool scalar (keyed by value, as a size)
            parts.append(arg)
    return f"({''.join(p + ', ' for p in parts)})"


class PerSize:
    """Runs a symbolic graph through one compiled static variant per input shapes.

    ``compile_static(static_graph, args)`` compiles one variant; ``compile_generic()``
    the size-generic function used past ``GENERIC_AFTER`` variants, or past
    ``UNREUSED_AFTER`` in a row that no call ran again (a growing size: lengths 12, 18,
    24, ... compile variants for 12 and 18, then run generic code) (default: the eager
    backend's code for the graph, op by op). With ``bare`` (a graph of one output,
    ``common.one_output``) the runner and all its functions return that output itself,
    not a 1-tuple: ``compile_static`` and ``compile_generic`` must compile them so."""

    def __init__(self, graph: Graph, compile_static, compile_generic=None,
                 bare: bool = False):
        self.graph, self.compile_static, self.bare = graph, compile_static, bare
        self.compile_generic = compile_generic or \
            (lambda: python_function(graph, bare=bare))
        # changing numbers, and the sizes the data decides (read when the graph runs)
        self.keep = value_symbols(graph) | unbacked_symbols(graph)
        # the arguments that are changing numbers: not part of a variant's key
        self.values = frozenset(i for i, p in enumerate(graph.placeholders)
                                if p.meta.get("symbol") in self.keep)
        self.variants: dict[tuple, Any] = {}
        self.compiled = 0   # static variants compiled so far (logged in "recompiles",
        # as size variants: dynamo.logs.log_size_variant)
        # Held by a miss only (a new key), never by a hit: the count of variants and
        # the eviction of the oldest are read-then-write, and threads that miss at
        # once would each count one lost, pop one key twice (KeyError) or keep more
        # than MAX_SIZES. A hit's ``variants.get`` is one atomic dict read.
        self._lock = threading.Lock()
        self.generic = None   # the size-generic function, after GENERIC_AFTER variants
        # static variants in a row that no call has run since they were compiled (each
        # kept behind a ``_FirstRun``, which sets this back to 0): a growing size
        self.unreused = 0
        self.name = f"{len(graph.call_nodes())} ops"
        self.key = variant_key(graph, self.values)
        # A graph whose only changing inputs are numbers has one variant, key ``()``:
        # generated code calls ``only``, this object's call until that variant exists,
        # then the variant itself (about 30 ns a call less than the lookup); read into
        # a local first (see __dynamo_call_source__).
        params = [f"a{i}" for i in range(len(graph.placeholders))]
        self.keyless = key_source(graph, self.values, params) == "()"
        self.only = self.miss
        self.callers: dict[str, Any] = {}   # for _AtProgramLines: one per program line

    def __dynamo_call_source__(self, callee: str, args: list[str],
                               local: str = "___only") -> str:
        """The expression that calls this runner, named ``callee``, with the inputs
        named ``args`` (``local``: a name it may bind, free in the code around it), as
        generated code writes it in place of ``callee(*args)`` (the entry's glue,
        pasted into the dispatcher or called by a resume function:
        ``dynamo.dispatch.direct_graph_call``): the variant of the call's key, looked
        up in ``variants`` where it runs, or else ``miss``. A cached call
        then runs the variant with no frame of this object's (``__call__`` is called
        through the type, with the arguments packed in a tuple, and computes the key
        in a second frame)::

            (___graph.variants.get((x.shape, )) or ___graph.miss)(x, w)

        or, for a graph of one variant (``keyless``), ``(___only := ___graph.only)(x,
        t)``: the attribute read into the local first. CPython's ``LOAD_METHOD`` (3.11;
        ``LOAD_ATTR``'s method form after) does not specialize for a function in the
        instance's ``__dict__`` and looks it up the slow way on each call; a plain read
        of the attribute specializes (about 120 instructions of a call, issue #16).
        """
        if self.keyless:
            return f"({local} := {callee}.only)({', '.join(args)})"
        return (f"({callee}.variants.get({key_source(self.graph, self.values, args)}) "
                f"or {callee}.miss)({', '.join(args)})")

    def __call__(self, *args):
        key = self.key(*args)
        fn = self.variants.get(key)
        if fn is not None:
            return fn(*args)
        with self._lock:
            unreused = self.unreused   # (read once: a hit may set it back meanwhile)
            generic = self.compiled >= GENERIC_AFTER or unreused >= UNREUSED_AFTER
            if not generic:
                self.compiled += 1
                number = self.compiled
        if generic:
            if self.generic is None:
                log_size_variant(SizeVariant(id(self.graph), {}, self.compiled, True),
                                 "numpy backend: graph %s has compiled %d static "
                                 "variants%s; new sizes run size-generic code", self.name,
                                 self.compiled, f" (the last {unreused} ran once only: "
                                 "a growing size)" if unreused >= UNREUSED_AFTER else "")
                try:
                    with not_recording():
                        self.generic = self.compile_generic()
                except Exception as e:  # noqa: BLE001 (the eager code always runs)
                    log.warning("numpy backend: size-generic code for graph %s failed "
                                "(%s: %s); new sizes run op by op", self.name,
                                type(e).__name__, e)
                    self.generic = python_function(self.graph, bare=self.bare)
                # from now on the sizes no variant has run it directly (an instance
                # attribute over the method: see __dynamo_call_source__)
                self.miss = self.generic
            return self.generic(*args)
        run = _AtProgramLines(self.graph, self.callers)   # eager's result, every value
        outputs = run.run(*args)
        if self.bare:
            outputs = outputs[0]
        # (its key: the symbol inputs' values and the sizes read off the input arrays;
        # a graph that takes no symbol input, ``x * 2.0 + x.sum()``, has only the latter)
        sizes = {k: v for k, v in symbol_values(self.graph, run.env, run.sizes).items()
                 if k not in self.keep}
        log_size_variant(SizeVariant(id(self.graph), sizes, number),
                         "numpy backend: graph %s compiles a static variant for the "
                         "symbol values %s (variant %d of this graph)", self.name,
                         sizes, number)
        try:
            with not_recording():   # (outside a trace: an unbacked size is no number)
                fn = self.compile_static(static_graph(self.graph, run.env, run.sizes,
                                                      self.keep), args)
        except Exception as e:  # noqa: BLE001 (this call already ran: never lose it)
            log.warning("numpy backend: compiling for shapes %s failed (%s: %s); those "
                        "shapes run op by op", key, type(e).__name__, e)
            fn = self.op_by_op
        self._keep(key, fn)
        return outputs

    def _keep(self, key, fn) -> None:
        """Keep ``fn`` as the variant for ``key``, dropping the oldest variants past
        ``MAX_SIZES``, as one step for threads that miss at once: with ``MAX_SIZES``
        2 and variants for ``(3,)`` and ``(4,)``, two threads keeping ``(5,)`` and
        ``(6,)`` leave ``{(5,): .., (6,): ..}``, not a ``KeyError`` for ``(3,)``
        popped twice, nor four variants. A key another thread kept meanwhile is
        replaced in place (both variants are eager's; the second is kept)."""
        with self._lock:
            if key not in self.variants:
                while len(self.variants) >= MAX_SIZES:
                    self.variants.pop(next(iter(self.variants)))
            if self.keyless:
                self.only = fn
            elif UNREUSED_AFTER < GENERIC_AFTER:
                # (its first run swaps it for ``fn``: later runs pay nothing)
                self.unreused += 1
                fn = _FirstRun(self, key, fn)
            self.variants[key] = fn

    # What a call whose key has no variant runs: this object's own call (it compiles
    # a variant), then the size-generic function (set on the instance).
    miss = __call__

    def op_by_op(self, *args):
        outputs = Interpreter(self.graph, impl_table(NUMPY)).run(*args)
        return outputs[0] if self.bare else outputs


class _FirstRun:
    """A static variant until its first run from the cache: that run marks the variant
    reused (``PerSize.unreused`` back to 0: the sizes recur, so more variants may pay)
    and puts the variant itself in its place, so later runs cost nothing more::

        runner.variants[(x.shape,)] = _FirstRun(runner, (x.shape,), fn)
        runner.variants[(x.shape,)](x)     # fn(x); now runner.variants[(x.shape,)] is fn
    """

    __slots__ = ("runner", "key", "fn")

    def __init__(self, runner: PerSize, key, fn):
        self.runner, self.key, self.fn = runner, key, fn

    def __call__(self, *args):
        runner = self.runner
        with runner._lock:
            runner.unreused = 0
            if runner.variants.get(self.key) is self:   # (not dropped meanwhile)
                runner.variants[self.key] = self.fn
        return self.fn(*args)


class _AtProgramLines(Interpreter):
    """Runs the graph op by op, keeping every value (``Interpreter``), with each op
    called from code at the line of the program that wrote it.

    A new size's first call runs so, and what it reports must be eager's: a NumPy
    ``RuntimeWarning`` (``np.log`` of a negative number) names the frame that called
    the ufunc, which would be the interpreter's own. Each op is called through a
    one-line function compiled at the program's file and line (``compile_source``'s
    ``user_lines``, which also gives it the program module's warning registry), as
    the eager backend's code is; ``callers`` caches them by line, per graph."""

    def __init__(self, graph: Graph, callers: dict):
        super().__init__(graph, impl_table(NUMPY))
        self.callers = callers

    def call(self, node: Node) -> Any:
        where = location_comment(node)
        if where is None:
            return super().call(node)
        caller = self.callers.get(where)
        if caller is None:
            caller = self.callers[where] = _caller_at(where)
        value = caller(getattr(self.ops, node.target), self.fetch(node.args),
                       self.fetch(node.kwargs))
        # an unbacked size (``sym_size``) or number (``sym_number``): read in this run
        if "symbol" in node.meta:
            self.sizes[node.meta["symbol"]] = value if type(value) is float else int(value)
        return value


def _caller_at(where: str):
    """``call(fn, args, kwargs)``, whose frame is at the program line of the location
    comment ``where`` (``# app.py:12``)."""
    # (an assignment: an op of a function inlined from another file is split off
    # into code at that file's line, as in the graph's code; see compile_source)
    src = (f"def _call(_fn, _args, _kwargs):\n    {where}\n"
           f"    _value = _fn(*_args, **_kwargs)\n    return _value\n")
    scope: dict[str, Any] = {}
    compile_source(src, "<dynamo numpy backend: an op at its line>", scope, user_lines=True)
    return scope.pop("_call")
