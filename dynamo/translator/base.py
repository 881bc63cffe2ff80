"""The symbolic stack machine: one loop, and the Python semantics its handlers share.

The loop is as plain as a staging interpreter gets: fetch the instruction, advance,
call the handler named after the opcode. Handlers live in mixins grouped by family
(stack_ops, names, operators, calls, control_flow, containers) and express Python
semantics through the helpers below (``binary_op``, ``getattr``, ``call_function``,
``unpack_iterable``...), which dispatch to the Variables. Its parts: ``identity.py``
(``a is b``), ``inline_checks.py`` (whether a call can be inlined), ``binding.py``
(an inlined call's arguments bound to its parameters).

Example::

    >>> tx = InliningTranslator(helper.__code__, output, {"x": x_var}, {}, globals(), parent)
    >>> tx.run(); tx.result
    ArrayVariable(...)
"""

from __future__ import annotations

import inspect
import operator
import weakref
from typing import Any

import numpy as np

from dynamo.guards import ID, Guard
from dynamo.guards.type_slots import qualname_of

from .. import listeners, ops
from ..bytecode.instructions import CodeInfo, Inst
from ..exc import Unsupported
from ..skipfiles import is_skipped
from ..symbolic import Symbolic, SymFloat, pin
from ..variables import (
    NULL,
    ArrayVariable,
    BaseFunctionVariable,
    CellVariable,
    ConstantVariable,
    DictVariable,
    GeneratorVariable,
    IteratorVariable,
    ListVariable,
    SequenceVariable,
    SliceVariable,
    TupleVariable,
    Variable,
    wrap,
    wrap_constant,
)
from ..variables.arrays import DeferredNumberVariable, FlatVariable, holds_deferred
from ..variables.base import is_program_error
from ..variables.builtins import HANDLERS, call_builtin
from ..variables.constant import BINARY, fold, operator_on_constants
from ..variables.container_ops import container_binary_op
from ..variables.conversions import ArrayToPythonVariable, needs_deferred_value
from ..variables.deques import DequeVariable
from ..variables.formatted import concat_texts
from ..variables.graph_numbers import as_graph_number
from ..variables.iteration import ChosenNumberVariable, resolve_chosen
from ..variables.iterators import get_iterator
from ..variables.layout_flags import FlagsVariable
from ..variables.library_calls import IndexerVariable
from ..variables.random_objects import new_random_object
from ..variables.size_values import truth_number, truth_operands
from . import compare
from .binding import bind_arguments
from .deferred_prints import defer_print
from .exceptions import SymbolicRaise
from .float_indices import int_index_of_float
from .identity import is_same_object
from .inline_checks import check_inline
from .math_of_arrays import math_of_array
from .picked_items import picked_text
from .picked_numbers import picked_binary
from .raising_checks import equal_sizes_check, finite_check
from .stored_numbers import stored_value


def _graph_operands(tx, a: Variable, b: Variable) -> tuple[Variable, Variable]:
    """``a`` and ``b`` of a binary operator through ``as_graph_number`` where each is
    an array or a number (``float(loss) * 2``, ``x * float(s)``); as they are otherwise
    (``[0] * float(s)``: Python's own error, which names ``float``)."""
    def number_like(v):
        return isinstance(v, ArrayVariable) or getattr(v, "graph_number", False) or \
            isinstance(v, ConstantVariable) and (type(v.value) in (int, float, bool) or
                                                 isinstance(v.value, Symbolic))
    if not (number_like(a) and number_like(b)):
        return a, b
    return as_graph_number(tx, a), as_graph_number(tx, b)


_PYTHON_ERRORS = (AttributeError, KeyError, IndexError, TypeError, ValueError,
                  ZeroDivisionError, OverflowError, NameError, StopIteration)
ASYNC_FLAGS = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE


class TranslatorBase:
    """State of one frame being traced. Subclasses: root frame, inlined call."""

    def __init__(self, code, output, local_vars: dict[str, Variable],
                 cells: dict[str, CellVariable], fn_globals: dict, parent=None):
        self.code = code
        self.info = CodeInfo.of(code)
        self.output = output
        self.config = output.config
        self.locals = local_vars
        self.cells = cells
        self.fn_globals = fn_globals
        self.parent = parent
        self.stack: list[Variable] = []
        self.ip = self.info.entry
        self.kw_names: tuple[str, ...] = ()
        self.result: Variable | None = None
        self.done = False
        self.suspended = False   # a generator stopped at YIELD_VALUE
        self.yielded: Variable | None = None
        self.backward_jumps = 0
        self.loop_progress: dict[int, tuple] = {}   # id(iterator) -> (it, jumps so far)
        self.loop_arrivals: dict[int, int] = {}     # id(iterator) -> FOR_ITERs on it (loops)
        self.current: Inst | None = None
        # compile listeners of each step, read once per frame: none, no cost per step
        self.step_listeners = listeners.of("on_step")
        # the output's check that two sizes are equal, at this frame's instruction; weak
        # (output -> translator would be a cycle that keeps the frame's values alive)
        self.size_checker = weakref.WeakMethod(self.check_equal_sizes)

    def check_equal_sizes(self, equations: list, error: Unsupported) -> bool:
        """``raising_checks.equal_sizes_check`` at this frame's instruction."""
        return equal_sizes_check(self, equations, error)

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        while not self.done and not self.suspended:
            self.step()

    def step(self) -> None:
        if self.step_listeners:
            for listener in self.step_listeners:
                listener(self)
        inst = self.info.insts[self.ip]
        self.current = inst
        self.ip += 1
        self.output.current_loc = self.location(inst)
        self.output.catching = self.in_try()
        self.output.size_checker = self.size_checker
        handler = getattr(self, inst.name, None)
        if handler is None:
            raise Unsupported(f"opcode {inst.name} is not supported", cause="opcode")
        before = (len(self.output.graph), self.output.side_effects.version)
        try:
            handler(inst)
        except SymbolicRaise as e:
            # the program raises an exception that a handler of the trace may catch
            self.unwind(e)
        except _PYTHON_ERRORS as e:
            if is_program_error(e) and self.in_try() and \
                    before == (len(self.output.graph), self.output.side_effects.version):
                # ...or Python raises it here (`d[k]` of a missing key), before any effect.
                # Its traceback holds the translator's frames, and through them the
                # call's arguments; the raise site's local that named it closes a cycle
                # that kept those values alive until the cyclic GC (a `__del__` ran late)
                e.__traceback__ = None
                python_error = self.python_error(e)
                if python_error is not None:
                    self.unwind(SymbolicRaise(python_error, self))
                    return
            # The program itself raises here (a missing attribute, a bad key...): the
            # instruction runs eagerly at a graph break, and Python raises it for real.
            raise Unsupported(f"{type(e).__name__}: {e}",
                              "Python raises this error here when the program runs.",
                              cause="python_error") from e

    def in_try(self) -> bool:
        """Whether an exception raised here reaches an ``except`` or ``finally`` of
        this frame or of a frame it was inlined into."""
        tx = self
        while tx is not None:
            if tx.current is not None and tx.current.index in tx.info.catching:
                return True
            tx = tx.parent
        return False

    def location(self, inst: Inst) -> dict:
        loc = {"loc": f"{self.code.co_filename}:{inst.lineno}",
               "source_line": self.info.source_line(inst.lineno),
               "frame": self.code.co_qualname}
        root = self
        while root.parent is not None:
            root = root.parent
        if root.code.co_filename != self.code.co_filename and root.current is not None:
            # inlined from another file: where the compiled function calls into it (the
            # graph's code runs as the compiled function's lines, see dynamo/source.py)
            loc["site"] = f"{root.code.co_filename}:{root.current.lineno}"
        return loc

    def depth(self) -> int:
        return 0 if self.parent is None else self.parent.depth() + 1

    # ------------------------------------------------------------------ stack
    def push(self, var: Variable) -> None:
        self.stack.append(var)

    def pop(self) -> Variable:
        return self.stack.pop()

    def popn(self, n: int) -> list[Variable]:
        if n == 0:
            return []
        items = self.stack[-n:]
        del self.stack[-n:]
        return items

    def jump(self, inst: Inst) -> None:
        if inst.target <= inst.index:
            self.backward_jumps += 1
            if self.backward_jumps > self.config.max_unroll:
                raise Unsupported(f"loop ran more than config.max_unroll "
                                  f"({self.config.max_unroll}) iterations while tracing",
                                  "Loops are unrolled into the graph; this one is too long.",
                                  hint="raise dynamo.config.max_unroll, or vectorize the loop",
                                  cause="unroll_budget")
        self.ip = inst.target

    # ------------------------------------------------------------------ Python semantics
    def binary_op(self, name: str, a: Variable, b: Variable, inplace: bool = False) -> Variable:
        picked = picked_binary(self, name, a, b)   # count += 1 in a loop node's body
        if picked is not None:
            return picked
        a, b = _graph_operands(self, a, b)   # float(loss) * 2, x * float(s)
        a, b = truth_operands(self, name, a, b)   # x * (len(kept) > 0), (n > 0) + 1
        if isinstance(a, ArrayVariable) or isinstance(b, ArrayVariable):
            a, b = resolve_chosen(self, name, a, b)   # g * min(1.0, r): see iteration.py
            # a NumPy scalar is immutable: s += t rebinds s, like s = s + t
            if isinstance(a, ArrayVariable) and inplace and not a.meta.scalar:
                if name == "pow":
                    return self.output.call_op(ops.get("ipow"), [a, b], {})
                if name == "matmul":
                    raise Unsupported("in-place matmul (@=)")
                return self.output.call_op(ops.get(name), [a, b], {"out": a})
            needs_deferred_value(a, b)   # x * float(s): the conversion's own break
            _check_operand(a)
            _check_operand(b)
            op = ops.operator_op(name, scalars_only=_scalar_operand(a) and _scalar_operand(b))
            return self.output.call_op(op, [a, b], {})
        result = container_binary_op(self, name, a, b, inplace)   # lists, tuples, sets...
        if result is None:
            result = concat_texts(name, a, b)   # "x: " + f"{m:.3f}": by the glue
        if result is not None:
            return result
        if a.is_constant() and b.is_constant() and name in BINARY:
            result = operator_on_constants(self, name, [a, b])   # folded, if it cannot warn
            _pin_raising_in_try(self, result)
            return result
        needs_deferred_value(a, b)   # float(x) + 1: the conversion's own break
        raise Unsupported(f"operator {name} on {a.describe()} and {b.describe()}")

    def unary_op(self, name: str, value: Variable) -> Variable:
        value = as_graph_number(self, value)   # -float(loss)
        value = truth_number(self, name, value)   # -(len(kept) > 0): -1 or 0, an int
        if isinstance(value, ArrayVariable):
            op = ops.operator_op(name, scalars_only=value.meta.scalar)
            return self.output.call_op(op, [value], {})
        if value.is_constant():
            return operator_on_constants(self, name, [value])   # folded, if it cannot warn
        needs_deferred_value(value)   # -float(x), -min(1.0, s): the value's own break
        raise Unsupported(f"unary {name} of {value.describe()}")

    def compare(self, name: str, a: Variable, b: Variable) -> Variable:
        """``a == b``, ``a < b``...: CPython's protocol of rich comparison (compare.py)."""
        return compare.rich_compare(self, name, a, b)

    def defer_print(self, args: list, kwargs: dict, error: Unsupported) -> Variable:
        """``print(...)`` replayed by the glue after the graph, or ``error``, its break
        (``deferred_prints.defer_print``; called by ``variables.builtins``)."""
        return defer_print(self, args, kwargs, error)

    def finite_check(self, array: ArrayVariable, error: Unsupported) -> None:
        """``int(x)`` of a 0-d float array: a graph check that ``x`` is finite, or
        ``error`` (``raising_checks.finite_check``; called by ``variables.conversions``)."""
        finite_check(self, array, error)

    def same_value(self, a: Variable, b: Variable) -> bool:
        """``a is b or a == b``: how lists, tuples and dicts compare their items."""
        return compare.compare_bool(self, a, b)

    def is_same_object(self, a: Variable, b: Variable) -> bool:
        """``a is b`` (identity.py)."""
        return is_same_object(self, a, b)

    def contains(self, container: Variable, item: Variable) -> bool:
        """``item in container`` (compare.py)."""
        return compare.contains(self, container, item)

    def getattr(self, obj: Variable, name: str) -> Variable:
        return obj.getattr(self, name)

    def setattr(self, obj: Variable, name: str, value: Variable) -> None:
        obj.setattr(self, name, value)

    def _array_index(self, index: Variable) -> Variable:
        """An array index, with each Python int the glue would compute from a 0-d array
        (``int()`` of a traced integer array, a drawn ``np.random.randint(n)``: a
        ``DeferredNumberVariable``) in it, alone or in a tuple, read in the graph as the
        NumPy integer scalar ``a[()]``.

        ``k = int(np.argmax(d)); best = x[k]; M[k, 0] = 0`` needs no break: NumPy
        indexes with a NumPy integer scalar exactly as with the Python int ``int()``
        gives (a basic index: the same view, element, ``IndexError`` and message), where a
        0-d array index would be an advanced one (a copy). Bool 0-d arrays stay a break:
        ``np.bool_`` is a mask index, not 0 or 1.
        """
        if isinstance(index, TupleVariable) and \
                any(holds_deferred(v) for v in index.items):
            return TupleVariable([self._array_index(v) for v in index.items])
        if isinstance(index, SliceVariable) and holds_deferred(index):
            # x[:n] with n = int(counts[0]): the bound is that NumPy integer, so the
            # slice's length is an unbacked size (ops.indexing.array_bounded_meta)
            return SliceVariable(*[self._array_index(v) for v in index.parts])
        if isinstance(index, DeferredNumberVariable) and index.fn is int and \
                index.snapshot.meta.dtype.kind in "iu":
            if index.snapshot.meta.scalar:   # a NumPy integer: s[()] is s itself
                return index.snapshot
            return self.output.call_op(ops.get("getitem"),
                                       [index.snapshot, ConstantVariable(())], {})
        if isinstance(index, ArrayToPythonVariable) and index.fn is int and \
                index.snapshot.meta.dtype.kind == "f":   # (finite: checked by int())
            return int_index_of_float(self, index.snapshot) or _index_var(index)
        if isinstance(index, ChosenNumberVariable):   # X[min(idx, n - 1)]: the select
            return index.integer_index(self) or _index_var(index)
        return _index_var(index)

    def getitem(self, obj: Variable, index: Variable) -> Variable:
        if isinstance(obj, ArrayVariable):
            return self.output.call_op(ops.get("getitem"), [obj, self._array_index(index)], {})
        if isinstance(obj, (SequenceVariable, DictVariable, FlatVariable, IndexerVariable,
                            FlagsVariable, DequeVariable)):
            try:
                return obj.getitem(self, index)
            except Unsupported as error:   # names[i] of a graph int: picked by the glue
                picked = picked_text(self, obj, index, error)
                if picked is None:
                    raise
                return picked
        if obj.is_constant() and index.is_constant():
            container = obj.as_python_constant()
            _check_class_subscript(container)
            # folded: an IndexError or KeyError is Python's own (program_error)
            return wrap_constant(fold(operator.getitem, container, index.as_python_constant()))
        raise Unsupported(f"subscript of {obj.describe()}")

    def setitem(self, obj: Variable, index: Variable, value: Variable) -> None:
        if isinstance(obj, ArrayVariable):
            value = stored_value(obj, value)   # out[i] = int(s) of an int64 s: s itself
            self.output.call_op(ops.get("setitem"), [obj, self._array_index(index), value],
                                {})
        elif isinstance(obj, (ListVariable, DictVariable, FlatVariable)):
            obj.setitem(self, index, value)
        else:
            raise Unsupported(f"item assignment on {obj.describe()}")

    def call_function(self, fn: Variable, args: list[Variable],
                      kwargs: dict[str, Variable]) -> Variable:
        return fn.call(self, args, kwargs)

    def unpack_iterable(self, var: Variable) -> list[Variable]:
        return var.unpack(self)

    def get_iter(self, var: Variable) -> IteratorVariable:
        return get_iterator(self, var)

    def dict_items(self, var: Variable) -> dict[Any, Variable]:
        if isinstance(var, DictVariable):
            return dict(var.items)
        out = {}
        for pair in self.unpack_iterable(var):
            k, v = self.unpack_iterable(pair)
            out[k.as_python_constant()] = v
        return out

    def guard_identity(self, source, value) -> None:
        self.output.guards.add(Guard(source, ID, value))

    # ------------------------------------------------------------------ for the Variables
    # What a Variable needs from a module above its own (see dynamo/variables/__init__).
    def wrap(self, value: Any, source) -> Variable:
        """The Variable of a value from outside the trace, read from ``source`` (None:
        no guard; a library function or type the trace met as a constant)."""
        return wrap(self, value, source)

    def new_random_object(self, fn, args: list[Variable],
                          kwargs: dict[str, Variable]) -> Variable:
        """``np.random.default_rng(n)``/``RandomState(n)``: the object the graph makes
        (:func:`dynamo.variables.random_objects.new_random_object`)."""
        return new_random_object(self, fn, args, kwargs)

    def call_builtin(self, fn: Variable, args: list[Variable],
                     kwargs: dict[str, Variable]) -> Variable:
        """A call of a BuiltinVariable: the model in :mod:`dynamo.variables.builtins`
        (``math.sqrt(x.sum())`` of array data first: ``math_of_arrays``)."""
        number = math_of_array(self, getattr(fn, "fn", None), args, kwargs)
        return call_builtin(self, fn, args, kwargs) if number is None else number

    def builtin_handler(self, fn: Any):
        """The model of the builtin ``fn`` (``tuple``, ``range``...), or None."""
        return HANDLERS.get(fn)

    # ------------------------------------------------------------------ inlining
    def inline_user_function(self, fn: BaseFunctionVariable, args: list[Variable],
                             kwargs: dict[str, Variable]) -> Variable:
        code = fn.get_code()
        check_inline(self, fn, code)   # library code, a frame reader, too deep: a break
        defaults, kwdefaults = fn.defaults(self)
        local_vars = bind_arguments(code, args, kwargs, defaults, kwdefaults)
        cells: dict[str, CellVariable] = {}
        for name in code.co_cellvars:
            cells[name] = CellVariable(local_vars.pop(name, None))
        for name, cell in zip(code.co_freevars, fn.closure_cells(self)):
            cells[name] = cell
        if code.co_flags & ASYNC_FLAGS:
            raise Unsupported("async functions are not traced", cause="generator")
        sub = self.inliner(code, local_vars, cells, fn.get_globals())
        if code.co_flags & inspect.CO_GENERATOR:
            return GeneratorVariable(sub)  # runs lazily, one yield per next()
        sub.run()
        return sub.result

    def inliner(self, code, local_vars: dict[str, Variable], cells: dict[str, CellVariable],
                fn_globals: dict) -> TranslatorBase:
        """A translator for a user function this frame calls, sharing its output graph:
        an ``InliningTranslator``, defined with the opcode handlers in ``frames``."""
        raise NotImplementedError


def _scalar_operand(var: Variable) -> bool:
    """A NumPy scalar or a Python number: Python's operators on these take NumPy's
    scalar path, not the ufunc's (see ``ops.operator_op``)."""
    if isinstance(var, ArrayVariable):
        return var.meta.scalar
    return isinstance(var, ConstantVariable) and \
        isinstance(var.value, (int, float, complex, np.generic))


def _check_operand(var: Variable) -> None:
    if not isinstance(var, ArrayVariable) and not var.is_constant():
        raise Unsupported(f"array operator with {var.describe()}")


def _check_class_subscript(container) -> None:
    """``Cls[item]`` runs ``Cls.__class_getitem__`` (or the metaclass's ``__getitem__``):
    folded while tracing only when that is library code (``list[int]``, typing, enum);
    the program's own runs when the program does (it may have effects)."""
    if not isinstance(container, type):
        return
    hook = inspect.getattr_static(type(container), "__getitem__", None)
    if hook is None:
        hook = inspect.getattr_static(container, "__class_getitem__", None)
    fn = getattr(hook, "__func__", hook)
    code = getattr(fn, "__code__", None)
    if code is not None and not is_skipped(code):
        raise Unsupported(f"{qualname_of(container)}[...] runs the program's "
                          f"{fn.__qualname__}", "It may have effects; it runs when the "
                          "program runs.", cause="user_class_getitem")


def _index_var(index: Variable) -> Variable:
    """Array indices: lists of constants become tuples' cousins NumPy expects (arrays)."""
    if isinstance(index, (ConstantVariable, ArrayVariable, TupleVariable, SliceVariable,
                          ListVariable)):
        return index
    if index.is_constant():
        return index
    raise Unsupported(f"array index {index.describe()}")


__all__ = ["NULL", "TranslatorBase", "bind_arguments"]


def _pin_raising_in_try(tx, result: Variable) -> None:
    """A Python number computed from changing values that may raise (``1 / (c - k)``,
    ``Expr.raises``) inside the program's own ``try`` keeps those values static: the
    glue computes such a number after the graph, outside the ``try``, so its
    ``ZeroDivisionError`` would skip the ``except``/``finally`` (issue #17; random
    state program 20300). Pinned, a value that raises misses the entry and the trace
    follows the raise into the handler, as Python does."""
    value = getattr(result, "value", None)
    if isinstance(value, SymFloat) and value.sym.raises and tx.in_try():
        pin(value.sym.symbols, "a number that may raise, computed inside a try")
