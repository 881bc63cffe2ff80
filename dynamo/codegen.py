"""Code that runs a compiled graph in place of the traced bytecode.

Two layers, each as plain as it can be:

1. **Glue** (generated Python source): reads the graph's inputs through their sources,
   calls the compiled graph, writes back mutations of Python objects (lists, dicts,
   attributes, globals, closure cells), and returns the rebuilt Python values::

       def ___glue_forward_0(self, x, ___closure):
           ___o0, ___o1, = ___graph(x, self.w1, self.w2)
           ___t0 = ___o1
           self.cache = ___t0
           return (___o0, 2.0)

   (The graph's outputs are unpacked into locals as it returns them: cheaper than
   indexing the tuple at each use, and the tuple dies at once.)

   When the whole frame was captured, the glue *is* the compiled frame.

2. **Bytecode** (only at a graph break; :mod:`dynamo.bytecode.resume` builds it from the
   helpers of :mod:`dynamo.bytecode.emit`): the frame's own prologue, a call of the glue
   that returns the stack and the live locals, stores of those into the frame, the one
   unsupported instruction run for real, and a call of the resume function that
   continues the function.
"""

from __future__ import annotations

import builtins
import itertools
import re
import sys
import types
from typing import Any

from .dispatch import direct_graph_call
from .exc import BackendError, RerunEagerly, Unsupported
from .graph import PLACEHOLDER, Node
from .ops.errstate import (
    GLUE_SCOPE,
    GUARD_ENTER,
    GUARD_LEAVE,
    GUARD_SAVE,
    RAISES_NOW,
    RAISES_OF,
)
from .rebuilt_cycles import holds_itself
from .side_effects import WHEN
from .source import compile_source
from .variables import (
    NULL,
    ArrayVariable,
    CellVariable,
    ClassVariable,
    DictVariable,
    ListVariable,
    ObjectVariable,
    Variable,
)
from .variables.deques import DequeVariable
from .variables.unread_sets import UnreadSetVariable

_counter = itertools.count()


def literal(value: Any) -> str | None:
    """Source text that evaluates to ``value`` itself (the very object), or None.

    Only values whose identity the language fixes qualify: the singletons and the ints
    CPython caches. Everything else goes into the glue's scope as a named constant,
    because a literal does not always give the value back: ``repr`` of ``inf`` or
    ``complex(-0.0, 1.0)`` (``(-0+1j)``, which is ``1j``) reads back as another value
    or not at all, a huge int takes long to parse, and equal literals in one code
    object become one object where the program had two (``a is b``).
    """
    if value is None or value is True or value is False:
        return repr(value)
    if value is Ellipsis:
        return "..."
    if type(value) is int and -5 <= value <= 256:
        return repr(value)
    if type(value) is tuple and not value:
        return "()"
    return None


def iter_at(seq, pos: int):
    """A list iterator that has already yielded ``pos`` items (used by generated glue)."""
    it = iter(seq)
    for _ in range(pos):
        next(it)
    return it


def make_function(code, fn_globals, qualname, defaults, closure, kwdefaults,
                  annotations=None, annotate=None, type_params=None):
    """Rebuild a function created by MAKE_FUNCTION inside a traced region, with what
    MAKE_FUNCTION (and SET_FUNCTION_ATTRIBUTE) would have given it: ``__name__`` from
    the code, ``__qualname__``, defaults, closure, and annotations, either as the
    ``(name, value, ...)`` tuple of 3.11-3.13 or as the ``__annotate__`` function of
    3.14, and the ``__type_params__`` of ``def f[T]`` (3.12+). ``__doc__`` and
    ``__module__`` come from the code and the globals, as they do for MAKE_FUNCTION.
    Used by generated glue."""
    fn = types.FunctionType(code, fn_globals, code.co_name, defaults, closure)
    fn.__qualname__ = qualname
    if kwdefaults is not None:
        fn.__kwdefaults__ = kwdefaults
    if annotations is not None:
        fn.__annotations__ = dict(zip(annotations[::2], annotations[1::2]))
    if annotate is not None:
        fn.__annotate__ = annotate
    if type_params is not None:
        fn.__type_params__ = type_params
    return fn


class GlueCodegen:
    """Builds the glue source for one graph; see the module docstring."""

    def __init__(self, output, params: list[str], name: str):
        self.output = output
        self.params = list(params)
        self.name = f"___glue_{_identifier(name)}_{next(_counter)}"
        self.lines: list[str] = []
        self.scope: dict[str, Any] = {"___G": output.fn_globals, "___builtins": builtins,
                                      "___modules": sys.modules,
                                      "___make_function": make_function,
                                      "___MethodType": types.MethodType,
                                      "___CellType": types.CellType,
                                      "___iter_at": iter_at}
        self.out_nodes: list[Node] = []
        self._built: dict[int, str] = {}
        self._building = 0   # mutable() builds in progress (nested)
        self._open: set[int] = set()   # ids of the objects those builds make
        self._cell_fills: list = []   # cells' contents to store once those finish
        self._consts: dict[int, str] = {}
        self._temps = itertools.count()
        self._effects_at: int | None = None   # where the writes of side_effects begin
        self._writes_at: int | None = None    # where its first write is (after its temps)
        # the source of each number the glue computes that may raise (``Expr.raises``)
        self._raising: list[str] = []

    # ------------------------------------------------------------------ values
    def const(self, value: Any) -> str:
        """An expression for ``value`` itself: a literal where that gives back this very
        object (see ``literal``), otherwise a name bound to it in the glue's scope."""
        text = literal(value)
        if text is not None:
            return text
        key = self._consts.get(id(value))   # the scope keeps value alive: ids are stable
        if key is None:
            key = self._consts[id(value)] = f"___k{len(self.scope)}"
            self.scope[key] = value
        return key

    def array(self, var: ArrayVariable) -> str:
        if var.source is not None:
            return var.source.expr()  # an input (possibly mutated in place): same object
        node = var.node
        if node.op == PLACEHOLDER:
            return node.meta["source"].expr()
        return self.graph_output(node)

    def graph_output(self, node) -> str:
        """The value of a graph node, an output of the graph (an array, or an object
        the graph made: ``np.random.default_rng``)."""
        if node not in self.out_nodes:
            self.out_nodes.append(node)
        return f"___o{self.out_nodes.index(node)}"   # (``finish`` unpacks the outputs)

    def symbolic(self, value) -> str:
        """An expression for a symbolic int or float (``SymInt``, ``SymFloat``): over the
        frame's values it is read from (``L['x'].shape[0] - 1``), for an unbacked
        size (``len(x[mask])``) over the graph output whose dimension it is, and for an
        unbacked number (``float(loss) * 2``) over ``float`` of its 0-d snapshot."""
        names = dict(value.sym.sources)
        for name in value.sym.symbols & self.output.unbacked_sizes.keys():
            node, dim = self.output.unbacked_sizes[name]
            names[name] = f"{self.array(ArrayVariable(node, node.meta['array']))}.shape[{dim}]"
        for name in value.sym.symbols & self.output.unbacked_numbers.keys():
            fn, node = self.output.unbacked_numbers[name]   # float(loss): of its snapshot
            names[name] = f"{self.const(fn)}({self.graph_output(node)})"
        text = f"({value.sym.render(names)})"
        if getattr(value.sym, "raises", False):
            self._raising.append(text)
        return text

    def value(self, var: Variable) -> str:
        if var is NULL:
            raise Unsupported("NULL cannot be rebuilt as a value")
        if isinstance(var, CellVariable):   # on the stack (LOAD_CLOSURE): the cell itself
            return self.cell(var)
        return var.reconstruct(self)

    def mutable(self, var: Variable, build, fill=None) -> str:
        """Build a mutable object once; every reference shares it (aliasing).

        ``fill(temp)``, when given, emits lines that complete the object once it is
        bound to ``temp`` (attribute stores), so those values may refer to it."""
        if var.source is not None:
            return var.source.expr()
        key = id(var)
        if key not in self._built:
            if key in self._open:   # its own parts reach it (a list that holds itself
                # through a kind without an empty-then-fill build): a second copy would
                # be built, so the frame runs as it is (rebuilt_cycles.py)
                raise Unsupported(f"rebuilding a {type(var).__name__} that holds itself")
            self._building += 1
            self._open.add(key)
            try:
                expr = build(var)
            finally:
                self._building -= 1
                self._open.discard(key)
            temp = f"___v{next(self._temps)}"
            self.lines.append(f"{temp} = {expr}")
            self._built[key] = temp
            if fill is not None:
                fill(temp)
            while not self._building and self._cell_fills:
                self._cell_fills.pop(0)()
        return self._built[key]

    def holds_itself(self, var: Variable) -> bool:
        """``var``'s parts reach it again: a list or dict builds empty, then fills
        (``[]`` then ``.extend([..., itself])``; ``rebuilt_cycles.py``)."""
        return holds_itself(var)

    def cell(self, var: CellVariable) -> str:
        """An expression for the cell object itself (closures must share it)."""
        if var.source is not None:
            return var.source.cell_expr()
        # The cell is made empty and filled once the object being built around it (a
        # function whose closure it is) exists: its contents may be that object (a
        # nested function that calls itself holds its own cell).
        fresh_only = var.frame_index is not None
        if fresh_only:   # a cell of the frame being compiled
            build = (f"(___cells[{var.frame_index}] if ___cells is not None else "
                     f"___CellType())")
        else:
            build = "___CellType()"
        return self.mutable(var, lambda v: build, lambda temp: self._cell_fills.append(
            lambda: self._fill_cell(var, temp, fresh_only)))

    def _fill_cell(self, var: CellVariable, temp: str, fresh_only: bool = False) -> None:
        """Lines that store what the rebuilt cell ``temp`` holds (nothing for an empty
        cell); ``fresh_only``: only when the cell was made here (``___cells`` is None),
        not when it is the frame's own cell."""
        contents = self._cell_contents(var)
        if not contents:
            return
        guard = "if ___cells is None: " if fresh_only else ""
        self.lines.append(f"{guard}{temp}.cell_contents = {contents}")

    def _cell_contents(self, var: CellVariable) -> str:
        """What a rebuilt cell holds: the trace's value, else the argument that filled
        it at frame entry (a captured argument the trace never read), else nothing."""
        if var.value is not None:
            return self.value(var.value)
        arg = var.unread_argument()
        return arg.expr() if arg is not None else ""

    def globals_expr(self, fn_globals: dict) -> str:
        if fn_globals is self.output.fn_globals:
            return "___G"
        return self.const(fn_globals)

    def temp(self, expr: str) -> str:
        name = f"___t{next(self._temps)}"
        self.lines.append(f"{name} = {expr}")
        return name

    # ------------------------------------------------------------------ side effects
    def side_effects(self) -> None:
        """Write back mutations of objects from outside the trace, values first."""
        writes: list[tuple[str, str]] = []
        effects = self.output.side_effects
        self._effects_at = len(self.lines)
        only = len(effects.mutated) == 1 and not effects.globals
        for var in effects.mutated.values():
            read = var.source.cell_expr() if isinstance(var, CellVariable) else \
                var.source.expr()
            if only and isinstance(var, ListVariable) and var.is_unread() and \
                    len(var.appended) == 1 and not var.edits:
                self._append_one(read, var.appended[0])
                continue
            # the object the trace mutated, read before any write moves its path
            target = self.temp(read)
            if isinstance(var, ListVariable) and var.is_unread() and var.edits:
                writes.extend(self._list_edits(target, var))
            elif isinstance(var, ListVariable) and var.is_unread() and \
                    len(var.appended) == 1:   # one append (an exact list: its own append)
                item = self.temp(self.value(var.appended[0]))
                writes.append((None, f"{target}.append({item})"))
            elif isinstance(var, ListVariable) and var.is_unread():   # appended to only
                items = ", ".join(self.value(v) for v in var.appended)
                writes.append((None, f"{target}.extend({self.temp(f'[{items}]')})"))
            elif isinstance(var, ListVariable) and var.kept_prefix() is not None:
                items = ", ".join(self.value(v) for v in var.items[var.kept_prefix():])
                writes.append((None, f"{target}.extend({self.temp(f'[{items}]')})"))
            elif isinstance(var, ListVariable):
                items = ", ".join(self.value(v) for v in var.items)
                writes.append((f"{target}[:]", self.temp(f"[{items}]")))
            elif isinstance(var, DictVariable):   # its changes, in order (write_back)
                for op, key, value in var.write_back():
                    # (a key Variable: a changing int, computed before the writes)
                    spelled = self.temp(self.value(key)) if isinstance(key, Variable) \
                        else self.const(key)
                    at = f"{target}[{spelled}]"
                    if op == "set":
                        writes.append((at, "None" if value is None else
                                       self.temp(self.value(value))))
                    elif op == "move_to_end":   # (an OrderedDict: unread_ordered_dicts)
                        writes.append((None, f"{target}.move_to_end({spelled}, "
                                             f"{self.value(value)})"))
                    else:
                        writes.append((None, f"del {at}" if op == "delete" else
                                       f"{target}.{op}()"))
            elif isinstance(var, (DequeVariable, UnreadSetVariable)):   # its ops, in order
                writes.extend(var.replay(self, target))   # (deques.py, unread_sets.py)
            elif isinstance(var, (ObjectVariable, ClassVariable)):   # (class_writes)
                for attr, value in var.pending.items():
                    writes.append((f"{target}.{attr}", self.temp(self.value(value))))
            elif isinstance(var, CellVariable):
                writes.append((f"{target}.cell_contents", self.temp(self.value(var.value))))
            else:
                raise Unsupported(f"cannot write back a mutated {var.describe()}")
        for name, value in effects.globals.items():
            writes.append((f"___G[{name!r}]", self.temp(self.value(value))))
        if self._writes_at is None and (writes or effects.prints):
            self._writes_at = len(self.lines)
        for target, expr in writes:
            self.lines.append(expr if target is None else f"{target} = {expr}")
        for texts, options in effects.prints:   # print() calls, in order (C-level stdout:
            # no write of them can see the writes above, deferred_prints.py)
            args = [self.value(t) for t in texts] + \
                [f"{k}={self.const(v)}" for k, v in options.items() if k != WHEN]
            # (a loop exit's print, on the way the last test chose: exit_prints.py)
            when = f"if {self.value(options[WHEN])}: " if WHEN in options else ""
            self.lines.append(f"{when}{self.const(print)}({', '.join(args)})")

    def _list_edits(self, target: str, var: ListVariable) -> list[tuple]:
        """The writes of an unread list's appends and item sets, in program order
        (``memory.append(None); memory[position] = t``): each set's index was decided
        in bounds by the trace (``ListVariable._set_unread``), so none raises."""
        writes, done = [], 0
        for at, index, value in var.edits:
            if at > done:
                items = ", ".join(self.value(v) for v in var.appended[done:at])
                writes.append((None, f"{target}.extend({self.temp(f'[{items}]')})"))
                done = at
            key = self.temp(self.value(index))
            writes.append((f"{target}[{key}]", self.temp(self.value(value))))
        if done < len(var.appended):
            items = ", ".join(self.value(v) for v in var.appended[done:])
            writes.append((None, f"{target}.extend({self.temp(f'[{items}]')})"))
        return writes

    def _append_one(self, read: str, item: Variable) -> None:
        """The frame's only write back is one item appended to a list it never read
        (a layer keeping its inputs): written as the program did, ``self.X.append(x)``,
        with no temporaries (about 160 instructions less a call). The list is exact
        (``builder`` makes an unread ``ListVariable`` for ``type(v) is list`` only,
        guarded), so its ``append`` is ``list.append``. The list is read before the
        item, as eager did: where building the item takes statements, the list is
        read into a temporary before them."""
        at, raising = len(self.lines), len(self._raising)
        expr = self.value(item)
        if len(self.lines) == at and len(self._raising) == raising:
            self._writes_at = len(self.lines)
            self.lines.append(f"{read}.append({expr})")
            return
        # (an item that may raise is computed before the write: ``finish``)
        target = f"___t{next(self._temps)}"
        self.lines.insert(at, f"{target} = {read}")
        item = self.temp(expr)
        self._writes_at = len(self.lines)
        self.lines.append(f"{target}.append({item})")

    # ------------------------------------------------------------------ raising values
    def check_raising_values(self, graph: bool, rerun: bool) -> None:
        """``Unsupported`` where a number the glue computes may raise (``2.0 ** o.t``,
        ``Expr.raises``) and ``finish`` could not keep that exact: after a graph that
        cannot run again (it wrote an input: plain Python raised before that write), or
        after the first write back (a value the writes need inline). Elsewhere
        ``finish`` computes every value before the first write, and an exception there
        reruns the frame's original code (``RerunEagerly``), which makes the effects
        and raises the program's own error, inside its own ``try`` (issue #17).

        Example: ``o.t += 1; return 2.0 ** o.t`` (no graph) is fine; ``o.t += 1;
        o.w -= x; return 2.0 ** o.t`` (the graph writes ``o.w``) is not."""
        if not self.reruns_raising_values():
            return
        late = self.lines[self._writes_at:] if self._writes_at is not None else []
        if (graph and not rerun) or any(t in line for t in self._raising for line in late):
            raise Unsupported(
                "a Python number the glue computes may raise after Python objects were "
                "changed, in a frame that cannot be rerun",
                "The number (a power, a division, a math function of a changing value) "
                "is computed after the graph; where it raises, the changes made before "
                "it could not be put back. The frame runs eagerly.",
                cause="raise_after_effects")

    def reruns_raising_values(self) -> bool:
        """Does the glue compute a number that may raise (``Expr.raises``) and write
        Python objects back after it? Only then does an exception need the rerun: with
        no write back, raising at once loses nothing (``return x / d, 1.0 / d`` with
        ``d == 0.0`` warns in the graph and raises ZeroDivisionError, as plainly; a
        rerun would warn a second time)."""
        return bool(self._raising) and self._writes_at is not None

    # ------------------------------------------------------------------ assembling
    def finish(self, result_expr: str, graph_fn, input_exprs: list[str],
               rerun: bool = False, guard: bool = False, eager_if_raising: bool = False,
               guard_if_raising: bool = False, boxed: bool = False, reads: dict | None = None,
               slots: list[str] | None = None, bare: bool = False) -> types.FunctionType:
        """The glue function: call the graph, then the lines, then return the result.
        The graph returns the tuple of its outputs, unpacked into ``___o0, ___o1,``;
        with ``bare`` (its one output, ``backends.common.tuple_of_one``), ``___o0`` is
        the call's value (no 1-tuple built and unpacked per call).

        With ``rerun``, an exception of the graph becomes ``RerunEagerly`` (the frame
        hook then runs the frame's original code; see ``dynamo.exc.RerunEagerly``).
        With ``guard`` (and ``rerun``), the graph runs under NumPy's floating-point
        guard: a condition that would warn raises instead, so a graph that raises has
        reported nothing the rerun reports again (``dynamo.raising.on_raise``).
        With ``guard_if_raising`` (and ``rerun``), it does so only on calls whose
        caller's ufunc settings make some condition raise (``np.errstate(divide=
        "raise")`` around the call): there a graph that warned and then raised would
        report its warnings once more in the rerun.
        With ``eager_if_raising`` (a graph that is not rerun), the frame runs eagerly
        instead of the graph (``RerunEagerly`` before it runs) when the caller's ufunc
        settings make some floating-point condition raise.
        ``RerunEagerly`` carries the frame's arguments (``values``).

        With ``boxed`` (the glue of a resume function), the glue takes the frame's
        arguments in one list that it empties first (``hook.run_boxed``): no frame of
        the call into it holds them, so a value the program drops dies when it would in
        plain Python. ``slots`` orders its parameters' frame slots (the order they are
        dropped in when it returns).

        ``reads`` (``{name: expression}``, ``guards.shared_reads``): values the inputs
        read by name, computed once (``np.asarray(ids)``). Each is a keyword parameter
        too: the dispatcher passes the one its guards already computed."""
        body = []
        if boxed:
            # a frame drops its locals in slot order when it returns, and slots go by
            # first store: one chained store gives them ``slots`` (the order that drops
            # the values as the program's frame does, lifetimes.glue_slot_order), so a
            # weakref made at a break (`r = weakref.ref(p, cb)`) dies after its
            # referent and its callback runs, as plainly
            if slots is not None and list(slots) != self.params:
                body.append(" = ".join(slots) + " = None")
            body += [f"{self._flat()} = ___box", "del ___box[:]"]
        for name, expr in (reads or {}).items():
            body += [f"if {name} is None:", f"    {name} = {expr}"]
        flat_values = f"({self._flat()})"
        if graph_fn is not None:
            self.scope["___graph"] = graph_fn
            outs = "___o0" if bare else \
                "".join(f"___o{i}, " for i in range(len(self.out_nodes))).rstrip() or "___out"
            call = f"{outs} = ___graph({', '.join(input_exprs)})"
            if rerun:
                self.scope["___RerunEagerly"] = RerunEagerly
                self.scope["___BackendError"] = BackendError   # not the program's error
                if guard:
                    self.scope.update(GLUE_SCOPE)
                    # the switch inside the try, its undo the finally's first call:
                    # no interrupt splits them (dynamo.ops.errstate, GUARD_SAVE)
                    body += [f"___saved = {GUARD_SAVE}", "try:",
                             f"    {GUARD_ENTER.format(saved='___saved')}", f"    {call}",
                             "except ___BackendError:", "    raise",
                             "except Exception as ___e:",
                             f"    raise ___RerunEagerly({flat_values}) from ___e",
                             "finally:", f"    {GUARD_LEAVE.format(saved='___saved')}"]
                elif guard_if_raising:
                    # Most calls' settings raise nothing: they neither switch nor set the
                    # settings back (a ContextVar.set is about 500 machine instructions,
                    # a third of a cached `x + y`'s overhead; issue #15). ``___guarded``
                    # is decided before the try and the finally undoes only a switch
                    # made inside it: an interrupt between any two statements leaves
                    # the caller's settings as they were (a graph's own np.errstate
                    # blocks are undone by ``restoring``, glue.py).
                    self.scope.update(GLUE_SCOPE)
                    body += [f"___saved = {GUARD_SAVE}",
                             f"___guarded = {RAISES_OF.format(saved='___saved')}", "try:",
                             "    if ___guarded:",
                             f"        {GUARD_ENTER.format(saved='___saved')}", f"    {call}",
                             "except ___BackendError:", "    raise",
                             "except Exception as ___e:",
                             f"    raise ___RerunEagerly({flat_values}) from ___e",
                             "finally:", "    if ___guarded:",
                             f"        {GUARD_LEAVE.format(saved='___saved')}"]
                else:
                    body += ["try:", f"    {call}", "except ___BackendError:", "    raise",
                             "except Exception as ___e:",
                             f"    raise ___RerunEagerly({flat_values}) from ___e"]
            elif eager_if_raising:
                self.scope.update(GLUE_SCOPE)
                self.scope["___RerunEagerly"] = RerunEagerly
                body += [f"if {RAISES_NOW}:",
                         f"    raise ___RerunEagerly({flat_values})", call]
            else:
                body.append(call)
            if hasattr(graph_fn, "__dynamo_call_source__"):
                # the glue calls the variant of its inputs' sizes itself, with no frame
                # of the graph object's (PerSize.__call__), whether the dispatcher pastes
                # its statements or calls it (a resume function's glue, the code before
                # a break: see dynamo.dispatch.inlined_glue)
                taken = set(re.findall(r"\w+", "\n".join(body))) | set(self.params)
                body = direct_graph_call(body, graph_fn, "___graph", "___", taken, outs)
        if self.reruns_raising_values():   # (``check_raising_values`` has allowed it)
            body += self._rerun_if_raising(result_expr, flat_values)
        elif self._effects_at is None or self._effects_at == len(self.lines) or \
                re.fullmatch(r"___o\d+", result_expr):
            # (a graph output is a local of its own: the writes back cannot change it)
            body += self.lines
            body.append(f"return {result_expr}")
        else:   # the result reads its sources before the writes back change them
            at = self._effects_at
            body += self.lines[:at]
            body.append(f"___result = {result_expr}")
            body += self.lines[at:]
            body.append("return ___result")
        params = (["___box"] if boxed else self.params) + ["___closure", "___cells=None"] + \
            [f"{name}=None" for name in reads or {}]
        src = f"def {self.name}({', '.join(params)}):\n" + "".join(
            f"    {line}\n" for line in body)
        compile_source(src, f"<dynamo glue {self.name}>", self.scope)
        fn = self.scope.pop(self.name)   # not in its own globals: no reference cycle
        fn.__dynamo_source__ = src
        # the dispatcher may paste these statements in place of a call of ``fn``
        # (dynamo.dispatch.inlined_glue): it has the frame's arguments under these names
        fn.__dynamo_inline__ = not boxed
        return fn

    def _rerun_if_raising(self, result_expr: str, flat_values: str) -> list[str]:
        """The lines and the return, where a value may raise: every value (the result
        and the temporaries of the writes) is computed inside a ``try`` before the first
        write, and an exception there becomes ``RerunEagerly`` (nothing was written
        back yet; the graph, if any, may be rerun). A ``try`` costs nothing until it
        raises (3.11+)::

            try:
                ___result = ((2.0 ** float((o.t + 1))))
                ___t0 = o
                ___t1 = (o.t + 1)
            except Exception as ___e:
                raise ___RerunEagerly((o, x, )) from ___e
            ___t0.t = ___t1
            return ___result
        """
        self.scope["___RerunEagerly"] = RerunEagerly
        at = self._effects_at if self._effects_at is not None else len(self.lines)
        writes = self._writes_at if self._writes_at is not None else len(self.lines)
        values = self.lines[:at] + [f"___result = {result_expr}"] + self.lines[at:writes]
        return ["try:", *("    " + line.replace("\n", "\n    ") for line in values),
                "except Exception as ___e:",
                f"    raise ___RerunEagerly({flat_values}) from ___e",
                *self.lines[writes:], "return ___result"]

    def _flat(self) -> str:
        """The frame's arguments as a tuple display (``"x, y, "``; ``"()"`` for none)."""
        return "".join(f"{p}, " for p in self.params) or "()"


def _identifier(name: str) -> str:
    return re.sub(r"\W", "_", name)
