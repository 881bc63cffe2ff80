"""The cache entry of a frame whose trace hit a graph break (``_compile_break``).

The frame becomes new bytecode (:mod:`dynamo.bytecode.resume`) that calls the glue of
the graph so far, restores the locals and stack the trace left, runs the breaking
instruction (or an island: the enclosing loop or ``try`` block, run eagerly) and
returns through a resume function that is compiled in turn. ``FrameRunner`` runs that
bytecode with the caller's closure.

Example::

    >>> def f(x):
    ...     y = x * 2
    ...     print(y)          # graph break: the frame's new code runs graph 1,
    ...     return y + 1      # print(y), then the resume function at this line
    >>> entry = _compile_break(f, tx, brk, output, ctx, params, record, arg_values)
    >>> type(entry.run).__name__
    'FrameRunner'
"""

from __future__ import annotations

import types
import weakref
from functools import partial

import numpy as np

from . import hook, logs, pyversion, reentry
from .break_calls import _BREAK_ORIGIN, _c_code_now, _cache_of, _weak_hooks, island_intercept
from .break_ranges import is_range_call
from .bytecode.break_code import break_code, resume_at, stack_loads
from .bytecode.caller_frames import calls_caller_reader
from .bytecode.fresh_locals import fresh_container_locals
from .bytecode.instructions import code_name, reads_its_locals
from .bytecode.outline import PARAM, outlined_loop
from .bytecode.resume import (
    Resume,
    ResumeCaller,
    expected_resume,
    is_resume_code,
    resume_code,
    run_break_code,
)
from .cached_call_results import changing_results, is_cache_wrapper, is_random_draw, note_result
from .codegen import GlueCodegen
from .config import config
from .exc import RerunEagerly, SkipFrame, Unsupported
from .frame_records import _break_record, _LazyDis, _log_break, _phase
from .glue import _check, _codegen, _finish
from .outline_trial import OUTLINED, PLAIN, OutlineTrial
from .symbolic import SymFloat, SymInt
from .symbolic.number_decisions import hint
from .symbolic.sizes import is_unbacked
from .translator import GraphBreak
from .variables import NULL, ArrayVariable
from .variables.arrays import DeferredNumberVariable
from .variables.constant import ConstantVariable, SymRangeVariable
from .variables.graph_numbers import is_graph_number
from .variables.lifetimes import held_object, holds_frame_cells, may_end_visibly

log_bytecode = logs.get("bytecode")


class FrameRunner:
    """Runs the rewritten bytecode of a frame that breaks, with the caller's closure."""

    def __init__(self, code: types.CodeType, fn_globals: dict, origin=None):
        self.code, self.fn_globals, self.origin = code, fn_globals, origin
        self.key = id(origin)   # (reentry.state.codes; origin lives as long)
        # made once where there is no closure (a function per call otherwise: an
        # outlined loop body and its resume functions run once per trip)
        self.plain = None if code.co_freevars else \
            types.FunctionType(code, fn_globals, code.co_name, None, None)

    def function(self, closure) -> types.FunctionType:
        """The function of the new code with the caller's ``closure``."""
        if closure is None and self.plain is not None:
            return self.plain
        return types.FunctionType(self.code, self.fn_globals, self.code.co_name, None, closure)

    def dispatch_lines(self, prefix: str, flat: str, closure: bool) -> tuple[list[str], dict]:
        """``__call__``'s body, and ``resume.run_break_code``'s, as statements for the
        dispatcher to paste in place of ``return {prefix}run(x, n, ___closure)``
        (``dispatch.dispatcher``), and the names they read (``{prefix}state``...): a
        breaking hit then runs neither this object's frame (nor CPython's
        ``slot_tp_call`` for it) nor ``run_break_code``'s, only the frame's new code.
        That also takes a recursion through the compiled function that many recursion
        units nearer plain Python's depth (issue #17 ``compiled-recursion-depth``).
        ``flat``: the dispatcher's arguments (``"x, n, "``); ``closure``: whether
        ``___closure`` may be a closure (else it is None). For ``x, n`` of a function
        without one::

            ___e0_codes = ___e0_state.codes
            if ___e0_key in ___e0_codes:
                raise ___RerunEagerly()      # a recursion: the original code runs
            ___e0_codes.add(___e0_key)
            try:
                if ___e0_getattr(___e0_local, "expected", None) is ___e0_origin:
                    ___e0_local.expected = None   # the resume function a Resume runs
                    return ___e0_plain(x, n, )
                ___e0_result = ___e0_plain(x, n, )
                while ___e0_type(___e0_result) is ___e0_Resume:
                    ___e0_result = ___e0_result.run()
                return ___e0_result
            finally:
                ___e0_codes.discard(___e0_key)
        """
        p = prefix
        run, names = self.dispatch_lines_of(prefix, flat, closure)
        lines = [f"{p}codes = {p}state.codes",
                 f"if {p}key in {p}codes:",
                 "    raise ___RerunEagerly()",
                 f"{p}codes.add({p}key)",
                 "try:",
                 *(f"    {line}" for line in run),
                 "finally:",
                 f"    {p}codes.discard({p}key)"]
        names.update({f"{p}state": reentry.state, f"{p}key": self.key})
        return lines, names

    def dispatch_lines_of(self, prefix: str, args: str, closure: bool) -> tuple[list, dict]:
        """``run_break_code(self.function(___closure), (args), self.origin)`` as
        statements (``dispatch_lines``, ``boxed_dispatch_lines``)."""
        p = prefix
        if self.plain is not None and not closure:
            fn = f"{p}plain"
        elif self.plain is not None:
            fn = f"({p}plain if ___closure is None else {p}function(___closure))"
        else:
            fn = f"{p}function(___closure)"
        nested = [] if self.origin is None else [
            f"if {p}getattr({p}local, 'expected', None) is {p}origin:",
            f"    {p}local.expected = None",
            f"    return {fn}({args})"]
        lines = [*nested,
                 f"{p}result = {fn}({args})",
                 f"while {p}type({p}result) is {p}Resume:",
                 f"    {p}result = {p}result.run()",
                 f"return {p}result"]
        names = {f"{p}plain": self.plain, f"{p}function": self.function,
                 f"{p}origin": self.origin, f"{p}local": expected_resume,
                 f"{p}Resume": Resume, f"{p}getattr": getattr, f"{p}type": type}
        return lines, names

    def __call__(self, *args):
        # (dispatch_lines pastes this and run_break_code into the dispatcher: keep the
        # three the same)
        # (runs the resume functions the frame returns: see resume.run_break_code)
        # A call of the same code under this one (a recursion through the compiled
        # function) runs its original code, one frame a level (dynamo/reentry.py).
        codes, key = reentry.state.codes, self.key
        if key in codes:
            raise RerunEagerly()   # (nothing ran yet: the hook runs the original)
        codes.add(key)
        try:
            return run_break_code(self.function(args[-1]), args[:-1], self.origin)
        finally:
            codes.discard(key)


class BoxedFrameRunner(FrameRunner):
    """A ``FrameRunner`` of a resume function: its arguments come in one list, which
    the frame's new code empties (``hook.run_boxed``, ``emit.unbox``)."""

    dispatch_lines = None   # (called with the box by ``dispatch.boxed_dispatcher``)

    def boxed_dispatch_lines(self, prefix: str, closure: bool) -> tuple[list[str], dict]:
        """``__call__``'s body (``resume.run_break_code``'s) as statements for
        ``dispatch.boxed_dispatcher`` to paste in place of ``return
        {prefix}run(___box, ___closure)``, and the names they read: a resume
        function's hit runs no frame of this object's or of ``run_break_code``'s
        (``FrameRunner.dispatch_lines``)::

            if ___e0_getattr(___e0_local, 'expected', None) is ___e0_origin:
                ___e0_local.expected = None   # the Resume that runs it loops
                return ___e0_plain(___box)
            ___e0_result = ___e0_plain(___box)
            while ___e0_type(___e0_result) is ___e0_Resume:
                ___e0_result = ___e0_result.run()
            return ___e0_result
        """
        return self.dispatch_lines_of(prefix, "___box", closure)

    def __call__(self, box, closure):
        return run_break_code(self.function(closure), (box,), self.origin)


def _data_numbers(tx, brk: GraphBreak, layout: tuple, names) -> list[str]:
    """The resume function's parameters (``names``: its locals; ``___stack{i}``: the
    values of the stack below the breaking instruction, ``layout``) that carry a Python
    int or float the graph computes from array data (``score = float(x.max() -
    x.min())``, ``counts[int(np.argmax(x))] += 1``, ``float(loss) * 2``): each is a
    changing number there from its first trace (``cached_call_results``), not guarded
    by the value it had then. The data decides such a number, so it changes from call
    to call: guarded by value, each resume function compiled twice (``if score >
    self.best`` breaks; both of its resume functions read ``score``: issue #16). A use
    that needs the value still guards it."""
    found = [n for n in names if _data_number(dict.get(tx.locals, n))]
    pops = 0 if brk.point.kind == "before" else \
        pyversion.stack_pops(brk.inst.name, brk.inst.arg)
    kept = len(brk.stack) - (pops or 0)
    below = brk.stack[:kept]
    if pops is None or list(layout[:kept]) != [v is NULL for v in below]:
        return found      # (the stack's values cannot be told apart: locals only)
    values = [v for v in below if v is not NULL]    # ``___stack{i}`` in this order
    return found + [f"___stack{i}" for i, v in enumerate(values) if _data_number(v)]


def _changing_locals(tx, names, code) -> list[str]:
    """The resume function's locals that hold a changing number this frame takes as
    changing from its own first trace (``changing_results(code)``: the item ``it`` of
    an outlined loop body over a range, carried into ``it`` and over the body's break):
    it changes from trip to trip there too, so it is a changing number of the resume
    function from its first trace, not guarded ``it == 0``, then compiled again at the
    second trip. (Not a number that became changing by an earlier entry's guard: the
    resume function learns that itself, so its compiles do not depend on what other
    contexts compiled before.) A use there that needs the value still guards it."""
    noted, env = changing_results(code), tx.output.shape_env
    return [n for n in names if isinstance(v := dict.get(tx.locals, n), ConstantVariable)
            and isinstance(v.value, (SymInt, SymFloat)) and v.value.sym.symbols and
            all(env.symbols.get(s) in noted for s in v.value.sym.symbols)]


def _changing_params(code) -> set[str]:
    """The names of ``code``'s parameters that are changing numbers from its first
    trace (``changing_results``)."""
    return {source.local for source in changing_results(code)}


def _arithmetic_of_data(brk: GraphBreak) -> bool:
    """Does the breaking instruction do arithmetic on a number the data decides
    (``self.hits / self.n`` with ``self.hits += int((r < 0.5).sum())``: an int whose
    value only the graph knows, divided in Python at the break)? Its result, on top of
    the resume function's stack, changes with the data as its operand does: a changing
    number there from the first trace, not guarded by the value it had then (a
    recompile of the resume function at the second call)."""
    if brk.inst.name != "BINARY_OP" or brk.point.kind == "before" or len(brk.stack) < 2:
        return False
    return any(_data_number(v) or isinstance(v, ConstantVariable) and
               isinstance(v.value, (SymInt, SymFloat)) and
               any(is_unbacked(n) for n in v.value.sym.symbols)
               for v in brk.stack[-2:])


def _data_number(var) -> bool:
    """``int()``/``float()`` of an array the glue computes, or a float made from one."""
    return isinstance(var, DeferredNumberVariable) and var.fn in (int, float) or \
        var is not None and is_graph_number(var)


# 3.11's comprehensions: functions of their own, called with the iterator ``.0``
_COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>"})


def _reported_by_caller(code, e: Unsupported, brk: GraphBreak, output) -> bool:
    """Whether this break repeats its caller's (issue #19: one break is reported once).

    On 3.11 ``[v for v in xs if v > 0]`` is a function of its own, called with
    ``iter(xs)``; the caller traces into it and breaks at the ``if`` (its record says
    where: in ``<listcomp>``, called from the caller's line), then calls it as Python.
    The comprehension's frame can never trace its loop over that Python iterator: its
    first ``FOR_ITER`` breaks, with no graph before it, at the same line. That break
    adds nothing the user can act on beyond the caller's, so it is not recorded (it
    is logged, and runs as before)."""
    return code.co_name in _COMPREHENSIONS and code.co_varnames[:1] == (".0",) and \
        brk.inst.name == "FOR_ITER" and e.reason.startswith("iteration over a Python") \
        and not output.graph.call_nodes()


def _compile_break(fn, tx, brk: GraphBreak, output, ctx, params, record,
                   arg_values: dict) -> hook.CacheEntry:
    code = fn.__code__
    e = brk.point.reason
    _log_break(e, code, island=brk.point.kind == "island")
    if not _reported_by_caller(code, e, brk, output):
        record.breaks.append(_break_record(e, code))
    unread = tx.unread_args()
    bound = [n for n in code.co_varnames
             if (n in tx.locals or n in unread) and n not in code.co_cellvars]
    if brk.point.kind == "island":   # the rest of the frame runs here: keep every local
        live = bound
    elif reads_its_locals(code) or calls_caller_reader(
            fn, [*arg_values.values(), *(held_object(v) for v in dict.values(tx.locals))]):
        # locals(), eval(), or a callee's sys._getframe(1).f_locals: every bound local
        # is the program's (the callee sees the resume function's frame as this one)
        live = bound
    else:
        # ("before": the resume function starts at the breaking instruction itself)
        targets = [brk.inst.index + (brk.point.kind != "before")]
        if brk.inst.target is not None:
            targets.append(brk.inst.target)
        read = set().union(*(tx.info.live_at(t) for t in targets))
        # a local read again, or one that plain Python still holds (until it is
        # rebound or the function returns) and whose end the program can see, now or
        # after the breaking instruction takes a weak reference to it
        live = [n for n in bound
                if n in read or may_end_visibly(tx.locals.get(n, unread.get(n))) or
                holds_frame_cells(dict.get(tx.locals, n), tx.cells)]
    # the breaking instruction is a `del`: the frame gets the local back to delete it
    # (at this point, for real: see translator/names.py drop_local), not to pass it on
    deleted = brk.inst.arg if brk.inst.name == "DELETE_FAST" else None
    live = [n for n in live if n != deleted]
    restore = [n for n in live if n in tx.locals] + \
        ([deleted] if deleted in tx.locals else [])
    # arguments the trace deleted: the frame still holds them
    unbound = [n for n in code.co_varnames[:len(params)]
               if n not in bound and n not in code.co_cellvars]
    restore_vars = [tx.locals[n] for n in restore]
    for name in code.co_cellvars:
        cell = tx.cells[name]
        # (a cell passed in, a resume function's, is the caller's: the glue writes it
        # back as it writes any cell from before the trace)
        if cell.value is not None and cell.source is None:
            restore.append(name)
            restore_vars.append(cell.value)
    callee = _callee_slots(brk)

    def holds(name, value) -> bool:
        """The frame's plain local ``name`` is bound to ``value`` at the break, and
        ``value`` is no callable the glue wraps (``___intercept``)."""
        return name not in code.co_cellvars and name not in code.co_freevars and \
            dict.get(tx.locals, name) is value and not any(value is c for c in callee)

    # values the original pushed from a local go onto the stack from that local, the
    # way the original pushed them (3.14 borrows): the frame binds the local at the
    # break even where it is dead after it (plain Python holds it there too)
    loads = stack_loads(code, brk, holds)
    for load in loads:
        if load is not None and load[0] not in restore:
            restore.append(load[0])
            restore_vars.append(tx.locals[load[0]])
    stack_values = [v for v, load in zip(brk.stack, loads) if v is not NULL and load is None]
    cg = GlueCodegen(output, params, code.co_name)
    run, intercept = _weak_hooks(ctx)
    cache_of = partial(_cache_of, weakref.ref(ctx))
    cg.scope["___intercept"] = intercept
    island = island_intercept(ctx, code)   # (the calls of the code at the break)

    def values():
        exprs = []
        for var in stack_values:
            expr = cg.value(var)
            if any(var is c for c in callee):   # the callee runs as its own compiled frame
                expr = f"___intercept({expr})"
            exprs.append(expr)
        exprs += [cg.value(v) for v in restore_vars]
        return "(" + "".join(f"{x}, " for x in exprs) + ")"

    result = _codegen(cg, values)
    with _phase(record, "finish"):
        glue = _finish(fn, cg, result, output, ctx, record)

    def make_resume(target: int, layout: tuple, names: tuple | None = None, changing=()):
        rcode = resume_code(code, target, layout, tuple(live if names is None else names))
        if target == brk.inst.index + 1 and (callee and (
                is_cache_wrapper(held_object(callee[0])) or is_random_draw(callee[0])
                or is_range_call(callee[0])) or _arithmetic_of_data(brk)):
            # (the call's or the operator's result, on top: a changing number from the
            # first trace)
            note_result(rcode, f"___stack{sum(not n for n in layout) - 1}")
        for name in _data_numbers(tx, brk, layout, live if names is None else names):
            note_result(rcode, name)
        for name in _changing_locals(tx, live if names is None else names, code):
            note_result(rcode, name)
        for name in changing:   # (what an outlined loop's body bound: resume_after)
            note_result(rcode, name)
        log_bytecode.debug("%s", _LazyDis(rcode, title="resume function"))
        return ResumeCaller(rcode, fn.__globals__, run, cache_of)

    def resume_after(target: int, bound_by_the_loop: tuple, below: int = 0, stored=()):
        """Return from the frame through the resume function at ``target``, after an
        outlined loop: it takes the ``below`` values under the loop on the stack, the
        locals bound before the loop and those the loop's body bound (``outline.py``).
        A number the body stored (``j`` of an inner loop, a count: ``stored``) is
        another after each run of the loop: a changing number of the resume function
        from its first trace, not guarded ``j == 4``, then compiled again for ``j ==
        5`` (issue #19)."""
        names = tuple(n for n in code.co_varnames if n in live or n in bound_by_the_loop)
        return resume_at(code, target, list(names), partial(
            make_resume, names=names, changing=tuple(n for n in stored if n in names)),
                         brk.inst.instr.location, below)

    boxed = is_resume_code(code)
    # a loop whose body breaks: its body becomes a compiled function of its own
    trips = _range_trips(brk)
    outline = outlined_loop(fn, brk, bound, _largest_array(tx, brk), cache_of, run,
                            resume_after, trips) \
        if brk.point.kind == "island" else None
    if outline is not None and trips is not None:
        # the item of a ``for`` over a range is another int each trip: a changing
        # number of the body function from its first trace, not guarded == 0 (the
        # body compiled again at the second trip of the first call)
        note_result(outline.body, PARAM)
    if outline is not None:
        # so is a number the body reads that changes here from trip to trip (``i`` of
        # an outer outlined loop, read by the inner loop's body: ``x[i]``): the inner
        # body is not compiled again for every outer trip's ``i`` (issue #19)
        args = outline.body.co_varnames[:outline.body.co_argcount]
        unread = [n for n in args if n in tx.unread_args() and n in _changing_params(code)]
        for name in _changing_locals(tx, args, code) + unread:   # (unread: passed on)
            note_result(outline.body, name)

    def new_code_with(rewrite):
        """The frame's new code, its island's loop outlined by ``rewrite`` (or not)."""
        try:
            new = break_code(code, brk, glue, len(stack_values), restore, live, make_resume,
                             island, unbound,
                             partial(_c_code_now, fn.__globals__, _fixed_local_types(
                                 tx, brk, code, fn.__globals__)), boxed=boxed,
                             outline=rewrite, loads=loads)
        except Unsupported as err:
            raise SkipFrame(err.reason) from None
        log_bytecode.debug("%s", _LazyDis(code, new))
        return new

    Runner = BoxedFrameRunner if boxed else FrameRunner
    new_code = new_code_with(None if outline is None else outline.rewrite)
    plain = new_code if outline is None else \
        new_code_with(None) if config.outline_trial_calls else None
    # (a plain island runs the original code, where the frame does nothing else)
    original = plain is not None and not boxed and not callee and \
        _plain_island(brk, output, plain, island)
    if outline is None and original:
        return hook.CacheEntry(_check(fn, output, params, record), runs_original, record)
    _BREAK_ORIGIN[new_code] = code
    runner = Runner(new_code, fn.__globals__, code)
    if outline is not None and plain is not None:
        # the loop runs both ways on the first calls, the faster stays (outline_trial.py)
        _BREAK_ORIGIN[plain] = code
        plain_runner = Runner(plain, fn.__globals__, code)
        runner = OutlineTrial(runner, plain_runner, OUTLINED if outline.plain_first is None
                              else PLAIN, code_name(code), config.outline_trial_calls,
                              swap=partial(_swap_run, weakref.ref(ctx), code),
                              final=runs_original if original else plain_runner)
    return hook.CacheEntry(_check(fn, output, params, record), runner, record)


def _swap_run(ctx_ref, code, old, new) -> None:
    """The entry of ``code`` that runs ``old`` (an ``OutlineTrial``) runs ``new`` (the
    way that won) from the next call, where the context and its cache still hold it."""
    ctx = ctx_ref()
    cache = None if ctx is None else ctx.caches.get(code)
    if cache is not None:
        cache.swap_run(old, new)


def _plain_island(brk: GraphBreak, output, new_code, intercept) -> bool:
    """The frame's break code would do nothing but what its original code does: the
    graph before the island holds no op, the trace changed no object from outside it,
    and the island calls nothing through the hook (every call site's callee is C code,
    ``emit.intercept_calls``). Then the entry runs the original code, in the program's
    own frame where a frame entry called it (``runs_original``): a per-element loop
    ``for v in x: if v > thr: ...`` at a function's start pays its guards and no
    glue, runner or second frame (about 2 us a call). The code before the island is
    Python on values its guards fix, so it computes again what the trace found."""
    return brk.point.kind == "island" and not output.graph.call_nodes() and \
        not output.side_effects and not any(c is intercept for c in new_code.co_consts)


def runs_original(*args):
    """An entry's ``run`` that hands the call to the frame's original code
    (``_plain_island``): the dispatcher calls ``original`` itself for it
    (``dispatch.dispatcher``); called otherwise, it asks for that by raising."""
    raise RerunEagerly()


runs_original.runs_original = True


def _largest_array(tx, brk: GraphBreak) -> int:
    """The elements of the largest array the frame holds (locals, arguments not read
    yet, the stack) at a break: what an outlined loop body could fuse
    (``config.outline_min_elements``)."""
    traced = [*tx.locals.values(), *brk.stack]
    sizes = [int(v.meta.size) for v in traced if isinstance(v, ArrayVariable)]
    # (``issubclass(type(v))``, not ``isinstance``: that reads ``v.__class__``, which a
    # program's object may make a property that counts its reads or raises)
    sizes += [v.size for v in tx.unread_args().values() if issubclass(type(v), np.ndarray)]
    return max(sizes, default=0)


def _range_trips(brk: GraphBreak) -> int | None:
    """The trips a ``for`` loop over a ``range`` makes, at the island's ``GET_ITER``
    (the range on top of the stack), or None for any other loop. A range of changing
    sizes counts by this call's sizes, read without pinning them: the number only
    chooses whether the body is outlined (``outline.py``), never a result."""
    if brk.inst.name != "GET_ITER" or not brk.stack:
        return None
    top = brk.stack[-1]
    if isinstance(top, SymRangeVariable):
        return len(range(*(hint(b) for b in top.bounds)))
    if type(top) is ConstantVariable and type(top.value) is range:
        return len(top.value)
    return None


def _callee_slots(brk: GraphBreak) -> list:
    """The callable being called when the break is a call (it runs through the hook).

    Of the two slots under the arguments, the callable is the one that is not NULL, or
    the first when both are set: then the second is ``self``, an argument (a decorator
    call ``deco(f)`` is laid out as ``deco, f``) that must reach the callee as it is."""
    if brk.inst.name not in ("CALL", "CALL_KW", "CALL_FUNCTION_EX") or \
            brk.point.kind == "before":   # (the resume function makes the call)
        return []
    from . import pyversion
    pops = pyversion.stack_pops(brk.inst.name, brk.inst.arg) or 0
    base = len(brk.stack) - pops
    first, second = brk.stack[base:base + 2]
    return [second if first is NULL else first]


def _fixed_local_types(tx, brk: GraphBreak, code, fn_globals: dict) -> dict:
    """The types of the plain locals that keep their value through an island: bound at
    the break and stored by no instruction reachable from it (``rng`` and ``times`` in
    ``for ...: t += rng.exponential(1.0 / total); times.append(t)``), or stored only
    with a new list, dict or set (``k = []`` each trip) or NumPy's new array
    (``rates = np.array(...)``: ``fresh_locals``)."""
    if brk.point.kind != "island":
        return {}
    stored = tx.info.names_stored_from(brk.inst.index)
    # (a local the island stores only with a new list, dict or set, ``k = []``, has
    # that type wherever it is bound: the value at the break, if any, must be one too)
    fresh = fresh_container_locals(tx.info, fn_globals) if stored else {}
    out = {}
    for name, var in tx.locals.items():
        if name in code.co_cellvars or name in code.co_freevars or \
                name in stored and name not in fresh:
            continue
        try:
            out[name] = var.python_type()
        except Unsupported:
            continue
        if name in stored and out[name] is not fresh[name]:
            del out[name]
    for name, value in tx.unread_args().items():
        if name not in stored and name not in out:
            out[name] = type(value)
    for name, kind in fresh.items():   # (unbound at the break: bound by the island)
        if name in stored and name not in out and name not in tx.unread_args() and \
                dict.get(tx.locals, name) is None and name not in code.co_cellvars:
            out[name] = kind
    return out
