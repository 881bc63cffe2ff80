"""``np.errstate(...)`` made inside the traced function, entered by a ``with``.

``with np.errstate(divide="ignore"): ...`` enters through ``__enter__`` and leaves
through ``__exit__(None, None, None)`` (3.11-3.13: ``BEFORE_WITH`` and a call at the
end of the block; 3.14: ``LOAD_SPECIAL`` for both). Each becomes a graph op
(:mod:`dynamo.ops.errstate`), so the ops between them run with the block's settings.
A graph break inside the block makes the whole ``with`` statement run eagerly (the
translator restarts and breaks where the block was entered: ``frames.py``).

Example::

    >>> e = ErrstateVariable.construct([], {"divide": ConstantVariable("ignore")})
    >>> e.settings
    {'divide': 'ignore'}
"""

from __future__ import annotations

import numpy as np

from ..exc import Unsupported
from ..ops import errstate
from .base import BoundBuiltinMethod, Variable
from .constant import ConstantVariable


class ErrstateVariable(Variable):
    """An ``np.errstate`` with constant settings; ``node`` is its enter op while entered."""

    def __init__(self, settings: dict[str, str]):
        self.settings = settings
        self.node = None

    @classmethod
    def construct(cls, args: list, kwargs: dict) -> ErrstateVariable:
        settings = {k: v.as_python_constant() if v.is_constant() else v
                    for k, v in kwargs.items()}
        if args or set(settings) - errstate.SETTINGS or \
                not all(isinstance(v, str) and v in errstate.MODES for v in settings.values()):
            raise Unsupported("np.errstate() with other arguments than constant modes",
                              "Only all=/divide=/over=/under=/invalid= with a mode "
                              "('ignore', 'warn', 'raise', ...) are captured; the with "
                              "block runs eagerly.", cause="with")
        return cls(settings)

    def describe(self) -> str:
        return f"np.errstate({', '.join(f'{k}={v!r}' for k, v in self.settings.items())})"

    def python_type(self) -> type:
        return np.errstate

    def getattr(self, tx, name: str) -> Variable:
        if name in ("__enter__", "__exit__"):
            return BoundBuiltinMethod(self, name)
        return super().getattr(tx, name)

    def call_method(self, tx, name: str, args: list, kwargs: dict) -> Variable | None:
        """``__enter__()`` and ``__exit__(None, None, None)``, as ``with`` calls them."""
        if args and args[0] is self:          # 3.14: LOAD_SPECIAL passes self
            args = args[1:]
        if kwargs or name not in ("__enter__", "__exit__") or \
                (name == "__enter__" and args):
            return None                        # BoundBuiltinMethod: a break that says so
        return self.enter(tx) if name == "__enter__" else self.exit(tx, args)

    def enter(self, tx) -> Variable:
        if self.node is not None:
            raise Unsupported("entering one np.errstate twice (NumPy raises)", cause="with")
        self.node = tx.output.effect_op("errstate_enter", (), self.settings)
        return ConstantVariable(None)

    def exit(self, tx, args: list) -> Variable:
        if self.node is None or len(args) != 3 or \
                not all(a.is_constant() and a.as_python_constant() is None for a in args):
            raise Unsupported("np.errstate.__exit__ outside a with block", cause="with")
        tx.output.effect_op("errstate_exit", (self.node,), {})
        self.node = None
        return ConstantVariable(None)

    def reconstruct(self, cg) -> str:
        if self.node is not None:
            raise Unsupported("an entered np.errstate that outlives the graph", cause="with")
        return f"{cg.const(np.errstate)}(**{cg.const(dict(self.settings))})"
