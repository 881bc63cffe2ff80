"""The base of every symbolic value the translator keeps on its stack and in locals.

A ``Variable`` stands for one Python value during tracing. It answers the questions
the opcode handlers ask (attribute, call, truth value, iteration) either with
another Variable, or by raising ``Unsupported`` (a graph break). It also knows how
to rebuild itself after the graph ran (``reconstruct``), as an expression in the
generated glue code.

Variables are the lowest layer of the frontend: they import nothing from the translator,
the output graph or the code generator. What they need from above comes in through the
arguments of their methods: ``tx`` (the translator: ``tx.output`` the graph being built,
``tx.wrap(value, source)`` for a value from outside the trace, ``tx.call_function``...)
and ``cg`` (the glue code generator, :class:`dynamo.codegen.GlueCodegen`). Inside
``dynamo/variables/`` the modules are layered too (see ``__init__``).

Example::

    >>> v = ConstantVariable(3)
    >>> v.as_python_constant()
    3
"""

from __future__ import annotations

import itertools
from typing import Any

from dynamo.guards.type_slots import defines, flags_of, is_builtin_class

from ..exc import Unsupported

# every Variable's birth number, in the order the trace made them (``Variable.born``)
_BIRTHS = itertools.count()


def births_so_far() -> int:
    """A birth number no Variable made before this call has, and every one made after
    it exceeds: ``var.born >= births_so_far()`` taken when a loop body's trace began
    says ``var`` is one of the body's own lists and objects, which it may change
    (``loop_body_state.BodyState._made_in_body``)."""
    return next(_BIRTHS)


class Variable:
    source = None  # a guards.Source when the value came from outside the trace
    born = -1      # when the trace made it (``_BIRTHS``); a copy keeps its original's

    def __new__(cls, *args, **kwargs):
        self = object.__new__(cls)
        self.born = next(_BIRTHS)
        return self

    # ------------------------------------------------------------------ queries
    def python_type(self) -> type:
        raise Unsupported(f"type() of {self.describe()}")

    def is_constant(self) -> bool:
        return False

    def as_python_constant(self) -> Any:
        raise Unsupported(f"{self.describe()} is not a Python constant",
                          "The translator needs this value while tracing, but it is only "
                          "known when the program runs.")

    def describe(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return self.describe()

    # ------------------------------------------------------------------ array op arguments
    def as_graph_arg(self, output) -> Any:
        """This value as an argument of a graph node: a node for an array, an expression
        over symbol inputs for a symbolic size, a tuple/list/slice of those, or a Python
        constant. ``output`` is the trace's OutputGraph, handed in (no Variable module
        imports it). Other values cannot go into the graph: the call runs eagerly."""
        return self._constant_arg()

    def as_meta(self) -> Any:
        """This value as an op's shape rule sees it: ``ArrayMeta`` for an array, the
        ``SymInt`` for a symbolic size, a tuple/list/slice of those, or a Python
        constant (see ``dynamo.ops.rules``)."""
        return self._constant_arg()

    def _constant_arg(self) -> Any:
        """The default of both: a constant is passed as itself."""
        if self.is_constant():
            return self.as_python_constant()
        raise Unsupported(f"{self.describe()} as an argument of an array op")

    # ------------------------------------------------------------------ Python semantics
    def getattr(self, tx, name: str) -> Variable:
        try:
            cls = self.python_type()
        except Unsupported:
            cls = None
        if cls is not None and not hasattr(cls, name):
            raise AttributeError(f"{cls.__name__!r} object has no attribute {name!r}")
        raise Unsupported(f"attribute {name!r} of {self.describe()}")

    def call(self, tx, args: list[Variable],
             kwargs: dict[str, Variable]) -> Variable:
        raise Unsupported(f"call of {self.describe()}")

    def call_method(self, tx, name: str, args: list[Variable],
                    kwargs: dict[str, Variable]) -> Variable:
        return self.getattr(tx, name).call(tx, args, kwargs)

    def truth(self, tx) -> bool:
        """``bool(value)``. An object whose type has neither ``__bool__`` nor ``__len__``
        is always true (a function, a module, a map object); that holds for good when
        the type is immutable (a builtin type: no ``__bool__`` can be added later)."""
        try:
            cls = self.python_type()
        except Unsupported:
            cls = None
        if cls is not None and always_true(cls):
            return True
        raise Unsupported(f"truth value of {self.describe()}")

    def unpack(self, tx) -> list[Variable]:
        """The items of an iterable whose length is known while tracing."""
        raise untraced_iteration(self)

    def setattr(self, tx, name: str, value: Variable) -> None:
        raise Unsupported(f"attribute assignment on {self.describe()}")

    # ------------------------------------------------------------------ codegen
    def reconstruct(self, cg) -> str:
        if self.source is not None:
            return self.source.expr()
        raise Unsupported(f"cannot rebuild {self.describe()} after the graph",
                          "The value was created inside the traced region and has no "
                          "Python equivalent the generated code can build.")


def program_error(error: BaseException, exact: bool = False) -> BaseException:
    """Mark ``error`` as the one Python itself raises at this instruction when the
    program runs (an operation run on the program's own values while tracing, a
    missing dict key): the translator may hand it to the program's ``except``
    (translator/exceptions.py). Any other error met while tracing is a graph break.

    ``exact``: ``error`` is the very exception the program would get, arguments and
    all (Python or NumPy raised it on the same values, or on values of the same shapes
    and dtypes where the message depends on nothing else), so the handler may read its
    message; otherwise only its class is sure."""
    error._dynamo_program_error = True
    error._dynamo_exact_error = exact
    return error


def is_program_error(error: BaseException) -> bool:
    return getattr(error, "_dynamo_program_error", False)


def is_exact_program_error(error: BaseException) -> bool:
    """Whether ``program_error`` was told the error's arguments are the program's."""
    return getattr(error, "_dynamo_exact_error", False)


_IMMUTABLE_TYPE = 1 << 8   # Py_TPFLAGS_IMMUTABLETYPE: no attribute can be set on the type


def always_true(cls: type) -> bool:
    """Whether every instance of ``cls`` is true, now and later: ``cls`` is immutable
    and defines neither ``__bool__`` nor ``__len__`` (where ``bool()`` looks)."""
    return bool(flags_of(cls) & _IMMUTABLE_TYPE) and not defines(cls, "__bool__") and \
        not defines(cls, "__len__")


class NullVariable(Variable):
    """The NULL that CPython 3.11+ pushes next to a callable without a bound self."""

    def describe(self) -> str:
        return "NULL"


NULL = NullVariable()


class BoundBuiltinMethod(Variable):
    """A method of a Variable that models it itself (``lst.append``, ``d.keys``),
    before it is called: calling it is ``obj.call_method(tx, name, ...)``."""

    def __init__(self, obj: Variable, name: str):
        self.obj, self.name = obj, name

    def describe(self) -> str:
        return f"method {self.name} of {self.obj.describe()}"

    def call(self, tx, args, kwargs) -> Variable:
        result = self.obj.call_method(tx, self.name, list(args), dict(kwargs))
        if result is None:
            raise Unsupported(f"{self.describe()} with these arguments")
        return result

    def reconstruct(self, cg) -> str:
        return f"{cg.value(self.obj)}.{self.name}"


def untraced_iteration(it: Variable) -> Unsupported:
    """The break for a loop over ``it``, which the trace cannot iterate.

    A Python iterator object (``enumerate``, ``zip``, ``map``, an array's iterator)
    is the usual one: a loop that an earlier graph break stopped in the middle (its
    length came from the data, ``for c in np.unique(y)``) continues in the code after
    the break with the real iterator, which only advancing it can read; or the
    program passed one in. Its reason and hint say so, where a generic "iteration over
    an object" would send the user to the wrong place.

    Example::

        >>> untraced_iteration(ObjectVariable(enumerate([]))).reason
        'iteration over a Python enumerate iterator (not traced)'
    """
    try:
        cls = it.python_type()
    except Unsupported:
        cls = None
    if cls is not None and is_builtin_class(cls) and hasattr(cls, "__next__"):
        name = cls.__name__ if cls.__name__.endswith("iterator") else \
            f"{cls.__name__} iterator"      # list_iterator, iterator; enumerate iterator
        return Unsupported(
            f"iteration over a Python {name} (not traced)",
            "Only advancing a Python iterator reads its items, which the trace cannot do. "
            "Such an iterator is on the stack when an earlier graph break stopped in the "
            "middle of its loop (a loop over an array whose length only the data knows, "
            "such as np.unique(y)), or when it is passed in.",
            hint="fix this loop's first break: loop over a range whose length is a "
                 "Python int (for k in range(n_classes), with n_classes passed in) or "
                 "compute the per-item results with whole-array operations "
                 "(np.bincount(y, weights=x), np.add.at); an iterator passed in: pass "
                 "list(it); or accept the graph break")
    what = it.describe()
    article = "an" if what[:1].lower() in "aeiou" else "a"
    return Unsupported(f"iteration over {article} {what} (not traced)")

