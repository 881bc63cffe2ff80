"""Calls of library functions: ``LibraryFunctionVariable`` (``np.exp``, ``cp.matmul``,
``np.float32``) becomes a graph node through the op registry, or folds to a constant
while tracing (a pure function of constants: ``np.sqrt(2.0)``, ``np.dtype("f4")``), or
breaks with the reason it cannot be captured. Also library objects whose subscription
is an op (``IndexerVariable``: ``np.mgrid``) and methods that are one op taking their
object first (``OpMethodVariable``: ``np.maximum.accumulate``, ``rng.normal``).

Example::

    >>> LibraryFunctionVariable(np.exp).call(tx, [x], {})   # x an ArrayVariable:
    ...                                                      # the node exp(x)
    >>> v = LibraryFunctionVariable(np.sqrt).call(tx, [ConstantVariable(4.0)], {})
    >>> type(v).__name__, v.value                            # folded while tracing
    ('ConstantVariable', np.float64(2.0))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import ops
from ..exc import Unsupported
from ..ops.quiet import warnings_as
from ..symbolic import Symbolic
from ..symbolic.sizes import pin
from .arrays import (
    DATA_DEPENDENT,
    DATA_TO_PYTHON,
    ArrayVariable,
    ComparedBoolVariable,
    call_library,
)
from .base import Variable
from .constant import (
    ConstantVariable,
    SignalsAtRunTime,
    fold,
    is_pure_constant,
    raw,
    reads_loop_index,
)
from .folding import array_fact, is_array_fact
from .library_names import _is_random_state, library_name, library_root
from .linspace_step import linspace_with_step
from .ndindex import ndindex_of
from .number_casts import number_cast
from .polynomials import Poly1dVariable, make_poly1d, poly1d_function, polyval
from .sequences import SequenceVariable, TupleVariable, wrap_constant
from .size_values import count_cast, holds_size


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

    def _cast_in_graph(self, tx, args, kwargs) -> bool:
        """Is this a NumPy scalar type called on one value that the graph casts when it
        runs: an array (``np.float32(x.sum())``), a count (``np.float64(len(kept))``:
        ``size_values.count_cast``) or a changing number (``np.float32(self.n)``:
        ``number_casts.number_cast``, an int type's range guarded)?"""
        if not (isinstance(self.fn, type) and issubclass(self.fn, np.generic)
                and len(args) == 1 and not kwargs):
            return False
        arg = args[0]
        return isinstance(arg, ArrayVariable) or \
            holds_size(tx, arg) and count_cast(self.fn, arg.value) or \
            number_cast(self.fn, arg)

    def call(self, tx, args, kwargs) -> Variable:
        name = getattr(self.fn, "__name__", "")
        if is_array_fact(self.fn) and \
                any(isinstance(a, ArrayVariable) for a in [*args, *kwargs.values()]):
            return _array_fact(self.fn, args, kwargs)   # np.shape(x): from the meta
        if self.fn is np.ix_ and ops.lookup_function(self.fn) is None:
            return _open_mesh(tx, args, kwargs)
        if self.fn is np.linspace:      # retstep=True: (samples, step), the step a constant
            with_step = linspace_with_step(tx, args, kwargs)
            if with_step is not None:
                return with_step
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
        if hit is None and self._cast_in_graph(tx, args, kwargs):
            return tx.output.call_op(ops.get("scalar_cast"), [args[0], ConstantVariable(
                self.fn)], {})
        if hit is None and isinstance(self.fn, type) and issubclass(self.fn, np.generic) \
                and len(args) == 1 and not kwargs and holds_size(tx, args[0]) and \
                np.dtype(self.fn).kind in "iu":   # np.int32(n), np.int64(n + 1): a break
            pin(args[0].value.sym.symbols, f"{library_name(self.fn)}() of it, which "
                "overflows for some values (np.int64() of a count itself stays in the "
                "graph)")
        if hit is None and ops.is_dtype_query(self.fn) and \
                any(isinstance(a, ArrayVariable) for a in [*args, *kwargs.values()]):
            return _fold_dtype_query(self.fn, args, kwargs)  # np.result_type(x, y)
        # np.poly1d and its objects: breaks whose hint is np.polyval (dynamo/hints.py);
        # an isinstance test, as no set lookup can take them (poly1d is unhashable)
        if hit is None and self.fn is np.poly1d:
            made = make_poly1d(tx, list(args), kwargs)   # its coefficients in the graph
            if made is not None:
                return made
            raise Unsupported("np.poly1d(...) makes a polynomial object",
                              cause="unregistered_function")
        if self.fn is np.polyval and args and isinstance(args[0], Poly1dVariable) and \
                len(args) == 2 and not kwargs:   # NumPy reads p as np.asarray(p): coeffs
            return polyval(tx, args[0].coeffs, args[1])
        poly = poly1d_function(tx, self.fn, list(args), kwargs)   # np.polyder(p)...
        if poly is not None:
            return poly
        if isinstance(self.fn, np.poly1d):
            raise Unsupported("calling an np.poly1d object", cause="unregistered_function")
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
            index_loop = ndindex_of(args, kwargs) if self.fn is np.ndindex else None
            if index_loop is not None:   # for i, j in np.ndindex(*a.shape): static tuples
                return index_loop
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
        if isinstance(self.fn, np.poly1d):   # p.coeffs: say what p is, not ufunc facts
            raise Unsupported(f"attribute {name!r} of an np.poly1d object",
                              cause="unregistered_function")
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


_PURE_LIBRARY_FUNCTIONS = (np.dtype, np.result_type, np.promote_types, np.can_cast, np.isscalar,
                           np.ndim, np.shape, np.size, np.finfo, np.iinfo, np.issubdtype,
                           *([np.isdtype] if hasattr(np, "isdtype") else []))
# Objects those make that are constants too: NumPy caches one per dtype, and their
# attributes (eps, tiny, max, bits...) are NumPy scalars and ints fixed for the dtype
_STATIC_OBJECTS = (np.finfo, np.iinfo)


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
    # by identity: ``fn`` may be an unhashable callable object (an ``np.poly1d``)
    return any(fn is f for f in _PURE_LIBRARY_FUNCTIONS) or \
        (isinstance(fn, type) and issubclass(fn, np.generic))


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


def _foldable_op(fn, op, args, kwargs) -> bool:
    """A NumPy function of constants whose result is a constant runs while tracing
    (``np.sqrt(2.0)``, ``np.prod((2, 3))``); random, creating and writing ops never do."""
    return (library_root(fn) == "numpy" and not op.random and
            op.kind not in (ops.CREATION, ops.MUTATION) and
            all(_is_static(a) for a in [*args, *kwargs.values()]))


def _is_static(var: Variable, _open: frozenset = frozenset()) -> bool:
    """A constant, or a list or tuple of them (``np.max([1.0, 2.0])``): a NumPy function
    can take it while tracing (it gets a fresh copy of a list). Not a number that
    changes between calls (a SymInt or SymFloat: ``np.exp(-k * step)``): folding would
    pin it to this call's value, where a graph node takes it as an input. Not a list
    that holds itself (``new.append(new); np.stack(new)``): ``_open``, the lists looked
    into, ends the walk there (it recursed without end, an internal error; #17)."""
    if isinstance(var, ConstantVariable) and isinstance(var.value, Symbolic):
        return False
    if var.is_constant():
        return True
    if any(getattr(var, name, None) is not None for name in ("rows", "data", "held_data",
                                                "ring_rows")) \
            and getattr(var, "held_unread", var.is_unread)():
        return False      # a list of arrays or numbers, unread: reading it would guard
                          # its length (and items): the graph takes it as data (a
                          # reversed window too: ``list_windows._view``)
    return isinstance(var, SequenceVariable) and id(var) not in _open and \
        all(_is_static(i, _open | {id(var)}) for i in var.items)


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
