"""A loop body of float64 NumPy scalar arithmetic run on Python floats, then checked.

A scalar recursion (issue #15's cause 2: ``beta *= 1.0 - alpha * alpha;
alpha = -(r[k] + alpha) / beta``) is a loop node whose every trip does NumPy scalar
arithmetic: each ``np.float64`` operator call costs about 60 ns (the scalar math
checks the floating-point flags after each one), ``r[k]`` makes a new ``np.float64``,
and the compiled loop ran as fast as the Python loop it replaced (0.94-1.03x plain).
The same arithmetic on Python floats costs about 15 ns an operator: where the body is
only that arithmetic, a loop of ``MIN_TRIPS`` or more runs the trips on Python floats
first (``emit_float_lane``), and the NumPy code where that lane declines::

    def forward0_taking(trips, _carried):          # the NumPy code, as before ...
        if trips >= 16:                            # ... after the lane (emit_lane_call)
            _ran = forward0_lane(trips, _carried)
            if _ran is not None:
                return _ran
        r, beta, alpha, = _carried
        ...

    def forward0_lane(trips, _carried):
        r, beta, alpha, = _carried
        if not _under_ignored(False):              # np.seterr(under=...) set
            return None
        try:
            _v_r = _memoryview(r)                   # r[i] as a Python float, no copy
            _f_beta = _float(beta)
            _f_alpha = _float(alpha)
            _chk = 0.0
            for trip in range(2, 2 + trips):
                scalar_multiply = (_f_alpha * _f_alpha)
                scalar_subtract = (1.0 - scalar_multiply)
                scalar_multiply_1 = (_f_beta * scalar_subtract)
                getitem = _v_r[(trip)]
                scalar_add = (getitem + _f_alpha)
                scalar_negative = (-scalar_add)
                scalar_divide = (scalar_negative / scalar_multiply_1)
                _chk += scalar_multiply_1 + scalar_divide
                _f_beta, _f_alpha, = (scalar_multiply_1, scalar_divide, )
            if _chk - _chk == 0.0:                  # every checked value finite
                _carried.clear()
                return (r, _float64(_f_beta), _float64(_f_alpha), )
        except Exception:
            pass
        return None                                 # NumPy's scalars, from the start

Why the results are eager's (``float_lane`` says where it applies):

- Values. ``+ - * /`` and unary ``-`` of two float64 values are one IEEE operation
  in the same rounding whether NumPy's scalar math or Python's float does it; a
  Python int constant up to 2**53 converts to the same double in both; reading
  ``memoryview(r)[i]`` gives the very double ``r[i]`` holds. The results leave as
  ``np.float64`` (``_float64``): the type the graph says.
- Warnings and errors. NumPy reports a condition only where an operation's result is
  not finite (overflow: inf; invalid: nan; a division by zero: Python raises
  ``ZeroDivisionError`` before) or underflows (``under`` is ignored unless the caller
  set it, which ``_under_ignored`` checks). A non-finite result reaches either a value
  the lane checks or an operand of another operation whose result is then not finite
  too (``inf + x``, ``inf * 0``, ``inf / x``), except as a divisor (``x / inf`` is 0):
  so the lane sums every value it hands over (the next trip's, the node's results),
  every divisor and every value nothing reads, and a sum that is not finite (or any
  exception: a division by zero, an index out of range) runs the NumPy code from the
  trip the loop started at, which warns, raises and computes as eager. A sum that
  overflows on finite values only reruns it too. Since the body draws nothing and
  writes only elements of arrays it never reads, running it again from the start is
  exact.
- Writes (``out[i, j] = s``: a running sum's rows). An array the body only writes
  (carried, read by nothing but its writes) is written through a memoryview too, at
  the end of each trip, and the lane checks the values it writes as those it hands
  over. The NumPy code, run again, writes every element the lane did: where no
  condition raises (``under_ignored(True)``), it stops only where the lane stopped
  (an index out of range, in the same trip, after the same trips' writes), and where
  the array shares no memory with another the lane reads or writes
  (``np.may_share_memory``, checked on entry), it reads what eager read.

A body the NumPy code would run faster is not one of these: the fallback costs one
lane's run more (about a third of the NumPy loop's time), only on a call whose values
leave float64's range or read an index out of range, which eager warns or raises on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dynamo.graph import CALL, CONSTANT, OUTPUT, PLACEHOLDER, Graph, Node
from dynamo.ops.errstate import UFUNC_STATE
from dynamo.ops.node_facts import array_meta
from dynamo.symbolic import Sym, SymArg

_FLOAT64 = np.dtype(np.float64)
# The float64 scalar operators a lane runs on Python floats (numbers of operands)
_SYNTAX = {"scalar_add": "({} + {})", "scalar_subtract": "({} - {})",
           "scalar_multiply": "({} * {})", "scalar_divide": "({} / {})",
           "scalar_negative": "(-{})"}
# A Python int converts to the same double in NumPy and in Python up to here
_EXACT_INT = 2 ** 53
# Fewer trips run the NumPy code: the lane's fixed cost (a memoryview per array, about
# 0.3 us, the conversions each way, the settings' check) is about what 8-16 trips of a
# one-operator body save (``s = s + A[i, j]``: the two ways even at 16 trips, the lane
# 1.2x at 64, measured under load); an inner loop of a triangular nest runs few.
MIN_TRIPS = 16


@dataclass(frozen=True)
class FloatLane:
    """What ``float_lane`` found in a loop body: the float64 scalar placeholders it
    converts on entry, the float64 arrays it reads elements of, and the values it
    sums into the check each trip."""
    scalars: tuple[Node, ...]
    arrays: tuple[Node, ...]
    checked: tuple[Node, ...]
    written: tuple[Node, ...] = ()   # carried float64 arrays it only writes elements of


def _float64_scalar(node: Node) -> bool:
    meta = array_meta(node)
    return meta is not None and meta.dtype == _FLOAT64 and meta.shape == () and \
        bool(getattr(meta, "scalar", False)) and meta.kind == "numpy"


def _float64_array(node: Node) -> bool:
    meta = array_meta(node)
    return meta is not None and meta.dtype == _FLOAT64 and meta.ndim >= 1 and \
        not meta.scalar and meta.kind == "numpy"


def _constant(value) -> bool:
    """A number that is the same double in NumPy's scalar math and in Python's."""
    if type(value) in (float, np.float64):
        return math.isfinite(value)
    return type(value) is int and -_EXACT_INT <= value <= _EXACT_INT


def _int_index(index, ndim: int) -> bool:
    """``x[i]`` / ``x[i, j]`` of one element: Python ints or int expressions of the
    body's inputs (``trip + 1``), one per dimension."""
    parts = index if type(index) is tuple else (index,)
    return len(parts) == ndim and all(
        type(v) is int or isinstance(v, SymArg) and isinstance(v.sym, Sym) for v in parts)


def float_lane(graph: Graph) -> FloatLane | None:
    """The lane of a loop body (module docstring) whose every op is a float64 scalar
    operator, an element read of a float64 array input or an element write of a
    value of the lane into a carried float64 array nothing else reads; None for any
    other body."""
    trip, *inputs = graph.placeholders
    if any(n.name.startswith("_") for n in graph.nodes):
        return None   # (a program's ``_chk`` or ``_f_x`` would be one of the lane's names)
    slots = [p for p in inputs if p.meta.get("carried")]
    outputs = list(graph.outputs)
    scalars = [p for p in inputs if _float64_scalar(p)]
    chain = set(scalars)
    arrays, ops, reads = [], [], []
    writes: dict[Node, Node] = {}   # a write's result (the array) -> the array written
    for node in graph.nodes:
        if node.op in (PLACEHOLDER, OUTPUT) or (node.op == CONSTANT and not node.users):
            continue
        if node.op == CALL and node.target == "setitem" and len(node.args) == 3 and \
                not node.kwargs:
            array, index, value = node.args
            root = writes.get(array, array)
            if not (root in slots and _float64_array(root) and value in chain and
                    _int_index(index, array_meta(root).ndim)):
                return None
            writes[node] = root
            continue
        if node.op != CALL or node.kwargs or not _float64_scalar(node):
            return None
        if node.target == "getitem" and len(node.args) == 2:
            array, index = node.args
            if array not in inputs or not _float64_array(array) or \
                    not _int_index(index, array_meta(array).ndim):
                return None
            arrays.append(array)
            reads.append(node)
        elif node.target in _SYNTAX and len(node.args) == (1 if node.target ==
                                                            "scalar_negative" else 2):
            if not all(a in chain if isinstance(a, Node) else _constant(a)
                       for a in node.args):
                return None
            ops.append(node)
        else:
            return None
        chain.add(node)
    if not ops:
        return None
    written = set(writes.values())
    for node in (*written, *writes):   # an array written is read by its writes only,
        users = [u for u in node.users if u.op != OUTPUT]   # one after another
        if node in arrays or len(users) > 1 or \
                any(u not in writes or u.args[0] is not node for u in users):
            return None
    for p, value in zip(slots, outputs):
        if p in written and writes.get(value) is p:
            continue
        if value is not p and not (p in chain and value in chain):
            return None   # (an array or other value carried as anything but itself)
    if any(v in writes for v in outputs[len(slots):]) or \
            any(outputs[:len(slots)].count(v) > 1 for v in writes):
        return None
    for p in inputs:   # inputs that are neither: passed along untouched, or sizes
        if p not in chain and p not in arrays and p not in written and any(  # in indices
                u.op != OUTPUT and u not in reads and u not in writes for u in p.users):
            return None
    if not all(v in chain or v in inputs for v in outputs[len(slots):]):
        return None
    handed = {v for v in (*outputs, *(w.args[2] for w in writes)) if v in ops}
    divisors = {n.args[1] for n in ops if n.target == "scalar_divide"}
    unread = {n for n in ops if not n.users}
    checked = tuple(n for n in ops if n in handed or n in divisors or n in unread)
    return FloatLane(tuple(scalars), tuple(dict.fromkeys(arrays)), checked,
                     tuple(p for p in slots if p in written))


def under_ignored(writes: bool = False) -> bool:
    """This thread's ufunc settings ignore underflow (NumPy's default): only then does
    a lane report all that NumPy's scalar math would. With ``writes``, also no
    condition raises: the NumPy code that runs again after a lane that wrote must
    write every element the lane did (it stops only where the lane stopped, at an
    index out of range). Cached per settings object (one a ``np.errstate`` block or
    ``np.seterr`` makes: about 0.1 us where ``np.geterr`` costs 2)."""
    key = (UFUNC_STATE.get(), writes)
    try:
        return _IGNORED[key]
    except KeyError:
        pass
    if len(_IGNORED) >= 256:
        _IGNORED.clear()
    settings = np.geterr()
    ignored = _IGNORED[key] = settings["under"] == "ignore" and \
        not (writes and "raise" in settings.values())
    return ignored


_IGNORED: dict = {}


def emit_lane_call(m, name: str, free: list[str]) -> None:
    """The first lines of the NumPy code's ``_taking``: a loop of ``MIN_TRIPS`` or more
    runs the lane ``name``, whose result (None: it declined) it returns."""
    m.emit(1, f"if trips >= {MIN_TRIPS}:")
    m.emit(2, f"_ran = {name}({', '.join(['trips', '_carried', *free])})")
    m.emit(2, "if _ran is not None:")
    m.emit(3, "return _ran")


def emit_float_lane(m, graph: Graph, lane: FloatLane, name: str, counted: str,
                    free: list[str], name_of) -> None:
    """``def <name>(trips, _carried, *free)``: the lane's loop (module docstring), which
    returns the loop's result, or None where the NumPy code of the same body must run
    (``emit_lane_call``; the carried values still in ``_carried``). ``counted`` is the
    ``range(...)`` the NumPy code's loop runs over, ``name_of`` its names (the loop
    variable's index expressions)."""
    trip, *inputs = graph.placeholders
    slots = [p for p in inputs if p.meta.get("carried")]
    local = {p: f"_f_{p.name}" for p in lane.scalars}
    local.update((a, f"_v_{a.name}") for a in (*lane.arrays, *lane.written))

    def lane_name(node: Node) -> str:
        return local.get(node) or name_of(node)

    fallback = "return None"
    under = m.bind(under_ignored, "under_ignored")
    to_float, view = m.bind(float, "float"), m.bind(memoryview, "memoryview")
    m.emit(0, f"def {name}({', '.join(['trips', '_carried', *free])}):")
    # (an array written that shares memory with another the lane reads or writes: the
    # NumPy code, whose run again would read or overwrite what the lane wrote)
    share = m.bind(np.may_share_memory, "may_share_memory")
    apart = "".join(f" or {share}({w.name}, {a.name})" for i, w in enumerate(lane.written)
                    for a in (*lane.arrays, *lane.written[i + 1:]))
    if slots:
        m.emit(1, f"{''.join(p.name + ', ' for p in slots)}= _carried")
    m.emit(1, f"if not {under}({bool(lane.written)}){apart}:")
    m.emit(2, fallback)
    m.emit(1, "try:")
    for a in (*lane.arrays, *lane.written):
        m.emit(2, f"{local[a]} = {view}({a.name})")
    for p in lane.scalars:
        m.emit(2, f"{local[p]} = {to_float}({p.name})")
    m.emit(2, "_chk = 0.0")
    m.emit(2, f"for {trip.name} in range({counted}):")
    stores = []   # (a trip's writes last: an exception leaves none of its writes done)
    for node in graph.nodes:
        if node.op != CALL:
            continue
        if node.target == "setitem":
            array, index, value = node.args
            stores.append(f"{local[_written_root(array, lane)]}"
                          f"[{m.subscript(index, lane_name)}] = {lane_name(value)}")
            continue
        if node.target == "getitem":
            text = f"{local[node.args[0]]}[{m.subscript(node.args[1], lane_name)}]"
        else:
            text = _SYNTAX[node.target].format(*(m.fmt(float(a) if type(a) is np.float64
                                                       else a, lane_name)
                                                 for a in node.args))
        m.emit(3, f"{node.name} = {text}")
    for store in stores:
        m.emit(3, store)
    if lane.checked:
        m.emit(3, f"_chk += {' + '.join(n.name for n in lane.checked)}")
    moved = [(local[p], lane_name(v)) for p, v in zip(slots, graph.outputs)
             if p in lane.scalars and lane_name(v) != local[p]]
    if moved:
        m.emit(3, f"{''.join(t + ', ' for t, _ in moved)}= ({''.join(s + ', ' for _, s in moved)})")
    to_float64 = m.bind(np.float64, "float64")

    def handed(v) -> str:
        if v in lane.written:
            return v.name
        if isinstance(v, Node) and (v in local and v in lane.scalars or v.op == CALL):
            return f"{to_float64}({lane_name(v)})"
        return m.fmt(v, name_of)
    values = [handed(p if p in local else v) for p, v in zip(slots, graph.outputs)]
    values += [handed(v) for v in list(graph.outputs)[len(slots):]]
    m.emit(2, "if _chk - _chk == 0.0:   # (inf - inf and nan - nan are nan)")
    m.emit(3, "_carried.clear()")
    m.emit(3, f"return ({''.join(v + ', ' for v in values)})")
    m.emit(1, "except Exception:   # (ZeroDivisionError, IndexError: NumPy's code says)")
    m.emit(2, "pass")
    m.emit(1, fallback)
    m.emit(0, "")


def _written_root(array: Node, lane: FloatLane) -> Node:
    """The carried array a write writes: its first argument, or that write's."""
    while array not in lane.written:
        array = array.args[0]
    return array
