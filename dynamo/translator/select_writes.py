"""A write into an array that an ``if`` on array data makes, kept in the graph as a
write of the chosen value (issue #19): a forward fill, a clamp per element.

::

    x = x.copy()
    for i in range(1, len(x)):      # (unrolled: x has a static length)
        if np.isnan(x[i]):          # a 0-d bool of the graph decides
            x[i] = x[i - 1]         # -> x[i] = where(flag, x[i - 1], x[i])

While ``branch_selects`` traces one way of such an ``if``, a ``STORE_SUBSCR`` into an
array the graph made (no input's memory: ``writes.buffer_roots`` finds none) at a
static index (Python ints and slices of them) is not made at once: the way records it
(``defer_write``), and at the join each recorded write becomes ``x[idx] =
np.where(flag, v, x[idx])`` (``np.where(flag, x[idx], v)`` for the way taken when the
flag is false), one after the other (``apply_writes``). Exact, where:

- the write is the way's last computation: after it the way adds no op (a read of the
  written array would see the value before the write); more writes may follow;
- the chosen value has the target's dtype and the shape of ``x[idx]`` (the value
  converted to the target's dtype with nothing lost: NumPy casts it so on assignment
  as well), and every value both ways write was computed before any write is made
  (each way's values come from the state at the jump);
- the array is the graph's own: the graph stays one the frame may rerun (a rerun
  makes a new array), and an input written on both ways stays the ``if``'s break.

In a loop node's body (a loop too long to unroll) the index may be the loop's index,
a symbolic int (``x[i] = where(flag, x[i - 1], x[i])`` per trip): the body's checks
hold each op that reads it at the first and the last trip (``IndexFit``), so it is
as static as a Python int there; a size only the data decides is not (``_backed``).

Reading ``x[idx]`` at a static index cannot raise that the trace did not see, and
``np.where`` neither raises nor warns. Anything else: the write is made as before, and
the way, which then changes an array in place, is no select (the ``if`` breaks).

Example::

    >>> pending = []
    >>> defer_write(tx, pending)      # at STORE_SUBSCR of x[3] = x[2] in one way
    True                              # pending == [(x, 3, <x[2]>, its node)]
    >>> apply_writes(tx, flag, [(pending, True)])   # at the join
    # graph: getitem_4 = x[3]; where_1 = where(isnan_3, getitem_2, getitem_4);
    #        setitem_1 = setitem(x, 3, where_1)
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import ops
from ..symbolic import SymInt
from ..symbolic.sizes import symbols_of
from ..variables import ArrayVariable, ConstantVariable, SliceVariable, TupleVariable
from ..variables.arrays import call_library
from ..writes import buffer_roots, memory_sources


def defer_write(tx, pending: list) -> bool:
    """At a ``STORE_SUBSCR`` (``tx.ip``) of a way: record ``obj[index] = value`` in
    ``pending`` and step past it, where it is a write ``apply_writes`` can make
    (module docstring); False where not (the instruction runs as it would)."""
    inst = tx.info.insts[tx.ip]
    if inst.name != "STORE_SUBSCR" or len(tx.stack) < 3:
        return False
    value, obj, index = tx.stack[-3:]
    if not (isinstance(obj, ArrayVariable) and isinstance(obj.meta, ops.ArrayMeta)) or \
            obj.meta.kind != ops.NUMPY or not _static(index, _backed(tx)) or \
            not _value_fits(value, obj.meta.dtype) or \
            buffer_roots(obj.node, tx.output.writes.roots):
        return False
    del tx.stack[-3:]
    # (the value's node as stored: an in-place op on it later in the way, ``x[i] = t;
    # t += 1``, must not change what was written; ``apply_writes`` declines then)
    pending.append((obj, index, value, getattr(value, "node", None)))
    tx.ip += 1
    return True


def apply_writes(tx, flag, ways: list, into: list | None = None) -> bool:
    """Make each write of each way, ``ways`` a list of ``(pending, taken_when)`` (the
    way's writes, and the truth of ``flag`` for which that way is taken), as
    ``obj[index] = where(flag, value, obj[index])``. Inside a way of an outer select
    (``into``: that way's pending writes) the chosen values become its writes instead,
    made at its join (an ``elif`` whose way writes); each must then write an array of
    its own memory (the reads of ``obj[index]`` come before any of them is made).
    False where a chosen value would not be exactly what the write stores, or where
    writes deferred together may share memory (nothing is written then)."""
    writes = [(w, taken) for pending, taken in ways for w in pending]
    if into is not None and not _apart([w[0] for w, _ in writes]) or \
            any(getattr(w[2], "node", None) is not w[3] for w, _ in writes):
        return False
    convert, adapt = ops.lookup_function(np.where)
    for (obj, index, value, _), taken_when in writes:
        old = tx.getitem(obj, index)
        if not isinstance(old, ArrayVariable):
            return False
        pair = [value, old] if taken_when else [old, value]
        chosen = call_library(tx, convert, adapt, [flag, *pair], {})
        if not isinstance(chosen, ArrayVariable) or chosen.meta.dtype != obj.meta.dtype \
                or chosen.meta.shape != old.meta.shape:
            return False
        # (the ways' ops ran for the flag's untaken way too: the graph must run under
        # the floating-point guard and rerun where one reports, as for a
        # ``branch_select``; ``raising.raising_nodes``)
        chosen.node.meta["may_raise"] = True
        # (a held-back write's choice: the numpy backend may write it as the ``if``,
        # storing only where the flag says, backends/numpy_backend/select_code.py)
        chosen.node.meta["store_select"] = True
        if into is None:
            tx.setitem(obj, index, chosen)
        else:
            into.append((obj, index, chosen, chosen.node))
    return True


def reads_written(nodes: list, marks: list) -> bool:
    """Whether an op a way added after one of its deferred writes reads memory the
    written array may share (it would see the value before the write). ``marks``:
    per write, the node count when it was deferred, and its target. ``pos[k] =
    -pos[k]; vel[k] = -vel[k]`` reads another array after the first write: no."""
    for count, obj in marks:
        written = _memory(obj.node)
        if any(_memory(a) & written for n in nodes[count:]
               for a in _nodes_in((*n.args, *n.kwargs.values()))):
            return True
    return False


def _nodes_in(args) -> list:
    """The nodes among ``args``, in tuples and lists (an index ``(i, m)``) as well."""
    out = []
    for a in args:
        if isinstance(a, (tuple, list)):
            out += _nodes_in(a)
        elif isinstance(a, slice):
            out += _nodes_in((a.start, a.stop, a.step))
        elif hasattr(a, "op"):
            out.append(a)
    return out


def _apart(arrays: list) -> bool:
    """No two of ``arrays`` may share memory: each reaches other nodes' memory (views,
    in-place writes: ``writes.memory_sources``) that none of the others reaches."""
    seen: set = set()
    for v in arrays:
        reach = _memory(v.node)
        if reach & seen:
            return False
        seen |= reach
    return True


def _memory(node) -> set:
    """``node`` and every node whose memory it may be (``writes.memory_sources``)."""
    reach, todo = set(), [node]
    while todo:
        n = todo.pop()
        if n not in reach:
            reach.add(n)
            todo.extend(memory_sources(n))
    return reach


def _static(index, backed) -> bool:
    """A Python int, a slice of Python ints (or None), or a tuple of them; as
    Variables, or as one constant (3.14 loads ``slice(None)`` and ``(0, 1)`` so).
    In a loop node's body a symbolic int of backed symbols (``backed``: the loop's
    index ``i``, ``i - 1``; a size) is one too: the body's checks hold the ops that
    read it at the first and the last trip (``IndexFit``), in bounds for every trip."""
    if isinstance(index, TupleVariable):
        return all(_static(v, backed) for v in index.items)
    if isinstance(index, SliceVariable):
        return all(isinstance(p, ConstantVariable) and _static_value(p.value, backed)
                   for p in index.parts)
    return isinstance(index, ConstantVariable) and \
        _static_value(index.value, backed) and index.value is not None


def _static_value(v, backed) -> bool:
    if isinstance(v, tuple):
        return all(_static_value(p, backed) and p is not None for p in v)
    if isinstance(v, slice):
        return all(_static_value(p, backed) for p in (v.start, v.stop, v.step))
    if isinstance(v, SymInt):
        return backed is not None and backed(v)
    return v is None or type(v) is int


def _backed(tx):
    """In a loop node's body: whether a symbolic int has only symbols the trace
    knows the range of (no size or number only the data decides); None elsewhere."""
    if tx.output.loop_scope is None:
        return None
    env = tx.output.shape_env
    unknown = set(env.unbacked) | set(env.unbacked_numbers)
    return lambda v: not (symbols_of(v) & unknown)


def _value_fits(value, dtype: np.dtype) -> bool:
    """An array of a dtype NumPy casts to ``dtype`` safely, or a Python number
    ``dtype`` holds as it is (a float into a float array, an int into an int or float
    array, within range)."""
    if isinstance(value, ArrayVariable):
        meta = value.meta
        return isinstance(meta, ops.ArrayMeta) and meta.kind == ops.NUMPY and \
            np.can_cast(meta.dtype, dtype, "safe")
    if not isinstance(value, ConstantVariable):
        return False
    v = value.value
    if type(v) is float:
        return dtype.kind in "fc"
    if type(v) is int:
        if dtype.kind in "fc":
            return True
        return dtype.kind in "iu" and np.iinfo(dtype).min <= v <= np.iinfo(dtype).max
    return False


# The numbers ``mark_ways`` gives the ``if`` statements kept as selects.
_IFS = itertools.count()


def mark_ways(graph, before: set) -> None:
    """Mark each node the ``if`` just joined added to ``graph`` (its ways' ops and its
    join's ``branch_select``/``where``: those not in ``before``) with a number of its
    own, appended to the node's ``select_ways`` (an inner ``if``'s number comes
    first). The numpy backend moves a value into the branch of its choice only where
    the value was computed by a way of that very ``if``
    (``backends/numpy_backend/select_code.py _closure``); an op between the flag and
    the jump (``f = x[i] > 0; w = np.sqrt(x[i]); if f: y[i] = w``) runs on every trip.

        >>> mark_ways(graph, before)   # sqrt_1, add, where: (3,); sqrt (before): none
    """
    number = next(_IFS)
    for node in graph.nodes:
        if node not in before:
            node.meta["select_ways"] = (*node.meta.get("select_ways", ()), number)
