"""Callables: user functions (inlined), nested functions, methods, partials, builtins.

Calling a user function traces its bytecode in an inlining translator that shares
the caller's graph, guards and side effects; the callee's return value comes back
as a Variable. Builtins are modelled one by one in :mod:`dynamo.variables.builtins`.

Example::

    >>> def helper(x, k=2): return x * k
    >>> UserFunctionVariable(helper).call(tx, [x_var], {})   # inlines helper
    ArrayVariable(...)
"""

from __future__ import annotations

import functools
import types
from typing import Any

from dynamo.guards import EXPR, AttrSource, CellSource, Guard, ItemSource

from ..exc import Unsupported
from .base import Variable
from .constant import ConstantVariable, SignalsAtRunTime, is_pure_constant
from .constant import fold as fold_constants


class CellVariable(Variable):
    """A closure cell. ``source`` is set for cells that existed before the trace."""

    def __init__(self, value: Variable | None = None, source=None, read=None,
                 frame_index: int | None = None, arg_source=None):
        self.value, self.source = value, source
        self._read = read  # reads the real cell contents on first use (lazy wrap)
        self.frame_index = frame_index  # position in co_cellvars of the compiled frame
        # the compiled frame's argument that fills this cell at entry (``def f(x):``
        # with ``x`` captured by a nested function): its contents while never read
        self.arg_source = arg_source

    def unread_argument(self):
        """The source of the argument this cell still holds, untouched by the trace
        (None once the trace read or wrote the cell): the glue fills a rebuilt cell
        from it, as the frame's own entry would have."""
        if self.value is None and self._read is not None:
            return self.arg_source
        return None

    def get(self, tx) -> Variable:
        if self.value is None and self._read is not None:
            self.value = self._read(tx)
            self._read = None
        if self.value is None:
            raise Unsupported("free variable referenced before assignment (NameError)")
        return self.value

    def set(self, tx, value: Variable) -> None:
        self.value, self._read = value, None
        effects = tx.output.side_effects
        if self.source is not None:
            effects.mutate(self)
        elif effects.log is not None:
            # a cell the trace made (a closure's ``nonlocal``): no state outside the
            # trace, but a loop body that rebinds one made before the loop keeps the
            # trip's value past the trip (``BodyState._check_effects`` sees it)
            effects.log.append(self)

    def describe(self) -> str:
        return "cell"


class BaseFunctionVariable(Variable):
    def get_code(self) -> types.CodeType:
        raise NotImplementedError

    def get_globals(self) -> dict:
        raise NotImplementedError

    def python_type(self) -> type:
        return types.FunctionType

    def call(self, tx, args, kwargs) -> Variable:
        return tx.inline_user_function(self, list(args), dict(kwargs))

    def describe(self) -> str:
        return f"function {self.get_code().co_qualname}"


class UserFunctionVariable(BaseFunctionVariable):
    """A Python function that existed before the trace (guarded by identity, or, where
    ``made_per_call``, by its type, code, globals and closure cells: see
    ``value_kinds.comprehension_of_this_frame``)."""

    def __init__(self, fn: types.FunctionType, source=None, made_per_call: bool = False):
        self.fn, self.source, self.made_per_call = fn, source, made_per_call

    def get_code(self):
        return self.fn.__code__

    def get_globals(self):
        return self.fn.__globals__

    def is_constant(self) -> bool:
        return True

    def as_python_constant(self) -> Any:
        return self.fn

    def call(self, tx, args, kwargs) -> Variable:
        if self.source is not None:
            # the function is guarded by identity, but ``fn.__code__`` is writable: the
            # inlined body holds while the function still has this code
            tx.guard_identity(AttrSource(self.source, "__code__"), self.fn.__code__)
        return super().call(tx, args, kwargs)

    def defaults(self, tx) -> tuple[list[Variable], dict[str, Variable]]:
        pos = []
        for i, v in enumerate(self.fn.__defaults__ or ()):
            pos.append(_default_value(tx, v, self.source, "__defaults__", i))
        kw = {k: _default_value(tx, v, self.source, "__kwdefaults__", k)
              for k, v in (self.fn.__kwdefaults__ or {}).items()}
        return pos, kw

    def closure_cells(self, tx) -> list[CellVariable]:
        return [_closure_cell(tx, self, i, cell)
                for i, cell in enumerate(self.fn.__closure__ or ())]

    def getattr(self, tx, name: str) -> Variable:
        if name in ("__name__", "__qualname__", "__doc__", "__module__"):
            # writable: read through the source, so the guard sees a later rename
            if self.source is None:
                raise Unsupported(f"attribute {name!r} of a function with no source")
            return tx.wrap(getattr(self.fn, name), AttrSource(self.source, name))
        raise Unsupported(f"attribute {name!r} of a function")

    def reconstruct(self, cg) -> str:
        return self.source.expr() if self.source is not None else cg.const(self.fn)


class CompiledFunctionVariable(UserFunctionVariable):
    """A ``dynamo.compile``d function met by compiled code: calling it inlines its
    original function (``fn``, read through ``wrapper._dynamo_fn``), but the object the
    program holds is the wrapper: code after a graph break gets the wrapper back, and
    reads and writes *its* attributes (``me = REGISTRY["f"]; me.calls += 1`` counts on
    the compiled function, as the program does, not on the function it wraps).

    Example: ``me`` of ``me = _COUNTED["f"]`` reconstructs as ``_COUNTED["f"]``, not
    ``_COUNTED["f"]._dynamo_fn``."""

    def __init__(self, wrapper: Any, source=None):
        super().__init__(wrapper._dynamo_fn,   # (not _orig_fn: a program may set that)
                         AttrSource(source, "_dynamo_fn") if source is not None else None)
        self.wrapper, self.wrapper_source = wrapper, source

    def as_python_constant(self) -> Any:
        return self.wrapper

    def reconstruct(self, cg) -> str:
        return self.wrapper_source.expr() if self.wrapper_source is not None \
            else cg.const(self.wrapper)


class NestedFunctionVariable(BaseFunctionVariable):
    """A function made by MAKE_FUNCTION inside the traced code (a lambda, a def).

    The glue rebuilds it as MAKE_FUNCTION would have made it (``codegen.make_function``),
    then stores the attributes the trace assigned (``f.calls = 0``, ``f.__name__ = ...``).
    """

    def __init__(self, code, qualname: str, fn_globals: dict, defaults=None, kwdefaults=None,
                 closure: list[CellVariable] | None = None):
        self.code, self.qualname, self.fn_globals = code, qualname, fn_globals
        self._defaults = defaults          # TupleVariable or None
        self._kwdefaults = kwdefaults      # DictVariable or None
        self.closure = closure or []
        self.annotations: Variable | None = None   # the (name, value, ...) tuple (< 3.14)
        self.annotate: Variable | None = None      # the __annotate__ function (3.14)
        self.type_params: Variable | None = None   # def f[T](): the tuple of T (3.12+)
        self.attrs: dict[str, Variable] = {}       # attributes assigned in the trace

    def get_code(self):
        return self.code

    def get_globals(self):
        return self.fn_globals

    def defaults(self, tx):
        pos = tx.unpack_iterable(self._defaults) if self._defaults is not None else []
        kw = tx.dict_items(self._kwdefaults) if self._kwdefaults is not None else {}
        return pos, kw

    def closure_cells(self, tx):
        return list(self.closure)

    def getattr(self, tx, name: str) -> Variable:
        if name in self.attrs:
            return self.attrs[name]
        if name == "__name__":
            return ConstantVariable(self.code.co_name)
        if name == "__qualname__":
            return ConstantVariable(self.qualname)
        if name in ("__doc__", "__module__"):   # as MAKE_FUNCTION sets them
            value = getattr(types.FunctionType(self.code, self.fn_globals), name)
            if is_pure_constant(value):
                return ConstantVariable(value)
        raise Unsupported(f"attribute {name!r} of a nested function")

    def setattr(self, tx, name: str, value: Variable) -> None:
        if name in ("__name__", "__qualname__"):
            if not (value.is_constant() and isinstance(value.as_python_constant(), str)):
                raise Unsupported(f"{name} set to {value.describe()} (TypeError unless "
                                  f"a str)")
        elif name not in ("__doc__", "__module__") and hasattr(types.FunctionType, name):
            raise Unsupported(f"assignment to function attribute {name!r}")
        self.attrs[name] = value
        tx.output.side_effects.mutate(self)   # (as an object's: a loop body sees it)

    def reconstruct(self, cg) -> str:
        def build(v):
            defaults = cg.value(v._defaults) if v._defaults is not None else "None"
            kwdefaults = cg.value(v._kwdefaults) if v._kwdefaults is not None else "None"
            cells = "".join(f"{cg.cell(c)}, " for c in v.closure)
            closure = f"({cells})" if v.closure else "None"
            extra = ""
            if v.annotations is not None:
                extra += f", annotations={cg.value(v.annotations)}"
            if v.annotate is not None:
                extra += f", annotate={cg.value(v.annotate)}"
            if v.type_params is not None:
                extra += f", type_params={cg.value(v.type_params)}"
            return (f"___make_function({cg.const(v.code)}, {cg.globals_expr(v.fn_globals)}, "
                    f"{cg.const(v.qualname)}, {defaults}, {closure}, {kwdefaults}{extra})")

        def fill(temp):   # after the function exists, so a value may be the function
            for name, value in self.attrs.items():
                cg.lines.append(f"___builtins.setattr({temp}, {cg.const(name)}, "
                                f"{cg.value(value)})")
        return cg.mutable(self, build, fill)


class UserMethodVariable(Variable):
    """A bound method ``obj.method``: the function with ``self`` filled in."""

    def __init__(self, fn_var: BaseFunctionVariable, self_var: Variable, source=None):
        self.fn_var, self.self_var, self.source = fn_var, self_var, source

    def describe(self) -> str:
        return f"method {self.fn_var.get_code().co_qualname}"

    def python_type(self) -> type:
        return types.MethodType

    def call(self, tx, args, kwargs) -> Variable:
        return self.fn_var.call(tx, [self.self_var, *args], kwargs)

    def reconstruct(self, cg) -> str:
        if self.source is not None:
            return self.source.expr()
        return f"___MethodType({cg.value(self.fn_var)}, {cg.value(self.self_var)})"


class PartialVariable(Variable):
    """``functools.partial(fn, *args, **kwargs)``."""

    def __init__(self, fn: Variable, args: list[Variable], kwargs: dict[str, Variable],
                 source=None):
        self.fn, self.args, self.kwargs, self.source = fn, args, kwargs, source

    def describe(self) -> str:
        return f"partial({self.fn.describe()})"

    def python_type(self) -> type:
        return functools.partial

    def call(self, tx, args, kwargs) -> Variable:
        return tx.call_function(self.fn, [*self.args, *args], {**self.kwargs, **kwargs})

    def reconstruct(self, cg) -> str:
        """A partial made in the trace and live at a break (``functools.partial(helper,
        p)(x)`` where the call breaks): ``functools.partial`` (bound by the glue) of its
        parts, built once, so that every reference is the one object."""
        def build(v) -> str:
            parts = [cg.value(v.fn), *(cg.value(a) for a in v.args)]
            if v.kwargs:   # (a dict: any string is a keyword, `lambda` too)
                parts.append("**{" + ", ".join(f"{k!r}: {cg.value(a)}"
                                               for k, a in v.kwargs.items()) + "}")
            return f"{cg.const(functools.partial)}({', '.join(parts)})"
        return cg.mutable(self, build)


def fold(fn, args: list[Variable], kwargs: dict[str, Variable]) -> Variable:
    """Call a pure function on constants at trace time; the result must be a constant."""
    from .sequences import wrap_constant

    values = [a.as_python_constant() for a in args]
    kw = {k: v.as_python_constant() for k, v in kwargs.items()}
    try:   # abs(np.int8(-128)) warns: it must run with the program, every time
        result = fold_constants(fn, *values, **kw)
    except SignalsAtRunTime as e:
        raise Unsupported(f"{getattr(fn, '__name__', fn)}() of NumPy scalars: {e}",
                          "It warns or raises by NumPy's error state, which must happen "
                          "when the program runs; the call runs eagerly.") from e
    if type(result) is list and all(is_pure_constant(v) for v in result):
        from .sequences import ListVariable
        return ListVariable([ConstantVariable(v) for v in result])
    if not is_pure_constant(result) and not isinstance(result, tuple):
        raise Unsupported(f"{getattr(fn, '__name__', fn)} returned a "
                          f"{type(result).__name__}")
    return wrap_constant(result)


def _default_value(tx, value, source, attr: str, key) -> Variable:
    """A default argument value: ``fn.__defaults__[i]`` or ``fn.__kwdefaults__[k]``."""
    if source is None:
        if is_pure_constant(value):
            return ConstantVariable(value)
        raise Unsupported("default argument of a function with no source")
    return tx.wrap(value, ItemSource(AttrSource(source, attr), key))


def _closure_cell(tx, fn_var: UserFunctionVariable, index: int, cell) -> CellVariable:
    """Closure cell ``index`` of a function that existed before the trace: one
    CellVariable per cell object, its contents wrapped when first read."""
    source = CellSource(fn_var.source, index) if fn_var.source is not None else None
    cells = tx.output.input_cells
    key = id(cell)
    if key in cells:
        if fn_var.made_per_call:
            # not guarded by identity: guard that this cell is again that one
            known = cells[key][1].source
            tx.output.guards.add(Guard(source, EXPR,
                                       f"{source.cell_expr()} is {known.cell_expr()}",
                                       note="a comprehension's cell is its frame's"))
        return cells[key][1]

    def read(tx):
        try:
            contents = cell.cell_contents
        except ValueError:
            raise Unsupported("free variable referenced before assignment") from None
        if source is None:
            if is_pure_constant(contents):
                return ConstantVariable(contents)
            raise Unsupported("closure of a function with no source")
        return tx.wrap(contents, source)

    var = CellVariable(source=source, read=read)
    cells[key] = (cell, var)
    return var
