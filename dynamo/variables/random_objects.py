"""Random number generators: ``np.random.Generator`` and ``RandomState`` objects.

One passed in is an input of the graph, guarded by type; one the trace makes
(``np.random.default_rng(seed)``) is the value of the graph node that makes it. Either
way its methods are random graph ops that run in program order (``dynamo.ops.generator``).

Example::

    >>> rng = RandomObjectVariable(np.random.default_rng(0), LocalSource("rng"))
    >>> rng.getattr(tx, "normal")        # OpMethodVariable: rng.normal(...) is a graph op
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exc import Unsupported
from .base import Variable
from .constant import ConstantVariable, raw
from .library_names import library_name


class RandomObjectVariable(Variable):
    """A ``np.random.Generator`` or ``RandomState`` from outside the trace, guarded by
    type: an input of the graph (``output.object_input``). Its methods are random graph
    ops that take it first and call the method when the graph runs, in program order
    (see :mod:`dynamo.ops.generator`).

    ``node``: a Generator the trace made (``np.random.default_rng(seed)``), the value of
    that graph node; ``obj`` is then a private Generator of the same type, which the
    rules read the type of."""

    def __init__(self, obj: Any, source=None, node=None):
        self.obj, self.source, self.node = obj, source, node

    def describe(self) -> str:
        return f"{type(self.obj).__name__} object"

    def python_type(self) -> type:
        return type(self.obj)

    def as_graph_arg(self, output):
        """The graph's placeholder for this object (one per source), or the node that
        made it."""
        if self.node is not None:
            return self.node
        return output.object_input(self.obj, self.source)

    def reconstruct(self, cg) -> str:
        if self.node is not None:      # made by the graph: one of its outputs
            return cg.graph_output(self.node)
        return super().reconstruct(cg)

    def as_meta(self) -> Any:
        return self.obj           # rules read its type only

    def getattr(self, tx, name: str) -> Variable:
        from .. import ops
        hit = ops.lookup_random_method(self.obj, name)
        if hit is None:
            if not hasattr(self.obj, name):
                raise AttributeError(f"{type(self.obj).__name__!r} object has no attribute "
                                     f"{name!r}")
            raise Unsupported(f"{type(self.obj).__name__}.{name} is not in the op registry",
                              "Only methods that draw arrays are graph ops; this one runs "
                              "eagerly, at its place in the program.",
                              cause="random_state")
        from .library_calls import OpMethodVariable
        return OpMethodVariable(self, name, hit, f"{type(self.obj).__name__}.{name}")


def new_random_object(tx, fn, args, kwargs) -> Variable:
    """``np.random.default_rng(seed)`` or ``np.random.RandomState(seed)`` with an int (a
    constant or a dynamic int argument) or None: the op that makes the object when the
    graph runs, in program order; the node's value is the object. Its methods are the
    Generator (RandomState) ops, as for one passed in; the glue reads the object from
    the graph's outputs when the program keeps it (returned, stored, live at a break)."""
    op_name, example = _NEW_GENERATORS[fn]
    seed = kwargs.get("seed", args[0] if args else ConstantVariable(None))
    value = raw(seed) if isinstance(seed, ConstantVariable) else seed
    if len(args) + len(kwargs) > 1 or not (value is None or isinstance(value, int)) or \
            isinstance(value, bool):
        raise Unsupported(f"{library_name(fn)}() of anything but an int or None",
                          cause="random_state")     # (dynamo/hints.py says why)
    node = tx.output.effect_op(op_name, (tx.output.graph_arg(value),), {})
    node.meta["object"] = type(example)
    return RandomObjectVariable(example, node=node)


# constructor -> (its op, a private object of its type, for the rules)
_NEW_GENERATORS = {
    np.random.default_rng: ("random_default_rng", np.random.Generator(np.random.PCG64(0))),
    np.random.RandomState: ("random_randomstate", np.random.RandomState(0)),
}
