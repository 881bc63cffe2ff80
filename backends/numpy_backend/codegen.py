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
            _caller = _ufunc_get()
            try:
                _ufunc_set(_raising_of(_caller))   # visible conditions raise (Guarding)
                add_1, = _group0(x, g, b)
                return (add_1, )
            finally:
                _ufunc_set(_caller)
        except Exception as _error:
            _rerun.failed(_error)
        return _rerun(x, g, b)      # eager, op by op: its warnings, its exception

Names starting with ``_`` are the generator's (graph node names never do).
"""

from __future__ import annotations

from dynamo.graph import Graph, Node, location_comment
from dynamo.ops.loops import while_loop

from ..fusion import Group
from ..passes.loops import LOOPS
from .carried_choices import kept_carries, merge_selects
from .carried_ints import int_statement, python_ints
from .carried_names import written_in_place
from .flat_updates import flat_updates
from .fresh_targets import fresh_targets
from .groups import emit_group, row_major
from .inline import Inliner, Pending
from .like_fill import like_into, like_into_buffer
from .loop_code import emit_loop, is_loop_body, loop_variable, next_trip_values, unnamed_writes
from .module import Module, call_out, plain_name
from .order import schedule
from .out_calls import astype_into, plain_astype
from .plan import plain_row_buffer
from .reuse import Recycled, donors
from .scratch import scratch_site
from .select_code import choices as select_choices
from .select_code import conditional, merge_complements, sunk_values
from .short_circuit import and_form
from .statements import (
    DEFAULT_GUARDING,
    HANDOVER,
    Guarding,
    LayoutCheck,
    emit_with_dels,
    guarded_segments,
    located,
    needs_guard,
    run_order,
    stretches,
)


def emit_forward(m: Module, graph: Graph, groups: list[Group], plans: list, name: str,
                 guarding: Guarding = DEFAULT_GUARDING, recycle: int = 0,
                 bare: bool = False) -> None:
    """``def <name>(placeholders): ...``: the steps in ``order.schedule``'s order (the
    program's, for plain-path ops), then the outputs.

    ``guarding`` says how exceptions and floating-point conditions keep eager's form
    (see ``Guarding``). Dead private intermediates lend their buffers to the op that
    reads them last (``reuse.donors``); when a reused buffer of two or more
    dimensions is C-contiguous only if some inputs are, the function checks them
    (``LayoutCheck``): on entry, running ``_<name>_any_layout`` (the same code without
    that reuse) where they fail, or, in a loop body, on every trip. With ``recycle``
    (bytes; not in a loop body) a large fresh ufunc result with no donor writes into
    its site's buffer from the previous call (``scratch.Scratch``). With ``bare`` (a
    graph of one output, ``common.one_output``) the function returns that output, not
    a 1-tuple: ``return divide`` (the glue then unpacks nothing per call).
    """
    if is_loop_body(graph):
        m.loop_variables[next(iter(graph.placeholders))] = loop_variable(graph)
        m.python_ints = python_ints(graph)
    steps = schedule(graph, groups, plans)
    _keep_direct_writes_next_to_their_setitem(steps, plans, groups)
    fns = {i: emit_group(m, p, i) for i, p in enumerate(plans) if p is not None}
    returned = graph.outputs
    segments = guarding.rerun is None
    # (not in a loop body, nor beside a loop: a kept buffer would sit idle while the
    # loop's trips allocate their own, raising the peak over eager's)
    recycle = 0 if is_loop_body(graph) or any(n.target in LOOPS for n in graph.nodes) \
        else recycle
    targets = frozenset(fresh_targets(steps))   # ops writing into a window: no buffer
    # (an op of a stretch that never runs again may write into an earlier stretch's value)
    guarded = frozenset(guarded_segments(graph, groups, plans, steps)) if segments else None
    reuse, checks = donors(graph, groups, steps, returned, layout_checked=True,
                           same_segment=segments, recycle=recycle, targets=targets,
                           guarded=guarded)
    entry = None
    if checks and is_loop_body(graph):
        # a loop body's inputs may change layout from trip to trip: each trip checks
        # them, and a reuse that needs the check writes into ``out=None`` (a fresh
        # array, as eager) on a trip where it fails
        cond = " and ".join(row_major(n.name) for n in graph.placeholders if n in checks)
        always, _ = donors(graph, groups, steps, returned, layout_checked=False,
                           same_segment=segments, targets=targets, guarded=guarded)
        per_trip = frozenset(n for n in reuse if always.get(n) is not reuse[n])
        # (no reuse that needs it: no check, which costs about 0.3 us a trip)
        entry = LayoutCheck(cond, per_trip=per_trip) if per_trip else None
    elif checks:
        fallback = f"_{name}_any_layout"
        plain, _ = donors(graph, groups, steps, returned, layout_checked=False,
                          same_segment=segments, recycle=recycle, targets=targets,
                          guarded=guarded)
        _emit_function(m, graph, groups, plans, steps, fns, plain, fallback, guarding, None,
                       bare)
        cond = " and ".join(row_major(n.name) for n in graph.placeholders if n in checks)
        entry = LayoutCheck(cond, fallback)
    _emit_function(m, graph, groups, plans, steps, fns, reuse, name, guarding, entry, bare)


def _emit_function(m: Module, graph: Graph, groups: list[Group], plans: list, steps: list,
                   fns: dict, reuse: dict, name: str, guarding: Guarding, entry,
                   bare: bool = False, selects: bool = True) -> None:
    name_of = plain_name(m)
    returned = graph.outputs
    # (source, nodes it reads, nodes it makes, nodes it hands over: see HANDOVER)
    statements: list[tuple[str, list, tuple, tuple]] = []
    group_of: list[int] = []                           # the group of each statement
    guarded = guarded_segments(graph, groups, plans, steps) if guarding.rerun is None \
        else set()
    donors_ = set(reuse.values())
    # ops that write straight into a fresh array's window (fresh_targets.py), and
    # those arrays: both keep their names
    targets = fresh_targets(steps)
    held = set(targets) | {s.args[0] for s in targets.values()}
    # (a loop body's writes into a carried array print as its name: carried_names.py)
    m.named_as = written_in_place(graph, donors_ | held | set(reuse)) \
        if is_loop_body(graph) else {}
    written_back = unnamed_writes(graph) | set(m.named_as)
    # windows updated in place by a flat value, as one 1-D pass (flat_updates.py)
    updates = flat_updates(m, plans)
    inliner = Inliner(graph, name_of, lambda n: n not in reuse and n not in donors_ and
                      n not in held and
                      n.target != "setitem" and not plain_row_buffer(n) and
                      # (nothing else moves into a branch with a way's value)
                      (n in sunk or not any(u in sunk for u in n.users)),
                      next_trip_values(graph) - written_back)
    group_index: dict[Node, int] = {}
    # choices an ``if`` on the data made, written as that ``if`` (select_code.py)
    step_of = {node: index for index, node in steps if node is not None}
    busy = set(reuse) | donors_ | held | set(updates) | set(targets)
    # (in a loop body, whose stretches are guarded one by one: ``stretches`` below)
    found = select_choices(m, graph, steps) if selects and is_loop_body(graph) else {}
    choices = {n: c for n, c in found.items()
               if not {n, *c.skip} & busy and
               all(groups[step_of[k]].segment not in guarded for k in (n, *c.skip))}
    skipped = {k for c in choices.values() for k in c.skip}
    sunk = _sunk_with_buffers(graph, choices, steps, busy - set(reuse) - donors_, reuse)
    # (a choice one way keeps a carried value on: the other rebinds it, carried_choices)
    kept = kept_carries(graph, choices, sunk) if choices else {}
    m.named_as.update(kept)   # (read after its ``if`` as the slot's name)
    branches: dict = {}   # (choice, truth) -> the statements moved into that branch

    def add(text: str, reads, made, handed, index: int) -> None:
        where = {sunk.get(n) for n in made}
        if len(where) == 1 and None not in where:
            branches.setdefault(where.pop(), []).append((text, reads, made))
            return
        statements.append((text, reads, made, handed))
        group_of.append(index)

    def flush(pending) -> None:
        for p in pending:
            add(located(p.node, f"{p.node.name} = {p.expr}"), p.reads, (p.node,), (),
                group_index[p.node])

    for index, node in steps:
        group = groups[index]
        if node in skipped:   # (the choice's statement stands for it)
            continue
        if node is None or _takes_carried(node) or _hands_over(node) or \
                plain_row_buffer(node) or \
                group.segment in guarded:   # (see inline.py)
            flush(inliner.flush())
        if node in choices:
            choice, pending = choices[node], inliner.flush()
            staying = [p for p in pending if p.node not in sunk]
            flag = staying.pop() if staying and staying[-1].node is choice.flag and \
                location_comment(choice.flag) == location_comment(node) else None
            flush(staying)
            flush([p for p in pending if p.node in sunk])
            moved = {truth: branches.pop((node, truth), []) for truth in (True, False)}
            text, reads, made = conditional(m, node, choice, moved, flag, name_of,
                                            written_back, kept.get(node))
            group_index[node] = index
            add(located(node, text), reads, made, (), index)
            continue
        if node is not None:
            text = _statement(m, node, inliner.name_of, reuse, entry, written_back, targets,
                              updates)
            # (an update's helper also reads the array of its window)
            inputs = node.inputs() + ([updates[node][1]] if node in updates else [])
            text, reads = inliner.resolve(node, text, inputs)
            if text is None:   # it reads pending values out of order: they get names
                flush(inliner.flush())
                text = _statement(m, node, name_of, reuse, entry, written_back, targets,
                                  updates)
            group_index[node] = index
            if group.segment not in guarded and inliner.candidate(node):
                inliner.pending.append(Pending(node, text.partition(" = ")[2], reads,
                                               inliner.depth))
                continue
            flush(inliner.flush())
            row = plain_row_buffer(node)
            if row:   # a column broadcast over long rows (runtime.row_buffer)
                # (not ``with``: on 3.14 an interrupt right after ``__enter__`` skips
                # ``__exit__``; here the switch is inside the try and the undo the
                # finally's first call, runtime.raising_of)
                body = text.replace("\n", "\n    ")   # (a copy into a buffer: two lines)
                text = (f"_rows_caller = _ufunc_get()\ntry:\n"
                        f"    _ufunc_set(_row_buffer({row})[1])\n    {body}\n"
                        "finally:\n    _ufunc_set(_rows_caller)")
            handed = tuple(node.args[2]) if _takes_carried(node) else \
                tuple(node.args[3]) if _hands_over(node) else ()
            add(located(node, text), reads, (node,), handed, index)
        else:
            outs = "".join(f"{n.name}, " for n in group.outputs)
            # (a flat group also reads the arrays its inputs are slices of: flat.py)
            reads = [*group.inputs, *getattr(plans[index], "extra_inputs", ())]
            ins = ", ".join(name_of(n) for n in reads)
            # (a group of unused ops, kept because they may warn, has no outputs)
            call = f"{outs}= {fns[index]}({ins})" if outs else f"{fns[index]}({ins})"
            add(located(group.nodes[0], call), reads, group.outputs, (), index)
    if choices:
        position = {n: i for i, n in enumerate(graph.nodes)}.__getitem__
        merge_complements(statements, group_of, choices, position)
        merge_selects(statements, group_of, choices, position)
    if choices and (branches or _choice_guarded(m, graph, groups, plans, group_of, name_of,
                                                statements, choices)):
        # (values moved into a branch run after ops they ran before: where that puts
        # ops that may signal out of program order, the stretch would need the guard,
        # whose fallback reruns the stretch's ops by name, and the choice's are not
        # its statements; so the choices are written as the graph has them)
        _emit_function(m, graph, groups, plans, steps, fns, reuse, name, guarding, entry,
                       bare, selects=False)
        return
    # the last value a loop trip computes, when only the next trip reads it, is
    # written into the statement that hands it over (``alpha = -(r[k] + alpha) / beta``)
    last = inliner.pending.pop() if inliner.pending and \
        inliner.pending[-1].node in inliner.next_trip else None
    flush(inliner.flush())
    params = ", ".join(n.name for n in graph.placeholders)
    if is_loop_body(graph):
        emit_loop(m, graph, groups, plans, statements, group_of, name, guarding,
                   entry.cond if entry is not None else None, last, kept)
        return
    m.emit(0, f"def {name}({params}):")
    if entry is not None:
        cond, fallback = entry.cond, entry.fallback
        m.emit(1, f"if not ({cond}):")
        m.emit(2, f"return {fallback}({params})")
    result = f"return {m.fmt(returned[0] if bare else tuple(returned), name_of)}"
    if guarding.rerun is None:
        regions = stretches(m, graph, groups, plans, group_of, name_of,
                            [made for _, _, made, _ in statements])
        emit_with_dels(m, statements, set(returned), 1, regions, guarding.catch)
        m.emit(1, result)
    else:
        position = {n: i for i, n in enumerate(graph.nodes)}.__getitem__
        guard = needs_guard(run_order(steps, groups), any(p is not None for p in plans),
                            position)
        if not guard and not guarding.catch_all:
            emit_with_dels(m, statements, set(returned), 1)
            m.emit(1, result)
        else:
            # the whole graph: on a visible floating-point condition (or any exception
            # with catch_all) the original graph runs op by op; outside the except
            # clause, so eager's exception is not chained to the fused code's
            m.emit(1, "try:")
            depth = 2
            if guard:   # the switch inside the try, its undo the finally's first call
                m.emit(2, "_caller = _ufunc_get()")     # (runtime.raising_of)
                m.emit(2, "try:")
                m.emit(3, "_ufunc_set(_raising_of(_caller))")
                depth = 3
            emit_with_dels(m, statements, set(returned), depth)
            m.emit(depth, result)
            if guard:
                m.emit(2, "finally:")
                m.emit(3, "_ufunc_set(_caller)")
            m.emit(1, f"except {guarding.catch} as _error:")
            m.emit(2, f"{guarding.rerun}.failed(_error)")
            m.emit(1, f"return {guarding.rerun}({params})")
    m.emit(0, "")


def _sunk_with_buffers(graph: Graph, choices: dict, steps: list, busy: set,
                       reuse: dict) -> dict:
    """``select_code.sunk_values`` where a value that writes into a dead value's buffer
    (``reuse``: ``subtract = _subtract(multiply, 1.0, multiply)``) moves into a branch
    only with that value, into the same branch: the pair's statements keep their order
    there, and the buffer is nobody else's. A pair split by the move stays out
    (``busy``), and the rest is found again."""
    while True:
        sunk = sunk_values(graph, choices, steps, busy)
        split = {n for b, d in reuse.items() if isinstance(d, Node)
                 and sunk.get(b) != sunk.get(d) for n in (b, d)}
        if not split - busy:
            return sunk
        busy = busy | split


def _choice_guarded(m: Module, graph: Graph, groups: list[Group], plans: list,
                    group_of: list[int], name_of, statements: list, choices: dict) -> bool:
    """Some stretch holding a choice written as an ``if`` (select_code.py) needs the
    floating-point guard (``stretches``: ops that may signal out of program order)."""
    regions = stretches(m, graph, groups, plans, group_of, name_of,
                        [made for _, _, made, _ in statements])
    at = [i for i, (_, _, made, _) in enumerate(statements) if made and made[-1] in choices]
    return any(fallback is not None and any(first <= i < end for i in at)
               for first, end, fallback in regions)


def _statement(m: Module, node: Node, name_of, reuse: dict, entry, written_back,
               targets: dict, updates: dict) -> str:
    """The statement computing ``node`` in straight-line code (without its location)."""
    if node in updates:   # w += value, a flat value: one 1-D pass (flat_updates.py)
        fn, array = updates[node]
        args = ", ".join(m.fmt(a, name_of) for a in (*node.args, array))
        return f"{node.name} = {fn}({args})"
    if node in targets:   # into the window its setitem fills next (fresh_targets.py)
        array, index, _ = targets[node].args
        out = f"{m.fmt(array, name_of)}[{m.subscript(index, name_of)}]"
        return f"{node.name} = {call_out(m, node, name_of, out)}"
    if isinstance(reuse.get(node), Recycled):   # a buffer kept across calls (scratch.py)
        site = scratch_site(m, reuse[node])
        copied = _copied_into(m, node, name_of, site + ".take()")
        if copied is not None:   # (no out=: copies into the buffer)
            return copied
        return f"{node.name} = {call_out(m, node, name_of, site + '.take()')}"
    if node in reuse:   # the donor dies here: write into it, no allocation
        out = reuse[node].name
        per_trip = entry is not None and node in entry.per_trip
        copied = None if per_trip else _copied_into(m, node, name_of, out)
        if copied is not None:
            return copied
        if per_trip:
            if plain_astype(node) or like_into_buffer(node):
                # (a trip of another layout allocates, as eager)
                return f"{node.name} = {m.expr(node, name_of)}"
            out = f"({out} if _layout else None)"
        return f"{node.name} = {call_out(m, node, name_of, out)}"
    if _takes_carried(node):
        # the loop gets its carried values in a list it empties, and the names that
        # die here go before it runs (HANDOVER): arrays the loop rebinds are not held
        # by this frame for the whole loop
        body, trips, carried, free = node.args
        fn = m.bind(body.__dynamo_takes_carried__, "loop")
        return (f"_carried = {m.fmt(list(carried), name_of)}\n{HANDOVER}\n"
                f"{node.name} = {fn}({m.fmt(trips, name_of)}, _carried"
                + "".join(f", {m.fmt(v, name_of)}" for v in free) + ")")
    if _hands_over(node):
        # the same for a while loop (ops.while_loop empties the list): the peeled first
        # trip's arrays are not held by this frame while the trips run
        body, keep, cond, carried, *rest = node.args
        args = "".join(f"{m.fmt(a, name_of)}, " for a in (body, keep, cond))
        more = "".join(f", {m.fmt(a, name_of)}" for a in rest)
        more += "".join(f", {k}={m.fmt(v, name_of)}" for k, v in node.kwargs.items())
        return (f"_carried = {m.fmt(list(carried), name_of)}\n{HANDOVER}\n"
                f"{node.name} = {m.bind(while_loop, node.target)}({args}_carried{more})")
    if node in m.python_ints:   # (carried_ints.py: ``(count + 1)`` of a Python int)
        text = int_statement(m, node, name_of)
        if text is not None:
            return f"{node.name} = {text}"
    chain = and_form(m, node, name_of)   # (short_circuit.py: ``lo <= x[i] < hi``)
    if chain is not None:
        return f"{node.name} = {chain}"
    if node.target == "setitem" and len(node.args) == 3 and not node.kwargs \
            and not plain_row_buffer(node):
        # a statement, as the program wrote it (no call of ops.setitem)
        x, value = (m.fmt(a, name_of) for a in (node.args[0], node.args[2]))
        text = f"{x}[{m.subscript(node.args[1], name_of)}] = {value}"
        return text if node in written_back else f"{text}\n{node.name} = {x}"
    return f"{node.name} = {m.expr(node, name_of)}"


def _copied_into(m: Module, node: Node, name_of, out: str) -> str | None:
    """The statements writing ``node`` into ``out`` for the calls without ``out=``
    (``x.astype(t)``: out_calls.py; ``np.zeros_like``: like_fill.py); None for a
    call that takes ``out=``."""
    if plain_astype(node):
        return astype_into(m, node, name_of, out)
    if like_into_buffer(node):
        return like_into(m, node, name_of, out)
    return None


def _keep_direct_writes_next_to_their_setitem(steps: list, plans: list, groups: list) -> None:
    """A flat group that writes its value straight into the array of the ``setitem``
    that reads it (``flat_direct.Target``) changes that array before the ``setitem``
    runs: only right before it, where no step in between can read the array's old
    values (``c = B.sum()`` between the group and ``B[1:-1, 1:-1] = value``). Elsewhere
    the group keeps its own output buffer.

    One step in between may go first instead: the copy that makes the array
    (``new = u.copy(); new[1:-1, 1:-1, 1:-1] = c + alpha * lap``, the copy after the
    value in the program). It reads none of the group's values and writes nothing a
    step can see, and the group reads nothing it makes, so running it before the
    group changes no value; within one guarded stretch only (a rerun runs both)."""
    for s in range(len(steps)):
        index, node = steps[s]
        target = getattr(plans[index], "target", None) if node is None else None
        if target is None:
            continue
        if s + 2 < len(steps) and steps[s + 2][1] is target.setitem and \
                _copy_made_for(steps[s + 1], target, plans[index].group, groups):
            steps[s], steps[s + 1] = steps[s + 1], steps[s]
            target.fresh = True     # (nothing else holds it: flat_direct.direct_check)
        elif s + 1 == len(steps) or steps[s + 1][1] is not target.setitem:
            plans[index].target = None


def _copy_made_for(step: tuple, target, group: Group, groups: list) -> bool:
    """``step`` is ``array = x.copy()`` or ``np.copy(x)``, making the target's array,
    in the group's stretch, reading no value of the group's."""
    index, node = step
    return node is not None and node is target.array and \
        node.target in ("copy_method", "copy") and \
        groups[index].segment == group.segment and \
        not any(n in group.nodes for n in node.inputs())


def _hands_over(node: Node) -> bool:
    """A ``while_loop`` node whose body the backend compiled: it takes its carried
    values in a list it empties (``ops.while_loop``)."""
    return node.target == "while_loop" and not isinstance(node.args[0], Graph)


def _takes_carried(node: Node) -> bool:
    """A loop node whose body the numpy backend compiled (``emit_loop``)."""
    return node.target == "fori_loop" and \
        hasattr(node.args[0], "__dynamo_takes_carried__")
