"""A flat stencil pass that writes its value straight into the window of the array
that the next step fills, ``B[1:-1, 1:-1] = value`` or ``B[1:-1, 1:-1, 1:-1] = value``
(issue #15; the passes themselves: ``flat.py``).

The last op (and the members whose values lead to it: ``in_target``) writes into
``B.reshape(-1)``'s 1-D range of the window, and the group returns ``B``'s window
itself, which the ``setitem`` then copies onto itself: NumPy skips a copy between
identical views, so the value goes over memory once less. The range's gaps are
``B``'s own elements outside the window (its boundary columns, and in 3-D the
boundary rows of each plane: ``flat_windows.gap_views``), saved before the first op
and put back after. For a 3-D window of a ``(48, 48, 48)`` array ``B`` the group
then reads, in its generated code::

    _t = B.reshape(-1)
    _g0 = _t[2399:108239].reshape(2205, 48)[:, :2].view(_gap)[..., 0]
    _g1 = _t[2353:106033].reshape(45, 48, 48)[:, 46:, :46].view(_gap_1)[..., 0]
    _gs = _gaps8.take()
    _gs[0][...] = _g0
    _gs[1][...] = _g1
    try:
        ...                                  # the passes, the last into _t[2353:108239]
    finally:
        _g0[...] = _gs[0]                    # (each in the finally of the one before:
        _g1[...] = _gs[1]                    # restore_gaps)
        _gaps8.give(_gs)
    return (B[1:-1, 1:-1, 1:-1], )

The passes run to their end even when an interrupt (KeyboardInterrupt) arrives among
them, and it is raised after (``flat._finish_write``): eager's ``setitem`` writes the
window all at once, so ``B`` must never be left half-written.

Exact only where, checked per call (``direct_check``): ``B`` is C-contiguous,
writeable and shares no memory with the arrays the group reads (eager computes the
whole value before it writes: ``A[1:-1, 1:-1] = f(A[:-2, 1:-1], ...)``, or ``B`` a view
of ``A``, must go through the group's buffer; ``np.may_share_memory`` looks at bounds
only, so a false alarm takes the copy), no other Python thread may read ``B``'s gaps
meanwhile (``runtime.alone``), and a floating-point condition would not make eager
raise (``runtime.eager_goes_on``: where eager raises, ``B`` must keep its old
values). Chosen (``target_of``) where the ``setitem`` is the value's only reader, its
array is not one the group reads, has the sources' shape after the first axis and the
value's float or complex dtype (its ops then raise nothing but floating-point
conditions), and the window has ``MIN_DIRECT_ELEMENTS`` or more elements.

A target made by a copy right before the ``setitem`` (``new = u.copy()``; codegen
moves the copy before the group: ``codegen._copy_made_for``) is ``fresh``: nothing
else holds it, it does not exist yet in eager while the value's ops run, and a rerun
of the stretch or of the frame makes it again, so only ``under_guard`` is asked of
the settings (the frontend runs a graph it can run again under its own guard, where
``eager_goes_on`` said no until 2026-12-06: corpus 5's 3-D heat step 1.44-1.47x ->
1.67-1.73x plain, docs/benchmarks.md; it now says yes there, ``ufunc_guard._guarded``).

(``plan`` below is a ``flat.FlatPlan``; this module does not import ``flat``, which
imports it.)
"""

from __future__ import annotations

import gc
import math
from dataclasses import dataclass

import numpy as np

from dynamo.graph import CALL, Node
from dynamo.ops.errstate import UFUNC_STATE
from dynamo.ops.node_facts import array_meta

from . import runtime
from .flat_windows import gap_views, has_gaps, window_offset
from .module import Module, plain_name
from .plan import static_shape

# The last op writes straight into the setitem's array (``Target``) from this many
# elements on: the checks and the gaps' save and restore cost about 3.5 us a call, the
# copy they spare about 0.25 ns an element (2.5 us at 100x100, 60-100 us at 500x500;
# CPU time, 2026-12-03).
MIN_DIRECT_ELEMENTS = 1 << 15


@dataclass
class Target:
    """``array[index] = value``, the only reader of the group's value, where ``array``
    is a 2-D or 3-D array of the value's dtype with the sources' shape after the first
    axis (``plan.trailing``) and ``index`` a unit-step window of the domain's shape
    ``offset`` elements into it."""

    setitem: Node
    array: Node
    index: tuple
    offset: int
    # the array is a copy made in the group's guarded stretch right before it (codegen
    # moves it there): nothing else holds it, and a rerun of the stretch or of the frame
    # makes it again (``direct_check``)
    fresh: bool = False


def copies_value(user: Node, value: Node) -> bool:
    """``user`` is ``x[index] = value``: it copies the value's elements into ``x``."""
    return user.op == CALL and user.target == "setitem" and len(user.args) == 3 and \
        not user.kwargs and user.args[2] is value and value not in flatten(user.args[:2])


def flatten(value) -> set:
    """The nodes in ``value`` (nested tuples, lists and dicts)."""
    out, todo = set(), [value]
    while todo:
        v = todo.pop()
        if isinstance(v, (tuple, list)):
            todo.extend(v)
        elif isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, Node):
            out.add(v)
    return out


def target_of(plan, out: Node) -> Target | None:
    """The ``Target`` of ``out``'s one reader, ``array[a:b, c:d] = out`` (or a 3-D
    window), or None (module docstring). A float or complex value only: an integer
    power raises ValueError for a negative exponent, possibly after writing part of
    its output."""
    users = list(out.users)
    if len(users) != 1 or math.prod(plan.domain) < MIN_DIRECT_ELEMENTS or \
            len(plan.domain) > 3 or \
            not copies_value(users[0], out):    # (an in-place update reads it: no target)
        return None
    setitem = users[0]
    array, index, _ = setitem.args
    meta, value = array_meta(array) if isinstance(array, Node) else None, array_meta(out)
    if meta is None or meta.scalar or meta.kind != "numpy" or \
            meta.ndim != len(plan.domain) or not static_shape(meta.shape) or \
            tuple(int(n) for n in meta.shape[1:]) != tuple(plan.trailing) or \
            meta.dtype != value.dtype or value.dtype.kind not in "fc" or \
            array in plan.parents:
        return None
    offset = window_offset(index, tuple(meta.shape), plan.domain)
    return None if offset is None else Target(setitem, array, index, offset)


def in_target(plan) -> list[Node]:
    """The members that, on the direct path, write into the target's own range rather
    than a scratch buffer: the last member, the member it reads whose last reader it
    is, that one's such input, and so on (each of the value's dtype), so that the range
    holds one live value at a time and each op reads the value it overwrites
    element by element (same data, same strides: safe in place).

    Jacobi's ``0.25 * (((a + b) + c) + d)`` then runs as four ops into ``B``'s range,
    none into scratch: its passes go over two arrays' memory rather than three
    (500x500, 10 steps: 0-5% less CPU time, 15-22% beside other data; 2026-12-03)::

        _o = _t[501:249499]
        add = _add(_f0[1:248999], _f0[1001:249999], out=_o)
        add_1 = _add(add, _f0[500:249498], out=_o)
        ...

    A value another member still reads after the next one stays in scratch (``t`` of
    ``(t * c - d) / t``, ``t = a + b``: the range holds ``t * c`` meanwhile). Where a member reads
    two values that both die there (``(a - 2 * c) - (b - c)``), one of them goes in the
    range, the one with the longer such chain behind it; the other keeps its scratch."""
    nodes = plan.group.nodes
    position = {n: i for i, n in enumerate(nodes)}
    last_read = {inp: i for i, n in enumerate(nodes) for inp in n.inputs()}
    dtype = array_meta(nodes[-1]).dtype
    behind: dict[Node, list[Node]] = {}
    for node in nodes:            # in program order: a member's inputs come first
        before = [behind[inp] for inp in dict.fromkeys(node.inputs())
                  if inp in position and last_read[inp] == position[node] and
                  array_meta(inp).dtype == dtype]
        behind[node] = max(before, key=len, default=[]) + [node]
    return behind[nodes[-1]]


def direct_check(m: Module, plan) -> str:
    """Whether the last member may write straight into the target's array this call:
    it is C-contiguous and writeable, shares no memory with an array the group reads
    (``np.may_share_memory``: bounds only, so a false alarm takes the copy), and
    eager would go on after a floating-point condition (``runtime.eager_goes_on``)."""
    name_of = plain_name(m)
    t = name_of(plan.target.array)
    reads = plan.parents + [n for n in plan.group.inputs if n not in plan.sources and
                            (meta := array_meta(n)) is not None and not meta.scalar]
    share = m.bind(np.may_share_memory, "may_share_memory")
    goes_on = m.bind(runtime.eager_goes_on, "eager_goes_on")
    apart = "".join(f" and not {share}({t}, {name_of(n)})" for n in dict.fromkeys(reads))
    # The gaps hold the target's own elements for the pass (saved, put back after):
    # another thread reading them meanwhile (NumPy's loops let it run) would see values
    # eager never wrote there, so only while this is the process's one Python thread.
    only = f" and {m.bind(runtime.alone, 'alone')}()" \
        if has_gaps(plan.domain, plan.trailing) else ""
    # (NPY_ARRAY_WRITEABLE of flags.num: ``flags.writeable`` of a view made by
    # np.broadcast_arrays warns FutureWarning when read, at every call)
    if plan.target.fresh:
        # a copy made right before the group, in its stretch, that no one else holds:
        # no other thread can read its gaps, and where eager raises (or a program's
        # ``np.seterrcall`` function or warnings hook runs) the array is not yet made
        # in eager, and the rerun of the stretch (or of the frame) makes it again;
        # so the direct write needs neither ``alone`` nor ``eager_goes_on``
        # (and only under the stretch's guard, where the gaps' conditions raise)
        under = m.bind(under_guard, "under_guard")
        return f"{t}.flags.c_contiguous and {t}.flags.num & 1024{apart} and {under}()"
    return f"{t}.flags.c_contiguous and {t}.flags.num & 1024{apart}{only} and {goes_on}()"


def under_guard() -> bool:
    """The ufunc settings now are ones ``runtime.guard`` made (a condition raises).

        >>> under_guard()
        False
    """
    return UFUNC_STATE is not None and UFUNC_STATE.get() in runtime._CALLER


def shared(m: Module, key: tuple, make, hint: str) -> str:
    """The bound name of the buffers for ``key`` in ``m``: the flat groups of one
    function share them (an unrolled loop of 20 stencil steps would otherwise cycle
    through 20 sets, out of the cache, where eager's freed temporaries come back from
    malloc still in it: 0.87x plain instead of 1.18x), and so do the modules of the
    process (``Module.bind_shared``)."""
    return m.bind_shared(key, make, hint)


def gap_names(m: Module, array: str, start: int, domain: tuple, trailing: tuple, dtype,
              depth: int, prefix: str = "_g") -> list[tuple[str, str]]:
    """Emit ``<prefix><j> = <the j-th gap view of array[start:...]>`` as raw-byte items
    (``flat_windows.gap_views``, which must not be None); ``[(name, void dtype's
    bound name), ...]``."""
    out = []
    views = gap_views(array, start, domain, trailing, dtype.itemsize)
    for j, (expr, nbytes, _) in enumerate(views):
        void = m.bind(np.dtype((np.void, nbytes)), "gap")
        m.emit(depth, f"{prefix}{j} = {expr}.view({void})[..., 0]")
        out.append((f"{prefix}{j}", void))
    return out


def save_gaps(m: Module, array: str, start: int, domain: tuple, trailing: tuple, dtype,
              depth: int, hint: str) -> tuple[list[str], str]:
    """Emit the save of the gaps of ``array``'s 1-D range from ``start`` (a window's
    range: ``flat_windows.gap_views``) into a recycled set of buffers ``_gs``, each
    gap one raw-byte item (one 1-D copy per view); ``(the views' names, the buffers'
    bound name)``. It ends in ``try:`` and the collector switched off as the try's
    first line (at ``depth + 1``); the caller emits the pass inside it and
    ``restore_gaps`` as its ``finally:``.

    The collector is off while the gaps hold other values: a collection (which the
    pass's allocations may start, in this thread or a pool thread) runs the
    program's code, a ``__del__``, a ``weakref`` callback, a ``gc.callbacks``
    function, that could read them (tests/hostile/prog_round22_interrupts.py). One
    already due runs right after ``gc.disable()`` returns, before the gaps are made.
    Its state is read before the ``try:`` and put back in the innermost ``finally:``,
    so an exception (KeyboardInterrupt from SIGINT) landing anywhere leaves it as it
    was.

        _gs = _gaps0.take()
        _gs[0][...] = _g0
        _gc = _gc_isenabled()
        try:
            _gc_disable()
            ...                                 # the pass (the caller's)"""
    views = gap_views(array, start, domain, trailing, dtype.itemsize)
    spec = [(shape, np.dtype((np.void, nbytes))) for _, nbytes, shape in views]
    saved = shared(m, ("gaps", tuple(spec)), lambda: runtime.ScratchCache(spec), hint)
    names = [name for name, _ in gap_names(m, array, start, domain, trailing, dtype, depth)]
    m.emit(depth, f"_gs = {saved}.take()")
    for j, name in enumerate(names):   # (a subscript, not np.copyto: restore_gaps)
        m.emit(depth, f"_gs[{j}][...] = {name}")
    m.emit(depth, f"_gc = {m.bind(gc.isenabled, 'gc_isenabled')}()")
    m.emit(depth, "try:")
    m.emit(depth + 1, f"{m.bind(gc.disable, 'gc_disable')}()")
    return names, saved


def restore_gaps(m: Module, names: list[str], saved: str, depth: int) -> None:
    """Emit the gaps' restore from ``_gs`` (``save_gaps``), the collector's state and
    the buffers' return, each in the ``finally:`` of the one before: an exception
    raised between two of them (a signal handler's, as SIGINT's KeyboardInterrupt,
    which CPython raises right after a call returns) skips none of the rest, so no
    gap outlives the pass whatever is raised where (eager's ``u[1:-1, 1:-1] += v``
    is interrupted before or after its op, never with other values in ``u``)::

        try:
            _g0[...] = _gs[0]
        finally:
            try:
                _g1[...] = _gs[1]
            finally:
                if _gc:
                    _gc_enable()
                _gaps0.give(_gs)

    Each restore is a subscript assignment (C code only), not ``np.copyto``, whose
    dispatcher is a Python function: an interrupt raised as that function starts (a
    Python frame's first instruction checks for one) skipped the copy itself, leaving
    a gap's other values in ``u`` (issue #17, prog_round22_interrupts.py)."""
    for j, name in enumerate(names):
        m.emit(depth, "try:")
        m.emit(depth + 1, f"{name}[...] = _gs[{j}]")
        m.emit(depth, "finally:")
        depth += 1
    m.emit(depth, "if _gc:")
    m.emit(depth + 1, f"{m.bind(gc.enable, 'gc_enable')}()")
    m.emit(depth, f"{saved}.give(_gs)")
