"""Exceptions the program raises and catches itself: traced as jumps to its handlers.

``try: ... raise ValueError("bad") ... except ValueError as e: ...`` needs no graph
break. A ``raise`` whose exception some ``except`` or ``finally`` of the trace may
catch (``in_try``) raises ``SymbolicRaise`` with the exception as a Variable (an
``ExceptionVariable``: its class and arguments, ``__cause__``, ``__context__``); the
translator's loop (``TranslatorBase.step``) then unwinds as CPython does
(``unwind``): the innermost exception-table entry around the instruction gives the
handler, the stack is cut to the entry's depth, the instruction's offset is pushed
when the entry says so, then the exception, and the trace goes on at the handler.
An inlined frame without a handler passes the exception to its caller, at the call.

The handler's own instructions are modelled on CPython's:

- ``PUSH_EXC_INFO`` / ``POP_EXCEPT`` save and restore the exception being handled
  (what ``sys.exc_info()`` and ``sys.exception()`` return, and the ``__context__`` of
  the next exception raised), kept on the root translator (``handled``). Outside any
  handler of the trace it is ``CALLER_EXCEPTION``: whatever the caller is handling,
  unknown while tracing, so reading it is a graph break;
- ``CHECK_EXC_MATCH`` decides ``except E`` while tracing: ``E`` must be a constant
  (a builtin class, or a class of the program read through a guarded global), else
  the match depends on something unknown and the trace breaks there;
- ``RERAISE`` and a bare ``raise`` raise the same object again.

An error Python raises at an instruction the translator ran while tracing (a missing
dict key, a folded ``1 / 0``, an index past the end of a tuple, ``[].pop()``, a tuple
unpacked into the wrong number of names, ``int(x)`` of an array that is not 0-d) or
that NumPy raises from the shapes and dtypes of an op (``OutputGraph._raise_as_numpy``)
unwinds the same way when the instruction had no effect yet (``python_error``). Its
message is known where the error is the real one (a missing key's ``KeyError(key)``,
``1 / 0`` folded, NumPy's error for arrays of the same shapes and dtypes, which depends
on nothing else): ``str(e)``, ``repr(e)``, ``e.args`` and ``f"{e}"`` are then constants;
where the translator words it itself (a tuple unpacked into the wrong number of names)
reading it breaks.

What is never guessed, and breaks instead: an exception that leaves the root frame
(the original code then runs, so the traceback is Python's own: see
``escape``), an exception object that leaves the trace after it was raised (it
would have a ``__traceback__``; ``ExceptionVariable.reconstruct``), its
``__traceback__``, an ``except`` clause of a non-constant class, an exception that
comes out through a builtin calling the program's code (``map``, ``sorted(key=)``:
where the builtin stopped is CPython's), and a break inside a handler (the frame
cannot resume there: the whole ``try`` runs eagerly, ``frames.py``).

Example::

    >>> def f(x):
    ...     try:
    ...         raise ValueError("negative")
    ...     except ValueError as e:
    ...         return x * 2, e.args
    >>> dynamo.explain(f)(np.ones(3)).graph_break_count
    0
"""

from __future__ import annotations

import inspect

from ..exc import Unsupported
from ..variables import ClassVariable, ConstantVariable, TupleVariable, Variable
from ..variables.base import is_exact_program_error
from ..variables.class_facts import plain_exception_class
from ..variables.constant import is_pure_constant
from ..variables.objects import ExceptionVariable


class SymbolicRaise(Exception):  # noqa: N818 (control flow: the traced program raises)
    """The traced program raises ``exc`` (an ExceptionVariable) at the current
    instruction; ``TranslatorBase.step`` unwinds to its handler."""

    def __init__(self, exc: ExceptionVariable, caught_by=None):
        super().__init__(exc.describe())
        self.exc = exc
        # the translator whose current instruction raised it: the raising instruction
        # itself, or a call of a program's function that let it out (Calls.call_user_code)
        self.caught_by = caught_by


class CallerException(Variable):
    """The exception the caller of the compiled function is handling, if any: the
    handled exception outside every handler of the trace. Unknown while tracing."""

    def describe(self) -> str:
        return "the exception the caller is handling (unknown while tracing)"

    def python_type(self) -> type:
        raise Unsupported("the exception being handled outside the compiled function",
                          "sys.exc_info() and a bare `raise` there depend on the "
                          "caller, which the trace does not know.", cause="raise")


CALLER_EXCEPTION = CallerException()


class TracebackVariable(Variable):
    """The ``__traceback__`` of an exception raised in the trace: it has no value
    while tracing, so any use of it is a graph break."""

    def describe(self) -> str:
        return "a traceback of an exception raised in the trace"


class Exceptions:
    """The opcode handlers of ``raise`` and ``try``/``except``/``finally``."""

    # -------------------------------------------------------------- state
    def root_frame(self):
        tx = self
        while tx.parent is not None:
            tx = tx.parent
        return tx

    @property
    def handled(self) -> Variable:
        """The exception being handled (``sys.exception()``): an ExceptionVariable,
        ``None`` as a ConstantVariable, or ``CALLER_EXCEPTION``."""
        return getattr(self.root_frame(), "_handled", CALLER_EXCEPTION)

    @handled.setter
    def handled(self, value: Variable) -> None:
        root = self.root_frame()
        root._handled = value
        if value is CALLER_EXCEPTION:
            root.raise_origin = None   # no exception of the trace is handled any more

    # -------------------------------------------------------------- raising
    def RAISE_VARARGS(self, inst):
        if not self.in_try():
            # nothing in the trace catches it: the frame raises it for real at a break,
            # so the traceback and the exception object are Python's own
            raise Unsupported("raise statement", "The exception is raised by the program "
                              "itself, eagerly.", cause="raise")
        if inst.arg == 0:   # bare `raise`: the handled exception again, as it is
            exc = self.handled
            if not isinstance(exc, ExceptionVariable):
                raise Unsupported("bare raise outside a handler of the trace",
                                  "It re-raises what the caller is handling, unknown "
                                  "while tracing.", cause="raise")
            raise SymbolicRaise(exc, self)
        cause = self.pop() if inst.arg == 2 else None
        exc = self.exception_object(self.pop())
        if cause is not None:
            exc.cause = None if _is_none(cause) else self.exception_object(cause)
            exc.suppress_context = True
        self.set_context(exc)
        exc.raised = True
        raise SymbolicRaise(exc, self)

    def python_error(self, error: Exception) -> ExceptionVariable | None:
        """The exception Python raises at this instruction, which the trace met as a
        real ``error`` marked as the program's (``variables.base.program_error``: a
        missing dict key, a folded ``1 / 0``; never an error of the translator), as a raised
        ExceptionVariable; None when its class is not BaseException's construction.
        Where the raise site marked it exact (``program_error(..., exact=True)``: the
        error of the real operation on the program's values, or NumPy's own for the
        same shapes and dtypes) its arguments are the program's, so ``str(e)`` and
        ``e.args`` are known; otherwise only its class is sure (the model may word the
        message otherwise) and reading its arguments or text is a graph break
        (``ExceptionVariable.exact``)."""
        if not plain_exception_class(type(error)):
            return None
        exact = is_exact_program_error(error) and all(is_pure_constant(a)
                                                      for a in error.args)
        exc = ExceptionVariable(type(error),
                                [ConstantVariable(a) for a in error.args] if exact else [])
        exc.exact = exact
        self.set_context(exc)
        exc.raised = True
        return exc

    def exception_object(self, value: Variable) -> ExceptionVariable:
        """What ``raise value`` raises: the instance, or a new instance of a class."""
        if isinstance(value, ExceptionVariable):
            return value
        if isinstance(value, ClassVariable) and issubclass(value.cls, BaseException) and \
                plain_exception_class(value.cls):
            return ExceptionVariable(value.cls, [], value.source)
        raise Unsupported(f"raise of {value.describe()}", "The translator models only "
                          "exceptions built in the trace from classes whose construction "
                          "is BaseException's; this raise runs eagerly.", cause="raise")

    def set_context(self, exc: ExceptionVariable) -> None:
        """``exc.__context__ = the handled exception``, as ``_PyErr_SetObject`` does,
        breaking a cycle the chain would close."""
        handled = self.handled
        if handled is exc or _is_none(handled):
            return
        link = handled
        while isinstance(link, ExceptionVariable):
            if link.context is exc:
                link.context = None
                break
            link = link.context
        exc.context = handled

    def unwind(self, error: SymbolicRaise) -> None:
        """Go to the handler of the current instruction, or leave the frame."""
        inst = self.current
        if error.caught_by is not self:
            # it came through a model of Python (map(), sorted(key=), an operator
            # calling a dunder...), whose own state at the raise the trace does not
            # model exactly: the instruction runs eagerly
            raise Unsupported(f"{error.exc.cls.__name__} raised inside {inst.name} of a "
                              "builtin that calls the program's code", "Where the builtin "
                              "stopped is Python's own; the instruction runs eagerly.",
                              cause="raise")
        entry = self.info.handler_of(inst.index)
        if entry is None or self.code.co_flags & inspect.CO_GENERATOR:
            if self.parent is not None and not self.code.co_flags & inspect.CO_GENERATOR:
                raise error   # the caller's CALL instruction unwinds in its frame
            self.escape(error.exc)
        target, depth, lasti = entry
        root = self.root_frame()
        if self is root and root.raise_origin is None:
            root.raise_origin = inst.index
        del self.stack[depth:]
        self.kw_names = ()   # (3.11/3.12: a KW_NAMES whose CALL never ran)
        if lasti:
            self.push(ConstantVariable(inst.index))
        self.push(error.exc)
        self.ip = target

    def escape(self, exc: ExceptionVariable) -> None:
        """The exception leaves the traced function (or a generator, whose frame state
        the trace does not model): a graph break. In the root frame, the break
        becomes an island from the ``try`` where it was first raised (``frames``), so
        the original code raises it and the traceback is Python's."""
        raise Unsupported(f"{exc.cls.__name__} raised and not caught in the function",
                          "An exception that leaves the compiled function is raised by "
                          "the program itself, eagerly.", cause="raise")

    # -------------------------------------------------------------- handlers
    def PUSH_EXC_INFO(self, inst):
        exc = self.pop()
        self.push(self.handled)
        self.push(exc)
        self.handled = exc

    def POP_EXCEPT(self, inst):
        self.handled = self.pop()

    def CHECK_EXC_MATCH(self, inst):
        match = self.pop()
        self.push(ConstantVariable(exception_matches(self.stack[-1], match)))

    def RERAISE(self, inst):
        exc = self.pop()
        if not isinstance(exc, ExceptionVariable):
            raise Unsupported(f"re-raise of {exc.describe()}", cause="raise")
        raise SymbolicRaise(exc, self)

    def handled_exception(self) -> Variable:
        """``sys.exception()``: the handled exception, or None."""
        exc = self.handled
        exc.python_type()   # the caller's: Unsupported
        return exc

    def exc_info(self) -> Variable:
        """``sys.exc_info()``: (type, value, traceback) of the handled exception."""
        exc = self.handled
        if _is_none(exc):
            return TupleVariable([ConstantVariable(None)] * 3)
        if not isinstance(exc, ExceptionVariable):
            exc.python_type()   # raises Unsupported: the caller's
        return TupleVariable([ClassVariable(exc.cls, exc.class_source), exc, TracebackVariable()])


def exception_matches(exc: Variable, match: Variable) -> bool:
    """``except match`` for the raised ``exc``, decided while tracing."""
    if not isinstance(exc, ExceptionVariable):
        raise Unsupported(f"except clause for {exc.describe()}", cause="try")
    if not match.is_constant():
        raise Unsupported(f"except clause of {match.describe()}",
                          "Which exceptions it catches is only known when the program "
                          "runs.", cause="try")
    classes = match.as_python_constant()
    for cls in classes if isinstance(classes, tuple) else (classes,):
        if not (isinstance(cls, type) and issubclass(cls, BaseException)):
            raise Unsupported(f"except clause of {cls!r}", "Python raises TypeError here: "
                              "catching classes that do not inherit from BaseException is "
                              "not allowed.", cause="python_error")
    return issubclass(exc.cls, classes)


def _is_none(value: Variable) -> bool:
    return isinstance(value, ConstantVariable) and value.value is None
