"""Block-wise group functions: a fused group's ops run over blocks of rows.

``emit_group`` defines ``_group<i>`` (blocks, threads, scratch buffers per thread) and
``_plain<i>`` (the same ops one NumPy call each, for inputs whose layout the blocks
cannot take). See the layernorm example in ``codegen``.
"""


from __future__ import annotations

import numpy as np

from dynamo import ops
from dynamo.graph import CONSTANT, Node
from dynamo.ops import ELEMENTWISE
from dynamo.ops.node_facts import array_meta

from ..fusion import Group, reduction_info
from . import runtime
from .flat import FlatPlan, emit_flat
from .module import Module, call_out, plain_name
from .plan import BlockPlan, uses_out
from .reuse import reaches_caller
from .statements import located


def emit_group(m: Module, plan: BlockPlan | FlatPlan, index: int) -> str:
    """Define ``_group<index>`` (block-wise; ``_flat<index>`` for a ``FlatPlan``) and
    ``_plain<index>``; return the former."""
    group = plan.group
    name_of = plain_name(m)
    params = ", ".join(name_of(n) for n in group.inputs)
    outs = "(" + "".join(f"{n.name}, " for n in group.outputs) + ")"
    plain = f"_plain{index}"
    m.emit(0, f"def {plain}({params}):")
    for node, dead in _last_reads(group):
        for line in located(node, f"{node.name} = {m.expr(node, name_of)}").split("\n"):
            m.emit(1, line)
        if dead:   # free it now, as eager's temporaries are: malloc hands it out again
            m.emit(1, "del " + ", ".join(n.name for n in dead))
    m.emit(1, f"return {outs}")
    m.emit(0, "")
    if isinstance(plan, FlatPlan):
        return emit_flat(m, plan, index, plain)

    fn = f"_group{index}"
    m.emit(0, f"def {fn}({params}):")
    checks = [row_major(name_of(n)) for n in group.inputs
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


def row_major(name: str) -> str:
    """The test that ``name`` is laid out in C order (``runtime.row_major``); the
    attribute first, since most arrays are C-contiguous."""
    return f"({name}.flags.c_contiguous or _row_major({name}))"


def _partial(plan: BlockPlan, node: Node) -> bool:
    return plan.partial and node in plan.group.reductions


def _emit_allocations(m: Module, plan: BlockPlan) -> dict[Node, str]:
    """Allocate each output (or each partial-result vector); name what is returned."""
    results = {}
    returned = plan.group.outputs[0].graph.outputs if plan.group.outputs else ()
    # (every partial reduction needs its vector, one kept only because it may warn too)
    for node in plan.group.reductions:
        if _partial(plan, node):
            dtype = _partial_dtype(node)
            m.emit(1, f"_p_{node.name} = _empty({plan.nblocks}, {m.bind(dtype, str(dtype))})")
            results[node] = node.name
    for node in plan.group.outputs:
        meta = array_meta(node)
        if _partial(plan, node):
            continue
        # Not an output the caller may get (or a view of): the recycler would hold the
        # caller's array, one reference more than eager's (``z.resize`` raises, a weak
        # reference lives until the next call), and in ``z = f(x)`` the previous ``z``
        # is alive during the call, so it is seldom free anyway (``reuse.reaches_caller``)
        if plan.recycle and not reaches_caller(node, returned):
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
    for node in plan.hoisted:   # the same in every block (plan.block_invariant)
        m.emit(1, f"{node.name} = {m.call(node, plain_name(m))}")
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
    dies = _block_dels(plan)
    narrow, hoisted = False, set(plan.hoisted)
    for i, node in enumerate(group.nodes):
        names[node] = node.name
        if node in hoisted:
            continue
        _emit_member(m, plan, node, name_of, node in outputs, narrow)
        narrow = bool(plan.row_buffer) and node.meta.get("kind") == ELEMENTWISE
        if dies.get(i):   # free it now (see _block_dels): the next op gets its memory
            m.emit(2, "del " + ", ".join(n.name for n in dies[i]))
    if narrow:   # the next block starts as the caller's
        m.emit(2, "_set_ufunc_state(_wide)")


def _block_dels(plan: BlockPlan) -> dict[int, list[Node]]:
    """For each member's index, the members whose local name goes after it: those
    holding an array of their own (no scratch buffer, no output window), at their last
    reader, or after being copied out when nothing in the block reads them.

    Without the ``del`` such an array lives until ``_block`` returns. Ops that cannot
    write into a buffer (``x ** 3`` from strength reduction, a view-making call) make a
    new block-sized array each; an unrolled time stepper of 50 steps kept 50 of them,
    one whole array's worth (the Duffing ensemble of ``scripts/realworld_programs5.py``:
    1.43x plain NumPy's tracemalloc peak, 0.03x with the ``del``). Freed, the next op's
    allocation gets the same (cache-warm) memory back.

        >>> # v_pow = (_b_x ** 3); subtract_2 = _subtract(subtract_1, v_pow, _s1)
        >>> _block_dels(plan)[5]                  # after subtract_2, its last reader
        [v_pow]
    """
    nodes, outputs, hoisted = plan.group.nodes, set(plan.group.outputs), set(plan.hoisted)
    last = {n: i for i, n in enumerate(nodes)}
    for i, n in enumerate(nodes):
        for inp in n.inputs():
            if inp in last:
                last[inp] = i
    dies: dict[int, list[Node]] = {}
    for n, i in last.items():
        owned = n not in plan.slot_of and not (n in outputs and uses_out(n)) and \
            not _partial(plan, n) and \
            n not in hoisted               # (a partial reduction binds no local name;
                                           # a hoisted one is the group function's)
        if owned:
            dies.setdefault(i, []).append(n)
    return dies


def _emit_member(m: Module, plan: BlockPlan, node: Node, name_of, is_output: bool,
                 narrow: bool) -> None:
    """One member's statements in ``_block`` (``narrow``: the ufunc state before it is
    the one-row buffer's)."""
    group = plan.group
    if plan.row_buffer and narrow != (node.meta.get("kind") == ELEMENTWISE):
        # elementwise ops by rows; anything else as the caller's
        m.emit(2, f"_set_ufunc_state({'_wide' if narrow else '_narrow'})")
    if node in group.reductions:
        _emit_reduction(m, plan, node, name_of, is_output)
        return
    meta = array_meta(node)
    target = f"_o_{node.name}{plan.index(meta.shape) or '[...]'}"
    repeats = plan.repeats(meta.shape)
    if node in plan.slot_of:
        m.emit(2, f"{node.name} = {call_out(m, node, name_of, f'_s{plan.slot_of[node]}')}")
    elif is_output and uses_out(node):
        m.emit(2, f"{node.name} = {call_out(m, node, name_of, target)}")
        return
    else:
        m.emit(2, f"{node.name} = {m.call(node, name_of)}")
    if is_output:
        if repeats:   # the same values in many blocks: write them once
            m.emit(2, f"if {' and '.join(repeats)}:")
            m.emit(3, f"{target} = {node.name}")
        else:
            m.emit(2, f"{target} = {node.name}")


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
