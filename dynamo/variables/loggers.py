"""``logging.Logger`` objects: calls below the logger's level vanish from the trace.

Real NumPy code logs (``log.debug(f"step {i}: lr={lr}")``). A logging call is a call
into the standard library, so it would be a graph break; but when the logger is not
enabled for the call's level the call does nothing at all, and dropping it changes no
output. So a call whose level is disabled *while tracing* is dropped and guarded: the
entry holds only while ``not log.isEnabledFor(level)`` (re-checked at every call, so
``log.setLevel(logging.DEBUG)`` or ``logging.disable`` later makes the function retrace
and the call runs, in order, as a graph break). Its arguments were traced like any
other values (the f-string above is built from constants, or breaks on its own)::

    log = logging.getLogger("train")           # level WARNING

    def step(w, g, lr):
        log.debug(f"lr={lr}")                  # dropped; guard: not G['log'].isEnabledFor(10)
        return w - lr * g                      # one graph, no break

An enabled call stays a graph break, so its message is emitted at its place in the
program, between the graphs before and after it.
"""

from __future__ import annotations

import logging

from dynamo.guards import EXPR, Guard

from ..exc import Unsupported
from .base import Variable
from .constant import ConstantVariable
from .objects import ObjectVariable

# Logger methods that emit one record at a fixed level.
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR, "exception": logging.ERROR,
          "critical": logging.CRITICAL, "fatal": logging.CRITICAL}


class LoggerVariable(ObjectVariable):
    """A ``logging.Logger`` from outside the trace (guarded by identity)."""

    def getattr(self, tx, name: str) -> Variable:
        if name in LEVELS or name == "log":
            return LoggingCallVariable(self, name)
        return super().getattr(tx, name)


class LoggingCallVariable(Variable):
    """``log.debug`` (or ``log.log``) before it is called."""

    def __init__(self, logger: LoggerVariable, name: str):
        self.logger, self.name = logger, name

    def describe(self) -> str:
        return f"method Logger.{self.name}"

    def call(self, tx, args, kwargs) -> Variable:
        args = list(args)
        if self.name == "log":
            if not args or not args[0].is_constant() or \
                    not isinstance(args[0].as_python_constant(), int):
                raise Unsupported("Logger.log() with a level that is not a constant int")
            level = args.pop(0).as_python_constant()
        else:
            level = LEVELS[self.name]
        logger, source = self.logger.obj, self.logger.source
        if logger.isEnabledFor(level):
            raise Unsupported(f"call to Logger.{self.name}() (enabled for level "
                              f"{logging.getLevelName(level)})",
                              "The record is emitted eagerly, at its place in the program.",
                              cause="logging")
        tx.output.guards.add(Guard(source, EXPR, f"not {source.expr()}.isEnabledFor({level})",
                                   note=f"Logger.{self.name}() is dropped while disabled"))
        return ConstantVariable(None)

    def reconstruct(self, cg) -> str:
        return f"{cg.value(self.logger)}.{self.name}"
