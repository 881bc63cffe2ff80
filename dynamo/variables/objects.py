"""Modules, classes and user objects (models with weights in attributes).

Attribute reads on a user object resolve the way Python does (instance dict first,
then the class's MRO, properties and methods), and each value read from outside is
wrapped with a source and guarded. Attribute writes are recorded and replayed after
the graph, in program order.

Example::

    >>> m = ObjectVariable(model, LocalSource("self"))
    >>> m.getattr(tx, "w1")     # ArrayVariable, source L['self'].w1, guarded on shape

Nearby: what a class is (``class_facts.py``), values used only opaquely
(``opaque.py``), ``super()`` lookups (``super_lookup.py``), ``random`` objects
(``random_objects.py``).
"""

from __future__ import annotations

import inspect
import types
from dataclasses import dataclass
from typing import Any

import numpy as np

from dynamo.guards import EXPR, AttrSource, Guard, Source
from dynamo.guards.type_slots import (
    dict_of,
    is_builtin_class,
    module_of,
    mro_of,
    qualname_of,
)

from .. import ops
from ..exc import Unsupported
from ..made_dicts import static_lookup, unmade
from ..skipfiles import is_skipped
from . import class_writes
from .base import Variable
from .class_facts import (
    C_METHODS,
    READ_FROM_CLASS,
    class_entry,
    data_descriptor,
    library_class,
    modelled_class,
    module_code_answers,
    plain_exception_class,
    program_descriptor,
    program_metaclass_answers,
)
from .constant import BuiltinVariable, ConstantVariable, is_pure_constant
from .library_attributes import guard_library_attribute, is_library_module
from .named_tuples import NamedTupleVariable, is_namedtuple_class
from .opaque import OpaqueMethodVariable
from .sequences import TupleVariable

_ARRAY_LIBRARIES = ("numpy", "cupy", "cupyx")


@dataclass(frozen=True)
class TypeSource(Source):
    """``type(base)``: where methods and properties of an object are found."""

    base: Source

    def name(self) -> str:
        return f"type({self.base.name()})"

    def expr(self) -> str:   # not bare ``type``: a parameter may have that name
        return f"___builtins.type({self.base.expr()})"


def wrap_library_value(value: Any) -> Variable:
    """An attribute of numpy, cupy or math: guarded by ``guard_library_attribute``."""
    from .library_calls import LibraryFunctionVariable

    if isinstance(value, types.ModuleType):
        return ModuleVariable(value)
    if isinstance(value, type) and issubclass(value, np.generic):
        return ClassVariable.of(value)  # np.float32: callable (np.float32(2), np.float32(x))
    if is_pure_constant(value):
        return ConstantVariable(value)
    if isinstance(value, type) and is_builtin_class(value):
        return BuiltinVariable(value)
    if isinstance(value, type):
        return ClassVariable.of(value)
    if isinstance(value, types.BuiltinFunctionType) and \
            getattr(value, "__module__", None) in ("math", "cmath", "operator", "_operator"):
        return BuiltinVariable(value)
    if callable(value):
        return LibraryFunctionVariable(value)
    if ops.lookup_function(value) is not None:   # np.mgrid: subscripting it is an op
        from .library_calls import IndexerVariable
        return IndexerVariable(value)
    raise Unsupported(f"library value of type {type(value).__name__}")


# ``__getattribute__`` and ``__setattr__`` slots that are object's own generic lookup
# and store: object's, and a C type's that sets the slots to them itself (3.11's
# ``types.SimpleNamespace``, which lists them in its ``__dict__``; 3.13's inherits
# object's). A subclass that defines its own has another.
_GENERIC_GETATTRIBUTE = frozenset({object.__getattribute__,
                                   types.SimpleNamespace.__getattribute__})
_CLASS_SLOT = object.__dict__["__class__"]
_GENERIC_SETATTR = frozenset({object.__setattr__, types.SimpleNamespace.__setattr__})


class ModuleVariable(Variable):
    def __init__(self, module: types.ModuleType, source=None):
        self.module, self.source = module, source

    def describe(self) -> str:
        return f"module {self.module.__name__}"

    def python_type(self) -> type:
        return types.ModuleType

    def is_constant(self) -> bool:
        return True

    def as_python_constant(self) -> Any:
        return self.module

    def getattr(self, tx, name: str) -> Variable:
        library = is_library_module(self.module)
        answers = None if library else module_code_answers(self.module, name)
        if answers is not None:   # (code that may count or drift: round 45, issue #17)
            raise Unsupported(f"module attribute {self.module.__name__}.{name} read "
                              f"through {answers}")
        value = getattr(self.module, name)
        if library:
            guard_library_attribute(tx, self.module, name, value)
            return wrap_library_value(value)
        return tx.wrap(value, AttrSource(self.source, name) if self.source else None)

    def reconstruct(self, cg) -> str:
        return cg.const(self.module)


class ClassVariable(Variable):
    """A class: builtin and library classes are constants; user classes are guarded."""

    def __init__(self, cls: type, source=None):
        self.cls, self.source = cls, source
        self.pending: dict[str, Variable] = {}   # class attributes written (class_writes)

    @classmethod
    def of(cls, t: type) -> ClassVariable:
        return cls(t)

    def describe(self) -> str:
        return f"class {qualname_of(self.cls)}"

    def python_type(self) -> type:
        return type(self.cls)

    def is_constant(self) -> bool:
        return True

    def as_python_constant(self) -> Any:
        return self.cls

    def getattr(self, tx, name: str) -> Variable:
        meta = program_metaclass_answers(self.cls, name)
        if meta is not None:
            # ``C.name`` asks the metaclass first (a property of it runs on every read,
            # its __getattr__ where the class lacks the name): code the trace must not
            # run, nor the guards read again (round 14, issue #17)
            raise Unsupported(f"{qualname_of(self.cls)}.{name} read through its "
                              f"metaclass {meta}")
        if name in ("__name__", "__qualname__", "__module__"):
            return ConstantVariable(getattr(self.cls, name))
        descriptor = program_descriptor(self.cls, name)
        if descriptor is not None:   # (its __get__(None, cls) may count: round 45)
            raise Unsupported(f"{qualname_of(self.cls)}.{name} read through its "
                              f"descriptor {descriptor}.__get__")
        written = class_writes.read_on_class(tx, self.cls, name, self.source)
        if written is not None:
            return written
        try:
            value = getattr(self.cls, name)
        except AttributeError:
            if self.source is not None:   # the class may gain it later: guard absence
                tx.output.guards.add(Guard(self.source, EXPR,
                                           f"not ___builtins.hasattr({self.source.expr()}, "
                                           f"{name!r})", note=f"{name!r} absent while tracing"))
            raise
        if library_class(self.cls):
            return wrap_library_value(value)
        return tx.wrap(value, AttrSource(self.source, name) if self.source else None)

    def setattr(self, tx, name: str, value: Variable) -> None:
        """``Cls.name = value``: replayed after the graph (``class_writes``)."""
        class_writes.write(tx, self, name, value, library_class(self.cls))

    def old_value(self, tx, name: str):
        return class_writes.dropped(tx, self, name)

    def call(self, tx, args, kwargs) -> Variable:
        handler = tx.builtin_handler(self.cls)   # tuple, range... (type(x)(...))
        if handler is not None:
            return handler(tx, *args, **kwargs)
        if issubclass(self.cls, BaseException) and not kwargs and \
                plain_exception_class(self.cls):
            return ExceptionVariable(self.cls, list(args), self.source)
        if is_namedtuple_class(self.cls):     # Summary(mean=m, std=s)
            return NamedTupleVariable.construct(self.cls, list(args), kwargs, self.source)
        if self.cls is np.errstate:           # with np.errstate(divide="ignore"): ...
            from .errstate import ErrstateVariable
            return ErrstateVariable.construct(list(args), kwargs)
        if module_of(self.cls).split(".")[0] in _ARRAY_LIBRARIES:
            # np.float32(2.0), np.dtype("f4"), np.finfo(x.dtype): a constant; np.ndarray
            # (shape, dtype): a graph op; other library classes break there, with a reason
            from .library_calls import LibraryFunctionVariable
            return LibraryFunctionVariable(self.cls).call(tx, args, kwargs)
        return NewObjectVariable.construct(tx, self, args, kwargs)

    def reconstruct(self, cg) -> str:
        return self.source.expr() if self.source is not None else cg.const(self.cls)


class ObjectVariable(Variable):
    """An instance of a user class that came from outside the trace."""

    def __init__(self, obj: Any, source=None):
        self.obj, self.source = obj, source
        self.pending: dict[str, Variable] = {}   # attributes written during the trace
        self.cache: dict[str, Variable] = {}     # attributes read (one Variable each)

    def describe(self) -> str:
        return f"{qualname_of(type(self.obj))} object"

    def python_type(self) -> type:
        return type(self.obj)

    @property
    def class_source(self) -> Source | None:
        """Where the object's class is read from (its methods and class attributes
        are read, and guarded, through it)."""
        return TypeSource(self.source) if self.source is not None else None

    def getattr(self, tx, name: str) -> Variable:
        from .functions import UserFunctionVariable, UserMethodVariable
        if name in self.pending:
            return self.pending[name]
        written = class_writes.read_on_instance(   # type(self).n += 1
            tx, self.obj, name, self.class_source,
            lambda: self._guard_absent(tx, name, on_class=False))
        if written is not None:
            return written
        if name in self.cache:
            return self.cache[name]
        cls = type(self.obj)
        if cls.__getattribute__ not in _GENERIC_GETATTRIBUTE:
            # it runs on every read, with whatever effects it has: not at trace time
            raise Unsupported(f"{qualname_of(cls)}.__getattribute__ for {name!r}")
        if type.__getattribute__(type(cls), "__getattribute__") is not type.__getattribute__:
            # a metaclass's runs for the guards' reads of the class (``type(o).act``),
            # where Python's ``o.act`` looks in the class without it (issue #17)
            raise Unsupported(f"{qualname_of(type(cls))}.__getattribute__ for {name!r} "
                              f"(a metaclass's)")
        if name == "__class__" and self.class_source is not None and \
                class_entry(cls, name) is _CLASS_SLOT:
            # object's own descriptor, which no instance entry shadows: ``type(self)``,
            # read through it (``self.__class__.n += 1`` is a class write)
            return ClassVariable(cls, self.class_source)
        try:
            static, own = static_lookup(self.obj, name)   # (made_dicts: on 3.11 reading
        except AttributeError:                             # __dict__ makes it, for good)
            if hasattr(cls, "__getattr__"):
                raise Unsupported(f"{qualname_of(cls)}.__getattr__ for {name!r}") from None
            self._guard_absent(tx, name, on_class=True)
            raise
        # (a data descriptor of the class, a property, wins over the instance's entry)
        in_instance = own and not data_descriptor(class_entry(cls, name))
        cls_source = self.class_source
        if not in_instance and isinstance(static, property):
            if static.fget is None:
                raise AttributeError(name)
            fget = UserFunctionVariable(static.fget, AttrSource(AttrSource(cls_source, name),
                                                                 "fget") if cls_source else None)
            if fget.source is not None:
                tx.guard_identity(fget.source, static.fget)
            # the getter runs on every read (it may count, or change): never cached
            return fget.call(tx, [self], {})
        if not in_instance and isinstance(static, READ_FROM_CLASS):
            # bound from the class (guarded there): an instance attribute set later
            # would shadow it, so the trace holds while the instance has none
            self._guard_absent(tx, name, on_class=False)
        if not in_instance and isinstance(static, types.FunctionType):
            fn = UserFunctionVariable(static, AttrSource(cls_source, name) if cls_source else None)
            if fn.source is not None:
                tx.guard_identity(fn.source, static)
            result = UserMethodVariable(fn, self)
        elif not in_instance and isinstance(static, (staticmethod, classmethod)):
            value = getattr(self.obj, name)
            result = tx.wrap(value, AttrSource(cls_source, name) if cls_source else None)
        elif not in_instance and isinstance(static, C_METHODS):
            result = OpaqueMethodVariable(self, name, f"{qualname_of(cls)}.{name}")
        else:
            if not in_instance and hasattr(static, "__get__") and not isinstance(
                    static, types.MemberDescriptorType) and not is_pure_constant(static):
                raise Unsupported(f"descriptor {type(static).__name__} for attribute {name!r}")
            value = getattr(self.obj, name)
            result = tx.wrap(value, self._read_source(name, in_instance))
        self.cache[name] = result
        return result

    def text(self, tx, fn) -> Variable:
        """``str(obj)`` or ``repr(obj)`` (``fn``): the class's own ``__str__`` or
        ``__repr__`` inlined, as Python calls it (looked up on the type; ``object``'s
        ``__str__`` is ``__repr__``). Object's own ``__repr__`` names an address, and a
        result that is not a plain str is a TypeError or a subclass: both break."""
        from .functions import UserFunctionVariable, UserMethodVariable
        klass = type(self.obj)
        name = "__str__" if fn is str else "__repr__"
        method = inspect.getattr_static(klass, name)
        if method is object.__str__:
            name, method = "__repr__", inspect.getattr_static(klass, "__repr__")
        if not isinstance(method, types.FunctionType) or self.class_source is None:
            raise Unsupported(f"{fn.__name__}() of a {qualname_of(klass)} object without "
                              f"its own {name}", "object's own text holds the object's "
                              "address, known only when the program runs.",
                              cause="unsupported_call")
        source = AttrSource(self.class_source, name)
        tx.guard_identity(source, method)
        result = UserMethodVariable(UserFunctionVariable(method, source), self).call(tx, [], {})
        if not (result.is_constant() and type(result.as_python_constant()) is str):
            raise Unsupported(f"{qualname_of(klass)}.{name} returns {result.describe()}, "
                              "not a str known while tracing", cause="unsupported_call")
        return result

    def _read_source(self, name: str, in_instance: bool) -> Source | None:
        """Where the glue reads ``obj.name`` from: the object, or (for an object built
        in the trace, whose instance attributes are all ``pending``) its class."""
        if self.source is not None:
            return AttrSource(self.source, name)
        if not in_instance and self.class_source is not None:
            return AttrSource(self.class_source, name)
        return None

    def _guard_absent(self, tx, name: str, on_class: bool) -> None:
        """Guard that ``name`` stays out of the instance's ``__dict__`` (and, with
        ``on_class``, off its class and that the class gains no ``__getattr__``): the
        trace relied on the attribute being absent there. Static tests only: a guard
        must not run the program's ``__getattr__``."""
        if self.source is None:
            return
        obj, b = self.source.expr(), "___builtins"
        tests = []
        if hasattr(self.obj, "__dict__"):
            tests.append(f"{name!r} not in {obj}.__dict__")
        if on_class:
            tests += [f"not {b}.hasattr({b}.type({obj}), {name!r})",
                      f"not {b}.hasattr({b}.type({obj}), '__getattr__')"]
        for test in tests:
            tx.output.guards.add(Guard(self.source, EXPR, test,
                                       note=f"attribute {name!r} absent while tracing"))

    def setattr(self, tx, name: str, value: Variable) -> None:
        static = inspect.getattr_static(type(self.obj), name, None)
        if static is not None and hasattr(static, "__set__") and \
                not isinstance(static, types.MemberDescriptorType):
            raise Unsupported(f"assignment through descriptor {name!r}")
        if type(self.obj).__setattr__ not in _GENERIC_SETATTR:
            raise Unsupported(f"{qualname_of(type(self.obj))} defines __setattr__")
        if not isinstance(static, types.MemberDescriptorType) and \
                not unmade(self.obj) and not hasattr(self.obj, "__dict__"):
            # no __dict__ and not a slot: the write raises AttributeError, which must
            # happen here (inside the program's try), not when the glue replays it
            raise Unsupported(f"assignment to {name!r} of a {qualname_of(type(self.obj))} "
                              f"object without __dict__")
        self.pending[name] = value
        tx.output.side_effects.mutate(self)

    def call(self, tx, args, kwargs) -> Variable:
        call = inspect.getattr_static(type(self.obj), "__call__", None)
        if not isinstance(call, types.FunctionType):
            raise Unsupported(f"call of a {qualname_of(type(self.obj))} object")
        return self.getattr(tx, "__call__").call(tx, args, kwargs)


class NewObjectVariable(ObjectVariable):
    """An instance of a program's class created in the trace (``layer = Dense(4, 3)``).

    ``Cls(*args)`` is ``type.__call__``: ``object.__new__(Cls)``, then ``__init__``
    inlined with the new object as ``self``. The trace holds a bare instance made by
    ``object.__new__`` (no program code runs) for the class's attributes and methods,
    which are read and guarded through the class's own source; every instance
    attribute is ``pending``, written by the trace. The glue builds the object once
    (every reference shares it) the same way, ``object.__new__`` then the attribute
    stores in the order the program first made them (so ``__dict__`` has the program's
    order).

    Only classes for which that is exactly what Python does (``modelled_class``): a
    plain metaclass call, ``object.__new__``, ``object.__setattr__`` and
    ``__getattribute__``, no ``__slots__`` but empty ones, no ``__del__`` (an object that dies
    in the trace never exists, so it could not be finalized), no builtin base but
    object.
    """

    def __init__(self, obj: Any, cls_var: ClassVariable):
        super().__init__(obj, None)
        self._class_source = cls_var.source

    @property
    def class_source(self) -> Source | None:
        return self._class_source

    @classmethod
    def construct(cls, tx, cls_var: ClassVariable, args, kwargs) -> Variable:
        """``Cls(*args, **kwargs)``, or a graph break saying why it is not modelled."""
        klass = cls_var.cls
        why = modelled_class(klass)
        if why is None and cls_var.source is None:
            why = "its class has no source to guard"
        init = inspect.getattr_static(klass, "__init__")
        if why is None and isinstance(init, types.FunctionType) and \
                is_skipped(init.__code__):
            why = "its __init__ is library code, which the trace does not follow"
        if why is not None:
            raise Unsupported(f"creating an instance of {qualname_of(klass)} ({why})",
                              "Only instances that object.__new__ builds and whose "
                              "__init__ is the program's own code are modelled.",
                              cause="unsupported_call")
        try:
            bare = object.__new__(klass)
        except TypeError as e:   # an abstract class: Python's own error, eagerly
            raise Unsupported(f"creating an instance of {qualname_of(klass)}: {e}",
                              cause="unsupported_call") from None
        new = cls(bare, cls_var)
        _guard_still_modelled(tx, cls_var, init)
        if init is object.__init__:
            if args or kwargs:   # object.__init__ takes no arguments: TypeError
                raise Unsupported(f"creating an instance of {qualname_of(klass)} with "
                                  "arguments and no __init__", cause="unsupported_call")
            return new
        result = new.getattr(tx, "__init__").call(tx, list(args), dict(kwargs))
        if not (result.is_constant() and result.as_python_constant() is None):
            raise Unsupported(f"{qualname_of(klass)}.__init__ returns a value (TypeError)",
                              cause="unsupported_call")
        return new

    def describe(self) -> str:
        return f"new {qualname_of(type(self.obj))} object"

    def _guard_absent(self, tx, name: str, on_class: bool) -> None:
        """The instance's ``__dict__`` is the trace's own; the class must keep lacking
        the attribute (and a ``__getattr__``)."""
        if not on_class:
            return
        b, klass = "___builtins", self.class_source.expr()
        for test in (f"not {b}.hasattr({klass}, {name!r})",
                     f"not {b}.hasattr({klass}, '__getattr__')"):
            tx.output.guards.add(Guard(self.class_source, EXPR, test,
                                       note=f"attribute {name!r} absent while tracing"))

    def reconstruct(self, cg) -> str:
        def build(v):
            return f"{cg.const(object.__new__)}({cg.const(type(v.obj))})"

        def fill(temp):   # after the object exists, so a value may be the object
            for name, value in self.pending.items():
                cg.lines.append(f"{temp}.{name} = {cg.value(value)}")
        return cg.mutable(self, build, fill)


def _guard_still_modelled(tx, cls_var: ClassVariable, init) -> None:
    """Guard what ``modelled_class`` and an ``__init__`` of ``object`` relied on and no
    read of the trace guards: the class still lacks ``__del__`` (an object that dies in
    the trace never exists, so a ``__del__`` added later never ran) and, where it had
    none, an ``__init__`` (one added later never ran either: round 16, issue #17).

        >>> class Late: pass           # traced: `a = Late(); a = None` leaves no trace
        >>> Late.__del__ = report       # next call: the guard fails, the trace redone
    """
    klass = cls_var.cls
    meta = program_metaclass_answers(klass, "__dict__") or \
        program_metaclass_answers(klass, "__mro__")
    if meta is not None:   # the guard's reads would run the metaclass's code
        raise Unsupported(f"creating an instance of {qualname_of(klass)} (its "
                          f"metaclass {meta} answers its class attributes)",
                          cause="unsupported_call")
    # One test of the namespaces (object, a builtin type, never gains one), not
    # `hasattr(C, '__del__')`: its AttributeError made it 4x slower on the hit path.
    b, expr, mro = "___builtins", cls_var.source.expr(), mro_of(klass)
    tests = [f"{expr}.__mro__[{i}].__dict__" if i else f"{expr}.__dict__"
             for i in range(len(mro) - 1)]
    test = " and ".join([f"len({expr}.__mro__) == {len(mro)}"] +
                        [f"'__del__' not in {t}" for t in tests])
    if init is object.__init__:
        test += f" and {expr}.__init__ is {b}.object.__init__"
    tx.output.guards.add(Guard(cls_var.source, EXPR, test,
                               note="a class of an object made in the trace"))


# Arguments whose text ``str(e)`` may compute while tracing (not a symbolic number).
_TEXT_TYPES = (int, float, complex, str, bytes, bool, type(None))


def _plain_text(value: Any) -> bool:
    """Whether ``str``/``repr`` of ``value`` is builtin code on builtin values (a
    number, a string, a tuple of those: a dict's missing ``(row, col)`` key), so it
    can be computed while tracing and gives the program's text."""
    if type(value) is tuple:
        return all(_plain_text(v) for v in value)
    return type(value) in _TEXT_TYPES


class ExceptionVariable(Variable):
    """An exception built in the trace (``ValueError("bad shape")``), to be raised.

    Only classes whose construction is BaseException's (``plain_exception_class``) get
    one: the glue builds the object once (every reference shares it), and any use other
    than passing it around (attributes, methods) is a graph break."""

    def __init__(self, cls: type, args: list[Variable], class_source=None):
        self.cls, self.args = cls, args
        # where the class was read (``E("boom")`` of a global ``E``): ``type(e).tag`` is
        # read and guarded through it, not kept as the value the trace saw (round 22)
        self.class_source = class_source
        # set when the trace raises it (dynamo/translator/exceptions.py): its
        # ``__cause__``/``__context__`` (ExceptionVariables, None, or the caller's
        # unknown exception) and whether it was raised (then it has a traceback)
        self.cause: Variable | None = None
        self.context: Variable | None = None
        self.suppress_context = False
        self.raised = False
        # False for an error the translator met while tracing (a missing dict key):
        # its class is Python's, its arguments may be worded otherwise (unknown)
        self.exact = True

    def describe(self) -> str:
        return f"{self.cls.__name__} instance"

    def python_type(self) -> type:
        return self.cls

    def getattr(self, tx, name: str) -> Variable:
        """What BaseException itself stores; the rest (a traceback, notes, a program's
        class attributes or methods) is a graph break."""
        if name == "args":
            self._check_exact("its args")
            return TupleVariable(list(self.args))
        if name == "__class__":
            return ClassVariable(self.cls, self.class_source)
        if name == "__suppress_context__":
            return ConstantVariable(self.suppress_context)
        if name in ("__cause__", "__context__"):
            link = self.cause if name == "__cause__" else self.context
            if link is None:
                return ConstantVariable(None)
            link.python_type()   # the caller's exception: Unsupported
            return link
        return super().getattr(tx, name)

    def _check_exact(self, what: str) -> None:
        if not self.exact:
            raise Unsupported(f"{what} of a {self.cls.__name__} that Python raises here",
                              "The translator knows which exception the operation raises, "
                              "not its exact message.", cause="raise")

    def text(self, fn) -> Variable:
        """``str(e)`` or ``repr(e)`` (``fn``), computed on an instance built while
        tracing: BaseException's own methods, of arguments that are plain constants."""
        self._check_exact(f"{fn.__name__}()")
        own = any(f"__{fn.__name__}__" in dict_of(k) for k in mro_of(self.cls)
                  if not is_builtin_class(k))
        if own or not all(a.is_constant() and _plain_text(a.as_python_constant())
                          for a in self.args):
            raise Unsupported(f"{fn.__name__}() of a {self.cls.__name__} with these "
                              "arguments", "The text is computed by the program's own "
                              "method, or from values known only when it runs.",
                              cause="unsupported_call")
        return ConstantVariable(fn(self.cls(*[a.as_python_constant() for a in self.args])))

    def formatted(self, spec: str, conversion: str | None) -> Variable:
        """``f"{e}"``, ``f"{e!s}"``, ``f"{e!r}"``: with no format spec, object's
        ``__format__`` is ``str()`` (and ``!r`` is ``repr()``); a class of the program
        may define its own ``__format__``, and a spec is an error: both break."""
        own = any("__format__" in dict_of(k) for k in mro_of(self.cls)
                  if not is_builtin_class(k))
        if spec or own or conversion not in (None, "s", "r"):
            raise Unsupported(f"f-string of a {self.cls.__name__} with a format spec or "
                              "conversion", "The text comes from the program's own "
                              "__format__ or from one the translator does not model.",
                              cause="format")
        return self.text(repr if conversion == "r" else str)

    def reconstruct(self, cg) -> str:
        if self.raised:
            raise Unsupported(f"a {self.cls.__name__} raised and caught in the trace is "
                              "used after it", "A raised exception has a traceback and a "
                              "context the generated code cannot rebuild.", cause="raise")
        return cg.mutable(self, lambda v: f"{cg.const(v.cls)}("
                          f"{''.join(f'{cg.value(a)}, ' for a in v.args)})")
