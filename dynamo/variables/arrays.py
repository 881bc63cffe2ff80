"""Arrays, and the library functions and methods that become graph nodes.

One ``ArrayVariable`` stands for one runtime array object. Its ``node`` is the graph
node whose value it currently holds; an in-place op (``a += b``, ``a[i] = v``) moves
``node`` to the new node, so every alias of the same object sees the update.

Example::

    >>> x = ArrayVariable(node, ArrayMeta((3,), np.dtype("f4")))
    >>> x.getattr(tx, "shape").as_python_constant()
    (3,)
"""

from __future__ import annotations

import copy
import types
from typing import Any

import numpy as np

from .. import ops
from ..bytecode.branch_chains import and_chain_step
from ..exc import Unsupported
from ..ops import ArrayMeta
from ..ops.quiet import warnings_as
from ..symbolic import Symbolic, SymInt, concrete
from ..symbolic.sizes import is_unbacked
from .base import Variable
from .constant import (
    ConstantVariable,
    SignalsAtRunTime,
    fold,
    is_pure_constant,
    raw,
    reads_loop_index,
)
from .folding import ARRAY_FACTS, array_fact, known_value
from .iterators import IteratorVariable, advanced
from .sequences import SequenceVariable, TupleVariable, wrap_constant

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
                          "does not know.", hint="compute both branches with np.where, "
                          "or accept the graph break", cause="data_dependent")

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
        if self.index >= self.rows:
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
            snapshot = tx.output.call_op(ops.get("copy"), [self.array], {})
            return ItemVariable(snapshot, self.name)
        if self.name in _TO_PYTHON:
            raise Unsupported(f"array.{self.name}() converts array data to Python",
                              "The value is only known when the graph has run.",
                              hint="keep the value as an array, or accept the graph break",
                              cause="array_to_python")
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


class LibraryFunctionVariable(Variable):
    """A NumPy or CuPy function, ufunc or class (``np.exp``, ``cp.matmul``)."""

    def __init__(self, fn: Any, source=None):
        self.fn, self.source = fn, source

    def describe(self) -> str:
        return f"function {library_name(self.fn)}"

    def python_type(self) -> type:
        return type(self.fn)

    def is_constant(self) -> bool:
        return True

    def as_python_constant(self) -> Any:
        return self.fn

    def call(self, tx, args, kwargs) -> Variable:
        name = getattr(self.fn, "__name__", "")
        if self.fn in ARRAY_FACTS and \
                any(isinstance(a, ArrayVariable) for a in [*args, *kwargs.values()]):
            return _array_fact(self.fn, args, kwargs)   # np.shape(x): from the meta
        if self.fn is np.ix_ and ops.lookup_function(self.fn) is None:
            return _open_mesh(tx, args, kwargs)
        where = ops.one_argument_where(self.fn, args, kwargs)
        if where is not None:   # np.where(c) is np.nonzero(c)
            op, args, kwargs = where
            return call_library(tx, op, ops.registry.same, list(args), kwargs)
        hit = ops.lookup_function(self.fn)
        if hit is not None and _foldable_op(self.fn, hit[0], args, kwargs) and \
                not reads_loop_index(tx, [*args, *kwargs.values()]):   # a value per trip
            try:  # a warning or error (np.log(0.0)) must happen at run time: no folding
                with np.errstate(all="raise"), warnings_as("error"):
                    return _fold_library_call(self.fn, args, kwargs)
            except Exception:  # noqa: BLE001
                pass  # not a constant result: a graph node below
        if hit is None and isinstance(self.fn, type) and issubclass(self.fn, np.generic) \
                and len(args) == 1 and isinstance(args[0], ArrayVariable) and not kwargs:
            return tx.output.call_op(ops.get("scalar_cast"), [args[0], ConstantVariable(
                self.fn)], {})
        if hit is None and ops.is_dtype_query(self.fn) and \
                any(isinstance(a, ArrayVariable) for a in [*args, *kwargs.values()]):
            return _fold_dtype_query(self.fn, args, kwargs)  # np.result_type(x, y)
        known = ops.break_reason(self.fn) if hit is None else None
        if known is not None:
            raise Unsupported(f"{library_name(self.fn)}() {known[1]}", cause=known[0])
        if hit is None and self.fn is np.random.seed:
            return _seed_global_state(tx, args, kwargs)
        if hit is None and (self.fn is np.random.default_rng or
                            self.fn is np.random.RandomState):
            return tx.new_random_object(self.fn, args, kwargs)
        if hit is None:
            if _is_random_state(self.fn):
                raise Unsupported(f"{library_name(self.fn)}() uses or changes random state "
                                  "outside the registry", "It runs eagerly, at its place in "
                                  "the program, so the random stream stays in order.",
                                  cause="random_state")
            if name in DATA_DEPENDENT:
                raise Unsupported(f"{library_name(self.fn)}() has a data-dependent output "
                                  "shape", "Its result's shape depends on array values.",
                                  cause="data_dependent_shape")
            if name in DATA_TO_PYTHON and any(isinstance(a, ArrayVariable) for a in args):
                compared = _compared_in_graph(tx, self.fn, args, kwargs)
                if compared is not None:     # np.allclose(a, b): a bool after the graph
                    return compared
                raise Unsupported(f"{library_name(self.fn)}() returns a Python value computed "
                                  "from array data", "The value is only known when the graph "
                                  "has run.", cause="array_to_python")
            if _foldable(self.fn) and all(a.is_constant() for a in [*args, *kwargs.values()]):
                return _fold_library_call(self.fn, args, kwargs)
            raise Unsupported(f"{library_name(self.fn)} is not in the op registry",
                              "The translator only captures functions whose shape and "
                              "dtype rules it knows.",
                              hint="teach it with dynamo.register_op(fn, meta=...)",
                              cause="unregistered_function")
        op, adapter = hit
        kind = ops.CUPY if library_root(self.fn) == "cupy" else None
        return call_library(tx, op, adapter, list(args), kwargs, kind=kind)

    def getattr(self, tx, name: str) -> Variable:
        hit = ops.lookup_ufunc_method(self.fn, name)
        if hit is not None:                  # np.maximum.accumulate: an op taking the ufunc
            return OpMethodVariable(self, name, hit, f"{library_name(self.fn)}.{name}")
        if ops.is_ufunc(self.fn) and name in _UFUNC_CONSTANTS:
            return ConstantVariable(getattr(self.fn, name))
        raise Unsupported(f"attribute {name!r} of {library_name(self.fn)}",
                          hint="ufunc methods other than reduce, accumulate, reduceat, outer "
                               "and at are not captured" if ops.is_ufunc(self.fn) else None)

    def reconstruct(self, cg) -> str:
        return cg.const(self.fn)


_UFUNC_CONSTANTS = {"__name__", "nin", "nout", "nargs", "identity", "signature"}


class IndexerVariable(Variable):
    """A library object whose subscription is a graph op (``np.mgrid[0:3, 0:4]``)."""

    def __init__(self, obj: Any):
        self.obj = obj

    def describe(self) -> str:
        return library_name(self.obj)

    def python_type(self) -> type:
        return type(self.obj)

    def getitem(self, tx, index: Variable) -> Variable:
        op, adapter = ops.lookup_function(self.obj)
        return call_library(tx, op, adapter, [index], {})

    def reconstruct(self, cg) -> str:
        return cg.const(self.obj)


class OpMethodVariable(Variable):
    """A method whose calls are one graph op taking its object first, before the call:
    ``np.maximum.accumulate`` (``ufunc_accumulate(np.maximum, ...)``) or ``rng.normal``
    (``generator_normal(<rng>, ...)``, the Generator passed as the constant ``first``)."""

    def __init__(self, owner: Variable, name: str, hit, label: str,
                 first: Variable | None = None):
        self.owner, self.name, self.hit, self.label = owner, name, hit, label
        self.first = owner if first is None else first

    def describe(self) -> str:
        return f"method {self.label}"

    def call(self, tx, args, kwargs) -> Variable:
        op, adapter = self.hit
        return call_library(tx, op, adapter, [self.first, *args], kwargs)

    def reconstruct(self, cg) -> str:
        return f"{cg.value(self.owner)}.{self.name}"


def _open_mesh(tx, args, kwargs) -> Variable:
    """``np.ix_(rows, cols, ...)``: what NumPy's own code does, as graph ops. The
    ``k``-th of ``n`` integer index arrays is reshaped to ``1`` on every axis but the
    ``k``-th (``asarray(a).reshape(...)``: a view of an array argument, as eagerly, so a
    write through it reaches the argument). Boolean, non-integer and not 1-d
    arguments, and empty ones of another type than intp (NumPy turns a mask into its
    nonzero indices, an empty array into intp, and raises for 2-d) break here, where
    NumPy decides."""
    if kwargs:
        raise Unsupported("np.ix_ with keyword arguments (TypeError)")
    parts = []
    for k, a in enumerate(args):
        if not isinstance(a, ArrayVariable):
            raise Unsupported("np.ix_ of an argument that is not an array",
                              hint="pass index arrays (np.asarray(rows))",
                              cause="unregistered_function")
        m = a.meta
        # an empty one NumPy casts to intp (a copy): the same dtype for intp, and no
        # element to share, so an intp array of any size, even unbacked, is captured
        nonempty = m.ndim == 1 and type(m.shape[0]) is int and m.shape[0] > 0
        if m.ndim != 1 or m.dtype.kind not in "iu" or not (
                nonempty or m.dtype == np.intp):
            raise Unsupported(f"np.ix_ of a {m.ndim}-d {m.dtype} array (only 1-d integer "
                              "arrays, non-empty or of type intp, are captured)",
                              hint="index with integer arrays: np.flatnonzero(mask) for a "
                                   "mask", cause="unregistered_function")
        shape = (1,) * k + (-1,) + (1,) * (len(args) - k - 1)
        parts.append(tx.output.call_op(ops.get("reshape"), [a, ConstantVariable(shape)], {}))
    return TupleVariable(parts)


def _fold_dtype_query(fn, args, kwargs) -> Variable:
    """``np.result_type(x, 1.0)`` of traced arrays: a constant, from their metas."""
    def meta(v):
        return v.meta if isinstance(v, ArrayVariable) else v.as_python_constant()
    try:
        value = ops.fold_dtype_query(fn, [meta(a) for a in args],
                                     {k: meta(v) for k, v in kwargs.items()})
    except Unsupported:
        raise
    except Exception as e:  # noqa: BLE001 (NumPy raises: the call runs eagerly to raise it)
        raise Unsupported(f"{library_name(fn)}: {ops.error_text(e)}",
                          cause="op_rule") from e
    return wrap_constant(value)


_PURE_LIBRARY_FUNCTIONS = {np.dtype, np.result_type, np.promote_types, np.can_cast, np.isscalar,
                           np.ndim, np.shape, np.size, np.finfo, np.iinfo, np.issubdtype,
                           *([np.isdtype] if hasattr(np, "isdtype") else [])}
# Objects those make that are constants too: NumPy caches one per dtype, and their
# attributes (eps, tiny, max, bits...) are NumPy scalars and ints fixed for the dtype
_STATIC_OBJECTS = (np.finfo, np.iinfo)


def _tests_loop_exit(tx) -> bool:
    """Is the instruction being traced a conditional jump that decides whether a loop
    runs again (``while err > tol:``, ``if done: break``)? Inside a loop, one of its two
    ways leaves the loop at once (``_leaves``); in front of a loop (3.11-3.13 test a
    ``while`` condition there too), it jumps past the loop's end from a few
    instructions before its start."""
    inst = tx.current
    if inst is not None and inst.target is None and inst.index + 1 < len(tx.info.insts):
        # the truth was asked by the instruction that makes the bool (a COMPARE_OP with
        # its cast, TO_BOOL): the conditional jump right after it uses it
        after = tx.info.insts[inst.index + 1]
        inst = after if after.name.startswith("POP_JUMP_IF") else None
    if inst is None or inst.target is None:
        return False
    if hasattr(tx, "loop_plan") and tx.loop_plan(inst) is not None:
        return True   # (a refused while_loop node's test: ``or``'s goes on into the loop)
    loops = [r for r in tx.info.regions if r.kind == "loop"]
    for region in loops:
        if any(q.start == region.start and q.end > region.end for q in loops):
            # a jump back to the head of a loop that goes on past it is a `continue`
            # (a comprehension's filter, `if p > 0`), not a loop of its own
            continue
        if inst.index in region:
            if _leaves(tx.info.insts, inst.target, region, inst.index + 1) != \
                    _leaves(tx.info.insts, inst.index + 1, region, inst.target):
                return True
        elif 0 < region.start - inst.index <= _FRONT_TEST and inst.target > region.end:
            return True
    return False


_FRONT_TEST = 8   # instructions of a while condition in front of its loop (a and b)


def _why_no_loop_node(tx) -> str:
    """The reason an attempt at a ``while_loop`` node for the loop whose test ``tx`` is
    at was refused (its break point, ``translator/while_loops.py``), or "" where none was
    made: the break's message names the shape that stays a break."""
    inst = tx.current
    if inst is not None and inst.target is None and inst.index + 1 < len(tx.info.insts):
        inst = tx.info.insts[inst.index + 1]   # (the truth asked just before the jump)
    point = tx.loop_plan(inst) if inst is not None and hasattr(tx, "loop_plan") else None
    if point is None:     # (no attempt: a ``for ... break`` shape that is none)
        return tx.loop_shape_name(inst) if hasattr(tx, "loop_shape_name") else ""
    return point.reason.reason.removeprefix("loop node: ").removeprefix("while loop: ")


def _leaves(insts, start: int, region, other: int) -> bool:
    """Does running from instruction ``start`` (one way of a test whose other way
    starts at ``other``) leave ``region`` at once: it is outside, or a jump out or a
    return, after straight code (``found = i; val = s[i]; print(i); break``, no
    ``raise``: a check; the rest of an ``and`` chain, ``branch_chains``) and popping
    the loop's iterator (``break``; 3.14 pops it with ``POP_ITER`` after the branch's
    ``NOT_TAKEN``)?"""
    i = start
    for _ in range(_STRAIGHT):
        if i >= len(insts) or i not in region:
            return i < len(insts)
        inst = insts[i]
        if inst.target is None and not inst.name.startswith(("RETURN", "RAISE", "RERAISE")):
            i += 1
            continue
        on = and_chain_step(insts, i, other)
        if on is not None:
            i = on
            continue
        return inst.name.startswith("RETURN") or \
            (inst.name.startswith("JUMP") and inst.target is not None and
             inst.target not in region)
    return False


_STRAIGHT = 64   # instructions of a break branch's code (a few statements)


def _array_fact(fn, args, kwargs) -> Variable:
    """``np.shape(x)``, ``np.ndim(x)``, ``np.size(x, axis)`` of a traced array: known while
    tracing, as ``x.shape`` is (see ``folding.array_fact``)."""
    def value(v):
        return v.meta if isinstance(v, ArrayVariable) else v.as_python_constant()
    return wrap_constant(array_fact(fn, [value(a) for a in args],
                                    {k: value(v) for k, v in kwargs.items()}))


def _foldable(fn) -> bool:
    """Library calls safe to run at trace time: pure, and constant in, constant out.
    (``np.random.seed(0)`` is not: it must run when the program runs.)"""
    return fn in _PURE_LIBRARY_FUNCTIONS or (isinstance(fn, type) and
                                             issubclass(fn, np.generic))


def _fold_library_call(fn, args, kwargs) -> Variable:
    """``np.float32(2)``, ``np.dtype('f4')``, ``np.sqrt(2.0)``: constant in, constant out."""
    try:   # np.float32(1e300) warns "overflow encountered in cast": only when it runs
        value = fold(fn, *[_static(a) for a in args],
                     **{k: _static(v) for k, v in kwargs.items()})
    except SignalsAtRunTime as e:
        raise Unsupported(f"{library_name(fn)} of constants: {e}", "It warns or raises by "
                          "NumPy's error state, which must happen when the program runs; "
                          "the call runs eagerly.") from e
    if isinstance(value, _STATIC_OBJECTS):
        return ConstantVariable(value)
    if isinstance(value, np.ndarray) or not is_pure_constant(value):
        raise Unsupported(f"{library_name(fn)} on constants makes a "
                          f"{type(value).__name__}, not a constant",
                          cause="unregistered_function")
    return wrap_constant(value)


def call_library(tx, op, adapter, args: list, kwargs: dict, kind: str | None = None):
    """Adapt a user call to the op's canonical arguments and add it to the graph."""
    args, kwargs = adapter(tuple(args), dict(kwargs))
    if op.extras.get("raises") and _inside_try(tx):
        raise Unsupported(f"{_op_label(op)}() inside a try block: it {op.extras['raises']}",
                          "A graph cannot hand an exception raised while it runs to the "
                          "except clause; the try block runs eagerly.", cause="try")
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
    not change it) and the glue calls ``bool``/``int``/``float``/``complex`` on the
    snapshot, which for these dtypes is what ``item()`` returns, value and type. A use
    that needs the number while tracing (arithmetic, a comparison, formatting) breaks
    there, with the reason ``array.item() converts array data to Python``.

    Example::

        >>> ItemVariable.deferrable(ArrayVariable(node, ArrayMeta((), np.dtype("f4"))))
        True
    """

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
        return Unsupported(f"array.{self.method}() converts array data to Python",
                           "The value is only known when the graph has run.",
                           hint="keep the value as an array, or accept the graph break",
                           cause="array_to_python")


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


def _compared_in_graph(tx, fn, args, kwargs) -> Variable | None:
    """``np.allclose(a, b, rtol, atol, equal_nan)`` as NumPy computes it,
    ``bool(np.all(np.isclose(...)))``, and ``np.array_equal(a1, a2)`` (no
    ``equal_nan``): ``False`` when the static shapes differ (NumPy compares nothing
    then), else ``bool((a1 == a2).all())``; the bool is the glue's
    (``ComparedBoolVariable``). None for other calls (CuPy's and dask's return arrays,
    not bools; ``array_equal(equal_nan=True)``): they break as before."""
    arrays = [a for a in [*args, *kwargs.values()] if isinstance(a, ArrayVariable)]
    if any(a.meta.kind != ops.NUMPY for a in arrays):
        return None
    if fn is np.allclose:
        close = tx.output.call_op(ops.get("isclose"), list(args), kwargs)
    elif fn is np.array_equal and len(args) == 2 and not kwargs and \
            all(isinstance(a, ArrayVariable) for a in args):
        shapes = [a.meta.shape for a in args]
        if not all(type(d) is int for shape in shapes for d in shape):
            return None        # a symbolic size: equal shapes would be a guard
        if tuple(shapes[0]) != tuple(shapes[1]):
            return ConstantVariable(False)
        close = tx.output.call_op(ops.get("equal"), list(args), {})
    else:
        return None
    every = tx.output.call_op(ops.get("all"), [close], {})
    return ComparedBoolVariable(every, fn.__name__)


class DrawnNumberVariable(DeferredNumberVariable):
    """A random draw that returns a Python number (``np.random.randint(n)``,
    ``rng.choice(n, p=p)``, ``rng.random()``), drawn by the graph in program order as a
    0-d array (the op ``python_draw``) and converted by the glue with ``int``/``float``:
    its exact value and type. ``X[rng.choice(n, p=p)]`` and ``X[i]`` with ``i =
    np.random.randint(n)`` need no break; a use that needs the number while tracing
    breaks there, with the draw's own reason."""

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


def _op_label(op) -> str:
    """How users write the op's call: ``np.linalg.inv``, ``Generator.normal``."""
    if "method_of" in op.extras:
        return f"{op.extras['method_of']}.{op.extras['name']}"
    if "method" in op.extras:
        return f"ufunc.{op.extras['method']}"
    return library_name(op.impl) if library_root(op.impl) == "numpy" else f"np.{op.name}"


def _inside_try(tx) -> bool:
    """Is the instruction being traced (or a call that inlined it) inside a try block?"""
    while tx is not None:
        inst = tx.current
        if inst is not None and any(r.kind == "try" and inst.index in r
                                    for r in tx.info.regions):
            return True
        tx = tx.parent
    return False


def _foldable_op(fn, op, args, kwargs) -> bool:
    """A NumPy function of constants whose result is a constant runs while tracing
    (``np.sqrt(2.0)``, ``np.prod((2, 3))``); random, creating and writing ops never do."""
    return (library_root(fn) == "numpy" and not op.random and
            op.kind not in (ops.CREATION, ops.MUTATION) and
            all(_is_static(a) for a in [*args, *kwargs.values()]))


def _is_static(var: Variable) -> bool:
    """A constant, or a list or tuple of them (``np.max([1.0, 2.0])``): a NumPy function
    can take it while tracing (it gets a fresh copy of a list). Not a number that
    changes between calls (a SymInt or SymFloat: ``np.exp(-k * step)``): folding would
    pin it to this call's value, where a graph node takes it as an input."""
    if isinstance(var, ConstantVariable) and isinstance(var.value, Symbolic):
        return False
    if var.is_constant():
        return True
    return isinstance(var, SequenceVariable) and all(_is_static(i) for i in var.items)


def _static(var: Variable) -> Any:
    """The Python value of a ``_is_static`` Variable (a new list for a list)."""
    if isinstance(var, SequenceVariable) and not var.is_constant():
        return var.kind(_static(i) for i in var.items)
    return var.as_python_constant()


def _seed_global_state(tx, args, kwargs) -> Variable:
    """``np.random.seed(n)`` with an int (a constant or a dynamic int argument) or None:
    the effect op ``random_seed``, in program order among the draws."""
    seed = kwargs.get("seed", args[0] if args else ConstantVariable(None))
    value = raw(seed) if isinstance(seed, ConstantVariable) else seed
    if len(args) + len(kwargs) > 1 or not (value is None or isinstance(value, int)) or \
            isinstance(value, bool):
        raise Unsupported("np.random.seed() of anything but an int or None", "It runs "
                          "eagerly, at its place in the program.", cause="random_state")
    # a dynamic int argument: its graph expression
    tx.output.effect_op("random_seed", (tx.output.graph_arg(value),), {})
    return ConstantVariable(None)


def _is_random_state(fn) -> bool:
    mod = getattr(fn, "__module__", None) or ""
    owner = type(getattr(fn, "__self__", None)).__module__ or ""
    return any(m.split(".")[:2] in (["numpy", "random"], ["cupy", "random"])
               for m in (mod, owner))


def library_root(fn: Any) -> str:
    mod = getattr(fn, "__module__", None) or type(fn).__module__ or ""
    if isinstance(fn, np.ufunc):
        return "numpy"
    return mod.split(".")[0]


def library_name(fn: Any) -> str:
    """``np.exp``, ``np.fft.fft``, ``cp.random.normal``: how users write the function."""
    if not callable(fn) and ops.lookup_function(fn) is not None:   # np.mgrid: subscripted
        return f"np.{ops.lookup_function(fn)[0].name}[...]"
    if isinstance(fn, np.vectorize):   # named by its pyfunc: say what it is
        return f"np.vectorize({getattr(fn.pyfunc, '__name__', '?')})"
    root = library_root(fn)
    mod = getattr(fn, "__module__", None) or ""
    self_obj = getattr(fn, "__self__", None)
    owner = getattr(self_obj, "__module__", None) or ""
    if self_obj is not None and not isinstance(self_obj, types.ModuleType) and \
            self_obj is not getattr(np.random.mtrand, "_rand", None):
        return f"{type(self_obj).__name__}.{getattr(fn, '__name__', '?')}"  # rng.normal
    parts = [p for p in (mod or owner).split(".")[1:] if not p.startswith("_")]
    if parts[:1] == ["random"] or owner.startswith(("numpy.random", "cupy.random")):
        parts = ["random"]
    prefix = ".".join([{"numpy": "np", "cupy": "cp"}.get(root, root), *parts[:1]])
    return f"{prefix}.{getattr(fn, '__name__', type(fn).__name__)}"
