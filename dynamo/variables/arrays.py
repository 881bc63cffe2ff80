"""Arrays, and the array methods and library calls that become graph nodes.

One ``ArrayVariable`` stands for one runtime array object. Its ``node`` is the graph
node whose value it currently holds; an in-place op (``a += b``, ``a[i] = v``) moves
``node`` to the new node, so every alias of the same object sees the update.
``call_library`` adds a library call's op to the graph; the Python numbers the glue
computes after the graph has run (``x.item()``, a drawn ``randint(n)``) are
``DeferredNumberVariable``s. The library functions themselves are
:mod:`dynamo.variables.library_calls`; their names, :mod:`.library_names`; whether an
array's truth value is a loop's exit test, :mod:`.loop_exit_tests`.

Example::

    >>> x = ArrayVariable(node, ArrayMeta((3,), np.dtype("f4")))
    >>> x.getattr(tx, "shape").as_python_constant()
    (3,)
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..hints_flow import BRANCH_ON_DATA
from ..ops import ArrayMeta
from ..symbolic import SymInt, concrete
from ..symbolic.sizes import is_unbacked
from .base import Variable
from .constant import ConstantVariable
from .folding import known_value
from .graph_numbers import as_graph_number
from .iterators import IteratorVariable, advanced
from .layout_flags import flags_of
from .loop_exit_tests import _tests_loop_exit, _why_no_loop_node
from .loop_ints import loop_int_operands
from .sequences import SliceVariable, TupleVariable
from .snapshots import snapshot

# Array attributes that read layout or memory: a graph cannot reproduce them.
_LAYOUT_ATTRS = {"strides", "flags", "data", "base", "ctypes", "__array_interface__",
                 "__cuda_array_interface__"}
# Methods that turn array data into Python values: the trace cannot continue.
_TO_PYTHON = {"item", "tolist", "tobytes", "__float__", "__int__", "__bool__", "__index__",
              "__len__", "get"}
# NumPy functions whose result shape depends on the data, and which are not captured
# (none today: nonzero, unique and the unique_* functions, argwhere, flatnonzero,
# bincount, extract, compress, the set operations and trim_zeros are, their result has
# an unbacked size, see dynamo/ops/data_sizes.py).
DATA_DEPENDENT: frozenset[str] = frozenset()
# NumPy functions that return a Python value computed from array data.
DATA_TO_PYTHON = {"allclose", "array_equal", "array_equiv", "isscalar"}


class ArrayVariable(Variable):
    # an earlier array this one may be at run time: the result of an op that returns
    # its argument under a layout the trace does not know (np.ascontiguousarray of an
    # op's result); ``is`` between the two cannot be answered while tracing
    may_be: ArrayVariable | None = None

    def __init__(self, node, meta: ArrayMeta, source=None):
        self.node, self.meta, self.source = node, meta, source

    def describe(self) -> str:
        return f"array {self.meta}"

    def as_graph_arg(self, output) -> Any:
        return self.node

    def as_meta(self) -> ArrayMeta:
        return self.meta

    def python_type(self) -> type:
        if self.meta.scalar:
            return self.meta.dtype.type
        if self.meta.kind == ops.CUPY:
            import cupy
            return cupy.ndarray
        if self.meta.kind == ops.DASK:   # traced only once the program has imported it
            import dask.array
            return dask.array.Array
        return np.ndarray

    def getattr(self, tx, name: str) -> Variable:
        m = self.meta
        if name == "shape":
            return TupleVariable([ConstantVariable(d) for d in m.shape])
        if name in ("ndim", "dtype", "itemsize"):
            return ConstantVariable(getattr(m, name) if name != "itemsize" else
                                    m.dtype.itemsize)
        if name in ("size", "nbytes"):
            size = 1
            for d in m.shape:        # symbolic sizes stay symbolic (or are pinned)
                size = size * d
            return ConstantVariable(size if name == "size" else size * m.dtype.itemsize)
        if name == "flat":
            return FlatVariable(self)
        if name == "flags":       # an input's contiguity flags are known (and guarded)
            return flags_of(tx, self)
        prop = ops.lookup_property(name)
        if prop is not None:
            return tx.output.call_op(prop, [self], {})
        if ops.lookup_method(name) is not None:
            return ArrayMethodVariable(self, name)
        if name in _LAYOUT_ATTRS:
            raise Unsupported(f"array attribute .{name}",
                              "Memory layout is decided by the backend, not the trace.",
                              cause="array_layout")
        if name in _TO_PYTHON or name in DATA_DEPENDENT or \
                callable(getattr(self.python_type(), name, None)):
            return ArrayMethodVariable(self, name)  # the break, if any, is at the call
        raise Unsupported(f"array attribute .{name} is not supported",
                          hint="use the equivalent numpy function, or dynamo.register_op")

    def truth(self, tx) -> bool:
        value = known_value(tx.output.graph, self.node)   # made from constants only
        if value is not None and value.size == 1:
            return bool(value)
        if _tests_loop_exit(tx):
            why = _why_no_loop_node(tx)
            # (a ``for ... break`` shape that is no node: its own rewrite)
            shape = tx.loop_shape_hint(why) if why and hasattr(tx, "loop_shape_hint") \
                else ""
            raise Unsupported("truth value of an array (data-dependent control flow: a "
                              "loop's exit test)", "Whether the loop runs again depends "
                              "on array data, which the trace does not know" +
                              (f"; the loop is no while_loop node: {why}." if why else "."),
                              hint=shape or "loops of the shapes of docs/loops.md (while <test>: "
                                   "with `and it < maxit` before or after the test, or "
                                   "`or it < miniter` after it; "
                                   "while True, while it < maxit or for it in "
                                   "range(maxit) with `if <test>: break`) run as one "
                                   "while_loop node; else "
                                   "accept the graph break (the loop runs as Python; over "
                                   "large arrays its body is still compiled)",
                              cause="data_dependent")
        raise Unsupported("truth value of an array (data-dependent control flow)",
                          "Which branch runs depends on array data, which the trace "
                          "does not know.", hint=BRANCH_ON_DATA, cause="data_dependent")

    def unpack(self, tx) -> list[Variable]:
        if self.meta.ndim == 0:
            raise Unsupported("iteration over a 0-d array")
        n = self.meta.shape[0]
        n = concrete(n)   # unrolling over rows needs the number of rows: pin it
        if n > tx.config.max_unroll:
            raise Unsupported(f"iteration over an array of {n} rows")
        getitem = ops.get("getitem")
        return [tx.output.call_op(getitem, [self, ConstantVariable(i)], {}) for i in range(n)]

    def make_iterator(self, tx) -> RowIteratorVariable:
        """``iter(x)``: its rows, one getitem each, taken as the loop goes."""
        if self.meta.ndim == 0:
            raise Unsupported("iteration over a 0-d array")
        rows = self.meta.shape[0]
        if isinstance(rows, SymInt) and any(is_unbacked(s) for s in rows.sym.symbols):
            rows = concrete(rows)   # (breaks here: translator/break_before.py)
        # a backed symbolic length stays symbolic: each row taken records a decision
        # (a guard), and the rest of a long loop can be a node of that many trips
        return RowIteratorVariable(self, rows)

    def reconstruct(self, cg) -> str:
        return cg.array(self)


class RowIteratorVariable(IteratorVariable):
    """``iter(x)`` of an array: ``x[0]``, ``x[1]``... read when taken (a loop over the
    rows of a long array can be a loop node, see ``translator/loops.py``). The glue
    rebuilds it as ``iter(x)`` moved past the rows taken.

    Example::

        >>> it = RowIteratorVariable(x, 3); it.next(tx)      # ops.getitem(x, 0)
    """

    def __init__(self, array: ArrayVariable, rows: int):
        self.array, self.rows, self.index = array, rows, 0

    def describe(self) -> str:
        return "iterator over the rows of an array"

    def python_type(self) -> type:
        return type(iter(np.empty(1)))

    def row(self, tx, index: Variable) -> Variable:
        return tx.output.call_op(ops.get("getitem"), [self.array, index], {})

    def next(self, tx) -> Variable | None:
        # (``is``: run out by a loop node over a length only the data decides, which
        # no comparison can read: ``translator/data_trips.py``)
        if self.index is self.rows or self.index >= self.rows:
            return None
        self.index += 1
        return self.row(tx, ConstantVariable(self.index - 1))

    def length_hint(self) -> int:
        return self.rows - self.index

    def reconstruct(self, cg) -> str:
        done = self.index >= self.rows
        # (the glue's code holds plain ints: a symbolic length is pinned here)
        return cg.mutable(self, lambda v: f"{cg.const(advanced)}({cg.const(iter)}("
                                          f"{cg.array(v.array)}), {concrete(v.index)}, "
                                          f"{done})")


class EnumeratedRowsVariable(RowIteratorVariable):
    """``enumerate(classes, start)`` of an array whose length only the data decides,
    made only where a loop node takes it at once (``translator/data_trips.py``): each
    item is ``(start + i, classes[i])``, as ``enumerate`` gives it.

    Example::

        >>> it = EnumeratedRowsVariable(classes, u0, 0); it.row(tx, i)   # (i, classes[i])
    """

    def __init__(self, array: ArrayVariable, rows, start: int):
        super().__init__(array, rows)
        self.start = start

    def describe(self) -> str:
        return "enumerate() of the rows of an array"

    def python_type(self) -> type:
        return enumerate

    def row(self, tx, index: Variable) -> Variable:
        count = index.value + self.start if self.start else index.value
        return TupleVariable([ConstantVariable(count), super().row(tx, index)])

    def reconstruct(self, cg) -> str:
        def build(v) -> str:   # (the rows' iterator as RowIteratorVariable builds it)
            rows = f"{cg.const(advanced)}({cg.const(iter)}({cg.array(v.array)}), " \
                f"{concrete(v.index)}, {v.index >= v.rows})"
            return f"{cg.const(enumerate)}({rows}, {concrete(v.index) + v.start})"
        return cg.mutable(self, build)


class ZippedRowsVariable(RowIteratorVariable):
    """``zip(starts, ends)`` of arrays of one length only the data decides, made only
    where a loop node takes it at once (``translator/data_trips.py``): each item is
    ``(starts[i], ends[i])``, as ``zip`` gives it; the trip count is that one length.

    Example::

        >>> it = ZippedRowsVariable([starts, ends], u1); it.row(tx, i)  # (starts[i], ends[i])
    """

    def __init__(self, arrays: list, rows):
        super().__init__(arrays[0], rows)
        self.arrays = list(arrays)

    def describe(self) -> str:
        return "zip() of the rows of arrays"

    def python_type(self) -> type:
        return zip

    def row(self, tx, index: Variable) -> Variable:
        return TupleVariable([tx.output.call_op(ops.get("getitem"), [a, index], {})
                              for a in self.arrays])

    def reconstruct(self, cg) -> str:
        def build(v) -> str:   # (each array's iterator as RowIteratorVariable builds it)
            rows = [f"{cg.const(advanced)}({cg.const(iter)}({cg.array(a)}), "
                    f"{concrete(v.index)}, {v.index >= v.rows})" for a in v.arrays]
            return f"{cg.const(zip)}({', '.join(rows)})"
        return cg.mutable(self, build)


class FlatVariable(Variable):
    """``x.flat``: indexing it reads and writes ``x`` in flat (C) order."""

    def __init__(self, array: ArrayVariable):
        self.array = array

    def describe(self) -> str:
        return f"x.flat of {self.array.describe()}"

    def reconstruct(self, cg) -> str:
        return f"{cg.array(self.array)}.flat"

    def getitem(self, tx, index: Variable) -> Variable:
        return tx.output.call_op(ops.get("flat_getitem"), [self.array, index], {})

    def setitem(self, tx, index: Variable, value: Variable) -> None:
        tx.output.call_op(ops.get("flat_setitem"), [self.array, index, value], {})


class ArrayMethodVariable(Variable):
    """``x.sum`` before it is called."""

    def __init__(self, array: ArrayVariable, name: str):
        self.array, self.name = array, name

    def describe(self) -> str:
        return f"method .{self.name} of {self.array.describe()}"

    def reconstruct(self, cg) -> str:
        return f"{cg.array(self.array)}.{self.name}"

    def call(self, tx, args, kwargs) -> Variable:
        if self.name in ("item", "tolist") and not args and not kwargs and \
                ItemVariable.deferrable(self.array):   # return x.mean().item()
            return ItemVariable(snapshot(tx, self.array), self.name)
        if self.name in _TO_PYTHON:
            raise _to_python(self.name)
        if self.name in DATA_DEPENDENT:
            raise Unsupported(f"array method .{self.name}() has a data-dependent output "
                              "shape", "Its result's shape depends on array values.",
                              cause="data_dependent_shape")
        hit = ops.lookup_method(self.name)
        if hit is None:
            hint = ("use the operator or subscript it stands for (x[i] = v, x + y)"
                    if self.name.startswith("__") else
                    f"use np.{self.name}(x, ...) if that function is captured")
            raise Unsupported(f"array method .{self.name}() is not in the op registry",
                              "It runs eagerly.", hint=hint, cause="unregistered_function")
        op, adapter = hit
        result = call_library(tx, op, adapter, [self.array, *args], kwargs)
        if op.extras.get("warns_at_caller") and adapter is ops.registry.same:
            _mark_method_call(result, op, self.array, self.name)
        return result


def _to_python(method: str) -> Unsupported:
    """The break of ``x.item()``, ``x.tolist()``... where the trace needs the value: at
    the call (``ArrayMethodVariable``), or where a deferred ``item()`` is used
    (``ItemVariable.needed``)."""
    return Unsupported(f"array.{method}() converts array data to Python",
                       "The value is only known when the graph has run.",
                       hint="keep the value as an array, and make Python lists, dicts "
                            "or numbers of it after the compiled call (return the arrays), "
                            "or accept the graph break",
                       cause="array_to_python")


def _mark_method_call(result: Variable, op, array: ArrayVariable, name: str) -> None:
    """Record on the node of ``x.mean(...)`` that the program called the method: the
    generated code then calls ``x.mean(...)`` too, so a warning NumPy raises with
    ``stacklevel=2`` names the program's line, as eagerly (see ``_WARN_AT_CALLER`` in
    ``ops/reductions.py``). Only a node that is this very call, on a NumPy array or
    scalar, with the method's own arguments (the adapter changed nothing)."""
    node = getattr(result, "node", None)
    if isinstance(result, ArrayVariable) and array.meta.kind == ops.NUMPY and \
            node is not None and node.target == op.name and node.args and \
            node.args[0] is array.node:
        node.meta["method"] = name


def call_library(tx, op, adapter, args: list, kwargs: dict, kind: str | None = None):
    """Adapt a user call to the op's canonical arguments and add it to the graph."""
    # (float(loss) as an operand: a number the graph reads when it runs, graph_numbers.py)
    args = [as_graph_number(tx, a) for a in args]
    kwargs = {k: as_graph_number(tx, v) for k, v in kwargs.items()}
    args = loop_int_operands(tx.output, op, args)   # int(np.argmin(c)) in a loop body
    try:
        args, kwargs = adapter(tuple(args), dict(kwargs))
    except ops.MetaError as e:   # (a call form the op does not model: np.maximum(a, b, c))
        raise Unsupported(f"np.{op.name}: {e}", cause="op_rule") from e
    # (an op that raises for its values inside ``try``, ``np.linalg.inv`` of a singular
    # matrix, is an op inside a try block like any other: when it raises as the graph
    # runs, the frame's original code runs instead and its except clause sees the error,
    # ``raising.on_raise``; a graph that cannot run again runs eagerly)
    try:
        result = tx.output.call_op(op, list(args), kwargs, kind=kind)
    except Unsupported as e:
        if op.random and isinstance(e.__cause__, ops.random.PythonNumberDraw):
            return _python_number_draw(tx, op, args, kwargs, e)
        raise
    if op.extras.get("returns_none"):  # np.copyto, x.sort(), x.fill(): write, return None
        return ConstantVariable(None)
    return result


class DeferredNumberVariable(Variable):
    """A Python number the glue computes after the graph has run, ``fn(snapshot)``
    (``int``/``float``/``complex`` of a 0-d array the graph holds): returned, stored or
    used as an array index (``_array_index`` in ``translator/base.py``) it needs no
    break; a use that needs the number while tracing raises ``needed()`` there."""

    # ``BranchChoiceVariable``: ``x.max() if d > 0 else None`` may be None, which
    # ``is None`` (and ``if v is None``) must not answer while tracing
    may_be_none = False

    def __init__(self, fn: type, snapshot: ArrayVariable):
        self.fn, self.snapshot = fn, snapshot

    def needed(self) -> Unsupported:
        """The break where the number is needed while tracing."""
        raise NotImplementedError

    def python_type(self) -> type:
        return self.fn

    def as_python_constant(self):
        raise self.needed()

    def _constant_arg(self):
        raise self.needed()

    def truth(self, tx) -> bool:
        raise self.needed()

    def getattr(self, tx, name: str) -> Variable:
        raise self.needed()

    def reconstruct(self, cg) -> str:
        return f"{cg.const(self.fn)}({cg.value(self.snapshot)})"


def holds_deferred(index: Variable) -> bool:
    """A Python number the glue would compute from a 0-d array (``int(counts[0])``),
    alone or as a slice bound (``x[:n]``): an index the graph reads as the array."""
    if isinstance(index, SliceVariable):
        return any(isinstance(v, DeferredNumberVariable) for v in index.parts)
    return isinstance(index, DeferredNumberVariable)


# dtype kind -> the Python type ``x.item()`` gives for a 0-d array of that kind, for
# the dtypes whose ``item()`` is that type's own conversion, exactly (not longdouble,
# whose ``item()`` stays a NumPy scalar, nor datetimes)
_ITEM_TYPES = {"b": (bool, 1), "i": (int, 8), "u": (int, 8), "f": (float, 8),
               "c": (complex, 16)}


class ItemVariable(DeferredNumberVariable):
    """``x.item()`` (or ``x.tolist()``) of a traced 0-d array: the Python number the
    glue makes after the graph has run, as ``float(x)`` does (``ArrayToPythonVariable``
    in ``builtins.py``): ``out[name] = col.mean().item()`` and ``return loss.item()``
    need no break. The graph snapshots ``x`` (``np.copy``: a later write to ``x`` does
    not change it; a NumPy scalar is its own: ``snapshots.py``) and the glue calls
    ``bool``/``int``/``float``/``complex`` on the snapshot, which for these dtypes is
    what ``item()`` returns, value and type. A use that needs the number while
    tracing (arithmetic, a comparison, formatting) breaks there, with the reason
    ``array.item() converts array data to Python``.

    Example::

        >>> ItemVariable.deferrable(ArrayVariable(node, ArrayMeta((), np.dtype("f4"))))
        True
    """

    graph_number = True   # a float one of these in arithmetic: graph_numbers.py

    def __init__(self, snapshot: ArrayVariable, method: str = "item"):
        super().__init__(_ITEM_TYPES[snapshot.meta.dtype.kind][0], snapshot)
        self.method = method

    @staticmethod
    def deferrable(array: ArrayVariable) -> bool:
        m = array.meta
        kind = _ITEM_TYPES.get(m.dtype.kind)
        return m.kind == ops.NUMPY and m.shape == () and kind is not None and \
            m.dtype.itemsize <= kind[1]

    def describe(self) -> str:
        return f"array.{self.method}() of a 0-d array"

    def needed(self) -> Unsupported:
        return _to_python(self.method)


class ComparedBoolVariable(DeferredNumberVariable):
    """``np.allclose(a, b)`` or ``np.array_equal(a, b)`` of traced arrays: the Python
    bool the glue makes after the graph has run, from the 0-d bool array the graph
    computes as NumPy does (``all(isclose(a, b, ...))``, ``(a == b).all()``).
    ``return y, np.allclose(y, ref)`` and ``checks["ok"] = np.array_equal(a, b)`` need
    no break; ``if not np.allclose(...)`` needs the value while tracing and breaks there,
    with the reason the call had (``np.allclose() returns a Python value computed from
    array data``)."""

    def __init__(self, snapshot: ArrayVariable, fn_name: str):
        super().__init__(bool, snapshot)
        self.fn_name = fn_name

    def describe(self) -> str:
        return f"the bool np.{self.fn_name}() returns"

    def needed(self) -> Unsupported:
        return Unsupported(f"np.{self.fn_name}() returns a Python value computed from array "
                           "data", "The value is only known when the graph has run.",
                           cause="array_to_python")


class DrawnNumberVariable(DeferredNumberVariable):
    """A random draw that returns a Python number (``np.random.randint(n)``,
    ``rng.choice(n, p=p)``, ``rng.random()``), drawn by the graph in program order as a
    0-d array (the op ``python_draw``) and converted by the glue with ``int``/``float``:
    its exact value and type. ``X[rng.choice(n, p=p)]`` and ``X[i]`` with ``i =
    np.random.randint(n)`` need no break; a use that needs the number while tracing
    breaks there, with the draw's own reason. In arithmetic or as an op's argument
    (``np.searchsorted(cdf, rng.random())``, ``t += rng.exponential(1 / total)``) it is
    an unbacked number, as ``float(x)`` is (``graph_numbers.py``): the draw is a fresh
    0-d array only the glue and the graph read, so its ``float``/``int`` is exact."""

    graph_number = True   # a float one of these in arithmetic: graph_numbers.py

    def __init__(self, fn: type, snapshot: ArrayVariable, reason: Unsupported):
        super().__init__(fn, snapshot)
        self.reason = reason

    def describe(self) -> str:
        return f"a drawn Python {self.fn.__name__}"

    def needed(self) -> Unsupported:
        again = copy.copy(self.reason)     # the draw's break, raised where it is used
        again.location = None
        return again


def _python_number_draw(tx, op, args, kwargs, reason: Unsupported) -> Variable:
    """``np.random.randint(n)``, ``rng.choice(n, p=p)``: a draw whose result is a Python
    number, drawn by the graph at its place in the program (``python_draw``: the same
    call, as a 0-d array) and handed to the program as that number (see
    ``DrawnNumberVariable``)."""
    draw = tx.output.call_op(ops.get("python_draw"), [ConstantVariable(op.name), *args],
                             kwargs)
    number = int if draw.meta.dtype.kind == "i" else float
    return DrawnNumberVariable(number, draw, reason)
