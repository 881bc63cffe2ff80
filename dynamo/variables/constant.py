"""Python values that are fixed while tracing: numbers, strings, None, slices, dtypes.

Operations on constants run for real at trace time (they are pure), and their
results are constants too. Values that came from outside the trace were guarded
by type and value when they were wrapped, so baking them in is safe.

Example::

    >>> ConstantVariable(2).binary_op("add", ConstantVariable(3)).value
    5
"""

from __future__ import annotations

import operator
import types
from typing import Any

import numpy as np

from dynamo.guards import CONSTANT, EXPR, AttrSource, Guard
from dynamo.guards.type_slots import dict_of, mro_of

from .. import hash_order
from ..exc import Unsupported
from ..ops.quiet import warnings_as
from ..symbolic import Symbolic, SymFloat, SymInt, concrete, is_symbolic
from ..symbolic.float_floors import changing_floor
from ..symbolic.math_calls import math_call
from ..symbolic.number_decisions import decide, plain
from ..symbolic.scalars import Expr, binary, float_operands
from .base import Variable, program_error

# Types whose instances are immutable and whose methods have no side effects. Exact
# types: a subclass (an int subclass, an IntEnum) can define methods in Python.
PURE_TYPES = (int, float, complex, bool, str, bytes, type(None), type(Ellipsis), slice, range,
              type(NotImplemented), frozenset)

BINARY = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": operator.truediv, "floor_divide": operator.floordiv,
    "remainder": operator.mod, "pow": operator.pow, "matmul": operator.matmul,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_, "bitwise_xor": operator.xor,
    "left_shift": operator.lshift, "right_shift": operator.rshift,
    "less": operator.lt, "less_equal": operator.le, "equal": operator.eq,
    "not_equal": operator.ne, "greater": operator.gt, "greater_equal": operator.ge,
}
UNARY = {"negative": operator.neg, "positive": operator.pos, "invert": operator.invert}


def is_pure_constant(value: Any) -> bool:
    if isinstance(value, (tuple, frozenset)):   # named tuples too, unless they compare
        return not compares_in_python(type(value)) and all(is_pure_constant(v) for v in value)
    if isinstance(value, slice):
        return all(is_pure_constant(v) for v in (value.start, value.stop, value.step))
    return type(value) in PURE_TYPES or isinstance(value, (np.generic, np.dtype, Symbolic)) or (
        isinstance(value, type) and (
            issubclass(value, np.generic) or value in (int, float, bool, complex, str)))


# The methods that comparing, hashing and `in` call.
COMPARE_METHODS = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__")
_C_METHODS = (types.WrapperDescriptorType, types.MethodDescriptorType,
              types.BuiltinFunctionType, types.MethodWrapperType)
_C_COMPARED = frozenset(PURE_TYPES + (tuple,))   # (a tuple's items are checked apart)


def compares_in_python(cls: type) -> bool:
    """Whether comparing or hashing instances of ``cls`` can run Python code: a method
    of COMPARE_METHODS that the class (or a base) defines in Python, not in C.

    Such a method is user code, with possible side effects: it must not run while
    tracing (a dict key, a set element, a comparison folded at trace time), only in
    program order (inlined) or eagerly after a graph break."""
    if type(cls) is type and cls in _C_COMPARED:   # (a metaclass's __hash__ is not asked)
        return False
    for name in COMPARE_METHODS:
        method = next((dict_of(k)[name] for k in mro_of(cls) if name in dict_of(k)), None)
        if method is not None and not isinstance(method, _C_METHODS):
            return True
    return False


def compares_in_c(value: Any) -> bool:
    """Whether comparing or hashing ``value`` (and the items of a tuple or frozenset)
    runs only C code, so that it may happen at trace time. Symbolic sizes compare
    through their own guards, symbolic floats pin their value."""
    if isinstance(value, Symbolic):
        return True
    if isinstance(value, (tuple, frozenset)) and not compares_in_python(type(value)):
        return all(compares_in_c(v) for v in value)
    return not compares_in_python(type(value))


class ConstantVariable(Variable):
    def __init__(self, value: Any, source=None):
        self.value = value
        self.source = source

    def describe(self) -> str:
        return f"constant {self.value!r}"

    def python_type(self) -> type:
        if isinstance(self.value, Symbolic):   # what the program sees: an int or a float
            return int if isinstance(self.value, SymInt) else float
        return type(self.value)

    def is_constant(self) -> bool:
        return True

    def as_python_constant(self) -> Any:
        if is_symbolic(self.value):   # the concrete value is needed: pin the sizes
            return concrete(self.value)
        return self.value

    def as_graph_arg(self, output) -> Any:
        if isinstance(self.value, Symbolic):   # stays symbolic: read from symbol inputs
            return output.graph_arg(self.value)
        return self.as_python_constant()

    def as_meta(self) -> Any:
        if isinstance(self.value, Symbolic):   # rules are fitted over it (ShapeEnv.fit)
            return self.value
        return self.as_python_constant()

    def truth(self, tx) -> bool:
        if isinstance(self.value, np.generic):
            return bool(self.value)
        return bool(self.value)

    def unpack(self, tx) -> list[Variable]:
        if isinstance(self.value, (str, bytes, range, tuple, frozenset)):
            check_size(constant_len(self.value), f"unpacking a {type(self.value).__name__}")
            if type(self.value) is frozenset:   # (in an order another process may not share)
                hash_order.note_order(self.value, "iterating a frozenset")
            return [ConstantVariable(v) for v in self.value]
        return super().unpack(tx)

    def binary_op(self, name: str, other: Variable) -> Variable:
        fn = BINARY.get(name)
        if fn is None or not other.is_constant():
            raise Unsupported(f"operator {name} on {self.describe()}")
        try:
            return ConstantVariable(fold(fn, self.value, raw(other)))
        except SignalsAtRunTime as e:
            raise Unsupported(f"operator {name} on NumPy scalars: {e}") from e

    def call(self, tx, args, kwargs) -> Variable:
        """Calling a constant type: ``np.float32(2.0)`` folds; anything else breaks."""
        if isinstance(self.value, type) and issubclass(self.value, np.generic):
            # as the class it is (objects.ClassVariable: it folds, or is a graph op)
            return tx.wrap(self.value, None).call(tx, args, kwargs)
        return super().call(tx, args, kwargs)

    def getattr(self, tx, name: str) -> Variable:
        if name.startswith("__") and name not in ("__class__", "__name__"):
            raise Unsupported(f"dunder attribute {name!r} of a constant")
        # an attribute of a symbolic number is one of its value (``n.bit_length()``,
        # ``n.real``, ``n.__class__`` is int): read from the value, pinned (for a
        # data-dependent size that breaks here). A bound method of the SymInt itself
        # would reach the code after a break, and pin there, outside any trace
        value = self.as_python_constant() if isinstance(self.value, Symbolic) else self.value
        attr = getattr(value, name)
        if callable(attr) and not isinstance(attr, type):
            return BuiltinVariable(attr, pure_method=True)
        if not is_pure_constant(attr):   # (dtype.fields, dtype.descr: a dict, a list)
            raise Unsupported(f"value of type {type(attr).__name__} is not a constant")
        return ConstantVariable(attr)

    def reconstruct(self, cg) -> str:
        if isinstance(self.value, Symbolic):   # a number computed from the inputs at runtime
            return cg.symbolic(self.value)
        if self.source is not None:   # this call's object, not the first call's equal one
            return self.source.expr()
        return cg.const(self.as_python_constant())   # the very object (a code constant)


class NumericInfoVariable(ConstantVariable):
    """An ``np.finfo``/``np.iinfo`` object from outside the trace (an argument, a global,
    an attribute: ``builder.wrap``). Its attributes are constants of its dtype, as those
    of ``np.finfo(x.dtype)`` made in the trace are, but the object is a plain Python one
    the program can write to: NumPy hands out one cached object per dtype, and
    ``fi.eps = 0.5`` changes what every later ``fi.eps`` reads. So each attribute the
    trace reads is guarded by its type and value, as an int argument is::

        fi.eps            ->  the constant np.float32(1.1920929e-07)
                              guard: type(fi.eps) is np.float32 and fi.eps == ___c5
    """

    def describe(self) -> str:
        # (not ``repr``: finfo's ``__repr__`` stores its text in the object, ``_repr``, a
        # write the program would see in ``vars(fi)``; round 24)
        return f"an np.{type(self.value).__name__} object"

    def getattr(self, tx, name: str) -> Variable:
        try:
            attr = super().getattr(tx, name)
        except AttributeError:
            if self.source is not None:   # the program may set it later (fi.made = 1):
                # guard its absence from the object's own __dict__ and its class
                # (finfo/iinfo have no __getattr__: no code of the program runs)
                obj = self.source.expr()
                for test in (f"{name!r} not in {obj}.__dict__",
                             f"not ___builtins.hasattr(___builtins.type({obj}), {name!r})"):
                    tx.output.guards.add(Guard(self.source, EXPR, test,
                                               note=f"attribute {name!r} absent while tracing"))
            raise
        if self.source is not None and isinstance(attr, ConstantVariable):
            tx.output.guards.add(Guard(AttrSource(self.source, name), CONSTANT, attr.value,
                                       note=f"read at {tx.output.location()}"))
        return attr


class SymRangeVariable(ConstantVariable):
    """``range(...)`` of symbolic ints (``range(len(ids))`` of a list that grows).

    As an array index or array data (``wpe[range(len(ids))]``, see
    ``OutputGraph.call_op``) it is ``np.arange(start, stop, step)``, of symbolic length,
    which is what NumPy makes of the range. Any other use reads the range (iterating it,
    ``len``, comparing): ``value`` is the concrete range, and reading it pins the ints."""

    def __init__(self, bounds: tuple):
        self.bounds, self.source, self._array = tuple(bounds), None, None

    @property
    def value(self) -> range:
        return range(*concrete(self.bounds))

    def describe(self) -> str:
        return f"range{self.bounds}"

    def as_data(self, output) -> Variable:
        """``np.arange`` of the bounds: one graph op, made on the first use as data."""
        if self._array is None:
            from .. import ops
            self._array = output.call_op(ops.get("arange"),
                                         [ConstantVariable(b) for b in self.bounds], {})
        return self._array

    def reconstruct(self, cg) -> str:
        """The range at a break (the break before its loop): built from its bounds'
        expressions, not pinned. A bound only the data decides
        (``range(len(np.unique(y)))``) is read from the sizes the graph gives back (it
        cannot be pinned); a changing int over the frame's values (``range(i + 1, n)``
        in an outlined loop body, ``i`` another int each trip) is computed from them
        (``range((L['i'] + 1), 40, 1)``): pinned, the body compiled once per ``i``
        until ``config.cache_size_limit`` (issue #19). A range from outside the trace
        (``changing_ranges``) is the object itself."""
        if self.source is not None:
            return self.source.expr()
        bounds = ", ".join(cg.symbolic(b) if isinstance(b, Symbolic) else cg.const(b)
                           for b in self.bounds)
        return f"{cg.const(range)}({bounds})"


def symbolic_range(args: list[Variable]) -> Variable | None:
    """``range(*args)`` when a bound is a symbolic int and the step a plain one, else
    None (the range is folded as any constant call)."""
    values = [raw(a) if a.is_constant() else None for a in args]
    if not 1 <= len(values) <= 3 or not all(type(v) is int or isinstance(v, SymInt)
                                             for v in values):
        return None
    start, stop, step = (0, values[0], 1) if len(values) == 1 else \
        (values[0], values[1], values[2] if len(values) == 3 else 1)
    if isinstance(step, SymInt) or step == 0 or \
            not (isinstance(start, SymInt) or isinstance(stop, SymInt)):
        return None
    return SymRangeVariable((start, stop, step))


class SignalsAtRunTime(Exception):  # noqa: N818 (control flow, not an error)
    """An operation on NumPy scalars that warns or raises by NumPy's error state."""


def fold(fn, *values, **kwargs) -> Any:
    """``fn(*values, **kwargs)`` while tracing (an operator or a pure function on
    constants, a method of a constant).

    An operation on a NumPy scalar may warn or raise by the program's error state when
    it runs (``np.int8(127) + np.int8(1)`` overflows: a warning, or FloatingPointError
    under ``np.errstate(over="raise")``), every time it runs. Folded, it would do so
    once, while tracing, under the tracer's error state. So it folds only when it does
    neither, checked under ``errstate(all="raise")`` with warnings as errors; otherwise
    this raises ``SignalsAtRunTime`` and the caller makes it a graph op instead.
    (``hash_order`` notes a call that shows a set's order or a string's hash.)"""
    hash_order.note_call(fn, (*values, *kwargs.values()))
    if not _numpy_involved(fn, (*values, *kwargs.values())):
        with warnings_as("error"):
            try:
                return fn(*values, **kwargs)
            except Warning as w:
                # Python's own warning (``~True`` is deprecated on 3.12+): folded, it
                # would be shown once, while tracing; Python runs it at the break, and
                # it warns at every call
                raise Unsupported(f"{getattr(fn, '__name__', fn)} of constants warns "
                                  f"({type(w).__name__}: {w})") from None
            except Exception as e:
                program_error(e, exact=True)   # 1 / 0: Python's own, for `except`
                raise
    with np.errstate(all="raise"), warnings_as("error"):
        try:
            return fn(*values, **kwargs)
        except (FloatingPointError, Warning) as e:
            raise SignalsAtRunTime(str(e)) from e


def _numpy_involved(fn, values) -> bool:
    """A NumPy scalar among the values, or ``fn`` a NumPy scalar type (``np.float32(1e300)``
    overflows) or a method of a NumPy scalar (``np.float64(1e300).astype``)."""
    owner = getattr(fn, "__self__", None)
    return any(isinstance(v, np.generic) for v in (owner, *values)) or \
        (isinstance(fn, type) and issubclass(fn, np.generic))


def operator_on_constants(tx, name: str, args: list) -> Variable:
    """Python's operator ``name`` (a key of BINARY or UNARY) on constant Variables:
    folded (see ``fold``), or a graph op that runs it with the program (it warns or
    raises there, as often and as NumPy's error state then says)."""
    if name in COMPARISONS:
        exact = compared_exactly(name, raw(args[0]), raw(args[1]))
        if exact is not None:
            return ConstantVariable(exact)
    fn = BINARY[name] if len(args) == 2 else UNARY[name]
    values = operands(*args) if len(args) == 2 else (raw(args[0]),)
    if name == "divide" and any(isinstance(v, SymInt) for v in values):
        fn = symbolic_divide   # int / int: a float, whose expression divides the ints
    try:
        return ConstantVariable(_of_inputs(tx, fold(fn, *values)))
    except SignalsAtRunTime:
        from .. import ops
        return tx.output.call_op(ops.operator_op(name, scalars_only=True), list(args), {})


def symbolic_divide(a, b):
    """``a / b`` where a symbolic int meets an int: a SymFloat of the true division of
    the ints (exactly Python's, not of their floats). ``SymInt.__truediv__`` itself pins:
    a SymInt knows nothing of floats."""
    return binary(operator.truediv, a, b)


def _of_inputs(tx, value: Any) -> Any:
    """``value``, pinned if it is a SymFloat over a symbol that is not the trace's input,
    an unbacked size (``1.0 / len(x[m])``, read when the graph runs) nor the index of
    the loop whose body is being traced (``0.1 * t``: a value of the trip, the body's
    input; the loop node checks every use of it, ``LoopScope``)."""
    env, scope = tx.output.shape_env, tx.output.loop_scope
    known = env.symbols.keys() | env.unbacked.keys() | env.unbacked_numbers.keys() | \
        (scope.index_symbols() if scope is not None else set())
    if isinstance(value, SymFloat) and not value.sym.symbols <= known:
        return concrete(value)
    return value


def reads_loop_index(tx, variables) -> bool:
    """Whether a constant among ``variables`` is a number made from the index of the
    loop whose body is being traced (``0.1 * t``): a value of the trip, which a library
    call must take as a graph argument instead of folding it (``np.sin(0.1 * t)``
    folded would pin the index, and the loop would be unrolled)."""
    scope = tx.output.loop_scope
    if scope is None:
        return False
    return any(isinstance(var, ConstantVariable) and isinstance(var.value, Symbolic) and
               scope.index_symbols() & var.value.sym.symbols for var in variables)


def symbolic_number(tx, fn, args: list) -> Variable | None:
    """``float(n)`` of a symbolic int, ``float(x)`` or ``abs(x)`` of a symbolic float
    (``float(t) * dt``, ``abs(0.5 - 0.1 * t)`` of a loop's index), as Python computes
    them: a SymFloat of the same expression (``float`` of an int exactly as Python
    converts it, ``OverflowError`` past 1e308). None for anything else (folded)."""
    if len(args) != 1 or not isinstance(args[0], ConstantVariable):
        return None
    value = args[0].value
    floored = changing_floor(tx.output.shape_env, fn, value)   # int(self.it / 4)
    if floored is not None:
        return ConstantVariable(floored)
    if fn is float and isinstance(value, SymInt):
        return ConstantVariable(_of_inputs(tx, SymFloat.of_int(value)))
    if fn in (float, abs) and isinstance(value, SymFloat):
        return ConstantVariable(_of_inputs(tx, abs(value) if fn is abs else value))
    return None


def symbolic_math(tx, fn, args: list) -> Variable | None:
    """``math.cos(x)``, ``math.exp(-k * t)``, ``math.sqrt(v)`` of a changing number (a
    cosine or exponential learning-rate schedule): a SymFloat that calls the same
    function when the graph runs (``symbolic.math_calls``), instead of reading the value
    and pinning it. None where that does not apply (folded as before)."""
    if not args or not all(isinstance(a, ConstantVariable) for a in args):
        return None
    if len(args) == 1:    # math.floor(1 + self.it / 4): a changing int, not a pin
        floored = changing_floor(tx.output.shape_env, fn, args[0].value)
        if floored is not None:
            return ConstantVariable(floored)
    number = math_call(fn, [a.value for a in args])
    return None if number is None else ConstantVariable(_of_inputs(tx, number))


def raw(var: Variable) -> Any:
    """A constant's value, symbolic sizes allowed (for arithmetic and comparisons)."""
    return var.value if isinstance(var, ConstantVariable) else var.as_python_constant()


def operands(a: Variable, b: Variable) -> tuple:
    """Two constants for a binary operator. Symbolic ints stay symbolic against ints,
    and against floats as SymFloats (``0.9 ** t``: float's own method would read the
    hint without telling anyone, so the int is made a float first, as Python does).
    Against anything else (a NumPy scalar, a complex) they are pinned first."""
    x, y = _int_partner(*float_operands(raw(a), raw(b)))
    if (isinstance(x, SymInt) and not isinstance(y, int)) or \
            (isinstance(y, SymInt) and not isinstance(x, int)) or \
            (isinstance(x, SymFloat) and not _plain_number(y)) or \
            (isinstance(y, SymFloat) and not _plain_number(x)):
        return concrete(x), concrete(y)
    return x, y


COMPARISONS = frozenset({"less", "less_equal", "greater", "greater_equal", "equal",
                         "not_equal"})


def compared_exactly(name: str, x, y) -> bool | None:
    """The comparison ``name`` of a symbolic int and a float as Python compares them:
    exactly, not as ``float(int)`` (``2**53 + 1 > 2.0**53`` is True, ``float(2**53 + 1)
    > 2.0**53`` is not), so the int is not made a SymFloat as for arithmetic
    (``operands``). An order is a decision guarded by its outcome over the int itself
    (``L['t'] > 9007199254740992.0``, which Python evaluates exactly too); ``==`` and
    ``!=`` read the int (pinned), as for floats. None where no symbolic int meets a
    Python float (a NumPy scalar: ``operands`` pins both).

        >>> t = SymInt(2 ** 53 + 1, Sym.symbol("s0", "L['t']"))
        >>> compared_exactly("greater", t, 2.0 ** 53)
        True
    """
    def plain_float(v):
        return type(v) is float or isinstance(v, SymFloat)
    if not (isinstance(x, SymInt) and plain_float(y) or
            isinstance(y, SymInt) and plain_float(x)):
        return None
    fn = BINARY[name]
    if name in ("equal", "not_equal"):
        return plain(fn, x, y)
    return decide(fn, x, y, Expr.of)


def _int_partner(x, y) -> tuple:
    """A symbolic int's partner that is an int of another type made a plain int (a
    bool) or the pair pinned (any other int subclass). Python tries a right operand's
    reflected method first only when its type subclasses the left one's: ``True * i``
    and ``True < i`` run ``int``'s own method on the SymInt's hint, a plain result
    with no expression and no guard (``h * i`` with ``h = True`` was baked at the
    trace's ``i``). A bool's arithmetic and comparisons with an int are ``int``'s, so
    ``int(True)`` gives the same value; a subclass may have its own methods.

        >>> i = SymInt(5, Sym.symbol("s0", "L['i']"))
        >>> _int_partner(True, i)           # True * i is then 1 * i: SymInt's __rmul__
        (1, SymInt(5, s0))
    """
    for a, b in ((x, y), (y, x)):
        if isinstance(a, SymInt) and isinstance(b, int) and type(b) is not int and \
                not isinstance(b, SymInt):
            if type(b) is bool:
                return (a, int(b)) if a is x else (int(b), a)
            return concrete(x), concrete(y)
    return x, y


def _plain_number(value: Any) -> bool:
    """A Python int, float or bool, or a symbolic one (a SymFloat's partner operand)."""
    return type(value) in (int, float, bool) or isinstance(value, Symbolic)


class BuiltinVariable(Variable):
    """A builtin function (``len``), a function of ``math``, or a method of a constant.

    Calling it is modelled in :mod:`dynamo.variables.builtins`, a module above this one:
    the translator passes the call there (``tx.call_builtin``)."""

    def __init__(self, fn: Any, pure_method: bool = False, source=None):
        self.fn, self.pure_method, self.source = fn, pure_method, source

    def describe(self) -> str:
        return f"builtin {getattr(self.fn, '__qualname__', self.fn)}"

    def python_type(self) -> type:
        return type(self.fn)

    def is_constant(self) -> bool:
        return not self.pure_method

    def as_python_constant(self) -> Any:
        return self.fn

    def call(self, tx, args, kwargs) -> Variable:
        return tx.call_builtin(self, list(args), dict(kwargs))

    def reconstruct(self, cg) -> str:
        owner = getattr(self.fn, "__self__", None)
        if self.source is not None and \
                not (owner is None or isinstance(owner, (types.ModuleType, type))):
            # a method bound to an object (``g.send``): as a constant of the glue it would
            # keep that object alive as long as the compiled code (a generator in a
            # reference cycle never collected); read it where the program has it
            return self.source.expr()
        return cg.const(self.fn)


# The most items the translator takes out of one iterable at once (``list(r)``,
# ``a, *b = r``, ``x * n``): past it, the program runs eagerly instead of the trace
# holding millions of Variables (``list(range(10**9))``). Loops are bounded separately,
# one iteration at a time, by ``config.max_unroll``.
MAX_ITEMS = 1 << 16


def check_size(n: int, what: str) -> None:
    """Refuse to build ``n`` Variables for ``what`` when ``n`` is past ``MAX_ITEMS``."""
    if n > MAX_ITEMS:
        raise Unsupported(f"{what} of {n} items is too big to trace (more than "
                          f"{MAX_ITEMS})", "Python builds it when the program runs.")


def constant_len(value) -> int:
    """``len(value)``, also for a range too long for ``len`` (OverflowError)."""
    if isinstance(value, range):
        step = value.step
        span = value.stop - value.start + (step - 1 if step > 0 else step + 1)
        return max(0, span // step)
    return len(value)
