"""Buffer reuse on the plain path: which dead intermediate lends its memory to which op.

Eager NumPy allocates a fresh array for every op. When an intermediate's last reader
is an elementwise ufunc with a result of the same shape and dtype, that ufunc can
write into the intermediate instead (``out=``) and save an allocation, provided
nobody else can ever see the intermediate::

    def f(x):                          # x: (1000,) float32
        return np.exp(x) * 2 + 1
    # exp = _exp(x)
    # multiply = _multiply(exp, 2, out=exp)      exp dies here: its buffer is reused
    # add = _add(multiply, 1, out=multiply)      returned: exp's array, which only
    #                                            this code ever saw (fresh, as in eager)

    def g(pos, vel):
        pos += vel                     # add = _add(pos, vel, out=pos): add *is* pos
        return pos * 2 + 1             # multiply = _multiply(add, 2): never out=add

A value lends its buffer only when this code allocated it and no one else can see it
(``private``): a fresh result (``fusion.returns_fresh``: no ``out=``, no mutation, no
view, no op that may return an argument), not returned, and read only by ops that
return fresh arrays. Never an input, an output, the result of a write, a view (of a
view...), or anything that may alias one of them. The op that borrows it may be
returned: the caller gets an array nobody else ever saw, as eager's would be.

Layout. A result written into a buffer has the buffer's memory layout, while eager
allocates it in the layout NumPy picks from all operands (``K`` order: C order wins
conflicts). Both agree when the buffer is C-contiguous, so a buffer of two or more
dimensions is reused only when it is known to be C-contiguous whenever the inputs
it derives from are (``c_ordered``); the generated function checks those inputs'
``flags.c_contiguous`` on entry and otherwise runs a variant without such reuse.
One-dimensional buffers are always contiguous, and so are values computed from
``x.copy()`` or ``np.zeros(shape)`` alone (what a loop body's stencil reads), whatever
the inputs' layout. One other layout is known: a gather along a later axis
(``x[:, idx]``) and ufuncs of such gathers (``gather_layout.py``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from dynamo import ops
from dynamo.graph import CALL, CONSTANT, PLACEHOLDER, Graph, Node
from dynamo.ops.node_facts import FRESH_ELEMENTWISE, array_meta, has_effect, returns_fresh

from ..fusion import Group, reduction_info
from ..passes.hoist import HOISTED
from .gather_layout import later_axis_gather, permuted
from .idle_sites import trim
from .like_fill import like_into_buffer
from .out_calls import ACCUMULATIONS, takes_out
from .plan import basic_index, static_shape, uses_out

# Fresh results whose layout is C order when their array operands' strides are.
_C_ORDER_PRODUCTS = frozenset({"matmul", "dot"})
# Creation calls whose result is C-contiguous unless an ``order`` says otherwise.
# (``np.mgrid[...]`` and ``np.indices(shape)`` fill ``np.empty`` of the grid in place)
_C_ORDER_CREATION = frozenset({"zeros", "ones", "empty", "full", "ndarray", "eye",
                               "identity", "mgrid", "indices"})
# Creation calls laid out as their first argument (``order="K"``): in C order when it is.
_LIKE_CREATION = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})
# Joins laid out as their operands are (NumPy sorts the result's strides as theirs): in C
# order when all of them are.
_JOINS = frozenset({"stack", "concatenate", "vstack", "hstack", "column_stack"})
# Linear algebra whose result of a 2-D ``a`` is C-contiguous: target -> array operands.
_LINALG_C_ORDER = {"inv": 1, "solve": 2}
# Random draws that allocate their result as ``np.empty(size)`` (C order), unless ``out=``.
_C_ORDER_DRAWS = frozenset(f"generator_{m}" for m in (
    "random", "standard_normal", "normal", "uniform", "integers", "exponential",
    "standard_exponential", "poisson", "binomial", "gamma", "standard_gamma", "beta",
    "lognormal", "laplace", "logistic"))
# Views that reorder their input's axes: not in C order (for two or more dimensions).
_AXES_VIEWS = frozenset({"transpose", "swapaxes", "moveaxis", "rollaxis"})
# Views that keep C-ordered strides (basic indexing, reshape in C order).
_C_ORDER_VIEWS = frozenset({"getitem", "reshape"})
# One-axis FFTs (``np.fft.rfft(x, n, axis)``...): a new array of their own, never a view
# of their input; NumPy 2 allocates it in ``K`` order, so in C order when the input's
# strides are C-ordered (any axis, any ``n``: checked on NumPy 2.4 and 2.5, 2-D and 3-D).
_FRESH_TRANSFORMS = frozenset({"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"})


def fresh_transform(node: Node) -> bool:
    """``np.fft.rfft(x, n)`` and its kin without ``out=``: a fresh array only this code
    holds, whose buffer the op that reads it last may write into, as NumPy itself
    does with ``np.fft.rfft(a, n) * H`` (its temporary, referenced once, is reused)::

        rfft = _rfft(seg, 512)
        multiply = _multiply(rfft, H, out=rfft)     # instead of a new complex array
    """
    # (``out`` is the fifth parameter: ``a, n, axis, norm, out``)
    return node.op == CALL and node.target in _FRESH_TRANSFORMS and \
        node.kwargs.get("out") is None and len(node.args) <= 4


def private(node: Node, returned) -> bool:
    """A fresh array this code allocates and no one else can see.

    The node returns a new array (``returns_fresh``: no ``out=``, no mutation, no view,
    no op that may return its argument), it is not returned, and every op that reads
    it only reads it and returns a new array (no view of it, no write into it). An
    accumulation of ``out_calls.takes_out`` (``np.cumsum``: a new array, never a view)
    counts as such a node and as such a reader. So its
    memory is reachable through this one name, and once its last reader ran, the next
    op may write into it.
    """
    meta = array_meta(node)
    return ((returns_fresh(node) or takes_out(node) or fresh_transform(node)
             or later_axis_gather(node) is not None or _written_alone(node, returned)
             or fresh_creation(node))
            and meta is not None and not meta.scalar and meta.ndim > 0
            and node not in returned
            and all(returns_fresh(u) or takes_out(u) for u in node.users))


# Calls that always return a new array of numbers (``order`` changes only its layout).
_ALLOCATING = frozenset({"zeros", "ones", "empty", "full", "copy_method", "copy"}) | \
    _LIKE_CREATION


def fresh_creation(node: Node) -> bool:
    """A creation call that returns a new array of numbers: ``np.eye(n)``, ``np.zeros(s)``
    and the rest of ``_ALLOCATING``, ``np.identity(n)``, ``np.diag(v)`` of a 1-D ``v``
    (of a 2-D one it is a view). Its last reader may write into it, as NumPy's own
    temporary elision does with ``np.eye(n) - Q`` (it subtracts into the eye's
    buffer): the absorbing Markov chain of corpus 4 held one 200x200 array more than
    plain NumPy (1.33x its peak), Crank-Nicolson's ``np.diag(a) + np.diag(b, 1) + ...``
    one more (1.2507x)::

        eye = _eye(200)
        subtract = _subtract(eye, Q, out=eye)
    """
    meta = array_meta(node)
    if node.op != CALL or "out" in node.kwargs or meta is None or \
            meta.kind != "numpy" or meta.dtype.kind not in "biufc":
        return False
    if node.target == "diag":
        v = array_meta(node.args[0]) if node.args else None
        return v is not None and not v.scalar and v.ndim == 1
    return node.target in _ALLOCATING or node.target in ("eye", "identity")


def _written_alone(node: Node, returned) -> bool:
    """``node`` is ``x[index] = value`` (``setitem``) into an array ``x`` that this code
    allocated and that nothing but this write reads: so the written array is as private
    as a fresh result, and its last reader may write into it::

        lap = np.zeros_like(v)             # zeros_like: a new array
        lap[1:-1] = v[2:] - 2 * v[1:-1] + v[:-2]      # setitem: lap, written
        v_new = v + dt * (D * lap - w)     # multiply = _multiply(1.0, setitem, out=setitem)

    ``x`` may be such a write itself (``a[0] = a[1]; a[-1] = a[-2]``: a chain), and the
    value may be a number read out of ``x`` by integer indices (``a[1]``: a NumPy scalar,
    a copy, read before the write). ``x`` must hold numbers (an object array would keep
    the value itself) and must not be returned or read by anything else, which could
    run after the write's readers and would see what they wrote."""
    if node.op != CALL or node.target != "setitem" or len(node.args) != 3 or node.kwargs:
        return False
    base, index, value = node.args
    meta = array_meta(base)
    if not isinstance(base, Node) or base in returned or meta is None or meta.scalar \
            or meta.kind != "numpy" or meta.dtype.kind not in "biufc" or index is base:
        return False
    for u in base.users:
        if u is node:
            continue
        read = array_meta(u)
        if not (u is value and u.op == CALL and u.target == "getitem" and not u.kwargs
                and list(u.users) == [node] and read is not None
                and (read.scalar or read.ndim == 0)
                and all(type(i) is int for i in (u.args[1] if isinstance(u.args[1], tuple)
                                                 else (u.args[1],)))):
            return False
    if base.op == CALL and base.target in _ALLOCATING and "out" not in base.kwargs:
        return True
    return (returns_fresh(base) and all(u is node or u is value for u in base.users)) or \
        _written_alone(base, returned)


def c_ordered(nodes) -> dict[Node, frozenset]:
    """Nodes with C-ordered strides whenever some inputs are C-contiguous: node -> those.

    A placeholder of two or more dimensions is C-ordered when it is C-contiguous (the
    generated code checks); one of fewer dimensions always is. A ufunc, a fusible
    reduction or a matrix product whose array operands are all C-ordered returns a
    C-contiguous array (NumPy's ``K`` order finds no axis to swap; scalar and 0-d
    operands have no axes and do not count); basic indexing
    and a C-order reshape of a C-ordered array are C-ordered, and so are ``np.cumsum``
    and ``ufunc.accumulate`` of one (``out_calls.ACCUMULATIONS``), ``np.roll`` and
    ``np.where``-like results of C-ordered arrays, and ``np.pad`` of one (NumPy
    allocates the padded array in C order unless its input is only F-contiguous, which
    a C-ordered array of two or more dimensions is not), the joins of ``_JOINS``
    (``np.stack``, ``np.concatenate``...) of C-ordered arrays, ``np.array(x)`` of one,
    an op with ``out=o`` (it returns ``o``) and ``x[idx]`` of a C-ordered ``x`` with one
    integer or boolean array as the index. Anything else
    (transposes, ``einsum``, writes, unknown ops) is left out: no reuse is inferred
    from it.
    """
    known: dict[Node, frozenset] = {}
    for node in nodes:
        meta = array_meta(node)
        if node.op == PLACEHOLDER:
            # (a loop body's input that holds ``A.T``, hoisted out of it, is never
            # C-contiguous: checking its layout on every trip would find no reuse)
            if meta is not None and node.meta.get(HOISTED) not in _AXES_VIEWS:
                known[node] = frozenset({node}) if meta.ndim >= 2 and not meta.scalar \
                    else frozenset()
            continue
        if node.op == CONSTANT:
            value = node.args[0]
            if meta is not None and getattr(getattr(value, "flags", None), "c_contiguous",
                                            meta.scalar or meta.ndim < 2):
                known[node] = frozenset()
            continue
        if node.op != CALL or meta is None:
            continue
        if _c_contiguous_always(node):
            known[node] = frozenset()
            continue
        if node.target == "getitem" and not node.kwargs and _first_axis_gather(node.args[1]):
            if node.args[0] in known:  # x[idx]: a new array in C order when x is
                known[node] = known[node.args[0]]
            continue
        out = node.kwargs.get("out")
        if isinstance(out, Node):      # the op returns ``out`` itself: its layout
            if out in known:
                known[node] = known[out]
            continue
        # (a NumPy scalar or 0-d operand, such as ``x.max() ** 2``, has no axis to order)
        inputs = [n for n in node.inputs() if array_meta(n) is not None
                  and not (array_meta(n).scalar or array_meta(n).ndim == 0)]
        if any(n not in known for n in inputs):
            continue
        if returns_fresh(node) and (uses_out(node) or reduction_info(node) is not None
                                    or node.target in _C_ORDER_PRODUCTS
                                    or _keeps_order(node)):
            pass
        elif node.target in _LIKE_CREATION and _keeps_order(node):
            pass
        elif node.target == "getitem" and not node.kwargs and basic_index(node.args[1]):
            pass
        elif node.target == "reshape" and not node.kwargs:
            pass
        elif fresh_transform(node):   # NumPy 2: K order, as its input
            pass
        elif node.target == "roll":   # a new array made by np.empty_like of its input
            pass
        elif node.target == "pad":    # np.empty(order="C") unless its input is F-only
            pass
        elif node.target in ACCUMULATIONS and takes_out(node):   # laid out as its input
            pass
        elif node.target in _JOINS or (node.target in ("array", "asarray")
                                       and _keeps_order_array(node)):
            pass
        elif node.target == "setitem" and node.args[0] in known:   # x itself, written
            known[node] = known[node.args[0]]
            continue
        else:
            continue
        known[node] = frozenset().union(*(known[n] for n in inputs))
    return known


def _keeps_order(node: Node) -> bool:
    """A fresh elementwise result (``np.where``, ``np.clip``, ``x.astype(t)``, ``np.copy``)
    or ``np.zeros_like(x)``-like array: laid out as its operands are (``K`` order), so
    in C order when they are; unless an ``order`` says otherwise."""
    if node.kwargs.get("order", "K") not in ("K", "C"):
        return False
    if node.target in ("astype", "copy"):   # (an order passed by position: not known)
        return len(node.args) <= (2 if node.target == "astype" else 1)
    if node.target in _LIKE_CREATION:   # (a shape= of its own: laid out otherwise)
        return "shape" not in node.kwargs and len(node.args) <= (2 if node.target ==
                                                                 "full_like" else 1)
    return node.target in FRESH_ELEMENTWISE


def _first_axis_gather(index) -> bool:
    """``x[idx]``, ``x[mask]``, ``x[[1, 2]]``: one integer or boolean array (or a list of
    Python ints) as the whole index. NumPy copies the selected subarrays of a C-ordered
    ``x`` into a C-contiguous result (of an F-ordered 3-D ``x`` it would not)."""
    if isinstance(index, Node):
        meta = array_meta(index)
        return meta is not None and not meta.scalar and meta.ndim >= 1 and \
            meta.dtype.kind in "biu"
    return isinstance(index, list) and bool(index) and \
        all(type(i) is int for i in index)


def _keeps_order_array(node: Node) -> bool:
    """``np.array(x)`` / ``np.asarray(x)`` of one array, ``order`` "K" (the default) or
    "A": a copy in ``x``'s layout (or ``x`` itself); "A" is F order only for an array
    that is F- and not C-contiguous, which a C-ordered one is not."""
    return (len(node.args) <= 2 and isinstance(node.args[0], Node)
            and node.kwargs.get("order", "K") in ("K", "A"))


def _c_contiguous_always(node: Node) -> bool:
    """``x.copy()`` and ``np.zeros(shape)``-like calls return a C-contiguous array
    whatever their inputs' layout (their ``order`` is "C" unless given); so do
    ``np.array`` of a list or tuple (``np.array([x, y])``: a new array, C order unless
    ``order="F"``), ``np.ascontiguousarray``, the random draws of ``_C_ORDER_DRAWS``
    (``rng.random((n, m))``; not with ``out=``), a matrix product of operands of at
    most two dimensions (``X.T @ W``: NumPy allocates its result in C order whatever
    the operands' strides), ``np.diag(v)`` of a 1-D ``v`` (a new ``np.zeros``), and
    ``np.linalg.inv(a)`` / ``np.linalg.solve(a, b)`` of a 2-D ``a`` and a ``b`` of at
    most two dimensions (a gufunc's result: its core dimensions in C order, and no
    loop dimension here; ``inv(A.T)`` is C-contiguous too)."""
    if node.target == "diag" or node.target in _LINALG_C_ORDER:
        first = [array_meta(a) for a in node.args[:_LINALG_C_ORDER.get(node.target, 1)]]
        return "out" not in node.kwargs and bool(first) and all(
            m is not None and not m.scalar and m.ndim <= 2 for m in first) and \
            first[0].ndim == (1 if node.target == "diag" else 2)
    if node.target in _C_ORDER_DRAWS:
        return "out" not in node.kwargs
    if node.target in _C_ORDER_PRODUCTS:
        operands = [array_meta(a) for a in node.args[:2] if isinstance(a, Node)]
        return ("out" not in node.kwargs and len(node.args) == 2 and not node.kwargs
                and len(operands) == 2 and all(m is not None and m.ndim <= 2
                                               for m in operands))
    if node.target == "ascontiguousarray":
        return True
    if node.target in ("array", "asarray"):
        return (len(node.args) <= 2 and isinstance(node.args[0], (list, tuple))
                and node.kwargs.get("order", "K") in ("K", "A", "C"))
    if node.kwargs.get("order", "C") != "C":
        return False
    if node.target == "copy_method":
        return len(node.args) < 2 or node.args[1] == "C"
    return node.target in _C_ORDER_CREATION and \
        all(not isinstance(a, Node) for a in node.args)


def donors(graph: Graph, groups: list[Group], steps: list, returned, layout_checked: bool,
           same_segment: bool = False, recycle: int = 0,
           targets=frozenset(), guarded=None) -> tuple[dict[Node, Node], frozenset]:
    """``node -> dead intermediate it writes into``, and the inputs to check on entry.

    Runs over ``steps`` (``order.schedule``: ``(group index, node)`` for a plain-path
    node, ``(group index, None)`` for a block-wise group, one step that reads its
    inputs) in their order. With ``layout_checked=False`` only one-dimensional buffers
    and buffers C-ordered whatever the inputs (made from ``x.copy()``, ``np.zeros``)
    are reused: the inputs' layout is unknown. With ``same_segment`` a value lends
    its buffer only within its own stretch between two effects: a stretch that runs
    again op by op after a floating-point condition (``statements.Guarding``) must find
    the values it reads unchanged. ``guarded`` (with ``same_segment``) names the
    segments whose stretches may run again (``statements.guarded_segments``); an op of
    any other stretch runs once, so it may also write into a value of an earlier
    stretch (``lap[1:-1] = ...``, a write, is a stretch of its own; ``D * lap`` after
    it writes into ``lap``). With ``recycle`` (a number of bytes), an op that
    finds no donor and whose fresh result has at least that many bytes maps to a
    ``Recycled`` site: it writes into that site's buffer from the previous call
    (``recycled``, scratch.py), under the same layout rule as a donor's buffer,
    unless its donor chain ends in a returned value (then it writes a fresh array).
    ``targets`` are the ops that write into the window of a fresh array instead
    (``fresh_targets``): they take neither a donor's buffer nor a site, which would
    sit unused (a site taken by an op whose array escapes is never handed out again:
    one more buffer per time step of a copy-per-step stencil, out of the cache).
    Sites whose kept arrays would raise the call's peak are given up (``idle_sites``).
    """
    segment = {n: g.segment for g in groups for n in g.nodes}
    steps = [node if node is not None else groups[index] for index, node in steps]
    last: dict[Node, int] = {}
    for i, step in enumerate(steps):
        for n in (step.inputs if isinstance(step, Group) else step.inputs()):
            last[n] = i
    order = c_ordered(graph.nodes)
    # (``x[:, idx]`` and ufuncs of such gathers: gathered axis outermost, gather_layout.py)
    perms = permuted(graph.nodes, order)
    if not layout_checked:   # only what is C-ordered whatever the inputs' layout
        order = {n: needs for n, needs in order.items() if not needs}
        perms = {n: known for n, known in perms.items() if not known[1]}
    owned: set[Node] = set()
    chosen: dict[Node, Node | Recycled] = {}
    checks: set[Node] = set()
    sites = _Sites()
    for i, step in enumerate(steps):
        if isinstance(step, Group):
            sites.release(step.inputs, i, last, None)
            continue
        node = step
        if takes_out(node) and node not in targets:
            # (np.full_like(x, v) is laid out as x, not as v: x must be C-ordered too)
            like = like_into_buffer(node)
            donor = None if like and not _layout_ok(node, order) else next(
                (a for a in node.inputs() if a in owned and last[a] == i
                 and _same_buffer(a, node)
                 and (_layout_ok(a, order) or _same_order(a, node, perms, returned))
                 and (not same_segment or segment[a] == segment[node]
                      or (guarded is not None and segment[node] not in guarded))), None)
            if donor is not None:
                chosen[node] = donor     # the donor dies here: write into it
                checks |= order.get(donor, frozenset())
                if donor in perms:       # (eager's layout follows every operand's)
                    checks |= perms[node][1]
                if like:
                    checks |= order.get(node, frozenset())
                sites.hand_on(donor, node)
            elif recycle and recycled(node, recycle) and _layout_ok(node, order):
                chosen[node] = sites.take(node)   # no donor: a buffer kept across calls
                checks |= order.get(node, frozenset())
        sites.release(node.inputs(), i, last, node)
        if _outlives_readers(node, returned):
            # returned, viewed or written (``d -= np.round(d)``): the buffer may live on
            # past its last reader here, so its site serves no other op of this call
            first = sites.escape(node)
            if first is not None and reaches_caller(node, returned):
                # returned (or a view of it is: ``return t[1:]``, whose ``base`` would be
                # the site's buffer): the op that took the site writes a fresh array after all.
                # The site would hold the caller's array (one reference more than
                # eager's: ``z.resize(n)`` raises), and in ``z = f(x)`` the previous
                # ``z`` is alive during the next call, so the kept buffer is never free
                # there: a new array every call, plus the check (standardize, corpus 1:
                # 0.90-0.97x plain with the site, 0.97-1.02x without; docs/benchmarks.md)
                del chosen[first]
        if private(node, returned):
            owned.add(node)
    # (a site whose kept array sits idle at the call's highest step adds to its peak)
    trim(chosen, steps, last, returned, Recycled)
    return chosen, frozenset(checks)


def _outlives_readers(node: Node, returned) -> bool:
    """``node``'s array may be alive after its last reader ran: it is returned, or a
    reader writes into it (``out=node``, ``node[i] = v``) or may return a view of it.
    A reader that only reads it into another array (a fresh result, ``out=`` some
    other array: ``acc += k * x`` reads ``k * x``; the value of ``B[1:-1] = x + y``,
    copied into ``B``) does not keep it."""
    if node in returned:
        return True
    for u in node.users:
        out = u.kwargs.get("out")
        if out is node or (u.target == "setitem" and u.args and u.args[0] is node):
            return True
        if _copied_in(u, node):
            continue
        if not (returns_fresh(u) or takes_out(u) or (isinstance(out, Node) and uses_out(u))):
            return True
    return False


def reaches_caller(node: Node, returned) -> bool:
    """``node``'s array may reach the caller: it is returned, or an op returns it or a
    view of it (``out=node``, ``node[1:]``, ``node.T``, ``np.split(node, 2)[0]``) that
    may, or an op with an effect may keep it (any op not known to only read it). A
    buffer kept between calls (``runtime.Recycler``, ``scratch.Scratch``) must not
    hold such an array: the caller's array would have one reference more than eager's
    (``z.resize(n)`` raises, ``sys.getrefcount`` differs) and a weak reference to it
    would live on until the site's next call.

        >>> # t = x * 2.0; v = t[1:]; return v
        >>> reaches_caller(t, returned=(v,)), reaches_caller(t, returned=(t.sum(),))
        (True, False)
    """
    seen, todo = set(), [node]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        if n in returned:
            return True
        for u in n.users:
            out = u.kwargs.get("out")
            if out is n:                   # its result is n itself
                todo.append(u)
                continue
            if u.target == "setitem" and u.args and u.args[0] is n \
                    and not any(a is n for a in u.args[1:]):
                continue                   # a write into n keeps no reference to it
            if _copied_in(u, n) or returns_fresh(u) or takes_out(u) \
                    or (isinstance(out, Node) and uses_out(u)):
                continue                   # reads n into another array
            if u.op != CALL or has_effect(u):
                return True                # may keep it (a container, an attribute)
            todo.append(u)                 # a pure op: its result may be a view of n
    return False


def _copied_in(setitem: Node, node: Node) -> bool:
    """``setitem`` is ``B[index] = node`` into an array of numbers: it copies the
    value's elements into ``B`` and keeps no reference to ``node`` (an object array
    would hold the array itself as an element)."""
    if setitem.target != "setitem" or len(setitem.args) != 3 or setitem.kwargs:
        return False
    array, index, value = setitem.args
    meta = array_meta(array) if isinstance(array, Node) else None
    return (value is node and array is not node and index is not node
            and not (isinstance(index, (tuple, list)) and any(i is node for i in index))
            and meta is not None and not meta.scalar and meta.kind == "numpy"
            and meta.dtype.kind in "biufc")


class Recycled(NamedTuple):
    """``donors``' mark for an op that writes into a buffer kept from the previous call
    (``scratch.Scratch``): the site of that buffer, one per shape, dtype and number of
    such buffers alive at once, so ops whose buffers never live at the same time share
    one (nine shifted products of a 3x3 convolution write one hot buffer, as eager's
    freed temporaries come back from malloc, not nine out of the cache)."""
    shape: tuple
    dtype: object
    index: int


class _Sites:
    """Which ``Recycled`` sites hold a live value during ``donors``' walk. A value's
    buffer goes back to its shape's free sites after its last reader, unless that
    reader wrote into it (``hand_on``) or it may outlive its readers: returned, viewed,
    written by ``out=`` or ``setitem`` (``escape``). Only speed
    depends on this: ``Scratch.take`` counts references at run time and makes a new
    array where its kept one is still held (by a view, say)."""

    def __init__(self) -> None:
        self.held: dict[Node, Recycled] = {}
        self.first: dict[Node, Node] = {}      # holder -> the op that took its site
        self.free: dict[tuple, list[int]] = {}
        self.count: dict[tuple, int] = {}

    def take(self, node: Node) -> Recycled:
        meta = array_meta(node)
        key = (tuple(int(n) for n in meta.shape), meta.dtype)
        free = self.free.setdefault(key, [])
        if free:
            index = free.pop()
        else:
            index = self.count[key] = self.count.get(key, 0) + 1
        site = self.held[node] = Recycled(*key, index)
        self.first[node] = node
        return site

    def hand_on(self, donor: Node, node: Node) -> None:
        if donor in self.held:
            self.held[node] = self.held.pop(donor)
            self.first[node] = self.first.pop(donor)

    def escape(self, node: Node) -> Node | None:
        """Take ``node``'s site out of use; the op that took it (or None: no site)."""
        self.held.pop(node, None)
        return self.first.pop(node, None)

    def release(self, inputs, i: int, last: dict, node) -> None:
        for a in inputs:
            if a is not node and last.get(a) == i and a in self.held:
                site = self.held.pop(a)
                self.first.pop(a, None)
                self.free[(site.shape, site.dtype)].append(site.index)


def recycled(node: Node, min_bytes: int) -> bool:
    """A fresh ufunc result that may come from a buffer kept across calls (scratch.py):
    one NumPy array of static shape and at least ``min_bytes``, of a number dtype, from
    a one-output ufunc that writes every element (no ``where=``), or from a call of
    ``out_calls.takes_out`` (``np.clip``, ``np.cumsum``, ``ufunc.accumulate``). Not
    ``np.zeros_like`` and its kin (``like_fill.py``): they fill a dead operand's buffer
    only, as a kept buffer of their own made the Harris response of corpus 7 slower
    (1.19-1.30x plain -> 1.03-1.13x: each kept buffer is one more 2 MiB out of the
    cache, where malloc hands eager's fresh array back hot and without page faults)."""
    meta = array_meta(node)
    return (meta is not None and not meta.scalar and meta.ndim > 0
            and meta.kind == "numpy" and static_shape(meta.shape)
            and meta.dtype.kind in "biufc" and "where" not in node.kwargs
            and (getattr(ops.get(node.target).impl, "nout", 0) == 1 or takes_out(node))
            and not like_into_buffer(node)
            and math.prod(meta.shape) * meta.dtype.itemsize >= min_bytes)


def _same_buffer(a: Node, b: Node) -> bool:
    ma, mb = array_meta(a), array_meta(b)
    return same_sizes(ma.shape, mb.shape) and ma.dtype == mb.dtype


def same_sizes(a: tuple, b: tuple) -> bool:
    """Equal on every call: equal numbers, or sizes that change per loop trip by the
    same expression of the trip (a SymInt compares as its first trip's value: ``x[:i]``
    and ``x[:i + 1]`` would be "equal" at trip 0, so their expressions are compared)."""
    return len(a) == len(b) and all(
        x == y if static_shape((x, y)) else getattr(x, "sym", x) == getattr(y, "sym", y)
        for x, y in zip(a, b))


def _layout_ok(donor: Node, order: dict) -> bool:
    return array_meta(donor).ndim <= 1 or donor in order


def _same_order(donor: Node, node: Node, perms: dict, returned) -> bool:
    """``donor`` and ``node`` (eager's result) have one known non-C layout
    (``gather_layout.permuted``) and ``node``'s array cannot reach the caller: not
    returned, nor written by ``out=`` or viewed by an op that may be (``g = x[:, i] *
    3; g += 1; return g``: the ``add`` returned is ``g``'s buffer, whose ``base`` would
    be the gather's internal array, where eager's ``g`` owns its data)."""
    return not like_into_buffer(node) and donor in perms and node in perms and \
        perms[donor][0] == perms[node][0] and not _outlives_readers(node, returned)
